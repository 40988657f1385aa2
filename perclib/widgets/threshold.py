"""Lesson 1 widgets: one linear threshold unit in the plane, and the bias trick in 3-D.

``build_threshold_demo`` puts sliders on the angle of ``w``, its length and the
threshold ``theta``; the decision line, the normal arrow, the shaded "fires" half-plane
and the colours of the points (by the unit's *output*) follow live.
``build_bias_trick_demo`` shows the same unit twice: as a line in the plane and, after
lifting every point to ``(x, 1)``, as a plane through the origin in three dimensions.

The geometry helpers (:func:`weights_from_angle`, :func:`halfplane_polygon`,
:func:`segment_in_box`, :func:`plane_box_polygon`) are plain functions so that they are
tested without drawing anything.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Polygon
from mpl_toolkits.mplot3d.art3d import Poly3DCollection
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_labels, as_patterns, as_weights
from perclib.data import gaussian_patterns
from perclib.plotting import (
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NEGATIVE_COLOR,
    NEGATIVE_MARKER,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    POSITIVE_MARKER,
    decision_line,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
    update_arrow,
    update_line,
    update_patterns,
)
from perclib.units import augment_weights, threshold_unit
from perclib.widgets.base import SliderFigure, checked_float_slider

Limits = tuple[float, float, float, float]

DEFAULT_LIMITS: Limits = (-2.5, 2.5, -2.5, 2.5)
_SLIDER_STYLE = {"description_width": "150px"}  # same width: the sliders line up


# ----------------------------------------------------------------------------- geometry


def weights_from_angle(angle_deg: float, norm: float = 1.0) -> NDArray[np.float64]:
    """The 2-D weight vector of length ``norm`` pointing at ``angle_deg`` degrees.

    Parameters
    ----------
    angle_deg : float
        Angle of ``w`` measured anticlockwise from the ``x_1`` axis, in degrees.
    norm : float, default 1
        Length ``||w||`` (>= 0; 0 gives the zero vector).

    Examples
    --------
    >>> weights_from_angle(90.0, 2.0).round(12).tolist()
    [0.0, 2.0]
    """
    angle_deg, norm = float(angle_deg), float(norm)
    if not (np.isfinite(angle_deg) and np.isfinite(norm)) or norm < 0:
        raise ValueError(f"need a finite angle and a finite norm >= 0, got {angle_deg}, {norm}")
    phi = np.deg2rad(angle_deg)
    return norm * np.array([np.cos(phi), np.sin(phi)])


def _check_limits(limits: ArrayLike) -> NDArray[np.float64]:
    lim = np.asarray(limits, dtype=np.float64)
    if lim.shape != (4,) or not np.all(np.isfinite(lim)) or lim[0] >= lim[1] or lim[2] >= lim[3]:
        raise ValueError(f"limits must be (xmin, xmax, ymin, ymax) with min < max, got {limits}")
    return lim


def _box_corners(limits: ArrayLike) -> NDArray[np.float64]:
    xmin, xmax, ymin, ymax = _check_limits(limits)
    return np.array([[xmin, ymin], [xmax, ymin], [xmax, ymax], [xmin, ymax]])


def halfplane_polygon(w: ArrayLike, theta: float, limits: ArrayLike = DEFAULT_LIMITS) -> NDArray[np.float64]:
    """Vertices of the part of the box where the unit fires, ``w.x - theta > 0``.

    The box is clipped by the half-plane (one step of Sutherland-Hodgman clipping).
    With ``w = 0`` the unit is constant: the whole box if ``-theta > 0``, else nothing.

    Returns
    -------
    ndarray, shape (k, 2)
        Polygon vertices in order, ``k`` in 3..5, or shape ``(0, 2)`` if the region is empty.

    Examples
    --------
    >>> halfplane_polygon([1.0, 0.0], 0.0, (-1, 1, -1, 1)).tolist()
    [[0.0, -1.0], [1.0, -1.0], [1.0, 1.0], [0.0, 1.0]]
    """
    w = as_weights(w, 2)
    theta = float(theta)
    corners = _box_corners(limits)
    values = corners @ w - theta
    out = []
    for i in range(4):
        p, q = corners[i], corners[(i + 1) % 4]
        fp, fq = values[i], values[(i + 1) % 4]
        if fp > 0:
            out.append(p)
        if (fp > 0) != (fq > 0) and fp != fq:
            # The edge crosses the line: keep the crossing point (where f = 0).
            out.append(p + (q - p) * fp / (fp - fq))
    if len(out) < 3:
        return np.empty((0, 2))
    poly = np.array(out)
    # Drop repeated vertices (a crossing exactly at a corner is found twice).
    keep = np.ones(len(poly), dtype=bool)
    keep[1:] = np.any(np.abs(np.diff(poly, axis=0)) > 1e-12, axis=1)
    poly = poly[keep]
    if len(poly) > 1 and np.allclose(poly[0], poly[-1]):
        poly = poly[:-1]
    return poly if len(poly) >= 3 else np.empty((0, 2))


def segment_in_box(w: ArrayLike, theta: float, limits: ArrayLike = DEFAULT_LIMITS) -> NDArray[np.float64]:
    """The two end points of the line ``w.x = theta`` inside the box (NaN if it misses or ``w = 0``).

    Needed where artists are not clipped to the axes (3-D axes).

    Examples
    --------
    >>> segment_in_box([0.0, 1.0], 0.5, (-1, 1, -1, 1)).tolist()
    [[-1.0, 0.5], [1.0, 0.5]]
    """
    w = as_weights(w, 2)
    theta = float(theta)
    corners = _box_corners(limits)
    if not np.any(w):
        return np.full((2, 2), np.nan)  # w = 0: no line at all
    values = corners @ w - theta
    points = []
    for i in range(4):
        p, q = corners[i], corners[(i + 1) % 4]
        fp, fq = values[i], values[(i + 1) % 4]
        if fp == 0:
            points.append(p)
        if fp * fq < 0:
            points.append(p + (q - p) * fp / (fp - fq))
    if len(points) < 2:
        return np.full((2, 2), np.nan)
    pts = np.array(points)
    # The segment's ends are the two points farthest apart (handles corner hits).
    d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
    i, j = np.unravel_index(np.argmax(d), d.shape)
    if d[i, j] == 0:
        return np.full((2, 2), np.nan)
    ends = pts[[min(i, j), max(i, j)]]
    return ends[np.lexsort((ends[:, 1], ends[:, 0]))]


def plane_box_polygon(normal: ArrayLike, box: ArrayLike) -> NDArray[np.float64]:
    """The polygon where the plane ``normal . x = 0`` cuts an axis-aligned 3-D box.

    Parameters
    ----------
    normal : array_like, shape (3,)
        Normal of a plane through the origin (the augmented weights ``w_hat``).
    box : array_like, shape (6,)
        ``(xmin, xmax, ymin, ymax, zmin, zmax)``.

    Returns
    -------
    ndarray, shape (k, 3)
        Vertices ordered around the polygon (3 <= k <= 6), or shape ``(0, 3)`` when the
        plane misses the box or ``normal`` is zero.

    Examples
    --------
    >>> plane_box_polygon([0.0, 0.0, 1.0], (-1, 1, -1, 1, -1, 1)).shape
    (4, 3)
    """
    n = as_weights(normal, 3, name="normal")
    b = np.asarray(box, dtype=np.float64)
    if b.shape != (6,) or not np.all(np.isfinite(b)) or np.any(b[0::2] >= b[1::2]):
        raise ValueError(f"box must be (xmin, xmax, ymin, ymax, zmin, zmax) with min < max, got {box}")
    scale = float(np.linalg.norm(n))
    if scale == 0:
        return np.empty((0, 3))
    corners = np.array([[x, y, z] for x in b[0:2] for y in b[2:4] for z in b[4:6]])
    values = corners @ (n / scale)
    points = [corners[k] for k in range(8) if values[k] == 0]
    for a in range(8):
        for c in range(a + 1, 8):
            # Box edges join corners that differ in exactly one coordinate.
            if np.count_nonzero(corners[a] != corners[c]) == 1 and values[a] * values[c] < 0:
                t = values[a] / (values[a] - values[c])
                points.append(corners[a] + t * (corners[c] - corners[a]))
    if len(points) < 3:
        return np.empty((0, 3))
    pts = np.unique(np.round(np.array(points), 12), axis=0)
    if len(pts) < 3:
        return np.empty((0, 3))
    # Order the vertices by angle around their centre, in a basis of the plane.
    centre = pts.mean(axis=0)
    u = np.cross(n, [1.0, 0.0, 0.0] if abs(n[0]) < 0.9 * scale else [0.0, 1.0, 0.0])
    u /= np.linalg.norm(u)
    v = np.cross(n / scale, u)
    rel = pts - centre
    order = np.argsort(np.arctan2(rel @ v, rel @ u))
    return pts[order]


# ----------------------------------------------------------------------------- data


def default_unit_data(P: int = 24, *, rng: object = 1) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Points in the plane and a target labelling made by a hidden threshold unit.

    The hidden unit has ``w`` at 60 degrees, ``||w|| = 1`` and ``theta = 0.5``, so the
    target can be reproduced exactly with the sliders of :func:`build_threshold_demo`.

    Examples
    --------
    >>> X, y = default_unit_data(10)
    >>> X.shape, set(y.tolist()) <= {-1.0, 1.0}
    ((10, 2), True)
    """
    X = 1.1 * gaussian_patterns(P, 2, rng=rng)
    # Pull the few far points in to radius 2.3: inside the default view, and |w.x| < 3 for ||w|| <= 1.3,
    # so the ends of the theta slider put every point on one side.
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    X = X * np.minimum(1.0, 2.3 / norms)
    y = threshold_unit(X, weights_from_angle(60.0), 0.5).astype(np.float64)
    return X, y


