"""Lesson 5's claims, checked more widely than the lesson's own check cells do.

Each test names the section of notebooks/05_convergence.ipynb whose claim it covers.
Expected values come from hand computation or a plain loop written here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from perclib import margin_perceptron, max_margin, mistake_bound, perceptron, teacher_data


def _loss(w, X, y):
    return float(np.sum(np.maximum(0.0, -y * (X @ w))))


@pytest.mark.parametrize("seed", range(5))
def test_power_of_two_rates_are_bit_identical_on_float_data(seed):
    # Section 5: scaling by 2^j commutes with rounding, so any data will do.
    rng = np.random.default_rng(seed)
    d = teacher_data(50, int(rng.integers(2, 12)), margin=0.05, rng=rng)
    base = perceptron(d.X, d.y)
    for j in (-40, -7, -1, 1, 5, 60):
        run = perceptron(d.X, d.y, eta=2.0**j)
        assert np.array_equal(run.weights, 2.0**j * base.weights), j


@pytest.mark.parametrize("seed", range(5))
def test_from_a_start_the_rate_acts_only_through_w0_over_eta(seed):
    # Section 5: run(w0, eta) = eta * run(w0 / eta, 1), bit for bit when eta = 2^j.
    rng = np.random.default_rng(10 + seed)
    d = teacher_data(40, 3, margin=0.1, rng=rng)
    w0 = 5 * rng.standard_normal(3)
    for j in (-3, 2, 6):
        eta = 2.0**j
        run = perceptron(d.X, d.y, eta=eta, w0=w0)
        same = perceptron(d.X, d.y, w0=w0 / eta)
        assert np.array_equal(run.weights, eta * same.weights), j


@pytest.mark.parametrize("N", [1, 2, 5, 9, 12])
def test_unit_vectors_attain_the_bound(N):
    # Section 9: e_1..e_N, all +1: exactly N updates, and R^2 / gamma*^2 = N.
    run = perceptron(np.eye(N), np.ones(N))
    assert run.n_updates == N and run.epochs == 2
    assert math.isclose(max_margin(np.eye(N), np.ones(N)).gamma, 1 / math.sqrt(N), rel_tol=1e-7)


@pytest.mark.parametrize("beta", [0.0, 0.3, 1.0, 4.0])
def test_incremental_hinge_descent_is_the_margin_perceptron(beta):
    # Section 4: a subgradient step on max(0, beta - y w.x) per pattern, cyclic order.
    d = teacher_data(30, 3, margin=0.1, rng=7)
    w, hits = np.zeros(3), []
    for _ in range(1000):
        n = len(hits)
        for mu in range(len(d.X)):
            if d.y[mu] * (d.X[mu] @ w) <= beta:
                w = w + d.y[mu] * d.X[mu]
                hits.append(mu)
        if len(hits) == n:
            break
    assert hits == margin_perceptron(d.X, d.y, beta=beta).indices.tolist()


def test_zero_and_every_separator_minimise_the_perceptron_loss():
    # Section 4: L(0) = 0 = L(any separator), so the loss cannot explain convergence.
    d = teacher_data(60, 4, margin=0.1, rng=3)
    run = perceptron(d.X, d.y)
    assert _loss(np.zeros(4), d.X, d.y) == 0.0
    assert _loss(run.w, d.X, d.y) == 0.0 and _loss(d.teacher, d.X, d.y) == 0.0
    assert _loss(-d.teacher, d.X, d.y) > 0.0


@pytest.mark.parametrize(("a", "eta"), [(4.0, 0.5), (3.0, 1.0), (0.1, 1.0), (10.0, 3.0), (7.5, 0.25)])
def test_one_pattern_from_a_bad_start(a, eta):
    # Exercise 4: x = 1 (+1), w0 = -a: floor(a / eta) + 1 mistakes <= 1 + 2 a / eta.
    run = perceptron([[1.0]], [1], eta=eta, w0=[-a])
    assert run.n_updates == math.floor(a / eta) + 1
    assert run.n_updates <= mistake_bound([1.0], [[1.0]], [1], w0=[-a], eta=eta)


@pytest.mark.parametrize("seed", range(6))
def test_start_bound_holds_on_integer_data_with_ties(seed):
    # Section 6 (b), on data full of ties, starts pointing away from the separator.
    rng = np.random.default_rng(50 + seed)
    X = rng.integers(-2, 3, size=(30, 4)).astype(float)
    t = X @ np.array([1.0, -1.0, 2.0, 1.0])
    X, y = X[t != 0], np.where(t[t != 0] > 0, 1.0, -1.0)
    u = max_margin(X, y).w
    for eta in (0.5, 1.0, 3.0):
        w0 = -float(rng.uniform(1, 20)) * u
        run = perceptron(X, y, eta=eta, w0=w0, max_epochs=100_000)
        assert run.converged
        assert run.n_updates <= mistake_bound(u, X, y, w0=w0, eta=eta, sharp=True) * (1 + 1e-9)


def _near_tie_patterns(B, a):
    # Section 6 (Going deeper), rebuilt independently: w0 = -a e_0, every pattern
    # e_0 + x_perp with |x_perp|^2 = B - 1 (so u = e_0 has margin 1 and R^2 = B), each
    # placed so that the current w meets it as a tie (or as negative as it can be), with
    # a fresh axis per pattern. Stops when no such pattern can be a mistake.
    dim = int(B + 2 * a) + 3
    alpha, v = -float(a), np.zeros(dim)       # w = alpha e_0 + v, v on axes 1..dim
    rows, fresh, rho = [], 0, np.sqrt(B - 1)
    while alpha <= rho * np.linalg.norm(v):
        s = np.linalg.norm(v)
        along = min(-alpha, rho * s)                  # v.x_perp for a tie, if reachable
        along -= 1e-10 * max(1.0, abs(along))         # just below it
        x_perp = np.zeros(dim)
        if s > 0:
            x_perp += along * v / s**2
        x_perp[fresh] = np.sqrt(max(rho**2 - (along / s if s else 0.0) ** 2, 0.0))
        fresh += 1
        rows.append(np.concatenate([[1.0], x_perp]))
        alpha, v = alpha + 1, v + x_perp
    X = np.array(rows)[:, : fresh + 1]
    return X, -a * np.eye(fresh + 1)[0]


def test_the_constant_2_of_bound_b_cannot_be_lowered():
    # Section 6 (Going deeper): (k - B)/a tends to 2 - 1/B, so no constant below 2 works.
    for B, a in [(5.0, 100), (20.0, 300)]:
        X, w0 = _near_tie_patterns(B, a)
        y = np.ones(len(X))
        k_plain = _plain_run(X, y, w0, strict=False)[0]
        run = perceptron(X, y, w0=w0)
        assert run.converged and run.n_updates == len(k_plain) == len(X)
        assert np.allclose(np.linalg.norm(X, axis=1) ** 2, B) and np.allclose(X[:, 0], 1)
        ratio = (run.n_updates - B) / a
        assert 2 - 1 / B - 0.015 < ratio <= 2 - 1 / B
        assert run.n_updates <= B + 2 * a


def _plain_run(X, y, w0, strict):
    # The cyclic perceptron written out, with either mistake test; counts presentations.
    w, updates, epochs = np.array(w0, dtype=float), [], 0
    while epochs < 10_000:
        epochs, n = epochs + 1, len(updates)
        for mu in range(len(X)):
            m = y[mu] * (w @ X[mu])
            if m < 0 or (m == 0 and not strict):
                w = w + y[mu] * X[mu]
                updates.append(mu)
        if len(updates) == n:
            break
    return updates, epochs


@pytest.mark.parametrize("seed", range(4))
def test_strict_test_is_harmless_from_a_gaussian_start(seed):
    # Section 3: from a continuous random w0 no tie occurs, so '<' and '<=' agree;
    # from w0 = 0 the strict rule never moves. Integer data make ties likely elsewhere.
    rng = np.random.default_rng(300 + seed)
    t = rng.integers(-2, 3, size=4)
    X = rng.integers(-2, 3, size=(30, 4)).astype(float)
    X = X[X @ t != 0]
    y = np.sign(X @ t)
    for _ in range(20):
        w0 = rng.standard_normal(4) * 10.0 ** rng.uniform(-3, 1)
        assert _plain_run(X, y, w0, strict=True) == _plain_run(X, y, w0, strict=False)
    assert _plain_run(X, y, np.zeros(4), strict=True) == ([], 1)
    assert len(_plain_run(X, y, np.zeros(4), strict=False)[0]) > 0


@pytest.mark.parametrize("seed", range(4))
def test_running_time_bound(seed):
    # Section 6: at most k + 1 epochs, so at most (2N+1)((k+1)P + k) operations, and
    # k <= R^2/gamma*^2.
    rng = np.random.default_rng(400 + seed)
    for _ in range(10):
        P, N = int(rng.integers(3, 30)), int(rng.integers(1, 6))
        d = teacher_data(P, N, margin=float(rng.uniform(0.01, 0.3)), rng=rng)
        updates, epochs = _plain_run(d.X, d.y, np.zeros(N), strict=False)
        B = mistake_bound(max_margin(d.X, d.y).w, d.X, d.y)
        assert epochs <= len(updates) + 1 and len(updates) <= B * (1 + 1e-9)
        ops = (2 * N + 1) * (epochs * P + len(updates))
        assert ops <= (2 * N + 1) * ((B + 1) * P + B) * (1 + 1e-9)


@pytest.mark.parametrize("c", [0.3, 1.0, 2.5, 7.0])
def test_a_bad_start_fills_every_epoch_with_one_update(c):
    # Section 6 / exercise 4: x = 1, y = +1 from w0 = -c: k = floor(c) + 1, k + 1 epochs.
    updates, epochs = _plain_run(np.ones((1, 1)), np.ones(1), [-c], strict=False)
    assert len(updates) == math.floor(c) + 1 and epochs == len(updates) + 1


@pytest.mark.parametrize(("R", "gamma"), [(1.0, 0.5), (3.0, 1.0), (2.0, 0.3), (1.0, 1.0)])
def test_an_adversary_forces_floor_r2_over_gamma2_mistakes(R, gamma):
    # Exercise 6: labels chosen against any deterministic learner's prediction on R e_i.
    n = math.floor(R**2 / gamma**2 + 1e-12)
    X = R * np.eye(n)

    def learners():
        yield lambda Xs, ys, x: 1.0                      # always +1
        yield lambda Xs, ys, x: -1.0 if len(ys) % 2 else 1.0
        yield lambda Xs, ys, x: (1.0 if not len(ys) or          # the perceptron
                                 perceptron(Xs, ys).w @ x > 0 else -1.0)

    for predict in learners():
        ys: list[float] = []
        mistakes = 0
        for i in range(n):
            guess = predict(X[:i], np.array(ys), X[i])
            ys.append(-guess)
            mistakes += int(guess != ys[-1])
        y = np.array(ys)
        u = y / math.sqrt(n)
        assert mistakes == n
        assert np.all(y * (X @ u) >= gamma - 1e-12) and math.isclose(np.linalg.norm(u), 1.0)
