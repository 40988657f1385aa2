"""Write a class folder (``setup``) and check it on the machine (``check``).

What ``write_class`` makes, from a ``ClassSettings``:

* ``<class_dir>/jupyterhub_config.py``: local system users with the local-process
  spawner, PAM login (or, only when asked, JupyterHub's test-only dummy login), the
  instructor as the hub's admin, the allowed users read from ``roster.csv`` when the
  hub starts, and per user a ``JUPYTER_CONFIG_PATH`` that points to its role's folder;
* ``<class_dir>/jupyter/{instructor,student}/``: nbgrader's ``course_id`` and exchange
  for both; for students the formgrader, course list and create-assignment menus are
  switched off (lab page config and server-extension config), for the instructor the
  course folder;
* the exchange root, world-writable with the sticky bit (as nbgrader requires);
* the instructor's course folder (mode 700) with the chosen lessons as nbgrader
  sources ``source/NN-name/NN_name.ipynb``.

Example
-------
>>> from coursetools.classroom.settings import ClassSettings
>>> s = ClassSettings(class_dir=Path("/tmp/c"), instructor="alice", course_root=Path("/tmp/r"))
>>> "LocalProcessSpawner" in hub_config_text(s)
True
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import stat
import subprocess
from pathlib import Path

from coursetools.classroom import service
from coursetools.classroom.sandbox import KERNEL_NAME, kernel_spec
from coursetools.classroom.settings import ClassSettings
from coursetools.shared.common import CourseToolsError, lesson_notebooks

#: What students must not see: nbgrader's instructor menus and their server handlers.
STUDENT_DISABLED_LAB = (
    "@jupyter/nbgrader:formgrader",
    "@jupyter/nbgrader:create-assignment",
    "@jupyter/nbgrader:course-list",
)
STUDENT_DISABLED_SERVER = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.course_list",
)
#: The student install of the course (course-settings/) switches nbgrader off in the
#: environment; each role's own config folder, which takes precedence, turns back on
#: what that role uses.
NBGRADER_LAB = "@jupyter/nbgrader"
NBGRADER_SERVER = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.validate_assignment",
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.course_list",
)
EXCHANGE_MODE = 0o1777
#: The instructor's Jupyter pages (Lab, the formgrader) may not be framed (JupyterHub's own
#: default), nor take a <base> or send a form to another site: a second fence behind
#: student_html, which already removes both from what students wrote.
INSTRUCTOR_CSP = "frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
#: The course's folders in the exchange, made by setup and owned by the instructor, so
#: that nobody can create them first (nbgrader would then refuse to release). The modes
#: are nbgrader's own (release_assignment, release_feedback) with the sticky bit added to
#: inbound: students write there without reading it, and none can rename or delete
#: another's submission.
EXCHANGE_COURSE_MODES = {"": 0o755, "outbound": 0o755, "inbound": 0o3733, "feedback": 0o711}
LOOPBACK = ("127.0.0.1", "::1", "localhost")
#: Login shells read these: ``sudo -u teacher -i`` (or ssh) gets the hub's environment.
PROFILE_DIR = Path("/etc/profile.d")

PROFILE = '''\
# Written by `python -m coursetools.classroom setup` for the course {course_id!r}: the
# instructor's login shell (sudo -u {instructor} -i, ssh) gets what the hub gives their
# JupyterLab: the course's nbgrader on PATH and the instructor's nbgrader configuration.
case "$(id -un)" in
    {users})
        export PATH="{env_bin}:$PATH"
        export JUPYTER_CONFIG_PATH="{config}"
        ;;
esac
'''

HUB_CONFIG = '''\
# jupyterhub_config.py for the course {course_id!r}.
# Written by `python -m coursetools.classroom setup`: change classroom.json's settings
# with setup and let it rewrite this file; `... classroom check` checks it.
import csv
import pathlib

c = get_config()  # noqa: F821

CLASS_DIR = pathlib.Path({class_dir!r})
INSTRUCTOR = {instructor!r}
ADMINS = {{INSTRUCTOR, *{admins!r}}}
ENV_BIN = {env_bin!r}

# Where the hub listens (loopback by default, behind the HTTPS proxy of the guide); its
# own API and the proxy's API stay on localhost.
c.JupyterHub.bind_url = "{scheme}://{ip}:{port}"{ssl_lines}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.pid_file = str(CLASS_DIR / "state" / "proxy.pid")
c.JupyterHub.db_url = "sqlite:///" + str(CLASS_DIR / "state" / "jupyterhub.sqlite")
c.JupyterHub.cookie_secret_file = str(CLASS_DIR / "state" / "jupyterhub_cookie_secret")

# Who may log in: the instructor, extra admins and the roster's ids (read at start;
# restart the hub after `classroom roster import`).
def _roster_ids():
    path = CLASS_DIR / "roster.csv"
    if not path.is_file():
        return set()
    with path.open(newline="", encoding="utf-8") as f:
        return {{row["id"] for row in csv.DictReader(f)}}


c.Authenticator.allowed_users = ADMINS | _roster_ids()
c.Authenticator.admin_users = ADMINS
{authenticator_lines}

# Every user runs Lab as their own system user, from the course's environment.
c.JupyterHub.spawner_class = "jupyterhub.spawner.LocalProcessSpawner"
c.Spawner.cmd = [ENV_BIN + "/jupyterhub-singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120


def _role_config(spawner):
    role = "instructor" if spawner.user.name == INSTRUCTOR else "student"
    return str(CLASS_DIR / "jupyter" / role)


# The role's folder comes after ~/.jupyter and before the environment's own config:
# students get the exchange and course id, with the instructor's menus switched off.
c.Spawner.environment = {{
    "JUPYTER_CONFIG_PATH": _role_config,
    "PATH": ENV_BIN + ":/usr/local/bin:/usr/bin:/bin",
}}
'''

PAM_LINES = '''\
# Real use: the machine's own accounts and passwords (PAM).
c.JupyterHub.authenticator_class = "pam"'''

DUMMY_LINES = '''\
# TEST ONLY (setup --authenticator dummy): one shared password for every listed user.
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {password!r}'''

NBGRADER_CONFIG = '''\
# nbgrader configuration for the {role}s of {course_id!r} (written by classroom setup).
c = get_config()  # noqa: F821
c.CourseDirectory.course_id = {course_id!r}
c.Exchange.root = {exchange_root!r}
'''

STUDENT_EXTRA = '''\
# A submission stays the student's own: nbgrader makes its folder writable by everyone;
# PrivateSubmit closes it to other students (the instructor's group still reads it).
c.ExchangeFactory.submit = "coursetools.classroom.exchange.PrivateSubmit"
'''

INSTRUCTOR_EXTRA = '''\
c.CourseDirectory.root = {course_root!r}
# Autograde runs each submission in the grading sandbox (coursetools.classroom.sandbox:
# bubblewrap, no course folder, limits), a cell at most 120 s.
c.ExecutePreprocessor.kernel_name = {kernel_name!r}
c.ExecutePreprocessor.timeout = 120
# Collect refuses forged, foreign, linked and future-dated submissions (and reports them).
c.ExchangeFactory.collect = "coursetools.classroom.exchange.SafeCollect"
# A check cell is "changed" only when it differs from what the student was given (nbgrader
# compares with the source before its hidden tests were removed: a false alarm each time).
c.Autograde.sanitize_preprocessors = {sanitize!r}
# Each check that passed in the kernel runs again out of the answer's reach: the answer
# cell as submitted in a sandboxed process of its own, without the functions the
# exercise forbids (coursetools.classroom.graded, issue 50). A student's HTML never runs
# in the instructor's browser: autograde stores the notebook with its HTML made passive,
# and every HTML page the instructor's Jupyter renders from a notebook (the formgrader's
# grading pages, the feedback) makes it passive again.
c.Autograde.autograde_preprocessors = {autograde!r}
# and every figure there has the alt text the course's site gives it.
c.HTMLExporter.preprocessors = [{neutralise!r}, {alt_text!r}]
# nbgrader's new submissions without SQLAlchemy's "will not proceed" warnings (harmless).
from coursetools.classroom.autograde import add_submissions_without_autoflush  # noqa: E402

add_submissions_without_autoflush()
'''


GRADEBOOK_LINES = '''\
# The shared gradebook (setup --gradebook-url): its URL, with its password, is in the
# course folder, which only the instructor can read (this file is readable by all).
import pathlib as _pathlib  # noqa: E402

c.CourseDirectory.db_url = _pathlib.Path({path!r}).read_text().strip()
'''


def gradebook_url_file(settings: ClassSettings) -> Path:
    return settings.course_root / ".gradebook-url"


def hub_config_text(settings: ClassSettings) -> str:
    if settings.authenticator == "dummy":
        auth = DUMMY_LINES.format(password=settings.test_password)
    else:
        auth = PAM_LINES
    ssl = ""
    if settings.ssl_cert:
        ssl = (f"\nc.JupyterHub.ssl_cert = {settings.ssl_cert!r}"
               f"\nc.JupyterHub.ssl_key = {settings.ssl_key!r}")
    return HUB_CONFIG.format(
        course_id=settings.course_id, class_dir=str(settings.class_dir),
        instructor=settings.instructor, admins=sorted(settings.admins),
        env_bin=str(settings.env_bin), ip=settings.ip, port=settings.port,
        scheme="https" if settings.ssl_cert else "http", ssl_lines=ssl,
        hub_port=settings.hub_port, proxy_api_port=settings.proxy_api_port,
        authenticator_lines=auth,
    ) + (service.hub_lines(settings) if settings.exchange_service else "")


def nbgrader_config_text(settings: ClassSettings, role: str) -> str:
    text = NBGRADER_CONFIG.format(
        role=role, course_id=settings.course_id, exchange_root=str(settings.exchange_root)
    )
    if role == "instructor":
        # imports nbgrader: only here
        from coursetools.classroom.autograde import ALT_TEXT, AUTOGRADE, NEUTRALISE, SANITIZE

        text += INSTRUCTOR_EXTRA.format(course_root=str(settings.course_root), kernel_name=KERNEL_NAME,
                                        sanitize=SANITIZE, autograde=AUTOGRADE, neutralise=NEUTRALISE,
                                        alt_text=ALT_TEXT)
    else:
        text += STUDENT_EXTRA
    cgroup = grading_cgroup(settings) if role == "instructor" else None
    if cgroup is not None:
        # The answers' processes at grading share the grading kernel's memory limit.
        text += f"c.GradedChecks.memory_cgroup = {str(cgroup)!r}\n"
    if role == "instructor" and settings.gradebook_db_url:
        text += GRADEBOOK_LINES.format(path=str(gradebook_url_file(settings)))
    if settings.exchange_service:  # after the folder exchange's lines: these replace them
        text += service.nbgrader_lines(settings, role)
    return text


def profile_file(settings: ClassSettings) -> Path:
    return PROFILE_DIR / f"coursetools-class-{settings.course_id}.sh"


def profile_text(settings: ClassSettings) -> str:
    return PROFILE.format(
        course_id=settings.course_id, instructor=settings.instructor,
        users="|".join([settings.instructor, *sorted(settings.admins)]),
        env_bin=settings.env_bin, config=settings.role_config_dir("instructor"),
    )


def assignment_name(lesson: Path) -> str:
    """``03_general_position.ipynb`` -> ``03-general-position`` (nbgrader's folder name)."""
    return lesson.stem.replace("_", "-")


def _user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise CourseToolsError(
            f"no system user {name!r}: create it first (sudo adduser {name})"
        ) from None


def _chown_tree(path: Path, uid: int, gid: int) -> None:
    os.chown(path, uid, gid)
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            os.chown(os.path.join(root, name), uid, gid)


def _write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)