# ----------------------------------------------------------------------------- status


def threshold_status(
    outputs: ArrayLike, w: ArrayLike, theta: float, target: ArrayLike | None = None
) -> str:
    """HTML status line of the threshold widget: what fires, where the line is.

    Examples
    --------
    >>> threshold_status([1, -1, -1], [0.0, 2.0], 1.0)
    'w = (0.00, 2.00), θ = 1.00, distance θ/‖w‖ = 0.500 &nbsp;|&nbsp; fires (+1) on <b>1</b> of 3 points'
    """
    out = np.asarray(outputs)
    w = as_weights(w)
    theta = float(theta)
    norm = float(np.linalg.norm(w))
    head = f"w = ({w[0]:.2f}, {w[1]:.2f}), θ = {theta:.2f}"
    if norm == 0:
        where = "w = 0: no decision line, the unit outputs sign(−θ) everywhere"
    else:
        where = f"distance θ/‖w‖ = {theta / norm:.3f}"
    parts = [f"{head}, {where}", f"fires (+1) on <b>{int(np.sum(out > 0))}</b> of {out.size} points"]
    if target is not None:
        wrong = int(np.sum(np.asarray(target) != out))
        parts.append(
            "<b>matches the target on every point</b>" if wrong == 0
            else f"disagrees with the target on <b>{wrong}</b> (ringed)"
        )
    return " &nbsp;|&nbsp; ".join(parts)


