"""Counting dichotomies: Cover's formula, exact counting and exact enumeration.

A *dichotomy* of P patterns is a labeling of them with -1/+1; it is (linearly)
separable when some hyperplane puts every pattern strictly on its label's side.
Cover (1965) showed that for P points in general position in N dimensions,
hyperplanes through the origin realise exactly

    C(P, N) = 2 * sum_{k=0}^{N-1} binom(P - 1, k)

of the 2^P dichotomies (with a threshold, use C(P, N + 1)). For points *not* in
general position, such as the vertices of the Boolean cube, there is no formula:
:func:`count_dichotomies` counts the regions of the hyperplane arrangement in
weight space exactly (deletion-restriction, without listing them), and
:func:`separable_dichotomies` lists the separable labelings themselves.
"""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._regions import (
    closed_form_regions,
    count_regions_with_work,
    essential,
    integer_points,
    pattern_normals,
    region_work,
)
from perclib._validation import (
    as_count,
    as_flag,
    as_limit,
    as_patterns,
    homogeneous,
    refuse_work,
    unit_rows,
)

if TYPE_CHECKING:  # sympy is imported by cover_count_symbolic, when first needed
    import sympy

#: Default ceiling on the number of separable labelings an enumeration may have to
#: produce. Each costs up to one linear program per prefix (about a millisecond), so
#: this is about a minute of work at worst; ``max_count=`` raises or lifts it.
MAX_ENUMERATED = 20_000
#: Default limit on the bit operations of :func:`cover_count` (about 0.1 s).
MAX_COVER_WORK = 10**9
#: Default limit on the terms sympy sums when one of P, N is a symbol (about a second).
MAX_SYMBOLIC_TERMS = 20
#: Default limit on the work steps of :func:`count_dichotomies` (a microsecond or a few
#: each; degenerate sets such as cubes need far fewer than their bound).
MAX_COUNT_WORK = 10**8
#: Most steps :func:`count_dichotomies` spends testing general position (before Cover's
#: formula applies): a subset of D rows costs ``1 + D**3 // 1000`` steps (a batched
#: determinant; 40 x 40 ones take about 70 microseconds), so this is a few seconds.
MAX_POSITION_WORK = 2_000_000
#: Relative tolerance of that test, :func:`perclib.in_general_position`'s default.
POSITION_TOL = 1e-9
#: Default limit on the linear programs of :func:`separable_dichotomies_bruteforce`.
MAX_BRUTEFORCE_LPS = 2**20


def _cover_work(P: int, N: int) -> int:
    """Bit operations of :func:`_half_cover`: its terms times the length of the result."""
    terms = 0 if N >= P else min(N, P - N)
    return P * max(terms, 1)


def _half_cover(P: int, N: int) -> int:
    """``sum_{k < N} binom(P - 1, k)``, summing the shorter side of Pascal's row."""
    n = P - 1
    if N >= P:
        return 1 << n
    low = N <= n - N + 1  # fewer terms below k = N than from N up to n
    count = N if low else n - N + 1
    term, total = 1, 0
    for k in range(count):  # binom(n, k + 1) from binom(n, k): no factorials
        total += term
        term = term * (n - k) // (k + 1)
    return total if low else (1 << n) - total


def cover_count(P: int, N: int, *, max_work: int | None = MAX_COVER_WORK) -> int:
    """Cover's count C(P, N) of separable dichotomies, as an exact integer.

    ``C(P, N) = 2 * sum_{k=0}^{N-1} binom(P - 1, k)`` is the number of labelings
    of P points in general position in N dimensions that a hyperplane through the
    origin can separate. For ``P <= N`` every labeling is separable: ``2**P``.
    For a unit with a threshold, the count is ``C(P, N + 1)``.

    Parameters
    ----------
    P : int
        Number of points, >= 1.
    N : int
        Dimension, >= 1.
    max_work : int or None, default MAX_COVER_WORK (10**9)
        The answer has P bits and the sum ``min(N, P - N)`` terms; their product
        (about a tenth of a second at 10**9) above this raises a ValueError before
        any work. None lifts the limit.

    Returns
    -------
    int
        An exact Python integer (no overflow, no rounding).

    Examples
    --------
    >>> cover_count(4, 2)
    8
    >>> cover_count(3, 5) == 2**3
    True
    >>> cover_count(200, 100) == 2**199  # P = 2N: exactly half of all labelings
    True
    """
    P = as_count(P, "P", 1)
    N = as_count(N, "N", 1)
    max_work = as_limit(max_work, "max_work")
    refuse_work(_cover_work(P, N), max_work, task=f"cover_count(P={P}, N={N})", unit="bit operations")
    return 2 * _half_cover(P, N)


