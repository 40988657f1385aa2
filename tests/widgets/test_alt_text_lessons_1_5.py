"""The descriptions (alt text) of lessons 1-5's static figures say what is drawn.

Each figure is built on small data and its description is checked against facts
computed here independently (plain loops, brute force, hand values): counts of
mistakes, outputs, triples, angles, bounds. A second input must change the sentence,
so that no description is a fixed claim. Issue 43, WCAG 1.1.1.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from perclib import extension_split, novikoff_trace, perceptron, teacher_data
from perclib.plotting.counting import draw_capacity_curves, draw_projection_3d, draw_two_way
from perclib.plotting.general_position import plot_collinear_triples
from perclib.plotting.separability import (
    plot_collinear_triple,
    plot_feature_boundary,
    plot_lifted_square,
    plot_two_input_functions,
)
from perclib.plotting.threshold import (
    plot_glyphs,
    plot_reflection,
    plot_threshold_shifts,
)
from perclib.widgets.convergence import learning_steps_figure, proof_figure

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = [
    "01_threshold_units",
    "02_xor",
    "03_general_position",
    "04_cover_counting",
    "05_convergence",
]
OPENINGS = (
    "A plot of ",
    "One panel",
    "Two panels",
    "Three panels",
    "Four panels",
    "Five panels",
)


def _described(fig) -> str:
    """The figure's description, with the checks every description must pass."""
    text = repr(fig)
    assert text == fig.alt_text and text.startswith(OPENINGS), text[:60]
    assert "$" not in text and "\\" not in text, "read aloud, not typeset"
    assert not re.search(r"\d[eE][+-]?\d", text), "numbers written out, no exponent"
    assert not re.search(r"-0\b(?!\.)|\bnan\b", text, re.IGNORECASE), "no -0, no NaN"
    assert len(text) < 550, f"too long to listen to ({len(text)} characters)"
    return text


def _perceptron_loop(X, y, eta=1.0):
    """A plain perceptron (w = 0, cyclic order): the weights after each update."""
    w = np.zeros(X.shape[1])
    weights, rings = [w.copy()], []
    for _ in range(1000):
        clean = True
        for i in range(len(X)):
            if y[i] * (w @ X[i]) <= 0:
                w = w + eta * y[i] * X[i]
                weights.append(w.copy())
                rings.append(i)
                clean = False
        if clean:
            return np.array(weights), rings
    raise AssertionError("did not converge")


def _degrees(a, b):
    return math.degrees(
        math.acos(max(-1.0, min(1.0, a @ b / math.hypot(*a) / math.hypot(*b))))
    )


# Lesson 1 ---------------------------------------------------------------------------


def test_glyphs_name_what_the_unit_answers_to_each_image():
    images = {
        "bar": np.array([[1, 1, 1], [0, 0, 0]]),
        "corner, low": np.array([[0, 0, 0], [0, 0, 1]]),
        "full": np.ones((2, 3)),
        "empty": np.zeros((2, 3)),
    }
    w = np.array([1.0, 2.0, 1.0, -1.0, -1.0, 3.0])
    text = _described(plot_glyphs(images, w, 3.5))
    assert text.startswith("Four panels of 2 by 3 pixel black-and-white images")
    fires, quiet = text.split("It answers +1 for: ")[1].split(" It answers -1 for: ")
    for name, img in images.items():
        s = sum(wi * xi for wi, xi in zip(w, np.ravel(img), strict=True))
        assert f"{name} (w.x = {s:g})" in (fires if s > 3.5 else quiet), name
    assert "θ = 3.5" in text
    # Raise the threshold above every sum: no image fires any more.
    assert "It answers +1 for: no image." in _described(plot_glyphs(images, w, 10.0))


