"""The class report: what the class did with one assignment, read from nbgrader's files.

``python -m coursetools.classroom report ASSIGNMENT`` (or ``--all``) reads

* nbgrader's gradebook (``gradebook.db``): the students, each submission's time, lateness
  and the score of every graded cell;
* the autograded notebooks (``autograded/STUDENT/ASSIGNMENT/*.ipynb``): how each check
  cell failed, in its visible or hidden part, and with which message
  (:mod:`coursetools.classroom.report_checks`);
* the submitted notebooks (``submitted/STUDENT/ASSIGNMENT/*.ipynb``): the self-check
  questions' attempts, when the class records them (:mod:`perclib.classroom`;
  autograde re-executes the notebook and so drops them from its copy),

and writes, in ``reports/ASSIGNMENT/`` of the course folder, ``index.html`` (the class,
no names) with its CSV files and ``students.html`` / ``students.csv`` (one row per
student: for the instructor and graders only). :mod:`coursetools.classroom.report_html`
draws the pages.

Example
-------
>>> exercise_of("ex2-check"), exercise_of("ex12-written"), exercise_of("bonus")
('ex2', 'ex12', 'bonus')
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat

from coursetools.classroom.report_checks import (
    OUTCOMES,
    CheckOutcome,
    has_hidden_tests,
    message_key,
    notebook_outcomes,
)
from coursetools.shared.common import CourseToolsError


def exercise_of(grade_id: str) -> str:
    """The exercise a graded cell belongs to: ``exN`` of ``exN-anything``, else the cell."""
    match = re.match(r"(ex\d+)-", grade_id)
    return match.group(1) if match else grade_id


@dataclass
class Submission:
    """One student's graded submission of the assignment."""

    student: str
    timestamp: datetime | None
    seconds_late: float
    score: float  # after nbgrader's late penalty
    cells: dict[str, float | None] = field(default_factory=dict)  # grade_id -> score (None: to grade)
    checks: dict[str, CheckOutcome] = field(default_factory=dict)  # grade_id -> outcome
    attempts: list[dict] = field(default_factory=list)  # question records (perclib.classroom)


@dataclass
class AssignmentData:
    """Everything the report needs about one assignment."""

    name: str
    duedate: datetime | None
    max_score: float
    students: list[tuple[str, str]]  # (id, "First Last"), every student of the gradebook
    cell_max: dict[str, float]  # grade_id -> points, in the notebook's order
    check_cells: list[str]  # grade_ids of the autograded checks
    hidden: dict[str, bool]  # check -> holds hidden tests
    submissions: dict[str, Submission]
    not_graded: list[str]  # submitted (in submitted/) but not autograded yet

    @property
    def exercises(self) -> dict[str, list[str]]:
        """exercise -> its graded cells, in the notebook's order."""
        out: dict[str, list[str]] = {}
        for cell in self.cell_max:
            out.setdefault(exercise_of(cell), []).append(cell)
        return out

    @property
    def missing(self) -> list[str]:
        """Students of the gradebook with no submission at all."""
        return [s for s, _ in self.students if s not in self.submissions and s not in self.not_graded]


def _cell_order(course_root: Path, assignment: str, notebook: str) -> dict[str, int]:
    path = course_root / "source" / assignment / f"{notebook}.ipynb"
    if not path.is_file():
        return {}
    nb = nbformat.read(path, as_version=4)
    return {c.metadata.get("nbgrader", {}).get("grade_id"): i for i, c in enumerate(nb.cells)}


def read_assignment(course_root: Path, assignment: str, gradebook_url: str | None = None) -> AssignmentData:
    """Read one assignment from the gradebook and the notebooks of ``course_root``."""
    from nbgrader.api import Gradebook, MissingEntry

    from perclib.classroom import read_attempts

    course_root = Path(course_root)
    url = gradebook_url or f"sqlite:///{course_root / 'gradebook.db'}"
    if not (course_root / "gradebook.db").is_file() and gradebook_url is None:
        raise CourseToolsError(f"no gradebook in {course_root}: release and autograde first")
    with Gradebook(url) as gb:
        try:
            a = gb.find_assignment(assignment)
        except MissingEntry:
            names = ", ".join(sorted(x.name for x in gb.assignments)) or "none"
            raise CourseToolsError(
                f"no assignment {assignment!r} in the gradebook (there: {names})") from None
        notebooks = sorted(nb.name for nb in a.notebooks)
        cell_max: dict[str, float] = {}
        check_cells: list[str] = []
        hidden: dict[str, bool] = {}
        for name in notebooks:
            nb = next(n for n in a.notebooks if n.name == name)
            order = _cell_order(course_root, assignment, name)
            for cell in sorted(nb.grade_cells, key=lambda c: (order.get(c.name, 10**6), c.name)):
                cell_max[cell.name] = float(cell.max_score)
            source = course_root / "source" / assignment / f"{name}.ipynb"
            if source.is_file():
                found = has_hidden_tests(nbformat.read(source, as_version=4))
                hidden |= found
                check_cells += [c for c in cell_max if c in found and c not in check_cells]
        students = [(s.id, " ".join(x for x in (s.first_name, s.last_name) if x))
                    for s in sorted(gb.students, key=lambda s: s.id)]
        submissions: dict[str, Submission] = {}
        for sid, _ in students:
            try:
                sub = gb.find_submission(assignment, sid)
            except MissingEntry:
                continue
            row = Submission(sid, sub.timestamp, float(sub.total_seconds_late or 0),
                             float(sub.score) - float(sub.late_submission_penalty or 0))
            for nb in sub.notebooks:
                for grade in nb.grades:
                    waiting = grade.needs_manual_grade or grade.score is None  # a grader's turn
                    row.cells[grade.name] = None if waiting else float(grade.score)
            submissions[sid] = row
        duedate, max_score = a.duedate, float(a.max_score)
    for sid, row in submissions.items():
        for name in notebooks:
            graded = course_root / "autograded" / sid / assignment / f"{name}.ipynb"
            if graded.is_file():
                row.checks |= notebook_outcomes(nbformat.read(graded, as_version=4))
            submitted = course_root / "submitted" / sid / assignment / f"{name}.ipynb"
            if submitted.is_file():
                row.attempts += read_attempts(nbformat.read(submitted, as_version=4))
    not_graded = sorted(p.parent.name for p in (course_root / "submitted").glob(f"*/{assignment}")
                        if p.parent.name not in submissions)
    return AssignmentData(assignment, duedate, max_score, students, cell_max, check_cells, hidden,
                          submissions, not_graded)


