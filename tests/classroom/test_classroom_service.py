"""The class with the exchange by identity, on "two machines": hub side and students apart.

``test_service_class_across_namespaces`` (root only; in CI it must run, never skip):

* two network namespaces made here, joined by a veth pair with a private /30 that
  exists only inside them (nothing routes outside): the hub side (JupyterHub,
  configurable-http-proxy, the ngshare service, the instructor's nbgrader) and the
  students' side;
* ``python -m coursetools.classroom setup --exchange service`` (which builds the
  service's own environment) and ``roster import`` (which enrols the students);
* every student command runs in the students' namespace inside bubblewrap with a
  private file system: the system and the course's software read-only, their own home
  and nothing else (no class folder, no course folder, no other student's home), so
  students and hub share no file and talk only over HTTP, with their hub token;
* the loop of docs/classroom.md through the service: release (verified by listing it
  back; a release with the wrong token fails with a clear message, where nbgrader
  alone exits 0), fetch, submit (one solved, one blank), collect, autograde in the
  grading sandbox, feedback released and fetched, ``nbgrader export``;
* the attacks of the one-machine test, against the service: a forged submission (a
  student sets ``JUPYTERHUB_USER`` to a classmate: it is booked to himself, the
  classmate's grade is untouched), listing the course's or a classmate's submissions
  (403), fetching a classmate's feedback (403), squatting a course, an assignment, an
  instructor seat (403/404), a request without a token (refused); nor can a student
  see another's files.

Expected scores come from the lesson's own nbgrader metadata, never from the code
under test.
"""

from __future__ import annotations

import csv
import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_classroom import (  # noqa: E402
    ASSIGNMENT,
    IN_CI,
    LESSON,
    Machine,
    _user_exists,
    answer,
    classroom,
    graded_cells,
)

from coursetools.classroom import load_settings  # noqa: E402
from coursetools.classroom.sandbox import python_roots, system_mounts  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")
PASSWORD = "class-" + secrets.token_hex(8)


def test_differences_name_what_the_exchange_lacks(tmp_path) -> None:
    from coursetools.classroom.service import differences, local_checksums

    (tmp_path / "sub").mkdir()
    (tmp_path / "a.ipynb").write_text("{}")
    (tmp_path / "sub" / "data.csv").write_text("1,2")
    local = local_checksums(str(tmp_path))
    assert sorted(local) == ["a.ipynb", "sub/data.csv"]
    assert differences(local, local) == []
    assert differences({"a.ipynb": local["a.ipynb"]}, local) == ["sub/data.csv is missing on the exchange"]
    assert differences({**local, "a.ipynb": "0"}, local) == ["a.ipynb differs on the exchange"]


def test_service_config_is_python(tmp_path) -> None:
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import hub_config_text, nbgrader_config_text

    s = ClassSettings(class_dir=tmp_path, instructor="teacher", course_root=tmp_path / "c",
                      exchange_service=True, service_port=10111)
    hub = hub_config_text(s)
    compile(hub, "jupyterhub_config.py", "exec")
    assert '"url": "http://127.0.0.1:10111"' in hub and "ngshare.db" in hub
    for role in ("instructor", "student"):
        text = nbgrader_config_text(s, role)
        compile(text, "nbgrader_config.py", "exec")
        assert "configureExchange(c, 'http://127.0.0.1:8000/services/ngshare')" in text
        assert ("VerifiedReleaseAssignment" in text) == (role == "instructor")


# -- the two "machines" ------------------------------------------------------------------
class Namespaces:
    """Two network namespaces joined by a veth pair on a private /30 (removed at the end)."""

    def __init__(self, tag: str) -> None:
        self.hub, self.students = f"pchub{tag}", f"pcstu{tag}"
        octet = int(tag[:2], 16) % 250 + 1
        self.hub_ip, self.student_ip = f"10.248.{octet}.1", f"10.248.{octet}.2"
        self.links = (f"pch{tag}", f"pcs{tag}")

    def create(self) -> None:
        def ip(*args: str) -> None:
            subprocess.run(["ip", *args], check=True, capture_output=True)

        ip("netns", "add", self.hub)
        ip("netns", "add", self.students)
        ip("link", "add", self.links[0], "type", "veth", "peer", "name", self.links[1])
        for ns, link, addr in ((self.hub, self.links[0], self.hub_ip),
                               (self.students, self.links[1], self.student_ip)):
            ip("link", "set", link, "netns", ns)
            ip("-n", ns, "addr", "add", f"{addr}/30", "dev", link)
            ip("-n", ns, "link", "set", link, "up")
            ip("-n", ns, "link", "set", "lo", "up")

    def remove(self) -> None:
        for ns in (self.hub, self.students):  # the veth pair goes with its namespaces
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


