"""Lesson 8's theorems, checked more widely than the lesson's own check cells do.

Each test names the section of notebooks/08_kernels.ipynb (or its exercise) whose claim
it covers.
"""

from __future__ import annotations

import numpy as np
import pytest

from perclib import gram_matrix, kernel_perceptron, max_margin, perceptron, polynomial_features

# --- Section 1: the dual form makes the primal run's updates ---------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_dual_form_from_zero_repeats_the_primal_run(seed):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((30, 4))
    y = np.where(rng.random(30) < 0.5, -1.0, 1.0)  # random labels: never separable here
    primal = perceptron(X, y, max_epochs=40)
    dual = kernel_perceptron(X, y, kernel="linear", max_epochs=40)
    assert dual.indices.tolist() == primal.indices.tolist()
    assert np.allclose((dual.alpha * y) @ X, primal.w, rtol=1e-12, atol=1e-12)


# --- Section 3: the kernel perceptron's bound in feature space ------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_kernel_bound_and_the_margin_from_the_gram_matrix(seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(40, 2))
    y = np.where((X**2).sum(axis=1) < 1.6, 1.0, -1.0)
    K = gram_matrix(X, kernel="poly", degree=2)
    vals, vecs = np.linalg.eigh(K)
    Phi = vecs * np.sqrt(np.clip(vals, 0.0, None))
    explicit = max_margin(polynomial_features(X, degree=2), y).gamma
    from_gram = max_margin(Phi, y).gamma
    assert np.isclose(explicit, from_gram, rtol=1e-6)
    k = kernel_perceptron(X, y, kernel="poly", degree=2).n_updates
    assert k <= K.diagonal().max() / explicit**2
    Kg = gram_matrix(X, kernel="rbf", gamma=2.0)
    assert np.allclose(Kg.diagonal(), 1.0)  # R^2 = 1 for the Gaussian kernel
    vals, vecs = np.linalg.eigh(Kg)
    g = max_margin(vecs * np.sqrt(np.clip(vals, 0.0, None)), y).gamma
    assert kernel_perceptron(X, y, kernel="rbf", gamma=2.0).n_updates <= 1 / g**2


def test_xor_corners_come_close_to_the_kernel_bound():
    corners = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    gamma = max_margin(polynomial_features(corners, degree=2), y).gamma
    # by symmetry the best separator is the feature sqrt(2) x1 x2 alone: margin sqrt(2);
    # every corner has k(x, x) = (2 + 1)^2 = 9
    assert np.isclose(gamma, np.sqrt(2))
    assert kernel_perceptron(corners, y, kernel="poly", degree=2).n_updates == 4
    assert np.isclose(9 / gamma**2, 4.5)


# --- Exercise 4: a positive definite Gram matrix fits every labelling ----------------------


@pytest.mark.parametrize("seed", range(5))
def test_every_labelling_within_y_k_inverse_y_mistakes(seed):
    """Mistakes <= R^2 y^T K^-1 y <= P R^2 / lambda_min for any labels of distinct points."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-2, 2, size=(30, 2))
    y = np.where(rng.random(30) < 0.5, -1.0, 1.0)
    K = gram_matrix(X, kernel="rbf", gamma=8.0)
    lam = np.linalg.eigvalsh(K).min()
    assert lam > 0
    cost = y @ np.linalg.solve(K, y)
    assert cost <= len(y) / lam * (1 + 1e-9)
    run = kernel_perceptron(X, y, kernel="rbf", gamma=8.0, max_epochs=10_000)
    assert run.converged and run.n_updates <= 1.0 * cost  # R^2 = k(x, x) = 1
    # the separator of the proof: w = sum c_mu phi(x_mu) with K c = y has margin 1/||w||
    vals, vecs = np.linalg.eigh(K)
    Phi = vecs * np.sqrt(vals)
    c = np.linalg.solve(K, y)
    w = c @ Phi
    assert np.allclose(y * (Phi @ w), 1.0, atol=1e-6)
    assert max_margin(Phi, y).gamma >= 1 / np.sqrt(cost) * (1 - 1e-6)
