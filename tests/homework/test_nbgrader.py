"""Real nbgrader, end to end, on every lesson (and on a small fixture lesson).

For each lesson: a throwaway nbgrader course directory in ``tmp_path`` (its own
``nbgrader_config.py``, ``CourseDirectory.root``), the lesson copied to
``source/<assignment>/``, then nbgrader's Python API (``NbGraderAPI``, the same
converters as the command line) with nbgrader's DEFAULT settings (no
``enforce_metadata=False``); the kernel is this environment's ``python3``:

1. ``nbgrader generate_assignment``: the release must hold no line of any solution
   region or written answer and no hidden test (lines that also occur outside the
   regions, such as ``import numpy as np``, do not count as solution text), and no
   marker;
2. ``nbgrader autograde`` of two submissions in one call: ``stub`` submits the release
   untouched, ``solved`` submits the lesson itself. Read from nbgrader's gradebook:
   ``stub`` scores 0 of the autograded total, ``solved`` scores the full autograded
   total, the total is > 0, and the written answers are the manually graded points;
3. ``coursetools.homework`` makes the same student version as the release, cell by
   cell (cell types, sources, role tags, nbgrader metadata and locks);
4. the two autograded notebooks, as nbgrader executed them: the solved one has no
   error output; the untouched release errs only where ``tests/homework/test_homework.py``'s
   rule allows (stubs and what depends on them), so no cell before the first stub fails.

Totals are printed (``pytest -s``) and summarised at the end of the session.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fixtures")]

import fixture_lessons  # noqa: E402
from test_homework import cell_error, unexpected_errors  # noqa: E402  (the rule for errors)

from coursetools import lesson_notebooks  # noqa: E402
from coursetools.homework.build import find_regions, student_version  # noqa: E402

LESSONS = lesson_notebooks(ROOT / "notebooks")
FIXTURE = "fixture"
SUMMARY: list[str] = []
# nbgrader's own gradebook code warns about its SQLAlchemy session; not ours to fix.
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")

CONFIG = """\
c = get_config()  # noqa: F821
c.CourseDirectory.root = {root!r}
c.CourseDirectory.course_id = "perceptron-course"
# The lessons import perclib; run them in this environment's kernel.
c.ExecutePreprocessor.kernel_name = "python3"
c.ExecutePreprocessor.timeout = 600
"""


def nbgrader(course: Path, step: str, assignment: str) -> None:
    """Run one nbgrader step through its Python API (``NbGraderAPI``), in this process.

    Same converters and defaults as the ``nbgrader`` command (the course's
    ``nbgrader_config.py`` is loaded as the command would); in-process saves
    importing nbgrader twice per lesson.
    """
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config
    from traitlets.config.loader import PyFileConfigLoader

    config = Config()
    config.merge(PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config())
    # nbgrader runs the ``alembic`` script of its environment: put it on PATH, as an
    # activated virtual environment would.
    bin_dir = str(Path(sys.executable).parent)
    old_path = os.environ.get("PATH", "")
    os.environ["PATH"] = bin_dir + os.pathsep + old_path
    try:
        api = NbGraderAPI(config=config)
        if step == "generate_assignment":
            result = api.generate_assignment(assignment, force=True)
        else:  # every submission ("*") in one call
            result = api.autograde(assignment, "*", force=True)
    finally:
        os.environ["PATH"] = old_path
    assert result["success"], (
        f"nbgrader {step} {assignment} failed:\n{result.get('error', '')}\n{result.get('log', '')}"
    )


def secret_lines(nb) -> tuple[set[str], set[str]]:
    """(solution lines, hidden-test lines): stripped lines found only inside regions."""
    regions = find_regions(nb)
    in_region = {(r.cell_index, n) for r in regions for n in range(r.begin_line, r.end_line + 1)}
    outside = {
        line.strip()
        for i, cell in enumerate(nb.cells)
        for n, line in enumerate(cell.source.split("\n"), start=1)
        if (i, n) not in in_region
    }
    found: dict[str, set[str]] = {"solution": set(), "hidden tests": set()}
    for r in regions:
        found[r.kind] |= {line.strip() for line in r.lines if line.strip()}
    # A written answer's worked solution is solution text too (its whole cell).
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "markdown" and meta.get("solution"):
            found["solution"] |= {line.strip() for line in cell.source.split("\n") if line.strip()}
    return found["solution"] - outside, found["hidden tests"] - outside


def manual_points(nb) -> float:
    return sum(
        c.metadata["nbgrader"].get("points", 0) for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "markdown"
    )


def auto_points(nb) -> float:
    return sum(
        c.metadata["nbgrader"].get("points", 0) for c in nb.cells
        if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"
    )


@pytest.fixture(scope="module", autouse=True)
def print_totals(request):
    """After the module: the per-lesson totals, shown even without ``-s``."""
    yield
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter and capture and SUMMARY:
        with capture.global_and_fixture_disabled():
            reporter.write_line("")
            reporter.write_line("nbgrader totals per lesson:")
            for line in SUMMARY:
                reporter.write_line("  " + line)


@pytest.fixture(scope="module", params=[FIXTURE, *LESSONS],
                ids=[FIXTURE, *(p.name for p in LESSONS)])
def graded(request, tmp_path_factory) -> dict:
    """One throwaway course per lesson: release generated, two submissions autograded."""
    tmp = tmp_path_factory.mktemp("nbgrader")
    snapshot = tmp / "snapshot"  # lessons may change while the tests run
    snapshot.mkdir()
    if request.param == FIXTURE:
        lesson = fixture_lessons.write(
            fixture_lessons.tiny_lesson(), snapshot / "01_fixture.ipynb"
        )
    else:
        lesson = snapshot / request.param.name
        shutil.copyfile(request.param, lesson)
    course = tmp / "course"
    assignment = lesson.stem.replace("_", "-")
    (course / "source" / assignment).mkdir(parents=True)
    (course / "nbgrader_config.py").write_text(CONFIG.format(root=str(course)))
    shutil.copyfile(lesson, course / "source" / assignment / lesson.name)

    # 1. release, with nbgrader's defaults
    nbgrader(course, "generate_assignment", assignment)
    released = course / "release" / assignment / lesson.name

    # 2. two submissions, autograded in one call
    for student, origin in (("stub", released), ("solved", lesson)):
        folder = course / "submitted" / student / assignment
        folder.mkdir(parents=True)
        shutil.copyfile(origin, folder / lesson.name)
    nbgrader(course, "autograde", assignment)

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        stub = gb.find_submission(assignment, "stub")
        solved = gb.find_submission(assignment, "solved")
        result = {
            "auto_total": solved.max_code_score,
            "manual_total": solved.max_written_score,
            "stub_auto": stub.code_score,
            "solved_auto": solved.code_score,
            "failed_in_solved": sorted(
                g.name
                for g in gb.find_submission_notebook(lesson.stem, assignment, "solved").grades
                if g.cell_type == "code" and g.auto_score != g.max_score
            ),
            "scored_in_stub": sorted(
                g.name
                for g in gb.find_submission_notebook(lesson.stem, assignment, "stub").grades
                if g.cell_type == "code" and g.auto_score
            ),
        }
    SUMMARY.append(
        f"{lesson.name}: autograded {result['solved_auto']:g}/{result['auto_total']:g} "
        f"with solutions, {result['stub_auto']:g}/{result['auto_total']:g} untouched; "
        f"{result['manual_total']:g} manual (written) points"
    )
    autograded = course / "autograded"
    return {"lesson": lesson, "released": released, **result,
            "stub_run": autograded / "stub" / assignment / lesson.name,
            "solved_run": autograded / "solved" / assignment / lesson.name}


def test_release_has_no_solution_and_no_hidden_test(graded) -> None:
    source_nb = nbformat.read(graded["lesson"], as_version=4)
    release_nb = nbformat.read(graded["released"], as_version=4)
    text_lines = {line.strip() for c in release_nb.cells for line in c.source.split("\n")}
    solution, hidden = secret_lines(source_nb)
    assert solution, "the lesson has no solution text: nothing to grade"
    assert not solution & text_lines, f"solution lines in the release: {sorted(solution & text_lines)}"
    assert not hidden & text_lines, f"hidden tests in the release: {sorted(hidden & text_lines)}"
    release_text = "\n".join(text_lines)
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
        assert marker not in release_text, f"{marker!r} left in the release"
    assert all(not c.get("outputs") for c in release_nb.cells if c.cell_type == "code")


def test_autograde_zero_for_stubs_full_marks_for_solutions(graded) -> None:
    source_nb = nbformat.read(graded["lesson"], as_version=4)
    assert graded["auto_total"] > 0
    assert graded["auto_total"] == auto_points(source_nb)
    assert graded["manual_total"] == manual_points(source_nb)
    assert graded["stub_auto"] == 0, (
        f"the untouched release must score 0; scored in: {graded['scored_in_stub']}"
    )
    assert graded["solved_auto"] == graded["auto_total"], (
        f"the lesson's solutions must get full marks; failed: {graded['failed_in_solved']}"
    )


def test_solved_submission_runs_without_an_error(graded) -> None:
    """The instructor version (the lesson, hidden tests included) runs clean in autograde.

    This is the run ``tests/homework/test_homework.py`` does on its fixture, taken from nbgrader's
    own execution of every lesson instead of a second one.
    """
    ran = nbformat.read(graded["solved_run"], as_version=4)
    errors = [(i, cell_error(c)) for i, c in enumerate(ran.cells) if cell_error(c)]
    assert not errors, f"{graded['lesson'].name}: cells raised {errors}"
    assert all(c.execution_count for c in ran.cells if c.cell_type == "code" and c.source.strip())


def test_untouched_release_fails_only_on_stubs(graded) -> None:
    """The student version, as nbgrader ran it, errs only where ``test_homework``'s rule allows."""
    source_nb = nbformat.read(graded["lesson"], as_version=4)
    ran = nbformat.read(graded["stub_run"], as_version=4)
    assert any(cell_error(c) for c in ran.cells), "the untouched release raised nothing"
    problems = unexpected_errors(source_nb, ran)
    assert not problems, "\n".join(problems)


def _roles(cell) -> dict:
    meta = cell.metadata
    grader = {k: v for k, v in meta.get("nbgrader", {}).items() if k != "checksum"}
    grader.pop("cell_type", None)  # nbgrader records the original cell type here
    return {"tags": meta.get("tags", []), "nbgrader": grader,
            "locks": (meta.get("deletable", True), meta.get("editable", True))}


def test_homework_agrees_with_the_release(graded) -> None:
    """``coursetools.homework`` makes the student version nbgrader releases, cell by cell."""
    source_nb = nbformat.read(graded["lesson"], as_version=4)
    release_nb = nbformat.read(graded["released"], as_version=4)
    student = student_version(source_nb, graded["lesson"].name)
    assert len(student.cells) == len(release_nb.cells)
    for index, (mine, theirs) in enumerate(zip(student.cells, release_nb.cells, strict=True)):
        where = f"{graded['lesson'].name}: cell {index}"
        assert mine.cell_type == theirs.cell_type, where
        assert mine.source == theirs.source, f"{where}: sources differ"
        assert _roles(mine) == _roles(theirs), f"{where}: roles differ"
