"""Read grades from nbgrader's gradebook and write them as Canvas or Moodle import them.

One row per student of the gradebook; columns per exercise (every graded cell:
``03-general-position ex2-check``) followed by the assignment's total, or per assignment
only. A student without a submission gets empty cells (both platforms leave the grade
untouched); the column mapping is documented in ``docs/classroom.md``.

Example
-------
>>> column_name("03-general-position", "ex2-check")
'03-general-position ex2-check'
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from coursetools.classroom.settings import ClassSettings
from coursetools.shared.common import CourseToolsError

FORMATS = ("canvas", "moodle")
CANVAS_ID_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_ID_COLUMNS = ["ID number", "First name", "Last name", "Email address"]


def column_name(assignment: str, cell: str | None = None) -> str:
    return f"{assignment} {cell}" if cell else f"{assignment} total"


@dataclass
class StudentGrades:
    id: str
    first_name: str
    last_name: str
    email: str
    scores: dict[str, float] = field(default_factory=dict)  # column -> points
    seconds_late: dict[str, float] = field(default_factory=dict)  # assignment -> seconds


def read_gradebook(
    settings: ClassSettings, per: str = "exercise"
) -> tuple[dict[str, float], list[StudentGrades]]:
    """(column -> points possible, per-student grades), in assignment and cell order."""
    from nbgrader.api import Gradebook, MissingEntry

    if per not in ("exercise", "assignment"):
        raise CourseToolsError(f"per must be 'exercise' or 'assignment', got {per!r}")
    if not settings.gradebook_db_url and not (settings.course_root / "gradebook.db").is_file():
        raise CourseToolsError(f"no gradebook in {settings.course_root}: import a roster, then autograde")
    possible: dict[str, float] = {}
    rows: list[StudentGrades] = []
    with Gradebook(settings.gradebook_url) as gb:
        assignments = sorted(gb.assignments, key=lambda a: a.name)
        for a in assignments:
            if per == "exercise":
                for nb in sorted(a.notebooks, key=lambda n: n.name):
                    order = _source_order(settings, a.name, nb.name)
                    for cell in sorted(nb.grade_cells, key=lambda c: (order.get(c.name, 10**6), c.name)):
                        possible[column_name(a.name, cell.name)] = float(cell.max_score)
            possible[column_name(a.name)] = float(a.max_score)
        for s in sorted(gb.students, key=lambda s: s.id):
            row = StudentGrades(s.id, s.first_name or "", s.last_name or "", s.email or "")
            for a in assignments:
                try:
                    sub = gb.find_submission(a.name, s.id)
                except MissingEntry:
                    continue
                row.seconds_late[a.name] = float(sub.total_seconds_late or 0)
                row.scores[column_name(a.name)] = float(sub.score) - float(sub.late_submission_penalty or 0)
                if per == "exercise":
                    for nb in sub.notebooks:
                        for grade in nb.grades:
                            if grade.max_score:
                                row.scores[column_name(a.name, grade.name)] = float(grade.score)
            rows.append(row)
    return possible, rows


def _source_order(settings: ClassSettings, assignment: str, notebook: str) -> dict[str, int]:
    """grade_id -> cell index in the source notebook (the gradebook stores no order)."""
    path = settings.course_root / "source" / assignment / f"{notebook}.ipynb"
    if not path.is_file():
        return {}
    nb = nbformat.read(path, as_version=4)
    return {c.metadata.get("nbgrader", {}).get("grade_id"): i for i, c in enumerate(nb.cells)}


#: A cell starting with one of these is a formula to Excel, LibreOffice and Sheets.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """A name or address as a spreadsheet shows it, never as a formula (OWASP's rule).

    >>> text_cell("=HYPERLINK(1)"), text_cell("Ada")
    ("'=HYPERLINK(1)", 'Ada')
    """
    return "'" + value if value.startswith(FORMULA_START) else value


def _fmt(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value:g}"


def write_grades(settings: ClassSettings, out: Path, fmt: str, per: str = "exercise") -> Path:
    """Write the gradebook as a CSV for ``fmt`` ('canvas' or 'moodle')."""
    if fmt not in FORMATS:
        raise CourseToolsError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    possible, rows = read_gradebook(settings, per)
    columns = list(possible)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        if fmt == "canvas":
            w.writerow(CANVAS_ID_COLUMNS + [text_cell(c) for c in columns])
            w.writerow(["Points Possible", "", "", "", ""] + [_fmt(possible[c]) for c in columns])
            for r in rows:
                w.writerow([text_cell(f"{r.last_name}, {r.first_name}"), "", text_cell(r.id),
                            text_cell(r.email), ""]
                           + [_fmt(r.scores.get(c)) for c in columns])
        else:
            w.writerow(MOODLE_ID_COLUMNS + [text_cell(c) for c in columns])
            for r in rows:
                w.writerow([text_cell(v) for v in (r.id, r.first_name, r.last_name, r.email)]
                           + [_fmt(r.scores.get(c)) for c in columns])
    return out


@dataclass(frozen=True)
class EditedCell:
    student: str
    notebook: str
    cell: str
    #: Set when the submission could not be read: then ``cell`` is empty.
    problem: str = ""


def edited_checks(settings: ClassSettings, assignment: str) -> list[EditedCell]:
    """Locked cells (the checks) whose content differs from the release, per submission.

    Compares each collected notebook's locked cells with the checksums nbgrader wrote
    into the released notebook (the gradebook's checksums are taken before the hidden
    tests are removed, so they never match a student's copy). Autograde restores such
    cells before running them, so an edited check earns nothing; this lists who tried.
    """
    submitted = settings.course_root / "submitted"
    released = settings.course_root / "release" / assignment
    if not released.is_dir():
        raise CourseToolsError(f"no release of {assignment!r} in {released}: release it first")
    sources = {}
    for path in sorted(released.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("locked") and "checksum" in meta:
                sources[(path.stem, meta["grade_id"])] = meta["checksum"]
    found: list[EditedCell] = []
    for folder in sorted(submitted.glob(f"*/{assignment}")):
        student = folder.parent.name
        for path in sorted(folder.glob("*.ipynb")):
            try:
                found += _edited_in(nbformat.read(path, as_version=4), path.stem, student, sources)
            except Exception as exc:  # noqa: BLE001 - any corruption: report it, carry on
                found.append(EditedCell(student, path.stem, "", f"unreadable ({type(exc).__name__})"))
    return found


def _edited_in(nb, stem: str, student: str, sources: dict) -> list[EditedCell]:
    from nbgrader.utils import compute_checksum

    found, present = [], set()
    for cell in nb.cells:
        name = cell.metadata.get("nbgrader", {}).get("grade_id")
        key = (stem, name)
        if key in sources:
            present.add(key)
            if compute_checksum(cell) != sources[key]:
                found.append(EditedCell(student, stem, name))
    for key in sorted(set(k for k in sources if k[0] == stem) - present):
        found.append(EditedCell(student, stem, f"{key[1]} (deleted)"))
    return found
