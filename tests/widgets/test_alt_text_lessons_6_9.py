"""Alt text of the static figures of lessons 6, 7 and 9 (issue 43, WCAG 1.1.1).

Each figure function sets ``fig.alt_text`` from the data it was given. These tests build
every figure on small data and check that the description states the facts a sighted
reader takes from the figure, each computed here a second, independent way (from the
definitions: a mistake is ``y w.x <= 0``, the margin is ``min y w.x / ||w||``), and that
changing the input changes the description.
"""

from __future__ import annotations

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest

from perclib import (
    adatron,
    admissible_arc,
    cover_count,
    dichotomy_margins,
    direction_margins,
    margin_perceptron,
    max_margin,
    minover,
    perceptron,
    teacher_data,
)
from perclib.plotting.margins import (
    plot_adatron_sweeps,
    plot_distances,
    plot_large_margin_runs,
    plot_margin_balls,
    plot_margin_counts,
    plot_margin_ratios,
    plot_max_margin,
)
from perclib.plotting.nonseparable import draw_pocket_trace, draw_weight_lengths
from perclib.plotting.statmech import (
    plot_capacity_samples,
    plot_learning_curves,
    plot_volume_streams,
)
from perclib.statmech import CapacitySample, LearningCurve

# Six patterns in the plane, separable through the origin with room to spare.
X6 = np.array([[1.0, 2.0], [2.0, 0.5], [0.5, 1.5],
               [-1.0, -1.0], [-2.0, 0.2], [0.3, -1.8]])
Y6 = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _margins(w, X, y) -> np.ndarray:
    """Signed distances to the line w.x = 0, straight from the definition."""
    w = np.asarray(w, dtype=float)
    return y * (X @ w) / np.sqrt(w @ w)


def _plain_words(text: str) -> None:
    """A description is read aloud: no TeX, no Markdown, no matplotlib repr."""
    assert text and not text.startswith(("<CourseFigure", "<Figure")), text
    assert "$" not in text and "\\" not in text and "**" not in text, text
    assert len(text) < 450, f"too long to listen to ({len(text)} characters): {text}"


# ---------------------------------------------------------------- lesson 6


def test_distances_counts_the_wrong_side_with_ties_as_mistakes() -> None:
    w = np.array([1.0, 1.0])
    X = np.vstack([X6, [[1.0, -1.0], [3.0, 3.0]]])  # (1, -1) lies on the line: a tie
    y = np.concatenate([Y6, [1.0, -1.0]])          # (3, 3) labelled -1: wrong side
    text = repr(plot_distances(X, y, w))
    _plain_words(text)
    wrong = int(np.sum(y * (X @ w) <= 0))
    assert wrong == 2  # the tie counts as a mistake
    assert f"{wrong} of {len(y)} are on the wrong side or on the line" in text
    assert text.startswith("Scatter of 8 patterns, 4 labelled +1 and 4 labelled −1")
    m = _margins(w, X, y)
    assert f"γ(w) = {m.min():.3f}" in text
    worst = X[np.argmin(m)]
    assert f"({worst[0]:.2f}, {worst[1]:.2f})" in text
    assert "(1 outside the drawn square)" in text  # (3, 3): the square is [-2.5, 2.5]²


def test_distances_separable_and_outside_the_window() -> None:
    w = np.array([1.0, 0.2])
    X = np.vstack([X6, [[4.0, 0.0]]])
    y = np.concatenate([Y6, [1.0]])
    m = _margins(w, X, y)
    assert m.min() > 0
    text = repr(plot_distances(X, y, w))
    _plain_words(text)
    assert f"All {len(y)} are on their own side" in text
    assert f"at distance γ(w) = {m.min():.3f}" in text
    assert "(1 outside the drawn square)" in text
    # A changed input changes the description: flip one label.
    y2 = y.copy()
    y2[0] = -1.0
    text2 = repr(plot_distances(X, y2, w))
    assert text2 != text and "1 of 7 are on the wrong side" in text2


