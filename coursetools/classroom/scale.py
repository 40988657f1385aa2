"""Autograde many submissions at once: N workers, each submission in the grading sandbox.

At a deadline the exchange is quick (a submission is a few hundred kilobytes) but
grading is not: autograde runs the lesson top to bottom, tens of CPU-seconds per
submission. nbgrader's ``autograde`` grades one submission after another in one
process. ``autograde_many`` starts ``nbgrader autograde ASSIGNMENT --student ID`` for
every student at once on ``workers`` processes (here on one machine; in a cluster the
same command runs in N pods or machines sharing the gradebook), each with the
instructor's configuration, so each notebook still runs in the sandbox kernel.

Several writers need a gradebook that takes concurrent writes: PostgreSQL
(``setup --gradebook-url postgresql://...``, nbgrader's ``CourseDirectory.db_url``).
SQLite, the one-machine default, locks the whole file per write, so more than one
worker on a SQLite gradebook is refused.

Run it as the instructor, in the course folder::

    python -m coursetools.classroom.scale 03-general-position --workers 4

Example
-------
>>> split_round_robin(["a", "b", "c", "d", "e"], 2)
[['a', 'c', 'e'], ['b', 'd']]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Graded:
    """One submission's autograde: who, whether nbgrader succeeded, how long it took."""

    student: str
    ok: bool
    seconds: float
    log: str


def split_round_robin(items: list[str], n: int) -> list[list[str]]:
    """``items`` dealt into ``n`` lists (what each of n pods would take)."""
    return [items[i::n] for i in range(n) if items[i::n]]


def submitted_students(course_root: Path, assignment: str) -> list[str]:
    """Students with a collected submission of ``assignment`` (``submitted/ID/ASSIGNMENT``)."""
    root = Path(course_root) / "submitted"
    return sorted(p.name for p in root.iterdir() if (p / assignment).is_dir()) if root.is_dir() else []


def check_gradebook(db_url: str, workers: int) -> None:
    """Refuse concurrent writers on SQLite (it locks the whole file)."""
    if workers > 1 and db_url.startswith("sqlite"):
        raise ValueError(
            f"workers={workers} with the SQLite gradebook ({db_url}): SQLite takes one writer at "
            "a time; use --workers 1, or a PostgreSQL gradebook (setup --gradebook-url "
            "postgresql+psycopg2://USER:PASSWORD@HOST/DB)")


def autograde_many(assignment: str, students: list[str], workers: int, *, cwd: Path,
                   nbgrader: list[str] | None = None, env: dict | None = None,
                   extra: list[str] = ()) -> list[Graded]:
    """Autograde ``students``' submissions on ``workers`` processes; one result per student.

    ``nbgrader`` is the command (default: this Python's ``nbgrader``); it reads the
    configuration of ``cwd`` and of ``JUPYTER_CONFIG_PATH`` as the instructor's would.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    command = nbgrader or [str(Path(sys.executable).parent / "nbgrader")]

    def grade(student: str) -> Graded:
        start = time.monotonic()
        r = subprocess.run([*command, "autograde", assignment, "--student", student, "--force", *extra],
                           cwd=cwd, env=env, capture_output=True, text=True)
        log = r.stdout + r.stderr
        # nbgrader exits 0 even when a notebook fails to grade; it says so in its log.
        ok = r.returncode == 0 and "[AutogradeApp | ERROR]" not in log
        return Graded(student, ok, time.monotonic() - start, log)

    with ThreadPoolExecutor(max_workers=workers) as pool:  # each thread waits on one process
        return list(pool.map(grade, students))


def main(argv: list[str] | None = None) -> int:
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    p = argparse.ArgumentParser(prog="python -m coursetools.classroom.scale",
                                description=__doc__.split("\n")[0])
    p.add_argument("assignment")
    p.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    p.add_argument("--student", action="append", default=[], help="only these (repeatable)")
    args = p.parse_args(argv)
    api = NbGraderAPI(coursedir=CourseDirectory())  # the instructor's config, as nbgrader reads it
    db_url = api.coursedir.db_url
    try:
        check_gradebook(db_url, args.workers)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    root = Path(api.coursedir.root)
    students = args.student or submitted_students(root, args.assignment)
    if not students:
        print(f"error: no submission of {args.assignment} in {root}/submitted: collect first",
              file=sys.stderr)
        return 1
    with api.gradebook as gb:  # the schema exists before N processes open it at once
        gb.find_assignment(args.assignment)
    start = time.monotonic()
    results = autograde_many(args.assignment, students, args.workers, cwd=root)
    for r in results:
        print(f"{r.student}: {'graded' if r.ok else 'FAILED'} in {r.seconds:.1f} s")
        if not r.ok:
            print("  " + "\n  ".join(r.log.strip().splitlines()[-8:]))
    took = time.monotonic() - start
    failed = [r.student for r in results if not r.ok]
    print(f"{len(results) - len(failed)} of {len(results)} graded in {took:.1f} s on {args.workers} workers")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
