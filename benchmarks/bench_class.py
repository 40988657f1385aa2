"""A class at a deadline: the exchange service's rush and autograde's throughput (issue 48).

Two measurements, on loopback only, bounded in time:

1. **Deadline rush.** A real JupyterHub with the ngshare service of ``setup --exchange
   service`` (``coursetools/classroom/service.py``), ``--students`` students enrolled,
   one hub token each; the instructor releases lesson 3 through the service; then every
   student submits the lesson notebook at the same moment (one thread each, through the
   hub's proxy, as ``nbgrader submit`` posts it). Reported: submissions/s, p50 and p95
   latency, and a check that the service stored exactly one submission per student.
2. **Autograde throughput.** ``--graded`` solved submissions of lesson 3 autograded by
   ``coursetools.classroom.scale`` with 1 and with 2 workers, each notebook in the
   grading sandbox (bubblewrap), the gradebook in a throwaway PostgreSQL 15 cluster.

Then it extrapolates to 2,000 students, with its assumptions printed.

Usage::

    python benchmarks/bench_class.py             # 200 students, 6 graded submissions
    python benchmarks/bench_class.py --small     # CI: 20 students, 2 graded

Needs configurable-http-proxy, bubblewrap, PostgreSQL (Debian's, /usr/lib/postgresql)
and network access to PyPI the first time (the service's environment, cached in
``.cache/bench-class``).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import nbformat  # noqa: E402

from coursetools.classroom import service  # noqa: E402
from coursetools.classroom.roster import Student  # noqa: E402
from coursetools.classroom.scale import autograde_many  # noqa: E402
from coursetools.classroom.settings import ClassSettings  # noqa: E402

LESSON = ROOT / "notebooks" / "03_general_position.ipynb"
ASSIGNMENT = "03-general-position"
CACHE = ROOT / ".cache" / "bench-class"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(method: str, url: str, token: str, data: dict | None = None) -> dict:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, method=method,
                                 headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=300) as r:
        return json.loads(r.read().decode())


def files_payload(path: Path) -> str:
    """A folder as ngshare_exchange sends it: JSON list of {path, base64 content}."""
    return json.dumps([{"path": path.name,
                        "content": base64.b64encode(path.read_bytes()).decode()}])


def rush(students: int) -> dict:
    """Start a hub with the service, enrol ``students``, release, submit all at once."""
    CACHE.mkdir(parents=True, exist_ok=True)
    class_dir = CACHE / "class"
    shutil.rmtree(class_dir / "service" / "data", ignore_errors=True)  # venvs stay cached
    port, hub_port, proxy_port, service_port = (free_port() for _ in range(4))
    settings = ClassSettings(class_dir=class_dir, instructor="benchteacher", course_root=CACHE / "course",
                             course_id="bench-course", exchange_service=True, port=port,
                             hub_port=hub_port, proxy_api_port=proxy_port, service_port=service_port,
                             authenticator="dummy", test_password=secrets.token_hex(8))
    (class_dir / "state").mkdir(parents=True, exist_ok=True)
    service.install_service(settings)
    names = [f"bench{i:04d}" for i in range(students)]
    service.enrol(settings, [Student(n, "Bench", f"S{i}", f"{n}@example.org") for i, n in enumerate(names)])
    (class_dir / "roster.csv").write_text("id,first_name,last_name,email\n" + "".join(
        f"{n},Bench,S,{n}@example.org\n" for n in names))
    from coursetools.classroom.setup import hub_config_text

    admin_token = secrets.token_hex(24)
    (class_dir / "jupyterhub_config.py").write_text(hub_config_text(settings) + f"""
# Benchmark only: a service that may create tokens for the enrolled users.
c.JupyterHub.services.append({{"name": "bench-admin", "api_token": {admin_token!r}}})
c.JupyterHub.load_roles = [{{"name": "bench-admin", "scopes": ["tokens", "admin:users"],
                            "services": ["bench-admin"]}}]