def write_class(settings: ClassSettings, lessons: list[Path] | None = None) -> list[Path]:
    """Write the class folder, the exchange and the course folder; return what was written.

    Existing lesson sources in the course folder are kept (the instructor may have
    edited them); everything else ``setup`` owns is rewritten.
    """
    from coursetools.classroom.roster import system_account

    instructor = _user(settings.instructor)
    for admin in settings.admins:
        _user(admin)
    for name in (settings.instructor, *settings.admins):
        problem = system_account(name)
        if problem:  # the hub's admin logs in with a password and runs autograde
            raise CourseToolsError(f"--instructor/--admin {name!r} {problem}: use a person's account")
    if os.geteuid() != 0:
        raise CourseToolsError("setup writes system folders and owners: run it as root (sudo)")
    lessons = lesson_notebooks() if lessons is None else lessons
    written: list[Path] = []

    settings.class_dir.mkdir(parents=True, exist_ok=True)
    settings.class_dir.chmod(0o755)  # users' servers read their role's folder
    settings.state_dir.mkdir(exist_ok=True)
    settings.state_dir.chmod(0o700)
    written.append(settings.save())
    _write(settings.hub_config, hub_config_text(settings), 0o600)
    written.append(settings.hub_config)

    for role in ("instructor", "student"):
        folder = settings.role_config_dir(role)
        _write(folder / "nbgrader_config.py", nbgrader_config_text(settings, role))
        written.append(folder / "nbgrader_config.py")
        disabled_lab = STUDENT_DISABLED_LAB if role == "student" else ()
        disabled_server = STUDENT_DISABLED_SERVER if role == "student" else ()
        page = {"disabledExtensions": {NBGRADER_LAB: False, **{name: True for name in disabled_lab}}}
        _write(folder / "labconfig" / "page_config.json", json.dumps(page, indent=2) + "\n")
        server = {"ServerApp": {"jpserver_extensions": {
            name: name not in disabled_server for name in NBGRADER_SERVER}}}
        if role == "instructor":
            server["ServerApp"]["tornado_settings"] = {
                "headers": {"Content-Security-Policy": INSTRUCTOR_CSP}}
        _write(folder / "jupyter_server_config.json", json.dumps(server, indent=2) + "\n")
        written += [folder / "labconfig" / "page_config.json", folder / "jupyter_server_config.json"]
        for sub in (folder, folder / "labconfig"):
            sub.chmod(0o755)

    if settings.exchange_service:  # no shared folder: the ngshare service behind the hub
        written += service.install_service(settings)
    else:
        settings.exchange_root.mkdir(parents=True, exist_ok=True)
        settings.exchange_root.chmod(EXCHANGE_MODE)
        written.append(settings.exchange_root)
        written += _make_exchange_course(settings, instructor)

    root = settings.course_root
    root.mkdir(parents=True, exist_ok=True)
    for lesson in lessons:
        target = root / "source" / assignment_name(lesson) / lesson.name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(lesson, target)
            written.append(target)
    if settings.gradebook_db_url:
        _write(gradebook_url_file(settings), settings.gradebook_db_url + "\n", 0o600)
        written.append(gradebook_url_file(settings))
    _chown_tree(root, instructor.pw_uid, instructor.pw_gid)
    root.chmod(0o700)  # the gradebook and the solutions are the instructor's alone
    written += _delegate_cgroup(settings, instructor)
    written.append(_install_sandbox_kernel(settings, instructor))
    if PROFILE_DIR.is_dir():
        _write(profile_file(settings), profile_text(settings), 0o644)
        written.append(profile_file(settings))
    return written