def capacity_fraction(P: int, N: int, *, max_work: int | None = MAX_COVER_WORK) -> Fraction:
    """The fraction ``C(P, N) / 2**P`` of dichotomies that are separable, exactly.

    This is the probability that random labels of P points in general position
    are separable; it equals 1/2 at ``P = 2 N`` (the capacity of the perceptron).
    ``max_work`` is that of :func:`cover_count`.

    Examples
    --------
    >>> capacity_fraction(4, 2)
    Fraction(1, 2)
    >>> capacity_fraction(3, 3)
    Fraction(1, 1)
    """
    P = as_count(P, "P", 1)
    N = as_count(N, "N", 1)
    if N >= P:  # every labelling: no need to build the 2**P-sized count
        as_limit(max_work, "max_work")
        return Fraction(1)
    count = cover_count(P, N, max_work=max_work)
    # The denominator is a power of two: reduce by shifting, not by Fraction's gcd,
    # which is quadratic in the length (37 s for P = 10**9 at the same work limit).
    shift = min((count & -count).bit_length() - 1, P)
    return _fraction(count >> shift, 1 << (P - shift))


def _fraction(numerator: int, denominator: int) -> Fraction:
    """A Fraction already in lowest terms, built without recomputing their gcd."""
    f = Fraction.__new__(Fraction)
    f._numerator, f._denominator = numerator, denominator  # the attributes Fraction uses
    return f


def cover_count_symbolic(
    P: int | sympy.Expr | None = None,
    N: int | sympy.Expr | None = None,
    *,
    evaluate: bool | None = None,
    max_work: int | None = MAX_SYMBOLIC_TERMS,
) -> sympy.Expr:
    """Cover's formula ``2 * Sum(binomial(P - 1, k), (k, 0, N - 1))`` in sympy.

    Parameters
    ----------
    P, N : int, sympy expression or None
        Values to put in the formula. Omitted ones become the symbols ``P`` and
        ``N`` (declared positive integers, so sympy can simplify with them).
    evaluate : bool, optional
        Whether to carry out the sum (``.doit()``). By default it is carried out
        only when both P and N are integers, giving a sympy Integer equal to
        :func:`cover_count`; otherwise the unevaluated sum is returned so that a
        lesson can display and manipulate it.
    max_work : int or None, default MAX_SYMBOLIC_TERMS (20)
        When one of P, N is an integer and the other symbolic, sympy's evaluation
        grows quickly with that integer: the work is counted as N terms (N = 20:
        about a second) or 2 P (P = 10: about two seconds; P = 20 takes half a
        minute); more raises a ValueError unless this is raised (None: no limit). With
        both integers the count comes from :func:`cover_count` and this is its
        ``max_work`` (bit operations, at least :data:`MAX_COVER_WORK`).

    Returns
    -------
    sympy.Expr

    Examples
    --------
    >>> cover_count_symbolic()
    2*Sum(binomial(P - 1, k), (k, 0, N - 1))
    >>> cover_count_symbolic(5, 2)
    10
    >>> cover_count_symbolic(N=2, evaluate=True)
    2*P
    """
    import sympy  # here, not at module level: it takes a third of a second to import

    if evaluate is not None:
        evaluate = as_flag(evaluate, "evaluate")
    numeric = 0
    values = []
    for value, name in ((P, "P"), (N, "N")):
        if value is None:
            values.append(sympy.Symbol(name, integer=True, positive=True))
        elif isinstance(value, sympy.Expr) and not value.is_Integer:
            values.append(value)
        else:
            values.append(sympy.Integer(as_count(value, name, 1)))
            numeric += 1
    max_work = as_limit(max_work, "max_work")
    p, n = values
    k = sympy.Symbol("k", integer=True, nonnegative=True)
    expr = 2 * sympy.Sum(sympy.binomial(p - 1, k), (k, 0, n - 1))
    if evaluate is None:
        evaluate = numeric == 2
    if not evaluate:
        return expr
    if numeric == 2:  # exact integers: the fast count, not sympy's summation
        limit = None if max_work is None else max(max_work, MAX_COVER_WORK)
        return sympy.Integer(cover_count(int(p), int(n), max_work=limit))
    if numeric == 1:
        # An integer N gives a sum of N terms; an integer P with a symbolic N sends
        # sympy through hypergeometric closed forms: about twice as costly per unit.
        size = int(p if p.is_Integer else n)
        work = 2 * size if p.is_Integer else size
        name = "P" if p.is_Integer else "N"
        refuse_work(
            work, max_work, unit="terms",
            task=f"evaluating Cover's sum symbolically with {name} = {size} (the other a symbol)",
        )
    return sympy.simplify(expr.doit())


