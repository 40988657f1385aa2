"""The class's switches for the lessons: question records and each student's own numbers.

``python -m coursetools.classroom lesson-options --record-questions on --own-numbers on``
(as root) writes :data:`perclib.classroom.CLASS_FILE` into the *students'* Jupyter
configuration folder (``jupyter/student/``, on their ``JUPYTER_CONFIG_PATH`` only; the
instructor's folder never gets it, a reader alone or the site never sees it).

Own numbers (:func:`perclib.classroom.student_seed`):

* a course secret, 32 random bytes, in the course folder (``own-numbers.secret``, the
  instructor's, mode 600: the grading sandbox hides the whole course folder);
* each student's key ``HMAC-SHA256(secret, "student:" + id)``, written to
  ``CLASS/student-keys/ID`` (owned by that student, mode 400; the folder 711: nobody
  can list it); a student's kernel reads its own file;
* at autograde :class:`StudentKey` (one of the instructor's sanitize preprocessors)
  puts the key of the student being graded in ``PERCLIB_STUDENT_KEY`` for the kernel,
  computed from the secret, so a submission is checked against its own numbers.

Example
-------
>>> student_key(b"s" * 32, "ada") == student_key(b"s" * 32, "ada") != student_key(b"s" * 32, "bob")
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pwd
import secrets
from pathlib import Path

from nbgrader.preprocessors import NbGraderPreprocessor

from coursetools.shared.common import CourseToolsError
from perclib.classroom import CLASS_FILE, KEY_VARIABLE

SECRET_FILE = "own-numbers.secret"
KEYS_DIR = "student-keys"


def student_key(secret: bytes, student: str) -> str:
    """A student's key (hex): what their kernel turns into seeds."""
    return hmac.new(secret, f"student:{student}".encode(), hashlib.sha256).hexdigest()


def read_secret(course_root: Path) -> bytes | None:
    path = Path(course_root) / SECRET_FILE
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return None


def _owner(path: Path, user: str) -> None:
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return  # no such account on this machine (tests): the file stays root's
    if os.geteuid() == 0:
        os.chown(path, entry.pw_uid, entry.pw_gid)


def write_student_keys(class_dir: Path, course_root: Path, instructor: str, students: list[str]) -> Path:
    """Make the secret (once) and one key file per student; returns the keys folder."""
    secret_path = Path(course_root) / SECRET_FILE
    secret = read_secret(course_root)
    if secret is None:
        secret = secrets.token_bytes(32)
        fd = os.open(secret_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(secret.hex() + "\n")
        _owner(secret_path, instructor)
    keys = Path(class_dir) / KEYS_DIR
    keys.mkdir(mode=0o711, exist_ok=True)
    keys.chmod(0o711)
    for student in students:
        path = keys / student
        if path.exists():
            path.chmod(0o600)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(student_key(secret, student) + "\n")
        path.chmod(0o400)
        _owner(path, student)
    return keys


def write_lesson_options(class_dir: Path, course_root: Path, instructor: str, students: list[str], *,
                         record_questions: bool, own_numbers: bool) -> Path:
    """Write the students' class file (and, for own numbers, the keys)."""
    folder = Path(class_dir) / "jupyter" / "student"
    if not folder.is_dir():
        raise CourseToolsError(f"{folder}: no student configuration; run setup first")
    data: dict[str, object] = {"record_questions": bool(record_questions)}
    if own_numbers:
        data["student_keys"] = str(write_student_keys(class_dir, course_root, instructor, students))
    path = folder / CLASS_FILE
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    path.chmod(0o644)
    return path


class StudentKey(NbGraderPreprocessor):  # nbgrader's base: enabled by default
    """At autograde: the graded student's key in ``PERCLIB_STUDENT_KEY`` for the kernel.

    Runs in nbgrader's process (as the instructor), before the kernel starts; the
    kernel (also the grading sandbox's, which passes this one variable on) inherits it.
    Without a course secret the variable is removed: the lessons' fixed numbers.
    """

    def preprocess(self, nb, resources):  # noqa: D102 - nbgrader's
        from nbgrader.coursedir import CourseDirectory

        student = resources.get("nbgrader", {}).get("student")
        secret = read_secret(Path(CourseDirectory(config=self.config).root))
        if student and secret is not None:
            os.environ[KEY_VARIABLE] = student_key(secret, student)
        else:
            os.environ.pop(KEY_VARIABLE, None)
        return nb, resources
