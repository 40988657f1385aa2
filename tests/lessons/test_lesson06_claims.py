"""Lesson 6's generalisation claims, checked exactly where the lesson uses Monte Carlo.

* The online-to-batch identity ``E[eps(w_{T-1})] = E[M]/P <= R^2/(gamma^2 P)`` for one
  perceptron pass over i.i.d. patterns: computed exactly by enumerating every sequence
  of a small discrete distribution (no sampling), with a plain loop written here.
* The orthonormal-basis case: ``E[M] = N (1 - (1 - 1/N)^P)``, again by enumeration.
* Vapnik's leave-one-out step: a left-out pattern that is not a support pattern is
  classified correctly, so left-out mistakes <= support patterns (the separators from
  an independent SLSQP solver, not from perclib).
* ``teacher_data`` is not i.i.d.: the closest pattern of every sample sits exactly at
  the requested margin.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from scipy.optimize import minimize

from perclib import max_margin, teacher_data


def _one_pass(X: np.ndarray, y: np.ndarray) -> tuple[list[np.ndarray], int]:
    w, before, mistakes = np.zeros(X.shape[1]), [], 0
    for x, label in zip(X, y, strict=True):
        before.append(w.copy())
        if label * (w @ x) <= 0:
            w = w + label * x
            mistakes += 1
    return before, mistakes


def _exact_expectations(points: np.ndarray, labels: np.ndarray, probs: np.ndarray, P: int):
    """E[M]/P and E[eps(w_{T-1})] over all K^P sequences, weighted by their probability."""
    mean_m, mean_eps = 0.0, 0.0
    for seq in product(range(len(probs)), repeat=P):
        weight = float(np.prod(probs[list(seq)]))
        before, mistakes = _one_pass(points[list(seq)], labels[list(seq)])
        errs = [float(probs @ (labels * (points @ w) <= 0)) for w in before]
        mean_m += weight * mistakes / P
        mean_eps += weight * float(np.mean(errs))
    return mean_m, mean_eps


@pytest.mark.parametrize("seed", range(3))
def test_online_to_batch_identity_is_exact(seed: int) -> None:
    rng = np.random.default_rng(seed)
    points = rng.standard_normal((4, 3))
    u = np.array([1.0, 0.0, 0.0])
    labels = np.where(points @ u > 0, 1.0, -1.0)
    points[:, 0] += 0.3 * labels                      # margin >= 0.3 under u
    probs = rng.dirichlet(np.ones(4))
    P = 5
    mean_m, mean_eps = _exact_expectations(points, labels, probs, P)
    assert mean_eps == pytest.approx(mean_m, abs=1e-12)
    R = np.max(np.linalg.norm(points, axis=1))
    gamma = np.min(labels * (points @ u))
    assert mean_m <= R**2 / (gamma**2 * P)


def test_orthonormal_basis_mistakes_formula() -> None:
    N, P = 3, 6
    signs = np.array([1.0, -1.0, 1.0])
    mean_m, mean_eps = _exact_expectations(np.eye(N), signs, np.full(N, 1 / N), P)
    assert mean_m * P == pytest.approx(N * (1 - (1 - 1 / N) ** P), abs=1e-12)
    assert mean_eps == pytest.approx(mean_m, abs=1e-12)
    assert mean_m <= N / P                            # R = 1, gamma = 1/sqrt(N)


def _slsqp_separator(X: np.ndarray, y: np.ndarray, u: np.ndarray) -> np.ndarray:
    """min |w|^2 / 2 subject to y (w.x) >= 1, by scipy's SLSQP (independent of perclib),
    started from the feasible teacher direction ``u``."""
    cons = {"type": "ineq", "fun": lambda w: y * (X @ w) - 1, "jac": lambda w: y[:, None] * X}
    w0 = u / np.min(y * (X @ u))
    res = minimize(lambda w: 0.5 * w @ w, w0, jac=lambda w: w, constraints=[cons],
                   method="SLSQP", options={"ftol": 1e-11, "maxiter": 500})
    assert res.success, res.message
    return res.x


@pytest.mark.parametrize("seed", range(4))
def test_leave_one_out_mistakes_need_support_patterns(seed: int) -> None:
    d = teacher_data(15, 3, margin=0.05, rng=seed)
    X, y = d.X, d.y
    w_all = _slsqp_separator(X, y, d.teacher)
    support = np.flatnonzero(y * (X @ w_all) < 1 + 1e-6)
    mistakes = []
    for mu in range(len(y)):
        keep = np.arange(len(y)) != mu
        w_mu = _slsqp_separator(X[keep], y[keep], d.teacher)
        wrong = y[mu] * (w_mu @ X[mu]) <= 0
        mistakes.append(wrong)
        assert mu in support or not wrong
    assert sum(mistakes) <= support.size
    assert support.tolist() == max_margin(X, y).support.tolist()


@pytest.mark.parametrize("seed", range(5))
def test_teacher_data_is_not_iid(seed: int) -> None:
    d = teacher_data(40, 4, margin=0.05, rng=seed)
    assert np.min(d.y * (d.X @ d.teacher)) == pytest.approx(0.05, abs=1e-12)
