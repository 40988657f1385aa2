"""Claims of lesson 2 checked more exhaustively than the lesson's own check cells do.

The lesson proves the collinear-triple theorem and checks it on three lines; here the
separability LP is run on many random collinear triples in several dimensions, and on
every labelling of them, against the rule "separable iff the labels change sign at most
once along the line". Exercise 6's theorem (parity of n inputs has order n) is checked
for n = 2..5 against the LP over all products of fewer inputs, and the exercises' answers
against values from the literature or from the definitions, not from the lesson's code.
"""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest

from perclib import augment, boolean_cube, boolean_function, is_separable, reflect


@pytest.mark.parametrize("N", [1, 2, 3, 5, 8])
def test_collinear_triples_separable_iff_at_most_one_sign_change(N: int) -> None:
    rng = np.random.default_rng(20 + N)
    for _ in range(15):
        start, direction = rng.standard_normal(N), rng.standard_normal(N)
        t = np.sort(rng.uniform(-2, 2, size=3))          # positions along the line, sorted
        triple = start + t[:, None] * direction
        for labels in itertools.product((-1, 1), repeat=3):
            changes = sum(a != b for a, b in zip(labels, labels[1:], strict=False))
            expected = changes <= 1
            got = is_separable(triple, labels, threshold=True)
            assert got == expected, f"N={N}, t={t}, labels={labels}: LP says {got}"


def test_flipping_all_labels_preserves_separability_on_the_square() -> None:
    cube = boolean_cube(2)
    for k in range(16):
        flipped = 15 - k                                   # complement truth table
        assert is_separable(cube, boolean_function(2, k), threshold=True) == is_separable(
            cube, boolean_function(2, flipped), threshold=True
        ), f"functions {k} and {flipped} differ"


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_all_ones_is_a_gordan_certificate_for_parity(n: int) -> None:
    corners = boolean_cube(n)
    parity = np.where(corners.sum(axis=1) % 2 == 1, 1.0, -1.0)
    J = reflect(augment(corners), parity)
    assert np.array_equal(np.ones(2**n) @ J, np.zeros(n + 1))
    if n <= 4:
        assert not is_separable(corners, parity, threshold=True)


def _products(S: np.ndarray, order: int) -> np.ndarray:
    """All products of at most ``order`` columns of S, the empty product (1) included."""
    subsets = [c for r in range(order + 1) for c in itertools.combinations(range(S.shape[1]), r)]
    return np.column_stack([S[:, list(c)].prod(axis=1) for c in subsets])


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_products_span_every_function_of_k_signs(k: int) -> None:
    # 2^k products on the 2^k points of {-1, +1}^k: an invertible (Hadamard) matrix, so
    # an LP over products of at most n - 1 inputs covers every feature of order n - 1.
    S = 2 * boolean_cube(k) - 1
    H = _products(S, k)
    assert H.shape == (2**k, 2**k)
    assert np.array_equal(H.T @ H, 2**k * np.eye(2**k))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_parity_has_order_exactly_n(n: int) -> None:
    S = 2 * boolean_cube(n) - 1
    odd = boolean_cube(n).sum(axis=1) % 2 == 1
    y = np.where(odd, 1.0, -1.0)
    assert np.array_equal(y, (-1) ** (n + 1) * S.prod(axis=1)), "y = (-1)^(n+1) s1...sn"
    features = _products(S, n - 1)[:, 1:]          # the threshold plays the constant
    assert not is_separable(features, y, threshold=True)
    assert is_separable(S.prod(axis=1)[:, None], y, threshold=True)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_features_that_ignore_an_input_are_orthogonal_to_parity(n: int) -> None:
    rng = np.random.default_rng(60 + n)
    cube = boolean_cube(n).astype(int)
    y = np.where(cube.sum(axis=1) % 2 == 1, 1, -1)
    for ignored in range(n):
        rest = [i for i in range(n) if i != ignored]
        table = rng.integers(-9, 10, size=2 ** (n - 1))           # any function of the rest
        index = cube[:, rest] @ (2 ** np.arange(n - 1))
        assert int(y @ table[index]) == 0


# Numbers of threshold functions of n inputs (OEIS A000609): 2^(2^n) is not the answer.
KNOWN_THRESHOLD_FUNCTIONS = {1: 4, 2: 14, 3: 104}


@pytest.mark.parametrize("n", [1, 2, 3])
def test_brute_force_count_of_threshold_functions(n: int) -> None:
    corners = boolean_cube(n)
    count = sum(
        is_separable(corners, labels, threshold=True)
        for labels in itertools.product((-1, 1), repeat=2**n)
    )
    assert count == KNOWN_THRESHOLD_FUNCTIONS[n]


def test_exercise_3_reference_sets() -> None:
    # Cover: 5 points in general position in the plane, with a threshold, C(5, 3) = 22;
    # 4 points on a line (one sign change at most, either direction): 2 * 4 = 8.
    rng = np.random.default_rng(203)
    five, line = rng.standard_normal((5, 2)), np.outer(rng.standard_normal(4), [1.0, 2.0])
    cover = 2 * sum(comb(4, k) for k in range(3))
    for points, expected in ((five, cover), (line, 8)):
        count = sum(is_separable(points, lab, threshold=True)
                    for lab in itertools.product((-1, 1), repeat=len(points)))
        assert count == expected


def _jittered_xor(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    X = boolean_cube(2)
    y = np.array([-1, 1, 1, -1])
    picks = rng.integers(0, 4, size=200)
    return X[picks] + rng.uniform(-0.05, 0.05, size=(200, 2)), y[picks]


def _apart(z: np.ndarray, y: np.ndarray) -> bool:
    return bool(z[y > 0].max() < z[y < 0].min() or z[y < 0].max() < z[y > 0].min())


def test_exercise_2_folded_features_separate_and_linear_ones_do_not() -> None:
    X, y = _jittered_xor(7)
    good = [(X[:, 0] - X[:, 1]) ** 2, (X[:, 0] + X[:, 1] - 1) ** 2,
            X[:, 0] + X[:, 1] - 2 * X[:, 0] * X[:, 1]]
    bad = [X[:, 0] + X[:, 1], X[:, 0] * X[:, 1], (X[:, 0] + X[:, 1]) ** 2]
    assert all(_apart(z, y) for z in good)
    assert not any(_apart(z, y) for z in bad)


def test_the_learned_boundary_is_a_non_degenerate_hyperbola() -> None:
    # 2 x1 + 2 x2 - 5 x1 x2 - 1 = 0: b^2 - 4ac = 25 > 0; the 3 x 3 conic matrix has det 5/4.
    M = np.array([[0.0, -2.5, 1.0], [-2.5, 0.0, 1.0], [1.0, 1.0, -1.0]])
    assert np.isclose(np.linalg.det(M), 5 / 4)
