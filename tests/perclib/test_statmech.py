"""perclib.statmech: Gardner capacity, generalisation errors, learning curves, Monte Carlo.

Reference values come from independent computations written here (quadrature of
the defining integral, sampling of fresh patterns, the Hebb weights built by hand)
or from the literature (the large-alpha constants of Gibbs and maximum-margin
learning), never from the function under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.stats import norm

from perclib import max_margin
from perclib.statmech import (
    bayes_generalization,
    capacity_sample,
    gardner_capacity,
    generalization_error,
    gibbs_generalization,
    hebb_generalization,
    learning_curve,
    max_margin_generalization,
    max_margin_theory,
    overlap,
)

# ---------------------------------------------------------------------------
# Gardner capacity
# ---------------------------------------------------------------------------


def test_gardner_capacity_is_two_at_zero_margin():
    assert abs(gardner_capacity(0.0) - 2.0) <= 1e-12
    assert isinstance(gardner_capacity(0.0), float)


@pytest.mark.parametrize("kappa", [0.05, 0.3, 0.5, 1.0, 1.7, 3.0])
def test_gardner_capacity_matches_quadrature_of_the_definition(kappa):
    # The integrand is below 1e-300 beyond t = 40, so a finite range loses nothing.
    integral, err = quad(lambda t: norm.pdf(t) * (t + kappa) ** 2, -kappa, 40.0,
                         epsabs=1e-15, epsrel=1e-13, limit=200)
    assert err < 1e-12
    assert gardner_capacity(kappa) == pytest.approx(1.0 / integral, rel=1e-10)


def test_gardner_capacity_is_vectorised_and_decreasing():
    kappa = np.linspace(0.0, 2.0, 21)
    alpha = gardner_capacity(kappa)
    assert alpha.shape == kappa.shape
    assert np.all(np.diff(alpha) < 0)
    # Large kappa: alpha_c ~ 1 / kappa^2 (every pattern pays about kappa^2).
    assert gardner_capacity(30.0) * 30.0**2 == pytest.approx(1.0, rel=2e-3)


@pytest.mark.parametrize("bad, error", [(-0.1, ValueError), (np.nan, ValueError), ("1", TypeError)])
def test_gardner_capacity_rejects_bad_kappa(bad, error):
    with pytest.raises(error, match="kappa"):
        gardner_capacity(bad)


# ---------------------------------------------------------------------------
# Generalisation error and overlaps
# ---------------------------------------------------------------------------


def test_generalization_error_hand_values():
    assert generalization_error([1.0, 0.0], [2.0, 0.0]) == 0.0
    assert generalization_error([1.0, 0.0], [0.0, 3.0]) == pytest.approx(0.5, abs=1e-15)
    assert generalization_error([1.0, 0.0], [-1.0, 0.0]) == 1.0
    assert generalization_error([1.0, 0.0], [1.0, 1.0]) == pytest.approx(0.25, abs=1e-15)
    assert overlap([3.0, 4.0], [3.0, 4.0]) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("theta", [1e-6, 1e-9, 1e-12, 1e-15, 2.0, math.pi - 1e-9])
def test_generalization_error_keeps_small_angles(theta):
    """A student theta radians from the teacher errs with probability theta / pi, also
    where arccos(R) loses the angle (R rounds to 1 below about 1.5e-8 rad)."""
    # In the plane of the first two axes, B along e1: every entry exact up to one rounding.
    w, B = np.zeros(7), np.zeros(7)
    w[0], w[1], B[0] = math.cos(theta), math.sin(theta), 1.0
    for scale_w, scale_B in ((1.0, 1.0), (1e-200, 1e200), (3.0, 0.1)):
        got = generalization_error(scale_w * w, scale_B * B)
        assert got == pytest.approx(theta / math.pi, rel=1e-9, abs=1e-300)


def test_generalization_error_of_a_parallel_student_is_zero():
    v = np.random.default_rng(3).standard_normal(30)
    for c in (2.0, 0.5, 2.0**-900):  # exact multiples: the same direction to the last bit
        assert generalization_error(c * v, v) == 0.0
    for c in (3.0, 0.1, 7e150):  # rounded multiples: an angle of a few ulps at most
        assert generalization_error(c * v, v) < 1e-15


def test_generalization_error_matches_sampling():
    rng = np.random.default_rng(7)
    w, B = rng.standard_normal(6), rng.standard_normal(6)
    X = rng.standard_normal((400_000, 6))
    disagree = np.mean(np.sign(X @ w) != np.sign(X @ B))
    sem = math.sqrt(disagree * (1 - disagree) / len(X))
    assert abs(generalization_error(w, B) - disagree) < 4 * sem


def test_generalization_error_rejects_bad_input():
    with pytest.raises(ValueError, match="non-zero"):
        generalization_error([0.0, 0.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="length"):
        generalization_error([1.0, 0.0, 0.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="NaN"):
        generalization_error([np.nan, 0.0], [1.0, 0.0])


# ---------------------------------------------------------------------------
# Hebb
# ---------------------------------------------------------------------------


def test_hebb_curve_limits():
    assert hebb_generalization(0.0) == 0.5
    # Large alpha: 1 - R^2 = pi / (2 alpha + pi), eps ~ sqrt(1 - R^2) / pi ~ 1 / sqrt(2 pi alpha).
    a = 1e6
    assert hebb_generalization(a) * math.sqrt(2 * math.pi * a) == pytest.approx(1.0, rel=1e-5)
    with pytest.raises(ValueError, match="alpha"):
        hebb_generalization(-1.0)


@pytest.mark.parametrize("alpha", [1.0, 2.0, 5.0])
def test_hebb_simulation_matches_the_large_n_curve(alpha):
    lc = learning_curve([alpha], 400, rule="hebb", n_runs=40, rng=int(alpha * 10))
    assert abs(lc.mean[0] - hebb_generalization(alpha)) < 3 * lc.sem[0]


def test_hebb_student_is_the_sum_of_labelled_patterns():
    # Rebuild the first run by hand from the same random stream.
    lc = learning_curve([0.5, 2.0], 30, rule="hebb", n_runs=1, rng=3)
    gen = np.random.default_rng(3)
    B = gen.standard_normal(30)
    X = gen.standard_normal((60, 30))
    y = np.where(X @ B > 0, 1.0, -1.0)
    for i, P in enumerate((15, 60)):
        w = y[:P] @ X[:P]
        expected = math.acos(w @ B / np.linalg.norm(w) / np.linalg.norm(B)) / math.pi
        assert lc.errors[i, 0] == pytest.approx(expected, rel=1e-12)


# ---------------------------------------------------------------------------
# Theory of zero-training-error students
# ---------------------------------------------------------------------------


def test_gibbs_and_max_margin_asymptotics_match_the_literature():
    # Gibbs learning: eps ~ 0.625 / alpha; maximal stability: eps ~ 0.5005 / alpha
    # (Engel and Van den Broeck 2001, ch. 2 and 4; Opper, Kinzel, Kleinz, Nehl 1990).
    a = 200.0
    assert a * gibbs_generalization(a) == pytest.approx(0.625, abs=2e-3)
    assert a * max_margin_generalization(a) == pytest.approx(0.5005, abs=2e-3)
    # Ordering at every alpha: maximum margin beats Gibbs; both beat Hebb for alpha >~ 1.
    alphas = np.array([1.0, 3.0, 10.0])
    assert np.all(max_margin_generalization(alphas) < gibbs_generalization(alphas))
    assert np.all(gibbs_generalization(alphas[1:]) < hebb_generalization(alphas[1:]))


def test_max_margin_theory_against_simulation():
    lc = learning_curve([3.0], 150, rule="max_margin", n_runs=12, rng=11)
    # Finite N = 150 shifts the mean by O(1/N); allow that on top of 3 standard errors.
    assert abs(lc.mean[0] - max_margin_generalization(3.0)) < 3 * lc.sem[0] + 0.01


def test_students_reach_zero_training_error_and_rules_share_the_data():
    curves = {rule: learning_curve([4.0], 40, rule=rule, n_runs=3, rng=5)
              for rule in ("hebb", "perceptron", "max_margin")}
    # Same teachers and patterns: the zero-training-error students do far better than Hebb.
    assert np.all(curves["max_margin"].errors < curves["hebb"].errors)
    assert np.all(curves["perceptron"].errors < curves["hebb"].errors)


def test_learning_curve_rejects_bad_input():
    with pytest.raises(ValueError, match="rule"):
        learning_curve([1.0], 10, rule="bayes")
    with pytest.raises(ValueError, match="alpha"):
        learning_curve([-1.0], 10)
    with pytest.raises(ValueError, match="at least one pattern"):
        learning_curve([0.01], 10)
    with pytest.raises(ValueError, match="N"):
        learning_curve([1.0], 0)


# ---------------------------------------------------------------------------
# Capacity Monte Carlo
# ---------------------------------------------------------------------------


def test_capacity_sample_at_zero_margin_follows_cover():
    # Cover: exactly half of all labellings of P = 2N points are separable.
    s = capacity_sample([1.0, 2.0, 3.0], 20, n_samples=400, rng=1)
    f, sem = s.fraction(0.0)
    assert f[0] > 0.99 and f[2] < 0.01
    assert abs(f[1] - 0.5) < 3 * sem[1]


def test_capacity_crossing_moves_towards_gardner_as_n_grows():
    kappa, alphas = 1.0, np.arange(0.3, 0.9, 0.05)
    small = capacity_sample(alphas, 10, n_samples=300, rng=2).crossing(kappa)
    large = capacity_sample(alphas, 60, n_samples=120, rng=3).crossing(kappa)
    target = gardner_capacity(kappa)
    assert abs(large - target) < abs(small - target)
    assert abs(large - target) < 0.03


def test_capacity_sample_margins_are_the_max_margin():
    s = capacity_sample([0.5], 12, n_samples=2, rng=4)
    gen = np.random.default_rng(4)
    X = gen.standard_normal((6, 12))
    y = gen.choice(np.array([-1.0, 1.0]), size=6)
    assert s.margins[0, 0] == max_margin(X, y).gamma
    with pytest.raises(ValueError, match="kappa"):
        s.fraction(-1.0)


# ---------------------------------------------------------------------------
# The fast max_margin route on lesson-sized problems
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [False, True])
def test_max_margin_certificate_on_a_lesson_sized_problem(threshold):
    rng = np.random.default_rng(9)
    X = rng.standard_normal((150, 100)) + (0.5 if threshold else 0.0)
    y = rng.choice([-1.0, 1.0], size=150)
    res = max_margin(X, y, threshold=threshold)
    # Canonical weights w / gamma are feasible; multipliers give the same dual value.
    w_c, b_c = res.w / res.gamma, res.b / res.gamma
    assert np.all(y * (X @ w_c + b_c) >= 1 - 1e-9)
    v = (res.alpha * y) @ X
    assert np.all(res.alpha >= 0)
    if threshold:
        assert abs(res.alpha @ y) <= 1e-9 * res.alpha.sum()
    assert res.alpha.sum() - 0.5 * v @ v == pytest.approx(0.5 * w_c @ w_c, rel=1e-9)


def _reference_max_margin_error(alpha: float, start: tuple[float, float]) -> float:
    """eps of the maximally stable student from its two saddle-point equations, by quad.

    Independent of the library's quadrature and optimiser: with ``a = cot(theta)``,
    ``sin^2 theta = alpha int_{t<kappa} Dt 2 Phi(a t) (kappa - t)^2`` (the coefficient
    vanishes) and its derivative in theta vanishes (it is maximal there), solved
    together by fsolve; the integrals by adaptive quad, told where the step of
    ``Phi(a t)`` is.
    """
    from scipy.integrate import quad
    from scipy.optimize import fsolve
    from scipy.stats import norm

    def integrals(theta: float, kappa: float) -> tuple[float, float]:
        a = 1 / np.tan(theta)
        points = [p for p in (-12 / a, -1 / a, 0.0, 1 / a, 12 / a) if -12 < p < kappa]
        opts = {"points": points, "limit": 500, "epsabs": 0.0, "epsrel": 1e-13}
        def integral(f):
            return quad(lambda t: 2 * norm.pdf(t) * f(t) * (kappa - t) ** 2, -12, kappa, **opts)[0]

        value = integral(lambda t: norm.cdf(a * t))
        slope = integral(lambda t: norm.pdf(a * t) * t)
        return value, slope / np.sin(theta) ** 2  # d/dtheta of Phi(t cot theta) = -phi t / sin^2

    def equations(v: np.ndarray) -> list[float]:
        theta, kappa = np.exp(v)
        value, slope = integrals(theta, kappa)
        scale = np.sin(theta) ** 2  # both equations relative to their size
        return [(np.sin(theta) ** 2 - alpha * value) / scale,
                (2 * np.sin(theta) * np.cos(theta) + alpha * slope) * np.tan(theta) / scale]

    solution = fsolve(equations, np.log(start), xtol=1e-13)
    return float(np.exp(solution[0]) / np.pi)


@pytest.mark.parametrize("alpha", [0.5, 3.0, 100.0, 1000.0, 1e4])
def test_max_margin_generalization_matches_an_independent_solution(alpha):
    """Issue 23: 1e-6 relative up to alpha = 1e4 (the old fixed grid drifted 127 % there)."""
    from perclib.statmech import _max_stability

    eps = max_margin_generalization(alpha)
    kappa, theta = _max_stability(alpha)
    reference = _reference_max_margin_error(alpha, (1.02 * theta, 1.02 * kappa))
    assert eps == pytest.approx(reference, rel=1e-6)


def test_max_margin_generalization_refuses_alpha_beyond_its_domain():
    assert 1e5 * max_margin_generalization(1e5) == pytest.approx(0.5005, abs=1e-3)
    with pytest.raises(ValueError, match=r"alpha must be <= 100000 .*got 1e\+06.*0\.50 / alpha"):
        max_margin_generalization([1.0, 1e6])


# ---------------------------------------------------------------------------
# Bayes-optimal student and the maximum-margin order parameters
# ---------------------------------------------------------------------------


def _gibbs_overlap_by_quad(alpha: float) -> float:
    """R of Gibbs learning from scipy quad and brentq, independent of perclib's grid."""
    from scipy.optimize import brentq

    def rhs(R):
        def f(t):
            return np.exp(-R * t * t / 2 - norm.logsf(-np.sqrt(R) * t)) * norm.pdf(t)

        return alpha / np.pi * quad(f, -40, 40, points=[0], limit=200, epsabs=1e-14)[0]

    return brentq(lambda R: R / np.sqrt(1 - R) - rhs(R), 1e-12, 1 - 1e-14, xtol=1e-15)


