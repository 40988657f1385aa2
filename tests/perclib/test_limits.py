"""Issue 30, points 4 and 5: answers beyond float64 are refused, work guards bound time.

Data near float64's maximum have margins, radii and bounds that exist but are not
float64 numbers: each such answer must be a ValueError that says what to do, never
inf or nan. Requests whose work would run for minutes must be refused before any
work, with an error naming the argument; each call runs in a forked child with the
bad-input battery's time and memory caps, so a guard that fails shows as "killed".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from test_bad_inputs import CHILD_SECONDS, _in_child

import perclib

BIG = 1.7e308  # float64's maximum is about 1.798e308: the norm of (BIG, BIG) is not
X_BIG = np.array([[BIG, BIG], [-BIG, -BIG]])
Y_BIG = np.array([1, -1])

OVERFLOWING: dict[str, Callable[[], Any]] = {
    "radius": lambda: perclib.radius(X_BIG),
    "separator_margin": lambda: perclib.separator_margin([1.0, 1.0], X_BIG, Y_BIG),
    "mistake_bound": lambda: perclib.mistake_bound([1.0, 1.0], X_BIG, Y_BIG),
    "margin": lambda: perclib.margin([1.0, 1.0], X_BIG, Y_BIG),
    "pattern_margins": lambda: perclib.pattern_margins([1.0, 1.0], X_BIG, Y_BIG),
    "max_margin": lambda: perclib.max_margin(X_BIG, Y_BIG),
    "max_margin threshold": lambda: perclib.max_margin(X_BIG, Y_BIG, threshold=True),
}


@pytest.mark.parametrize("name", list(OVERFLOWING))
def test_answers_beyond_float64_are_refused(name: str) -> None:
    with pytest.raises(ValueError, match=r"X: .* beyond float64's range") as err:
        OVERFLOWING[name]()
    assert "power of two" in str(err.value)


def test_the_same_data_scaled_down_by_a_power_of_two_give_the_scaled_answer() -> None:
    """What the error tells the student to do works: divide by 2**64, scale back."""
    small = X_BIG / 2.0**64
    assert perclib.radius(small) == pytest.approx(BIG / 2.0**64 * np.sqrt(2), rel=1e-15)
    assert perclib.max_margin(small, Y_BIG).gamma == pytest.approx(
        BIG / 2.0**64 * np.sqrt(2), rel=1e-9
    )


def test_margins_of_huge_but_representable_data_are_right() -> None:
    """Entries near the maximum whose margin still is a float64 give it exactly."""
    X = np.array([[BIG, 0.0], [-BIG, 0.0]])
    assert perclib.separator_margin([1.0, 0.0], X, Y_BIG) == BIG
    assert perclib.radius(X) == BIG
    assert perclib.max_margin(X, Y_BIG).gamma == pytest.approx(BIG, rel=1e-12)
    assert perclib.mistake_bound([1.0, 0.0], X, Y_BIG) == 1.0


def _parallel_pairs_exact(X: np.ndarray) -> list[tuple[int, int]]:
    """Pairs of rows that are parallel, by exact integer cross products."""
    from fractions import Fraction

    rows = [[Fraction(v) for v in row] for row in X]
    return [
        (i, j) for i in range(len(rows)) for j in range(i + 1, len(rows))
        if rows[i][0] * rows[j][1] - rows[i][1] * rows[j][0] == 0
    ]


@pytest.mark.parametrize("scale", [2.0**-1000, 1e-300, 1.0, 1e300, 2.0**1000, BIG])
def test_dependent_subsets_near_the_ends_of_float64(scale: float) -> None:
    """Rows whose norms overflow are not all 'dependent' (they were, as zero rows)."""
    base = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.2], [-1.0, -1.0], [0.5, 0.1]])
    X = base * scale
    expected = _parallel_pairs_exact(X)
    assert expected == [(2, 4), (3, 5)]
    assert perclib.dependent_subsets(X, 2) == expected


#: Requests that used to run for a long time; each must be refused before any work.
TOO_MUCH: dict[str, tuple[Callable[[], Any], str]] = {
    "polynomial_features": (
        lambda: perclib.polynomial_features(np.ones((3, 10**6)), degree=10**6), "degree"
    ),
    "learning_curve perceptron": (
        lambda: perclib.learning_curve(np.linspace(0.1, 10, 100), 1000, rule="perceptron",
                                       n_runs=100), "max_work"
    ),
    "learning_curve hebb": (
        lambda: perclib.learning_curve(np.full(10**5, 0.5), 100, n_runs=10**4), "max_work"
    ),
    "capacity_sample": (
        lambda: perclib.capacity_sample(np.linspace(0.1, 4, 100), 1000, n_samples=1000),
        "max_work",
    ),
}


@pytest.mark.parametrize("name", list(TOO_MUCH))
def test_work_guards_bound_time(name: str) -> None:
    call, word = TOO_MUCH[name]
    outcome, message = _in_child(call)
    assert outcome == "ValueError", f"{outcome} (cap {CHILD_SECONDS} s): {message}"
    assert re.search(rf"(?<!\w){word}(?!\w)", message), message


def test_work_guard_can_be_lifted_and_defaults_fit_the_lessons() -> None:
    """max_work=None lifts the guard; lesson 9's stored Monte Carlo fits the default."""
    from perclib.statmech import MAX_SIMULATION_WORK
    from perclib.statmech_tables import CAPACITY_ALPHAS, CAPACITY_RUNS

    largest = max(n * N * N * int(np.round(CAPACITY_ALPHAS * N).sum()) for N, n, _ in CAPACITY_RUNS)
    assert largest < MAX_SIMULATION_WORK
    with pytest.raises(ValueError, match="max_work"):
        perclib.capacity_sample([2.0], 50, n_samples=10, max_work=10)
    sample = perclib.capacity_sample([2.0], 50, n_samples=2, rng=0, max_work=None)
    assert sample.margins.shape == (1, 2)


def test_separability_of_rows_near_the_maximum() -> None:
    """A row whose norm overflows once became the zero row: 'not separable' (wrong)."""
    X = np.array([[BIG, BIG], [1.0, 2.0]])
    assert perclib.is_separable(X, [1, 1]) is True
    assert perclib.is_separable(X, [1, -1]) is True
    assert perclib.is_separable(np.array([[BIG, BIG], [-BIG, -BIG]]), [1, 1]) is False
