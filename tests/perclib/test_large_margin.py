"""Large-margin training (margin perceptron, MinOver, AdaTron) and the H_gamma arc.

Expected values come from hand calculations, plain pattern-by-pattern reference
loops written here, an independent QP solver (scipy SLSQP) and perclib.max_margin
(itself checked against scikit-learn's SVC below).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import minimize

from perclib import (
    adatron,
    admissible_arc,
    augment,
    direction_margins,
    margin,
    margin_perceptron,
    max_margin,
    minover,
    perceptron,
    teacher_data,
)

SEEDS = range(6)


def _data(seed: int, P: int = 20, N: int = 5, m: float = 0.1):
    d = teacher_data(P, N, margin=m, rng=seed)
    return d.X, d.y


def _reference_margin_perceptron(X, y, beta, eta=1.0, max_epochs=1000):
    """Plain loop: the definition, one pattern at a time."""
    w = np.zeros(X.shape[1])
    idx = []
    for _ in range(max_epochs):
        clean = True
        for i in range(len(y)):
            if y[i] * (w @ X[i]) <= beta:
                w = w + eta * y[i] * X[i]
                idx.append(i)
                clean = False
        if clean:
            return w, idx, True
    return w, idx, False


def _reference_minover(X, y, steps):
    w = np.zeros(X.shape[1])
    idx = []
    for _ in range(steps):
        h = [y[i] * (w @ X[i]) for i in range(len(y))]
        i = min(range(len(y)), key=lambda k: (h[k], k))  # smallest stability, first on ties
        w = w + y[i] * X[i]
        idx.append(i)
    return w, idx


def _qp_max_margin(X, y):
    """Independent solution of  min |w|^2/2  s.t.  y (w.x) >= 1  (SLSQP); returns the margin."""
    J = y[:, None] * X
    res = minimize(
        lambda w: 0.5 * w @ w, x0=np.ones(X.shape[1]), jac=lambda w: w, method="SLSQP",
        constraints=[{"type": "ineq", "fun": lambda w: J @ w - 1.0, "jac": lambda w: J}],
        options={"ftol": 1e-14, "maxiter": 500},
    )
    assert res.success
    return 1.0 / np.linalg.norm(res.x), res.x / np.linalg.norm(res.x)


# ---------------------------------------------------------------------------
# margin perceptron
# ---------------------------------------------------------------------------


def test_margin_perceptron_by_hand() -> None:
    # e1, e2 labelled +1, beta = 1: w = e1, e2 (stab. 0 <= 1), then e1 (1 <= 1), e2 -> (2, 2).
    res = margin_perceptron([[1.0, 0.0], [0.0, 1.0]], [1, 1], beta=1.0)
    assert res.converged and res.indices.tolist() == [0, 1, 0, 1]
    assert res.w.tolist() == [2.0, 2.0] and res.strengths.tolist() == [2.0, 2.0]
    assert res.iterations == 3 and res.algorithm == "margin_perceptron"


@pytest.mark.parametrize("seed", SEEDS)
def test_margin_perceptron_matches_plain_loop(seed: int) -> None:
    X, y = _data(seed)
    for beta, eta in [(0.0, 1.0), (2.0, 1.0), (5.0, 0.5)]:
        res = margin_perceptron(X, y, beta=beta, eta=eta)
        w, idx, ok = _reference_margin_perceptron(X, y, beta, eta)
        assert res.indices.tolist() == idx and res.converged == ok
        np.testing.assert_allclose(res.w, w, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_beta_zero_is_the_perceptron(seed: int) -> None:
    X, y = _data(seed)
    a = margin_perceptron(X, y, beta=0.0, order="random", rng=seed)
    b = perceptron(X, y, order="random", rng=seed)
    assert a.indices.tolist() == b.indices.tolist() and a.iterations == b.epochs
    np.testing.assert_array_equal(a.w, b.w)


@pytest.mark.parametrize("seed", SEEDS)
def test_margin_perceptron_guarantees(seed: int) -> None:
    # From w = 0: updates <= (R^2 + 2 beta/eta)/gamma^2 and margin > gamma beta / (2 beta + eta R^2).
    X, y = _data(seed)
    gamma = max_margin(X, y).gamma
    R = np.max(np.linalg.norm(X, axis=1))
    for beta, eta in [(0.5, 1.0), (5.0, 1.0), (50.0, 1.0), (3.0, 0.25)]:
        res = margin_perceptron(X, y, beta=beta, eta=eta)
        assert res.converged
        assert res.n_updates <= (R**2 + 2 * beta / eta) / gamma**2
        assert np.min(y * (X @ res.w)) > beta
        assert res.margin > gamma * beta / (2 * beta + eta * R**2)
        assert res.margin <= gamma + 1e-12


def test_margin_perceptron_large_beta_gets_close() -> None:
    # Not a theorem beyond 1/2, but on these data a large beta comes within 15 %.
    fractions = []
    for seed in SEEDS:
        X, y = _data(seed)
        fractions.append(margin_perceptron(X, y, beta=100.0).margin / max_margin(X, y).gamma)
    assert min(fractions) > 0.5 and np.mean(fractions) > 0.85


def test_margin_perceptron_not_separable_stops() -> None:
    X = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]
    res = margin_perceptron(X, [1, 1, 1], beta=1.0, max_epochs=7)
    assert not res.converged and res.iterations == 7


def test_margin_perceptron_w0_and_random_order() -> None:
    X, y = _data(0)
    a = margin_perceptron(X, y, beta=1.0, order="random", rng=3, w0=np.ones(5))
    b = margin_perceptron(X, y, beta=1.0, order="random", rng=3, w0=np.ones(5))
    np.testing.assert_array_equal(a.w, b.w)
    np.testing.assert_array_equal(a.weights[0], np.ones(5))
    np.testing.assert_allclose(a.w, np.ones(5) + (a.strengths * y) @ X, atol=1e-10)
    assert np.all(np.isnan(a.upper_bounds))  # the certificate needs w0 = 0


# ---------------------------------------------------------------------------
# MinOver
# ---------------------------------------------------------------------------


def test_minover_by_hand() -> None:
    # stabilities (0, 0): pick 0 -> w = e1; (1, 0): pick 1 -> w = (1, 1), margin 1/sqrt2,
    # bound |w| / 2 = 1/sqrt2: gap 0, so it stops after 2 steps.
    res = minover([[1.0, 0.0], [0.0, 1.0]], [1, 1])
    assert res.converged and res.indices.tolist() == [0, 1] and res.iterations == 2
    assert res.margin == pytest.approx(1 / np.sqrt(2), abs=1e-15)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_minover_matches_plain_loop(seed: int) -> None:
    X, y = _data(seed, P=12, N=3)
    res = minover(X, y, max_steps=150, tol=1e-12)
    w, idx = _reference_minover(X, y, 150)
    assert res.indices.tolist() == idx and not res.converged and res.iterations == 150
    np.testing.assert_allclose(res.w, w, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_minover_approaches_the_maximum_margin(seed: int) -> None:
    X, y = _data(seed)
    gamma = max_margin(X, y).gamma
    res = minover(X, y, max_steps=3000, tol=1e-6)
    # Lower and upper certificates sandwich gamma_max at every step.
    assert np.nanmax(res.margins) <= gamma + 1e-12
    assert np.nanmin(res.upper_bounds) >= gamma - 1e-12
    assert res.margin > 0.97 * gamma
    # and the margin improves: late steps are better than early ones on average
    assert np.mean(res.margins[-500:]) > np.mean(res.margins[100:600])


def test_minover_tolerance_is_certified() -> None:
    X, y = _data(1)
    gamma = max_margin(X, y).gamma
    res = minover(X, y, max_steps=100_000, tol=0.02)
    assert res.converged and res.gap <= 0.02
    assert (1 - 0.02) * gamma <= res.margin <= gamma + 1e-12


def test_minover_not_separable() -> None:
    res = minover([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]], [1, 1, 1], max_steps=50)
    assert not res.converged and res.iterations == 50


# ---------------------------------------------------------------------------
# AdaTron
# ---------------------------------------------------------------------------


def test_adatron_by_hand() -> None:
    # Orthogonal patterns: both are support patterns with a = 1/|x|^2, w = (1/2, 1).
    res = adatron([[2.0, 0.0], [0.0, 1.0]], [1, 1])
    assert res.converged
    np.testing.assert_allclose(res.strengths, [0.25, 1.0], atol=1e-9)
    np.testing.assert_allclose(res.w, [0.5, 1.0], atol=1e-9)
    # gamma = 1/|w| = 2/sqrt(5): distance of the line x/2 + y = 0 from (2,0) and (0,1).
    assert res.margin == pytest.approx(2 / np.sqrt(5), rel=1e-9)


def test_adatron_three_points_by_hand() -> None:
    # (1,0)+, (0,1)+, (3,3)+: the third is far away, strength 0; optimum as above.
    res = adatron([[1.0, 0.0], [0.0, 1.0], [3.0, 3.0]], [1, 1, 1])
    assert res.support.tolist() == [0, 1] and res.strengths[2] == 0.0
    assert res.margin == pytest.approx(1 / np.sqrt(2), rel=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_adatron_reaches_the_maximum_margin(seed: int) -> None:
    X, y = _data(seed)
    best = max_margin(X, y)
    res = adatron(X, y)
    assert res.converged and res.gap <= 1e-9
    assert res.margin == pytest.approx(best.gamma, rel=1e-7)
    np.testing.assert_allclose(res.w / np.linalg.norm(res.w), best.w, atol=1e-6)
    assert res.support.tolist() == best.support.tolist()
    # KKT in AdaTron's scale: every stability >= 1, exactly 1 on the support, |w| = 1/gamma.
    h = y * (X @ res.w)
    assert np.all(h >= 1 - 1e-7) and np.allclose(h[res.support], 1.0, atol=1e-7)
    assert np.linalg.norm(res.w) == pytest.approx(1 / best.gamma, rel=1e-7)
    gamma_qp, _ = _qp_max_margin(X, y)
    assert res.margin == pytest.approx(gamma_qp, rel=1e-6)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_adatron_epoch_ends_mark_the_sweeps(seed: int) -> None:
    # A plain AdaTron loop, sweep by sweep, records the weights after every sweep.
    X, y = _data(seed)
    res = adatron(X, y, max_epochs=15, tol=1e-12)
    J = y[:, None] * X
    Q = J @ J.T
    a = np.zeros(len(y))
    sweep_weights = []
    for _ in range(res.iterations):
        for mu in range(len(y)):
            a[mu] = max(0.0, a[mu] + (1.0 - Q[mu] @ a) / Q[mu, mu])
        sweep_weights.append(J.T @ a)
    assert res.epoch_ends is not None and len(res.epoch_ends) == res.iterations
    assert np.all(np.diff(res.epoch_ends) >= 0) and res.epoch_ends[-1] == res.n_updates
    np.testing.assert_allclose(res.weights[res.epoch_ends], sweep_weights, rtol=1e-9, atol=1e-12)
    assert minover(X, y, max_steps=5).epoch_ends is None


def test_adatron_other_learning_rates() -> None:
    X, y = _data(2)
    gamma = max_margin(X, y).gamma
    for eta in (0.5, 1.5, 1.9):
        res = adatron(X, y, eta=eta)
        assert res.converged and res.margin == pytest.approx(gamma, rel=1e-7)


def test_adatron_not_separable_stops() -> None:
    res = adatron([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]], [1, 1, 1], max_epochs=30)
    assert not res.converged and res.iterations == 30
    res = adatron([[0.0, 0.0], [1.0, 1.0]], [1, 1], max_epochs=5)  # a pattern at the origin
    assert not res.converged and res.iterations == 5


def test_augmented_max_margin_is_not_the_affine_one() -> None:
    # x = 2 (label -1) and x = 3 (label +1) on a line: the best affine separator is x = 2.5,
    # margin 0.5. Augmented, (w, c) must satisfy -2w - c >= 1 and 3w + c >= 1; both tight at
    # the optimum: w = 2, c = -5, so the augmented margin is 1/sqrt(4 + 25) = 1/sqrt(29):
    # the same line, but the bias is counted in the norm.
    X = np.array([[2.0, 0.0], [3.0, 0.0]])
    y = np.array([-1.0, 1.0])
    assert max_margin(X, y, threshold=True).gamma == pytest.approx(0.5, rel=1e-9)
    res = adatron(augment(X), y)
    assert res.converged
    assert res.margin == pytest.approx(1 / np.sqrt(29), rel=1e-7)
    np.testing.assert_allclose(res.w, [2.0, 0.0, -5.0], atol=1e-6)
    assert margin(res.w[:2], X, y, b=res.w[2]) == pytest.approx(0.5, rel=1e-7)
    # Off the axis the augmented optimum is even a different line, with a smaller margin.
    X = np.array([[2.0, 1.0], [3.0, -1.0]])
    res = adatron(augment(X), y)
    affine = max_margin(X, y, threshold=True).gamma
    assert affine == pytest.approx(np.sqrt(5) / 2, rel=1e-9)  # half the distance of the points
    assert res.margin < margin(res.w[:2], X, y, b=res.w[2]) < affine - 1e-3
    for seed in SEEDS:
        X, y = _data(seed, N=3)
        assert max_margin(augment(X), y).gamma <= max_margin(X, y, threshold=True).gamma + 1e-12


def test_max_margin_agrees_with_scikit_learn() -> None:
    svm = pytest.importorskip("sklearn.svm")
    for seed in SEEDS[:3]:
        X, y = _data(seed, N=3)
        clf = svm.SVC(kernel="linear", C=1e10, tol=1e-10).fit(X, y)
        gamma_svc = 1.0 / np.linalg.norm(clf.coef_)
        assert max_margin(X, y, threshold=True).gamma == pytest.approx(gamma_svc, rel=1e-5)


# ---------------------------------------------------------------------------
# traces
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("algo", ["margin_perceptron", "minover", "adatron"])
def test_traces_are_consistent(algo: str) -> None:
    X, y = _data(4, P=15, N=4)
    runs = {
        "margin_perceptron": lambda: margin_perceptron(X, y, beta=3.0),
        "minover": lambda: minover(X, y, max_steps=300),
        "adatron": lambda: adatron(X, y),
    }
    res = runs[algo]()
    W = res.weights
    assert W.shape == (res.n_updates + 1, 4) and np.all(W[0] == 0)
    np.testing.assert_allclose(W[-1], res.w, atol=1e-9)
    # each step is  +coefficient * y_i x_i  for the recorded pattern
    steps = np.diff(W, axis=0)
    np.testing.assert_allclose(steps, (res.coefficients * y[res.indices])[:, None] * X[res.indices],
                               atol=1e-9)
    # strengths: the coefficients summed per pattern, all >= 0, and w = sum a y x
    np.testing.assert_allclose(res.strengths, np.bincount(res.indices, res.coefficients, minlength=15),
                               atol=1e-9)
    assert np.all(res.strengths >= 0)
    np.testing.assert_allclose(res.w, (res.strengths * y) @ X, atol=1e-9)
    # margins over time, recomputed one by one with perclib.margin
    assert np.isnan(res.margins[0])
    for k in range(1, W.shape[0], max(1, W.shape[0] // 25)):
        assert res.margins[k] == pytest.approx(margin(W[k], X, y), abs=1e-12)
    # the certificate is an upper bound on gamma_max whenever it is defined
    gamma = max_margin(X, y).gamma
    assert np.all(res.upper_bounds[1:] >= gamma - 1e-12)


def test_repr_mentions_state() -> None:
    res = minover([[1.0, 0.0]], [1], max_steps=3)
    assert "minover" in repr(res) and "converged" in repr(res)


# ---------------------------------------------------------------------------
# bad inputs
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: margin_perceptron([[1.0, 0.0]], [1], beta=-1.0), ValueError),
        (lambda: margin_perceptron([[1.0, 0.0]], [1], beta="1"), TypeError),
        (lambda: margin_perceptron([[1.0, 0.0]], [1]), TypeError),  # beta is required
        (lambda: margin_perceptron([[1.0, 0.0]], [1], beta=1.0, eta=0.0), ValueError),
        (lambda: margin_perceptron([[1.0, 0.0]], [1], beta=1.0, order="sorted"), ValueError),
        (lambda: margin_perceptron([[1.0, 0.0]], [1], beta=1.0, w0=[1.0]), ValueError),
        (lambda: margin_perceptron([[1.0, 0.0]], [1], beta=1.0, max_epochs=0), ValueError),
        (lambda: margin_perceptron([[1.0, 0.0]], [0], beta=1.0), ValueError),
        (lambda: minover([[1.0, 0.0]], [1], max_steps=0), ValueError),
        (lambda: minover([[1.0, 0.0]], [1], max_steps=2.5), TypeError),
        (lambda: minover([[1.0, 0.0]], [1], tol=1.0), ValueError),
        (lambda: minover([[1.0, np.nan]], [1]), ValueError),
        (lambda: minover([1.0, 0.0], [1]), ValueError),
        (lambda: adatron([[1.0, 0.0]], [1], eta=2.0), ValueError),
        (lambda: adatron([[1.0, 0.0]], [1], eta=-1.0), ValueError),
        (lambda: adatron([[1.0, 0.0]], [1], tol=0.0), ValueError),
        (lambda: adatron([[1.0, 0.0]], [1, 1]), ValueError),
        (lambda: admissible_arc([[1.0, 0.0, 0.0]], [1], 0.1), ValueError),
        (lambda: admissible_arc([[1.0, 0.0]], [1], 0.0), ValueError),
        (lambda: direction_margins([[1.0, 0.0]], [1], [[0.0]]), ValueError),
    ],
)
def test_bad_inputs(call, error) -> None:
    with pytest.raises(error):
        call()


# ---------------------------------------------------------------------------
# H_gamma in the plane
# ---------------------------------------------------------------------------


def test_direction_margins_by_hand() -> None:
    X = [[1.0, 0.0], [0.0, 2.0]]
    got = direction_margins(X, [1, 1], [0.0, np.pi / 4, np.pi / 2])
    np.testing.assert_allclose(got, [0.0, np.sqrt(0.5), 0.0], atol=1e-15)


def test_admissible_arc_by_hand() -> None:
    # J = (1, 1), (1, -1): margin of angle phi is sqrt2 cos(|phi| + 45 deg); >= g iff
    # |phi| <= arccos(g / sqrt2) - 45 deg.
    X, y = [[1.0, 1.0], [1.0, -1.0]], [1, 1]
    for g in (0.1, 0.5, 0.7, 0.999):
        lo, hi = admissible_arc(X, y, g)
        half = np.arccos(g / np.sqrt(2)) - np.pi / 4
        assert lo == pytest.approx(-half, abs=1e-12) and hi == pytest.approx(half, abs=1e-12)
    assert admissible_arc(X, y, 1.001) is None  # the maximum margin is 1 (phi = 0)
    assert admissible_arc([[0.5, 0.0]], [1], 0.6) is None  # closer to the origin than gamma


@pytest.mark.parametrize("seed", SEEDS)
def test_admissible_arc_against_a_scan(seed: int) -> None:
    d = teacher_data(10, 2, margin=0.2, teacher=[np.cos(seed * 1.1), np.sin(seed * 1.1)], rng=seed)
    X, y = d.X, d.y
    best = max_margin(X, y)
    phi_star = np.arctan2(best.w[1], best.w[0])
    grid = np.linspace(-np.pi, np.pi, 200_001)
    scan = direction_margins(X, y, grid)
    assert scan.max() <= best.gamma + 1e-12 and scan.max() > best.gamma - 1e-4
    for frac in (0.05, 0.5, 0.9, 0.999):
        g = frac * best.gamma
        lo, hi = admissible_arc(X, y, g)
        assert -np.pi <= lo < np.pi and 0 <= hi - lo < np.pi
        # endpoints sit exactly at level g, the optimum is inside
        np.testing.assert_allclose(direction_margins(X, y, [lo, hi]), [g, g], atol=1e-12)
        rel = (grid - lo) % (2 * np.pi)
        inside = rel <= hi - lo
        assert np.all(scan[inside] >= g - 1e-12) and np.all(scan[~inside] < g + 1e-12)
        assert ((phi_star - lo) % (2 * np.pi)) <= hi - lo
    assert admissible_arc(X, y, best.gamma * (1 + 1e-6)) is None
    lo, hi = admissible_arc(X, y, best.gamma * (1 - 1e-9))
    assert hi - lo < 1e-3  # collapses to a single direction