def _make_exchange_course(settings: ClassSettings, instructor: pwd.struct_passwd) -> list[Path]:
    """The course's exchange folders, owned by the instructor, in nbgrader's modes."""
    made = []
    for sub, mode in EXCHANGE_COURSE_MODES.items():
        path = settings.exchange_course / sub if sub else settings.exchange_course
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            raise CourseToolsError(f"{path} is not a folder: someone put it there; remove it, rerun setup")
        if path.exists() and path.stat().st_uid != instructor.pw_uid:
            owner = path.stat().st_uid
            raise CourseToolsError(
                f"{path} belongs to uid {owner}, not {instructor.pw_name}: someone made it before "
                "setup; look at what it holds, remove it (rm -r), rerun setup"
            )
        path.mkdir(exist_ok=True)
        os.chown(path, instructor.pw_uid, instructor.pw_gid)
        path.chmod(mode)
        made.append(path)
    return made


def _delegate_cgroup(settings: ClassSettings, instructor: pwd.struct_passwd) -> list[Path]:
    """The course's memory cgroup, given to the instructor (one limit per grading kernel)."""
    from coursetools.classroom.cgroup import delegate, memory_controller

    controller = memory_controller()
    if controller is None:
        return []
    folder = controller.course_folder(settings.course_id)
    delegate(folder, controller.version, instructor.pw_uid, instructor.pw_gid)
    return [folder]


