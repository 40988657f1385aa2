"""Lesson 3 widget: move two of four points and watch general position and the count.

Four points in the plane, A and B fixed, C and D on sliders whose steps (0.25) land
exactly on the degenerate positions: on a line through two other points, or on top
of another point. The left panel draws the points and a dashed line through every
collinear triple; the right panel shows all 16 labellings of the four points in
miniature, the linearly separable ones (with a threshold) in colour and the others
greyed out. The status line reports the general-position verdict and the count.

Speed: a slider move must cost well under 30 ms, so the 16 separability questions
are not sent to an LP solver here. In the plane there is an exact shortcut
(:func:`planar_separable_labelings`): the order of the points' projections onto a
direction only changes at finitely many critical angles, so testing one direction
inside each arc between them decides every labelling at once. Tests compare it
with the LP verdicts of :func:`perclib.is_separable`.
"""

from __future__ import annotations

import itertools

import ipywidgets as widgets
import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_patterns
from perclib.plotting import (
    ACCENT_COLOR,
    HIGHLIGHT_COLOR,
    NEGATIVE_COLOR,
    NEGATIVE_MARKER,
    POSITIVE_COLOR,
    POSITIVE_MARKER,
    diagram_panel,
    new_figure,
    setup_plane,
)
from perclib.widgets.base import SliderFigure, start_value

#: Relative tolerance for a collinear triple, the same rule as ``perclib.in_general_position``.
COLLINEAR_TOL = 1e-9

_MAX_POINTS = 12


def _as_planar(X: ArrayLike) -> NDArray[np.float64]:
    X = as_patterns(X)
    if X.shape[1] != 2:
        raise ValueError(f"X must hold points of the plane (shape (P, 2)), got shape {X.shape}")
    if X.shape[0] > _MAX_POINTS:
        raise ValueError(f"at most {_MAX_POINTS} points (2**P labellings), got {X.shape[0]}")
    return X


def all_labelings(P: int) -> NDArray[np.float64]:
    """Every labelling of ``P`` points, one row of -1/+1 each: bit ``i`` of row ``r`` is point ``i``.

    Examples
    --------
    >>> all_labelings(2).tolist()
    [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]]
    """
    if isinstance(P, bool) or not isinstance(P, int | np.integer) or not 1 <= P <= _MAX_POINTS:
        raise ValueError(f"P must be an integer between 1 and {_MAX_POINTS}, got {P!r}")
    bits = (np.arange(2**P)[:, None] >> np.arange(P)[None, :]) & 1
    return 2.0 * bits - 1.0


def planar_separable_labelings(X: ArrayLike) -> NDArray[np.bool_]:
    """Which labellings of points in the plane a line with a threshold separates strictly.

    Entry ``r`` refers to row ``r`` of :func:`all_labelings` ``(P)``. A labelling is
    separable when some unit vector ``u`` puts every +1 point's projection above every
    -1 point's. The projection order only changes at the *critical* directions,
    perpendicular to a difference of two distinct points; between two neighbouring
    critical directions it is constant. The set of good directions is open, so if it
    is not empty it contains the middle of some arc between critical directions:
    testing those middles (at most ``P (P - 1)`` of them) is exact. Gaps are required
    to exceed ``1e-12`` times the size of the data, which only matters for nearly
    degenerate input.

    Parameters
    ----------
    X : array_like, shape (P, 2)
        At most 12 points.

    Returns
    -------
    ndarray of bool, shape (2**P,)

    Examples
    --------
    >>> int(planar_separable_labelings([[0, 0], [1, 0], [0, 1], [1, 1]]).sum())  # the square
    14
    >>> int(planar_separable_labelings([[0, 0], [1, 1], [2, 2]]).sum())  # three on a line
    6
    """
    X = _as_planar(X)
    P = X.shape[0]
    i, j = np.triu_indices(P, k=1)
    diff = X[j] - X[i]
    diff = diff[np.any(diff != 0, axis=1)]  # coincident points have no critical direction
    critical = np.arctan2(diff[:, 1], diff[:, 0]) + np.pi / 2
    critical = np.unique(np.mod(np.concatenate([critical, critical + np.pi]), 2 * np.pi))
    if critical.size == 0:
        middles = np.array([0.0])
    else:
        following = np.append(critical[1:], critical[0] + 2 * np.pi)
        middles = (critical + following) / 2
    U = np.column_stack([np.cos(middles), np.sin(middles)])
    proj = X @ U.T  # (P, M)
    labels = all_labelings(P)  # (L, P)
    positive = labels[:, :, None] > 0  # (L, P, 1)
    low_pos = np.where(positive, proj[None], np.inf).min(axis=1)  # (L, M)
    high_neg = np.where(~positive, proj[None], -np.inf).max(axis=1)
    scale = 1.0 + float(np.abs(X).max())
    return np.any(low_pos - high_neg > 1e-12 * scale, axis=1)


