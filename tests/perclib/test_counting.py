"""Tests for perclib.counting: Cover's formula and exact enumeration of dichotomies.

References: hand-computed values, an independent recursion for C(P, N), the known
numbers of threshold functions of n inputs (2, 4, 14, 104, 1882: OEIS A000609),
and a separability test by NNLS (origin inside the convex hull or not) that shares
no code with the linear programs used by perclib.
"""

from __future__ import annotations

import itertools
import math
import time
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import nnls

from perclib import (
    boolean_cube,
    capacity_fraction,
    count_dichotomies,
    cover_count,
    cover_count_symbolic,
    separable_dichotomies,
)
from perclib._regions import count_regions, essential, integer_normals
from perclib.counting import (
    MAX_COUNT_WORK,
    _enumerate_incremental,
    _unit_rows,
    separable_dichotomies_bruteforce,
)

SEEDS = st.integers(0, 2**32 - 1)


@cache
def cover_recursion(P: int, N: int) -> int:
    """Cover's recursion C(P + 1, N) = C(P, N) + C(P, N - 1), C(1, N) = 2, C(P, 0) = 0."""
    if N == 0:
        return 0
    if P == 1:
        return 2
    return cover_recursion(P - 1, N) + cover_recursion(P - 1, N - 1)


def nnls_separable(Z: np.ndarray, s: np.ndarray) -> bool:
    """Whether s_i z_i admit w with all s_i w.z_i > 0, decided by NNLS.

    Gordan: not separable exactly when the origin lies in the convex hull of the
    rows s_i z_i, i.e. when  min ||sum a_i s_i z_i||^2 + (sum a_i - 1)^2, a >= 0,
    is zero. Meant for small-integer data, where the distance is either 0 or
    clearly positive.
    """
    J = s[:, None] * Z
    A = np.vstack([J.T, np.ones(len(s))])
    b = np.append(np.zeros(Z.shape[1]), 1.0)
    dist = nnls(A, b)[1]
    assert dist < 1e-10 or dist > 1e-6, "ambiguous reference"
    return bool(dist > 1e-6)


def reference_dichotomies(X: np.ndarray, threshold: bool) -> set[tuple[int, ...]]:
    Z = np.hstack([X, np.ones((len(X), 1))]) if threshold else X
    return {
        s
        for s in itertools.product((-1, 1), repeat=len(X))
        if nnls_separable(Z, np.array(s, dtype=float))
    }


def as_set(S: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(v) for v in row) for row in S}


# ---------------------------------------------------------------------------
# cover_count, capacity_fraction
# ---------------------------------------------------------------------------


def test_cover_count_hand_values():
    assert cover_count(1, 1) == 2
    assert cover_count(4, 2) == 8  # 4 points in the plane, through the origin
    assert cover_count(5, 3) == 22  # 2 * (1 + 4 + 6)
    assert cover_count(4, 3) == 14  # = threshold functions of 2 inputs
    assert cover_count(8, 4) == 128  # P = 2N: half of 2^8
    assert [cover_count(P, 1) for P in range(1, 6)] == [2] * 5
    assert [cover_count(P, 2) for P in range(1, 6)] == [2, 4, 6, 8, 10]


def test_cover_count_all_labelings_when_p_at_most_n():
    for N in range(1, 8):
        for P in range(1, N + 1):
            assert cover_count(P, N) == 2**P
    assert cover_count(3, 10**9) == 8  # a huge N costs nothing


