"""The perceptron's inner loop in numpy: the compiled loop's twin, with no compilation.

Loading the compiled loop (:mod:`perclib.train._compiled`) costs about a second and a
half of CPU in every fresh process: numba itself, then the cached machine code. A
lesson's first training run would pay it for a few hundred presentations. So every
run starts here, and moves to the compiled loop only once it has done enough work
for the load to be worth it (:data:`WORK_LIMIT`); a process that has already loaded
the compiled loop uses it from the start.

Both loops take the same decisions and make the same updates, so a run's result does
not depend on which loop made it:

* a margin ``y_i (w . x_i)`` is computed in float64 (here by a BLAS matrix-vector
  product over a block of upcoming patterns, in any summation order) and counts as
  correct or as a mistake only when it is clear of the level ``beta`` by more than
  the rigorous rounding bound both loops share (:func:`perclib._exact.dot_error_bound`);
  a margin within the bound is handed back to the caller and decided exactly;
* an update is ``w + (eta y_i) x_i`` elementwise, the same IEEE operations as the
  compiled loop's (no fused multiply-add), so the weights are equal bit for bit.

Blocks: the margins of a block of patterns are computed against the current weights;
the first pattern of the block that is not clearly correct is where the loop stops to
decide or update, and the next block starts after it. A block doubles after every
clean block and shrinks back after an update, so an epoch with few mistakes costs a
few matrix-vector products, and one with many costs a short one per mistake.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

#: Status codes, the compiled loop's (DONE, UNDECIDED, OVERFLOW, LOST) and one more:
#: WORK, the work allowance of this loop ran out (the caller moves to the compiled one).
DONE, UNDECIDED, OVERFLOW, LOST, WORK = 0, 1, 2, 3, 4

#: Work (multiply-adds, plus :data:`CALL_COST` per numpy call) after which a run moves to
#: the compiled loop: about 0.25 s here (measured: 2.2-2.8 ns per unit on lesson shapes),
#: against about 1.5 s of CPU to load the compiled loop.
WORK_LIMIT = 10**8
#: A numpy call's overhead in multiply-adds (a few microseconds).
CALL_COST = 4000

_LOW, _HIGH = 2.0**-600, 2.0**600  # the compiled loop's: w.w in range, margins against w
_TINY = 2.0**-50
_FIRST_BLOCK = 8


def row_max(X: NDArray[np.float64]) -> NDArray[np.float64]:
    """``max_j |X[i, j]|`` for every row, a few thousand rows at a time (bounded temporaries)."""
    out = np.zeros(X.shape[0])
    if X.shape[1] == 0:
        return out
    for lo in range(0, X.shape[0], 4096):
        out[lo : lo + 4096] = np.max(np.abs(X[lo : lo + 4096]), axis=1)
    return out


def _scale(
    w: NDArray[np.float64], beta: float, sx: int, c: float
) -> tuple[NDArray[np.float64], float, float, float, bool]:
    """The compiled loop's ``_scale``: ``(v, level, factor, wn, zero)``, ``v`` = w or w 2**-e."""
    top = float(np.max(np.abs(w))) if w.size else 0.0
    if top == 0.0:
        return w, 0.0, 0.0, 0.0, True
    with np.errstate(over="ignore", under="ignore"):
        sq = float(w @ w)
    if _LOW < sq < _HIGH:
        e, v, wn = 0, w, math.sqrt(sq)
    else:
        e = math.frexp(top)[1]
        with np.errstate(under="ignore"):
            v = np.ldexp(w, -e)
            wn = math.sqrt(float(v @ v))
    # numpy's ldexp, like the compiled one, gives inf where math.ldexp would raise
    with np.errstate(over="ignore", under="ignore"):
        level = float(np.ldexp(beta, -(e + sx))) if beta != 0.0 else 0.0
    return v, level, c * wn * (1.0 + _TINY), wn, False