def planar_dichotomy_count(X: ArrayLike) -> int:
    """Number of labellings of points in the plane separable by a line with a threshold.

    Examples
    --------
    >>> planar_dichotomy_count([[0, 0], [1, 0], [0, 1]])  # a triangle: all 8
    8
    """
    return int(planar_separable_labelings(X).sum())


def collinear_triples(X: ArrayLike, *, tol: float = COLLINEAR_TOL) -> list[tuple[int, int, int]]:
    """Index triples of points in the plane lying on one line (or with two points equal).

    The rule of ``perclib.in_general_position(X, threshold=True)``: the triple's
    augmented 3x3 matrix of rows ``(x, y, 1)`` counts as singular when its smallest
    singular value is at most ``tol`` times its largest.

    Examples
    --------
    >>> collinear_triples([[0, 0], [1, 1], [2, 2], [0, 1]])
    [(0, 1, 2)]
    """
    X = _as_planar(X)
    if not 0 < tol < 1:
        raise ValueError(f"tol must be between 0 and 1, got {tol}")
    if X.shape[0] < 3:
        return []
    triples = list(itertools.combinations(range(X.shape[0]), 3))
    Z = np.hstack([X, np.ones((X.shape[0], 1))])[np.array(triples)]  # (T, 3, 3)
    s = np.linalg.svd(Z, compute_uv=False)
    return [t for t, row in zip(triples, s, strict=True) if row[-1] <= tol * row[0]]


def _line_through(points: NDArray[np.float64], extent: float = 50.0) -> NDArray[np.float64]:
    """Two far points on the line through (nearly) collinear points, for drawing."""
    centre = points.mean(axis=0)
    _, _, vt = np.linalg.svd(points - centre)
    direction = vt[0]
    return np.vstack([centre - extent * direction, centre + extent * direction])


