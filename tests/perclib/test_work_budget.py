"""Every trainer keeps to its work budget, and MinOver refuses a margin float64 cannot hold.

Budgets are counted in multiply-adds (``perclib.train._budget``), so these tests are
deterministic: a run with a budget stops at the same epoch or step on any machine.
"""

from __future__ import annotations

import numpy as np
import pytest

from perclib import (
    adatron,
    averaged_perceptron,
    kernel_perceptron,
    margin_perceptron,
    max_margin,
    minover,
    perceptron,
    pocket,
)
from perclib.geometry import MarginResolutionError
from perclib.train import MAX_WORK, WorkBudgetWarning
from perclib.train.large_margin import MarginWarning


def noisy(P: int = 60, N: int = 4, seed: int = 0):
    """Gaussian patterns with random labels: not separable for P >> 2N."""
    gen = np.random.default_rng(seed)
    return gen.standard_normal((P, N)), np.where(gen.random(P) < 0.5, 1.0, -1.0)


def test_the_default_budget_is_documented_and_generous() -> None:
    assert MAX_WORK == 10**10
    X, y = noisy()
    # A lesson-sized non-separable run is far inside it: max_epochs stops it, no warning.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", WorkBudgetWarning)
        run = perceptron(X, y, max_epochs=200)
    assert not run.converged and not run.out_of_budget and run.epochs == 200


@pytest.mark.parametrize("budget, epochs", [(60 * 4 * 7, 7), (60 * 4 * 7 + 239, 7), (1, 1)])
def test_perceptron_stops_at_the_last_epoch_in_the_budget(budget, epochs) -> None:
    X, y = noisy()
    with pytest.warns(WorkBudgetWarning, match=r"perceptron stopped after .* max_work"):
        run = perceptron(X, y, max_epochs=100, max_work=budget)
    assert run.epochs == epochs and not run.converged and run.out_of_budget
    assert "work budget spent" in repr(run)
    # The same epochs as a run told to stop there: the budget changes nothing else.
    same = perceptron(X, y, max_epochs=epochs)
    np.testing.assert_array_equal(run.w, same.w)
    np.testing.assert_array_equal(run.indices, same.indices)


def test_a_run_that_converges_inside_the_budget_says_nothing() -> None:
    import warnings

    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    with pytest.warns(WorkBudgetWarning) as caught:  # one epoch of 4 fits; it needs two
        run = perceptron(X, [1, 1], max_work=4)
    assert caught[0].filename == __file__  # the warning points at the caller's line
    assert run.epochs == 1 and run.out_of_budget and not run.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error", WorkBudgetWarning)
        run = perceptron(X, [1, 1], max_work=8)
    assert run.converged and not run.out_of_budget


def test_margin_kernel_and_averaged_perceptrons_keep_to_the_budget() -> None:
    X, y = noisy()
    with pytest.warns(WorkBudgetWarning, match="margin_perceptron"):
        res = margin_perceptron(X, y, beta=1.0, max_work=60 * 4 * 3)
    assert res.iterations == 3 and res.out_of_budget and not res.converged
    with pytest.warns(WorkBudgetWarning, match="kernel_perceptron"):
        kp = kernel_perceptron(X, y, kernel="linear", max_work=60 * 60 * 4 + 60 * 60 * 2)
    assert kp.epochs == 2 and kp.out_of_budget
    with pytest.warns(WorkBudgetWarning, match="averaged_perceptron"):
        av = averaged_perceptron(X, y, epochs=10, max_work=60 * 4 * 3)
    assert av.run.epochs == 3 and av.run.out_of_budget
    assert int(av.votes.sum()) == 3 * 60  # averaged over the presentations made
    ref = averaged_perceptron(X, y, epochs=3)
    np.testing.assert_array_equal(av.w, ref.w)