def sandbox_kernel_file(settings: ClassSettings, home: Path) -> Path:
    """Where the instructor's grading kernel spec lives (their Jupyter data folder)."""
    return home / ".local" / "share" / "jupyter" / "kernels" / KERNEL_NAME / "kernel.json"


def grading_cgroup(settings: ClassSettings) -> Path | None:
    """The course's memory cgroup folder on this machine (None: no memory controller)."""
    from coursetools.classroom.cgroup import memory_controller

    controller = memory_controller()
    return None if controller is None else controller.course_folder(settings.course_id)


def sandbox_kernel_text(settings: ClassSettings) -> str:
    spec = kernel_spec(str(settings.env_bin / "python"), settings.hidden_from_grading,
                       grading_cgroup(settings))
    return json.dumps(spec, indent=2) + "\n"


def _install_sandbox_kernel(settings: ClassSettings, instructor: pwd.struct_passwd) -> Path:
    home = Path(instructor.pw_dir)
    path = sandbox_kernel_file(settings, home)
    for folder in [*reversed(path.parent.relative_to(home).parents), path.parent.relative_to(home)]:
        if str(folder) == ".":
            continue
        target = home / folder
        if target.is_symlink():
            raise CourseToolsError(f"{target} is a symbolic link: setup will not write through it")
        if not target.exists():
            target.mkdir(mode=0o755)
            os.chown(target, instructor.pw_uid, instructor.pw_gid)
    if path.is_symlink():  # root never writes through a link the instructor could plant
        path.unlink()
    path.write_text(sandbox_kernel_text(settings), encoding="utf-8")
    os.chown(path, instructor.pw_uid, instructor.pw_gid)
    path.chmod(0o644)
    return path