def test_cover_count_exact_big_integers():
    value = cover_count(1000, 500)
    assert type(value) is int
    assert value == 2**999  # P = 2N: exactly half, no rounding anywhere
    assert cover_count(10**6, 3) == 2 * (1 + (10**6 - 1) + (10**6 - 1) * (10**6 - 2) // 2)


def test_cover_count_grows_like_polynomial_of_degree_n_minus_1():
    # C(P, N) ~ 2 P^(N-1) / (N-1)! for P >> N (COURSE.md, section 3).
    for N in (2, 3, 4):
        P = 10**7
        ratio = cover_count(P, N) / (2 * P ** (N - 1) / math.factorial(N - 1))
        assert ratio == pytest.approx(1.0, rel=1e-5)


@settings(max_examples=60, deadline=None)
@given(P=st.integers(1, 60), N=st.integers(1, 60))
def test_cover_count_satisfies_cover_recursion(P, N):
    assert cover_count(P, N) == cover_recursion(P, N)


def test_capacity_fraction():
    assert capacity_fraction(4, 2) == Fraction(1, 2)
    assert capacity_fraction(200, 100) == Fraction(1, 2)
    assert capacity_fraction(3, 3) == 1
    assert capacity_fraction(5, 3) == Fraction(22, 32)
    assert isinstance(capacity_fraction(7, 2), Fraction)


@pytest.mark.parametrize("func", [cover_count, capacity_fraction])
def test_cover_count_bad_arguments(func):
    for bad in (2.0, 2.5, True, "3", None):
        with pytest.raises(TypeError, match="P must be an integer"):
            func(bad, 2)
        with pytest.raises(TypeError, match="N must be an integer"):
            func(3, bad)
    for bad in (0, -1):
        with pytest.raises(ValueError, match="P must be >= 1"):
            func(bad, 2)
        with pytest.raises(ValueError, match="N must be >= 1"):
            func(3, bad)
    assert func(np.int64(4), np.int32(2)) == func(4, 2)  # numpy integers are fine


# ---------------------------------------------------------------------------
# cover_count_symbolic
# ---------------------------------------------------------------------------


def test_symbolic_formula_structure():
    expr = cover_count_symbolic()
    P, N = sorted(expr.free_symbols, key=lambda s: s.name, reverse=True)
    assert (P.name, N.name) == ("P", "N")
    assert P.is_integer and P.is_positive and N.is_integer and N.is_positive
    assert str(expr) == "2*Sum(binomial(P - 1, k), (k, 0, N - 1))"
    # Numbers substituted by hand give Cover's values.
    assert expr.subs({P: 9, N: 4}).doit() == 2 * (1 + 8 + 28 + 56)


@settings(max_examples=30, deadline=None)
@given(P=st.integers(1, 25), N=st.integers(1, 25))
def test_symbolic_with_integers_equals_cover_count(P, N):
    value = cover_count_symbolic(P, N)
    assert isinstance(value, sympy.Integer)
    assert value == cover_count(P, N) == cover_recursion(P, N)
    unevaluated = cover_count_symbolic(P, N, evaluate=False)
    assert isinstance(unevaluated, sympy.Expr) and unevaluated.has(sympy.Sum)
    assert unevaluated.doit() == cover_count(P, N)


def test_symbolic_small_n_closed_forms():
    P = sympy.Symbol("P", integer=True, positive=True)
    assert cover_count_symbolic(N=1, evaluate=True) == 2
    assert sympy.simplify(cover_count_symbolic(N=2, evaluate=True) - 2 * P) == 0
    assert sympy.expand(cover_count_symbolic(N=3, evaluate=True) - (P**2 - P + 2)) == 0
    # Without evaluation the sum stays visible for a lesson to show.
    assert cover_count_symbolic(N=2).has(sympy.Sum)
    # A sympy expression may be passed in place of a number.
    M = sympy.Symbol("M", integer=True, positive=True)
    assert cover_count_symbolic(2 * M, 1, evaluate=True) == 2


def test_symbolic_bad_arguments():
    with pytest.raises(TypeError, match="P must be an integer"):
        cover_count_symbolic(2.5, 2)
    with pytest.raises(ValueError, match="N must be >= 1"):
        cover_count_symbolic(3, 0)
    with pytest.raises(TypeError, match="evaluate"):
        cover_count_symbolic(3, 2, evaluate="yes")


# ---------------------------------------------------------------------------
# Enumeration of separable dichotomies
# ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 11), N=st.integers(1, 3), threshold=st.booleans())
def test_count_on_gaussian_points_is_cover_count(seed, P, N, threshold):
    X = np.random.default_rng(seed).standard_normal((P, N))
    expected = cover_count(P, N + 1) if threshold else cover_count(P, N)
    assert count_dichotomies(X, threshold=threshold) == expected


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 7), N=st.integers(1, 3), threshold=st.booleans())
def test_enumeration_equals_reference_on_degenerate_integer_sets(seed, P, N, threshold):
    # Small integers: repeated points, collinear triples, the origin, all likely.
    X = np.random.default_rng(seed).integers(-2, 3, size=(P, N)).astype(float)
    S = separable_dichotomies(X, threshold=threshold)
    expected = reference_dichotomies(X, threshold)
    assert as_set(S) == expected
    assert len(S) == len(expected) == count_dichotomies(X, threshold=threshold)
    assert as_set(separable_dichotomies_bruteforce(X, threshold=threshold)) == expected


@settings(max_examples=12, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 8), N=st.integers(1, 3), threshold=st.booleans())
def test_enumeration_equals_bruteforce_on_gaussian_points(seed, P, N, threshold):
    X = np.random.default_rng(seed).standard_normal((P, N))
    S = separable_dichotomies(X, threshold=threshold)
    B = separable_dichotomies_bruteforce(X, threshold=threshold)
    np.testing.assert_array_equal(S, B)  # same rows in the same order
    assert as_set(S) == reference_dichotomies(X, threshold)


def test_output_format():
    X = np.random.default_rng(5).standard_normal((6, 2))
    S = separable_dichotomies(X)
    assert S.shape == (cover_count(6, 2), 6)
    assert S.dtype == np.int64
    assert set(np.unique(S).tolist()) == {-1, 1}
    assert len(as_set(S)) == len(S)  # no duplicates
    assert as_set(-S) == as_set(S)  # closed under s -> -s
    # Lexicographic order, -1 before +1, first column most significant.
    assert [tuple(r) for r in S.tolist()] == sorted(tuple(r) for r in S.tolist())


def test_boolean_cube_threshold_function_counts():
    # Numbers of linear threshold functions of n inputs (OEIS A000609).
    for n, expected in ((1, 4), (2, 14), (3, 104), (4, 1882)):
        assert count_dichotomies(boolean_cube(n), threshold=True) == expected


def test_two_input_threshold_functions_are_all_but_xor_and_xnor():
    S = separable_dichotomies(boolean_cube(2), threshold=True)
    missing = {
        s for s in itertools.product((-1, 1), repeat=4) if s not in as_set(S)
    }
    assert missing == {(-1, 1, 1, -1), (1, -1, -1, 1)}


def test_origin_without_threshold_gives_no_dichotomy():
    X = [[0.0, 0.0], [1.0, 2.0], [3.0, -1.0]]
    S = separable_dichotomies(X)
    assert S.shape == (0, 3)
    assert count_dichotomies(X) == 0
    assert count_dichotomies(boolean_cube(3)) == 0  # the cube contains the origin
    assert separable_dichotomies_bruteforce(X).shape == (0, 3)
    # With a threshold the origin is an ordinary point: 3 points in general
    # position in the plane, all 8 labelings.
    assert count_dichotomies(X, threshold=True) == 8


