"""Figures of lesson 4 (Cover's counting theorem): one call per figure."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._validation import as_plane_points
from perclib.capacity import capacity_curve
from perclib.plotting import (
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    POSITIVE_COLOR,
    decision_line,
    legend,
    new_figure,
    plot_patterns,
    setup_plane,
)

__all__ = ["draw_capacity_curves", "draw_two_way"]

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

    Examples
    --------
    >>> old = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.5]])
    >>> fig = draw_two_way(old, [1.0, 1.0], [[-1, 1, 1], [1, -1, -1]])
    >>> len(fig.axes)
    2
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

    Examples
    --------
    >>> fig = draw_capacity_curves((2, 10))
    >>> len(fig.axes[0].get_lines())  # two curves and the two guide lines
    4
    """
    Ns = [int(n) for n in Ns]
    if not 1 <= len(Ns) <= len(_STYLES) or min(Ns) < 1:
        raise ValueError(f"Ns must hold 1 to {len(_STYLES)} dimensions >= 1, got {Ns}")
    if int(max_load) < 1:
        raise ValueError(f"max_load must be at least 1, got {max_load!r}")
    fig, (ax,) = new_figure(width=5.6, height=3.6)
    for n, style in zip(Ns, _STYLES[len(_STYLES) - len(Ns):], strict=True):
        alpha, frac = capacity_curve(n, int(max_load) * n)
        ax.plot(alpha, frac, style, color=POSITIVE_COLOR, lw=1.5, label=f"N = {n}")
    ax.axvline(2, color=MARGIN_COLOR, lw=0.8)
    ax.axhline(0.5, color=MARGIN_COLOR, lw=0.8)
    ax.set_xlabel(r"load $\alpha = P/N$")
    ax.set_ylabel(r"separable fraction $C(P,N)/2^P$")
    legend(ax)
    return fig
