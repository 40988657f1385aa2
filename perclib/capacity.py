"""Capacity of a perceptron: how many labellings of P points a hyperplane can realise.

Helpers for lesson 4 (Cover's function counting theorem), next to
:mod:`perclib.counting`, which holds Cover's formula itself, the exact count and
the LP-based enumeration:

* the capacity curve ``C(P, N) / 2**P`` for a whole range of P at once (exact
  integers, then floats for plotting);
* a Monte Carlo estimate of the separable fraction for random patterns and labels;
* a second, LP-free exact enumeration of separable dichotomies through the cells of
  the hyperplane arrangement in weight space (used to cross-check the LP and to keep
  widgets fast);
* the ingredients of the recursion proof: which dichotomies of P points extend both
  ways to a new point, and the projection onto the complement of that point;
* degenerate point sets: the dependent subsets that cost dichotomies.

Conventions: patterns are rows, labels are -1/+1, a dichotomy counts only when it is
realised *strictly* (no pattern on the hyperplane). ``threshold=True`` means affine
hyperplanes (bias trick: patterns augmented with a constant 1).
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import (
    as_count,
    as_flag,
    as_labels,
    as_limit,
    as_patterns,
    as_real,
    as_rng,
    as_weights,
    exponent,
    norm,
    refuse_work,
    unit_rows,
)
from perclib.counting import (
    MAX_COVER_WORK,
    MAX_ENUMERATED,
    _as_max_count,
    _homogeneous,
    _refuse_huge,
    _unit_rows,
)
from perclib.data import gaussian_patterns, random_labels

# Relative tolerance for "x . r == 0" in the arrangement enumeration. Integer data
# (the Boolean cube) give exact zeros up to rounding of order 1e-16; random data stay
# far above this.
ARRANGEMENT_TOL = 1e-9
#: Default limit on the subsets :func:`dependent_subsets` checks (batched SVDs, ~1 us each).
MAX_SUBSETS = 2_000_000
#: Default limit on LP entries (trials x P x N) of :func:`separable_fraction_mc`.
MAX_MC_WORK = 10**8


# ---------------------------------------------------------------------------
# The capacity curve
# ---------------------------------------------------------------------------


def cover_counts(N: int, P_max: int, *, max_work: int | None = MAX_COVER_WORK) -> list[int]:
    """``[C(1, N), C(2, N), ..., C(P_max, N)]`` as exact integers, in O(P_max) steps.

    Uses the half-sum ``S(P) = C(P, N) / 2 = sum_{k<N} binom(P-1, k)`` and Pascal's
    rule summed over k: ``S(P+1) = 2 S(P) - binom(P-1, N-1)``, so a whole curve
    costs no more than one sum. The numbers have up to ``P_max`` bits, so the work
    is about ``P_max**2`` bit operations; more than ``max_work`` (default 10**9,
    ``P_max`` up to about 30,000) raises a ValueError first, None lifts the limit.

    Examples
    --------
    >>> cover_counts(2, 5)    # 2P in the plane
    [2, 4, 6, 8, 10]
    """
    N = as_count(N, "N", minimum=1)
    P_max = as_count(P_max, "P_max", minimum=1)
    max_work = as_limit(max_work, "max_work")
    refuse_work(P_max * P_max, max_work, task=f"cover_counts(N={N}, P_max={P_max})", unit="bit operations")
    counts = []
    half = 1  # S(1) = binom(0, 0)
    binom = 1 if N == 1 else 0  # binom(P - 1, N - 1), updated in place (no factorials)
    for P in range(1, P_max + 1):
        counts.append(2 * half)
        half = 2 * half - binom
        # binom(P, N - 1) = binom(P - 1, N - 1) * P / (P - N + 1), starting at P = N - 1
        binom = binom * P // (P - N + 1) if P >= N else int(P == N - 1)
    return counts


def capacity_curve(
    N: int, P_max: int, *, max_work: int | None = MAX_COVER_WORK
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The capacity curve of a perceptron with N inputs: ``(alpha, C(P, N) / 2**P)``.

    Parameters
    ----------
    N : int
        Input dimension (>= 1).
    P_max : int
        Largest number of patterns; the curve has one point per ``P = 1..P_max``.
    max_work : int or None
        Limit on the work of :func:`cover_counts` (``P_max**2`` bit operations).

    Returns
    -------
    alpha : ndarray, shape (P_max,)
        The load ``P / N``.
    fraction : ndarray, shape (P_max,)
        ``C(P, N) / 2**P``, computed exactly and rounded once to float.

    Examples
    --------
    >>> alpha, f = capacity_curve(3, 6)
    >>> alpha.tolist(), f.tolist()
    ([0.3333333333333333, 0.6666666666666666, 1.0, 1.3333333333333333, 1.6666666666666667, 2.0], \
[1.0, 1.0, 1.0, 0.875, 0.6875, 0.5])
    """
    N = as_count(N, "N", minimum=1)
    P_max = as_count(P_max, "P_max", minimum=1)
    counts = cover_counts(N, P_max, max_work=max_work)
    # int / int is correctly rounded in Python, even when 2**P overflows a float.
    fraction = np.array([c / (1 << P) for P, c in enumerate(counts, start=1)])
    alpha = np.arange(1, P_max + 1) / N
    return alpha, fraction