def legend_html(*, with_target: bool = True) -> str:
    """The threshold widget's key as HTML, in the course colours and marker shapes.

    Examples
    --------
    >>> "output +1" in legend_html()
    True
    """
    def swatch(symbol: str, color: str, text: str) -> str:
        return f'<span style="color:{color}">{symbol}</span>&nbsp;{text}'

    items = [
        swatch("●", POSITIVE_COLOR, "output +1"),
        swatch("■", NEGATIVE_COLOR, "output −1"),
        swatch("▮", "#cfe3f1", "shaded: fires, w·x − θ &gt; 0"),
        swatch("━", BOUNDARY_COLOR, "w·x = θ"),
        swatch("➜", NORMAL_COLOR, "direction of w"),
    ]
    if with_target:
        items.append(swatch("◯", HIGHLIGHT_COLOR, "disagrees with the target"))
    return '<span style="font-size:90%">' + " &nbsp; ".join(items) + "</span>"


# ----------------------------------------------------------------------------- 2-D widget


def _float_slider(
    name: str, description: str, value: float, lo: float, hi: float, step: float
) -> widgets.FloatSlider:
    return checked_float_slider(
        name, value, lo, hi, step=step, description=description,
        continuous_update=True, style=_SLIDER_STYLE, readout_format=".2f",
        layout=widgets.Layout(width="460px"),
    )


