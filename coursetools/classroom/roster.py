"""A class roster (CSV) into nbgrader's gradebook: every line checked, then all or none.

The CSV has a header and the columns ``id, first name, last name, email`` (header names
are matched loosely: ``first_name``, ``First Name`` and ``firstname`` are the same).
``id`` is the student's login on the hub (a system user name) and nbgrader's student id.

Example
-------
>>> import io
>>> rows = read_roster(io.StringIO("id,first name,last name,email\\nada,Ada,L,ada@x.org\\n"))
>>> rows[0].first_name
'Ada'
"""

from __future__ import annotations

import csv
import io
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from coursetools.classroom.settings import NAME_RE, ClassSettings
from coursetools.shared.common import CourseToolsError

COLUMNS = ("id", "first name", "last name", "email")
#: Longer fields are refused (a name or an address never needs more).
MAX_FIELD = 200
#: Accounts that are never students, whatever their uid.
SYSTEM_NAMES = {"root", "nobody", "daemon", "bin", "sys", "sync", "games", "man", "lp", "mail",
                "news", "uucp", "proxy", "www-data", "backup", "list", "irc", "gnats", "sshd"}
#: Debian's first uid for people (adduser's FIRST_UID); lower ones are system accounts.
FIRST_UID = 1000
EMAIL_RE = re.compile(r"^[^@\s,]+@[^@\s,]+\.[^@\s,]+$")


@dataclass(frozen=True)
class Student:
    id: str
    first_name: str
    last_name: str
    email: str


def _key(header: str) -> str:
    return re.sub(r"[\s_-]+", " ", header.strip().lower()).replace("firstname", "first name").replace(
        "lastname", "last name"
    )


def read_roster(stream: TextIO, name: str = "roster") -> list[Student]:
    """Parse and check every line; raise ``CourseToolsError`` naming the first bad line."""
    reader = csv.reader(stream)
    try:
        header = next(reader)
    except StopIteration:
        raise CourseToolsError(f"{name}: empty file; expected a header {', '.join(COLUMNS)}") from None
    keys = [_key(h) for h in header]
    if keys != list(COLUMNS):
        raise CourseToolsError(
            f"{name}, line 1: header {header} should be the columns {', '.join(COLUMNS)} in this order"
        )
    students: list[Student] = []
    seen: dict[str, int] = {}
    number = 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:  # a field over csv's limit, a NUL byte, a broken quote
            raise CourseToolsError(f"{name}, line {reader.line_num}: not a CSV line ({exc})") from None
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue  # blank line
        where = f"{name}, line {number}"
        long = [i for i, cell in enumerate(row) if len(cell) > MAX_FIELD]
        if long:
            raise CourseToolsError(
                f"{where}: field {long[0] + 1} has {len(row[long[0]])} characters (at most {MAX_FIELD})"
            )
        if len(row) != len(COLUMNS):
            raise CourseToolsError(
                f"{where}: {len(row)} fields, expected {len(COLUMNS)} ({', '.join(COLUMNS)})"
            )
        sid, first, last, email = (cell.strip() for cell in row)
        if not NAME_RE.match(sid):
            raise CourseToolsError(
                f"{where}: id {sid!r} is not a login name (lower-case letters, digits, '_', '-'; "
                "starting with a letter or '_'; at most 32 characters)"
            )
        if sid in SYSTEM_NAMES:
            raise CourseToolsError(f"{where}: id {sid!r} is a system account, never a student")
        if sid in seen:
            raise CourseToolsError(f"{where}: id {sid!r} already on line {seen[sid]}")
        seen[sid] = number
        if not first or not last:
            raise CourseToolsError(f"{where}: first and last name must not be empty")
        if not EMAIL_RE.match(email):
            raise CourseToolsError(f"{where}: email {email!r} is not an address like name@example.org")
        students.append(Student(sid, first, last, email))
    if not students:
        raise CourseToolsError(f"{name}: no student after the header")
    return students


def system_account(name: str) -> str | None:
    """Why ``name`` is a system account (never a student), or None."""
    import pwd

    if name in SYSTEM_NAMES:
        return "is a system account"
    try:
        uid = pwd.getpwnam(name).pw_uid
    except KeyError:
        return None  # no account yet: created later (or by LDAP); the hub checks at login
    if uid < FIRST_UID or uid == 65534:
        return f"is a system account (uid {uid} < {FIRST_UID})"
    return None


def alembic_head() -> str:
    """The revision nbgrader stamps on a new gradebook, read in this process.

    nbgrader's own ``get_alembic_version`` starts the ``alembic`` command for it: one more
    Python start-up, with nbgrader's imports, for one string (seconds; most of the time a
    one-student import took).
    """
    import importlib.util

    from alembic.script import ScriptDirectory

    folder = Path(importlib.util.find_spec("nbgrader").origin).parent / "alembic"
    return ScriptDirectory(str(folder)).get_current_head()


def import_roster(settings: ClassSettings, csv_path: Path) -> list[Student]:
    """Add or update every student of ``csv_path`` in the gradebook, in one transaction.

    Also writes ``roster.csv`` in the class folder (the hub's allowed users). Students
    already in the gradebook but not in the file are kept (their grades stay).
    """
    from nbgrader.api import Gradebook
    from nbgrader.api import Student as GbStudent

    try:
        text = Path(csv_path).read_text(encoding="utf-8-sig")  # Excel writes a BOM
    except (OSError, UnicodeDecodeError) as exc:
        raise CourseToolsError(f"{csv_path}: cannot read ({exc})") from exc
    students = read_roster(io.StringIO(text, newline=""), str(csv_path))
    if settings.instructor in {s.id for s in students}:
        raise CourseToolsError(f"{csv_path}: the instructor {settings.instructor!r} is not a student")
    for s in students:
        problem = system_account(s.id)
        if problem:
            raise CourseToolsError(f"{csv_path}: id {s.id!r} {problem}; nothing imported")

    db = settings.course_root / "gradebook.db"
    import nbgrader.api

    nbgrader.api.get_alembic_version = alembic_head  # a new gradebook: no second Python
    with Gradebook(settings.gradebook_url) as gb:
        session = gb.db
        try:
            for s in students:
                row = session.query(GbStudent).filter_by(id=s.id).one_or_none()
                if row is None:
                    row = GbStudent(id=s.id)
                    session.add(row)
                row.first_name, row.last_name, row.email = s.first_name, s.last_name, s.email
            session.commit()
        except Exception:
            session.rollback()
            raise
        # The hub's allowed users: every student of the gradebook, not this file only
        # (a second import adds students; it never locks out the first file's).
        everyone = sorted(((r.id, r.first_name or "", r.last_name or "", r.email or "")
                           for r in session.query(GbStudent)), key=lambda r: r[0])
    owner = settings.course_root.stat()
    if db.exists():  # the SQLite file (a PostgreSQL gradebook has none)
        if os.geteuid() == 0:  # created by root: give the gradebook back to the instructor
            os.chown(db, owner.st_uid, owner.st_gid)
        db.chmod(0o600)

    tmp = settings.roster_file.with_suffix(".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "first_name", "last_name", "email"])
        writer.writerows(everyone)
    tmp.chmod(0o600)
    os.replace(tmp, settings.roster_file)
    return students
