"""Student versions of the lessons: ``python -m coursetools.homework``.

The lesson notebooks are the single source. Each exercise is marked with the cell
roles of COURSE.md section 5 (author tags, metadata written by
``python -m coursetools.roles``): an ``exercise`` answer cell holds its solution
between nbgrader's delimiters::

    ### BEGIN SOLUTION
    w = ...
    ### END SOLUTION

and carries nbgrader's solution-cell metadata; a ``written`` answer is a markdown
solution cell; ``exercise-check`` cells are nbgrader's locked grade cells and may hold
``### BEGIN HIDDEN TESTS`` regions.

The student version is what ``nbgrader generate_assignment`` releases, made by the
same nbgrader preprocessors with nbgrader's default settings: cells locked as nbgrader
locks them (``LockCells``), every solution region replaced by nbgrader's stub
(``# YOUR CODE HERE`` / ``raise NotImplementedError()``), every written answer by
``YOUR ANSWER HERE`` (``ClearSolutions``), hidden tests removed
(``ClearHiddenTests``), every output and execution count cleared. Every other cell is
kept, the checks included. One difference, for the student's sake: the stubbed
answer cells are shown expanded (the lesson keeps its solutions collapsed).

Markers and roles are checked first: a BEGIN without END, an END without BEGIN, a
nested BEGIN, markers outside an exercise cell or role metadata that is not what the
author tags ask for stops the command with the notebook and the cell index. The
command never writes into the folder of a source notebook and never replaces an
existing output unless ``--force`` is given.

Usage::

    python -m coursetools.homework                     # all lessons -> homework/
    python -m coursetools.homework --out DIR notebooks/02_xor.ipynb
    python -m coursetools.homework --force             # replace existing outputs
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbconvert.preprocessors import ClearOutputPreprocessor
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions, LockCells

from coursetools.shared.common import (
    CourseToolsError,
    generator_parser,
    lesson_notebooks,
    plan_outputs,
    progress,
    repo_root,
)
from coursetools.shared.roles import RoleError, apply_roles

#: nbgrader's delimiters; like nbgrader, a line *containing* one of them is a marker.
BEGIN_SOLUTION = "BEGIN SOLUTION"
END_SOLUTION = "END SOLUTION"
BEGIN_HIDDEN = "BEGIN HIDDEN TESTS"
END_HIDDEN = "END HIDDEN TESTS"
#: what replaces a code solution (nbgrader's default Python stub)
CODE_STUB = "# YOUR CODE HERE\nraise NotImplementedError()"
TEXT_STUB = "YOUR ANSWER HERE"

DEFAULT_OUT = "homework"  # under the repository root, whatever the current folder


class MarkerError(CourseToolsError):
    """Unbalanced or nested solution / hidden-test markers."""


@dataclass(frozen=True)
class Region:
    """One marked region of a source notebook (line numbers are 1-based)."""

    cell_index: int
    kind: str  # "solution" or "hidden tests"
    begin_line: int
    end_line: int
    lines: tuple[str, ...]  # the lines strictly between the markers


def _marker(line: str) -> tuple[str, str] | None:
    """(``"begin"|"end"``, kind) if the line is a marker line, else None."""
    # Test the longer hidden-test delimiters first: they do not contain the
    # solution ones, but keep the order explicit.
    for word, kind in (
        (BEGIN_HIDDEN, "hidden tests"),
        (END_HIDDEN, "hidden tests"),
        (BEGIN_SOLUTION, "solution"),
        (END_SOLUTION, "solution"),
    ):
        if word in line:
            return ("begin" if word.startswith("BEGIN") else "end"), kind
    return None


def find_regions(nb, name: str = "<notebook>") -> list[Region]:
    """Every marked region of ``nb``, after checking that the markers balance.

    Raises ``MarkerError`` naming ``name``, the cell index (0-based, as in
    nbformat and in JupyterLab's cell order) and the line of the faulty marker.
    """
    regions: list[Region] = []
    for index, cell in enumerate(nb.cells):
        lines = cell.source.split("\n")
        open_kind: str | None = None
        open_line = 0
        body: list[str] = []
        where = f"{name}: cell {index} ({cell.cell_type} cell"
        where += f", id {cell['id']})" if "id" in cell else ")"
        for lineno, line in enumerate(lines, start=1):
            mark = _marker(line)
            if mark is None:
                if open_kind is not None:
                    body.append(line)
                continue
            what, kind = mark
            delim = {"solution": "SOLUTION", "hidden tests": "HIDDEN TESTS"}[kind]
            if what == "begin":
                if open_kind is not None:
                    raise MarkerError(
                        f"{where}, line {lineno}: nested '### BEGIN {delim}' inside the "
                        f"{open_kind} region opened on line {open_line}"
                    )
                open_kind, open_line, body = kind, lineno, []
            else:
                if open_kind is None:
                    raise MarkerError(
                        f"{where}, line {lineno}: '### END {delim}' without a matching "
                        f"'### BEGIN {delim}'"
                    )
                if open_kind != kind:
                    raise MarkerError(
                        f"{where}, line {lineno}: '### END {delim}' closes the {open_kind} "
                        f"region opened on line {open_line}"
                    )
                regions.append(Region(index, kind, open_line, lineno, tuple(body)))
                open_kind = None
        if open_kind is not None:
            delim = {"solution": "SOLUTION", "hidden tests": "HIDDEN TESTS"}[open_kind]
            raise MarkerError(
                f"{where}, line {open_line}: '### BEGIN {delim}' has no matching "
                f"'### END {delim}'"
            )
    return regions


def check_roles(nb, name: str = "<notebook>") -> None:
    """Raise ``CourseToolsError`` unless the role metadata is what the author tags ask."""
    try:
        pending = apply_roles(copy.deepcopy(nb), name)
    except RoleError as exc:
        raise CourseToolsError("cell roles are wrong:\n" + "\n".join(exc.problems)) from None
    if pending:
        raise CourseToolsError(
            f"{name}: role metadata out of date; run python -m coursetools.roles "
            f"{name}\n" + "\n".join(pending)
        )


def student_version(nb, name: str = "<notebook>"):
    """The student version of a lesson notebook (the input is not modified)."""
    find_regions(nb, name)  # clear errors before nbgrader sees the cells
    check_roles(nb, name)
    student = copy.deepcopy(nb)
    resources: dict = {}
    # nbgrader's own preprocessors, in the order generate_assignment runs them,
    # with its defaults (enforce_metadata=True: a region outside a solution cell fails).
    student, resources = LockCells().preprocess(student, resources)
    student, resources = ClearSolutions(
        code_stub={"python": CODE_STUB}, text_stub=TEXT_STUB
    ).preprocess(student, resources)
    student, resources = ClearOutputPreprocessor().preprocess(student, resources)
    student, resources = ClearHiddenTests().preprocess(student, resources)
    # Saved widget state belongs to the instructor's run; a fresh kernel makes its own.
    student.metadata.pop("widgets", None)
    for cell in student.cells:
        if any(_marker(line) for line in cell.source.split("\n")):  # pragma: no cover
            raise CourseToolsError(f"{name}: a marker survived in the student version")
        if cell.metadata.get("nbgrader", {}).get("solution"):
            # The student writes here: show the stub, not a collapsed "..." cell.
            jupyter = cell.metadata.get("jupyter", {})
            jupyter.pop("source_hidden", None)
            if "jupyter" in cell.metadata and not jupyter:
                del cell.metadata["jupyter"]
    return student


def build(
    notebooks: list[Path] | None = None,
    out_dir: Path | str | None = None,
    *,
    force: bool = False,
    verbose: bool = True,
) -> list[Path]:
    """Write the student version of each notebook into ``out_dir``; return the paths."""
    notebooks = lesson_notebooks() if not notebooks else [Path(p) for p in notebooks]
    out_dir = repo_root() / DEFAULT_OUT if out_dir is None else Path(out_dir)
    out = Path(out_dir).resolve()
    for guarded in (repo_root() / "notebooks", repo_root() / "tests"):
        if out == guarded or guarded in out.parents:
            raise CourseToolsError(
                f"refusing to write student versions into {out_dir}: pytest collects the "
                f"notebooks under {guarded.name}/ (nbval) and the stubs would fail there"
            )
    plan = plan_outputs(notebooks, Path(out_dir), None, force=force)
    # Read and convert everything first: a marker error writes nothing at all.
    converted = []
    for src, (target,) in progress(plan, desc="homework", unit="lesson", enabled=verbose):
        nb = nbformat.read(src, as_version=4)
        converted.append((src, target, student_version(nb, str(src)), len(find_regions(nb))))
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    written = []
    for src, target, student, n_regions in converted:
        start = time.perf_counter()
        nbformat.validate(student)
        nbformat.write(student, target)
        written.append(target)
        if verbose:
            print(
                f"{src} -> {target}: {n_regions} region(s) stubbed "
                f"({time.perf_counter() - start:.2f} s)"
            )
    return written


def main(argv: list[str] | None = None) -> None:
    parser = generator_parser(
        "python -m coursetools.homework",
        "Write student versions of the lessons: solutions replaced by "
        "stubs, outputs cleared, checks kept.",
        DEFAULT_OUT,
        "never a source folder, nor inside notebooks/ or tests/",
    )
    args = parser.parse_args(argv)
    build(args.notebooks, args.out, force=args.force)

