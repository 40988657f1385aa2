"""The compiled perceptron loop against a reference written in exact arithmetic.

The reference decides every ``y (w.x) <= beta`` with Python fractions on the stored
float64 numbers (the course's tie rule, with no rounding at all) and updates the
weights with numpy's ``w + (eta * y) * x``. Random problems are drawn so that exact
ties are common (small integers, decimals such as 0.7 and 2.1 whose float products
tie only exactly, mixed scales); the run, its weights bit for bit and its whole trace
must be the reference's.

Every test of the loop runs on each loop: the two Python loops every run starts on
(:mod:`perclib.train._pyloop`: Python floats for narrow patterns, numpy blocks for wide
ones), the compiled loop long runs move to, and a pass where the runs move from one
to the other part-way (a tiny work allowance).
"""

from __future__ import annotations

import importlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perclib import kernel_perceptron, margin_perceptron, perceptron
from perclib.train import _pyloop

perceptron_module = importlib.import_module("perclib.train.perceptron")  # not the function

SETTINGS = settings(max_examples=150, deadline=None)


@pytest.fixture(params=["scalar", "numpy", "compiled", "switching"])
def loop(request, monkeypatch):
    """Run the test on one loop, or on both with a switch after a few patterns."""
    if request.param == "switching":
        monkeypatch.setattr(perceptron_module, "LOOP", None)
        monkeypatch.setattr(perceptron_module, "_COMPILED_READY", [False])
        monkeypatch.setattr(_pyloop, "WORK_LIMIT", 3 * _pyloop.CALL_COST)
        monkeypatch.setattr(_pyloop, "PRESENTATION_COST", _pyloop.CALL_COST)
    else:
        monkeypatch.setattr(perceptron_module, "LOOP", request.param)
    return request.param

# Values chosen so that sums of products often cancel exactly, at several scales.
VALUES = st.sampled_from([0.0, 1.0, -1.0, 2.0, -3.0, 0.5, 0.7, -0.7, 2.1, -2.1, 0.1, 0.3, -0.2])
SCALES = st.sampled_from([1.0, 0.7, 1e-12, 1e12, 2.0**-600, 2.0**600, 1e-300, 1e300])


def exact_margin(x, w) -> Fraction:
    return sum((Fraction(float(a)) * Fraction(float(b)) for a, b in zip(x, w, strict=True)), Fraction(0))


def reference(X, y, *, beta=0.0, eta=1.0, w0=None, max_epochs=50, perms=None, dual=False):
    """Textbook loop with exact decisions; returns (w, indices, per-epoch counts)."""
    P = X.shape[0]
    w = np.zeros(P if dual else X.shape[1]) if w0 is None else np.array(w0, dtype=float)
    indices, counts = [], []
    for epoch in range(max_epochs):
        done = 0
        for i in range(P) if perms is None else perms[epoch]:
            if Fraction(int(y[i])) * exact_margin(X[i], w) <= Fraction(beta):
                old = w
                if dual:
                    w = w.copy()
                    w[i] = w[i] + eta * y[i]
                else:
                    w = w + (eta * y[i]) * X[i]
                if np.array_equal(w, old) and np.any(X[i]):
                    return None, indices, counts  # the update was lost in rounding
                indices.append(int(i))
                done += 1
        counts.append(done)
        if done == 0:
            break
    return w, indices, counts


@st.composite
def problems(draw, max_p: int = 8, max_n: int = 4):
    P = draw(st.integers(1, max_p))
    N = draw(st.integers(1, max_n))
    X = np.array([[draw(VALUES) for _ in range(N)] for _ in range(P)])
    X = X * draw(SCALES)
    y = np.array([draw(st.sampled_from([-1.0, 1.0])) for _ in range(P)])
    return X, y


@pytest.mark.usefixtures("loop")
@SETTINGS
@given(prob=problems(), order=st.sampled_from(["cyclic", "random"]), seed=st.integers(0, 2**16))
def test_runs_and_traces_equal_the_exact_reference(prob, order, seed) -> None:
    X, y = prob
    run = perceptron(X, y, max_epochs=50, order=order, rng=seed)
    perms = None
    if order == "random":
        gen = np.random.default_rng(seed)
        perms = [gen.permutation(len(y)) for _ in range(50)]
    w, indices, counts = reference(X, y, perms=perms)
    assert run.indices.tolist() == indices
    assert run.mistakes_per_epoch.tolist() == counts
    np.testing.assert_array_equal(run.w, w)
    # The trace: weights after every update, rebuilt from the run, are the reference's.
    ref_trace = [np.zeros(X.shape[1])]
    for i in indices:
        ref_trace.append(ref_trace[-1] + y[i] * X[i])
    np.testing.assert_array_equal(run.weights, np.array(ref_trace))


