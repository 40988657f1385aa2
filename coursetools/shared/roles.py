"""Apply cell roles: turn an author's one-word tag into the ecosystem's metadata.

An author marks a cell once with an *author tag* in ``metadata.tags``; this tool writes
what Jupyter Book, nbval and nbgrader read (COURSE.md section 5, "Cell roles"):

============================  =========  ==============================================
author tag                    cell type  written by the tool
============================  =========  ==============================================
(none)                        any        nothing (lesson cell)
``check``                     code       tag ``hide-input``, ``jupyter.source_hidden``
``widget``                    code       tag ``nbval-ignore-output``
``exercise``                  code       nbgrader solution cell ``exN-answer``, hidden
``exercise-check[:points=P]``  code       nbgrader locked grade cell ``exN-check``
``written[:points=P]``        markdown   nbgrader manual grade cell ``exN-written``
``question``                  code       ``jupyter.source_hidden`` (prompt stays visible)
============================  =========  ==============================================

A ``question`` cell shows a self-check question (``perclib.questions``): its output is
the prompt and an input row, its collapsed code computes the answer. It is not graded,
and its answer must come from code: a literal ``answer=`` is a role error
(``coursetools.shared.question_cells.literal_answers``).

``N`` comes from the nearest preceding markdown cell that says ``Exercise N`` (worked
solutions of written answers are skipped). Run it as::

    python -m coursetools.roles [notebooks ...]          # apply in place
    python -m coursetools.roles --check [notebooks ...]  # exit 1 if anything would change

Applying is idempotent: a second run changes nothing. Only role metadata is touched;
sources and outputs never are. A notebook with any role error is not written.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from coursetools.shared.colab import is_colab_cell
from coursetools.shared.question_cells import question_problems

#: Author tags and the cell type each belongs on.
ROLE_CELL_TYPES = {
    "check": "code",
    "widget": "code",
    "exercise": "code",
    "exercise-check": "code",
    "written": "markdown",
    "question": "code",
}
#: Roles that accept ``:points=P``, with their default points.
DEFAULT_POINTS = {"exercise-check": 1, "written": 2}

BEGIN_SOLUTION = "### BEGIN SOLUTION"
END_SOLUTION = "### END SOLUTION"
BEGIN_HIDDEN = "### BEGIN HIDDEN TESTS"
END_HIDDEN = "### END HIDDEN TESTS"
SOLUTION_MARKERS = (BEGIN_SOLUTION, END_SOLUTION)
HIDDEN_MARKERS = (BEGIN_HIDDEN, END_HIDDEN)

HIDE_INPUT = "hide-input"
NBVAL_IGNORE = "nbval-ignore-output"
NBGRADER_SCHEMA = 3

_EXERCISE_RE = re.compile(r"\bExercise\s+(\d+)\b")
_PARAM_RE = re.compile(r"^(exercise-check|written):points=(\d+)$")
# A tag "looks like" a role tag (and so must be a valid one) if its stem is a role name
# or if it carries a ":" parameter: catches typos like "exercise_check" or "check:points=2".
_ROLE_LIKE_RE = re.compile(r"^(check|widget|exercise|written|question)([-_:]|s?$)", re.IGNORECASE)
_WORKED_SOLUTION_RE = re.compile(
    r"<details>\s*<summary>\s*Worked solution\s*</summary>.*</details>", re.DOTALL
)


class RoleError(Exception):
    """One or more cells are marked wrongly; ``problems`` lists them, one per cell."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Role:
    """The role of one cell, as read from its author tag."""

    name: str  # "lesson", "check", "widget", "exercise", "exercise-check", "written", "question"
    points: int | None = None
    tag: str | None = None  # the author tag itself, None for a lesson cell


@dataclass
class Plan:
    """What applying roles to one notebook would do."""

    path: Path
    notebook: nbformat.NotebookNode
    changes: list[str] = field(default_factory=list)


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def parse_role_tag(tag: str) -> Role | None:
    """The role an author tag names, ``None`` if the tag is not a role tag at all.

    Raises ``ValueError`` for a tag that looks like a role tag but is not a valid one.

    >>> parse_role_tag("exercise-check:points=3")
    Role(name='exercise-check', points=3, tag='exercise-check:points=3')
    >>> parse_role_tag("written").points
    2
    >>> parse_role_tag("nbval-ignore-output") is None
    True
    """
    if tag in ROLE_CELL_TYPES:
        return Role(tag, DEFAULT_POINTS.get(tag), tag)
    match = _PARAM_RE.match(tag)
    if match:
        points = int(match.group(2))
        if points <= 0:
            raise ValueError(f"unknown role tag {tag!r}: points must be a positive integer")
        return Role(match.group(1), points, tag)
    if _ROLE_LIKE_RE.match(tag) or ":" in tag:
        raise ValueError(
            f"unknown role tag {tag!r}; role tags are check, widget, exercise, "
            "exercise-check[:points=P], written[:points=P], question"
        )
    return None