# -- the numbers ---------------------------------------------------------------------
@dataclass(frozen=True)
class ExerciseStats:
    exercise: str
    cells: tuple[str, ...]
    points: float
    graded: int  # submissions with every cell of the exercise graded
    mean: float | None
    full: int
    zero: int
    partial: int
    to_grade: int  # submissions with a cell still to grade by hand


def exercise_stats(data: AssignmentData) -> list[ExerciseStats]:
    out = []
    for exercise, cells in data.exercises.items():
        points = sum(data.cell_max[c] for c in cells)
        scores, to_grade = [], 0
        for sub in data.submissions.values():
            values = [sub.cells.get(c) for c in cells]
            if any(v is None for v in values):
                to_grade += 1
            else:
                scores.append(sum(values))
        full = sum(1 for s in scores if s >= points)
        zero = sum(1 for s in scores if s <= 0)
        out.append(ExerciseStats(exercise, tuple(cells), points, len(scores),
                                 sum(scores) / len(scores) if scores else None,
                                 full, zero, len(scores) - full - zero, to_grade))
    return out


@dataclass(frozen=True)
class CheckStats:
    check: str
    has_hidden: bool
    counts: dict[str, int]  # outcome -> submissions
    messages: list[tuple[str, str, int]]  # (part, example message, submissions), most common first

    @property
    def graded(self) -> int:
        return sum(self.counts.values())

    @property
    def visible_passed(self) -> int:
        """Submissions whose visible part passed (they reached the hidden tests)."""
        return self.counts["passed"] + self.counts["hidden"]


def check_stats(data: AssignmentData, top: int = 5) -> list[CheckStats]:
    out = []
    for check in data.check_cells:
        counts = Counter({k: 0 for k in OUTCOMES})
        groups: dict[tuple[str, str], Counter] = {}
        for sub in data.submissions.values():
            result = sub.checks.get(check)
            if result is None:
                continue
            counts[result.outcome] += 1
            if result.outcome != "passed":
                group = groups.setdefault((result.outcome, message_key(result.message)), Counter())
                group[result.message] += 1
        ranked = sorted(((part, c.most_common(1)[0][0], sum(c.values())) for (part, _), c in groups.items()),
                        key=lambda t: (-t[2], t[0], t[1]))
        out.append(CheckStats(check, data.hidden.get(check, False), dict(counts), ranked[:top]))
    return out


@dataclass(frozen=True)
class QuestionStats:
    question: str  # the record's id
    prompt: str
    kind: str
    tried: int
    first_try: int
    after_hint: int
    gave_up: int
    not_yet: int
    wrong_answers: list[tuple[str, int]]  # (answer, times given), most common first


def student_outcome(events: list[dict]) -> str:
    """One student's outcome on one question: first_try, after_hint, gave_up or not_yet.

    >>> student_outcome([{"action": "check", "correct": False}, {"action": "check", "correct": True}])
    'after_hint'
    >>> student_outcome([{"action": "show"}, {"action": "check", "correct": True}])
    'gave_up'
    """
    wrong = 0
    for event in events:
        if event.get("action") == "show":
            return "gave_up"
        if event.get("action") == "check" and event.get("counted", True):
            if event.get("correct"):
                return "first_try" if wrong == 0 else "after_hint"
            wrong += 1
    return "not_yet"


def question_stats(data: AssignmentData, top: int = 5) -> list[QuestionStats]:
    per_question: dict[str, dict] = {}
    for sub in data.submissions.values():
        for record in sub.attempts:
            entry = per_question.setdefault(record["question"], {
                "prompt": record.get("prompt", ""), "kind": record.get("kind", ""),
                "events": {}, "wrong": Counter()})
            entry["events"].setdefault(sub.student, []).extend(record.get("events", []))
    out = []
    for qid, entry in per_question.items():
        outcomes = Counter()
        wrong = Counter()
        for events in entry["events"].values():
            if not events:
                continue
            outcomes[student_outcome(events)] += 1
            for e in events:
                if e.get("action") == "check" and e.get("counted", True) and not e.get("correct"):
                    wrong[str(e.get("response", ""))] += 1
        out.append(QuestionStats(qid, entry["prompt"], entry["kind"], sum(outcomes.values()),
                                 outcomes["first_try"], outcomes["after_hint"], outcomes["gave_up"],
                                 outcomes["not_yet"], wrong.most_common(top)))
    return out
