"""The class report, on a small class graded by nbgrader itself (no hub: fast).

A homework notebook with two exercises (visible and hidden tests, one exercise with two
check cells so that partial marks exist), a written answer and a self-check question;
nbgrader's own ``generate_assignment`` and ``autograde`` (NbGraderAPI) in a temporary
course folder; five students: full marks, blank, partial (fails a hidden test and a
visible one), wrong in a visible test, late; a sixth never submits. Each student's
question tries are made by driving the real widget with the class's recording switched
on. The report's numbers are checked against the gradebook and against an independent
count made here from how each submission was built.
"""

from __future__ import annotations

import csv
import json
import os
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "test-output" / "class-report"
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")

CHECK1 = '''def check_double(x):
    assert double(x) == 2 * x, f"double({x}) should be twice {x}: multiply, do not add"
check_double(2)
check_double(3)
### BEGIN HIDDEN TESTS
check_double(-7)
check_double(10**6)
### END HIDDEN TESTS
print("exercise 1: correct")
'''
CHECK2A = 'assert halve(4) == 2, "halve(4) should be 2"\n'
CHECK2B = '''assert halve(1) == 0.5, "halve(1) should be 0.5: use /, not //"
### BEGIN HIDDEN TESTS
assert halve(-3) == -1.5, "halve(-3) should be -1.5"
### END HIDDEN TESTS
'''
QUESTION = '''from perclib.questions import Question
from perclib.widgets import ask
ask(Question("What is 3 + 4?", kind="integer", answer=3 + 4, why="Add.",
             hints={12: "That is the product."}, hint="Add them.", stronger="Count on from 3."))
'''
ANSWERS = {  # what each student wrote
    "full": ("return 2 * x", "return x / 2"),
    "partial": ("return 2 * x if x > 0 else 0", "return x // 2"),
    "visfail": ("return x + 2", "return x / 2"),
    "late": ("return 2 * x", "return x / 2"),
}
#: The outcome of each check cell, from how each submission was built (not from the code).
EXPECTED = {
    "ex1-check": {"full": "passed", "blank": "visible", "partial": "hidden", "visfail": "visible",
                  "late": "passed"},
    "ex2-check-a": {"full": "passed", "blank": "visible", "partial": "passed", "visfail": "passed",
                    "late": "passed"},
    "ex2-check-b": {"full": "passed", "blank": "visible", "partial": "visible", "visfail": "passed",
                    "late": "passed"},
}
POINTS = {"ex1-check": 2, "ex2-check-a": 1, "ex2-check-b": 1, "ex3-written": 1}
#: Students who wrote the written answer (the others leave it as released).
WRITTEN = ("full", "partial")
#: Question tries: (action, response) in order, per student.
TRIES = {"full": [("check", "7")], "partial": [("check", "12"), ("check", "7")],
         "visfail": [("show", None)], "late": [("check", "5")]}


def _cell(kind: str, source: str, **meta) -> nbformat.NotebookNode:
    nb_meta = {"grade": False, "solution": False, "locked": False, "schema_version": 3, **meta}
    make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
    return make(source, metadata={"nbgrader": nb_meta} if meta else {})


