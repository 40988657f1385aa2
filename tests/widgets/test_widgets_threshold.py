"""Lesson 1 widgets: geometry helpers, status line, and both demos driven like a browser."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure

from perclib.widgets.threshold import (
    DEMOS,
    BiasTrickArtists,
    build_bias_trick_demo,
    build_threshold_demo,
    default_unit_data,
    halfplane_polygon,
    plane_box_polygon,
    segment_in_box,
    threshold_status,
    weights_from_angle,
)


def shoelace(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


# ----------------------------------------------------------------------------- helpers


@pytest.mark.parametrize(
    ("angle", "norm", "expected"),
    [(0.0, 1.0, [1.0, 0.0]), (90.0, 2.0, [0.0, 2.0]), (180.0, 0.5, [-0.5, 0.0]),
     (-45.0, np.sqrt(2.0), [1.0, -1.0]), (33.0, 0.0, [0.0, 0.0])],
)
def test_weights_from_angle(angle: float, norm: float, expected: list[float]) -> None:
    np.testing.assert_allclose(weights_from_angle(angle, norm), expected, atol=1e-12)


def test_weights_from_angle_rejects_bad_values() -> None:
    with pytest.raises(ValueError):
        weights_from_angle(10.0, -1.0)
    with pytest.raises(ValueError):
        weights_from_angle(np.nan)


@pytest.mark.parametrize(
    ("w", "theta", "area"),
    [
        ([1.0, 0.0], 0.0, 2.0),  # right half of [-1, 1]^2
        ([-1.0, 0.0], 0.0, 2.0),  # left half
        ([0.0, 1.0], 0.5, 0.5 * 2.0),  # strip y > 0.5
        ([1.0, 1.0], 1.0, 0.5 * 1.0 * 1.0),  # the corner triangle above x + y = 1
        ([1.0, 1.0], 0.0, 2.0),  # diagonal through two corners
        ([1.0, 0.0], 5.0, 0.0),  # line outside the box: nothing fires
        ([1.0, 0.0], -5.0, 4.0),  # line outside on the other side: everything fires
        ([0.0, 0.0], -1.0, 4.0),  # w = 0, -theta > 0: constant +1
        ([0.0, 0.0], 0.0, 0.0),  # w = 0, theta = 0: sign(0) = -1 everywhere
        ([0.0, 0.0], 1.0, 0.0),
    ],
)
def test_halfplane_polygon_area(w: list[float], theta: float, area: float) -> None:
    poly = halfplane_polygon(w, theta, (-1, 1, -1, 1))
    assert poly.shape[1] == 2
    got = shoelace(poly) if len(poly) else 0.0
    assert got == pytest.approx(area, abs=1e-12)


def test_halfplane_polygon_matches_a_point_count() -> None:
    # Independent estimate: fraction of a fine grid where w.x - theta > 0.
    rng = np.random.default_rng(5)
    limits = (-2.0, 3.0, -1.0, 1.5)
    g = np.stack(np.meshgrid(np.linspace(-2, 3, 501), np.linspace(-1, 1.5, 251)), axis=-1).reshape(-1, 2)
    for _ in range(20):
        w, theta = rng.normal(size=2), rng.normal()
        poly = halfplane_polygon(w, theta, limits)
        area = shoelace(poly) if len(poly) else 0.0
        frac = np.mean(g @ w - theta > 0)
        assert area == pytest.approx(frac * 5.0 * 2.5, abs=0.06)
        # Every vertex is in the box and on the firing side (or on the line).
        if len(poly):
            assert np.all(poly @ w - theta >= -1e-9)
            assert np.all((poly[:, 0] >= -2 - 1e-12) & (poly[:, 0] <= 3 + 1e-12))


def test_segment_in_box() -> None:
    np.testing.assert_allclose(segment_in_box([0.0, 1.0], 0.5, (-1, 1, -1, 1)), [[-1, 0.5], [1, 0.5]])
    np.testing.assert_allclose(segment_in_box([1.0, 1.0], 0.0, (-1, 1, -1, 1)), [[-1, 1], [1, -1]])
    assert np.all(np.isnan(segment_in_box([1.0, 0.0], 3.0, (-1, 1, -1, 1))))
    assert np.all(np.isnan(segment_in_box([0.0, 0.0], 0.0, (-1, 1, -1, 1))))
    rng = np.random.default_rng(2)
    for _ in range(30):
        w, theta = rng.normal(size=2), 0.5 * rng.normal()
        seg = segment_in_box(w, theta, (-2, 2, -2, 2))
        if np.isnan(seg).any():
            continue
        np.testing.assert_allclose(seg @ w, theta, atol=1e-12)  # both ends on the line
        on_edge = np.isclose(np.abs(seg), 2.0).any(axis=1)  # both ends on the box boundary
        assert on_edge.all()


def test_segment_rejects_bad_limits() -> None:
    with pytest.raises(ValueError, match="limits"):
        segment_in_box([1.0, 0.0], 0.0, (1, -1, 0, 1))
    with pytest.raises(ValueError):
        halfplane_polygon([1.0, 0.0, 0.0], 0.0)


def test_plane_box_polygon() -> None:
    square = plane_box_polygon([0.0, 0.0, 1.0], (-1, 1, -2, 2, -1, 1))
    assert square.shape == (4, 3)
    assert np.allclose(square[:, 2], 0.0)
    assert shoelace(square[:, :2]) == pytest.approx(2.0 * 4.0)
    # A box that does not contain the plane gives nothing; so does a zero normal.
    assert plane_box_polygon([0.0, 0.0, 1.0], (-1, 1, -1, 1, 1, 2)).shape == (0, 3)
    assert plane_box_polygon([0.0, 0.0, 0.0], (-1, 1, -1, 1, -1, 1)).shape == (0, 3)
    # The plane x + y + z = 0 through the unit cube's centre is a regular hexagon of side sqrt(2).
    hexagon = plane_box_polygon([1.0, 1.0, 1.0], (-1, 1, -1, 1, -1, 1))
    assert hexagon.shape == (6, 3)
    sides = np.linalg.norm(hexagon - np.roll(hexagon, 1, axis=0), axis=1)
    np.testing.assert_allclose(sides, np.sqrt(2.0))
    with pytest.raises(ValueError, match="box"):
        plane_box_polygon([1.0, 0.0, 0.0], (1, -1, 0, 1, 0, 1))


def test_plane_box_polygon_is_convex_and_on_the_plane() -> None:
    rng = np.random.default_rng(3)
    box = (-2, 2, -2, 2, -1, 1.5)
    for _ in range(25):
        n = rng.normal(size=3)
        poly = plane_box_polygon(n, box)
        assert 3 <= len(poly) <= 6
        np.testing.assert_allclose(poly @ n, 0.0, atol=1e-9)
        # Consecutive edge cross products all point the same way: a convex, ordered polygon.
        edges = np.roll(poly, -1, axis=0) - poly
        turns = np.cross(edges, np.roll(edges, -1, axis=0)) @ n
        assert np.all(turns > 0) or np.all(turns < 0)


def test_threshold_status_text() -> None:
    text = threshold_status([1, 1, -1, -1], [3.0, 4.0], 2.5, target=[1, -1, -1, -1])
    assert "distance θ/‖w‖ = 0.500" in text  # 2.5 / 5
    assert "fires (+1) on <b>2</b> of 4 points" in text
    assert "disagrees with the target on <b>1</b>" in text
    assert "every point" in threshold_status([1, -1], [1.0, 0.0], 0.0, target=[1, -1])
    assert "no decision line" in threshold_status([-1, -1], [0.0, 0.0], 1.0)


def test_default_data_is_realisable_by_the_sliders() -> None:
    X, y = default_unit_data()
    assert X.shape == (24, 2)
    # The hidden unit: w at 60 degrees, theta = 0.5, sign(0) = -1.
    w = np.array([0.5, np.sqrt(3) / 2])
    assert np.array_equal(y, np.where(X @ w - 0.5 > 0, 1.0, -1.0))
    assert 0 < np.sum(y > 0) < 24
    # Within radius 2.3, so that theta = +-3 with ||w|| = 1 puts every point on one side.
    assert np.linalg.norm(X, axis=1).max() <= 2.3 + 1e-12
    demo = build_threshold_demo()
    for angle in (-180.0, -45.0, 0.0, 137.0):
        demo.controls["angle"].value = angle
        demo.controls["theta"].value = 3.0
        assert "fires (+1) on <b>0</b> of 24" in demo.status.value
        demo.controls["theta"].value = -3.0
        assert "fires (+1) on <b>24</b> of 24" in demo.status.value


# ----------------------------------------------------------------------------- demos


def test_threshold_demo_counts_and_rings() -> None:
    X = np.array([[1.0, 0.0], [-1.0, 0.5], [0.5, 0.5], [0.0, -1.0]])
    target = np.array([1, 1, -1, -1])
    demo = build_threshold_demo(X, target, angle=0.0, theta=0.0)
    # w = (1, 0), theta = 0: fires where x1 > 0 (the point with x1 = 0 gives sign(0) = -1).
    assert "fires (+1) on <b>2</b> of 4" in demo.status.value
    rings = demo.figure.axes[0].collections[-1].get_offsets()
    np.testing.assert_allclose(np.asarray(rings), [[-1.0, 0.5], [0.5, 0.5]])
    demo.controls["theta"].value = 0.75  # now only (1, 0) fires
    assert "fires (+1) on <b>1</b> of 4" in demo.status.value
    demo.controls["angle"].value = 90.0
    demo.controls["theta"].value = 0.25  # w = (0, 1): fires where x2 > 0.25
    assert "fires (+1) on <b>2</b> of 4" in demo.status.value
    assert "distance θ/‖w‖ = 0.250" in demo.status.value


def test_threshold_demo_degenerate_values() -> None:
    demo = build_threshold_demo()
    demo.controls["norm"].value = 0.0
    demo.controls["theta"].value = -1.0  # w = 0 and -theta > 0: every point fires
    assert "fires (+1) on <b>24</b> of 24" in demo.status.value
    assert "no decision line" in demo.status.value
    demo.controls["theta"].value = 0.0  # w = 0, theta = 0: sign(0) = -1 everywhere
    assert "fires (+1) on <b>0</b> of 24" in demo.status.value
    demo.controls["norm"].value = 0.05
    demo.controls["theta"].value = 3.0  # line far outside the view
    assert "fires (+1) on <b>0</b> of 24" in demo.status.value
    assert demo.image.value[:4] == b"\x89PNG"


def test_threshold_demo_without_target_has_no_rings_text() -> None:
    demo = build_threshold_demo(np.array([[0.0, 1.0], [0.0, -1.0]]))
    assert "target" not in demo.status.value


def test_threshold_demo_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="2-D patterns"):
        build_threshold_demo(np.ones((3, 3)))
    with pytest.raises(ValueError, match="target"):
        build_threshold_demo(np.ones((3, 2)), [1, -1])
    with pytest.raises(ValueError, match="target"):
        build_threshold_demo(np.ones((2, 2)), [0, 1])


def test_bias_trick_artists_geometry() -> None:
    ax = Figure().add_subplot(projection="3d")
    X = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 2.0]])
    arts = BiasTrickArtists(ax, X, (-2, 2, -2, 2))
    out = arts.update([1.0, 0.0], 0.5)  # fires where x1 > 0.5
    assert out.tolist() == [1, -1, -1]
    xs, ys, zs = arts.pos.get_data_3d()
    assert list(xs) == [1.0] and list(zs) == [1.0]
    # The trace on z = 1 is the line x1 = 0.5; the normal points along (1, 0, -0.5).
    tx, ty, tz = arts.trace.get_data_3d()
    np.testing.assert_allclose(tx, 0.5)
    np.testing.assert_allclose(tz, 1.0)
    nx, ny, nz = arts.normal.get_data_3d()
    np.testing.assert_allclose([nx[1], ny[1], nz[1]], np.array([1.0, 0.0, -0.5]) / np.sqrt(1.25))
    with pytest.raises(ValueError, match="2-D patterns"):
        BiasTrickArtists(ax, np.ones((2, 3)))


def test_bias_trick_demo_runs_through_degenerate_values() -> None:
    demo = build_bias_trick_demo()
    for theta in (0.0, 2.0, -2.0):  # vertical plane; line outside the view on either side
        demo.controls["theta"].value = theta
    demo.controls["angle"].value = 90.0
    assert "ŵ = (w, −θ) = (0.00, 1.00, 2.00)" in demo.status.value


def test_demos_are_registered() -> None:
    assert set(DEMOS) == {"threshold_unit", "bias_trick"}


def test_legend_html_key() -> None:
    from perclib.plotting import NEGATIVE_COLOR, POSITIVE_COLOR
    from perclib.widgets.threshold import legend_html

    key = legend_html()
    assert POSITIVE_COLOR in key and NEGATIVE_COLOR in key and "disagrees with the target" in key
    assert "target" not in legend_html(with_target=False)


def test_threshold_frame_text_keeps_key_and_status_apart() -> None:
    """The static frame's one-line text must not read the key into the status (issue 21)."""
    from perclib.widgets.base import _plain_text

    demo = build_threshold_demo()
    text = _plain_text(demo.status.value)
    assert "disagrees with the target Your unit: w = (" in text