def test_hand_counted_degenerate_sets():
    # Points on a line: only "prefix/suffix" labelings, 2 P of them with threshold.
    line = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]]
    assert count_dichotomies(line, threshold=True) == 8
    # Through the origin, points on one ray can only be labelled all alike.
    assert count_dichotomies(line[1:]) == 2
    # x and -x always get opposite labels (sign(w1) and -sign(w1)); adding
    # (0, 1), labelled sign(w2) independently, doubles that: 4.
    assert count_dichotomies([[1.0, 0.0], [-1.0, 0.0]]) == 2
    assert count_dichotomies([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]) == 4
    # A repeated point changes nothing: its label is forced.
    X = np.random.default_rng(2).standard_normal((5, 2))
    Xd = np.vstack([X, X[3]])
    S = separable_dichotomies(Xd)
    assert len(S) == cover_count(5, 2)
    assert np.all(S[:, 5] == S[:, 3])
    # The square without its corner at the origin, through the origin: 6 of 8.
    assert count_dichotomies(boolean_cube(2)[1:]) == 6


def test_rounding_does_not_create_dichotomies():
    # Collinear in exact arithmetic, but their float values are off the line by
    # about 1e-17: (+, -, +) "separates" only by rounding and must not count.
    X = np.array([[0.1, 0.7], [0.2, 1.4], [0.3, 2.1]])
    assert count_dichotomies(X, threshold=True) == 6  # 2 P, as for points on a line
    assert len(separable_dichotomies(X, threshold=True)) == 6
    X5 = np.vstack([X, [[1.0, -1.0], [2.0, 0.5]]])
    expected = reference_dichotomies(X5, True)
    assert (1, -1, 1, 1, 1) not in expected
    assert as_set(separable_dichotomies(X5, threshold=True)) == expected
    assert as_set(separable_dichotomies_bruteforce(X5, threshold=True)) == expected
    assert count_dichotomies(X5, threshold=True) == len(expected)


def test_count_reads_decimals_as_decimals_and_other_floats_exactly():
    # The triple above is not on a line in binary (determinant 3 / 2**56); the count
    # reads the data as 1/10 times the integers (1, 7), (2, 14), (3, 21): a line, at
    # any units, whatever the rounding of the product.
    X = np.array([[0.1, 0.7], [0.2, 1.4], [0.3, 2.1]])
    (a, b), (c, d), (e, f) = (tuple(Fraction(v) for v in row) for row in X)
    assert (c - a) * (f - b) - (d - b) * (e - a) == Fraction(3, 2**56)
    for s in (1.0, 1e-7, 3.7, 1e12, 2.0**-60, 1e-300):
        assert count_dichotomies(X * s, threshold=True) == 6, s
    # Generic floats are taken as their exact binary values: a third point 1e-13 off
    # the line through two random ones is off it (all 8 labelings); the LP, whose
    # separability needs a relative margin above 1e-9, lists only 6 of them.
    p, q = np.random.default_rng(4).standard_normal((2, 2))
    r = q + (q - p) + np.array([1e-13, 0.0])
    assert count_dichotomies([p, q, r], threshold=True) == 8
    assert len(separable_dichotomies([p, q, r], threshold=True)) == 6
    # Exact binary relations between generic floats are exact ties: x, 2x, x/4, -x
    # give one hyperplane through the origin.
    X6 = np.random.default_rng(5).standard_normal((6, 3))
    multiples = np.vstack([X6, 2 * X6[0], X6[1] / 4, -X6[2]])
    assert count_dichotomies(multiples) == cover_count(6, 3)
    assert len(separable_dichotomies(multiples)) == cover_count(6, 3)


