"""Tests for the lesson 5 widgets, driven from Python as the kernel drives them."""

from __future__ import annotations

import numpy as np
import pytest

from perclib import perceptron, teacher_data
from perclib.widgets import build_margin_explorer, build_training_stepper
from perclib.widgets.convergence import DEMOS, margin_sweep, stepper_data


def _on_line(line, w):
    """Both drawn points of ``line`` satisfy ``w.x = 0`` (up to rounding)."""
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    return np.allclose(pts @ np.asarray(w), 0.0, atol=1e-9 * np.linalg.norm(w) * np.abs(pts).max())


def test_registered():
    assert set(DEMOS) == {"training_stepper", "margin_explorer"}


def test_stepper_default_data_and_range():
    X, y, u = stepper_data()
    run = perceptron(X, y)
    demo = build_training_stepper()
    assert demo.controls["k"].min == 0
    assert demo.controls["k"].max == run.n_updates == 19


def test_stepper_moves_line_ring_and_cursor():
    # Two patterns: e_1 then e_2, both +1 -> updates on pattern 0 then 1; w_1 = e_1, w_2 = (1, 1).
    X = np.array([[1.0, 0.0], [0.0, 1.0]])
    demo = build_training_stepper(X, [1, 1], [1.0, 1.0], start=0)
    ax, bx = demo.figure.axes
    (line,) = [ln for ln in ax.lines if ln.get_label().startswith("$w_k \\cdot")]
    ring = ax.collections[2]  # after the two pattern collections
    u_arrow, before, step, arrow = ax.texts  # u, w_{k-1}, the correction y x, w_k
    assert demo.controls["k"].max == 2
    assert u_arrow.get_visible() and not before.get_visible() and not step.get_visible()

    assert ring.get_offsets().shape[0] == 0 and not arrow.get_visible()
    assert "undefined" in demo.status.value

    demo.controls["k"].value = 1
    assert _on_line(line, [1.0, 0.0]) and not _on_line(line, [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(ring.get_offsets()), [[1.0, 0.0]])
    assert arrow.get_visible()
    cursor = bx.lines[4]
    assert list(cursor.get_xdata()) == [1, 1]

    # w_0 = 0: no w_{k-1} arrow; the correction y x = e_1 runs from the origin to w_1.
    assert not before.get_visible() and step.get_visible()
    np.testing.assert_array_equal([step.xyann, step.xy], [[0.0, 0.0], [1.0, 0.0]])
    assert "angle to u: undefined &rarr; 45.0&deg;" in demo.status.value

    demo.controls["k"].value = 2
    assert _on_line(line, [1.0, 1.0])
    np.testing.assert_array_equal(np.asarray(ring.get_offsets()), [[0.0, 1.0]])
    # The step triangle: w_1 = e_1, then y x = e_2 from its tip, w_2 = (1, 1).
    np.testing.assert_array_equal([before.xyann, before.xy], [[0.0, 0.0], [1.0, 0.0]])
    np.testing.assert_array_equal([step.xyann, step.xy], [[1.0, 0.0], [1.0, 1.0]])
    np.testing.assert_array_equal([arrow.xyann, arrow.xy], [[0.0, 0.0], [1.0, 1.0]])
    assert "angle to u: 45.0&deg; &rarr; 0.0&deg;" in demo.status.value
    # Tight example: cos = 1 at the end, and the status says so.
    assert "cos angle(u, w<sub>k</sub>) = 1.000" in demo.status.value


def test_stepper_rejects_bad_input():
    with pytest.raises(ValueError, match="2 columns"):
        build_training_stepper(np.eye(3), np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="give X, y and u"):
        build_training_stepper(y=[1, 1])
    with pytest.raises(ValueError, match="labels y and a separator u"):
        build_training_stepper(np.eye(2))
    with pytest.raises(ValueError, match="does not separate"):
        build_training_stepper(np.eye(2), [1, 1], [1.0, -1.0])
    with pytest.raises(ValueError, match="did not converge"):
        build_training_stepper([[1.0, 0.0], [-1.0, 0.0]], [1, 1], [1.0, 0.0])


def test_margin_sweep_against_independent_runs():
    margins = [0.05, 0.2, 0.5]
    s = margin_sweep(margins, P=30, N=4, seed=3)
    u = s["teacher"]
    assert np.isclose(np.linalg.norm(u), 1.0)
    for j, m in enumerate(margins):
        d = teacher_data(30, 4, margin=m, teacher=u, rng=3)
        np.testing.assert_array_equal(s["X"][j], d.X)
        assert s["mistakes"][j] == perceptron(d.X, d.y, max_epochs=100_000).n_updates
        R = np.max(np.linalg.norm(d.X, axis=1))
        assert np.isclose(s["R"][j], R)
        assert np.isclose(s["bound"][j], R**2 / m**2)
        # The teacher's margin is exactly m on every version of the cloud.
        assert np.isclose(np.min(s["y"][j] * (s["X"][j] @ u)), m)
    # Only the margin changes: the clouds differ along the teacher direction only.
    diff = s["X"][2] - s["X"][0]
    np.testing.assert_allclose(diff - np.outer(diff @ u, u), 0.0, atol=1e-12)
    assert np.all(s["mistakes"] <= s["bound"])


@pytest.mark.parametrize("bad", [[], [0.0, 0.1], [np.nan], [[0.1]]])
def test_margin_sweep_rejects_bad_margins(bad):
    with pytest.raises(ValueError):
        margin_sweep(bad)


def test_margin_explorer_snaps_and_reports():
    demo = build_margin_explorer(P=30, N=3, seed=1)
    s = margin_sweep(np.round(np.arange(0.02, 0.6001, 0.02), 2), P=30, N=3, seed=1)
    j = 14  # margin 0.30
    demo.controls["margin"].value = 0.31  # off the grid: snaps to 0.30
    assert "margin &gamma; = 0.30" in demo.status.value
    assert f"made {s['mistakes'][j]:.0f} mistake(s)" in demo.status.value
    assert f"= {s['bound'][j]:.1f}" in demo.status.value
    ax = demo.figure.axes[0]
    pos = np.asarray(ax.collections[0].get_offsets())
    # Horizontal coordinate is u.x: every +1 pattern sits at least the margin to the right.
    assert pos[:, 0].min() >= 0.30 - 1e-9


def test_margin_explorer_rejects_one_dimension():
    with pytest.raises(ValueError):
        build_margin_explorer(N=1)


def test_blit_figure_background_is_drawn_once():
    demo = build_training_stepper()
    background = demo._background
    demo.controls["k"].value = 3
    demo.controls["k"].value = 5
    assert demo._background is background
    assert demo.n_redraws == 3


def test_stepper_starts_on_a_real_step():
    # The static export (handouts) shows the first frame: it must not be the empty w_0 = 0.
    demo = build_training_stepper()
    assert demo.controls["k"].value == 9 > 0
    assert "update 9 was caused by pattern" in demo.status.value
    with pytest.raises(ValueError, match="start"):
        build_training_stepper(np.eye(2), [1, 1], [1.0, 1.0], start=3)


def test_learning_steps_figure_angles_by_hand():
    from perclib.widgets.convergence import learning_steps_figure

    # e_1 then e_2, both +1, u = (1, 1)/sqrt 2: w_1 = e_1 (45 degrees), w_2 = (1, 1) (0 degrees).
    fig = learning_steps_figure(np.eye(2), [1, 1], [1.0, 1.0], [1, 2])
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["update 1: angle to $u$ undefined → 45.0°", "update 2: angle to $u$ 45.0° → 0.0°"]
    with pytest.raises(ValueError, match="ks"):
        learning_steps_figure(np.eye(2), [1, 1], [1.0, 1.0], [3])


def test_proof_figure_draws_the_chain_by_hand():
    from perclib import novikoff_trace
    from perclib.widgets.convergence import proof_figure

    # e_1, e_2 (+1), u = (1, 1)/sqrt 2: R = 1, gamma = 1/sqrt 2, w_1 = e_1, w_2 = (1, 1).
    run = perceptron(np.eye(2), [1, 1])
    fig = proof_figure(novikoff_trace(run, [1.0, 1.0]))
    ax, bx = fig.axes
    upper, norm, overlap, lower = (line.get_ydata() for line in ax.lines)
    np.testing.assert_allclose(upper, [0.0, 1.0, np.sqrt(2)])          # sqrt(k) R
    np.testing.assert_allclose(norm, [0.0, 1.0, np.sqrt(2)])           # ||w_k||: tight
    np.testing.assert_allclose(overlap, [0.0, 1 / np.sqrt(2), np.sqrt(2)])
    np.testing.assert_allclose(lower, [0.0, 1 / np.sqrt(2), np.sqrt(2)])  # k gamma: tight
    np.testing.assert_allclose(bx.lines[0].get_ydata(), [1 / np.sqrt(2), 1.0])  # cosines
    with pytest.raises(TypeError):
        proof_figure(run)
    with pytest.raises(ValueError, match="w_0 = 0"):
        proof_figure(novikoff_trace(perceptron(np.eye(2), [1, 1], w0=[1.0, 0.0]), [1.0, 1.0]))
