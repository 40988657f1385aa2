"""perclib.capacity: capacity curve, Monte Carlo estimate, LP-free enumeration, recursion helpers.

Expected values come from independent computations written here (binomial sums with
math.comb, scipy's binomial CDF, brute force over all labellings with the LP) or from
hand reasoning (the faces of the cube), never from the code under test.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.stats import binom

from perclib import boolean_cube, is_separable
from perclib.capacity import (
    ExtensionSplit,
    SeparableFractionEstimate,
    arrangement_dichotomies,
    capacity_curve,
    cover_counts,
    dependent_subsets,
    extension_split,
    nonseparable_restrictions,
    project_out,
    separable_fraction_mc,
)


def cover_reference(P: int, N: int) -> int:
    return 2 * sum(math.comb(P - 1, k) for k in range(N))


def brute_force(X: np.ndarray, threshold: bool) -> set[tuple[int, ...]]:
    """Every labelling tested by the LP: the slow, obvious reference."""
    return {
        labels
        for labels in itertools.product((-1, 1), repeat=X.shape[0])
        if is_separable(X, np.array(labels), threshold=threshold)
    }


def as_set(rows: np.ndarray) -> set[tuple[int, ...]]:
    return {tuple(int(v) for v in r) for r in rows}


# --- cover_counts / capacity_curve -------------------------------------------------


@pytest.mark.parametrize("N", [1, 2, 3, 7, 12])
def test_cover_counts_match_binomial_sums(N: int) -> None:
    assert cover_counts(N, 40) == [cover_reference(P, N) for P in range(1, 41)]


def test_cover_counts_known_values() -> None:
    assert cover_counts(2, 5) == [2, 4, 6, 8, 10]
    assert cover_counts(3, 5) == [2, 4, 8, 14, 22]  # P^2 - P + 2 from P = 3 on
    assert cover_counts(4, 8)[-1] == 128  # P = 2N: 2^(P-1)


def test_capacity_curve_against_binomial_cdf() -> None:
    for N in (1, 4, 25, 120):
        alpha, frac = capacity_curve(N, 4 * N)
        P = np.arange(1, 4 * N + 1)
        assert np.allclose(alpha, P / N)
        # C(P, N) / 2^P = Pr[Binomial(P - 1, 1/2) <= N - 1]
        assert np.allclose(frac, binom.cdf(N - 1, P - 1, 0.5), rtol=1e-10, atol=1e-300)
        assert frac[2 * N - 1] == 0.5
        assert np.all(frac[:N] == 1.0)
        assert np.all(np.diff(frac) <= 0)


def test_capacity_curve_large_values_do_not_overflow() -> None:
    alpha, frac = capacity_curve(500, 2000)
    assert np.all(np.isfinite(frac)) and frac[999] == 0.5 and 0 < frac[-1] < 1e-100


@pytest.mark.parametrize(
    ("args", "error"),
    [((0, 5), ValueError), ((3, 0), ValueError), ((2.0, 5), TypeError), ((True, 5), TypeError)],
)
def test_curve_bad_input(args: tuple, error: type) -> None:
    with pytest.raises(error):
        capacity_curve(*args)
    with pytest.raises(error):
        cover_counts(*args)


# --- Monte Carlo ------------------------------------------------------------------


def test_mc_is_seeded_and_consistent() -> None:
    a = separable_fraction_mc(8, 3, 60, rng=5)
    b = separable_fraction_mc(8, 3, 60, rng=5)
    assert isinstance(a, SeparableFractionEstimate) and a == b
    assert a.fraction == a.n_separable / a.n_trials
    assert math.isclose(a.stderr, math.sqrt(a.fraction * (1 - a.fraction) / 60))


def test_mc_few_patterns_always_separable() -> None:
    assert separable_fraction_mc(3, 3, 30, rng=0).fraction == 1.0
    assert separable_fraction_mc(4, 3, 30, threshold=True, rng=0).fraction == 1.0


@pytest.mark.parametrize(("P", "N", "threshold"), [(6, 3, False), (9, 2, True)])
def test_mc_agrees_with_cover(P: int, N: int, threshold: bool) -> None:
    n = 300
    est = separable_fraction_mc(P, N, n, threshold=threshold, rng=11)
    p = cover_reference(P, N + threshold) / 2**P
    assert abs(est.fraction - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_mc_bad_input() -> None:
    with pytest.raises(ValueError):
        separable_fraction_mc(5, 2, 0)
    with pytest.raises(TypeError):
        separable_fraction_mc(5, 2, 10, threshold=1)
    with pytest.raises(TypeError):
        separable_fraction_mc(5, 2, 10, rng="seed")


# --- arrangement_dichotomies ------------------------------------------------------


@pytest.mark.parametrize("threshold", [False, True])
def test_arrangement_matches_lp_brute_force_on_random_points(threshold: bool) -> None:
    rng = np.random.default_rng(3)
    for P, N in [(1, 1), (3, 1), (4, 2), (6, 2), (5, 3), (6, 3)]:
        X = rng.standard_normal((P, N))
        found = arrangement_dichotomies(X, threshold=threshold)
        assert found.shape == (cover_reference(P, N + threshold), P)
        assert as_set(found) == brute_force(X, threshold)


@pytest.mark.parametrize("seed", range(6))
def test_arrangement_matches_lp_on_degenerate_integer_points(seed: int) -> None:
    # Small integer coordinates: repeated points, collinear triples, dependent subsets.
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(6, 3)).astype(float)
    X[np.all(X == 0, axis=1)] = [1.0, 1.0, 0.0]  # no pattern at the origin
    for threshold in (False, True):
        assert as_set(arrangement_dichotomies(X, threshold=threshold)) == brute_force(X, threshold)


def test_arrangement_boolean_cube_counts() -> None:
    # Threshold functions of n inputs (Muroga): 4, 14, 104 for n = 1, 2, 3.
    counts = [len(arrangement_dichotomies(boolean_cube(n), threshold=True)) for n in (1, 2, 3)]
    assert counts == [4, 14, 104]


def test_arrangement_special_cases() -> None:
    # Three points on one line through the origin: only w's side matters, 2 labellings.
    X = [[1.0, 0.0], [2.0, 0.0], [-1.0, 0.0]]
    assert as_set(arrangement_dichotomies(X)) == {(1, 1, -1), (-1, -1, 1)}
    # A pattern at the origin lies on every hyperplane through it.
    assert arrangement_dichotomies([[0.0, 0.0], [1.0, 2.0]]).shape == (0, 2)
    # ... but an affine hyperplane can avoid it.
    assert len(arrangement_dichotomies([[0.0, 0.0], [1.0, 2.0]], threshold=True)) == 4


def test_arrangement_rows_sorted_and_closed_under_negation() -> None:
    rows = arrangement_dichotomies(np.random.default_rng(1).standard_normal((5, 3)))
    assert rows.dtype == np.int64
    assert [tuple(r) for r in rows] == sorted(tuple(r) for r in rows)
    assert as_set(rows) == as_set(-rows)


def test_arrangement_bad_input() -> None:
    with pytest.raises(ValueError):
        arrangement_dichotomies(np.ones(3))
    with pytest.raises(TypeError):
        arrangement_dichotomies([[1.0, 2.0]], threshold="yes")


# --- project_out / extension_split --------------------------------------------------


@pytest.mark.parametrize("v", [[0.0, 0.0, 2.0], [0.3, -1.0, -0.5], [1.0, 2.0, 3.0], [1.0, 0.0, 0.0]])
def test_project_out_keeps_inner_products_of_the_projections(v: list[float]) -> None:
    X = np.random.default_rng(0).standard_normal((5, 3))
    v = np.array(v)
    Y = project_out(X, v)
    assert Y.shape == (5, 2)
    Pi = np.eye(3) - np.outer(v, v) / (v @ v)  # orthogonal projector onto v's complement
    assert np.allclose(Y @ Y.T, (X @ Pi) @ (X @ Pi).T)


def test_project_out_bad_input() -> None:
    with pytest.raises(ValueError):
        project_out([[1.0]], [1.0])
    with pytest.raises(ValueError):
        project_out([[1.0, 2.0]], [0.0, 0.0])
    with pytest.raises(ValueError):
        project_out([[1.0, 2.0]], [1.0, 2.0, 3.0])


@pytest.mark.parametrize(("P", "N"), [(3, 2), (5, 2), (4, 3), (6, 3), (5, 4)])
def test_extension_split_counts_follow_the_recursion(P: int, N: int) -> None:
    X = np.random.default_rng(P * 10 + N).standard_normal((P + 1, N))
    split = extension_split(X[:P], X[P])
    assert isinstance(split, ExtensionSplit)
    old = brute_force(X[:P], False)
    new = brute_force(X, False)
    both = {y for y in old if y + (1,) in new and y + (-1,) in new}
    assert as_set(split.both) == both
    assert as_set(split.one_way) == old - both
    assert split.new_total == len(new) == cover_reference(P + 1, N)
    assert len(both) == cover_reference(P, N - 1)


def test_extension_split_with_threshold() -> None:
    X = np.random.default_rng(9).standard_normal((6, 2))
    split = extension_split(X[:5], X[5], threshold=True)
    assert len(split.both) == cover_reference(5, 2) and split.new_total == cover_reference(6, 3)


def test_extension_split_bad_input() -> None:
    with pytest.raises(ValueError):
        extension_split([[1.0, 2.0]], [1.0, 2.0, 3.0])


# --- degenerate sets ------------------------------------------------------------------


def test_dependent_subsets_of_the_cube() -> None:
    # 6 faces + 6 diagonal rectangles (x_i = x_j or x_i = 1 - x_j, 3 pairs each).
    quads = dependent_subsets(boolean_cube(3), 4, threshold=True)
    assert len(quads) == 12
    cube = boolean_cube(3)
    for q in quads:
        pts = cube[list(q)]
        assert np.linalg.matrix_rank(pts[1:] - pts[0]) == 2  # coplanar
    assert dependent_subsets(boolean_cube(2), 3, threshold=True) == []  # no three corners collinear
    assert dependent_subsets(boolean_cube(3), 3, threshold=True) == []


def test_dependent_subsets_general_and_oversized() -> None:
    X = np.random.default_rng(2).standard_normal((6, 3))
    assert dependent_subsets(X, 3) == []
    assert len(dependent_subsets(X, 4)) == math.comb(6, 4)  # more than N vectors: always dependent
    with pytest.raises(ValueError):
        dependent_subsets(X, 0)


def test_nonseparable_restrictions_find_the_xor_face() -> None:
    cube = boolean_cube(3)
    y = np.ones(8)
    y[[0, 3]] = -1  # XOR pattern on the face x1 = 0: (0,0,0) and (0,1,1) against (0,0,1), (0,1,0)
    quads = dependent_subsets(cube, 4, threshold=True)
    found = nonseparable_restrictions(cube, y, quads, threshold=True)
    assert (0, 1, 2, 3) in found
    assert not is_separable(cube, y, threshold=True)
    assert nonseparable_restrictions(cube, np.ones(8), quads, threshold=True) == []
    with pytest.raises(ValueError):
        nonseparable_restrictions(cube, [1, -1], quads)
