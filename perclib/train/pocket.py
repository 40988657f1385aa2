"""The pocket algorithm (Gallant, 1990): keep the best weights seen in your pocket.

On data that are not linearly separable the perceptron never stops and its last
weights can be poor: one more mistake moves them. The pocket algorithm runs the
perceptron with patterns in random order and keeps a copy of good weights aside.

Three rules decide when the current weights replace the pocket:

* ``ratchet=False``: Gallant's pocket without ratchet. The current weights replace
  the pocket when their run of consecutive correct classifications is longer than
  the pocket's. No pass over the data, but the pocket can get worse.
* ``ratchet=True`` (the default): Gallant's pocket *with ratchet*. As above, and in
  addition the current weights must make strictly fewer errors on the whole
  training set than the pocket. The pocket's training error never increases.
* ``best_seen=True``: a stronger ratchet that is not Gallant's. Every weight vector
  of the run is tested on the whole training set, whatever its run, and replaces
  the pocket if it makes strictly fewer errors: the pocket holds the first of the
  best weights the run produced.

A pocket's run is counted as long as its weights stay the current ones: weights that
enter the pocket and keep classifying correctly lengthen the pocket's run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._exact import exact_margin_signs
from perclib._validation import as_count
from perclib.train._budget import MAX_WORK, as_budget, warn_spent
from perclib.train._timing import lifetimes, timed_perceptron
from perclib.train.perceptron import PerceptronResult

# Trace rows checked against the training set at a time.
_CHUNK = 2048


@dataclass(frozen=True, eq=False)
class PocketResult:
    """The pocket weights and the run they were picked from.

    Attributes
    ----------
    w : ndarray, shape (N,)
        The pocket weights.
    errors : int
        Their training errors: patterns with ``y (w.x) <= 0``.
    index : int
        Which weight vector of the trace they are (``run.weights[index]``).
    trace_errors : ndarray of int, shape (n_updates + 1,)
        Training errors of every weight vector of the trace, computed when first asked
        for (``(n_updates + 1) P N`` multiply-adds, outside the budget: the pocket itself
        checks only the weights that could enter it).
    run : PerceptronResult
        The underlying perceptron run (random order, from ``w = 0``).
    out_of_budget : bool
        True when the work budget (``max_work``) stopped the run or the pocket's checks:
        the pocket is then the one held when the budget ran out, after update
        ``considered - 1``.
    considered : int
        Weight vectors of the trace the pocket chose from (``n_updates + 1`` unless the
        budget ran out).
    """

    w: NDArray[np.float64]
    errors: int
    index: int
    run: PerceptronResult
    out_of_budget: bool = False
    considered: int = 0
    _known: dict[int, int] = field(default_factory=dict, repr=False)

    @cached_property
    def trace_errors(self) -> NDArray[np.int64]:
        """Training errors of every weight vector of the trace (see the class docstring)."""
        return _trace_errors(self.run)

    def __repr__(self) -> str:
        return (
            f"PocketResult({self.errors} training error(s), weights after update {self.index} "
            f"of {self.run.n_updates}, w={np.array2string(self.w, precision=4)})"
        )


def _training_errors(
    W: NDArray[np.float64], X: NDArray[np.float64], y: NDArray[np.float64]
) -> NDArray[np.int64]:
    """Mistakes ``y (w.x) <= 0`` of each row ``w`` of ``W`` on the training set.

    Decided exactly (a pattern on the hyperplane is a mistake however the dot
    product rounds), and safely at any scale: see :func:`perclib._exact.exact_margin_signs`.
    """
    out = np.empty(W.shape[0], dtype=np.int64)
    for start in range(0, W.shape[0], _CHUNK):
        block = W[start : start + _CHUNK]
        out[start : start + _CHUNK] = np.count_nonzero(exact_margin_signs(X, y, block) <= 0, axis=1)
    return out


def _trace_errors(run: PerceptronResult) -> NDArray[np.int64]:
    """:func:`_training_errors` of every weight vector of the run, a chunk at a time."""
    return np.concatenate(
        [_training_errors(W, run.X, run.y) for _, W in run._chunks(rows=_CHUNK)]
    )


def pocket(
    X: ArrayLike,
    y: ArrayLike,
    *,
    ratchet: bool = True,
    best_seen: bool = False,
    max_epochs: int = 100,
    rng: object = None,
    max_work: int | None = MAX_WORK,
) -> PocketResult:
    """The pocket algorithm: Gallant's, with or without ratchet, or best-seen.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row (use :func:`perclib.augment` for a threshold).
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    ratchet : bool, default True
        Gallant's ratchet: the current weights replace the pocket only if their
        run of consecutive correct classifications is longer than the pocket's
        *and* they make strictly fewer training errors. ``False``: the longer run
        alone decides (Gallant's pocket without ratchet).
    best_seen : bool, default False
        Ignore the runs: keep the first weight vector of the run with the fewest
        training errors (stronger and costlier than Gallant's ratchet; needs
        ``ratchet=True``).
    max_epochs : int, default 100
        Passes through the data; the run stops earlier only if an epoch is clean
        (then the pocket holds those weights, which make no error).
    rng : seed or Generator, optional
        Draws the presentation order of each epoch.
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds. The perceptron run gets at most half of it (an
        epoch costs ``P N``); checking a weight vector on the training set costs
        ``P N``, and the pocket checks, in the order of the run, only the weights that
        could enter it (every one with ``best_seen=True``). When the budget runs out
        the pocket is the one held at that moment, as if the run had stopped there:
        ``out_of_budget=True``, and a :class:`perclib.train.WorkBudgetWarning`. None:
        no limit but ``max_epochs``.

    Returns
    -------
    PocketResult

    Examples
    --------
    >>> X = [[1.0, 0.1], [1.0, -0.1], [1.0, 0.2], [-1.0, 0.0]]
    >>> res = pocket(X, [1, 1, 1, 1], max_epochs=20, rng=0)   # the last pattern is "noise"
    >>> res.errors, res.run.converged
    (1, False)
    >>> pocket(X, [1, 1, 1, 1], best_seen=True, max_epochs=20, rng=0).errors
    1
    """
    if not isinstance(ratchet, bool | np.bool_):
        raise TypeError(f"ratchet must be True or False, got {ratchet!r}")
    if not isinstance(best_seen, bool | np.bool_):
        raise TypeError(f"best_seen must be True or False, got {best_seen!r}")
    if best_seen and not ratchet:
        raise ValueError("best_seen=True is a ratchet; it cannot be combined with ratchet=False")
    max_epochs = as_count(max_epochs, "max_epochs", 1)
    max_work = as_budget(max_work)
    run, times = timed_perceptron(
        X, y, max_epochs=max_epochs, order="random", rng=rng,
        max_work=None if max_work is None else max(1, max_work // 2), name="pocket",
    )
    P, N = run.X.shape
    n = run.n_updates + 1
    spent_run = run.epochs * P * N
    checks = None if max_work is None else max(1, (max_work - spent_run) // max(P * N, 1))
    cursor = _TraceCursor(run, checks)
    if run.converged:
        k = n - 1  # the final weights make no error and would be kept forever
        cursor.check(np.array([k]))
    elif best_seen:
        cursor.check(np.arange(n))
        k = min(cursor.known, key=lambda j: (cursor.known[j], j))  # the first of the fewest
    else:
        # Consecutive correct classifications: the lifetime minus the presentation
        # that created the vector (w0 was not created by one).
        runs = lifetimes(times, run.epochs * P)
        runs[1:] -= 1
        if not ratchet:
            k = int(np.argmax(runs))  # a longer run replaces the pocket, a tie does not
            cursor.check(np.array([k]))
        else:
            k = _gallant_ratchet_lazy(runs, cursor)
    out_of_budget = run.out_of_budget or cursor.short
    if cursor.short:
        warn_spent("pocket", f"checking {len(cursor.known)} weight vector(s) of {n}", max_work)
    return PocketResult(
        w=run.trace(k, k + 1)[0], errors=cursor.known[k], index=k, run=run,
        out_of_budget=out_of_budget, considered=cursor.considered if cursor.short else n,
        _known=cursor.known,
    )


class _TraceCursor:
    """Training errors of chosen weight vectors of a run's trace, in increasing order.

    The trace is rebuilt a block at a time, once, front to back; the rows asked for
    are checked together (one matrix product per block). At most ``checks`` rows are
    checked (None: no limit); asking for more checks the first ones and sets
    ``short``, with ``considered`` the first row left unchecked.
    """

    def __init__(self, run: PerceptronResult, checks: int | None) -> None:
        self.blocks = run._chunks(rows=_CHUNK)
        self.first, self.W = 0, np.zeros((0, run.w0.size))
        self.run, self.left = run, checks
        self.known: dict[int, int] = {}
        self.short, self.considered = False, 0

    def check(self, which: NDArray[np.int64]) -> bool:
        """Check the rows ``which`` (increasing, beyond those checked); False if cut short."""
        if self.left is not None and which.size > self.left:
            self.short, self.considered = True, int(which[self.left])
            which = which[: self.left]
        if self.left is not None:
            self.left -= which.size
        done = 0
        while done < which.size:
            end = self.first + self.W.shape[0]
            if which[done] >= end:
                self.first, self.W = next(self.blocks)
                continue
            rows = which[done:][which[done:] < end]
            errors = _training_errors(self.W[rows - self.first], self.run.X, self.run.y)
            self.known.update(zip(rows.tolist(), errors.tolist(), strict=True))
            done += rows.size
        return not self.short


def _gallant_ratchet_lazy(runs: NDArray[np.int64], cursor: _TraceCursor, batch: int = 64) -> int:
    """Which weight vector Gallant's pocket with ratchet holds at the end.

    Weight vector ``j`` classifies ``runs[j]`` presentations correctly in a row. Its
    run passes the pocket's at some moment if ``runs[j]`` is longer; it then enters
    the pocket if it also makes fewer training errors, and its run (which the pocket
    keeps counting) ends at ``runs[j]``. So only the weights whose run beats the
    pocket's need their errors checked: a batch of the next ones (under the current
    pocket, whose run only grows) is checked at once, then the ratchet replays them
    one by one. Stops early, with the pocket held then, if the cursor's checks run out.
    """
    if not cursor.check(np.array([0])):
        return 0
    k, j, n = 0, 1, runs.size
    while j < n:
        nxt = j + np.flatnonzero(runs[j:] > runs[k])[:batch]
        if nxt.size == 0:
            break
        complete = cursor.check(nxt)
        for i in nxt.tolist():
            if i not in cursor.known:
                break
            if runs[i] > runs[k] and cursor.known[i] < cursor.known[k]:
                k = i
        if not complete:
            break
        j = int(nxt[-1]) + 1
    return k
