"""Data tables under the still curve figures of lessons 6, 7 and 9 (issue 43, item 2).

Each figure function stores the numbers it draws as ``fig.data_table`` (shown by the site
as a table under the figure, for readers who cannot see it). These tests build every
figure on small data and check the table's values against a second, independent
computation from the definitions (the margin is ``min y w.x / ||w||``, MinOver's and
AdaTron's certificate ``||w|| / sum a``, a labelling is stored with stability kappa when
its best stability reaches kappa), and that long series are sampled to at most about 30
rows with the start and the end kept.
"""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from perclib import adatron, margin_perceptron, max_margin, minover
from perclib.plotting.margins import (
    plot_adatron_sweeps,
    plot_large_margin_runs,
    plot_margin_counts,
    plot_margin_ratios,
)
from perclib.plotting.nonseparable import draw_weight_lengths
from perclib.plotting.statmech import plot_capacity_samples, plot_volume_streams
from perclib.statmech import CapacitySample

_SUPER = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def value(cell: str) -> float:
    """A number as the table writes it: "0.0294", "1,953" or "3.2 × 10⁻⁵"."""
    cell = cell.replace(",", "")
    if "× 10" in cell:
        mantissa, power = cell.split("× 10")
        return float(mantissa) * 10.0 ** int(power.strip().translate(_SUPER))
    return float(cell)


def close(cell: str, expected: float, digits: int = 3) -> bool:
    """The cell is ``expected`` written to ``digits`` significant digits."""
    return math.isclose(value(cell), expected, rel_tol=0.6 * 10.0 ** (1 - digits),
                        abs_tol=1e-15)


def table(fig) -> tuple[str, list[str], list[list[str]]]:
    t = fig.data_table
    assert t is not None, "the figure stores no data table"
    assert all(len(r) == len(t["columns"]) for r in t["rows"])
    assert not any("$" in c or "\\" in c for c in [t["caption"], *t["columns"]]), \
        "plain text, no LaTeX"
    return t["caption"], t["columns"], t["rows"]


