"""What each check cell of an autograded notebook says: passed, or where and why it failed.

nbgrader's autograde runs every check cell with its hidden tests put back (the cell in
``autograded/STUDENT/ASSIGNMENT/`` holds the full source, ``### BEGIN HIDDEN TESTS`` to
``### END HIDDEN TESTS`` included) and keeps a failing cell's error output: the
exception's name, its message and IPython's traceback. A cell stops at its first
failing assert, so a check has one of four outcomes:

* ``passed``: no error output;
* ``visible``: it failed in the part the student saw (and could run before submitting);
* ``hidden``: the visible part passed and a hidden test failed;
* ``failed``: it failed, but where cannot be told (no traceback frame in this cell: a
  timeout, a dead kernel, an older IPython's format).

Where is read from the traceback's outermost frame *in this cell*: IPython names it
``Cell In[N], line L`` (``N`` is the cell's execution count, ``L`` the line of the
top-level statement that was running). The line is looked up in the cell's own source,
the one that ran, so no check needs to be written in a special way: a helper function
defined above the hidden block and called from inside it counts as hidden, because the
top-level statement that failed is the call inside the block.

Messages are grouped by their first line with numbers replaced by ``#`` (``shape (5, 2),
not (3,)`` and ``shape (8, 2), not (4,)`` teach the same thing); the most frequent exact
wording is shown for the group.

Example
-------
>>> hidden_lines("a = 1\\n### BEGIN HIDDEN TESTS\\nassert a\\n### END HIDDEN TESTS\\n")
{3}
>>> message_key("AssertionError: fewest_dichotomies(5): shape (5, 2), not (3,)")
'AssertionError: fewest_dichotomies(#): shape (#, #), not (#,)'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BEGIN_HIDDEN = "BEGIN HIDDEN TESTS"
END_HIDDEN = "END HIDDEN TESTS"
OUTCOMES = ("passed", "visible", "hidden", "failed")
#: Longest message kept (a student's own exception may carry anything).
MAX_MESSAGE = 240

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# IPython >= 8: "Cell In[12], line 5"; older: "<ipython-input-12-abc123> in <module>" then "----> 5".
_FRAME_NEW = re.compile(r"Cell In\s*\[(\d+)\],\s*line (\d+)")
_FRAME_OLD = re.compile(r"<ipython-input-(\d+)-[0-9a-f]+> in <module>.*?^-+>\s*(\d+)", re.S | re.M)
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?", re.I)


@dataclass(frozen=True)
class CheckOutcome:
    """One check cell of one submission."""

    outcome: str  # one of OUTCOMES
    message: str = ""  # "AssertionError: ..." (first line), empty when passed


def hidden_lines(source: str) -> set[int]:
    """1-based numbers of the lines between the hidden-test delimiters (delimiters excluded)."""
    inside, found = False, set()
    for number, line in enumerate(source.splitlines(), start=1):
        if BEGIN_HIDDEN in line:
            inside = True
        elif END_HIDDEN in line:
            inside = False
        elif inside:
            found.add(number)
    return found


def message_key(message: str) -> str:
    """The group a failure message belongs to: numbers replaced by ``#``."""
    return _NUMBER.sub("#", message)


def first_line(ename: str, evalue: str) -> str:
    """``Name: first line of the message``, cut to :data:`MAX_MESSAGE` characters."""
    text = (evalue or "").strip().splitlines()
    line = f"{ename}: {text[0]}" if text else ename
    return line if len(line) <= MAX_MESSAGE else line[: MAX_MESSAGE - 1] + "…"


def failing_line(traceback: list[str], execution_count: int | None) -> int | None:
    """The line of this cell's top-level statement in the traceback, or None."""
    text = _ANSI.sub("", "\n".join(traceback or []))
    for pattern in (_FRAME_NEW, _FRAME_OLD):
        for match in pattern.finditer(text):
            if execution_count is None or int(match.group(1)) == execution_count:
                return int(match.group(2))
    return None


def check_outcome(cell) -> CheckOutcome:
    """The outcome of one autograded check cell (an nbformat code cell)."""
    errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
    if not errors:
        return CheckOutcome("passed")
    error = errors[0]
    message = first_line(error.get("ename", "Error"), error.get("evalue", ""))
    line = failing_line(error.get("traceback", []), cell.get("execution_count"))
    if line is None:
        return CheckOutcome("failed", message)
    return CheckOutcome("hidden" if line in hidden_lines(cell.source) else "visible", message)


def is_check_cell(cell) -> bool:
    """An autograded test cell: graded, code, not a solution (nbgrader's "autograder tests")."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return cell.get("cell_type") == "code" and bool(meta.get("grade")) and not meta.get("solution")


def notebook_outcomes(nb) -> dict[str, CheckOutcome]:
    """grade_id -> outcome for every check cell of an autograded notebook."""
    return {cell.metadata["nbgrader"]["grade_id"]: check_outcome(cell)
            for cell in nb.cells if is_check_cell(cell)}


def has_hidden_tests(nb) -> dict[str, bool]:
    """grade_id -> whether the check cell holds hidden tests (read from the source notebook)."""
    return {cell.metadata["nbgrader"]["grade_id"]: BEGIN_HIDDEN in cell.source
            for cell in nb.cells if is_check_cell(cell)}
