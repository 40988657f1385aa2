"""The stored tables of lesson 9 (perclib.statmech_tables) agree with the code that defines them.

Each test recomputes a slice with perclib (a few samples of every capacity Monte
Carlo, theory values at a few alphas of the grid) and compares it with the file.
"""

from __future__ import annotations

import numpy as np
import pytest

from perclib import statmech_tables as tables
from perclib.statmech import capacity_sample, learning_curve


@pytest.mark.parametrize(("N", "n", "seed"), tables.CAPACITY_RUNS)
def test_the_first_capacity_samples_recompute(N: int, n: int, seed: int) -> None:
    stored = {s.N: s for s in tables.capacity_samples()}[N]
    assert stored.margins.shape == (len(tables.CAPACITY_ALPHAS), n)
    fresh = capacity_sample(tables.CAPACITY_ALPHAS, N, n_samples=2, rng=seed)
    unseparable = np.isneginf(fresh.margins)
    assert np.array_equal(unseparable, np.isneginf(stored.margins[:, :2]))
    np.testing.assert_allclose(fresh.margins[~unseparable], stored.margins[:, :2][~unseparable],
                               rtol=1e-7)


def test_the_capacity_table_is_a_monte_carlo_of_the_right_shape() -> None:
    for s in tables.capacity_samples():
        finite = np.isfinite(s.margins)
        # within a stream the best stability can only fall as patterns are added
        m = np.where(finite, s.margins, -1.0)
        assert np.all(np.diff(m, axis=0) <= 1e-12)
        assert np.all(s.margins[finite] > 0) and np.all(np.isneginf(s.margins[~finite]))


@pytest.mark.parametrize("index", [0, 17, 35])
def test_theory_values_recompute(index: int) -> None:
    grid, curves = tables.theory_curves()
    np.testing.assert_array_equal(grid, np.geomspace(0.25, 50.0, 36))
    # Every curve is the root of a well-conditioned equation (the maximum-margin angle
    # too: the root of the coefficient's derivative, not an optimiser's output, which
    # fixed it only to ~1e-8, issue 41), so the table recomputes to float64 rounding.
    for name, f in tables.THEORY_FUNCTIONS.items():
        assert curves[name][index] == pytest.approx(float(f(grid[index])), rel=1e-10), name


def test_the_whole_max_margin_curve_recomputes() -> None:
    grid, curves = tables.theory_curves()
    fresh = tables.THEORY_FUNCTIONS["max_margin"](grid)
    np.testing.assert_allclose(curves["max_margin"], fresh, rtol=1e-10, atol=0)


def test_stored_or_computed_reads_the_grid_and_computes_elsewhere() -> None:
    grid, curves = tables.theory_curves()
    assert np.array_equal(tables.stored_or_computed(grid, "gibbs"), curves["gibbs"])
    other = np.array([1.0, 3.0])
    np.testing.assert_allclose(tables.stored_or_computed(other, "bayes"),
                               tables.THEORY_FUNCTIONS["bayes"](other))


@pytest.mark.parametrize("rule", ["hebb", "perceptron", "max_margin"])
def test_the_first_learning_runs_recompute(rule: str) -> None:
    stored = {c.rule: c for c in tables.learning_curves()}[rule]
    run = tables.LEARNING_RUN
    assert stored.errors.shape == (len(run["alphas"]), run["n_runs"]) and stored.N == run["N"]
    fresh = learning_curve(run["alphas"], run["N"], rule=rule, n_runs=2, rng=run["rng"])
    np.testing.assert_allclose(fresh.errors, stored.errors[:, :2], rtol=1e-9)
