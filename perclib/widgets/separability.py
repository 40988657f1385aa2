"""Lesson 2 widget: try to separate any Boolean function of two inputs with one line.

The four corners of the unit square carry the labels of one of the 16 Boolean
functions of two inputs. Two sliders set the unit ``sign(w.x - theta)``: the angle
of the unit vector ``w`` and the threshold ``theta``. The figure shades the side
where the unit fires, rings every pattern that is not *strictly* on the side of
its label (a pattern on the line counts as a mistake, as in ``y (w.x - theta) <= 0``),
and the status line compares the line's score with the LP verdict.

The LP verdicts and the best score any line can reach are computed once, when the
widget is built; a slider move only moves artists.
"""

from __future__ import annotations

import ipywidgets as widgets
import numpy as np
from matplotlib.patches import Polygon
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, as_labels, as_patterns, as_weights
from perclib.data import boolean_cube, boolean_function
from perclib.geometry import is_separable
from perclib.plotting import (
    HIGHLIGHT_COLOR,
    NEGATIVE_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    decision_line,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
    update_arrow,
    update_line,
    update_patterns,
)
from perclib.widgets.base import SliderFigure, checked_float_slider

#: Names of the 16 Boolean functions of two inputs, by their number ``k`` in the
#: convention of :func:`perclib.boolean_function`: bit ``i`` of ``k`` is the output
#: on row ``i`` of ``boolean_cube(2)``, i.e. on (0,0), (0,1), (1,0), (1,1).
TWO_INPUT_NAMES: dict[int, str] = {
    0: "FALSE",
    1: "NOR",
    2: "NOT x1 AND x2",
    3: "NOT x1",
    4: "x1 AND NOT x2",
    5: "NOT x2",
    6: "XOR",
    7: "NAND",
    8: "AND",
    9: "XNOR",
    10: "x2",
    11: "x1 IMPLIES x2",
    12: "x1",
    13: "x2 IMPLIES x1",
    14: "OR",
    15: "TRUE",
}

_LIMITS = (-0.75, 1.75, -0.75, 1.75)


def _swatch(symbol: str, color: str, text: str) -> str:
    return f'<span style="color:{color}">{symbol}</span>&nbsp;{text}'


_KEY = '<span style="font-size:90%">' + " &nbsp; ".join([
    _swatch("●", POSITIVE_COLOR, "y = +1"),
    _swatch("■", NEGATIVE_COLOR, "y = −1"),
    _swatch("▮", "#cfe3f1", "shaded: the unit fires (w·x − θ &gt; 0)"),
    _swatch("➜", NORMAL_COLOR, "w"),
    _swatch("◯", HIGHLIGHT_COLOR, "not strictly on its side (on the line counts as wrong)"),
]) + "</span>"


def truth_table(k: int, n: int = 2) -> str:
    """The outputs (0/1) of Boolean function number ``k`` on the rows of ``boolean_cube(n)``.

    Examples
    --------
    >>> truth_table(6)  # XOR on (0,0), (0,1), (1,0), (1,1)
    '0110'
    """
    labels = boolean_function(n, k)  # validates n and k
    return "".join("1" if v > 0 else "0" for v in labels)


def function_label(k: int) -> str:
    """Dropdown label of two-input function ``k``: number, name and truth table.

    Examples
    --------
    >>> function_label(8)
    ' 8  AND  (0001)'
    """
    table = truth_table(k, 2)
    return f"{k:2d}  {TWO_INPUT_NAMES[k]}  ({table})"