# -- check ---------------------------------------------------------------------------
def _traversable_by_others(path: Path) -> str | None:
    """The first folder on the way to ``path`` that other users cannot enter, if any."""
    for parent in [*reversed(path.parents), path]:
        if parent.is_dir() and not parent.stat().st_mode & stat.S_IXOTH:
            return str(parent)
    return None


def check_class(settings: ClassSettings) -> list[str]:
    """Problems found on this machine, each with what to do; empty when all is well."""
    problems: list[str] = []
    for tool in ("jupyterhub-singleuser", "jupyterhub", "nbgrader"):
        if not (settings.env_bin / tool).exists():
            problems.append(f"{settings.env_bin / tool} is missing: pip install -e '.[classroom]'")
    if shutil.which("configurable-http-proxy") is None:
        problems.append("configurable-http-proxy is not on PATH: npm install -g configurable-http-proxy")
    python = settings.env_bin / "python"
    blocked = _traversable_by_others(settings.env_bin) or (
        _traversable_by_others(python.resolve()) if python.exists() else None
    )
    if blocked:
        problems.append(
            f"{blocked} cannot be entered by other users, so students cannot run "
            f"{settings.env_bin} (its Python lives there): rebuild the environment from the "
            f"system's Python (rm -r {settings.env_bin.parent} && /usr/bin/python3 -m venv "
            f"{settings.env_bin.parent} && {settings.env_bin}/python -m pip install -e "
            "'.[classroom]'), or chmod o+x " + blocked
        )
    if not settings.hub_config.is_file():
        problems.append(f"{settings.hub_config} is missing: rerun setup")
    elif settings.hub_config.read_text(encoding="utf-8") != hub_config_text(settings):
        problems.append(f"{settings.hub_config} differs from classroom.json: rerun setup")
    for role in ("instructor", "student"):
        path = settings.role_config_dir(role) / "nbgrader_config.py"
        if not path.is_file() or path.read_text(encoding="utf-8") != nbgrader_config_text(settings, role):
            problems.append(f"{path} is missing or was edited: rerun setup")
    profile = profile_file(settings)
    if PROFILE_DIR.is_dir() and (not profile.is_file() or profile.read_text() != profile_text(settings)):
        problems.append(f"{profile} is missing or was edited (the instructor's shell): rerun setup")
    page = settings.role_config_dir("student") / "labconfig" / "page_config.json"
    try:
        disabled = json.loads(page.read_text()).get("disabledExtensions", {})
    except (OSError, json.JSONDecodeError):
        disabled = {}
    for name in STUDENT_DISABLED_LAB:
        if not disabled.get(name):
            problems.append(f"{page}: students would see {name}: rerun setup")

    ex = settings.exchange_root
    if settings.exchange_service:
        if not service.service_python(settings).exists():
            problems.append(f"{service.service_python(settings)} is missing (the exchange service): "
                            "rerun setup --exchange service")
    elif not ex.is_dir():
        problems.append(f"exchange {ex} is missing: rerun setup (as root)")
    else:
        mode = stat.S_IMODE(ex.stat().st_mode)
        if mode != EXCHANGE_MODE:
            problems.append(f"exchange {ex} has mode {mode:o}, nbgrader needs 1777: chmod 1777 {ex}")

    try:
        instructor = pwd.getpwnam(settings.instructor)
    except KeyError:
        problems.append(f"no system user {settings.instructor!r}: sudo adduser {settings.instructor}")
        instructor = None
    if ex.is_dir() and instructor is not None and not settings.exchange_service:
        problems += _check_exchange_course(settings, instructor)
    problems += _check_listening(settings)
    problems += _check_homes(settings)
    if instructor is not None:
        problems += _check_sandbox(settings, instructor)
        problems += _check_cgroup(settings, instructor)
    root = settings.course_root
    if not root.is_dir():
        problems.append(f"course folder {root} is missing: rerun setup")
    elif instructor is not None and root.stat().st_uid != instructor.pw_uid:
        problems.append(f"course folder {root} is not owned by {settings.instructor}: chown -R it")
    elif not (root / "source").is_dir() or not any((root / "source").iterdir()):
        problems.append(f"{root}/source has no assignment: setup --lesson NN copies lessons there")
    return problems


