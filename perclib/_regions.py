"""Exact number of regions of a central hyperplane arrangement, without listing them.

A labelling of patterns ``z_1 .. z_P`` is realised strictly by a hyperplane through
the origin exactly when some weight vector ``w`` has the sign ``s_i`` of ``w . z_i``
for every pattern: when ``w`` lies in an open region of weight space cut out by the
hyperplanes ``{w : w . z_i = 0}``. Distinct regions give distinct labellings, so the
number of separable dichotomies is the number of regions of that *central
arrangement*. Patterns that are positive or negative multiples of each other give
the same hyperplane, which is why only their directions (up to sign) matter.

The count comes from deletion-restriction (Zaslavsky): for a hyperplane ``H`` of the
arrangement ``A``, ``r(A) = r(A - H) + r(A restricted to H)``. Applied to the last
hyperplane again and again it unrolls into

    r(H_1 .. H_m) = 2 + sum_{i=2..m} r({H_1 .. H_{i-1}} restricted to H_i),

where each restriction is an arrangement in one dimension less. Everything is
exact: each float is a binary fraction, so each normal is scaled to a primitive
integer vector, and a restriction is one fraction-free elimination step. Three
things make it fast:

* **Canonical coordinates.** Restricting to ``h`` eliminates the first coordinate
  ``j`` where ``h`` is non-zero: ``v -> h_j v - v_j h`` without coordinate ``j``.
  The coordinates left are the free columns of the reduced row echelon form of the
  flat's equations, so the restricted normals depend only on the flat reached, not
  on the order of the restrictions that reached it.
* **Memoisation** on the set of (primitive, sign-normalised) normals: the same
  sub-arrangement is met again and again in degenerate sets such as the cube.
* **Closed forms in three dimensions and fewer.** ``m`` distinct lines through the
  origin of the plane cut it into ``2 m`` sectors; in space, ``m`` planes through
  the origin make ``2 (1 + sum_L (t_L - 1))`` regions, the sum over the lines ``L``
  where ``t_L >= 2`` of the planes meet (Euler's formula on the sphere). The sum is
  collected plane by plane: ``t_L - 1`` counts the planes of ``L`` after its first.

Which exact numbers: data that are one scale times small integers (short decimals,
integers, in any units) are read as those integers (:func:`common_scale_integers`),
so that a change of units, which rounds every entry, changes no count; other data
are read as their exact binary values.

The work is bounded by :func:`region_work` steps (no memo hit at all), about a
microsecond each for small integers: ``binom(m, r - 1)`` or so for ``m`` normals of
rank ``r`` well above ``r``, but ``2**(m - 1)`` when ``m`` is close to ``r``, where
:func:`closed_form_regions` answers instead for ``m <= r + 1``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from math import gcd

import numpy as np
from numpy.typing import NDArray

Normal = tuple[int, ...]

#: Memo entries are kept while they hold fewer normals than this in total (memory:
#: about 100 bytes a normal of small integers, a few hundred for float data; the
#: 6-cube stores 174,000). Past it the count goes on, uncached.
MEMO_NORMALS = 500_000
#: Normals with entries below this have 2-D restrictions ``(p, q)`` below ``2**25`` in
#: size; distinct ratios ``q / p`` of such integers are more than ``2**-51`` apart
#: (relatively), so their float quotients decide equality of directions on their own.
_SMALL = 2**12


def _primitive(v: list[int]) -> Normal | None:
    """``v`` divided by the gcd of its entries, first non-zero entry positive (None if 0)."""
    g = gcd(*v)
    if g == 0:
        return None
    for a in v:
        if a:
            if a < 0:
                g = -g
            break
    return tuple([a // g for a in v])


#: A ratio of an entry to the largest is read as a fraction with a denominator up to
#: this when it is that close (relative) to one: float rounding of a few operations
#: stays far inside, and two such fractions are at least ``2**-40`` apart, so the
#: reading is unique.
_RATIO_DENOMINATOR, _RATIO_TOL = 2**20, Fraction(1, 2**48)


def common_scale_integers(X: NDArray[np.float64]) -> list[list[int]] | None:
    """Integers ``M`` with ``X = s M`` for one scale ``s > 0``, up to float rounding; or None.

    Data typed as integers or short decimals, then multiplied by any unit (``1e-7``,
    ``2**-40``, ``3.7``), are no longer exact multiples of small integers in float64:
    ``3 * 1e-7`` rounds differently from ``1e-7``, and three points on a line are off
    it by 1e-23. Each ratio ``x_ij / max|x|`` is computed exactly and read as the one
    fraction with denominator at most ``2**20`` within ``2**-48`` of it (relative),
    if there is one; when every ratio has such a reading, the data are that common
    scale times the integer matrix of the ratios over their common denominator, and
    counting on it decides a tie as a tie at any units. Generic data (random
    floats) essentially never pass (each ratio has a chance of about 2**-9) and are
    then taken as their exact binary values.

    Examples
    --------
    >>> common_scale_integers(np.array([[0.1, 0.7], [0.3, 2.1]]) * 1e-7)
    [[1, 7], [3, 21]]
    >>> common_scale_integers(np.array([[1.0, np.pi]])) is None
    True
    """
    top = float(np.max(np.abs(X))) if X.size else 0.0
    if top == 0:
        return [[0] * X.shape[1] for _ in range(X.shape[0])]
    big = Fraction(top)
    ratios = []
    for x in X.ravel().tolist():
        if x == 0:
            ratios.append(Fraction(0))
            continue
        r = Fraction(x) / big
        near = r.limit_denominator(_RATIO_DENOMINATOR)
        if abs(near - r) > _RATIO_TOL * abs(r):
            return None
        ratios.append(near)
    q = math.lcm(*(r.denominator for r in ratios))
    flat = [r.numerator * (q // r.denominator) for r in ratios]
    N = X.shape[1]
    return [flat[i : i + N] for i in range(0, len(flat), N)]


def integer_normals(Z: NDArray[np.float64]) -> list[Normal] | None:
    """Each row of ``Z`` as a primitive integer vector of the same direction (up to sign).

    Every float64 is ``m * 2**e`` with integer ``m``; multiplying a row by a power of
    two clears its denominators exactly, whatever the row's scale (subnormals, 1e300
    and mixed scales alike). Returns None if some row is zero.

    Examples
    --------
    >>> integer_normals(np.array([[0.5, -1.5], [-2e300, 0.0]]))
    [(1, -3), (1, 0)]
    """
    mant, expo = np.frexp(Z)
    mant = np.ldexp(mant, 53).astype(np.int64)  # exact: 53-bit integers
    expo = expo.astype(np.int64) - 53
    rows: list[Normal] = []
    for m_row, e_row in zip(mant.tolist(), expo.tolist(), strict=True):
        low = min((e for m, e in zip(m_row, e_row, strict=True) if m), default=None)
        if low is None:
            return None
        row = _primitive([m << (e - low) if m else 0 for m, e in zip(m_row, e_row, strict=True)])
        rows.append(row)  # type: ignore[arg-type]  # non-zero, so not None
    return rows


def pattern_normals(X: NDArray[np.float64], threshold: bool) -> list[Normal] | None:
    """The hyperplanes ``{w : w . z = 0}`` of the patterns, as primitive integer normals.

    ``z`` is the pattern, or ``(x, 1)`` with a threshold (any positive constant gives
    the same labellings; 1 is exact). Data that are a common scale times small
    integers (:func:`common_scale_integers`) are read as those integers, others as
    their exact binary values. None if some ``z`` is zero: a pattern at the origin
    without threshold is on every hyperplane through the origin.

    Examples
    --------
    >>> pattern_normals(np.array([[0.3, -0.1], [0.02, 0.0]]), True)   # 1/15 (15, -5, 1)
    [(15, -5, 1), (1, 0, 1)]
    """
    M = integer_points(X, threshold)
    if M is None:
        return integer_normals(np.hstack([X, np.ones((X.shape[0], 1))]) if threshold else X)
    normals = [_primitive(row + [1] if threshold else row) for row in M]
    return None if any(v is None for v in normals) else normals  # type: ignore[return-value]


def integer_points(X: NDArray[np.float64], threshold: bool) -> list[list[int]] | None:
    """The patterns as small integers in some units, if they are (see :func:`pattern_normals`).

    Examples
    --------
    >>> integer_points(np.array([[0.5, 1e-300], [1.5, 0.0]]), True)
    [[1, 1], [3, 0]]
    """
    M = common_scale_integers(X)
    return M if M is not None else _scale_per_line(X, threshold)


def _scale_per_line(X: NDArray[np.float64], threshold: bool) -> list[list[int]] | None:
    """:func:`common_scale_integers` column by column (and row by row without threshold).

    A change of units of one feature (a column times 1e-300) changes no separable
    labelling, since ``w_j`` absorbs it; without threshold, neither does the length
    of a pattern (a row). So data that are small integers in other units, column by
    column or row by row, are read as those integers, as a common scale is. None if
    some column (row) has no such reading.

    Examples
    --------
    >>> _scale_per_line(np.array([[3e200, 2e-200], [-1e200, 1e-200]]), True)
    [[3, 2], [-1, 1]]
    """
    columns = [common_scale_integers(X[:, [j]]) for j in range(X.shape[1])]
    if all(c is not None for c in columns):
        return [[c[i][0] for c in columns] for i in range(X.shape[0])]  # type: ignore[index]
    if threshold:
        return None
    rows = [common_scale_integers(X[[i]]) for i in range(X.shape[0])]
    if all(r is not None for r in rows):
        return [r[0] for r in rows]  # type: ignore[index]
    return None


def essential(normals: list[Normal]) -> tuple[tuple[Normal, ...], int]:
    """Distinct normals written on a basis of their column space, and their rank.

    Normals ``v_i`` that span a space of rank ``r`` in ``D > r`` coordinates have the
    same linear dependences (the same arrangement, up to a product with a line
    space) as their restriction to ``r`` independent columns ``C``: every column is
    a combination of those of ``C``. The columns are found by fraction-free
    elimination in exact integers.

    Examples
    --------
    >>> essential([(1, 1, 2), (1, -1, 0), (2, 0, 2), (1, 1, 2)])
    (((1, -1), (1, 0), (1, 1)), 2)
    """
    distinct = sorted(set(normals))
    rows = [list(v) for v in distinct]
    columns: list[int] = []
    D = len(distinct[0]) if distinct else 0
    for j in range(D):
        pivot = next((r for r in rows if r[j]), None)
        if pivot is None:
            continue
        columns.append(j)
        rows = [
            _reduced([pivot[j] * a - r[j] * b for a, b in zip(r, pivot, strict=True)])
            for r in rows if r is not pivot
        ]
        rows = [r for r in rows if any(r)]
    reduced = {_primitive([v[j] for j in columns]) for v in distinct}
    return tuple(sorted(reduced)), len(columns)  # type: ignore[arg-type]


def _reduced(v: list[int]) -> list[int]:
    """``v`` divided by the gcd of its entries (keeps the numbers of elimination small)."""
    g = gcd(*v)
    return [a // g for a in v] if g > 1 else v


def region_work(m: int, rank: int, cap: int | None = None) -> int:
    """Upper bound on the work steps of :func:`count_regions` (see :class:`_Counter`).

    A step is one call, one normal restricted, or one pair of planes compared in a
    three-dimensional closed form. Without memo hits the recursion on ``m`` normals
    in ``d`` coordinates costs

        S(m, d) = 1                                        (m <= 1 or d <= 2)
        S(m, 3) = 1 + binom(m, 2)
        S(m, d) = 1 + sum_{i=1}^{m-1} (i + S(i, d - 1))    (d >= 4),

    since restricting the first ``i`` normals to the next one yields at most ``i``
    normals (some merge, some vanish) in ``d - 1`` coordinates, and ``S`` grows with
    ``m``. Memo hits only make it cheaper, so ``S`` bounds the work on any set. It is
    about ``binom(m, d - 1)`` when ``m`` is much larger than ``d``, but ``2**(m - 1)``
    when ``m`` is close to ``d``: every subset of the normals is then a different flat
    (:func:`closed_form_regions` answers those sets without the recursion).
    Computation stops as soon as the bound exceeds ``cap`` (then some value above it
    is returned).

    Examples
    --------
    >>> region_work(32, 6)   # the 5-cube with a threshold
    247784
    >>> region_work(18, 18) >= 2**17   # 18 normals in general position in R^18
    True
    """
    if m <= 1 or rank <= 2:
        return 1
    level = [1, 1] + [1 + i * (i - 1) // 2 for i in range(2, m + 1)]  # S(i, 3)
    for _ in range(4, rank + 1):
        nxt, total = [1, 1], 0
        for i in range(2, m + 1):
            total += (i - 1) + level[i - 1]
            nxt.append(1 + total)
        level = nxt
        if cap is not None and level[m] > cap:
            break
    return level[m]


def closed_form_regions(normals: tuple[Normal, ...], rank: int) -> tuple[int, int] | None:
    """Regions of ``m`` distinct normals of rank ``m`` or ``m - 1``, exactly, and the work.

    Independent normals (rank ``m``) cut space into all ``2**m`` orthants. With rank
    ``m - 1`` there is one linear dependence ``sum a_i v_i = 0``, on a circuit of ``c``
    normals; by Gordan's theorem a sign vector ``s`` is a region exactly when no
    non-negative combination of the ``s_i v_i`` vanishes, so it fails exactly when
    ``s_i a_i`` has one sign on the circuit: ``2 * 2**(m - c)`` sign vectors, and
    ``2**m - 2**(m - c + 1)`` regions (``2**m - 2``, Cover's count, in general
    position). The circuit is read off one fraction-free elimination of the normals
    beside an identity matrix, which also bounds the work (``m * (m + rank)`` row
    operations). None for other ranks.

    Examples
    --------
    >>> closed_form_regions(((1, 0), (0, 1), (1, 1)), 2)[0]   # three lines: 2**3 - 2
    6
    >>> closed_form_regions(((1, 0, 0), (0, 1, 0), (1, 1, 0), (0, 0, 1)), 3)[0]   # c = 3
    12
    """
    m = len(normals)
    if rank == m:
        return 1 << m, m  # the rank is known: no elimination
    if rank != m - 1:
        return None
    # Rows (v_i | e_i): eliminating the v-part leaves one row whose v-part is zero;
    # its e-part is the dependence (the left null vector), whose support is the circuit.
    rows = [list(v) + [int(i == k) for k in range(m)] for i, v in enumerate(normals)]
    width = len(normals[0]) if normals else 0
    work = 0
    for j in range(width):
        pivot = next((r for r in rows if r[j]), None)
        if pivot is None:
            continue
        rows = [
            _reduced([pivot[j] * a - r[j] * b for a, b in zip(r, pivot, strict=True)])
            for r in rows if r is not pivot
        ]
        work += len(rows)
    dependence = next(r for r in rows if not any(r[:width]))
    circuit = sum(1 for a in dependence[width:] if a)
    return (1 << m) - (1 << (m - circuit + 1)), work + m


def _restrict(normals: tuple[Normal, ...], h: Normal) -> tuple[Normal, ...]:
    """The normals restricted to the hyperplane ``h . w = 0``, in canonical coordinates.

    ``w_j`` (``j`` the first coordinate where ``h`` is non-zero) is eliminated: on
    the hyperplane ``v . w = sum_{l != j} (h_j v_l - v_j h_l) w_l / h_j``. Normals
    that become equal merge; one that becomes zero (``v`` parallel to ``h``) drops.
    """
    j = 0
    while not h[j]:
        j += 1
    hj = h[j]
    h_rest = h[:j] + h[j + 1 :]
    out = set()
    for v in normals:
        vj = v[j]
        w = [hj * a - vj * b for a, b in zip(v[:j] + v[j + 1 :], h_rest, strict=True)]
        g = gcd(*w)
        if g:
            for a in w:
                if a:
                    if a < 0:
                        g = -g
                    break
            out.add(tuple([a // g for a in w]))
    return tuple(sorted(out))


def _regions_in_space(normals: tuple[Normal, ...]) -> int:
    """Regions of planes through the origin of 3-space: ``2 (1 + sum_L (t_L - 1))``.

    Plane ``k`` meets each plane before it in a line; the number of distinct such
    lines adds up the ``t_L - 1`` terms (each line counted once for every plane of
    it after its first). A line is known by the direction of its 2-D restriction
    ``(p, q)`` to plane ``k``: for small normals (entries below ``2**12``) by the ratio
    ``q / p``, which Python rounds once, so that equal ratios give equal floats and
    unequal ones differ; for larger ones by ``(p, q)`` divided by their gcd. Either
    way plane ``k`` costs ``k`` keys: ``binom(m, 2)`` in all.
    """
    small = max(max(abs(a) for a in v) for v in normals) < _SMALL
    extra = 0
    inf = math.inf
    for k in range(1, len(normals)):
        h = normals[k]
        j = 0 if h[0] else (1 if h[1] else 2)
        a, b = (1, 2) if j == 0 else ((0, 2) if j == 1 else (0, 1))
        hj, ha, hb = h[j], h[a], h[b]
        if small:
            keys = set()
            for v in normals[:k]:
                vj = v[j]
                p = hj * v[a] - vj * ha
                keys.add((hj * v[b] - vj * hb) / p if p else inf)
            extra += len(keys)
            continue
        exact = set()
        for v in normals[:k]:
            vj = v[j]
            p, q = hj * v[a] - vj * ha, hj * v[b] - vj * hb
            g = gcd(p, q)
            if p < 0 or (p == 0 and q < 0):
                g = -g
            exact.add((p // g, q // g))
        extra += len(exact)
    return 2 * (1 + extra)


class _Counter:
    """Deletion-restriction with a memo on canonical normal sets (see module notes).

    ``work`` counts the steps that :func:`region_work` bounds: calls, restricted
    normals and compared pairs.
    """

    def __init__(self) -> None:
        self.memo: dict[tuple[Normal, ...], int] = {}
        self.stored = 0  # normals held by the memo
        self.work = 0

    def regions(self, normals: tuple[Normal, ...]) -> int:
        self.work += 1
        m = len(normals)
        if m <= 1:
            return m + 1
        d = len(normals[0])
        if d <= 2:  # m distinct lines through the origin of the plane (or one point)
            return 2 * m if d == 2 else 2
        known = self.memo.get(normals)
        if known is not None:
            return known
        if d == 3:
            self.work += m * (m - 1) // 2
            total = _regions_in_space(normals)
        else:
            total = 2
            for i in range(1, m):
                self.work += i
                total += self.regions(_restrict(normals[:i], normals[i]))
        if self.stored < MEMO_NORMALS:
            self.memo[normals] = total
            self.stored += m
        return total


def count_regions(normals: tuple[Normal, ...]) -> int:
    """Number of regions of the central arrangement with these distinct primitive normals.

    Examples
    --------
    >>> count_regions(((1, 0), (0, 1), (1, 1)))   # three lines: six sectors
    6
    >>> count_regions(((1, 0, 0), (0, 1, 0), (0, 0, 1)))   # the octants
    8
    """
    return count_regions_with_work(normals)[0]


def count_regions_with_work(normals: tuple[Normal, ...]) -> tuple[int, int]:
    """:func:`count_regions` and the steps it took (at most :func:`region_work`).

    Examples
    --------
    >>> count_regions_with_work(((1, 0, 0), (0, 1, 0), (0, 0, 1)))
    (8, 4)
    """
    counter = _Counter()
    total = counter.regions(tuple(sorted(normals)))
    return total, counter.work