def test_plot_glyphs_titles_show_the_activation_and_output() -> None:
    from perclib.plotting.threshold import plot_glyphs

    eye = np.eye(3)
    fig = plot_glyphs({"diag": eye, "blank": np.zeros((3, 3))}, 2 * eye.ravel() - 1, 2.5)
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["diag\nw.x = +3, f = +1", "blank\nw.x = +0, f = -1"]
    with pytest.raises(ValueError, match="one shape"):
        plot_glyphs({"a": eye, "b": np.zeros((2, 2))}, np.ones(9), 0.0)
    with pytest.raises(TypeError, match="mapping"):
        plot_glyphs([eye], np.ones(9), 0.0)
    with pytest.raises(ValueError):
        plot_glyphs({"a": eye}, np.ones(4), 0.0)


def test_plot_threshold_shifts_draws_parallel_lines_at_their_distances() -> None:
    from perclib.plotting.threshold import plot_threshold_shifts

    w = np.array([0.6, 0.8])
    fig = plot_threshold_shifts(w, [-1.0, 0.0, 2.0])
    lines = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("$\\theta")]
    assert len(lines) == 3
    for line, theta in zip(lines, [-1.0, 0.0, 2.0], strict=True):
        xy = np.column_stack(line.get_data())
        assert np.allclose(xy @ w, theta)  # each line is w.x = theta
    with pytest.raises(ValueError, match="thresholds"):
        plot_threshold_shifts(w, [])
    with pytest.raises(ValueError):
        plot_threshold_shifts([1.0, 0.0, 0.0], [0.0])


def test_plot_reflection_puts_every_reflected_pattern_on_the_positive_side() -> None:
    from perclib import teacher_data
    from perclib.plotting.threshold import plot_reflection

    data = teacher_data(15, 2, margin=0.2, rng=4)
    fig = plot_reflection(data.X, data.y, data.teacher)
    right = fig.axes[1]
    reflected = np.vstack([c.get_offsets() for c in right.collections[:2] if len(c.get_offsets())])
    assert len(reflected) == 15 and np.all(reflected @ data.teacher > 0)
    with pytest.raises(ValueError, match="2 columns"):
        plot_reflection(np.ones((3, 3)), [1, 1, -1], [1.0, 0.0, 0.0])
    with pytest.raises(ValueError):
        plot_reflection(data.X, np.zeros(15), data.teacher)