def cell_role(cell) -> Role:
    """The role of ``cell`` from its author tags (``lesson`` when it has none).

    Raises ``ValueError`` for an unknown role tag or more than one role tag.
    """
    roles = [r for r in (parse_role_tag(t) for t in _tags(cell)) if r is not None]
    if len(roles) > 1:
        names = ", ".join(repr(r.tag) for r in roles)
        raise ValueError(f"more than one role tag ({names}); a cell has exactly one role")
    return roles[0] if roles else Role("lesson")


def _exercise_numbers(cells) -> list[int | None]:
    """For each cell, N of the nearest preceding "Exercise N" markdown cell (or None)."""
    numbers: list[int | None] = []
    current: int | None = None
    for cell in cells:
        numbers.append(current)
        if cell.get("cell_type") != "markdown":
            continue
        try:
            if cell_role(cell).name == "written":
                continue  # a worked solution may mention other exercises
        except ValueError:
            continue
        match = _EXERCISE_RE.search(_source(cell))
        if match:
            current = int(match.group(1))
    return numbers


def _has_region(source: str, begin: str, end: str) -> bool:
    """Every begin marker is followed by its end marker, and there is at least one."""
    lines = [line.strip() for line in source.splitlines()]
    depth, seen = 0, False
    for line in lines:
        if line.startswith(begin):
            if depth:
                return False
            depth, seen = 1, True
        elif line.startswith(end):
            if not depth:
                return False
            depth = 0
    return seen and depth == 0


def _mentions(source: str, markers: Iterable[str]) -> bool:
    return any(m in source for m in markers)


def nbgrader_metadata(role: Role, grade_id: str) -> dict:
    """The exact nbgrader cell metadata (schema 3) the tool writes for an exercise role.

    >>> nbgrader_metadata(Role("exercise-check", 2), "ex1-check")["points"]
    2
    """
    solution = role.name in ("exercise", "written")
    grade = role.name in ("exercise-check", "written")
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": role.name == "exercise-check",
        "schema_version": NBGRADER_SCHEMA,
        "solution": solution,
        "task": False,
    }
    if grade:
        meta["points"] = role.points
    return meta


def expected_roles(nb, name: str = "notebook") -> list[tuple[Role, str | None]]:
    """Validate the author tags of ``nb``: per cell, its role and grade id (or None).

    Raises ``RoleError`` listing every problem with notebook name and cell index.
    """
    cells = nb.cells
    numbers = _exercise_numbers(cells)
    problems: list[str] = []
    result: list[tuple[Role, str | None]] = []
    counts: dict[str, int] = {}
    answered: set[int] = set()
    for index, cell in enumerate(cells):
        where = f"{name}: cell {index}"
        source = _source(cell)
        try:
            role = cell_role(cell)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            result.append((Role("lesson"), None))
            continue
        grade_id = None
        wanted_type = ROLE_CELL_TYPES.get(role.name)
        if wanted_type and cell.cell_type != wanted_type:
            problems.append(
                f"{where}: tag {role.tag!r} belongs on a {wanted_type} cell, "
                f"this is a {cell.cell_type} cell"
            )
            result.append((role, None))
            continue
        if role.name != "exercise" and _mentions(source, SOLUTION_MARKERS):
            problems.append(
                f"{where}: solution markers ({BEGIN_SOLUTION} / {END_SOLUTION}) outside "
                "an exercise cell; tag the answer cell 'exercise' or remove the markers"
            )
        if role.name != "exercise-check" and _mentions(source, HIDDEN_MARKERS):
            problems.append(
                f"{where}: hidden-test markers ({BEGIN_HIDDEN}) are only allowed in an "
                "'exercise-check' cell"
            )
        if role.name == "question":
            problems.extend(f"{where}: {problem}" for problem in question_problems(source))
        if role.name in ("exercise", "exercise-check", "written"):
            number = numbers[index]
            if number is None:
                problems.append(
                    f"{where}: tag {role.tag!r} but no preceding markdown cell says "
                    "'Exercise N' (start the question with e.g. '**Exercise 1 ...**')"
                )
                result.append((role, None))
                continue
            if role.name == "exercise":
                if not _has_region(source, BEGIN_SOLUTION, END_SOLUTION):
                    problems.append(
                        f"{where}: 'exercise' cell without a complete "
                        f"{BEGIN_SOLUTION} ... {END_SOLUTION} region"
                    )
                answered.add(number)
                stem = f"ex{number}-answer"
            elif role.name == "exercise-check":
                if number not in answered:
                    problems.append(
                        f"{where}: 'exercise-check' with no preceding 'exercise' answer "
                        f"cell for Exercise {number}"
                    )
                if _mentions(source, HIDDEN_MARKERS) and not _has_region(
                    source, BEGIN_HIDDEN, END_HIDDEN
                ):
                    problems.append(f"{where}: unbalanced hidden-test markers")
                stem = f"ex{number}-check"
            else:
                if not _WORKED_SOLUTION_RE.search(source):
                    problems.append(
                        f"{where}: 'written' cell must hold its worked solution inside "
                        "<details><summary>Worked solution</summary> ... </details>"
                    )
                stem = f"ex{number}-written"
            counts[stem] = counts.get(stem, 0) + 1
            grade_id = stem if counts[stem] == 1 else f"{stem}-{counts[stem]}"
        result.append((role, grade_id))
    if problems:
        raise RoleError(problems)
    return result