""")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}")
    log = (CACHE / "hub.log").open("w")
    hub = subprocess.Popen([str(Path(sys.executable).parent / "jupyterhub"), "-f", "jupyterhub_config.py"],
                           cwd=class_dir, stdout=log, stderr=subprocess.STDOUT, env=env,
                           start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    url = f"{base}/services/ngshare"
    try:
        end = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > end or hub.poll() is not None:
                raise SystemExit("hub or service did not start: see " + str(CACHE / "hub.log"))
            time.sleep(0.5)
        api = f"{base}/hub/api"

        def token_for(name: str) -> str:
            return _token(api, admin_token, name)

        with ThreadPoolExecutor(8) as pool:
            tokens = dict(zip(names, pool.map(token_for, names), strict=True))
        teacher = _token(api, admin_token, settings.instructor)
        release = CACHE / "release.ipynb"
        nb = nbformat.read(LESSON, as_version=4)
        nbformat.write(nb, release)
        request("POST", f"{url}/assignment/bench-course/{ASSIGNMENT}", teacher,
                {"files": files_payload(release)})
        payload = {"files": files_payload(release)}

        def submit(name: str) -> float:
            start = time.monotonic()
            answer = request("POST", f"{url}/submission/bench-course/{ASSIGNMENT}", tokens[name], payload)
            assert answer["success"], answer
            return time.monotonic() - start

        start = time.monotonic()
        with ThreadPoolExecutor(students) as pool:
            latencies = sorted(pool.map(submit, names))
        took = time.monotonic() - start
        stored = request("GET", f"{url}/submissions/bench-course/{ASSIGNMENT}", teacher)["submissions"]
        assert sorted(s["student_id"] for s in stored) == names, "the service lost submissions"
        return {"students": students, "seconds": took, "rate": students / took,
                "p50": statistics.median(latencies),
                "p95": latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))],
                "size_kb": release.stat().st_size / 1024}
    finally:
        hub.terminate()
        try:
            hub.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(hub.pid, 9)
            hub.wait()


def _token(api: str, admin_token: str, name: str) -> str:
    req = urllib.request.Request(f"{api}/users/{name}/tokens", method="POST",
                                 data=json.dumps({"note": "bench"}).encode(),
                                 headers={"Authorization": f"token {admin_token}"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read().decode())["token"]


def autograde(graded: int, workers: int) -> dict:
    """``graded`` solved lesson-3 submissions, autograded on ``workers`` into PostgreSQL."""
    from nbgrader.apps import NbGraderAPI
    from pg_support import ThrowawayPostgres
    from traitlets.config.loader import PyFileConfigLoader

    from coursetools.classroom.sandbox import KERNEL_NAME
    from coursetools.classroom.setup import gradebook_url_file, nbgrader_config_text, sandbox_kernel_text

    pg = ThrowawayPostgres().start()
    tmp = Path(tempfile.mkdtemp(prefix="bench-class-"))
    group: Path | None = None
    try:
        course = tmp / "course"
        (course / "source" / ASSIGNMENT).mkdir(parents=True)
        shutil.copyfile(LESSON, course / "source" / ASSIGNMENT / LESSON.name)
        settings = ClassSettings(class_dir=tmp / "class", instructor="teacher", course_root=course,
                                 exchange_root=tmp / "exchange", gradebook_db_url=pg.url,
                                 course_id=f"bench-{os.getpid()}")
        group = _grading_cgroup(settings)  # the kernels' memory limit, as setup makes it
        config_dir = tmp / "config"
        config_dir.mkdir()
        (config_dir / "nbgrader_config.py").write_text(nbgrader_config_text(settings, "instructor"))
        gradebook_url_file(settings).write_text(pg.url + "\n")
        spec = tmp / "share" / "kernels" / KERNEL_NAME / "kernel.json"
        spec.parent.mkdir(parents=True)
        spec.write_text(sandbox_kernel_text(settings))
        env = {**os.environ, "JUPYTER_PATH": str(tmp / "share"), "JUPYTER_CONFIG_PATH": str(config_dir),
               "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               "PYTHONPATH": str(ROOT)}
        os.environ.update({k: env[k] for k in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "PYTHONPATH", "PATH")})
        config = PyFileConfigLoader("nbgrader_config.py", path=str(config_dir)).load_config()
        api = NbGraderAPI(config=config)
        made = api.generate_assignment(ASSIGNMENT, force=True)
        assert made["success"], made.get("log", "")[-3000:] + made.get("error", "")
        students = [f"s{i:03d}" for i in range(graded)]
        for s in students:  # the lesson's own solutions: every check passes
            folder = course / "submitted" / s / ASSIGNMENT
            folder.mkdir(parents=True)
            shutil.copyfile(LESSON, folder / LESSON.name)
        start = time.monotonic()
        results = autograde_many(ASSIGNMENT, students, workers, cwd=course, env=env)
        took = time.monotonic() - start
        failed = [r.student for r in results if not r.ok]
        if failed:
            raise SystemExit(f"autograde failed for {failed}:\n{results[0].log[-3000:]}")
        return {"workers": workers, "graded": graded, "seconds": took,
                "per_submission": statistics.mean(r.seconds for r in results),
                "per_minute": graded / took * 60}
    finally:
        pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        for sub in [*group.glob("kernel-*"), group] if group is not None else []:
            with contextlib.suppress(OSError):
                sub.rmdir()


def _grading_cgroup(settings: ClassSettings) -> Path:
    """The course's memory cgroup, delegated to this process's user as setup does it."""
    from coursetools.classroom.cgroup import delegate, memory_controller
    from coursetools.classroom.setup import grading_cgroup

    controller = memory_controller()
    if controller is None:
        raise SystemExit("no memory cgroup controller under /sys/fs/cgroup (the grading sandbox needs one)")
    group = grading_cgroup(settings)
    delegate(group, controller.version, os.getuid(), os.getgid())
    return group


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--students", type=int, default=200)
    p.add_argument("--graded", type=int, default=6)
    p.add_argument("--small", action="store_true", help="CI size: 20 students, 2 graded")
    args = p.parse_args(argv)
    if args.small:
        args.students, args.graded = 20, 2
    for tool in ("configurable-http-proxy", "bwrap"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is missing")
    r = rush(args.students)
    grades = [autograde(args.graded, w) for w in (1, 2)]
    cores = os.cpu_count() or 1
    print(f"\nclass at a deadline (lesson 3, {r['size_kb']:.0f} KB a notebook; {cores} cores; loopback)")
    print(f"{'measure':44s} {'value':>12s}")
    print(f"{'students enrolled':44s} {r['students']:>12d}")
    print(f"{'rush: submissions/s (all at once)':44s} {r['rate']:>12.1f}")
    print(f"{'rush: p50 latency (s)':44s} {r['p50']:>12.2f}")
    print(f"{'rush: p95 latency (s)':44s} {r['p95']:>12.2f}")
    for g in grades:
        label = f"autograde, {g['workers']} worker(s): submissions/min"
        print(f"{label:44s} {g['per_minute']:>12.1f}")
    one = grades[0]
    print(f"{'autograde: seconds per submission (1 worker)':44s} {one['per_submission']:>12.1f}")
    n = 2000
    rush_minutes = n / r["rate"] / 60
    cpu_per_sub = one["seconds"] / one["graded"]
    workers_for_hour = n * cpu_per_sub / 3600
    print(f"\nextrapolation to {n} students (assumptions below)")
    print(f"{'  exchange: all submit at once, minutes':44s} {rush_minutes:>12.1f}")
    print(f"{'  autograde on 1 worker, hours':44s} {n * cpu_per_sub / 3600:>12.1f}")
    print(f"{'  workers to grade all in one hour':44s} {workers_for_hour:>12.1f}")
    print("assumptions: one ngshare process (its rate above, measured with the hub on the same "
          "2 cores, so a lower bound); autograde scales linearly with workers, one core each "
          f"(measured: 2 workers gave {grades[1]['per_minute'] / max(one['per_minute'], 1e-9):.2f}x "
          "of 1 on this machine); the gradebook (PostgreSQL) is not the bottleneck at that rate; "
          "every submission is lesson 3 solved.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
