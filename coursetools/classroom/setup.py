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

from coursetools._common import CourseToolsError, lesson_notebooks
from coursetools.classroom.settings import ClassSettings

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

# Where the hub listens; its own API and the proxy's API stay on localhost.
c.JupyterHub.bind_url = "http://{ip}:{port}"
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

INSTRUCTOR_EXTRA = '''\
c.CourseDirectory.root = {course_root!r}
# The lessons import perclib: run them in the course environment's kernel.
c.ExecutePreprocessor.kernel_name = "python3"
c.ExecutePreprocessor.timeout = 600
'''


def hub_config_text(settings: ClassSettings) -> str:
    if settings.authenticator == "dummy":
        auth = DUMMY_LINES.format(password=settings.test_password)
    else:
        auth = PAM_LINES
    return HUB_CONFIG.format(
        course_id=settings.course_id, class_dir=str(settings.class_dir),
        instructor=settings.instructor, admins=sorted(settings.admins),
        env_bin=str(settings.env_bin), ip=settings.ip, port=settings.port,
        hub_port=settings.hub_port, proxy_api_port=settings.proxy_api_port,
        authenticator_lines=auth,
    )


def nbgrader_config_text(settings: ClassSettings, role: str) -> str:
    text = NBGRADER_CONFIG.format(
        role=role, course_id=settings.course_id, exchange_root=str(settings.exchange_root)
    )
    if role == "instructor":
        text += INSTRUCTOR_EXTRA.format(course_root=str(settings.course_root))
    return text


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
    instructor = _user(settings.instructor)
    for admin in settings.admins:
        _user(admin)
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
        _write(folder / "jupyter_server_config.json", json.dumps(server, indent=2) + "\n")
        written += [folder / "labconfig" / "page_config.json", folder / "jupyter_server_config.json"]
        for sub in (folder, folder / "labconfig"):
            sub.chmod(0o755)

    settings.exchange_root.mkdir(parents=True, exist_ok=True)
    settings.exchange_root.chmod(EXCHANGE_MODE)
    written.append(settings.exchange_root)

    root = settings.course_root
    root.mkdir(parents=True, exist_ok=True)
    for lesson in lessons:
        target = root / "source" / assignment_name(lesson) / lesson.name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(lesson, target)
            written.append(target)
    _chown_tree(root, instructor.pw_uid, instructor.pw_gid)
    root.chmod(0o700)  # the gradebook and the solutions are the instructor's alone
    return written


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
            f"{settings.env_bin}: put the course environment under /opt or chmod o+x {blocked}"
        )
    if not settings.hub_config.is_file():
        problems.append(f"{settings.hub_config} is missing: rerun setup")
    elif settings.hub_config.read_text(encoding="utf-8") != hub_config_text(settings):
        problems.append(f"{settings.hub_config} differs from classroom.json: rerun setup")
    for role in ("instructor", "student"):
        path = settings.role_config_dir(role) / "nbgrader_config.py"
        if not path.is_file() or path.read_text(encoding="utf-8") != nbgrader_config_text(settings, role):
            problems.append(f"{path} is missing or was edited: rerun setup")
    page = settings.role_config_dir("student") / "labconfig" / "page_config.json"
    try:
        disabled = json.loads(page.read_text()).get("disabledExtensions", {})
    except (OSError, json.JSONDecodeError):
        disabled = {}
    for name in STUDENT_DISABLED_LAB:
        if not disabled.get(name):
            problems.append(f"{page}: students would see {name}: rerun setup")

    ex = settings.exchange_root
    if not ex.is_dir():
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
    root = settings.course_root
    if not root.is_dir():
        problems.append(f"course folder {root} is missing: rerun setup")
    elif instructor is not None and root.stat().st_uid != instructor.pw_uid:
        problems.append(f"course folder {root} is not owned by {settings.instructor}: chown -R it")
    elif not (root / "source").is_dir() or not any((root / "source").iterdir()):
        problems.append(f"{root}/source has no assignment: setup --lesson NN copies lessons there")
    return problems


def run_as(settings: ClassSettings, user: str, args: list[str], **kwargs) -> subprocess.CompletedProcess:
    """Run ``args`` as ``user`` with the environment the hub gives that user (needs root).

    Example: ``run_as(s, s.instructor, ["nbgrader", "release_assignment", "03-x"])``.
    """
    entry = _user(user)
    env = settings.user_environment(user, Path(entry.pw_dir))
    cwd = settings.course_root if user == settings.instructor else Path(entry.pw_dir)
    return subprocess.run(
        ["runuser", "-u", user, "--", "env", "-i", *(f"{k}={v}" for k, v in env.items()), *args],
        cwd=cwd, text=True, capture_output=True, **kwargs,
    )
