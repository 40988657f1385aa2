"""Figures of lesson 6: margins, the maximum-margin line, large-margin training runs.

Each helper builds one whole figure in the course style and returns it, so the
lesson cell shows one call next to the computation it is about.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from numpy.typing import ArrayLike, NDArray

from perclib._exact import count_mistakes
from perclib._validation import as_plane_data, as_positive_float, as_weights
from perclib.geometry import margin, pattern_margins
from perclib.plotting import (
    ACCENT_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NEGATIVE_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    decision_line,
    legend,
    margin_lines,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
)
from perclib.plotting._tables import log_steps
from perclib.plotting._words import num
from perclib.train.large_margin import LargeMarginResult

_PLANE = (-2.5, 2.5, -2.5, 2.5)


def _ring(ax: object, points: NDArray[np.float64], label: str) -> None:
    ax.scatter(*np.atleast_2d(points).T, s=170, facecolors="none",  # type: ignore[attr-defined]
               edgecolors=HIGHLIGHT_COLOR, linewidths=2, zorder=4, label=label)


def plot_distances(X: ArrayLike, y: ArrayLike, w: ArrayLike) -> Figure:
    """Patterns, the line ``w.x = 0``, each pattern's distance to it, and the margin band.

    Parameters
    ----------
    X : array_like, shape (P, 2)
        Patterns in the plane.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    w : array_like, shape (2,)
        A non-zero weight vector.

    Returns
    -------
    Figure
        One panel; the closest pattern is ringed and the title gives ``gamma(w)``. Its
        ``repr`` (the alt text) counts the patterns on the wrong side (``y w.x <= 0``).

    Examples
    --------
    >>> fig = plot_distances([[1.0, 1.0], [-1.0, -2.0]], [1, -1], [1.0, 0.0])
    >>> fig.axes[0].get_title()
    '$\\\\gamma(\\\\mathbf{w})$ = 1.000: distances to the line'
    >>> "All 2 are on their own side" in repr(fig)
    True
    """
    X, y = as_plane_data(X, y)
    w = as_weights(w, 2)
    if not np.any(w):
        raise ValueError("w must be non-zero: the zero vector defines no line")
    feet = X - np.outer(X @ w / (w @ w), w)
    gamma = margin(w, X, y)
    fig, (ax,) = new_figure(width=4.6, height=4.3)
    setup_plane(ax, _PLANE)
    for x, foot in zip(X, feet, strict=True):
        ax.plot([x[0], foot[0]], [x[1], foot[1]], color=MARGIN_COLOR, lw=0.8, zorder=1)
    plot_patterns(ax, X, y)
    decision_line(ax, w, label=r"$\mathbf{w}\cdot\mathbf{x}=0$")
    margin_lines(ax, w, 0.0, gamma)
    normal_arrow(ax, w)
    _ring(ax, X[int(np.argmin(pattern_margins(w, X, y)))], "closest pattern")
    legend(ax, loc="lower left", fontsize=7)
    ax.set_title(rf"$\gamma(\mathbf{{w}})$ = {gamma:.3f}: distances to the line", fontsize=10)
    fig.alt_text = _distances_alt(X, y, w, gamma)
    return fig


def _patterns(X: NDArray[np.float64], y: NDArray[np.float64]) -> str:
    """The patterns and their labels, counted, and how many the window cuts off."""
    lo_x, hi_x, lo_y, hi_y = _PLANE
    out = int(np.count_nonzero((X[:, 0] < lo_x) | (X[:, 0] > hi_x)
                               | (X[:, 1] < lo_y) | (X[:, 1] > hi_y)))
    return (f"{y.size} patterns, {np.count_nonzero(y > 0)} labelled +1 and "
            f"{np.count_nonzero(y < 0)} labelled −1"
            + (f" ({out} outside the drawn square)" if out else ""))


def _distances_alt(X: NDArray[np.float64], y: NDArray[np.float64],
                   w: NDArray[np.float64], gamma: float) -> str:
    # A mistake is y w.x <= 0 (a pattern on the line counts as wrong), decided exactly
    # as the training rules decide it.
    wrong = count_mistakes(X, y, w)
    ringed = X[int(np.argmin(pattern_margins(w, X, y)))]
    where = f"({ringed[0]:.2f}, {ringed[1]:.2f})"
    side = (f"All {y.size} are on their own side; the ringed pattern at {where} is "
            f"closest, at distance γ(w) = {gamma:.3f}, the half-width of the dashed "
            "band."
            if wrong == 0 else
            f"{wrong} of {y.size} are on the wrong side or on the line; the ringed "
            f"pattern at {where} has the smallest margin, γ(w) = {gamma:.3f}.")
    return (f"Scatter of {_patterns(X, y)}, with the line w·x = 0 and a segment from "
            f"each pattern to the line. {side}")


def plot_max_margin(
    X: ArrayLike, y: ArrayLike, w: ArrayLike, angles: ArrayLike, scan: ArrayLike
) -> Figure:
    """The maximum-margin line (left) and the margin of every direction (right).

    Parameters
    ----------
    X, y : array_like
        Patterns in the plane and their labels.
    w : array_like, shape (2,)
        The maximum-margin normal; its support patterns (margin within 1e-9 of the
        best) are ringed.
    angles, scan : array_like, shape (K,)
        Angles of unit normals (radians) and their margins, as from
        :func:`perclib.direction_margins`.

    Returns
    -------
    Figure
        Two panels; its ``repr`` (the alt text) gives ``gamma_max``, the number of
        support patterns and the best sampled direction.

    Examples
    --------
    >>> X, y = [[1.0, 1.0], [-1.0, -2.0]], [1, -1]
    >>> phis = np.linspace(-np.pi, np.pi, 7)
    >>> scan = [margin([np.cos(p), np.sin(p)], X, y) for p in phis]
    >>> len(plot_max_margin(X, y, [1.0, 1.0], phis, scan).axes)
    2
    """
    X, y = as_plane_data(X, y)
    w = as_weights(w, 2)
    angles = np.asarray(angles, dtype=float)
    scan = np.asarray(scan, dtype=float)
    if angles.ndim != 1 or angles.shape != scan.shape:
        raise ValueError(f"angles and scan must be 1-D of one length, got {angles.shape}, {scan.shape}")
    gamma = margin(w, X, y)
    if not gamma > 0:
        raise ValueError("w does not separate the data: expected the maximum-margin normal")
    support = pattern_margins(w, X, y) <= gamma * (1 + 1e-9)
    fig, (ax, ax2) = new_figure(2, width=4.6, height=4.2)
    setup_plane(ax, _PLANE)
    plot_patterns(ax, X, y)
    decision_line(ax, w, label="maximum-margin line")
    margin_lines(ax, w, 0.0, gamma)
    normal_arrow(ax, w)
    _ring(ax, X[support], "support patterns")
    legend(ax, loc="lower left", fontsize=7)
    ax.set_title(rf"$\gamma_{{\max}}$ = {gamma:.3f}", fontsize=10)
    ax2.plot(np.degrees(angles), scan, color="black", lw=1.2)
    ax2.axhline(gamma, color=ACCENT_COLOR, ls=":", label=r"$\gamma_{\max}$")
    ax2.axhline(0, color="#d0d0d0", lw=0.8)
    ax2.plot(np.degrees(np.arctan2(w[1], w[0])), gamma, "o", color=NORMAL_COLOR, label="optimum")
    ax2.set_xlim(-180, 180)
    ax2.set_ylim(-2.5 * gamma, 1.4 * gamma)
    ax2.set_xlabel(r"angle $\varphi$ of the unit normal (degrees)")
    ax2.set_ylabel(r"margin $\gamma(\varphi)$")
    legend(ax2, loc="lower center", fontsize=8)
    peak = int(np.argmax(scan))
    # The share of sampled angles with a positive margin, times the span they cover.
    span = float(np.degrees(np.ptp(angles)))
    arc = span * np.count_nonzero(scan > 0) / scan.size
    scanned = "the circle" if span > 359.0 else f"the {span:.0f}° scanned"
    fig.alt_text = (
        f"Two panels. Left: {_patterns(X, y)}, the maximum-margin line, its band of "
        f"half-width γmax = {gamma:.3f} and its {np.count_nonzero(support)} support "
        "patterns ringed. Right: the margin of a unit normal against its angle, "
        f"positive on about {arc:.0f}° of {scanned}, highest ({scan[peak]:.3f}) at "
        f"{np.degrees(angles[peak]):.1f}°; the dot, the line's normal, is at "
        f"{np.degrees(np.arctan2(w[1], w[0])):.1f}°.")
    return fig


def plot_margin_ratios(ratio: ArrayLike) -> Figure:
    """Histogram of ``gamma(w) / gamma_max`` over runs, with the optimum marked at 1.

    The figure's ``repr`` (its alt text) gives the range, the median and how many runs
    reach half the optimum.

    Examples
    --------
    >>> fig = plot_margin_ratios([0.1, 0.2, 0.25, 0.7])
    >>> fig.axes[0].get_ylabel()
    'runs'
    >>> "1 of 4 runs reach at least half the optimum" in repr(fig)
    True
    """
    ratio = np.asarray(ratio, dtype=float)
    if ratio.ndim != 1 or ratio.size == 0 or not np.all(np.isfinite(ratio)):
        raise ValueError("ratio must be a non-empty 1-D array of finite numbers")
    fig, (ax,) = new_figure(width=5.5, height=2.8)
    counts, edges, _ = ax.hist(ratio, bins=np.linspace(0, 1, 21), color=NORMAL_COLOR,
                               edgecolor="white")
    ax.axvline(1.0, color=ACCENT_COLOR, ls=":", label=r"$\gamma_{\max}$")
    ax.set_xlabel(r"$\gamma(\mathbf{w}_{\mathrm{perceptron}}) / \gamma_{\max}$")
    ax.set_ylabel("runs")
    legend(ax, loc="upper right")
    half = int(np.count_nonzero(ratio >= 0.5))
    # np.histogram's bins on [0, 1] leave out what lies outside: say how many.
    out = int(np.count_nonzero((ratio < 0) | (ratio > 1)))
    hidden = f"; {out} outside 0 to 1 are not drawn" if out else ""
    fig.alt_text = (
        "Histogram of the perceptron's margin as a fraction of the maximum margin, "
        f"over {ratio.size} runs, with the optimum 1 dotted: the fractions go from "
        f"{ratio.min():.3f} to {ratio.max():.3f}, median {np.median(ratio):.3f}; "
        f"{half} of {ratio.size} runs reach at least half the optimum{hidden}.")
    # The bars themselves: a bin holds its left end, not its right (the last both).
    fig.set_data_table(
        f"The runs in each bar of the histogram ({ratio.size} runs{hidden}): a bar counts "
        "the fractions from its left end up to, not including, its right end (the last "
        "bar includes 1).",
        ["γ(w)/γmax from", "to", "runs"],
        [[f"{lo:.2f}", f"{hi:.2f}", f"{n:.0f}"]
         for lo, hi, n in zip(edges[:-1], edges[1:], counts, strict=True)])
    return fig


def plot_large_margin_runs(
    margin_runs: Mapping[float, LargeMarginResult], minover_run: LargeMarginResult, gamma_max: float
) -> Figure:
    """Margin after each update: the margin perceptron for several beta, and MinOver.

    Parameters
    ----------
    margin_runs
        ``{beta: margin_perceptron(...)}``, at most four runs (left panel).
    minover_run
        A MinOver run; its certified upper bound is drawn too (right panel).
    gamma_max
        The maximum margin, drawn as a dotted level.

    Returns
    -------
    Figure
        Two panels; its ``repr`` (the alt text) says where each run stops, as a share
        of ``gamma_max``.

    Examples
    --------
    >>> from perclib import margin_perceptron, minover
    >>> X, y = [[2.0, 0.0], [0.0, 1.0]], [1, 1]
    >>> runs = {b: margin_perceptron(X, y, beta=b) for b in (0.0, 1.0)}
    >>> len(plot_large_margin_runs(runs, minover(X, y), 2 / np.sqrt(5)).axes)
    2
    """
    gamma_max = as_positive_float(gamma_max, "gamma_max")
    if not 1 <= len(margin_runs) <= 4:
        raise ValueError(f"margin_runs: give 1 to 4 runs, got {len(margin_runs)}")
    fig, (ax1, ax2) = new_figure(2, width=4.8, height=3.6)
    styles = zip(margin_runs.items(), ["-", "--", "-.", ":"],
                 ["black", NEGATIVE_COLOR, POSITIVE_COLOR, NORMAL_COLOR], strict=False)
    for (beta, run), style, colour in styles:
        steps = np.arange(1, run.n_updates + 2)
        ax1.plot(steps, run.margins, style, color=colour, label=rf"$\beta$ = {beta:g}")
        ax1.plot(steps[-1], run.margins[-1], "o", color=colour)
    ax1.set_title(r"perceptron ($\beta = 0$) and with margin", fontsize=10)
    steps = np.arange(1, minover_run.n_updates + 2)
    ax2.plot(steps, minover_run.margins, color=POSITIVE_COLOR, lw=1.2, label="margin")
    ax2.plot(steps, minover_run.upper_bounds, color=NORMAL_COLOR, lw=1.2, alpha=0.7,
             label="certified bound")
    ax2.set_title("MinOver, with its certificate", fontsize=10)
    for ax in (ax1, ax2):
        ax.axhline(gamma_max, color=ACCENT_COLOR, ls=":", lw=1.5, label=r"$\gamma_{\max}$")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.6 * gamma_max)
        ax.set_xlabel("updates + 1")
        ax.set_ylabel("margin of the current weights")
    legend(ax1, loc="upper left", fontsize=7)
    legend(ax2, loc="lower right", fontsize=7)
    runs = margin_runs.values()
    fig.alt_text = (
        "Two panels: the margin of the weights after each update, on a log scale of "
        f"updates, with the maximum margin γmax = {gamma_max:.3g} dotted. Left: the "
        f"margin perceptron with β = {', '.join(f'{b:g}' for b in margin_runs)} stops "
        f"after {', '.join(str(r.n_updates) for r in runs)} updates, at "
        f"{', '.join(_share(r.margin, gamma_max) for r in runs)} of γmax. Right: "
        f"MinOver after {minover_run.n_updates:,} updates, margin "
        f"{minover_run.margin:.3g}, certified upper bound "
        f"{minover_run.upper_bounds[-1]:.3g}.")
    _runs_table(fig, margin_runs, minover_run, gamma_max)
    return fig


def _runs_table(fig: Figure, margin_runs: Mapping[float, LargeMarginResult],
                minover_run: LargeMarginResult, gamma_max: float) -> None:
    """The margins drawn, at the start, on a logarithmic grid of updates (as the axis)
    and at the update where each run stops; a run that has stopped leaves its cell empty."""
    runs = [*margin_runs.values(), minover_run]
    ends = {r.n_updates for r in runs}
    last = max(ends)
    # The x axis is "updates + 1" on a log scale: sample k + 1 on a geometric grid.
    steps = sorted({0, *ends, *(k - 1 for k in log_steps(1, last + 1, 22))})

    def cell(values: NDArray[np.float64], k: int, undefined: str = "none (w = 0)") -> str:
        if k >= values.size:
            return ""
        return undefined if np.isnan(values[k]) else num(values[k])

    fig.set_data_table(
        "The margin of the current weights after k updates, for the margin perceptron "
        "at each β and for MinOver (with its certified upper bound), at the start, on a "
        "logarithmic grid of k and at the update where each run stops (an empty cell: "
        f"that run has stopped); the maximum margin is γmax = {num(gamma_max)}.",
        ["updates k", *(f"margin, β = {b:g}" for b in margin_runs), "MinOver: margin",
         "MinOver: certified bound"],
        [[f"{k:,}", *(cell(r.margins, k) for r in runs),
          cell(minover_run.upper_bounds, k, "none")] for k in steps])


def _share(value: float, whole: float) -> str:
    """``value`` as a percentage of ``whole``; zero weights have no margin (NaN)."""
    return f"{100 * value / whole:.0f} %" if np.isfinite(value) else "no margin"


def plot_adatron_sweeps(run: LargeMarginResult, gamma_max: float) -> Figure:
    """AdaTron's distance to the optimum after each sweep, on a log scale.

    Draws ``1 - margin / gamma_max`` (below the optimum) and ``bound / gamma_max - 1``
    (the certificate above it) against the sweep number; a straight line means the
    error shrinks by a fixed factor per sweep. Distances below ``1e-12`` (round-off)
    are drawn at ``1e-12``. The figure's ``repr`` (its alt text) gives the number of
    sweeps and where each distance starts and ends.

    Examples
    --------
    >>> from perclib import adatron
    >>> X, y = [[2.0, 0.0], [0.0, 1.0], [1.0, 1.5]], [1, 1, 1]
    >>> fig = plot_adatron_sweeps(adatron(X, y), 2 / np.sqrt(5))
    >>> fig.axes[0].get_xlabel()
    'sweep through the patterns'
    """
    gamma_max = as_positive_float(gamma_max, "gamma_max")
    if run.algorithm != "adatron" or run.epoch_ends is None:
        raise ValueError("run must be an AdaTron run (perclib.adatron)")
    sweeps = np.arange(1, run.epoch_ends.size + 1)
    below = 1 - run.margins[run.epoch_ends] / gamma_max
    above = run.upper_bounds[run.epoch_ends] / gamma_max - 1
    # Below about 1e-12 the distances are round-off, which differs from one CPU's
    # arithmetic to another's: draw them at the floor, so the figure shows the
    # convergence and not the last bits (and an exact 0 gets a place on the log scale).
    floor = 1e-12
    fig, (ax,) = new_figure(width=5.5, height=3.0)
    ax.semilogy(sweeps, np.maximum(below, floor), "o-", ms=3, color=POSITIVE_COLOR,
                label=r"$1 - \gamma(\mathbf{w})/\gamma_{\max}$")
    ax.semilogy(sweeps, np.maximum(above, floor), "s-", ms=3, color=NORMAL_COLOR,
                label=r"certificate$/\gamma_{\max} - 1$")
    ax.set_xlabel("sweep through the patterns")
    ax.set_ylabel("relative distance to the optimum")
    ax.set_title("AdaTron, sweep by sweep", fontsize=10)
    legend(ax, loc="upper right", fontsize=8)
    fig.alt_text = _adatron_alt(np.maximum(below, floor), np.maximum(above, floor),
                                floor)
    _adatron_table(fig, np.maximum(below, floor), np.maximum(above, floor), floor)
    return fig


def _adatron_table(fig: Figure, below: NDArray[np.float64], above: NDArray[np.float64],
                   floor: float) -> None:
    """The two distances drawn (already raised to the floor), at about 25 evenly spaced
    sweeps, the first and the last, and the sweep where each first reaches the floor."""
    n = below.size
    steps = {0, n - 1, *np.linspace(0, n - 1, 25).round().astype(int)}
    steps |= {int(np.argmax(d <= floor)) for d in (below, above) if np.any(d <= floor)}

    def cell(value: float) -> str:
        return "≤ 10⁻¹² (round-off)" if value <= floor else num(value)

    fig.set_data_table(
        f"AdaTron's relative distance to the maximum margin after sweep s of {n}: from "
        "below and from above (the certificate), at evenly spaced sweeps, the first, the "
        "last and the first sweep at which each reaches the floor 10⁻¹².",
        ["sweep s", "1 − γ(w)/γmax", "certificate/γmax − 1"],
        [[f"{i + 1:,}", cell(below[i]), cell(above[i])] for i in sorted(steps)])


def _adatron_alt(below: NDArray[np.float64], above: NDArray[np.float64],
                 floor: float) -> str:
    """Describe the two drawn distances (already raised to the floor)."""

    def course(d: NDArray[np.float64]) -> str:
        at_floor = np.flatnonzero(d <= floor)
        end = (f"reaches the floor 1e-12 at sweep {at_floor[0] + 1}" if at_floor.size
               else f"ends at {d[-1]:.2g}")
        return f"starts at {d[0]:.2g} and {end}"

    return ("A log-scale plot of AdaTron's relative distance to the maximum margin "
            f"after each of its {below.size} sweeps. From below, 1 − γ(w)/γmax "
            f"{course(below)}; from above, the certificate's excess {course(above)}.")


def plot_margin_balls(X: ArrayLike, y: ArrayLike, w: ArrayLike, arc: tuple[float, float]) -> Figure:
    """Balls of radius gamma_max / 2 and gamma_max around the patterns, with the lines.

    Parameters
    ----------
    X, y : array_like
        Patterns in the plane and their labels.
    w : array_like, shape (2,)
        The maximum-margin normal (its margin sets the radii).
    arc : (float, float)
        Ends of the arc ``H_gamma`` at ``gamma_max / 2``, as from
        :func:`perclib.admissible_arc`; their two lines are drawn on the left.

    Returns
    -------
    Figure
        Two panels; its ``repr`` (the alt text) counts, for each line, the balls it
        leaves wholly on their own side and the balls it touches.

    Examples
    --------
    >>> X, y = [[1.0, 1.0], [-1.0, -2.0]], [1, -1]
    >>> fig = plot_margin_balls(X, y, [1.0, 1.0], (0.3, 1.2))
    >>> [ax.get_title() for ax in fig.axes]
    ['balls of radius 0.5 $\\\\gamma_{\\\\max}$', 'balls of radius 1 $\\\\gamma_{\\\\max}$']
    """
    X, y = as_plane_data(X, y)
    w = as_weights(w, 2)
    gamma = margin(w, X, y)
    if not gamma > 0:
        raise ValueError("w does not separate the data: expected the maximum-margin normal")
    lo, hi = (float(a) for a in arc)
    fig, axes = new_figure(2, width=4.3, height=4.2)
    for ax, frac in zip(axes, (0.5, 1.0), strict=True):
        setup_plane(ax, _PLANE)
        for x, label in zip(X, y, strict=True):
            colour = POSITIVE_COLOR if label > 0 else NEGATIVE_COLOR
            ax.add_patch(Circle(tuple(x), frac * gamma, color=colour, alpha=0.25, lw=0))
        plot_patterns(ax, X, y, label=False)
        ax.set_title(rf"balls of radius {frac:g} $\gamma_{{\max}}$", fontsize=10)
    for phi in (lo, hi):
        decision_line(axes[0], [np.cos(phi), np.sin(phi)], lw=1.2)
    decision_line(axes[1], w)
    fig.alt_text = _balls_alt(X, y, w, gamma, lo, hi)
    return fig


def _balls_alt(X: NDArray[np.float64], y: NDArray[np.float64], w: NDArray[np.float64],
               gamma: float, lo: float, hi: float) -> str:
    """Count, for each drawn line, the balls it leaves wholly on their own side."""

    def count(u: ArrayLike, radius: float) -> tuple[int, int]:
        """Balls not wholly on their own side, and balls the line touches."""
        m = pattern_margins(np.asarray(u, dtype=float), X, y)
        # A ball that the line only touches (margin = radius up to rounding) is clear.
        ok = m >= radius * (1 - 1e-9)
        return (y.size - int(np.count_nonzero(ok)),
                int(np.count_nonzero(ok & (m <= radius * (1 + 1e-9)))))

    (bad_lo, touch_lo), (bad_hi, touch_hi) = (
        count([np.cos(p), np.sin(p)], gamma / 2) for p in (lo, hi))
    touches = (f"each touching {touch_lo}" if touch_lo == touch_hi
               else f"touching {touch_lo} and {touch_hi}")
    left = (f"both keep every ball wholly on its side, {touches}"
            if bad_lo == bad_hi == 0 else
            f"they leave {bad_lo} and {bad_hi} balls not wholly on their own side")
    bad, touch = count(w, gamma)
    right = (f"it keeps every ball wholly on its side and touches {touch}"
             if bad == 0 else f"it leaves {bad} balls not wholly on their own side")
    return (f"Two panels: {_patterns(X, y)}, each in a ball. Left: radius "
            f"γmax/2 = {gamma / 2:.3f}, and the lines with normals at "
            f"{np.degrees(lo):.1f}° and {np.degrees(hi):.1f}°: {left}. Right: radius "
            f"γmax = {gamma:.3f}, and the maximum-margin line: {right}.")


def plot_margin_counts(gammas: ArrayLike, cover: int, g_max: float = 0.45) -> Figure:
    """How many labellings reach margin at least gamma, against gamma.

    Parameters
    ----------
    gammas : array_like
        The maximum margin of each separable labelling (from
        :func:`perclib.dichotomy_margins`).
    cover : int
        Cover's count at gamma = 0, drawn as a dotted level.
    g_max : float, default 0.45
        Right end of the gamma axis.

    Returns
    -------
    Figure
        One panel; its ``repr`` (the alt text) gives the count at 0 next to Cover's
        and where the count reaches 0.

    Examples
    --------
    >>> fig = plot_margin_counts([0.05, 0.05, 0.2, 0.2], 4)
    >>> fig.axes[0].get_ylabel()
    'labellings realisable in $H_\\\\gamma$'
    >>> "equal to Cover's count 4" in repr(fig)
    True
    """
    gammas = np.asarray(gammas, dtype=float)
    if gammas.ndim != 1:
        raise ValueError("gammas must be 1-D")
    g_axis = np.linspace(0, as_positive_float(g_max, "g_max"), 451)
    fig, (ax,) = new_figure(width=5.5, height=3.0)
    counts = np.array([np.sum(gammas >= g) for g in g_axis])
    ax.plot(g_axis, counts, color=NORMAL_COLOR)
    ax.axhline(cover, color=ACCENT_COLOR, ls=":", label=f"Cover's count {cover}")
    ax.set_xlabel(r"margin $\gamma$ (points on the unit sphere, $R = 1$)")
    ax.set_ylabel(r"labellings realisable in $H_\gamma$")
    legend(ax, loc="upper right")
    fig.alt_text = _counts_alt(gammas, cover, float(g_axis[-1]))
    # Every 25th point of the 451 drawn (19 evenly spaced γ, both ends kept), and the
    # largest margin, past which the count is 0.
    rows = {float(g): int(c) for g, c in zip(g_axis[::25], counts[::25], strict=True)}
    if gammas.size and 0 < gammas.max() <= g_axis[-1]:
        rows[float(gammas.max())] = int(np.sum(gammas >= gammas.max()))
    fig.set_data_table(
        "The number of labellings realisable with margin at least γ, at evenly spaced γ "
        f"and at the largest margin (Cover's count at γ = 0 is {cover}).",
        ["margin γ", "labellings"],
        [[num(g), f"{c:,}"] for g, c in sorted(rows.items())])
    return fig


def _counts_alt(gammas: NDArray[np.float64], cover: int, g_max: float) -> str:
    start = int(np.count_nonzero(gammas >= 0))
    vs = "equal to" if start == cover else "against"
    left = int(np.count_nonzero(gammas >= g_max))
    if gammas.size == 0:
        end = "none at any γ"
    elif left == 0:
        end = f"the count falls to 0 beyond γ = {gammas.max():.3f}, the largest margin"
    else:
        end = f"{left} remain at γ = {g_max:g}"
    middle = f"; the median margin is {np.median(gammas):.3f}" if gammas.size else ""
    return (f"A plot of the number of labellings that a hyperplane through the origin "
            f"realises with margin at least γ, against "
            f"γ from 0 to {g_max:g}: {start} at γ = 0, {vs} Cover's count {cover} "
            f"(dotted), and {end}{middle}.")
