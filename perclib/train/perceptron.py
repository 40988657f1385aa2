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
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._exact import dot_error_bound, exact_dot_sign, underflow_floor
from perclib._validation import (
    as_count,
    as_labels,
    as_patterns,
    as_positive_float,
    as_rng,
    as_weights,
)

_FIRST_BLOCK = 32
#: Largest weight trace (bytes) that :meth:`PerceptronResult.trace` builds by default.
MAX_TRACE_BYTES = 2**28
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
    indices: NDArray[np.intp]
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

    @property
    def weights(self) -> NDArray[np.float64]:
        """The whole weight trace, ``(n_updates + 1, N)``; see :meth:`trace` for its limit."""
        return self.trace()

    def trace(
        self, start: int = 0, stop: int | None = None, *, max_bytes: int | None = MAX_TRACE_BYTES
    ) -> NDArray[np.float64]:
        """Weights after updates ``start .. stop - 1`` (rows of :attr:`weights`), rebuilt.

        The trace is not stored (a long run on a large problem would need
        ``(n_updates + 1) x N`` floats): it is rebuilt from the updates with the run's
        own floating-point operations, in order. More than ``max_bytes`` (default
        :data:`MAX_TRACE_BYTES`, 256 MiB) raises a ValueError before any allocation;
        ask for fewer rows, or pass ``max_bytes=None`` to lift the limit.

        Examples
        --------
        >>> run = perceptron([[1.0, 0.0], [0.0, 1.0]], [1, 1])
        >>> run.trace(1).tolist()
        [[1.0, 0.0], [1.0, 1.0]]
        """
        n = self.n_updates + 1
        start = as_count(start, "start")
        stop = n if stop is None else as_count(stop, "stop")
        if not start <= stop <= n:
            raise ValueError(f"need 0 <= start <= stop <= n_updates + 1 = {n}, got {start}, {stop}")
        limit = None if max_bytes is None else as_count(max_bytes, "max_bytes", 1)
        size = (stop - start) * self.w0.size * 8
        if limit is not None and size > limit:
            raise ValueError(
                f"rows {start}..{stop} of the weight trace take {size:,} bytes, more than "
                f"max_bytes={limit:,}: ask for fewer rows with trace(start, stop), or pass "
                "max_bytes=None"
            )
        parts = [W for _, W in self._chunks(start, stop)]
        return np.vstack(parts) if parts else np.zeros((0, self.w0.size))

    def _chunks(self, start: int = 0, stop: int | None = None, rows: int = 4096):
        """Yield ``(first_row, block)`` of the trace between ``start`` and ``stop``."""
        n = self.n_updates + 1
        stop = n if stop is None else stop
        # From w0 = 0 the run is made with eta = 1 and scaled at the end (see _run_epochs).
        scaled = not np.any(self.w0) and self.eta != 1.0
        factor = 1.0 if scaled else self.eta
        w = self.w0 / self.eta if scaled else self.w0
        pos = 0  # w holds the weights after `pos` updates
        while pos < stop:
            hi = min(pos + rows, stop)
            idx = self.indices[pos : hi - 1] if pos else self.indices[: hi - 1]
            steps = (factor * self._y[idx])[:, None] * self._X[idx]
            # cumsum adds left to right, exactly like the run's w = w + step.
            block = np.cumsum(np.vstack([w[None, :], steps]), axis=0)
            if hi > start:
                lo = max(start - pos, 0)
                yield pos + lo, (self.eta * block[lo:] if scaled else block[lo:])
            w = block[-1] + (factor * self._y[self.indices[hi - 1]]) * self._X[self.indices[hi - 1]] \
                if hi < n else block[-1]
            pos = hi

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
        indices=np.concatenate(per_epoch).astype(np.intp),
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
) -> tuple[NDArray[np.float64], list[NDArray[np.intp]], bool]:
    """Epochs of "update on every y (w.x) <= beta" until a clean pass or the limit.

    Returns the final weights, the updated indices of each epoch, and whether the
    last epoch was clean. ``beta = 0`` is the classical perceptron. ``steps`` (see
    :func:`_one_epoch`) lets the dual form reuse the loop; a list passed as ``orders``
    receives each epoch's presentation order (None for cyclic), for trainers that need
    to know *when* an update happened. ``first_block``: see :func:`_one_epoch`.

    Exactness: every decision ``y (w.x) <= beta`` is that of exact arithmetic on the
    stored float64 ``w`` and ``x`` (ties are mistakes; see :func:`_one_epoch`). From
    ``w0 = 0`` with ``beta = 0``, ``eta`` only scales every weight vector: the run is
    made with ``eta = 1`` and scaled at the end, so ``eta`` cannot change which
    mistakes are made (rounding of ``eta * x`` would otherwise decide near-ties).

    Scale: margins are computed on copies scaled by powers of two (exact, bar
    underflow, which the error bound covers), so they never overflow; the weights
    themselves are kept unscaled, and weights that no longer fit in float64, or an
    update lost entirely in rounding, stop the run with a ValueError.
    """
    scale_back = 1.0
    if beta == 0.0 and eta != 1.0 and not np.any(w_start):
        scale_back, eta = eta, 1.0
    # One dot product (no temporary) settles the usual case: moderate sizes.
    flat = X.ravel()
    with np.errstate(over="ignore", under="ignore"):
        sq = float(flat @ flat)
    if 2.0**-128 < sq < 2.0**128:
        Xs, radius = X, math.sqrt(sq)
    else:  # exact scaling by a power of two (tiny entries may underflow: bounded)
        Xs = np.ldexp(X, -_exponent(X))
        with np.errstate(under="ignore"):
            radius = float(np.sqrt(np.einsum("ij,ij->", Xs, Xs)))
    ctx = _Context(X, Xs, y, beta, radius)
    w = w_start.copy()
    per_epoch: list[NDArray[np.intp]] = []
    screen = None
    converged = False
    # Overflow of w.w and underflow are expected and handled (scaled() and the error
    # bound); one errstate for the whole run, not one per update.
    with np.errstate(over="ignore", under="ignore"):
        for epoch in range(max_epochs):
            perm = gen.permutation(X.shape[0]) if gen is not None else None
            if orders is not None:
                orders.append(perm)
            if screen is None and steps is None and epoch == _SCREEN_AFTER and Xs.nbytes >= _SCREEN_MIN_BYTES:
                screen = _Screen(Xs, y)  # the run is long: a half-size copy pays for itself
            w, done = _one_epoch(X, y, w, eta, perm, beta, steps, first_block, screen, ctx)
            per_epoch.append(done)
            if done.size == 0:
                converged = True
                break
    if scale_back != 1.0:
        w = scale_back * w
        if not np.all(np.isfinite(w)):
            raise ValueError(f"eta={scale_back} times the weights overflows float64; use a smaller eta")
    return w, per_epoch, converged


