"""Lesson 1's claims, re-derived here without the notebook (issue 21).

Each test recomputes a statement of the lesson by a route other than the lesson's own
check cell: counting with binomial coefficients where the lesson enumerates, exhaustive
truth tables where the lesson argues, and random instances of every size the lesson
does not print.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from perclib import augment, augment_weights, boolean_cube, boolean_function, threshold_unit
from perclib.units import ThresholdNetwork, corner_unit, two_layer_network


def _detector_count(n_on: int, n_off: int, theta: float) -> int:
    """Images x in {0,1}^(n_on + n_off) with w.x > theta for w = +1 on n_on pixels, -1 off.

    An image with a dark pixels among the n_on and b among the n_off has w.x = a - b;
    there are C(n_on, a) C(n_off, b) such images.
    """
    return sum(comb(n_on, a) * comb(n_off, b)
               for a in range(n_on + 1) for b in range(n_off + 1) if a - b > theta)


def test_the_t_unit_fires_on_one_of_2_to_the_25_images() -> None:
    assert _detector_count(9, 16, 8.5) == 1
    # The counting formula itself, against brute force on a 4x4 retina.
    X = boolean_cube(16)
    rng = np.random.default_rng(5)
    for _ in range(20):
        on = rng.permutation(16) < rng.integers(1, 16)
        w = np.where(on, 1.0, -1.0)
        theta = rng.integers(-4, 8) + 0.5
        assert np.count_nonzero(X @ w > theta) == _detector_count(int(on.sum()), int((~on).sum()), theta)


@pytest.mark.parametrize("d", range(0, 5))
def test_the_tolerant_detector_fires_on_the_hamming_ball(d: int) -> None:
    """Exercise 4: w = 2t - 1, theta = |t| - d - 1/2 fires within d wrong pixels only."""
    rng = np.random.default_rng(d)
    t = rng.integers(0, 2, size=12).astype(float)
    X = boolean_cube(12)
    fires = threshold_unit(X, 2 * t - 1, t.sum() - d - 0.5) > 0
    assert np.count_nonzero(fires) == sum(comb(12, j) for j in range(d + 1))
    assert np.array_equal(fires, np.sum(X != t, axis=1) <= d)
    # the plus of the lesson: 1, 10, 46 images within 0, 1, 2 pixels (sums of C(9, j))
    assert [sum(comb(9, j) for j in range(k + 1)) for k in range(3)] == [1, 10, 46]


@pytest.mark.parametrize("n", range(1, 8))
def test_a_corner_unit_fires_on_its_corner_only(n: int) -> None:
    X = boolean_cube(n)
    for corner in X:
        w, theta = corner_unit(corner)
        fields = X @ w - theta
        assert np.all(fields != 0)
        assert np.array_equal(np.flatnonzero(fields > 0), [int("".join(map(str, corner.astype(int))), 2)])


@pytest.mark.parametrize("n", [1, 2, 3])
def test_two_layers_compute_every_boolean_function(n: int) -> None:
    X = boolean_cube(n)
    for number in range(2 ** 2**n):
        net = two_layer_network(n, number)
        want = [1 if (number >> i) & 1 else -1 for i in range(2**n)]  # bit i = output on row i
        assert net(X).tolist() == want
        assert net.n_hidden <= 2 ** (n - 1)


@pytest.mark.parametrize(("n", "draws"), [(4, 400), (5, 100), (7, 10)])
def test_two_layers_on_random_functions_of_more_inputs(n: int, draws: int) -> None:
    rng = np.random.default_rng(n)
    X = boolean_cube(n)
    for _ in range(draws):
        table = rng.integers(0, 2, size=2**n)
        net = two_layer_network(n, table)
        assert np.array_equal(net(X), 2 * table - 1)
        assert net.n_hidden == min(table.sum(), 2**n - table.sum()) <= 2 ** (n - 1)


@pytest.mark.parametrize("n", range(1, 9))
def test_the_bound_of_exercise_6c_is_reached_by_parity_and_beaten_by_n_units(n: int) -> None:
    X = boolean_cube(n)
    parity = np.where(X.sum(axis=1) % 2 == 1, 1, -1)
    assert two_layer_network(n, parity).n_hidden == 2 ** (n - 1)  # the construction's bound
    # the remark: "at least k of n" units, k = 1..n, alternating output weights
    net = ThresholdNetwork(np.ones((n, n)), np.arange(1, n + 1) - 0.5,
                           np.array([(-1.0) ** k for k in range(n)]), 0.5)
    assert np.array_equal(net(X), parity)


def test_constant_functions_need_no_hidden_unit() -> None:
    for n in (1, 3, 5):
        X = boolean_cube(n)
        assert two_layer_network(n, np.zeros(2**n)).n_hidden == 0
        assert np.all(two_layer_network(n, np.zeros(2**n))(X) == -1)
        assert np.all(two_layer_network(n, np.ones(2**n))(X) == 1)


def test_and_or_nand_as_single_units() -> None:
    """The gate table of section 8 and Exercise 1's NAND, with thresholds off every input."""
    for n in range(1, 9):
        X = boolean_cube(n)
        s = X.sum(axis=1)
        for (w, theta), truth in [((np.ones(n), n - 0.5), s == n), ((np.ones(n), 0.5), s >= 1),
                                  ((-np.ones(n), 0.5 - n), s < n)]:
            fields = X @ w - theta
            assert np.all(fields != 0)
            assert np.array_equal(fields > 0, truth)


