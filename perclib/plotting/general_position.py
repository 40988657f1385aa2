"""Figures of lesson 3: point sets with their collinear triples.

The helper builds a whole figure in the course style and returns it, so the lesson
cell shows the computation (which triples are on a line) and one call.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._validation import as_plane_points
from perclib.plotting import HIGHLIGHT_COLOR, new_figure, setup_plane
from perclib.plotting._words import count, join, panels, point

_POINT_COLOR = "#333333"


def _limits(X: np.ndarray, pad: float = 0.5) -> tuple[float, float, float, float]:
    """A square window around the points, ``pad`` of their span (at least 1) on each side."""
    low, high = X.min(axis=0), X.max(axis=0)
    span = max(float((high - low).max()), 1.0)
    centre = (low + high) / 2
    half = span / 2 + pad * span
    return (centre[0] - half, centre[0] + half, centre[1] - half, centre[1] + half)


def draw_collinear_triples(
    ax: Axes, X: ArrayLike, triples: Sequence[Sequence[int]], *, title: str = ""
) -> None:
    """Draw points of the plane and a dashed segment through each collinear triple.

    Each triple is drawn end to end (from its lowest to its highest point in
    lexicographic order), so a line carrying four points shows as overlapping
    segments of one line. Points given more than once are marked ``×n``.

    Parameters
    ----------
    ax : Axes
        Where to draw; set up as a square coordinate plane around the points.
    X : array_like, shape (P, 2)
        The points.
    triples : sequence of index triples
        The triples to join, for example from
        :func:`perclib.widgets.general_position.collinear_triples`.
    title : str
        The panel's title.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> draw_collinear_triples(ax, [[0, 0], [1, 1], [2, 2], [0, 1]], [(0, 1, 2)])
    >>> [line.get_linestyle() for line in ax.lines].count("--")
    1
    """
    X = as_plane_points(X)
    for triple in triples:
        if len(triple) != 3 or not all(0 <= int(i) < len(X) for i in triple):
            raise ValueError(f"triples: {tuple(triple)} is not a triple of indices of X")
    setup_plane(ax, _limits(X))
    for triple in triples:
        seg = X[[int(i) for i in triple]]
        seg = seg[np.lexsort((seg[:, 1], seg[:, 0]))]
        ax.plot(seg[[0, -1], 0], seg[[0, -1], 1], "--", color=HIGHLIGHT_COLOR, lw=1.2, zorder=1)
    ax.scatter(X[:, 0], X[:, 1], s=45, color=_POINT_COLOR, zorder=3)
    spots, repeats = np.unique(X, axis=0, return_counts=True)
    for spot, n in zip(spots, repeats, strict=True):
        if n > 1:
            ax.annotate(f"×{n}", tuple(spot), xytext=(6, 6), textcoords="offset points")
    if title:
        ax.set_title(title)


def plot_collinear_triples(
    point_sets: Mapping[str, ArrayLike], triples: Mapping[str, Sequence[Sequence[int]]]
) -> Figure:
    """One panel per named point set, with a dashed segment through each collinear triple.

    Parameters
    ----------
    point_sets : mapping of str to array_like, shape (P, 2)
        Panel title -> points (at most 3 panels).
    triples : mapping of str to sequences of index triples
        The same keys -> the collinear triples to draw; the title gets their number.

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text):
        for each set, its points, triples and the lines that carry them.

    Examples
    --------
    >>> pts = {"three on a line": [[0, 0], [1, 1], [2, 2]]}
    >>> fig = plot_collinear_triples(pts, {"three on a line": [(0, 1, 2)]})
    >>> fig.axes[0].get_title()
    'three on a line: 1 collinear triple'
    >>> "on 1 line: one through (0, 0), (1, 1) and (2, 2)" in repr(fig)
    True
    """
    if not isinstance(point_sets, Mapping) or not isinstance(triples, Mapping):
        raise TypeError("point_sets and triples must be mappings from a panel title")
    if not 1 <= len(point_sets) <= 3:
        raise ValueError(f"between 1 and 3 point sets, got {len(point_sets)}")
    if set(triples) != set(point_sets):
        raise ValueError("triples must have the same keys as point_sets")
    fig, axes = new_figure(len(point_sets), width=4.0, height=3.9)
    for ax, (name, X) in zip(axes, point_sets.items(), strict=True):
        n = len(triples[name])
        label = f"{name}: {n} collinear triple" + ("" if n == 1 else "s")
        draw_collinear_triples(ax, X, triples[name], title=label)
    fig.alt_text = (
        f"{panels(len(point_sets))} of points in the plane, with a dashed segment "
        "through each collinear triple. "
        + " ".join(_describe_set(name, as_plane_points(X), triples[name])
                   for name, X in point_sets.items()))
    return fig


def _describe_set(name: str, X: np.ndarray, triples: Sequence[Sequence[int]]) -> str:
    """One point set in a sentence: its points, triples and the lines that carry them."""
    spots, where, repeats = np.unique(X, axis=0, return_inverse=True, return_counts=True)
    where = where.ravel()
    # Two collinear triples that share two distinct positions lie on one line: merge
    # them. A triple through a doubled position lies on no line of its own.
    lines: list[set[int]] = []
    degenerate = 0
    for triple in triples:
        merged = {int(where[int(i)]) for i in triple}
        if len(merged) < 3:
            degenerate += 1
            continue
        for other in [line for line in lines if len(line & merged) >= 2]:
            lines.remove(other)
            merged |= other
        lines.append(merged)
    text = f"{name}: {count(len(X), 'point')}, {count(len(triples), 'collinear triple')}"
    parts = []
    if lines and len(lines) <= 3 and all(len(line) <= 5 for line in lines):
        # spots are sorted by x1, then x2: each line's points in order along it
        through = ["one through " + join(point(spots[i]) for i in sorted(line))
                   for line in lines]
        parts.append(f"on {count(len(lines), 'line')}: " + "; ".join(through))
    elif lines:
        longest = max(len(line) for line in lines)
        parts.append(f"on {count(len(lines), 'line')}, the longest through {longest} "
                     "points")
    if degenerate:
        parts.append(f"{degenerate} through a position given more than once")
    text += (", so no segment" if not triples else ", " + "; ".join(parts))
    doubled = repeats[repeats > 1]
    if doubled.size:
        marks = join(f"×{n}" for n in sorted(set(doubled.tolist())))
        verb = "holds" if doubled.size == 1 else "hold"
        text += (f"; {count(doubled.size, 'position')} {verb} more than one point "
                 f"(marked {marks})")
    return text + "."
