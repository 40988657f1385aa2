"""Threshold functions of the n-cube, counted with the cube's symmetry (finite field method).

The separable labellings of the cube ``{0,1}^n`` with a threshold are the regions of
the arrangement of the ``2**n`` hyperplanes ``{(w, b) : w . u + b = 0}``, ``u`` a
vertex, in ``R^(n+1)``. Zaslavsky: there are ``|chi(-1)|`` of them, ``chi`` the
characteristic polynomial. Its value at a prime ``q`` counts the points of
``F_q^(n+1)`` on none of the hyperplanes, as long as reducing mod ``q`` keeps the rank
of every subset of normals (Whitney's formula ``chi(t) = sum_S (-1)^|S| t^(n+1-rank S)``
then holds term by term). A rank drops mod ``q`` only if ``q`` divides a non-zero
minor; a ``k x k`` matrix of zeros and ones has ``|det| <= (k+1)^((k+1)/2) / 2^k``
(Hadamard, on the +-1 matrix of order ``k + 1`` it borders), so primes above that
bound are safe: 37 and up for n = 6.

Counting the points: a point ``(w, b)`` avoids every hyperplane exactly when ``-b`` is
not a subset sum of ``w`` mod ``q``, so ``chi(q) = q^(n+1) - sum_w |S(w)|`` with
``S(w)`` the set of subset sums of the entries of ``w``. The symmetry of the cube
(permuting the coordinates, and reflecting one, ``u_i -> 1 - u_i``, which replaces
``w_i`` by ``-w_i`` and shifts every sum) leaves ``|S(w)|`` unchanged, and so does
scaling ``w`` by a unit of ``F_q``: the sum runs over one ``w`` per class, a multiset
of entries up to sign with the first entry 1, weighted by the size of its class. For
n = 6 that is about 290,000 multisets over four primes instead of ``47^6 = 10^10``
points.

Known coefficients shorten the interpolation: ``chi(t) = t^(n+1) - 2^n t^n +
binom(2^n, 2) t^(n-1) + ...`` (no three vertices of a cube are collinear, so every
rank-2 flat holds two hyperplanes), and ``chi(1) = 0`` (the arrangement is central).
The ``n - 2`` remaining coefficients come from as many primes, and one more prime
checks the polynomial: a mismatch raises instead of returning a count.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

Point = tuple[int, ...]


def affine_cube_dimension(points: list[Point]) -> int | None:
    """``n`` if the distinct points are exactly an affine image of ``{0,1}^n``, else None.

    An affine image of the cube is ``{o + sum_i u_i g_i : u in {0,1}^n}`` with linearly
    independent ``g_i``: its separable labellings (with a threshold) are those of the
    cube itself. The test is exact (integer points): order the points by a linear
    functional ``l`` that takes distinct values on them; the first is a vertex ``o``
    (all ``l(g_i) > 0`` after reflecting), and the generators are, in order of ``l``,
    the differences ``v - o`` not already a subset sum of the ones found. The set
    spanned is then compared with the points, and the rank of the ``g_i`` checked.

    Examples
    --------
    >>> affine_cube_dimension([(0, 0), (1, 0), (0, 1), (1, 1)])
    2
    >>> affine_cube_dimension([(5, 1), (6, 3), (7, 1), (8, 3)])   # o = (5, 1), g = (1, 2), (2, 0)
    2
    >>> affine_cube_dimension([(0, 0), (1, 0), (0, 1), (2, 2)]) is None
    True
    """
    pts = sorted(set(points))
    size = len(pts)
    n = size.bit_length() - 1
    if size < 2 or size != 1 << n:
        return None
    dim = len(pts[0])
    # A functional with distinct values on the points: the coefficients grow faster than
    # any difference of coordinates, so l(v) orders the points lexicographically.
    spread = 2 * max(max(abs(a) for a in p) for p in pts) + 1
    coef = [spread ** (dim - 1 - j) for j in range(dim)]

    def ell(p: Point) -> int:
        return sum(c * a for c, a in zip(coef, p, strict=True))

    pts.sort(key=ell)
    o = pts[0]
    diffs = [tuple(a - b for a, b in zip(p, o, strict=True)) for p in pts[1:]]
    gens: list[Point] = []
    sums = {tuple([0] * dim)}
    for d in diffs:  # in increasing l: a generator comes before every sum containing it
        if d in sums:
            continue
        if len(gens) == n:
            return None
        gens.append(d)
        sums |= {tuple(a + b for a, b in zip(s, d, strict=True)) for s in sums}
    if len(gens) != n or len(sums) != size:
        return None
    if {tuple(a + b for a, b in zip(s, o, strict=True)) for s in sums} != set(pts):
        return None
    return n if _rank(gens) == n else None


def _rank(rows: list[Point]) -> int:
    """Rank of integer rows, by fraction-free elimination."""
    rows = [list(r) for r in rows]
    rank = 0
    width = len(rows[0]) if rows else 0
    for j in range(width):
        pivot = next((r for r in rows if r[j]), None)
        if pivot is None:
            continue
        rank += 1
        rows = [[pivot[j] * a - r[j] * b for a, b in zip(r, pivot, strict=True)]
                for r in rows if r is not pivot]
    return rank


def safe_primes(n: int, count: int) -> list[int]:
    """The ``count`` smallest odd primes above every minor of the n-cube's normals.

    Examples
    --------
    >>> safe_primes(6, 5)
    [37, 41, 43, 47, 53]
    """
    # q^2 > (k+1)^(k+1) / 4^k for every k <= n + 1 (Hadamard's bound for 0/1 matrices).
    def safe(q: int) -> bool:
        return all(q * q * 4**k > (k + 1) ** (k + 1) for k in range(1, n + 2))

    out: list[int] = []
    q = 3
    while len(out) < count:
        if all(q % p for p in range(2, math.isqrt(q) + 1)) and safe(q):
            out.append(q)
        q += 2
    return out


def _multisets(h: int, length: int, first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Nondecreasing tuples over ``1..h`` of the given length and the size of their class.

    A class is every tuple of non-zero residues that is a permutation of the tuple up
    to the sign of each entry: ``length! / prod(mult!) * 2**length`` of them. Built
    column by column in numpy (each row is extended by every value from its last on).

    Examples
    --------
    With ``first``, only the tuples that start with it (to work in slices).

    >>> t, w = _multisets(2, 2)
    >>> t.tolist(), w.tolist()
    ([[1, 1], [1, 2], [2, 2]], [4, 8, 4])
    >>> _multisets(2, 2, first=1)[0].tolist()
    [[1, 1], [1, 2]]
    """
    if first:
        tuples = np.full((1, 1), first, dtype=np.int64)
        last = np.full(1, first, dtype=np.int64)
        run = np.ones(1, dtype=np.int64)  # length of the current run of equal entries
    else:
        tuples = np.zeros((1, 0), dtype=np.int64)
        last = np.ones(1, dtype=np.int64)
        run = np.zeros(1, dtype=np.int64)
    divisor = np.ones(1, dtype=np.int64)
    for _ in range(length - (1 if first else 0)):
        counts = h - last + 1
        rows = np.repeat(np.arange(len(tuples)), counts)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        value = np.repeat(last, counts) + (np.arange(len(rows)) - starts)
        same = value == np.repeat(last, counts)
        if tuples.shape[1] == 0:
            same[:] = False
        run = np.where(same, run[rows] + 1, 1)
        divisor = divisor[rows] * run
        tuples = np.hstack([tuples[rows], value[:, None]])
        last = value
    weights = math.factorial(length) * 2**length // divisor
    return tuples, weights