class ThresholdArtists:
    """The artists of one threshold unit drawn on 2-D axes, movable with :meth:`update`.

    Examples
    --------
    >>> fig, (ax,) = new_figure(); setup_plane(ax)
    >>> arts = ThresholdArtists(ax, [[0.0, 0.0], [1.0, 1.0]])
    >>> arts.update([1.0, 1.0], 1.0).tolist()
    [-1, 1]
    """

    def __init__(self, ax: Axes, X: ArrayLike, limits: ArrayLike = DEFAULT_LIMITS) -> None:
        self.X = as_patterns(X)
        if self.X.shape[1] != 2:
            raise ValueError(f"the threshold widget draws 2-D patterns, got dimension {self.X.shape[1]}")
        self.limits = tuple(float(v) for v in _check_limits(limits))
        self.region = Polygon(np.zeros((3, 2)), closed=True, facecolor=POSITIVE_COLOR, alpha=0.10,
                              edgecolor="none", zorder=0.5, label="fires: w·x − θ > 0")
        ax.add_patch(self.region)
        # Fixed integer ticks: the locator need not run again on every redraw.
        ax.set_xticks(np.arange(np.ceil(self.limits[0]), np.floor(self.limits[1]) + 1))
        ax.set_yticks(np.arange(np.ceil(self.limits[2]), np.floor(self.limits[3]) + 1))
        self.offset_line = ax.plot([], [], color=MARGIN_COLOR, lw=1.0, ls=":", zorder=1.5)[0]
        self.line = decision_line(ax, [1.0, 0.0], 0.0)
        self.arrow = normal_arrow(ax, [1.0, 0.0], 0.0, length=0.8)
        self.points = plot_patterns(ax, self.X, np.ones(len(self.X)))
        self.points[0].set_label("output +1")
        self.points[1].set_label("output −1")
        self.rings = ax.scatter(np.empty(0), np.empty(0), s=170, facecolors="none",
                                edgecolors=HIGHLIGHT_COLOR, linewidths=1.6, zorder=2.5,
                                label="≠ target")

    @property
    def moving(self) -> list[Any]:
        """The artists :meth:`update` changes (for ``SliderFigure(..., moving=...)``)."""
        # The spines are static but must stay on top of the shaded half-plane.
        return [self.region, self.offset_line, self.line, self.arrow, *self.points, self.rings,
                *self.region.axes.spines.values()]

    def update(self, w: ArrayLike, theta: float, target: ArrayLike | None = None) -> NDArray[np.int64]:
        """Move everything to the unit ``(w, theta)``; return its outputs on ``X``."""
        w = as_weights(w, 2)
        theta = float(theta)
        outputs = threshold_unit(self.X, w, theta)
        update_patterns(self.points, self.X, outputs)
        update_line(self.line, w, theta)
        update_arrow(self.arrow, w, theta, length=0.8)
        poly = halfplane_polygon(w, theta, self.limits)
        self.region.set_visible(len(poly) > 0)
        if len(poly):
            self.region.set_xy(poly)
        norm2 = float(w @ w)
        # Dotted segment from the origin to the line's nearest point: length |theta|/||w||.
        foot = theta * w / norm2 if norm2 > 0 else np.full(2, np.nan)
        self.offset_line.set_data([0.0, foot[0]], [0.0, foot[1]])
        if target is not None:
            wrong = np.asarray(target) != outputs
            self.rings.set_offsets(self.X[wrong] if np.any(wrong) else np.empty((0, 2)))
        return outputs