def test_max_margin_names_support_count_and_peak() -> None:
    best = max_margin(X6, Y6)
    angles = np.linspace(-np.pi, np.pi, 7201)  # steps of 0.05 degrees
    scan = direction_margins(X6, Y6, angles)
    text = repr(plot_max_margin(X6, Y6, best.w, angles, scan))
    _plain_words(text)
    gamma = _margins(best.w, X6, Y6).min()
    n_support = int(np.sum(_margins(best.w, X6, Y6) <= gamma * (1 + 1e-9)))
    assert f"γmax = {gamma:.3f}" in text
    assert f"its {n_support} support patterns ringed" in text
    # The arc of positive margins: count grid directions by the definition.
    brute = np.array([_margins([np.cos(a), np.sin(a)], X6, Y6).min() for a in angles])
    arc = 360.0 * np.mean(brute > 0)
    assert f"positive on about {arc:.0f}° of the circle" in text
    peak = np.degrees(angles[np.argmax(brute)])
    assert f"highest ({brute.max():.3f}) at {peak:.1f}°" in text
    assert f"is at {np.degrees(np.arctan2(best.w[1], best.w[0])):.1f}°" in text


def test_margin_ratios_summary_and_hidden_values() -> None:
    ratio = np.array([0.1, 0.2, 0.25, 0.7, 0.5, 0.45])
    text = repr(plot_margin_ratios(ratio))
    _plain_words(text)
    assert text.startswith("Histogram")
    assert "over 6 runs" in text and "from 0.100 to 0.700" in text
    assert f"median {np.median(ratio):.3f}" in text
    assert "2 of 6 runs reach at least half" in text  # 0.7 and 0.5 (>= is inclusive)
    assert "not drawn" not in text
    text2 = repr(plot_margin_ratios(np.append(ratio, 1.2)))
    assert "1 outside 0 to 1 are not drawn" in text2 and "3 of 7 runs" in text2


def test_large_margin_runs_report_stops_as_shares_of_the_optimum() -> None:
    gamma = max_margin(X6, Y6).gamma
    runs = {b: margin_perceptron(X6, Y6, beta=b) for b in (0.0, 2.0)}
    mo = minover(X6, Y6, max_steps=300)
    text = repr(plot_large_margin_runs(runs, mo, gamma))
    _plain_words(text)
    assert f"γmax = {gamma:.3g}" in text
    shares = []
    for run in runs.values():
        # The margin of the final weights, from the definition, not from the run.
        w = run.w0 + np.sum(run.coefficients[:, None] * Y6[run.indices, None]
                            * X6[run.indices], axis=0)
        shares.append(f"{100 * _margins(w, X6, Y6).min() / gamma:.0f} %")
    counts = ", ".join(str(r.indices.size) for r in runs.values())
    stops = f"β = 0, 2 stops after {counts} updates, at {', '.join(shares)} of γmax"
    assert stops in text
    assert f"MinOver after {mo.indices.size:,} updates, margin {mo.margin:.3g}" in text


def test_adatron_sweeps_counts_sweeps_and_the_floor() -> None:
    gamma = max_margin(X6, Y6).gamma
    run = adatron(X6, Y6)
    text = repr(plot_adatron_sweeps(run, gamma))
    _plain_words(text)
    n_sweeps = run.epoch_ends.size
    assert f"each of its {n_sweeps} sweeps" in text
    above = np.maximum(run.upper_bounds[run.epoch_ends] / gamma - 1, 1e-12)
    assert f"the certificate's excess starts at {above[0]:.2g}" in text
    hits = np.flatnonzero(above <= 1e-12)
    if hits.size:
        assert f"reaches the floor 1e-12 at sweep {hits[0] + 1}" in text
    else:
        assert f"ends at {above[-1]:.2g}" in text
    # Another gamma_max (a wrong one, 10 % too high) changes where the curves end.
    assert repr(plot_adatron_sweeps(run, 1.1 * gamma)) != text


