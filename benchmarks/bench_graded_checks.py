"""What the graded path adds to autograde, per exercise, next to the check in the kernel.

Issue 50's budget: the graded path (``coursetools.classroom.graded``: a check process
forked from the warm check server, the answer in its own process in bubblewrap with the
stripped perclib, JSON between them) adds at most 2 seconds per exercise to autograde.

For every exercise of lessons 1-9, with a fresh grader per lesson (``autograde`` of one
submission, as ``coursetools.classroom.scale`` runs it: no server, no stripped copy yet):

* **kernel**: the check cell's time in the lesson's kernel (nbclient runs the lesson top
  to bottom and records each cell's start and end);
* **after Execute**: what ``GradedChecks`` adds once the kernel is done (the server was
  started when nbgrader made the preprocessors, before Execute, as in autograde): the
  lesson's graded checks, two at a time, per exercise;
* **cold**: the same from nothing (server start, its imports, the stripped copies, the
  checks): the cost when nothing overlaps the kernel's run, per exercise;
* **alone**: each exercise by itself, server and copies ready, the best of three runs
  (the machine is shared): which check is slow.

The budget holds when every lesson's *cold* time per exercise and every exercise's
*alone* time are at most 2 s; the script exits 1 otherwise. The machine is shared: the
load average is printed with the table (measure on a quiet moment).

    python benchmarks/bench_graded_checks.py [notebooks/05_convergence.ipynb ...] [--unconfined]
"""

from __future__ import annotations

import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import perclib.graded  # noqa: E402
from coursetools.classroom import graded  # noqa: E402

BUDGET = 2.0  # seconds added per exercise (issue 50)
REPEAT = 3  # runs of each exercise alone: the best is the least disturbed by the others


def fresh_grader() -> None:
    """Forget the check server and the stripped copies, as a new autograde process."""
    graded._close_servers()
    graded._SERVER.clear()
    graded._COPIES.clear()
    perclib.graded._BASE.clear()
    perclib.graded._TREES.clear()


def kernel_seconds(lesson: Path) -> dict[str, float]:
    """Each check cell's time in the lesson's kernel (Execute's share)."""
    nb = nbformat.read(lesson, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=True,
                   resources={"metadata": {"path": str(lesson.parent)}}).execute()
    times = {}
    for _, check in graded.exercises(nb.cells):
        cell = nb.cells[check]
        timing = cell.metadata["execution"]
        start = datetime.fromisoformat(timing["iopub.execute_input"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(timing["shell.execute_reply"].replace("Z", "+00:00"))
        times[cell.metadata.nbgrader.grade_id] = (end - start).total_seconds()
    return times


def measure(lesson: Path, confine: bool) -> tuple[list[str], bool]:
    """The table rows of one lesson, and whether it keeps the budget."""
    cells = nbformat.read(lesson, as_version=4).cells
    # As autograde: the server starts with GradedChecks, then the kernel runs the lesson.
    fresh_grader()
    graded.check_server()
    kernel = kernel_seconds(lesson)
    start = time.monotonic()
    verdicts = graded.notebook_verdicts(cells, confine=confine)
    after = (time.monotonic() - start) / len(verdicts)
    alone = {}
    for grade_id in verdicts:
        for _ in range(REPEAT):
            start = time.monotonic()
            graded.notebook_verdicts(cells, confine=confine, only={grade_id}, workers=1)
            alone[grade_id] = min(alone.get(grade_id, 1e9), time.monotonic() - start)
    # From nothing, nothing else running: the server's start is the graded path's too.
    fresh_grader()
    start = time.monotonic()
    graded.check_server()
    graded.notebook_verdicts(cells, confine=confine)
    cold = (time.monotonic() - start) / len(verdicts)
    rows, ok = [], cold <= BUDGET
    for grade_id, verdict in verdicts.items():
        ok &= alone[grade_id] <= BUDGET and verdict["passed"]
        failed = "" if verdict["passed"] else f" FAILED: {verdict['error']}"
        rows.append(f"| {lesson.stem}/{grade_id.removesuffix('-check')} | {kernel[grade_id]:.2f} | "
                    f"{after:.2f} | {cold:.2f} | {alone[grade_id]:.2f}{failed} |")
    return rows, ok


def main(argv: list[str]) -> int:
    confine = "--unconfined" not in argv
    lessons = [Path(a) for a in argv if a.endswith(".ipynb")] or sorted(
        (ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the start", flush=True)
    print("\n| exercise | kernel (s) | after Execute (s/exercise) | cold (s/exercise) | "
          "alone (s) |")
    print("|---|---|---|---|---|", flush=True)
    ok = True
    for lesson in lessons:
        rows, kept = measure(lesson, confine)
        ok &= kept
        print("\n".join(rows), flush=True)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end; budget {BUDGET:.0f} s per "
          f"exercise (cold and alone): {'kept' if ok else 'EXCEEDED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