def test_incremental_method_solves_far_fewer_lps():
    X = np.random.default_rng(0).standard_normal((12, 3))
    S, stats = _enumerate_incremental(_unit_rows(X, False))
    assert len(S) == cover_count(12, 3)
    # Every labeling (first label +1) of each prefix is extended in two ways.
    assert sum(stats.values()) == sum(cover_count(k, 3) for k in range(1, 12))
    # At most one LP per separable labeling (first label +1) of each prefix.
    assert stats["lp"] <= sum(cover_count(k, 3) // 2 for k in range(1, 12))
    assert stats["lp"] < 2**12 / 20


def test_bruteforce_refuses_large_sets():
    X = np.random.default_rng(0).standard_normal((21, 2))
    with pytest.raises(ValueError, match=r"2\*\*21 labelings.*2,097,152 linear programs.*max_work"):
        separable_dichotomies_bruteforce(X)


@pytest.mark.parametrize(
    ("call", "size"),
    [
        (lambda: cover_count(10**6, 5 * 10**5), "P=1000000, N=500000"),
        (lambda: capacity_fraction(10**6, 5 * 10**5), "P=1000000, N=500000"),
        (lambda: cover_count_symbolic(N=40, evaluate=True), "N = 40"),
        (lambda: cover_count_symbolic(P=30, evaluate=True), "P = 30"),
        (lambda: cover_count_symbolic(10**6, 5 * 10**5), "P=1000000, N=500000"),
    ],
    ids=["cover_count", "capacity_fraction", "symbolic-N", "symbolic-P", "symbolic-both"],
)
def test_counts_refuse_unbounded_work(call, size):
    """The guard names the size, the estimated work and the keyword that lifts it."""
    with pytest.raises(ValueError, match="max_work") as err:
        call()
    assert size in str(err.value) and "about" in str(err.value)


def test_cover_count_limits_can_be_lifted_and_large_cases_are_fast():
    assert cover_count(10**6, 10**6) == 2**10**6  # P <= N: 2**P directly
    assert cover_count(10**6, 5, max_work=None) == 2 * sum(math.comb(10**6 - 1, k) for k in range(5))
    assert cover_count(3001, 3000) == 2**3001 - 2  # the short side of Pascal's row
    assert cover_count_symbolic(3, 2, max_work=None) == 6


@pytest.mark.parametrize(
    "func", [separable_dichotomies, count_dichotomies, separable_dichotomies_bruteforce]
)
def test_enumeration_bad_input(func):
    with pytest.raises(ValueError, match="2-D"):
        func([1.0, 2.0])
    with pytest.raises(ValueError, match="empty"):
        func(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="NaN"):
        func([[1.0, np.nan]])
    with pytest.raises(ValueError, match="NaN or infinite"):
        func([[1.0, -np.inf]])
    with pytest.raises(TypeError, match="string"):
        func("points")
    with pytest.raises(TypeError, match="threshold"):
        func([[1.0, 2.0]], threshold=None)


@pytest.mark.parametrize(
    ("P", "N", "threshold"), [(200, 10, False), (40, 8, False), (40, 7, True)]
)
def test_enumeration_refuses_astronomical_sets_up_front(P, N, threshold):
    X = np.random.default_rng(1).standard_normal((P, N))
    rank = N + 1 if threshold else N
    started = time.perf_counter()
    with pytest.raises(ValueError, match="cover_count") as err:
        separable_dichotomies(X, threshold=threshold)
    # Refused before any linear program: not a timing claim, a guard against hanging.
    assert time.perf_counter() - started < 5.0
    assert f"{cover_count(P, rank):,}" in str(err.value), "the message states the size"
    assert "max_count" in str(err.value)


@cache
def steps_bound(m: int, d: int) -> int:
    """Deletion-restriction steps without memo, written out independently of perclib."""
    if m <= 1 or d <= 2:
        return 1
    if d == 3:
        return 1 + math.comb(m, 2)
    return 1 + sum(i + steps_bound(i, d - 1) for i in range(1, m))


@pytest.mark.parametrize(
    ("P", "N", "threshold"), [(200, 10, False), (70, 7, True), (120, 6, False)]
)
def test_count_refuses_exploding_work_up_front(P, N, threshold):
    X = np.random.default_rng(1).standard_normal((P, N))
    rank = N + 1 if threshold else N
    assert math.comb(P, rank) > 2_000_000  # too many subsets to test general position
    assert steps_bound(P, rank) > MAX_COUNT_WORK
    started = time.perf_counter()
    with pytest.raises(ValueError, match="max_work") as err:
        count_dichotomies(X, threshold=threshold)
    assert time.perf_counter() - started < 5.0  # refused before the count, not after
    assert f"{P} distinct hyperplanes of rank {rank}" in str(err.value)
    assert "general position" in str(err.value), "the message says why no formula applies"


def test_region_work_is_the_written_out_bound():
    from perclib._regions import region_work

    for m in range(0, 30):
        for d in range(1, 9):
            assert region_work(m, d) == steps_bound(m, d), (m, d)
    # With a cap it stops early, at a value already above the cap.
    assert MAX_COUNT_WORK < region_work(200, 10, MAX_COUNT_WORK) <= steps_bound(200, 10)


def test_count_limit_counts_distinct_hyperplanes_and_rank():
    # 30 points on a line through the origin in R^10: one hyperplane, 2 labelings.
    line = np.outer(np.arange(1.0, 31.0), np.ones(10))
    assert count_dichotomies(line, max_work=1) == 2
    # 256 patterns that are 4 directions repeated at many scales and signs, in R^3:
    # 4 hyperplanes of rank 3, one circuit: a closed form of 4 * (4 + 3) steps.
    base = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    scales = np.repeat([1.0, -2.0, 0.5, -3.0] * 16, 4)[:, None]
    many = np.tile(base, (64, 1)) * scales
    assert count_dichotomies(many, max_work=28) == cover_count(4, 3)
    with pytest.raises(ValueError, match="max_work=27"):
        count_dichotomies(many, max_work=27)


def test_enumeration_limit_counts_the_rank_not_the_dimension():
    # 30 points on a line through the origin in R^10: rank 1, only 2 labelings.
    line = np.outer(np.arange(1.0, 31.0), np.ones(10))
    assert len(separable_dichotomies(line)) == 2


def test_limits_can_be_raised_or_lifted():
    X = np.random.default_rng(2).standard_normal((12, 3))
    expected = cover_count(12, 3)  # 134
    with pytest.raises(ValueError, match="max_count=100"):
        separable_dichotomies(X, max_count=100)
    assert len(separable_dichotomies(X, max_count=expected)) == expected
    assert len(separable_dichotomies(X, max_count=None)) == expected
    with pytest.raises(TypeError, match="max_count"):
        separable_dichotomies(X, max_count=2.5)
    with pytest.raises(ValueError, match="max_count"):
        separable_dichotomies(X, max_count=0)
    # The count's own limit is on its work. Testing general position takes
    # binom(12, 3) = 220 subsets; below that, deletion-restriction needs at most
    # 1 + binom(12, 2) = 67 steps (twelve planes through the origin of R^3).
    with pytest.raises(ValueError, match="max_work=66"):
        count_dichotomies(X, max_work=66)
    assert count_dichotomies(X, max_work=67) == count_dichotomies(X, max_work=220) == expected
    assert count_dichotomies(X, max_work=None) == expected
    with pytest.raises(TypeError, match="max_work"):
        count_dichotomies(X, max_work=2.5)
    with pytest.raises(ValueError, match="max_work"):
        count_dichotomies(X, max_work=0)


# ---------------------------------------------------------------------------
# Counting without listing: the regions of the hyperplane arrangement
# ---------------------------------------------------------------------------

#: Threshold functions of n inputs (OEIS A000609), n = 0 .. 6.
A000609 = [2, 4, 14, 104, 1882, 94572, 15028134]


def test_cube_threshold_functions_are_oeis_a000609():
    for n in range(1, 7):
        assert count_dichotomies(boolean_cube(n), threshold=True) == A000609[n], n


def test_cube_through_the_origin():
    # The 0/1 cube contains the origin: no strict labeling at all.
    for n in range(1, 6):
        assert count_dichotomies(boolean_cube(n)) == 0
    # The +-1 cube through the origin: x and -x give one hyperplane, and the
    # representatives (x', 1) are the threshold arrangement of the (n-1)-cube.
    for n in range(1, 7):
        assert count_dichotomies(2 * boolean_cube(n) - 1) == A000609[n - 1], n
    # Centred 0/1 cube (the same as the +-1 cube, halved) and the LP's own count.
    assert count_dichotomies(boolean_cube(4) - 0.5) == 104
    assert len(separable_dichotomies(boolean_cube(4) - 0.5)) == 104


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 30), N=st.integers(1, 5), threshold=st.booleans())
def test_count_on_gaussian_points_is_cover_count_large(seed, P, N, threshold):
    X = np.random.default_rng(seed).standard_normal((P, N))
    expected = cover_count(P, N + 1) if threshold else cover_count(P, N)
    assert count_dichotomies(X, threshold=threshold) == expected


