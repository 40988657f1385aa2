"""The class folder's settings (``classroom.json``) and the paths derived from them.

Example
-------
>>> s = ClassSettings(class_dir=Path("/srv/perceptron-course"), instructor="alice",
...                   course_root=Path("/home/alice/perceptron-course"))
>>> s.role_config_dir("student")
PosixPath('/srv/perceptron-course/jupyter/student')
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from coursetools.shared.common import CourseToolsError

SETTINGS_FILE = "classroom.json"
HUB_CONFIG_FILE = "jupyterhub_config.py"
ROSTER_FILE = "roster.csv"
#: System user names and nbgrader ids: what useradd and nbgrader both accept.
NAME_RE = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
AUTHENTICATORS = ("pam", "dummy")
ROLES = ("instructor", "student")


@dataclass
class ClassSettings:
    """Everything ``setup`` decided; ``jupyterhub_config.py`` is written from it."""

    class_dir: Path
    instructor: str
    course_id: str = "perceptron-course"
    course_root: Path | None = None  # default: ~instructor/<course_id>
    exchange_root: Path = Path("/srv/nbgrader/exchange")
    #: Loopback by default: the guide's HTTPS proxy (Caddy) in front forwards to it.
    ip: str = "127.0.0.1"
    port: int = 8000
    hub_port: int = 8081
    proxy_api_port: int = 8001
    authenticator: str = "pam"
    #: Only for ``authenticator="dummy"`` (tests): every listed user logs in with it.
    test_password: str = ""
    #: The environment whose ``jupyterhub-singleuser``, nbgrader and kernel everyone runs.
    env_bin: Path = field(default_factory=lambda: Path(sys.executable).parent)
    #: Extra administrators of the hub (the instructor always is one).
    admins: list[str] = field(default_factory=list)
    #: TLS in the hub itself (PEM files), for a hub that listens beyond loopback.
    ssl_cert: str = ""
    ssl_key: str = ""
    #: ``setup --exchange service``: nbgrader's exchange is the ngshare service behind the
    #: hub (coursetools/classroom/service.py), not the folder ``exchange_root``.
    exchange_service: bool = False
    #: Where that service listens (loopback, reached through the hub's proxy).
    service_port: int = 10101
    #: A shared gradebook (PostgreSQL, for several autograde workers); empty: the
    #: one-machine SQLite file in the course folder.
    gradebook_db_url: str = ""

    def __post_init__(self) -> None:
        self.class_dir = Path(self.class_dir)
        self.exchange_root = Path(self.exchange_root)
        self.env_bin = Path(self.env_bin)
        if self.course_root is None:
            self.course_root = Path("~" + self.instructor).expanduser() / self.course_id
        self.course_root = Path(self.course_root)
        for name in (self.instructor, *self.admins):
            if not NAME_RE.match(name):
                raise CourseToolsError(
                    f"user name {name!r}: use lower-case letters, digits, '_' or '-' "
                    "(a system user name)"
                )
        if not re.match(r"^[A-Za-z0-9][A-Za-z0-9._-]*$", self.course_id):
            raise CourseToolsError(f"course id {self.course_id!r}: letters, digits, '.', '_', '-'")
        if self.authenticator not in AUTHENTICATORS:
            raise CourseToolsError(
                f"authenticator {self.authenticator!r}: choose one of {', '.join(AUTHENTICATORS)}"
            )
        if self.authenticator == "dummy" and len(self.test_password) < 8:
            raise CourseToolsError(
                "the test-only authenticator needs --test-password (8 characters or more)"
            )
        if self.authenticator == "pam" and self.test_password:
            raise CourseToolsError("--test-password is only for --authenticator dummy (tests)")
        if bool(self.ssl_cert) != bool(self.ssl_key):
            raise CourseToolsError("--ssl-cert and --ssl-key go together")
        ports = (self.port, self.hub_port, self.proxy_api_port)
        if len(set(ports)) != 3 or not all(0 < p < 65536 for p in ports):
            raise CourseToolsError(f"ports {ports}: three different ports in 1..65535")

    # -- derived paths -------------------------------------------------------------
    @property
    def hub_config(self) -> Path:
        return self.class_dir / HUB_CONFIG_FILE

    @property
    def roster_file(self) -> Path:
        return self.class_dir / ROSTER_FILE

    @property
    def state_dir(self) -> Path:
        """The hub's database and cookie secret (root only)."""
        return self.class_dir / "state"

    @property
    def gradebook_url(self) -> str:
        return self.gradebook_db_url or f"sqlite:///{self.course_root / 'gradebook.db'}"

    def role_config_dir(self, role: str) -> Path:
        """The Jupyter configuration folder the spawner puts on a user's JUPYTER_CONFIG_PATH."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, got {role!r}")
        return self.class_dir / "jupyter" / role

    @property
    def exchange_course(self) -> Path:
        """The course's folder in nbgrader's exchange (inbound, outbound, feedback)."""
        return self.exchange_root / self.course_id

    @property
    def hidden_from_grading(self) -> list[Path]:
        """What the grading sandbox covers even where it lies inside a mounted folder."""
        return [Path(self.course_root), self.exchange_root, self.class_dir]

    def role_of(self, user: str) -> str:
        return "instructor" if user == self.instructor else "student"

    def user_environment(self, user: str, home: Path) -> dict[str, str]:
        """What the hub's spawner sets for ``user``: the same for a shell (``sudo -u``)."""
        return {
            "HOME": str(home),
            "USER": user,
            "PATH": f"{self.env_bin}:/usr/local/bin:/usr/bin:/bin",
            "JUPYTER_CONFIG_PATH": str(self.role_config_dir(self.role_of(user))),
        }

    # -- storage -------------------------------------------------------------------
    def save(self) -> Path:
        data = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(self).items()}
        path = self.class_dir / SETTINGS_FILE
        path.write_text(json.dumps(data, indent=2) + "\n")
        path.chmod(0o600)  # it may hold the test password
        return path


def load_settings(class_dir: Path) -> ClassSettings:
    """Read ``classroom.json`` from a class folder written by ``setup``."""
    path = Path(class_dir) / SETTINGS_FILE
    if not path.is_file():
        raise CourseToolsError(
            f"{path}: no class here; run `python -m coursetools.classroom setup --dir {class_dir}` first"
        )
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CourseToolsError(f"{path}: unreadable ({exc}); rerun setup") from exc
    known = {f.name for f in fields(ClassSettings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise CourseToolsError(f"{path}: unknown settings {unknown}; rerun setup")
    return ClassSettings(**data)
