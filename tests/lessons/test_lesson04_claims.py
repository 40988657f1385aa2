"""Lesson 4's claims, checked exhaustively (too long or too wide for the lesson itself).

The lesson states each claim and checks it on a few cases in a collapsed check cell;
these tests sweep the larger grids that used to sit in the middle of the story.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from perclib import (
    arrangement_dichotomies,
    boolean_cube,
    capacity_curve,
    cover_count,
    dependent_subsets,
    gaussian_patterns,
    in_general_position,
)

# 2 sqrt(2) z_0.9, with z_0.9 = Phi^{-1}(0.9) = 1.2815515655446004 (normal quantile).
WIDTH_CONSTANT = 2 * math.sqrt(2) * 1.2815515655446004


@pytest.mark.parametrize("threshold", [False, True])
def test_arrangement_enumeration_matches_cover_on_a_grid(threshold: bool) -> None:
    """The LP-free enumeration counts C(P, N) (C(P, N + 1) with a threshold), P <= 10, N <= 4."""
    rng = np.random.default_rng(404)
    for p in range(1, 11):
        for n in range(1, 5):
            X = gaussian_patterns(p, n, rng=rng)
            assert in_general_position(X, threshold=threshold)
            found = len(arrangement_dichotomies(X, threshold=threshold))
            assert found == cover_count(p, n + threshold), (p, n, threshold, found)


def test_boolean_cube_counts_and_degenerate_subsets() -> None:
    """Threshold functions of n = 2, 3, 4 inputs (14, 104, 1882; OEIS A000609) against Cover."""
    found = [len(arrangement_dichotomies(boolean_cube(n), threshold=True)) for n in (2, 3, 4)]
    assert found == [14, 104, 1882]
    assert [cover_count(2**n, n + 1) for n in (2, 3, 4)] == [14, 128, 3882]
    # Coplanar quadruples of the 4-cube, and 5-sets on one affine hyperplane: compared
    # with an exact integer rank test (small 0/1 matrices, so the rank is exact).
    cube4 = boolean_cube(4)
    hat = np.column_stack([cube4, np.ones(16)]).astype(int)
    for size, expected in ((4, 100), (5, 1360)):
        exact = [
            s for s in itertools.combinations(range(16), size)
            if np.linalg.matrix_rank(hat[list(s)]) < size
        ]
        assert len(exact) == expected
        assert dependent_subsets(cube4, size, threshold=True) == exact


def test_half_at_twice_the_dimension() -> None:
    """C(2N, N) / 2^(2N) = 1/2 exactly for N = 1..300."""
    for n in range(1, 301):
        assert Fraction(cover_count(2 * n, n), 2 ** (2 * n)) == Fraction(1, 2), n


def _load_at(level: float, N: int) -> float:
    alpha, frac = capacity_curve(N, 4 * N)
    return float(np.interp(-level, -frac, alpha))


@pytest.mark.parametrize("N", [100, 500, 2000])
def test_transition_width_scales_like_3_6_over_sqrt_n(N: int) -> None:
    """Between the levels 0.9 and 0.1 the load grows by about 3.62 / sqrt(N)."""
    scaled = (_load_at(0.1, N) - _load_at(0.9, N)) * math.sqrt(N)
    assert abs(scaled - WIDTH_CONSTANT) < 0.01, scaled
    assert scaled < WIDTH_CONSTANT  # approached from below


# --- Section 6: complexity -------------------------------------------------------------


def test_no_n_plus_one_points_are_shattered_by_the_dependence_labelling() -> None:
    """For any N + 1 points in R^N (random, repeated, with a zero vector), sign(c) of a
    linear dependence sum c_mu x_mu = 0 is a labelling no hyperplane through 0 realises."""
    from perclib import is_separable

    rng = np.random.default_rng(406)
    for n in range(1, 7):
        for kind in ("random", "repeated", "zero", "on a line"):
            X = rng.standard_normal((n + 1, n))
            if kind == "repeated":
                X[-1] = X[0]
            elif kind == "zero":
                X[-1] = 0.0
            elif kind == "on a line":
                X[-1] = -3.0 * X[0]
            c = np.linalg.svd(X.T)[2][-1]
            assert np.allclose(X.T @ c, 0.0)
            assert not is_separable(X, np.where(c < 0, -1, 1)), (n, kind)


def test_vc_dimension_counts() -> None:
    """C(P, N) = 2^P exactly for P <= N; C(N + 1, N) = 2^(N + 1) - 2."""
    for n in range(1, 60):
        assert all(cover_count(p, n) == 2**p for p in range(1, n + 1))
        assert cover_count(n + 1, n) == 2 ** (n + 1) - 2


def test_polynomial_bound_holds_and_is_closest_at_the_corner() -> None:
    """C(P, N) <= 2 (e (P-1)/(N-1))^(N-1) for 2 <= N <= P; the ratio peaks at 2/e (P = N = 2)."""
    worst, where = 0.0, None
    for n in range(2, 80):
        for p in range(n, 3000, 7):
            log_bound = math.log(2) + (n - 1) * math.log(math.e * (p - 1) / (n - 1))
            ratio = math.exp(math.log(cover_count(p, n)) - log_bound)
            if ratio > worst:
                worst, where = ratio, (p, n)
    assert worst <= 1 and where == (2, 2) and math.isclose(worst, 2 / math.e)


def test_undecided_share_is_the_two_way_fraction() -> None:
    """Among the separable labellings of P points, a share C(P, N-1)/C(P, N) extends both ways."""
    from perclib import extension_split

    rng = np.random.default_rng(407)
    for p, n in [(3, 2), (5, 2), (6, 3), (9, 3), (8, 4), (10, 4), (9, 5)]:
        X = gaussian_patterns(p + 1, n, rng=rng)
        split = extension_split(X[:p], X[p])
        share = Fraction(len(split.both), len(split.both) + len(split.one_way))
        assert share == Fraction(cover_count(p, n - 1), cover_count(p, n)), (p, n)
    for n in range(2, 12):  # P * share -> N - 1
        assert abs(10**6 * cover_count(10**6, n - 1) / cover_count(10**6, n) - (n - 1)) < 1e-3 * n**2


def test_sauer_gap_is_a_binomial() -> None:
    """sum_{k<=N} binom(P, k) - C(P, N) = binom(P - 1, N)."""
    for p in range(1, 80):
        for n in range(1, 30):
            assert sum(math.comb(p, k) for k in range(n + 1)) - cover_count(p, n) == math.comb(p - 1, n)


@pytest.mark.parametrize("p, n", [(3, 2), (5, 2), (6, 3), (10, 5)])
def test_wendel_monte_carlo(p: int, n: int) -> None:
    """Symmetric random points lie in one open half-space with probability C(P, N)/2^P."""
    from perclib import is_separable

    rng = np.random.default_rng(408 + p)
    trials = 600
    hits = sum(is_separable(rng.laplace(size=(p, n)), np.ones(p)) for _ in range(trials))
    f = cover_count(p, n) / 2**p
    assert abs(hits / trials - f) < 4 * math.sqrt(f * (1 - f) / trials), (hits, f)


def test_expected_points_until_the_origin_is_caught() -> None:
    """Exercise 5 (d): E[T] = sum_{P >= 0} C(P, N)/2^P = 2N + 1 (exact partial sums; the tail
    after P = 800 is below 1e-200), and N = 1 by its own argument: T - 1 is geometric(1/2) + 1."""
    for n in range(1, 12):
        partial = 1 + sum(Fraction(cover_count(p, n), 2**p) for p in range(1, 801))
        assert 0 < 2 * n + 1 - partial < Fraction(1, 10**200), n
    rng = np.random.default_rng(409)
    signs = rng.choice([-1, 1], size=(20000, 80))
    first_change = (signs[:, 1:] != signs[:, :1]).argmax(axis=1) + 2   # T on the line
    assert abs(first_change.mean() - 3) < 4 * first_change.std() / math.sqrt(20000)
