"""Claims of lesson 3 checked more widely than the lesson's own check cells do.

* Points with a density are in general position (both notions), in several dimensions.
* No point set beats general position: for random grid sets (mostly degenerate) the
  number of separable labellings is at most Cover's count, with equality exactly when
  the set is in general position.
* The exact test of the lesson: a k x D matrix (k < D) has rank < k exactly when all its
  k x k minors vanish (exact integer arithmetic with sympy).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy as sp

from perclib import count_dichotomies, cover_count, gaussian_patterns, in_general_position


@pytest.mark.parametrize(("P", "N"), [(5, 2), (7, 3), (6, 5), (3, 6)])
def test_gaussian_points_are_in_general_position(P: int, N: int) -> None:
    rng = np.random.default_rng(100 * P + N)
    for _ in range(50):
        X = gaussian_patterns(P, N, rng=rng)
        assert in_general_position(X), X
        assert in_general_position(X, threshold=True), X


@pytest.mark.parametrize("P", [4, 5, 6])
def test_no_planar_grid_set_beats_general_position(P: int) -> None:
    rng = np.random.default_rng(P)
    seen_degenerate = seen_generic = 0
    for _ in range(40):
        X = rng.integers(0, 3, size=(P, 2)).astype(float)
        count = count_dichotomies(X, threshold=True)
        if in_general_position(X, threshold=True):
            seen_generic += 1
            assert count == cover_count(P, 3), X
        else:
            seen_degenerate += 1
            assert count < cover_count(P, 3), X
    assert seen_degenerate > 0


@pytest.mark.parametrize(("k", "D"), [(2, 3), (3, 4), (2, 4)])
def test_rank_deficient_iff_all_minors_vanish(k: int, D: int) -> None:
    rng = np.random.default_rng(10 * k + D)
    deficient = 0
    for _ in range(60):
        M = sp.Matrix(rng.integers(-1, 2, size=(k, D)).tolist())
        all_zero = all(M[:, list(c)].det() == 0 for c in itertools.combinations(range(D), k))
        assert (M.rank() < k) == all_zero, M
        deficient += all_zero
    assert deficient > 0          # the sample contains dependent subsets too
