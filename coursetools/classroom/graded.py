"""Autograde's graded checks: each exercise checked again, out of the answer's reach.

nbgrader's autograde runs the whole submission in one kernel (the grading sandbox):
the check of an exercise runs after the student's answer, in the namespace the answer
has shaped. A check there is feedback, not proof (issue 50). After nbgrader's
``Execute``, :class:`GradedChecks` takes every autograded check cell that passed in the
kernel and runs it again with :func:`perclib.graded.run_check`:

* the **check process** (``python -m perclib.graded check``, started here, as the
  grader) runs the check cell as the instructor wrote it (nbgrader has put the locked
  cell back), with the real perclib;
* the **answer process** it starts runs the answer cell *as submitted* (the source in
  the notebook file, never the kernel's state) in its own bubblewrap sandbox: no
  network, no course folder, the grading sandbox's limits, and a ``perclib`` with the
  check's forbidden functions deleted from its source, mounted over every folder the
  real one lives in. Only plain data (JSON) crosses between the two.

A check that fails there gets an error output, so nbgrader's ``SaveAutoGrades`` gives
the cell 0 points; the kernel's own run is kept above it. The kernel never learns it is
being graded: nothing in it decides the grade.

``setup`` puts it after ``Execute`` in ``Autograde.autograde_preprocessors``
(:data:`AUTOGRADE`). By hand, in an ``nbgrader_config.py``::

    from coursetools.classroom.autograde import AUTOGRADE
    c.Autograde.autograde_preprocessors = AUTOGRADE

Example
-------
>>> answer_cell_id("ex3-check")
'ex3-answer'
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from coursetools.classroom.cgroup import enter_prefix, remove_finished
from coursetools.classroom.sandbox import SCRATCH, Limits, _inside, link_chain, system_mounts
from perclib.classroom import KEY_VARIABLE

HIDDEN = "### BEGIN HIDDEN TESTS"


def answer_cell_id(check_id: str) -> str:
    return check_id.removesuffix("-check") + "-answer"


def _python_mounts() -> list[Path]:
    """The interpreter and its libraries: the venv, its base, the executable's folder."""
    roots = {Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent}
    roots |= {p.resolve() for p in roots}
    return sorted(p for p in roots if p.exists() and p != Path("/"))


def _perclib_folders(mounted: list[Path]) -> list[Path]:
    """Every folder named perclib the answer's interpreter could import, among ``mounted``."""
    found = set()
    spec = importlib.util.find_spec("perclib")
    if spec is not None and spec.submodule_search_locations:
        found |= {Path(p).resolve() for p in spec.submodule_search_locations}
    for entry in sys.path:
        candidate = Path(entry or ".") / "perclib"
        if candidate.is_dir():
            found.add(candidate.resolve())
    for root in mounted:
        for site in root.glob("lib/python3*/site-packages/perclib"):
            found.add(site.resolve())
    return sorted(p for p in found if any(_inside(p, m) for m in mounted))


