"""Geometry of labelled patterns: separability, general position, margins.

Everything here is about hyperplanes, either through the origin (the default) or
with a threshold (``threshold=True``, affine hyperplanes ``w.x + b = 0``). A
threshold is handled by the bias trick: the pattern ``x`` becomes ``(x, 1)`` and
the problem becomes one through the origin in one more dimension.

Numerical honesty: the verdicts come from floating-point solvers, so each one is
*checked* before it is returned. A separator is only reported after its margins
have been recomputed from the data and found strictly positive; the maximum-margin
solution is only returned with a duality-gap certificate (its margin and the
weak-duality bound from its multipliers agree to 1e-9 relative, plus float64
resolution), and "not separable" always comes from the same linear program as
:func:`is_separable`. Data are scaled internally, so every function gives the same
answer (margins scaled accordingly) at any float64 scale, 1e-300 to 1e300.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import scipy.linalg
from numpy.typing import ArrayLike, NDArray
from scipy.linalg.lapack import dpotrf, dtrtrs
from scipy.optimize import linprog, nnls

from perclib._validation import (
    as_flag,
    as_labels,
    as_patterns,
    as_plane_data,
    as_positive_float,
    as_real,
    as_weights,
    exponent,
    refuse_overflow,
    reject_complex,
    unit_rows,
)

# A separator counts only if its worst normalised margin exceeds this. Patterns are
# scaled to unit norm before the LP, so the number is relative: data whose best
# separator leaves some pattern closer than 1e-9 * ||x|| to the hyperplane (after
# the normalisation of the weights) are reported as not separable.
SEPARABILITY_TOL = 1e-9

# HiGHS's default feasibility tolerance (1e-7) is far coarser than the decision
# threshold above; tighten it so that the LP value can be trusted at that level.
_HIGHS_OPTIONS = {
    "primal_feasibility_tolerance": 1e-10,
    "dual_feasibility_tolerance": 1e-10,
}

# More subsets than this make the general-position test impractically slow.
MAX_SUBSETS = 2_000_000


def _normalised(X: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    """``(X / s, s)`` with ``s`` the largest row norm (``(X, 0.0)`` if ``X == 0``).

    Scale-free questions (separability, the direction of the maximum-margin
    hyperplane) are answered on ``X / s``; dividing by the largest entry first keeps
    the norms finite and non-zero for data anywhere in the float64 range.
    """
    with np.errstate(over="ignore"):  # inf is caught below and redone with scaling
        r = float(np.max(np.linalg.norm(X, axis=1)))
    if 1e-140 < r < 1e140:  # squares neither overflow nor (for the largest) underflow
        return X / r, r
    amax = float(np.max(np.abs(X)))
    if amax == 0:
        return X.copy(), 0.0
    Xa = X / amax
    r = float(np.max(np.linalg.norm(Xa, axis=1)))
    return Xa / r, amax * r


def _homogeneous(X: NDArray[np.float64], threshold: bool) -> NDArray[np.float64]:
    """Patterns as seen by a hyperplane through the origin (augmented if threshold)."""
    if threshold:
        return np.hstack([X, np.ones((X.shape[0], 1))])
    return X


# ---------------------------------------------------------------------------
# Separability (linear programming)
# ---------------------------------------------------------------------------


class _LPVerdict(NamedTuple):
    """Outcome of :func:`_max_min_lp`."""

    t: float  # optimal worst-case margin on unit rows, >= 0
    w: NDArray[np.float64] | None  # a verified strict separator, or None
    conflict: NDArray[np.intp] | None  # rows proving non-separability, if verified


def _max_min_lp(J: NDArray[np.float64]) -> _LPVerdict:
    """Best worst-case margin of reflected patterns ``J`` (rows ``y_i x_i``).

    Solves  max t  subject to  J_i . w >= t,  -1 <= w_j <= 1,  t <= 1,  on the rows
    of ``J`` scaled to unit length (separability does not depend on the row scale,
    and unit rows make ``t`` comparable across patterns). The box only fixes the
    scale of ``w``: any separator can be rescaled into it. ``w = 0, t = 0`` is always
    feasible, so ``t* >= 0`` and ``t* > 0`` exactly when the rows are separable.

    When separable (``t* > SEPARABILITY_TOL``) the returned ``w`` is checked to
    separate the original rows strictly in floating point. Otherwise the LP's dual
    multipliers ``lam`` (>= 0, summing to 1) give a certificate (Gordan's theorem):
    ``sum_i lam_i U_i`` is (nearly) the zero vector, so no ``w`` can make every
    ``U_i . w`` positive. Its support ``conflict`` is a subset of rows that is
    already non-separable on its own; it is returned only if the certificate checks
    out: ``||sum lam_i U_i||_1 <= SEPARABILITY_TOL``, which bounds ``t*`` of any
    set of rows containing this subset by the same tolerance.
    """
    P, D = J.shape
    at_origin = ~np.any(J, axis=1)
    if np.any(at_origin):
        # A pattern at the origin (no threshold) has y (w.x) = 0 for every w.
        return _LPVerdict(0.0, None, np.flatnonzero(at_origin)[:1])
    for j in range(D):
        # A column of one sign separates on its own (one class with a threshold: w = 0,
        # b = y). Decided here, not by the LP, whose margin is relative to each row's
        # length and can fall below the tolerance when the column is tiny beside the rest.
        if np.all(J[:, j] > 0) or np.all(J[:, j] < 0):
            w = np.zeros(D)
            w[j] = 1.0 if J[0, j] > 0 else -1.0
            return _LPVerdict(float(np.min(np.abs(unit_rows(J)[:, j]))), w, None)
    U, col = _equilibrated(J)
    verdict = _lp_on_scaled(U, col)
    if verdict.w is None:
        # A second look in other units, only where they differ by more than 2**3 in
        # some column: taking each row's and column's largest entry can hide a column
        # (four points 1e300 in size with a threshold, one at the origin, keep the
        # column of ones at 1, where every other row sees the threshold at 1e-300);
        # the least-squares exponents bring it back. A separator from either LP is
        # verified on the rows, so taking the one that finds it changes no true answer.
        U_ls, col_ls = _equilibrated(J, least_squares=True)
        if np.max(np.abs(col_ls - col), initial=0) > 3:
            second = _lp_on_scaled(U_ls, col_ls)
            if second.w is not None:
                return second
    return verdict


def _lp_on_scaled(U: NDArray[np.float64], col: NDArray[np.int64]) -> _LPVerdict:
    """The LP of :func:`_max_min_lp` on the scaled unit rows ``U`` (columns ``2**col``)."""
    P, D = U.shape
    c = np.zeros(D + 1)
    c[-1] = -1.0  # linprog minimises, so minimise -t
    res = linprog(
        c, A_ub=_lp_rows(U), b_ub=np.zeros(P), bounds=_lp_bounds(D), method="highs",
        options=_HIGHS_OPTIONS,
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"separability LP failed: {res.message}")
    t_star = float(-res.fun)
    if t_star > SEPARABILITY_TOL:
        v = np.asarray(res.x[:D], dtype=np.float64)
        # Confirm on the rows themselves: a reported separator must work. (The scaled
        # rows have the same signs as J's, and U v = (J w) times positive row factors.)
        w, back = _unscaled(v, col)
        if np.all(U @ back > 0):
            return _LPVerdict(t_star, w, None)
        return _LPVerdict(t_star, None, None)  # pragma: no cover - t* > tol, check fails
    lam = -np.asarray(res.ineqlin.marginals, dtype=np.float64)
    support = np.flatnonzero(lam > 1e-12)
    if support.size and np.abs(lam[support] @ U[support]).sum() <= SEPARABILITY_TOL:
        return _LPVerdict(t_star, None, support)
    return _LPVerdict(t_star, None, None)


def _equilibrated(
    J: NDArray[np.float64], *, least_squares: bool = False
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Unit rows of ``J`` after scaling its columns by powers of two ``2**col``.

    Separability depends neither on the length of a row nor on the units of a column
    (``w_j`` absorbs them): ``J`` separable by ``w`` exactly when ``J 2**col`` is by
    ``w 2**-col``. By default each row and column is scaled so that its largest entry
    is near 1 (a few rounds of alternate row and column scaling, on the exponents
    alone, so nothing overflows): patterns 1e200 and 1e-200 in size, or a feature in
    nanometres beside one in kilometres, give the LP the same well-scaled problem.
    With ``least_squares=True`` the exponents are Curtis and Reid's instead: those that
    bring the binary exponents of all nonzero entries closest to 0 in the
    least-squares sense (alternating averages). That sees a column the largest
    entries hide, and is thrown off by tiny entries (a 1e-6 perturbation of zeros):
    :func:`_max_min_lp` uses it only for a second look. Powers of two are exact.
    """
    A = np.abs(J)
    nonzero = A > 0
    E = np.where(nonzero, np.frexp(A)[1], -(2**20)).astype(np.int64)  # each entry's exponent
    used = np.any(nonzero, axis=0)
    col = np.zeros(J.shape[1], dtype=np.int64)
    if least_squares:
        per_row = np.maximum(nonzero.sum(axis=1), 1)
        per_col = np.maximum(nonzero.sum(axis=0), 1)
        c = np.zeros(J.shape[1])
        for _ in range(60):  # Gauss-Seidel on the normal equations; exact fits converge fast
            r = -np.where(nonzero, E + c[None, :], 0).sum(axis=1) / per_row
            c_new = np.where(used, -np.where(nonzero, E + r[:, None], 0).sum(axis=0) / per_col, 0)
            done = np.max(np.abs(c_new - c), initial=0) < 0.25
            c = c_new
            if done:
                break
        col = np.rint(c).astype(np.int64)
    else:
        for _ in range(3):
            row = -np.max(E + col[None, :], axis=1)
            col = np.where(used, -np.max(E + row[:, None], axis=0), 0)
    # Row shifts that bring every row's largest entry near 1: no overflow, and the unit
    # rows are those of J 2**col.
    row = np.where(np.any(nonzero, axis=1), -np.max(E + col[None, :], axis=1), 0)
    with np.errstate(under="ignore"):
        return unit_rows(np.ldexp(J, col[None, :] + row[:, None])), col


def _unscaled(
    v: NDArray[np.float64], col: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``w = v 2**col`` as a separator of the unscaled rows, shifted to largest entry in [1/2, 1).

    Returns ``w`` and ``w`` mapped back to the scaled problem (``v`` itself, bar entries
    far below the largest, which may underflow: the caller re-checks with it).
    """
    e = np.frexp(v)[1] + col
    shift = int(np.max(np.where(v != 0, e, np.iinfo(np.int64).min))) if np.any(v) else 0
    with np.errstate(under="ignore"):
        w = np.ldexp(v, col - shift)
        return w, np.ldexp(w, shift - col)


def _lp_rows(U: NDArray[np.float64]) -> NDArray[np.float64]:
    """The constraints ``t - U_i . w <= 0`` over the variables ``(w, t)``."""
    return np.hstack([-U, np.ones((U.shape[0], 1))])


def _lp_bounds(D: int) -> list[tuple[float | None, float]]:
    """``-1 <= w_j <= 1`` (only fixes the scale of ``w``) and ``t <= 1``."""
    return [(-1.0, 1.0)] * D + [(None, 1.0)]


#: Block LPs above this many problems gain nothing more (the solve outgrows the overhead).
_BATCH = 64
#: Batch optima this far from the tolerance, on either side, decide without a second look.
_CLEAR_ABOVE, _CLEAR_BELOW = 1e-6, 1e-12


def _separable_many(problems: list[tuple[NDArray[np.float64], NDArray[np.float64]]],
                    threshold: bool) -> list[bool]:
    """:func:`is_separable` of many small checked problems, with one LP per batch.

    scipy's ``linprog`` spends about 3 ms per call before HiGHS starts; a Monte Carlo
    of small problems is all overhead. Here the LPs of :func:`_max_min_lp` are
    stacked block-diagonally with the objective ``max sum t_k``: the blocks share
    no variable, so each ``t_k`` is its own problem's optimum. Clear answers
    (``t_k > 1e-6`` with the separator re-checked, or ``t_k < 1e-12``) are kept;
    any other problem is decided by :func:`is_separable` itself, so the answers are
    always :func:`is_separable`'s.

    Examples
    --------
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    >>> _separable_many([(X, np.array([-1.0, -1.0, -1.0, 1.0])),
    ...                  (X, np.array([-1.0, 1.0, 1.0, -1.0]))], threshold=True)
    [True, False]
    """
    from scipy.sparse import block_diag, csr_matrix

    out: list[bool] = []
    for start in range(0, len(problems), _BATCH):
        chunk = problems[start : start + _BATCH]
        blocks, unit, answers = [], [], [None] * len(chunk)
        for k, (X, y) in enumerate(chunk):
            J = y[:, None] * _homogeneous(X, threshold)
            if not np.all(np.any(J, axis=1)):
                answers[k] = False  # a pattern on every hyperplane
                continue
            U = _equilibrated(J)[0]
            unit.append((k, U))
            blocks.append(csr_matrix(_lp_rows(U)))
        if blocks and len({U.shape[1] for _, U in unit}) > 1:
            blocks = []  # patterns of different lengths: each problem on its own below
        if blocks:
            D = unit[0][1].shape[1]
            c = np.tile(np.r_[np.zeros(D), -1.0], len(blocks))
            rows = sum(b.shape[0] for b in blocks)
            res = linprog(c, A_ub=block_diag(blocks, format="csr"), b_ub=np.zeros(rows),
                          bounds=_lp_bounds(D) * len(blocks), method="highs",
                          options=_HIGHS_OPTIONS)
            solution = res.x.reshape(len(blocks), D + 1) if res.status == 0 else None
            for j, (k, U) in enumerate(unit):
                if solution is None:
                    continue
                t, w = solution[j, -1], solution[j, :-1]
                if t > _CLEAR_ABOVE and np.all(U @ w > 0):
                    answers[k] = True
                elif t < _CLEAR_BELOW:
                    answers[k] = False
        for k, answer in enumerate(answers):
            out.append(is_separable(*chunk[k], threshold=threshold) if answer is None else answer)
    return out


def separating_weights(
    X: ArrayLike, y: ArrayLike, *, threshold: bool = False
) -> tuple[NDArray[np.float64], float] | None:
    """A hyperplane that strictly separates the labelled patterns, or None.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    threshold : bool, default False
        Allow a threshold (affine hyperplane ``w.x + b = 0``); otherwise ``b = 0``.

    Returns
    -------
    (w, b) or None
        ``w`` (shape (N,)) and ``b`` with ``y_i (w.x_i + b) > 0`` for every pattern,
        verified in floating point; ``b`` is 0.0 without threshold. None when the data
        are not separable (see :func:`is_separable` for the tolerance). The scale of
        ``(w, b)`` is arbitrary; use :func:`max_margin` for a canonical separator.

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> w, b = separating_weights(X, [-1, -1, -1, 1], threshold=True)  # AND
    >>> bool(np.all(np.array([-1, -1, -1, 1]) * (np.array(X) @ w + b) > 0))
    True
    >>> separating_weights(X, [-1, 1, 1, -1], threshold=True) is None  # XOR
    True
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    threshold = as_flag(threshold, "threshold")
    w_hat = _separability_lp(X, y, threshold).w
    if w_hat is None:
        return None
    if threshold:
        return w_hat[:-1].copy(), float(w_hat[-1])
    return w_hat, 0.0


def _separability_lp(X: NDArray[np.float64], y: NDArray[np.float64], threshold: bool) -> _LPVerdict:
    """The LP verdict on the rows ``y_i x_i`` (``y_i (x_i, 1)`` with a threshold).

    The separator ``w`` (with the bias last) is in the data's own units. The LP
    scales rows and columns by itself (:func:`_equilibrated`), so the verdict does not
    depend on the data's units, with a threshold too, and a pattern 1e-400 times
    smaller than the largest is not flushed to zero.
    """
    J = y[:, None] * _homogeneous(X, threshold)
    verdict = _max_min_lp(J)
    e = exponent(X)
    if verdict.w is not None or not threshold or abs(e) <= 3:
        return verdict
    # A second look with the threshold column in the data's units (exactly the problem
    # of X 2**-e): the verdict must not depend on the units, but the LP's scaling can
    # leave a column of ones beside patterns of 1e50 too small for any separator that
    # needs the threshold to stand out against the tolerance. (v, c) separates the
    # rows (y x, y 2**e) exactly when (v 2**-e, c), or (v, c 2**e), separates (y x, y):
    # the scaling that shrinks is taken, and the separator re-checked exactly.
    J[:, -1] = np.ldexp(J[:, -1], e)
    second = _max_min_lp(J)
    if second.w is None:
        return verdict
    w = second.w.copy()
    with np.errstate(under="ignore"):
        if e > 0:
            w[:-1] = np.ldexp(w[:-1], -e)
        else:
            w[-1] = np.ldexp(w[-1], e)
    from perclib._exact import exact_margin_signs

    if np.all(exact_margin_signs(_homogeneous(X, True), y, w[None, :]) > 0):
        return _LPVerdict(second.t, w, None)
    return verdict  # pragma: no cover - the separator did not survive its scaling


def is_separable(X: ArrayLike, y: ArrayLike, *, threshold: bool = False) -> bool:
    """Whether some hyperplane puts every pattern strictly on its label's side.

    Decided by a linear program (HiGHS): maximise the worst margin ``t`` of a weight
    vector in the box ``|w_j| <= 1`` over patterns scaled to unit length. The answer
    is True only when ``t* > 1e-9`` *and* the returned weights, re-checked on the
    original data, give ``y_i (w.x_i + b) > 0`` for every pattern. Two cases are
    decided without the tolerance, because it is relative to each pattern's length
    and the units of the data could otherwise change the verdict: one class with a
    threshold is always separable (``w = 0``, ``b = y``), and with a threshold a
    second LP looks at the data in units where the patterns are about 1 in size. Patterns lying on
    every candidate hyperplane (for example one at the origin without threshold)
    make the data non-separable: strictness is required.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    threshold : bool, default False
        Allow a threshold (affine hyperplanes); the default is hyperplanes through
        the origin.

    Returns
    -------
    bool

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> is_separable(X, [-1, -1, -1, 1], threshold=True)  # AND
    True
    >>> is_separable(X, [-1, 1, 1, -1], threshold=True)  # XOR
    False
    >>> is_separable([[1, 0], [2, 1]], [1, 1])  # through the origin
    True
    """
    return separating_weights(X, y, threshold=threshold) is not None


# ---------------------------------------------------------------------------
# General position
# ---------------------------------------------------------------------------


def in_general_position(X: ArrayLike, *, threshold: bool = False, tol: float = 1e-9) -> bool:
    """Whether the patterns are in general position, within a relative tolerance.

    Without threshold (hyperplanes through the origin, Cover's setting): no subset
    of at most N patterns is linearly dependent. This holds exactly when every
    subset of ``min(P, N)`` patterns has full rank, which is what is tested.
    With ``threshold=True`` the affine notion is used: the augmented patterns
    ``(x, 1)`` must be in general position in N + 1 dimensions; in the plane this
    means no two points equal and no three on a line.

    A subset counts as dependent when its smallest singular value is at most
    ``tol`` times its largest (its condition number exceeds ``1 / tol``). Batched
    determinants of the unit-length rows (a scale-free volume, at most 1) bound that
    ratio from below and pass nearly every subset at a tenth of an SVD's cost; the
    others are decided by their singular values. The data
    are first scaled to largest pattern norm 1 (before the column of ones is
    appended with ``threshold=True``), so the verdict does not depend on the units
    of the data, at any float64 scale; with a threshold it still depends on where
    the origin is.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    threshold : bool, default False
        Use the affine notion instead of the through-the-origin one.
    tol : float, default 1e-9
        Relative tolerance on singular values, in (0, 1).

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        If more than 2,000,000 subsets would have to be checked.

    Examples
    --------
    >>> in_general_position([[1, 0], [0, 1], [1, 1]])
    True
    >>> in_general_position([[1, 0], [2, 0]])  # parallel: dependent pair
    False
    >>> in_general_position([[0, 0], [1, 1], [2, 2]], threshold=True)  # on a line
    False
    """
    X = as_patterns(X)
    threshold = as_flag(threshold, "threshold")
    tol = as_real(tol, "tol")
    if not 0 < tol < 1:
        raise ValueError(f"tol must be between 0 and 1 (exclusive), got {tol}")
    Z = _homogeneous(_normalised(X)[0], threshold)
    P, D = Z.shape
    k = min(P, D)
    n_subsets = math.comb(P, k)
    if n_subsets > MAX_SUBSETS:
        raise ValueError(
            f"checking general position of {P} patterns in dimension {D} means testing "
            f"C({P}, {k}) = {n_subsets} subsets, more than the limit {MAX_SUBSETS}"
        )
    # Batched determinants of the unit rows pass the clearly independent subsets; the
    # few others get the SVD test itself, so the verdict is the SVD's (perclib._subsets).
    from perclib._subsets import all_subsets_well_conditioned

    return all_subsets_well_conditioned(Z, tol)


# ---------------------------------------------------------------------------
# Margins
# ---------------------------------------------------------------------------


def pattern_margins(
    w: ArrayLike, X: ArrayLike, y: ArrayLike, *, b: float = 0.0
) -> NDArray[np.float64]:
    """Signed distance of every pattern to the hyperplane ``w.x + b = 0``.

    The value ``y_i (w.x_i + b) / ||w||`` is positive for correctly classified
    patterns and negative for misclassified ones.

    Parameters
    ----------
    w : array_like, shape (N,)
        Weight vector (non-zero).
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    b : float, default 0
        Bias (``b = -theta`` for a unit with threshold ``theta``).

    Returns
    -------
    ndarray, shape (P,)

    Examples
    --------
    >>> pattern_margins([3, 4], [[1, 0], [0, -1]], [1, 1]).tolist()
    [0.6, -0.8]
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    w = as_weights(w, X.shape[1])
    b = as_real(b, "b")
    wmax = float(np.max(np.abs(w)))
    if wmax == 0:
        raise ValueError("w is the zero vector: it defines no hyperplane, so no margin")
    # Unit normal and data scaled to entries <= 1: no overflow or underflow at any
    # float64 scale (norms of 1e+-200 vectors would square to inf or 0).
    w_hat = w / wmax
    nw = float(np.linalg.norm(w_hat))
    w_hat /= nw
    b_hat = b / wmax / nw
    xmax = float(np.max(np.abs(X)))
    if xmax == 0:
        return y * b_hat
    with np.errstate(over="ignore"):
        margins = y * ((X / xmax) @ w_hat + b_hat / xmax) * xmax
    return refuse_overflow(margins, "a pattern's distance to the hyperplane")


def margin(w: ArrayLike, X: ArrayLike, y: ArrayLike, *, b: float = 0.0) -> float:
    """Margin of the hyperplane ``w.x + b = 0`` on labelled data.

    The smallest signed distance ``min_i y_i (w.x_i + b) / ||w||``: positive exactly
    when ``w`` (with ``b``) separates the data, and then the distance from the
    hyperplane to the closest pattern.

    Parameters
    ----------
    w : array_like, shape (N,)
        Weight vector (non-zero; its length does not matter).
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    b : float, default 0
        Bias.

    Returns
    -------
    float

    Examples
    --------
    >>> margin([1, 1], [[1, 0], [0, 2]], [1, 1])  # 1 / sqrt(2)
    0.7071067811865475
    """
    return float(np.min(pattern_margins(w, X, y, b=b)))


# ---------------------------------------------------------------------------
# Maximum margin (hard-margin SVM)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MaxMarginResult:
    """The maximum-margin separating hyperplane ``w.x + b = 0``.

    Attributes
    ----------
    w : ndarray, shape (N,)
        Unit-norm weight vector.
    b : float
        Bias (0.0 without threshold).
    gamma : float
        The margin: ``min_i y_i (w.x_i + b)``, the largest achievable.
    support : ndarray of int
        Indices of the support patterns, those at distance ``gamma`` from the
        hyperplane (within 1e-9 times the largest pattern norm), sorted.
    alpha : ndarray, shape (P,)
        Non-negative Lagrange multipliers (the SVM dual variables) with
        ``sum_i alpha_i y_i x_i == w / gamma`` (and ``sum_i alpha_i y_i == 0`` with
        a threshold); zero except on support patterns. When more patterns than
        necessary touch the margin, they are one valid choice among several. They
        scale like ``1 / R^2`` for data radius ``R``, so beyond ``R ~ 1e+-150``
        they underflow or overflow (the other fields do not).
    """

    w: NDArray[np.float64]
    b: float
    gamma: float
    support: NDArray[np.int64]
    alpha: NDArray[np.float64]

    def __repr__(self) -> str:
        return (
            f"MaxMarginResult(gamma={self.gamma:.6g}, w={np.array2string(self.w, precision=4)}, "
            f"b={self.b:.6g}, support={self.support.tolist()})"
        )


class MarginResolutionError(ValueError):
    """The data are separable, but the maximum margin is below float64 resolution.

    Raised by :func:`max_margin` when the optimal margin is so small relative to the
    data radius (below about ``1e-12 * sqrt(N)`` of the largest pattern norm) that no
    float64 hyperplane can represent it to three significant digits: rounding the
    weights alone moves every margin by more than that. A ``ValueError``, so code
    that treats "no usable margin" alike can catch that.
    """


# Relative duality gap required of every result of max_margin (optimal margin proven
# to lie in [gamma, gamma * (1 + gap)]), on top of float64 resolution, see below.
GAP_TOL = 1e-9
_EPS = float(np.finfo(np.float64).eps)
# A returned hyperplane is stored in float64: rounding w moves each margin by about
# eps * sqrt(D) * (data radius), so a margin gamma (data radius 1) cannot be known
# better than _RES_FACTOR * eps * sqrt(D) / gamma relative. Beyond _RES_LIMIT the
# answer is refused (MarginResolutionError) rather than returned uncertified.
_RES_FACTOR = 8.0
_RES_LIMIT = 1e-3
# Working-set rows whose QR diagonal falls below this (relative) count as dependent.
# Rows have norm <= sqrt(2); the smallest diagonal of independent tight rows is
# about the margin, so this is far below any margin that can be certified.
_RANK_TOL = 1e-14
# Certified margins below this (data radius 1) are confirmed by the separability LP,
# so that max_margin never returns a margin where is_separable says "not separable".
_LP_CONFIRM_MARGIN = 1e-8


def _resolution(gamma: float, D: int) -> float:
    """Relative float64 resolution of a margin ``gamma`` of a unit-radius problem."""
    return _RES_FACTOR * _EPS * math.sqrt(D) / gamma if gamma > 0 else math.inf


class _WorkingSet:
    """Orthogonal factorisation of the equality problem on the working set ``W``.

    Minimise ``1/2 ||w||^2`` subject to ``G_W z = r`` with ``z = w`` or ``z = (w, b)``
    (the bias is free). With a threshold, a Householder reflection ``H`` maps the
    bias column ``v = G_W[:, -1]`` onto ``e_1``: the first reflected row then only
    fixes ``b``, and the others, ``C w = (H r)[1:]`` with ``C = (H A_W)[1:]``, give
    the minimum-norm ``w`` through a QR factorisation ``C^T = Q R``:
    ``w = Q R^{-T} d`` and ``w = C^T mu`` with ``R mu = R^{-T} d``. The multipliers of
    the original rows are ``lam = H (0, mu)``, so that ``w = A_W^T lam`` and
    ``v . lam = 0``. Unlike the normal equations (``A A^T``, condition number growing
    like 1 / gamma^2), this works with ``C`` itself (condition ~ 1 / gamma).

    With ``form_q=False`` (the fast float64 pass) the same ``R`` comes from a
    Cholesky factorisation of ``C C^T`` and ``w = C^T R^{-1} R^{-T} d``: several
    times faster on wide working sets, but with the normal equations' accuracy
    (condition number squared). Its results are only accepted after the duality-gap
    certificate (on problems whose margin is far from float64 resolution); anything
    else goes to the orthogonal route. Rank is then judged more cautiously.
    """

    def __init__(
        self, G: NDArray[np.float64], n_w: int, W: list[int], form_q: bool = True
    ) -> None:
        self.G, self.n_w, self.W = G, n_w, W
        self.Q: NDArray[np.float64] | None = None
        self.threshold = G.shape[1] > n_w
        A = G[W, :n_w]
        self.empty = not W
        if self.threshold and self.empty:  # w = 0; the caller chooses the free bias
            self.k, self.ok = 0, True
            return
        if self.threshold:
            v = G[W, n_w]
            nv = float(np.linalg.norm(v))
            sgn = 1.0 if v[0] >= 0 else -1.0
            u = v.copy()
            u[0] += sgn * nv
            self.u, self.beta, self.hv0 = u, 2.0 / float(u @ u), -sgn * nv
            HA = A - self.beta * np.outer(u, u @ A)
            self.h0, C = HA[0], HA[1:]
        else:
            C = A
        self.k = C.shape[0]
        self.ok = self.k <= n_w
        if self.k and self.ok:
            if form_q:
                self.Q, self.R = np.linalg.qr(C.T)
                rank_tol = _RANK_TOL
            else:
                self.C = C
                self.R, info = dpotrf(C @ C.T, lower=0, clean=1)
                rank_tol = 1e-7  # Cholesky sees sigma_min only to ~sqrt(eps)
                if info != 0:
                    self.ok = False
                    return
            d = np.abs(np.diag(self.R))
            self.ok = bool(d.min() > rank_tol * max(1.0, float(d.max())))

    def solve(self, r: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        if self.empty:
            return np.zeros(self.G.shape[1]), np.zeros(0)
        if self.threshold:
            hr = r - self.beta * self.u * float(self.u @ r)
            d = hr[1:]
        else:
            d = r
        if self.k:
            # LAPACK's triangular solve directly: the scipy wrapper's checks cost more
            # than the solve on these small systems.
            t = dtrtrs(self.R, d, lower=0, trans=1)[0]
            mu = dtrtrs(self.R, t, lower=0, trans=0)[0]
            w = self.Q @ t if self.Q is not None else self.C.T @ mu
        else:
            w, mu = np.zeros(self.n_w), np.zeros(0)
        if not self.threshold:
            return w, mu
        b = (hr[0] - float(self.h0 @ w)) / self.hv0
        lam = np.concatenate([[0.0], mu])
        lam = lam - self.beta * self.u * float(self.u @ lam)
        return np.append(w, b), lam

    def refined(
        self, steps: int = 2, precise: bool = True
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Solution for ``r = 1`` with iterative refinement (residuals in long double if precise)."""
        dtype = np.longdouble if precise else np.float64
        GW = self.G[self.W].astype(dtype)
        z, lam = self.solve(np.ones(len(self.W)))
        for _ in range(steps):
            res = (1 - GW @ z.astype(dtype)).astype(np.float64)
            if not np.any(res):
                break
            dz, dlam = self.solve(res)
            z, lam = z + dz, lam + dlam
        return z, lam


def _independent(G: NDArray[np.float64], W: list[int]) -> list[int]:
    """A numerically independent subset of the rows ``W`` of ``G`` (pivoted QR)."""
    if not W:
        return []
    R, piv = scipy.linalg.qr(G[W].T, mode="r", pivoting=True)
    d = np.abs(np.diag(R))
    if d.size == 0 or d[0] == 0:
        return []
    keep = piv[: int(np.count_nonzero(d > _RANK_TOL * d[0]))]
    return sorted(W[i] for i in keep)


def _kkt_tolerances(z: NDArray[np.float64], lam: NDArray[np.float64], D: int) -> tuple[float, float]:
    # Rounding in G z grows with ||z|| = 1 / margin; multipliers are compared with their sum.
    slack_tol = 1e-12 + 16 * _EPS * math.sqrt(D) * float(np.linalg.norm(z))
    lam_tol = 1e-12 * float(np.abs(lam).sum())
    return slack_tol, lam_tol


def _polish(
    G: NDArray[np.float64], n_w: int, W0: list[int], rounds: int, precise: bool = True
) -> tuple[NDArray[np.float64], list[int], NDArray[np.float64]] | None:
    """Exact solution from a guessed working set, corrected by single swaps.

    Solves the equality problem on ``W`` (QR, refined); while some multiplier is
    negative or some constraint violated, the most negative leaves and the most
    violated joins. Usually the guess is right or one swap away; None after
    ``rounds`` tries (the monotone active-set method then takes over).
    """
    W = sorted(set(W0))
    ws = _WorkingSet(G, n_w, W, form_q=precise)
    if not ws.ok:  # dependent guess (repeated or degenerate patterns)
        W = _independent(G, W)
    for k in range(rounds):
        if k or not ws.ok:
            ws = _WorkingSet(G, n_w, W, form_q=precise)
        if not ws.ok:
            return None
        # The float64 pass skips refinement: its certificate decides whether that was enough.
        z, lam = ws.refined(steps=2 if precise else 0, precise=precise)
        slack = G @ z - 1.0
        slack_tol, lam_tol = _kkt_tolerances(z, lam, G.shape[1])
        i_neg = int(np.argmin(lam)) if lam.size else -1
        j_viol = int(np.argmin(slack))
        neg = i_neg >= 0 and lam[i_neg] < -lam_tol
        viol = slack[j_viol] < -slack_tol
        if not neg and not viol:
            return z, W, lam
        new = [i for k, i in enumerate(W) if not (neg and k == i_neg)]
        if viol and j_viol not in new:
            new.append(j_viol)
        W = _independent(G, sorted(new))
    return None


def _primal_active_set(
    G: NDArray[np.float64], n_w: int, z: NDArray[np.float64], max_iter: int
) -> tuple[NDArray[np.float64], list[int], NDArray[np.float64]] | None:
    """Primal active-set method for  min 1/2 ||z[:n_w]||^2  s.t.  G z >= 1, from a feasible ``z``.

    The textbook algorithm (Nocedal & Wright, Numerical Optimization, 16.3); each
    equality problem on the working set ``W`` is solved by :class:`_WorkingSet`
    (QR, refined). A step is cut at the first constraint it would break, which
    joins ``W``; at a minimum on ``W`` the most negative multiplier leaves. The
    objective never increases, so it terminates. None if it does not within
    ``max_iter`` steps or a working set becomes numerically dependent.
    """
    W: list[int] = []
    at_minimum = False
    for _ in range(max_iter):
        ws = _WorkingSet(G, n_w, W)
        if not ws.ok:
            return None
        zW, lam = ws.refined(steps=1)
        if not W and ws.threshold:
            zW[n_w] = z[n_w]  # the bias is free on an empty working set: keep it
        p = zW - z
        if at_minimum or np.linalg.norm(p) <= 1e-13 * max(1.0, float(np.linalg.norm(z))):
            _, lam_tol = _kkt_tolerances(z, lam, G.shape[1])
            if not W or lam.min() >= -lam_tol:
                return zW if W else z, W, lam
            del W[int(np.argmin(lam))]
            at_minimum = False
            continue
        Gp = G @ p
        slack = np.maximum(G @ z - 1.0, 0.0)
        outside = np.ones(G.shape[0], dtype=bool)
        outside[W] = False
        # Rows with G_j p ~ 0 only by rounding depend on W: letting them block would
        # make W dependent, so only clearly decreasing rows count.
        cand = np.flatnonzero(outside & (Gp < -1e-12 * float(np.linalg.norm(p))))
        step, block = 1.0, -1
        if cand.size:
            ratios = slack[cand] / -Gp[cand]
            k = int(np.argmin(ratios))
            if ratios[k] < 1.0:
                step, block = float(ratios[k]), int(cand[k])
        z = z + step * p
        if block >= 0:
            W.append(block)
        else:
            at_minimum = True
    return None


class _LDPVerdict(NamedTuple):
    """Outcome of :func:`_ldp_max_margin`."""

    separable: bool
    z: NDArray[np.float64] | None = None  # a feasible point (G z >= 1), near optimal
    working_set: list[int] | None = None  # constraints with positive multiplier


def _ldp_max_margin(G: NDArray[np.float64]) -> _LDPVerdict | None:
    """Approximate minimum-norm ``w`` with ``G w >= 1`` from one non-negative least-squares problem.

    Lawson and Hanson's least-distance programming (Solving Least Squares Problems,
    1974, ch. 23): with ``E = [G^T; 1 ... 1]`` and ``f = (0, ..., 0, 1)``, let
    ``u >= 0`` minimise ``||E u - f||``. If ``s = 1 - sum(u) > 0``, then
    ``w = G^T u / s`` is the solution and ``u > 0`` marks its working set. If instead
    ``E u = f``, then ``u >= 0`` sums to 1 with ``G^T u = 0``: Gordan's certificate
    that no ``w`` makes every row positive (a claim the caller confirms by LP).
    ``s`` is about ``gamma^2``, so on thin problems ``w`` is inaccurate; what is used
    is the working set, which :func:`_polish` then solves exactly. Scipy's NNLS is
    compiled code, which makes this the fast route. None when it is inconclusive.
    """
    P, N = G.shape
    E = np.vstack([G.T, np.ones((1, P))])
    f = np.zeros(N + 1)
    f[-1] = 1.0
    try:
        u = nnls(E, f, maxiter=10 * (P + N))[0]
    except RuntimeError:  # pragma: no cover - NNLS terminates in practice
        return None
    total = float(u.sum())
    norms = np.linalg.norm(G, axis=1)
    if total > 0 and np.abs(G.T @ u).sum() <= SEPARABILITY_TOL * float(u @ norms):
        return _LDPVerdict(separable=False)
    s = 1.0 - total
    W = np.flatnonzero(u > 0).tolist()
    if s <= 0 or not W:
        return None
    z = G[W].T @ (u[W] / s)
    low = float(np.min(G @ z))
    return _LDPVerdict(True, z / low if low > 0 else None, W)


class _Solution(NamedTuple):
    z: NDArray[np.float64]
    W: list[int]
    lam: NDArray[np.float64]
    lower: float  # margin of the hyperplane z on the scaled data
    upper: float  # weak-duality bound on the optimal margin from lam


def _certify(
    G: NDArray[np.float64],
    n_w: int,
    z: NDArray[np.float64],
    W: list[int],
    lam: NDArray[np.float64],
    precise: bool = True,
) -> _Solution:
    """Bounds ``lower <= gamma* <= upper`` on the optimal margin (long double if precise).

    Lower: the margin of the hyperplane ``z`` itself. Upper: for ``a >= 0`` (``a`` =
    ``lam`` clipped) and any ``z`` with ``G z >= 1``, ``sum a <= sum a_i G_i z
    <= ||w|| ||v|| + |b| e`` with ``v = sum a_i G_i[:n_w]`` and ``e = |sum a_i
    G_i[n_w]|`` (the bias column; ``e = 0`` without threshold). At the optimum
    ``|b| <= 1 + ||w||`` (data radius 1, support patterns on both sides), so
    ``gamma* = 1 / ||w*|| <= (||v|| + e) / (sum a - e)``.
    """
    ld = np.longdouble if precise else np.float64
    zl = z.astype(ld)
    nw = np.sqrt(np.sum(zl[:n_w] ** 2))
    Gz = G.astype(ld) @ zl if precise else G @ z
    lower = float(np.min(Gz) / nw) if nw > 0 else 0.0
    a = np.maximum(lam, 0.0).astype(ld)
    S = a.sum()
    Ga = a @ G[W].astype(ld)
    nv = np.sqrt(np.sum(Ga[:n_w] ** 2))
    e = abs(Ga[n_w]) if G.shape[1] > n_w else ld(0)
    upper = float((nv + e) / (S - e)) if S > e else math.inf
    return _Solution(z, W, lam, lower, upper)


def _times_scale(z: NDArray[np.float64], scale: float) -> NDArray[np.float64]:
    """``(z[:-1] * scale, z[-1])`` up to a positive power of two (no overflow)."""
    factors = np.ones(z.size)
    factors[:-1] = scale if scale > 0 else 1.0
    mz, ez = np.frexp(z)
    mf, ef = np.frexp(factors)
    e = ez + ef
    top = int(np.max(np.where(z != 0, e, np.iinfo(np.int64).min))) if np.any(z) else 0
    with np.errstate(under="ignore"):
        return np.ldexp(mz * mf, e - top)


def _certified(sol: _Solution | None, D: int, precise: bool = True, P: int = 0) -> bool:
    """Whether the gap is within tolerance; a float64 certificate must be clearly so."""
    if sol is None or not sol.lower > 0:
        return False
    if not precise:
        # Both bounds are sums of up to max(P, D) terms of size ~1 whose result is
        # ~gamma: their float64 rounding (~eps sqrt(terms) / gamma relative, with a
        # safety factor 16) must fit, with the computed gap, within GAP_TOL.
        rounding = 16 * _EPS * math.sqrt(max(P, D)) / sol.lower
        return sol.upper <= sol.lower * (1 + GAP_TOL - rounding)
    return sol.upper <= sol.lower * (1 + GAP_TOL + _resolution(sol.lower, D))


def _solve_max_margin(
    X: NDArray[np.float64], y: NDArray[np.float64], Xs: NDArray[np.float64], threshold: bool
) -> _Solution | None:
    """Certified solution on the scaled data ``Xs``, None if the data are not separable.

    Routes, each checked by its duality gap before it is accepted: (1) the NNLS
    working set (with a threshold: of the problem whose bias column is scaled up,
    which charges ``(b / c)^2`` too), solved exactly by :func:`_polish`; (2) the
    monotone primal active-set method from a feasible point (the NNLS one, or the
    separability LP's). A "not separable" claim of NNLS is only believed once the
    separability LP (the one behind :func:`is_separable`, on the same ``X``) agrees.
    Raises MarginResolutionError when the margin is below float64 resolution.
    """
    P, N = Xs.shape
    G = y[:, None] * _homogeneous(Xs, threshold)
    D = G.shape[1]
    best: _Solution | None = None
    start: NDArray[np.float64] | None = None
    lp_checked = False

    def lp_separator() -> NDArray[np.float64] | None:
        # Exactly is_separable's computation; its data scaling is the same as ours.
        z0 = _separability_lp(X, y, threshold).w
        if z0 is None:
            return None
        if threshold:  # (w, b) for the rows (x, 1) is (w scale, b) for the rows (x / scale, 1)
            z0 = _times_scale(z0, _normalised(X)[1])
        low = float(np.min(G @ z0))
        if low > 0:
            return z0 / low
        # Separable (the LP's separator works on the data), but some pattern is so
        # much smaller than the largest that its margin vanishes at this scale.
        raise MarginResolutionError(
            "the data are separable, but some patterns are so much smaller than the "
            "largest (by a factor beyond float64's range) that the margin cannot be resolved"
        )

    for c in (10.0, 1000.0) if threshold else (1.0,):
        Gc = G
        if threshold:
            Gc = G.copy()
            Gc[:, N] *= c
        verdict = _ldp_max_margin(Gc)
        if verdict is None:
            continue
        if not verdict.separable:
            break  # same constraints for every c: the LP decides below
        if verdict.z is not None and start is None:
            start = verdict.z.copy()
            if threshold:
                start[N] *= c
        # First in float64 (enough for all but thin margins), then in long double.
        polished = _polish(G, N, verdict.working_set, rounds=8, precise=False)
        if polished is not None:
            sol = _certify(G, N, *polished, precise=False)
            if _certified(sol, D, precise=False, P=P):
                best = sol
                break
            polished = _polish(G, N, polished[1], rounds=8)
        else:
            polished = _polish(G, N, verdict.working_set, rounds=8)
        if polished is not None:
            sol = _certify(G, N, *polished)
            if _certified(sol, D):
                best = sol
                break
            if best is None or sol.upper / max(sol.lower, 1e-300) < best.upper / max(best.lower, 1e-300):
                best = sol
    if not _certified(best, D):
        if start is None:
            lp_checked = True
            start = lp_separator()
            if start is None:
                return None
        found = _primal_active_set(G, N, start, max_iter=20 * (P + D))
        if found is not None:
            sol = _certify(G, N, *found)
            if best is None or _certified(sol, D) or sol.lower > best.lower:
                best = sol
    if best is None or not _certified(best, D) or best.lower < _LP_CONFIRM_MARGIN:
        if not lp_checked and lp_separator() is None:
            return None
        if best is None or not best.lower > 0 or _resolution(best.lower, D) > _RES_LIMIT:
            raise MarginResolutionError(
                "the data are separable, but the largest margin is below what float64 "
                "arithmetic can resolve at this data scale (under about "
                f"{_RES_FACTOR * _EPS * math.sqrt(D) / _RES_LIMIT:.0e} of the largest pattern norm)"
            )
        if not _certified(best, D):  # pragma: no cover - not seen on any test problem
            raise MarginResolutionError(
                "the data are separable, but max_margin could not certify the maximum "
                f"margin (relative duality gap {best.upper / best.lower - 1:.1e}): the margin "
                "is too small relative to the data scale for float64 arithmetic"
            )
    return best


def max_margin(X: ArrayLike, y: ArrayLike, *, threshold: bool = False) -> MaxMarginResult:
    """The separating hyperplane with the largest margin (hard-margin SVM).

    Solves  min 1/2 ||w||^2  subject to  y_i (w.x_i + b) >= 1  for all patterns
    (``b = 0`` without threshold); the optimal margin is ``1 / ||w||``.
    The data are first scaled to largest pattern norm 1 (the answer scales
    linearly, so any float64 scale works). Fast route: one non-negative
    least-squares problem (Lawson and Hanson's least-distance programming; with a
    threshold, on the problem whose bias column is scaled up) finds the tight
    constraints; the exact problem on them is then solved by QR factorisation with
    iterative refinement, and corrected by swaps if a multiplier is negative or a
    constraint violated. Fallback: a primal active-set method (same QR solves) from
    a feasible point. Every answer is *certified*: the margin of the returned
    hyperplane and the weak-duality bound from its multipliers must agree to a
    relative gap of ``GAP_TOL = 1e-9``, plus the float64 resolution of the margin,
    ``8 eps sqrt(N) R / gamma`` for data radius ``R`` (negligible unless the margin
    is below about 1e-5 of ``R``). A "not separable" answer is always confirmed by
    the linear program of :func:`is_separable`, so the two never disagree.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    threshold : bool, default False
        Allow a threshold (affine hyperplane). Needs both labels present: with one
        class only, the margin could be made arbitrarily large.

    Returns
    -------
    MaxMarginResult
        ``.w`` (unit norm), ``.b``, ``.gamma``, ``.support``, ``.alpha``. The
        multipliers scale like ``1 / R^2``, so at extreme data scales (``R`` beyond
        about 1e+-150) they underflow or overflow; the rest does not.

    Raises
    ------
    ValueError
        If the data are not linearly separable (no margin exists).
    MarginResolutionError
        (a ValueError) If they are, but the maximum margin is below float64
        resolution relative to the data radius (about ``1e-12 sqrt(N) R``).

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> res = max_margin(X, [-1, -1, -1, 1], threshold=True)  # AND: x1 + x2 = 1.5
    >>> np.round(res.w * 2**0.5, 12).tolist(), round(res.b * 2**0.5, 12)
    ([1.0, 1.0], -1.5)
    >>> round(res.gamma * 2**0.5, 12), res.support.tolist()
    (0.5, [1, 2, 3])
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    threshold = as_flag(threshold, "threshold")
    P, N = X.shape
    if threshold and np.all(y == y[0]):
        raise ValueError(
            "max_margin with threshold=True needs patterns of both labels: with one "
            "class the threshold can move the hyperplane arbitrarily far away"
        )
    not_separable = ValueError(
        "the data are not linearly separable"
        + (" (with a threshold)" if threshold else " by a hyperplane through the origin")
        + ", so there is no maximum-margin separator"
    )
    # Work on scaled data (largest pattern norm 1) so tolerances are relative.
    Xs, scale = _normalised(X)
    if scale == 0:
        raise ValueError("the data are not linearly separable: every pattern is at the origin")
    refuse_overflow(scale, "the largest pattern norm (the scale of the margin)")
    sol = _solve_max_margin(X, y, Xs, threshold)
    if sol is None:
        raise not_separable
    z, W, lam = sol.z, sol.W, sol.lam
    w_s, b_s = z[:N], (float(z[N]) if threshold else 0.0)
    norm = float(np.linalg.norm(w_s))
    w_unit = w_s / norm
    # w_s . (x / scale) + b_s = 0 is the hyperplane w_unit . x + b_s * scale / norm = 0.
    b_hat = b_s / norm
    m = y * (Xs @ w_unit + b_hat)  # margins on the scaled data
    gamma_s = float(np.min(m))
    support = np.flatnonzero(m - gamma_s <= 1e-9).astype(np.int64)
    # Multipliers of the canonical problem on the original data (margins 1):
    # there w_c = w_s / scale = sum_i alpha_i y_i x_i, hence the factor 1 / scale^2.
    alpha = np.zeros(P)
    with np.errstate(over="ignore", under="ignore"):  # see Returns: alpha ~ 1 / R^2
        alpha[W] = np.maximum(lam, 0.0) / scale / scale
    gamma = refuse_overflow(gamma_s * scale, "the margin")
    b = refuse_overflow(b_hat * scale, "the threshold b")
    return MaxMarginResult(w=w_unit, b=b, gamma=gamma, support=support, alpha=alpha)


# ---------------------------------------------------------------------------
# The family H_gamma in the plane
# ---------------------------------------------------------------------------


def direction_margins(X: ArrayLike, y: ArrayLike, angles: ArrayLike) -> NDArray[np.float64]:
    """Margin of the unit normal ``(cos phi, sin phi)`` for every angle ``phi`` (2-D, no threshold).

    A brute-force scan: ``min_mu y_mu (cos phi x_mu1 + sin phi x_mu2)`` for each angle.

    Examples
    --------
    >>> direction_margins([[1.0, 0.0], [0.0, 2.0]], [1, 1], [0.0, np.pi / 4]).round(6).tolist()
    [0.0, 0.707107]
    """
    X, y = as_plane_data(X, y)
    reject_complex(angles, "angles", "an array of real numbers")
    phi = np.asarray(angles, dtype=np.float64)
    if phi.ndim > 1 or not np.all(np.isfinite(phi)):
        raise ValueError("angles must be a finite number or 1-D array of numbers")
    U = np.stack([np.cos(phi), np.sin(phi)], axis=-1)
    return np.min((U @ X.T) * y, axis=-1)


def admissible_arc(X: ArrayLike, y: ArrayLike, gamma: float) -> tuple[float, float] | None:
    """Angles ``phi`` whose unit normal ``(cos phi, sin phi)`` has margin >= ``gamma`` (2-D).

    Write the reflected pattern ``y_mu x_mu = r_mu (cos t_mu, sin t_mu)``. Its stability
    under the unit normal at angle ``phi`` is ``r_mu cos(phi - t_mu)``, which is
    ``>= gamma`` exactly on the arc ``|phi - t_mu| <= arccos(gamma / r_mu)``. For
    ``gamma > 0`` every such arc is shorter than a half-turn, so their intersection is
    a single arc (or empty): the set H_gamma of separators with margin >= gamma is an
    interval of directions. It is empty for ``gamma`` above the maximum margin and
    shrinks to the single optimal direction at the maximum margin.

    Parameters
    ----------
    X : array_like, shape (P, 2)
    y : array_like, shape (P,)
    gamma : float
        Required margin, > 0.

    Returns
    -------
    (lo, hi) or None
        The arc ``lo <= phi <= hi`` in radians (``hi - lo < pi``; ``lo`` in
        ``(-pi, pi]``, ``hi`` possibly beyond ``pi``), or None when it is empty.

    Examples
    --------
    >>> lo, hi = admissible_arc([[1.0, 1.0], [1.0, -1.0]], [1, 1], np.sqrt(0.5))
    >>> round(float(np.degrees(lo)), 6), round(float(np.degrees(hi)), 6)
    (-15.0, 15.0)
    >>> admissible_arc([[1.0, 1.0], [1.0, -1.0]], [1, 1], 1.01) is None  # max margin 1
    True
    """
    X, y = as_plane_data(X, y)
    gamma = as_positive_float(gamma, "gamma")
    J = y[:, None] * X
    with np.errstate(over="ignore", divide="ignore"):
        r = np.hypot(J[:, 0], J[:, 1])  # inf only for a length beyond 1.8e308
        ratio = gamma / r
    far = ~np.isfinite(r)
    if np.any(far):  # those lengths in units of 2**e (exact), where they are finite
        e = exponent(J)
        rs = np.hypot(*np.ldexp(J[far], -e).T)
        ratio[far] = np.ldexp(gamma, -e) / rs
    if np.any(ratio > 1):
        return None  # a pattern closer to the origin than gamma: no line through 0 clears it
    t = np.arctan2(J[:, 1], J[:, 0])
    half = np.arccos(ratio)  # < pi/2 for every pattern since gamma > 0
    # Unwrap all angles relative to the first pattern's: every admissible phi lies
    # within pi/2 of t_0, and each t_mu with a non-empty overlap within pi of t_0.
    t = t[0] + np.angle(np.exp(1j * (t - t[0])))
    lo = float(np.max(t - half))
    hi = float(np.min(t + half))
    if lo > hi:
        return None
    shift = 2 * np.pi * np.floor((lo + np.pi) / (2 * np.pi))  # bring lo into [-pi, pi)
    lo, hi = lo - shift, hi - shift
    if lo == -np.pi:
        lo, hi = lo + 2 * np.pi, hi + 2 * np.pi
    return lo, hi