def epoch(
    X: NDArray[np.float64],
    Xs: NDArray[np.float64],
    y: NDArray[np.float64],
    xn: NDArray[np.float64],
    w: NDArray[np.float64],
    eta: float,
    perm: NDArray[np.int64],
    dual: bool,
    pos: int,
    decided: int,
    beta: float,
    sx: int,
    c: float,
    floor: float,
    out: NDArray[np.int64],
    nout: int,
    allowance: int,
) -> tuple[int, int, int, int]:
    """Run an epoch from ``pos``, as :func:`perclib.train._compiled.epoch` does.

    The arguments are the compiled loop's (without its scratch vector ``ws``), and
    ``allowance``: the work this call may do before it returns WORK at the pattern it
    reached. Returns ``(status, pos, nout, work done)``.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [-1.0, 1.0]]); w = np.zeros(2); out = np.zeros(2, dtype=np.int64)
    >>> epoch(X, X, np.ones(2), np.ones(2) * 1.5, w, 1.0, np.zeros(0, dtype=np.int64), False,
    ...       0, -1, 0.0, 0, 1e-15, 0.0, out, 0, 10**6)[:3], w.tolist()  # (DONE, pos, updates)
    ((0, 2, 2), [0.0, 1.0])
    >>> w[:] = [1.0, 0.0]; X[1] = [0.0, 1.0]  # the second pattern on the hyperplane:
    >>> # its margin 0 is within the rounding bound, so it is handed back (UNDECIDED)
    >>> epoch(X, X, np.ones(2), np.ones(2) * 1.5, w, 1.0, np.zeros(0, dtype=np.int64), False,
    ...       1, -1, 0.0, 0, 1e-15, 0.0, out, 0, 10**6)[:3]
    (1, 1, 0)
    """
    P, M = Xs.shape
    ordered = perm.shape[0] == 0
    v, level, factor, wn, zero = _scale(w, beta, sx, c)
    slack0 = floor * (1.0 + wn) + abs(level) * _TINY
    block = _FIRST_BLOCK
    work = 0
    while pos < P:
        if decided >= 0:
            mistake = decided == 1
            decided = -1
            i = pos if ordered else int(perm[pos])
        elif zero:
            mistake = True  # every margin is exactly 0 <= beta
            i = pos if ordered else int(perm[pos])
        else:
            if work > allowance:  # here, so that a decision handed in is never dropped
                return WORK, pos, nout, work
            hi = min(P, pos + block)
            if ordered:
                rows, yb, xb = Xs[pos:hi], y[pos:hi], xn[pos:hi]
            else:
                idx = perm[pos:hi]
                rows, yb, xb = Xs[idx], y[idx], xn[idx]
            with np.errstate(under="ignore"):
                m = yb * (rows @ v)
            slack = factor * xb + slack0
            clear = m > level + slack
            work += (hi - pos) * M + CALL_COST
            if clear.all():
                pos = hi
                block *= 2
                continue
            k = int(np.argmin(clear))  # the first that is not clearly right
            pos += k
            i = pos if ordered else int(perm[pos])
            if m[k] - level < -slack[k]:
                mistake = True
            else:
                return UNDECIDED, pos, nout, work
        if not mistake:
            pos += 1
            continue
        step = eta * y[i]
        if dual:
            old = float(w[i])
            w[i] = old + step  # Python floats: an overflow gives inf, as compiled, unwarned
            changed = bool(w[i] != old)
            moved = step != 0.0
            finite = math.isfinite(w[i])
        else:
            with np.errstate(over="ignore", invalid="ignore", under="ignore"):
                d = step * X[i]
                new = w + d
            changed = bool(np.any(new != w))
            moved = bool(np.any(d != 0.0))
            w[:] = new
            finite = bool(np.all(np.isfinite(w)))
        work += 2 * M + CALL_COST
        if not finite:
            return OVERFLOW, pos, nout, work
        if moved and not changed:
            return LOST, pos, nout, work
        out[nout] = i
        nout += 1
        v, level, factor, wn, zero = _scale(w, beta, sx, c)
        slack0 = floor * (1.0 + wn) + abs(level) * _TINY
        pos += 1
        block = _FIRST_BLOCK
    return DONE, pos, nout, work


#: Widest patterns run by :func:`scalar_epoch` (Python floats beat numpy calls there).
SCALAR_MAX_WIDTH = 16
#: Work charged per presentation by :func:`scalar_epoch`, besides its multiply-adds:
#: a presentation there costs about a microsecond of interpreter time.
PRESENTATION_COST = 400


class ScalarData:
    """The run's arrays as Python lists, for :func:`scalar_epoch` (built once per run)."""

    def __init__(self, X: NDArray[np.float64], Xs: NDArray[np.float64], y: NDArray[np.float64],
                 xn: NDArray[np.float64]) -> None:
        self.X, self.Xs = X.tolist(), Xs.tolist()
        self.y, self.xn = y.tolist(), xn.tolist()