@pytest.mark.usefixtures("loop")
@SETTINGS
@given(prob=problems(), w0=st.lists(VALUES, min_size=4, max_size=4),
       eta=st.sampled_from([1.0, 0.5, 0.1, 3.0]))
def test_a_start_and_a_rate_change_nothing_in_the_exactness(prob, w0, eta) -> None:
    X, y = prob
    start = np.array(w0[: X.shape[1]])
    # From w0 = 0, eta only scales the weights: the run is that of eta = 1, scaled at the
    # end (documented in _run_epochs), so that rounding of eta * x decides nothing.
    from_zero = not np.any(start)
    w, indices, _ = reference(X, y, w0=start, eta=1.0 if from_zero else eta, max_epochs=30)
    if from_zero and w is not None:
        w = eta * w
    if w is None:  # w + eta y x == w: the run could never progress, and must say so
        with pytest.raises(ValueError, match="lost in rounding"):
            perceptron(X, y, max_epochs=30, w0=start, eta=eta)
        return
    run = perceptron(X, y, max_epochs=30, w0=start, eta=eta)
    assert run.indices.tolist() == indices
    np.testing.assert_array_equal(run.w, w)
    np.testing.assert_array_equal(run.weights[-1], w)
    np.testing.assert_array_equal(run.weights[0], start)


@pytest.mark.usefixtures("loop")
@SETTINGS
@given(prob=problems(), beta=st.sampled_from([0.0, 0.7, 1.0, 2.1, 1e-12]))
def test_margin_perceptron_decides_the_level_exactly(prob, beta) -> None:
    X, y = prob
    res = margin_perceptron(X, y, beta=beta, max_epochs=30)
    w, indices, _ = reference(X, y, beta=beta, max_epochs=30)
    assert res.indices.tolist() == indices
    np.testing.assert_array_equal(res.w, w)


@pytest.mark.usefixtures("loop")
@SETTINGS
@given(prob=problems(max_p=7))
def test_kernel_perceptron_runs_the_exact_dual_loop(prob) -> None:
    X, y = prob
    X = X / np.max(np.abs(X)) if np.any(X) else X  # the Gram matrix must not overflow
    run = kernel_perceptron(X, y, kernel="linear", max_epochs=30)
    G = X @ X.T  # what gram_matrix computes for the linear kernel
    from perclib import gram_matrix

    np.testing.assert_array_equal(gram_matrix(X, kernel="linear"), G)
    _, indices, counts = reference(G, y, dual=True, max_epochs=30)
    assert run.indices.tolist() == indices
    assert run.mistakes_per_epoch.tolist() == counts


@pytest.mark.usefixtures("loop")
def test_a_tie_far_from_the_start_is_decided_exactly() -> None:
    """0.7 * 2.1 - 2.1 * 0.7 is 0 exactly; float64 rounding of a longer sum may say 1e-17."""
    X = np.array([[0.7, 2.1, 0.1, 0.2, 0.3], [2.1, -0.7, 0.0, 0.0, 0.0]])
    # After the first update w = x0; x1 . x0 = 0.7*2.1 - 2.1*0.7 = 0 exactly: a mistake.
    run = perceptron(X, [1, 1], max_epochs=3)
    assert run.indices.tolist()[:2] == [0, 1]


@pytest.mark.parametrize("order", ["cyclic", "random"])
def test_a_huge_trace_is_refused_not_built(order) -> None:
    """A run with many updates on long patterns: the whole trace is refused by size, not built."""
    gen = np.random.default_rng(1)
    X = gen.standard_normal((4000, 2000))
    y = np.where(gen.random(4000) < 0.5, -1.0, 1.0)  # random labels beyond capacity
    run = perceptron(X, y, max_epochs=30, order=order, rng=2)
    assert not run.converged and (run.n_updates + 1) * 2000 * 8 > 2**28
    with pytest.raises(ValueError, match="max_bytes"):
        _ = run.weights
    last = run.trace(run.n_updates, run.n_updates + 1)
    np.testing.assert_array_equal(last[0], run.w)