# ---------------------------------------------------------------------------
# Monte Carlo: random patterns, random labels, LP verdict
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeparableFractionEstimate:
    """Result of :func:`separable_fraction_mc`.

    Attributes
    ----------
    P, N : int
        Number of patterns and their dimension.
    n_trials, n_separable : int
        Trials run and how many of them were separable (LP verdict).
    fraction : float
        ``n_separable / n_trials``.
    stderr : float
        Binomial standard error ``sqrt(f (1 - f) / n_trials)`` of the estimate.
    """

    P: int
    N: int
    n_trials: int
    n_separable: int
    fraction: float
    stderr: float


def separable_fraction_mc(
    P: int,
    N: int,
    n_trials: int,
    *,
    threshold: bool = False,
    rng: object = None,
    max_work: int | None = MAX_MC_WORK,
) -> SeparableFractionEstimate:
    """Estimate the probability that random labels on random patterns are separable.

    Each trial draws P standard Gaussian patterns in R^N and P independent fair
    labels and asks the LP (:func:`perclib.is_separable`) for a verdict. Gaussian
    patterns are in general position with probability one, so the expectation is
    ``C(P, N) / 2**P`` (``C(P, N + 1) / 2**P`` with a threshold).

    The linear programs hold ``n_trials * P * N`` pattern entries in all; more than
    ``max_work`` (default 10**8, minutes of work) raises a ValueError before any
    work, None lifts the limit.

    Examples
    --------
    >>> est = separable_fraction_mc(4, 2, 200, rng=0)
    >>> abs(est.fraction - 0.5) < 4 * max(est.stderr, 0.01)    # C(4,2)/16 = 8/16
    True
    """
    P = as_count(P, "P", minimum=1)
    N = as_count(N, "N", minimum=1)
    n_trials = as_count(n_trials, "n_trials", minimum=1)
    threshold = as_flag(threshold, "threshold")
    gen = as_rng(rng)
    max_work = as_limit(max_work, "max_work")
    refuse_work(
        n_trials * P * N, max_work, unit="pattern entries in linear programs",
        task=f"separable_fraction_mc with P={P}, N={N}, n_trials={n_trials}",
    )
    from perclib.geometry import _separable_many  # scipy's LP solver, loaded when needed

    draws = []
    for _ in range(n_trials):  # X then y, trial after trial: the order of the draws is fixed
        X = gaussian_patterns(P, N, rng=gen)
        draws.append((X, random_labels(P, rng=gen)))
    hits = sum(_separable_many(draws, threshold))
    f = hits / n_trials
    return SeparableFractionEstimate(
        P=P, N=N, n_trials=n_trials, n_separable=hits, fraction=f,
        stderr=math.sqrt(f * (1.0 - f) / n_trials),
    )


# ---------------------------------------------------------------------------
# Exact enumeration through the cells of the arrangement (no LP)
# ---------------------------------------------------------------------------


def _row_space(Y: NDArray[np.float64]) -> NDArray[np.float64]:
    """Coordinates of the rows of Y in an orthonormal basis of their span."""
    _, s, vt = np.linalg.svd(Y, full_matrices=False)
    rank = int(np.sum(s > ARRANGEMENT_TOL * s[0])) if s.size and s[0] > 0 else 0
    return Y @ vt[:rank].T


def _null_rays(Ys: NDArray[np.float64]) -> NDArray[np.float64]:
    """Null vector of each stacked (D-1, D) matrix of full rank D-1 (batched SVD)."""
    _, s, vt = np.linalg.svd(Ys, full_matrices=True)  # (M, D-1), (M, D, D)
    full = s[:, -1] > ARRANGEMENT_TOL * s[:, 0]
    return vt[full, -1, :]