def build_threshold_demo(
    X: ArrayLike | None = None,
    target: ArrayLike | None = None,
    *,
    angle: float = 0.0,
    theta: float = 0.0,
    norm: float = 1.0,
    limits: Limits = DEFAULT_LIMITS,
) -> SliderFigure:
    """Sliders for the angle and length of ``w`` and for ``theta`` of one threshold unit.

    The points are coloured by the unit's output ``sign(w.x - theta)`` (``sign(0) = -1``);
    with a ``target`` labelling, points where the unit disagrees with it are ringed.

    Parameters
    ----------
    X : array_like, shape (P, 2), optional
        Patterns; :func:`default_unit_data` when omitted (then its target too).
    target : array_like of -1/+1, optional
        Labels to compare the outputs with.
    angle, theta, norm : float
        Start values of the sliders (degrees, threshold, ``||w||``).
    limits : (xmin, xmax, ymin, ymax)

    Examples
    --------
    >>> demo = build_threshold_demo()
    >>> demo.controls["theta"].value = 5.0   # every point on the -1 side: no crash
    >>> "fires (+1) on <b>0</b>" in demo.status.value
    True
    """
    if X is None:
        X, default_target = default_unit_data()
        target = default_target if target is None else target
    X = as_patterns(X)
    if target is not None:
        target = as_labels(target, X.shape[0], name="target")
    fig, (ax,) = new_figure(width=5.2, height=4.6)
    setup_plane(ax, limits)
    artists = ThresholdArtists(ax, X, limits)
    # The key lives in the HTML status, not in a matplotlib legend: a legend costs about
    # as much to draw as the rest of the figure, on every slider move.
    key = legend_html(with_target=target is not None)
    controls = {
        "angle": _float_slider("angle", "angle of w (degrees)", angle, -180.0, 180.0, 1.0),
        "norm": _float_slider("norm", "‖w‖", norm, 0.0, 2.0, 0.05),
        "theta": _float_slider("theta", "threshold θ", theta, -3.0, 3.0, 0.05),
    }

    def redraw(values: dict[str, Any]) -> str:
        w = weights_from_angle(values["angle"], values["norm"])
        outputs = artists.update(w, values["theta"], target)
        # "Your unit:" keeps the key and the status apart in the one-line text of the
        # static frame too (there the line break becomes a space).
        status = threshold_status(outputs, w, values["theta"], target)
        return f"{key}<br>Your unit: {status}"

    return SliderFigure(
        fig, controls, redraw, moving=artists.moving,
        description=(
            "Points in the plane marked by the unit's output (circles +1, squares "
            "-1), the line w.x = theta set by the sliders, the side where the unit "
            "fires shaded and the normal w drawn as an arrow; points where the unit "
            "disagrees with the target are ringed."
        ),
    )


# ----------------------------------------------------------------------------- bias trick


DEFAULT_Z_RANGE = (-1.0, 1.5)