def _check_exchange_course(settings: ClassSettings, instructor: pwd.struct_passwd) -> list[str]:
    problems = []
    for sub, mode in EXCHANGE_COURSE_MODES.items():
        path = settings.exchange_course / sub if sub else settings.exchange_course
        if path.is_symlink() or not path.is_dir():
            problems.append(f"{path} is missing (or not a folder): rerun setup")
            continue
        st = path.stat()
        if st.st_uid != instructor.pw_uid:
            problems.append(f"{path} is not owned by {instructor.pw_name}: someone took it; "
                            "look at it, remove it, rerun setup")
        elif stat.S_IMODE(st.st_mode) != mode:
            problems.append(f"{path} has mode {stat.S_IMODE(st.st_mode):o}, expected {mode:o}: "
                            f"chmod {mode:o} {path}")
    return problems


def _check_listening(settings: ClassSettings) -> list[str]:
    problems = []
    if settings.ssl_cert:
        for path in (settings.ssl_cert, settings.ssl_key):
            if not Path(path).is_file():
                problems.append(f"TLS file {path} is missing")
        key = Path(settings.ssl_key)
        if key.is_file() and key.stat().st_mode & 0o077:
            problems.append(f"TLS key {key} is readable by others: chmod 600 {key}")
    elif settings.ip not in LOOPBACK:
        problems.append(
            f"the hub listens on {settings.ip}:{settings.port} over plain HTTP: passwords would "
            "cross the network in clear; rerun setup with --ip 127.0.0.1 behind the HTTPS proxy "
            "(docs/classroom.md) or with --ssl-cert and --ssl-key"
        )
    return problems


