"""The work budget every trainer keeps to: it stops, says so, and returns what it has.

A trainer's work is counted in multiply-adds on the data: one presentation of a pattern
of ``N`` numbers is ``N`` of them, one pass of the perceptron over ``P`` patterns is
``P N``, a pocket's check of a weight vector on the training set is ``P N`` too.
Counting work, not seconds, keeps every result deterministic: the same call stops at
the same update on any machine, however busy.

:data:`MAX_WORK`, the default, is far beyond any lesson (a lesson's runs are below
``10**8``) and takes seconds, not minutes: about 5 s for the compiled perceptron loop on
one core, at roughly ``2 * 10**9`` multiply-adds a second.
"""

from __future__ import annotations

import sys
import warnings

from perclib._validation import as_count

#: Default work budget of every trainer, in multiply-adds (see the module docstring).
MAX_WORK = 10**10


class WorkBudgetWarning(RuntimeWarning):
    """A trainer stopped because its work budget (``max_work``) was spent."""


def as_budget(max_work: object) -> int | None:
    """``max_work`` checked: a count >= 1, or None for no limit.

    Examples
    --------
    >>> as_budget(10**6), as_budget(None)
    (1000000, None)
    """
    return None if max_work is None else as_count(max_work, "max_work", 1)


def allowed(max_work: int | None, per_step: int, wanted: int) -> int:
    """How many of ``wanted`` steps of ``per_step`` work fit in the budget (at least one).

    Examples
    --------
    >>> allowed(100, 30, 10), allowed(None, 30, 10), allowed(10, 30, 10)
    (3, 10, 1)
    """
    if max_work is None:
        return wanted
    return max(1, min(wanted, max_work // max(per_step, 1)))


def warn_spent(what: str, done: str, max_work: int) -> None:
    """The warning a trainer gives when its budget stops it, at its caller's line."""
    level, frame = 2, sys._getframe(1)  # stacklevel 2: the frame that called this
    while frame is not None and frame.f_globals.get("__name__", "").startswith("perclib."):
        level, frame = level + 1, frame.f_back
    warnings.warn(
        f"{what} stopped after {done}: its work budget max_work={max_work:.3g} multiply-adds "
        "is spent, so the result is what it had by then (converged=False, "
        "out_of_budget=True); pass a larger max_work, or max_work=None for no limit",
        WorkBudgetWarning,
        stacklevel=level,
    )