def test_threshold_shifts_give_each_line_its_distance():
    text = _described(plot_threshold_shifts([3.0, 4.0], [-5.0, 0.0, 5.0, 10.0]))
    assert "w = (3, 4), with ‖w‖ = 5" in text
    assert "here -1, 0, 1 and 2" in text  # theta / ||w|| by hand
    assert "outside" not in text  # |theta| <= 2.5 (3 + 4) for all four
    other = _described(plot_threshold_shifts([3.0, 4.0], [0.0, 20.0]))
    assert (
        "here 0 and 4" in other
        and "The line for θ = 20 lies outside the window" in other
    )


@pytest.mark.parametrize("seed", range(4))
def test_reflection_counts_mistakes_and_reflected_points(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(9, 2))
    y = np.where(rng.random(9) < 0.5, -1, 1)
    X[0] = [
        1.0,
        2.0,
    ]  # a tie: on the line w.x = 0 below, a mistake and not strictly ahead
    w = np.array([2.0, -1.0])
    mistakes = sum(1 for x, label in zip(X, y, strict=True) if label * (x @ w) <= 0)
    text = _described(plot_reflection(X, y, w))
    n_neg = int(sum(y < 0))
    assert f"{9 - n_neg} labelled +1 (blue circles) and {n_neg} labelled -1" in text
    assert f"{mistakes} of the 9 patterns lie on the wrong side" in text
    assert f"{9 - mistakes} of the 9 lie strictly on the side w points to" in text


def test_reflection_of_separated_data_says_so():
    d = teacher_data(10, 2, margin=0.1, rng=3)
    text = _described(plot_reflection(d.X, d.y, d.teacher))
    assert "every pattern lies on the side of its label" in text
    assert "all 10 lie strictly on the side w points to" in text


# Lesson 2 ---------------------------------------------------------------------------


def test_two_input_functions_sort_separable_from_not():
    text = _described(plot_two_input_functions((8, 6, 15)))
    line = text.split("With a maximum-margin separating line: ")[1].split(
        " No separating"
    )[0]
    assert "8 AND, +1 only at (1, 1)" in line
    assert "No separating line: 6 XOR, +1 at (0, 1) and (1, 0)" in text
    assert "Constant, no line drawn: function 15, +1 on every corner" in text
    other = _described(plot_two_input_functions((14,)))
    assert (
        other.startswith("One panel")
        and "14 OR, +1 at (0, 1), (1, 0) and (1, 1)" in other
    )
    assert "No separating line" not in other


def test_feature_boundary_names_the_conic_and_counts_the_mistakes():
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    xor = np.array([-1, 1, 1, -1])
    text = _described(plot_feature_boundary([2.0, 2.0, -5.0], 1.0, X, xor))
    assert "2 x1 + 2 x2 - 5 x1 x2 = 1" in text
    # -5 (x1 - 0.4)(x2 - 0.4) = 1 - 0.8: c < 0, branches upper left and lower right.
    assert (
        "hyperbola centred at (0.4, 0.4), branches upper left and lower right" in text
    )
    assert "It fires at (0, 1) and (1, 0), not at (0, 0) and (1, 1)" in text
    assert "all 4 lie on the side of their label" in text
    # The same unit against the opposite labels: every pattern is wrong.
    assert "4 of the 4 are on the wrong side" in _described(
        plot_feature_boundary([2.0, 2.0, -5.0], 1.0, X, -xor)
    )
    assert "pair of crossing lines, x1 = 0.5 and x2 = 0.5" in _described(
        plot_feature_boundary([1.0, 1.0, -2.0], 0.5, X, xor)
    )
    assert "straight line" in _described(
        plot_feature_boundary([1.0, 1.0, 0.0], 0.5, X, xor)
    )


# Lesson 3 ---------------------------------------------------------------------------


def _brute_triples(X):
    return [
        t
        for t in itertools.combinations(range(len(X)), 3)
        if (X[t[1]][0] - X[t[0]][0]) * (X[t[2]][1] - X[t[0]][1])
        == (X[t[2]][0] - X[t[0]][0]) * (X[t[1]][1] - X[t[0]][1])
    ]