def homework() -> nbformat.NotebookNode:
    sol = "    ### BEGIN SOLUTION\n    {}\n    ### END SOLUTION\n"
    cells = [
        _cell("markdown", "# Homework"),
        _cell("code", "def double(x):\n" + sol.format("return 2 * x"), solution=True, grade_id="ex1-answer"),
        _cell("code", CHECK1, grade=True, locked=True, grade_id="ex1-check", points=2),
        _cell("code", "def halve(x):\n" + sol.format("return x / 2"), solution=True, grade_id="ex2-answer"),
        _cell("code", CHECK2A, grade=True, locked=True, grade_id="ex2-check-a", points=1),
        _cell("code", CHECK2B, grade=True, locked=True, grade_id="ex2-check-b", points=1),
        _cell("markdown", "=== BEGIN MARK SCHEME ===\nWhy?\n=== END MARK SCHEME ===\nBecause.",
              grade=True, solution=True, grade_id="ex3-written", points=1),
        nbformat.v4.new_code_cell(QUESTION),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def recorded_tries(tries, monkeypatch, class_dir: Path) -> list[dict]:
    """The question cell's outputs after a student's tries, with the class recording on."""
    from perclib.classroom import ATTEMPTS_MIME
    from perclib.questions import Question
    from perclib.widgets.question import QuestionWidget

    monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(class_dir))
    w = QuestionWidget(Question("What is 3 + 4?", kind="integer", answer=7, why="Add.",
                                hints={12: "That is the product."}, hint="Add them.",
                                stronger="Count on from 3."))
    for action, response in tries:
        if action == "check":
            w.enter(response)
            w.on_check()
        else:
            w.on_show()
    monkeypatch.delenv("JUPYTER_CONFIG_PATH")
    return [nbformat.v4.new_output("display_data", data=w.log.bundle())] if ATTEMPTS_MIME else []


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    """The course folder after autograde, and the deadline."""
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    mp = pytest.MonkeyPatch()
    tmp = tmp_path_factory.mktemp("class-report")
    course = tmp / "course"
    (course / "source" / "hw").mkdir(parents=True)
    class_cfg = tmp / "student-config"
    class_cfg.mkdir()
    (class_cfg / "perclib_class.json").write_text(json.dumps({"record_questions": True}))
    nbformat.write(homework(), course / "source" / "hw" / "hw.ipynb")
    mp.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    mp.setenv("PYTHONPATH", str(ROOT))
    mp.delenv("JUPYTER_CONFIG_PATH", raising=False)
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.course_id = "report-test"
    api = NbGraderAPI(config=config)
    deadline = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    students = ["full", "blank", "partial", "visfail", "late", "absent"]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_assignment("hw", duedate=deadline.replace(tzinfo=None))
        for s in students:
            gb.update_or_create_student(s, first_name=s.title(), last_name="Student")
    assert api.generate_assignment("hw", force=True)["success"]
    released = nbformat.read(course / "release" / "hw" / "hw.ipynb", as_version=4)
    times = {"full": -50, "blank": -0.5, "partial": -3, "visfail": -30, "late": 2}  # hours
    for s, hours in times.items():
        nb = nbformat.from_dict(json.loads(json.dumps(released)))
        if s in ANSWERS:
            nb.cells[1].source = f"def double(x):\n    {ANSWERS[s][0]}\n"
            nb.cells[3].source = f"def halve(x):\n    {ANSWERS[s][1]}\n"
        if s in WRITTEN:  # a written answer waits for the grader; one left blank scores 0
            nb.cells[6].source = "Because the points are on a line."
        if s in TRIES:
            nb.cells[7].outputs = recorded_tries(TRIES[s], mp, class_cfg)
        folder = course / "submitted" / s / "hw"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / "hw.ipynb")
        stamp = deadline + timedelta(hours=hours)
        (folder / "timestamp.txt").write_text(stamp.strftime("%Y-%m-%d %H:%M:%S.%f %Z"))
        result = api.autograde("hw", s, force=True)
        assert result["success"], result.get("log")
    yield course, deadline, times
    mp.undo()


