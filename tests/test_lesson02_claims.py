"""Claims of lesson 2 checked more exhaustively than the lesson's own check cells do.

The lesson proves the collinear-triple theorem and checks it on three lines; here the
separability LP is run on many random collinear triples in several dimensions, and on
every labelling of them, against the rule "separable iff the labels change sign at most
once along the line".
"""

from __future__ import annotations

import itertools

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
