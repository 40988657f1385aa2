"""The perceptron's inner loop, compiled with numba (imported on the first run only).

One call runs the rest of an epoch, pattern by pattern, like the textbook loop: the
margin ``y_i (w . x_i)`` in float64, then the update ``w <- w + eta y_i x_i``. What
makes it more than the textbook loop is the decision: a margin counts as correct (or
as a mistake) only when it is clear of the level ``beta`` by more than a rigorous
bound on its rounding error (:func:`perclib._exact.dot_error_bound`). A margin
within the bound stops the loop and is handed back to the caller, which decides it
exactly in integer arithmetic (:func:`perclib._exact.exact_dot_sign`) and resumes.
So every decision is that of exact arithmetic on the stored float64 numbers (a
pattern exactly on the hyperplane is a mistake), whatever order the dot product
adds its terms in; and the updates are the same floating-point operations as
``w + (eta * y_i) * x_i`` in numpy, so the weights are equal bit for bit.

Margins are computed against ``ws = w 2**-e`` (an exact power-of-two scaling, so
they cannot overflow when ``w`` is huge) and patterns ``Xs`` scaled the same way by
the caller; the weights themselves stay unscaled.

The module is imported lazily (``import perclib`` does not import numba), by the
first run in a process that has done enough work for its load (about 1.5 s of CPU)
to pay (:mod:`perclib.train._pyloop`, the Python twin every run starts on); the
compiled code is cached on disk (``cache=True``): only the very first load on a
machine pays the compilation (``benchmarks/bench_perceptron.py --compile`` measures
it).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

#: Status codes returned by :func:`epoch`.
DONE, UNDECIDED, OVERFLOW, LOST = 0, 1, 2, 3

_LOW, _HIGH = 2.0**-600, 2.0**600  # w.w in this range: margins against w as it is
_TINY = 2.0**-50


# Any summation order (and fused multiply-adds) may be used for a dot product: the
# caller's bound holds for all of them. Reassociation lets the compiler use SIMD lanes
# (three to four times faster than the textbook sequential sum); nothing else is relaxed.
@njit(cache=True, nogil=True, fastmath={"reassoc", "contract"})
def _dot(a, b):  # pragma: no cover - compiled
    """``a . b`` in any order of summation."""
    s = 0.0
    for j in range(a.shape[0]):
        s += a[j] * b[j]
    return s


@njit(cache=True, nogil=True)
def _scale(w, ws, beta, sx, c):  # pragma: no cover - compiled
    """Fill ``ws`` (``w`` or ``w 2**-e``); return ``(use_ws, level, factor, wn, zero)``.

    ``level`` is ``beta`` in the units of ``Xs . ws``; a margin of row ``i`` is
    certainly right when it is clear of ``level`` by ``factor * xn[i]`` plus the
    underflow term (see :func:`epoch`); ``wn`` is about ``||ws||``. ``zero``: ``w``
    is exactly zero (every margin is exactly 0).
    """
    n = w.shape[0]
    sq = _dot(w, w)
    top = 0.0
    for j in range(n):
        a = abs(w[j])
        if a > top:
            top = a
    if top == 0.0:
        return False, 0.0, 0.0, 0.0, True
    if _LOW < sq < _HIGH:
        e = 0
        wn = math.sqrt(sq)
        use_ws = False
    else:
        e = math.frexp(top)[1]
        for j in range(n):
            ws[j] = math.ldexp(w[j], -e)
        wn = math.sqrt(_dot(ws, ws))
        use_ws = True
    level = math.ldexp(beta, -(e + sx)) if beta != 0.0 else 0.0
    return use_ws, level, c * wn * (1.0 + _TINY), wn, False


@njit(cache=True, nogil=True)
def epoch(X, Xs, y, xn, w, ws, eta, perm, dual, pos, decided, beta, sx, c, floor, out, nout):
    """Run an epoch from position ``pos``; returns ``(status, pos, nout)``.

    Parameters
    ----------
    X, Xs : (P, M) float64, C order
        The rows that make the margins, unscaled and scaled by ``2**-sx``.
    y : (P,) float64
        Labels.
    xn : (P,) float64
        Upper bounds on the row norms of ``Xs``.
    w, ws : (M,) float64
        The weights (updated in place) and room for their scaled copy.
    eta : float
        Learning rate.
    perm : (P,) int64, or empty for the order 0..P-1
        Presentation order.
    dual : bool
        An update adds ``eta y_i`` to ``w[i]`` (the kernel perceptron on a Gram
        matrix) instead of ``eta y_i X[i]``.
    pos : int
        Where to start in the presentation order.
    decided : int
        -1, or the exact verdict (1 mistake, 0 correct) for the pattern at ``pos``.
    beta, sx, c, floor : float, int, float, float
        Level of a mistake ``y (w.x) <= beta``, the scale of ``Xs``, the relative and
        absolute rounding bounds.
    out : (P,) int64
        Receives the updated pattern indices from ``out[nout]`` on.

    Returns
    -------
    status : DONE, UNDECIDED (the margin at ``pos`` needs an exact decision),
        OVERFLOW (the weights left float64's range) or LOST (``w + eta y x == w``).
    """  # pragma: no cover - compiled
    P = Xs.shape[0]
    M = w.shape[0]
    ordered = perm.shape[0] == 0
    use_ws, level, factor, wn, zero = _scale(w, ws, beta, sx, c)
    # Underflow: each product of Xs . ws may lose 2**-1075, and each entry of Xs may have
    # lost as much in its scaling (times |ws_j| <= wn); floor covers (M + 4) of both.
    slack0 = floor * (1.0 + wn) + abs(level) * _TINY
    while pos < P:
        i = pos if ordered else perm[pos]
        if decided >= 0:
            mistake = decided == 1
            decided = -1
        elif zero:
            mistake = True  # 0 <= beta exactly: beta is never negative
        else:
            m = y[i] * _dot(Xs[i], ws if use_ws else w)
            slack = factor * xn[i] + slack0
            if m > level + slack:
                pos += 1
                continue
            if m - level < -slack:
                mistake = True
            else:
                return UNDECIDED, pos, nout
        if not mistake:
            pos += 1
            continue
        step = eta * y[i]
        changed = False
        moved = False
        if dual:
            old = w[i]
            w[i] = old + step
            changed = w[i] != old
            moved = step != 0.0
        else:
            for j in range(M):
                d = step * X[i, j]
                new = w[j] + d
                if new != w[j]:
                    changed = True
                if d != 0.0:
                    moved = True
                w[j] = new
        for j in range(M):
            if not math.isfinite(w[j]):
                return OVERFLOW, pos, nout
        if moved and not changed:
            return LOST, pos, nout
        out[nout] = i
        nout += 1
        use_ws, level, factor, wn, zero = _scale(w, ws, beta, sx, c)
        slack0 = floor * (1.0 + wn) + abs(level) * _TINY
        pos += 1
    return DONE, pos, nout


@njit(cache=True, nogil=True)
def row_max(X):  # pragma: no cover - compiled
    """``max_j |X[i, j]|`` for every row, in one pass and without a temporary."""
    P, M = X.shape
    out = np.zeros(P)
    for i in range(P):
        top = 0.0
        for j in range(M):
            a = abs(X[i, j])
            if a > top:
                top = a
        out[i] = top
    return out
