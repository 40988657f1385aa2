"""Tests for perclib.novikoff: the quantities of the convergence proof.

Expected values come from hand computation or from a plain Python perceptron loop
written here, never from the functions under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from perclib import (
    NovikoffTrace,
    augment,
    mistake_bound,
    novikoff_trace,
    perceptron,
    radius,
    separator_margin,
    teacher_data,
)


def plain_loop(X, y, eta=1.0, w0=None, max_epochs=10_000):
    """Textbook perceptron, one pattern at a time; returns the list of weight vectors."""
    X = np.asarray(X, dtype=float)
    w = np.zeros(X.shape[1]) if w0 is None else np.asarray(w0, dtype=float).copy()
    ws = [w.copy()]
    for _ in range(max_epochs):
        clean = True
        for x, t in zip(X, y, strict=True):
            if t * float(np.dot(w, x)) <= 0:
                w = w + eta * t * x
                ws.append(w.copy())
                clean = False
        if clean:
            return ws
    raise AssertionError("did not converge")


# --------------------------------------------------------------------------- radius


def test_radius_is_the_largest_norm_from_the_origin():
    assert radius([[3.0, 4.0], [1.0, 0.0]]) == 5.0
    assert radius([[0.0, -2.0]]) == 2.0


def test_radius_with_threshold_uses_augmented_patterns():
    assert math.isclose(radius([[3.0, 4.0], [1.0, 0.0]], threshold=True), math.sqrt(26.0))
    assert radius([[0.0, 0.0]], threshold=True) == 1.0


def test_radius_is_not_the_diameter():
    # Two points 2 apart: the diameter is 2 wherever they sit; R follows the origin.
    X = np.array([[-1.0, 0.0], [1.0, 0.0]])
    assert radius(X) == 1.0
    assert radius(X + [10.0, 0.0]) == 11.0


def test_radius_rejects_bad_input():
    with pytest.raises(ValueError):
        radius([1.0, 2.0])
    with pytest.raises(TypeError):
        radius([[1.0]], threshold="yes")


# --------------------------------------------------------------------------- margin


def test_separator_margin_normalises_u():
    X = [[1.0, 5.0], [-3.0, 1.0]]
    y = [1, -1]
    # u = (1, 0): margins 1 and 3 -> 1, for every positive multiple of u.
    for scale in (1.0, 2.0, 1e-3):
        assert math.isclose(separator_margin([scale, 0.0], X, y), 1.0)


def test_separator_margin_is_negative_for_a_wrong_separator():
    assert separator_margin([-1.0, 0.0], [[1.0, 0.0], [-2.0, 0.0]], [1, -1]) == -2.0


def test_separator_margin_with_threshold():
    # w = 1, theta = 1 in 1-D: points 2 (+1) and 0 (-1); augmented u = (1, -1)/sqrt 2,
    # augmented margins (2 - 1)/sqrt 2 and (1 - 0)/sqrt 2.
    g = separator_margin([1.0, -1.0], [[2.0], [0.0]], [1, -1], threshold=True)
    assert math.isclose(g, 1 / math.sqrt(2))


def test_separator_margin_rejects_bad_input():
    with pytest.raises(ValueError, match="non-zero"):
        separator_margin([0.0, 0.0], [[1.0, 0.0]], [1])
    with pytest.raises(ValueError):
        separator_margin([1.0, 0.0, 0.0], [[1.0, 0.0]], [1])  # wrong length
    with pytest.raises(ValueError):
        separator_margin([1.0, 0.0], [[1.0, 0.0]], [1, 1])  # labels do not match
    with pytest.raises(ValueError):
        separator_margin([1.0, 0.0], [[1.0, 0.0]], [0])  # labels not +-1


# --------------------------------------------------------------------------- bound


@pytest.mark.parametrize("N", [1, 2, 3, 7])
def test_bound_of_the_standard_basis_is_N(N):
    # R = 1, best unit separator (1,...,1)/sqrt(N) with margin 1/sqrt(N).
    assert math.isclose(mistake_bound(np.ones(N), np.eye(N), np.ones(N)), N, rel_tol=1e-12)


def test_bound_by_hand():
    X = [[2.0, 0.0], [0.0, 1.0]]
    y = [1, 1]
    # R = 2, gamma = min(2, 1)/sqrt 2 = 1/sqrt 2, bound = 4 / (1/2) = 8.
    assert math.isclose(mistake_bound([1.0, 1.0], X, y), 8.0)


def test_bound_with_threshold_by_hand():
    # 1-D points 2 (+1) and 0 (-1), separator x = 1: augmented R^2 = 5, gamma = 1/sqrt 2.
    assert math.isclose(mistake_bound([1.0, -1.0], [[2.0], [0.0]], [1, -1], threshold=True), 10.0)


def test_bound_refuses_a_non_separating_u():
    with pytest.raises(ValueError, match="does not separate"):
        mistake_bound([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [1, 1])  # second pattern on the line


@pytest.mark.parametrize("seed", range(6))
def test_perceptron_respects_the_bound(seed):
    rng = np.random.default_rng(seed)
    N = int(rng.integers(2, 12))
    d = teacher_data(60, N, margin=float(rng.uniform(0.05, 0.5)), rng=rng)
    run = perceptron(d.X, d.y, max_epochs=100_000)
    assert run.converged
    assert run.n_updates <= mistake_bound(d.teacher, d.X, d.y) * (1 + 1e-12)


# --------------------------------------------------------------------------- bound from w0 != 0


def test_bound_from_a_start_by_hand():
    # x = 1 (label +1), R = gamma = 1, start w0 = -4, eta = 0.5: 1 + 2 * 4 / 0.5 = 17.
    assert mistake_bound([1.0], [[1.0]], [1], w0=[-4.0], eta=0.5) == 17.0
    # The plain loop makes floor(a / eta) + 1 = 9 mistakes there: w = -4, -3.5, ..., 0.5.
    assert len(plain_loop([[1.0]], [1], eta=0.5, w0=[-4.0])) - 1 == 9
    # Only the length of w0 enters the simple form: any direction gives the same number.
    X, y = [[2.0, 0.0], [0.0, 1.0]], [1, 1]
    b = 8.0 + 2 * 5 / (2.0 * (1 / math.sqrt(2)))  # ||w0|| = 5, eta = 2, gamma = 1/sqrt 2
    for w0 in ([3.0, 4.0], [-3.0, -4.0], [0.0, -5.0]):
        assert math.isclose(mistake_bound([1.0, 1.0], X, y, w0=w0, eta=2.0), b)


def test_sharp_bound_is_the_root_of_the_quadratic():
    # B = 8, gamma = 1/sqrt 2, eta = 1, u = (1, 1)/sqrt 2.
    X, y, u = [[2.0, 0.0], [0.0, 1.0]], [1, 1], [1.0, 1.0]
    g = 1 / math.sqrt(2)
    for w0 in ([3.0, 4.0], [-3.0, -4.0], [1.0, -1.0], [-2.0, -2.0]):
        a = math.hypot(*w0) / g
        b = (w0[0] + w0[1]) / math.sqrt(2) / g
        k = mistake_bound(u, X, y, w0=w0, sharp=True)
        # k is a root of k^2 - (B - 2b) k - (a^2 - b^2) = 0 and lies below B + 2a.
        assert math.isclose(k * k - (8.0 - 2 * b) * k - (a * a - b * b), 0.0, abs_tol=1e-9)
        assert k >= 0
        assert k <= mistake_bound(u, X, y, w0=w0) + 1e-12
    # w0 antiparallel to u: the sharp root is exactly B + 2a.
    anti = mistake_bound(u, X, y, w0=[-2.0, -2.0], sharp=True)
    assert math.isclose(anti, 8.0 + 2 * math.sqrt(8.0) / g)


def test_bound_from_zero_start_equals_novikoff():
    X, y = np.eye(3), np.ones(3)
    for sharp in (False, True):
        assert math.isclose(mistake_bound(np.ones(3), X, y, w0=np.zeros(3), eta=3.0, sharp=sharp), 3.0)


@pytest.mark.parametrize("seed", range(8))
def test_runs_from_random_starts_respect_both_bounds(seed):
    rng = np.random.default_rng(100 + seed)
    N = int(rng.integers(1, 8))
    d = teacher_data(int(rng.integers(2, 40)), N, margin=float(rng.uniform(0.05, 0.5)), rng=rng)
    eta = float(np.exp(rng.uniform(-3, 3)))
    w0 = rng.standard_normal(N) * float(np.exp(rng.uniform(-2, 4)))
    if seed % 2:
        w0 = -np.linalg.norm(w0) * d.teacher  # the worst direction for the bound
    k = len(plain_loop(d.X, d.y, eta=eta, w0=w0, max_epochs=1_000_000)) - 1
    sharp = mistake_bound(d.teacher, d.X, d.y, w0=w0, eta=eta, sharp=True)
    assert k <= sharp * (1 + 1e-9) + 1e-9
    assert sharp <= mistake_bound(d.teacher, d.X, d.y, w0=w0, eta=eta) * (1 + 1e-12)


def test_trace_bound_includes_the_start():
    run = perceptron([[1.0]], [1], eta=0.5, w0=[-4.0])
    tr = novikoff_trace(run, [1.0])
    assert run.n_updates == 9
    assert math.isclose(tr.bound, 17.0)


def test_bound_from_a_start_rejects_bad_input():
    X, y = [[1.0, 0.0], [0.0, 1.0]], [1, 1]
    with pytest.raises(ValueError, match="w0"):
        mistake_bound([1.0, 1.0], X, y, w0=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="eta"):
        mistake_bound([1.0, 1.0], X, y, w0=[1.0, 2.0], eta=0.0)
    with pytest.raises(TypeError, match="sharp"):
        mistake_bound([1.0, 1.0], X, y, w0=[1.0, 2.0], sharp="yes")


# --------------------------------------------------------------------------- trace


def test_trace_of_the_tight_example():
    N = 4
    run = perceptron(np.eye(N), np.ones(N))
    tr = novikoff_trace(run, 5.0 * np.ones(N))  # any positive multiple of the separator
    assert isinstance(tr, NovikoffTrace)
    k = np.arange(N + 1)
    assert tr.k.tolist() == k.tolist()
    assert tr.n_updates == N
    # w_k = e_1 + ... + e_k: u.w_k = k/sqrt N = k gamma, ||w_k||^2 = k = k R^2 (both tight).
    np.testing.assert_allclose(tr.overlap, k / 2.0, rtol=1e-15)
    np.testing.assert_array_equal(tr.norm2, k.astype(float))
    np.testing.assert_allclose(tr.lower, tr.overlap, rtol=1e-15)
    np.testing.assert_allclose(tr.upper, tr.norm2, rtol=1e-15)
    assert math.isnan(tr.cos[0]) and math.isnan(tr.cos_lower[0])
    np.testing.assert_allclose(tr.cos[1:], np.sqrt(k[1:] / N), rtol=1e-15)
    np.testing.assert_allclose(tr.cos_lower[1:], np.sqrt(k[1:] / N), rtol=1e-15)
    assert tr.R == 1.0 and math.isclose(tr.gamma, 0.5)
    assert math.isclose(tr.bound, N)
    assert tr.holds()
    np.testing.assert_allclose(tr.u, np.full(N, 0.5))


@pytest.mark.parametrize("seed", range(4))
def test_trace_matches_a_plain_loop(seed):
    d = teacher_data(40, 5, margin=0.1, rng=seed)
    ws = np.array(plain_loop(d.X, d.y))
    tr = novikoff_trace(perceptron(d.X, d.y), d.teacher)
    assert tr.k.size == len(ws)
    np.testing.assert_allclose(tr.overlap, ws @ d.teacher, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tr.norm2, np.sum(ws**2, axis=1), rtol=1e-12, atol=1e-12)
    gamma = np.min(d.y * (d.X @ d.teacher))
    R = np.max(np.linalg.norm(d.X, axis=1))
    np.testing.assert_allclose(tr.lower, np.arange(len(ws)) * gamma, rtol=1e-12)
    np.testing.assert_allclose(tr.upper, np.arange(len(ws)) * R**2, rtol=1e-12)
    assert np.all(tr.overlap >= tr.lower - 1e-12)
    assert np.all(tr.norm2 <= tr.upper + 1e-12)
    assert tr.holds()


def test_trace_with_learning_rate_and_start():
    d = teacher_data(30, 3, margin=0.2, rng=11)
    w0 = np.array([0.5, -1.0, 2.0])
    eta = 0.5
    ws = np.array(plain_loop(d.X, d.y, eta=eta, w0=w0))
    tr = novikoff_trace(perceptron(d.X, d.y, eta=eta, w0=w0), d.teacher)
    k = np.arange(len(ws))
    gamma = np.min(d.y * (d.X @ d.teacher))
    R2 = np.max(np.sum(d.X**2, axis=1))
    np.testing.assert_allclose(tr.overlap, ws @ d.teacher, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tr.lower, w0 @ d.teacher + k * eta * gamma, rtol=1e-12)
    np.testing.assert_allclose(tr.upper, w0 @ w0 + k * eta**2 * R2, rtol=1e-12)
    assert tr.eta == eta
    assert tr.holds()
    # cos_lower is a bound only where the overlap bound is non-negative.
    ok = ~np.isnan(tr.cos_lower)
    assert np.all(tr.lower[ok] >= 0) and np.all(np.isnan(tr.cos_lower[tr.lower < 0]))
    assert np.all(tr.cos[ok] >= tr.cos_lower[ok] - 1e-12)


def test_trace_with_threshold_on_augmented_data():
    # 1-D: +1 at 2 and 3, -1 at 0 and -1; separator x = 1 -> augmented (1, -1).
    X = [[2.0], [0.0], [3.0], [-1.0]]
    y = [1, -1, 1, -1]
    run = perceptron(augment(X), y)
    tr = novikoff_trace(run, [1.0, -1.0])
    assert math.isclose(tr.R, math.sqrt(10.0))
    assert math.isclose(tr.gamma, 1 / math.sqrt(2))
    assert run.n_updates <= tr.bound
    assert tr.holds()


def test_holds_detects_a_broken_inequality():
    run = perceptron(np.eye(2), np.ones(2))
    tr = novikoff_trace(run, [1.0, 1.0])
    broken = NovikoffTrace(
        k=tr.k, overlap=tr.overlap - 0.1, norm2=tr.norm2, cos=tr.cos, lower=tr.lower, upper=tr.upper,
        cos_lower=tr.cos_lower, R=tr.R, gamma=tr.gamma, eta=tr.eta, u=tr.u,
    )
    assert not broken.holds()


def test_trace_rejects_bad_input():
    run = perceptron(np.eye(2), np.ones(2))
    with pytest.raises(TypeError):
        novikoff_trace("not a run", [1.0, 1.0])
    with pytest.raises(ValueError, match="does not separate"):
        novikoff_trace(run, [1.0, 0.0])
    with pytest.raises(ValueError):
        novikoff_trace(run, [1.0, 1.0, 1.0])
    with pytest.raises(ValueError):
        novikoff_trace(run, [0.0, 0.0])
