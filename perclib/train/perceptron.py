"""The classical perceptron algorithm with a complete, inspectable trace.

The rule: present patterns in order; whenever ``y (w.x) <= 0`` (a mistake, ties
included, otherwise a perceptron started at ``w = 0`` never moves) update
``w <- w + eta * y * x``; stop after an epoch without a mistake, or at
``max_epochs`` and report that it did not converge.

Speed: a per-pattern Python loop is far slower than compiled code. Instead the
search for the next mistake is vectorised: margins of a block of upcoming patterns
are computed in one matrix product with the current ``w``; the first non-positive
one is the next update. Blocks grow while no mistake is found, so a clean epoch
costs about one pass of BLAS; after a mistake the search starts about as far as
mistakes have recently been apart. An epoch over a large data set is bound by
reading X from memory: from the fourth epoch on, a float32 copy (half the traffic)
proves most margins positive with a rigorous rounding bound, and only the rows it
cannot vouch for are computed in float64 (see :class:`_Screen`). The result is the
same sequence of updates as the pattern-by-pattern loop, bit for bit
(``benchmarks/bench_perceptron.py`` compares it with scikit-learn's compiled one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import (
    as_count,
    as_labels,
    as_patterns,
    as_positive_float,
    as_rng,
    as_weights,
)

_FIRST_BLOCK = 32
_MAX_BLOCK = 8192


class _Rows(Protocol):
    """Anything whose item ``i`` is a vector (an array's rows, or unit vectors)."""

    def __getitem__(self, i: int) -> NDArray[np.float64]: ...


@dataclass(frozen=True, eq=False)
class PerceptronResult:
    """What a perceptron run did, update by update.

    Attributes
    ----------
    w : ndarray, shape (N,)
        Final weights.
    converged : bool
        True when the last epoch made no mistake (every ``y (w.x) > 0``).
    epochs : int
        Epochs run, the final clean one included.
    indices : ndarray of int, shape (n_updates,)
        The pattern behind each update, in order.
    mistakes_per_epoch : ndarray of int, shape (epochs,)
    eta : float
        Learning rate used.
    w0 : ndarray, shape (N,)
        Starting weights.
    weights : ndarray, shape (n_updates + 1, N)
        Weights after each update, the start included (``weights[0] == w0``,
        ``weights[-1] == w``). Rebuilt on demand from the updates, with the same
        floating-point operations in the same order as the run itself.
    """

    w: NDArray[np.float64]
    converged: bool
    epochs: int
    indices: NDArray[np.int64]
    mistakes_per_epoch: NDArray[np.int64]
    eta: float
    w0: NDArray[np.float64]
    _X: NDArray[np.float64] = field(repr=False)
    _y: NDArray[np.float64] = field(repr=False)

    @property
    def X(self) -> NDArray[np.float64]:
        """The patterns the run was trained on (validated float64 copy)."""
        return self._X

    @property
    def y(self) -> NDArray[np.float64]:
        """The labels the run was trained on."""
        return self._y

    @property
    def n_updates(self) -> int:
        """Number of updates (mistakes) made in the whole run."""
        return int(self.indices.size)

    @cached_property
    def weights(self) -> NDArray[np.float64]:
        steps = (self.eta * self._y[self.indices])[:, None] * self._X[self.indices]
        # cumsum adds left to right, exactly like the run's w = w + step.
        return np.cumsum(np.vstack([self.w0[None, :], steps]), axis=0)

    def __repr__(self) -> str:
        state = "converged" if self.converged else "did NOT converge"
        return (
            f"PerceptronResult({state} after {self.epochs} epoch(s), "
            f"{self.n_updates} update(s), w={np.array2string(self.w, precision=4)})"
        )


def perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    eta: float = 1.0,
    w0: ArrayLike | None = None,
    max_epochs: int = 1000,
    order: str = "cyclic",
    rng: object = None,
) -> PerceptronResult:
    """Train the classical perceptron (no threshold; use :func:`augment` for one).

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    eta : float, default 1
        Learning rate (> 0). From ``w0 = 0`` it only rescales every weight vector, so
        it changes nothing about which mistakes are made.
    w0 : array_like, shape (N,), optional
        Starting weights; zeros by default.
    max_epochs : int, default 1000
        Upper limit on passes through the data. Non-separable data stop here with
        ``converged=False``; the function never loops forever.
    order : {"cyclic", "random"}
        Present patterns 0..P-1 every epoch, or in a fresh seeded permutation each epoch.
    rng : seed or Generator, optional
        Used only with ``order="random"``.

    Returns
    -------
    PerceptronResult

    Examples
    --------
    >>> X = [[1.0, 0.0], [0.0, 1.0]]
    >>> res = perceptron(X, [1, 1])
    >>> res.converged, res.n_updates, res.w.tolist()
    (True, 2, [1.0, 1.0])
    """
    return _perceptron_run(X, y, eta, w0, max_epochs, order, rng)