def _subset_sum_sizes(entries: np.ndarray, q: int) -> np.ndarray:
    """``|S(w)|`` for each row ``w`` of ``entries`` (residues mod q).

    The set of sums is a bit mask of ``q`` bits, grown entry by entry by a rotation:
    ``S | (S + a)``; one 64-bit word per row for ``q < 64``, two for ``q < 128`` (the
    7-cube's primes), boolean rows above.
    """
    if 64 <= q < 128:
        return _subset_sum_sizes_128(entries, q)
    if q < 64:
        full = np.uint64((1 << q) - 1)
        masks = np.ones(len(entries), dtype=np.uint64)
        for j in range(entries.shape[1]):
            a = entries[:, j].astype(np.uint64)
            masks |= ((masks << a) | (masks >> (np.uint64(q) - a))) & full
        return _popcount(masks).astype(np.int64)
    bits = np.zeros((len(entries), q), dtype=bool)
    bits[:, 0] = True
    shifts = np.arange(q)
    for j in range(entries.shape[1]):
        index = (shifts[None, :] - entries[:, j : j + 1]) % q
        bits |= np.take_along_axis(bits, index, axis=1)
    return bits.sum(axis=1)


#: Set bits of each byte value, for NumPy before 2.0 (no ``np.bitwise_count``).
_BYTE_BITS = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)


def _popcount(words: np.ndarray) -> np.ndarray:
    """Set bits of each 64-bit word (``np.bitwise_count`` where NumPy has it, >= 2.0).

    >>> _popcount(np.array([0, 1, 2**64 - 1, 0b1011], dtype=np.uint64)).tolist()
    [0, 1, 64, 3]
    """
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(words).astype(np.int64)
    return _popcount_by_bytes(words)


def _popcount_by_bytes(words: np.ndarray) -> np.ndarray:
    """:func:`_popcount` by a table of the 256 byte values (any NumPy)."""
    as_bytes = np.ascontiguousarray(words, dtype=np.uint64).view(np.uint8).reshape(len(words), 8)
    return _BYTE_BITS[as_bytes].sum(axis=1)