def margin_of(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    """min_mu y_mu w.x_mu / ||w||, written out pattern by pattern."""
    norm = math.sqrt(sum(float(v) ** 2 for v in w))
    return min(float(t) * float(np.dot(w, x)) for x, t in zip(X, y, strict=True)) / norm


def replay(X: np.ndarray, y: np.ndarray, run) -> list[np.ndarray]:
    """The weights after each update, rebuilt from the updates c y_i x_i one by one."""
    w = np.zeros(X.shape[1])
    out = [w.copy()]
    for i, c in zip(run.indices, run.coefficients, strict=True):
        w = w + c * y[i] * X[i]
        out.append(w.copy())
    return out


# --- lesson 6 -------------------------------------------------------------------------

def test_the_histogram_table_gives_every_bar_its_range_and_count():
    ratio = [0.0, 0.01, 0.12, 0.13, 0.5, 0.52, 0.77, 0.999, 1.0, 1.3, -0.2]
    caption, columns, rows = table(plot_margin_ratios(ratio))
    assert columns[-1] == "runs" and len(rows) == 20
    assert [r[0] for r in rows] == [f"{i / 20:.2f}" for i in range(20)]
    assert [r[1] for r in rows] == [f"{(i + 1) / 20:.2f}" for i in range(20)]
    # Bar i holds i/20 <= x < (i+1)/20, the last bar also x = 1; counted here by hand.
    expected = [0] * 20
    for x in ratio:
        if 0 <= x <= 1:
            expected[min(int(x * 20), 19)] += 1
    assert [int(r[2]) for r in rows] == expected
    assert expected[0] == 2 and expected[10] == 2 and expected[19] == 2
    assert "11 runs; 2 outside 0 to 1 are not drawn" in caption


def _small_separable() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    X = rng.standard_normal((12, 2))
    u = np.array([0.6, 0.8])
    keep = np.abs(X @ u) > 0.3
    return X[keep], np.where(X[keep] @ u > 0, 1.0, -1.0)


def test_the_margin_runs_table_gives_each_runs_margin_on_a_log_grid_with_each_end():
    X, y = _small_separable()
    runs = {b: margin_perceptron(X, y, beta=b) for b in (0.0, 1.0, 5.0)}
    mo = minover(X, y, max_steps=3000, tol=1e-6)
    caption, columns, rows = table(plot_large_margin_runs(runs, mo, 0.3))
    assert columns == ["updates k", "margin, β = 0", "margin, β = 1", "margin, β = 5",
                       "MinOver: margin", "MinOver: certified bound"]
    assert "γmax = 0.3" in caption
    ks = [int(value(r[0])) for r in rows]
    ends = [r.n_updates for r in (*runs.values(), mo)]
    assert ks[0] == 0 and ks[-1] == max(ends) and ks == sorted(set(ks))
    assert set(ends) <= set(ks), "the update where each run stops is a row"
    assert len(rows) <= 30 < max(ends)
    # No margin and no certificate before the first update (the weights are zero).
    assert rows[0][1:] == ["none (w = 0)"] * 4 + ["none"]
    for col, run in enumerate([*runs.values(), mo], start=1):
        weights = replay(X, y, run)
        for k, row in zip(ks, rows, strict=True):
            if k > run.n_updates:
                assert row[col] == "", "a run that has stopped leaves its cell empty"
            elif k > 0:
                assert close(row[col], margin_of(weights[k], X, y)), (col, k, row[col])
    # MinOver adds one pattern per step: its strengths sum to k, the certificate is ||w_k||/k.
    mo_weights = replay(X, y, mo)
    for k, row in zip(ks[1:], rows[1:], strict=True):
        assert close(row[-1], float(np.linalg.norm(mo_weights[k])) / k)


def test_the_adatron_table_samples_the_sweeps_and_keeps_where_each_reaches_the_floor():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((30, 3))
    y = np.sign(X @ [1.0, 0.5, -0.3])
    gamma_max = max_margin(X, y).gamma  # an input of the figure: the table divides by it
    run = adatron(X, y, tol=1e-13, max_epochs=2000)
    caption, columns, rows = table(plot_adatron_sweeps(run, gamma_max))
    assert columns == ["sweep s", "1 − γ(w)/γmax", "certificate/γmax − 1"]
    n = run.epoch_ends.size
    sweeps = [int(value(r[0])) for r in rows]
    assert sweeps[0] == 1 and sweeps[-1] == n and sweeps == sorted(set(sweeps))
    assert len(rows) <= 30 < n
    weights = replay(X, y, run)
    totals = np.concatenate([[0.0], np.cumsum(run.coefficients)])
    distances = []  # (below, above) after each sweep, from the definitions
    for s in range(1, n + 1):
        k = int(run.epoch_ends[s - 1])
        distances.append((1 - margin_of(weights[k], X, y) / gamma_max,
                          float(np.linalg.norm(weights[k])) / totals[k] / gamma_max - 1))
    checked = 0
    for s, row in zip(sweeps, rows, strict=True):
        for cell, d in zip(row[1:], distances[s - 1], strict=True):
            if d <= 0.5e-12:
                assert cell == "≤ 10⁻¹² (round-off)"
            elif d > 2e-12:  # away from the floor, where round-off decides
                assert close(cell, d, digits=2), (s, cell, d)
                checked += 1
    assert checked >= 20
    for col in (1, 2):
        # The first sweep at the floor is a row, and no earlier sweep is at the floor.
        first = next(s for s, row in zip(sweeps, rows, strict=True)
                     if row[col].startswith("≤"))
        assert distances[first - 1][col - 1] <= 2e-12
        assert all(d[col - 1] > 0.5e-12 for d in distances[:first - 1]), col


def test_the_margin_counts_table_counts_labellings_at_evenly_spaced_margins():
    gammas = [0.01, 0.04, 0.04, 0.13, 0.21, 0.33]
    caption, columns, rows = table(plot_margin_counts(gammas, 8))
    assert columns == ["margin γ", "labellings"] and "Cover's count at γ = 0 is 8" in caption
    gs = [value(r[0]) for r in rows]
    expected_gs = sorted({0.025 * i for i in range(19)} | {0.33})
    assert len(rows) == 20
    assert all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(gs, expected_gs, strict=True))
    for g, row in zip(expected_gs, rows, strict=True):
        assert int(row[1]) == sum(1 for x in gammas if x >= g - 1e-12), (g, row)
    assert rows[0] == ["0", "6"] and rows[-1] == ["0.45", "0"]


# --- lesson 7 -------------------------------------------------------------------------

