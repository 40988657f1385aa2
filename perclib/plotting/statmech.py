"""Figures of lesson 9 (statistical mechanics): Gardner volumes, capacity, learning curves.

Each function builds one figure of the lesson from its data and returns it, so the
lesson cell shows the computation and one call.

Examples
--------
>>> import numpy as np
>>> from perclib.plotting.statmech import plot_volume_streams
>>> fig = plot_volume_streams([0.5 ** np.arange(1, 7)], n_dims=3)
>>> fig.axes[0].get_ylabel()
'Gardner volume $V$'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib.plotting import (
    ACCENT_COLOR,
    MARGIN_COLOR,
    NEGATIVE_COLOR,
    POSITIVE_COLOR,
    new_figure,
)
from perclib.plotting._words import num
from perclib.statmech import CapacitySample, LearningCurve, gardner_capacity, hebb_generalization
from perclib.statmech_tables import stored_or_computed

#: One colour per system size in the capacity figure (light to dark as N grows).
SIZE_COLORS = ("#56B4E9", POSITIVE_COLOR, "#000000")


def plot_volume_streams(streams: Sequence[ArrayLike], n_dims: int) -> Figure:
    """Gardner volumes after 1, 2, ... patterns, one line per stream, and the average 2^-P.

    Parameters
    ----------
    streams : sequence of 1-D array_like
        For each stream, the fraction of directions that survive the first
        1, 2, ..., P patterns (all streams of the same length P). Zeros are not drawn
        (the axis is logarithmic).
    n_dims : int
        Dimension N of the patterns; a dotted line marks P = 2N.

    Returns
    -------
    Figure
        Its ``repr`` (the alt text) counts the streams still above 0 at P = 2N and at
        the last P.

    Examples
    --------
    >>> fig = plot_volume_streams([[0.5, 0.2, 0.0]], n_dims=1)
    >>> len(fig.axes[0].get_lines())  # one stream, the average, the 2N line
    3
    >>> "at P = 2, 1 of 1 are above 0" in repr(fig)
    True
    """
    rows = [np.asarray(v, dtype=float) for v in streams]
    if not rows or any(r.ndim != 1 or r.shape != rows[0].shape for r in rows):
        raise ValueError("streams must be a non-empty list of 1-D arrays of one length")
    P_axis = np.arange(1, rows[0].size + 1)
    fig, (ax,) = new_figure(width=5.6, height=3.4)
    for V in rows:
        alive = V > 0
        ax.semilogy(P_axis[alive], V[alive], "o-", color=POSITIVE_COLOR, ms=3, lw=1, alpha=0.7)
    ax.semilogy(P_axis, 0.5**P_axis, "--", color=ACCENT_COLOR, label="average: $2^{-P}$")
    ax.axvline(2 * n_dims, color=MARGIN_COLOR, lw=0.8, ls=":")
    ax.set_xlabel(f"number of patterns $P$  ($N = {n_dims}$)")
    ax.set_ylabel("Gardner volume $V$")
    ax.set_xticks(P_axis)
    ax.legend(loc="lower left")
    fig.alt_text = _streams_alt(np.vstack(rows), n_dims)
    _streams_table(fig, np.vstack(rows), P_axis, n_dims)
    return fig


def _streams_table(fig: Figure, V: np.ndarray, P_axis: np.ndarray, n_dims: int) -> None:
    """The volumes drawn, one column per stream, with the average 2^-P; every P up to
    30 of them, else P = 1, 2N, the last and evenly spaced P between."""
    P = P_axis.size
    rows_at = range(P) if P <= 30 else sorted(
        {0, P - 1, *([2 * n_dims - 1] if 2 * n_dims <= P else []),
         *np.linspace(0, P - 1, 27).round().astype(int)})
    fig.set_data_table(
        f"The Gardner volume V after the first P patterns (N = {n_dims}) for each stream, "
        "and the average 2^−P (0: no direction stores them all).",
        ["patterns P", *(f"stream {i + 1}" for i in range(V.shape[0])), "average 2^−P"],
        [[f"{P_axis[j]}", *(num(v) for v in V[:, j]), num(0.5 ** P_axis[j])]
         for j in rows_at])


def _streams_alt(V: np.ndarray, n_dims: int) -> str:
    """What the volume streams do, counted at P = 2N and at the last P."""
    n, P = V.shape
    dead = np.flatnonzero(V.min(axis=0) <= 0)  # V never grows: a zero stays a zero
    last_all = (f"all {n} stay above 0 up to P = {P}" if dead.size == 0
                else f"all {n} are above 0 up to P = {dead[0]}" if dead[0] > 0
                else "some are 0 from P = 1")

    def alive_at(p: int) -> str:
        v = V[:, p - 1]
        on = v[v > 0]
        if on.size == 0:
            return f"at P = {p} none is above 0"
        return (f"at P = {p}, {on.size} of {n} are above 0, from {on.min():.2g} to "
                f"{on.max():.2g}")

    at_2n = f"{alive_at(2 * n_dims)}; " if 2 * n_dims < P else ""
    return ("A log-scale plot of the Gardner volume, the fraction of directions "
            f"storing the first P patterns, for {n} streams of patterns in N = {n_dims} "
            f"dimensions, against P = 1 to {P}, with the average 2^−P dashed and "
            f"P = 2N dotted: {last_all}; {at_2n}{alive_at(P)}.")


def plot_capacity_samples(samples: Sequence[CapacitySample],
                          kappas: Sequence[float] = (0.0, 0.5)) -> Figure:
    """Fraction of random labellings storable with stability kappa, against alpha.

    One panel per ``kappa``, one curve (with binomial standard errors) per sample
    size, and Gardner's prediction ``alpha_c(kappa)`` as a dashed line. The figure's
    ``repr`` (its alt text) gives the prediction next to where each sample's fraction
    falls through 1/2.

    Examples
    --------
    >>> from perclib.statmech import capacity_sample
    >>> s = capacity_sample([0.5, 1.0], 10, n_samples=3, rng=0)
    >>> fig = plot_capacity_samples([s], kappas=(0.0,))
    >>> fig.axes[0].get_title().endswith("= 2.000$")
    True
    """
    if len(samples) > len(SIZE_COLORS):
        raise ValueError(f"at most {len(SIZE_COLORS)} samples, got {len(samples)}")
    fig, axes = new_figure(len(kappas), width=4.2, height=3.4)
    for ax, kap in zip(axes, kappas, strict=True):
        for s, color in zip(samples, SIZE_COLORS, strict=False):
            f, err = s.fraction(kap)
            ax.errorbar(s.alpha, f, yerr=err, fmt="o-", ms=3, lw=1, color=color,
                        label=f"N = {s.N}")
        a_c = gardner_capacity(kap)
        ax.axvline(a_c, color=ACCENT_COLOR, ls="--", lw=1.5)
        ax.set_title(rf"$\kappa = {kap}$: prediction $\alpha_c = {a_c:.3f}$")
        ax.set_xlabel(r"patterns per weight $\alpha = P/N$")
    axes[0].set_ylabel(r"fraction storable with stability $\kappa$")
    axes[0].legend(loc="lower left")
    fig.alt_text = _capacity_alt(samples, kappas)
    _capacity_table(fig, samples, kappas)
    return fig


def _capacity_table(fig: Figure, samples: Sequence[CapacitySample],
                    kappas: Sequence[float]) -> None:
    """The points drawn: at each sampled α, the fraction ± its standard error, one column
    per stability κ and size N (empty where that size was not sampled at that α)."""
    loads = sorted({float(a) for s in samples for a in s.alpha})
    drawn = [(kap, s, *s.fraction(kap)) for kap in kappas for s in samples]

    def cell(s: CapacitySample, f: np.ndarray, err: np.ndarray, a: float) -> str:
        hit = np.flatnonzero(np.isclose(s.alpha, a, rtol=1e-12, atol=0))
        return f"{f[hit[0]]:.3f} ± {err[hit[0]]:.3f}" if hit.size else ""

    predictions = "; ".join(f"κ = {kap:g}: α_c = {gardner_capacity(kap):.3f}"
                            for kap in kappas)
    fig.set_data_table(
        "The fraction of random labellings storable with stability κ at each α = P/N, "
        "± its binomial standard error, for each κ and N; Gardner's prediction: "
        f"{predictions}.",
        ["α", *(f"κ = {kap:g}, N = {s.N}" for kap, s, _, _ in drawn)],
        [[f"{a:g}", *(cell(s, f, err, a) for _, s, f, err in drawn)] for a in loads])


def _capacity_alt(samples: Sequence[CapacitySample], kappas: Sequence[float]) -> str:
    """Gardner's prediction next to where each sample's fraction falls through 1/2."""

    def panel(kap: float) -> str:
        cross = ", ".join(
            f"{c:.2f}" if np.isfinite(c := s.crossing(kap)) else "none" for s in samples)
        return (f"κ = {kap:g}: prediction α_c = {gardner_capacity(kap):.3f}, "
                f"measured 1/2 crossings {cross or 'none'}")

    sizes = ", ".join(str(s.N) for s in samples)
    panels = {1: "One panel", 2: "Two panels", 3: "Three panels"}.get(
        len(kappas), f"{len(kappas)} panels")
    return (f"{panels}, one per stability κ: the fraction of random labellings "
            "storable with stability κ against "
            f"α = P/N, one curve per N = {sizes}, Gardner's prediction α_c dashed. "
            f"{'; '.join(panel(k) for k in kappas)}.")


#: Theory curves of the learning-curve figure: (label, function, colour, line style).
THEORY_CURVES = (
    ("Hebb", "hebb", NEGATIVE_COLOR, "-"),
    ("Gibbs", "gibbs", MARGIN_COLOR, "-"),
    ("maximum margin", "max_margin", POSITIVE_COLOR, "-"),
    ("Bayes-optimal (floor)", "bayes", "#000000", "--"),
)
#: Simulation markers: (marker, colour, sideways factor on alpha, filled).
_MARKERS = {"hebb": ("s", NEGATIVE_COLOR, 1.0, True), "perceptron": ("^", ACCENT_COLOR, 0.9, False),
            "max_margin": ("o", POSITIVE_COLOR, 1.1, True)}
_RULE_NAMES = {"hebb": "Hebb", "perceptron": "perceptron", "max_margin": "maximum margin"}


def plot_learning_curves(curves: Sequence[LearningCurve],
                         alpha_range: tuple[float, float] = (0.25, 50.0)) -> Figure:
    """Simulated learning curves (points with standard errors) against the theory curves.

    Log-log axes; the theory curves are Hebb, Gibbs, maximum margin and the
    Bayes-optimal floor, with the asymptotes ``0.50/alpha`` and ``0.625/alpha`` dotted.
    Two legends keep theory (lines) and simulation (markers) apart. The markers of the
    rules are shifted a few per cent sideways from each other (the perceptron open,
    left; the maximum margin right), so points with nearly equal errors stay visible.
    On the default range the zero-error theory curves come from the stored table
    (:mod:`perclib.statmech_tables`, tested against the functions). The figure's
    ``repr`` (its alt text) gives the theory curves at the right end, top to bottom,
    and each simulation's last mean.

    Examples
    --------
    >>> from perclib.statmech import learning_curve
    >>> lc = learning_curve([1.0, 2.0], 20, rule="hebb", n_runs=2, rng=0)
    >>> fig = plot_learning_curves([lc], alpha_range=(0.5, 4.0))
    >>> len(fig.axes[0].get_lines()) >= 6
    True
    """
    lo, hi = alpha_range
    if not 0 < lo < hi:
        raise ValueError(f"alpha_range must be (lo, hi) with 0 < lo < hi, got {alpha_range!r}")
    a = np.geomspace(lo, hi, 36)
    fig, (ax,) = new_figure(width=6.4, height=4.2)
    theory_lines = []
    for name, key, color, style in THEORY_CURVES:
        eps = hebb_generalization(a) if key == "hebb" else stored_or_computed(a, key)
        theory_lines += ax.loglog(a, eps, style, color=color, lw=1.5, label=name)
    ax.loglog(a, 0.5 / a, ":", color=POSITIVE_COLOR)
    ax.loglog(a, 0.625 / a, ":", color=MARGIN_COLOR)
    theory_lines += ax.plot([], [], ":", color="#7f7f7f", label=r"$0.50/\alpha$, $0.625/\alpha$")
    markers = []
    for c in curves:
        marker, color, shift, filled = _MARKERS[c.rule]
        markers.append(ax.errorbar(c.alpha * shift, c.mean, yerr=c.sem, fmt=marker, color=color, ms=5.5,
                                   mfc=color if filled else "white", mew=1.4, capsize=0,
                                   label=_RULE_NAMES[c.rule]))
    ax.set_xlim(lo, hi)
    ax.set_ylim(0.002, 0.6)
    ax.set_xlabel(r"examples per weight $\alpha = P/N$")
    ax.set_ylabel(r"generalisation error $\varepsilon$")
    theory_legend = ax.legend(handles=theory_lines, loc="lower left", title=r"theory ($N \to \infty$)",
                              fontsize=8, title_fontsize=8)
    if markers:
        ax.add_artist(theory_legend)
        sizes = sorted({c.N for c in curves})
        ax.legend(handles=markers, loc="upper right", fontsize=8, title_fontsize=8,
                  title=f"simulation, N = {', '.join(map(str, sizes))}")
    fig.alt_text = _curves_alt(curves, a, theory_lines)
    _learning_table(fig, curves, a)
    return fig


def _learning_table(fig: Figure, curves: Sequence[LearningCurve], a: np.ndarray) -> None:
    """The numbers behind the curves: at each simulated α (else every fifth α drawn),
    each theory curve and each simulation's mean ± its standard error."""
    loads = sorted({float(x) for c in curves for x in c.alpha}) or [float(x) for x in a[::5]]
    at = np.asarray(loads)
    theory = [hebb_generalization(at) if key == "hebb" else stored_or_computed(at, key)
              for _, key, _, _ in THEORY_CURVES]
    columns = ["α", *(f"theory: {name}" for name, _, _, _ in THEORY_CURVES),
               *(f"simulated: {_RULE_NAMES[c.rule]}" for c in curves)]
    rows = []
    for k, x in enumerate(loads):
        row = [f"{x:g}", *(f"{float(np.atleast_1d(t)[k]):.4f}" for t in theory)]
        for c in curves:
            hit = np.flatnonzero(np.isclose(c.alpha, x, rtol=1e-12, atol=0))
            row.append(f"{c.mean[hit[0]]:.4f} ± {c.sem[hit[0]]:.4f}" if hit.size else "")
        rows.append(row)
    fig.set_data_table("The generalisation error ε at each α: the theory curves "
                       "(N → ∞) and the simulated means ± their standard errors.", columns, rows)


