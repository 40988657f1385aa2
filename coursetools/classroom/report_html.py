"""The class report's pages and CSV files (the numbers come from ``report``).

``index.html`` is the class: no names, no ids. ``students.html`` (and ``students.csv``)
has one row per student: it is for the instructor and the graders, like the gradebook.
Each plot is drawn in the course's style (``perclib.plotting.new_figure``, the
Okabe-Ito colours, late marked by shape as well as colour), embedded as a PNG with a
text alternative, and followed by a table with its numbers.

Example
-------
>>> score_bins(10.0)[:3]
[(0.0, 1.0), (1.0, 2.0), (2.0, 3.0)]
"""

from __future__ import annotations

import base64
import csv
import html
import io
import os
from pathlib import Path

from coursetools.classroom.report import (
    AssignmentData,
    check_stats,
    exercise_of,
    exercise_stats,
    question_stats,
    read_assignment,
)

#: A failure message appears on the class page only when at least this many students
#: got it: a student's own code may raise an exception that says anything.
MIN_SHARED = 2
#: Submission times against the deadline, hours (upper bounds; late is > 0).
TIME_BINS = [(-float("inf"), -168, "more than a week before"), (-168, -24, "1 to 7 days before"),
             (-24, -1, "1 to 24 hours before"), (-1, 0, "in the last hour"),
             (0, 1, "up to 1 hour late"), (1, 24, "1 to 24 hours late"),
             (24, float("inf"), "more than a day late")]

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 1.5rem auto; padding: 0 1rem;
       color: #1a1a1a; line-height: 1.45; }
