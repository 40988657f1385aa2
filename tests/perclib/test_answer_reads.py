"""A check says, in the kernel, that an answer reads the lesson's data.

At grading the answer cell runs alone, with the lesson's imports and functions but not
its data cells (perclib.graded). ``without`` (which every exercise check opens) notes
each notebook function the check uses that reads a variable set in another cell, once.
Run in an IPython shell, as in a kernel: cells are files IPython keeps in linecache.
"""

from __future__ import annotations

from test_guard_tamper import _run

SETUP = "import numpy as np\nfrom perclib.checking import without"
DATA = "X = np.arange(3.0)\nscale = 2\nlimit = 5"
ANSWER = (
    "TOL = 1e-9\n"
    "def reads_data(a):\n    return a * scale + X.sum()\n"
    "def clean(a, b=1, limit=3):\n    total = np.sum(a) * b + TOL\n    return min(total, limit)\n"
    "def reads_one(a):\n    return [v for v in a if v < limit]\n"
)
CHECK = "with without('is_separable'):\n    reads_data(1), clean(2)"
HELPER_CHECK = (
    "def check_it():\n    with without('is_separable'):\n        return reads_one([1, 9])\n"
    "check_it()"
)


def test_a_check_notes_lesson_data_once_and_only_that() -> None:
    outcomes = _run([SETUP, DATA, ANSWER, CHECK, CHECK, HELPER_CHECK])
    assert all(kind == "ok" for kind, _ in outcomes), outcomes
    first, again, helper = (text for _, text in outcomes[3:])
    # X and scale are the lesson's data; TOL is set in the answer's own cell, np is a
    # module, limit is an argument of clean: none of those is noted.
    assert first.startswith("Note: `reads_data` reads `X`, `scale`, set in another cell"), first
    assert "they do not exist there" in first and "TOL" not in first
    assert "clean" not in first and "reads_one" not in first  # not used by this check
    assert again == "", again  # said once
    # The check's helper (defined in the check cell) is not noted; the answer it calls is.
    assert helper.startswith("Note: `reads_one` reads `limit`,"), helper
    assert "it does not exist there" in helper and "check_it" not in helper


def test_no_note_outside_a_notebook() -> None:
    """Plain Python (no cell source in linecache for __main__'s functions): silence."""
    outcomes = _run([SETUP, DATA, "f = eval('lambda a: a + scale')",
                     "with without('is_separable'):\n    f(1)"])
    assert outcomes[-1] == ["ok", ""], outcomes
