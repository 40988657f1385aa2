"""Lesson 5 widgets: the perceptron's run update by update, and mistakes against the bound.

``build_training_stepper`` steps through one run: the decision line turns, the
pattern behind update ``k`` is ringed, and a second panel shows the four lengths of
the proof in their fixed order ``k gamma <= u.w_k <= ||w_k|| <= sqrt(k) R``.
``build_margin_explorer`` changes the teacher's margin of a fixed cloud of points and
shows the number of mistakes against Novikoff's bound ``R^2 / gamma^2``.

Everything a slider can reach is computed when the widget is built, so a slider move
only moves artists. Both figures have two axes full of tick labels, legends and
reference curves that never change; :class:`SliderFigure` (with ``moving=``) draws those once and
afterwards redraws only the moving artists on top of the saved background (blitting),
which keeps an update well under the course's 30 ms budget.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, as_labels, as_patterns, as_weights
from perclib.data import teacher_data
from perclib.novikoff import novikoff_trace, radius
from perclib.plotting import (
    ACCENT_COLOR,
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NORMAL_COLOR,
    decision_line,
    legend,
    margin_lines,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
    update_arrow,
    update_line,
    update_margin_lines,
    update_patterns,
)
from perclib.train import perceptron
from perclib.widgets.base import SliderFigure

_STYLE = {"description_width": "initial"}
_LAYOUT = widgets.Layout(width="460px")


def _plane_limits(X: NDArray[np.float64]) -> tuple[float, float, float, float]:
    """A square box around the origin and every pattern, with some room."""
    half = 1.12 * float(np.max(np.abs(X[:, :2]))) + 0.1
    return (-half, half, -half, half)


def stepper_data(seed: int = 20) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """The stepper's default data: 40 teacher-labelled points in the plane, margin 0.1.

    Returns ``(X, y, teacher)``; with the default seed the perceptron makes 19 updates.

    Examples
    --------
    >>> X, y, u = stepper_data()
    >>> X.shape, perceptron(X, y).n_updates
    ((40, 2), 19)
    """
    d = teacher_data(40, 2, margin=0.1, rng=seed)
    return d.X, d.y, d.teacher


def build_training_stepper(
    X: ArrayLike | None = None,
    y: ArrayLike | None = None,
    u: ArrayLike | None = None,
) -> SliderFigure:
    """Step through a perceptron run (from ``w = 0``, ``eta = 1``) one update at a time.

    Parameters
    ----------
    X : array_like, shape (P, 2), optional
        Patterns in the plane (the default is :func:`stepper_data`).
    y : array_like, shape (P,), optional
        Labels -1/+1; required when ``X`` is given.
    u : array_like, shape (2,), optional
        A separator of the data used for the bounds (normalised); required with ``X``.

    Returns
    -------
    SliderFigure
        One control, ``"k"`` (0 .. number of updates).

    Raises
    ------
    ValueError
        If the data are not 2-D, ``u`` does not separate them, or the run does not
        converge within 1000 epochs.

    Examples
    --------
    >>> demo = build_training_stepper()
    >>> demo.controls["k"].max
    19
    """
    if X is None:
        if y is not None or u is not None:
            raise ValueError("give X, y and u together (or none of them for the default data)")
        X, y, u = stepper_data()
    elif y is None or u is None:
        raise ValueError("with your own X, give its labels y and a separator u as well")
    X = as_patterns(X)
    if X.shape[1] != 2:
        raise ValueError(f"the stepper draws the plane: X must have 2 columns, got {X.shape[1]}")
    y = as_labels(y, X.shape[0])
    u = as_weights(u, 2, name="u")
    run = perceptron(X, y)
    if not run.converged:
        raise ValueError("the perceptron did not converge on these data: are they separable?")
    trace = novikoff_trace(run, u)  # checks that u separates the data
    W, n = run.weights, run.n_updates
    norms = np.sqrt(trace.norm2)
    ks = np.linspace(0.0, max(n, 1), 200)

    fig, (ax, bx) = new_figure(2, width=4.3, height=3.9)
    setup_plane(ax, _plane_limits(X))
    plot_patterns(ax, X, y)
    decision_line(ax, trace.u, color=MARGIN_COLOR, lw=1.2, ls="--", label="separator $u$")
    line = decision_line(ax, W[0], label="$w_k \\cdot x = 0$")
    arrow = normal_arrow(ax, W[0], length=0.35 * (ax.get_xlim()[1] - ax.get_xlim()[0]) / 2)
    ring = ax.scatter(
        [], [], s=190, facecolors="none", edgecolors=HIGHLIGHT_COLOR, linewidths=2.2, zorder=5,
        label="pattern of update $k$",
    )
    legend(ax, fontsize=7)
    ax.set_title("the ring marks the pattern behind update $k$", fontsize=9)

    bx.plot(ks, np.sqrt(ks) * trace.R, color=ACCENT_COLOR, lw=1.6, label="$\\sqrt{k}\\,R$ (upper bound)")
    bx.plot(trace.k, norms, "o-", color=NORMAL_COLOR, ms=3.5, lw=1.0, label="$\\|w_k\\|$")
    bx.plot(trace.k, trace.overlap, "s-", color=BOUNDARY_COLOR, ms=3.5, lw=1.0, label="$u \\cdot w_k$")
    bx.plot(ks, ks * trace.gamma, color=HIGHLIGHT_COLOR, lw=1.6, label="$k\\gamma$ (lower bound)")
    cursor = bx.axvline(0, color=MARGIN_COLOR, lw=1.0, ls=":")
    (dots,) = bx.plot([], [], "o", ms=9, mfc="none", mec=HIGHLIGHT_COLOR, mew=1.8)
    bx.set_xlim(0, max(n, 1) * 1.02)
    top = max(float(norms.max()), trace.R * np.sqrt(max(n, 1)))
    bx.set_ylim(min(0.0, float(trace.overlap.min())) - 0.05, 1.08 * top)
    bx.set_xlabel("update $k$")
    bx.set_ylabel("length")
    bx.legend(loc="upper left", fontsize=7, framealpha=0.9)
    bx.set_title(f"$R^2/\\gamma^2 = {trace.bound:.1f}$ updates at most; this run: {n}", fontsize=9)

    def redraw(values: dict[str, Any]) -> str:
        k = int(values["k"])
        w = W[k]
        update_line(line, w)
        update_arrow(arrow, w, length=0.35 * (ax.get_xlim()[1] - ax.get_xlim()[0]) / 2)
        # Changing text goes to the HTML status line: re-rendering figure text is slow.
        if k == 0:
            ring.set_offsets(np.empty((0, 2)))
            what = "start: w<sub>0</sub> = 0, no decision line yet"
        else:
            i = int(run.indices[k - 1])
            ring.set_offsets(X[i : i + 1])
            what = f"update {k} was caused by pattern {i} (y = {y[i]:+.0f})"
        cursor.set_xdata([k, k])
        dots.set_data([k, k], [trace.overlap[k], norms[k]])
        cos = "undefined (w = 0)" if np.isnan(trace.cos[k]) else f"{trace.cos[k]:.3f}"
        wk = "w<sub>k</sub>"
        return (
            f"{what}<br>k&gamma; = {k * trace.gamma:.3f} &le; u&middot;{wk} = {trace.overlap[k]:.3f}; "
            f"||{wk}||&sup2; = {trace.norm2[k]:.3f} &le; kR&sup2; = {k * trace.R**2:.3f}; "
            f"cos angle(u, {wk}) = {cos} &ge; &radic;k &gamma;/R = {np.sqrt(k) * trace.gamma / trace.R:.3f}"
        )

    slider = widgets.IntSlider(
        value=0, min=0, max=n, step=1, description="update k", style=_STYLE, layout=_LAYOUT,
        continuous_update=True,
    )
    moving = [line, arrow, ring, cursor, dots]
    return SliderFigure(fig, {"k": slider}, redraw, moving=moving)


def margin_sweep(
    margins: ArrayLike, *, P: int = 40, N: int = 2, seed: int = 5
) -> dict[str, NDArray[np.float64]]:
    """Mistakes and Novikoff's bound for the same cloud of points at several teacher margins.

    The patterns are drawn once (same seed and teacher for every margin, see
    :func:`perclib.teacher_data`), so only the margin changes from one entry to the next.

    Returns
    -------
    dict of arrays
        One entry per margin in ``"margin"``, ``"mistakes"`` (updates of the perceptron
        from ``w = 0``), ``"R"``, ``"bound"`` (``R^2 / margin^2``, the teacher's bound),
        ``"X"`` (shape ``(len(margins), P, N)``) and ``"y"``; plus ``"teacher"`` (unit, shape ``(N,)``).

    Examples
    --------
    >>> s = margin_sweep([0.2, 0.4])
    >>> bool(np.all(s["mistakes"] <= s["bound"]))
    True
    """
    margins = np.asarray(margins, dtype=np.float64)
    if margins.ndim != 1 or margins.size == 0 or not np.all(np.isfinite(margins)) or np.any(margins <= 0):
        raise ValueError("margins must be a non-empty 1-D array of finite numbers > 0")
    P = as_count(P, "P", 1)
    N = as_count(N, "N", 1)
    # The teacher comes from its own stream: drawn from the patterns' stream it would
    # coincide with the first pattern's direction.
    teacher = np.random.default_rng([seed, 1]).standard_normal(N)
    teacher /= np.linalg.norm(teacher)
    out: dict[str, list[float]] = {"margin": [], "mistakes": [], "R": [], "bound": [], "X": [], "y": []}
    for m in margins:
        d = teacher_data(P, N, margin=float(m), teacher=teacher, rng=seed)
        run = perceptron(d.X, d.y, max_epochs=100_000)
        R = radius(d.X)
        out["margin"].append(float(m))
        out["mistakes"].append(float(run.n_updates))
        out["R"].append(R)
        out["bound"].append((R / float(m)) ** 2)
        out["X"].append(d.X)
        out["y"].append(d.y)
    result = {key: np.array(value) for key, value in out.items()}
    result["teacher"] = teacher
    return result


def build_margin_explorer(*, P: int = 100, N: int = 10, seed: int = 0) -> SliderFigure:
    """A slider for the teacher's margin: the data, the mistakes made and the bound ``R^2 / gamma^2``.

    The same Gaussian cloud is pushed away from the teacher's hyperplane until its
    closest point sits at the chosen margin (:func:`margin_sweep`); the perceptron is
    run from ``w = 0`` on every version. Left: the data seen along the teacher ``u``
    (horizontal, ``u.x``) and a fixed direction ``v`` orthogonal to it (vertical), so
    the empty band ``|u.x| < gamma`` is visible in any dimension (in 2-D this is just
    the plane, rotated). Right (log scale): mistakes and the bound against the margin.

    Examples
    --------
    >>> demo = build_margin_explorer(P=30, N=2)
    >>> sorted(demo.controls)
    ['margin']
    """
    P = as_count(P, "P", 1)
    N = as_count(N, "N", 2)
    grid = np.round(np.arange(0.02, 0.6001, 0.02), 2)
    sweep = margin_sweep(grid, P=P, N=N, seed=seed)
    u = sweep["teacher"]
    v = np.random.default_rng([seed, 2]).standard_normal(N)
    v -= (v @ u) * u
    v /= np.linalg.norm(v)
    views = [np.column_stack([Xm @ u, Xm @ v]) for Xm in sweep["X"]]
    finals = [perceptron(Xm, ym, max_epochs=100_000).w for Xm, ym in zip(sweep["X"], sweep["y"], strict=True)]
    angles = [float(np.degrees(np.arccos(np.clip(w @ u / np.linalg.norm(w), -1.0, 1.0)))) for w in finals]

    fig, (ax, bx) = new_figure(2, width=4.3, height=3.9)
    setup_plane(ax, _plane_limits(np.vstack(views)))
    ax.set_xlabel("$u \\cdot x$ (signed distance to the teacher's hyperplane)", fontsize=8)
    ax.set_ylabel("$v \\cdot x$ (a direction inside it)", fontsize=8)
    points = plot_patterns(ax, views[0], sweep["y"][0])
    decision_line(ax, [1.0, 0.0], color=MARGIN_COLOR, lw=1.2, label="teacher $u \\cdot x = 0$")
    bands = margin_lines(ax, [1.0, 0.0], 0.0, float(grid[0]))
    legend(ax, fontsize=7)
    ax.set_title("no pattern inside the band $|u \\cdot x| < \\gamma$", fontsize=9)

    bx.semilogy(sweep["margin"], sweep["bound"], color=ACCENT_COLOR, lw=1.6, label="bound $R^2/\\gamma^2$")
    bx.semilogy(sweep["margin"], np.maximum(sweep["mistakes"], 1), "o-", color=NORMAL_COLOR, ms=3.5,
                lw=1.0, label="mistakes $k$")
    cursor = bx.axvline(grid[0], color=MARGIN_COLOR, lw=1.0, ls=":")
    (dots,) = bx.plot([], [], "o", ms=9, mfc="none", mec=HIGHLIGHT_COLOR, mew=1.8)
    bx.set_xlabel("teacher margin $\\gamma$")
    bx.set_ylabel("updates")
    bx.legend(loc="upper right", fontsize=7, framealpha=0.9)
    bx.set_title(f"P = {P} patterns in N = {N} dimensions", fontsize=9)

    def redraw(values: dict[str, Any]) -> str:
        # Snap to the precomputed grid (a slider may deliver any value in range).
        j = int(np.argmin(np.abs(grid - float(values["margin"]))))
        m = float(grid[j])
        update_patterns(points, views[j], sweep["y"][j])
        update_margin_lines(bands, [1.0, 0.0], 0.0, m)
        cursor.set_xdata([m, m])
        k = sweep["mistakes"][j]
        dots.set_data([m, m], [max(k, 1.0), sweep["bound"][j]])
        return (
            f"margin &gamma; = {m:.2f}, R = {sweep['R'][j]:.3f}: the perceptron made {k:.0f} mistake(s) "
            f"&le; R&sup2;/&gamma;&sup2; = {sweep['bound'][j]:.1f}; "
            f"its final w is {angles[j]:.1f}&deg; away from u"
        )

    slider = widgets.FloatSlider(
        value=0.1, min=float(grid[0]), max=float(grid[-1]), step=0.02, description="teacher margin",
        readout_format=".2f", style=_STYLE, layout=_LAYOUT,
    )
    moving = [*points, *bands, cursor, dots]
    return SliderFigure(fig, {"margin": slider}, redraw, moving=moving)


DEMOS = {
    "training_stepper": build_training_stepper,
    "margin_explorer": build_margin_explorer,
}
