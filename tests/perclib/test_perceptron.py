"""The classical perceptron: trace, convergence, bound, and agreement with scikit-learn."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron

from perclib import augment, margin_perceptron, perceptron, teacher_data, xor


def reference_perceptron(X, y, eta=1.0, w0=None, max_epochs=1000, order=None):
    """Plain per-pattern loop, written independently of perclib, for comparison."""
    w = np.zeros(X.shape[1]) if w0 is None else np.array(w0, dtype=float)
    indices = []
    for epoch in range(max_epochs):
        clean = True
        for i in order[epoch] if order is not None else range(len(y)):
            if y[i] * (w @ X[i]) <= 0:
                w = w + (eta * y[i]) * X[i]
                indices.append(i)
                clean = False
        if clean:
            return w, indices, True
    return w, indices, False


def test_two_orthogonal_patterns_by_hand() -> None:
    res = perceptron([[1.0, 0.0], [0.0, 1.0]], [1, -1])
    # w=0 -> mistake on x0 (0 <= 0): w=(1,0); x1: -(0) <= 0 -> w=(1,-1); clean pass next.
    assert res.w.tolist() == [1.0, -1.0]
    assert res.indices.tolist() == [0, 1]
    assert res.epochs == 2 and res.converged
    assert res.mistakes_per_epoch.tolist() == [2, 0]
    assert res.weights.tolist() == [[0.0, 0.0], [1.0, 0.0], [1.0, -1.0]]


def test_starting_at_zero_the_tie_counts_as_a_mistake() -> None:
    # With the wrong rule (< 0) nothing would ever update from w = 0.
    res = perceptron([[2.0, 1.0]], [1])
    assert res.n_updates == 1 and res.w.tolist() == [2.0, 1.0]


@pytest.mark.parametrize("seed", range(5))
def test_matches_the_plain_loop_exactly(seed: int) -> None:
    d = teacher_data(300, 7, margin=0.05, rng=seed)
    res = perceptron(d.X, d.y)
    w, indices, converged = reference_perceptron(d.X, d.y)
    assert converged and res.converged
    assert res.indices.tolist() == indices
    assert np.array_equal(res.w, w)
    assert np.array_equal(res.weights[-1], res.w)


def test_random_order_is_seeded_and_matches_the_loop() -> None:
    d = teacher_data(200, 5, margin=0.1, rng=3)
    a = perceptron(d.X, d.y, order="random", rng=11)
    b = perceptron(d.X, d.y, order="random", rng=11)
    assert np.array_equal(a.w, b.w) and a.indices.tolist() == b.indices.tolist()
    gen = np.random.default_rng(11)
    orders = [gen.permutation(200) for _ in range(a.epochs)]
    w, indices, _ = reference_perceptron(d.X, d.y, order=orders)
    assert np.array_equal(a.w, w) and a.indices.tolist() == indices


def test_non_separable_stops_and_says_so() -> None:
    X, y = xor()
    res = perceptron(augment(X), y, max_epochs=25)
    assert not res.converged
    assert res.epochs == 25
    assert np.all(res.mistakes_per_epoch > 0)
    assert "NOT converge" in repr(res)


def test_learning_rate_from_zero_only_scales() -> None:
    d = teacher_data(100, 4, margin=0.1, rng=1)
    X = np.round(d.X * 4)  # integer data: scaling by powers of two is exact
    y = np.where(X @ d.teacher > 0, 1.0, -1.0)
    base = perceptron(X, y, max_epochs=5000)
    for eta in (0.25, 2.0, 8.0):
        res = perceptron(X, y, eta=eta, max_epochs=5000)
        assert res.indices.tolist() == base.indices.tolist()
        assert np.array_equal(res.w, eta * base.w)


def test_initial_weights_are_the_first_trace_row() -> None:
    res = perceptron([[1.0, 1.0], [1.0, -1.0]], [1, 1], w0=[0.5, -3.0])
    assert res.weights[0].tolist() == [0.5, -3.0]
    assert res.converged
    assert np.all(np.array([1, 1]) * (np.array([[1.0, 1.0], [1.0, -1.0]]) @ res.w) > 0)


@settings(max_examples=40, deadline=None)
@given(
    P=st.integers(1, 60),
    N=st.integers(1, 8),
    margin=st.floats(0.05, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_novikoff_bound_holds(P: int, N: int, margin: float, seed: int) -> None:
    d = teacher_data(P, N, margin=margin, rng=seed)
    res = perceptron(d.X, d.y, max_epochs=100_000)
    R2 = float(np.max(np.sum(d.X**2, axis=1)))
    # The teacher is a unit separator with margin `margin`, so the bound applies to it.
    assert res.converged
    assert res.n_updates <= R2 / margin**2 + 1e-9
    assert np.all(d.y * (d.X @ res.w) > 0)


def test_agrees_with_scikit_learn() -> None:
    d = teacher_data(2000, 20, margin=0.2, rng=7)
    ours = perceptron(d.X, d.y)
    sk = Perceptron(
        fit_intercept=False, shuffle=False, tol=None, eta0=1.0, penalty=None,
        max_iter=ours.epochs,
    ).fit(d.X, d.y)
    assert np.allclose(sk.coef_.ravel(), ours.w, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"X": [[1.0, np.nan]], "y": [1]}, ValueError, "NaN"),
        ({"X": [[1.0, np.inf]], "y": [1]}, ValueError, "infinite"),
        ({"X": [1.0, 2.0], "y": [1, 1]}, ValueError, "2-D"),
        ({"X": np.zeros((0, 2)), "y": []}, ValueError, "empty"),
        ({"X": [[1.0], [2.0]], "y": [1]}, ValueError, "lengths must match"),
        ({"X": [[1.0], [2.0]], "y": [0, 1]}, ValueError, "to_pm1"),
        ({"X": [[1.0], [2.0]], "y": [1, 2]}, ValueError, "only -1 and \\+1"),
        ({"X": [[1.0]], "y": [1], "eta": 0}, ValueError, "eta"),
        ({"X": [[1.0]], "y": [1], "eta": "1"}, TypeError, "eta"),
        ({"X": [[1.0]], "y": [1], "max_epochs": 0}, ValueError, "max_epochs"),
        ({"X": [[1.0]], "y": [1], "max_epochs": 2.5}, TypeError, "max_epochs"),
        ({"X": [[1.0]], "y": [1], "order": "sorted"}, ValueError, "order"),
        ({"X": [[1.0]], "y": [1], "w0": [1.0, 2.0]}, ValueError, "w0"),
        ({"X": [[1.0]], "y": [1], "order": "random", "rng": "seed"}, TypeError, "rng"),
        ({"X": "abc", "y": [1]}, TypeError, "string"),
    ],
)
def test_bad_input_is_named(kwargs: dict, error: type, words: str) -> None:
    X = kwargs.pop("X")
    y = kwargs.pop("y")
    with pytest.raises(error, match=words):
        perceptron(X, y, **kwargs)


def _loop(X, y, *, beta=0.0, eta=1.0, max_epochs=1000, perms=None):
    """The textbook per-pattern loop (reference for the compiled run)."""
    w, updates = np.zeros(X.shape[1]), []
    for epoch in range(max_epochs):
        clean = True
        for i in range(len(X)) if perms is None else perms[epoch]:
            if y[i] * (X[i] @ w) <= beta:
                w = w + (eta * y[i]) * X[i]
                updates.append(int(i))
                clean = False
        if clean:
            break
    return w, updates


@pytest.mark.parametrize("case", ["cyclic", "random", "beta", "tiny-eta"])
def test_compiled_loop_makes_the_loops_updates(case, monkeypatch):
    """The compiled loop (with its exact decisions near zero) is the textbook loop."""
    # Forced: a run would otherwise start on the Python loop (tests/perclib/test_compiled_loop.py
    # holds every loop to an exact reference; this one is about the compiled loop).
    monkeypatch.setattr(importlib.import_module("perclib.train.perceptron"), "LOOP", "compiled")
    d = teacher_data(3000, 12, margin=0.01, rng=17)
    if case == "random":
        run = perceptron(d.X, d.y, order="random", rng=3)
        gen = np.random.default_rng(3)
        perms = [gen.permutation(3000) for _ in range(run.epochs)]
        w, updates = _loop(d.X, d.y, perms=perms, max_epochs=run.epochs)
    elif case == "beta":
        res = margin_perceptron(d.X, d.y, beta=2.5, eta=0.5)
        run = res
        w, updates = _loop(d.X, d.y, beta=2.5, eta=0.5)
    else:
        # From w0 = 0, eta only scales the weights (issue 30): the run is that of eta = 1,
        # scaled at the end, so rounding of eta * x cannot change which mistakes are made.
        eta = 1e-30 if case == "tiny-eta" else 1.0
        run = perceptron(d.X, d.y, eta=eta)
        w, updates = _loop(d.X, d.y, eta=1.0)
        w = eta * w
    assert run.indices.tolist() == updates
    np.testing.assert_array_equal(run.w, w)


def test_overflowing_margins_raise_instead_of_passing():
    """w.x = 3e308 - 3e308 is inf - inf = NaN: once taken for a correct pattern (issue 23)."""
    with pytest.raises(ValueError, match="overflowed"):
        perceptron([[2.0, -2.0]], [1], w0=[1.5e308, 1.5e308])
