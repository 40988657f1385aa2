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

Example
-------
>>> problem_of(Path("/nonexistent+03+2026-01-01 00:00:00.000000 UTC+x"), "ada",
...            parse_stamp("2026-01-01 00:00:00.000000 UTC"), now=parse_stamp("2026-01-02 00:00:00 UTC"))
'cannot be read (FileNotFoundError)'
"""

from __future__ import annotations

import datetime as dt
import os
import pwd
import stat
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect, groupby
from nbgrader.utils import check_mode, parse_utc

#: How far a submission's timestamp may lie before its folder's change time (the
#: student's clock and nbgrader's copy take a moment); more is a backdated submission.
BACKDATE_SLACK = dt.timedelta(minutes=10)
#: How far in the future a timestamp may lie (the same machine's clock: a moment).
FUTURE_SLACK = dt.timedelta(seconds=5)
REFUSED_LOG = "refused-submissions.log"


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
            st = path.lstat()
            rel = path.relative_to(folder)
            if stat.S_ISLNK(st.st_mode):
                return f"holds a symbolic link {rel} -> {os.readlink(path)}"
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
    if inside.is_file():
        try:
            if parse_stamp(inside.read_text().strip()) != stamp:
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
        # nbgrader's own choice per student (latest, or latest before the deadline).
        chosen = []
        for records in groupby(valid, lambda r: r["username"]).values():
            records = self._sort_by_timestamp(records)
            if self.duedate is not None and self.before_duedate:
                due = [r for r in records if r["timestamp"] <= self.duedate]
                records = due or records
            chosen.append(records[0])
        self.src_records = chosen

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
