"""The proof-idea figures of lessons 5, 7 and 9 (issue 42): what they draw, their alt
text, and their errors on bad input."""

from __future__ import annotations

import numpy as np
import pytest

from perclib import perceptron
from perclib.plotting import CourseFigure
from perclib.plotting.convergence import draw_construction_phases
from perclib.plotting.nonseparable import draw_private_axes, draw_pull_back
from perclib.plotting.statmech import plot_tilted_density


def _construction(B: float, a: float):
    """Lesson 5's near-tie construction, rebuilt here: u = e_0, w_0 = -a e_0, |x|^2 = B."""
    rho = np.sqrt(B - 1.0)
    w = np.zeros(int(B + 2 * a) + 3)
    w[0] = -a
    rows, axes = [], 1
    while True:
        v = w.copy()
        v[0] = 0.0
        s = np.linalg.norm(v)
        if w[0] > rho * s:
            break
        t = min(-w[0], rho * s)
        t -= 1e-9 * max(1.0, abs(t))
        x = np.zeros_like(w)
        x[0] = 1.0
        if s > 0:
            x += (t / s) * v / s
        rest = rho**2 - (t / s if s > 0 else 0.0) ** 2
        if rest > 0:
            x[axes], axes = np.sqrt(rest), axes + 1
        rows.append(x)
        w = w + x
    return np.array(rows)[:, :axes], -a * np.eye(axes)[0]


@pytest.mark.parametrize(("B", "a"), [(5.0, 60.0), (20.0, 100.0)])
def test_construction_phases_shade_the_updates_before_the_ties(B, a):
    X, w0 = _construction(B, a)
    run = perceptron(X, np.ones(len(X)), w0=w0)
    fig = draw_construction_phases(run.weights, X[run.indices], np.eye(X.shape[1])[0])
    assert isinstance(fig, CourseFigure)
    # phase 1 lasts about a / B updates (the margin rises by B per update from -a)
    phase1 = int(repr(fig).split("the first ")[1].split(" updates")[0])
    assert abs(phase1 - a / B) <= 1, (phase1, a / B)
    assert f"run's {run.n_updates} updates" in repr(fig)
    left = fig.axes[0]
    margins = left.lines[0].get_ydata()
    assert np.all(margins[:phase1] < 0) and np.allclose(margins[phase1:], 0, atol=1e-6 * a)


def test_construction_phases_reject_a_trace_that_is_not_a_run():
    with pytest.raises(ValueError, match="one more row"):
        draw_construction_phases([[0.0, 0.0]], [[1.0, 0.0]] * 2, [1.0, 0.0])
    with pytest.raises(ValueError, match="do not match"):
        draw_construction_phases([[0.0, 0.0], [2.0, 0.0]], [[1.0, 0.0]], [1.0, 0.0])
    with pytest.raises(ValueError, match="u"):
        draw_construction_phases([[0.0, 0.0], [1.0, 0.0]], [[1.0, 0.0]], [0.0, 0.0])


def test_pull_back_marks_r_star_and_describes_itself():
    fig = draw_pull_back([[100.0, 60.0, 30.0], [5.0, 6.0, 5.0]], [100.0, 60.0, 5.0, 6.0],
                         [-40.0, -30.0, 1.0, -1.0], 0.5, 10, 2.0)
    assert "r* = 120" in repr(fig)  # 3 P R^2 / (2 delta) = 3 * 10 * 4 / 1
    right = fig.axes[1]
    worst = right.lines[1]
    r, bound = worst.get_xdata(), worst.get_ydata()
    assert np.all(bound[r < 119] > 0) and np.all(bound[r > 121] < 0)
    with pytest.raises(ValueError, match="paths"):
        draw_pull_back([], [1.0], [0.0], 0.5, 10, 2.0)
    with pytest.raises(ValueError, match="r and dr"):
        draw_pull_back([[1.0]], [1.0, 2.0], [0.0], 0.5, 10, 2.0)
    with pytest.raises(ValueError, match="delta"):
        draw_pull_back([[1.0]], [1.0], [0.0], 0.0, 10, 2.0)