_NAMES = "ABCD"
_FIXED = np.array([[0.0, 0.0], [2.0, 0.0]])
_LIMITS = (-1.5, 3.5, -1.5, 3.5)
_GREY = "#d9d9d9"
_TAG_SHIFT = np.array([0.22, 0.22])  # letters sit up and to the right of their point
def _miniature_layout(X: NDArray[np.float64]) -> NDArray[np.float64]:
    """Positions of the 16 x 4 miniature points: the configuration scaled into a 4 x 4 grid."""
    span = np.ptp(X, axis=0)
    scale = 0.6 / max(float(span.max()), 1e-12)
    unit = (X - X.min(axis=0) - span / 2) * scale  # centred, fits in a 0.6 x 0.6 box
    cells = np.array([(r % 4, 3 - r // 4) for r in range(16)], dtype=float)  # (column, row)
    return cells[:, None, :] + unit[None, :, :]  # (16, 4, 2)


def _draw_key(fig: Figure) -> None:
    """One row under both panels: what the dashes, the two markers and the two frames mean."""
    frame = {"width": 1.0, "height": 1.0, "lw": 1.2}
    key = [
        Line2D([], [], ls="--", lw=1.4, color=HIGHLIGHT_COLOR, label="three on one line"),
        Line2D([], [], ls="", marker=POSITIVE_MARKER, color=POSITIVE_COLOR, label="+1"),
        Line2D([], [], ls="", marker=NEGATIVE_MARKER, color=NEGATIVE_COLOR, label="\u22121"),
        Rectangle((0, 0), **frame, facecolor="white", edgecolor=ACCENT_COLOR, label="separable"),
        Rectangle((0, 0), **frame, facecolor=_GREY, edgecolor="#999999", label="not separable"),
    ]
    fig.legend(handles=key, loc="outside lower center", ncol=len(key), frameon=False, fontsize=9,
               handlelength=1.6, handletextpad=0.4, columnspacing=1.4)


def _start_point(point: object, name: str, lo: float, hi: float) -> tuple[float, float]:
    if isinstance(point, str | bytes) or np.ndim(point) != 1 or np.size(point) != 2:
        raise ValueError(f"{name} must be a point (x, y), got {point!r}")
    return tuple(start_value(v, name, lo, hi) for v in point)  # type: ignore[return-value]


def build_point_mover(
    c: tuple[float, float] = (0.0, 2.0), d: tuple[float, float] = (2.0, 2.0)
) -> SliderFigure:
    """Four points, two on sliders: general position and the number of separable labellings.

    A = (0, 0) and B = (2, 0) are fixed; C and D move on a 0.25 grid, so exact
    collinearity and coincidence are reachable.

    Parameters
    ----------
    c, d : pair of floats
        Initial positions of C and D (defaults: the square with A and B).

    Examples
    --------
    >>> demo = build_point_mover()
    >>> "14 of 16" in demo.status.value
    True
    >>> demo.controls["D x"].value = 3.0
    >>> demo.controls["D y"].value = 0.0          # D onto the line AB, beyond B
    >>> "12 of 16" in demo.status.value
    True
    """
    lo, hi = _LIMITS[0] + 0.5, _LIMITS[1] - 0.5  # the sliders' range
    c, d = (_start_point(p, name, lo, hi) for p, name in ((c, "c"), (d, "d")))
    fig, (ax, bx) = new_figure(2, width=3.6, height=3.6)
    setup_plane(ax, _LIMITS)
    ax.set_xticks([-1.0, 0.0, 1.0, 2.0, 3.0])  # fixed ticks: the locator need not run per frame
    ax.set_yticks([-1.0, 0.0, 1.0, 2.0, 3.0])
    # The key is drawn once, into the cached background (blitting): it costs no time per frame.
    _draw_key(fig)
    lines = [ax.plot([], [], ls="--", lw=1.4, color=HIGHLIGHT_COLOR, zorder=1)[0] for _ in range(4)]
    dots = ax.scatter(np.zeros(4), np.zeros(4), s=70, c="#333333", zorder=3)
    # Letters as mathtext markers: drawn as paths, so moving them costs no text layout.
    tags = [ax.scatter([0.0], [0.0], s=110, marker=f"${name}$", c="#333333", linewidths=0, zorder=4)
            for name in _NAMES]

    bx.set_xlim(-0.6, 3.6)
    bx.set_ylim(-0.6, 3.6)
    bx.set_aspect("equal")
    diagram_panel(bx)  # 16 miniatures, not a coordinate plot: no ticks or spines
    labels = all_labelings(4)
    is_pos = labels > 0
    pos = bx.scatter(np.zeros(int(is_pos.sum())), np.zeros(int(is_pos.sum())), s=22, marker=POSITIVE_MARKER,
                     linewidths=0)
    neg = bx.scatter(np.zeros(int((~is_pos).sum())), np.zeros(int((~is_pos).sum())), s=22,
                     marker=NEGATIVE_MARKER, linewidths=0)
    pos_rows = np.nonzero(is_pos)[0]  # which labelling each positive miniature point belongs to
    neg_rows = np.nonzero(~is_pos)[0]
    # One collection for the 16 frames (one draw call instead of 16 patches).
    corners = np.array([[-0.45, -0.45], [0.45, -0.45], [0.45, 0.45], [-0.45, 0.45]])
    frames = PolyCollection([corners + (r % 4, 3 - r // 4) for r in range(16)], linewidths=1.2, zorder=0)
    bx.add_collection(frames)
    colours = {True: (to_rgba(POSITIVE_COLOR), to_rgba(NEGATIVE_COLOR)),
               False: (to_rgba(POSITIVE_COLOR, 0.3), to_rgba(NEGATIVE_COLOR, 0.3))}

    step = {"step": 0.25, "min": _LIMITS[0] + 0.5, "max": _LIMITS[1] - 0.5}
    controls = {
        "C x": widgets.FloatSlider(value=c[0], description="C x", **step),
        "C y": widgets.FloatSlider(value=c[1], description="C y", **step),
        "D x": widgets.FloatSlider(value=d[0], description="D x", **step),
        "D y": widgets.FloatSlider(value=d[1], description="D y", **step),
    }

    def redraw(values: dict) -> str:
        X = np.vstack([_FIXED, [[values["C x"], values["C y"]], [values["D x"], values["D y"]]]])
        X = np.round(X, 10)  # slider values are multiples of 0.25: keep them exact
        dots.set_offsets(X)
        for tag, point in zip(tags, X, strict=True):
            tag.set_offsets([point + _TAG_SHIFT])
        triples = collinear_triples(X)
        for k, line in enumerate(lines):
            if k < len(triples):
                ends = _line_through(X[list(triples[k])])
                line.set_data(ends[:, 0], ends[:, 1])
            else:
                line.set_data([], [])
        separable = planar_separable_labelings(X)
        count = int(separable.sum())
        mini = _miniature_layout(X)
        pos.set_offsets(mini[is_pos])
        neg.set_offsets(mini[~is_pos])
        pos.set_facecolors([colours[bool(separable[r])][0] for r in pos_rows])
        neg.set_facecolors([colours[bool(separable[r])][1] for r in neg_rows])
        frames.set_facecolors(np.where(separable, "white", _GREY))
        frames.set_edgecolors(np.where(separable, ACCENT_COLOR, "#999999"))
        if triples:
            named = ", ".join("".join(_NAMES[i] for i in t) for t in triples)
            verdict = f"<b>not</b> in general position: on one line (or coinciding): {named}"
        else:
            verdict = "<b>in general position</b> (no three on a line, no two equal)"
        return (
            f"{verdict} &nbsp;|&nbsp; separable labellings: <b>{count} of 16</b> "
            f"(4 points in general position in the plane: always 14)"
        )

    # Blitting: only these are redrawn per frame; axes, ticks and labels come from a cached background.
    moving = [*lines, dots, *tags, frames, pos, neg]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "Left: four points A, B, C and D in the plane, C and D moved by the "
            "sliders, with a dashed line through any three points that lie on one "
            "line. Right: the 16 labellings of the four points, each marked separable"
            " or not by a line."
        ),
    )


DEMOS = {"point_mover": build_point_mover}
