"""Figures of lesson 7 (non-separable data): one call per figure."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._validation import as_count, as_positive_float
from perclib.plotting import (
    ACCENT_COLOR,
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    new_figure,
)
from perclib.plotting._tables import log_steps
from perclib.plotting._words import num


def draw_weight_lengths(mistakes_per_epoch: ArrayLike, weights: ArrayLike, R: float) -> Figure:
    """Left: mistakes per epoch. Right: ``||w_k||`` against the bound ``sqrt(k) R``.

    Parameters
    ----------
    mistakes_per_epoch : array_like of int
        Mistakes in each epoch of the run.
    weights : array_like, shape (n_updates + 1, N)
        The weight vectors of the run, ``w_0`` first.
    R : float
        Largest pattern norm (> 0).

    Returns
    -------
    Figure
        Its ``repr`` (the alt text) gives the range of mistakes per epoch, the first
        epoch without one, and the range of lengths next to the bound.

    Examples
    --------
    >>> fig = draw_weight_lengths([2, 1], [[0.0], [1.0], [0.0], [1.0]], 1.0)
    >>> len(fig.axes), "none is free of mistakes" in repr(fig)
    (2, True)
    """
    mistakes = np.asarray(mistakes_per_epoch, dtype=float).ravel()
    W = np.asarray(weights, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"weights must be a 2-D trace with at least one update, got {W.shape}")
    if not (np.isfinite(R) and R > 0):
        raise ValueError(f"R must be a positive number, got {R!r}")
    k = np.arange(1, W.shape[0])
    fig, (ax, bx) = new_figure(2, width=4.2, height=3.4)
    ax.plot(mistakes, color=NORMAL_COLOR, lw=1.0)
    ax.set_xlabel("epoch")
    ax.set_ylabel("mistakes in the epoch")
    ax.set_ylim(0, None)
    bx.loglog(k, np.linalg.norm(W[1:], axis=1), color=NORMAL_COLOR, lw=1.0,
              label=r"$\|\mathbf{w}_k\|$")
    bx.loglog(k, np.sqrt(k) * R, "--", color=ACCENT_COLOR, label=r"$\sqrt{k}\,R$")
    bx.set_xlabel("update $k$")
    bx.set_ylabel("length")
    bx.legend(loc="upper left", fontsize=8)
    lengths = np.linalg.norm(W[1:], axis=1)
    bound = np.sqrt(k) * R
    zero = np.flatnonzero(mistakes == 0)
    # Whether an epoch was free of mistakes is what tells separable data from the rest.
    clean = (f"the first without a mistake is epoch {zero[0] + 1}" if zero.size
             else "none is free of mistakes")
    above = int(np.count_nonzero(lengths > bound))
    under = ("never exceeds that bound" if above == 0
             else f"exceeds that bound after {above} of them")
    spread = (f", from {mistakes.min():.0f} to {mistakes.max():.0f}; {clean}"
              if mistakes.size else "")
    fig.alt_text = (
        f"Two panels. Left: the mistakes in each of {mistakes.size} epochs{spread}. "
        f"Right, on log-log axes: the length ‖w_k‖ after each of {k.size:,} updates, "
        f"between {lengths.min():.3g} and {lengths.max():.3g}, against the bound √k R, "
        f"which grows to {bound[-1]:.3g}: the length {under}.")
    _lengths_table(fig, mistakes, lengths, bound)
    return fig


def _lengths_table(fig: Figure, mistakes: np.ndarray, lengths: np.ndarray,
                   bound: np.ndarray) -> None:
    """Both panels at the end of chosen epochs: the first, the last, a logarithmic grid,
    the first free of mistakes and those with the fewest and most mistakes.

    The perceptron updates once per mistake, so epoch e ends at update k = the mistakes
    of epochs 1..e. When the counts do not add up to the updates drawn, the table gives
    the right panel alone, on a logarithmic grid of k."""
    if mistakes.size and mistakes.sum() == lengths.size and np.all(mistakes >= 0):
        n = mistakes.size
        epochs = {0, n - 1, int(np.argmin(mistakes)), int(np.argmax(mistakes)),
                  *(k - 1 for k in log_steps(1, n, 22))}
        ends = np.cumsum(mistakes).astype(int)

        def row(e: int) -> list[str]:
            k = ends[e]
            right = [num(lengths[k - 1]), num(bound[k - 1])] if k else ["", ""]
            return [f"{e + 1:,}", f"{mistakes[e]:.0f}", f"{k:,}", *right]

        fig.set_data_table(
            "Both panels at the end of chosen epochs (the first, the last, a logarithmic "
            "grid, those with the fewest and the most mistakes): the mistakes in the "
            "epoch, and after the k updates made by its end (one per mistake) the "
            "length ‖w_k‖ next to the bound √k R.",
            ["epoch", "mistakes in the epoch", "updates k so far", "‖w_k‖", "√k R"],
            [row(e) for e in sorted(epochs)])
        return
    last = lengths.size
    steps = log_steps(1, last, 25)
    fig.set_data_table(
        "The right panel: the length ‖w_k‖ after update k next to the bound √k R, on a "
        "logarithmic grid of k.",
        ["update k", "‖w_k‖", "√k R"],
        [[f"{k:,}", num(lengths[k - 1]), num(bound[k - 1])] for k in steps])


def draw_pocket_trace(trace_errors: ArrayLike, n_patterns: int) -> Figure:
    """Training errors of every weight vector of a run, and the best so far.

    Parameters
    ----------
    trace_errors : array_like of int
        Training errors of the weight vectors of the run, in order.
    n_patterns : int
        Size of the training set (the axis label).

    Returns
    -------
    Figure
        Its ``repr`` (the alt text) gives the fewest errors and the first update to
        reach them.

    Examples
    --------
    >>> fig = draw_pocket_trace([5, 3, 4, 2], 10)
    >>> len(fig.axes), "reaches 2 at update 3" in repr(fig)
    (1, True)
    """
    errors = np.asarray(trace_errors, dtype=float).ravel()
    if errors.size == 0:
        raise ValueError("trace_errors must not be empty")
    fig, (ax,) = new_figure(width=7.0, height=3.0)
    ax.plot(errors, color=NORMAL_COLOR, lw=0.5, label="current weights")
    ax.plot(np.minimum.accumulate(errors), color=HIGHLIGHT_COLOR, lw=2.0,
            label="fewest so far")
    ax.set_xlabel("update $k$")
    ax.set_ylabel(f"training errors (of {n_patterns})")
    # The whole range, the start (often every pattern wrong) included: the legend then
    # sits above the later weights' errors instead of on them.
    ax.set_ylim(0, 1.05 * max(float(errors.max()), 1.0))
    ax.legend(loc="upper right", fontsize=8)
    best = float(errors.min())
    first = int(np.argmax(errors == best))
    # The table under the figure: the start, every update that sets a new fewest, the end.
    record = np.minimum.accumulate(errors)
    steps = sorted({0, errors.size - 1, *np.flatnonzero(np.diff(record) < 0) + 1})
    fig.set_data_table(
        f"Training errors (of {n_patterns}) at the start, at every update that sets a new "
        "fewest, and at the last update.",
        ["update k", "errors of the current weights", "fewest so far"],
        [[f"{k:,}", f"{errors[k]:g}", f"{record[k]:g}"] for k in steps])
    hits = int(np.count_nonzero(errors == best))
    # Index k is the weight vector after update k; the start (k = 0) is often w = 0,
    # which errs on every pattern, so the range of the others is given apart.
    rest = errors[1:] if errors.size > 1 else errors
    fig.alt_text = (
        f"A plot of the training errors (of {n_patterns}) of the weights after each "
        f"update k = 0 to {errors.size - 1:,}, with the fewest so far: after "
        f"{errors[0]:.0f} at the start, the current weights make {rest.min():.0f} to "
        f"{rest.max():.0f} errors, while the fewest so far reaches {best:.0f} at update "
        f"{first} and stays there; the current weights make {best:.0f} errors "
        f"{hits} time{'s' if hits != 1 else ''}.")
    return fig


def draw_pull_back(
    paths: Sequence[ArrayLike], r: ArrayLike, dr: ArrayLike, delta: float, P: int, R: float
) -> Figure:
    """Why the weights stay bounded: a long weight vector is pulled back.

    Left: ``||w||`` at the start of each epoch, for runs from starts of several lengths.
    Right: the change of ``||w||`` over one epoch against its length ``r`` at the start
    of the epoch, measured, next to the worst case the weaker cycling theorem's proof
    allows, ``sqrt(r^2 - 2 delta r + 3 P R^2) - r``, which turns negative at
    ``r_* = 3 P R^2 / (2 delta)``.

    Parameters
    ----------
    paths : sequence of array_like
        For each run, ``||w||`` at the start of every epoch (positive).
    r, dr : array_like, same length
        Length at the start of an epoch, and its change over that epoch.
    delta : float
        The proof's ``delta`` (> 0): every direction has a pattern at least this far against it.
    P : int
        Number of patterns.
    R : float
        Largest pattern length (> 0).

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text).

    Examples
    --------
    >>> fig = draw_pull_back([[10.0, 6.0, 4.0]], [10.0, 6.0], [-4.0, -2.0], 0.5, 3, 1.0)
    >>> len(fig.axes), "pulled back" in repr(fig)
    (2, True)
    """
    lines = [np.asarray(p, dtype=float).ravel() for p in paths]
    if not lines or any(p.size == 0 or not np.all(np.isfinite(p)) or p.min() <= 0 for p in lines):
        raise ValueError("paths: give at least one run, each a non-empty list of positive lengths")
    r = np.asarray(r, dtype=float).ravel()
    dr = np.asarray(dr, dtype=float).ravel()
    if r.shape != dr.shape or r.size == 0 or r.min() <= 0:
        raise ValueError(f"r and dr: one change per positive start length, got {r.shape} and {dr.shape}")
    delta, R = as_positive_float(delta, "delta"), as_positive_float(R, "R")
    P = as_count(P, "P", minimum=1)
    r_star = 3 * P * R**2 / (2 * delta)

    fig, (ax1, ax2) = new_figure(2, width=4.5, height=3.4)
    shades = np.linspace(0.35, 1.0, len(lines))
    for path, shade in zip(lines, shades, strict=True):
        ax1.plot(np.arange(path.size), path, color=NORMAL_COLOR, alpha=float(shade), lw=1.5)
    ax1.set_yscale("log")
    ax1.set_xlabel("epoch")
    ax1.set_ylabel(r"$\|\mathbf{w}\|$ at the start of the epoch")
    ax1.set_title("long weights shrink, short ones stay short")
    grid = np.geomspace(min(r.min(), r_star) / 2, max(r.max(), r_star) * 2, 400)
    worst = np.sqrt(np.maximum(grid**2 - 2 * delta * grid + 3 * P * R**2, 0.0)) - grid
    ax2.plot(r, dr, ".", color=NORMAL_COLOR, ms=3, alpha=0.6, label="measured epochs")
    ax2.plot(grid, worst, "--", color=ACCENT_COLOR, lw=1.5, label="the proof's worst case")
    ax2.axhline(0.0, color=MARGIN_COLOR, lw=0.8)
    ax2.axvline(r_star, color=ACCENT_COLOR, lw=0.8)
    ax2.text(r_star, 0.95, r" $r_*$", transform=ax2.get_xaxis_transform(), va="top", fontsize=10)
    ax2.set_xscale("log")
    ax2.set_xlabel(r"$r = \|\mathbf{w}\|$ at the start of the epoch")
    ax2.set_ylabel(r"change of $\|\mathbf{w}\|$ over the epoch")
    ax2.set_title("the pull back beats the growth")
    ax2.legend(fontsize=9, loc="lower left", frameon=False)
    longest = max(float(p[0]) for p in lines)
    fig.alt_text = (
        f"Left: the length of the weights at the start of each epoch for {len(lines)} runs "
        f"started at lengths up to {longest:.0f}: runs from long starts are pulled back "
        "epoch after epoch, runs from short starts stay short. Right: the change of the "
        "length over one epoch against the length at its start, measured, below zero for "
        "all but the shortest weights; "
        f"the proof's worst case turns negative only at r* = {r_star:.0f}.")
    return fig


def draw_private_axes(margins: ArrayLike, gamma: float, R: float) -> Figure:
    """Freund and Schapire's extra coordinates: every pattern gets an axis of its own.

    Left: each pattern's margin ``m_t = y_t u . x_t`` under a unit ``u`` (sorted), and on
    top its shortfall ``d_t = max(0, gamma - m_t)``, which its private axis pays. Right:
    the plane of ``u`` and the private axis ``e_t`` of the pattern that falls shortest:
    lifted by ``Delta = sqrt(R D)`` along its own axis, it reaches the tilted separator's
    margin line, and no other pattern moves in this plane.

    Parameters
    ----------
    margins : array_like, shape (m,)
        ``y_t u . x_t`` for each pattern, with ``u`` a unit vector.
    gamma : float
        The margin asked for (> 0).
    R : float
        Largest pattern length (> 0).

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text).

    Examples
    --------
    >>> fig = draw_private_axes([1.5, 0.2, -0.3, 2.0], 1.0, 2.0)
    >>> len(fig.axes), "own axis" in repr(fig)
    (2, True)
    """
    m = np.sort(np.asarray(margins, dtype=float).ravel())
    if m.size == 0 or not np.all(np.isfinite(m)):
        raise ValueError("margins: give the finite margins y u.x of at least one pattern")
    gamma, R = as_positive_float(gamma, "gamma"), as_positive_float(R, "R")
    d = np.maximum(0.0, gamma - m)
    D = float(np.sqrt(np.sum(d**2)))
    fig, (ax1, ax2) = new_figure(2, width=4.5, height=3.4)
    idx = np.arange(m.size)
    ax1.bar(idx, m, width=1.0, color=POSITIVE_COLOR, label=r"margin $y_t\,\mathbf{u}\cdot\mathbf{x}_t$")
    ax1.bar(idx, d, bottom=np.minimum(m, gamma), width=1.0, color=ACCENT_COLOR, alpha=0.6,
            label=r"shortfall $d_t$, paid by its own axis")
    ax1.axhline(gamma, color=BOUNDARY_COLOR, lw=1, ls="--")
    ax1.annotate(r" $\gamma$", (1.0, gamma), xycoords=("axes fraction", "data"), va="center",
                 fontsize=10)
    ax1.axhline(0.0, color=MARGIN_COLOR, lw=0.8)
    ax1.set_xlabel("patterns, by margin")
    ax1.set_ylabel(r"$y_t\,\mathbf{u}\cdot\mathbf{x}_t$")
    ax1.set_title(f"{np.count_nonzero(d > 0)} of {m.size} patterns fall short")
    ax1.legend(fontsize=9, loc="upper left", frameon=False)
    ax1.set_xlim(-0.5, m.size - 0.5)
    if D > 0:
        delta = np.sqrt(R * D)
        worst = int(np.argmax(d))
        m_t, d_t = float(m[worst]), float(d[worst])
        x_lo, x_hi = min(m_t, 0.0) - 0.3 * gamma, 2.6 * gamma
        xs = np.array([x_lo, x_hi])
        ax2.plot(xs, (gamma - xs) * delta / d_t, color=BOUNDARY_COLOR, lw=1.5,
                 label=r"margin line of the tilted $\mathbf{u}'$")
        ax2.axvline(gamma, color=MARGIN_COLOR, lw=0.8, ls="--")
        ax2.annotate("", xy=(m_t, delta), xytext=(m_t, 0.0),
                     arrowprops={"arrowstyle": "->", "color": ACCENT_COLOR, "lw": 1.5})
        ax2.plot([m_t], [0.0], "o", color=POSITIVE_COLOR, ms=7, label="the pattern, before")
        ax2.plot([m_t], [delta], "o", color=ACCENT_COLOR, ms=7,
                 label=r"lifted by $\Delta$ on its own axis")
        ax2.plot([gamma * 1.8], [0.0], "o", color=POSITIVE_COLOR, ms=5, alpha=0.5)
        ax2.text(gamma * 1.8, 0.05 * delta, "others\nstay at 0", ha="center", va="bottom",
                 fontsize=9)
        ax2.axhline(0.0, color=MARGIN_COLOR, lw=0.8)
        ax2.set_xlim(x_lo, x_hi)
        ax2.set_ylim(-0.15 * delta, 1.35 * delta)
        ax2.set_xlabel(r"along $\mathbf{u}$")
        ax2.set_ylabel(r"along its private axis $\mathbf{e}_t$")
        ax2.set_title("the pattern that falls shortest")
        ax2.legend(fontsize=9, loc="upper right", frameon=False)
    else:
        ax2.set_axis_off()
        ax2.text(0.5, 0.5, "no pattern falls short: D = 0", ha="center", va="center",
                 transform=ax2.transAxes)
    fig.alt_text = (
        f"Left: the margins of {m.size} patterns under a unit vector u, sorted, with the "
        f"shortfall of each pattern below gamma = {gamma:g} stacked on top; the shortfalls "
        f"have Euclidean length D = {D:.2f} (the root of their sum of squares). Right: the "
        "pattern that falls shortest, in the "
        "plane of u and its own axis: lifted along its own axis, it reaches the margin line "
        "of the tilted separator, while every other pattern stays at height 0 there.")
    return fig
