"""The classical perceptron algorithm with a complete, inspectable trace.

The rule: present patterns in order; whenever ``y (w.x) <= 0`` (a mistake, ties
included, otherwise a perceptron started at ``w = 0`` never moves) update
``w <- w + eta * y * x``; stop after an epoch without a mistake, or at
``max_epochs`` and report that it did not converge.

Speed: the loop itself runs compiled (numba, :mod:`perclib.train._compiled`),
pattern by pattern like the textbook loop; only the rare margins too close to the
decision level for float64 to be sure of their sign come back to Python, to be
decided exactly. Loading the compiled loop costs about 1.5 s of CPU once per process,
so a run starts on a Python twin (:mod:`perclib.train._pyloop`, the same decisions
and updates) and moves to the compiled loop only after about 0.25 s of work: a
lesson's first run takes hundredths of a second. The result is the same sequence of
updates as the textbook loop in exact arithmetic, and the same weights bit for bit
(``benchmarks/bench_perceptron.py`` compares it with scikit-learn's compiled one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import ModuleType

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
from perclib.train import _pyloop
from perclib.train._budget import MAX_WORK, allowed, as_budget, warn_spent

#: Largest weight trace (bytes) that :meth:`PerceptronResult.trace` builds by default.
MAX_TRACE_BYTES = 2**28


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
    out_of_budget : bool
        True when the run stopped because its work budget (``max_work``) was spent
        before ``max_epochs``; ``converged`` is then False.
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
    out_of_budget: bool = False

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
        state += " (work budget spent)" if self.out_of_budget else ""
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
    max_work: int | None = MAX_WORK,
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
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds, an epoch costing ``P N``: the run stops after the
        last epoch that fits (at least one), with ``converged=False``,
        ``out_of_budget=True`` and a :class:`perclib.train.WorkBudgetWarning`, if it
        has not converged by then. None: no limit but ``max_epochs``.

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
    return _perceptron_run(X, y, eta, w0, max_epochs, order, rng, max_work=max_work)


def _perceptron_run(
    X: ArrayLike,
    y: ArrayLike,
    eta: object,
    w0: ArrayLike | None,
    max_epochs: object,
    order: object,
    rng: object,
    orders: list[NDArray[np.int64] | None] | None = None,
    *,
    max_work: object = MAX_WORK,
    name: str = "perceptron",
) -> PerceptronResult:
    """:func:`perceptron`, optionally recording each epoch's order (see :func:`_run_epochs`)."""
    X, y, eta, w_start, max_epochs, gen = _training_inputs(X, y, eta, w0, max_epochs, order, rng)
    max_work = as_budget(max_work)
    w, per_epoch, converged, spent = _run_epochs(
        X, y, w_start, eta, max_epochs, gen, orders=orders, max_work=max_work, name=name
    )
    return PerceptronResult(
        out_of_budget=spent,
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
    dual: bool = False,
    orders: list[NDArray[np.int64] | None] | None = None,
    max_work: int | None = None,
    name: str = "perceptron",
) -> tuple[NDArray[np.float64], list[NDArray[np.intp]], bool, bool]:
    """Epochs of "update on every y (w.x) <= beta" until a clean pass or the limit.

    Returns the final weights, the updated indices of each epoch, whether the
    last epoch was clean, and whether the work budget stopped the run (an epoch is
    ``P M`` multiply-adds; a run stopped by it warns, naming ``name``).
    ``beta = 0`` is the classical perceptron. ``dual=True`` lets
    the kernel perceptron reuse the loop: ``X`` is then the Gram matrix and an update
    adds ``eta y_i`` to coefficient ``i`` of ``w``. A list passed as ``orders``
    receives each epoch's presentation order (None for cyclic), for trainers that need
    to know *when* an update happened.

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
    ctx = _Context(X, y, beta, dual)
    w = w_start.copy()
    per_epoch: list[NDArray[np.intp]] = []
    converged = False
    epochs = allowed(max_work, X.shape[0] * X.shape[1], max_epochs)
    for _ in range(epochs):
        perm = gen.permutation(X.shape[0]) if gen is not None else None
        if orders is not None:
            orders.append(perm)
        w, done = _one_epoch(w, eta, perm, ctx)
        per_epoch.append(done)
        if done.size == 0:
            converged = True
            break
    if scale_back != 1.0:
        with np.errstate(over="ignore"):
            w = scale_back * w
        if not np.all(np.isfinite(w)):
            raise ValueError(f"eta={scale_back} times the weights overflows float64; use a smaller eta")
    spent = not converged and epochs < max_epochs
    if spent:
        warn_spent(name, f"{epochs} of max_epochs={max_epochs} epochs", max_work)
    return w, per_epoch, converged, spent


class _Context:
    """What every epoch of a run shares: the patterns, scaled copies and rounding bounds.

    And which loop runs the epochs: the numpy loop (:mod:`perclib.train._pyloop`) until
    the run has done :data:`~perclib.train._pyloop.WORK_LIMIT` work, then the compiled
    one (:mod:`perclib.train._compiled`), from the start if this process has loaded it
    already. Both take the same decisions and make the same updates.
    """

    def __init__(self, X: NDArray[np.float64], y: NDArray[np.float64], beta: float, dual: bool) -> None:
        self.X = np.ascontiguousarray(X, dtype=np.float64)
        self.y = np.ascontiguousarray(y, dtype=np.float64)
        self.beta, self.dual = float(beta), dual
        self.compiled = _use_compiled()
        self.python_work = 0  # done by the numpy loop in this run
        # Margins are computed on Xs = X 2**-sx, exactly scaled when X is far from 1 in
        # size, so that nothing overflows (tiny entries may underflow: bounded, see
        # _compiled.epoch). ||x|| <= sqrt(M) max |x_j|: a bound no underflow can spoil.
        top = self.compiled.row_max(self.X) if self.compiled else _pyloop.row_max(self.X)
        biggest = float(top.max())
        self.sx = 0 if 2.0**-100 < biggest < 2.0**100 or biggest == 0.0 else int(np.frexp(biggest)[1])
        if self.sx:
            with np.errstate(under="ignore"):
                self.Xs = np.ldexp(self.X, -self.sx)
                top = np.ldexp(top, -self.sx)  # the same rounding as the entries it came from
        else:
            self.Xs = self.X
        M = self.X.shape[1]
        self.xn = top * (math.sqrt(M) * (1.0 + 2.0**-50))
        self.c = dot_error_bound(M)
        self.floor = underflow_floor(M)
        self.out = np.zeros(self.X.shape[0], dtype=np.int64)
        self.ws = np.zeros(self.X.shape[1] if not dual else self.X.shape[0])
        self.no_perm = np.zeros(0, dtype=np.int64)
        # Narrow patterns: Python floats, pattern by pattern; wider: numpy, by blocks.
        narrow = M <= _pyloop.SCALAR_MAX_WIDTH
        self.scalar = (
            _pyloop.ScalarData(self.X, self.Xs, self.y, self.xn)
            if self.compiled is None and LOOP != "numpy" and (narrow or LOOP == "scalar")
            else None
        )

    def is_mistake(self, i: int, w: NDArray[np.float64]) -> bool:
        """Exactly: whether ``y_i (w . x_i) <= beta``."""
        level = self.beta * float(self.y[i])
        return int(self.y[i]) * exact_dot_sign(self.X[i], w, level) <= 0


def _one_epoch(
    w: NDArray[np.float64],
    eta: float,
    perm: NDArray[np.intp] | None,
    ctx: _Context,
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """One pass in the given order; returns the new weights and the updated indices.

    The margins are ``y_i (X[i] @ w)`` and an update adds ``eta y_i X[i]`` to ``w``
    (with ``ctx.dual``, ``eta y_i`` to ``w[i]``: the Gram matrix as ``X``, so ``w``
    holds the coefficients). The compiled loop (:mod:`perclib.train._compiled`) takes
    a margin as correct in float64 only when it exceeds ``beta`` by more than its
    rounding bound (:func:`perclib._exact.dot_error_bound`); it hands the few within
    the bound back here, where they are decided exactly
    (:func:`perclib._exact.exact_dot_sign`), so a pattern lying exactly on the
    hyperplane is a mistake whatever order the sums are taken in.
    """
    w = np.array(w, dtype=np.float64)  # updated in place by the loop: the caller's stays
    order = ctx.no_perm if perm is None else np.ascontiguousarray(perm, dtype=np.int64)
    pos, nout, decided = 0, 0, -1
    while True:
        if ctx.compiled is None:
            allowance = _pyloop.WORK_LIMIT - ctx.python_work if LOOP is None else 2**62
            if ctx.scalar is not None:
                status, pos, nout, work = _pyloop.scalar_epoch(
                    ctx.scalar, w, eta, order, ctx.dual, pos, decided,
                    ctx.beta, ctx.sx, ctx.c, ctx.floor, ctx.out, nout, allowance,
                )
            else:
                status, pos, nout, work = _pyloop.epoch(
                    ctx.X, ctx.Xs, ctx.y, ctx.xn, w, eta, order, ctx.dual, pos, decided,
                    ctx.beta, ctx.sx, ctx.c, ctx.floor, ctx.out, nout, allowance,
                )
            ctx.python_work += work
            if status == _pyloop.WORK:  # long enough for the compiled loop to pay its load
                ctx.compiled = _use_compiled(load=True)
                decided = -1
                continue
        else:
            status, pos, nout = ctx.compiled.epoch(
                ctx.X, ctx.Xs, ctx.y, ctx.xn, w, ctx.ws, eta, order, ctx.dual, pos, decided,
                ctx.beta, ctx.sx, ctx.c, ctx.floor, ctx.out, nout,
            )
            _COMPILED_READY[0] = True
        decided = -1
        if status == _pyloop.DONE:
            return w, ctx.out[:nout].astype(np.intp)
        if status == _pyloop.UNDECIDED:  # within the rounding bound: decide it exactly
            i = pos if perm is None else int(order[pos])
            decided = int(ctx.is_mistake(i, w))
        elif status == _pyloop.OVERFLOW:
            raise ValueError(
                "the weights overflowed float64 (the margins y (w.x) would overflow too): "
                "they grew too large; use a smaller eta or w0 (or patterns of moderate size)"
            )
        else:
            raise ValueError(
                "an update was lost in rounding: the weights are so large next to eta * x "
                "that w + eta y x == w in float64, so the run could never progress (the "
                "margins y (w.x) overflowed float64's precision); use a smaller w0 or a larger eta"
            )


#: Which loop runs the epochs: None (a Python loop first, see :class:`_Context`), or
#: always one: "python" (Python floats for narrow patterns, else numpy), "scalar",
#: "numpy" or "compiled" (the tests hold each to the exact reference).
LOOP: str | None = None
# Set once the compiled loop has run in this process (its machine code is then loaded).
_COMPILED_READY = [False]


def _use_compiled(load: bool = False) -> ModuleType | None:
    """The compiled loop's module when it should run the epochs (see :class:`_Context`)."""
    if LOOP in ("python", "scalar", "numpy"):
        return None
    if load or LOOP == "compiled" or _COMPILED_READY[0]:
        from perclib.train import _compiled  # numba: imported when first needed

        return _compiled
    return None