def degenerate_set(kind: str, rng: np.random.Generator) -> np.ndarray:
    """A small point set with the named degeneracy (integers, so the LP is decisive)."""
    base = rng.integers(-3, 4, size=(rng.integers(2, 5), 3)).astype(float)
    if kind == "repeated":
        return np.vstack([base, base[rng.integers(len(base), size=2)]])
    if kind == "collinear":
        a, b = base[0], base[1]
        return np.vstack([base, a + 2 * (b - a), a - (b - a)])
    if kind == "coplanar":
        a, b, c = base[0], base[1 % len(base)], rng.integers(-3, 4, size=3).astype(float)
        return np.vstack([base, a + b - c, 2 * a - c, c])
    if kind == "antipodal":
        return np.vstack([base, -base[:2]])
    if kind == "origin":
        return np.vstack([base, np.zeros(3)])
    if kind == "cube":
        cube = boolean_cube(3)
        return cube[rng.permutation(8)[: rng.integers(4, 9)]] * rng.choice([1.0, -1.0, 2.0])
    raise AssertionError(kind)


KINDS = ["repeated", "collinear", "coplanar", "antipodal", "origin", "cube"]


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, kind=st.sampled_from(KINDS), threshold=st.booleans())
def test_count_equals_lp_enumeration_on_degenerate_sets(seed, kind, threshold):
    X = degenerate_set(kind, np.random.default_rng(seed))
    listed = separable_dichotomies(X, threshold=threshold)
    assert count_dichotomies(X, threshold=threshold) == len(listed)
    assert as_set(listed) == reference_dichotomies(X, threshold)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 9), N=st.integers(1, 4), threshold=st.booleans())
def test_count_equals_lp_enumeration_on_small_integer_sets(seed, P, N, threshold):
    # Entries in -2..2: repeated points, parallel and antipodal pairs, collinear
    # triples, coplanar quadruples and the origin are all frequent.
    X = np.random.default_rng(seed).integers(-2, 3, size=(P, N)).astype(float)
    assert count_dichotomies(X, threshold=threshold) == len(separable_dichotomies(X, threshold=threshold))


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 12), N=st.integers(1, 4), threshold=st.booleans(),
       exponent=st.integers(-40, 40))
def test_count_is_unchanged_by_units_and_order(seed, P, N, threshold, exponent):
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(P, N)).astype(float)
    expected = count_dichotomies(X, threshold=threshold)
    for s in (10.0**exponent, 2.0**exponent, 10.0 ** (exponent / 3)):
        assert count_dichotomies(s * X, threshold=threshold) == expected, s
    assert count_dichotomies(X[rng.permutation(P)], threshold=threshold) == expected


def test_count_at_extreme_and_mixed_scales():
    # Mixed scales with a threshold: (1e200, 0, 1), (0, +-1e-200, 1) are independent.
    mixed = [[1e200, 0.0], [0.0, 1e-200], [0.0, -1e-200]]
    assert count_dichotomies(mixed, threshold=True) == 8
    assert count_dichotomies(mixed) == 4  # through 0: the last two are one hyperplane
    # Near the float maximum and at subnormal sizes, as for ordinary numbers.
    X = np.random.default_rng(3).integers(-3, 4, size=(9, 3)).astype(float)
    expected = count_dichotomies(X, threshold=True)
    for s in (8.9e307 / 3, 1e-310, 2.0**-1070):
        assert count_dichotomies(X * s, threshold=True) == expected, s
    assert count_dichotomies([[8.9e307, 8.9e307], [8.9e307, -8.9e307], [1.0, 0.0]], threshold=True) == 8
    # Rows at very different scales through the origin.
    rows = np.array([[1.0, 2.0, 3.0], [1e-300, 0.0, 1e-300], [3e250, -1e250, 0.0], [1.0, 2.0, 3.0]])
    assert count_dichotomies(rows) == count_dichotomies(
        [[1.0, 2.0, 3.0], [1.0, 0.0, 1.0], [3.0, -1.0, 0.0]]
    ) == 8