def test_margin_balls_counts_touching_and_crossed_balls() -> None:
    best = max_margin(X6, Y6)
    arc = admissible_arc(X6, Y6, 0.5 * best.gamma)
    assert arc is not None
    text = repr(plot_margin_balls(X6, Y6, best.w, arc))
    _plain_words(text)
    m = _margins(best.w, X6, Y6)
    n_touch = int(np.sum(np.isclose(m, best.gamma, rtol=1e-9)))
    assert f"the maximum-margin line: it keeps every ball wholly on its side and " \
           f"touches {n_touch}." in text
    assert "Left: radius γmax/2" in text and "both keep every ball wholly" in text
    # Lines far off the arc: count the balls of radius gamma/2 they cut or misplace.
    lo, hi = arc[0] - 1.0, arc[1] + 1.0
    bad = [int(np.sum(_margins([np.cos(p), np.sin(p)], X6, Y6) < 0.5 * best.gamma))
           for p in (lo, hi)]
    assert min(bad) > 0
    text2 = repr(plot_margin_balls(X6, Y6, best.w, (lo, hi)))
    assert f"they leave {bad[0]} and {bad[1]} balls not wholly on their own" in text2


def test_margin_balls_touching_is_not_crossing_after_rounding() -> None:
    # The arc's end lines touch a ball of radius gamma/2 up to the last bit; rounding
    # puts the margin 1e-16 below the radius, which must still read as touching.
    d = teacher_data(10, 2, margin=0.2, rng=np.random.default_rng(0))
    best = max_margin(d.X, d.y)
    arc = admissible_arc(d.X, d.y, 0.5 * best.gamma)
    ends = [_margins([np.cos(p), np.sin(p)], d.X, d.y) for p in arc]
    assert any(np.any(m < 0.5 * best.gamma) for m in ends)  # the rounding is there
    touch = [int(np.sum(np.isclose(m, 0.5 * best.gamma, rtol=1e-9, atol=0)))
             for m in ends]
    text = repr(plot_margin_balls(d.X, d.y, best.w, arc))
    each = (f"each touching {touch[0]}" if touch[0] == touch[1]
            else f"touching {touch[0]} and {touch[1]}")
    assert f"both keep every ball wholly on its side, {each}." in text


def test_max_margin_arc_counts_only_positive_margins() -> None:
    # A made-up scan with exact zeros: a zero margin is no separation.
    best = max_margin(X6, Y6)
    angles = np.radians([-180.0, -90.0, 0.0, 90.0])
    text = repr(plot_max_margin(X6, Y6, best.w, angles, [0.0, 0.0, 0.2, -1.0]))
    assert "positive on about 68° of the 270° scanned" in text  # 1 of 4 samples


def test_margin_counts_against_cover() -> None:
    text = repr(plot_margin_counts([0.05, 0.05, 0.2, 0.2], 4))
    _plain_words(text)
    assert "4 at γ = 0, equal to Cover's count 4" in text
    assert "falls to 0 beyond γ = 0.200" in text and "median margin is 0.125" in text
    text2 = repr(plot_margin_counts([0.05, 0.05, 0.2, 0.2], 6, g_max=0.1))
    assert "against Cover's count 6" in text2 and "2 remain at γ = 0.1" in text2
    # At least gamma: a labelling with margin exactly g_max still counts.
    text3 = repr(plot_margin_counts([0.05, 0.1], 2, g_max=0.1))
    assert "1 remain at γ = 0.1" in text3


def test_margin_counts_on_points_of_the_sphere() -> None:
    rng = np.random.default_rng(4)
    X = rng.standard_normal((6, 3))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    _, gammas = dichotomy_margins(X)
    text = repr(plot_margin_counts(gammas, cover_count(6, 3)))
    assert f"{len(gammas)} at γ = 0" in text
    assert f"Cover's count {cover_count(6, 3)}" in text


# ---------------------------------------------------------------- lesson 7


