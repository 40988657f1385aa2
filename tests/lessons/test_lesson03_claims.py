"""Claims of lesson 3 checked more widely than the lesson's own check cells do.

* Points with a density are in general position (both notions), in several dimensions.
* No point set beats general position: for random grid sets (mostly degenerate) the
  number of separable labellings is at most Cover's count, with equality exactly when
  the set is in general position.
* Degenerate sets have strictly fewer: any set not in general position (through the
  origin or affine, in 1-4 dimensions, repeated points included) has at most C - 2
  separable labellings, and the proof's two steps hold: the labelling sign(c) of a
  minimal dependent subset is never separable, and a small Gaussian move into general
  position keeps every separable labelling.
* The exact test of the lesson: a k x D matrix (k < D) has rank < k exactly when all its
  k x k minors vanish (exact integer arithmetic with sympy).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import sympy as sp

from perclib import (
    boolean_cube,
    count_dichotomies,
    cover_count,
    gaussian_patterns,
    in_general_position,
    is_separable,
    separable_dichotomies,
)


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


def _minimal_dependent_subset(X: np.ndarray) -> tuple[list[int], np.ndarray] | None:
    """A smallest dependent subset of the rows and its coefficients (exact, sympy)."""
    P, N = X.shape
    for size in range(1, min(P, N) + 1):
        for subset in itertools.combinations(range(P), size):
            null = sp.Matrix(X[list(subset)].astype(int).tolist()).T.nullspace()
            if null:
                return list(subset), np.array([float(c) for c in null[0]])
    return None


@pytest.mark.parametrize("threshold", [False, True])
@pytest.mark.parametrize("N", [1, 2, 3])
def test_degenerate_sets_have_strictly_fewer(N: int, threshold: bool) -> None:
    rng = np.random.default_rng(10 * N + threshold)
    degenerate = tight = 0
    for _ in range(40):
        P = int(rng.integers(1, 7))
        X = rng.integers(-1, 2, size=(P, N)).astype(float)
        count, cover = count_dichotomies(X, threshold=threshold), cover_count(P, N + threshold)
        assert count % 2 == 0, X
        if in_general_position(X, threshold=threshold):
            assert count == cover, X
        else:
            degenerate += 1
            assert count <= cover - 2, (X, count, cover)
            tight += count == cover - 2
    assert degenerate >= 10
    assert tight > 0          # the bound C - 2 is reached


@pytest.mark.parametrize("seed", range(8))
def test_the_proof_steps(seed: int) -> None:
    rng = np.random.default_rng(seed)
    N = 2 + seed % 2
    X = rng.integers(-1, 2, size=(5, N)).astype(float)
    found = _minimal_dependent_subset(X)
    if found is None:  # in general position: nothing to prove
        assert in_general_position(X)
        return
    subset, c = found
    assert np.all(c != 0) and np.allclose(c @ X[subset], 0)
    z = np.sign(c)
    # Step 1: sign(c) is not separable on the dependent subset.
    assert not is_separable(X[subset], z)
    # Steps 2-4: a small move into general position keeps all and brings z back.
    moved = X + 1e-6 * rng.standard_normal(X.shape)
    assert in_general_position(moved)
    before = {tuple(y) for y in separable_dichotomies(X)}
    after = {tuple(y) for y in separable_dichotomies(moved)}
    assert before < after and len(after) == cover_count(5, N)
    assert any(np.array_equal(np.array(y)[subset], z) for y in after - before)


def test_the_course_degenerate_sets() -> None:
    cube3, cube4 = boolean_cube(3), boolean_cube(4)
    assert count_dichotomies(cube3, threshold=True) == 104 < cover_count(8, 4) == 128
    assert count_dichotomies(cube4, threshold=True) == 1882 < cover_count(16, 5) == 3882
    assert count_dichotomies(boolean_cube(2)) == 0 < cover_count(4, 2)   # contains 0
    on_a_line = np.column_stack([np.arange(7.0), np.zeros(7)])
    assert count_dichotomies(on_a_line, threshold=True) == 14 < cover_count(7, 3)


def test_distinct_points_in_the_plane_have_at_least_2p_labellings() -> None:
    """Exercise 4's written part: P distinct points in the plane always have >= 2P labellings
    separable by a line with a threshold, and P points on one line have exactly 2P."""
    rng = np.random.default_rng(304)
    for _ in range(60):
        P = int(rng.integers(2, 8))
        X = np.unique(rng.integers(-1, 2, size=(P, 2)), axis=0).astype(float)   # distinct, small grid
        assert count_dichotomies(X, threshold=True) >= 2 * len(X), X.tolist()
    for P in range(2, 9):
        t = np.arange(P, dtype=float)
        assert count_dichotomies(np.column_stack([t, 3 * t - 1]), threshold=True) == 2 * P