def _shift_left(hi: np.ndarray, lo: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hi, lo) << s`` for 128-bit words, ``0 <= s < 128`` per row (no shift by 64 or more)."""
    small = s < 64
    k = np.where(small, s, 0).astype(np.uint64)
    back = np.where(k == 0, 1, 64 - k.astype(np.int64)).astype(np.uint64)
    carry = np.where(k == 0, np.uint64(0), lo >> back)
    big = np.where(small, 0, s - 64).astype(np.uint64)
    new_hi = np.where(small, (hi << k) | carry, lo << big)
    new_lo = np.where(small, lo << k, np.uint64(0))
    return new_hi, new_lo


def _shift_right(hi: np.ndarray, lo: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(hi, lo) >> s`` for 128-bit words, ``0 <= s < 128`` per row."""
    small = s < 64
    k = np.where(small, s, 0).astype(np.uint64)
    back = np.where(k == 0, 1, 64 - k.astype(np.int64)).astype(np.uint64)
    carry = np.where(k == 0, np.uint64(0), hi << back)
    big = np.where(small, 0, s - 64).astype(np.uint64)
    new_lo = np.where(small, (lo >> k) | carry, hi >> big)
    new_hi = np.where(small, hi >> k, np.uint64(0))
    return new_hi, new_lo


def _subset_sum_sizes_128(entries: np.ndarray, q: int) -> np.ndarray:
    """:func:`_subset_sum_sizes` with two 64-bit words per row, for ``64 <= q < 128``."""
    full_hi = np.uint64((1 << (q - 64)) - 1)
    hi = np.zeros(len(entries), dtype=np.uint64)
    lo = np.ones(len(entries), dtype=np.uint64)
    for j in range(entries.shape[1]):
        a = entries[:, j] % q
        up_hi, up_lo = _shift_left(hi, lo, a)
        down_hi, down_lo = _shift_right(hi, lo, (q - a) % q)
        hi |= (up_hi | down_hi) & full_hi
        lo |= up_lo | down_lo
    return (_popcount(hi) + _popcount(lo)).astype(np.int64)


def points_off_the_cube_arrangement(n: int, q: int) -> tuple[int, int]:
    """``chi(q)``: points of ``F_q^(n+1)`` on no hyperplane of the n-cube; and the work.

    The work is the number of (multiset, entry) pairs processed.

    Examples
    --------
    >>> points_off_the_cube_arrangement(2, 5)[0]   # (t - 1)(t - 2)(t - 3)... at t = 5: 5^3 - 4*25 + 6*5 - 3
    52
    """
    h = (q - 1) // 2
    total = 1  # w = 0: one subset sum
    work = 0
    for k in range(1, n + 1):  # k non-zero entries, the first scaled to 1
        inner = 0
        # In slices by the first entry past the 1 (memory: n = 7 has 3e7 multisets).
        for first in range(1, h + 1) if k > 1 else (0,):
            tuples, weights = _multisets(h, k - 1, first)
            entries = np.hstack([np.ones((len(tuples), 1), dtype=np.int64), tuples])
            sizes = _subset_sum_sizes(entries, q)
            work += len(tuples) * k
            inner += int(weights @ sizes)  # at most 2**n n! q per multiset: no overflow
        total += math.comb(n, k) * (q - 1) * inner
    return q ** (n + 1) - total, work


def cube_work(n: int) -> int:
    """The work of :func:`cube_threshold_functions`, before doing it.

    Examples
    --------
    >>> cube_work(6)
    2436105
    """
    work = 0
    for q in safe_primes(n, max(n - 2, 0) + 1):
        h = (q - 1) // 2
        work += sum(math.comb(h + k - 2, k - 1) * k for k in range(1, n + 1))
    return work


def cube_threshold_functions(n: int) -> tuple[int, int]:
    """Threshold functions of n inputs (regions of the n-cube's arrangement), and the work.

    Examples
    --------
    >>> cube_threshold_functions(4)[0], cube_threshold_functions(6)[0]   # OEIS A000609
    (1882, 15028134)
    """
    if n < 2:
        raise ValueError(f"n must be >= 2 for the cube formula, got {n}")
    m = 1 << n
    known = {n + 1: 1, n: -m, n - 1: math.comb(m, 2)}

    def remainder(t: int, chi: int) -> int:
        return chi - sum(c * t**e for e, c in known.items())

    primes = safe_primes(n, n - 1)  # n - 2 to interpolate, one to check
    data = [(1, remainder(1, 0))]  # chi(1) = 0
    work = 0
    values = []
    for q in primes:
        chi, w = points_off_the_cube_arrangement(n, q)
        work += w
        values.append((q, remainder(q, chi)))
    data += values[:-1]
    check_q, check_value = values[-1]
    if _lagrange(data, check_q) != check_value:  # pragma: no cover - a broken invariant
        raise RuntimeError(f"the {n}-cube's characteristic polynomial failed its check at q = {check_q}")
    chi_minus_one = _lagrange(data, -1) + sum(c * (-1) ** e for e, c in known.items())
    regions = abs(int(chi_minus_one))
    return regions, work


def _lagrange(points: list[tuple[int, int]], t: int) -> Fraction:
    """The polynomial of degree < len(points) through the points, evaluated at t."""
    total = Fraction(0)
    for i, (xi, yi) in enumerate(points):
        term = Fraction(yi)
        for j, (xj, _) in enumerate(points):
            if j != i:
                term *= Fraction(t - xj, xi - xj)
        total += term
    return total
