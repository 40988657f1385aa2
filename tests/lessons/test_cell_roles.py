"""Cell roles (COURSE.md section 5): the tool ``coursetools.roles`` and every lesson.

Part 1 tests the tool on small fixture notebooks: the metadata it writes, that it is
idempotent and leaves everything else of the file alone, ``--check``, and one clear
error (notebook and cell index) per kind of mistake.

Part 2 reads every lesson in ``notebooks/`` as stored JSON and checks the roles the
way a reader, nbval and nbgrader will meet them: every cell has exactly one role, every
``hide-input`` cell is collapsed, a check cell stores exactly one output line starting
with ``✓``, grade ids are unique, points are positive, no solution marker sits outside
a solution cell, and the metadata is what the author tags ask for (``roles --check``).
Each failure names the notebook and the cell index.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat import v4

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fixtures")]

import fixture_lessons  # noqa: E402

from coursetools import lesson_notebooks  # noqa: E402
from coursetools.authoring.roles import main as roles_main  # noqa: E402
from coursetools.shared import roles  # noqa: E402

LESSONS = lesson_notebooks(ROOT / "notebooks")
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
QUESTION_MIME = "application/vnd.perclib.question+json"  # perclib.questions.SPEC_MIME


# ------------------------------------------------------------------ part 1: the tool
@pytest.fixture
def tagged(tmp_path) -> Path:
    """The fixture lesson with author tags only, as an author leaves it."""
    return fixture_lessons.write(
        fixture_lessons.tiny_lesson(roles=False), tmp_path / "01_tagged.ipynb"
    )


def run(capsys, *args) -> tuple[int, str, str]:
    code = roles_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_tool_writes_the_metadata_of_the_table(tagged, capsys):
    code, out, _ = run(capsys, tagged)
    assert code == 0, out
    cells = nbformat.read(tagged, as_version=4).cells
    # check: hide-input tag and collapsed source
    assert cells[5].metadata.tags == ["check", "hide-input"]
    assert cells[5].metadata.jupyter == {"source_hidden": True}
    # widget: nbval tag
    assert cells[3].metadata.tags == ["widget", "nbval-ignore-output"]
    assert "jupyter" not in cells[3].metadata
    # exercise answers: nbgrader solution cells, collapsed
    assert cells[7].metadata.nbgrader == {
        "grade": False, "grade_id": "ex1-answer", "locked": False,
        "schema_version": 3, "solution": True, "task": False,
    }
    assert cells[7].metadata.jupyter == {"source_hidden": True}
    assert cells[10].metadata.nbgrader.grade_id == "ex2-answer"
    # exercise checks: locked grade cells, default 1 point or the tag's points
    assert cells[8].metadata.nbgrader == {
        "grade": True, "grade_id": "ex1-check", "locked": True, "points": 1,
        "schema_version": 3, "solution": False, "task": False,
    }
    assert cells[11].metadata.nbgrader.points == 2
    assert cells[11].metadata.nbgrader.grade_id == "ex2-check"
    # written: manually graded solution cell, markdown
    assert cells[15].metadata.nbgrader == {
        "grade": True, "grade_id": "ex3-written", "locked": False, "points": 3,
        "schema_version": 3, "solution": True, "task": False,
    }
    # lesson cells untouched
    for i in (0, 1, 2, 4, 6, 9, 12, 13, 14):
        assert "nbgrader" not in cells[i].metadata and "tags" not in cells[i].metadata, i


def test_tool_is_idempotent_and_touches_only_role_metadata(tagged, capsys):
    before = nbformat.read(tagged, as_version=4)
    assert run(capsys, tagged)[0] == 0
    first = tagged.read_bytes()
    code, out, _ = run(capsys, tagged)
    assert code == 0 and "0 notebook(s) changed" in out
    assert tagged.read_bytes() == first, "a second run must not change a byte"
    after = nbformat.read(tagged, as_version=4)
    for b, a in zip(before.cells, after.cells, strict=True):
        assert a.source == b.source and a.cell_type == b.cell_type
        assert a.get("outputs") == b.get("outputs")
        assert a.get("execution_count") == b.get("execution_count")
        assert a.get("id") == b.get("id")
    assert after.metadata == before.metadata
    # written as Jupyter writes: nbformat's JSON, indent 1, trailing newline
    assert first.decode() == nbformat.writes(after) + "\n"
    assert first.decode().splitlines()[1].startswith(' "cells"')


def test_check_lists_changes_and_writes_nothing(tagged, capsys):
    before = tagged.read_bytes()
    code, out, err = run(capsys, "--check", tagged)
    assert code == 1
    assert "would change" in out and "cell 7 (exercise)" in out and "out of date" in err
    assert tagged.read_bytes() == before
    run(capsys, tagged)
    assert run(capsys, "--check", tagged)[0] == 0


def test_removing_a_tag_removes_its_metadata(tagged, capsys):
    run(capsys, tagged)
    nb = nbformat.read(tagged, as_version=4)
    nb.cells[5].metadata.tags = ["hide-input"]  # no longer a check cell
    nb.cells[8].metadata.tags = []  # no longer an exercise check
    nbformat.write(nb, tagged)
    assert run(capsys, tagged)[0] == 0
    cells = nbformat.read(tagged, as_version=4).cells
    assert cells[5].metadata.tags == [] and "jupyter" not in cells[5].metadata
    assert "nbgrader" not in cells[8].metadata


def test_second_check_of_an_exercise_gets_its_own_id(tagged, capsys):
    nb = nbformat.read(tagged, as_version=4)
    nb.cells.insert(9, v4.new_code_cell(
        "assert double(0) == 0, 'double(0) should be 0'",
        metadata={"tags": ["exercise-check:points=4"]},
    ))
    nbformat.write(nb, tagged)
    assert run(capsys, tagged)[0] == 0
    cells = nbformat.read(tagged, as_version=4).cells
    assert cells[8].metadata.nbgrader.grade_id == "ex1-check"
    assert cells[9].metadata.nbgrader.grade_id == "ex1-check-2"
    assert cells[9].metadata.nbgrader.points == 4


def _broken(nb, how: str):
    cells = nb.cells
    if how == "exercise without markers":
        cells[7].source = "def double(x):\n    return 2 * x"
        return 7, "without a complete ### BEGIN SOLUTION"
    if how == "markers outside an exercise":
        cells[12].source = "### BEGIN SOLUTION\nchecked = 60\n### END SOLUTION"
        return 12, "solution markers"
    if how == "markers in markdown":
        cells[14].source += "\n\n### BEGIN SOLUTION\nlinear\n### END SOLUTION"
        return 14, "solution markers"
    if how == "hidden tests outside a check":
        cells[12].source = "### BEGIN HIDDEN TESTS\nassert True, 'x'\n### END HIDDEN TESTS"
        return 12, "hidden-test markers"
    if how == "check without an answer":
        cells[7].metadata.tags = []
        cells[7].source = "def double(x):\n    return 2 * x"
        return 8, "no preceding 'exercise' answer cell for Exercise 1"
    if how == "no Exercise heading":
        cells[6].source = "## Exercises\n\n**1.** Write `double(x)`."
        return 7, "no preceding markdown cell says 'Exercise N'"
    if how == "tag on a markdown cell":
        cells[6].metadata.tags = ["check"]
        return 6, "belongs on a code cell, this is a markdown cell"
    if how == "written on a code cell":
        cells[12].metadata.tags = ["written"]
        return 12, "belongs on a markdown cell, this is a code cell"
    if how == "unknown role tag":
        cells[12].metadata.tags = ["exercise_check"]
        return 12, "unknown role tag 'exercise_check'"
    if how == "bad points":
        cells[8].metadata.tags = ["exercise-check:points=0"]
        return 8, "unknown role tag"
    if how == "two roles":
        cells[5].metadata.tags = ["check", "widget"]
        return 5, "more than one role tag"
    if how == "written without details":
        cells[15].source = "Distribute the factor."
        return 15, "Worked solution"
    raise AssertionError(how)


CASES = [
    "exercise without markers", "markers outside an exercise", "markers in markdown",
    "hidden tests outside a check", "check without an answer", "no Exercise heading",
    "tag on a markdown cell", "written on a code cell", "unknown role tag", "bad points",
    "two roles", "written without details",
]


@pytest.mark.parametrize("how", CASES)
def test_errors_name_notebook_and_cell_and_write_nothing(tagged, tmp_path, capsys, how):
    nb = nbformat.read(tagged, as_version=4)
    index, message = _broken(nb, how)
    bad = fixture_lessons.write(nb, tmp_path / "02_broken.ipynb")
    good = fixture_lessons.write(fixture_lessons.tiny_lesson(roles=False), tmp_path / "03_ok.ipynb")
    before = {p: p.read_bytes() for p in (bad, good)}
    code, _, err = run(capsys, good, bad)
    assert code == 2
    lines = [line for line in err.splitlines() if "02_broken.ipynb" in line]
    assert any(f"02_broken.ipynb: cell {index}:" in line and message in line for line in lines), err
    assert "nothing written" in err
    assert {p: p.read_bytes() for p in before} == before, "an error must write no notebook"


def test_ordinary_tags_are_not_roles():
    for tag in ("nbval-ignore-output", "raises-exception", "remove-cell", "hide-output"):
        assert roles.parse_role_tag(tag) is None
    for tag in ("Check", "checks", "widget:x", "written:points=x", "exercise-answer"):
        with pytest.raises(ValueError, match="unknown role tag"):
            roles.parse_role_tag(tag)


def test_default_is_every_lesson_but_the_index():
    names = [p.name for p in lesson_notebooks(ROOT / "notebooks")]
    assert "00_index.ipynb" not in names
    assert names == sorted(p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
                           if p.name != "00_index.ipynb")


# ------------------------------------------------------------- part 2: every lesson
def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _text_lines(cell: dict) -> list[str]:
    """Every line of text a reader sees under a code cell."""
    lines: list[str] = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            lines += "".join(out["text"]).splitlines()
        elif out["output_type"] in ("execute_result", "display_data"):
            data = out.get("data", {})
            if set(data) - {"text/plain"}:
                lines.append(f"<{'/'.join(sorted(data))} output>")
            else:
                lines += "".join(data.get("text/plain", "")).splitlines()
        elif out["output_type"] == "error":
            lines.append(f"error {out.get('ename')}")
    return lines


def _asserts_without_message(source: str) -> list[int]:
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Assert) and n.msg is None]


def marked_roles(cell: dict) -> list[str]:
    """The roles a cell is *marked* with in the ecosystem's metadata (not author tags)."""
    meta = cell.get("metadata", {})
    tags = meta.get("tags", [])
    grader = meta.get("nbgrader", {})
    found = []
    if "hide-input" in tags:
        found.append("check")
    if any(QUESTION_MIME in o.get("data", {}) for o in cell.get("outputs", [])):
        found.append("question")  # its input row is a widget too, but it is a question
    elif any(WIDGET_MIME in o.get("data", {}) for o in cell.get("outputs", [])):
        found.append("widget")
    if grader.get("solution") and not grader.get("grade") and cell["cell_type"] == "code":
        found.append("exercise")
    if grader.get("grade") and grader.get("locked") and not grader.get("solution"):
        found.append("exercise-check")
    if grader.get("solution") and grader.get("grade") and cell["cell_type"] == "markdown":
        found.append("written")
    if grader and len([r for r in found if r.startswith(("exercise", "written"))]) != 1:
        found.append(f"unrecognised nbgrader metadata {grader}")
    return found