def _perceptron_run(
    X: ArrayLike,
    y: ArrayLike,
    eta: object,
    w0: ArrayLike | None,
    max_epochs: object,
    order: object,
    rng: object,
    orders: list[NDArray[np.int64] | None] | None = None,
) -> PerceptronResult:
    """:func:`perceptron`, optionally recording each epoch's order (see :func:`_run_epochs`)."""
    X, y, eta, w_start, max_epochs, gen = _training_inputs(X, y, eta, w0, max_epochs, order, rng)
    w, per_epoch, converged = _run_epochs(X, y, w_start, eta, max_epochs, gen, orders=orders)
    return PerceptronResult(
        w=w,
        converged=converged,
        epochs=len(per_epoch),
        indices=np.concatenate(per_epoch).astype(np.int64),
        mistakes_per_epoch=np.array([done.size for done in per_epoch], dtype=np.int64),
        eta=eta,
        w0=w_start,
        _X=X,
        _y=y,
    )


def _training_inputs(
    X: ArrayLike,
    y: ArrayLike,
    eta: object,
    w0: ArrayLike | None,
    max_epochs: object,
    order: object,
    rng: object,
) -> tuple[
    NDArray[np.float64], NDArray[np.float64], float, NDArray[np.float64], int, np.random.Generator | None
]:
    """Validate the arguments every epoch-based trainer shares; returns them cleaned."""
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    eta = as_positive_float(eta, "eta")
    max_epochs = as_count(max_epochs, "max_epochs", 1)
    if order not in ("cyclic", "random"):
        raise ValueError(f"order must be 'cyclic' or 'random', got {order!r}")
    w_start = np.zeros(X.shape[1]) if w0 is None else as_weights(w0, X.shape[1], name="w0").copy()
    gen = as_rng(rng) if order == "random" else None
    return X, y, eta, w_start, max_epochs, gen