def _curves_alt(curves: Sequence[LearningCurve], a: np.ndarray, theory: list) -> str:
    """The theory curves at the right end of the axis, and the simulations' last."""
    ends = sorted(((float(line.get_ydata()[-1]), str(line.get_label()))
                   for line in theory[:len(THEORY_CURVES)]), reverse=True)
    order = ", ".join(f"{name} {eps:.3f}" for eps, name in ends)
    sizes = ", ".join(str(n) for n in sorted({c.N for c in curves}))
    lasts = {float(c.alpha[-1]) for c in curves}
    if len(lasts) == 1:  # one shared last alpha: say it once
        sims = ", ".join(f"{_RULE_NAMES[c.rule]} {c.mean[-1]:.3f}" for c in curves)
        simulated = f" Simulated means (N = {sizes}) at α = {lasts.pop():g}: {sims}."
    else:
        sims = "; ".join(f"{_RULE_NAMES[c.rule]} {c.mean[-1]:.3f} at α = {c.alpha[-1]:g}"
                         for c in curves)
        simulated = (f" Simulated means (N = {sizes}) at their largest α: {sims}."
                     if curves else "")
    points = " and simulated points" if curves else ""
    return ("A log-log plot of the generalisation error ε against α = P/N: theory "
            f"curves{points}. At α = {a[-1]:g} the theory curves give, from "
            f"the top: {order}.{simulated}")