def test_weight_lengths_on_a_non_separable_run() -> None:
    X = np.vstack([X6, [[1.0, 1.0]]])
    y = np.concatenate([Y6, [-1.0]])  # (1, 1) labelled -1 among the + patterns
    run = perceptron(X, y, max_epochs=20)
    R = float(np.linalg.norm(X, axis=1).max())
    text = repr(draw_weight_lengths(run.mistakes_per_epoch, run.weights, R))
    _plain_words(text)
    mistakes = np.asarray(run.mistakes_per_epoch)
    spread = f"from {mistakes.min()} to {mistakes.max()}"
    assert f"each of {mistakes.size} epochs, {spread}" in text
    assert "none is free of mistakes" in text  # no line separates these data
    lengths = np.sqrt(np.sum(np.asarray(run.weights)[1:] ** 2, axis=1))
    assert f"after each of {lengths.size:,} updates" in text
    assert f"between {lengths.min():.3g} and {lengths.max():.3g}" in text
    assert f"grows to {np.sqrt(lengths.size) * R:.3g}" in text
    assert "never exceeds that bound" in text


def test_weight_lengths_notice_a_clean_epoch_and_a_broken_bound() -> None:
    W = [[0.0, 0.0], [3.0, 0.0], [3.0, 4.0], [3.0, 4.0]]
    text = repr(draw_weight_lengths([2, 0, 0], W, 1.0))
    assert "the first without a mistake is epoch 2" in text
    # sqrt(k) R is 1, 1.41, 1.73 for lengths 3, 5, 5: above the bound all three times.
    assert "exceeds that bound after 3 of them" in text
    # With R = 3.5 the bound is 3.5, 4.95, 6.06: only the second length, 5, is above.
    text35 = repr(draw_weight_lengths([2, 0, 0], W, 3.5))
    assert "exceeds that bound after 1 of them" in text35


def test_pocket_trace_finds_the_best_and_its_first_update() -> None:
    errors = [10, 5, 3, 4, 2, 6, 2, 7]
    text = repr(draw_pocket_trace(errors, 10))
    _plain_words(text)
    assert "training errors (of 10)" in text and "k = 0 to 7" in text
    assert "after 10 at the start, the current weights make 2 to 7 errors" in text
    assert "reaches 2 at update 4 and stays there" in text
    assert "make 2 errors 2 times" in text
    text2 = repr(draw_pocket_trace(errors[:5], 10))
    assert "1 time." in text2 and text2 != text


# ---------------------------------------------------------------- lesson 9


def test_volume_streams_count_survivors() -> None:
    streams = [[0.5, 0.3, 0.1, 0.02, 0.0, 0.0],
               [0.5, 0.2, 0.2, 0.05, 0.01, 0.004],
               [0.4, 0.0, 0.0, 0.0, 0.0, 0.0]]
    text = repr(plot_volume_streams(streams, n_dims=2))
    _plain_words(text)
    assert "for 3 streams of patterns in N = 2 dimensions, against P = 1 to 6" in text
    assert "all 3 are above 0 up to P = 1" in text  # the third dies at P = 2
    assert "at P = 4, 2 of 3 are above 0, from 0.02 to 0.05" in text  # P = 2N
    assert "at P = 6, 1 of 3 are above 0, from 0.004 to 0.004" in text
    text2 = repr(plot_volume_streams(streams[:2], n_dims=2))
    assert "all 2 are above 0 up to P = 4" in text2