def test_directions_whose_float_ratios_coincide_are_told_apart():
    # Consecutive Fibonacci ratios near 2**31 differ by 1 / (F_n F_{n+1}) ~ 2**-62: as
    # floats, q1 / p1 == q2 / p2. The planes (0, p, q) meet (1, 0, 0) in two lines, not
    # one, and the three planes are independent: 8 regions (6 if the lines merged).
    f = [1, 1]
    while f[-1] < 2**31:
        f.append(f[-1] + f[-2])
    (p1, q1, p2, q2) = f[-4:]
    assert q1 / p1 == q2 / p2 and q1 * p2 != q2 * p1
    normals = ((0, p1, q1), (0, p2, q2), (1, 0, 0))
    assert count_regions(normals) == 8
    assert count_dichotomies(np.array(normals, dtype=float)) == 8


def test_region_counter_internals_agree_with_the_lp():
    # The closed form in 3-D and the recursion above it, on integer normals with many
    # parallel and coplanar ones: the LP enumeration's count, never fewer regions
    # than the sign vectors random weights reach, and the rank numpy sees.
    rng = np.random.default_rng(7)
    for _ in range(20):
        V = rng.integers(-2, 3, size=(rng.integers(1, 8), rng.integers(1, 5)))
        V = V[np.any(V, axis=1)]
        if len(V) == 0:
            continue
        normals, rank = essential(integer_normals(V.astype(float)))
        W = rng.standard_normal((20_000, V.shape[1]))
        seen = {tuple(r) for r in np.sign(W @ V.T).astype(int).tolist() if 0 not in r}
        assert len(seen) <= count_regions(normals) == len(separable_dichotomies(V.astype(float)))
        assert rank == np.linalg.matrix_rank(V)
def test_lesson4_figures_and_their_input_checks() -> None:
    from perclib.plotting.counting import draw_capacity_curves, draw_two_way

    old = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    fig = draw_two_way(old, [1.0, 1.0], [[-1, 1, 1], [1, -1, -1]])
    assert [ax.get_title() for ax in fig.axes] == ["two-way dichotomy 1 of 2", "two-way dichotomy 2 of 2"]
    with pytest.raises(ValueError, match="old"):
        draw_two_way(old[:, :1], [1.0, 1.0], [[1, 1, 1]])
    with pytest.raises(ValueError, match="new"):
        draw_two_way(old, [0.0, 0.0], [[1, 1, 1]])
    with pytest.raises(ValueError, match="both"):
        draw_two_way(old, [1.0, 1.0], [[1, 0, 1]])
    fig = draw_capacity_curves((3, 30))
    curves = fig.axes[0].get_lines()[:2]
    assert [c.get_label() for c in curves] == ["N = 3", "N = 30"]
    assert np.isclose(np.interp(2.0, *curves[1].get_data()), 0.5)
    with pytest.raises(ValueError, match="Ns"):
        draw_capacity_curves((1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="max_load"):
        draw_capacity_curves((3,), max_load=0)


# ---------------------------------------------------------------------------
# Issue 52: an honest work estimate, closed forms near P = N, the old max_count
# ---------------------------------------------------------------------------


def _work_cases():
    gen = np.random.default_rng(52)
    cases = []
    for P, N in [(6, 3), (9, 4), (12, 5), (8, 6), (7, 7), (9, 8), (11, 8)]:
        cases.append((f"gaussian {P}x{N}", gen.standard_normal((P, N))))
    for P, N in [(9, 3), (10, 4), (12, 5), (9, 7)]:  # small integers: many dependences
        cases.append((f"integers {P}x{N}", gen.integers(-2, 3, size=(P, N)).astype(float)))
    # near P = N but degenerate: a repeated direction and three points of a 2-D plane
    base = gen.integers(-9, 10, size=(9, 9)).astype(float)  # exact dependences
    base[3] = -2 * base[1]
    base[5] = base[6] + base[7]
    cases.append(("degenerate 9x9", base))
    for n in range(2, 6):
        cube = boolean_cube(n)
        cases.append((f"{n}-cube", cube))
        cases.append((f"permuted {n}-cube", cube[gen.permutation(len(cube))]))
        cases.append((f"+-1 {n}-cube", 2 * cube - 1))
    return cases


@pytest.mark.parametrize(("name", "X"), _work_cases(), ids=[c[0] for c in _work_cases()])
@pytest.mark.parametrize("threshold", [False, True])
def test_work_estimate_bounds_the_measured_work(name, X, threshold):
    from perclib._regions import count_regions_with_work, pattern_normals, region_work
    from perclib.counting import _count_with_work

    count, estimate, work = _count_with_work(X, threshold, None)
    assert 0 <= work <= estimate, (work, estimate)
    assert count == count_dichotomies(X, threshold=threshold, max_work=None)
    if len(X) <= 9:  # the labellings themselves, by linear programs
        assert count == len(separable_dichotomies(X, threshold=threshold, max_count=None))
    # Deletion-restriction itself, also where a formula answers first: its bound holds.
    normals = pattern_normals(X, threshold)
    if normals is None:  # a pattern at the origin: no labelling
        assert count == 0
        return
    distinct, rank = essential(normals)
    regions, steps = count_regions_with_work(distinct)
    assert regions == count
    assert steps <= region_work(len(distinct), rank)
    # A smaller max_work either finds a cheaper plan within it, or refuses up front.
    try:
        count2, estimate2, work2 = _count_with_work(X, threshold, estimate // 2)
    except ValueError as err:
        assert "max_work" in str(err)
    else:
        assert count2 == count and work2 <= estimate2 <= estimate // 2


def test_closed_forms_equal_deletion_restriction():
    from perclib._regions import closed_form_regions

    gen = np.random.default_rng(5)
    checked = 0
    for _ in range(300):
        m, d = int(gen.integers(2, 8)), int(gen.integers(2, 8))
        V = gen.integers(-2, 3, size=(m, d)).astype(float)
        normals = integer_normals(V)
        if normals is None:
            continue
        distinct, rank = essential(normals)
        closed = closed_form_regions(distinct, rank)
        if len(distinct) > rank + 1:
            assert closed is None
            continue
        assert closed is not None
        assert closed[0] == count_regions(distinct), (V.tolist(), closed)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize(("P", "N"), [(18, 18), (40, 40), (41, 40), (24, 20), (30, 29)])
def test_near_square_gaussian_sets_are_counted_at_once(P, N):
    """18 x 18 took 76 s and 40 x 40 never finished: 2**(P - 1) flats, one by one."""
    from perclib.counting import _count_with_work

    X = np.random.default_rng(P * N).standard_normal((P, N))
    started = time.process_time()
    count, estimate, work = _count_with_work(X, False, MAX_COUNT_WORK)
    assert count == cover_count(P, N) == cover_recursion(P, N)
    assert work <= estimate <= 2 * 10**6  # at most the test of general position
    assert time.process_time() - started < 10  # a guard against the old hang, not a timing claim


def test_near_square_degenerate_set_is_refused_up_front():
    # 40 points in R^36 with one point the sum of two others: not in general
    # position, so no formula; deletion-restriction would visit about 2**39 flats.
    X = np.random.default_rng(3).integers(-5, 6, size=(40, 36)).astype(float)
    X[0] = X[1] + X[2]  # exactly: small integers
    started = time.perf_counter()
    with pytest.raises(ValueError, match="general position.*max_work"):
        count_dichotomies(X)
    assert time.perf_counter() - started < 10


def test_max_count_is_the_deprecated_name_of_max_work():
    X = boolean_cube(3)
    with pytest.warns(DeprecationWarning, match="max_work"):
        assert count_dichotomies(X, threshold=True, max_count=10**6) == 104
    with pytest.warns(DeprecationWarning, match="max_work"):
        assert count_dichotomies(X, threshold=True, max_count=None) == 104
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="max_work=1"):
        count_dichotomies(X, threshold=True, max_count=1)  # the same limit, on the work
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="max_count"):
        count_dichotomies(X, max_count=0)
    with pytest.warns(DeprecationWarning), pytest.raises(TypeError, match="max_count.*max_work"):
        count_dichotomies(X, max_work=10, max_count=10)