def test_collinear_triple_gives_h_along_the_row_and_the_mistakes():
    # By hand: a, b, c = (0, 0), (1, 1), (2, 2) labelled +, -, +; h = w.x - theta.
    for w, theta, wrong in (((-1, -1), -1, "c"), ((1, 1), 1, "a and b"), ((0, 1), 1.5, "a")):
        text = repr(plot_collinear_triple(w, theta))
        h = [w[0] * t + w[1] * t - theta for t in (0, 1, 2)]
        values = ", ".join(f"{v:g}" for v in h[:-1]) + f" and {h[-1]:g}"
        assert f"h = {values} at t = 0, 1, 2" in text, text
        assert f"it gets {wrong} wrong" in text, text


def test_lifted_square_gives_midpoints_and_the_side_of_each_corner():
    # By hand: XOR's corners lifted by x3 = x1 x2; only (1, 1) rises.
    corners = [(0, 0), (0, 1), (1, 0), (1, 1)]
    for w, theta, right in (((1, 1, -2), 0.5, 4), ((1, 1, -2), 1.5, 2)):
        text = repr(plot_lifted_square(w, theta))
        assert "midpoints are (0.5, 0.5, 0) and (0.5, 0.5, 0.5)" in text, text
        for a, b in corners:
            h = w[0] * a + w[1] * b + w[2] * a * b - theta
            side = "above" if h > 0 else "below" if h < 0 else "on"
            assert f"({a}, {b}, {a * b}) {side} it" in text, (w, theta, text)
        assert f"{right} of 4 corners on the side of their label" in text, text
    with pytest.raises(ValueError, match="w3 != 0"):
        plot_lifted_square((1, 1, 0), 0.5)


def test_collinear_triples_are_grouped_into_their_lines():
    # Four points on the x axis and three on the y axis (the origin on both).
    pts = [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (5, 7)]
    triples = _brute_triples(pts)
    assert len(triples) == 4 + 1
    text = _described(
        plot_collinear_triples({"axes": np.array(pts, float)}, {"axes": triples})
    )
    assert "axes: 7 points, 5 collinear triples, on 2 lines" in text
    assert "one through (0, 0), (1, 0), (2, 0) and (3, 0)" in text
    assert "one through (0, 0), (0, 1) and (0, 2)" in text
    generic = np.array([[0.0, 0.0], [1.0, 0.1], [0.3, 1.0], [2.0, 1.7]])
    assert _brute_triples(generic.tolist()) == []
    text = _described(
        plot_collinear_triples(
            {"a": generic, "b": np.array(pts, float)}, {"a": [], "b": triples}
        )
    )
    assert (
        text.startswith("Two panels")
        and "a: 4 points, 0 collinear triples, so no" in text
    )


def test_a_doubled_point_is_reported_not_taken_for_a_line():
    pts = [(0, 0), (1, 1), (1, 1), (3, 0)]
    triples = _brute_triples(pts)  # both triples through the doubled point
    text = _described(
        plot_collinear_triples({"d": np.array(pts, float)}, {"d": triples})
    )
    assert "2 collinear triples, 2 through a position given more than once" in text
    assert "1 position holds more than one point (marked ×2)" in text
    assert not re.search(r"\bon \d+ lines?\b", text), "a doubled point makes no line"


# Lesson 4 ---------------------------------------------------------------------------


def test_two_way_split_checks_the_line_through_the_new_point():
    old = np.array([[1.5, 0.4], [0.3, 1.8], [-1.6, -0.2], [0.6, -1.7], [1.7, -0.9]])
    new = np.array([1.2, 1.2])
    both = extension_split(old, new).both
    text = _described(draw_two_way(old, new, both))
    assert "2 labellings of 5 old points" in text and "new point at (1.2, 1.2)" in text
    assert "The second is the first with every label flipped" in text
    assert "each labelling extends both ways" in text
    # All +1 is realisable but the line through the new point does not split it.
    other = _described(draw_two_way(old, new, [[1, 1, 1, 1, 1]]))
    assert "does not separate the labels in panel 1" in other and "extends" not in other
    # A tie: an old point on the line itself is not separated by it.
    tie = _described(draw_two_way([[2.0, 2.0], [1.0, 0.0], [0.0, 1.0]], [1.0, 1.0],
                                  [[1, -1, 1], [-1, 1, 1]]))
    assert "does not separate the labels in panels 1 and 2" in tie


