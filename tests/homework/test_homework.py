"""Homework templates (``python -m coursetools.homework``).

Run over every lesson ``notebooks/NN_*.ipynb`` present (collected by glob) and over
a fixture lesson built in ``tmp_path`` that always runs. The two rules below that need
a kernel run on the fixture here; on every lesson they are applied to nbgrader's own
autograde runs (``tests/homework/test_nbgrader.py``), so no lesson is executed twice for them.

What a student version must satisfy, and the exact rule for its errors:

* the instructor version (the lesson itself) executes in a fresh kernel without an
  error: its checks pass on the solutions;
* every solution region is replaced by nbgrader's stub, every other cell is kept
  verbatim (the checks included), every output and execution count is cleared, and
  no solution line survives (a line between markers that also occurs outside every
  region of the lesson, like ``import numpy as np``, is not counted as solution text);
* the student version executes top to bottom in a fresh kernel, continuing after
  errors, and the only errors are the expected ones. Call *stub cell* a cell that had
  a solution region, and *tainted* the names bound at top level by a stub cell (in the
  instructor version) or by a cell that raised an accepted error (its bindings may not
  have happened). Then:

  - a stub cell may raise ``NotImplementedError`` (the stub itself) and nothing else;
  - another cell may raise ``NameError`` only for a tainted name, or
    ``NotImplementedError`` only if it uses a tainted name (it calls a stubbed
    function); anything else (``AssertionError`` included) fails the test;
  - so every cell before the first stub cell runs cleanly.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fixtures")]

import fixture_lessons  # noqa: E402

from coursetools import CourseToolsError, lesson_notebooks  # noqa: E402
from coursetools.homework.build import (  # noqa: E402
    CODE_STUB,
    TEXT_STUB,
    MarkerError,
    build,
    find_regions,
    student_version,
)

LESSONS = lesson_notebooks(ROOT / "notebooks")
FIXTURE = "fixture-lesson"
CASES = [FIXTURE, *LESSONS]
IDS = ["fixture", *(p.name for p in LESSONS)]
TIMEOUT = 600  # seconds per cell


@pytest.fixture(params=CASES, ids=IDS)
def lesson(request, tmp_path) -> Path:
    """A snapshot of the lesson in tmp_path (lessons may be edited while tests run)."""
    if request.param == FIXTURE:
        return fixture_lessons.write(
            fixture_lessons.tiny_lesson(), tmp_path / "src" / "01_fixture.ipynb"
        )
    copy = tmp_path / "src" / request.param.name
    copy.parent.mkdir()
    shutil.copyfile(request.param, copy)
    return copy


# --------------------------------------------------------------------------- helpers
def execute(nb, cwd: Path, *, allow_errors: bool):
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        kernel_name="python3",
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()
    return nb


def _python(source: str) -> str:
    """Cell source as plain Python (IPython magics turned into calls)."""
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(source)


def _parse(source: str) -> ast.Module:
    try:
        return ast.parse(_python(source))
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def bound_names(source: str) -> set[str]:
    """Names a cell binds in the notebook's namespace (not inside functions/classes)."""
    names: set[str] = set()

    def visit(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            return  # its body binds local names only
        if isinstance(node, ast.Lambda):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(_parse(source))
    return names


def used_names(source: str) -> set[str]:
    return {
        n.id for n in ast.walk(_parse(source))
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def cell_error(cell):
    for out in cell.get("outputs", []):
        if out.output_type == "error":
            return out.ename, out.evalue
    return None


def unexpected_errors(instructor, student) -> list[str]:
    """Apply the rule of the module docstring; return a description of each violation."""
    stub_cells = {r.cell_index for r in find_regions(instructor) if r.kind == "solution"}
    tainted: set[str] = set()
    problems = []
    for index, (src_cell, cell) in enumerate(zip(instructor.cells, student.cells, strict=True)):
        if cell.cell_type != "code":
            continue
        err = cell_error(cell)
        if index in stub_cells:
            tainted |= bound_names(src_cell.source)
            if err and err[0] != "NotImplementedError":
                problems.append(f"stub cell {index} raised {err[0]}: {err[1]}")
            continue
        if err is None:
            continue
        ename, evalue = err
        accepted = False
        if ename == "NameError":
            m = re.search(r"name '(\w+)' is not defined", evalue)
            accepted = bool(m) and m.group(1) in tainted
        elif ename == "NotImplementedError":
            accepted = bool(used_names(cell.source) & tainted)
        if accepted:
            tainted |= bound_names(cell.source)
        else:
            problems.append(
                f"cell {index} raised {ename}: {evalue} (tainted names: {sorted(tainted)})"
            )
    return problems


def solution_lines(nb) -> set[str]:
    """Stripped lines inside solution regions that occur nowhere else in the lesson."""
    regions = find_regions(nb)
    inside: set[str] = set()
    for r in regions:
        inside |= {line.strip() for line in r.lines if line.strip()}
    outside: set[str] = set()
    in_region_lines = {(r.cell_index, n) for r in regions
                       for n in range(r.begin_line, r.end_line + 1)}
    for index, cell in enumerate(nb.cells):
        for n, line in enumerate(cell.source.split("\n"), start=1):
            if (index, n) not in in_region_lines:
                outside.add(line.strip())
    return inside - outside


# ----------------------------------------------------------------------- per lesson
# Every real lesson is executed both ways by nbgrader in tests/homework/test_nbgrader.py (its
# autograde runs the solved lesson and the untouched release, and the same rule is
# applied there); here the fixture lesson, which always exists, runs through nbclient.
def test_instructor_version_passes_its_checks(fixture_nb):
    nb = nbformat.read(fixture_nb, as_version=4)
    execute(nb, fixture_nb.parent, allow_errors=False)  # raises CellExecutionError on error


def test_student_version_shape(lesson):
    nb = nbformat.read(lesson, as_version=4)
    regions = find_regions(nb, str(lesson))
    student = student_version(nb, str(lesson))
    nbformat.validate(student)
    assert len(student.cells) == len(nb.cells), "cells must be kept one for one"
    hidden = {r.cell_index: r for r in regions if r.kind == "hidden tests"}
    for index, (src, out) in enumerate(zip(nb.cells, student.cells, strict=True)):
        assert out.cell_type == src.cell_type
        grader = src.metadata.get("nbgrader", {})
        if grader.get("solution") and src.cell_type == "markdown":
            assert out.source == TEXT_STUB, f"cell {index}: written answer not replaced"
        elif grader.get("solution"):
            assert CODE_STUB.splitlines()[-1] in out.source, f"cell {index}: no stub"
            assert not out.metadata.get("jupyter", {}).get("source_hidden"), (
                f"cell {index}: the student's answer cell must not be collapsed"
            )
        elif index in hidden:
            assert "HIDDEN TESTS" not in out.source
        else:
            assert out.source == src.source, f"cell {index} (no solution) must be kept verbatim"
        if out.cell_type == "code":
            assert out.outputs == [], f"cell {index}: outputs not cleared"
            assert out.execution_count is None
    text = "\n".join(c.source for c in student.cells)
    assert "BEGIN SOLUTION" not in text and "END SOLUTION" not in text
    assert "widgets" not in student.metadata


STUDENT_WORDING = re.compile(
    r"between the (solution )?markers|solution markers|BEGIN SOLUTION|END SOLUTION", re.I
)


def test_student_wording_matches_what_they_see(lesson):
    """Issue 12 item 7: the student version has stubs, not markers; say so."""
    nb = nbformat.read(lesson, as_version=4)
    student = student_version(nb, str(lesson))
    wrong = [
        f"{lesson.name}: cell {i}: {m.group(0)!r}"
        for i, cell in enumerate(student.cells)
        if cell.cell_type == "markdown"
        for m in [STUDENT_WORDING.search(cell.source)] if m
    ]
    assert not wrong, (
        "the student version has no solution markers (only '# YOUR CODE HERE' stubs); "
        "the text must not tell students to write between markers:\n" + "\n".join(wrong)
    )


def test_no_solution_text_survives(lesson, tmp_path):
    nb = nbformat.read(lesson, as_version=4)
    secret = solution_lines(nb)
    student = student_version(nb, str(lesson))
    student_lines = {
        line.strip() for cell in student.cells for line in cell.source.split("\n")
    }
    assert not secret & student_lines, f"solution lines left: {sorted(secret & student_lines)}"
    # and the file the command writes says the same
    (written,) = build([lesson], tmp_path / "homework", verbose=False)
    again = nbformat.read(written, as_version=4)
    written_lines = {line.strip() for cell in again.cells for line in cell.source.split("\n")}
    assert not secret & written_lines


def test_student_version_fails_only_on_stubs(fixture_nb, tmp_path):
    nb = nbformat.read(fixture_nb, as_version=4)
    out = tmp_path / "homework"
    (written,) = build([fixture_nb], out, verbose=False)
    student = nbformat.read(written, as_version=4)
    execute(student, fixture_nb.parent, allow_errors=True)
    problems = unexpected_errors(nb, student)
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------- fixture based
@pytest.fixture
def fixture_nb(tmp_path) -> Path:
    return fixture_lessons.write(fixture_lessons.tiny_lesson(), tmp_path / "src" / "01_fixture.ipynb")


def test_fixture_student_errors_are_the_expected_ones(fixture_nb, tmp_path):
    """The rule is not vacuous: the fixture's stubs do produce the accepted errors."""
    nb = nbformat.read(fixture_nb, as_version=4)
    student = execute(student_version(nb), fixture_nb.parent, allow_errors=True)
    errors = {i: cell_error(c) for i, c in enumerate(student.cells) if cell_error(c)}
    names = {i: e[0] for i, e in errors.items()}
    assert names == {
        8: "NotImplementedError",   # assert double(3) == 6 calls the stubbed function
        10: "NotImplementedError",  # the top-level stub itself
        11: "NameError",            # assert total == 30: total never bound
        12: "NameError",            # checked = double(total)
        13: "NameError",            # print(..., checked): tainted by cell 12
    }
    assert unexpected_errors(nb, student) == []


def test_rule_rejects_other_errors(fixture_nb):
    nb = nbformat.read(fixture_nb, as_version=4)
    broken = student_version(nb)
    broken.cells[1].source = "import numpy as np\nsquares = np.arange(5) ** 2\nsquares[10]"
    broken.cells[11].source = "assert squares.sum() == 31"  # fails for a non-stub reason
    execute(broken, fixture_nb.parent, allow_errors=True)
    problems = unexpected_errors(nb, broken)
    assert any(p.startswith("cell 1 raised IndexError") for p in problems)
    assert any(p.startswith("cell 11 raised AssertionError") for p in problems)


def test_output_is_written_and_never_overwritten(fixture_nb, tmp_path):
    out = tmp_path / "homework"
    (target,) = build([fixture_nb], out, verbose=False)
    assert target == out.resolve() / fixture_nb.name
    first = target.read_bytes()
    target.write_text("edited by hand")
    with pytest.raises(CourseToolsError, match="--force"):
        build([fixture_nb], out, verbose=False)
    assert target.read_text() == "edited by hand"
    build([fixture_nb], out, force=True, verbose=False)
    assert target.read_bytes() == first


@pytest.mark.parametrize("how", ["same folder", "dot path", "symlink"])
def test_refuses_to_write_over_sources(fixture_nb, tmp_path, how, monkeypatch):
    source_bytes = fixture_nb.read_bytes()
    if how == "same folder":
        out = fixture_nb.parent
    elif how == "dot path":
        monkeypatch.chdir(fixture_nb.parent)
        out = Path(".")
    else:
        out = tmp_path / "link"
        out.symlink_to(fixture_nb.parent, target_is_directory=True)
    for force in (False, True):
        with pytest.raises(CourseToolsError, match="source"):
            build([fixture_nb], out, force=force, verbose=False)
    assert fixture_nb.read_bytes() == source_bytes


@pytest.mark.parametrize("folder", ["notebooks", "tests"])
def test_refuses_folders_pytest_collects(fixture_nb, folder):
    out = ROOT / folder / "homework-test-output"
    with pytest.raises(CourseToolsError, match="pytest collects"):
        build([fixture_nb], out, verbose=False)
    assert not out.exists()


def test_cli(fixture_nb, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "coursetools.homework"]
    out = tmp_path / "hw"
    ok = subprocess.run([*cmd, "--out", str(out), str(fixture_nb)], env=env, cwd=tmp_path,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert (out / fixture_nb.name).is_file()
    into_src = subprocess.run(
        [*cmd, "--force", "--out", str(fixture_nb.parent), str(fixture_nb)],
        env=env, cwd=tmp_path, capture_output=True, text=True,
    )
    assert into_src.returncode == 1 and "source notebook" in into_src.stderr
    assert "Traceback" not in into_src.stderr


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x = 1\n### BEGIN SOLUTION\ny = 2", r"cell 3 .*line 2: '### BEGIN SOLUTION' has no matching"),
        ("y = 2\n### END SOLUTION", r"cell 3 .*line 2: '### END SOLUTION' without a matching"),
        (
            "### BEGIN SOLUTION\na = 1\n    ### BEGIN SOLUTION\nb = 2\n### END SOLUTION\n"
            "### END SOLUTION",
            r"cell 3 .*line 3: nested '### BEGIN SOLUTION'",
        ),
        (
            "### BEGIN SOLUTION\na = 1\n### END HIDDEN TESTS",
            r"cell 3 .*line 3: '### END HIDDEN TESTS' closes the solution region",
        ),
    ],
    ids=["begin-without-end", "end-without-begin", "nested", "mismatched"],
)
def test_unbalanced_markers_name_notebook_and_cell(fixture_nb, tmp_path, source, message):
    nb = nbformat.read(fixture_nb, as_version=4)
    nb.cells[3].source = source
    bad = fixture_lessons.write(nb, tmp_path / "src2" / "03_broken.ipynb")
    good = fixture_nb
    out = tmp_path / "out"
    with pytest.raises(MarkerError, match=message) as info:
        build([good, bad], out, verbose=False)
    assert "03_broken.ipynb" in str(info.value)
    assert not out.exists() or not any(out.iterdir()), "nothing is written on a marker error"


def test_refuses_lessons_whose_roles_are_not_applied(tmp_path):
    raw = fixture_lessons.write(
        fixture_lessons.tiny_lesson(roles=False), tmp_path / "src" / "01_raw.ipynb"
    )
    with pytest.raises(CourseToolsError, match=r"01_raw.ipynb.*run python -m coursetools.roles"):
        build([raw], tmp_path / "out", verbose=False)
    nb = fixture_lessons.tiny_lesson()
    nb.cells[12].source = "### BEGIN SOLUTION\nchecked = 60\n### END SOLUTION"
    bad = fixture_lessons.write(nb, tmp_path / "src" / "02_bad.ipynb")
    with pytest.raises(CourseToolsError, match=r"02_bad.ipynb: cell 12: solution markers"):
        build([bad], tmp_path / "out", verbose=False)
    assert not (tmp_path / "out").exists()