def test_the_weight_lengths_table_gives_both_panels_at_the_end_of_chosen_epochs():
    rng = np.random.default_rng(7)
    mistakes = rng.integers(1, 6, size=200)
    mistakes[57] = 0  # the fewest
    mistakes[120] = 9  # the most
    W = np.vstack([np.zeros(3), rng.standard_normal((int(mistakes.sum()), 3))])
    R = 2.5
    caption, columns, rows = table(draw_weight_lengths(mistakes, W, R))
    assert columns == ["epoch", "mistakes in the epoch", "updates k so far", "‖w_k‖", "√k R"]
    epochs = [int(value(r[0])) for r in rows]
    assert epochs[0] == 1 and epochs[-1] == 200 and epochs == sorted(set(epochs))
    assert {58, 121} <= set(epochs) and len(rows) <= 30
    for e, row in zip(epochs, rows, strict=True):
        k = sum(int(m) for m in mistakes[:e])
        assert int(row[1]) == mistakes[e - 1] and int(value(row[2])) == k
        assert close(row[3], math.sqrt(sum(float(v) ** 2 for v in W[k])))
        assert close(row[4], math.sqrt(k) * R)


def test_without_one_update_per_mistake_the_table_gives_the_right_panel_alone():
    W = np.arange(1, 101, dtype=float)[:, None] * [[0.6, 0.8]]  # ||w_j|| = j + 1
    caption, columns, rows = table(draw_weight_lengths([3, 2], W, 1.0))
    assert columns == ["update k", "‖w_k‖", "√k R"]
    ks = [int(value(r[0])) for r in rows]
    assert ks[0] == 1 and ks[-1] == 99 and len(rows) <= 30
    for k, row in zip(ks, rows, strict=True):
        assert close(row[1], k + 1.0) and close(row[2], math.sqrt(k))


# --- lesson 9 -------------------------------------------------------------------------

def test_the_volume_table_gives_every_stream_at_every_P_and_the_average():
    streams = [[0.5, 0.3, 0.125, 0.0, 0.0], [0.5, 0.2, 0.2, 0.01, 0.0004]]
    caption, columns, rows = table(plot_volume_streams(streams, n_dims=2))
    assert columns == ["patterns P", "stream 1", "stream 2", "average 2^−P"]
    assert "N = 2" in caption and len(rows) == 5
    for P, row in enumerate(rows, start=1):
        assert int(row[0]) == P
        for cell, v in zip(row[1:3], (streams[0][P - 1], streams[1][P - 1]), strict=True):
            assert cell == "0" if v == 0 else close(cell, v)
        assert close(row[3], 1 / 2**P)


def test_a_long_volume_stream_is_sampled_with_its_start_2N_and_end():
    V = 0.5 ** np.arange(1, 61)
    caption, columns, rows = table(plot_volume_streams([V], n_dims=7))
    Ps = [int(r[0]) for r in rows]
    assert Ps[0] == 1 and Ps[-1] == 60 and 14 in Ps and len(rows) <= 30
    assert all(close(r[1], 0.5**P) for P, r in zip(Ps, rows, strict=True))


def test_the_capacity_table_gives_each_fraction_and_its_error_per_kappa_and_N():
    rng = np.random.default_rng(9)
    best = rng.normal(0.4, 0.5, size=(3, 8))
    best[2, :3] = -np.inf  # not separable at all
    small = CapacitySample(N=10, alpha=np.array([0.5, 1.0, 2.0]), margins=best)
    large = CapacitySample(N=40, alpha=np.array([1.0, 1.5]), margins=best[:2])
    caption, columns, rows = table(plot_capacity_samples([small, large], kappas=(0.0, 0.5)))
    assert columns == ["α", "κ = 0, N = 10", "κ = 0, N = 40", "κ = 0.5, N = 10",
                       "κ = 0.5, N = 40"]
    assert "α_c = 2.000" in caption and [r[0] for r in rows] == ["0.5", "1", "1.5", "2"]
    for col, (kap, s) in enumerate([(0.0, small), (0.0, large), (0.5, small), (0.5, large)],
                                   start=1):
        for row in rows:
            hits = [i for i, a in enumerate(s.alpha) if f"{a:g}" == row[0]]
            if not hits:
                assert row[col] == "", "an α that size did not sample leaves its cell empty"
                continue
            ms = s.margins[hits[0]]
            stored = sum(1 for m in ms if (m > -math.inf if kap == 0 else m >= kap))
            f = stored / len(ms)
            mean, err = row[col].split(" ± ")
            assert close(mean, f) and math.isclose(value(err), math.sqrt(f * (1 - f) / len(ms)),
                                                   abs_tol=6e-4), (row, col)
    assert rows[3][1] == f"{5 / 8:.3f} ± {math.sqrt(5 / 8 * 3 / 8 / 8):.3f}"