def _read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def test_report_numbers_match_the_gradebook_and_an_independent_count(graded_class) -> None:
    from nbgrader.api import Gradebook

    from coursetools.classroom.__main__ import main

    course, deadline, times = graded_class
    out = course / "reports" / "hw"
    main(["report", "hw", "--course", str(course)])
    # Checks: every outcome as built.
    checks = {r["check"]: r for r in _read_csv(out / "checks.csv")}
    assert list(checks) == list(EXPECTED)
    for check, by_student in EXPECTED.items():
        for outcome, column in (("passed", "passed"), ("visible", "failed_visible"),
                                ("hidden", "failed_hidden")):
            want = sum(1 for o in by_student.values() if o == outcome)
            assert int(checks[check][column]) == want, (check, outcome)
    assert checks["ex1-check"]["hidden_tests"] == "True" and checks["ex2-check-a"]["hidden_tests"] == "False"
    messages = _read_csv(out / "check_messages.csv")
    assert {"check": "ex1-check", "part": "hidden", "submissions": "1",
            "message": "AssertionError: double(-7) should be twice -7: multiply, do not add"} in messages
    assert {"check": "ex1-check", "part": "visible", "submissions": "1",
            "message": "AssertionError: double(3) should be twice 3: multiply, do not add"} in messages
    assert {"check": "ex1-check", "part": "visible", "submissions": "1",
            "message": "NotImplementedError"} in messages
    # Exercises: from the points of the checks each student passed.
    scores = {s: {c: POINTS[c] * (EXPECTED[c][s] == "passed") for c in EXPECTED} for s in times}
    ex = {r["exercise"]: r for r in _read_csv(out / "exercises.csv")}
    for name, cells in (("ex1", ["ex1-check"]), ("ex2", ["ex2-check-a", "ex2-check-b"])):
        totals = [sum(scores[s][c] for c in cells) for s in times]
        full_points = sum(POINTS[c] for c in cells)
        assert float(ex[name]["mean"]) == pytest.approx(sum(totals) / len(totals))
        assert int(ex[name]["full"]) == sum(t == full_points for t in totals)
        assert int(ex[name]["zero"]) == sum(t == 0 for t in totals)
        assert int(ex[name]["partial"]) == sum(0 < t < full_points for t in totals)
    assert int(ex["ex2"]["partial"]) == 1  # the case exists
    # Written: nbgrader scores an untouched answer 0 itself; a written one waits for a grader.
    assert int(ex["ex3"]["to_grade"]) == len(WRITTEN)
    assert int(ex["ex3"]["graded"]) == int(ex["ex3"]["zero"]) == len(times) - len(WRITTEN)
    # Students: against the gradebook, and late / missing as built.
    rows = {r["student"]: r for r in _read_csv(out / "students.csv")}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        for s in times:
            sub = gb.find_submission("hw", s)
            assert float(rows[s]["score"]) == pytest.approx(sub.score - sub.late_submission_penalty)
            assert float(rows[s]["score"]) == sum(scores[s].values())
    assert rows["absent"]["submitted (UTC)"] == "no submission"
    assert [s for s, r in rows.items() if r["late (hours)"]] == ["late"]
    assert float(rows["late"]["late (hours)"]) == pytest.approx(2.0)
    when = {r["when"]: int(r["submissions"]) for r in _read_csv(out / "times.csv")}
    assert when == {"more than a week before": 0, "1 to 7 days before": 2, "1 to 24 hours before": 1,
                    "in the last hour": 1, "up to 1 hour late": 0, "1 to 24 hours late": 1,
                    "more than a day late": 0}
    dist = {r["score"]: int(r["students"]) for r in _read_csv(out / "scores.csv")}
    totals = sorted(sum(v.values()) for v in scores.values())
    assert sum(dist.values()) == len(totals)
    assert dist["4 to 5 (incl.)"] == sum(t >= 4 for t in totals)
    # Questions: from TRIES.
    (q,) = _read_csv(out / "questions.csv")
    counts = [q[k] for k in ("tried", "first_try", "after_hint", "gave_up", "not_yet")]
    assert counts == ["4", "1", "1", "1", "1"]
    assert q["wrong_answers"] in ("12 (1); 5 (1)", "5 (1); 12 (1)")
    # The class page holds no names; the students' page is private.
    page = (out / "index.html").read_text()
    for s in ("Full", "Visfail", "absent"):
        assert s not in page
    assert (out / "students.html").stat().st_mode & 0o077 == 0
    assert (out / "students.csv").stat().st_mode & 0o077 == 0


def test_report_all_and_bad_assignment(graded_class, tmp_path) -> None:
    from coursetools.classroom.report_html import write_all, write_report
    from coursetools.shared.common import CourseToolsError

    course, _, _ = graded_class
    index = write_all(course, tmp_path / "all")
    assert (tmp_path / "all" / "hw" / "index.html").is_file()
    assert 'href="hw/index.html"' in index.read_text()
    with pytest.raises(CourseToolsError, match="no assignment 'nope' in the gradebook"):
        write_report(course, "nope", tmp_path / "x")


def test_report_page_passes_axe_and_is_looked_at(graded_class) -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from axe_support import axe_problems
    from browser_support import CHROMIUM_ARGS, find_chromium

    from coursetools.classroom.report_html import write_report

    course, _, _ = graded_class
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no chromium") if not os.environ.get("CI") else pytest.fail("no chromium in CI")
    from playwright.sync_api import sync_playwright

    index = write_report(course, "hw", OUTPUT / "hw")
    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        for name in ("index.html", "students.html"):
            page.goto((index.parent / name).as_uri())
            problems += axe_problems(page, name)
            page.screenshot(path=str(OUTPUT / f"{name.replace('.html', '')}.png"), full_page=True)
        browser.close()
    assert problems == []