def plot_tilted_density(t: ArrayLike, R: float) -> Figure:
    """The stability of a fresh pattern for a student with overlap ``R``, against the plain Gaussian.

    A histogram of sampled stabilities ``t = y w . x``, the tilted density
    ``2 phi(t) H(-R t / sqrt(1 - R^2))`` and the standard normal density ``phi(t)``
    (the density at ``R = 0``, the capacity problem of section 2).

    Parameters
    ----------
    t : array_like
        Sampled stabilities (at least 100 finite values).
    R : float
        The student's overlap with the teacher, ``0 <= R < 1``.

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text).

    Examples
    --------
    >>> samples = np.random.default_rng(0).standard_normal(1000)
    >>> fig = plot_tilted_density(samples, 0.0)
    >>> len(fig.axes), "Gaussian" in repr(fig)
    (1, True)
    """
    from scipy.special import ndtr

    t = np.asarray(t, dtype=float).ravel()
    if t.size < 100 or not np.all(np.isfinite(t)):
        raise ValueError(f"t: give at least 100 finite sampled stabilities, got {t.size}")
    R = float(R)
    if not 0.0 <= R < 1.0:
        raise ValueError(f"R must be an overlap in [0, 1), got {R}")
    grid = np.linspace(-4.0, 4.0, 401)
    plain = np.exp(-(grid**2) / 2) / np.sqrt(2 * np.pi)
    tilted = 2 * plain * ndtr(R * grid / np.sqrt(1 - R**2))  # H(-x) = Phi(x)
    fig, (ax,) = new_figure(width=6.0, height=3.4)
    ax.hist(t, bins=np.linspace(-4.0, 4.0, 81), density=True, color=POSITIVE_COLOR, alpha=0.35,
            label=f"sampled, {t.size:,} patterns")
    ax.plot(grid, tilted, color=POSITIVE_COLOR, lw=2,
            label=rf"tilted: $2\varphi(t)\,H(-Rt/\sqrt{{1-R^2}})$, $R = {R:g}$")
    ax.plot(grid, plain, "--", color=MARGIN_COLOR, lw=1.5, label=r"plain Gaussian $\varphi(t)$ ($R = 0$)")
    ax.axvline(0.0, color=MARGIN_COLOR, lw=0.8)
    ax.set_xlim(-4, 4)
    ax.set_ylim(0, 1.5 * max(tilted.max(), plain.max()))  # room for the legend above the curves
    ax.set_xlabel(r"stability $t = y\,\mathbf{w}\cdot\mathbf{x}$ of a fresh pattern")
    ax.set_ylabel("density")
    ax.legend(fontsize=9, loc="upper left", frameon=False)
    below = float(np.mean(t < 0))
    fig.alt_text = (
        f"The density of the stability t of a fresh pattern for a student with overlap "
        f"R = {R:g}: the tilted density, with a histogram of sampled stabilities on it, "
        "next to the plain Gaussian of the capacity problem. The teacher moves weight from "
        f"negative t to positive t: {100 * below:.0f} % of the samples are below 0, against "
        "50 % for the plain Gaussian.")
    return fig
