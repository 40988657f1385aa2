"""Shared helpers: finding lessons, safe output paths, command-line plumbing."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

#: Lesson notebooks are ``notebooks/NN_name.ipynb``; ``00_index.ipynb`` is not a lesson.
LESSON_GLOB = "[0-9][0-9]_*.ipynb"


class CourseToolsError(Exception):
    """A problem the user must fix (bad input, unsafe output path): no traceback."""


#: The repository on GitHub and its published branch (Binder, Colab and site links).
REPO = "perceptron-course/perceptron-course"
BRANCH = "main"


def repo_root() -> Path:
    return Path(__file__).resolve().parents[2]


def lesson_notebooks(folder: Path | None = None) -> list[Path]:
    """The lesson notebooks in reading order (``00_*`` index excluded)."""
    folder = repo_root() / "notebooks" if folder is None else Path(folder)
    return sorted(p for p in folder.glob(LESSON_GLOB) if not p.name.startswith("00_"))


def plan_outputs(
    inputs: Sequence[Path], out_dir: Path, suffix: str | None, *, force: bool
) -> list[tuple[Path, list[Path]]]:
    """Check that writing one output set per input into ``out_dir`` is safe.

    Returns ``[(input, [outputs...]), ...]``. Refuses (``CourseToolsError``) when
    ``out_dir`` is the folder of a source notebook, when an output path is an input,
    when two inputs would write the same output, or when an output already exists
    and ``force`` is false. Nothing is written before every check has passed.
    """
    if not inputs:
        raise CourseToolsError("no notebooks given and none found in notebooks/")
    resolved_inputs = []
    for nb in inputs:
        nb = Path(nb)
        if not nb.is_file():
            raise CourseToolsError(f"{nb}: no such notebook")
        if nb.suffix != ".ipynb":
            raise CourseToolsError(f"{nb}: not a .ipynb notebook")
        resolved_inputs.append(nb.resolve())
    out = Path(out_dir).resolve()
    for src in resolved_inputs:
        if out == src.parent:
            raise CourseToolsError(
                f"refusing to write into {out_dir}: it is the folder of the source "
                f"notebook {src.name}; choose another --out"
            )
    input_set = set(resolved_inputs)
    plan: list[tuple[Path, list[Path]]] = []
    seen: dict[Path, Path] = {}
    existing: list[Path] = []
    for src, given in zip(resolved_inputs, inputs, strict=True):
        outs = []
        for ext in suffix.split(",") if suffix else [".ipynb"]:
            target = out / (src.stem + ext)
            if target in input_set or (target.exists() and target.resolve() in input_set):
                raise CourseToolsError(f"refusing to overwrite the source notebook {target}")
            if target in seen:
                raise CourseToolsError(
                    f"{given} and {seen[target]} would both be written to {target}"
                )
            seen[target] = Path(given)
            if target.exists() and not force:
                existing.append(target)
            outs.append(target)
        plan.append((Path(given), outs))
    if existing:
        names = ", ".join(str(p) for p in existing)
        raise CourseToolsError(
            f"refusing to overwrite existing output (use --force to replace): {names}"
        )
    return plan


def run_cli(main, argv: Iterable[str] | None = None) -> int:
    try:
        main(None if argv is None else list(argv))
    except CourseToolsError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def generator_parser(
    prog: str, description: str, default_out: str, out_rule: str = "never a source folder"
) -> argparse.ArgumentParser:
    """The arguments every generator shares: notebooks, ``--out`` and ``--force``."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument(
        "notebooks", nargs="*", type=Path,
        help="lesson notebooks (default: notebooks/NN_*.ipynb, the index excluded)",
    )
    parser.add_argument(
        "--out", type=Path, default=repo_root() / default_out,
        help=f"output folder (default: {default_out}/ at the repository root); {out_rule}",
    )
    parser.add_argument("--force", action="store_true", help="replace existing outputs")
    return parser


#: The extra (``pip install -e ".[extra]"``) that provides each tool's dependencies.
EXTRAS = {"site": "site", "handouts": "instructor", "homework": "instructor", "slides": "instructor"}


def missing_modules(modules: Sequence[str]) -> list[str]:
    """The modules of ``modules`` that cannot be imported here."""
    import importlib

    missing = []
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def require(tool: str, modules: Sequence[str]) -> None:
    """Exit with one line naming the extra to install if ``tool`` lacks a dependency.

    Called by ``python -m coursetools.TOOL`` before its imports, so that a missing
    package gives the exact install command instead of a traceback.
    """
    missing = missing_modules(modules)
    if missing:
        extra = EXTRAS[tool]
        raise SystemExit(
            f"error: python -m coursetools.{tool} needs {', '.join(missing)} (not installed); "
            f'from the repository folder run: {sys.executable} -m pip install -e ".[{extra}]"'
        )


class _LogLines:
    """A stream for tqdm off a terminal: each refresh becomes one plain line.

    tqdm redraws its bar in place with carriage returns; in a CI log those pile up into
    one endless line. Off a terminal each (rare, see :func:`progress`) refresh is a line.
    """

    def __init__(self, stream):
        self.stream = stream

    def write(self, text: str) -> None:
        line = text.replace("\r", "").replace("\x1b[A", "").strip()
        if line:
            self.stream.write(line + "\n")

    def flush(self) -> None:
        self.stream.flush()


def progress(iterable: Iterable | None = None, *, total: float | None = None, desc: str = "",
             unit: str = "it", enabled: bool = True):
    """A progress bar on stderr (tqdm): what is being done, how many of how many, the ETA.

    On a terminal the bar redraws in place; elsewhere (CI logs, a pipe) it prints one
    line at most every 30 s, and once at the end. ``enabled=False`` shows nothing.

    Examples
    --------
    >>> bar = progress(total=3, desc="frames", unit="frame", enabled=False)
    >>> bar.update(2); bar.n
    2
    >>> bar.close()
    """
    from tqdm import tqdm

    tty = sys.stderr.isatty()

    class Bar(tqdm):
        # Off a terminal, a forced redraw (a new total, a new postfix) waits its turn
        # like any other update: the log gets one line per interval (close() prints the last).
        def refresh(self, nolock: bool = False, lock_args=None) -> None:
            if tty or self.disable:
                return super().refresh(nolock=nolock, lock_args=lock_args)
            last = getattr(self, "last_print_t", None)  # None: the first line
            if last is not None and self._time() - last < self.mininterval:
                return None
            super().refresh(nolock=nolock, lock_args=lock_args)
            self.last_print_t = self._time()
            return None

    return Bar(
        iterable, total=total, desc=desc, unit=unit, disable=not enabled,
        file=sys.stderr if tty else _LogLines(sys.stderr),
        mininterval=0.2 if tty else 30.0, maxinterval=10.0 if tty else 60.0,
        dynamic_ncols=tty, ncols=None if tty else 100, ascii=None if tty else True,
    )
