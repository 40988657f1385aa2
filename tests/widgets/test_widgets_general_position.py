"""Lesson 3 widget helpers: labellings, the planar separability shortcut, collinear triples."""

from __future__ import annotations

import numpy as np
import pytest

from perclib import in_general_position, is_separable
from perclib.widgets.general_position import (
    all_labelings,
    build_point_mover,
    collinear_triples,
    planar_dichotomy_count,
    planar_separable_labelings,
)


def lp_verdicts(X: np.ndarray) -> np.ndarray:
    """The reference: one LP per labelling (perclib.is_separable)."""
    return np.array([is_separable(X, labels, threshold=True) for labels in all_labelings(len(X))])


def test_all_labelings_order_and_content() -> None:
    rows = all_labelings(3)
    assert rows.shape == (8, 3)
    assert rows[0].tolist() == [-1, -1, -1] and rows[-1].tolist() == [1, 1, 1]
    assert rows[1].tolist() == [1, -1, -1]  # bit 0 is point 0
    assert len({tuple(r) for r in rows}) == 8
    for bad in (0, 13, 2.0, True):
        with pytest.raises(ValueError):
            all_labelings(bad)


@pytest.mark.parametrize(
    ("points", "expected"),
    [
        ([[0, 0], [1, 0], [0, 1], [1, 1]], 14),  # square: general position, Cover's C(4, 3)
        ([[0, 0], [4, 0], [0, 4], [1, 1]], 14),  # one point inside the triangle of the others
        ([[0, 0], [1, 0], [0, 1]], 8),  # triangle: every labelling
        ([[0, 0], [1, 1], [3, 3]], 6),  # collinear: not +,-,+ nor -,+,-
        ([[0, 0], [1, 0], [2, 0], [5, 0]], 8),  # 4 on a line: 2P thresholds
        ([[0, 0], [2, 0], [1, 0], [0, 2]], 12),  # exactly one collinear triple
        ([[1, 1], [1, 1], [0, 3]], 4),  # two coincide: their labels must agree
        ([[2, 2], [2, 2]], 2),
        ([[0.5, -1.0]], 2),
    ],
)
def test_planar_counts_known_configurations(points, expected) -> None:
    assert planar_dichotomy_count(points) == expected
    np.testing.assert_array_equal(planar_separable_labelings(points), lp_verdicts(np.array(points, float)))


@pytest.mark.parametrize("seed", range(6))
def test_planar_shortcut_agrees_with_the_lp(seed: int) -> None:
    rng = np.random.default_rng(seed)
    P = 4 + seed % 3
    gaussian = rng.standard_normal((P, 2))
    grid = rng.integers(0, 3, size=(P, 2)).astype(float)  # often degenerate
    for X in (gaussian, grid):
        np.testing.assert_array_equal(planar_separable_labelings(X), lp_verdicts(X))


def test_planar_random_points_follow_covers_count() -> None:
    # Points in general position in the plane with a threshold: C(P, 3) = 2 * sum_{k<3} binom(P-1, k).
    rng = np.random.default_rng(7)
    for P, expected in ((4, 14), (5, 22), (6, 32)):
        assert planar_dichotomy_count(rng.standard_normal((P, 2))) == expected


def test_planar_bad_input() -> None:
    with pytest.raises(ValueError):
        planar_separable_labelings(np.zeros((3, 3)))
    with pytest.raises(ValueError):
        planar_separable_labelings(np.zeros((13, 2)))
    with pytest.raises(ValueError):
        planar_separable_labelings([[0.0, np.nan]])
    with pytest.raises(TypeError):
        planar_separable_labelings("points")


def test_collinear_triples_examples() -> None:
    assert collinear_triples([[0, 0], [1, 0], [0, 1], [1, 1]]) == []
    assert collinear_triples([[0, 0], [1, 2], [2, 4], [3, 6]]) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert collinear_triples([[1, 1], [5, 0], [1, 1]]) == [(0, 1, 2)]  # coincident pair
    assert collinear_triples([[0, 0], [1, 0]]) == []
    assert collinear_triples([[0, 0], [1, 0], [0.5, 1e-3]]) == []
    assert collinear_triples([[0, 0], [1, 0], [0.5, 1e-13]]) == [(0, 1, 2)]  # within the tolerance
    with pytest.raises(ValueError):
        collinear_triples([[0, 0], [1, 0], [2, 0]], tol=0.0)


@pytest.mark.parametrize("seed", range(5))
def test_collinear_triples_match_in_general_position(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    for X in (rng.standard_normal((6, 2)), rng.integers(0, 3, size=(5, 2)).astype(float)):
        assert (collinear_triples(X) == []) == in_general_position(X, threshold=True)


def test_widget_reaches_degenerate_positions() -> None:
    demo = build_point_mover()  # A=(0,0), B=(2,0), C=(0,2), D=(2,2): a square
    assert "<b>in general position</b>" in demo.status.value and "<b>14 of 16</b>" in demo.status.value
    demo.controls["D x"].value = 1.0
    demo.controls["D y"].value = 1.0  # on the line BC
    assert "BCD" in demo.status.value and "<b>12 of 16</b>" in demo.status.value
    demo.controls["D x"].value = 2.0
    demo.controls["D y"].value = 0.0  # on top of B
    assert "ABD, BCD" in demo.status.value and "<b>8 of 16</b>" in demo.status.value
    demo.controls["C x"].value = 1.0
    demo.controls["C y"].value = 0.0  # C between A and B, D = B: everything on the x1 axis
    assert "<b>6 of 16</b>" in demo.status.value  # 3 distinct collinear points, B and D tied
    demo.controls["D x"].value = 3.0  # four distinct points on one line
    assert "ABC, ABD, ACD, BCD" in demo.status.value and "<b>8 of 16</b>" in demo.status.value
    # The drawn lines follow the triples; unused ones are empty.
    dashed = [line for line in demo.figure.axes[0].lines if line.get_linestyle() == "--"]
    assert len(dashed) == 4 and all(len(line.get_xdata()) == 2 for line in dashed)


def test_collinear_triples_figure() -> None:
    from perclib.plotting.general_position import draw_collinear_triples, plot_collinear_triples

    line_and_twice = np.array([[0, 0], [1, 1], [2, 2], [0, 1], [0, 1]], dtype=float)
    triples = collinear_triples(line_and_twice)
    assert triples == [(0, 1, 2), (0, 3, 4), (1, 3, 4), (2, 3, 4)]   # 3 through the doubled point
    fig = plot_collinear_triples({"a": line_and_twice, "b": line_and_twice[:3]},
                                 {"a": triples, "b": [(0, 1, 2)]})
    ax, bx = fig.axes
    assert ax.get_title() == "a: 4 collinear triples" and bx.get_title() == "b: 1 collinear triple"
    dashed = [[line for line in a.lines if line.get_linestyle() == "--"] for a in (ax, bx)]
    assert [len(d) for d in dashed] == [4, 1]
    assert [t.get_text() for t in ax.texts] == ["×2"]            # the doubled point is marked
    x0, x1 = ax.get_xlim()
    assert x0 < 0 and x1 > 2                                    # every point is in view
    with pytest.raises(ValueError):
        plot_collinear_triples({"a": line_and_twice}, {"b": []})
    with pytest.raises(TypeError):
        plot_collinear_triples([line_and_twice], [triples])
    with pytest.raises(ValueError):
        draw_collinear_triples(ax, line_and_twice, [(0, 1, 9)])
    with pytest.raises(ValueError):
        draw_collinear_triples(ax, np.zeros((3, 3)), [])
