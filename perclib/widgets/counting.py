"""Lesson 4 widgets: counting separable dichotomies, and the capacity curve.

:func:`build_dichotomy_explorer` shows P numbered points in the plane under one of
their 2^P labellings, the separating line when there is one (LP), and, beside it, how
many labellings are separable for every P (enumerated) against Cover's count.

:func:`build_capacity_curve` draws the fraction ``C(P, N) / 2**P`` of separable
dichotomies against the load ``alpha = P / N`` for the current N, with a marker at
the current P.

Everything expensive (the enumeration of every prefix of the points) is done once
when a widget is built; a slider move solves at most one small LP and moves artists.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import ipywidgets as widgets
import numpy as np
from numpy.typing import NDArray

from perclib._validation import as_count, as_rng
from perclib.capacity import arrangement_dichotomies, capacity_curve
from perclib.counting import capacity_fraction, cover_count
from perclib.geometry import in_general_position, separating_weights
from perclib.plotting import (
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    POSITIVE_COLOR,
    decision_line,
    legend,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
    update_arrow,
    update_line,
    update_patterns,
)
from perclib.widgets.base import SliderFigure

_BAR_COLOR = "#b9cfe0"  # pale blue: enumerated counts of the other P

#: The explorer's default points: spread over the square, no two on a line through the
#: origin and no three on a line; point 4 lies inside the triangle of points 1, 2, 3.
EXPLORER_POINTS = np.array([
    [1.8, 0.6], [-2.0, 2.3], [-2.0, -2.2], [0.2, 0.4], [0.6, -1.7],
    [-1.9, 0.8], [1.9, 1.3], [0.0, -2.3], [2.2, -1.6], [-2.3, 0.5],
])


def labelling_from_index(index: int, P: int) -> NDArray[np.int64]:
    """Labelling number ``index`` (taken mod 2**P) of P points: bit i set means y_i = +1.

    Examples
    --------
    >>> labelling_from_index(5, 3).tolist()    # 5 = 0b101
    [1, -1, 1]
    >>> labelling_from_index(8, 3).tolist()    # 8 mod 8 = 0: everything -1
    [-1, -1, -1]
    """
    index = as_count(index, "index")
    P = as_count(P, "P", minimum=1)
    bits = (index % 2**P) >> np.arange(P) & 1
    return (2 * bits - 1).astype(np.int64)


def build_dichotomy_explorer(P_max: int = 8, *, rng: object = None) -> SliderFigure:
    """Browse the labellings of P numbered points in the plane and count the separable ones.

    Controls: ``P`` (how many of the points are used), ``labelling`` (which labelling,
    counted from 1 up to ``2**P``: labelling ``k`` has the binary digits of ``k - 1`` as
    its labels; with ``separable only``, its position in the list of separable ones, up
    to their count), ``threshold`` (lines through the origin, or any line).

    Parameters
    ----------
    P_max : int, default 8
        Largest number of points (2..10).
    rng : seed or Generator, optional
        If given, the points are drawn from it (standard Gaussian, in general position
        with probability one; checked). By default the hand-picked, well-spread points
        ``EXPLORER_POINTS`` are used: in general position with and without a threshold,
        and point 4 inside the triangle of points 1, 2, 3.

    The points are numbered from 1 on the plot; in the status line the last binary
    digit belongs to point 1.

    Examples
    --------
    >>> demo = build_dichotomy_explorer(5)
    >>> demo.controls["P"].value = 4
    >>> "8 of 16" in demo.status.value                       # C(4, 2) = 8
    True
    >>> demo.controls["threshold"].value = True
    >>> "14 of 16" in demo.status.value                      # C(4, 3) = 14
    True
    """
    P_max = as_count(P_max, "P_max", minimum=2)
    if P_max > 10:
        raise ValueError(f"P_max must be at most 10 (2**P labellings are browsed), got {P_max}")
    X = EXPLORER_POINTS[:P_max].copy() if rng is None else as_rng(rng).standard_normal((P_max, 2))
    if not (in_general_position(X) and in_general_position(X, threshold=True)):
        raise ValueError("the drawn points are not in general position; choose another rng")
    # Every prefix enumerated once (no LP: cells of the arrangement), both settings.
    separable = {
        th: [arrangement_dichotomies(X[:P], threshold=th) for P in range(1, P_max + 1)]
        for th in (False, True)
    }
    Ps = np.arange(1, P_max + 1)

    fig, (ax, bx) = new_figure(2, width=4.0, height=3.7)
    lim = 1.15 * float(np.max(np.abs(X)))
    setup_plane(ax, (-lim, lim, -lim, lim))
    points = plot_patterns(ax, X[:1], [1])
    line = decision_line(ax, [1.0, 0.0])
    arrow = normal_arrow(ax, [1.0, 0.0], length=0.5 * lim)
    # Few ticks: text is what costs most when the figure is redrawn on every move.
    ax.set_xticks([-2, 0, 2])
    ax.set_yticks([-2, 0, 2])
    # Below the panel: every corner of the square holds a point.
    legend(ax, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, frameon=False)
    numbers = [
        ax.annotate(str(i + 1), xy=(float(x[0]), float(x[1])), xytext=(4, 4),
                    textcoords="offset points", fontsize=9)
        for i, x in enumerate(X)
    ]

    # Heights are drawn as log2(count) on a linear axis labelled with the counts: a log-scaled
    # axis costs several times more to redraw on every slider move.
    bars = bx.bar(Ps, np.ones(P_max), color=_BAR_COLOR, edgecolor="white", label="enumerated")
    (cover_marks,) = bx.plot(Ps, np.ones(P_max), "D", color=BOUNDARY_COLOR, ms=4, label="Cover's $C$")
    (all_line,) = bx.plot(Ps, Ps, "-", color=MARGIN_COLOR, lw=1.2, label="all $2^P$")
    bx.set_ylim(0, P_max + 0.5)
    bx.set_yticks(range(0, P_max + 1, 2), [str(2**j) for j in range(0, P_max + 1, 2)])
    bx.set_xticks(Ps)
    bx.set_xlabel("number of points $P$")
    bx.set_ylabel("separable labellings (log scale)")
    legend(bx)

    controls = {
        "P": widgets.IntSlider(value=min(5, P_max), min=1, max=P_max, description="P"),
        # Counted from 1, like the status line; the range follows P and "separable only".
        "labelling": widgets.IntSlider(
            value=2 ** (min(5, P_max) - 1), min=1, max=2 ** min(5, P_max), description="labelling"
        ),
        "separable_only": widgets.Checkbox(value=False, description="separable only"),
        "threshold": widgets.Checkbox(value=False, description="threshold"),
    }

    separators: dict[tuple, tuple[NDArray[np.float64], float] | None] = {}

    def sync_range(_change: object = None) -> None:
        # Registered before the figure's own observers, so the range is right when it redraws.
        P, threshold = controls["P"].value, bool(controls["threshold"].value)
        count = len(separable[threshold][P - 1]) if controls["separable_only"].value else 2**P
        slider = controls["labelling"]
        slider.value = min(slider.value, count)
        slider.max = count

    for name in ("P", "separable_only", "threshold"):
        controls[name].observe(sync_range, names="value")
    sync_range()

    def redraw(v: dict) -> str:
        P, threshold = v["P"], bool(v["threshold"])
        dims = 3 if threshold else 2
        listed = separable[threshold][P - 1]
        if v["separable_only"]:
            number = min(max(int(v["labelling"]), 1), len(listed))
            y = listed[number - 1]
            which = f"separable labelling {number} of {len(listed)}"
        else:
            number = min(max(int(v["labelling"]), 1), 2**P)
            y = labelling_from_index(number - 1, P)  # labelling k: the binary digits of k - 1
            bits = "".join("1" if label > 0 else "0" for label in y[::-1])
            which = f"labelling {number} of {2**P} (binary digits of {number} − 1: {bits})"
        update_patterns(points, X[:P], y)
        for i, number_text in enumerate(numbers):
            number_text.set_visible(i < P)
        key = (P, threshold, tuple(int(v) for v in y))
        if key not in separators:  # one small LP per labelling ever shown
            separators[key] = separating_weights(X[:P], y, threshold=threshold)
        found = separators[key]
        if found is None:
            update_line(line, [0.0, 0.0])  # hides the line
            update_arrow(arrow, [0.0, 0.0])
            verdict = "<b>not separable</b>"
        else:
            w, b = found
            update_line(line, w, -b)
            update_arrow(arrow, w, -b, length=0.5 * lim)
            verdict = "<b>separable</b>"
        kind = "any line (threshold)" if threshold else "lines through the origin"
        counts = [len(s) for s in separable[threshold]]
        for bar, count, p in zip(bars, counts, Ps, strict=True):
            bar.set_height(np.log2(count))
            bar.set_color(HIGHLIGHT_COLOR if p == P else _BAR_COLOR)
        cover_marks.set_ydata(np.log2([cover_count(int(p), dims) for p in Ps]))
        return (
            f"P = {P}, {kind}. {which}: {verdict}. Separable labellings of these {P} points: "
            f"{len(listed)} of {2**P}; Cover's count C({P}, {dims}) = {cover_count(P, dims)}."
        )

    moving = [*points, *numbers, line, arrow, *bars, cover_marks, all_line, ax.get_legend(), bx.get_legend()]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "Left: P points in the plane, numbered from 1, coloured by one labelling, with a separating"
            " line when one exists. Right, on a log scale: for each number of points "
            "P, the separable labellings found by enumeration (bars), Cover's count "
            "C(P, N) (diamonds) and all 2^P labellings (grey line)."
        ),
    )


@lru_cache(maxsize=64)
def _curve(N: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    return capacity_curve(N, 4 * N)


def _fraction_text(value: Fraction) -> str:
    if value.denominator <= 2**20:
        return f"{value.numerator}/{value.denominator} = {float(value):.6f}"
    return f"{float(value):.6g}"


#: Largest N the capacity-curve sliders offer (each redraw then stays under a second).
MAX_SLIDER_N = 2000


def build_capacity_curve(N_max: int = 100, P_max: int = 400) -> SliderFigure:
    """The fraction of separable dichotomies ``C(P, N) / 2**P`` against ``alpha = P / N``.

    Controls ``N`` and ``P``; the curve is drawn for the current N (up to alpha = 4),
    the marker sits at the current alpha (pinned to the right edge, as a triangle,
    when alpha > 4). Faint curves for N = 5 and N = 500 show the step sharpening.

    Examples
    --------
    >>> demo = build_capacity_curve()
    >>> demo.controls["N"].value, demo.controls["P"].value = 30, 60
    >>> "1/2 = 0.500000" in demo.status.value
    True
    """
    N_max = as_count(N_max, "N_max", minimum=1)
    P_max = as_count(P_max, "P_max", minimum=1)
    # Refuse, before drawing, sliders whose far end the redraw could not follow (the
    # curve for N costs about N**2 bit operations: 0.3 s at N = 2000).
    if N_max > MAX_SLIDER_N:
        raise ValueError(f"N_max must be at most {MAX_SLIDER_N} (a redraw would take too long), got {N_max}")
    if P_max > 4 * MAX_SLIDER_N:
        raise ValueError(f"P_max must be at most {4 * MAX_SLIDER_N} (a redraw is too slow), got {P_max}")
    fig, (ax,) = new_figure(width=5.6, height=3.6)
    for N_ref, style in ((5, ":"), (500, "--")):
        alpha, f = capacity_curve(N_ref, 4 * N_ref)
        ax.plot(alpha, f, style, color=MARGIN_COLOR, lw=1.0, label=f"N = {N_ref}")
    ax.axvline(2.0, color="#d0d0d0", lw=0.8, zorder=0)
    ax.axhline(0.5, color="#d0d0d0", lw=0.8, zorder=0)
    (curve,) = ax.plot([], [], "-", color=POSITIVE_COLOR, lw=1.8, ms=3, label="current N")
    (marker,) = ax.plot([], [], "o", color=HIGHLIGHT_COLOR, ms=9, zorder=5, label="current P")
    ax.set_xlim(0, 4.05)
    ax.set_ylim(-0.03, 1.03)
    ax.set_xlabel(r"load $\alpha = P/N$")
    ax.set_ylabel(r"separable fraction $C(P,N)/2^P$")
    ax.set_xticks([0, 1, 2, 3, 4])
    ax.set_yticks([0, 0.5, 1])
    legend(ax, loc="lower left")

    controls = {
        "N": widgets.IntSlider(value=min(10, N_max), min=1, max=N_max, description="N"),
        "P": widgets.IntSlider(value=min(20, P_max), min=1, max=P_max, description="P"),
    }

    def redraw(v: dict) -> str:
        N, P = int(v["N"]), int(v["P"])
        alpha, f = _curve(N)
        curve.set_data(alpha, f)
        curve.set_marker("o" if N <= 20 else "")  # the points P = 1, 2, ... when few
        exact = capacity_fraction(P, N)
        a = P / N
        marker.set_data([min(a, 4.0)], [float(exact)])
        marker.set_marker("o" if a <= 4.0 else ">")
        edge = " (beyond the right edge)" if a > 4.0 else ""
        return (
            f"N = {N}, P = {P}, alpha = P/N = {a:.2f}{edge}: "
            f"C({P}, {N}) / 2^{P} = {_fraction_text(exact)} (one half at P = 2N = {2 * N})"
        )

    return SliderFigure(
        fig, controls, redraw, moving=[curve, marker, ax.get_legend()],
        description=(
            "The fraction of labellings of P points in general position in N "
            "dimensions that a hyperplane through the origin separates, C(P, N)/2^P, "
            "against the load alpha = P/N: the curve for the chosen N, reference "
            "curves for other N, and a marker at the chosen P. Every curve passes "
            "through one half at alpha = 2."
        ),
    )


DEMOS = {
    "dichotomy_explorer": build_dichotomy_explorer,
    "capacity_curve": build_capacity_curve,
}
