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
    NEGATIVE_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    decision_line,
    legend,
    new_figure,
    plot_patterns,
    setup_plane,
)

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
        The figure, one row of panels.

    Raises
    ------
    ValueError
        If a number is outside ``range(16)`` or there are not 1 to 4 of them.

    Examples
    --------
    >>> fig = plot_two_input_functions((8, 6))
    >>> [ax.get_title() for ax in fig.axes]
    ['8: AND', '6: XOR (no line)']
    """
    ks = [int(k) for k in functions]
    if not 1 <= len(ks) <= 4:
        raise ValueError(f"functions: give 1 to 4 function numbers, not {len(ks)}")
    if any(not 0 <= k < 16 for k in ks):
        raise ValueError(f"functions: numbers must lie in range(16), got {ks}")
    cube = boolean_cube(2)
    fig, axes = new_figure(len(ks), width=2.25, height=2.6)
    for k, ax in zip(ks, axes, strict=True):
        labels = boolean_function(2, k)
        setup_plane(ax, (-0.5, 1.5, -0.5, 1.5))
        ax.set_xticks([0, 1])
        ax.set_yticks([0, 1])
        plot_patterns(ax, cube, labels, size=55, label=False)
        name = f"{k}: {_SHORT_NAMES.get(k, 'function')}"
        if np.all(labels == labels[0]):
            ax.set_title(f"{name} (line outside)")
            continue
        if is_separable(cube, labels, threshold=True):
            result = max_margin(cube, labels, threshold=True)
            decision_line(ax, result.w, -result.b)
            ax.set_title(name)
        else:  # two corners per label on crossing diagonals: draw both segments
            for sign, colour in ((1, POSITIVE_COLOR), (-1, NEGATIVE_COLOR)):
                ends = cube[labels == sign]
                ax.plot(ends[:, 0], ends[:, 1], color=colour, lw=1.4, ls="--", zorder=2)
            ax.set_title(f"{name} (no line)", color=NORMAL_COLOR)
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
        A one-panel figure.

    Raises
    ------
    ValueError
        If ``w`` does not hold three finite numbers or ``X`` is not of shape (P, 2).

    Examples
    --------
    >>> fig = plot_feature_boundary([1, 1, -2], 0.5, [[0, 0], [1, 1]], [-1, -1])
    >>> len(fig.axes)
    1
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
    return fig
