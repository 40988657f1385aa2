"""How long the site takes to build: cold, warm, and after a one-sentence edit (issue 51).

Works on a scratch copy of the repository's tracked files (so the edit touches no real
lesson), with a cache of its own: ``--cold`` starts from an empty cache, otherwise the
copy starts from a copy of this repository's ``.cache`` (what an author has after one
build). Prints one row per build: wall and CPU seconds (the build's processes and the
kernels and Sphinx workers they start), players drawn, pages Sphinx read again, and the
budget (docs/README.md, "Build times"): cold build <= 300 s and rebuild after a
one-cell text edit <= 30 s, on 2 quiet cores.

Usage::

    python benchmarks/bench_site_build.py            # warm, no change, one edit
    python benchmarks/bench_site_build.py --cold     # also the clean build first
    python benchmarks/bench_site_build.py --handouts # also the handouts, warm and edited
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDITED = "05_convergence.ipynb"
BUDGETS = {"cold": 300.0, "one-cell edit": 30.0}


def tracked_copy(dest: Path) -> None:
    """The repository's tracked files (what a clone has), copied to ``dest``."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def edit_one_sentence(repo: Path) -> None:
    """Append a sentence to the first Markdown cell after the title of one lesson."""
    path = repo / "notebooks" / EDITED
    nb = json.loads(path.read_text(encoding="utf-8"))
    cell = [c for c in nb["cells"] if c["cell_type"] == "markdown"][1]
    cell["source"] = "".join(cell["source"]) + "\n\nA sentence added by the benchmark."
    path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def timed(command: list[str], repo: Path) -> tuple[float, float, str]:
    """Run ``command`` in ``repo``; wall seconds, CPU seconds of it and its children, output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(repo)}
    done = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return wall, cpu, done.stdout


def site_row(step: str, repo: Path, out: Path) -> dict:
    wall, cpu, text = timed([sys.executable, "-m", "coursetools.site", "--out", str(out)], repo)
    players = re.search(r"players: (\d+) \((\d+) rendered", text)
    pages = re.search(r"pages: (\d+) rebuilt", text)
    return {"product": "site", "step": step, "wall": wall, "cpu": cpu,
            "drawn": f"{players[2]} of {players[1]}" if players else "?",
            "pages": pages[1] if pages else "?", "budget": BUDGETS.get(step)}


def handouts_row(step: str, repo: Path, out: Path) -> dict:
    wall, cpu, text = timed([sys.executable, "-m", "coursetools.handouts", "--out", str(out),
                             "--force"], repo)
    reused = text.count("reused (lesson and tools unchanged)")
    built = len(re.findall(r"; built in ", text))
    return {"product": "handouts", "step": step, "wall": wall, "cpu": cpu,
            "drawn": "-", "pages": f"{built} built, {reused} reused", "budget": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold", action="store_true", help="start from an empty cache")
    parser.add_argument("--handouts", action="store_true", help="time the handouts too")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-site-") as tmp:
        repo = Path(tmp) / "repo"
        tracked_copy(repo)
        if not args.cold and (ROOT / ".cache").is_dir():
            shutil.copytree(ROOT / ".cache", repo / ".cache")
        out = Path(tmp) / "site"
        rows.append(site_row("cold" if args.cold else "first (author's cache)", repo, out))
        rows.append(site_row("nothing changed", repo, out))
        if args.handouts:
            rows.append(handouts_row("first", repo, Path(tmp) / "handouts"))
        edit_one_sentence(repo)
        rows.append(site_row("one-cell edit", repo, out))
        if args.handouts:
            rows.append(handouts_row("one-cell edit", repo, Path(tmp) / "handouts"))
    print(f"{'product':9} {'build':24} {'wall s':>8} {'CPU s':>8} {'frames drawn':>14} "
          f"{'pages':>16} {'budget s':>9}")
    for r in rows:
        budget = f"{r['budget']:.0f}" if r["budget"] else "-"
        print(f"{r['product']:9} {r['step']:24} {r['wall']:8.1f} {r['cpu']:8.1f} {r['drawn']:>14} "
              f"{r['pages']:>16} {budget:>9}")
    print(f"cores: {os.cpu_count()}, load average at the end: {os.getloadavg()[0]:.1f} "
          "(the budgets hold on 2 quiet cores)")


if __name__ == "__main__":
    main()