def test_private_axes_lift_the_shortest_pattern_onto_the_margin_line():
    margins = np.array([1.5, 0.2, -0.3, 2.0])
    gamma, R = 1.0, 2.0
    fig = draw_private_axes(margins, gamma, R)
    D = np.sqrt(0.8**2 + 1.3**2)
    delta = np.sqrt(R * D)
    right = fig.axes[1]
    line = right.lines[0]
    xs, ys = line.get_xdata(), line.get_ydata()
    # the line through (gamma, 0) and (m_t, Delta) for the shortest pattern m_t = -0.3
    slope = (ys[1] - ys[0]) / (xs[1] - xs[0])
    assert np.isclose(ys[0] + slope * (gamma - xs[0]), 0.0)
    assert np.isclose(ys[0] + slope * (-0.3 - xs[0]), delta)
    assert "D = 1.53" in repr(fig)
    assert "no pattern falls short" in "".join(t.get_text() for t in
                                              draw_private_axes([2.0, 3.0], 1.0, 3.0).axes[1].texts)
    with pytest.raises(ValueError, match="margins"):
        draw_private_axes([], 1.0, 1.0)
    with pytest.raises(ValueError, match="gamma"):
        draw_private_axes([1.0], -1.0, 1.0)


def test_tilted_density_integrates_to_one_and_rejects_bad_overlaps():
    rng = np.random.default_rng(0)
    R = 0.6
    t = R * np.abs(rng.standard_normal(20_000)) + np.sqrt(1 - R**2) * rng.standard_normal(20_000)
    fig = plot_tilted_density(t, R)
    curve = fig.axes[0].lines[0]
    x, dens = curve.get_xdata(), curve.get_ydata()
    assert np.isclose(np.sum((dens[1:] + dens[:-1]) * np.diff(x)) / 2, 1.0, atol=1e-3)
    below = np.mean(t < 0)
    assert abs(below - np.arccos(R) / np.pi) < 0.01  # P(t < 0) is the student's error
    assert f"{100 * below:.0f} %" in repr(fig)
    for bad in (1.0, -0.1):
        with pytest.raises(ValueError, match="R must"):
            plot_tilted_density(t, bad)
    with pytest.raises(ValueError, match="t:"):
        plot_tilted_density(t[:10], R)


def _figures():
    X, w0 = _construction(5.0, 60.0)
    run = perceptron(X, np.ones(len(X)), w0=w0)
    rng = np.random.default_rng(1)
    R = 0.83
    t = R * np.abs(rng.standard_normal(50_000)) + np.sqrt(1 - R**2) * rng.standard_normal(50_000)
    r = np.geomspace(2, 5000, 200)
    return {
        "construction": draw_construction_phases(run.weights, X[run.indices], np.eye(X.shape[1])[0]),
        "pull_back": draw_pull_back([r[::-1][:50], np.full(50, 5.0)], r, -0.02 * r, 0.86, 100, 3.7),
        "private_axes": draw_private_axes(rng.standard_normal(100) + 0.5, 0.5, 3.7),
        "tilted": plot_tilted_density(t, R),
    }


@pytest.mark.parametrize("name", ["construction", "pull_back", "private_axes", "tilted"])
def test_the_figures_keep_the_course_style(name):
    """Width and fonts of the course style, and no legend over data (test_figure_style's rules)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from test_figure_style import _axes_points, _points_under

    from perclib.plotting import DISPLAY_DPI, MAX_WIDTH_PX, MIN_FONT_PX, MIN_WIDTH_PX

    fig = _figures()[name]
    assert fig.dpi == DISPLAY_DPI
    assert MIN_WIDTH_PX <= fig.get_size_inches()[0] * fig.dpi <= MAX_WIDTH_PX + 1
    FigureCanvasAgg(fig).draw()
    renderer = fig.canvas.get_renderer()
    for text in fig.findobj(lambda a: hasattr(a, "get_fontsize") and hasattr(a, "get_text")):
        if text.get_visible() and text.get_text().strip():
            assert text.get_fontsize() * fig.dpi / 72 >= MIN_FONT_PX - 1e-6, text.get_text()
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is not None:
            covered = _points_under(legend.get_window_extent(renderer), _axes_points(ax))
            assert covered == 0, f"{name}: the legend covers {covered} plotted points"
    assert len(repr(fig)) > 80 and not repr(fig).startswith("<"), "alt text missing"
