"""Counting labellings realisable with margin >= gamma (perclib.margin_capacity)."""

from __future__ import annotations

import numpy as np
import pytest

from perclib import cover_count, direction_margins, gaussian_patterns
from perclib.margin_capacity import dichotomy_margins, margin_dichotomy_count, shattering_margin


@pytest.mark.parametrize("P", [1, 2, 3, 4, 5])
def test_orthonormal_basis_is_shattered_at_exactly_one_over_sqrt_p(P: int) -> None:
    # Every labelling y of e_1..e_P has the separator y / sqrt(P), margin 1/sqrt(P),
    # and no better one (sum_mu y_mu w.e_mu <= sqrt(P) ||w||).
    X = np.eye(P, 6)
    assert shattering_margin(X) == pytest.approx(1 / np.sqrt(P), rel=1e-9)
    assert margin_dichotomy_count(X, 1 / np.sqrt(P)) == 2**P
    assert margin_dichotomy_count(X, 1.001 / np.sqrt(P)) == 0


@pytest.mark.parametrize("seed", range(5))
def test_count_at_zero_is_covers_count(seed: int) -> None:
    X = gaussian_patterns(9, 3, rng=seed)
    assert margin_dichotomy_count(X, 0.0) == cover_count(9, 3)
    assert margin_dichotomy_count(X, 0.0, threshold=True) == cover_count(9, 4)


def test_counts_fall_with_gamma_and_come_in_pairs() -> None:
    X = gaussian_patterns(10, 3, rng=11)
    counts = [margin_dichotomy_count(X, g) for g in np.linspace(0, 2, 41)]
    assert all(a >= b for a, b in zip(counts[:-1], counts[1:], strict=True))
    assert all(c % 2 == 0 for c in counts)  # y and -y have the same margin
    assert counts[-1] == 0  # no margin exceeds the largest pattern norm


def test_margins_agree_with_a_brute_force_scan_of_directions() -> None:
    X = gaussian_patterns(7, 2, rng=3)
    labels, gammas = dichotomy_margins(X)
    phis = np.linspace(-np.pi, np.pi, 100_001)
    for s, g in zip(labels, gammas, strict=True):
        best = direction_margins(X, s, phis).max()
        assert best <= g + 1e-12 and g - best < 1e-4
    assert np.all(np.diff(gammas) <= 0)


@pytest.mark.parametrize("seed", range(6))
def test_shattered_sets_obey_p_le_r2_over_gamma2(seed: int) -> None:
    # Random sets of P <= N points are shattered at some gamma > 0; the random-sign
    # argument bounds P by R^2 / gamma^2 whatever the dimension.
    rng = np.random.default_rng(seed)
    P, N = rng.integers(2, 7), 8
    X = rng.normal(size=(P, N))
    gamma = shattering_margin(X)
    R = np.max(np.linalg.norm(X, axis=1))
    assert gamma > 0
    assert P <= R**2 / gamma**2


def test_threshold_one_class_labellings_have_unbounded_margin() -> None:
    labels, gammas = dichotomy_margins([[0.0, 0.0], [1.0, 0.0], [3.0, 1.0]], threshold=True)
    one_class = np.abs(labels.sum(axis=1)) == 3
    assert np.all(np.isinf(gammas[one_class])) and np.all(np.isfinite(gammas[~one_class]))


def test_not_shattered_gives_zero() -> None:
    assert shattering_margin([[1.0, 1.0], [2.0, 2.0], [0.0, 1.0]]) == 0.0


@pytest.mark.parametrize("bad", [-0.1, np.nan, np.inf])
def test_bad_gamma_is_a_value_error(bad: float) -> None:
    with pytest.raises(ValueError, match="gamma"):
        margin_dichotomy_count(np.eye(2), bad)


@pytest.mark.parametrize("bad", ["0.1x", None, 1j])
def test_non_real_gamma_is_refused(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="gamma"):
        margin_dichotomy_count(np.eye(2), bad)


def test_huge_enumerations_are_refused_up_front() -> None:
    with pytest.raises(ValueError, match="max_count"):
        margin_dichotomy_count(gaussian_patterns(200, 10, rng=0), 0.1)


def test_margins_below_float64_resolution_count_as_zero() -> None:
    # Every labelling of these two points is separable, but the small one pins each
    # maximum margin to ~1e-13 of the data radius: below float64 resolution, so
    # max_margin refuses (MarginResolutionError) and the helpers use margin 0.
    from perclib.geometry import MarginResolutionError, max_margin

    X = np.array([[1.0, 0.0], [0.0, 1e-13]])
    with pytest.raises(MarginResolutionError, match="float64"):
        max_margin(X, [1, 1])
    labels, gammas = dichotomy_margins(X)
    assert len(labels) == 4
    assert gammas.tolist() == [0.0, 0.0, 0.0, 0.0]
    assert margin_dichotomy_count(X, 0.0) == 4  # separable: counted at gamma = 0
    assert margin_dichotomy_count(X, 1e-6) == 0
    assert shattering_margin(X) == 0.0