def count_strictly_correct(X: ArrayLike, y: ArrayLike, w: ArrayLike, theta: float) -> int:
    """How many patterns lie strictly on their label's side: ``y (w.x - theta) > 0``.

    A pattern on the line (``w.x = theta``) is not counted: separability is strict.

    Examples
    --------
    >>> count_strictly_correct([[0, 0], [1, 1]], [-1, 1], [1.0, 1.0], 1.0)
    2
    >>> count_strictly_correct([[0, 0], [1, 0]], [-1, 1], [1.0, 0.0], 1.0)  # (1,0) on the line
    1
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    w = as_weights(w, X.shape[1])
    return int(np.count_nonzero(y * (X @ w - float(theta)) > 0))


def best_line_scores(n: int = 2) -> NDArray[np.int64]:
    """For every Boolean function of ``n`` inputs, the most vertices one hyperplane gets right.

    Entry ``k`` is ``2**n`` minus the Hamming distance from function ``k`` to the
    nearest linearly separable function (with threshold, decided by the LP), so it
    equals ``2**n`` exactly for the separable functions.

    Examples
    --------
    >>> best_line_scores(2)[[6, 8, 9]].tolist()  # XOR, AND, XNOR
    [3, 4, 3]
    """
    n = as_count(n, "n", 1)
    if n > 3:
        raise ValueError(f"n must be 1, 2 or 3 (2**(2**n) LPs), got {n!r}")
    X = boolean_cube(n)
    tables = np.array([boolean_function(n, k) for k in range(2 ** 2**n)])
    separable = np.array([is_separable(X, t, threshold=True) for t in tables])
    # Hamming distance between every function and every separable one.
    distance = np.count_nonzero(tables[:, None, :] != tables[None, separable, :], axis=2)
    return (2**n - distance.min(axis=1)).astype(np.int64)


def halfplane_polygon(
    w: ArrayLike, theta: float, limits: tuple[float, float, float, float] = _LIMITS
) -> NDArray[np.float64]:
    """Corners of the part of the box ``limits`` where ``w.x - theta > 0``.

    One clipping step of the Sutherland-Hodgman algorithm applied to the box.
    Returns an array of shape (k, 2), empty (k = 0) when the half-plane misses
    the box or ``w = 0``.

    Examples
    --------
    >>> halfplane_polygon([1.0, 0.0], 0.0, (-1, 1, -1, 1)).tolist()
    [[0.0, -1.0], [1.0, -1.0], [1.0, 1.0], [0.0, 1.0]]
    """
    w = as_weights(w, 2)
    xmin, xmax, ymin, ymax = (float(v) for v in limits)
    box = np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]])
    if not np.any(w):
        return np.empty((0, 2))
    values = box @ w - float(theta)
    corners: list[NDArray[np.float64]] = []
    for i in range(4):
        j = (i + 1) % 4
        if values[i] > 0:
            corners.append(box[i])
        if (values[i] > 0) != (values[j] > 0) and values[i] != values[j]:
            # The edge crosses the line: add the crossing point.
            t = values[i] / (values[i] - values[j])
            corners.append(box[i] + t * (box[j] - box[i]))
    return np.array(corners) if corners else np.empty((0, 2))


def unit_weights(angle_deg: float) -> NDArray[np.float64]:
    """The unit vector at ``angle_deg`` degrees, rounded so that 90 degrees gives exactly (0, 1).

    Examples
    --------
    >>> unit_weights(90).tolist(), unit_weights(180).tolist()
    ([0.0, 1.0], [-1.0, 0.0])
    """
    a = np.deg2rad(float(angle_deg))
    # Rounding removes the 6e-17 of cos(pi/2), so exact ties on the line are reachable.
    return np.round(np.array([np.cos(a), np.sin(a)]), 12) + 0.0


def build_boolean_separator(function: int = 6, angle: float = 45.0, theta: float = 0.5) -> SliderFigure:
    """Pick a Boolean function of two inputs and try to separate it with one line.

    Parameters
    ----------
    function : int, default 6 (XOR)
        Function number 0..15 (see :data:`TWO_INPUT_NAMES`).
    angle : float, default 45
        Initial angle of ``w`` in degrees.
    theta : float, default 0.5
        Initial threshold.

    Examples
    --------
    >>> demo = build_boolean_separator(8, angle=45, theta=1.0)  # AND
    >>> "4 of 4" in demo.status.value
    True
    """
    if function not in TWO_INPUT_NAMES:
        raise ValueError(f"function must be an integer 0..15, got {function!r}")
    X = boolean_cube(2)
    best = best_line_scores(2)
    # The controls first: they check the start values (angle, theta) before any drawing.
    controls = {
        "function": widgets.Dropdown(
            options=[(function_label(k), k) for k in range(16)], value=function, description="function"
        ),
        "angle": checked_float_slider(
            "angle", angle, -180.0, 180.0, step=1.0, description="angle of w", continuous_update=True
        ),
        "theta": checked_float_slider("theta", theta, -1.5, 2.5, step=0.05, description="theta"),
    }

    fig, (ax,) = new_figure(width=5.2, height=4.7)
    setup_plane(ax, _LIMITS)
    shade = Polygon(np.empty((0, 2)), closed=True, facecolor=POSITIVE_COLOR, alpha=0.12,
                    edgecolor="none", zorder=0)
    ax.add_patch(shade)
    points = plot_patterns(ax, X, boolean_function(2, function))
    rings = ax.scatter(np.empty(0), np.empty(0), s=260, facecolors="none", edgecolors=HIGHLIGHT_COLOR,
                       linewidths=1.8, zorder=4)
    line = decision_line(ax, unit_weights(angle), theta)
    arrow = normal_arrow(ax, unit_weights(angle), theta, length=0.5)
    # Fixed ticks and no matplotlib legend or changing title: text layout is most of the
    # cost of a frame, so the key lives in the HTML status line instead.
    ax.set_xticks([0.0, 1.0])
    ax.set_yticks([0.0, 1.0])


    def redraw(values: dict) -> str:
        k = int(values["function"])
        y = boolean_function(2, k)
        w = unit_weights(values["angle"])
        th = round(float(values["theta"]), 10)  # slider steps: keep 1.0 exactly 1.0
        update_patterns(points, X, y)
        update_line(line, w, th)
        update_arrow(arrow, w, th, length=0.5)
        shade.set_xy(halfplane_polygon(w, th))
        wrong = y * (X @ w - th) <= 0
        rings.set_offsets(X[wrong] if np.any(wrong) else np.empty((0, 2)))
        score = int(np.count_nonzero(~wrong))
        if best[k] == 4:
            verdict = "LP: <b>separable</b> (some line gets all 4)"
        else:
            verdict = f"LP: <b>not separable</b> (no line gets more than {best[k]} of 4)"
        return (
            f"{TWO_INPUT_NAMES[k]}: w = ({w[0]:.3f}, {w[1]:.3f}), theta = {th:.2f}: <b>{score} of 4</b> "
            f"patterns strictly on their side &nbsp;|&nbsp; {verdict}<br>{_KEY}"
        )

    # Blitting: only these are redrawn per frame. The two axis lines of setup_plane are static
    # but lie under the translucent shade, so they are redrawn with it, before it.
    axis_lines = ax.lines[:2]
    moving = [*axis_lines, shade, rings, line, arrow, *points]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "The four inputs of a two-input Boolean function at the corners of the "
            "unit square (circles output +1, squares output -1), the line w.x = theta"
            " set by the sliders, the side where the unit fires shaded and the normal"
            " w drawn as an arrow; inputs on the wrong side are ringed."
        ),
    )


DEMOS = {"boolean_separator": build_boolean_separator}
