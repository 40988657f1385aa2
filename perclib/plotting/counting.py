"""Figures of lesson 4 (Cover's counting theorem): one call per figure."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._validation import as_plane_points
from perclib.capacity import capacity_curve
from perclib.plotting import (
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NEGATIVE_COLOR,
    POSITIVE_COLOR,
    decision_line,
    legend,
    new_figure,
    plot_patterns,
    setup_plane,
)
from perclib.plotting._words import count, join, num, panels, point

__all__ = ["draw_capacity_curves", "draw_projection_3d", "draw_two_way"]

_STYLES = (":", "-.", "--", "-")


def draw_two_way(old: ArrayLike, new: ArrayLike, both: ArrayLike, *, lim: float = 2.5) -> Figure:
    """The dichotomies of ``old`` that extend both ways to ``new``, one panel each.

    Each panel shows the old points coloured by one such dichotomy, the line through
    the origin and ``new`` (which separates it), and the new point as a star.

    Parameters
    ----------
    old : array_like, shape (P, 2)
        The old points in the plane.
    new : array_like, shape (2,)
        The new point (not the origin).
    both : array_like, shape (k, P)
        The two-way dichotomies (labels -1/+1), for instance
        ``extension_split(old, new).both``; in the plane k = 2.
    lim : float, default 2.5
        Half-width of the square window.

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text):
        the points, the labellings and whether the line through the origin and the
        new point separates each of them.

    Examples
    --------
    >>> old = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    >>> fig = draw_two_way(old, [1.0, 1.0], [[-1, 1, 1], [1, -1, -1]])
    >>> len(fig.axes)
    2
    >>> "The second is the first with every label flipped" in repr(fig)
    True
    """
    X = as_plane_points(old, "old")
    x_new = np.asarray(new, dtype=float).ravel()
    Y = np.atleast_2d(np.asarray(both))
    if x_new.shape != (2,) or not np.any(x_new):
        raise ValueError(f"new must be a non-zero point of the plane, got {x_new}")
    if Y.ndim != 2 or Y.shape[1] != len(X) or not np.isin(Y, (-1, 1)).all():
        raise ValueError(f"both must be rows of {len(X)} labels -1/+1, got shape {Y.shape}")
    if not (np.isfinite(lim) and lim > 0):
        raise ValueError(f"lim must be a positive number, got {lim!r}")
    normal = np.array([-x_new[1], x_new[0]])  # the line through 0 and the new point
    fig, axes = new_figure(len(Y), width=3.4, height=3.3)
    for number, (ax, y_old) in enumerate(zip(axes, Y, strict=True), start=1):
        setup_plane(ax, (-lim, lim, -lim, lim))
        plot_patterns(ax, X, y_old)
        decision_line(ax, normal)
        ax.plot(*x_new, "*", ms=14, color=HIGHLIGHT_COLOR, label="new point")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        ax.set_title(f"two-way dichotomy {number} of {len(Y)}", fontsize=9)
    legend(axes[0], loc="upper left")
    side = Y * (X @ normal)  # which side of the line each old point is on, by its label
    split = (side > 0).all(axis=1) | (side < 0).all(axis=1)
    text = (f"{panels(len(Y))}: {count(len(Y), 'labelling')} of {len(X)} old points "
            "(blue circles +1, orange squares -1), a new point at "
            f"{point(x_new)} drawn as a star, and the line through the origin and it.")
    if len(Y) == 2 and np.array_equal(Y[1], -Y[0]):
        text += " The second is the first with every label flipped."
    if split.all():
        one = len(Y) == 1
        text += (f" In {'the' if one else 'every'} panel that line separates the two "
                 "labels, so turning it slightly puts the new point on either side: "
                 f"{'the' if one else 'each'} labelling extends both ways.")
    else:
        bad = [str(i + 1) for i in np.flatnonzero(~split)]
        which = "panel" if len(bad) == 1 else "panels"
        text += f" The line does not separate the labels in {which} {join(bad)}."
    fig.alt_text = text
    return fig


def draw_capacity_curves(Ns: Sequence[int] = (5, 20, 100, 500), *, max_load: int = 4) -> Figure:
    """The separable fraction C(P, N)/2^P against the load P/N, one curve per N.

    Parameters
    ----------
    Ns : sequence of int, default (5, 20, 100, 500)
        The dimensions, at most four (one line style each), each >= 1.
    max_load : int, default 4
        The curves run up to P = max_load * N (>= 1).

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text):
        where the curves are 1, where they reach 1/2 and how steeply they fall.

    Examples
    --------
    >>> fig = draw_capacity_curves((2, 10))
    >>> len(fig.axes[0].get_lines())  # two curves and the two guide lines
    4
    >>> "Every curve is 1 up to α = 1 and reaches 1/2 at α = 2" in repr(fig)
    True
    """
    Ns = [int(n) for n in Ns]
    if not 1 <= len(Ns) <= len(_STYLES) or min(Ns) < 1:
        raise ValueError(f"Ns must hold 1 to {len(_STYLES)} dimensions >= 1, got {Ns}")
    if int(max_load) < 1:
        raise ValueError(f"max_load must be at least 1, got {max_load!r}")
    fig, (ax,) = new_figure(width=5.6, height=3.6)
    curves = []
    for n, style in zip(Ns, _STYLES[len(_STYLES) - len(Ns):], strict=True):
        alpha, frac = capacity_curve(n, int(max_load) * n)
        curves.append((n, alpha, frac))
        ax.plot(alpha, frac, style, color=POSITIVE_COLOR, lw=1.5, label=f"N = {n}")
    ax.axvline(2, color=MARGIN_COLOR, lw=0.8)
    ax.axhline(0.5, color=MARGIN_COLOR, lw=0.8)
    ax.set_xlabel(r"load $\alpha = P/N$")
    ax.set_ylabel(r"separable fraction $C(P,N)/2^P$")
    legend(ax)
    fig.alt_text = _describe_capacity(curves, int(max_load))
    # The numbers behind the curves, at loads a reader compares (the site's table).
    loads = [a for a in (0.5, 1.0, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0, 4.0) if a <= int(max_load)]
    fig.set_data_table(
        "The separable fraction C(P, N)/2^P at a few loads α = P/N, read off the curves "
        "(between two whole P, on the straight piece drawn).",
        ["load α", *(f"N = {n}" for n, _, _ in curves)],
        [[f"{a:g}", *(f"{np.interp(a, al, f):.3f}" for _, al, f in curves)] for a in loads])
    return fig


def _describe_capacity(
    curves: list[tuple[int, np.ndarray, np.ndarray]], max_load: int
) -> str:
    """The capacity curves in words, from the values drawn."""
    text = ("A plot of the separable fraction C(P, N)/2^P, the share of labellings of P "
            "points in general position realised by a plane through the origin, against "
            f"the load α = P/N (up to {max_load}) for N = "
            f"{join(str(n) for n, _, _ in curves)}.")
    ones = all(np.all(f[a <= 1] == 1.0) for _, a, f in curves)
    # The first load at which each curve is down to 1/2 (none if it never gets there).
    halves = {float(a[np.argmax(f <= 0.5)]) if np.any(f <= 0.5) else None
              for _, a, f in curves}
    facts = ["is 1 up to α = 1"] if ones else []
    if len(halves) == 1 and None not in halves:
        facts.append(f"reaches 1/2 at α = {num(halves.pop())}")
    if facts:
        text += f" {'Every' if len(curves) > 1 else 'The'} curve {' and '.join(facts)}."
    if max_load >= 2.5:
        at = [(n, *np.interp([1.5, 2.5], a, f)) for n, a, f in sorted(curves)]
        (n0, lo0, hi0), (n1, lo1, hi1) = at[0], at[-1]
        if len(at) == 1:
            text += f" At α = 1.5 the fraction is {lo0:.2f}; at α = 2.5, {hi0:.2f}."
        else:
            text += (f" At α = 1.5 the fraction is {lo0:.2f} for N = {n0} and {lo1:.2f} "
                     f"for N = {n1}; at α = 2.5, {hi0:.2f} and {hi1:.2f}")
            before, after = [v[1] for v in at], [v[2] for v in at]
            steeper = before == sorted(before) and after == sorted(after, reverse=True)
            text += ": the larger N, the sharper the step." if steeper else "."
    return text


def draw_projection_3d(old: ArrayLike, new: ArrayLike, labels: ArrayLike) -> Figure:
    """The projection step of Cover's proof in 3-D: a plane through the new point's line.

    Left: the old points in space, coloured by ``labels``, the line through the origin
    and ``new`` (dashed, the new point a star) and a plane that contains that line and
    separates the labelling. Right: the view along that line: the shadows of the old
    points on the plane orthogonal to ``new`` (the new point's shadow is the origin) and
    the plane's trace, a line through the origin.

    Parameters
    ----------
    old : array_like, shape (P, 3)
        The old points.
    new : array_like, shape (3,)
        The new point (not the origin).
    labels : array_like, shape (P,)
        A labelling of the old points (-1/+1) that a plane containing ``new`` separates
        (one that extends both ways, e.g. a row of ``extension_split(old, new).both``).

    Returns
    -------
    Figure
        Two panels; the alt text says how many shadows lie on the side of their label
        and why the labelling extends both ways.

    Raises
    ------
    ValueError
        For points not in 3-D, a zero new point, labels not -1/+1, or a labelling that
        no plane through the new point's line separates.

    Examples
    --------
    >>> old = np.array([[1.0, 0, 0.2], [-1.0, 0, 0.5], [0, 1.0, -0.3]])
    >>> fig = draw_projection_3d(old, [0, 0, 1.0], [1, -1, 1])
    >>> "3 of 3 shadows" in repr(fig)
    True
    """
    from perclib.geometry import max_margin

    X = np.asarray(old, dtype=float)
    z = np.asarray(new, dtype=float).ravel()
    y = np.asarray(labels, dtype=float).ravel()
    if X.ndim != 2 or X.shape[1] != 3 or not np.all(np.isfinite(X)):
        raise ValueError(f"old must be finite points of shape (P, 3), got shape {X.shape}")
    if z.shape != (3,) or not np.any(z) or not np.all(np.isfinite(z)):
        raise ValueError(f"new must be a non-zero point of 3-D space, got {z}")
    if y.shape != (len(X),) or not np.isin(y, (-1, 1)).all():
        raise ValueError(f"labels must be {len(X)} values -1/+1, got {y.tolist()}")
    unit = z / np.linalg.norm(z)
    # An orthonormal basis (e1, e2) of the plane orthogonal to the new point.
    helper = np.eye(3)[int(np.argmin(np.abs(unit)))]
    e1 = np.cross(unit, helper)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(unit, e1)
    shadows = X @ np.column_stack([e1, e2])
    if np.any(np.linalg.norm(shadows, axis=1) == 0):
        raise ValueError("an old point lies on the new point's line")
    try:
        v = max_margin(shadows, y).w
    except ValueError:
        v = None
    if v is None or not np.all(y * (shadows @ v) > 0):
        raise ValueError("no plane through the new point's line separates these labels")
    w = v[0] * e1 + v[1] * e2  # the plane w.x = 0 contains the new point's line
    along = np.cross(w, unit)
    along /= np.linalg.norm(along)
    fig, (flat, right) = new_figure(2, height=4.2)
    fig.delaxes(flat)
    left = fig.add_subplot(1, 2, 1, projection="3d")
    left.view_init(elev=18, azim=-60)
    size = 1.1 * float(np.abs(X).max())
    s, t = np.meshgrid(np.linspace(-size, size, 2), np.linspace(-size, size, 2))
    patch = s[..., None] * unit + t[..., None] * along
    left.plot_surface(patch[..., 0], patch[..., 1], patch[..., 2], color=MARGIN_COLOR,
                      alpha=0.18, linewidth=0)
    for sign, color, marker, name in ((1, POSITIVE_COLOR, "o", "+1"),
                                      (-1, NEGATIVE_COLOR, "s", "-1")):
        pts = X[y == sign]
        left.scatter(*pts.T, s=40, marker=marker, color=color, depthshade=False, label=name)
    line = np.outer([-size, size], unit)
    left.plot(*line.T, color=BOUNDARY_COLOR, linestyle="--", linewidth=1.2)
    left.scatter(*z, s=160, marker="*", color=HIGHLIGHT_COLOR, depthshade=False,
                 label="new point")
    left.set_title("in space")
    for setter in (left.set_xlabel, left.set_ylabel, left.set_zlabel):
        setter("")
    left.legend(loc="upper left", frameon=False)
    lim = 1.15 * float(np.abs(shadows).max())
    setup_plane(right, (-lim, lim, -lim, lim))
    plot_patterns(right, shadows, y)
    right.scatter([0.0], [0.0], s=160, marker="*", color=HIGHLIGHT_COLOR, zorder=4,
                  label="new point's shadow")
    decision_line(right, v, 0.0, label="the plane, seen edge-on")
    right.set_xlabel("along e1 (orthogonal to the new point)")
    right.set_ylabel("along e2")
    right.set_title("seen along the dashed line")
    legend(right)
    good = int(np.count_nonzero(y * (shadows @ v) > 0))
    fig.alt_text = (
        f"Two panels. Left, in 3-D: {count(len(X), 'old point')} (blue circles +1, orange "
        f"squares -1), the new point {point(z)} as a star on a dashed line through the "
        "origin, and a grey plane that contains this line and separates the labelling. "
        "Right, looking along that line: the shadows of the old points on the plane "
        "orthogonal to the new point, the new point's shadow at the origin, and the "
        f"plane seen edge-on as a line through the origin: {good} of {len(X)} shadows lie "
        "on the side of their label. Tilting the plane slightly towards either side of "
        "the new point keeps every old point's side and gives the new point either label, "
        "so this labelling extends both ways.")
    return fig
