"""Lesson 9 widgets: Gardner's capacity with a margin, and teacher-student learning curves.

Both only *show* numbers computed beforehand (Monte Carlo samples, simulated
learning curves, theory curves on a grid): a slider move never solves anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.patches import Polygon
from numpy.typing import NDArray

from perclib.plotting import ACCENT_COLOR, NEGATIVE_COLOR, NORMAL_COLOR, POSITIVE_COLOR, new_figure
from perclib.statmech import (
    CapacitySample,
    LearningCurve,
    capacity_sample,
    gardner_capacity,
    hebb_generalization,
    learning_curve,
)
from perclib.statmech_tables import stored_or_computed
from perclib.widgets.base import SliderFigure, checked_float_slider, start_value

_N_COLORS = ("#56B4E9", POSITIVE_COLOR, "#000000", "#7f7f7f")  # light to dark: small to large N


def _error_segments(x: NDArray[np.float64], y: NDArray[np.float64],
                    err: NDArray[np.float64]) -> list[NDArray[np.float64]]:
    return [np.array([[a, b - e], [a, b + e]]) for a, b, e in zip(x, y, err, strict=True)]


def build_capacity_explorer(
    samples: Sequence[CapacitySample] | None = None, *, kappa: float = 0.5
) -> SliderFigure:
    """Slider for the stability kappa: Gardner's capacity against the Monte Carlo.

    Left: the capacity line ``alpha_c(kappa)`` in the (alpha, kappa) plane (below and
    left of it, random labellings can be stored with stability kappa), the chosen
    kappa as a level and, on it, where each sample's storable fraction falls through
    one half. Right: the storable fraction against alpha for each N (with standard
    errors) at the chosen kappa, and the prediction ``alpha_c(kappa)`` dashed.

    Parameters
    ----------
    samples : sequence of CapacitySample, optional
        Monte Carlo samples (one per N), all on the same alphas. By default a small
        one (N = 20 and 40) is drawn, enough for a demonstration.
    kappa : float, default 0.5
        Starting stability.

    Examples
    --------
    >>> demo = build_capacity_explorer()
    >>> demo.controls["kappa"].value = 0.0
    >>> "2.000" in demo.status.value
    True
    """
    if samples is None:
        alphas = np.arange(0.2, 2.61, 0.2)
        samples = [capacity_sample(alphas, N, n_samples=20, rng=N) for N in (20, 40)]
    samples = list(samples)
    alpha = samples[0].alpha
    k_grid = np.linspace(0.0, 1.5, 301)
    a_grid = gardner_capacity(k_grid)

    fig, (ax, ax_f) = new_figure(2, width=3.9, height=3.5)
    ax.fill_betweenx(k_grid, 0, a_grid, color=ACCENT_COLOR, alpha=0.15, lw=0)
    ax.plot(a_grid, k_grid, color=ACCENT_COLOR, lw=2, label=r"$\alpha_c(\kappa)$")
    ax.set_xlim(0, float(alpha.max()))
    ax.set_ylim(0, 1.5)
    ax.set_autoscale_on(False)
    ax.set_xlabel(r"patterns per weight $\alpha = P/N$")
    ax.set_ylabel(r"stability $\kappa$")
    ax.set_title("green: storable (large N)", fontsize=9)
    ax.text(0.15, 0.1, "storable", fontsize=9, color=ACCENT_COLOR)
    (level,) = ax.plot([0, alpha.max()], [kappa, kappa], color=NORMAL_COLOR, lw=1, ls="--")
    crosses = [ax.plot([], [], "o", color=_N_COLORS[i % 4], ms=6, mec="white")[0]
               for i in range(len(samples))]

    ax_f.set_xlim(0, float(alpha.max()))
    ax_f.set_ylim(-0.03, 1.03)
    ax_f.set_autoscale_on(False)
    ax_f.set_xlabel(r"patterns per weight $\alpha = P/N$")
    ax_f.set_ylabel(r"fraction storable with stability $\kappa$")
    ax_f.axhline(0.5, color="#d0d0d0", lw=0.8, zorder=0)
    (prediction,) = ax_f.plot([], [], color=ACCENT_COLOR, lw=1.5, ls="--")
    lines, bars = [], []
    for i, s in enumerate(samples):
        color = _N_COLORS[i % 4]
        (line,) = ax_f.plot([], [], "o-", color=color, ms=3.5, lw=1.2, label=f"N = {s.N}")
        bar = ax_f.add_collection(LineCollection([], colors=color, linewidths=1.0))
        lines.append(line)
        bars.append(bar)
    ax_f.legend(loc="upper right", fontsize=8, frameon=False)
    ax_f.set_title(r"dashed: prediction $\alpha_c(\kappa)$", fontsize=9)

    controls = {
        "kappa": checked_float_slider("kappa", kappa, 0.0, 1.2, step=0.02, description="κ",
                                      readout_format=".2f", continuous_update=True),
    }

    def redraw(values: dict[str, Any]) -> str:
        k = float(values["kappa"])
        a_c = gardner_capacity(k)
        level.set_ydata([k, k])
        prediction.set_data([a_c, a_c], [-0.03, 1.03])
        parts = []
        for s, line, bar, cross in zip(samples, lines, bars, crosses, strict=True):
            f, sem = s.fraction(k)
            line.set_data(s.alpha, f)
            bar.set_segments(_error_segments(s.alpha, f, sem))
            c = s.crossing(k)
            cross.set_data([c], [k]) if np.isfinite(c) else cross.set_data([], [])
            parts.append(f"N = {s.N}: {c:.2f}" if np.isfinite(c) else f"N = {s.N}: —")
        return (f"κ = {k:.2f}: prediction α<sub>c</sub> = <b>{a_c:.3f}</b>; "
                f"half of the samples storable at α ≈ {', '.join(parts)}")

    moving = [level, *crosses, prediction, *lines, *bars]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "Left: the region of loads alpha and stabilities kappa where a large "
            "network can store random patterns (green), below Gardner's line "
            "alpha_c(kappa). Right: the fraction of sampled pattern sets storable "
            "with stability kappa against alpha, for two sizes N, and the predicted "
            "capacity dashed."
        ),
    )


def _wedges(theta: float, radius: float = 1.0, n: int = 30) -> NDArray[np.float64]:
    """The two wedges (between the decision lines) where student and teacher disagree.

    Teacher normal along +y (decision line: the x axis), student normal turned by
    ``theta`` clockwise: its line is the x axis turned by ``theta``.
    """
    t1 = np.linspace(0.0, -theta, n)
    t2 = t1 + np.pi
    arc1 = radius * np.column_stack([np.cos(t1), np.sin(t1)])
    arc2 = radius * np.column_stack([np.cos(t2), np.sin(t2)])
    return np.vstack([[0, 0], arc1, [0, 0], arc2, [0, 0]])


def build_learning_explorer(
    curves: Sequence[LearningCurve] | None = None, *, alpha: float = 2.0
) -> SliderFigure:
    """Slider for alpha = P/N: learning curves and the teacher and student directions.

    Left: generalisation error against alpha on log-log axes: the large-N theory of
    the Hebb rule, Gibbs learning, the maximum-margin student and the Bayes-optimal
    floor (lines), the simulations passed in (points with standard errors), the
    asymptotes 0.50/alpha
    and 0.62/alpha (dotted) and the chosen alpha. Right: the plane of teacher and
    student: the teacher's normal, the Hebb and maximum-margin students' normals at
    angle ``pi eps`` from it (large-N theory), their decision lines and, shaded, the
    wedges of inputs the maximum-margin student gets wrong.

    Parameters
    ----------
    curves : sequence of LearningCurve, optional
        Simulations to show (any rules). By default a small one (N = 40, 3 runs).
    alpha : float, default 2
        Starting alpha.

    Examples
    --------
    >>> demo = build_learning_explorer()
    >>> demo.controls["alpha"].value = 10.0
    >>> "α = 10" in demo.status.value
    True
    """
    alpha = start_value(alpha, "alpha", 0.25, 50.0)
    if curves is None:
        grid = [0.5, 1.0, 2.0, 4.0, 8.0]
        curves = [learning_curve(grid, 40, rule=r, n_runs=3, rng=1) for r in ("hebb", "max_margin")]
    a_grid = np.geomspace(0.25, 50.0, 36)
    theory = {  # the zero-error curves on this grid come from the stored, tested table
        "Hebb": hebb_generalization(a_grid),
        "Gibbs": stored_or_computed(a_grid, "gibbs"),
        "maximum margin": stored_or_computed(a_grid, "max_margin"),
        "Bayes-optimal": stored_or_computed(a_grid, "bayes"),
    }
    styles = {"Hebb": NEGATIVE_COLOR, "Gibbs": "#7f7f7f", "maximum margin": POSITIVE_COLOR,
              "Bayes-optimal": "#000000"}
    sim_colors = {"hebb": NEGATIVE_COLOR, "perceptron": ACCENT_COLOR, "max_margin": POSITIVE_COLOR}
    sim_markers = {"hebb": "s", "perceptron": "^", "max_margin": "o"}
    # sideways factors on alpha so markers of nearly equal errors do not cover each other
    sim_shift = {"hebb": 1.0, "perceptron": 0.9, "max_margin": 1.1}
    sim_names = {"hebb": "Hebb", "perceptron": "perceptron", "max_margin": "maximum margin"}

    fig, (ax, ax_p) = new_figure(2, width=3.9, height=3.6)
    theory_lines = []
    for name, eps in theory.items():
        theory_lines += ax.plot(a_grid, eps, color=styles[name], lw=1.6,
                                ls="--" if name == "Bayes-optimal" else "-", label=name)
    ax.plot(a_grid, 0.5 / a_grid, color=POSITIVE_COLOR, lw=0.8, ls=":")
    ax.plot(a_grid, 0.625 / a_grid, color="#7f7f7f", lw=0.8, ls=":")
    markers = []
    for c in curves:
        color = sim_colors[c.rule]
        markers.append(ax.errorbar(c.alpha * sim_shift[c.rule], c.mean, yerr=c.sem,
                                   fmt=sim_markers[c.rule], ms=4, color=color, lw=1, mew=1.2,
                                   mfc="white" if c.rule == "perceptron" else color,
                                   label=sim_names[c.rule]))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(0.25, 50)
    ax.set_ylim(0.004, 0.6)
    ax.set_autoscale_on(False)
    ax.set_xlabel(r"examples per weight $\alpha = P/N$")
    ax.set_ylabel(r"generalisation error $\varepsilon$")
    ax.add_artist(ax.legend(handles=theory_lines, loc="lower left", fontsize=7, frameon=False,
                            title="theory", title_fontsize=7))
    if markers:
        sizes = ", ".join(str(n) for n in sorted({c.N for c in curves}))
        ax.legend(handles=markers, loc="upper right", fontsize=7, frameon=False,
                  title=f"simulation, N = {sizes}", title_fontsize=7)
    (cursor,) = ax.plot([alpha, alpha], [0.004, 0.6], color=NORMAL_COLOR, lw=1, ls="--")
    (dots,) = ax.plot([], [], "o", color=NORMAL_COLOR, ms=5)

    ax_p.set_aspect("equal")
    ax_p.set_xlim(-1.2, 1.2)
    ax_p.set_ylim(-1.2, 1.2)
    ax_p.set_autoscale_on(False)
    ax_p.set_xticks([-1, 0, 1])
    ax_p.set_yticks([-1, 0, 1])
    ax_p.set_xlabel("direction in the teacher-student plane")
    ax_p.set_ylabel("along the teacher")
    # The teacher's line and normal are static, but listed as moving so the students'
    # lines never cover them.
    (t_line,) = ax_p.plot([-1.2, 1.2], [0, 0], color="black", lw=1.2, zorder=5)
    t_arrow = ax_p.annotate("", xy=(0, 1), xytext=(0, 0), zorder=5,
                            arrowprops={"arrowstyle": "-|>", "color": "black", "lw": 1.8})
    ax_p.text(0.05, 1.02, "teacher", fontsize=8)
    wedge = ax_p.add_patch(Polygon(_wedges(0.5), closed=True, facecolor=POSITIVE_COLOR,
                                   alpha=0.25, lw=0))
    (mm_line,) = ax_p.plot([], [], color=POSITIVE_COLOR, lw=1.2)
    (mm_arrow,) = ax_p.plot([], [], color=POSITIVE_COLOR, lw=2.2)
    (hebb_line,) = ax_p.plot([], [], color=NEGATIVE_COLOR, lw=1.0, ls="--")
    (hebb_arrow,) = ax_p.plot([], [], color=NEGATIVE_COLOR, lw=2.2, ls="--")
    ax_p.set_title("shaded: inputs the max-margin student gets wrong", fontsize=9)

    controls = {
        "alpha": widgets.FloatLogSlider(value=alpha, base=10, min=np.log10(0.25), max=np.log10(50.0),
                                        # 15 steps per doubling: 0.5, 1, 2, 4, ... on the grid
                                        step=np.log10(2.0) / 15, description="α", readout_format=".2f",
                                        continuous_update=True),
    }

    def at(name: str, a: float) -> float:
        return float(np.exp(np.interp(np.log(a), np.log(a_grid), np.log(theory[name]))))

    def redraw(values: dict[str, Any]) -> str:
        a = float(values["alpha"])
        e_h, e_g, e_m = at("Hebb", a), at("Gibbs", a), at("maximum margin", a)
        e_b = at("Bayes-optimal", a)
        cursor.set_xdata([a, a])
        dots.set_data([a, a, a, a], [e_h, e_g, e_m, e_b])
        for eps, line, arrow in ((e_m, mm_line, mm_arrow), (e_h, hebb_line, hebb_arrow)):
            th = np.pi * eps  # angle between the student's and the teacher's normals
            u = np.array([np.sin(th), np.cos(th)])
            arrow.set_data([0, u[0]], [0, u[1]])
            line.set_data([-1.2 * u[1], 1.2 * u[1]], [1.2 * u[0], -1.2 * u[0]])
        wedge.set_xy(_wedges(np.pi * e_m))
        return (f"α = {a:.3g}: ε<sub>Hebb</sub> = {e_h:.3f}, ε<sub>Gibbs</sub> = {e_g:.3f}, "
                f"ε<sub>max margin</sub> = <b>{e_m:.3f}</b>, ε<sub>Bayes</sub> = {e_b:.3f} "
                f"(angle to the teacher {180 * e_m:.1f}°; 0.50/α = {0.5 / a:.3f})")

    moving = [cursor, dots, wedge, mm_line, mm_arrow, hebb_line, hebb_arrow, t_line, t_arrow]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "Left: generalisation error against examples per weight alpha for the "
            "Hebb, Gibbs and maximum-margin students and the Bayes-optimal floor "
            "(theory lines, simulations as markers). Right: the teacher and the "
            "maximum-margin student in the plane they span, with the inputs the student "
            "gets wrong shaded."
        ),
    )


DEMOS = {
    "capacity_explorer": build_capacity_explorer,
    "learning_explorer": build_learning_explorer,
}
