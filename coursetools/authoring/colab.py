"""``python -m coursetools.colab``: insert or update the Colab cell of every lesson.

The cell itself and the rules for it live in :mod:`coursetools.shared.colab` (the site,
handouts and slides read them too); this module is only the command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import nbformat

from coursetools.shared.colab import with_colab_cell
from coursetools.shared.common import lesson_notebooks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m coursetools.colab", description=__doc__.split("\n\n")[0].split(": ", 1)[1]
    )
    parser.add_argument("notebooks", nargs="*", type=Path,
                        help="lessons (default: every lesson but the index)")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a lesson lacks the cell")
    args = parser.parse_args(argv)
    paths = args.notebooks or lesson_notebooks()
    missing = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if not with_colab_cell(nb):
            continue
        if args.check:
            missing.append(str(path))
        else:
            nbformat.write(nb, path)
            print(f"{path}: Colab cell written; re-store it with python -m coursetools.run {path}")
    if missing:
        print("no up-to-date Colab cell in: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