# ---------------------------------------------------------------------------
# Exact enumeration
# ---------------------------------------------------------------------------


#: Marks an argument that was not passed (None means "no limit" for max_count).
_NOT_GIVEN: object = object()


def _homogeneous(X: NDArray[np.float64], threshold: bool) -> NDArray[np.float64]:
    """Patterns as seen by a hyperplane through the origin (augmented if threshold).

    See :func:`perclib._validation.homogeneous`: the constant coordinate is the
    data's own largest entry, so it scales with the data and a change of units
    changes no count and no dependence.
    """
    return homogeneous(X, threshold)


def _unit_rows(X: NDArray[np.float64], threshold: bool) -> NDArray[np.float64] | None:
    """Homogeneous patterns, columns scaled by powers of two, rows of unit length; or None.

    Separability only depends on the direction of each (homogeneous) pattern, and
    not on the units of a column either (``w_j`` absorbs them). Both scalings are
    powers of two worked out from the exponents alone, columns first (a change of
    units is undone before any row is looked at), then rows and columns in turn: they
    are exact, and nothing overflows or underflows on the way, so patterns near
    1.8e308, subnormal ones, or a column in nanometres next to one in kilometres all
    give the same well-scaled rows. None if a pattern is at the origin: it lies on
    every hyperplane through the origin.

    Examples
    --------
    >>> _unit_rows(np.array([[8.9e307, 0.0], [-1e300, 1e-300]]), False).round(6).tolist()
    [[1.0, 0.0], [-0.0, 1.0]]
    """
    Z = _homogeneous(X, threshold)
    nonzero = Z != 0
    if not np.all(np.any(nonzero, axis=1)):
        return None
    # Each entry's binary exponent; a zero entry's is far below any float's (-1074).
    E = np.where(nonzero, np.frexp(Z)[1].astype(np.int64), -(2**20))
    col = -np.max(E, axis=0)
    col = np.where(np.any(nonzero, axis=0), col, 0)
    for _ in range(3):
        row = -np.max(E + col[None, :], axis=1)
        col = np.where(np.any(nonzero, axis=0), -np.max(E + row[:, None], axis=0), 0)
    row = -np.max(E + col[None, :], axis=1)
    with np.errstate(under="ignore"):
        return unit_rows(np.ldexp(Z, col[None, :] + row[:, None]))