def _cover_fraction(P, N):
    return 2 * sum(math.comb(P - 1, k) for k in range(N)) / 2**P


def test_projection_3d_shows_a_two_way_labelling_and_refuses_a_one_way_one():
    # New point on the x3 axis: the shadows are the points' (x1, x2) up to a turn, so
    # by hand (1, 0), (-1, 0), (0, 1): "+, -, +" is split by a line through the origin,
    # "+, +, -" is not ((1, 0) and (-1, 0) on one side needs v1 > 0 and -v1 > 0).
    old = np.array([[1.0, 0.0, 0.2], [-1.0, 0.0, 0.5], [0.0, 1.0, -0.3]])
    text = repr(draw_projection_3d(old, [0.0, 0.0, 2.0], [1, -1, 1]))
    assert "3 old points" in text and "the new point (0, 0, 2)" in text, text
    assert "3 of 3 shadows lie on the side of their label" in text, text
    with pytest.raises(ValueError, match="no plane through the new point's line"):
        draw_projection_3d(old, [0.0, 0.0, 2.0], [1, 1, -1])
    # Cover's split: every two-way labelling of random points can be drawn.
    X = np.random.default_rng(3).standard_normal((6, 3))
    for labels in extension_split(X[:5], X[5]).both:
        assert "5 of 5 shadows" in repr(draw_projection_3d(X[:5], X[5], labels))


