"""Geometry of labelled patterns: separability, general position, margins.

Everything here is about hyperplanes, either through the origin (the default) or
with a threshold (``threshold=True``, affine hyperplanes ``w.x + b = 0``). A
threshold is handled by the bias trick: the pattern ``x`` becomes ``(x, 1)`` and
the problem becomes one through the origin in one more dimension.

Numerical honesty: the verdicts come from floating-point solvers, so each one is
*checked* before it is returned. A separator is only reported after its margins
have been recomputed from the data and found strictly positive; the maximum-margin
solution is only returned after the optimality (KKT) conditions have been verified.
"""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import linprog, nnls

from perclib._validation import (
    as_labels,
    as_patterns,
    as_positive_float,
    as_weights,
    reject_complex,
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


def _as_flag(value: object, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def _as_real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value}")
    return value


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
    norms = np.linalg.norm(J, axis=1)
    if np.any(norms == 0):
        # A pattern at the origin (no threshold) has y (w.x) = 0 for every w.
        return _LPVerdict(0.0, None, np.flatnonzero(norms == 0)[:1])
    U = J / norms[:, None]
    c = np.zeros(D + 1)
    c[-1] = -1.0  # linprog minimises, so minimise -t
    A_ub = np.hstack([-U, np.ones((P, 1))])  # t - U_i . w <= 0
    bounds = [(-1.0, 1.0)] * D + [(None, 1.0)]
    res = linprog(
        c, A_ub=A_ub, b_ub=np.zeros(P), bounds=bounds, method="highs", options=_HIGHS_OPTIONS
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"separability LP failed: {res.message}")
    t_star = float(-res.fun)
    if t_star > SEPARABILITY_TOL:
        w = np.asarray(res.x[:D], dtype=np.float64)
        # Confirm on the original (unscaled) rows: a reported separator must work.
        if np.all(J @ w > 0):
            return _LPVerdict(t_star, w, None)
        return _LPVerdict(t_star, None, None)  # pragma: no cover - t* > tol, check fails
    lam = -np.asarray(res.ineqlin.marginals, dtype=np.float64)
    support = np.flatnonzero(lam > 1e-12)
    if support.size and np.abs(lam[support] @ U[support]).sum() <= SEPARABILITY_TOL:
        return _LPVerdict(t_star, None, support)
    return _LPVerdict(t_star, None, None)


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
    threshold = _as_flag(threshold, "threshold")
    w_hat = _max_min_lp(y[:, None] * _homogeneous(X, threshold)).w
    if w_hat is None:
        return None
    if threshold:
        return w_hat[:-1].copy(), float(w_hat[-1])
    return w_hat, 0.0


def is_separable(X: ArrayLike, y: ArrayLike, *, threshold: bool = False) -> bool:
    """Whether some hyperplane puts every pattern strictly on its label's side.

    Decided by a linear program (HiGHS): maximise the worst margin ``t`` of a weight
    vector in the box ``|w_j| <= 1`` over patterns scaled to unit length. The answer
    is True only when ``t* > 1e-9`` *and* the returned weights, re-checked on the
    original data, give ``y_i (w.x_i + b) > 0`` for every pattern. Patterns lying on
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
    ``tol`` times its largest (its condition number exceeds ``1 / tol``), so,
    through the origin, the verdict does not depend on the scale of the data. With
    ``threshold=True`` the appended column of ones does not scale with the data, so
    the verdict depends on the units and on where the origin is.

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
    threshold = _as_flag(threshold, "threshold")
    tol = _as_real(tol, "tol")
    if not 0 < tol < 1:
        raise ValueError(f"tol must be between 0 and 1 (exclusive), got {tol}")
    Z = _homogeneous(X, threshold)
    P, D = Z.shape
    k = min(P, D)
    n_subsets = math.comb(P, k)
    if n_subsets > MAX_SUBSETS:
        raise ValueError(
            f"checking general position of {P} patterns in dimension {D} means testing "
            f"C({P}, {k}) = {n_subsets} subsets, more than the limit {MAX_SUBSETS}"
        )
    # Subsets are checked in batches: one batched SVD per chunk of index tuples.
    subsets = itertools.combinations(range(P), k)
    chunk = max(1, 200_000 // (k * D))
    while True:
        idx = np.array(list(itertools.islice(subsets, chunk)), dtype=np.intp)
        if idx.size == 0:
            return True
        s = np.linalg.svd(Z[idx], compute_uv=False)  # shape (n, k), descending
        if np.any(s[:, -1] <= tol * s[:, 0]):
            return False


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
    b = _as_real(b, "b")
    norm = float(np.linalg.norm(w))
    if norm == 0:
        raise ValueError("w is the zero vector: it defines no hyperplane, so no margin")
    return y * (X @ w + b) / norm


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
        necessary touch the margin, they are one valid choice among several.
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


def _active_set_qp(
    G: NDArray[np.float64], n_w: int, z: NDArray[np.float64], max_iter: int
) -> tuple[NDArray[np.float64], list[int], NDArray[np.float64]]:
    """Primal active-set method for  min 1/2 ||z[:n_w]||^2  s.t.  G z >= 1.

    The textbook algorithm (Nocedal & Wright, Numerical Optimization, 16.3), started
    from a feasible ``z``. The working set ``W`` holds constraints treated as
    equalities; each iteration solves the equality-constrained problem on ``W``
    exactly (a small KKT linear system). If that moves ``z``, the step is cut at the
    first constraint it would break, which joins ``W``; if it does not, the KKT
    multipliers decide: all >= 0 means optimal, otherwise the constraint with the
    most negative multiplier leaves ``W``. A joining row always has ``G_j p < 0``
    while ``G_W p = 0``, so the rows of ``W`` stay linearly independent and the
    multipliers are unique. The trailing entries of ``z`` beyond ``n_w`` (the bias)
    are free: they do not appear in the objective.

    Returns the solution, its working set and the multipliers on it.
    """
    D = z.size
    H = np.zeros((D, D))
    H[np.arange(n_w), np.arange(n_w)] = 1.0
    W: list[int] = []
    lam = np.zeros(0)
    # After a full (unblocked) step, z minimises the objective on W: the next
    # direction is zero up to rounding, so test the multipliers without relying
    # on a threshold for ||p||.
    at_minimum = False
    for _ in range(max_iter):
        m = len(W)
        K = np.zeros((D + m, D + m))
        K[:D, :D] = H
        K[:D, D:] = -G[W].T
        K[D:, :D] = G[W]
        rhs = np.concatenate([-(H @ z), np.zeros(m)])
        sol = np.linalg.lstsq(K, rhs, rcond=None)[0]
        p, lam = sol[:D], sol[D:]
        if at_minimum or np.linalg.norm(p) <= 1e-13 * max(1.0, float(np.linalg.norm(z))):
            if m == 0 or lam.min() >= 0:
                return z, W, lam
            del W[int(np.argmin(lam))]
            at_minimum = False
            continue
        # Longest step in direction p that keeps every constraint satisfied.
        Gp = G @ p
        slack = np.maximum(G @ z - 1.0, 0.0)
        step, block = 1.0, -1
        outside = np.ones(G.shape[0], dtype=bool)
        outside[W] = False
        # Rows with G_j p ~ 0 only by rounding are combinations of the rows in W
        # (degenerate data: repeated or dependent patterns); letting them block
        # would make W linearly dependent, so only clearly decreasing rows count.
        cand = np.flatnonzero(outside & (Gp < -1e-12 * float(np.linalg.norm(p))))
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
    raise RuntimeError("max_margin: the active-set method did not converge")  # pragma: no cover


def _polish_kkt(
    G: NDArray[np.float64], n_w: int, W: list[int], tol: float = 1e-12
) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
    """Solve the KKT equalities with the constraints ``W`` tight, exactly; verify them.

    Minimise ``1/2 ||z[:n_w]||^2`` subject to ``G_W z = 1`` (entries of ``z`` beyond
    ``n_w``, the bias, are free) by one linear system. The answer ``(z, lam)`` is
    returned only if every constraint ``G z >= 1`` holds and ``lam >= 0`` (both within
    ``tol``; 1e-9 is the level at which every result of max_margin is accepted): these are
    the KKT conditions of the full problem, which for this convex problem prove
    optimality. None otherwise (``W`` was not the optimal working set).
    """
    D = G.shape[1]
    K = np.zeros((D + len(W),) * 2)
    K[:n_w, :n_w] = np.eye(n_w)
    K[:D, D:] = -G[W].T
    K[D:, :D] = G[W]
    sol = np.linalg.lstsq(K, np.concatenate([np.zeros(D), np.ones(len(W))]), rcond=None)[0]
    z, lam = sol[:D], sol[D:]
    if np.all(G @ z >= 1.0 - tol) and np.all(lam >= -tol):
        return z, lam
    return None


class _LDPVerdict(NamedTuple):
    """Outcome of :func:`_ldp_max_margin` (no threshold)."""

    separable: bool
    z: NDArray[np.float64] | None = None  # minimum-norm w with G w >= 1
    working_set: NDArray[np.intp] | None = None  # constraints with positive multiplier
    lam: NDArray[np.float64] | None = None  # their multipliers
    margin: float = 0.0  # 1 / ||z||, the margin on the scaled data


# Below this margin (data scaled to largest norm 1) the fast path's separability
# verdict is confirmed by the LP, so that max_margin and is_separable never disagree.
_LDP_TRUST_MARGIN = 1e-6


def _ldp_max_margin(G: NDArray[np.float64]) -> _LDPVerdict | None:
    """Minimum-norm ``w`` with ``G w >= 1`` from one non-negative least-squares problem.

    Lawson and Hanson's least-distance programming (Solving Least Squares Problems,
    1974, ch. 23): with ``E = [G^T; 1 ... 1]`` and ``f = (0, ..., 0, 1)``, let
    ``u >= 0`` minimise ``||E u - f||``. If ``s = 1 - sum(u) > 0``, then
    ``w = G^T u / s`` is the solution and ``alpha = u / s`` its multipliers
    (``w = G^T alpha``, the SVM dual). If instead ``E u = f``, then ``u >= 0`` sums
    to 1 with ``G^T u = 0``: Gordan's certificate that no ``w`` makes every row
    positive. Both outcomes are verified here (KKT conditions and duality gap, or
    the certificate at the LP's tolerance); None means neither could be verified
    and the general method must decide. Scipy's NNLS is compiled code, which is
    what makes this orders of magnitude faster than the active-set loop above.
    """
    P, N = G.shape
    norms = np.linalg.norm(G, axis=1)
    if np.any(norms == 0):
        return _LDPVerdict(separable=False)  # a pattern at the origin has margin 0
    E = np.vstack([G.T, np.ones((1, P))])
    f = np.zeros(N + 1)
    f[-1] = 1.0
    try:
        u = nnls(E, f, maxiter=10 * (P + N))[0]
    except RuntimeError:  # pragma: no cover - NNLS terminates in practice
        return None
    total = float(u.sum())
    # Gordan certificate, in the LP's units: mu_i = u_i ||G_i|| / sum(u ||G||) weighs
    # unit rows; ||sum mu_i U_i||_1 <= tol bounds the LP's best worst margin by tol.
    if total > 0 and np.abs(G.T @ u).sum() <= SEPARABILITY_TOL * float(u @ norms):
        return _LDPVerdict(separable=False)
    s = 1.0 - total
    if s <= 0:
        return None
    W = np.flatnonzero(u > 0)
    a = u[W] / s
    z = G[W].T @ a
    # Polish: the tight rows W define w = G_W^T a with G_W G_W^T a = 1 (a small
    # symmetric system); keep the polished point only if it is at least as good.
    try:
        a2 = np.linalg.solve(G[W] @ G[W].T, np.ones(W.size))
        z2 = G[W].T @ a2
        if np.all(a2 >= 0) and np.min(G @ z2) >= min(np.min(G @ z), 1.0 - 1e-12):
            z, a = z2, a2
    except np.linalg.LinAlgError:  # dependent tight rows: keep the NNLS point
        pass
    Gz = G @ z
    gap = float(a @ (Gz[W] - 1.0))  # primal minus dual objective, since z = G_W^T a
    zz = float(z @ z)
    # 1e-8: on near-degenerate problems (margins ~1e-4 of the data's scale) rounding
    # in NNLS reaches ~1e-9; the margin is still certified to about 1e-8 relative.
    if np.all(Gz >= 1.0 - 1e-8) and np.all(a >= 0) and abs(gap) <= 1e-8 * zz:
        return _LDPVerdict(True, z, W, a, 1.0 / np.sqrt(zz))
    return None


def _fast_max_margin(G: NDArray[np.float64], n_w: int) -> _LDPVerdict | None:
    """The fast route, with or without a threshold (``G.shape[1] == n_w + 1``).

    Without threshold: :func:`_ldp_max_margin`. With a threshold, the bias column
    is scaled up by ``c``, which turns the problem into one through the origin whose
    objective also charges ``(b / c)^2``: nearly the right problem, and with the
    same constraints, so a certificate of non-separability carries over exactly.
    Its tight constraints are then taken as the working set of the exact problem
    and checked by :func:`_polish_kkt`; if that fails for every ``c``, None.
    """
    if G.shape[1] == n_w:
        return _ldp_max_margin(G)
    for c in (10.0, 100.0):
        scaled = G.copy()
        scaled[:, n_w] *= c
        verdict = _ldp_max_margin(scaled)
        if verdict is None:
            continue
        if not verdict.separable:
            return verdict
        exact = _polish_kkt(G, n_w, list(verdict.working_set), tol=1e-9)
        if exact is not None:
            z, lam = exact
            return _LDPVerdict(True, z, verdict.working_set, lam, 1.0 / float(np.linalg.norm(z[:n_w])))
    return None


def max_margin(X: ArrayLike, y: ArrayLike, *, threshold: bool = False) -> MaxMarginResult:
    """The separating hyperplane with the largest margin (hard-margin SVM).

    Solves  min 1/2 ||w||^2  subject to  y_i (w.x_i + b) >= 1  for all patterns
    (``b = 0`` without threshold); the optimal margin is ``1 / ||w||``.
    Without threshold this is a least-distance problem, solved exactly by one
    non-negative least-squares problem (Lawson and Hanson), which also proves
    non-separability when it occurs; this takes milliseconds for hundreds of
    patterns in hundreds of dimensions. With a threshold, the same route on a
    slightly modified problem finds the tight constraints, and the exact problem is
    then solved on them. If that route cannot verify its answer, the quadratic
    program is solved by a primal active-set method started from a separator found
    by linear programming (much slower on large problems). Either way, the result is accepted only after
    checking that every constraint holds and that the multipliers are
    non-negative (and, on the fast route, that the duality gap vanishes), which for
    this convex problem proves optimality. The margin is accurate to about 1e-12
    relative on well-scaled data.

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
        ``.w`` (unit norm), ``.b``, ``.gamma``, ``.support``, ``.alpha``.

    Raises
    ------
    ValueError
        If the data are not linearly separable (no margin exists).

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
    threshold = _as_flag(threshold, "threshold")
    P, N = X.shape
    if threshold and np.all(y == y[0]):
        raise ValueError(
            "max_margin with threshold=True needs patterns of both labels: with one "
            "class the threshold can move the hyperplane arbitrarily far away"
        )
    # Work on scaled data (largest pattern norm 1) so tolerances are relative.
    scale = float(np.max(np.linalg.norm(X, axis=1)))
    if scale == 0:
        raise ValueError("the data are not linearly separable: every pattern is at the origin")
    Xs = X / scale
    not_separable = ValueError(
        "the data are not linearly separable"
        + (" (with a threshold)" if threshold else " by a hyperplane through the origin")
        + ", so there is no maximum-margin separator"
    )
    # Constraints G z >= 1 with z = w (no threshold) or z = (w, b).
    G = y[:, None] * (_homogeneous(Xs, True) if threshold else Xs)
    fast = _fast_max_margin(G, N)
    if fast is not None and not fast.separable:
        raise not_separable
    if fast is None or fast.margin <= _LDP_TRUST_MARGIN:
        start = separating_weights(Xs, y, threshold=threshold)
        if start is None:
            raise not_separable
    if fast is not None:
        z, W, lam = fast.z, list(fast.working_set), fast.lam
    else:
        # Feasible start: rescale the LP separator until the worst constraint is tight.
        w0, b0 = start
        z0 = np.append(w0, b0) if threshold else w0
        z0 = z0 / float(np.min(G @ z0))
        z, W, lam = _active_set_qp(G, N, z0, max_iter=20 * (P + N + 1))
        polished = _polish_kkt(G, N, W)
        if polished is not None:
            z, lam = polished
        if not (np.all(G @ z >= 1.0 - 1e-9) and np.all(lam >= -1e-9)):  # pragma: no cover
            raise RuntimeError("max_margin: could not verify the optimality conditions")

    w_s, b_s = z[:N], (float(z[N]) if threshold else 0.0)
    norm = float(np.linalg.norm(w_s))
    w_unit = w_s / norm
    # Undo the scaling: w_s . (x / scale) + b_s = 0 is the same hyperplane as
    # w_unit . x + b_s * scale / norm = 0.
    b_unit = b_s * scale / norm
    m = y * (X @ w_unit + b_unit)
    gamma = float(np.min(m))
    support = np.flatnonzero(m - gamma <= 1e-9 * scale).astype(np.int64)
    # Multipliers of the canonical problem on the original data (margins 1):
    # there w_c = w_s / scale = sum_i alpha_i y_i x_i, hence the factor 1 / scale^2.
    alpha = np.zeros(P)
    alpha[W] = np.maximum(lam, 0.0) / scale**2
    return MaxMarginResult(w=w_unit, b=b_unit, gamma=gamma, support=support, alpha=alpha)


# ---------------------------------------------------------------------------
# The family H_gamma in the plane
# ---------------------------------------------------------------------------


def _plane_data(X: ArrayLike, y: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    if X.shape[1] != 2:
        raise ValueError(f"this works in the plane: patterns must have 2 coordinates, got {X.shape[1]}")
    return X, y


def direction_margins(X: ArrayLike, y: ArrayLike, angles: ArrayLike) -> NDArray[np.float64]:
    """Margin of the unit normal ``(cos phi, sin phi)`` for every angle ``phi`` (2-D, no threshold).

    A brute-force scan: ``min_mu y_mu (cos phi x_mu1 + sin phi x_mu2)`` for each angle.

    Examples
    --------
    >>> direction_margins([[1.0, 0.0], [0.0, 2.0]], [1, 1], [0.0, np.pi / 4]).round(6).tolist()
    [0.0, 0.707107]
    """
    X, y = _plane_data(X, y)
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
    X, y = _plane_data(X, y)
    gamma = as_positive_float(gamma, "gamma")
    J = y[:, None] * X
    r = np.linalg.norm(J, axis=1)
    if np.any(r < gamma):
        return None  # a pattern closer to the origin than gamma: no line through 0 clears it
    t = np.arctan2(J[:, 1], J[:, 0])
    half = np.arccos(gamma / r)  # < pi/2 for every pattern since gamma > 0
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