def student_sandbox(ns: Namespaces, user: str, home: Path, env: dict[str, str],
                    ro: list[Path]) -> list[str]:
    """Run as ``user`` in the students' namespace, in bubblewrap: only ``home`` is theirs."""
    cmd = ["ip", "netns", "exec", ns.students, "runuser", "-u", user, "--",
           "bwrap", "--unshare-all", "--share-net", "--die-with-parent", "--new-session",
           "--clearenv", "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
           *system_mounts()]
    for path in ro:
        cmd += ["--ro-bind", str(path), str(path)]
    cmd += ["--bind", str(home), f"/home/{user}", "--chdir", f"/home/{user}"]
    for key, value in {**env, "HOME": f"/home/{user}", "USER": user, "LANG": "C.UTF-8"}.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--"]


HTTP = r"""
import json, sys, urllib.request, urllib.error, urllib.parse
method, url, token, data = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # a redirect (to a login page) is the answer itself
urllib.request.install_opener(urllib.request.build_opener(NoRedirect))
req = urllib.request.Request(url, method=method,
                             data=urllib.parse.urlencode(data).encode() if data else None)
if token:
    req.add_header("Authorization", "token " + token)
try:
    with urllib.request.urlopen(req, timeout=30) as r:
        print(r.status, r.read().decode()[:300])
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode()[:300])
"""


@pytest.fixture
def world():
    missing = [t for t in ("ip", "bwrap", "runuser", "useradd", "configurable-http-proxy")
               if shutil.which(t) is None]
    if os.geteuid() != 0 or missing:
        if IN_CI or os.geteuid() == 0:
            pytest.fail(f"the service class test needs root and {missing}")
        pytest.skip("needs root (not in CI)")
    import tempfile

    tag = secrets.token_hex(3)
    shared = Path(tempfile.mkdtemp(prefix="perceptron-svc-"))
    shared.chmod(0o755)
    machine, ns = Machine(), Namespaces(tag)
    ns.create()
    try:
        yield machine, ns, shared, tag
    finally:
        left = machine.cleanup()
        ns.remove()
        shutil.rmtree(shared, ignore_errors=True)
        assert not [u for u in machine.users if _user_exists(u)]
        assert not left, f"processes left after the hub stopped: {left}"


