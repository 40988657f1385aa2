"""Lesson 2 widget helpers: names, truth tables, strict scores, best lines, the shaded half-plane."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from perclib.widgets.separability import (
    TWO_INPUT_NAMES,
    best_line_scores,
    build_boolean_separator,
    count_strictly_correct,
    function_label,
    halfplane_polygon,
    truth_table,
    unit_weights,
)

# Each name, written as a Python expression on 0/1 inputs: an independent truth table.
NAME_LOGIC = {
    "FALSE": lambda a, b: 0,
    "NOR": lambda a, b: int(not (a or b)),
    "NOT x1 AND x2": lambda a, b: int((not a) and b),
    "NOT x1": lambda a, b: int(not a),
    "x1 AND NOT x2": lambda a, b: int(a and not b),
    "NOT x2": lambda a, b: int(not b),
    "XOR": lambda a, b: a ^ b,
    "NAND": lambda a, b: int(not (a and b)),
    "AND": lambda a, b: a & b,
    "XNOR": lambda a, b: 1 - (a ^ b),
    "x2": lambda a, b: b,
    "x1 IMPLIES x2": lambda a, b: int((not a) or b),
    "x1": lambda a, b: a,
    "x2 IMPLIES x1": lambda a, b: int(a or not b),
    "OR": lambda a, b: a | b,
    "TRUE": lambda a, b: 1,
}


def shoelace_area(corners: np.ndarray) -> float:
    if len(corners) < 3:
        return 0.0
    x, y = corners[:, 0], corners[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def test_names_match_their_truth_tables() -> None:
    assert sorted(TWO_INPUT_NAMES) == list(range(16))
    corners = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for k, name in TWO_INPUT_NAMES.items():
        expected = "".join(str(NAME_LOGIC[name](a, b)) for a, b in corners)
        assert truth_table(k) == expected, name


def test_truth_table_and_label() -> None:
    assert truth_table(6) == "0110"
    assert truth_table(1, n=1) == "10"
    assert truth_table(0b10000000, n=3) == "00000001"  # AND of three inputs
    assert function_label(9) == " 9  XNOR  (1001)"
    with pytest.raises(ValueError):
        truth_table(16)


def test_count_strictly_correct_counts_points_on_the_line_as_wrong() -> None:
    X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    y = [-1, -1, -1, 1]  # AND
    assert count_strictly_correct(X, y, [1, 1], 1.5) == 4
    assert count_strictly_correct(X, y, [1, 1], 2.0) == 3  # (1,1) on the line
    assert count_strictly_correct(X, y, [1, 1], 1.0) == 2  # (0,1), (1,0) on the line
    assert count_strictly_correct(X, y, [-1, -1], -1.5) == 0
    with pytest.raises(ValueError):
        count_strictly_correct(X, [1, -1], [1, 1], 0.0)
    with pytest.raises(ValueError):
        count_strictly_correct(X, y, [1, 1, 1], 0.0)


def test_best_line_scores_two_inputs() -> None:
    # Only XOR (6) and XNOR (9) are not separable; flipping one output of either
    # leaves one or three ones, which a single corner cut separates.
    expected = [4] * 16
    expected[6] = expected[9] = 3
    assert best_line_scores(2).tolist() == expected


def test_best_line_scores_three_inputs_counts_the_threshold_functions() -> None:
    scores = best_line_scores(3)
    # 104 threshold functions of three variables (Muroga's table), 256 functions in all.
    assert scores.shape == (256,)
    assert int(np.count_nonzero(scores == 8)) == 104
    # Parity of three inputs (k = 0b10010110) is XOR or XNOR on each of the 6 faces, so
    # every face holds an error; 2 errors can cover the 6 faces only if antipodal, so
    # no line gets 7. Flipping 001 and 110 gives a separable function (witness below): 6.
    parity = np.array([bin(i).count("1") % 2 for i in range(8)])
    repaired = parity.copy()
    repaired[[0b001, 0b110]] ^= 1
    cube = np.array(list(itertools.product((0.0, 1.0), repeat=3)))
    assert np.all((2 * repaired - 1) * (cube @ [1.0, 1.0, -1.0] - 0.5) > 0)
    assert scores[0b10010110] == 6


def test_best_line_scores_bad_n() -> None:
    for n in (0, 4):
        with pytest.raises(ValueError):
            best_line_scores(n)
    with pytest.raises(TypeError):
        best_line_scores(2.0)


@pytest.mark.parametrize(
    ("w", "theta", "area"),
    [
        ([1.0, 0.0], 0.0, 2.0),
        ([0.0, -1.0], 0.5, 1.0),  # x2 < -0.5
        ([1.0, 1.0], 0.0, 2.0),
        ([1.0, 1.0], 1.0, 0.5),  # triangle x + y > 1 in the corner
        ([1.0, 1.0], 5.0, 0.0),
        ([1.0, 1.0], -5.0, 4.0),
        ([0.0, 0.0], 0.0, 0.0),
    ],
)
def test_halfplane_polygon_area(w, theta, area) -> None:
    corners = halfplane_polygon(w, theta, (-1, 1, -1, 1))
    assert corners.ndim == 2 and corners.shape[1] == 2
    assert shoelace_area(corners) == pytest.approx(area)
    if len(corners):
        assert np.all(corners @ np.asarray(w) - theta >= -1e-12)


def test_unit_weights() -> None:
    for angle in range(-180, 181, 15):
        w = unit_weights(angle)
        assert np.linalg.norm(w) == pytest.approx(1.0)
        assert np.arctan2(w[1], w[0]) == pytest.approx(np.deg2rad(angle), abs=1e-9) or abs(angle) == 180
    assert unit_weights(90).tolist() == [0.0, 1.0]
    assert unit_weights(-90).tolist() == [0.0, -1.0]


def test_widget_status_and_rings() -> None:
    demo = build_boolean_separator(8, angle=45, theta=1.0)  # AND, separated
    assert "<b>4 of 4</b>" in demo.status.value and "LP: <b>separable" in demo.status.value
    demo.controls["function"].value = 6  # XOR with the same line
    assert "not separable" in demo.status.value and "more than 3 of 4" in demo.status.value
    demo.controls["angle"].value = 0.0
    demo.controls["theta"].value = 1.0  # the line x1 = 1 passes through (1,0) and (1,1)
    assert "<b>1 of 4</b>" in demo.status.value
    # Every control value the frontend can send gives a score that agrees with a direct count.
    X = np.array(list(itertools.product((0.0, 1.0), repeat=2)))
    for k, angle, theta in itertools.product((0, 6, 11), (-90.0, 135.0), (-1.5, 0.5)):
        demo.controls["function"].value = k
        demo.controls["angle"].value = angle
        demo.controls["theta"].value = theta
        y = 2.0 * np.array([int(c) for c in truth_table(k)]) - 1.0
        score = count_strictly_correct(X, y, unit_weights(angle), theta)
        assert f"<b>{score} of 4</b>" in demo.status.value


def test_widget_bad_function() -> None:
    with pytest.raises(ValueError):
        build_boolean_separator(16)


# --- perclib.plotting.separability: the lesson's two static figures -------------------

from matplotlib.lines import Line2D  # noqa: E402

from perclib.data import boolean_cube  # noqa: E402
from perclib.plotting import BOUNDARY_COLOR  # noqa: E402
from perclib.plotting.separability import (  # noqa: E402
    _SHORT_NAMES,
    plot_feature_boundary,
    plot_two_input_functions,
)


def test_short_panel_names_agree_with_the_widget_names() -> None:
    for k, name in _SHORT_NAMES.items():
        assert TWO_INPUT_NAMES[k] == name


def test_panels_draw_a_strict_separator_exactly_for_separable_functions() -> None:
    cube = boolean_cube(2)
    fig = plot_two_input_functions((8, 14, 6, 9))
    for k, ax in zip((8, 14, 6, 9), fig.axes, strict=True):
        truth = np.array([NAME_LOGIC[TWO_INPUT_NAMES[k]](int(a), int(b)) for a, b in cube])
        labels = 2 * truth - 1
        solid = [ln for ln in ax.get_lines()
                 if ln.get_linestyle() == "-" and ln.get_color() == BOUNDARY_COLOR]
        if k in (6, 9):
            assert not solid and "(no line)" in ax.get_title()
            continue
        (line,) = solid
        (p, q) = np.asarray(line.get_xydata(), dtype=float)
        # side of each corner relative to the drawn segment p -> q (2-D cross product)
        side = (q[0] - p[0]) * (cube[:, 1] - p[1]) - (q[1] - p[1]) * (cube[:, 0] - p[0])
        assert np.all(side != 0), f"{k}: a corner lies on the drawn line"
        assert len(set(np.sign(side) * labels)) == 1, f"{k}: the drawn line does not separate"


def test_crossing_segments_are_drawn_for_xor() -> None:
    fig = plot_two_input_functions((6,))
    dashed = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "--"]
    ends = sorted(tuple(map(tuple, np.asarray(ln.get_xydata()))) for ln in dashed)
    assert ends == [((0.0, 0.0), (1.0, 1.0)), ((0.0, 1.0), (1.0, 0.0))]


@pytest.mark.parametrize("functions", [(), (1, 2, 3, 4, 5), (16,), (-1,)])
def test_panels_reject_bad_function_numbers(functions) -> None:
    with pytest.raises(ValueError, match="functions"):
        plot_two_input_functions(functions)


def test_feature_boundary_is_drawn_where_the_unit_changes_sign() -> None:
    w, theta = np.array([2.0, 2.0, -5.0]), 1.0
    fig = plot_feature_boundary(w, theta, boolean_cube(2), [-1, 1, 1, -1], title="t")
    (ax,) = fig.axes
    assert ax.get_title() == "t"
    contour_sets = [c for c in ax.collections if hasattr(c, "get_paths")]
    vertices = np.vstack([p.vertices for c in contour_sets for p in c.get_paths() if len(p.vertices)])
    h = w[0] * vertices[:, 0] + w[1] * vertices[:, 1] + w[2] * vertices[:, 0] * vertices[:, 1] - theta
    assert np.isclose(h, 0, atol=0.05).any(), "no boundary vertex on the conic"
    assert not any(isinstance(a, Line2D) and a.get_linestyle() == "--" for a in ax.get_lines())


@pytest.mark.parametrize(
    ("w", "X", "match"),
    [([1.0, 2.0], [[0, 0]], "w"), ([1.0, np.nan, 0.0], [[0, 0]], "w"), ([1.0, 1.0, 1.0], [0, 0], "X")],
)
def test_feature_boundary_rejects_bad_input(w, X, match) -> None:
    with pytest.raises(ValueError, match=match):
        plot_feature_boundary(w, 0.0, X, [1])


def test_constant_functions_get_no_line_inside_the_square() -> None:
    fig = plot_two_input_functions((0, 15))
    for ax in fig.axes:
        assert "(line outside)" in ax.get_title()
        assert not [ln for ln in ax.get_lines() if ln.get_color() == BOUNDARY_COLOR]
