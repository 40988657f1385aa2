"""Bad arguments to the widget builders and plotting helpers are named (issue 30, point 6).

Every number a builder takes (slider start values, sizes, seeds) is tried as NaN,
inf and a bool; each must raise ValueError or TypeError whose message names the
argument (ipywidgets' own "cannot convert float NaN to integer" names nothing).
Plotting helpers refuse NaN points and 0/1 labels, which would vanish from a
picture without a word.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

import perclib.widgets as widgets_module
from perclib.plotting import new_figure, plot_patterns, update_patterns

BUILDERS = {name: getattr(widgets_module, name) for name in dir(widgets_module)
            if name.startswith("build_")}


def _numeric_parameters() -> list[tuple[str, str]]:
    found = []
    for name, builder in sorted(BUILDERS.items()):
        for param, spec in inspect.signature(builder).parameters.items():
            default = spec.default
            if isinstance(default, int | float) and not isinstance(default, bool):
                found.append((name, param))
    return found


NUMERIC = _numeric_parameters()


def test_the_probe_sees_the_builders_numbers() -> None:
    assert len(BUILDERS) == 14 and len(NUMERIC) >= 20, NUMERIC


@pytest.mark.parametrize(("builder", "param"), NUMERIC)
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf"), True, "3"],
                         ids=["nan", "inf", "-inf", "bool", "string"])
def test_bad_numbers_are_named(builder: str, param: str, bad: object) -> None:
    with pytest.raises((ValueError, TypeError)) as err:
        BUILDERS[builder](**{param: bad})
    assert re.search(rf"(?<![\w.]){re.escape(param)}(?!\w)", str(err.value)), str(err.value)


@pytest.mark.parametrize(("builder", "param", "value"), [
    ("build_threshold_demo", "angle", 400.0),
    ("build_threshold_demo", "norm", -1.0),
    ("build_boolean_separator", "theta", 9.0),
    ("build_capacity_explorer", "kappa", 2.0),
    ("build_learning_explorer", "alpha", 0.1),
    ("build_point_mover", "c", (9.0, 0.0)),
    ("build_margin_family", "teacher_margin", -0.1),
])
def test_start_values_outside_the_slider_are_refused(builder: str, param: str, value: object) -> None:
    """ipywidgets would clamp them silently: the figure would not start where asked."""
    with pytest.raises(ValueError, match=rf"^{param} must be"):
        BUILDERS[builder](**{param: value})


@pytest.mark.parametrize(("X", "y", "message"), [
    ([[np.nan, 0.0], [1.0, 1.0]], [1, -1], "NaN"),
    ([[0.0, 0.0], [1.0, 1.0]], [1, 0], "to_pm1"),
    ([[0.0, 0.0], [1.0, 1.0]], [1, -1, 1], "one label per point"),
    ([0.0, 1.0], [1, -1], r"shape \(P, 2\)"),
])
def test_plotting_refuses_points_that_would_vanish(X, y, message) -> None:
    _, (ax,) = new_figure()
    with pytest.raises(ValueError, match=message):
        plot_patterns(ax, X, y)
    artists = plot_patterns(ax, [[0.0, 0.0]], [1])
    with pytest.raises(ValueError, match=message):
        update_patterns(artists, X, y)