@pytest.mark.parametrize("alpha", [0.3, 1.0, 5.0, 40.0])
def test_bayes_generalization_is_the_centre_of_mass_of_gibbs(alpha):
    R = _gibbs_overlap_by_quad(alpha)
    assert bayes_generalization(alpha) == pytest.approx(np.arccos(np.sqrt(R)) / np.pi, rel=1e-6)


def test_bayes_generalization_asymptote_and_floor():
    # Literature: eps_Bayes ~ 0.442 / alpha (Opper and Haussler 1991; Engel and Van den
    # Broeck 2001, ch. 3), 1/sqrt(2) of the Gibbs constant.
    for a in (500.0, 2000.0):
        assert a * bayes_generalization(a) == pytest.approx(0.442, abs=1e-3)
    alphas = np.geomspace(0.05, 300.0, 25)
    bayes = bayes_generalization(alphas)
    assert bayes.shape == alphas.shape and np.all(np.diff(bayes) < 0)
    # The floor: below Gibbs, maximum margin and Hebb at every alpha.
    for other in (gibbs_generalization, max_margin_generalization, hebb_generalization):
        assert np.all(bayes < other(alphas)), other.__name__
    assert bayes_generalization(0.0) == 0.5
    with pytest.raises(ValueError, match="alpha"):
        bayes_generalization(-1.0)