def _run_epochs(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    w_start: NDArray[np.float64],
    eta: float,
    max_epochs: int,
    gen: np.random.Generator | None,
    beta: float = 0.0,
    *,
    steps: _Rows | None = None,
    orders: list[NDArray[np.int64] | None] | None = None,
    first_block: int = _FIRST_BLOCK,
) -> tuple[NDArray[np.float64], list[NDArray[np.int64]], bool]:
    """Epochs of "update on every y (w.x) <= beta" until a clean pass or the limit.

    Returns the final weights, the updated indices of each epoch, and whether the
    last epoch was clean. ``beta = 0`` is the classical perceptron. ``steps`` (see
    :func:`_one_epoch`) lets the dual form reuse the loop; a list passed as ``orders``
    receives each epoch's presentation order (None for cyclic), for trainers that need
    to know *when* an update happened. ``first_block``: see :func:`_one_epoch`.

    Scale: patterns far from 1 in size (beyond 2**+-64, e.g. 1e200 or 1e-200) are
    scaled by a power of two first, which is exact: the run makes the same updates
    and the weights come back scaled, instead of margins that overflow to inf/NaN.
    A margin that still is not finite stops the run with a ValueError.
    """
    shift = 0
    if steps is None:
        # One dot product (no temporary) settles the usual case: moderate sizes.
        flat = X.ravel()
        with np.errstate(over="ignore", under="ignore"):
            sq = float(flat @ flat)
        shift = 0 if 2.0**-128 < sq < 2.0**128 else _exponent(X)
        if abs(shift) <= 64:
            shift = 0
        else:  # exact scaling: w.x scales by 4**shift, beta with it
            X = np.ldexp(X, -shift)
            w_start = np.ldexp(w_start, -shift)
            beta = float(np.ldexp(beta, -2 * shift))
    w = w_start.copy()
    per_epoch: list[NDArray[np.int64]] = []
    screen = None
    converged = False
    for epoch in range(max_epochs):
        perm = gen.permutation(X.shape[0]) if gen is not None else None
        if orders is not None:
            orders.append(perm)
        if screen is None and steps is None and epoch == _SCREEN_AFTER and X.nbytes >= _SCREEN_MIN_BYTES:
            screen = _Screen(X, y)  # the run is long: a half-size copy pays for itself
        w, done = _one_epoch(X, y, w, eta, perm, beta, steps, first_block, screen)
        per_epoch.append(done)
        if done.size == 0:
            converged = True
            break
    return (np.ldexp(w, shift) if shift else w), per_epoch, converged


#: Epochs after which the float32 screen of the margins is built (see _Screen).
_SCREEN_AFTER = 3
#: Only patterns that do not fit in the CPU caches gain from half the memory traffic.
_SCREEN_MIN_BYTES = 16 * 2**20
_SCREEN_FIRST_BLOCK = 128  # screening a row is cheap: search further after a mistake


class _Screen:
    """A float32 copy of the patterns that proves most margins positive at half the memory traffic.

    A perceptron epoch is bound by reading X from memory. The float32 margins
    ``m32 = y (x32 . w32)`` (with ``w`` scaled by a power of two near 1) differ from
    the exact ones by at most ``(2 N + 8) 2**-24 ||x|| ||w||`` plus a tiny absolute
    term (rounding of x, w and a sum of N products, with room to spare). A row whose
    ``m32`` exceeds ``beta`` by more than that is certainly correct in float64 too;
    only the others are recomputed in float64, exactly as before, so the run makes
    the same updates bit for bit.
    """

    def __init__(self, X: NDArray[np.float64], y: NDArray[np.float64]) -> None:
        N = X.shape[1]
        self.X32 = X.astype(np.float32)
        self.y32 = y.astype(np.float32)
        self.slack = (2 * N + 8) * 2.0**-24 * _row_norms(X)
        self.floor = N * 2.0**-80  # float32 underflow of tiny entries, absolutely
        self.slack = self.slack.astype(np.float32)  # rounded up below, so still a bound
        self.slack *= np.float32(1.0 + 2.0**-20)

    def prepare(self, w: NDArray[np.float64], beta: float) -> tuple[NDArray[np.float32], float, float]:
        """Per weight vector (recomputed after each update only): w32, ||w'||, the scaled beta."""
        sq = float(w.dot(w))
        if 2.0**-200 < sq < 2.0**200:  # float32 holds w as it is (the usual case: fewer calls)
            return w.astype(np.float32), math.sqrt(sq), beta + self.floor
        e = _exponent(w)
        ws = np.ldexp(w, -e)
        return ws.astype(np.float32), float(np.sqrt(ws @ ws)), float(np.ldexp(beta, -e)) + self.floor

    def suspects(
        self, pos: int, stop: int, state: tuple[NDArray[np.float32], float, float],
        perm: NDArray[np.int64] | None,
    ) -> NDArray[np.int64]:
        """Positions in ``pos:stop`` (presentation order) whose margin may be <= beta."""
        w32, size, base = state
        rows = slice(pos, stop) if perm is None else perm[pos:stop]
        m32 = self.y32[rows] * (self.X32[rows] @ w32)
        return np.flatnonzero(~(m32 > self.slack[rows] * size + base))  # NaN counts as suspect


