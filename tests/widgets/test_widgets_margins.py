"""Lesson 6 widgets, driven from Python as the frontend would drive them."""

from __future__ import annotations

import numpy as np
import pytest

from perclib import margin, max_margin, teacher_data
from perclib.widgets import build_margin_family, build_margin_training
from perclib.widgets.margins import DEMOS


def _family_data():
    d = teacher_data(12, 2, margin=0.25, rng=5)  # the builder's defaults
    return d.X, d.y, max_margin(d.X, d.y)


def test_registered() -> None:
    assert set(DEMOS) == {"margin_family", "margin_training"}


def test_family_shrinks_and_empties() -> None:
    X, y, best = _family_data()
    demo = build_margin_family()
    gamma = demo.controls["gamma"]
    widths = []
    for g in (0.0, 0.25 * best.gamma, 0.5 * best.gamma, 0.9 * best.gamma):
        gamma.value = round(g, 4)
        xs = demo.figure.axes[1].patches[0].get_xy()[:, 0]
        widths.append(xs.max() - xs.min())
        assert demo.figure.axes[1].patches[0].get_visible()
        assert "wide" in demo.status.value
    assert all(a > b for a, b in zip(widths, widths[1:], strict=False))
    # the width in degrees, checked on a brute-force scan of directions
    phi = np.arctan2(best.w[1], best.w[0]) + np.radians(np.linspace(-90, 90, 36_001))
    U = np.column_stack([np.cos(phi), np.sin(phi)])
    m = np.min((U @ X.T) * y, axis=1)
    for g, width in zip((0.5 * best.gamma, 0.9 * best.gamma), widths[2:], strict=True):
        scanned = 180.0 / 36_000 * np.count_nonzero(m >= round(g, 4))
        assert width == pytest.approx(scanned, abs=0.02)
    gamma.value = gamma.max  # above the maximum margin
    assert "empty" in demo.status.value
    assert not any(p.get_visible() for ax in demo.figure.axes for p in ax.patches)


def test_family_chosen_separator_margin() -> None:
    X, y, best = _family_data()
    demo = build_margin_family()
    phi_star = np.arctan2(best.w[1], best.w[0])
    for turn in (-120.0, -10.0, 0.0, 30.0, 180.0):
        demo.controls["angle"].value = turn
        u = np.array([np.cos(phi_star + np.radians(turn)), np.sin(phi_star + np.radians(turn))])
        expected = margin(u, X, y)
        marker = demo.figure.axes[1].lines[-1]
        assert marker.get_ydata()[0] == pytest.approx(expected, abs=1e-12)
        assert f"margin {expected:+.3f}" in demo.status.value
    demo.controls["angle"].value = 0.0
    demo.controls["gamma"].value = round(0.99 * best.gamma, 4)
    assert "<b>in</b>" in demo.status.value


def test_training_widget_follows_the_runs() -> None:
    demo = build_margin_training()
    d = teacher_data(20, 2, margin=0.1, rng=5)
    best = max_margin(d.X, d.y)
    demo.controls["step"].value = 0
    for name in ("perceptron", "margin perceptron", "MinOver", "AdaTron"):
        demo.controls["algorithm"].value = name
        assert "undefined (w = 0)" in demo.status.value  # every run starts at w = 0
    demo.controls["algorithm"].value = "AdaTron"
    demo.controls["step"].value = demo.controls["step"].max
    shown = float(demo.status.value.split("margin ")[1].split(",")[0])
    assert shown == pytest.approx(best.gamma, abs=1e-3)
    demo.controls["algorithm"].value = "perceptron"
    assert "run finished" in demo.status.value
    shown = float(demo.status.value.split("margin ")[1].split(",")[0])
    assert 0 < shown < best.gamma


# ---------------------------------------------------------------------------
# The static figures of lesson 6 (perclib.plotting.margins)
# ---------------------------------------------------------------------------


def _ringed(ax) -> np.ndarray:
    """Offsets of the hollow rings (support or closest patterns) on an axes."""
    from perclib.plotting import HIGHLIGHT_COLOR

    hits = [c.get_offsets() for c in ax.collections
            if len(c.get_facecolors()) == 0 and len(c.get_edgecolors())
            and np.allclose(c.get_edgecolors()[0][:3], _rgb(HIGHLIGHT_COLOR))]
    return np.vstack(hits) if hits else np.empty((0, 2))


def _rgb(colour: str) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    return to_rgb(colour)


def test_distances_figure_rings_the_closest_pattern() -> None:
    from perclib.plotting.margins import plot_distances

    X, y, _ = _family_data()
    w = np.array([1.0, 0.3])
    if margin(w, X, y) <= 0:
        w = max_margin(X, y).w + np.array([0.05, 0.0])
    fig = plot_distances(X, y, w)
    closest = X[np.argmin(y * (X @ w) / np.linalg.norm(w))]
    np.testing.assert_allclose(_ringed(fig.axes[0]), [closest])
    with pytest.raises(ValueError, match="non-zero"):
        plot_distances(X, y, [0.0, 0.0])
    with pytest.raises(ValueError, match="plane"):
        plot_distances(np.ones((3, 3)), [1, 1, -1], [1.0, 0.0, 0.0])


def test_max_margin_figure_rings_the_support_patterns() -> None:
    from perclib import direction_margins
    from perclib.plotting.margins import plot_max_margin

    X, y, best = _family_data()
    phis = np.linspace(-np.pi, np.pi, 721)
    fig = plot_max_margin(X, y, best.w, phis, direction_margins(X, y, phis))
    ringed = _ringed(fig.axes[0])
    np.testing.assert_allclose(np.sort(ringed, axis=0), np.sort(X[best.support], axis=0))
    with pytest.raises(ValueError, match="separate"):
        plot_max_margin(X, y, -best.w, phis, direction_margins(X, y, phis))
    with pytest.raises(ValueError, match="one length"):
        plot_max_margin(X, y, best.w, phis, phis[:-1])


def test_adatron_figure_has_one_point_per_sweep() -> None:
    from perclib import adatron, minover
    from perclib.plotting.margins import plot_adatron_sweeps

    X, y, best = _family_data()
    run = adatron(X, y)
    fig = plot_adatron_sweeps(run, best.gamma)
    below = fig.axes[0].lines[0].get_ydata()
    assert len(below) == run.iterations
    assert below[-1] <= 1e-8                      # the run stops within tol of the optimum
    with pytest.raises(ValueError, match="AdaTron"):
        plot_adatron_sweeps(minover(X, y, max_steps=10), best.gamma)


def test_count_figure_starts_at_every_labelling() -> None:
    from perclib.plotting.margins import plot_margin_counts

    fig = plot_margin_counts([0.05, 0.05, 0.2, 0.2], 4)
    counts = fig.axes[0].lines[0].get_ydata()
    assert counts[0] == 4 and counts[-1] == 0 and np.all(np.diff(counts) <= 0)