class BiasTrickArtists:
    """The augmented picture on 3-D axes: points at height 1, the plane ``w_hat . x_hat = 0``.

    Use on axes made with ``projection="3d"``; :meth:`update` moves the plane, its
    trace on the plane ``z = 1`` (the original decision line), the arrow ``w_hat`` and
    the colours of the lifted points.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().add_subplot(projection="3d")
    >>> arts = BiasTrickArtists(ax, [[0.0, 0.0], [1.0, 1.0]])
    >>> arts.update([1.0, 1.0], 1.0).tolist()
    [-1, 1]
    """

    def __init__(self, ax: Any, X: ArrayLike, limits: ArrayLike = DEFAULT_LIMITS,
                 z_range: tuple[float, float] = DEFAULT_Z_RANGE) -> None:
        self.X = as_patterns(X)
        if self.X.shape[1] != 2:
            raise ValueError(f"the bias-trick view lifts 2-D patterns, got dimension {self.X.shape[1]}")
        self.limits = tuple(float(v) for v in _check_limits(limits))
        self.box = (*self.limits, float(z_range[0]), float(z_range[1]))
        # Static artists a full 3-D draw shows in front of the moving plane (see moving).
        self._static_on_top: list[Any] = []
        xmin, xmax, ymin, ymax = self.limits
        ax.set_xlim(xmin, xmax)
        ax.set_ylim(ymin, ymax)
        ax.set_zlim(*z_range)
        # Tick numbers on a few ticks only (3-D text is the dear part of a draw), no panes or
        # grid: the thin coordinate axes through the origin are what the picture is about.
        ax.set_xticks([xmin, 0.0, xmax])
        ax.set_yticks([ymin, 0.0, ymax])
        ax.set_zticks([0.0, 1.0])
        for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
            axis.set_pane_color((1.0, 1.0, 1.0, 0.0))
        ax.grid(False)
        ax.tick_params(labelsize=9, pad=0)
        zmin, zmax = float(z_range[0]), float(z_range[1])
        axis_style = {"color": "#9a9a9a", "lw": 0.8}
        ax.plot([xmin, xmax], [0.0, 0.0], [0.0, 0.0], **axis_style)
        ax.plot([0.0, 0.0], [ymin, ymax], [0.0, 0.0], **axis_style)
        ax.plot([0.0, 0.0], [0.0, 0.0], [zmin, zmax], **axis_style)
        for position, text in (((xmax, 0.0, 0.0), "$x_1$"), ((0.0, ymax, 0.0), "$x_2$"),
                               ((0.0, 0.0, zmax), "$x_3$"), ((xmin, ymax, 1.15), "plane $x_3 = 1$")):
            self._static_on_top.append(ax.text(*position, text, fontsize=10, color="#555555", zorder=7))
        ax.view_init(elev=18, azim=-60)
        ax.set_box_aspect(None, zoom=1.05)  # room for the tick numbers
        square = [[xmin, ymin, 1.0], [xmax, ymin, 1.0], [xmax, ymax, 1.0], [xmin, ymax, 1.0]]
        floor = Poly3DCollection([square], facecolor="#bbbbbb", alpha=0.18, edgecolor="#999999")
        ax.add_collection3d(floor)
        floor.set_zorder(6)
        self._static_on_top.append(floor)
        self.plane = Poly3DCollection([np.zeros((3, 3))], facecolor=NORMAL_COLOR, alpha=0.18,
                                      edgecolor=NORMAL_COLOR, linewidths=0.6)
        ax.add_collection3d(self.plane)
        # Last when blitting, as in a full 3-D draw, where depth sorting puts it in front.
        self.plane.set_zorder(5)
        self.trace = ax.plot([], [], [], color=BOUNDARY_COLOR, lw=2.0)[0]
        style = {"ls": "none", "markersize": 5, "markeredgecolor": "white", "markeredgewidth": 0.5}
        self.pos = ax.plot([], [], [], marker=POSITIVE_MARKER, color=POSITIVE_COLOR, **style)[0]
        self.neg = ax.plot([], [], [], marker=NEGATIVE_MARKER, color=NEGATIVE_COLOR, **style)[0]
        self.normal = ax.plot([], [], [], color=NORMAL_COLOR, lw=2.0, marker="o", markevery=[1],
                              markersize=4)[0]
        ax.plot([0.0], [0.0], [0.0], marker="+", color=BOUNDARY_COLOR, markersize=8)

    @property
    def moving(self) -> list[Any]:
        """The artists :meth:`update` changes (for ``SliderFigure(..., moving=...)``)."""
        return [self.plane, self.trace, self.pos, self.neg, self.normal, *self._static_on_top]

    def update(self, w: ArrayLike, theta: float) -> NDArray[np.int64]:
        """Move the 3-D picture to the unit ``(w, theta)``; return its outputs on ``X``."""
        w = as_weights(w, 2)
        theta = float(theta)
        w_hat = augment_weights(w, theta)
        outputs = threshold_unit(self.X, w, theta)
        for artist, mask in ((self.pos, outputs > 0), (self.neg, outputs < 0)):
            pts = self.X[mask]
            artist.set_data_3d(pts[:, 0], pts[:, 1], np.ones(len(pts)))
        poly = plane_box_polygon(w_hat, self.box)
        self.plane.set_visible(len(poly) > 0)
        if len(poly):
            self.plane.set_verts([poly])
            if getattr(self.plane.axes, "M", None) is not None:
                # Drawn alone when blitting: project it now (a full draw would do this).
                self.plane.do_3d_projection()
        seg = segment_in_box(w, theta, self.limits)
        self.trace.set_data_3d(seg[:, 0], seg[:, 1], np.ones(2))
        norm = float(np.linalg.norm(w_hat))
        tip = w_hat / norm if norm > 0 else np.zeros(3)
        self.normal.set_data_3d([0.0, tip[0]], [0.0, tip[1]], [0.0, tip[2]])
        return outputs


