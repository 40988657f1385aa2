"""Autograde's check for edited cells, comparing with what the student was given.

nbgrader stores each locked cell in the gradebook (with its checksum) *before* it
removes the hidden tests for the release (``GenerateAssignment``: ``ComputeChecksums``,
``SaveCells``, then ``ClearHiddenTests``). At autograde its ``OverwriteCells`` compares
the student's cell with that stored checksum, so every check cell that holds hidden tests
differs even when nobody touched it, and nbgrader warns "Attribute 'checksum' for cell
... has changed" on every submission. ``ReleasedOverwriteCells`` first compares the
student's cell with the stored source *as released* (hidden tests removed by nbgrader's
own ``ClearHiddenTests``, with the course's delimiters); when they agree it restores the
hidden tests quietly, and nbgrader's comparison then finds nothing. An edited check
still differs, is still reported and is still replaced by the original.

It also refuses to grade a submission whose folder holds a symbolic link (nbgrader's
autograde would copy the file it points to, read as the instructor): collect already
refuses such submissions; this covers a folder put in ``submitted/`` by hand.

The instructor's ``nbgrader_config.py`` (written by ``setup``) puts it in place of
``OverwriteCells`` in ``Autograde.sanitize_preprocessors``.

Example
-------
>>> released_source("x = 1\\n### BEGIN HIDDEN TESTS\\nassert x\\n### END HIDDEN TESTS")
'x = 1'
"""

from __future__ import annotations

import os

from nbformat.notebooknode import NotebookNode
from nbgrader.api import MissingEntry
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests, OverwriteCells
from traitlets.config import Config

#: ``Autograde.sanitize_preprocessors``: nbgrader's list with this one in its place.
SANITIZE = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.DeduplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "coursetools.classroom.autograde.ReleasedOverwriteCells",
    "coursetools.classroom.report_options.StudentKey",  # own numbers: the graded student's key
    "nbgrader.preprocessors.CheckCellMetadata",
]
#: Makes a student's HTML passive (``coursetools.classroom.student_html``).
NEUTRALISE = "coursetools.classroom.student_html.NeutraliseStudentHTML"
#: Alt text on every figure of an HTML page (``coursetools.classroom.alt_text``).
ALT_TEXT = "coursetools.classroom.alt_text.FigureAltText"
#: ``Autograde.autograde_preprocessors``: nbgrader's list with the graded checks after
#: Execute (each check that passed in the kernel runs again out of the answer's reach,
#: ``coursetools.classroom.graded``), then the student's HTML made passive, so that the
#: stored autograded notebook (formgrader, feedback) carries none.
AUTOGRADE = [
    "nbgrader.preprocessors.Execute",
    "coursetools.classroom.graded.GradedChecks",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
    NEUTRALISE,
]


def add_submissions_without_autoflush() -> None:
    """Stop nbgrader's "... not in session, add operation along ... will not proceed".

    ``Gradebook.add_submission`` builds a submission with its notebooks, grades and
    comments, reading ``assignment.notebooks`` and ``notebook.grade_cells`` on the way,
    and only then adds it to the session. Each of those reads makes SQLAlchemy 2 flush
    the session first, which finds the new, not yet added objects hanging from loaded
    ones and warns three times per submission; nothing is lost (the final add saves
    them all). Building it with autoflush off, as SQLAlchemy advises, is the same
    transaction without the warnings. The instructor's ``nbgrader_config.py`` calls this.
    """
    from nbgrader.api import Gradebook

    original = Gradebook.add_submission
    if getattr(original, "without_autoflush", False):
        return

    def add_submission(self, assignment, student, **kwargs):
        with self.db.no_autoflush:
            return original(self, assignment, student, **kwargs)

    add_submission.without_autoflush = True
    add_submission.__doc__ = original.__doc__
    Gradebook.add_submission = add_submission


def released_source(source: str, config: Config | None = None) -> str:
    """``source`` as the release shows it: nbgrader's hidden-test regions removed."""
    cell = NotebookNode(cell_type="code", source=source, metadata={})
    ClearHiddenTests(config=config or Config())._remove_hidden_test_region(cell)
    return cell.source


class ReleasedOverwriteCells(OverwriteCells):
    """nbgrader's ``OverwriteCells``, silent on a locked cell left as it was released."""

    def preprocess(self, nb, resources):  # noqa: D102 - nbgrader's, after the link check
        info = resources.get("nbgrader", {})
        if "student" in info:
            coursedir = CourseDirectory(config=self.config)
            folder = coursedir.format_path(coursedir.submitted_directory, info["student"],
                                           info["assignment"])
            for root, dirs, files in os.walk(folder):
                for name in dirs + files:
                    path = os.path.join(root, name)
                    if os.path.islink(path):
                        raise RuntimeError(f"refusing to grade {folder}: {path} is a symbolic link")
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, cell_index):  # noqa: D102 - nbgrader's
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None:
            try:
                source = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except MissingEntry:
                source = None  # nbgrader's own step reports it
            if (source is not None and source.locked and cell.cell_type == source.cell_type
                    and cell.source == released_source(source.source, self.config)):
                cell.source = source.source  # what the student had, plus the hidden tests
        return super().preprocess_cell(cell, resources, cell_index)