def _roster_ids(settings: ClassSettings) -> list[str]:
    import csv

    if not settings.roster_file.is_file():
        return []
    with settings.roster_file.open(newline="", encoding="utf-8") as f:
        return [row["id"] for row in csv.DictReader(f)]


def _check_homes(settings: ClassSettings) -> list[str]:
    """Homes that other users can read or write: homework copied from a neighbour."""
    problems = []
    for user in [settings.instructor, *_roster_ids(settings)]:
        try:
            home = Path(pwd.getpwnam(user).pw_dir)
        except KeyError:
            continue  # a student without an account yet: the hub refuses their login
        if home.is_dir() and home.stat().st_mode & 0o007:
            mode = stat.S_IMODE(home.stat().st_mode)
            problems.append(f"home {home} of {user} has mode {mode:o} (others may read it): "
                            f"chmod 700 {home}")
    return problems


def memory_note(settings: ClassSettings) -> str | None:
    """A warning when grading kernels get no memory limit as a whole on this machine."""
    if grading_cgroup(settings) is None:
        return ("no cgroup v1 memory controller under /sys/fs/cgroup/memory: each grading "
                "kernel's processes are limited one by one (3 GiB of address space each), not "
                "together (docs/classroom.md, What protects the class)")
    return None


def _check_cgroup(settings: ClassSettings, instructor: pwd.struct_passwd) -> list[str]:
    from coursetools.classroom.cgroup import check_delegated

    folder = grading_cgroup(settings)
    if folder is None:
        return []  # memory_note: a warning, not a fault of the class
    problem = check_delegated(folder, instructor.pw_uid)
    return [f"grading memory limit: {problem}"] if problem else []


def _check_sandbox(settings: ClassSettings, instructor: pwd.struct_passwd) -> list[str]:
    if shutil.which("bwrap") is None:
        return ["bwrap is missing, autograde would refuse to run: apt-get install bubblewrap"]
    spec = sandbox_kernel_file(settings, Path(instructor.pw_dir))
    if not spec.is_file() or spec.read_text(encoding="utf-8") != sandbox_kernel_text(settings):
        return [f"{spec} is missing or was edited (the grading sandbox): rerun setup"]
    probe = subprocess.run(
        ["runuser", "-u", instructor.pw_name, "--", "bwrap", "--unshare-all", "--unshare-user",
         "--disable-userns", "--ro-bind", "/", "/", "true"],
        capture_output=True, text=True,
    )
    if probe.returncode != 0:
        return [f"bwrap cannot make its namespaces as {instructor.pw_name} ({probe.stderr.strip()}): "
                "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; "
                "on Ubuntu 24.04 the bubblewrap AppArmor profile)"]
    return []


def run_as(settings: ClassSettings, user: str, args: list[str], extra_env: dict | None = None,
           **kwargs) -> subprocess.CompletedProcess:
    """Run ``args`` as ``user`` with the environment the hub gives that user (needs root).

    Example: ``run_as(s, s.instructor, ["nbgrader", "release_assignment", "03-x"])``.
    """
    entry = _user(user)
    env = {**settings.user_environment(user, Path(entry.pw_dir)), **(extra_env or {})}
    cwd = settings.course_root if user == settings.instructor else Path(entry.pw_dir)
    return subprocess.run(
        ["runuser", "-u", user, "--", "env", "-i", *(f"{k}={v}" for k, v in env.items()), *args],
        cwd=cwd, text=True, capture_output=True, **kwargs,
    )
