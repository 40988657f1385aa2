"""How long a graded check takes, next to the same check in the lesson's kernel (issue 50).

For every exercise of lessons 1-9: the check cell's time in the lesson's kernel (the
lesson run top to bottom by nbclient, which records each cell's start and end), and
the time of the graded path (``coursetools.classroom.graded``: check process, answer
process in its sandbox, the stripped perclib made once per set of forbidden names).
Autograde runs both; the graded column is what the graded path adds.

    python benchmarks/graded_checks.py [notebooks/05_convergence.ipynb ...] [--unconfined]
"""

from __future__ import annotations

import sys
import time
from datetime import datetime
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from coursetools.classroom.graded import exercises, graded_verdict, notebook_verdicts  # noqa: E402

WARM_CHECK = "x = f()\n### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS\n"


def warm_up(confine: bool) -> float:
    """Start the two check servers (once per autograde run): their start-up time."""
    from concurrent.futures import ThreadPoolExecutor

    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(lambda _: graded_verdict(WARM_CHECK, "def f():\n    return 1\n", [],
                                               confine=confine), range(2)))
    return time.monotonic() - start


def kernel_seconds(lesson: Path) -> dict[str, float]:
    nb = nbformat.read(lesson, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=True,
                   resources={"metadata": {"path": str(lesson.parent)}}).execute()
    times = {}
    for _, check in exercises(nb.cells):
        cell = nb.cells[check]
        timing = cell.metadata["execution"]
        start = datetime.fromisoformat(timing["iopub.execute_input"].replace("Z", "+00:00"))
        end = datetime.fromisoformat(timing["shell.execute_reply"].replace("Z", "+00:00"))
        times[cell.metadata.nbgrader.grade_id] = (end - start).total_seconds()
    return times


def main(argv: list[str]) -> int:
    confine = "--unconfined" not in argv
    lessons = [Path(a) for a in argv if a.endswith(".ipynb")] or sorted(
        p for p in (ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
    print(f"check servers started (once per autograde run): {warm_up(confine):.1f} s\n")
    print("| exercise | check in the kernel (s) | graded path (s) | graded, one at a time (s) |")
    print("|---|---|---|---|")
    for lesson in lessons:
        kernel = kernel_seconds(lesson)
        cells = nbformat.read(lesson, as_version=4).cells
        start = time.monotonic()
        verdicts = notebook_verdicts(cells, confine=confine)
        together = time.monotonic() - start
        for grade_id, verdict in verdicts.items():
            one = time.monotonic()
            notebook_verdicts(cells, confine=confine, only={grade_id}, workers=1)
            alone = time.monotonic() - one
            ok = "" if verdict["passed"] else f" FAILED: {verdict['error']}"
            print(f"| {lesson.stem}/{grade_id} | {kernel[grade_id]:.2f} | "
                  f"{together / len(verdicts):.2f} (mean, 2 at a time) | {alone:.2f}{ok} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