@pytest.mark.parametrize("alpha", [0.5, 2.0, 20.0])
def test_max_margin_theory_satisfies_the_budget_equation(alpha):
    th = max_margin_theory(alpha)
    R, k = th.overlap, th.kappa
    s = np.sqrt(1 - R**2)

    def cost(r):
        sr = np.sqrt(1 - r**2)
        integrand = lambda t: 2 * norm.cdf(r * t / sr) * norm.pdf(t) * (k - t) ** 2  # noqa: E731
        return alpha * quad(integrand, -40, k, points=[0], limit=200)[0]

    # The budget 1 - R^2 is exactly spent at R, and overspent at nearby overlaps.
    assert cost(R) == pytest.approx(1 - R**2, rel=1e-6)
    for r in (R - 0.01 * s, R + 0.01 * s):
        assert cost(r) > 1 - r**2
    fraction = quad(lambda t: 2 * norm.cdf(R * t / s) * norm.pdf(t), -40, k, points=[0])[0]
    assert th.support_fraction == pytest.approx(fraction, rel=1e-6)
    assert th.error == pytest.approx(max_margin_generalization(alpha), rel=1e-12)


def test_max_margin_theory_support_fraction_against_simulation():
    rng = np.random.default_rng(4)
    N, alpha = 150, 2.0
    P = int(alpha * N)
    fractions = []
    for _ in range(6):
        B, X = rng.standard_normal(N), rng.standard_normal((P, N))
        y = np.where(X @ B > 0, 1.0, -1.0)
        fractions.append(len(max_margin(X, y).support) / P)
    sem = np.std(fractions, ddof=1) / np.sqrt(len(fractions))
    assert abs(np.mean(fractions) - max_margin_theory(alpha).support_fraction) < 3 * sem + 0.01


def test_max_margin_theory_large_alpha_and_bad_input():
    th = max_margin_theory(1000.0)
    # N support patterns out of alpha N, and kappa ~ 1/alpha, as alpha grows.
    assert th.support_fraction * 1000 == pytest.approx(1.0, abs=2e-3)
    for bad in (0.0, -1.0, 2e5, [1.0, 2.0]):
        with pytest.raises(ValueError, match="alpha"):
            max_margin_theory(bad)


@pytest.mark.parametrize("curve, constant", [(gibbs_generalization, 0.6247),
                                             (bayes_generalization, 0.4417)])
def test_gibbs_and_bayes_refuse_alpha_beyond_their_domain(curve, constant):
    # At the edge of the domain the curves still sit on their asymptotes.
    assert 1e5 * curve(1e5) == pytest.approx(constant, abs=2e-4)
    with pytest.raises(ValueError, match=r"alpha must be <= 100000 .*got 1e\+09"):
        curve([1.0, 1e9])
