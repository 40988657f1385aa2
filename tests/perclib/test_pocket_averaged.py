"""Pocket, averaged and voted perceptron against plain loops written independently."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perclib import averaged_perceptron, pocket, teacher_data


def noisy(P, N, flip, seed):
    d = teacher_data(P, N, margin=0.0, rng=seed)
    y = d.y.copy()
    flipped = np.random.default_rng([seed, 7]).random(P) < flip
    y[flipped] *= -1
    return d.X, y


def errors_of(w, X, y):
    return sum(1 for x, t in zip(X, y, strict=True) if t * (w @ x) <= 0)


def presentation_orders(P, epochs, order, seed):
    """The orders the trainers use: 0..P-1, or one seeded permutation per epoch."""
    if order == "cyclic":
        return [np.arange(P)] * epochs
    gen = np.random.default_rng(seed)
    return [gen.permutation(P) for _ in range(epochs)]


def averaging_loop(X, y, orders):
    """Freund and Schapire's voted perceptron as a per-pattern loop."""
    w = np.zeros(X.shape[1])
    total = np.zeros(X.shape[1])
    kept = [[w.copy(), 0]]  # [weights, survival count]
    for order in orders:
        for i in order:
            if y[i] * (w @ X[i]) <= 0:
                w = w + y[i] * X[i]
                kept.append([w.copy(), 0])
            kept[-1][1] += 1
            total += w  # the weights after this presentation
    return total / (len(orders) * len(y)), kept


def gallant_loop(X, y, orders):
    """Gallant's pocket without ratchet: keep the weights with the longest run."""
    w = np.zeros(X.shape[1])
    run, best, best_run = 0, w.copy(), 0
    for order in orders:
        for i in order:
            if y[i] * (w @ X[i]) > 0:
                run += 1
                if run > best_run:
                    best, best_run = w.copy(), run
            else:
                w = w + y[i] * X[i]
                run = 0
    return best


def gallant_ratchet_loop(X, y, orders):
    """Gallant's pocket with ratchet, one presentation at a time.

    A longer run than the pocket's *and* fewer training errors replace the pocket; while
    the pocket's weights are the current ones, their run keeps counting as the pocket's.
    """
    w = np.zeros(X.shape[1])
    run, in_pocket = 0, True  # the pocket starts with the starting weights
    best, best_run, best_errors = w.copy(), 0, errors_of(w, X, y)
    for order in orders:
        for i in order:
            if y[i] * (w @ X[i]) > 0:
                run += 1
                if in_pocket:
                    best_run = run
                elif run > best_run:
                    e = errors_of(w, X, y)
                    if e < best_errors:
                        best, best_run, best_errors, in_pocket = w.copy(), run, e, True
            else:
                w = w + y[i] * X[i]
                run, in_pocket = 0, False
    return best


# --- pocket ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_pocket_with_ratchet_is_gallants_rule(seed: int) -> None:
    X, y = noisy(50, 3, 0.2, seed)
    res = pocket(X, y, max_epochs=20, rng=seed)
    expected = gallant_ratchet_loop(X, y, presentation_orders(50, 20, "random", seed))
    assert not res.run.converged
    assert np.array_equal(res.w, expected)
    assert res.errors == errors_of(expected, X, y)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), P=st.integers(2, 15), N=st.integers(1, 3))
def test_pocket_with_ratchet_on_small_integer_data(seed, P, N) -> None:
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(P, N)).astype(float)
    y = rng.choice([-1.0, 1.0], P)
    res = pocket(X, y, max_epochs=6, rng=seed)
    if res.run.converged:
        assert res.errors == 0
        return
    expected = gallant_ratchet_loop(X, y, presentation_orders(P, 6, "random", seed))
    assert np.array_equal(res.w, expected)


@pytest.mark.parametrize("seed", range(4))
def test_the_ratchet_never_lets_the_pocket_get_worse(seed: int) -> None:
    X, y = noisy(50, 3, 0.2, seed)
    with_ratchet = pocket(X, y, max_epochs=20, rng=seed)
    best = pocket(X, y, best_seen=True, max_epochs=20, rng=seed)
    assert best.errors <= with_ratchet.errors <= errors_of(np.zeros(3), X, y)


def test_the_ratchet_can_refuse_a_longer_run() -> None:
    # Some seed gives a run where the two Gallant rules end with different pockets.
    differ = 0
    for seed in range(20):
        X, y = noisy(40, 2, 0.25, seed)
        a = pocket(X, y, max_epochs=15, rng=seed)
        b = pocket(X, y, ratchet=False, max_epochs=15, rng=seed)
        assert a.errors <= errors_of(np.zeros(2), X, y)
        differ += not np.array_equal(a.w, b.w)
    assert differ > 0


@pytest.mark.parametrize("seed", range(6))
def test_best_seen_pocket_is_never_worse_than_any_weights_seen(seed: int) -> None:
    X, y = noisy(60, 4, 0.15, seed)
    res = pocket(X, y, best_seen=True, max_epochs=30, rng=seed)
    assert not res.run.converged
    seen = [errors_of(w, X, y) for w in res.run.weights]  # every weight vector it produced
    assert res.errors == errors_of(res.w, X, y) == min(seen)
    assert all(e > res.errors for e in seen[: res.index]), "a strictly better one replaces it"
    assert np.array_equal(res.w, res.run.weights[res.index])
    assert res.errors <= errors_of(res.run.w, X, y)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), P=st.integers(2, 15), N=st.integers(1, 3))
