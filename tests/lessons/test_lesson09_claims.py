"""Lesson 9's claims, checked on wider grids than the lesson's collapsed check cells.

Reference values come from independent sampling, scipy quadrature, or closed forms,
never from the function under test alone.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq
from scipy.stats import norm

from perclib import gardner_capacity, max_margin
from perclib.statmech import (
    bayes_generalization,
    gibbs_generalization,
    max_margin_generalization,
    max_margin_theory,
)


@pytest.mark.parametrize("R", [0.2, 0.6, 0.95])
def test_teacher_tilted_stability_density(R):
    """t = y w.x has density 2 phi(t) H(-R t / sqrt(1 - R^2)) (section 6's derivation)."""
    rng = np.random.default_rng(80)
    u = rng.standard_normal(400_000)
    z = R * u + np.sqrt(1 - R * R) * rng.standard_normal(u.size)  # w.x, correlation R
    t = np.sign(u) * z
    edges = np.linspace(-3, 3, 13)
    hist = np.histogram(t, bins=edges)[0] / t.size
    s = np.sqrt(1 - R * R)
    expected = [quad(lambda x: 2 * norm.pdf(x) * norm.cdf(R * x / s), a, b)[0]
                for a, b in zip(edges[:-1], edges[1:], strict=True)]
    assert np.allclose(hist, expected, atol=3e-3)
    # The same law as R |u| + sqrt(1 - R^2) g (the form written in the lesson).
    t2 = R * np.abs(u) + s * rng.standard_normal(u.size)
    assert np.allclose(np.histogram(t2, bins=edges)[0] / t.size, expected, atol=3e-3)


@pytest.mark.parametrize("alpha", [0.5, 1.0, 1.7])
def test_random_label_support_fraction_is_phi_of_kappa_max(alpha):
    """Section 2: a fraction Phi(kappa_max) of the patterns ends on the margin."""
    rng = np.random.default_rng(int(alpha * 10))
    N = 150
    P = int(alpha * N)
    fractions = [len(max_margin(rng.standard_normal((P, N)),
                                rng.choice([-1.0, 1.0], size=P)).support) / P
                 for _ in range(12)]
    kappa = brentq(lambda k: gardner_capacity(k) - alpha, 0, 50)
    se = np.std(fractions, ddof=1) / np.sqrt(len(fractions))
    assert abs(np.mean(fractions) - norm.cdf(kappa)) < 3 * se + 0.005


def test_max_margin_budget_reduces_to_gardner_without_teacher():
    """At R = 0 the budget condition is Gardner's: alpha int Dt (kappa - t)_+^2 = 1."""
    for kappa in (0.0, 0.4, 1.3):
        integral = quad(lambda t, k=kappa: norm.pdf(t) * (k - t) ** 2, -40, kappa)[0]
        assert gardner_capacity(kappa) * integral == pytest.approx(1.0, rel=1e-9)


def test_max_margin_is_between_the_floor_and_gibbs_and_support_tends_to_n():
    alphas = np.geomspace(0.1, 500, 20)
    mm = max_margin_generalization(alphas)
    assert np.all(bayes_generalization(alphas) < mm)
    assert np.all(mm < gibbs_generalization(alphas))
    # Support patterns: about N of them (a fraction 1/alpha) when alpha is large.
    assert 500 * max_margin_theory(500.0).support_fraction == pytest.approx(1.0, abs=5e-3)


def test_bayes_is_gibbs_over_sqrt_two_at_large_alpha():
    for a in (300.0, 3000.0):
        assert gibbs_generalization(a) / bayes_generalization(a) == pytest.approx(
            np.sqrt(2), rel=2e-3)


def _annealed_error(alpha: float) -> float:
    return brentq(lambda e: np.pi * (1 - e) / np.tan(np.pi * e) - alpha, 1e-12, 0.5)


def test_annealed_approximation_exercise_5():
    """alpha = pi (1 - eps) cot(pi eps): eps = 1/(alpha + 1) + O(alpha^-3), above Gibbs."""
    for a in (0.5, 2.0, 10.0, 100.0):
        assert _annealed_error(a) > gibbs_generalization(a)
    for a in (100.0, 1000.0):
        assert abs(_annealed_error(a) - 1 / (a + 1)) < 5 / a**3
    # Direct maximisation of s(eps) = ln sin(pi eps) + alpha ln(1 - eps) agrees.
    eps = np.linspace(1e-5, 0.5, 200_001)
    for a in (1.0, 20.0):
        s = np.log(np.sin(np.pi * eps)) + a * np.log1p(-eps)
        assert eps[np.argmax(s)] == pytest.approx(_annealed_error(a), abs=1e-5)


@pytest.mark.parametrize("N", [4, 7])
def test_overlap_density_of_a_uniform_direction(N):
    """Exercise 5, part 1: R = w.B has density proportional to (1 - R^2)^((N-3)/2)."""
    rng = np.random.default_rng(N)
    W = rng.standard_normal((300_000, N))
    R = W[:, 0] / np.linalg.norm(W, axis=1)
    edges = np.linspace(-1, 1, 11)
    hist = np.histogram(R, bins=edges)[0] / R.size
    mass = [quad(lambda r: (1 - r * r) ** ((N - 3) / 2), a, b)[0]
            for a, b in zip(edges[:-1], edges[1:], strict=True)]
    assert np.allclose(hist, np.array(mass) / sum(mass), atol=3e-3)


@pytest.mark.parametrize("R", [0.0, 0.51, 0.83, 0.94])
def test_teacher_tilted_stability_has_second_moment_one_not_variance_one(R):
    """Section 6 (review W2): E t^2 = 1, E t = R sqrt(2/pi), so Var t = 1 - 2 R^2 / pi."""
    s = np.sqrt(1 - R * R)

    def density(t):
        return 2 * norm.pdf(t) * norm.cdf(R * t / s)

    m1 = quad(lambda t: t * density(t), -40, 40, points=[0])[0]
    m2 = quad(lambda t: t * t * density(t), -40, 40, points=[0])[0]
    assert m2 == pytest.approx(1.0, abs=1e-10)
    assert m1 == pytest.approx(R * np.sqrt(2 / np.pi), abs=1e-10)
    assert m2 - m1**2 == pytest.approx(1 - 2 * R * R / np.pi, abs=1e-10)