def _refuse_huge(U: NDArray[np.float64], max_count: int | None) -> None:
    """Stop, before any work, an enumeration whose answer may exceed ``max_count``.

    P vectors spanning a space of dimension r have at most C(P, r) separable
    labelings (Cover's bound; equality in general position), which is the size the
    enumeration must be ready to produce.
    """
    if max_count is None:
        return
    P = U.shape[0]
    # U has unit rows, so its rank is at least 1 (1e308 patterns once overflowed to
    # zero rows here, and Cover's bound then raised "N must be >= 1, got 0").
    rank = max(int(np.linalg.matrix_rank(U)), 1)
    # A bound too long to compute is astronomically larger than any max_count.
    bound = cover_count(P, rank) if _cover_work(P, rank) <= MAX_COVER_WORK else 2**64 * max_count
    if bound > max_count:
        raise ValueError(
            f"these {P} patterns (rank {rank}) can have up to {bound:,} separable labelings "
            f"(Cover's bound C({P}, {rank})), more than max_count={max_count:,}; enumerating "
            f"them would take too long or exhaust memory. For points in general position "
            f"the count is exactly cover_count({P}, {rank}); to enumerate anyway, pass a "
            "larger max_count (or max_count=None)."
        )


def _as_max_count(value: object) -> int | None:
    return None if value is None else as_count(value, "max_count", 1)


def _sorted_rows(S: NDArray[np.int64]) -> NDArray[np.int64]:
    """Rows in lexicographic order (-1 before +1, first column most significant)."""
    if S.shape[0] == 0:
        return S
    return S[np.lexsort(S.T[::-1])]


def _clearly_separates(J: NDArray[np.float64], w: NDArray[np.float64]) -> bool:
    """Whether ``w`` separates the unit rows of ``J`` as clearly as the LP demands.

    The LP calls rows separable when its optimum ``t*`` (worst margin with
    ``max |w_j| = 1``) exceeds ``SEPARABILITY_TOL``. Holding every shortcut to the
    same standard keeps the verdicts identical to running the LP, and keeps out
    labelings that only look separable because of rounding (a point that lies
    exactly on the hyperplane but computes as 1e-17 on the right side).
    """
    from perclib.geometry import SEPARABILITY_TOL

    return bool(np.min(J @ w) > SEPARABILITY_TOL * np.max(np.abs(w)))


