"""in_general_position by determinants (issue 41, item 2): the same verdicts as the SVDs.

``in_general_position`` used to take one SVD per subset; it now passes a subset on
a Hadamard bound from the determinant of its unit rows and leaves only the unclear
subsets to the SVD (perclib/_subsets.py). The verdict must never change: these tests
compare it with the old implementation, copied here verbatim, on random, degenerate,
nearly degenerate (at the tolerance) and rescaled sets, and check the inequality
the screen rests on.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perclib import boolean_cube, in_general_position
from perclib._subsets import all_subsets_svd, combination_blocks
from perclib.geometry import _homogeneous, _normalised

SEEDS = st.integers(0, 2**32 - 1)


def old_in_general_position(X, threshold: bool = False, tol: float = 1e-9) -> bool:
    """The loop of in_general_position before issue 41 (validation left out)."""
    X = np.asarray(X, dtype=float)
    Z = _homogeneous(_normalised(X)[0], threshold)
    P, D = Z.shape
    k = min(P, D)
    subsets = itertools.combinations(range(P), k)
    chunk = max(1, 200_000 // (k * D))
    while True:
        idx = np.array(list(itertools.islice(subsets, chunk)), dtype=np.intp)
        if idx.size == 0:
            return True
        s = np.linalg.svd(Z[idx], compute_uv=False)
        if np.any(s[:, -1] <= tol * s[:, 0]):
            return False


def same_verdict(X, threshold: bool, tol: float = 1e-9) -> bool:
    new = in_general_position(X, threshold=threshold, tol=tol)
    assert new == old_in_general_position(X, threshold, tol), (np.asarray(X).tolist(), threshold, tol)
    return new


@settings(max_examples=40, deadline=None)
@given(P=st.integers(1, 9), k=st.integers(0, 9), block=st.integers(1, 40))
def test_combination_blocks_are_itertools_combinations(P, k, block):
    k = min(k, P)
    rows = [tuple(r) for b in combination_blocks(P, k, block) for r in b.tolist()]
    assert rows == list(itertools.combinations(range(P), k))
    assert all(len(b) <= block for b in combination_blocks(P, k, block)) or math.comb(P, k) == 0


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 12), N=st.integers(1, 5), threshold=st.booleans())
def test_same_verdict_on_gaussian_points(seed, P, N, threshold):
    X = np.random.default_rng(seed).standard_normal((P, N))
    assert same_verdict(X, threshold)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, P=st.integers(1, 9), N=st.integers(1, 4), threshold=st.booleans(),
       low=st.integers(-3, 0))
def test_same_verdict_on_small_integer_sets(seed, P, N, threshold, low):
    # Repeated points, parallel pairs, collinear triples, the origin: frequent.
    X = np.random.default_rng(seed).integers(low, 3, size=(P, N)).astype(float)
    same_verdict(X, threshold)


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, P=st.integers(3, 10), N=st.integers(2, 4), threshold=st.booleans(),
       eps_exp=st.floats(-14.0, -4.0), tol_exp=st.sampled_from([-12, -9, -6]))
def test_same_verdict_near_the_tolerance(seed, P, N, threshold, eps_exp, tol_exp):
    # One point a distance eps from the span (or affine hull) of others: its subsets
    # have condition numbers around 1/eps, on either side of 1/tol.
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, N))
    m = min(N if threshold else N - 1, P - 1)  # the points the last one depends on
    coef = rng.standard_normal(m)
    if threshold:
        coef = coef / coef.sum()  # an affine combination
    X[-1] = coef @ X[:m] + 10.0**eps_exp * rng.standard_normal(N)
    same_verdict(X, threshold, tol=10.0**tol_exp)


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-12, 1.0, 1e12, 1e200, 1e300])
def test_same_verdict_at_every_scale(scale):
    rng = np.random.default_rng(11)
    sets = [
        rng.standard_normal((9, 3)),
        boolean_cube(3) - 0.25,
        np.array([[1.0, 0.0], [1.0, 1e-10], [0.0, 1.0], [2.0, 3.0]]),
        np.array([[1.0, 2.0, 3.0], [1e-150, 0.0, 1.0], [0.0, 1.0, 1e-150], [5.0, 1.0, 1.0]]),
    ]
    for X in sets:
        for threshold in (False, True):
            same_verdict(X * scale, threshold)


def test_rows_of_very_different_sizes_go_to_the_svd():
    # A row 1e-200 times the largest: its norm's inverse square overflows, the
    # determinant bound is infinite-spread, and the SVD decides, as before.
    X = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1e-200], [1.0, 1.0, 1.0]])
    for threshold in (False, True):
        for tol in (1e-9, 1e-300):
            same_verdict(X, threshold, tol)
    assert not in_general_position([[0.0, 0.0], [1.0, 2.0], [3.0, 1.0]])  # a zero row
    assert not in_general_position(np.zeros((3, 2)))


def test_cubes_and_lesson_sets_keep_their_verdicts():
    for n in (2, 3, 4):
        for threshold in (False, True):
            same_verdict(boolean_cube(n), threshold)
    rng = np.random.default_rng(3)
    X = rng.standard_normal((7, 2))
    X[5] = 0.3 * X[1] + 0.7 * X[2]
    assert same_verdict(X, False) and not same_verdict(X, True)


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, D=st.integers(1, 8), spread=st.floats(0.0, 6.0), squash=st.floats(0.0, 12.0))
def test_the_screen_bound_never_exceeds_the_singular_value_ratio(seed, D, spread, squash):
    # |det U| / sqrt(sum n_i^2 sum n_i^-2) <= s_min / s_max for rows n_i u_i (unit u_i):
    # rows of norms spread over 10**spread, nearly dependent when squash is large.
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((D, D))
    A[-1] = A[0] + 10.0**-squash * A[-1]
    A *= 10.0 ** rng.uniform(0, spread, size=(D, 1))
    n = np.linalg.norm(A, axis=1)
    bound = abs(np.linalg.det(A / n[:, None])) / np.sqrt(np.sum(n**2) * np.sum(n**-2.0))
    s = np.linalg.svd(A, compute_uv=False)
    assert bound <= s[-1] / s[0] * (1 + 1e-6) + 1e-15


def test_reference_loop_matches_the_old_one():
    rng = np.random.default_rng(5)
    for X, threshold in [(rng.standard_normal((8, 3)), True), (boolean_cube(3), True),
                         (rng.integers(-1, 2, size=(7, 3)).astype(float), False)]:
        Z = _homogeneous(_normalised(X)[0], threshold)
        assert all_subsets_svd(Z, 1e-9) == old_in_general_position(X, threshold)