def _apply_cell(cell, role: Role, grade_id: str | None) -> list[str]:
    """Bring one cell's role metadata in line with its role; return what changed."""
    changes: list[str] = []
    meta = cell.setdefault("metadata", nbformat.NotebookNode())
    tags = list(meta.get("tags", []))
    new_tags = list(tags)
    if role.name == "check" and HIDE_INPUT not in new_tags:
        new_tags.append(HIDE_INPUT)
    if role.name != "check" and HIDE_INPUT in new_tags:
        new_tags.remove(HIDE_INPUT)  # hide-input marks check cells only
    if role.name == "widget" and NBVAL_IGNORE not in new_tags:
        new_tags.append(NBVAL_IGNORE)
    if new_tags != tags:
        meta["tags"] = new_tags
        changes.append(f"tags {tags} -> {new_tags}")

    # The Colab install cell (coursetools.colab) stays collapsed too.
    hidden = role.name in ("check", "exercise", "question") or is_colab_cell(cell)
    jupyter = meta.get("jupyter", {})
    if hidden and jupyter.get("source_hidden") is not True:
        meta.setdefault("jupyter", nbformat.NotebookNode())["source_hidden"] = True
        changes.append("jupyter.source_hidden = true")
    elif not hidden and "source_hidden" in jupyter:
        del meta["jupyter"]["source_hidden"]
        if not meta["jupyter"]:
            del meta["jupyter"]
        changes.append("jupyter.source_hidden removed")

    if grade_id is not None:
        wanted = nbgrader_metadata(role, grade_id)
        if meta.get("nbgrader") != wanted:
            meta["nbgrader"] = nbformat.from_dict(wanted)
            changes.append(f"nbgrader = {wanted}")
    elif "nbgrader" in meta:
        del meta["nbgrader"]
        changes.append("nbgrader metadata removed (not an exercise cell)")
    return changes


def apply_roles(nb, name: str = "notebook") -> list[str]:
    """Apply the roles to ``nb`` in place; return the changes, one line per cell.

    Raises ``RoleError`` (and changes nothing) if any cell is marked wrongly.

    >>> cell = nbformat.v4.new_code_cell("print('✓ fine')", metadata={"tags": ["check"]})
    >>> nb = nbformat.v4.new_notebook(cells=[cell])
    >>> apply_roles(nb, "demo.ipynb")
    ["demo.ipynb: cell 0 (check): tags ['check'] -> ['check', 'hide-input']; jupyter.source_hidden = true"]
    >>> apply_roles(nb, "demo.ipynb")
    []
    """
    roles = expected_roles(nb, name)
    changes = []
    for index, (cell, (role, grade_id)) in enumerate(zip(nb.cells, roles, strict=True)):
        done = _apply_cell(cell, role, grade_id)
        if done:
            changes.append(f"{name}: cell {index} ({role.name}): " + "; ".join(done))
    return changes


def plan(path: Path) -> Plan:
    """Read ``path`` and compute (on a copy in memory) what applying roles changes."""
    path = Path(path)
    nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
    work = copy.deepcopy(nb)
    changes = apply_roles(work, str(path))
    return Plan(path, work, changes)


def write_notebook(nb, path: Path) -> None:
    """Write as Jupyter does (nbformat: indent 1, sorted keys, trailing newline)."""
    nbformat.write(nb, str(path), version=nbformat.NO_CONVERT)
