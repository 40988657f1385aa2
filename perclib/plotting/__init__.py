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
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.text import Annotation, Text
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_positive_float, as_real, as_weights
from perclib.stable_canvas import StableCanvas

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


#: The output type a course figure stores its data table as (see CourseFigure.data_table).
FIGURE_DATA_MIME = "application/vnd.perclib.figure-data+json"

#: Pixels per inch of every course figure: what the notebook shows at 100% zoom
#: (the image is displayed at its natural size) and what handouts embed.
DISPLAY_DPI = 100
#: Smallest text on a figure, in pixels at ``DISPLAY_DPI`` (about 7.2 pt).
MIN_FONT_PX = 10.0
#: Smallest legend text, in pixels (9 pt, the course's legend size): a key read at a
#: glance, on a projector or a printed handout, not squinted at (issue 44).
MIN_LEGEND_PX = 12.5
#: Widest figure: fits the output column of JupyterLab / Notebook 7 without shrinking.
MAX_WIDTH_PX = 900
#: Narrowest default figure (one panel).
MIN_WIDTH_PX = 500

#: Default sizes (points) of the course style; all at least ``MIN_FONT_PX``.
FONT_SIZES = {"text": 10.0, "title": 10.0, "legend": 9.0, "ticks": 9.0, "label": 10.0}


class CourseFigure(Figure):
    """A Figure that never draws text smaller than :data:`MIN_FONT_PX` pixels.

    Any text made smaller on purpose (a crowded tick label, an annotation) is raised
    to the floor at draw time, and a legend's text to :data:`MIN_LEGEND_PX`, so a
    figure stays readable on screen and in print whatever its builder asked for.
    """

    #: A sentence that describes the figure for a reader who cannot see it. When set, it is
    #: the figure's ``repr``, so a notebook stores it as the image's ``text/plain``, and the
    #: site uses it as the image's alt text (``coursetools.site.build.image_alt``).
    alt_text: str = ""

    #: The numbers behind a curve figure, for a reader who cannot see it (set with
    #: :meth:`set_data_table`). A notebook stores it beside the image as
    #: :data:`FIGURE_DATA_MIME`, which JupyterLab does not draw and the site shows as a
    #: table under the figure.
    data_table: dict | None = None

    def set_data_table(self, caption: str, columns: list[str], rows: list[list[object]]) -> None:
        """Keep the data behind the figure: a caption, column headers and rows of values.

        Values are stored as the strings a reader sees (numbers formatted by the caller).

        Examples
        --------
        >>> fig, _ = new_figure()
        >>> fig.set_data_table("Two points.", ["x", "y"], [[0, "1.5"], [1, "2.5"]])
        >>> fig._repr_mimebundle_()[FIGURE_DATA_MIME]["rows"]
        [['0', '1.5'], ['1', '2.5']]
        """
        if not caption.strip() or not columns:
            raise ValueError("a figure's data table needs a caption and at least one column")
        if any(len(row) != len(columns) for row in rows):
            raise ValueError(f"every row of the data table needs {len(columns)} values")
        self.data_table = {"caption": caption.strip(), "columns": [str(c) for c in columns],
                           "rows": [[str(v) for v in row] for row in rows]}

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        # IPython merges this bundle with its own image/png and text/plain formatters.
        return {FIGURE_DATA_MIME: self.data_table} if self.data_table else {}

    def draw(self, renderer):  # noqa: D102 - matplotlib's
        enforce_min_font(self)
        super().draw(renderer)

    def __repr__(self) -> str:
        return self.alt_text or super().__repr__()


def enforce_min_font(fig: Figure, min_px: float = MIN_FONT_PX, legend_px: float = MIN_LEGEND_PX) -> int:
    """Raise every text of ``fig`` below ``min_px`` pixels (a legend's: ``legend_px``) to it.

    Returns how many texts changed.

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> t = ax.text(0, 0, "tiny", fontsize=4)
    >>> _ = ax.plot([0, 1], label="line"); leg = ax.legend(fontsize=7)
    >>> enforce_min_font(fig), round(t.get_fontsize() * fig.dpi / 72, 1)
    (2, 10.0)
    >>> round(leg.get_texts()[0].get_fontsize() * fig.dpi / 72, 1)
    12.5
    """
    from matplotlib.legend import Legend

    legend_texts = {id(text) for legend in fig.findobj(Legend)
                    for text in [*legend.get_texts(), legend.get_title()]}
    changed = 0
    for text in fig.findobj(Text):
        px = legend_px if id(text) in legend_texts else min_px
        floor_pt = px * 72.0 / fig.dpi
        if text.get_fontsize() < floor_pt - 1e-9:
            text.set_fontsize(floor_pt)
            changed += 1
    return changed


