"""Lesson 6 widgets: the family H_gamma of large-margin separators, and training towards it.

Both work in the plane with hyperplanes (lines) through the origin, where a
separator is just a direction: the angle ``phi`` of its unit normal.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.collections import EllipseCollection
from matplotlib.patches import Polygon
from matplotlib.ticker import NullLocator
from numpy.typing import NDArray

from perclib._validation import as_count
from perclib.data import teacher_data
from perclib.geometry import admissible_arc, direction_margins, max_margin
from perclib.plotting import (
    ACCENT_COLOR,
    FONT_SIZES,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NEGATIVE_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    decision_line,
    margin_lines,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
    update_arrow,
    update_line,
    update_margin_lines,
)
from perclib.train.large_margin import (
    LargeMarginResult,
    adatron,
    margin_perceptron,
    minover,
)
from perclib.train.perceptron import perceptron
from perclib.widgets.base import SliderFigure, checked_float_slider, start_value

_FAR = 20.0  # length of the rays drawn for lines through the origin (clipped by the axes)
_NO_POLYGON = np.zeros((1, 2))


def _few_ticks(ax, lim: float) -> None:
    """Three ticks per axis: tick labels are a large part of the cost of every frame."""
    ticks = [-np.floor(lim), 0.0, np.floor(lim)]
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)


def _unit(phi: float) -> NDArray[np.float64]:
    return np.array([np.cos(phi), np.sin(phi)])


def _wedge(lo: float, hi: float, radius: float, n: int = 40) -> NDArray[np.float64]:
    """Polygon of the circular sector between angles lo and hi (radians)."""
    t = np.linspace(lo, hi, n)
    return np.vstack([[0.0, 0.0], radius * np.column_stack([np.cos(t), np.sin(t)])])


def _bowtie(lo: float, hi: float) -> NDArray[np.float64]:
    """Region swept by the lines through 0 whose normals have angles in [lo, hi]."""
    quarter = np.pi / 2
    return np.vstack([_wedge(lo + quarter, hi + quarter, _FAR), _wedge(lo - quarter, hi - quarter, _FAR)])


def build_margin_family(
    P: int = 12, *, teacher_margin: float = 0.25, seed: int = 5, angle: float = 15.0
) -> SliderFigure:
    """Slider for gamma: the separators with margin >= gamma shrink to the optimal one.

    Left: the data, the *admissible* normals (a sector) and the lines they define
    (a shaded double wedge) for the chosen gamma; the balls of radius gamma around the
    patterns, which every line of H_gamma separates; the maximum-margin line dotted; and
    one separator, turned by ``angle`` degrees from the optimum, with its margin lines
    and its closest pattern ringed (blue circles +1, orange squares -1). Right: the
    margin of every direction as a function of its angle from the optimum, the level
    gamma, and the admissible interval
    (empty above the maximum margin, a single point at it).

    Parameters
    ----------
    P : int, default 12
        Number of patterns (teacher data through the origin in 2-D).
    teacher_margin : float, default 0.25
        Margin of the teacher that labels the data.
    seed : int, default 5
        Seed of the data.
    angle : float, default 15
        Starting angle (degrees) of the shown separator, relative to the optimum.

    Examples
    --------
    >>> demo = build_margin_family()
    >>> demo.controls["gamma"].value = demo.controls["gamma"].max   # above gamma_max
    >>> "empty" in demo.status.value
    True
    """
    seed = as_count(seed, "seed", 0)
    teacher_margin = start_value(teacher_margin, "teacher_margin", 0.0, float("inf"))
    data = teacher_data(P, 2, margin=teacher_margin, rng=seed)
    X, y = data.X, data.y
    best = max_margin(X, y)
    g_max = best.gamma
    phi_star = float(np.arctan2(best.w[1], best.w[0]))
    lim = float(np.ceil(np.max(np.abs(X)) * 1.1 * 2) / 2)

    fig, (ax, ax_curve) = new_figure(2, width=3.9, height=3.7)
    setup_plane(ax, (-lim, lim, -lim, lim))
    _few_ticks(ax, lim)
    lines_patch = ax.add_patch(
        Polygon(_NO_POLYGON, closed=True, facecolor=MARGIN_COLOR, alpha=0.22, lw=0, zorder=0,
                label=r"lines in $H_\gamma$")
    )
    normals_patch = ax.add_patch(
        Polygon(_NO_POLYGON, closed=True, facecolor=NORMAL_COLOR, alpha=0.35, lw=0, zorder=1,
                label=r"normals in $H_\gamma$")
    )
    best_line = decision_line(ax, best.w, 0.0, color=ACCENT_COLOR, lw=1.2, ls=":")
    # Balls of radius gamma: margin >= gamma means every ball is on its label's side.
    ball_colours = [POSITIVE_COLOR if label > 0 else NEGATIVE_COLOR for label in y]
    balls = EllipseCollection(np.zeros(len(X)), np.zeros(len(X)), np.zeros(len(X)), units="xy",
                              offsets=X, offset_transform=ax.transData, facecolors=ball_colours,
                              edgecolors="none", alpha=0.18, zorder=0.8)
    ax.add_collection(balls)
    points = plot_patterns(ax, X, y, label=False)
    ring = ax.scatter([], [], s=160, facecolors="none", edgecolors=HIGHLIGHT_COLOR, linewidths=1.8,
                      zorder=4)
    w_line = decision_line(ax, best.w, label="chosen separator")
    w_margins = margin_lines(ax, best.w, 0.0, g_max)
    w_arrow = normal_arrow(ax, best.w, length=0.8)
    # No legends (each costs ~8 ms per frame); the titles carry the key.
    ax.set_title(r"sector: normals in $H_\gamma$; grey: their lines", fontsize=9)

    # Right panel: margin as a function of the angle from the optimum (fixed curve).
    rel = np.linspace(-180.0, 180.0, 1441)
    curve = direction_margins(X, y, phi_star + np.radians(rel))
    (curve_line,) = ax_curve.plot(rel, curve, color="black", lw=1.4, zorder=2)
    ax_curve.axhline(g_max, color=ACCENT_COLOR, lw=1.0, ls=":")
    ax_curve.axhline(0.0, color="#d0d0d0", lw=0.8, zorder=0)
    ymin, ymax = -1.5 * g_max, 1.35 * g_max
    ax_curve.set_xlim(-180, 180)
    ax_curve.set_ylim(ymin, ymax)
    ax_curve.set_autoscale_on(False)
    band = ax_curve.add_patch(
        Polygon(_NO_POLYGON, closed=True, facecolor=NORMAL_COLOR, alpha=0.3, lw=0, label=r"$H_\gamma$")
    )
    (level,) = ax_curve.plot(
        [-180, 180], [0, 0], color=MARGIN_COLOR, lw=1.2, ls="--", label=r"level $\gamma$"
    )
    (marker,) = ax_curve.plot([], [], "o", color=NORMAL_COLOR, ms=6)
    ax_curve.set_xlabel("angle from the optimum (°)")
    ax_curve.set_ylabel("margin of the direction")
    ax_curve.set_xticks([-180, -90, 0, 90, 180])
    ax_curve.set_yticks([0.0, g_max], ["0", r"$\gamma_{\max}$"])
    ax_curve.set_title(r"dashed: level $\gamma$; band: $H_\gamma$", fontsize=9)

    controls = {
        "gamma": widgets.FloatSlider(
            value=round(0.5 * g_max, 3), min=0.0, max=round(1.15 * g_max, 3), step=round(g_max / 200, 4),
            description="γ", readout_format=".3f", continuous_update=True,
        ),
        "angle": checked_float_slider(
            "angle", angle, -180.0, 180.0, step=1.0, description="w angle (°)",
            readout_format=".0f", continuous_update=True,
        ),
    }

    def redraw(values: dict[str, Any]) -> str:
        gamma = float(values["gamma"])
        turn = float(values["angle"])
        # gamma = 0 means "margin >= 0": computed with a vanishing positive level.
        arc = admissible_arc(X, y, max(gamma, 1e-12 * lim))
        if arc is None:
            for patch in (lines_patch, normals_patch, band):
                patch.set_visible(False)
            set_text = (f"γ = {gamma:.3f} &gt; γ<sub>max</sub> = {g_max:.3f}: H<sub>γ</sub> is "
                        "<b>empty</b>, no line through the origin keeps every pattern that far away")
        else:
            lo, hi = arc
            # Express the arc relative to the optimum (which it contains).
            k = np.round((phi_star - 0.5 * (lo + hi)) / (2 * np.pi))
            lo, hi = lo + 2 * np.pi * k, hi + 2 * np.pi * k
            lines_patch.set_xy(_bowtie(lo, hi))
            normals_patch.set_xy(_wedge(lo, hi, 0.6 * lim))
            a, b = np.degrees(lo - phi_star), np.degrees(hi - phi_star)
            band.set_xy(np.array([[a, ymin], [b, ymin], [b, ymax], [a, ymax]]))
            for patch in (lines_patch, normals_patch, band):
                patch.set_visible(True)
            set_text = (f"γ = {gamma:.3f} (γ<sub>max</sub> = {g_max:.3f}): admissible normals from "
                        f"{a:+.1f}° to {b:+.1f}° around the optimum, <b>{b - a:.1f}° wide</b>")
        level.set_ydata([gamma, gamma])
        balls.set_widths(np.full(len(X), 2 * gamma))
        balls.set_heights(np.full(len(X), 2 * gamma))

        u = _unit(phi_star + np.radians(turn))
        m = float(direction_margins(X, y, [phi_star + np.radians(turn)])[0])
        update_line(w_line, u)
        update_arrow(w_arrow, u, length=0.8)
        for line in w_margins:
            line.set_visible(m > 0)
        update_margin_lines(w_margins, u, 0.0, abs(m))
        closest = np.flatnonzero(y * (X @ u) <= m + 1e-12)
        ring.set_offsets(X[closest])
        marker.set_data([turn], [m])
        inside = "in" if m >= gamma and m > 0 else "not in"
        return (f"{set_text}<br>chosen separator at {turn:+.0f}°: margin {m:+.3f}, "
                f"<b>{inside}</b> H<sub>γ</sub>")

    moving = [lines_patch, normals_patch, balls, best_line, *points, ring, w_line, *w_margins,
              w_arrow, band, curve_line, level, marker]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "Left: a separable data set, the chosen separating line and the sector of"
            " normals whose lines reach margin at least gamma (the set H_gamma), with"
            " some of those lines in grey. Right: the margin of every direction "
            "against its angle from the maximum-margin direction, the level gamma "
            "dashed and H_gamma shaded."
        ),
    )


_ALGORITHMS = ("perceptron", "margin perceptron", "MinOver", "AdaTron")


def _runs(X: NDArray[np.float64], y: NDArray[np.float64], beta: float,
          max_steps: int) -> dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Weights and margins after every update of each algorithm, capped at ``max_steps`` updates."""
    p = perceptron(X, y)
    runs: dict[str, LargeMarginResult | Any] = {
        "perceptron": p,
        "margin perceptron": margin_perceptron(X, y, beta=beta),
        "MinOver": minover(X, y, max_steps=max_steps, tol=1e-6),
        "AdaTron": adatron(X, y, max_epochs=200),
    }
    out = {}
    for name, res in runs.items():
        W = res.weights[: max_steps + 1]
        norms = np.linalg.norm(W, axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            m = np.where(norms > 0, np.min((W @ X.T) * y, axis=1) / norms, np.nan)
        out[name] = (W, m)
    return out


def build_margin_training(
    P: int = 20, *, teacher_margin: float = 0.1, seed: int = 5, beta: float = 4.0, max_steps: int = 400
) -> SliderFigure:
    """Step through four algorithms and watch their margins approach the maximum.

    Left: the data, the maximum-margin line (dotted) and the chosen algorithm's line
    after ``step`` updates with its margin lines. Right: the margin of every
    algorithm's weights against the number of updates (log scale), with a marker at
    the chosen step and the maximum margin as a dotted level.

    Examples
    --------
    >>> demo = build_margin_training()
    >>> demo.controls["algorithm"].value = "AdaTron"
    >>> "AdaTron" in demo.status.value
    True
    """
    seed = as_count(seed, "seed", 0)
    teacher_margin = start_value(teacher_margin, "teacher_margin", 0.0, float("inf"))
    data = teacher_data(P, 2, margin=teacher_margin, rng=seed)
    X, y = data.X, data.y
    best = max_margin(X, y)
    runs = _runs(X, y, beta, max_steps)
    lim = float(np.ceil(np.max(np.abs(X)) * 1.1 * 2) / 2)

    fig, (ax, ax_curve) = new_figure(2, width=3.9, height=3.7)
    setup_plane(ax, (-lim, lim, -lim, lim))
    _few_ticks(ax, lim)
    decision_line(ax, best.w, 0.0, color=ACCENT_COLOR, lw=1.2, ls=":", label="max-margin line")
    plot_patterns(ax, X, y)
    w_line = decision_line(ax, best.w, label="current weights")
    w_margins = margin_lines(ax, best.w, 0.0, best.gamma)
    w_arrow = normal_arrow(ax, best.w, length=0.8)
    ax.set_title("current line (black), best (dotted)")

    # Right: margin / gamma_max after every update. The chosen rule is drawn thick in its
    # colour, the other three thin and grey behind it, so one glance shows one curve and
    # where it stands against the best margin (1) and against "not separating yet" (< 0).
    colors = {"perceptron": "black", "margin perceptron": NEGATIVE_COLOR,
              "MinOver": POSITIVE_COLOR, "AdaTron": NORMAL_COLOR}
    for _, m in runs.values():
        ax_curve.plot(np.arange(m.size) + 1, m / best.gamma, color="0.75", lw=1.0)
    (chosen_curve,) = ax_curve.plot([], [], lw=2.2, zorder=3)  # redrawn: the chosen rule
    ax_curve.axhspan(-1.0, 0.0, color="0.93", lw=0, zorder=0)
    ax_curve.text(0.97, 0.04, "below 0: not separating yet", transform=ax_curve.transAxes,
                  color="0.35", ha="right", fontsize=FONT_SIZES["text"], zorder=4,
                  bbox={"facecolor": "0.93", "edgecolor": "none", "pad": 1.0})
    ax_curve.axhline(1.0, color=ACCENT_COLOR, lw=1.2, ls=":")
    ax_curve.text(1.15, 1.03, r"largest margin $\gamma_{\max}$", color=ACCENT_COLOR,
                  fontsize=FONT_SIZES["text"], va="bottom")
    ax_curve.set_xscale("log")
    ax_curve.set_xlim(1, max_steps + 1)
    ax_curve.set_ylim(-0.6, 1.25)
    ax_curve.set_yticks([0.0, 0.5, 1.0], ["0", "50%", "100%"])
    ax_curve.set_autoscale_on(False)
    ax_curve.set_xlabel("updates + 1 (log scale)")
    ax_curve.set_ylabel(r"margin, as a share of $\gamma_{\max}$")
    ax_curve.xaxis.set_minor_locator(NullLocator())  # minor log ticks are slow to draw
    ax_curve.set_xticks([1, 10, 100, 1000][: 2 + int(np.log10(max_steps + 1))])
    (marker,) = ax_curve.plot([], [], "o", color=HIGHLIGHT_COLOR, ms=8, zorder=5)
    name_text = ax_curve.text(0.97, 0.62, "", transform=ax_curve.transAxes, ha="right",
                              fontsize=FONT_SIZES["label"], weight="bold")
    ax_curve.text(0.97, 0.55, "(grey: the others)", transform=ax_curve.transAxes, ha="right",
                  color="0.45", fontsize=FONT_SIZES["text"])
    ax_curve.set_title("margin after each update")

    controls = {
        "algorithm": widgets.Dropdown(options=list(_ALGORITHMS), value="MinOver", description="algorithm"),
        # Start half-way on the log axis, where the four runs still differ.
        "step": widgets.IntSlider(value=int(round(np.sqrt(max_steps))), min=0, max=max_steps, step=1,
                                  description="update",
                                  continuous_update=True),
    }

    def redraw(values: dict[str, Any]) -> str:
        W, m = runs[values["algorithm"]]
        chosen_curve.set_data(np.arange(m.size) + 1, m / best.gamma)
        chosen_curve.set_color(colors[values["algorithm"]])
        name_text.set_text(_SHORT_NAMES.get(values["algorithm"], values["algorithm"]))
        name_text.set_color(colors[values["algorithm"]])
        k = min(int(values["step"]), W.shape[0] - 1)  # a finished run stays at its last weights
        w = W[k]
        update_line(w_line, w)
        update_arrow(w_arrow, w, length=0.8)
        ok = bool(np.isfinite(m[k]) and m[k] > 0)
        for line in w_margins:
            line.set_visible(ok)
        if ok:
            update_margin_lines(w_margins, w, 0.0, float(m[k]))
        marker.set_data([k + 1], [m[k] / best.gamma if np.isfinite(m[k]) else np.nan])
        shown = "undefined (w = 0)" if not np.isfinite(m[k]) else f"{m[k]:+.4f}"
        finished = " (run finished)" if k == W.shape[0] - 1 else ""
        return (f"{values['algorithm']} after {k} update(s){finished}: margin {shown}, "
                f"γ<sub>max</sub> = {best.gamma:.4f}")

    return SliderFigure(
        fig, controls, redraw, moving=[w_line, *w_margins, w_arrow, chosen_curve, name_text, marker],
        description=(
            "Left: a separable data set, the current weights' line with its margin "
            "lines and the maximum-margin line dotted. Right: the chosen rule's margin "
            "after each update, as a share of the largest margin (dotted line at 100%), "
            "with the other three rules in grey; below 0 the line does not separate yet."
        ),
    )


_SHORT_NAMES = {"margin perceptron": "perceptron with margin"}

DEMOS = {
    "margin_family": build_margin_family,
    "margin_training": build_margin_training,
}
