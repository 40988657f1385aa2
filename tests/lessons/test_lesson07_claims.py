"""Lesson 7's theorems, checked more widely than the lesson's own check cells do.

Each test names the section of notebooks/07_nonseparable.ipynb whose claim it covers.
Expected values come from hand computation, exact enumeration or plain loops written here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy.spatial import ConvexHull

from perclib import perceptron


def _loop_perceptron(X, y, orders, w0):
    """The perceptron, one presentation at a time; returns every weight vector."""
    w = np.array(w0, dtype=float)
    trace = [w.copy()]
    for order in orders:
        for i in order:
            if y[i] * (w @ X[i]) <= 0:
                w = w + y[i] * X[i]
                trace.append(w.copy())
    return np.array(trace)


def _noisy(seed, P=40, N=3, flip=0.2):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, N))
    y = np.where(X @ rng.standard_normal(N) > 0, 1.0, -1.0)
    y[rng.random(P) < flip] *= -1
    return X, y, rng


# --- Section 2: the weaker cycling theorem --------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_weaker_cycling_bound_holds_from_large_starts(seed):
    X, y, rng = _noisy(seed)
    Z = y[:, None] * X
    hull = ConvexHull(Z)
    delta = -hull.equations[:, -1].max()
    if delta <= 0:
        pytest.skip("the origin is not inside this hull")
    # delta is min over unit d of max(-z.d): sampled directions never go below it,
    # and the nearest facet's normal attains it
    D = rng.standard_normal((2000, X.shape[1]))
    D /= np.linalg.norm(D, axis=1, keepdims=True)
    assert (-(D @ Z.T)).max(axis=1).min() >= delta - 1e-12
    n = hull.equations[np.argmax(hull.equations[:, -1]), :-1]
    assert np.isclose((-(Z @ n)).max(), delta) or np.isclose((Z @ n).max(), delta)
    P, R = len(y), np.linalg.norm(X, axis=1).max()
    r_star = 1.5 * P * R**2 / delta
    M = np.sqrt(r_star**2 + P * R**2) + P * R
    for size in (0.0, 50.0, 1e4):
        v = rng.standard_normal(X.shape[1])
        w0 = size * v / np.linalg.norm(v)
        orders = [rng.permutation(P) for _ in range(60)]
        trace = _loop_perceptron(X, y, orders, w0)
        assert np.linalg.norm(trace, axis=1).max() <= size + M


def test_delta_is_zero_without_general_position():
    # Exercise 5's counterexample: z = (1, 0) and (-1, 0), not separable, delta = 0
    Z = np.array([[1.0, 0.0], [-1.0, 0.0]])
    d = np.array([0.0, 1.0])
    assert (-(Z @ d)).max() == 0.0
    trace = _loop_perceptron(Z, np.ones(2), [range(2)] * 50, [3.0, 7.0])
    assert np.all(trace[:, 1] == 7.0) and np.abs(trace[:, 0]).max() <= 4.0


# --- Section 4: Freund and Schapire's mistake bound ----------------------------------------


def _fs_bound(u, gamma, X, y):
    d = np.maximum(0.0, gamma - y * (X @ u))
    return ((np.linalg.norm(X, axis=1).max() + np.linalg.norm(d)) / gamma) ** 2


@pytest.mark.parametrize("seed", range(20))
def test_fs_bound_holds_for_any_unit_u_and_gamma(seed):
    X, y, rng = _noisy(seed, P=60, N=int(np.random.default_rng(seed).integers(2, 8)))
    k = perceptron(X, y, max_epochs=1).n_updates
    for _ in range(20):
        u = rng.standard_normal(X.shape[1])
        u /= np.linalg.norm(u)
        for gamma in (0.01, 0.1, 0.5, 1.0, 3.0):
            assert k <= _fs_bound(u, gamma, X, y) + 1e-9


@pytest.mark.parametrize("seed", range(5))
def test_augmented_features_make_the_same_mistakes_with_margin_gamma_over_z(seed):
    X, y, rng = _noisy(seed, P=30, N=4)
    m = len(y)
    u = rng.standard_normal(4)
    u /= np.linalg.norm(u)
    gamma = 0.5
    d = np.maximum(0.0, gamma - y * (X @ u))
    D = np.linalg.norm(d)
    delta = np.sqrt(np.linalg.norm(X, axis=1).max() * D)
    X_aug = np.hstack([X, delta * np.eye(m)])
    Zn = np.sqrt(1 + D**2 / delta**2)
    u_aug = np.concatenate([u, y * d / delta]) / Zn
    assert np.isclose(np.linalg.norm(u_aug), 1.0)
    assert np.min(y * (X_aug @ u_aug)) >= gamma / Zn - 1e-12
    plain = perceptron(X, y, max_epochs=1)
    aug = perceptron(X_aug, y, max_epochs=1)
    assert plain.indices.tolist() == aug.indices.tolist()


@pytest.mark.parametrize("m", [1, 5, 50])
@pytest.mark.parametrize("t", [1.0, 2.0, 5.0])
def test_orthonormal_patterns_attain_the_fs_bound(m, t):
    # gamma = t / sqrt(m): each pattern falls short by (t - 1)/sqrt(m), D = t - 1, bound m
    k = perceptron(np.eye(m), np.ones(m), max_epochs=1).n_updates
    bound = _fs_bound(np.ones(m) / np.sqrt(m), t / np.sqrt(m), np.eye(m), np.ones(m))
    assert k == m and np.isclose(bound, m)


# --- Section 5: online to batch -------------------------------------------------------------


def _one_pass_weights(X, y):
    w = np.zeros(X.shape[1])
    out, k = [w.copy()], 0
    for x, t in zip(X, y, strict=True):
        if t * (w @ x) <= 0:
            w = w + t * x
            k += 1
        out.append(w.copy())
    return out, k  # v_0 .. v_m, and the mistakes of the pass


@pytest.mark.parametrize("seed", range(4))
def test_random_choice_error_equals_mistakes_over_exchangeable_orders(seed):
    # Exact: over all orders of P + 1 fixed integer examples (an exchangeable sequence),
    # the mean error of a uniform v_t on the last example is E[k_{P+1}] / (P + 1).
    rng = np.random.default_rng(seed)
    X = rng.integers(-3, 4, size=(5, 2)).astype(float)
    y = rng.choice([-1.0, 1.0], 5)
    errors, mistakes, votes_wrong = Fraction(0), Fraction(0), Fraction(0)
    perms = list(itertools.permutations(range(5)))
    for perm in perms:
        Xp, yp = X[list(perm)], y[list(perm)]
        V, _ = _one_pass_weights(Xp[:4], yp[:4])
        wrong = [yp[4] * (v @ Xp[4]) <= 0 for v in V]
        errors += Fraction(sum(wrong), len(V))
        mistakes += _one_pass_weights(Xp, yp)[1]
        vote = sum(1 if v @ Xp[4] > 0 else -1 for v in V)
        voted_wrong = (1 if vote > 0 else -1) != yp[4]
        votes_wrong += voted_wrong
        if voted_wrong:
            assert 2 * sum(wrong) >= len(V), "a wrong vote needs half the v_t wrong"
    assert errors / len(perms) == mistakes / len(perms) / 5
    assert votes_wrong / len(perms) <= 2 * errors / len(perms)
