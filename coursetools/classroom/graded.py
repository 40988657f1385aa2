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

    from coursetools.classroom.graded import AUTOGRADE
    c.Autograde.autograde_preprocessors = AUTOGRADE

Example
-------
>>> answer_cell_id("ex3-check")
'ex3-answer'
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from coursetools.classroom.sandbox import ETC_FILES, SCRATCH, Limits, _inside, link_chain

#: nbgrader's ``Autograde.autograde_preprocessors`` with the graded checks after Execute.
AUTOGRADE = [
    "nbgrader.preprocessors.Execute",
    "coursetools.classroom.graded.GradedChecks",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
HIDDEN = "### BEGIN HIDDEN TESTS"
#: Where the stripped perclib is mounted in the answer's sandbox (and put on sys.path).
ANSWER_ROOT = "/opt/graded"


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


def confine_prefix(limits: Limits | None = None) -> list[str]:
    """The bubblewrap command that confines the answer's process.

    ``{perclib}`` stands for the folder that holds the stripped copy (filled in by the
    check's process, which builds it).
    """
    limits = limits or Limits(wall_seconds=600)
    cmd = [
        "bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--uid", "65534", "--gid", "65534",
        "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--clearenv",
        "--proc", "/proc", "--dev", "/dev",
        "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
        "--size", str(limits.scratch_bytes), "--tmpfs", SCRATCH,
        "--ro-bind", "/usr", "/usr",
    ]
    for link in ("bin", "lib", "lib64", "sbin"):
        target = Path("/") / link
        if target.is_symlink():
            cmd += ["--symlink", os.readlink(target), str(target)]
        elif target.is_dir():
            cmd += ["--ro-bind", str(target), str(target)]
    for name in ETC_FILES:
        cmd += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
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
    cmd += ["--ro-bind", "{perclib}", ANSWER_ROOT, "--chdir", SCRATCH]
    env = {"HOME": SCRATCH, "LANG": "C.UTF-8", "TMPDIR": "/tmp", "PYTHONPATH": ANSWER_ROOT,
           "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg",
           "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    for key, value in env.items():
        cmd += ["--setenv", key, value]
    return cmd + ["--", *limits.prlimit_args()]


_COPIES: dict[tuple[str, ...], tempfile.TemporaryDirectory] = {}


def stripped_copy(check: str) -> str:
    """The folder holding perclib without the check's forbidden functions, made once
    per set of names while the grader runs (every submission of a class shares it)."""
    from perclib.graded import forbidden_names, strip_perclib

    names = tuple(forbidden_names(check))
    if names not in _COPIES:
        folder = tempfile.TemporaryDirectory(prefix="graded-perclib-")
        os.chmod(folder.name, 0o755)  # the sandbox's user reads it
        strip_perclib(names, Path(folder.name))
        _COPIES[names] = folder
    return _COPIES[names].name


def graded_verdict(check: str, answer: str, context: list[str], *, confine: bool = True,
                   timeout: float = 300.0) -> dict[str, Any]:
    """Run one graded check (``python -m perclib.graded check``); its verdict.

    ``confine=False`` starts the answer's process without a sandbox (tests of the
    mechanism only: perclib's real files stay readable to it).
    """
    if confine and shutil.which("bwrap") is None:
        raise RuntimeError("graded checks need bwrap (apt-get install bubblewrap)")
    job = {"check": check, "answer": answer, "context": context, "timeout": timeout,
           "confine": confine_prefix() if confine else [], "stripped": stripped_copy(check)}
    env = {**os.environ, "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-m", "perclib.graded", "check"], input=json.dumps(job),
                          capture_output=True, text=True, env=env, timeout=timeout + 60,
                          check=False)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"graded check did not run: {done.stderr[-2000:]}")
    return json.loads(lines[-1])


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


def notebook_verdicts(cells: list[Any], *, confine: bool = True,
                      only: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """Every exercise's graded verdict, keyed by the check's grade id."""
    from perclib.graded import answer_context

    verdicts = {}
    for answer, check in exercises(cells):
        grade_id = cells[check]["metadata"]["nbgrader"]["grade_id"]
        if only is not None and grade_id not in only:
            continue
        context = answer_context([_source(c) for c in cells[:answer] if c.get("cell_type") == "code"],
                                 _source(cells[answer]))
        verdicts[grade_id] = graded_verdict(_source(cells[check]), _source(cells[answer]),
                                            context, confine=confine)
    return verdicts


try:  # nbgrader is the instructor's: the functions above work without it
    from nbformat.v4 import new_output
    from nbgrader.preprocessors import NbGraderPreprocessor
    from traitlets import Bool
except ImportError:  # pragma: no cover
    NbGraderPreprocessor = object  # type: ignore[assignment,misc]


class GradedChecks(NbGraderPreprocessor):  # type: ignore[misc,valid-type]
    """After Execute: a check that passed in the kernel runs again out of its reach."""

    confine = Bool(True, help="run each answer in its own bubblewrap sandbox").tag(config=True)

    def preprocess(self, nb, resources):  # noqa: D102 - nbconvert's
        for answer, check in exercises(nb.cells):
            cell = nb.cells[check]
            if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
                continue  # zero already: the kernel's run failed
            from perclib.graded import answer_context

            start = time.monotonic()
            context = answer_context([c.source for c in nb.cells[:answer] if c.cell_type == "code"],
                                     nb.cells[answer].source)
            verdict = graded_verdict(cell.source, nb.cells[answer].source, context,
                                     confine=self.confine)
            grade_id = cell.metadata.nbgrader.grade_id
            self.log.info("graded check %s: %s in %.1f s", grade_id,
                          "passed" if verdict["passed"] else "failed", time.monotonic() - start)
            if not verdict["passed"]:
                kind, message = verdict["error"]
                text = (f"at grading (the answer in a process of its own): {message}")
                cell.outputs.append(new_output("error", ename=kind, evalue=text,
                                               traceback=[f"{kind}: {text}"]))
        return nb, resources