def test_capacity_samples_give_prediction_and_crossings() -> None:
    alpha = np.array([0.5, 1.0, 1.5, 2.0, 2.5])
    # Four samples per alpha; -inf: not separable. Fractions at kappa = 0:
    # 1, 1, 0.75, 0.25, 0.
    margins = np.array([[2.0, 1.5, 1.8, 2.2],
                        [0.9, 0.6, 0.7, 1.0],
                        [0.3, 0.1, -np.inf, 0.2],
                        [0.05, -np.inf, -np.inf, -np.inf],
                        [-np.inf] * 4])
    s = CapacitySample(N=20, alpha=alpha, margins=margins)
    text = repr(plot_capacity_samples([s], kappas=(0.0, 0.5)))
    _plain_words(text)
    assert text.startswith("Two panels, one per stability κ")
    # Falls through 1/2 between alpha 1.5 (0.75) and 2.0 (0.25): at 1.75.
    assert "κ = 0: prediction α_c = 2.000, measured 1/2 crossings 1.75" in text
    # At kappa = 0.5 the fractions are 1, 1, 0, 0, 0: crossing at 1.0 + 0.5 * 0.5.
    assert "κ = 0.5: prediction α_c = 0.961, measured 1/2 crossings 1.25" in text
    text1 = repr(plot_capacity_samples([s], kappas=(1.0,)))
    # Fractions at kappa = 1: 1, 0.25 (only the 1.0 of row 2), 0, 0, 0.
    assert text1.startswith("One panel") and "crossings 0.83" in text1


def test_learning_curves_order_the_theory_and_quote_the_simulations() -> None:
    alpha = np.array([1.0, 2.0, 4.0])
    hebb = LearningCurve("hebb", 40, alpha, np.array([[0.30, 0.32], [0.22, 0.24],
                                                      [0.18, 0.16]]))
    perc = LearningCurve("perceptron", 40, alpha, np.array([[0.31, 0.29], [0.20, 0.18],
                                                            [0.11, 0.13]]))
    text = repr(plot_learning_curves([hebb, perc], alpha_range=(0.5, 8.0)))
    _plain_words(text)
    assert "Simulated means (N = 40) at α = 4: Hebb 0.170, perceptron 0.120." in text
    # From the top at alpha = 8: Hebb learns slowest, the Bayes-optimal student fastest.
    order = re.search(r"from the top: (.*?)\. ", text).group(1)
    names = [part.rsplit(" ", 1)[0] for part in order.split(", ")]
    assert names[0] == "Hebb" and names[-1] == "Bayes-optimal (floor)"
    values = [float(part.rsplit(" ", 1)[1]) for part in order.split(", ")]
    assert values == sorted(values, reverse=True)
    # The Hebb theory at alpha = 8, the one closed form (lesson 9): 1/pi arccos R,
    # R = sqrt(2 alpha / (2 alpha + pi)).
    R = np.sqrt(16 / (16 + np.pi))
    assert f"Hebb {np.arccos(R) / np.pi:.3f}" in order
    text2 = repr(plot_learning_curves([hebb], alpha_range=(0.5, 8.0)))
    assert "perceptron" not in text2.split("Simulated")[1]


@pytest.mark.parametrize("scale", [1e-12, 1e12])
def test_a_change_of_units_changes_no_count(scale: float) -> None:
    def counts(text: str) -> list[str]:
        # The sentences that count, with the lengths (which scale) left out.
        return re.findall(r"(?:\d+ of \d+ are on the wrong side|All \d+ are on their own"
                          r"|keeps? every ball wholly on its side[^.;]*|touches \d+)", text)

    X = np.vstack([X6, [[1.0, -1.0], [1.5, 1.5]]])
    y = np.concatenate([Y6, [1.0, -1.0]])
    w = np.array([1.0, 1.0])
    plain = counts(repr(plot_distances(X, y, w)))
    assert plain == ["2 of 8 are on the wrong side"]
    assert counts(repr(plot_distances(scale * X, y, w))) == plain
    d = teacher_data(10, 2, margin=0.2, rng=np.random.default_rng(0))
    best = max_margin(d.X, d.y)
    arc = admissible_arc(d.X, d.y, 0.5 * best.gamma)
    big = max_margin(scale * d.X, d.y)
    big_arc = admissible_arc(scale * d.X, d.y, 0.5 * big.gamma)
    plain = counts(repr(plot_margin_balls(d.X, d.y, best.w, arc)))
    assert len(plain) == 2
    assert counts(repr(plot_margin_balls(scale * d.X, d.y, big.w, big_arc))) == plain