table { border-collapse: collapse; margin: 0.5rem 0 1.2rem; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
th, td { border: 1px solid #8a8a8a; padding: 0.25rem 0.55rem; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.note { background: #fff6dd; border-left: 4px solid #8a6d00; padding: 0.5rem 0.8rem; }
img { max-width: 100%; height: auto; }
code { font-size: 0.95em; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "–"


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def table(caption: str, header: list[str], rows: list[list[object]], numeric: set[int] = frozenset()) -> str:
    """An HTML table with a caption and column headers."""
    head = "".join(f'<th scope="col">{_e(h)}</th>' for h in header)
    body = []
    for row in rows:
        cells = []
        for i, value in enumerate(row):
            if i == 0:
                cells.append(f'<th scope="row">{_e(value)}</th>')
            else:
                cells.append(f'<td class="n">{_e(value)}</td>' if i in numeric else f"<td>{_e(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    if not rows:
        body.append(f'<tr><td colspan="{len(header)}">none</td></tr>')
    return (f"<table><caption>{_e(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def write_csv(path: Path, header: list[str], rows: list[list[object]], private: bool = False) -> None:
    from coursetools.classroom.grades import text_cell

    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        for row in rows:
            w.writerow([text_cell(v) if isinstance(v, str) else v for v in row])
    if private:
        os.chmod(path, 0o600)


def page(title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(title)}</title><style>{STYLE}</style></head>"
            f"<body><main><h1>{_e(title)}</h1>{body}</main></body></html>\n")


# -- plots ---------------------------------------------------------------------------
def score_bins(max_score: float) -> list[tuple[float, float]]:
    """Ten equal bins from 0 to the maximum (one per point when that is fewer)."""
    n = int(max_score) if 0 < max_score <= 10 and float(max_score).is_integer() else 10
    step = max_score / n if n else 1.0
    return [(i * step, (i + 1) * step) for i in range(max(n, 1))]


def _png(fig) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def score_plot(data: AssignmentData) -> tuple[str, list[list[object]]]:
    """The score distribution: (PNG base64, table rows)."""
    from perclib.plotting import POSITIVE_COLOR, new_figure

    scores = [s.score for s in data.submissions.values()]
    bins = score_bins(data.max_score)
    counts = []
    for i, (lo, hi) in enumerate(bins):
        last = i == len(bins) - 1
        counts.append(sum(1 for s in scores if lo <= s < hi or (last and s >= hi) or (i == 0 and s < lo)))
    fig, (ax,) = new_figure(height=3.0)
    ax.bar([lo for lo, _ in bins], counts, width=[hi - lo for lo, hi in bins], align="edge",
           color=POSITIVE_COLOR, edgecolor="white")
    ax.set_xlabel(f"score (of {data.max_score:g}, after late penalty)")
    ax.set_ylabel("students")
    ax.set_xlim(0, max(data.max_score, 1))
    ax.yaxis.get_major_locator().set_params(integer=True)
    rows = [[f"{lo:g} to {hi:g}" + (" (incl.)" if i == len(bins) - 1 else ""), c]
            for i, ((lo, hi), c) in enumerate(zip(bins, counts, strict=True))]
    return _png(fig), rows


def time_plot(data: AssignmentData) -> tuple[str | None, list[list[object]]]:
    """Submission times against the deadline: (PNG base64 or None, table rows)."""
    from perclib.plotting import (
        BOUNDARY_COLOR,
        NEGATIVE_COLOR,
        NEGATIVE_MARKER,
        POSITIVE_COLOR,
        POSITIVE_MARKER,
        legend,
        new_figure,
    )

    hours = sorted((s.timestamp - data.duedate).total_seconds() / 3600
                   for s in data.submissions.values() if s.timestamp and data.duedate)
    rows = [[label, sum(1 for h in hours if lo < h <= hi)] for lo, hi, label in TIME_BINS]
    if not hours:
        return None, rows
    fig, (ax,) = new_figure(height=2.6)
    on_time = [(h, i) for i, h in enumerate(hours) if h <= 0]
    late = [(h, i) for i, h in enumerate(hours) if h > 0]
    if on_time:
        ax.scatter(*zip(*on_time, strict=True), color=POSITIVE_COLOR, marker=POSITIVE_MARKER, label="on time")
    if late:
        ax.scatter(*zip(*late, strict=True), color=NEGATIVE_COLOR, marker=NEGATIVE_MARKER, label="late")
    ax.axvline(0, color=BOUNDARY_COLOR, linewidth=1.2, label="deadline")
    ax.set_xlabel("hours from the deadline (negative: before)")
    ax.set_ylabel("submission (in order)")
    ax.set_yticks([])
    legend(ax)
    return _png(fig), rows


# -- the pages -----------------------------------------------------------------------
def write_pages(data: AssignmentData, folder: Path) -> Path:
    """Write index.html, students.html and the CSV files of one assignment; return index."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    n_students = len(data.students)
    n_sub = len(data.submissions)
    late = sorted((s for s in data.submissions.values() if s.seconds_late > 0), key=lambda s: s.student)
    due = data.duedate.strftime("%Y-%m-%d %H:%M UTC") if data.duedate else "none set"
    parts = [
        '<p class="note">This page holds no names: it may be shared with the teaching team '
        "(and, for a class of more than a handful, with the students). "
        '<a href="students.html">students.html</a> and <code>students.csv</code> hold each '
        "student's results: for the instructor and graders only, like the gradebook; keep them "
        "in the course folder.</p>",
        table("The assignment", ["what", "value"], [
            ["students in the gradebook", n_students], ["autograded submissions", n_sub],
            ["submitted, not autograded yet", len(data.not_graded)],
            ["no submission", len(data.missing)], ["late submissions", len(late)],
            ["deadline", due], ["points", f"{data.max_score:g}"]], numeric={1}),
    ]
    # Exercises.
    ex = exercise_stats(data)
    ex_header = ["exercise", "graded cells", "points", "graded", "mean", "full marks", "zero",
                 "partial", "still to grade by hand"]
    ex_rows = [[e.exercise, " ".join(e.cells), f"{e.points:g}", e.graded, _num(e.mean),
                f"{e.full} ({_pct(e.full, e.graded)})", f"{e.zero} ({_pct(e.zero, e.graded)})",
                f"{e.partial} ({_pct(e.partial, e.graded)})", e.to_grade] for e in ex]
    parts += ["<h2>Exercises</h2>", table("Score per exercise (submissions fully graded)", ex_header,
                                          ex_rows, numeric={2, 3, 4, 5, 6, 7, 8})]
    write_csv(folder / "exercises.csv", ["exercise", "cells", "points", "graded", "mean", "full",
                                         "zero", "partial", "to_grade"],
              [[e.exercise, " ".join(e.cells), e.points, e.graded, "" if e.mean is None else round(e.mean, 4),
                e.full, e.zero, e.partial, e.to_grade] for e in ex])
    # Checks.
    cs = check_stats(data)
    parts.append("<h2>Checks</h2><p>A check cell stops at its first failing test, so the hidden "
                 "tests are reached only by a submission whose visible part passed: their pass "
                 "rate is out of those. <em>Failed, part unknown</em> is a cell that failed without "
                 "a traceback line in it (a time-out, a crashed kernel).</p>")
    c_rows, m_rows, m_csv = [], [], []
    for c in cs:
        k = c.counts
        c_rows.append([c.check, c.graded, f"{k['passed']} ({_pct(k['passed'], c.graded)})",
                       f"{c.visible_passed} ({_pct(c.visible_passed, c.graded)})",
                       (f"{k['passed']} of {c.visible_passed} ({_pct(k['passed'], c.visible_passed)})"
                        if c.has_hidden else "no hidden tests"), k["failed"]])
        for part, message, count in c.messages:
            m_csv.append([c.check, part, message, count])
            if count >= MIN_SHARED:
                m_rows.append([c.check, {"visible": "visible", "hidden": "hidden",
                                         "failed": "unknown"}[part], message, count])
    parts.append(table("Pass rate per check cell", ["check", "graded", "passed", "visible part passed",
                                                    "hidden tests passed", "failed, part unknown"],
                       c_rows, numeric={1, 2, 3, 4, 5}))
    parts.append(table(f"Most common failure messages (given to at least {MIN_SHARED} students)",
                       ["check", "part", "message", "submissions"], m_rows, numeric={3}))
    write_csv(folder / "checks.csv", ["check", "hidden_tests", "graded", "passed", "failed_visible",
                                      "failed_hidden", "failed_unknown"],
              [[c.check, c.has_hidden, c.graded, c.counts["passed"], c.counts["visible"],
                c.counts["hidden"], c.counts["failed"]] for c in cs])
    write_csv(folder / "check_messages.csv", ["check", "part", "message", "submissions"], m_csv,
              private=True)
    # Scores and times.
    png, rows = score_plot(data)
    scores = [s.score for s in data.submissions.values()]
    mean = sum(scores) / len(scores) if scores else None
    parts += ["<h2>Scores</h2>",
              f'<figure><img src="data:image/png;base64,{png}" alt="Bar chart of the total scores of '
              f'{n_sub} submissions, mean {_num(mean)} of {data.max_score:g}; the numbers are in the '
              f'table below."><figcaption>Score distribution (mean {_num(mean)} of '
              f"{data.max_score:g}).</figcaption></figure>",
              table("Students per score range", ["score", "students"], rows, numeric={1})]
    write_csv(folder / "scores.csv", ["score", "students"], rows)
    png, rows = time_plot(data)
    parts.append("<h2>Submission times</h2>")
    if png:
        parts.append(f'<figure><img src="data:image/png;base64,{png}" alt="Each submission as a mark '
                     f"at its time relative to the deadline ({due}); {len(late)} late; the numbers "
                     'are in the table below."><figcaption>Submissions against the deadline '
                     "(circles on time, squares late).</figcaption></figure>")
    parts.append(table("Submissions per time before or after the deadline", ["when", "submissions"],
                       rows, numeric={1}))
    write_csv(folder / "times.csv", ["when", "submissions"], rows)
    # Questions.
    qs = question_stats(data)
    parts.append("<h2>Self-check questions</h2>")
    if qs:
        parts.append("<p>Recorded in the submitted notebooks (the class records the tries only "
                     "where the instructor turned it on). <em>Right after a hint</em>: right after "
                     "one or more wrong tries (each wrong try shows a hint); <em>gave up</em>: "
                     "showed the answer before getting it right.</p>")
        q_rows = [[q.prompt[:120], q.tried, f"{q.first_try} ({_pct(q.first_try, q.tried)})",
                   f"{q.after_hint} ({_pct(q.after_hint, q.tried)})",
                   f"{q.gave_up} ({_pct(q.gave_up, q.tried)})", q.not_yet,
                   "; ".join(f"{a} ({n})" for a, n in q.wrong_answers)] for q in qs]
        parts.append(table("Per question", ["question", "tried", "right first try", "right after a hint",
                                            "gave up", "not right yet", "most common wrong answers (tries)"],
                           q_rows, numeric={1, 2, 3, 4, 5}))
    else:
        parts.append("<p>No tries recorded (the class does not record them, or nobody tried).</p>")
    write_csv(folder / "questions.csv", ["question", "prompt", "kind", "tried", "first_try", "after_hint",
                                         "gave_up", "not_yet", "wrong_answers"],
              [[q.question, q.prompt, q.kind, q.tried, q.first_try, q.after_hint, q.gave_up, q.not_yet,
                "; ".join(f"{a} ({n})" for a, n in q.wrong_answers)] for q in qs])
    index = folder / "index.html"
    index.write_text(page(f"Class report: {data.name}", "".join(parts)), encoding="utf-8")
    _write_students(data, folder, late)
    return index


def _write_students(data: AssignmentData, folder: Path, late) -> None:
    exercises = list(data.exercises)
    header = ["student", "name", "submitted (UTC)", "late (hours)", "score"] + exercises + ["checks failed"]
    rows = []
    for sid, name in data.students:
        sub = data.submissions.get(sid)
        if sub is None:
            status = "not autograded yet" if sid in data.not_graded else "no submission"
            rows.append([sid, name, status, "", ""] + [""] * len(exercises) + [""])
            continue
        per_ex = []
        for e in exercises:
            values = [sub.cells.get(c) for c in data.exercises[e]]
            per_ex.append("to grade" if any(v is None for v in values) else f"{sum(values):g}")
        failed = [f"{c} ({o.outcome})" for c, o in sub.checks.items() if o.outcome != "passed"]
        rows.append([sid, name, sub.timestamp.strftime("%Y-%m-%d %H:%M") if sub.timestamp else "",
                     f"{sub.seconds_late / 3600:.1f}" if sub.seconds_late > 0 else "",
                     f"{sub.score:g}"] + per_ex + [", ".join(failed)])
    body = ('<p class="note">Instructor and graders only: one row per student of the gradebook. '
            "Do not share this page or students.csv.</p>"
            + table("One row per student", header, rows, numeric=set(range(3, 5 + len(exercises)))))
    path = folder / "students.html"
    path.write_text(page(f"Students: {data.name}", body), encoding="utf-8")
    os.chmod(path, 0o600)
    write_csv(folder / "students.csv", header, rows, private=True)


def write_course_page(datas: list[AssignmentData], folder: Path) -> Path:
    """The whole course: one row per assignment, linking its report."""
    rows = []
    for d in datas:
        scores = [s.score for s in d.submissions.values()]
        mean = sum(scores) / len(scores) if scores else None
        late = sum(1 for s in d.submissions.values() if s.seconds_late > 0)
        rows.append([d.name, len(d.submissions), len(d.missing), late, _num(mean), f"{d.max_score:g}"])
    links = "".join(f'<li><a href="{_e(d.name)}/index.html">{_e(d.name)}</a></li>' for d in datas)
    body = (table("Assignments", ["assignment", "submissions", "no submission", "late", "mean score",
                                  "points"], rows, numeric={1, 2, 3, 4, 5})
            + f"<h2>Reports</h2><ul>{links}</ul>")
    path = Path(folder) / "index.html"
    path.write_text(page("Class report: the course", body), encoding="utf-8")
    write_csv(Path(folder) / "assignments.csv", ["assignment", "submissions", "no_submission", "late",
                                                 "mean", "points"], rows)
    return path


__all__ = ["exercise_of", "write_course_page", "write_pages"]


def _give_to_owner(folder: Path, course_root: Path) -> None:
    """Run as root, the report still belongs to the instructor who owns the course."""
    import os

    if os.geteuid() != 0:
        return
    owner = Path(course_root).stat()
    for path in [folder, *Path(folder).rglob("*")]:
        os.chown(path, owner.st_uid, owner.st_gid)


def write_report(course_root: Path, assignment: str, out: Path | None = None,
                 gradebook_url: str | None = None) -> Path:
    """Read ``assignment`` and write its report folder; returns the class page."""
    data = read_assignment(Path(course_root), assignment, gradebook_url)
    folder = Path(out) if out else Path(course_root) / "reports" / assignment
    index = write_pages(data, folder)
    _give_to_owner(folder.parent if out is None else folder, course_root)
    return index


def write_all(course_root: Path, out: Path | None = None, gradebook_url: str | None = None) -> Path:
    """A report for every assignment of the gradebook, and a course page linking them."""
    from nbgrader.api import Gradebook

    course_root = Path(course_root)
    url = gradebook_url or f"sqlite:///{course_root / 'gradebook.db'}"
    with Gradebook(url) as gb:
        names = sorted(a.name for a in gb.assignments)
    folder = Path(out) if out else course_root / "reports"
    datas = [read_assignment(course_root, n, gradebook_url) for n in names]
    for data in datas:
        write_pages(data, folder / data.name)
    index = write_course_page(datas, folder)
    _give_to_owner(folder, course_root)
    return index
