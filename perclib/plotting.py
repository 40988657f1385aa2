"""One plotting style for the whole course, built from artists that can be updated.

Every drawing function takes an ``Axes``, draws, and returns its artists; the
matching ``update_*`` function moves those artists in place. Widgets use the pair
so a slider move never creates a new figure or re-plots from scratch.

Colours are the Okabe-Ito palette (distinguishable with every common colour
vision deficiency), and the two classes also differ in marker shape, so the
figures survive greyscale printing.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.text import Annotation
from numpy.typing import ArrayLike, NDArray

#: Okabe-Ito colours, one job each.
POSITIVE_COLOR = "#0072B2"  # blue: label +1
NEGATIVE_COLOR = "#E69F00"  # orange: label -1
BOUNDARY_COLOR = "#000000"  # black: decision line / plane
NORMAL_COLOR = "#D55E00"  # vermillion: the weight vector
MARGIN_COLOR = "#7f7f7f"  # grey: margin lines
HIGHLIGHT_COLOR = "#CC79A7"  # reddish purple: the pattern of the moment
ACCENT_COLOR = "#009E73"  # bluish green: a second curve / bound
POSITIVE_MARKER = "o"
NEGATIVE_MARKER = "s"

_NO_POINTS = np.empty((0, 2))


def new_figure(
    ncols: int = 1, *, width: float = 4.2, height: float = 3.6, dpi: float = 80
) -> tuple[Figure, list[Axes]]:
    """A figure with ``ncols`` axes in a row, made without pyplot.

    A pyplot-free figure is not auto-displayed by the notebook, which is what the
    widgets need (they show the figure through an image widget instead).

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> len(fig.axes)
    1
    """
    fig = Figure(figsize=(width * ncols, height), dpi=dpi, layout="constrained")
    axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
    return fig, axes


def setup_plane(ax: Axes, limits: tuple[float, float, float, float] = (-2, 2, -2, 2)) -> None:
    """Fixed equal-aspect limits with thin axes through the origin.

    Limits are fixed (autoscale off) so decision lines drawn long can be clipped
    by the axes, and the view does not jump while a slider moves.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax, (-1, 1, -1, 1)); tuple(map(float, ax.get_xlim()))
    (-1.0, 1.0)
    """
    xmin, xmax, ymin, ymax = (float(v) for v in limits)
    ax.set_xlim(xmin, xmax)
    ax.set_ylim(ymin, ymax)
    ax.set_aspect("equal", adjustable="box")
    ax.set_autoscale_on(False)
    ax.axhline(0, color="#d0d0d0", lw=0.8, zorder=0)
    ax.axvline(0, color="#d0d0d0", lw=0.8, zorder=0)
    ax.set_xlabel("$x_1$")
    ax.set_ylabel("$x_2$")


def plot_patterns(
    ax: Axes, X: ArrayLike, y: ArrayLike, *, size: float = 45, label: bool = True
) -> tuple[PathCollection, PathCollection]:
    """Scatter 2-D patterns by label: +1 blue circles, -1 orange squares.

    Returns the two collections (positive, negative) for :func:`update_patterns`.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> pos, neg = plot_patterns(ax, [[0, 0], [1, 1]], [1, -1])
    >>> pos.get_offsets().shape, neg.get_offsets().shape
    ((1, 2), (1, 2))
    """
    pos = ax.scatter(
        *_NO_POINTS.T, s=size, c=POSITIVE_COLOR, marker=POSITIVE_MARKER,
        edgecolors="white", linewidths=0.6, zorder=3, label="$y=+1$" if label else None,
    )
    neg = ax.scatter(
        *_NO_POINTS.T, s=size, c=NEGATIVE_COLOR, marker=NEGATIVE_MARKER,
        edgecolors="white", linewidths=0.6, zorder=3, label="$y=-1$" if label else None,
    )
    update_patterns((pos, neg), X, y)
    return pos, neg


def update_patterns(
    artists: tuple[PathCollection, PathCollection], X: ArrayLike, y: ArrayLike
) -> None:
    """Move the two scatter collections of :func:`plot_patterns` to new points/labels.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> arts = plot_patterns(ax, [[0, 0]], [1])
    >>> update_patterns(arts, [[0, 0]], [-1]); arts[1].get_offsets().shape
    (1, 2)
    """
    X = np.asarray(X, dtype=float)[:, :2]
    y = np.asarray(y)
    pos, neg = artists
    pos.set_offsets(X[y > 0] if np.any(y > 0) else _NO_POINTS)
    neg.set_offsets(X[y < 0] if np.any(y < 0) else _NO_POINTS)


def line_points(w: ArrayLike, offset: float = 0.0, extent: float = 1e3) -> NDArray[np.float64]:
    """Two far-apart points on the line ``w.x = offset`` in the plane (NaN if ``w = 0``).

    Examples
    --------
    >>> line_points([0.0, 1.0], 0.5, extent=1.0).tolist()
    [[-1.0, 0.5], [1.0, 0.5]]
    """
    w = np.asarray(w, dtype=float)[:2]
    norm2 = float(w @ w)
    if norm2 == 0.0:
        # A zero weight vector has no hyperplane; draw nothing rather than fail.
        return np.full((2, 2), np.nan)
    foot = offset * w / norm2
    direction = np.array([-w[1], w[0]]) / np.sqrt(norm2)
    return np.vstack([foot + extent * direction, foot - extent * direction])


def decision_line(ax: Axes, w: ArrayLike, theta: float = 0.0, **style: object) -> Line2D:
    """Draw the decision line ``w.x = theta`` (solid black by default).

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> line = decision_line(ax, [1.0, 1.0], 0.5)
    """
    kwargs = {"color": BOUNDARY_COLOR, "lw": 1.8, "zorder": 2} | style
    (line,) = ax.plot([], [], **kwargs)
    update_line(line, w, theta)
    return line


def update_line(line: Line2D, w: ArrayLike, offset: float = 0.0) -> None:
    """Move a line from :func:`decision_line` to ``w.x = offset``.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> line = decision_line(ax, [1.0, 0.0]); update_line(line, [0.0, 1.0], 1.0)
    >>> float(line.get_ydata()[0])
    1.0
    """
    pts = line_points(w, offset)
    line.set_data(pts[:, 0], pts[:, 1])


def margin_lines(
    ax: Axes, w: ArrayLike, theta: float, gamma: float
) -> tuple[Line2D, Line2D]:
    """Dashed lines at signed distance +-gamma from ``w.x = theta``.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> upper, lower = margin_lines(ax, [1.0, 0.0], 0.0, 0.5)
    >>> float(upper.get_xdata()[0]), float(lower.get_xdata()[0])
    (0.5, -0.5)
    """
    kwargs = {"color": MARGIN_COLOR, "lw": 1.0, "ls": "--", "zorder": 1}
    upper = ax.plot([], [], **kwargs)[0]
    lower = ax.plot([], [], **kwargs)[0]
    update_margin_lines((upper, lower), w, theta, gamma)
    return upper, lower


def update_margin_lines(
    lines: tuple[Line2D, Line2D], w: ArrayLike, theta: float, gamma: float
) -> None:
    """Move the pair from :func:`margin_lines`.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> pair = margin_lines(ax, [1.0, 0.0], 0.0, 0.5); update_margin_lines(pair, [1.0, 0.0], 0.0, 1.0)
    """
    w = np.asarray(w, dtype=float)[:2]
    norm = float(np.linalg.norm(w))
    shift = gamma * norm  # w.x = theta +- gamma ||w|| is at distance gamma
    update_line(lines[0], w, theta + shift)
    update_line(lines[1], w, theta - shift)


def normal_arrow(ax: Axes, w: ArrayLike, theta: float = 0.0, *, length: float = 1.0) -> Annotation:
    """Arrow along ``w`` starting at the foot of the hyperplane nearest the origin.

    Its length is fixed (``length``) so the arrow shows direction, not ``||w||``.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> arrow = normal_arrow(ax, [1.0, 0.0])
    """
    arrow = ax.annotate(
        "", xy=(0, 0), xytext=(0, 0), zorder=4,
        arrowprops={"arrowstyle": "-|>", "color": NORMAL_COLOR, "lw": 2.0,
                    "shrinkA": 0, "shrinkB": 0},
    )
    update_arrow(arrow, w, theta, length=length)
    return arrow


def update_arrow(arrow: Annotation, w: ArrayLike, theta: float = 0.0, *, length: float = 1.0) -> None:
    """Move an arrow from :func:`normal_arrow` (hidden when ``w = 0``).

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> arrow = normal_arrow(ax, [1.0, 0.0]); update_arrow(arrow, [0.0, 0.0]); arrow.get_visible()
    False
    """
    w = np.asarray(w, dtype=float)[:2]
    norm2 = float(w @ w)
    if norm2 == 0.0:
        arrow.set_visible(False)
        return
    arrow.set_visible(True)
    foot = theta * w / norm2
    arrow.xy = tuple(foot + length * w / np.sqrt(norm2))
    arrow.set_position(tuple(foot))


def legend(ax: Axes, **kwargs: object) -> None:
    """The course's legend style: small, framed, outside the data where possible.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); _ = plot_patterns(ax, [[0, 0]], [1]); legend(ax)
    """
    ax.legend(**({"loc": "upper left", "fontsize": 8, "framealpha": 0.9} | kwargs))