def new_figure(
    ncols: int = 1,
    *,
    width: float | None = None,
    height: float = 3.6,
    dpi: float = DISPLAY_DPI,
) -> tuple[Figure, list[Axes]]:
    """A figure with ``ncols`` axes in a row, made without pyplot, in the course style.

    ``width`` is per panel, in inches (default 5.4 for one panel, 4.2 each for
    more). A figure wider than :data:`MAX_WIDTH_PX` is scaled down as a whole (its
    fonts keep their pixel size), so it is never shrunk by the notebook column.
    A pyplot-free figure is not auto-displayed by the notebook, which is what the
    widgets need (they show the figure through an image widget instead).

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> len(fig.axes), int(fig.get_size_inches()[0] * fig.dpi)
    (1, 540)
    >>> fig, axes = new_figure(3)
    >>> int(round(fig.get_size_inches()[0] * fig.dpi))
    900
    """
    if width is None:
        width = 5.4 if ncols == 1 else 4.2
    total_w, total_h = width * ncols, height
    scale = min(1.0, MAX_WIDTH_PX / (total_w * dpi))
    fig = CourseFigure(figsize=(total_w * scale, total_h * scale), dpi=dpi, layout="constrained")
    StableCanvas(fig)  # pixels independent of last-bit differences in the data
    axes = [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]
    for ax in axes:
        style_axes(ax)
    return fig, axes


def style_axes(ax: Axes) -> None:
    """Tick and label sizes of the course style (also for axes added later, e.g. 3-D).

    Examples
    --------
    >>> fig, (ax,) = new_figure(); style_axes(ax); ax.title.get_fontsize()
    10.0
    """
    ax.tick_params(labelsize=FONT_SIZES["ticks"])
    ax.title.set_fontsize(FONT_SIZES["title"])
    for axis in (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)):
        if axis is not None:
            axis.label.set_fontsize(FONT_SIZES["label"])


def diagram_panel(ax: Axes) -> None:
    """Mark a panel as a diagram (e.g. a grid of miniatures), not a coordinate plot.

    Its axes, ticks and spines are turned off; the style test exempts only panels
    marked this way from "every panel has tick numbers".

    Examples
    --------
    >>> fig, (ax,) = new_figure(); diagram_panel(ax); ax.axison, is_diagram(ax)
    (False, True)
    """
    ax.set_axis_off()
    ax.set_gid(_DIAGRAM_GID)


def is_diagram(ax: Axes) -> bool:
    """True for a panel marked with :func:`diagram_panel`."""
    return ax.get_gid() == _DIAGRAM_GID


_DIAGRAM_GID = "course-diagram-panel"


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
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"X must hold points in the plane, shape (P, 2); got shape {X.shape}")
    X = X[:, :2]
    if y.shape != (len(X),):
        raise ValueError(f"y must hold one label per point ({len(X)}), got shape {y.shape}")
    # Cheap checks (this runs on every slider move): a NaN point or a 0 label would
    # silently vanish from the picture.
    if not np.isfinite(X).all():
        raise ValueError("X contains NaN or inf: such points cannot be drawn")
    if not ((y == 1) | (y == -1)).all():
        raise ValueError(
            f"y must hold labels -1/+1 (perclib.to_pm1 converts 0/1), got {sorted(set(y.tolist()))}"
        )
    pos, neg = artists
    pos.set_offsets(X[y > 0] if np.any(y > 0) else _NO_POINTS)
    neg.set_offsets(X[y < 0] if np.any(y < 0) else _NO_POINTS)


