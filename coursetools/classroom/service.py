"""The exchange by identity: ngshare as a JupyterHub-managed service (``setup --exchange service``).

On one machine nbgrader's folder exchange tells students apart by who owns a file. On
several machines (Kubernetes, where every pod is uid 1000) there is no such owner, so
the class can instead use nbgrader's pluggable exchange (``c.ExchangeFactory``) with
`ngshare <https://github.com/LibreTexts/ngshare>`_: a small web service behind the hub
that stores releases, submissions and feedback in a database and knows each caller by
the JupyterHub token it sends (``/hub/api/user``), not by a name the caller claims.

What ``setup --exchange service`` adds, all under ``<class_dir>/service/`` (root only):

* ``venv/``: ngshare 0.6.0 in an environment of its own with SQLAlchemy < 2 (with
  SQLAlchemy 2 its ``release_assignment`` answers "success" and stores nothing);
* ``exchange-lib/``: the client side, ``ngshare_exchange`` 0.5.3, installed with
  ``--no-deps`` (it pins ``jupyter_core<4.11.2``, which pip's resolver cannot put next
  to nbgrader 0.9; its real needs, requests and rapidfuzz, are in the course's
  environment); both roles' ``nbgrader_config.py`` put it on ``sys.path``;
* ``data/ngshare.db`` (SQLite file) and ``data/files/``: the service's data, never in
  memory only;
* ``run_ngshare.py``: starts ngshare listening on the address the hub gives it
  (ngshare itself listens on every interface);
* ``manage_ngshare.py``: creates the course with its instructors (at ``setup``) and
  enrols the roster's students (at ``roster import``), directly in the database: no
  ngshare administrator exists at all, so nobody can create or take a course through
  the service.

Example
-------
>>> from coursetools.classroom.settings import ClassSettings
>>> s = ClassSettings(class_dir=Path("/srv/c"), instructor="alice", course_root=Path("/r"),
...                   exchange_service=True)
>>> exchange_url(s)
'http://127.0.0.1:8000/services/ngshare'
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from coursetools.classroom.settings import ClassSettings
from coursetools.shared.common import CourseToolsError

SERVICE_NAME = "ngshare"
#: Pinned: the versions measured to run nbgrader 0.9.6's whole loop (issue 48).
SERVICE_REQUIREMENTS = ("ngshare==0.6.0", "sqlalchemy<2")
CLIENT_REQUIREMENT = "ngshare_exchange==0.5.3"

RUN_NGSHARE = '''\
"""Start ngshare on the host and port of $JUPYTERHUB_SERVICE_URL (written by classroom setup).

ngshare's own main() listens on 0.0.0.0; the hub's proxy is the only client it needs.
"""
import os
import sys
from urllib.parse import urlparse

from tornado.httpserver import HTTPServer

_listen = HTTPServer.listen


def _listen_on_service_host(self, port, address=""):
    return _listen(self, port, urlparse(os.environ["JUPYTERHUB_SERVICE_URL"]).hostname)


HTTPServer.listen = _listen_on_service_host
from ngshare.ngshare import main  # noqa: E402

main(sys.argv[1:])
'''

MANAGE_NGSHARE = '''\
"""Create a course, its instructors and students in ngshare's database (classroom setup).

