"""Lesson 4 widgets, driven from Python as the frontend would drive them."""

from __future__ import annotations

import math

import numpy as np
import pytest

from perclib import is_separable
from perclib.widgets import build_capacity_curve, build_dichotomy_explorer
from perclib.widgets.counting import labelling_from_index


def cover_reference(P: int, N: int) -> int:
    return 2 * sum(math.comb(P - 1, k) for k in range(N))


def test_labelling_from_index() -> None:
    assert labelling_from_index(0, 3).tolist() == [-1, -1, -1]
    assert labelling_from_index(6, 3).tolist() == [-1, 1, 1]  # 6 = 0b110, bit i is pattern i
    assert labelling_from_index(7 + 8, 3).tolist() == [1, 1, 1]  # taken mod 2^P
    with pytest.raises(ValueError):
        labelling_from_index(-1, 3)
    with pytest.raises(ValueError):
        labelling_from_index(1, 0)


@pytest.fixture(scope="module")
def explorer():
    return build_dichotomy_explorer(6, rng=1)


def _points(demo) -> tuple[np.ndarray, np.ndarray]:
    pos, neg = demo.figure.axes[0].collections[:2]
    return pos.get_offsets(), neg.get_offsets()


def test_explorer_counts_are_covers(explorer) -> None:
    for threshold in (False, True):
        explorer.controls["threshold"].value = threshold
        for P in range(1, 7):
            explorer.controls["P"].value = P
            expected = cover_reference(P, 3 if threshold else 2)
            assert f"{expected} of {2**P}" in explorer.status.value
            heights = [2 ** b.get_height() for b in explorer.figure.axes[1].patches]  # log2 scale
            assert np.allclose(heights, [cover_reference(p, 3 if threshold else 2) for p in range(1, 7)])


def test_explorer_line_matches_the_lp_verdict(explorer) -> None:
    explorer.controls["threshold"].value = False
    explorer.controls["separable_only"].value = False
    explorer.controls["P"].value = 4
    line = explorer.figure.axes[0].lines[-1]
    seen = set()
    assert (explorer.controls["labelling"].min, explorer.controls["labelling"].max) == (1, 16)
    for index in range(1, 17):
        explorer.controls["labelling"].value = index
        assert f"labelling {index} of 16" in explorer.status.value
        pos, neg = _points(explorer)
        X = np.vstack([pos, neg])
        y = np.r_[np.ones(len(pos)), -np.ones(len(neg))]
        separable = is_separable(X, y)
        seen.add(separable)
        assert np.all(np.isfinite(line.get_xdata())) == separable
        assert ("<b>separable</b>" in explorer.status.value) == separable
    assert seen == {True, False}  # 8 of the 16 labellings are separable in the plane


def test_explorer_separable_only_shows_separable_labellings(explorer) -> None:
    explorer.controls["threshold"].value = True
    explorer.controls["separable_only"].value = True
    explorer.controls["P"].value = 5
    # The slider spans exactly the separable labellings, counted from 1 like the status.
    slider = explorer.controls["labelling"]
    assert (slider.min, slider.max) == (1, cover_reference(5, 3))
    for index in range(1, cover_reference(5, 3) + 1, 3):
        explorer.controls["labelling"].value = index
        assert f"separable labelling {index} of {cover_reference(5, 3)}" in explorer.status.value
        pos, neg = _points(explorer)
        X = np.vstack([pos, neg])
        y = np.r_[np.ones(len(pos)), -np.ones(len(neg))]
        assert is_separable(X, y, threshold=True)
        assert f"of {cover_reference(5, 3)}" in explorer.status.value


def test_explorer_bad_input() -> None:
    with pytest.raises(ValueError):
        build_dichotomy_explorer(11)
    with pytest.raises(ValueError):
        build_dichotomy_explorer(1)


def test_capacity_widget_curve_and_marker() -> None:
    demo = build_capacity_curve()
    ax = demo.figure.axes[0]
    curve, marker = ax.lines[-2], ax.lines[-1]
    demo.controls["N"].value = 7
    demo.controls["P"].value = 14
    assert "1/2 = 0.500000" in demo.status.value
    assert marker.get_xdata()[0] == 2.0 and marker.get_ydata()[0] == 0.5
    alpha, frac = curve.get_data()
    assert len(alpha) == 28 and np.allclose(alpha, np.arange(1, 29) / 7)
    assert frac[6] == 1.0 and frac[13] == 0.5
    demo.controls["P"].value = 9  # C(9, 7) / 2^9 = 2 (2^8 - 1 - 8) / 512 = 494 / 512
    assert "247/256" in demo.status.value
    demo.controls["N"].value = 2
    demo.controls["P"].value = 100  # alpha = 50: pinned to the right edge
    assert marker.get_xdata()[0] == 4.0 and marker.get_marker() == ">"
    assert "beyond the right edge" in demo.status.value


def test_capacity_widget_bad_input() -> None:
    with pytest.raises(ValueError):
        build_capacity_curve(0)
    with pytest.raises(TypeError):
        build_capacity_curve(10, 2.5)


def test_explorer_default_points_are_numbered_and_spread() -> None:
    from perclib import in_general_position
    from perclib.widgets.counting import EXPLORER_POINTS

    demo = build_dichotomy_explorer()
    X = EXPLORER_POINTS[:8]
    assert in_general_position(X) and in_general_position(X, threshold=True)
    # Spread: no point near the origin, no two points close, no thin triangle.
    assert np.min(np.linalg.norm(X, axis=1)) > 0.4
    gaps = [np.linalg.norm(X[i] - X[j]) for i in range(8) for j in range(i)]
    assert min(gaps) > 0.7
    ax = demo.figure.axes[0]
    texts = [t for t in ax.texts if t.get_text().isdigit()]
    assert [t.get_text() for t in texts] == [str(i) for i in range(1, 9)]
    demo.controls["P"].value = 3
    assert [t.get_visible() for t in texts] == [True] * 3 + [False] * 5


def test_explorer_lesson_answer_point_4_inside_the_triangle() -> None:
    """The lesson's answer: with a threshold at P = 4, labellings 8 and 9 are the missing ones."""
    demo = build_dichotomy_explorer()
    demo.controls["threshold"].value = True
    demo.controls["P"].value = 4
    missing = []
    for index in range(1, 17):
        demo.controls["labelling"].value = index
        if "not separable" in demo.status.value:
            missing.append(index)
    assert missing == [8, 9]
    # Labelling 8 is 0111 read from the right: points 1, 2, 3 get +1 and point 4 gets -1.
    demo.controls["labelling"].value = 8
    assert "0111" in demo.status.value
