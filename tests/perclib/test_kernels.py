"""Kernels, the polynomial feature map, and the perceptron in dual form."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perclib import (
    gram_matrix,
    kernel_perceptron,
    perceptron,
    polynomial_features,
    teacher_data,
    xor,
)


def dual_loop(G, y, max_epochs=1000):
    """Plain per-pattern dual perceptron on a Gram matrix, written independently."""
    alpha = np.zeros(len(y), dtype=int)
    order = []
    for _ in range(max_epochs):
        clean = True
        for i in range(len(y)):
            if y[i] * np.sum(alpha * y * G[:, i]) <= 0:
                alpha[i] += 1
                order.append(i)
                clean = False
        if clean:
            return alpha, order, True
    return alpha, order, False


# --- kernels ------------------------------------------------------------------------


def test_kernel_values_by_hand() -> None:
    A = [[1.0, 2.0], [0.0, 1.0]]
    B = [[3.0, -1.0]]
    assert gram_matrix(A, B).tolist() == [[1.0], [-1.0]]
    # (0.5 * 1 + 2)^3 = 15.625 and (0.5 * -1 + 2)^3 = 3.375
    poly = gram_matrix(A, B, kernel="poly", degree=3, gamma=0.5, coef0=2.0)
    assert poly.tolist() == [[15.625], [3.375]]
    # ||(1,2) - (3,-1)||^2 = 13, ||(0,1) - (3,-1)||^2 = 13
    rbf = gram_matrix(A, B, kernel="rbf", gamma=0.1)
    assert np.allclose(rbf, np.exp(-1.3))


def test_gram_of_one_set_is_symmetric_with_unit_rbf_diagonal() -> None:
    X = np.random.default_rng(0).standard_normal((30, 4))
    for kernel in ("linear", "poly", "rbf"):
        G = gram_matrix(X, kernel=kernel)
        assert np.allclose(G, G.T), kernel
    assert np.allclose(np.diag(gram_matrix(X, kernel="rbf", gamma=3.0)), 1.0)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    N=st.integers(1, 4),
    degree=st.integers(1, 4),
    coef0=st.sampled_from([0.0, 0.5, 1.0, 2.0]),
    gamma=st.sampled_from([0.25, 1.0, 3.0]),
)
def test_feature_map_reproduces_the_polynomial_kernel(seed, N, degree, coef0, gamma) -> None:
    X = np.random.default_rng(seed).standard_normal((6, N))
    Phi = polynomial_features(X, degree=degree, coef0=coef0, gamma=gamma)
    direct = (gamma * (X @ X.T) + coef0) ** degree  # written out, not via perclib
    assert np.allclose(Phi @ Phi.T, direct, rtol=1e-10, atol=1e-10)
    expected = math.comb(N + degree, degree) if coef0 > 0 else math.comb(N + degree - 1, degree)
    assert Phi.shape == (6, expected)


def test_degree_two_features_by_hand() -> None:
    # (x.z + 1)^2 for x = (2, 3): 1, sqrt2 x1, sqrt2 x2, x1^2, sqrt2 x1 x2, x2^2
    phi = polynomial_features([[2.0, 3.0]], degree=2)[0]
    r2 = math.sqrt(2.0)
    assert np.allclose(np.sort(phi), np.sort([1.0, 2 * r2, 3 * r2, 4.0, 6 * r2, 9.0]))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), gamma=st.floats(0.05, 5.0))
def test_kernel_matrices_are_positive_semidefinite(seed, gamma) -> None:
    X = np.random.default_rng(seed).standard_normal((12, 3))
    for kernel in ("linear", "poly", "rbf"):
        G = gram_matrix(X, kernel=kernel, gamma=gamma)
        assert np.linalg.eigvalsh(G).min() >= -1e-8 * max(1.0, np.abs(G).max()), kernel


def test_callable_kernel_is_used_as_given() -> None:
    X = np.random.default_rng(1).standard_normal((8, 3))
    G = gram_matrix(X, kernel=lambda A, B: (A @ B.T + 1.0) ** 2)
    assert np.allclose(G, gram_matrix(X, kernel="poly", degree=2))


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"kernel": "sigmoid"}, ValueError, "kernel must be one of"),
        ({"kernel": "poly", "degree": 0}, ValueError, "degree"),
        ({"kernel": "poly", "degree": 2.0}, TypeError, "degree"),
        ({"kernel": "rbf", "gamma": 0.0}, ValueError, "gamma"),
        ({"kernel": "poly", "coef0": float("nan")}, ValueError, "coef0"),
        ({"kernel": lambda A, B: np.ones(3)}, ValueError, "must return shape"),
        ({"kernel": lambda A, B: np.full((2, 2), np.nan)}, ValueError, "NaN"),
    ],
)
def test_gram_matrix_rejects_bad_input(kwargs, error, words) -> None:
    with pytest.raises(error, match=words):
        gram_matrix([[1.0, 0.0], [0.0, 1.0]], **kwargs)


def test_shapes_are_checked() -> None:
    with pytest.raises(ValueError, match="same number of columns"):
        gram_matrix([[1.0, 2.0]], [[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="coef0 must be >= 0"):
        polynomial_features([[1.0]], coef0=-1.0)
    with pytest.raises(ValueError, match="more than 100,000 features; .*the kernel instead"):
        polynomial_features(np.ones((1, 60)), degree=4)


# --- the kernel perceptron -------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_linear_kernel_is_the_primal_perceptron(seed: int) -> None:
    d = teacher_data(150, 6, margin=0.05, rng=seed)
    primal = perceptron(d.X, d.y)
    dual = kernel_perceptron(d.X, d.y, kernel="linear")
    assert primal.converged and dual.converged
    assert dual.indices.tolist() == primal.indices.tolist()
    assert dual.epochs == primal.epochs
    w_dual = d.X.T @ (dual.alpha * d.y)
    assert np.max(np.abs(w_dual - primal.w)) <= 1e-12


@pytest.mark.parametrize("seed", range(4))
def test_polynomial_kernel_is_the_primal_perceptron_on_the_features(seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((80, 3))
    y = np.where(np.sum(X**2, axis=1) > 3.0, -1.0, 1.0)  # a sphere: not linear in x
    Phi = polynomial_features(X, degree=2, coef0=1.0)
    primal = perceptron(Phi, y, max_epochs=2000)
    dual = kernel_perceptron(X, y, kernel="poly", degree=2, coef0=1.0, max_epochs=2000)
    assert primal.converged and dual.converged
    assert dual.indices.tolist() == primal.indices.tolist()
    Z = rng.standard_normal((50, 3))
    assert np.allclose(dual.decision_function(Z), polynomial_features(Z) @ primal.w, rtol=1e-9)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), P=st.integers(1, 25), gamma=st.floats(0.1, 3.0))
def test_rbf_run_matches_the_plain_dual_loop(seed, P, gamma) -> None:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, 2))
    y = rng.choice([-1.0, 1.0], P)
    G = np.exp(-gamma * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    alpha, order, converged = dual_loop(G, y, max_epochs=300)
    run = kernel_perceptron(X, y, kernel="rbf", gamma=gamma, max_epochs=300)
    assert run.indices.tolist() == order
    assert run.alpha.tolist() == alpha.tolist()
    assert run.converged == converged


def test_a_callable_kernel_gives_the_same_run_as_its_name() -> None:
    X, y = np.random.default_rng(5).standard_normal((30, 2)), np.repeat([1.0, -1.0], 15)
    named = kernel_perceptron(X, y, kernel="rbf", gamma=0.7)
    own = kernel_perceptron(X, y, kernel=lambda A, B: gram_matrix(A, B, kernel="rbf", gamma=0.7))
    assert own.indices.tolist() == named.indices.tolist()
    assert np.allclose(own.decision_function(X), named.decision_function(X))


def test_xor_needs_a_kernel() -> None:
    X, y = xor()
    X = 2.0 * X - 1.0  # the corners of [-1, 1]^2, centred
    assert not kernel_perceptron(X, y, max_epochs=50).converged
    run = kernel_perceptron(X, y, kernel="poly", degree=2)
    assert run.converged
    assert np.all(y * run.decision_function(X) > 0)


def test_result_bookkeeping() -> None:
    X = np.random.default_rng(2).standard_normal((40, 2))
    y = np.where(np.linalg.norm(X, axis=1) > 1.0, 1.0, -1.0)
    run = kernel_perceptron(X, y, kernel="rbf", gamma=2.0)
    assert run.converged
    assert run.alpha.sum() == run.n_updates == run.mistakes_per_epoch.sum()
    assert run.mistakes_per_epoch[-1] == 0
    assert set(run.support.tolist()) == set(run.indices.tolist())
    assert np.all(y * run.decision_function(X) > 0)
    assert "converged" in repr(run)


def test_kernel_perceptron_stops_on_non_separable_data() -> None:
    X = [[1.0], [1.0]]
    run = kernel_perceptron(X, [1, -1], max_epochs=7)
    assert not run.converged and run.epochs == 7


def test_kernel_perceptron_validates() -> None:
    with pytest.raises(ValueError, match="only -1 and \\+1"):
        kernel_perceptron([[1.0], [2.0]], [0, 1])
    with pytest.raises(ValueError, match="labels but there are"):
        kernel_perceptron([[1.0], [2.0]], [1])
    with pytest.raises(ValueError, match="kernel must be one of"):
        kernel_perceptron([[1.0]], [1], kernel="cosine")
    with pytest.raises(ValueError, match="max_epochs"):
        kernel_perceptron([[1.0]], [1], max_epochs=0)
    run = kernel_perceptron([[1.0, 0.0]], [1])
    with pytest.raises(ValueError, match="Z must have 2 columns"):
        run.decision_function([[1.0, 2.0, 3.0]])