def role_problems(path: Path) -> list[str]:
    """Everything wrong with the roles of one notebook, one line per problem."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    name = path.name
    problems: list[str] = []
    grade_ids: dict[str, int] = {}
    for index, cell in enumerate(nb["cells"]):
        where = f"{name}: cell {index}"
        meta = cell.get("metadata", {})
        tags = meta.get("tags", [])
        source = _source(cell)
        found = marked_roles(cell)
        if len(found) > 1:
            problems.append(f"{where}: more than one role {found}")
        role = found[0] if found else "lesson"
        author = [t for t in tags if re.match(r"(check|widget|exercise|written|question)\b", t)]
        author_role = author[0].split(":")[0] if author else "lesson"
        if len(found) <= 1 and author_role != role:
            problems.append(f"{where}: author tag says {author_role!r}, metadata says {role!r}")
        if "hide-input" in tags and meta.get("jupyter", {}).get("source_hidden") is not True:
            problems.append(f"{where}: hide-input cell is not collapsed (jupyter.source_hidden)")
        if role == "check":
            lines = _text_lines(cell)
            if len(lines) != 1 or not lines[0].startswith("✓ "):
                problems.append(
                    f"{where}: a check cell stores exactly one output line starting "
                    f"with '✓ ', found {lines[:3]}{' ...' if len(lines) > 3 else ''}"
                )
        if role in ("check", "exercise-check"):
            bare = _asserts_without_message(source)
            if bare:
                problems.append(f"{where}: assert without a message on line(s) {bare}")
        if role == "exercise" and meta.get("jupyter", {}).get("source_hidden") is not True:
            problems.append(f"{where}: exercise answer is not collapsed")
        if role == "question" and meta.get("jupyter", {}).get("source_hidden") is not True:
            problems.append(f"{where}: question cell is not collapsed (its code holds the answer)")
        if role == "widget" and "nbval-ignore-output" not in tags:
            problems.append(f"{where}: widget cell without the nbval-ignore-output tag")
        grader = meta.get("nbgrader")
        if grader:
            gid = grader.get("grade_id", "")
            if not re.fullmatch(r"[A-Za-z0-9_-]+", gid):
                problems.append(f"{where}: bad grade_id {gid!r}")
            if gid in grade_ids:
                problems.append(f"{where}: grade_id {gid!r} already used by cell {grade_ids[gid]}")
            grade_ids[gid] = index
            if grader.get("grade") and not grader.get("points", 0) > 0:
                problems.append(f"{where}: points must be > 0, found {grader.get('points')}")
            if grader.get("schema_version") != 3:
                problems.append(f"{where}: nbgrader schema_version must be 3")
        is_solution = bool(grader and grader.get("solution"))
        if not is_solution and ("BEGIN SOLUTION" in source or "END SOLUTION" in source):
            problems.append(f"{where}: solution marker outside a solution cell")
        if role != "exercise-check" and "HIDDEN TESTS" in source:
            problems.append(f"{where}: hidden-test marker outside an exercise check")
    try:
        pending = roles.plan(path).changes
    except roles.RoleError as exc:
        problems += exc.problems
    else:
        problems += [f"metadata not what the author tags ask (run coursetools.roles): {c}"
                     for c in pending]
    return problems


def test_the_roles_test_can_fail(tmp_path):
    """The lesson test below finds each kind of mistake (on the fixture lesson)."""
    good = fixture_lessons.write(fixture_lessons.tiny_lesson(), tmp_path / "01_good.ipynb")
    assert role_problems(good) == []
    nb = fixture_lessons.tiny_lesson()
    nb.cells[5].metadata.jupyter = {}  # collapsed no more
    nb.cells[5].outputs[0].text = "✓ one\n✓ two\n"
    nb.cells[8].metadata.nbgrader.grade_id = "ex1-answer"
    nb.cells[11].metadata.nbgrader.points = 0
    nb.cells[12].source = "### BEGIN SOLUTION\nchecked = 60\n### END SOLUTION"
    nb.cells[13].metadata.tags = ["hide-input"]
    nb.cells[2].metadata.nbgrader = {"grade": True, "solution": True}
    bad = fixture_lessons.write(nb, tmp_path / "02_bad.ipynb")
    found = "\n".join(role_problems(bad))
    for expected in (
        "cell 5: hide-input cell is not collapsed",
        "cell 5: a check cell stores exactly one output line",
        "cell 8: grade_id 'ex1-answer' already used by cell 7",
        "cell 11: points must be > 0",
        "cell 12: solution marker outside a solution cell",
        "cell 13: author tag says 'lesson', metadata says 'check'",
        "cell 2: author tag says 'lesson', metadata says \"unrecognised nbgrader metadata",
        "02_bad.ipynb: cell 12: solution markers",  # from roles --check
    ):
        assert expected in found, f"{expected!r} not reported in:\n{found}"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_cell_roles(path: Path) -> None:
    problems = role_problems(path)
    assert not problems, f"{len(problems)} role problem(s):\n" + "\n".join(problems)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
def test_lesson_exercises_are_graded(path: Path) -> None:
    """Each lesson has code exercises with checks and at least one written exercise."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    ids = [c["metadata"]["nbgrader"]["grade_id"] for c in cells if "nbgrader" in c["metadata"]]
    answers = {i.split("-")[0] for i in ids if i.endswith("-answer")}
    checked = {i.split("-")[0] for i in ids if "-check" in i}
    written = {i.split("-")[0] for i in ids if "-written" in i}
    assert answers, f"{path.name}: no exercise answer cell (tag 'exercise')"
    assert answers <= checked, f"{path.name}: exercises without a check: {answers - checked}"
    assert written, f"{path.name}: no written exercise (tag 'written')"


@pytest.mark.parametrize(
    "module_name", ["coursetools.shared.roles", "coursetools.shared.cells", "coursetools.shared.colab"])
def test_coursetools_docstring_examples_run(module_name: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module_name))
    assert tried > 0 and failures == 0, f"{failures} example(s) failed in {module_name}"
