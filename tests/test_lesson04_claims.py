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