def test_service_class_across_namespaces(world) -> None:
    machine, ns, shared, tag = world
    started = time.monotonic()

    def stage(what: str) -> None:
        print(f"[{time.monotonic() - started:5.0f} s] {what}", flush=True)

    instructor = f"psi{tag}"
    students = {"correct": f"psa{tag}", "blank": f"psb{tag}", "forger": f"psc{tag}"}
    homes = {name: machine.add_user(name) for name in (instructor, *students.values())}
    for home in homes.values():
        home.chmod(0o700)
    def reopen() -> None:
        # Users run the course's Python: let them enter (not list) its folders. Again before
        # every command: on a shared machine another class test may restore those modes.
        machine.allow_traverse(Path(sys.executable).parent, Path(sys.executable).resolve(), ROOT)

    reopen()
    class_dir = shared / "class"
    port = 8000
    classroom(class_dir, "setup", "--instructor", instructor, "--exchange", "service",
              "--course-id", f"ps-{tag}", "--course-root", f"{homes[instructor]}/perceptron-course",
              "--ip", ns.hub_ip, "--port", str(port), "--lesson", "3",
              "--authenticator", "dummy", "--test-password", PASSWORD)
    settings = load_settings(class_dir)
    from coursetools.classroom.setup import grading_cgroup

    group = grading_cgroup(settings)
    if group is not None:  # the course's memory cgroup: removed at the end
        machine.cgroups.append(group)
    assert settings.exchange_service and not settings.exchange_root.exists()
    db_file = class_dir / "service" / "data" / "ngshare.db"
    assert db_file.is_file() and (db_file.parent.stat().st_mode & 0o077) == 0
    stage("setup done (service environment built)")

    roster = shared / "students.csv"
    roster.write_text("id,first name,last name,email\n" + "".join(
        f"{s},{k.title()},Student,{s}@example.org\n" for k, s in students.items()))
    classroom(class_dir, "roster", "import", str(roster))
    with sqlite3.connect(db_file) as db:
        enrolled = {r[0] for r in db.execute("select left_id from student_assoc_table")}
        teaching = {r[0] for r in db.execute("select left_id from instructor_assoc_table")}
    assert enrolled == set(students.values()) and teaching == {instructor}

    # The hub side: hub, proxy and ngshare in the hub's namespace.
    env = dict(os.environ, PATH=f"{settings.env_bin}:{os.environ.get('PATH', '')}")
    out_dir = ROOT / "test-output" / "classroom-service"
    out_dir.mkdir(parents=True, exist_ok=True)
    log = (out_dir / "hub.log").open("w")
    hub = subprocess.Popen(["ip", "netns", "exec", ns.hub, str(settings.env_bin / "jupyterhub"),
                            "-f", "jupyterhub_config.py"], cwd=class_dir, stdout=log,
                           stderr=subprocess.STDOUT, env=env, start_new_session=True)
    machine.procs.append(hub)
    base = f"http://{ns.hub_ip}:{port}"
    service = f"{base}/services/ngshare"

    def in_hub(*args: str, user: str | None = None, extra: dict | None = None,
               check: bool = True) -> subprocess.CompletedProcess:
        # nsenter, not `ip netns exec`: that one mounts a new /sys for the namespace, which
        # hides the cgroup hierarchy the grading sandbox puts each kernel in.
        prefix = ["nsenter", f"--net=/run/netns/{ns.hub}"]
        reopen()
        if user:
            from coursetools.classroom.setup import _user

            run_env = {**settings.user_environment(user, Path(_user(user).pw_dir)), **(extra or {})}
            if os.environ.get("PYTHONPATH"):
                run_env["PYTHONPATH"] = os.environ["PYTHONPATH"]
            prefix += ["runuser", "-u", user, "--", "env", "-i",
                       *(f"{k}={v}" for k, v in run_env.items())]
        r = subprocess.run([*prefix, *args], capture_output=True, text=True, timeout=900,
                           cwd=settings.course_root if user == instructor else class_dir, env=env)
        if check:
            assert r.returncode == 0, f"{' '.join(args)}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        return r

    end = time.monotonic() + 120
    while True:
        probe = in_hub(sys.executable, "-c", HTTP, "GET", f"{service}/healthz", "", "{}", check=False)
        if probe.stdout.startswith("200"):
            break
        if time.monotonic() > end or hub.poll() is not None:
            log.flush()
            raise AssertionError((out_dir / "hub.log").read_text()[-4000:])
        time.sleep(1)
    stage("hub and service up")
    # Hub tokens, as each user's server gets one: the instructor's from `jupyterhub token`
    # (the hub's own command), the students' from the hub's API with it (an admin).
    out = in_hub(str(settings.env_bin / "jupyterhub"), "token", "-f", "jupyterhub_config.py", instructor)
    tokens = {instructor: out.stdout.strip().splitlines()[-1]}
    make_tokens = (
        "import json, sys, urllib.request\n"
        "for name in sys.argv[3:]:\n"
        "    req = urllib.request.Request(sys.argv[1] + '/hub/api/users/' + name + '/tokens',\n"
        "        data=b'{}', method='POST', headers={'Authorization': 'token ' + sys.argv[2]})\n"
        "    print(name, json.load(urllib.request.urlopen(req))['token'])\n")
    out = in_hub(sys.executable, "-c", make_tokens, base, tokens[instructor], *students.values())
    tokens |= dict(line.split() for line in out.stdout.splitlines())
    assert set(tokens) == {instructor, *students.values()}

    def as_instructor(*args: str, token: str | None = None, check: bool = True):
        tok = token or tokens[instructor]
        return in_hub(*args, user=instructor, check=check,
                      extra={"JUPYTERHUB_API_TOKEN": tok, "JUPYTERHUB_USER": instructor})

    ro = [*python_roots(), settings.role_config_dir("student"), class_dir / "service" / "exchange-lib"]
    private = {}
    for k, s in students.items():
        private[k] = shared / "student-homes" / s
        private[k].mkdir(parents=True)
        ent = __import__("pwd").getpwnam(s)
        os.chown(private[k], ent.pw_uid, ent.pw_gid)
        private[k].chmod(0o700)
    (shared / "student-homes").chmod(0o711)

    def as_student(k: str, *args: str, claim: str | None = None, check: bool = True):
        s = students[k]
        senv = {"PATH": f"{settings.env_bin}:/usr/bin:/bin", "JUPYTERHUB_API_TOKEN": tokens[s],
                "JUPYTERHUB_USER": claim or s,
                "JUPYTER_CONFIG_PATH": str(settings.role_config_dir("student"))}
        if os.environ.get("PYTHONPATH"):
            senv["PYTHONPATH"] = os.environ["PYTHONPATH"]
        reopen()
        r = subprocess.run([*student_sandbox(ns, s, private[k], senv, ro), *args],
                           capture_output=True, text=True, timeout=600)
        if check:
            assert r.returncode == 0, f"{s}: {' '.join(args)}:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
        return r

    def student_http(k: str, method: str, path: str, data: dict | None = None, token: str | None = "own"):
        tok = tokens[students[k]] if token == "own" else (token or "")
        r = as_student(k, str(settings.env_bin / "python"), "-c", HTTP, method, f"{service}{path}", tok,
                       json.dumps(data or {}))
        return int(r.stdout.split()[0]), r.stdout

    # Release, with a deadline a week ahead (the guide's teacher block, through the service).
    course = settings.course_id
    due = (datetime.now(UTC) + timedelta(days=7)).strftime("%Y-%m-%d %H:%M:%S UTC")
    as_instructor("nbgrader", "db", "assignment", "add", ASSIGNMENT, f"--duedate={due}")
    as_instructor("nbgrader", "generate_assignment", ASSIGNMENT)
    # A release that does not reach the exchange (here: a student's token, so the service
    # refuses it) is an error; nbgrader with ngshare_exchange alone reports success.
    plain = as_instructor("nbgrader", "release_assignment", ASSIGNMENT,
                          "--ExchangeFactory.release_assignment="
                          "ngshare_exchange.release_assignment.ExchangeReleaseAssignment",
                          token=tokens[students["blank"]], check=False)
    assert plain.returncode == 0, "ngshare_exchange now fails a refused release itself: update docs"
    refused = as_instructor("nbgrader", "release_assignment", ASSIGNMENT,
                            token=tokens[students["blank"]], check=False)
    assert refused.returncode != 0 and "did not reach the exchange" in refused.stdout + refused.stderr, (
        refused.stdout + refused.stderr)
    released = as_instructor("nbgrader", "release_assignment", ASSIGNMENT)
    assert "Verified on the exchange" in released.stdout + released.stderr
    stage("released (and a refused release reported)")

    # Squatting, from a student's side: no course, assignment or instructor seat to take.
    assert student_http("forger", "POST", f"/course/squat-{tag}")[0] == 403
    assert student_http("forger", "POST", f"/assignment/{course}/99-squat",
                        {"files": "[]"})[0] == 403
    assert student_http("forger", "DELETE", f"/assignment/{course}/{ASSIGNMENT}")[0] == 403
    assert student_http("forger", "POST", f"/instructor/{course}/{students['forger']}",
                        {"first_name": "x", "last_name": "y", "email": "x@y.org"})[0] == 403
    assert student_http("forger", "POST", f"/assignment/other-{tag}/01", {"files": "[]"})[0] == 404
    anonymous = student_http("forger", "GET", f"/assignments/{course}", token=None)
    assert anonymous[0] in (302, 403, 500) and ASSIGNMENT not in anonymous[1], anonymous
    assert student_http("forger", "GET", f"/assignment/{course}/{ASSIGNMENT}", token=None)[0] >= 400

    # Students fetch, answer and submit, each in their own sandbox on the other side.
    fetched = {}
    for k in students:
        as_student(k, "nbgrader", "fetch_assignment", ASSIGNMENT)
        fetched[k] = private[k] / ASSIGNMENT / LESSON.name
        assert fetched[k].is_file()
        if k != "forger":
            answer(fetched[k], students[k], k)
            as_student(k, "nbgrader", "submit", ASSIGNMENT)
    # The forger submits a blank copy claiming to be the correct student (the latest
    # submission counts: it would erase their work); the service books it to him.
    forged = as_student("forger", "nbgrader", "submit", ASSIGNMENT, claim=students["correct"], check=False)
    with sqlite3.connect(db_file) as db:
        booked = sorted(r[0] for r in db.execute("select student_id from submissions"))
    assert booked == sorted([students["correct"], students["blank"], students["forger"]]), (
        booked, forged.stdout, forged.stderr)
    # Listing others' work, reading another's files.
    assert student_http("forger", "GET", f"/submissions/{course}/{ASSIGNMENT}")[0] == 403
    victim = students["correct"]
    assert student_http("forger", "GET", f"/submissions/{course}/{ASSIGNMENT}/{victim}")[0] == 403
    assert student_http("forger", "GET", f"/submission/{course}/{ASSIGNMENT}/{victim}")[0] == 403
    own = student_http("forger", "GET", f"/submissions/{course}/{ASSIGNMENT}/{students['forger']}")
    assert own[0] == 200, own
    seen = as_student("forger", "bash", "-c", f"ls /home; ls {private['correct']} {homes[instructor]} "
                      f"{class_dir} 2>&1; true").stdout
    assert students["correct"] not in seen.split() and "No such file" in seen, seen
    stage("submitted; forgeries booked to the forger")

    # Collect, autograde, feedback: the guide's teacher blocks, through the service.
    as_instructor("nbgrader", "collect", ASSIGNMENT)
    graded = as_instructor("nbgrader", "autograde", ASSIGNMENT)
    stage("collected and autograded")
    as_instructor("nbgrader", "generate_feedback", ASSIGNMENT)
    as_instructor("nbgrader", "release_feedback", ASSIGNMENT)
    for k in students:
        as_student(k, "nbgrader", "fetch_feedback", ASSIGNMENT)
        reports = list((private[k] / ASSIGNMENT / "feedback").glob(f"*/{LESSON.stem}.html"))
        assert len(reports) == 1, (k, reports)
    listed = student_http("correct", "GET", f"/submissions/{course}/{ASSIGNMENT}/{victim}")[1]
    stamp = json.loads(listed.split(" ", 1)[1])["submissions"][0]["timestamp"]
    from urllib.parse import quote

    theirs = student_http("forger", "GET", f"/feedback/{course}/{ASSIGNMENT}/{students['correct']}"
                          f"?timestamp={quote(stamp)}")
    assert theirs[0] == 403, theirs
    mine = student_http("correct", "GET", f"/feedback/{course}/{ASSIGNMENT}/{students['correct']}"
                        f"?timestamp={quote(stamp)}&list_only=true")
    assert mine[0] == 200, mine
    as_instructor("nbgrader", "export")
    stage("feedback fetched, grades exported")

    # Grades against the lesson's own points: the forgery changed nobody's grade but his.
    lesson = nbformat.read(LESSON, as_version=4)
    auto = graded_cells(lesson, "code")
    expected = {"correct": sum(auto.values()), "blank": 0.0, "forger": 0.0}
    with (settings.course_root / "grades.csv").open() as f:
        exported = {row["student_id"]: float(row["raw_score"]) for row in csv.DictReader(f)}
    assert exported == {students[k]: v for k, v in expected.items()}, (exported, graded.stdout[-2000:])
    assert db_file.stat().st_size > 0 and any((class_dir / "service" / "data" / "files").iterdir())
    stopping = time.monotonic()
    hub.terminate()  # the hub stops its proxy and the service
    hub.wait(120)
    stage(f"hub stopped in {time.monotonic() - stopping:.0f} s")
    (ROOT / "test-output").mkdir(exist_ok=True)
    print(f"\nservice class across namespaces: {time.monotonic() - started:.0f} s")