# The failing input of issue 52 and its neighbours: four points, scaled.
FOUR = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0]])


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-12, 1.0, 1e12, 1e200, 1e300, 8.9e307,
                                   2.0**1020, 5e-324 * 2**40])
@pytest.mark.parametrize("threshold", [False, True])
def test_enumerations_at_extreme_scales_give_the_labellings_of_scale_one(scale, threshold):
    from perclib import arrangement_dichotomies

    expected = separable_dichotomies_bruteforce(FOUR, threshold=threshold).tolist()
    assert len(expected) == (12 if threshold else 8)  # by hand: C(4, 3) and 4 + 4 lines
    Y = FOUR * scale
    assert separable_dichotomies_bruteforce(Y, threshold=threshold).tolist() == expected
    assert separable_dichotomies(Y, threshold=threshold).tolist() == expected
    assert arrangement_dichotomies(Y, threshold=threshold).tolist() == expected
    assert count_dichotomies(Y, threshold=threshold) == len(expected)


@pytest.mark.parametrize("columns", [(1e300, 1e-300), (1e-300, 1e300), (8.9e307, 1e-12),
                                     (1.0, 5e-324 * 2**30)])
@pytest.mark.parametrize("rows", [(1.0, 1.0, 1.0, 1.0, 1.0), (1e5, 1e-5, 1.0, 1e8, 1e-8)])
def test_a_change_of_units_per_feature_or_per_pattern_changes_no_labelling(columns, rows):
    """Column scales never change a labelling; row scales do not without threshold."""
    from perclib import arrangement_dichotomies

    X = np.array([[3.0, 2.0], [2.0, 0.0], [2.0, -1.0], [0.0, 2.0], [-3.0, -1.0]])
    for threshold in (False, True):
        if threshold and max(rows) > 1:
            continue  # with a threshold a pattern's length matters
        expected = separable_dichotomies_bruteforce(X, threshold=threshold).tolist()
        with np.errstate(over="ignore"):
            Y = X * np.array(columns)[None, :] * np.array(rows)[:, None]
        if not np.all(np.isfinite(Y)) or np.any(np.all(Y == 0, axis=1) != np.all(X == 0, axis=1)):
            continue
        for f in (separable_dichotomies_bruteforce, separable_dichotomies, arrangement_dichotomies):
            assert f(Y, threshold=threshold).tolist() == expected, (f.__name__, threshold)
        assert count_dichotomies(Y, threshold=threshold) == len(expected)


# ---------------------------------------------------------------------------
# Issue 52: the cube counted with its symmetry (perclib._cube)
# ---------------------------------------------------------------------------


def _plain_count(X, threshold):
    """Deletion-restriction on the hyperplanes, with no formula and no symmetry."""
    from perclib._regions import pattern_normals

    return count_regions(essential(pattern_normals(X, threshold))[0])