def _flip_by_rotation(J: NDArray[np.float64], w: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """Try to separate the rows of ``J`` starting from ``w``, without an LP.

    ``w`` separates every row but the last (``J[-1] . w <= 0``). Moving along
    ``d = J[-1]`` or along its part orthogonal to ``w`` (a rotation of the
    hyperplane) raises ``J[-1] . w``; the move works when some step length ``c``
    keeps every other row positive, an interval that is computed exactly. Returns
    the new weights (strictly separating, checked) or None; None proves nothing.
    """
    a_all = J @ w
    for d in (J[-1], J[-1] - (J[-1] @ w) / (w @ w) * w):
        b_all = J @ d
        a, b = a_all[:-1], b_all[:-1]
        if b_all[-1] <= 0:
            continue
        low = -a_all[-1] / b_all[-1]  # smallest step that puts the new row on its side
        shrinking = b < 0
        high = float(np.min(a[shrinking] / -b[shrinking])) if np.any(shrinking) else np.inf
        if low < high:
            c = (low + high) / 2 if np.isfinite(high) else 2 * low + 1.0
            w_new = w + c * d
            if _clearly_separates(J, w_new):
                return w_new
    return None


def _enumerate_incremental(
    U: NDArray[np.float64], *, shortcuts: bool = True
) -> tuple[NDArray[np.int64], dict[str, int]]:
    """All separable labelings of the rows of ``U`` (unit, homogeneous), with statistics.

    Grows the set point by point. Invariant: ``S`` holds every separable labeling
    of the first k points that starts with +1, each with a weight vector that
    strictly separates it. A separable labeling of k + 1 points restricts to a
    separable labeling of the first k, so trying both signs for the new point on
    every member of ``S`` finds all of them. The sign of ``w . u`` is free when
    ``w . u`` is clearly non-zero (the stored ``w`` already works); the other sign,
    or both when ``u`` is (nearly) on the hyperplane, is decided, cheapest first, by

    1. a known conflict: an earlier LP of this step proved that some labels on a
       subset T of the points cannot be separated; a labeling that agrees with
       them (or with their negation) on T is rejected at once;
    2. a rotation of the stored separator (:func:`_flip_by_rotation`);
    3. a linear program, whose failure yields a new conflict for step 1.

    Conflicts always involve the new point (the rest is separable), so they are
    only useful within one step. Labelings starting with -1 are the negations
    (``w -> -w``), added at the end. Statistics count how each case was decided;
    ``shortcuts=False`` skips steps 1 and 2 (one LP per non-free extension), for
    comparison in the benchmark.
    """
    from perclib.geometry import SEPARABILITY_TOL, _max_min_lp  # scipy, loaded when needed

    P, D = U.shape
    stats = {"free": 0, "conflict": 0, "rotation": 0, "lp": 0}
    S = np.ones((1, 1), dtype=np.int64)
    W = U[:1].copy()  # u_0 . u_0 = 1 > 0 separates the labeling (+1,)
    for k in range(1, P):
        u = U[k]
        # Signed distances of u to each stored hyperplane, in the LP's normalisation.
        side = (W @ u) / np.max(np.abs(W), axis=1)
        new_S: list[NDArray[np.int64]] = []
        new_W: list[NDArray[np.float64]] = []
        # Conflicts as rows of a {-1, 0, +1} matrix (0 = point not involved): a
        # labeling s matches conflict c exactly when |c . s| equals the size of T.
        conflicts = np.zeros((0, k + 1))
        sizes = np.zeros(0)
        for s, w, v in zip(S, W, side, strict=True):
            for label in (1, -1):
                s_ext = np.append(s, label)
                if label * v > SEPARABILITY_TOL:  # the stored separator puts u on this side
                    stats["free"] += 1
                    new_S.append(s_ext)
                    new_W.append(w)
                    continue
                if shortcuts and sizes.size and np.any(np.abs(conflicts @ s_ext) == sizes):
                    stats["conflict"] += 1
                    continue
                J = s_ext[:, None] * U[: k + 1]
                w_ext = _flip_by_rotation(J, w) if shortcuts else None
                if w_ext is not None:
                    stats["rotation"] += 1
                    new_S.append(s_ext)
                    new_W.append(w_ext)
                    continue
                stats["lp"] += 1
                verdict = _max_min_lp(J)
                if verdict.w is not None:
                    new_S.append(s_ext)
                    new_W.append(verdict.w)
                elif verdict.conflict is not None:
                    row = np.zeros(k + 1)
                    row[verdict.conflict] = s_ext[verdict.conflict]
                    conflicts = np.vstack([conflicts, row])
                    sizes = np.append(sizes, verdict.conflict.size)
        if not new_S:  # pragma: no cover - sign(w.u_i) for a generic w always works
            return np.zeros((0, P), dtype=np.int64), stats
        S = np.array(new_S, dtype=np.int64)
        W = np.array(new_W)
    return np.vstack([S, -S]), stats


def _enumerate_bruteforce(U: NDArray[np.float64]) -> tuple[NDArray[np.int64], dict[str, int]]:
    """Every labeling of the rows of ``U`` tested by its own LP (reference method)."""
    from perclib.geometry import _max_min_lp

    found = []
    for labels in itertools.product((-1, 1), repeat=U.shape[0]):
        s = np.array(labels, dtype=np.int64)
        if _max_min_lp(s[:, None] * U).w is not None:
            found.append(s)
    return np.array(found, dtype=np.int64).reshape(-1, U.shape[0]), {"lp": 2 ** U.shape[0]}


def separable_dichotomies(
    X: ArrayLike, *, threshold: bool = False, max_count: int | None = MAX_ENUMERATED
) -> NDArray[np.int64]:
    """Every linearly separable labeling of the patterns, one row of -1/+1 each.

    Exact for any finite set of points, in general position or not. The labelings
    are grown one point at a time: each separable labeling of the first k points
    is stored with a separator, and extended by both signs for point k + 1; the
    sign the separator already gives is free, the other is decided by a linear
    program (see :func:`perclib.is_separable` for its tolerance), unless a
    cheaper argument settles it first: a rotated separator that works, or a
    subset of points whose labels were already shown to conflict. Since ``s`` is
    separable exactly when ``-s`` is, only labelings with a +1 first are grown.
    The cost is at most one LP per separable labeling of each prefix, far fewer
    than the ``2**P`` of testing every labeling (for 14 random points in 3-D:
    about a hundred instead of 16384).

    A pattern at the origin without threshold lies on every hyperplane through the
    origin, so no labeling is strictly separable: the result then has no rows.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    threshold : bool, default False
        Allow a threshold (affine hyperplanes).
    max_count : int or None, default MAX_ENUMERATED (20,000)
        Refuse, with a ValueError and before any work, a set whose number of
        separable labelings may exceed this (Cover's bound C(P, rank)); None lifts
        the limit. For large sets in general position use :func:`cover_count`.

    Returns
    -------
    ndarray of int, shape (n, P)
        The separable labelings in lexicographic order (-1 before +1).

    Examples
    --------
    >>> separable_dichotomies([[1.0], [2.0]]).tolist()
    [[-1, -1], [1, 1]]
    >>> separable_dichotomies([[-1.0], [1.0]], threshold=True).tolist()
    [[-1, -1], [-1, 1], [1, -1], [1, 1]]
    """
    X = as_patterns(X)
    threshold = as_flag(threshold, "threshold")
    max_count = _as_max_count(max_count)
    U = _unit_rows(X, threshold)
    if U is None:
        return np.zeros((0, X.shape[0]), dtype=np.int64)
    _refuse_huge(U, max_count)
    return _sorted_rows(_enumerate_incremental(U)[0])


def count_dichotomies(
    X: ArrayLike,
    *,
    threshold: bool = False,
    max_work: int | None = MAX_COUNT_WORK,
    max_count: int | None | object = _NOT_GIVEN,
) -> int:
    """How many labelings of the patterns are linearly separable, exactly, without listing them.

    Equal to ``cover_count(P, N)`` (``cover_count(P, N + 1)`` with threshold) for
    points in general position, and smaller otherwise; it works for any point set.
    The separable labelings are the regions of weight space cut by the hyperplanes
    ``{w : w . x_i = 0}`` (``w . x_i + b = 0`` with threshold), and their number is
    found by deletion-restriction in exact integer arithmetic (see
    :mod:`perclib._regions`; closed forms and Cover's count where they apply, and the
    cube's symmetry for the vertices of a cube, :mod:`perclib._cube`), so a tie (a
    point exactly on a line through others) is a tie. Which numbers are taken
    exactly: data that are one scale times integers (each ratio to the largest entry
    a fraction with denominator up to 2**20, within float rounding; integer data,
    short decimals, both in any units; or so column by column, each feature in its
    own units) are counted as
    those integers, so ``0.1, 0.2, 0.3`` are evenly spaced and a change of units
    (x1e-12, x1e12, x3.7) changes no count although it rounds every entry; any other
    data are counted as their exact binary values (every float is a fraction), at
    any scale, rows of mixed scales (1e200 next to 1e-200) included. A repeated
    pattern, or a multiple of another (``2 x`` or ``-x`` through the origin), adds
    no labeling: its label is forced. A pattern at the origin without threshold
    lies on every hyperplane through the origin, so no labeling is strict: the
    count is 0.

    The labelings themselves come from :func:`separable_dichotomies`, whose linear
    programs call a labeling separable only with a relative margin above 1e-9
    (:func:`perclib.is_separable`). Both agree except on generic float data within
    that margin of a degenerate set, where this exact count is the larger (a point
    1e-13 off the line through two random points is off it).

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    threshold : bool, default False
        Allow a threshold (affine hyperplanes).
    max_work : int or None, default MAX_COUNT_WORK (10**8)
        Refuse, with a ValueError and before any work, a set whose count may need
        more steps than this (a step is a restricted hyperplane, a compared pair or
        a subset tested; about a microsecond each for small integers, a few for
        float data). The estimate is an upper bound, worked out before any work:
        ``m`` distinct hyperplanes of rank ``m`` or ``m - 1`` have a closed form
        (``2**m``, or ``2**m - 2`` in general position: Cover's count); points in
        general position (tested as :func:`perclib.in_general_position` does, when
        that takes at most MAX_POSITION_WORK steps) get Cover's count; any other set is
        counted by deletion-restriction, whose bound grows like ``binom(m, r - 1)``
        for ``m`` well above the rank ``r`` and like ``2**m`` for ``m`` close to it.
        None lifts the limit. Degenerate sets repeat their sub-arrangements and
        take far less than their bound (deletion-restriction on the 6-cube: a bound
        of 84 million steps, 1.9 million taken). The vertices of a cube (checked
        exactly: an affine image of ``{0,1}^n`` with threshold, in any order and any
        units per column, or the +-1 cube without) are counted with the cube's
        symmetry instead (:mod:`perclib._cube`): 2.4 million steps for the 6-cube
        (about 0.05 s), 890 million for the 7-cube (about 35 s).
    max_count : int or None
        The old name of ``max_work``; deprecated (a DeprecationWarning), removed in
        the next release.

    Returns
    -------
    int

    Examples
    --------
    >>> from perclib import boolean_cube
    >>> count_dichotomies(boolean_cube(2), threshold=True)  # all but XOR and XNOR
    14
    >>> count_dichotomies(boolean_cube(5), threshold=True)  # OEIS A000609
    94572
    >>> count_dichotomies([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    6
    >>> count_dichotomies([[1e200, 0.0], [0.0, 1e-200], [0.0, -1e-200]], threshold=True)
    8
    """
    X = as_patterns(X)
    threshold = as_flag(threshold, "threshold")
    if max_count is not _NOT_GIVEN:
        warnings.warn(
            "count_dichotomies(max_count=...) is deprecated: the limit is on the work, not "
            "on the count; pass max_work=... instead (max_count will be removed in the "
            "next release)", DeprecationWarning, stacklevel=2,
        )
        if max_work is not MAX_COUNT_WORK:
            raise TypeError("count_dichotomies got both max_work and its old name max_count; "
                            "pass max_work only")
        max_work = as_limit(max_count, "max_count")  # type: ignore[arg-type]
    max_work = as_limit(max_work, "max_work")
    return _count_with_work(X, threshold, max_work)[0]


def _count_with_work(
    X: NDArray[np.float64], threshold: bool, max_work: int | None
) -> tuple[int, int, int]:
    """``(count, estimated work, measured work)`` of :func:`count_dichotomies`.

    The estimate is computed before any work and is an upper bound on the measured
    work (refused above ``max_work``). In order, cheapest first:

    1. ``m`` distinct hyperplanes of rank ``m`` or ``m - 1``: a closed form
       (:func:`perclib._regions.closed_form_regions`), exact;
    2. points in general position (every ``rank``-subset of them well conditioned,
       by the test of :func:`perclib.in_general_position`, when there are few
       enough subsets): Cover's count. The test passes only subsets whose smallest
       singular value exceeds ``1e-9`` of the largest, far above any rounding of
       the data or of the test itself, so they are independent exactly, too;
    3. deletion-restriction (:func:`perclib._regions.count_regions_with_work`),
       bounded by :func:`perclib._regions.region_work`.
    """
    normals = pattern_normals(X, threshold)
    if normals is None:
        return 0, 0, 0
    n = _cube_dimension(X, threshold)
    if n is not None:  # the vertices of a cube: its symmetry (perclib._cube)
        from perclib._cube import cube_threshold_functions, cube_work

        estimate = cube_work(n)
        refuse_work(estimate, max_work, unit="steps",
                    task=f"counting the threshold functions of the {n}-cube")
        regions, work = cube_threshold_functions(n)
        return regions, estimate, work
    distinct, rank = essential(normals)
    m = len(distinct)
    P = X.shape[0]
    what = f"{P} patterns ({m} distinct hyperplanes of rank {rank})"
    if m <= rank + 1:
        estimate = m if m == rank else m * (m + rank)
        refuse_work(estimate, max_work, unit="steps", task=f"counting the separable labelings of {what}")
        regions, work = closed_form_regions(distinct, rank)  # type: ignore[misc]
        return regions, estimate, work
    D = X.shape[1] + threshold
    subsets = math.comb(P, D) * (1 + D**3 // 1000) if m == P and rank == D else None
    tested = 0
    if subsets is not None and subsets <= MAX_POSITION_WORK and (
        max_work is None or subsets <= max_work
    ):
        from perclib._subsets import all_subsets_well_conditioned

        tested = subsets
        if all_subsets_well_conditioned(_unit_rows(X, threshold), POSITION_TOL):  # type: ignore[arg-type]
            return cover_count(P, D, max_work=None), tested, tested
    cap = None if max_work is None else max_work - tested
    bound = region_work(m, rank, cap)
    if cap is not None and bound > cap:
        why = ("they are not in general position, so Cover's formula does not apply" if tested
               else "Cover's formula needs points in general position, and testing that "
               "was not possible or would take too long")
        raise ValueError(
            f"counting the separable labelings of {what} by deletion-restriction may need "
            f"more than {tested + bound:,} steps ({why}), more than max_work={max_work:,}; "
            "it could run for a long time. Pass a larger max_work (or max_work=None) to "
            "run it anyway."
        )
    regions, work = count_regions_with_work(distinct)
    return regions, tested + bound, tested + work


def _cube_dimension(X: NDArray[np.float64], threshold: bool) -> int | None:
    """``n >= 2`` if the patterns' hyperplanes are exactly those of the n-cube with threshold.

    With a threshold: the distinct patterns, read as integers (in any units, per
    column), are an affine image of ``{0,1}^n`` (:func:`perclib._cube.affine_cube_dimension`,
    exact). Without: some coordinate has one absolute value, not zero, in every
    pattern (the +-1 cube has it everywhere); changing the sign of a pattern keeps its
    hyperplane, so with that coordinate made positive it is a constant, a threshold,
    and the other coordinates must be an affine (n)-cube. Anything else: None (the
    count then goes the general way).

    Examples
    --------
    >>> _cube_dimension(np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]]), True)
    2
    >>> from perclib import boolean_cube
    >>> _cube_dimension(2 * boolean_cube(3) - 1, False)   # +-1 3-cube: the 2-cube's arrangement
    2
    """
    from perclib._cube import affine_cube_dimension

    M = integer_points(X, threshold)
    if M is None or len(M) < 4:
        return None
    if threshold:
        n = affine_cube_dimension([tuple(row) for row in M])
        return n if n is not None and n >= 2 else None
    for j in range(len(M[0])):
        size = abs(M[0][j])
        if size and all(abs(row[j]) == size for row in M):
            points = [tuple(a if row[j] > 0 else -a for k, a in enumerate(row) if k != j)
                      for row in M]
            n = affine_cube_dimension(points)
            return n if n is not None and n >= 2 else None
    return None


def separable_dichotomies_bruteforce(
    X: ArrayLike, *, threshold: bool = False, max_work: int | None = MAX_BRUTEFORCE_LPS
) -> NDArray[np.int64]:
    """Separable labelings found by testing all ``2**P`` labelings with an LP.

    The slow, obviously correct reference for :func:`separable_dichotomies` (same
    output, same order); useful to check it and to see what it saves. More than
    ``max_work`` linear programs (default ``2**20``, P <= 20, about a quarter of an
    hour) raise a ValueError before any work; None lifts the limit.

    Examples
    --------
    >>> separable_dichotomies_bruteforce([[1.0], [2.0]]).tolist()
    [[-1, -1], [1, 1]]
    """
    X = as_patterns(X)
    threshold = as_flag(threshold, "threshold")
    max_work = as_limit(max_work, "max_work")
    refuse_work(
        2 ** X.shape[0], max_work, unit="linear programs",
        task=f"testing all 2**{X.shape[0]} labelings of {X.shape[0]} patterns",
    )
    U = _unit_rows(X, threshold)
    if U is None:
        return np.zeros((0, X.shape[0]), dtype=np.int64)
    return _sorted_rows(_enumerate_bruteforce(U)[0])
