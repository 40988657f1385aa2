"""``python -m coursetools.roles``: write the role metadata the authors' cell tags ask for.

The roles themselves (what each tag means, how a cell is checked) live in
:mod:`coursetools.shared.roles`, which every product reads; this module is the command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from coursetools.shared.common import lesson_notebooks
from coursetools.shared.roles import RoleError, plan, write_notebook


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m coursetools.roles",
        description="Write the role metadata (hide-input, nbval, nbgrader) that the "
        "author tags of lesson cells ask for, in place and idempotently.",
    )
    parser.add_argument(
        "notebooks", nargs="*", type=Path,
        help="notebooks (default: notebooks/NN_*.ipynb, the index excluded)",
    )
    parser.add_argument(
        "--check", action="store_true",
        help="write nothing; exit 1 and list the changes if any notebook is out of date",
    )
    args = parser.parse_args(argv)
    paths = args.notebooks or lesson_notebooks()
    plans, problems = [], []
    for path in paths:
        if not Path(path).is_file():
            problems.append(f"{path}: no such notebook")
            continue
        try:
            plans.append(plan(path))
        except RoleError as exc:
            problems.extend(exc.problems)
    if problems:
        for line in problems:
            print(f"error: {line}", file=sys.stderr)
        print(f"{len(problems)} role error(s); nothing written", file=sys.stderr)
        return 2
    pending = [p for p in plans if p.changes]
    for p in pending:
        for line in p.changes:
            print(("would change " if args.check else "") + line)
    if args.check:
        if pending:
            print(
                f"{len(pending)} notebook(s) out of date; run python -m coursetools.roles",
                file=sys.stderr,
            )
            return 1
        print(f"roles up to date in {len(plans)} notebook(s)")
        return 0
    for p in pending:
        write_notebook(p.notebook, p.path)
    print(f"roles applied: {len(pending)} notebook(s) changed, {len(plans) - len(pending)} unchanged")
    return 0


if __name__ == "__main__":
    sys.exit(main())
