"""Lazy and wrong answers must fail every exercise's visible check (issues 21 and 22).

The attempts live in ``tests/lazy_answers/lessonNN.py``; the harness is
``tests/exercise_audit.py``. Every autograded exercise has at least one hard-coded
attempt and two wrong ones (and a ``library:`` attempt where perclib has the function
the exercise asks for); each must fail its visible check with an ``AssertionError``
that explains and does not print the answer, and the lesson's solution must pass.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
from exercise_audit import KINDS, OWN_NUMBERS, ROOT, audit, fill_stub, load_table

LESSONS = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb") if not p.name.startswith("00_"))


def _autograded_answers(lesson: Path) -> list[str]:
    nb = json.loads(lesson.read_text())
    return [c["metadata"]["nbgrader"]["grade_id"] for c in nb["cells"]
            if c["metadata"].get("nbgrader", {}).get("solution") and c["cell_type"] == "code"]


def _answer_source(lesson: Path, answer_id: str) -> str:
    nb = json.loads(lesson.read_text())
    return next("".join(c["source"]) for c in nb["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == answer_id)


def _check_source(lesson: Path, answer_id: str) -> str:
    nb = json.loads(lesson.read_text())
    check_id = answer_id.replace("-answer", "-check")
    return next("".join(c["source"]) for c in nb["cells"]
                if c["metadata"].get("nbgrader", {}).get("grade_id") == check_id)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_exercise_has_a_table_of_attempts(lesson: Path) -> None:
    table = load_table(int(lesson.name[:2]))
    no_input = getattr(importlib.import_module(f"lazy_answers.lesson{lesson.name[:2]}"), "NO_INPUT", set())
    answers = _autograded_answers(lesson)
    assert sorted(table) == sorted(answers), f"{lesson.name}: table keys {sorted(table)} vs {answers}"
    for grade_id, attempts in table.items():
        kinds = [a.kind for a in attempts]
        assert kinds.count("hard-coded") >= 1, f"{lesson.name} {grade_id}: no hard-coded attempt"
        assert kinds.count("wrong") >= 2, f"{lesson.name} {grade_id}: fewer than two wrong answers"
        if grade_id in no_input:
            assert re.search(r"def \w+\(\s*\)", _answer_source(lesson, grade_id)), (
                f"{lesson.name} {grade_id}: listed in NO_INPUT but its function takes arguments")
        else:
            assert kinds.count("lookup") >= 1, (
                f"{lesson.name} {grade_id}: no lookup-table attempt (the hidden tests must catch one)")
        if "library" in kinds:
            check = _check_source(lesson, grade_id)
            assert "family=" in check, (
                f"{lesson.name} {grade_id}: the check switches off names, not the family of "
                "solvers that does this exercise's job (without(family=...))")
            assert "capture" in kinds, (
                f"{lesson.name} {grade_id}: a library attempt but none that captures the function "
                "another way (default argument, closure, alias)")
        assert set(kinds) <= set(KINDS), f"{grade_id}: unknown kind in {kinds}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_lesson_has_an_exercise_with_each_students_own_numbers(lesson: Path) -> None:
    """Issue 49: in a class, one exercise per lesson at least takes its data from the
    student's key (``perclib.classroom.student_seed`` in its answer and in its check).
    The audit below then runs it for two students and for a copy (``own_numbers``)."""
    own = [grade_id for grade_id in _autograded_answers(lesson)
           if OWN_NUMBERS in _answer_source(lesson, grade_id)
           and OWN_NUMBERS in _check_source(lesson, grade_id)]
    assert own, (f"{lesson.name}: no exercise makes its numbers with student_seed in both "
                 "its answer cell and its check")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_lazy_and_wrong_answers_fail_the_visible_checks(lesson: Path) -> None:
    outcomes = audit(lesson, load_table(int(lesson.name[:2])))
    problems = [f"{o.exercise} [{o.label}]: {o.problem}" for o in outcomes if o.problem]
    assert not problems, f"{lesson.name}:\n" + "\n".join(problems)
    assert outcomes, f"{lesson.name}: no attempt ran"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_autograded_check_has_hidden_tests(lesson: Path) -> None:
    nb = json.loads(lesson.read_text())
    for cell in nb["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("grade") and cell["cell_type"] == "code":
            source = "".join(cell["source"])
            assert "### BEGIN HIDDEN TESTS" in source, (
                f"{lesson.name} {meta['grade_id']}: no hidden tests (a lookup table of the "
                "visible inputs would pass)")
            after_hidden = source.rsplit("### END HIDDEN TESTS", 1)[-1]
            assert "print(" in after_hidden, (
                f"{lesson.name} {meta['grade_id']}: the line that says the answer passed must "
                "come after the hidden tests (at grading a 'correct' would precede a failure)")


def test_fill_stub_keeps_the_indentation() -> None:
    stub = "def f(x):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
    assert fill_stub(stub, "y = x\nreturn y") == "def f(x):\n    y = x\n    return y\n"
    with pytest.raises(ValueError, match="stub"):
        fill_stub("x = 1", "x = 2")