def _cells(X: NDArray[np.float64], rows: tuple[int, ...], memo: dict) -> set[tuple[int, ...]]:
    """Sign vectors (over ``rows``) of the open cells of the arrangement of ``X[rows]``.

    The cell of a weight vector w is the sign pattern of ``X[rows] @ w``; a cell is
    open when no row is orthogonal to w, i.e. the dichotomy is strictly realised.
    Every closed cell is a pointed cone (after projecting onto the span of the rows),
    so it has an extreme ray r, a line where the rows Z with ``x.r = 0`` have rank
    D - 1. Near r the signs off Z are those of ``x.r`` and the signs on Z range over
    the cells of Z alone: recursion on Z, memoised by index set.
    """
    if rows in memo:
        return memo[rows]
    Y = X[list(rows)]
    if np.any(np.all(np.abs(Y) <= 1e-300, axis=1)):
        memo[rows] = set()  # a pattern at the origin lies on every hyperplane
        return memo[rows]
    Y = _row_space(Y)
    D = Y.shape[1]
    if D == 1:
        s = tuple(int(v) for v in np.sign(Y[:, 0]))
        memo[rows] = {s, tuple(-v for v in s)}
        return memo[rows]
    norms = np.linalg.norm(Y, axis=1)
    result: set[tuple[int, ...]] = set()
    seen: set[tuple[int, ...]] = set()
    subsets = np.array(list(itertools.combinations(range(len(rows)), D - 1)))
    rays = np.concatenate([_null_rays(Y[chunk]) for chunk in np.array_split(
        subsets, max(1, subsets.shape[0] * D * D // 2_000_000))])
    dots = rays @ Y.T  # (M, |rows|)
    zero = np.abs(dots) <= ARRANGEMENT_TOL * norms[None, :]
    for r_dots, r_zero in zip(dots, zero, strict=True):
        Z = tuple(int(i) for i in np.flatnonzero(r_zero))
        if Z in seen:
            continue  # the same line of the arrangement, reached from another subset
        seen.add(Z)
        local = _cells(X, tuple(rows[i] for i in Z), memo)
        base = np.sign(r_dots).astype(int)
        for orientation in (1, -1):
            for pattern in local:
                signs = orientation * base
                signs[list(Z)] = pattern
                result.add(tuple(int(v) for v in signs))
    memo[rows] = result
    return result


def arrangement_dichotomies(
    X: ArrayLike, *, threshold: bool = False, max_count: int | None = MAX_ENUMERATED
) -> NDArray[np.int64]:
    """Every strictly separable dichotomy of the rows of X, found without any LP.

    Weight space is cut by the hyperplanes ``{w : w.x_i = 0}`` into open cells; the
    dichotomies realised by hyperplanes through the origin are exactly the sign
    patterns of these cells. Each cell is found from one of its extreme rays (see the
    module notes), which works for degenerate sets too (for example the Boolean cube).
    Cost grows like ``binom(P, D-1)`` with D the (augmented) dimension, and about
    0.2 ms per cell: meant for small sets (P up to ~16 in 5-D).

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    threshold : bool, default False
        Affine hyperplanes (the patterns are augmented with a constant 1).
    max_count : int or None, default MAX_ENUMERATED (20,000)
        Refuse, with a ValueError and before any work, a set whose number of cells
        may exceed this (Cover's bound C(P, rank), a few seconds of work at the
        default); None lifts the limit. As in :func:`perclib.separable_dichotomies`.

    Returns
    -------
    ndarray of int, shape (count, P)
        One row of -1/+1 per dichotomy, sorted lexicographically.

    Examples
    --------
    >>> arrangement_dichotomies([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]).shape   # C(3, 2) = 6
    (6, 3)
    >>> len(arrangement_dichotomies([[0, 0], [0, 1], [1, 0], [1, 1]], threshold=True))   # not XOR, not XNOR
    14
    """
    X = as_patterns(X)
    threshold = as_flag(threshold, "threshold")
    max_count = _as_max_count(max_count)
    # Rows of unit length after exact power-of-two scaling of rows and columns: signs
    # do not change, tolerances become relative, and no scale overflows (patterns
    # near 1.8e308 once became zero rows here) or hides a column.
    H = _unit_rows(X, threshold)
    if H is None:  # a pattern at the origin lies on every hyperplane
        return np.empty((0, X.shape[0]), dtype=np.int64)
    _refuse_huge(H, max_count)
    cells = _cells(H, tuple(range(H.shape[0])), {})
    return np.array(sorted(cells), dtype=np.int64).reshape(-1, X.shape[0])


# ---------------------------------------------------------------------------
# The recursion C(P+1, N) = C(P, N) + C(P, N-1), on actual points
# ---------------------------------------------------------------------------


def project_out(X: ArrayLike, v: ArrayLike) -> NDArray[np.float64]:
    """Coordinates of the rows of X projected onto the hyperplane orthogonal to v.

    The result lives in R^(N-1): coordinates in an orthonormal basis of ``v``'s
    orthogonal complement. A hyperplane through the origin that contains ``v`` acts on
    the patterns only through these projections.

    Examples
    --------
    >>> project_out([[3.0, 4.0, 5.0]], [0.0, 0.0, 2.0]).round(12).tolist()   # drop the z part
    [[3.0, 4.0]]
    """
    X = as_patterns(X)
    v = as_weights(v, X.shape[1], name="v")
    if X.shape[1] < 2:
        raise ValueError("project_out needs N >= 2: the complement of a line in R^1 is {0}")
    if not np.any(v):
        raise ValueError("v is the zero vector: it has no orthogonal complement of dimension N-1")
    # Only v's direction matters: a v far from 1 in size is scaled exactly (a power of
    # two) to entries near 1 first, so that a subnormal v, whose norm would round to a
    # few bits, is a direction too.
    if not 2.0**-500 < float(np.max(np.abs(v))) < 2.0**500:
        v = np.ldexp(v, -exponent(v))
    u = v / norm(v)
    # Householder reflection mapping u to e_N; its first N-1 rows span u's complement.
    e = np.zeros_like(u)
    e[-1] = 1.0
    h = u - e if u[-1] <= 0 else u + e
    H = np.eye(u.size) - 2.0 * np.outer(h, h) / float(h @ h)
    basis = H[:-1]  # orthonormal rows, each orthogonal to u
    if np.array_equal(u, e):
        basis = np.eye(u.size)[:-1]
    return X @ basis.T


@dataclass(frozen=True)
class ExtensionSplit:
    """Result of :func:`extension_split`.

    Attributes
    ----------
    both : ndarray of int, shape (k, P)
        Separable dichotomies of the old points that stay separable whichever label
        the new point gets (they are "split" into two by the new point).
    one_way : ndarray of int, shape (m, P)
        Separable dichotomies of the old points that extend with one label only.
    new_total : int
        Separable dichotomies of all P + 1 points: ``2 * k + m``.
    """

    both: NDArray[np.int64]
    one_way: NDArray[np.int64]
    new_total: int


def extension_split(
    X: ArrayLike,
    x_new: ArrayLike,
    *,
    threshold: bool = False,
    max_count: int | None = MAX_ENUMERATED,
) -> ExtensionSplit:
    """Sort the separable dichotomies of X by how they extend to the point ``x_new``.

    Every separable dichotomy of the P + 1 points restricts to a separable dichotomy
    of the first P; a dichotomy of the first P appears with both labels of ``x_new``
    or with one. Counting both kinds gives the recursion of Cover's theorem:
    ``C(P+1, N) = (#one_way + #both) + #both``. The dichotomies come from
    :func:`arrangement_dichotomies`, with its ``max_count`` guard (on the P + 1 points).

    Examples
    --------
    >>> X = [[1.0, 0.2], [0.3, 1.0]]
    >>> split = extension_split(X, [-1.0, 0.5])
    >>> len(split.both) + len(split.one_way), split.new_total      # C(2,2) = 4, C(3,2) = 6
    (4, 6)
    """
    X = as_patterns(X)
    x_new = as_weights(x_new, X.shape[1], name="x_new")
    threshold = as_flag(threshold, "threshold")
    new = arrangement_dichotomies(np.vstack([X, x_new]), threshold=threshold, max_count=max_count)
    old = arrangement_dichotomies(X, threshold=threshold, max_count=max_count)
    extend = {(tuple(row[:-1]), int(row[-1])) for row in new}
    both = [row for row in old if (tuple(row), 1) in extend and (tuple(row), -1) in extend]
    one = [row for row in old if ((tuple(row), 1) in extend) != ((tuple(row), -1) in extend)]
    P = X.shape[0]
    return ExtensionSplit(
        both=np.array(both, dtype=np.int64).reshape(-1, P),
        one_way=np.array(one, dtype=np.int64).reshape(-1, P),
        new_total=len(new),
    )


# ---------------------------------------------------------------------------
# Degenerate sets
# ---------------------------------------------------------------------------


def dependent_subsets(
    X: ArrayLike,
    size: int,
    *,
    threshold: bool = False,
    tol: float = 1e-9,
    max_work: int | None = MAX_SUBSETS,
) -> list[tuple[int, ...]]:
    """Index sets of ``size`` patterns that are linearly dependent (affinely, with threshold).

    General position forbids exactly these for ``size <= N`` (``<= N + 1`` with a
    threshold). With ``threshold=True`` and ``size = 4`` in R^3 they are the coplanar
    quadruples. A subset counts as dependent when its smallest singular value is at
    most ``tol`` times its largest (rows scaled to unit length first).

    All ``binom(P, size)`` subsets are checked (batched SVDs, about a microsecond
    each); more than ``max_work`` (default 2,000,000) raises a ValueError before any
    work, None lifts the limit.

    Examples
    --------
    >>> dependent_subsets([[0, 0], [1, 1], [2, 2], [0, 1]], 3, threshold=True)   # collinear triple
    [(0, 1, 2)]
    """
    X = as_patterns(X)
    size = as_count(size, "size", minimum=1)
    threshold = as_flag(threshold, "threshold")
    tol = _as_tol(tol)
    max_work = as_limit(max_work, "max_work")
    P = X.shape[0]
    if size > P:
        raise ValueError(f"size must be at most the number of patterns ({P}), got {size}")
    n_subsets = math.comb(P, size)
    refuse_work(
        n_subsets, max_work, unit="subsets to check",
        task=f"dependent_subsets of size {size} among {P} patterns (binom({P}, {size}))",
    )
    H = unit_rows(_homogeneous(X, threshold))  # dependence does not see a row's length
    combos = itertools.combinations(range(P), size)
    if size > H.shape[1]:  # more vectors than dimensions: always dependent
        return list(combos)
    found: list[tuple[int, ...]] = []
    chunk = max(1, 200_000 // (size * H.shape[1]))
    while True:
        idx = np.array(list(itertools.islice(combos, chunk)), dtype=np.intp).reshape(-1, size)
        if idx.shape[0] == 0:
            return found
        s = np.linalg.svd(H[idx], compute_uv=False)  # (n, size), descending
        bad = s[:, -1] <= tol * np.maximum(s[:, 0], 1e-300)
        found.extend(tuple(int(i) for i in row) for row in idx[bad])


def _as_tol(tol: object) -> float:
    if isinstance(tol, bool) or not isinstance(tol, numbers.Real):
        raise TypeError(f"tol must be a real number, got {type(tol).__name__} {tol!r}")
    tol = as_real(tol, "tol")
    if not 0 <= tol < 1:
        raise ValueError(f"tol must be a relative tolerance in [0, 1), got {tol}")
    return tol


def _as_subsets(subsets: object, P: int) -> list[tuple[int, ...]]:
    """Validate a list of index tuples into ``range(P)``."""
    if isinstance(subsets, str | bytes) or not isinstance(subsets, Iterable):
        raise TypeError(f"subsets must be a list of index tuples, got {type(subsets).__name__}")
    out = []
    for s in subsets:
        if isinstance(s, str | bytes) or not isinstance(s, Iterable):
            raise TypeError(f"subsets must hold tuples of pattern indices, got {s!r}")
        idx = tuple(s)
        if not idx:
            raise ValueError("subsets contains an empty subset")
        for i in idx:
            if isinstance(i, bool) or not isinstance(i, numbers.Integral):
                raise TypeError(f"subsets must hold integer pattern indices, got {i!r} in {idx}")
            if not 0 <= int(i) < P:
                raise ValueError(f"subsets: index {int(i)} is out of range for {P} patterns")
        out.append(tuple(int(i) for i in idx))
    return out


def nonseparable_restrictions(
    X: ArrayLike, y: ArrayLike, subsets: list[tuple[int, ...]], *, threshold: bool = False
) -> list[tuple[int, ...]]:
    """The subsets on which the labelling y, restricted, is not separable (LP verdict).

    One such subset is a proof that y is not separable on all of X.

    Examples
    --------
    >>> from perclib import boolean_cube
    >>> y = [-1, 1, 1, -1, 1, 1, 1, 1]   # XOR on the face x1 = 0 of the 3-cube
    >>> nonseparable_restrictions(boolean_cube(3), y, [(0, 1, 2, 3), (4, 5, 6, 7)], threshold=True)
    [(0, 1, 2, 3)]
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    threshold = as_flag(threshold, "threshold")
    subsets = _as_subsets(subsets, X.shape[0])
    from perclib.geometry import is_separable  # scipy's LP solver, loaded when needed

    return [s for s in subsets if not is_separable(X[list(s)], y[list(s)], threshold=threshold)]
