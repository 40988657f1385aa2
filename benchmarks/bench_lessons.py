"""How long each lesson takes to Run All, in kernel CPU-seconds, against the 15 CPU-s budget.

Every lesson runs top to bottom in a fresh kernel through nbclient (what
``coursetools.run`` and nbconvert do). The kernel is a separate process, so its CPU
time (user + system, of the kernel and any child it starts) is read from the
operating system with psutil: unlike wall time, it does not grow when other programs
share the cores. Both are printed, with the kernel's start-up (the floor every lesson
pays, import of IPython and ipykernel) on its own line.

``--cells N`` also lists each lesson's N most expensive code cells (index, CPU-s and
the cell's first line), which is where to look when a lesson is over budget.

Run: ``python benchmarks/bench_lessons.py [notebooks ...] [--cells 3]``
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
import psutil
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
BUDGET_CPU_S = 15.0


def _cpu(process: psutil.Process) -> float:
    """CPU-seconds of ``process`` and its live children."""
    total = 0.0
    for proc in [process, *process.children(recursive=True)]:
        try:
            times = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def run_lesson(path: Path) -> dict:
    """Run one lesson; return its start-up, total CPU and wall times and per-cell CPU."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=900, kernel_name="python3",
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )
    wall0 = time.perf_counter()
    with client.setup_kernel():
        process = psutil.Process(client.km.provisioner.process.pid)
        startup = _cpu(process)
        cells = []
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            before, t0 = _cpu(process), time.perf_counter()
            client.execute_cell(cell, index)
            first = next((line for line in cell.source.splitlines() if line.strip()), "")
            cells.append((_cpu(process) - before, time.perf_counter() - t0, index, first[:60]))
        total = _cpu(process)
    return {"startup": startup, "cpu": total, "wall": time.perf_counter() - wall0, "cells": cells}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--cells", type=int, default=0, help="list each lesson's N costliest cells")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
    print(f"{'lesson':<34} {'start CPU-s':>11} {'CPU-s':>7} {'wall s':>7} {'budget':>7}")
    over = 0
    for path in paths:
        r = run_lesson(path)
        verdict = "ok" if r["cpu"] <= BUDGET_CPU_S else "OVER"
        over += verdict == "OVER"
        row = f"{path.name:<34} {r['startup']:11.1f} {r['cpu']:7.1f} {r['wall']:7.1f}"
        print(f"{row} {verdict:>7}", flush=True)
        for cpu, wall, index, first in sorted(r["cells"], reverse=True)[: args.cells]:
            print(f"    cell {index:3d}: {cpu:5.1f} CPU-s {wall:5.1f} s  {first}", flush=True)
    print(f"budget: {BUDGET_CPU_S:.0f} CPU-s per lesson (kernel start-up included); "
          f"{over} lesson(s) over; {psutil.cpu_count()} cores, load {psutil.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