def _scalar_scale(w: list[float], beta: float, sx: int, c: float):
    """:func:`_scale` on a list: ``(v, level, factor, wn, zero)``."""
    sq = sum([a * a for a in w])  # overflows to inf, underflows to 0: both rescaled below
    if _LOW < sq < _HIGH:  # the common case: no scaling, no search for the largest entry
        e, v, wn = 0, w, math.sqrt(sq)
    else:
        top = max(abs(a) for a in w) if w else 0.0
        if top == 0.0:
            return w, 0.0, 0.0, 0.0, True
        if not math.isfinite(top):  # the caller has already stopped on this
            return w, 0.0, 0.0, 0.0, False
        e = math.frexp(top)[1]
        v = [math.ldexp(a, -e) for a in w]  # shrinks: cannot overflow (may underflow)
        wn = math.sqrt(sum(a * a for a in v))
    if beta != 0.0:
        try:
            level = math.ldexp(beta, -(e + sx))
        except OverflowError:  # numba's and numpy's ldexp give inf
            level = math.inf
    else:
        level = 0.0
    return v, level, c * wn * (1.0 + _TINY), wn, False


def scalar_epoch(
    data: ScalarData,
    w: NDArray[np.float64],
    eta: float,
    perm: NDArray[np.int64],
    dual: bool,
    pos: int,
    decided: int,
    beta: float,
    sx: int,
    c: float,
    floor: float,
    out: NDArray[np.int64],
    nout: int,
    allowance: int,
) -> tuple[int, int, int, int]:
    """:func:`epoch` in Python floats, pattern by pattern, for narrow patterns.

    The same decisions (each margin against the same rigorous bound, a doubtful one
    handed back) and the same updates: Python floats are IEEE doubles, and
    ``w_j + (eta y_i) x_ij`` is computed exactly as the compiled loop computes it.
    ``w`` (numpy) is written back before returning.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [-1.0, 1.0]]); w = np.zeros(2); out = np.zeros(2, dtype=np.int64)
    >>> data = ScalarData(X, X, np.ones(2), np.ones(2) * 1.5)
    >>> scalar_epoch(data, w, 1.0, np.zeros(0, dtype=np.int64), False, 0, -1, 0.0, 0, 1e-15,
    ...              0.0, out, 0, 10**6)[:3], w.tolist()  # (DONE, pos, updates)
    ((0, 2, 2), [0.0, 1.0])
    """
    X, Xs, y, xn = data.X, data.Xs, data.y, data.xn
    P = len(Xs)
    M = len(w)
    order = None if perm.shape[0] == 0 else perm.tolist()
    wl = w.tolist()
    v, level, factor, wn, zero = _scalar_scale(wl, beta, sx, c)
    slack0 = floor * (1.0 + wn) + abs(level) * _TINY
    work = 0
    step_cost = M + PRESENTATION_COST
    status = DONE
    while pos < P:
        i = pos if order is None else order[pos]
        if decided >= 0:
            mistake = decided == 1
            decided = -1
        elif zero:
            mistake = True  # every margin is exactly 0 <= beta
        else:
            if work > allowance:
                status = WORK
                break
            work += step_cost
            row = Xs[i]
            m = y[i] * sum([a * b for a, b in zip(row, v, strict=True)])
            slack = factor * xn[i] + slack0
            if m > level + slack:
                pos += 1
                continue
            if m - level < -slack:
                mistake = True
            else:
                status = UNDECIDED
                break
        if not mistake:
            pos += 1
            continue
        step = eta * y[i]
        work += 2 * M + PRESENTATION_COST
        if dual:
            old = wl[i]
            wl[i] = old + step
            changed, moved, finite = wl[i] != old, step != 0.0, math.isfinite(wl[i])
        else:
            d = [step * b for b in X[i]]
            new = [a + b for a, b in zip(wl, d, strict=True)]
            changed = new != wl
            moved = any(d)
            wl = new
            finite = all(map(math.isfinite, wl))
        if not finite:
            status = OVERFLOW
            break
        if moved and not changed:
            status = LOST
            break
        out[nout] = i
        nout += 1
        v, level, factor, wn, zero = _scalar_scale(wl, beta, sx, c)
        slack0 = floor * (1.0 + wn) + abs(level) * _TINY
        pos += 1
    w[:] = wl
    return status, pos, nout, work