python manage_ngshare.py DB_URL STORAGE course COURSE INSTRUCTOR...
python manage_ngshare.py DB_URL STORAGE students COURSE ROSTER.json
"""
import json
import sys
from collections import namedtuple

from ngshare import dbutil
from ngshare.database import Course, StudentAssociation, User
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

db_url, storage, action, course_id, *rest = sys.argv[1:]
# The same schema upgrade ngshare runs when it starts.
dbutil.upgrade(db_url, cmd_opts=namedtuple("CmdOpts", ["x"])(["data=true", "storage=" + storage]))
session = sessionmaker(bind=create_engine(db_url))()


def user(name):
    found = session.query(User).filter(User.id == name).one_or_none()
    if found is None:
        found = User(name)
        session.add(found)
    return found


course = session.query(Course).filter(Course.id == course_id).one_or_none()
if action == "course":
    if course is None:
        course = Course(course_id, [])
        session.add(course)
    for name in rest:
        teacher = user(name)
        if teacher in course.students:
            course.students.remove(teacher)
        if teacher not in course.instructors:
            course.instructors.append(teacher)
    session.commit()
    print("instructors", sorted(u.id for u in course.instructors))
elif action == "students":
    if course is None:
        sys.exit(f"no course {course_id!r} in {db_url}: rerun classroom setup")
    with open(rest[0], encoding="utf-8") as f:
        rows = json.load(f)
    for row in rows:
        student = user(row["id"])
        if student in course.instructors:
            sys.exit(f"{row['id']!r} teaches {course_id!r}: not enrolled as a student")
        if student not in course.students:
            course.students.append(student)
        link = StudentAssociation.find(session, student, course)
        link.first_name, link.last_name, link.email = row["first_name"], row["last_name"], row["email"]
    session.commit()
    print("students", len(course.students))
else:
    sys.exit(f"unknown action {action!r}")
'''

HUB_LINES = '''
# The exchange by identity (setup --exchange service): ngshare, a service the hub starts
# and proxies at /services/ngshare/; it knows each caller by their hub token.
c.JupyterHub.services = [{{
    "name": {name!r},
    "url": "http://127.0.0.1:{service_port}",
    "command": [{python!r}, {launcher!r}, "--database", {db_url!r}, "--storage", {storage!r}],
    "cwd": {cwd!r},
}}]
'''

NBGRADER_LINES = '''
# The exchange by identity (setup --exchange service): ngshare behind the hub; every
# request carries this user's hub token ($JUPYTERHUB_API_TOKEN), which says who they are.
import sys as _sys  # noqa: E402

if {lib!r} not in _sys.path:
    _sys.path.insert(0, {lib!r})
import ngshare_exchange as _ngshare_exchange  # noqa: E402

_ngshare_exchange.configureExchange(c, {url!r})
'''

INSTRUCTOR_LINES = '''\
# A release is checked by listing it back from the exchange: an error if it is not there.
c.ExchangeFactory.release_assignment = "coursetools.classroom.service_exchange.VerifiedReleaseAssignment"
'''


def local_checksums(folder: str) -> dict[str, str]:
    """Relative path -> MD5 of every file under ``folder`` (what ngshare stores per file)."""
    found = {}
    for root, _dirs, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = hashlib.md5(f.read()).hexdigest()
    return found


def differences(remote: dict[str, str], local: dict[str, str]) -> list[str]:
    """What the exchange lacks or holds differently, compared with the release folder."""
    problems = [f"{path} is missing on the exchange" for path in sorted(set(local) - set(remote))]
    problems += [f"{path} differs on the exchange" for path in sorted(set(local) & set(remote))
                 if local[path] != remote[path]]
    return problems


def service_dir(settings: ClassSettings) -> Path:
    return settings.class_dir / "service"


def service_python(settings: ClassSettings) -> Path:
    return service_dir(settings) / "venv" / "bin" / "python"


def exchange_lib(settings: ClassSettings) -> Path:
    """Where ``ngshare_exchange`` is installed (put on ``sys.path`` by the nbgrader config)."""
    return service_dir(settings) / "exchange-lib"


def database_url(settings: ClassSettings) -> str:
    return f"sqlite:///{service_dir(settings) / 'data' / 'ngshare.db'}"


def storage_dir(settings: ClassSettings) -> Path:
    return service_dir(settings) / "data" / "files"


def exchange_url(settings: ClassSettings) -> str:
    """The service as every user reaches it: through the hub's public address."""
    host = "127.0.0.1" if settings.ip in ("0.0.0.0", "::", "") else settings.ip
    scheme = "https" if settings.ssl_cert else "http"
    return f"{scheme}://{host}:{settings.port}/services/{SERVICE_NAME}"