def line_points(w: ArrayLike, offset: float = 0.0, extent: float = 1e3) -> NDArray[np.float64]:
    """Two far-apart points on the line ``w.x = offset`` in the plane.

    ``w`` must be a finite, non-zero vector of the plane (two entries): a zero vector
    defines no line, and a normal of three entries is not a line of the plane (drop
    the bias first). :func:`update_line` hides a line for ``w = 0`` instead.

    Examples
    --------
    >>> line_points([0.0, 1.0], 0.5, extent=1.0).tolist()
    [[-1.0, 0.5], [1.0, 0.5]]
    """
    w = _plane_normal(w)
    offset = as_real(offset, "offset")
    extent = as_positive_float(extent, "extent")
    top = float(np.max(np.abs(w)))
    if top == 0.0:
        raise ValueError("w is the zero vector: it defines no line (update_line hides the line instead)")
    if not 1e-150 < top < 1e150:  # w.w would overflow or underflow: exactly rescale first
        e = int(np.frexp(top)[1])
        w, offset = np.ldexp(w, -e), float(np.ldexp(offset, -e))
    norm2 = float(w @ w)
    foot = offset * w / norm2
    direction = np.array([-w[1], w[0]]) / np.sqrt(norm2)
    return np.vstack([foot + extent * direction, foot - extent * direction])


def _plane_normal(w: ArrayLike) -> NDArray[np.float64]:
    """``w`` as a finite normal vector of the plane (two entries), or a clear error."""
    shape = np.shape(w) if not isinstance(w, str | bytes) else None
    if shape is not None and len(shape) == 1 and shape[0] != 2:
        raise ValueError(
            f"w must be a normal vector of the plane (2 entries), got {shape[0]} entries; "
            "for a unit with a threshold pass w without its bias and the threshold as offset"
        )
    return as_weights(w, 2, name="w")


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
    w = _plane_normal(w)
    if not np.any(w):  # no hyperplane: the line is hidden (NaN points draw nothing)
        line.set_data([np.nan, np.nan], [np.nan, np.nan])
        return
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


def legend(ax: Axes, *, inside: bool = False, **kwargs: object) -> Legend:
    """The course's legend: beside the axes (off the data), or ``inside`` at the best spot.

    Outside, it sits to the right of the axes, top-aligned, and constrained layout
    makes room for it; inside (for panels too narrow to share), matplotlib picks the
    corner with the fewest artists.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); _ = plot_patterns(ax, [[0, 0]], [1]); leg = legend(ax)
    >>> leg.get_texts()[0].get_fontsize() >= FONT_SIZES["legend"]
    True
    """
    if inside or "loc" in kwargs or "bbox_to_anchor" in kwargs:
        base = {"loc": "best", "framealpha": 0.9}  # the caller places it
    else:
        base = {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "borderaxespad": 0.0,
                "frameon": False}
    return ax.legend(**({"fontsize": FONT_SIZES["legend"]} | base | kwargs))


def direct_labels(
    ax: Axes, lines: list[Line2D], labels: list[str], *, min_gap: float = 0.06
) -> list[Annotation]:
    """Name each line at its right end, in its colour, instead of a legend.

    Labels sit just right of the axes at the height of each line's last point, pushed
    apart to at least ``min_gap`` (fraction of the axes height) so they never overlap.
    Call again after the lines move (it repositions the same labels).

    Examples
    --------
    >>> fig, (ax,) = new_figure()
    >>> a, = ax.plot([0, 1], [0, 1]); b, = ax.plot([0, 1], [0, 0.98])
    >>> texts = direct_labels(ax, [a, b], ["a", "b"])
    >>> [t.get_text() for t in texts]
    ['a', 'b']
    """
    found = getattr(ax, "_course_direct_labels", None)
    if found is None or len(found) != len(lines):
        found = [
            ax.annotate(label, xy=(1.0, 0.5), xycoords="axes fraction", xytext=(4, 0),
                        textcoords="offset points", va="center", ha="left",
                        fontsize=FONT_SIZES["legend"], color=line.get_color(), annotation_clip=False)
            for line, label in zip(lines, labels, strict=True)
        ]
        ax._course_direct_labels = found
    to_axes = ax.transAxes.inverted()
    ys = []
    for line in lines:
        x, y = line.get_xdata(), line.get_ydata()
        if len(x) == 0:
            ys.append(0.5)
            continue
        point = ax.transData.transform((float(np.asarray(x)[-1]), float(np.asarray(y)[-1])))
        ys.append(float(np.clip(to_axes.transform(point)[1], 0.0, 1.0)))
    order = np.argsort(ys)
    placed = np.array(ys, dtype=float)
    last = -np.inf
    for i in order:  # bottom to top, each at least min_gap above the previous
        placed[i] = max(placed[i], last + min_gap)
        last = placed[i]
    overflow = last - 1.0
    if overflow > 0:
        placed -= overflow
    for text, y in zip(found, placed, strict=True):
        text.xy = (1.0, float(y))
    return found