def test_capacity_curves_quote_the_exact_fractions():
    text = _described(draw_capacity_curves((2, 4, 8)))
    assert text.startswith("A plot of the separable fraction")
    assert "for N = 2, 4 and 8" in text and "(up to 4)" in text
    # Loads 1.5 and 2.5 are grid points for even N: the drawn value is Cover's.
    lo = [_cover_fraction(3 * n // 2, n) for n in (2, 8)]
    hi = [_cover_fraction(5 * n // 2, n) for n in (2, 8)]
    assert (
        f"At α = 1.5 the fraction is {lo[0]:.2f} for N = 2 and {lo[1]:.2f} for N = 8; "
        f"at α = 2.5, {hi[0]:.2f} and {hi[1]:.2f}"
    ) in text
    assert "Every curve is 1 up to α = 1 and reaches 1/2 at α = 2" in text
    assert "the larger N, the sharper the step" in text
    short = _described(draw_capacity_curves((6,), max_load=2))
    assert "The curve is 1 up to α = 1" in short and "α = 2.5" not in short


# Lesson 5 ---------------------------------------------------------------------------


def test_learning_steps_give_the_angles_of_the_run():
    d = teacher_data(30, 2, margin=0.1, rng=20)
    weights, _ = _perceptron_loop(d.X, d.y)
    ks = [1, 2, 3]
    text = _described(learning_steps_figure(d.X, d.y, d.teacher, ks))
    assert text.startswith("Three panels: updates 1, 2 and 3")
    assert "on 30 labelled patterns" in text
    u = d.teacher
    assert f"none (w = 0) to {_degrees(weights[1], u):.1f}° at update 1" in text
    for k in ks[1:]:
        before, after = _degrees(weights[k - 1], u), _degrees(weights[k], u)
        assert f"{before:.1f}° to {after:.1f}° at update {k}" in text
    away = any(_degrees(weights[k], u) > _degrees(weights[k - 1], u) for k in ks[1:])
    assert ("turn w away from u" in text) == away


def test_learning_steps_say_when_an_update_turns_away():
    # Some update of this run turns w away from u and some towards it (next() would
    # raise StopIteration otherwise): one panel of each.
    d = teacher_data(30, 2, margin=0.1, rng=20)
    weights, _ = _perceptron_loop(d.X, d.y)
    angles = [_degrees(w, d.teacher) for w in weights[1:]]
    k = next(i + 2 for i in range(len(angles) - 1) if angles[i + 1] > angles[i])
    assert "so an update can also turn w away from u" in _described(
        learning_steps_figure(d.X, d.y, d.teacher, [k])
    )
    j = next(i + 2 for i in range(len(angles) - 1) if angles[i + 1] < angles[i])
    assert "this update turns w towards u" in _described(
        learning_steps_figure(d.X, d.y, d.teacher, [j])
    )


@pytest.mark.parametrize("seed", [1, 7])
def test_proof_figure_reports_the_run_and_its_bound(seed):
    d = teacher_data(40, 4, margin=0.1, rng=seed)
    weights, _ = _perceptron_loop(d.X, d.y)
    k = len(weights) - 1
    u = d.teacher / np.linalg.norm(d.teacher)
    gamma = min(label * (x @ u) for x, label in zip(d.X, d.y, strict=True))
    R = max(np.linalg.norm(x) for x in d.X)
    w = weights[-1]
    text = _described(proof_figure(novikoff_trace(perceptron(d.X, d.y), d.teacher)))
    assert f"over the run's {k} updates" in text
    chain = [k * gamma, w @ u, np.linalg.norm(w), math.sqrt(k) * R]
    three = [f"{float(f'{v:.3g}'):g}" for v in chain]  # 3 significant digits, no "e"
    assert f"at k = {k}: " + " ≤ ".join(three) + "." in text
    cos = (w @ u) / np.linalg.norm(w)
    assert f"to {cos:.2f} at k = {k}" in text
    assert f"R²/γ² = {float(f'{R**2 / gamma**2:.4g}'):g}" in text
    assert (
        f"The run made {float(f'{100 * k * gamma**2 / R**2:.2g}'):g} % of that" in text
    )


# The stored lessons -------------------------------------------------------------------


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_stored_figure_of_the_lesson_is_described(lesson):
    cells = json.loads((NOTEBOOKS / f"{lesson}.ipynb").read_text())["cells"]
    images = [
        o["data"]
        for c in cells
        for o in c.get("outputs", [])
        if "image/png" in o.get("data", {})
    ]
    assert images, lesson
    for data in images:
        text = "".join(data.get("text/plain", ""))
        assert not text.startswith(("<CourseFigure", "<Figure")), (lesson, text)
        assert len(text.split()) >= 15, (lesson, text)


# A change of units ------------------------------------------------------------------


@pytest.mark.parametrize("scale", [1e-12, 1e12])
def test_a_change_of_units_changes_no_count_and_no_angle(scale):
    d = teacher_data(12, 2, margin=0.2, rng=5)
    w = np.array([1.0, 0.3])
    assert _described(plot_reflection(scale * d.X, d.y, w)) == _described(
        plot_reflection(d.X, d.y, w))
    shifts = _described(plot_threshold_shifts([3 * scale, 4 * scale], [0.0, 5 * scale]))
    assert "w = (3 × 10" in shifts and "here 0 and 1:" in shifts
    steps = [_described(learning_steps_figure(s * d.X, d.y, d.teacher, [2, 3]))
             for s in (1.0, scale)]
    assert steps[0].split("Angle between")[1] == steps[1].split("Angle between")[1]
    traces = [novikoff_trace(perceptron(s * d.X, d.y), d.teacher) for s in (1.0, scale)]
    proofs = [_described(proof_figure(trace)) for trace in traces]
    assert proofs[0].split("Right")[1] == proofs[1].split("Right")[1]
    old = np.array([[1.5, 0.4], [0.3, 1.8], [-1.6, -0.2], [0.6, -1.7], [1.7, -0.9]])
    both = extension_split(old, [1.2, 1.2]).both
    two_way = _described(draw_two_way(scale * old, [1.2 * scale, 1.2 * scale], both))
    assert "each labelling extends both ways" in two_way