class _Context:
    """What the exact margin test needs besides ``w``: scaled patterns and bounds."""

    def __init__(
        self, X: NDArray[np.float64], Xs: NDArray[np.float64], y: NDArray[np.float64],
        beta: float, radius: float,
    ) -> None:
        self.X, self.Xs, self.y, self.beta = X, Xs, y, beta
        self.sx = _exponent(X) if Xs is not X else 0  # X = Xs * 2**sx (bar underflow)
        N = X.shape[1]
        self.c = dot_error_bound(N)
        self.floor = underflow_floor(N)
        self.radius = radius  # >= every row norm of Xs
        self.beta_xs = float(np.ldexp(beta, -self.sx))  # beta in the units of Xs . w

    def scaled(self, w: NDArray[np.float64]) -> tuple[NDArray[np.float64], float, float, float]:
        """``(ws, level, slack, sq)``: margins ``y (Xs @ ws)`` above ``level + slack`` are right.

        ``ws = w 2**-e`` keeps ``Xs @ ws`` finite; ``level`` is ``beta`` in the same
        units; ``slack`` bounds the rounding of every margin; ``sq = w.w`` (as computed,
        possibly inf), which the caller uses to notice overflow or a lost update cheaply.
        Called once per update, with warnings off (see :func:`_run_epochs`).
        """
        sq = float(w.dot(w))
        if 2.0**-600 < sq < 2.0**600:  # the usual case: w as it is
            ws, e, wn = w, 0, math.sqrt(sq)
        else:
            e = _exponent(w)
            ws = np.ldexp(w, -e)
            wn = math.sqrt(float(ws.dot(ws)))
        level = float(np.ldexp(self.beta, -(e + self.sx))) if self.beta else 0.0
        slack = self.c * self.radius * wn * (1.0 + 2.0**-50) + self.floor + abs(level) * 2.0**-50
        return ws, level, slack, sq

    def is_mistake(self, i: int, w: NDArray[np.float64]) -> bool:
        """Exactly: whether ``y_i (w . x_i) <= beta``."""
        level = self.beta * float(self.y[i])
        return int(self.y[i]) * exact_dot_sign(self.X[i], w, level) <= 0


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
        perm: NDArray[np.intp] | None,
    ) -> NDArray[np.intp]:
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
    perm: NDArray[np.intp] | None,
    beta: float = 0.0,
    steps: _Rows | None = None,
    first_block: int = _FIRST_BLOCK,
    screen: _Screen | None = None,
    ctx: _Context | None = None,
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """One pass in the given order; returns the new weights and the updated indices.

    The margins are ``y_i (X[i] @ w)`` and an update adds ``eta y_i steps[i]`` to ``w``
    (``steps`` defaults to ``X``: the primal perceptron). The dual form passes the Gram
    matrix as ``X`` and unit vectors as ``steps``, so ``w`` holds the coefficients.
    ``first_block`` rows are searched right after a mistake (the rows computed past the
    next mistake are wasted, which matters when rows are long, as Gram-matrix rows are).
    With a ``screen`` only the rows it cannot prove correct are computed in float64.

    A margin is taken as correct in float64 only when it exceeds ``beta`` by more than
    its rounding bound (:func:`perclib._exact.dot_error_bound`); the few within the
    bound are decided exactly (:func:`perclib._exact.exact_dot_sign`), so a pattern
    lying exactly on the hyperplane is a mistake whatever the BLAS kernel rounds.
    """
    if ctx is None:
        ctx = _Context(X, X, y, beta, float(np.max(np.sqrt(np.einsum("ij,ij->i", X, X)))))
    S = X if steps is None else steps
    Xs = ctx.Xs
    P = X.shape[0]
    Xo = Xs if perm is None or screen is not None else Xs[perm]
    yo = y if perm is None or screen is not None else y[perm]
    done: list[int] = []
    ws, level, slack, sq = ctx.scaled(w)
    if screen is not None:
        first_block = max(first_block, _SCREEN_FIRST_BLOCK)
        state = screen.prepare(w, ctx.beta_xs)
    pos, block = 0, first_block
    # Primal rows are short: after a mistake, search about as far as mistakes have been
    # apart (a running mean), so that dense mistakes do not cost many tiny searches.
    adaptive = steps is None
    gap, last = float(first_block), 0
    while pos < P:
        stop = min(pos + block, P)
        k = -1
        if screen is None:
            m = yo[pos:stop] * Xo[pos:stop].dot(ws)
            bad = m <= level + slack  # not certainly correct
            c = int(bad.argmax())  # the first True (argmax stops there)
            while bad[c]:  # almost always a clear mistake at the first try
                i = pos + c if perm is None else int(perm[pos + c])
                if m[c] - level < -slack or ctx.is_mistake(i, w):
                    k = c
                    break
                bad[c] = False  # exactly correct: search on
                c = int(bad.argmax())
        else:
            suspects = screen.suspects(pos, stop, state, perm)
            if suspects.size:
                at = pos + suspects if perm is None else perm[pos + suspects]
                m_s = y[at] * (Xs[at] @ ws)
                for r in np.flatnonzero(m_s <= level + slack).tolist():
                    c = int(suspects[r])
                    i = pos + c if perm is None else int(perm[pos + c])
                    if m_s[r] - level < -slack or ctx.is_mistake(i, w):
                        k = c
                        break
        if k < 0:
            pos = stop
            block = min(2 * block, _MAX_BLOCK)
            continue
        j = pos + k
        i = j if perm is None else int(perm[j])
        step = (eta * float(y[i])) * S[i]
        w_new = w + step
        ws, level, slack, sq_new = ctx.scaled(w_new)
        if not math.isfinite(sq_new) and not np.all(np.isfinite(w_new)):
            raise ValueError(
                "the weights overflowed float64 (the margins y (w.x) would overflow too): "
                "they grew too large; use a smaller eta or w0 (or patterns of moderate size)"
            )
        if sq_new == sq and np.array_equal(w_new, w) and np.any(step):  # w.w unchanged: cheap pre-test
            raise ValueError(
                "an update was lost in rounding: the weights are so large next to eta * x "
                "that w + eta y x == w in float64, so the run could never progress (the "
                "margins y (w.x) overflowed float64's precision); use a smaller w0 or a larger eta"
            )
        w, sq = w_new, sq_new
        if screen is not None:
            state = screen.prepare(w, ctx.beta_xs)
        done.append(i)
        pos = j + 1
        if adaptive:
            gap = 0.75 * gap + 0.25 * (j - last)
            last = j
            block = min(max(first_block, int(gap)), _MAX_BLOCK)
        else:
            block = first_block  # right after a mistake, the next one is often close
    return w, np.array(done, dtype=np.intp)