def test_lifted_norm_and_margins() -> None:
    """||w_hat||^2 = ||w||^2 + theta^2, so |lifted margin| <= distance, strictly if theta != 0."""
    rng = np.random.default_rng(3)
    for N in (1, 2, 5):
        X = rng.normal(size=(50, N))
        w, theta = rng.normal(size=N), rng.normal()
        w_hat = augment_weights(w, theta)
        assert np.isclose(w_hat @ w_hat, w @ w + theta**2)
        act = augment(X) @ w_hat
        assert np.all(np.abs(act) / np.linalg.norm(w_hat) < np.abs(act) / np.linalg.norm(w))
        R = np.linalg.norm(X, axis=1).max()
        assert np.isclose(np.linalg.norm(augment(X), axis=1).max(), np.sqrt(1 + R**2))


@pytest.mark.parametrize("c", [2.0, -0.3])
def test_exercise_5b_tilt_also_when_m_is_zero(c: float) -> None:
    """All labels sign(c): w = eps u, theta = -c separates, for any eps with eps m < |c|."""
    rng = np.random.default_rng(9)
    u = np.array([1.0, -2.0])
    for X in (rng.normal(size=(30, 2)), np.zeros((4, 2)), np.array([[2.0, 1.0], [-4.0, -2.0]])):
        y = np.full(len(X), np.sign(c))
        m = np.max(np.abs(X @ u))
        eps = 0.99 * abs(c) / m if m > 0 else 123.0  # any eps > 0 when m = 0
        assert np.all(y * (X @ (eps * u) + c) > 0)


def test_strict_reflected_condition_is_stronger_than_matching_outputs() -> None:
    """Section 9: J.w_hat > 0 is the two-sided condition; 'outputs equal labels' takes more."""
    X = augment(boolean_cube(2))
    grid = np.arange(-3.0, 3.01, 0.5)
    cands = np.array(list(itertools.product(grid, repeat=3)))
    y = boolean_function(2, [0, 0, 0, 1])
    strict = np.all((cands @ X.T) * y > 0, axis=1)
    weak = np.all(np.where(cands @ X.T > 0, 1, -1) == y, axis=1)
    assert np.all(weak[strict]) and np.count_nonzero(weak & ~strict) > 0


@pytest.mark.parametrize("n", range(1, 7))
def test_exercise_6d_every_symmetric_function_with_n_hidden_units(n: int) -> None:
    """Counting units 'at least k', output weights g(k) - g(k-1), threshold 1/2 - g(0)."""
    X = boolean_cube(n)
    m = X.sum(axis=1).astype(int)
    for g in itertools.product((0, 1), repeat=n + 1):
        g = np.array(g)
        net = ThresholdNetwork(np.ones((n, n)), np.arange(1, n + 1) - 0.5, np.diff(g).astype(float),
                               0.5 - g[0])
        assert np.array_equal(net(X), 2 * g[m] - 1)
