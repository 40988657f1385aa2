"""Lesson 5 widgets: the perceptron's run update by update, and mistakes against the bound.

``build_training_stepper`` steps through one run: the learning step is drawn as
vectors (``w_{k-1}``, the correction ``eta y x`` and ``w_k = w_{k-1} + eta y x``, next to
the separator ``u``), the pattern behind update ``k`` is ringed, and a second panel shows
the four lengths of the proof in their fixed order ``k gamma <= u.w_k <= ||w_k|| <= sqrt(k) R``.
:func:`learning_steps_figure` draws a few of those steps side by side (static).
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
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.text import Annotation
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, as_labels, as_patterns, as_weights
from perclib.data import teacher_data
from perclib.novikoff import NovikoffTrace, novikoff_trace, radius
from perclib.plotting import (
    ACCENT_COLOR,
    BOUNDARY_COLOR,
    FONT_SIZES,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NORMAL_COLOR,
    decision_line,
    direct_labels,
    legend,
    margin_lines,
    new_figure,
    plot_patterns,
    setup_plane,
    update_line,
    update_margin_lines,
    update_patterns,
)
from perclib.plotting._tables import log_steps
from perclib.plotting._words import count, join, num, panels
from perclib.train import perceptron
from perclib.widgets.base import SliderFigure

_STYLE = {"description_width": "initial"}
_LAYOUT = widgets.Layout(width="460px")


def _plane_limits(X: NDArray[np.float64]) -> tuple[float, float, float, float]:
    """A square box around the origin and every pattern, with some room."""
    half = 1.12 * float(np.max(np.abs(X[:, :2]))) + 0.1
    return (-half, half, -half, half)


def _vector_limits(X: NDArray[np.float64], W: NDArray[np.float64]) -> tuple[float, float, float, float]:
    """A square box around the origin, the patterns and every weight vector of a run."""
    return _plane_limits(np.vstack([X[:, :2], W[:, :2]]))


def _vector(ax: Axes, color: str, label: str, lw: float = 2.0) -> Annotation:
    """An arrow artist (hidden until :func:`_set_vector` places it)."""
    arrow = ax.annotate(
        "", xy=(0, 0), xytext=(0, 0), zorder=4,
        arrowprops={"arrowstyle": "-|>", "color": color, "lw": lw, "shrinkA": 0, "shrinkB": 0},
    )
    arrow.set_visible(False)
    ax.plot([], [], color=color, lw=lw, label=label)  # legend entry (arrows have none)
    return arrow


def _set_vector(arrow: Annotation, tail: ArrayLike, head: ArrayLike) -> None:
    """Draw ``arrow`` from ``tail`` to ``head`` (hidden when they coincide)."""
    tail, head = np.asarray(tail, dtype=float)[:2], np.asarray(head, dtype=float)[:2]
    arrow.set_visible(bool(np.any(tail != head)))
    arrow.xy = tuple(head)
    arrow.set_position(tuple(tail))


def _angle(w: NDArray[np.float64], u: NDArray[np.float64]) -> float:
    """Angle between ``w`` and the unit vector ``u`` in degrees (NaN for ``w = 0``)."""
    norm = float(np.linalg.norm(w))
    return float("nan") if norm == 0 else float(np.degrees(np.arccos(np.clip(w @ u / norm, -1, 1))))


def _step_artists(ax: Axes, u: NDArray[np.float64], length: float) -> list[Annotation]:
    """The separator ``u`` (fixed) and the three moving arrows of one learning step."""
    _set_vector(_vector(ax, ACCENT_COLOR, "separator $u$ (unit)", lw=1.6), [0, 0], length * u)
    return [
        _vector(ax, MARGIN_COLOR, "$w_{k-1}$", lw=1.6),
        _vector(ax, HIGHLIGHT_COLOR, "$\\eta\\, y\\, x$ (the correction)", lw=1.8),
        _vector(ax, NORMAL_COLOR, "$w_k = w_{k-1} + \\eta\\, y\\, x$", lw=2.2),
    ]


def _set_step(arrows: list[Annotation], w_prev: NDArray[np.float64], w: NDArray[np.float64]) -> None:
    before, step, after = arrows
    _set_vector(before, [0, 0], w_prev)
    _set_vector(step, w_prev, w)
    _set_vector(after, [0, 0], w)


def learning_steps_figure(
    X: ArrayLike, y: ArrayLike, u: ArrayLike, ks: ArrayLike, *, eta: float = 1.0
) -> Figure:
    """Updates ``ks`` of a perceptron run (from ``w = 0``) drawn as vectors, one panel each.

    Each panel shows the patterns, the separator ``u`` (arrow and dashed line), the
    ringed pattern ``x`` behind update ``k``, ``w_{k-1}``, the correction ``eta y x`` drawn
    from the tip of ``w_{k-1}``, the new ``w_k`` and its decision line; the title gives
    the angles of ``w_{k-1}`` and ``w_k`` to ``u``. The figure's ``repr`` (its alt text)
    says how those angles change and which updates turn ``w`` away from ``u``.

    Examples
    --------
    >>> fig = learning_steps_figure([[1.0, 0.0], [0.0, 1.0]], [1, 1], [1.0, 1.0], [2])
    >>> fig.axes[0].get_title()
    'update 2: angle to $u$ 45.0° → 0.0°'
    >>> "45.0° to 0.0° at update 2" in repr(fig)
    True
    """
    X = as_patterns(X)
    if X.shape[1] != 2:
        raise ValueError(f"the steps are drawn in the plane: X must have 2 columns, got {X.shape[1]}")
    y = as_labels(y, X.shape[0])
    u = as_weights(u, 2, name="u")
    run = perceptron(X, y, eta=eta)
    trace = novikoff_trace(run, u)  # checks that u separates the data
    ks = np.atleast_1d(np.asarray(ks))
    if ks.ndim != 1 or ks.size == 0 or not np.issubdtype(ks.dtype, np.integer):
        raise ValueError("ks must be a non-empty list of update numbers (integers)")
    if np.any(ks < 1) or np.any(ks > run.n_updates):
        raise ValueError(f"ks must lie in 1 .. {run.n_updates} (the updates of this run)")
    W = run.weights
    fig, axes = new_figure(len(ks), width=3.3, height=3.6)
    # Zoom on the vectors drawn (and the ringed patterns): patterns further out are cut.
    shown = np.vstack([W[ks - 1], W[ks], X[run.indices[ks - 1]]])
    limits = _plane_limits(1.15 * shown)
    turns = []
    for ax, k in zip(axes, ks.tolist(), strict=True):
        setup_plane(ax, limits)
        plot_patterns(ax, X, y)
        decision_line(ax, trace.u, color=ACCENT_COLOR, lw=1.0, ls="--")
        decision_line(ax, W[k], lw=1.2)
        i = int(run.indices[k - 1])
        ax.scatter(*X[i], s=170, facecolors="none", edgecolors=HIGHLIGHT_COLOR, linewidths=2.0, zorder=5)
        _set_step(_step_artists(ax, trace.u, 0.8 * limits[1]), W[k - 1], W[k])
        before, after = _angle(W[k - 1], trace.u), _angle(W[k], trace.u)
        first = "undefined" if np.isnan(before) else f"{before:.1f}°"
        ax.set_title(f"update {k}: angle to $u$ {first} → {after:.1f}°", fontsize=9)
        turns.append((k, before, after, first))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize=8)
    fig.alt_text = _describe_steps(turns, X, eta, limits[1])
    return fig


def _describe_steps(
    turns: list[tuple[int, float, float, str]], X: NDArray[np.float64], eta: float,
    half: float,
) -> str:
    """The steps of :func:`learning_steps_figure` in words: the angles to ``u``."""
    ks = [k for k, *_ in turns]
    which = "update" if len(ks) == 1 else "updates"
    text = (f"{panels(len(ks))}: {which} {join(str(k) for k in ks)} of a perceptron "
            f"run from w = 0 (η = {num(eta)}) on {len(X)} labelled patterns in the "
            "plane. Each shows the separator u, the ringed pattern behind the update, "
            "w before it, the correction η y x from its tip and w after it with its "
            "line.")
    out = int(np.count_nonzero(np.abs(X).max(axis=1) > half))
    if out:
        verb = "lies" if out == 1 else "lie"
        text += f" {count(out, 'pattern')} {verb} outside the zoomed window."
    angles = [("none (w = 0)" if np.isnan(before) else first)
              + f" to {after:.1f}° at update {k}" for k, before, after, first in turns]
    text += " Angle between w and u: " + join(angles, ", ")
    away = [k for k, before, after, _ in turns if after > before]  # NaN: never away
    if away:
        text += "; so an update can also turn w away from u."
    elif all(after < before for _, before, after, _ in turns):
        text += "; this update turns" if len(ks) == 1 else "; each update turns"
        text += " w towards u."
    else:
        text += "."
    return text


def proof_figure(trace: NovikoffTrace) -> Figure:
    """The proof of Novikoff's theorem along one run (from ``w_0 = 0``), in two panels.

    Left: the chain ``k gamma <= u.w_k <= ||w_k|| <= sqrt(k) R`` update by update (times
    ``eta``). Right, on a log scale in ``k``: ``cos angle(u, w_k)``, its guaranteed lower
    bound ``sqrt(k) gamma / R`` and the ceiling 1, which the bound reaches at
    ``k = R^2 / gamma^2``. The figure's ``repr`` (its alt text) gives the chain's values
    at the last update, the cosine's range and the run's length against the bound.

    Examples
    --------
    >>> from perclib import perceptron
    >>> fig = proof_figure(novikoff_trace(perceptron([[1.0, 0.0], [0.0, 1.0]], [1, 1]), [1.0, 1.0]))
    >>> [ax.get_title() for ax in fig.axes]
    ["the proof's chain, in order", 'the cosine: pushed up, capped at 1']
    >>> "at k = 2: 1.41 ≤ 1.41 ≤ 1.41 ≤ 1.41" in repr(fig)
    True
    """
    if not isinstance(trace, NovikoffTrace):
        raise TypeError(f"trace must be a NovikoffTrace, got {type(trace).__name__}")
    if trace.upper[0] != 0:
        raise ValueError("proof_figure draws runs from w_0 = 0 (the chain starts at 0)")
    fig, (ax, bx) = new_figure(2, width=4.6, height=3.4)
    chain = [
        ax.plot(trace.k, np.sqrt(trace.upper), color=ACCENT_COLOR)[0],
        ax.plot(trace.k, np.sqrt(trace.norm2), "o-", ms=3, color=NORMAL_COLOR)[0],
        ax.plot(trace.k, trace.overlap, "s-", ms=3, color=BOUNDARY_COLOR)[0],
        ax.plot(trace.k, trace.lower, color=HIGHLIGHT_COLOR)[0],
    ]
    ax.set(xlabel="update $k$", ylabel="length", title="the proof's chain, in order")
    ax.autoscale_view()  # the labels are placed in axes coordinates: limits first
    # Each line named at its right end, in its colour and at text size (a legend was too small).
    for text in direct_labels(ax, chain, ["$\\sqrt{k}\\,R$", "$\\|w_k\\|$", "$u \\cdot w_k$",
                                          "$k\\gamma$"], min_gap=0.09):
        text.set_fontsize(FONT_SIZES["label"])
    ks = np.geomspace(1, 1.5 * max(trace.bound, 1.0), 200)
    bx.semilogx(trace.k[1:], trace.cos[1:], "o-", ms=3, color=BOUNDARY_COLOR)
    bx.semilogx(ks, np.sqrt(ks) * trace.gamma / trace.R, color=HIGHLIGHT_COLOR)
    bx.axhline(1, color=MARGIN_COLOR, ls="--")
    bx.axvline(trace.bound, color=ACCENT_COLOR, ls=":")
    bx.set(xlabel="update $k$ (log scale)", ylabel="cosine", ylim=(0, 1.6),
           title="the cosine: pushed up, capped at 1")
    # Labels written next to what they name, at text size.
    size = FONT_SIZES["label"]
    k_last = float(trace.k[-1])
    bx.annotate("$\\cos\\angle(u, w_k)$", xy=(k_last, float(trace.cos[-1])), xytext=(-4, 10),
                textcoords="offset points", ha="right", va="bottom", color=BOUNDARY_COLOR, fontsize=size)
    bx.text(1.1, 1.03, "ceiling 1", color=MARGIN_COLOR, fontsize=size, va="bottom")
    bx.annotate("guaranteed: $\\sqrt{k}\\,\\gamma/R$", xy=(1.0, trace.gamma / trace.R),
                xytext=(6, 8), textcoords="offset points", color=HIGHLIGHT_COLOR, fontsize=size,
                va="bottom")
    bx.annotate("$k = R^2/\\gamma^2$", xy=(trace.bound, 1.45), xytext=(-4, 0), textcoords="offset points",
                ha="right", va="center", color=ACCENT_COLOR, fontsize=size)
    fig.alt_text = _describe_proof(trace)
    _proof_table(fig, trace)
    return fig


def _proof_table(fig: Figure, trace: NovikoffTrace) -> None:
    """The chain of the proof, update by update (at most about 30 rows: a long run is
    sampled on a logarithmic grid of k, its last update always kept)."""
    last = len(trace.k) - 1
    rows_at = range(last + 1) if last <= 30 else sorted(
        {0, *log_steps(1, last, 28)})
    fig.set_data_table(
        "The four sides of the proof's chain at update k, and the cosine between u and w_k.",
        ["update k", "k γ (lower bound)", "u · w_k", "‖w_k‖", "√k R (upper bound)",
         "cos∠(u, w_k)"],
        [[f"{int(trace.k[i])}", f"{trace.lower[i]:.4g}", f"{trace.overlap[i]:.4g}",
          f"{np.sqrt(trace.norm2[i]):.4g}", f"{np.sqrt(trace.upper[i]):.4g}",
          "none (w_k = 0)" if np.isnan(trace.cos[i]) else f"{trace.cos[i]:.4f}"]
         for i in rows_at])


def _describe_proof(trace: NovikoffTrace) -> str:
    """The proof figure in words: the chain at the last update, the cosine, the bound."""
    n = trace.n_updates
    step = "k γ" if trace.eta == 1 else "k η γ"
    top = "√k R" if trace.eta == 1 else "√k η R"
    chain = [trace.lower[-1], trace.overlap[-1], np.sqrt(trace.norm2[-1]),
             np.sqrt(trace.upper[-1])]
    held = "at every update" if trace.holds() else "(the order fails at some update)"
    text = (f"Two panels. Left: the four lengths of Novikoff's proof over the run's "
            f"{count(n, 'update')}, in the order {step} ≤ u.w_k ≤ ‖w_k‖ ≤ {top} {held}; "
            f"at k = {n}: {' ≤ '.join(num(v) for v in chain)}.")
    if n >= 1:
        cos = trace.cos[1:]
        first, last, peak = (f"{c:.2f}" for c in (cos[0], cos[-1], cos.max()))
        most = "" if peak in (first, last) else f", at most {peak}"
        text += (" Right, k on a log scale: the cosine of the angle between u and w_k, "
                 f"from {first} at k = 1 to {last} at k = {n}{most}, under the ceiling "
                 "1, and its guaranteed floor √k γ/R, which reaches 1 at k = R²/γ² = "
                 f"{num(trace.bound, 4)}. The run made {num(100 * n / trace.bound, 2)} "
                 "% of that many updates.")
    return text


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
    *,
    start: int | None = None,
) -> SliderFigure:
    """Step through a perceptron run (from ``w = 0``, ``eta = 1``) one update at a time.

    Left: the learning step as vectors, ``w_{k-1}``, the correction ``y x`` drawn from
    its tip and ``w_k``, next to the separator ``u``; the decision line of ``w_k``; the
    pattern behind update ``k`` ringed. Right: the four lengths of the proof.

    Parameters
    ----------
    X : array_like, shape (P, 2), optional
        Patterns in the plane (the default is :func:`stepper_data`).
    y : array_like, shape (P,), optional
        Labels -1/+1; required when ``X`` is given.
    u : array_like, shape (2,), optional
        A separator of the data used for the bounds (normalised); required with ``X``.
    start : int, optional
        The update shown first (and in static exports); default half-way through
        the run, a real step rather than the empty start ``w_0 = 0``.

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
    >>> demo.controls["k"].max, demo.controls["k"].value
    (19, 9)
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
    start = min(n, max(1, n // 2)) if start is None else as_count(start, "start", 0)
    if start > n:
        raise ValueError(f"start must lie in 0 .. {n} (the updates of this run), got {start}")
    norms = np.sqrt(trace.norm2)
    ks = np.linspace(0.0, max(n, 1), 200)

    fig, (ax, bx) = new_figure(2, width=4.3, height=3.9)
    limits = _vector_limits(X, W)
    setup_plane(ax, limits)
    plot_patterns(ax, X, y)
    decision_line(ax, trace.u, color=ACCENT_COLOR, lw=1.0, ls="--")
    line = decision_line(ax, W[0], label="$w_k \\cdot x = 0$")
    arrows = _step_artists(ax, trace.u, 0.8 * limits[1])
    ring = ax.scatter(
        [], [], s=190, facecolors="none", edgecolors=HIGHLIGHT_COLOR, linewidths=2.2, zorder=5,
        label="pattern of update $k$",
    )
    # Below the plane: inside it the legend would hide patterns and arrows.
    legend(ax, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    ax.set_title("the ring marks the pattern behind update $k$", fontsize=9)

    bx.plot(ks, np.sqrt(ks) * trace.R, color=ACCENT_COLOR, lw=1.6, label="$\\sqrt{k}\\,R$ (upper bound)")
    bx.plot(trace.k, norms, "o-", color=NORMAL_COLOR, ms=3.5, lw=1.0, label="$\\|w_k\\|$")
    bx.plot(trace.k, trace.overlap, "s-", color=BOUNDARY_COLOR, ms=3.5, lw=1.0, label="$u \\cdot w_k$")
    bx.plot(ks, ks * trace.gamma, color=HIGHLIGHT_COLOR, lw=1.6, label="$k\\gamma$ (lower bound)")
    cursor = bx.axvline(0, color=MARGIN_COLOR, lw=1.0, ls=":")
    (dots,) = bx.plot([], [], "o", ms=9, mfc="none", mec=HIGHLIGHT_COLOR, mew=1.8)
    bx.set_xlim(0, max(n, 1) * 1.02)
    top = max(float(norms.max()), trace.R * np.sqrt(max(n, 1)))
    # Headroom above the curves: the legend sits there (at every matplotlib version).
    bx.set_ylim(min(0.0, float(trace.overlap.min())) - 0.05, 1.3 * top)
    bx.set_xlabel("update $k$")
    bx.set_ylabel("length")
    bx.legend(loc="upper left", fontsize=8, framealpha=0.9)
    bx.set_title(f"$R^2/\\gamma^2 = {trace.bound:.1f}$ updates at most; this run: {n}", fontsize=9)

    def redraw(values: dict[str, Any]) -> str:
        k = int(values["k"])
        w = W[k]
        update_line(line, w)
        _set_step(arrows, W[max(k - 1, 0)], w)
        # Changing text goes to the HTML status line: re-rendering figure text is slow.
        if k == 0:
            ring.set_offsets(np.empty((0, 2)))
            what = "start: w<sub>0</sub> = 0, no decision line yet"
        else:
            i = int(run.indices[k - 1])
            ring.set_offsets(X[i : i + 1])
            before = _angle(W[k - 1], trace.u)
            first = "undefined" if np.isnan(before) else f"{before:.1f}&deg;"
            what = (
                f"update {k} was caused by pattern {i} (y = {y[i]:+.0f}); "
                f"angle to u: {first} &rarr; {_angle(w, trace.u):.1f}&deg;"
            )
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
        value=start, min=0, max=n, step=1, description="update k", style=_STYLE, layout=_LAYOUT,
        continuous_update=True,
    )
    moving = [line, *arrows, ring, cursor, dots]
    return SliderFigure(
        fig, {"k": slider}, redraw, moving=moving,
        description=(
            "Left: the training patterns in the plane (blue circles y = +1, orange "
            "squares y = -1), the teacher's line, the perceptron's line after update "
            "k and a ring on the pattern that caused update k. Right: u.w_k and the "
            "length of w_k against the update number k, between the proof's lower "
            "bound k gamma and upper bound sqrt(k) R."
        ),
    )


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
    seed = as_count(seed, "seed", 0)
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
    ax.set_xlabel("$u \\cdot x$ (signed distance to the teacher's plane)", fontsize=FONT_SIZES["ticks"])
    ax.set_ylabel("$v \\cdot x$ (a direction inside it)", fontsize=FONT_SIZES["ticks"])
    points = plot_patterns(ax, views[0], sweep["y"][0])
    decision_line(ax, [1.0, 0.0], color=MARGIN_COLOR, lw=1.2, label="teacher $u \\cdot x = 0$")
    bands = margin_lines(ax, [1.0, 0.0], 0.0, float(grid[0]))
    # Legends at text size (issue 32: they were too small to read at a glance).
    legend(ax, fontsize=FONT_SIZES["label"])
    ax.set_title("no pattern inside the band $|u \\cdot x| < \\gamma$", fontsize=FONT_SIZES["title"])

    bx.semilogy(sweep["margin"], sweep["bound"], color=ACCENT_COLOR, lw=1.6, label="bound $R^2/\\gamma^2$")
    bx.semilogy(sweep["margin"], np.maximum(sweep["mistakes"], 1), "o-", color=NORMAL_COLOR, ms=3.5,
                lw=1.0, label="mistakes $k$")
    cursor = bx.axvline(grid[0], color=MARGIN_COLOR, lw=1.0, ls=":")
    (dots,) = bx.plot([], [], "o", ms=9, mfc="none", mec=HIGHLIGHT_COLOR, mew=1.8)
    bx.set_xlabel("teacher margin $\\gamma$")
    bx.set_ylabel("updates")
    bx.legend(loc="upper right", fontsize=FONT_SIZES["label"], framealpha=0.9)
    bx.set_title(f"P = {P} patterns in N = {N} dimensions", fontsize=FONT_SIZES["title"])

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
    return SliderFigure(
        fig, {"margin": slider}, redraw, moving=moving,
        description=(
            "Left: the patterns seen along the teacher's direction u (horizontal) and"
            " a direction inside the teacher's hyperplane (vertical), with no pattern"
            " inside the band of half-width gamma around the hyperplane. Right, on a "
            "log scale: the perceptron's mistakes against the teacher margin gamma, "
            "below the bound R^2/gamma^2."
        ),
    )


DEMOS = {
    "training_stepper": build_training_stepper,
    "margin_explorer": build_margin_explorer,
}