def _exponent(A: NDArray[np.float64]) -> int:
    """Exponent of the power of two just above ``max |A|`` (0 for zeros)."""
    top = float(np.max(np.abs(A))) if A.size else 0.0
    return int(np.frexp(top)[1]) if top > 0 and np.isfinite(top) else 0


def _row_norms(X: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.sqrt(np.einsum("ij,ij->i", X, X))


def _one_epoch(
    X: NDArray[np.float64],
    y: NDArray[np.float64],
    w: NDArray[np.float64],
    eta: float,
    perm: NDArray[np.int64] | None,
    beta: float = 0.0,
    steps: _Rows | None = None,
    first_block: int = _FIRST_BLOCK,
    screen: _Screen | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """One pass in the given order; returns the new weights and the updated indices.

    The margins are ``y_i (X[i] @ w)`` and an update adds ``eta y_i steps[i]`` to ``w``
    (``steps`` defaults to ``X``: the primal perceptron). The dual form passes the Gram
    matrix as ``X`` and unit vectors as ``steps``, so ``w`` holds the coefficients.
    ``first_block`` rows are searched right after a mistake (the rows computed past the
    next mistake are wasted, which matters when rows are long, as Gram-matrix rows are).
    With a ``screen`` only the rows it cannot prove correct are computed in float64.
    """
    S = X if steps is None else steps
    P = X.shape[0]
    Xo = X if perm is None or screen is not None else X[perm]
    yo = y if perm is None or screen is not None else y[perm]
    done: list[int] = []
    if screen is not None:
        first_block = max(first_block, _SCREEN_FIRST_BLOCK)
        state = screen.prepare(w, beta)
    pos, block = 0, first_block
    # Primal rows are short: after a mistake, search about as far as mistakes have been
    # apart (a running mean), so that dense mistakes do not cost many tiny searches.
    adaptive = steps is None
    gap, last = float(first_block), 0
    while pos < P:
        stop = min(pos + block, P)
        if screen is None:
            m = yo[pos:stop] * Xo[pos:stop].dot(w)
            bad = ~(m > beta)  # NaN is caught, not taken as correct
            k = int(bad.argmax())  # the first True (argmax stops there)
            if not bad[k]:
                k = -1
            value = float(m[k])
        else:
            suspects = screen.suspects(pos, stop, state, perm)
            k = -1
            if suspects.size:
                at = pos + suspects if perm is None else perm[pos + suspects]
                m = y[at] * (X[at] @ w)
                wrong = np.flatnonzero(~(m > beta))
                if wrong.size:
                    k, value = int(suspects[wrong[0]]), float(m[wrong[0]])
        if k < 0:
            pos = stop
            block = min(2 * block, _MAX_BLOCK)
            continue
        if not math.isfinite(value):
            raise ValueError(
                "the margins y (w.x) overflowed to inf/NaN: the weights grew too large for "
                "float64; use a smaller eta or w0 (or patterns of moderate size)"
            )
        j = pos + k
        i = j if perm is None else int(perm[j])
        w = w + (eta * float(y[i])) * S[i]
        if screen is not None:
            state = screen.prepare(w, beta)
        done.append(i)
        pos = j + 1
        if adaptive:
            gap = 0.75 * gap + 0.25 * (j - last)
            last = j
            block = min(max(first_block, int(gap)), _MAX_BLOCK)
        else:
            block = first_block  # right after a mistake, the next one is often close
    return w, np.array(done, dtype=np.int64)
