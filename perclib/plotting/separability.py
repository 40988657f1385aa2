"""Figures of lesson 2: Boolean functions on the square, and a boundary bent by a feature.

Both helpers build a whole figure in the course style and return it, so the lesson
cell shows one call and the computation it is about.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._validation import as_plane_points
from perclib.data import boolean_cube, boolean_function
from perclib.geometry import is_separable, max_margin
from perclib.plotting import (
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NEGATIVE_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    decision_line,
    legend,
    new_figure,
    plot_patterns,
    setup_plane,
)
from perclib.plotting._words import join, num, panels, point

#: Short names of the two-input functions the lesson draws (numbering of
#: :func:`perclib.boolean_function`: bit ``i`` of ``k`` is the output on row ``i``
#: of ``boolean_cube(2)``).
_SHORT_NAMES = {1: "NOR", 6: "XOR", 7: "NAND", 8: "AND", 9: "XNOR", 14: "OR"}


def plot_two_input_functions(functions: Sequence[int] = (8, 14, 6, 9)) -> Figure:
    """One panel per Boolean function of two inputs, with its maximum-margin line.

    A separable function gets the line of largest margin (one separator among
    many, the one lesson 6 singles out). A non-separable one (XOR, XNOR) gets no
    line; dashed segments join its equally labelled corners and show where they cross.

    Parameters
    ----------
    functions
        Function numbers ``k`` in ``range(16)``, one panel each (at most 4).

    Returns
    -------
    Figure
        The figure, one row of panels, with a description of what it shows as its
        ``repr`` (the figure's alt text): for each function, where it outputs +1 and
        whether a line separates it.

    Raises
    ------
    ValueError
        If a number is outside ``range(16)`` or there are not 1 to 4 of them.

    Examples
    --------
    >>> fig = plot_two_input_functions((8, 6))
    >>> [ax.get_title() for ax in fig.axes]
    ['8: AND', '6: XOR (no line)']
    >>> "No separating line: 6 XOR, +1 at (0, 1) and (1, 0)" in repr(fig)
    True
    """
    ks = [int(k) for k in functions]
    if not 1 <= len(ks) <= 4:
        raise ValueError(f"functions: give 1 to 4 function numbers, not {len(ks)}")
    if any(not 0 <= k < 16 for k in ks):
        raise ValueError(f"functions: numbers must lie in range(16), got {ks}")
    cube = boolean_cube(2)
    fig, axes = new_figure(len(ks), width=2.25, height=2.6)
    groups: dict[str, list[str]] = {"constant": [], "line": [], "none": []}
    for k, ax in zip(ks, axes, strict=True):
        labels = boolean_function(2, k)
        setup_plane(ax, (-0.5, 1.5, -0.5, 1.5))
        ax.set_xticks([0, 1])
        ax.set_yticks([0, 1])
        plot_patterns(ax, cube, labels, size=55, label=False)
        name = f"{k}: {_SHORT_NAMES.get(k, 'function')}"
        said = f"{k} {_SHORT_NAMES[k]}" if k in _SHORT_NAMES else f"function {k}"
        if np.all(labels == labels[0]):
            ax.set_title(f"{name} (line outside)")
            groups["constant"].append(f"{said}, {labels[0]:+.0f} on every corner")
            continue
        said += ", +1 " + ("only " if np.count_nonzero(labels > 0) == 1 else "")
        said += "at " + join(point(c, 1) for c in cube[labels > 0])
        if is_separable(cube, labels, threshold=True):
            result = max_margin(cube, labels, threshold=True)
            decision_line(ax, result.w, -result.b)
            ax.set_title(name)
            groups["line"].append(said)
        else:  # two corners per label on crossing diagonals: draw both segments
            groups["none"].append(said)
            for sign, colour in ((1, POSITIVE_COLOR), (-1, NEGATIVE_COLOR)):
                ends = cube[labels == sign]
                ax.plot(ends[:, 0], ends[:, 1], color=colour, lw=1.4, ls="--", zorder=2)
            ax.set_title(f"{name} (no line)", color=NORMAL_COLOR)
    parts = [f"{panels(len(ks))}, one per Boolean function of two inputs, on the "
             "corners of the unit square (blue circle: output +1, orange square: -1)."]
    if groups["constant"]:
        parts.append("Constant, no line drawn: "
                     + "; ".join(groups["constant"]) + ".")
    if groups["line"]:
        parts.append("With a maximum-margin separating line: "
                     + "; ".join(groups["line"]) + ".")
    if groups["none"]:
        # In the plane only XOR and XNOR are not separable: their diagonals cross.
        parts.append("No separating line: " + "; ".join(groups["none"])
                     + "; dashed lines join equal outputs and cross.")
    fig.alt_text = " ".join(parts)
    return fig


def plot_feature_boundary(
    w: ArrayLike, theta: float, X: ArrayLike, y: ArrayLike, *, title: str = ""
) -> Figure:
    """The boundary ``w1 x1 + w2 x2 + w3 x1 x2 = theta`` in the input plane.

    The unit works on the features ``(x1, x2, x1 x2)``; back in the plane its
    boundary is a conic. The side where it fires is shaded blue, the other orange.

    Parameters
    ----------
    w
        Three weights, for ``x1``, ``x2`` and ``x1 x2``.
    theta
        The threshold.
    X, y
        Patterns of shape ``(P, 2)`` and their labels in {-1, +1}, drawn on top.
    title
        Title of the panel.

    Returns
    -------
    Figure
        A one-panel figure, with a description of what it shows as its ``repr`` (the
        figure's alt text): the boundary's equation and shape, where the unit fires and
        how many patterns lie on the side of their label.

    Raises
    ------
    ValueError
        If ``w`` does not hold three finite numbers or ``X`` is not of shape (P, 2).

    Examples
    --------
    >>> fig = plot_feature_boundary([1, 1, -2], 0.5, [[0, 0], [1, 1]], [-1, -1])
    >>> len(fig.axes)
    1
    >>> text = repr(fig)
    >>> "x1 + x2 - 2 x1 x2 = 0.5" in text, "lines, x1 = 0.5 and x2 = 0.5" in text
    (True, True)
    """
    w = np.asarray(w, dtype=float)
    if w.shape != (3,) or not np.all(np.isfinite(w)):
        raise ValueError(f"w: give three finite weights, got {w.tolist()}")
    X = as_plane_points(X)
    grid = np.linspace(-0.5, 1.5, 201)
    g1, g2 = np.meshgrid(grid, grid)
    h = w[0] * g1 + w[1] * g2 + w[2] * g1 * g2 - float(theta)
    top = max(float(np.abs(h).max()), 1e-12)
    fig, (ax,) = new_figure(height=4.2)
    setup_plane(ax, (-0.5, 1.5, -0.5, 1.5))
    ax.contourf(g1, g2, h, levels=[0, top], colors=[POSITIVE_COLOR], alpha=0.15)
    ax.contourf(g1, g2, h, levels=[-top, 0], colors=[NEGATIVE_COLOR], alpha=0.12)
    ax.contour(g1, g2, h, levels=[0], colors=BOUNDARY_COLOR, linewidths=1.8)
    plot_patterns(ax, X, y, size=70)
    if title:
        ax.set_title(title)
    legend(ax)
    unit = "a unit on the features x1, x2 and x1 x2"
    if np.any(w):
        crosses = h.min() < 0 < h.max()  # on the grid of the shading
        head = (f"A plot of the input plane cut by the curve "
                f"{_equation(w, float(theta))}, the boundary of {unit}; shaded blue "
                f"where the unit fires, orange elsewhere. {_conic(w, float(theta))}"
                + ("" if crosses else " The curve does not cross the window."))
    else:
        head = (f"A plot of the input plane for {unit}, all its weights 0 and θ = "
                f"{num(theta)}: there is no boundary, the unit "
                + ("fires everywhere (blue)." if theta < 0 else "never fires (orange)."))
    fig.alt_text = head + " " + _verdict(w, float(theta), X, np.asarray(y))
    return fig


def _equation(w: np.ndarray, theta: float) -> str:
    """``2 x1 + 2 x2 - 5 x1 x2 = 1``, read aloud (zero terms left out)."""
    terms = ""
    for c, var in zip(w, ("x1", "x2", "x1 x2"), strict=True):
        if c == 0:
            continue
        size = "" if abs(c) == 1 else f"{num(abs(c))} "
        sign = ("- " if c < 0 else "+ ") if terms else ("-" if c < 0 else "")
        terms += f" {sign}{size}{var}" if terms else f"{sign}{size}{var}"
    return f"{terms or '0'} = {num(theta)}"


def _conic(w: np.ndarray, theta: float) -> str:
    """The shape of ``w1 x1 + w2 x2 + w3 x1 x2 = theta`` in a sentence."""
    w1, w2, w3 = (float(v) for v in w)
    if w3 == 0.0:
        return "Without the product term the curve is a straight line."
    # w3 (x1 - a)(x2 - b) = theta + w1 w2 / w3 with a = -w2 / w3, b = -w1 / w3.
    a, b, c = -w2 / w3, -w1 / w3, (theta + w1 * w2 / w3) / w3
    if c == 0.0:
        return f"It is a pair of crossing lines, x1 = {num(a)} and x2 = {num(b)}."
    where = "lower left and upper right" if c > 0 else "upper left and lower right"
    return f"It is a hyperbola centred at {point((a, b))}, branches {where} of it."


def _verdict(w: np.ndarray, theta: float, X: np.ndarray, y: np.ndarray) -> str:
    """Where the unit fires on the patterns, and how many lie on their label's side."""
    h = w[0] * X[:, 0] + w[1] * X[:, 1] + w[2] * X[:, 0] * X[:, 1] - theta
    fires, wrong = h > 0, int(np.count_nonzero(y * h <= 0))  # on the curve: a mistake
    if fires.all() or not fires.any():
        where = f"It fires at {'all' if fires.all() else 'none'} of the {len(X)} points"
    elif len(X) <= 6:
        where = (f"It fires at {join(point(x) for x in X[fires])}, "
                 f"not at {join(point(x) for x in X[~fires])}")
    else:
        where = f"It fires at {np.count_nonzero(fires)} of the {len(X)} patterns"
    if wrong == 0:
        return f"{where}: all {len(X)} lie on the side of their label."
    verb = "is" if wrong == 1 else "are"
    return (f"{where}: {wrong} of the {len(X)} {verb} on the wrong side of the curve"
            " or on it.")


def plot_lifted_square(w: ArrayLike = (1.0, 1.0, -2.0), theta: float = 0.5) -> Figure:
    """XOR's corners lifted to ``(x1, x2, x1 x2)`` in 3-D, with a separating plane.

    Only the corner ``(1, 1)`` rises (to height 1). The segments joining equally
    labelled corners no longer cross: their midpoints are drawn, and the plane
    ``w . (x1, x2, x1 x2) = theta`` passes between the two pairs.

    Parameters
    ----------
    w
        Three weights, for ``x1``, ``x2`` and ``x1 x2``; ``w3`` must not be 0 (the plane
        is drawn as a height over the square).
    theta
        The threshold.

    Returns
    -------
    Figure
        A one-panel 3-D figure whose alt text lists the lifted corners, the two midpoints
        with their heights, and on which side of the plane each corner lies.

    Raises
    ------
    ValueError
        If ``w`` does not hold three finite numbers with ``w3 != 0``.

    Examples
    --------
    >>> fig = plot_lifted_square()
    >>> "(1, 1, 1)" in repr(fig), "(0.5, 0.5, 0.5)" in repr(fig)
    (True, True)
    """
    w = np.asarray(w, dtype=float)
    if w.shape != (3,) or not np.all(np.isfinite(w)) or w[2] == 0:
        raise ValueError(f"w: give three finite weights with w3 != 0, got {w.tolist()}")
    theta = float(theta)
    X, y = boolean_cube(2), boolean_function(2, 6)  # XOR: +1 at (0, 1) and (1, 0)
    lifted = np.column_stack([X, X[:, 0] * X[:, 1]])
    fig, (flat,) = new_figure(height=4.4)
    fig.delaxes(flat)
    ax = fig.add_subplot(1, 1, 1, projection="3d")
    ax.view_init(elev=22, azim=-58)
    grid = np.linspace(-0.1, 1.1, 2)
    g1, g2 = np.meshgrid(grid, grid)
    ax.plot_surface(g1, g2, (theta - w[0] * g1 - w[1] * g2) / w[2], color=BOUNDARY_COLOR,
                    alpha=0.12, linewidth=0)
    pos, neg = lifted[y > 0], lifted[y < 0]
    ax.scatter(*pos.T, s=70, marker="o", color=POSITIVE_COLOR, depthshade=False, label="+1")
    ax.scatter(*neg.T, s=70, marker="s", color=NEGATIVE_COLOR, depthshade=False, label="-1")
    for pair, color in ((pos, POSITIVE_COLOR), (neg, NEGATIVE_COLOR)):
        ax.plot(*pair.T, color=color, linestyle="--", linewidth=1.4)
        mid = pair.mean(axis=0)
        ax.scatter(*mid, s=36, marker="x", color=color, depthshade=False)
    ax.set_xlabel("x1")
    ax.set_ylabel("x2")
    ax.set_zlabel("x1 x2")
    for setter in (ax.set_xticks, ax.set_yticks, ax.set_zticks):
        setter([0, 1])
    ax.set_zlim(-0.6, 1.2)
    ax.legend(loc="upper left", frameon=False)
    h = lifted @ w - theta
    sides = "; ".join(f"{point(p)} {'above' if v > 0 else 'below' if v < 0 else 'on'} it"
                      for p, v in zip(lifted, h, strict=True))
    right = int(np.count_nonzero(y * h > 0))
    fig.alt_text = (
        f"A 3-D plot of XOR's four corners lifted to (x1, x2, x1 x2): "
        f"{join(point(p) for p in pos)} labelled +1 (blue circles), "
        f"{join(point(p) for p in neg)} labelled -1 (orange squares). Dashed segments join "
        f"equal labels; their midpoints are {point(pos.mean(axis=0))} and "
        f"{point(neg.mean(axis=0))}, so the segments no longer cross. The grey plane is "
        f"{_equation(w, theta).replace('x1 x2', 'x3')} with x3 = x1 x2: {sides}; "
        f"{right} of 4 corners on the side of their label.")
    return fig


def plot_collinear_triple(w: ArrayLike = (-1.0, -1.0), theta: float = -1.0) -> Figure:
    """Why three points on a line labelled ``+, -, +`` cannot be separated, in two panels.

    Left: the points ``(0, 0)``, ``(1, 1)``, ``(2, 2)`` with labels ``+1, -1, +1`` and the
    line of one unit ``w . x = theta``. Right: the unit's input ``h = w . x - theta``
    along the row, against the position ``t`` (the point ``(t, t)``): a straight line,
    which changes sign at most once, while the labels change twice.

    Parameters
    ----------
    w, theta
        The unit drawn (two weights, not both 0, and the threshold).

    Returns
    -------
    Figure
        Two panels; the alt text gives h at the three points and which of them the unit
        gets wrong.

    Raises
    ------
    ValueError
        If ``w`` does not hold two finite numbers, not both zero.

    Examples
    --------
    >>> "h = 1, -1 and -3" in repr(plot_collinear_triple())
    True
    """
    w = np.asarray(w, dtype=float)
    if w.shape != (2,) or not np.all(np.isfinite(w)) or not np.any(w):
        raise ValueError(f"w: give two finite weights, not both 0, got {w.tolist()}")
    theta = float(theta)
    t = np.array([0.0, 1.0, 2.0])
    X, y = np.column_stack([t, t]), np.array([1.0, -1.0, 1.0])
    h = X @ w - theta
    fig, (left, right) = new_figure(2, height=3.8)
    setup_plane(left, (-0.8, 2.8, -0.8, 2.8))
    left.plot([-0.8, 2.8], [-0.8, 2.8], color=MARGIN_COLOR, linestyle=":", linewidth=1.2,
              label="the row")
    plot_patterns(left, X, y)
    decision_line(left, w, theta, label="the unit's line")
    wrong = y * h <= 0  # on the line counts as wrong
    if wrong.any():
        left.scatter(*X[wrong].T, s=260, facecolors="none", edgecolors=HIGHLIGHT_COLOR,
                     linewidths=1.8, zorder=4, label="wrong side")
    left.set_title("three points on one line")
    legend(left)
    span = np.linspace(-0.5, 2.5, 2)
    right.axhline(0.0, color=BOUNDARY_COLOR, linewidth=1.0)
    right.plot(span, (w[0] + w[1]) * span - theta, color=NORMAL_COLOR, linewidth=1.8,
               label="h along the row")
    plot_patterns(right, np.column_stack([t, h]), y, label=False)
    right.set_xlabel("position t on the row (the point (t, t))")
    right.set_ylabel("h = w.x - theta")
    right.set_title("h is a straight line in t")
    legend(right)
    names = ("a", "b", "c")
    bad = [n for n, flag in zip(names, wrong, strict=True) if flag]
    verdict = ("it gets all three right, which no unit can" if not bad else
               f"it gets {join(bad)} wrong")
    fig.alt_text = (
        "Two panels. Left: the points a = (0, 0), b = (1, 1), c = (2, 2) on one line, "
        f"labelled +1, -1, +1, and the unit's line {_equation(np.append(w, 0.0), theta)}; "
        f"{verdict}. Right: the unit's input along the row, h = "
        f"{join(num(v) for v in h)} at t = 0, 1, 2, on a straight line that crosses 0 at "
        "most once, while the labels +, -, + change sign twice.")
    return fig