def hub_lines(settings: ClassSettings) -> str:
    return HUB_LINES.format(
        name=SERVICE_NAME, service_port=settings.service_port, python=str(service_python(settings)),
        launcher=str(service_dir(settings) / "run_ngshare.py"), db_url=database_url(settings),
        storage=str(storage_dir(settings)) + "/", cwd=str(service_dir(settings) / "data"),
    )


def nbgrader_lines(settings: ClassSettings, role: str) -> str:
    text = NBGRADER_LINES.format(lib=str(exchange_lib(settings)), url=exchange_url(settings))
    return text + (INSTRUCTOR_LINES if role == "instructor" else "")


def _pip(python: Path, *args: str) -> None:
    r = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        *args], capture_output=True, text=True)
    if r.returncode != 0:
        raise CourseToolsError(f"pip install {' '.join(args)} failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")


def _installed(marker: Path, wanted: list[str]) -> bool:
    try:
        return json.loads(marker.read_text()) == wanted
    except (OSError, ValueError):
        return False


def install_service(settings: ClassSettings) -> list[Path]:
    """Make the service's environment, the client library and the helper scripts.

    Each install is skipped when its marker says the same pins are already there
    (a rerun of ``setup`` is quick).
    """
    root = service_dir(settings)
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)  # users' servers import exchange-lib/; data/ stays root's
    venv = root / "venv"
    wanted = list(SERVICE_REQUIREMENTS)
    if not _installed(venv / "coursetools-pins.json", wanted):
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        _pip(venv / "bin" / "python", *wanted)
        (venv / "coursetools-pins.json").write_text(json.dumps(wanted))
    lib = exchange_lib(settings)
    if not _installed(lib / "coursetools-pins.json", [CLIENT_REQUIREMENT]):
        _pip(Path(sys.executable), "--no-deps", "--upgrade", "--target", str(lib), CLIENT_REQUIREMENT)
        (lib / "coursetools-pins.json").write_text(json.dumps([CLIENT_REQUIREMENT]))
    for folder in [lib, *(p for p in lib.rglob("*") if p.is_dir())]:
        folder.chmod(0o755)
    data = root / "data"
    storage_dir(settings).mkdir(parents=True, exist_ok=True)
    data.chmod(0o700)  # releases, submissions, feedback: the service's (root's) alone
    for name, text in (("run_ngshare.py", RUN_NGSHARE), ("manage_ngshare.py", MANAGE_NGSHARE)):
        (root / name).write_text(text, encoding="utf-8")
        (root / name).chmod(0o644)
    manage(settings, "course", settings.instructor, *settings.admins)
    return [venv, lib, root / "run_ngshare.py", root / "manage_ngshare.py", data / "ngshare.db"]


def manage(settings: ClassSettings, action: str, *args: str) -> str:
    """Run ``manage_ngshare.py ACTION COURSE ARGS`` in the service's environment."""
    r = subprocess.run(
        [str(service_python(settings)), str(service_dir(settings) / "manage_ngshare.py"),
         database_url(settings), str(storage_dir(settings)) + "/", action, settings.course_id, *args],
        capture_output=True, text=True, cwd=service_dir(settings) / "data",
    )
    if r.returncode != 0:
        raise CourseToolsError(f"ngshare {action} for {settings.course_id!r} failed: "
                               f"{(r.stderr or r.stdout).strip()[-2000:]}")
    return r.stdout


def enrol(settings: ClassSettings, students: list) -> str:
    """Enrol roster students (``roster.Student``) in the course on the service."""
    rows = [{"id": s.id, "first_name": s.first_name, "last_name": s.last_name, "email": s.email}
            for s in students]
    path = service_dir(settings) / "data" / "roster-import.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    os.chmod(path, 0o600)
    try:
        return manage(settings, "students", str(path))
    finally:
        path.unlink(missing_ok=True)