def test_best_seen_pocket_on_small_integer_data(seed, P, N) -> None:
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(P, N)).astype(float)
    y = rng.choice([-1.0, 1.0], P)
    res = pocket(X, y, best_seen=True, max_epochs=6, rng=seed)
    seen = [errors_of(w, X, y) for w in res.run.weights]
    assert res.errors == min(seen) and res.index == seen.index(min(seen))


@pytest.mark.parametrize("seed", range(4))
def test_pocket_without_ratchet_is_gallants_run_rule(seed: int) -> None:
    X, y = noisy(50, 3, 0.2, seed)
    res = pocket(X, y, ratchet=False, max_epochs=20, rng=seed)
    expected = gallant_loop(X, y, presentation_orders(50, 20, "random", seed))
    assert np.array_equal(res.w, expected)
    assert res.errors == errors_of(expected, X, y)


def test_pocket_on_separable_data_ends_with_zero_errors() -> None:
    d = teacher_data(80, 5, margin=0.1, rng=3)
    for ratchet, best_seen in ((True, False), (False, False), (True, True)):
        res = pocket(d.X, d.y, ratchet=ratchet, best_seen=best_seen, rng=1)
        assert res.run.converged and res.errors == 0
        assert np.array_equal(res.w, res.run.w)


def test_pocket_is_seeded() -> None:
    X, y = noisy(40, 3, 0.2, 0)
    a, b = pocket(X, y, max_epochs=10, rng=5), pocket(X, y, max_epochs=10, rng=5)
    assert np.array_equal(a.w, b.w) and a.run.indices.tolist() == b.run.indices.tolist()


def test_pocket_validates() -> None:
    with pytest.raises(TypeError, match="ratchet"):
        pocket([[1.0]], [1], ratchet="yes")
    with pytest.raises(TypeError, match="best_seen"):
        pocket([[1.0]], [1], best_seen=1)
    with pytest.raises(ValueError, match="best_seen"):
        pocket([[1.0]], [1], ratchet=False, best_seen=True)
    with pytest.raises(ValueError, match="max_epochs"):
        pocket([[1.0]], [1], max_epochs=0)
    with pytest.raises(ValueError, match="NaN"):
        pocket([[np.nan]], [1])
    with pytest.raises(ValueError, match="to_pm1"):
        pocket([[1.0], [2.0]], [0, 1])


# --- averaged and voted ----------------------------------------------------------------


@pytest.mark.parametrize("order", ["cyclic", "random"])
@pytest.mark.parametrize("seed", range(3))
def test_averaged_weights_are_the_survival_weighted_mean(order: str, seed: int) -> None:
    X, y = noisy(70, 5, 0.1, seed)
    res = averaged_perceptron(X, y, epochs=8, order=order, rng=seed)
    mean, kept = averaging_loop(X, y, presentation_orders(70, 8, order, seed))
    assert np.allclose(res.w, mean, rtol=1e-12, atol=1e-12)
    assert res.votes.tolist() == [c for _, c in kept]
    assert res.votes.sum() == 8 * 70


def test_early_convergence_is_credited_to_the_final_weights() -> None:
    d = teacher_data(50, 3, margin=0.2, rng=4)
    res = averaged_perceptron(d.X, d.y, epochs=20)
    assert res.run.epochs < 20, "the test needs a run that stops early"
    mean, _ = averaging_loop(d.X, d.y, presentation_orders(50, 20, "cyclic", 0))
    assert np.allclose(res.w, mean, rtol=1e-12, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), P=st.integers(1, 12), N=st.integers(1, 4))
def test_averaging_and_voting_on_small_integer_data(seed, P, N) -> None:
    # Integer patterns make exact ties y (w.x) = 0 common: both sides must count them as mistakes.
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, size=(P, N)).astype(float)
    y = rng.choice([-1.0, 1.0], P)
    res = averaged_perceptron(X, y, epochs=5)
    mean, kept = averaging_loop(X, y, presentation_orders(P, 5, "cyclic", 0))
    assert np.allclose(res.w, mean, atol=1e-12)
    Z = rng.integers(-2, 3, size=(20, N)).astype(float)
    score = sum(c * np.where(Z @ w > 0, 1, -1) for w, c in kept)  # sign(0) = -1
    assert res.vote(Z).tolist() == np.where(score > 0, 1, -1).tolist()


def test_averaged_validates() -> None:
    with pytest.raises(ValueError, match="epochs"):
        averaged_perceptron([[1.0]], [1], epochs=0)
    with pytest.raises(TypeError, match="epochs"):
        averaged_perceptron([[1.0]], [1], epochs=2.5)
    with pytest.raises(ValueError, match="order"):
        averaged_perceptron([[1.0]], [1], order="sorted")
    res = averaged_perceptron([[1.0, 0.0]], [1])
    with pytest.raises(ValueError, match="columns"):
        res.vote([[1.0, 2.0, 3.0]])