def build_bias_trick_demo(
    X: ArrayLike | None = None,
    *,
    angle: float = 30.0,
    theta: float = 0.6,
    limits: Limits = (-2.0, 2.0, -2.0, 2.0),
) -> SliderFigure:
    """Side by side: a unit in the plane and the same unit as a plane through the origin in 3-D.

    Left, the line ``w.x = theta`` among the points; right, the points lifted to
    ``(x, 1)`` and the plane ``w_hat . x_hat = 0`` with ``w_hat = (w, -theta)``, whose
    trace on the plane ``x_3 = 1`` is exactly the line on the left.

    Examples
    --------
    >>> demo = build_bias_trick_demo()
    >>> demo.controls["theta"].value = 0.0   # the plane turns vertical: still drawn
    >>> demo.n_redraws
    2
    """
    if X is None:
        X, _ = default_unit_data(14, rng=7)
        X = np.clip(X, -1.9, 1.9)
    X = as_patterns(X)
    fig, (ax2, placeholder) = new_figure(2, width=4.2, height=3.8)
    placeholder.remove()  # the right panel is 3-D
    ax3 = fig.add_subplot(1, 2, 2, projection="3d")
    setup_plane(ax2, limits)
    flat = ThresholdArtists(ax2, X, limits)
    ax2.set_title("the unit in the plane")
    ax3.set_title(r"lifted: $\hat w\cdot\hat x = 0$ through the origin")
    lifted = BiasTrickArtists(ax3, X, limits)
    controls = {
        "angle": _float_slider("angle", "angle of w (degrees)", angle, -180.0, 180.0, 1.0),
        "theta": _float_slider("theta", "threshold θ", theta, -2.0, 2.0, 0.05),
    }

    def redraw(values: dict[str, Any]) -> str:
        w = weights_from_angle(values["angle"])
        flat.update(w, values["theta"])
        lifted.update(w, values["theta"])
        w_hat = augment_weights(w, values["theta"])
        return f"ŵ = (w, −θ) = ({w_hat[0]:.2f}, {w_hat[1]:.2f}, {w_hat[2]:.2f})"

    # Blitting: the axes, ticks and 3-D frame are drawn once; only the unit moves.
    return SliderFigure(
        fig, controls, redraw, moving=[*flat.moving, *lifted.moving],
        description=(
            "Left: a threshold unit in the plane, its line w.x = theta and its firing"
            " side. Right: the same unit lifted to three dimensions with a constant "
            "input 1: a plane through the origin with normal (w, -theta) that cuts "
            "the lifted plane in the same line."
        ),
    )


DEMOS = {
    "threshold_unit": build_threshold_demo,
    "bias_trick": build_bias_trick_demo,
}