def _cube_images(n, gen):
    cube = boolean_cube(n)
    G = gen.integers(-3, 4, size=(n, n + 1))
    while np.linalg.matrix_rank(G) < n:
        G = gen.integers(-3, 4, size=(n, n + 1))
    yield "cube", cube, True
    yield "permuted", cube[gen.permutation(len(cube))], True
    yield "repeated rows", np.vstack([cube, cube[:3]]), True
    yield "+-1 cube, no threshold", (2 * cube - 1)[gen.permutation(len(cube))], False
    yield "affine image in other units", (cube @ G + gen.integers(-5, 6, n + 1)) * 0.1, True
    yield "columns in other units", cube * (10.0 ** gen.integers(-200, 200, n)), True


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_cube_by_symmetry_equals_the_plain_count(n):
    from perclib.counting import _count_with_work, _cube_dimension

    gen = np.random.default_rng(n)
    for name, X, threshold in _cube_images(n, gen):
        expected_n = n - 1 if not threshold else n
        assert _cube_dimension(X, threshold) == (expected_n if expected_n >= 2 else None), name
        count, estimate, work = _count_with_work(X, threshold, None)
        assert count == _plain_count(X, threshold), name
        assert work <= estimate
    # The known numbers (OEIS A000609), from the symmetric count alone.
    assert count_dichotomies(boolean_cube(n), threshold=True) == [4, 14, 104, 1882, 94572][n - 1]


def test_six_cube_by_symmetry():
    from perclib.counting import _count_with_work, _cube_dimension

    cube = boolean_cube(6)
    assert _cube_dimension(cube, True) == 6
    count, estimate, work = _count_with_work(cube, True, MAX_COUNT_WORK)
    assert count == 15_028_134 and work <= estimate  # OEIS A000609(6)
    assert count_dichotomies(2 * boolean_cube(7) - 1) == 15_028_134  # the same arrangement


@pytest.mark.parametrize("n", [3, 4])
def test_sets_that_are_not_cubes_are_counted_the_plain_way(n):
    from perclib.counting import _count_with_work, _cube_dimension

    gen = np.random.default_rng(7)
    cube = boolean_cube(n)
    moved = cube.copy()
    moved[-1, 0] = 2.0  # one vertex off the cube
    missing = cube[1:]  # one vertex short
    squashed = cube.copy()
    squashed[:, 0] *= squashed[:, 1]  # 2**n points, not a parallelepiped
    doubled = np.vstack([cube, cube + 3.0])  # 2**(n+1) points: two cubes
    for X in (moved, missing, squashed, doubled, gen.integers(0, 3, size=(2**n, n)).astype(float)):
        if len({tuple(r) for r in X.tolist()}) == 2**n:
            assert _cube_dimension(X, True) is None or _plain_count(X, True) == _count_with_work(
                X, True, None)[0]
        if X is not doubled:
            assert _cube_dimension(X, True) is None
        assert _count_with_work(X, True, None)[0] == _plain_count(X, True)
    # +-1 patterns without threshold: x and -x are one hyperplane, so half the cube is
    # the whole arrangement; without one of its vertices (and the opposite) it is not.
    pm = 2 * cube - 1
    half = pm[: len(pm) // 2]
    assert _cube_dimension(half, False) == n - 1
    assert _cube_dimension(half[1:], False) is None
    assert count_dichotomies(half[1:]) == _plain_count(half[1:], False)


@pytest.mark.parametrize(("n", "q"), [(2, 5), (2, 7), (3, 5), (3, 11), (2, 67), (1, 71)])
def test_points_off_the_cube_arrangement_by_brute_force(n, q):
    """chi(q) by the symmetric sum against every point of F_q^(n+1), one by one."""
    from perclib._cube import points_off_the_cube_arrangement

    U = np.vstack([boolean_cube(n).astype(np.int64).T, np.ones(2**n, dtype=np.int64)])
    grid = np.stack(np.meshgrid(*[np.arange(q)] * (n + 1), indexing="ij"), -1).reshape(-1, n + 1)
    off = np.all((grid @ U) % q != 0, axis=1)
    assert points_off_the_cube_arrangement(n, q)[0] == int(off.sum())


def test_cube_primes_are_above_every_minor():
    """The primes used exceed every minor of the 4-cube's normals, computed one by one."""
    from perclib._cube import safe_primes

    V = np.hstack([boolean_cube(4), np.ones((16, 1))]).astype(int)
    largest = 0
    for k in range(1, 6):
        for rows in itertools.combinations(range(16), k):
            for cols in itertools.combinations(range(5), k):
                largest = max(largest, abs(round(np.linalg.det(V[np.ix_(rows, cols)]))))
    assert largest == 3  # the 0/1 Hadamard bound for k = 5: 6**3 / 2**5 = 6.75
    assert min(safe_primes(4, 3)) > largest


@pytest.mark.parametrize("q", [5, 61, 67, 101, 127, 131])
def test_subset_sum_sets_of_every_width(q):
    """One word (q < 64), two words (q < 128) and boolean rows, against a plain set."""
    from perclib._cube import _subset_sum_sizes

    entries = np.random.default_rng(q).integers(0, q, size=(300, 7))
    expected = [len({sum(c) % q for r in range(8) for c in itertools.combinations(row, r)})
                for row in entries.tolist()]
    assert _subset_sum_sizes(entries, q).tolist() == expected


def test_popcount_by_bytes_agrees_with_numpy():
    """The cube count's bit counts at the NumPy floor (1.26 has no np.bitwise_count)."""
    from perclib._cube import _popcount, _popcount_by_bytes

    words = np.random.default_rng(5).integers(0, 2**63, size=500, dtype=np.uint64) * np.uint64(2)
    words = np.concatenate([words, np.array([0, 1, 2**64 - 1], dtype=np.uint64)])
    expected = [bin(int(w)).count("1") for w in words]
    assert _popcount_by_bytes(words).tolist() == expected
    assert _popcount(words).tolist() == expected
