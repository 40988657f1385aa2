"""Exact signs of dot products, for the few decisions rounding could get wrong.

The course's rule is that a pattern is a mistake when ``y (w.x) <= 0`` *exactly*:
a point on the hyperplane is a mistake even if the float64 dot product rounds it to
``1e-17``. Every decision is first taken in floating point with a rigorous bound on
the rounding error; only the margins within that bound of the decision level are
recomputed here, exactly, in integer arithmetic (each float is ``m * 2**e`` with an
integer ``m`` of 53 bits, so a dot product is an exact sum of integers).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

#: Unit roundoff of float64.
_U = 2.0**-53


def dot_error_bound(N: int) -> float:
    """Factor ``c`` with ``|fl(x.w) - x.w| <= c ||x|| ||w|| + N 2**-1060`` in float64.

    Any summation order (BLAS kernels, FMA or not) of N products is within
    ``gamma_N = N u / (1 - N u)`` of the exact value relative to ``sum |x_j w_j|``
    (Higham, *Accuracy and Stability*, 3.1), and ``sum |x_j w_j| <= ||x|| ||w||``.
    The factor 2 and the ``+ 4`` leave room for the rounding of the norms themselves;
    the absolute term covers underflow of products.

    Examples
    --------
    >>> dot_error_bound(10) < 1e-14
    True
    """
    return 2.0 * (N + 4) * _U / (1.0 - (N + 4) * _U)


def underflow_floor(N: int) -> float:
    """Absolute error from underflow in a dot product of N terms (generous)."""
    return (N + 4) * 2.0**-1060


def _as_ints(v: NDArray[np.float64]) -> tuple[list[int], list[int]]:
    """Integer mantissas and exponents with ``v_j = m_j * 2**e_j`` exactly."""
    mant, expo = np.frexp(v)
    m = np.ldexp(mant, 53).astype(np.int64)  # exact: 53-bit integers
    return m.tolist(), (expo.astype(np.int64) - 53).tolist()


def exact_dot_sign(x: NDArray[np.float64], w: NDArray[np.float64], level: float = 0.0) -> int:
    """The sign (-1, 0, +1) of ``x.w - level``, computed exactly.

    Examples
    --------
    >>> exact_dot_sign(np.array([1.0, 1e16, -1e16]), np.ones(3))  # float64 may lose the 1
    1
    >>> exact_dot_sign(np.array([0.7, 2.1]), np.array([2.1, -0.7]))  # an exact tie
    0
    """
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    if _float_is_exact(x[None, :], w[None, :], level):  # float64 is exact here: no big integers
        d = float(x @ w) - level
        return (d > 0) - (d < 0)
    keep = np.flatnonzero((x != 0) & (w != 0))
    mx, ex = _as_ints(x[keep])
    mw, ew = _as_ints(w[keep])
    terms = [(a * b, e + f) for a, e, b, f in zip(mx, ex, mw, ew, strict=True)]
    if level != 0.0:
        (ml,), (el,) = _as_ints(np.array([-float(level)]))
        terms.append((ml, el))
    if not terms:
        return 0
    low = min(e for _, e in terms)
    total = sum(m << (e - low) for m, e in terms)
    return (total > 0) - (total < 0)


def exact_margin_signs(
    X: NDArray[np.float64], y: NDArray[np.float64], W: NDArray[np.float64]
) -> NDArray[np.int64]:
    """Signs of ``y_i (w_k . x_i)`` for every row ``w_k`` of ``W`` and ``x_i`` of ``X``.

    Returns an array of shape ``(len(W), len(X))`` in {-1, 0, +1}. Floating point
    decides every entry whose margin is clear of zero by more than the rounding bound
    (after exact power-of-two scaling, so nothing overflows); the rest are computed
    exactly by :func:`exact_dot_sign`.

    Examples
    --------
    >>> X = np.array([[0.7, 2.1], [1.0, 0.0]]); W = np.array([[2.1, -0.7]])
    >>> exact_margin_signs(X, np.array([1.0, 1.0]), W).tolist()
    [[0, 1]]
    """
    from perclib._validation import exponent

    if _float_is_exact(X, W):  # small integers (lesson data, their weights): no rounding at all
        return np.sign((W @ X.T) * y).astype(np.int64)
    Xs = np.ldexp(X, -exponent(X))
    Ws = np.ldexp(W, -exponent(W))
    with np.errstate(under="ignore"):
        M = Ws @ Xs.T
    M *= y
    N = X.shape[1]
    # In place where possible: W and X may be thousands of rows (a voted perceptron).
    bound = np.multiply.outer(dot_error_bound(N) * _norms(Ws), _norms(Xs))
    bound += underflow_floor(N)
    close = np.abs(M) <= bound
    out = np.sign(M).astype(np.int64)
    for k, i in zip(*np.nonzero(close), strict=True):
        out[k, i] = int(y[i]) * exact_dot_sign(X[i], W[k])
    return out


def count_mistakes(X: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64]) -> int:
    """How many patterns ``w`` gets wrong, ``y (w.x) <= 0``, decided exactly.

    Examples
    --------
    >>> count_mistakes(np.array([[0.7, 2.1], [1.0, 0.0]]), np.array([1.0, 1.0]),
    ...                np.array([2.1, -0.7]))  # the first pattern lies on the line
    1
    """
    return int(np.count_nonzero(exact_margin_signs(X, y, np.asarray(w)[None, :]) <= 0))


def _float_is_exact(X: NDArray[np.float64], W: NDArray[np.float64], level: float = 0.0) -> bool:
    """Whether float64 computes every ``w_k . x_i - level`` exactly, in any summation order.

    True when all entries and ``level`` are integers and ``N max|x| max|w| + |level| <
    2**52``: every product, partial sum and difference is then an integer that float64
    holds exactly (integer lesson data and the perceptron's weights on them).

    Examples
    --------
    >>> _float_is_exact(np.array([[3.0, -4.0]]), np.array([[4.0, 3.0]]))
    True
    >>> _float_is_exact(np.array([[0.7, 2.1]]), np.array([[2.1, -0.7]]))
    False
    """
    if X.size == 0 or W.size == 0:
        return False
    with np.errstate(over="ignore", invalid="ignore"):
        top = float(np.max(np.abs(X))) * float(np.max(np.abs(W))) * X.shape[1] + abs(level)
    if not top < 2.0**52:  # also False for inf and NaN
        return False
    return bool(level == np.trunc(level) and np.all(X == np.trunc(X)) and np.all(W == np.trunc(W)))


def _norms(A: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row norms of an array with entries at most 1 in size (no overflow possible)."""
    with np.errstate(under="ignore"):
        return np.sqrt(np.einsum("ij,ij->i", A, A)) * (1.0 + 4 * _U)