def confine_prefix(limits: Limits | None = None, memory_cgroup: Path | None = None) -> list[str]:
    """The bubblewrap command that confines the answer's process.

    ``{perclib}`` stands for the folder that holds the stripped copy (filled in by the
    check's process, which builds it). ``memory_cgroup``: the course's delegated cgroup
    folder; the answer's process and all it forks then share one memory limit, the
    grading kernel's (else each process has its own address-space limit only).
    """
    limits = limits or Limits(wall_seconds=600)
    cmd = [] if memory_cgroup is None else enter_prefix(memory_cgroup, limits.kernel_memory_bytes)
    cmd += [
        "bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--uid", "65534", "--gid", "65534",
        "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv",
        "--proc", "/proc", "--dev", "/dev",
        # bwrap's /dev/shm has no size of its own, and its pages count against no
        # per-process limit: give it the grading kernel's size.
        "--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm",
        "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
        "--size", str(limits.scratch_bytes), "--tmpfs", SCRATCH,
        *system_mounts(),
    ]
    bound = [Path("/usr")]
    for path in _python_mounts():
        if not any(_inside(path, b) for b in bound):
            cmd += ["--ro-bind", str(path), str(path)]
            bound.append(path)
    for start in (Path(sys.prefix), Path(sys.executable)):
        for link, target in link_chain(start):
            if not any(_inside(link, b) for b in bound):
                cmd += ["--symlink", str(target), str(link)]
    # The real perclib, wherever the interpreter could find it, is covered by the copy.
    for folder in _perclib_folders(bound):
        cmd += ["--ro-bind", "{perclib}/perclib", str(folder)]
    # The copy at its own path (its compiled files name it), on sys.path.
    cmd += ["--ro-bind", "{perclib}", "{perclib}", "--chdir", SCRATCH]
    env = {"HOME": SCRATCH, "LANG": "C.UTF-8", "TMPDIR": "/tmp", "PYTHONPATH": "{perclib}",
           "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg",
           "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    cache = os.environ.get("PYTHONPYCACHEPREFIX")
    if cache and Path(cache).is_dir():  # compiled files kept apart from the sources
        cmd += ["--ro-bind", cache, cache]
        env["PYTHONPYCACHEPREFIX"] = cache
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--", *limits.prlimit_args()]


_COPIES: dict[tuple[str, ...], tempfile.TemporaryDirectory] = {}
_COPIES_LOCK = threading.Lock()


def stripped_copy(check: str) -> str:
    """The folder holding perclib without the check's forbidden functions, made once
    per set of names while the grader runs (every submission of a class shares it)."""
    from perclib.graded import forbidden_names, strip_perclib

    names = tuple(forbidden_names(check))
    with _COPIES_LOCK:
        if names not in _COPIES:
            folder = tempfile.TemporaryDirectory(prefix="graded-perclib-")
            os.chmod(folder.name, 0o755)  # the sandbox's user reads it
            strip_perclib(names, Path(folder.name))
            _COPIES[names] = folder
        return _COPIES[names].name


class _Server:
    """The warm check server (``python -m perclib.graded serve``), shared by all threads.

    It forks one process per check and runs several at a time; replies come back
    tagged with their job's number, read by a thread of their own.
    """

    def __init__(self) -> None:
        env = {**os.environ, "MPLBACKEND": "Agg"}
        # a file, not a pipe: nobody reads the checks' warnings while they run
        self.errors = tempfile.TemporaryFile("w+")
        self.process = subprocess.Popen([sys.executable, "-m", "perclib.graded", "serve"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.errors, text=True, env=env)
        self.lock, self.writing = threading.Lock(), threading.Lock()
        self.waiting: dict[int, Future[dict[str, Any]]] = {}
        self.numbers = itertools.count()
        self.died: str | None = None
        threading.Thread(target=self._read, daemon=True, name="graded-server").start()

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        # a lock of its own: a write that waits for the server never holds up _read
        with self.writing:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()

    def run(self, job: dict[str, Any]) -> dict[str, Any]:
        future: Future[dict[str, Any]] = Future()
        with self.lock:
            number = next(self.numbers)
            self.waiting[number] = future
            died = self.died
        if died is not None:
            raise RuntimeError(f"graded check server died: {died}")
        with contextlib.suppress(OSError):  # the server is gone: _read says why
            self._send({"id": number, "job": job})
        return future.result()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            message = json.loads(line)
            with self.lock:
                future = self.waiting.pop(message["id"])
            future.set_result(message["verdict"])
        self.process.wait()
        self.errors.seek(0)
        with self.lock:
            self.died = f"exit {self.process.returncode}: {self.errors.read()[-2000:]}"
            waiting, self.waiting = self.waiting, {}
        for future in waiting.values():
            future.set_exception(RuntimeError(f"graded check server died: {self.died}"))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.process.stdin.close()
        self.process.wait(timeout=30)


_SERVER: list[_Server] = []
_SERVER_LOCK = threading.Lock()


def check_server() -> _Server:
    """The running check server, started on first use (and again if it died)."""
    with _SERVER_LOCK:
        if not _SERVER or _SERVER[0].died is not None:
            _SERVER[:] = [_Server()]
        return _SERVER[0]


@atexit.register
def _close_servers() -> None:
    for server in _SERVER:
        server.close()


def graded_verdict(check: str, answer: str, context: list[str], *, confine: bool = True,
                   timeout: float = 300.0, strip: bool = True,
                   memory_cgroup: Path | None = None) -> dict[str, Any]:
    """Run one graded check in a fresh process forked from the warm server; its verdict.

    ``confine=False`` starts the answer's process without a sandbox, ``strip=False``
    gives it the whole of perclib (tests of the mechanism, and the adversarial run's
    control: an attack must pass there, or it proves nothing). ``memory_cgroup``: see
    :func:`confine_prefix`.
    """
    from perclib.graded import check_imports

    if confine and shutil.which("bwrap") is None:
        raise RuntimeError("graded checks need bwrap (apt-get install bubblewrap)")
    job = {"check": check, "answer": answer, "context": context, "timeout": timeout,
           "confine": confine_prefix(memory_cgroup=memory_cgroup) if confine else [],
           "stripped": stripped_copy(check if strip else ""),
           # the graded student's key, set by StudentKey before the kernel ran (own numbers)
           "student_key": os.environ.get(KEY_VARIABLE),
           "warm": check_imports(check)}  # loaded by the server, for the next checks too
    verdict = check_server().run(job)
    if "broken" in verdict:
        raise RuntimeError(f"graded check did not run: {verdict['broken']}")
    return verdict


def exercises(cells: list[Any]) -> list[tuple[int, int]]:
    """(answer index, check index) of every autograded check with hidden tests."""
    index = {c.get("metadata", {}).get("nbgrader", {}).get("grade_id"): i
             for i, c in enumerate(cells)}
    pairs = []
    for i, cell in enumerate(cells):
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.get("cell_type") == "code" and meta.get("grade") and not meta.get("solution") \
                and HIDDEN in _source(cell):
            answer = index.get(answer_cell_id(meta.get("grade_id", "")))
            if answer is not None and answer < i:
                pairs.append((answer, i))
    return pairs


def _source(cell: Any) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else source


def notebook_verdicts(cells: list[Any], *, confine: bool = True, only: set[str] | None = None,
                      workers: int = 2,
                      memory_cgroup: Path | None = None) -> dict[str, dict[str, Any]]:
    """Every exercise's graded verdict, keyed by the check's grade id.

    ``only``: the check ids to run (all by default). Exercises run ``workers`` at a
    time (each is two processes that mostly wait for each other). ``memory_cgroup``:
    see :func:`confine_prefix`.
    """
    from perclib.graded import answer_context

    jobs = {}
    for answer, check in exercises(cells):
        grade_id = cells[check]["metadata"]["nbgrader"]["grade_id"]
        if only is None or grade_id in only:
            context = answer_context([_source(c) for c in cells[:answer]
                                      if c.get("cell_type") == "code"], _source(cells[answer]))
            jobs[grade_id] = (_source(cells[check]), _source(cells[answer]), context)
    check_server()  # it starts (if it has not) while this process strips perclib
    for check, _, _ in jobs.values():
        stripped_copy(check)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {grade_id: pool.submit(graded_verdict, *job, confine=confine,
                                         memory_cgroup=memory_cgroup)
                   for grade_id, job in jobs.items()}
        verdicts = {grade_id: future.result() for grade_id, future in futures.items()}
    if memory_cgroup is not None:
        remove_finished(memory_cgroup)
    return verdicts


from traitlets import Bool, Unicode  # noqa: E402  (traitlets comes with Jupyter, always here)

try:  # nbgrader is the instructor's: the functions above work without it
    from nbformat.v4 import new_output
    from nbgrader.preprocessors import NbGraderPreprocessor
except ImportError:  # pragma: no cover
    NbGraderPreprocessor = object  # type: ignore[assignment,misc]


class GradedChecks(NbGraderPreprocessor):  # type: ignore[misc,valid-type]
    """After Execute: a check that passed in the kernel runs again out of its reach."""

    confine = Bool(True, help="run each answer in its own bubblewrap sandbox").tag(config=True)
    memory_cgroup = Unicode(
        "", help="the course's delegated memory cgroup folder (written by setup where the "
        "machine has one): each answer's process and all it forks share one memory limit"
    ).tag(config=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.memory_cgroup:
            from coursetools.classroom.cgroup import check_delegated

            # As the grading kernel: no limit, no grading (never an answer unlimited).
            problem = check_delegated(Path(self.memory_cgroup), os.getuid())
            if problem:
                raise RuntimeError(f"graded checks cannot limit the answers' memory: {problem}")
        # nbgrader makes the preprocessors just before Execute: the server starts now
        # and loads numpy and perclib while the kernel runs the notebook.
        check_server()

    def preprocess(self, nb, resources):  # noqa: D102 - nbconvert's
        failed_in_kernel = {
            nb.cells[check].metadata.nbgrader.grade_id for _, check in exercises(nb.cells)
            if any(o.get("output_type") == "error" for o in nb.cells[check].get("outputs", []))}
        wanted = {nb.cells[check].metadata.nbgrader.grade_id for _, check in exercises(nb.cells)}
        start = time.monotonic()
        # a check that failed in the kernel has its zero already
        verdicts = notebook_verdicts(nb.cells, confine=self.confine, only=wanted - failed_in_kernel,
                                     memory_cgroup=Path(self.memory_cgroup) if self.memory_cgroup else None)
        for _, check in exercises(nb.cells):
            cell = nb.cells[check]
            verdict = verdicts.get(cell.metadata.nbgrader.grade_id)
            if verdict is None or verdict["passed"]:
                continue
            kind, message = verdict["error"]
            text = f"at grading (the answer in a process of its own): {message}"
            cell.outputs.append(new_output("error", ename=kind, evalue=text,
                                           traceback=[f"{kind}: {text}"]))
        self.log.info("graded checks: %d run, %d failed, %.1f s", len(verdicts),
                      sum(not v["passed"] for v in verdicts.values()), time.monotonic() - start)
        return nb, resources