def test_minover_and_adatron_keep_to_the_budget() -> None:
    X, y = noisy()
    with pytest.warns(WorkBudgetWarning, match="minover"):
        mo = minover(X, y, max_steps=1000, max_work=61 * 4 * 25)
    assert mo.iterations == 25 and mo.out_of_budget and not mo.converged
    with pytest.warns(WorkBudgetWarning, match="adatron"):
        ad = adatron(X, y, max_epochs=1000, max_work=60 * 60 * 4 + 4 * (3 * 3600 + 240))
    assert ad.iterations == 4 and ad.out_of_budget and not ad.converged


def test_pocket_checks_only_what_the_budget_allows_and_says_so() -> None:
    X, y = noisy(200, 5, seed=3)
    full = pocket(X, y, max_epochs=30, rng=1)
    assert not full.out_of_budget and full.considered == full.run.n_updates + 1
    # The pocket holds the weights with the fewest errors among those it had checked.
    assert full.errors == full.trace_errors[full.index]
    # Half of the budget for the run (its 30 epochs of 200 x 5 fit), the rest for
    # checks of 200 x 5 each: 30 of them.
    with pytest.warns(WorkBudgetWarning, match="pocket stopped after checking 30 weight"):
        short = pocket(X, y, best_seen=True, max_epochs=30, rng=1, max_work=2 * 30 * 1000)
    assert short.out_of_budget and short.considered == 30
    assert short.errors == min(full.trace_errors[:30])
    assert short.index == int(np.argmin(full.trace_errors[:30]))
    np.testing.assert_array_equal(short.w, full.run.trace(short.index, short.index + 1)[0])


@pytest.mark.parametrize("bad", [0, -1, 1.5, "10", True])
def test_a_bad_budget_is_named(bad) -> None:
    with pytest.raises((TypeError, ValueError), match="max_work"):
        perceptron([[1.0]], [1], max_work=bad)


# ---------------------------------------------------------------------------
# MinOver: a margin below float64's range is an error, as in max_margin
# ---------------------------------------------------------------------------


def test_minover_refuses_the_issue_case_like_max_margin() -> None:
    # The run is right (tests/perclib/test_bad_inputs.py checks its weights); its margin, about
    # 5e-599, is no float64: a warning from the run, an error from the margin.
    X = [[1e200, 0.0], [0.0, 1e-200]]
    with pytest.warns(MarginWarning, match=r"minover: its final weights separate .* below float64"):
        res = minover(X, [1, 1], max_steps=50)
    with pytest.raises(MarginResolutionError, match="rescale X"):
        _ = res.margin
    with pytest.raises(MarginResolutionError):
        max_margin(X, [1, 1])


@pytest.mark.parametrize("big, small", [(1e300, 1e-300), (1e150, 1e-150), (1.0, 1e-300),
                                        (1e-10, 1e-300), (1e300, 1e-10)])
def test_minover_neighbours_out_of_range_are_refused(big, small) -> None:
    with pytest.warns(MarginWarning, match="rescale X"):
        res = minover([[big, 0.0], [0.0, small]], [1, 1], max_steps=50)
    with pytest.raises(MarginResolutionError, match="rescale X"):
        _ = res.margins


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-100, 1e-12, 1.0, 1e12, 1e100, 1e200, 1e300])
def test_minover_in_range_gives_the_scaled_margin(scale) -> None:
    # The same run at every scale: after 50 steps w = scale (1, 49/... ) and the margin
    # scales with the data (checked against the unscaled run, not against itself).
    X = np.array([[1.0, 0.0], [0.0, 0.5]])
    ref = minover(X, [1, 1], max_steps=50)
    res = minover(X * scale, [1, 1], max_steps=50)
    assert res.indices.tolist() == ref.indices.tolist()
    assert res.margin == pytest.approx(ref.margin * scale, rel=1e-12)
    assert res.margin > 0


def test_minover_mixed_sizes_in_range_give_the_true_margin() -> None:
    # w = (1e100, 49e-100) after 50 steps: margins 1e100 and 49e-200 / ||w|| = 4.9e-299.
    res = minover([[1e100, 0.0], [0.0, 1e-100]], [1, 1], max_steps=50)
    assert res.margin == pytest.approx(4.9e-299, rel=1e-12)
    assert not res.converged  # the certificate is far from tol: honest
