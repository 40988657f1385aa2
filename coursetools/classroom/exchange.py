"""nbgrader's collect step, refusing submissions that are not what they claim to be.

In nbgrader's folder exchange a submission is a folder ``inbound/STUDENT+ASSIGNMENT+
TIMESTAMP+RANDOM`` that the student's own process writes; the name says whose it is and
when it was made. Anyone can write a folder with any name there, so nbgrader's collect
only warns ("claims to be submitted by ... but is owned by ...") and collects it. The
class configures ``ExchangeFactory.collect = SafeCollect`` for the instructor (both
``nbgrader collect`` and the formgrader's Collect button use it). A submission is
collected only when

* the folder and everything in it belong to the system user it names;
* it holds only folders and regular files (no symbolic link, no device or pipe);
* its timestamp is not in the future, agrees with its ``timestamp.txt``, and is not
  backdated (earlier than the folder's change time, which the kernel sets and no user
  can set back, by more than ``BACKDATE_SLACK``).

Every other one is refused, never collected as anyone's: the student's latest valid
submission is collected instead. Each refusal is logged as an error and appended to
``refused-submissions.log`` in the course folder (when, who owns it, what it claims).

The checks above look at paths, and the student can change their folder after the
check (swap a file for a link to the instructor's source, many times a second). So the
copy never follows a path: ``copy_submission`` opens the folder and each entry by name
relative to its parent's descriptor with ``O_NOFOLLOW``, checks what it opened (a
folder or a regular file, owned by the student, not too large) with ``fstat`` on that
descriptor, and copies from the descriptor into a staging folder that becomes the
collected submission only when everything was copied. A link met during the copy is
refused like one met during the check.

Example
-------
>>> problem_of(Path("/nonexistent+03+2026-01-01 00:00:00.000000 UTC+x"), "ada",
...            parse_stamp("2026-01-01 00:00:00.000000 UTC"), now=parse_stamp("2026-01-02 00:00:00 UTC"))
'cannot be read (FileNotFoundError)'
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import os
import pwd
import secrets
import shutil
import stat
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import check_mode, parse_utc

#: How far a submission's timestamp may lie before its folder's change time (the
#: student's clock and nbgrader's copy take a moment); more is a backdated submission.
BACKDATE_SLACK = dt.timedelta(minutes=10)
#: How far in the future a timestamp may lie (the same machine's clock: a moment).
FUTURE_SLACK = dt.timedelta(seconds=5)
REFUSED_LOG = "refused-submissions.log"
#: Open an entry of a submission: never through a link, never blocking on a pipe.
_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK = 1024 * 1024


class Refused(Exception):
    """A submission found not genuine while it was copied (the message says why)."""


def copy_submission(src: Path, dest: Path, uid: int, *, exclude: list[str] = (),
                    include: list[str] = (), max_file_bytes: int = 0) -> None:
    """Copy the submission folder ``src`` to ``dest`` (new) without following any link.

    Every folder and file is opened by name relative to its parent's descriptor, with
    ``O_NOFOLLOW``, and checked on the opened descriptor: a folder or a regular file
    owned by ``uid``. What is copied is what was checked. Raises ``Refused`` (``dest``
    is then left absent) on a link, a pipe or device, or another owner. ``exclude``,
    ``include`` and ``max_file_bytes`` are nbgrader's ``CourseDirectory.ignore``,
    ``include`` and ``max_file_size`` (skipped files, as nbgrader's own copy does).

    Example
    -------
    >>> copy_submission(Path("/nonexistent"), Path("/tmp/x"), os.getuid())
    Traceback (most recent call last):
    ...
    coursetools.classroom.exchange.Refused: cannot be opened (FileNotFoundError)
    """
    dest = Path(dest)
    staging = dest.with_name(f".{dest.name}.partial-{secrets.token_hex(4)}")
    try:
        top = os.open(src, _OPEN_FLAGS | os.O_DIRECTORY)
    except OSError as exc:
        raise Refused("is a symbolic link" if _is_link_error(exc)
                      else f"cannot be opened ({type(exc).__name__})") from None
    try:
        _check(os.fstat(top), uid, ".")
        staging.mkdir(mode=0o700)
        _copy_folder(top, staging, uid, Path("."), exclude, include, max_file_bytes)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        os.close(top)
    os.rename(staging, dest)


def _is_link_error(exc: OSError) -> bool:
    import errno

    # O_NOFOLLOW on a link: ELOOP; O_DIRECTORY on a link to a file: ENOTDIR.
    return exc.errno == errno.ELOOP


def _check(st: os.stat_result, uid: int, rel: str | Path) -> None:
    if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
        raise Refused(f"holds {rel}, which is neither a file nor a folder")
    if st.st_uid != uid:
        raise Refused(f"holds {rel}, which belongs to {_owner(st)}, not uid {uid}")


def _copy_folder(fd: int, dest: Path, uid: int, rel: Path, exclude, include, max_bytes) -> None:
    for name in sorted(os.listdir(fd)):
        if any(fnmatch.fnmatch(name, g) for g in exclude):
            continue
        try:
            child = os.open(name, _OPEN_FLAGS, dir_fd=fd)
        except OSError as exc:
            if _is_link_error(exc):
                raise Refused(f"holds a symbolic link {rel / name}") from None
            raise Refused(f"holds {rel / name}, which cannot be opened ({type(exc).__name__})") from None
        try:
            st = os.fstat(child)
            _check(st, uid, rel / name)
            if stat.S_ISDIR(st.st_mode):
                (dest / name).mkdir(mode=0o700)
                _copy_folder(child, dest / name, uid, rel / name, exclude, include, max_bytes)
                os.chmod(dest / name, 0o755)
                continue
            if include and not any(fnmatch.fnmatch(name, g) for g in include):
                continue
            if max_bytes and st.st_size > max_bytes:
                continue  # nbgrader's own rule: a file over max_file_size is left out
            _copy_file(child, dest / name, max_bytes or None)
        finally:
            os.close(child)


def _copy_file(fd: int, target: Path, limit: int | None) -> None:
    # O_EXCL: a name is written once, into the staging folder only the instructor sees.
    out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    copied = 0
    try:
        while chunk := os.read(fd, _CHUNK):
            copied += len(chunk)
            if limit is not None and copied > limit:
                raise Refused(f"{target.name} grew past the size limit while it was copied")
            os.write(out, chunk)
    finally:
        os.close(out)


def parse_stamp(text: str) -> dt.datetime:
    """nbgrader's timestamp text as an aware UTC datetime."""
    stamp = parse_utc(text)
    return stamp.replace(tzinfo=dt.UTC) if stamp.tzinfo is None else stamp.astimezone(dt.UTC)


def _owner(st: os.stat_result) -> str:
    try:
        return pwd.getpwuid(st.st_uid).pw_name
    except KeyError:
        return f"uid {st.st_uid}"


def problem_of(folder: Path, student: str, stamp: dt.datetime, now: dt.datetime) -> str | None:
    """Why the submission ``folder`` (claiming ``student`` at ``stamp``) is refused, or None."""
    try:
        top = folder.lstat()
    except OSError as exc:
        return f"cannot be read ({type(exc).__name__})"
    if stat.S_ISLNK(top.st_mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(top.st_mode):
        return "is not a folder"
    try:
        uid = pwd.getpwnam(student).pw_uid
    except KeyError:
        return f"names {student!r}, who is no user of this machine"
    if top.st_uid != uid:
        return f"names {student} but the folder belongs to {_owner(top)}"
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root, name)
            rel = path.relative_to(folder)
            try:  # the student's own process may change the folder while it is checked
                st = path.lstat()
                if stat.S_ISLNK(st.st_mode):
                    return f"holds a symbolic link {rel} -> {os.readlink(path)}"
            except OSError:
                return f"changed while it was checked ({rel})"
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
                return f"holds {rel}, which is neither a file nor a folder"
            if st.st_uid != uid:
                return f"holds {rel}, which belongs to {_owner(st)}, not {student}"
    if stamp > now + FUTURE_SLACK:
        return f"timestamp {stamp:%Y-%m-%d %H:%M:%S} UTC is in the future"
    changed = dt.datetime.fromtimestamp(top.st_ctime, dt.UTC)
    if stamp < changed - BACKDATE_SLACK:
        return (f"timestamp {stamp:%Y-%m-%d %H:%M:%S} UTC is backdated: the folder was made "
                f"at {changed:%Y-%m-%d %H:%M:%S} UTC")
    inside = folder / "timestamp.txt"
    try:
        written = inside.read_text().strip() if inside.is_file() else None
    except OSError:  # removed or swapped since it was listed
        return "changed while it was checked (timestamp.txt)"
    if written is not None:
        try:
            if parse_stamp(written) != stamp:
                return "timestamp.txt disagrees with the folder's name"
        except (ValueError, OverflowError):
            return "timestamp.txt is not a timestamp"
    return None


class SafeCollect(ExchangeCollect):
    """nbgrader's ``ExchangeCollect`` that collects only genuine submissions."""

    def init_src(self) -> None:  # noqa: D102 - nbgrader's, with the refusals added
        # nbgrader's own checks, without its glob: one folder with a malformed name
        # would stop nbgrader's collect for everyone.
        if self.coursedir.course_id == "":
            self.fail("No course id specified. Re-run with --course flag.")
        self.course_path = os.path.join(self.root, self.coursedir.course_id)
        self.inbound_path = os.path.join(self.course_path, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        if not check_mode(self.inbound_path, read=True, execute=True):
            self.fail(f"You don't have read permissions for the directory: {self.inbound_path}")
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                self.duedate = gb.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                self.duedate = None
        student = self.coursedir.student_id or "*"
        now = dt.datetime.now(dt.UTC)
        valid = []
        for folder in sorted(Path(self.inbound_path).glob(f"{student}+{self.coursedir.assignment_id}+*")):
            try:
                record = self._path_to_record(str(folder))
                stamp = parse_stamp(folder.name.rsplit("+", 3)[2])
            except Exception:  # noqa: BLE001 - nbgrader's parse errors vary; refuse, carry on
                self.refuse(folder, "?", "its name is not STUDENT+ASSIGNMENT+TIMESTAMP+RANDOM")
                continue
            problem = problem_of(folder, record["username"], stamp, now)
            if problem:
                self.refuse(folder, record["username"], problem)
            else:
                valid.append(record)
        # nbgrader's own choice per student (latest, or latest before the deadline); the
        # others are kept in order, in case the chosen one is refused while it is copied.
        self.candidates = {}
        for student_id, records in groupby(valid, lambda r: r["username"]).items():
            records = self._sort_by_timestamp(records)
            if self.duedate is not None and self.before_duedate:
                due = [r for r in records if r["timestamp"] <= self.duedate]
                records = due + [r for r in records if r not in due] if due else records
            self.candidates[student_id] = records
        self.src_records = [records[0] for records in self.candidates.values()]

    def copy_files(self) -> None:
        """nbgrader's copy step, copying each submission without following links.

        A submission refused during its copy is reported like one refused by the checks,
        and the student's next genuine submission is tried.
        """
        if not self.src_records:
            self.log.warning("No submissions of '%s' for course '%s' to collect",
                             self.coursedir.assignment_id, self.coursedir.course_id)
            return
        self.log.info("Processing %d submissions of '%s' for course '%s'", len(self.src_records),
                      self.coursedir.assignment_id, self.coursedir.course_id)
        candidates = getattr(self, "candidates", None) or {r["username"]: [r] for r in self.src_records}
        for record in self.src_records:
            student_id = record["username"]
            later = candidates.get(student_id, [record])
            for rec in later[later.index(record) if record in later else 0:]:
                if self._collect_one(student_id, rec):
                    break

    def _collect_one(self, student_id: str, rec: dict) -> bool:
        """Copy one submission record; False when it was refused during the copy."""
        src = Path(self.inbound_path, rec["filename"])
        dest = Path(self.coursedir.format_path(self.coursedir.submitted_directory, student_id,
                                               self.coursedir.assignment_id))
        if dest.is_dir():
            existing = self.coursedir.get_existing_timestamp(str(dest))
            newer = existing is None or rec["timestamp"] > existing
            if not ((self.update and newer) or (self.before_duedate and existing != rec["timestamp"])):
                self.log.info("Submission already exists, use --update to update: %s %s",
                              student_id, self.coursedir.assignment_id)
                return True
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            uid = pwd.getpwnam(student_id).pw_uid
            staged = dest.with_name(f".{dest.name}.new")
            shutil.rmtree(staged, ignore_errors=True)
            copy_submission(src, staged, uid, exclude=list(self.coursedir.ignore),
                            include=list(self.coursedir.include),
                            max_file_bytes=1000 * self.coursedir.max_file_size)
        except (Refused, KeyError) as exc:
            self.refuse(src, student_id, str(exc) if isinstance(exc, Refused) else "no such user")
            return False
        if dest.is_dir():
            self.log.info("Updating submission: %s %s", student_id, self.coursedir.assignment_id)
            shutil.rmtree(dest)
        else:
            self.log.info("Collecting submission: %s %s", student_id, self.coursedir.assignment_id)
        os.rename(staged, dest)
        return True

    def refuse(self, folder: Path, student: str, problem: str) -> None:
        try:
            owner = _owner(folder.lstat())
        except OSError:
            owner = "?"
        now = dt.datetime.now(dt.UTC)
        line = (f"{now:%Y-%m-%d %H:%M:%S} UTC refused {folder.name!r} (claims {student}, "
                f"owned by {owner}): {problem}")
        self.log.error("Refused submission: %s", line)
        log = Path(self.coursedir.root) / REFUSED_LOG
        try:
            known = log.read_text(encoding="utf-8") if log.is_file() else ""
            if f" refused {folder.name!r} " in known:
                return  # recorded by an earlier collect: one line per forged folder
            with log.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
            log.chmod(0o600)
        except OSError as exc:
            self.log.error("could not record the refusal in %s: %s", log, exc)


#: A submission after ``PrivateSubmit``: the folder is the owner's and readable by its
#: group (the inbound folder's, the instructor's: inbound is set-group-id), closed to
#: others; what it holds is writable by the owner only and reached only through it.
SUBMISSION_MODE, INSIDE_DIR_MODE, INSIDE_FILE_MODE = 0o750, 0o755, 0o644


def close_submission(folder: Path) -> None:
    """Leave ``folder`` (a submission of mine) to me and the instructor's group only.

    nbgrader's submit makes the folder mode 777 "so that the instructor can delete it".
    Its files cannot all get the instructor's group (nbgrader's copy clears the folder's
    set-group-id bit before it writes ``timestamp.txt``, and a student may not give a file
    to a group they are not in), so they stay readable (644) and the folder (750, group
    the instructor's) is what closes them to other students.
    """
    for root, dirs, files in os.walk(folder):
        for names, mode in ((dirs, INSIDE_DIR_MODE), (files, INSIDE_FILE_MODE)):
            for name in names:
                path = os.path.join(root, name)
                if not os.path.islink(path):  # chmod would change the link's target
                    os.chmod(path, mode)
    os.chmod(folder, SUBMISSION_MODE)


class PrivateSubmit(ExchangeSubmit):
    """nbgrader's ``ExchangeSubmit``, then the submission closed to other students."""

    def copy_files(self) -> None:  # noqa: D102 - nbgrader's, then close_submission
        super().copy_files()
        folder = Path(self.inbound_path, self.assignment_filename)
        if folder.stat().st_gid == Path(self.inbound_path).stat().st_gid:
            close_submission(folder)
        else:  # not the class's set-group-id inbound: keep nbgrader's modes, readable
            self.log.warning("%s is not in the instructor's group: left as nbgrader made it",
                             folder)
