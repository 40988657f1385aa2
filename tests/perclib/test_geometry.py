"""Tests for perclib.geometry: separability, general position, margins, max margin.

Reference values come from hand calculations, from independent methods written
here (a convex-hull certificate by NNLS, an angle scan in 2-D, an exhaustive
search over active sets) and from scikit-learn, never from the code under test.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import nnls

from perclib import (
    MaxMarginResult,
    boolean_cube,
    in_general_position,
    is_separable,
    margin,
    max_margin,
    pattern_margins,
    perceptron,
    separating_weights,
    teacher_data,
)

SEEDS = st.integers(0, 2**32 - 1)
AND_LABELS = [-1, -1, -1, 1]
XOR_LABELS = [-1, 1, 1, -1]


# ---------------------------------------------------------------------------
# Independent references
# ---------------------------------------------------------------------------


def hull_distance(J: np.ndarray) -> float:
    """Distance from the origin to the convex hull of the rows of J, via NNLS.

    By Gordan's alternative, the rows admit w with J w > 0 exactly when the origin is
    outside their convex hull. The NNLS problem  min ||J^T a||^2 + (sum a - 1)^2,
    a >= 0,  is zero exactly when the origin is in the hull.
    """
    A = np.vstack([J.T, np.ones(J.shape[0])])
    b = np.append(np.zeros(J.shape[1]), 1.0)
    return float(nnls(A, b)[1])


def reference_separable(X: np.ndarray, y: np.ndarray, threshold: bool) -> bool | None:
    """True/False when an independent method is conclusive, else None."""
    Z = np.hstack([X, np.ones((len(X), 1))]) if threshold else X
    J = y[:, None] * Z
    J = J / np.linalg.norm(J, axis=1)[:, None]
    d = hull_distance(J)
    if d < 1e-11:
        return False
    if d > 1e-5:
        return True
    return None


def active_set_bruteforce(X: np.ndarray, y: np.ndarray, threshold: bool) -> float:
    """Max margin by trying every candidate support set (small problems only).

    For each subset S, solve the equality-constrained problem (all of S tight) from
    its KKT system; the optimum is the subset whose solution is feasible with
    non-negative multipliers. Returns the margin 1 / ||w||.
    """
    P, N = X.shape
    G = y[:, None] * (np.hstack([X, np.ones((P, 1))]) if threshold else X)
    D = G.shape[1]
    H = np.zeros((D, D))
    H[:N, :N] = np.eye(N)
    best = None
    for k in range(1, D + 1):
        for S in itertools.combinations(range(P), k):
            GS = G[list(S)]
            K = np.block([[H, -GS.T], [GS, np.zeros((k, k))]])
            try:
                sol = np.linalg.solve(K, np.append(np.zeros(D), np.ones(k)))
            except np.linalg.LinAlgError:
                continue
            z, lam = sol[:D], sol[D:]
            if np.all(lam >= -1e-10) and np.all(G @ z >= 1 - 1e-10):
                gamma = 1.0 / np.linalg.norm(z[:N])
                best = gamma if best is None else max(best, gamma)
    assert best is not None
    return best


def angle_scan_margin(X: np.ndarray, y: np.ndarray, threshold: bool) -> float:
    """Max margin in 2-D: scan the direction of w finely, then refine by bisection.

    For a unit w = (cos t, sin t), the best margin is min_i y_i w.x_i without a
    threshold, and (min over class +1 of w.x - max over class -1 of w.x) / 2 with
    one. Near its maximum this function is unimodal, so a golden-section search in
    the grid cell around the best grid point pins the maximum down.
    """

    def gamma(theta: np.ndarray) -> np.ndarray:
        S = X @ np.vstack([np.cos(theta), np.sin(theta)])  # (P, T)
        if threshold:
            return (S[y > 0].min(axis=0) - S[y < 0].max(axis=0)) / 2
        return np.min(y[:, None] * S, axis=0)

    thetas = np.linspace(0, 2 * np.pi, 200_001)
    values = gamma(thetas)
    i = int(np.argmax(values))
    step = thetas[1] - thetas[0]
    lo, hi = thetas[i] - step, thetas[i] + step
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(100):
        a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
        ga, gb = gamma(np.array([a, b]))
        if ga < gb:
            lo = a
        else:
            hi = b
    return float(max(values[i], gamma(np.array([(lo + hi) / 2]))[0]))


# ---------------------------------------------------------------------------
# is_separable / separating_weights
# ---------------------------------------------------------------------------


def test_and_separable_xor_not():
    X = boolean_cube(2)
    assert is_separable(X, AND_LABELS, threshold=True)
    assert not is_separable(X, XOR_LABELS, threshold=True)
    # XNOR and XOR are the only two non-separable functions of two inputs.
    assert not is_separable(X, [1, -1, -1, 1], threshold=True)


def test_without_threshold_the_origin_pattern_blocks_everything():
    # boolean_cube contains (0, 0): on every hyperplane through the origin.
    X = boolean_cube(2)
    assert not is_separable(X, AND_LABELS)
    assert not is_separable(X, [1, 1, 1, 1])
    assert separating_weights(X, [1, 1, 1, 1]) is None


def test_patterns_on_the_only_candidate_boundary_are_not_separable():
    # x and -x with the same label: y w.x > 0 and y w.(-x) > 0 contradict.
    assert not is_separable([[1.0, 2.0], [-1.0, -2.0]], [1, 1])
    # Opposite labels are fine.
    assert is_separable([[1.0, 2.0], [-1.0, -2.0]], [1, -1])
    # Identical points with different labels, with or without threshold.
    assert not is_separable([[1.0, 1.0], [1.0, 1.0]], [1, -1], threshold=True)
    # Three collinear points, the middle one labelled differently.
    assert not is_separable([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [1, -1, 1], threshold=True)
    assert is_separable([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [1, 1, -1], threshold=True)
    # Collinear up to rounding (the float values miss the line by ~1e-17): a
    # "separator" with margin 1e-17 is below the stated tolerance.
    near_line = [[0.1, 0.7], [0.2, 1.4], [0.3, 2.1]]
    assert not is_separable(near_line, [1, -1, 1], threshold=True)
    assert is_separable(near_line, [1, 1, -1], threshold=True)


def test_tiny_but_clear_margin_and_scale_invariance():
    X = np.array([[1.0, 1e-6], [1.0, -1e-6]])
    y = np.array([1, -1])
    # Through the origin: w = (0, 1) separates, margin 1e-6 relative to ||x|| ~ 1.
    assert is_separable(X, y)
    for scale in (1e-8, 1.0, 1e8):
        assert is_separable(scale * X, y)
        assert not is_separable(scale * X[[0, 0]], y)


def test_separating_weights_really_separate():
    X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, 0.5], [0.0, -2.0]])
    y = np.array([1, 1, -1, -1])
    for threshold in (False, True):
        w, b = separating_weights(X, y, threshold=threshold)
        assert w.shape == (2,)
        assert np.all(y * (X @ w + b) > 0)
        if not threshold:
            assert b == 0.0


def test_threshold_needed():
    # Points on the positive axis: only a threshold can split 1 from 2.
    X = [[1.0], [2.0]]
    assert not is_separable(X, [1, -1])
    assert is_separable(X, [1, -1], threshold=True)
    assert is_separable(X, [1, 1])


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, N=st.integers(1, 4), ratio=st.floats(0.5, 3.5), threshold=st.booleans())
def test_is_separable_agrees_with_hull_certificate(seed, N, ratio, threshold):
    rng = np.random.default_rng(seed)
    P = max(1, int(ratio * N))
    X = rng.standard_normal((P, N))
    y = rng.choice([-1.0, 1.0], size=P)
    expected = reference_separable(X, y, threshold)
    assume(expected is not None)
    assert is_separable(X, y, threshold=threshold) is expected


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, N=st.integers(2, 5), P=st.integers(2, 30))
def test_is_separable_agrees_with_perceptron_on_teacher_data(seed, N, P):
    data = teacher_data(P, N, margin=0.05, rng=seed)
    assert perceptron(data.X, data.y, max_epochs=10_000).converged
    assert is_separable(data.X, data.y)
    # Flip one label and put its pattern on top of a pattern of the other label:
    # impossible to separate, whatever the weights.
    X = np.vstack([data.X, data.X[:1]])
    y = np.append(data.y, -data.y[0])
    assert not is_separable(X, y)
    assert not perceptron(X, y, max_epochs=50).converged


def test_is_separable_agrees_with_sklearn_perceptron():
    from sklearn.linear_model import Perceptron

    rng = np.random.default_rng(7)
    n_true = 0
    for _ in range(40):
        # 8 points in 3-D with a threshold: P = 2 (N + 1), half the labelings separable.
        X = rng.standard_normal((8, 3))
        y = rng.choice([-1.0, 1.0], size=8)
        if len(set(y)) < 2:
            continue
        verdict = is_separable(X, y, threshold=True)
        clf = Perceptron(tol=None, max_iter=20_000, shuffle=False).fit(X, y)
        # On separable data the perceptron converges to zero training errors.
        if verdict:
            n_true += 1
            assert clf.score(X, y) == 1.0
        assert verdict is reference_separable(X, y, True)
    assert 5 < n_true < 35  # both verdicts were exercised


# ---------------------------------------------------------------------------
# in_general_position
# ---------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, N=st.integers(1, 4), P=st.integers(1, 9), threshold=st.booleans())
def test_gaussian_points_are_in_general_position(seed, N, P, threshold):
    X = np.random.default_rng(seed).standard_normal((P, N))
    assert in_general_position(X, threshold=threshold)


def test_general_position_through_origin():
    assert in_general_position([[1, 0], [0, 1], [1, 1]])
    assert in_general_position([[1, 0, 0], [0, 1, 0]])  # P < N: independent
    assert not in_general_position([[1, 0], [2, 0], [0, 1]])  # parallel pair
    assert not in_general_position([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1]])  # coplanar
    assert not in_general_position([[0, 0], [1, 2]])  # the origin is dependent
    assert not in_general_position([[1, 2], [1, 2], [3, 1]])  # repeated point
    # Collinear in the affine sense but not through the origin: fine here.
    assert in_general_position([[0, 1], [1, 1], [2, 1]])


def test_general_position_affine():
    assert not in_general_position([[0, 1], [1, 1], [2, 1]], threshold=True)  # on a line
    assert in_general_position([[0, 0], [1, 0], [0, 1]], threshold=True)
    assert not in_general_position([[1, 1], [0, 0], [1, 1]], threshold=True)  # equal points
    # Three points on a line inside a larger random set.
    rng = np.random.default_rng(3)
    X = rng.standard_normal((7, 2))
    X[5] = 0.3 * X[1] + 0.7 * X[2]
    assert in_general_position(X)  # through-origin: no two parallel in 2-D
    assert not in_general_position(X, threshold=True)


def test_boolean_cube_general_position():
    # Without threshold the cube contains the origin.
    for n in (1, 2, 3):
        assert not in_general_position(boolean_cube(n))
    # The square's four corners: no three on a line, so in general position...
    assert in_general_position(boolean_cube(2), threshold=True)
    # ...but from n = 3 on, the four corners of a face lie in one plane.
    for n in (3, 4):
        assert not in_general_position(boolean_cube(n), threshold=True)


def test_general_position_tolerance_is_relative():
    X = np.array([[1.0, 0.0], [1.0, 1e-12]])
    assert not in_general_position(X)  # condition number 2e12 > 1e9
    assert in_general_position(X, tol=1e-13)
    assert in_general_position(1e-20 * np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert in_general_position(1e20 * np.array([[1.0, 0.0], [0.0, 1.0]]))


def test_general_position_refuses_huge_problems():
    X = np.random.default_rng(0).standard_normal((60, 6))  # C(60, 6) = 50,063,860
    with pytest.raises(ValueError, match="subsets"):
        in_general_position(X)


# ---------------------------------------------------------------------------
# margin / pattern_margins
# ---------------------------------------------------------------------------


def test_margin_hand_computed():
    X = [[3.0, 4.0], [1.0, 0.0], [0.0, -2.0]]
    y = [1, 1, -1]
    # w = (0, 1): margins 4, 0, 2.
    assert pattern_margins([0.0, 1.0], X, y).tolist() == [4.0, 0.0, 2.0]
    assert margin([0.0, 1.0], X, y) == 0.0
    # w = (1, 1)/sqrt(2): margins 7/sqrt2, 1/sqrt2, 2/sqrt2; length of w is irrelevant.
    assert margin([5.0, 5.0], X, y) == pytest.approx(1 / math.sqrt(2), rel=1e-15)
    # With a bias b = 1 and w = (0, 1): margins 5, 1, 1.
    assert pattern_margins([0.0, 2.0], X, y, b=2.0).tolist() == [5.0, 1.0, 1.0]
    # A misclassified pattern gives a negative margin.
    assert margin([-1.0, 0.0], X, y) == -3.0


# ---------------------------------------------------------------------------
# max_margin
# ---------------------------------------------------------------------------


def test_max_margin_two_points():
    # Two points: the best hyperplane is their perpendicular bisector.
    res = max_margin([[2.0, 0.0], [0.0, 2.0]], [1, -1], threshold=True)
    assert isinstance(res, MaxMarginResult)
    assert res.gamma == pytest.approx(math.sqrt(2), rel=1e-14)
    np.testing.assert_allclose(res.w, [1 / math.sqrt(2), -1 / math.sqrt(2)], rtol=1e-14)
    assert abs(res.b) < 1e-14
    assert res.support.tolist() == [0, 1]
    # Through the origin, the same points: w along (1, -1) again, margin sqrt 2.
    res0 = max_margin([[2.0, 0.0], [0.0, 2.0]], [1, -1])
    assert res0.gamma == pytest.approx(math.sqrt(2), rel=1e-14)
    assert res0.b == 0.0


def test_max_margin_and_function():
    # AND on the square: the best line is x1 + x2 = 1.5, margin 0.5 / sqrt 2.
    res = max_margin(boolean_cube(2), AND_LABELS, threshold=True)
    assert res.gamma == pytest.approx(0.5 / math.sqrt(2), rel=1e-13)
    np.testing.assert_allclose(res.w, [1 / math.sqrt(2)] * 2, rtol=1e-13)
    assert res.b == pytest.approx(-1.5 / math.sqrt(2), rel=1e-13)
    assert res.support.tolist() == [1, 2, 3]


def test_max_margin_single_pattern_and_one_class():
    res = max_margin([[3.0, 4.0]], [1])
    assert res.gamma == pytest.approx(5.0, rel=1e-15)
    np.testing.assert_allclose(res.w, [0.6, 0.8], rtol=1e-15)
    # Degenerate: all four patterns at distance 1 from the line x1 = 0, more than
    # needed to fix w (the reflected patterns (1, 1), (1, -1), (1, 0), (1, 0)).
    res = max_margin([[1.0, 1.0], [1.0, -1.0], [1.0, 0.0], [-1.0, 0.0]], [1, 1, 1, -1])
    assert res.gamma == pytest.approx(1.0, rel=1e-13)
    np.testing.assert_allclose(res.w, [1.0, 0.0], atol=1e-13)
    assert res.support.tolist() == [0, 1, 2, 3]


def test_max_margin_rejects_non_separable_data():
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin(boolean_cube(2), XOR_LABELS, threshold=True)
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin([[1.0, 0.0], [-1.0, 0.0]], [1, 1])
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin([[0.0, 0.0], [0.0, 0.0]], [1, 1])
    with pytest.raises(ValueError, match="both labels"):
        max_margin([[1.0, 0.0], [2.0, 1.0]], [1, 1], threshold=True)


def check_result(res: MaxMarginResult, X: np.ndarray, y: np.ndarray, threshold: bool) -> None:
    """Properties every max-margin result must have, checked against the data."""
    assert res.w.shape == (X.shape[1],)
    assert np.linalg.norm(res.w) == pytest.approx(1.0, abs=1e-14)
    if not threshold:
        assert res.b == 0.0
    scale = np.max(np.linalg.norm(X, axis=1))
    assert margin(res.w, X, y, b=res.b) == pytest.approx(res.gamma, abs=1e-13 * scale)
    m = y * (X @ res.w + res.b)
    assert res.support.size >= 1
    np.testing.assert_allclose(m[res.support], res.gamma, atol=1e-9 * scale)
    outside = np.setdiff1d(np.arange(len(y)), res.support)
    assert np.all(m[outside] > res.gamma)
    # Duality certificate: canonical w_c = w / gamma is feasible (margins >= 1),
    # the multipliers are feasible for the dual, and the two objectives are equal.
    # This proves optimality independently of how the solution was found.
    w_c, b_c = res.w / res.gamma, res.b / res.gamma
    assert np.all(y * (X @ w_c + b_c) >= 1 - 1e-9)
    alpha = res.alpha
    assert np.all(alpha >= 0)
    v = (alpha * y) @ X
    if threshold:
        assert abs(alpha @ y) <= 1e-9 * alpha.sum()
    primal = 0.5 * w_c @ w_c
    dual = alpha.sum() - 0.5 * v @ v
    assert dual == pytest.approx(primal, rel=1e-8)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, N=st.integers(1, 3), P=st.integers(1, 7), threshold=st.booleans())
def test_max_margin_matches_exhaustive_active_set_search(seed, N, P, threshold):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, N)) * rng.choice([1e-3, 1.0, 1e3])
    y = rng.choice([-1.0, 1.0], size=P)
    assume(reference_separable(X, y, threshold) is True)
    assume(not threshold or len(set(y)) == 2)
    res = max_margin(X, y, threshold=threshold)
    check_result(res, X, y, threshold)
    assert res.gamma == pytest.approx(active_set_bruteforce(X, y, threshold), rel=1e-10)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, P=st.integers(2, 25), threshold=st.booleans())
def test_max_margin_matches_angle_scan_in_2d(seed, P, threshold):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((P, 2)) + (rng.standard_normal(2) if threshold else 0)
    u = rng.standard_normal(2)
    y = np.where(X @ u + (0.2 if threshold else 0.0) > 0, 1.0, -1.0)
    assume(not threshold or len(set(y)) == 2)
    res = max_margin(X, y, threshold=threshold)
    check_result(res, X, y, threshold)
    assert res.gamma == pytest.approx(angle_scan_margin(X, y, threshold), rel=1e-9)


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, P=st.integers(3, 25), N=st.integers(2, 4))
def test_max_margin_matches_svc(seed, P, N):
    from sklearn.svm import SVC

    rng = np.random.default_rng(seed)
    data = teacher_data(P, N, margin=0.2, rng=rng)
    X = data.X + rng.standard_normal(N)  # shifted: the threshold matters
    y = data.y
    assume(len(set(y)) == 2)
    res = max_margin(X, y, threshold=True)
    check_result(res, X, y, True)
    svc = SVC(kernel="linear", C=1e10, tol=1e-12).fit(X, y)
    w, b = svc.coef_[0], svc.intercept_[0]
    svc_margin = np.min(y * (X @ w + b)) / np.linalg.norm(w)
    # libsvm stops at about 1e-7..1e-6 relative accuracy even with tol=1e-12 (checked
    # with the exhaustive search above), so compare at that level...
    assert res.gamma == pytest.approx(1 / np.linalg.norm(w), rel=1e-5)
    assert res.gamma == pytest.approx(svc_margin, rel=1e-5)
    # ...and require, exactly, that SVC's hyperplane is never better than ours.
    assert svc_margin <= res.gamma * (1 + 1e-12)
    np.testing.assert_allclose(res.w, w / np.linalg.norm(w), atol=1e-4)


def test_max_margin_larger_problem_against_svc():
    from sklearn.svm import SVC

    data = teacher_data(300, 10, margin=0.3, rng=11)
    res = max_margin(data.X, data.y)
    check_result(res, data.X, data.y, False)
    assert res.gamma >= 0.3 - 1e-12  # at least the teacher's margin
    res_t = max_margin(data.X, data.y, threshold=True)
    check_result(res_t, data.X, data.y, True)
    assert res_t.gamma >= res.gamma - 1e-12  # a threshold can only help
    svc = SVC(kernel="linear", C=1e10, tol=1e-12).fit(data.X, data.y)
    assert res_t.gamma == pytest.approx(1 / np.linalg.norm(svc.coef_[0]), rel=1e-5)


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


GOOD_X = [[1.0, 0.0], [0.0, 1.0]]
GOOD_Y = [1, -1]


@pytest.mark.parametrize(
    "X, y, error, match",
    [
        ([1.0, 2.0], [1, -1], ValueError, "2-D"),  # 1-D patterns
        ([[[1.0]]], [1], ValueError, "2-D"),
        (np.zeros((0, 2)), [], ValueError, "empty"),
        (np.zeros((2, 0)), [1, -1], ValueError, "dimension 0"),
        ([[1.0, np.nan], [0.0, 1.0]], GOOD_Y, ValueError, "NaN"),
        ([[1.0, np.inf], [0.0, 1.0]], GOOD_Y, ValueError, "NaN or infinite"),
        ("abc", GOOD_Y, TypeError, "string"),
        ([["a", "b"]], [1], TypeError, "array of numbers"),
        (GOOD_X, [1, -1, 1], ValueError, "lengths must match"),
        (GOOD_X, [1, 0], ValueError, "only -1 and \\+1"),
        (GOOD_X, [2, -1], ValueError, "only -1 and \\+1"),
        (GOOD_X, [1, np.nan], ValueError, "NaN"),
        (GOOD_X, [[1, -1]], ValueError, "1-D"),
        (GOOD_X, [], ValueError, "empty"),
    ],
)
def test_bad_patterns_and_labels(X, y, error, match):
    for func in (is_separable, separating_weights, max_margin):
        with pytest.raises(error, match=match):
            func(X, y)
    with pytest.raises(error, match=match):
        margin([1.0, 1.0], X, y)


def test_bad_threshold_flag():
    for func in (is_separable, separating_weights, max_margin):
        with pytest.raises(TypeError, match="threshold"):
            func(GOOD_X, GOOD_Y, threshold="yes")
    with pytest.raises(TypeError, match="threshold"):
        in_general_position(GOOD_X, threshold=1)


def test_bad_general_position_input():
    with pytest.raises(ValueError, match="2-D"):
        in_general_position([1.0, 2.0])
    with pytest.raises(ValueError, match="NaN"):
        in_general_position([[np.nan, 1.0]])
    with pytest.raises(ValueError, match="empty"):
        in_general_position(np.zeros((0, 3)))
    for tol in (0.0, 1.0, -1e-3):
        with pytest.raises(ValueError, match="tol"):
            in_general_position(GOOD_X, tol=tol)
    with pytest.raises(ValueError, match="tol"):
        in_general_position(GOOD_X, tol=float("nan"))
    with pytest.raises(TypeError, match="tol"):
        in_general_position(GOOD_X, tol="small")


def test_bad_margin_input():
    with pytest.raises(ValueError, match="zero vector"):
        margin([0.0, 0.0], GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="zero vector"):
        pattern_margins([0.0, 0.0], GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="length 3"):
        margin([1.0, 1.0, 1.0], GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="NaN"):
        margin([1.0, np.nan], GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="b must be finite"):
        margin([1.0, 1.0], GOOD_X, GOOD_Y, b=np.inf)
    with pytest.raises(TypeError, match="b must be a real number"):
        margin([1.0, 1.0], GOOD_X, GOOD_Y, b="1")
    with pytest.raises(TypeError, match="b must be a real number"):
        margin([1.0, 1.0], GOOD_X, GOOD_Y, b=True)


# ---------------------------------------------------------------------------
# Scale safety (issue 23): same answers at any float64 scale
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("s", [1e-300, 1e-200, 1e-150, 1e150, 1e200, 1e300])
def test_every_function_is_scale_safe(s):
    from perclib import admissible_arc, direction_margins

    # The example: two opposite points, margin 1/sqrt(2) of ||x|| for w = (1, 1).
    X2 = np.array([[1.0, 0.0], [-1.0, 0.0]])
    assert is_separable(s * X2, [1, -1])
    assert is_separable(s * X2, [1, -1], threshold=True)
    assert margin([1.0, 1.0], s * X2, [1, -1]) / s == pytest.approx(2**-0.5, rel=1e-15)
    assert margin([s, s], X2, [1, -1]) == pytest.approx(2**-0.5, rel=1e-15)
    np.testing.assert_allclose(
        pattern_margins([1.0, 2.0], s * X2, [1, 1], b=0.5 * s) / s, [1.5 / 5**0.5, -0.5 / 5**0.5]
    )
    w, b = separating_weights(s * X2, [1, -1], threshold=True)
    assert np.all(np.array([1, -1]) * ((s * X2) @ w + b) > 0)

    rng = np.random.default_rng(0)
    X = rng.standard_normal((9, 3))
    y = np.where(X @ [1.0, -0.5, 0.2] + 0.3 > 0, 1.0, -1.0)
    for threshold in (False, True):
        ref = max_margin(X, y, threshold=threshold)
        res = max_margin(s * X, y, threshold=threshold)
        assert res.gamma / s == pytest.approx(ref.gamma, rel=1e-12)
        np.testing.assert_allclose(res.w, ref.w, atol=1e-12)
        assert res.b / s == pytest.approx(ref.b, rel=1e-12, abs=1e-15)
        assert res.support.tolist() == ref.support.tolist()
        assert is_separable(s * X, y, threshold=threshold)
        assert in_general_position(s * X, threshold=threshold) == in_general_position(
            X, threshold=threshold
        )
    assert not in_general_position(s * np.array([[1.0, 1.0], [2.0, 2.0], [0.0, 1.0]]))
    Xp = np.array([[1.0, 1.0], [1.0, -1.0]])
    lo, hi = admissible_arc(s * Xp, [1, 1], s * np.sqrt(0.5))
    assert (np.degrees(lo), np.degrees(hi)) == pytest.approx((-15.0, 15.0), abs=1e-6)
    assert direction_margins(s * Xp, [1, 1], [0.0])[0] / s == pytest.approx(1.0)


def test_non_finite_input_is_refused_with_the_argument_named():
    from perclib import admissible_arc, direction_margins

    bad = [[1.0, np.nan], [0.0, 1.0]]
    for func in (is_separable, separating_weights, max_margin):
        with pytest.raises(ValueError, match="X contains"):
            func(bad, GOOD_Y)
        with pytest.raises(ValueError, match="y contains"):
            func(GOOD_X, [1, np.inf])
    with pytest.raises(ValueError, match="X contains"):
        in_general_position([[np.inf, 1.0]])
    with pytest.raises(ValueError, match="w contains"):
        pattern_margins([np.inf, 1.0], GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="b must be finite"):
        pattern_margins([1.0, 1.0], GOOD_X, GOOD_Y, b=np.nan)
    with pytest.raises(ValueError, match="angles"):
        direction_margins(GOOD_X, GOOD_Y, [np.nan])
    with pytest.raises(ValueError, match="gamma"):
        admissible_arc(GOOD_X, GOOD_Y, np.inf)


def test_batched_separability_gives_is_separable_answers() -> None:
    """The Monte Carlo's block LP answers exactly as is_separable, hard cases included."""
    from perclib import is_separable
    from perclib.geometry import _separable_many

    rng = np.random.default_rng(11)
    problems = []
    for _ in range(150):
        P, N = int(rng.integers(2, 25)), int(rng.integers(1, 8))
        problems.append((rng.standard_normal((P, N)), np.where(rng.random(P) < 0.5, -1.0, 1.0)))
    cube = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    problems += [
        (cube * 1e-200, np.array([-1.0, -1.0, -1.0, 1.0])),            # AND, tiny units
        (cube * 1e200, np.array([-1.0, 1.0, 1.0, -1.0])),              # XOR, huge units
        (np.array([[1.0, 0.0], [0.0, 0.0]]), np.array([1.0, 1.0])),    # a pattern at 0
        (np.array([[1.0, 1e-13], [-1.0, 1e-13]]), np.array([1.0, 1.0])),  # thin: fallback
        (np.array([[1e200, 0.0], [0.0, 1e-200]]), np.array([1.0, 1.0])),  # mixed scales
    ]
    for threshold in (False, True):
        same_size = [p for p in problems if p[0].shape[1] == 2] if threshold else problems
        # The blocks of one LP share N: group as the Monte Carlo does.
        for n in sorted({p[0].shape[1] for p in same_size}):
            group = [p for p in same_size if p[0].shape[1] == n]
            want = [is_separable(X, y, threshold=threshold) for X, y in group]
            assert _separable_many(group, threshold) == want, (n, threshold)
    mixed = problems[:30]  # several lengths in one call: decided one by one
    assert _separable_many(mixed, False) == [is_separable(X, y) for X, y in mixed]


def test_separable_fraction_mc_counts_as_one_lp_per_draw_would() -> None:
    from perclib import gaussian_patterns, is_separable, random_labels, separable_fraction_mc

    for threshold in (False, True):
        est = separable_fraction_mc(12, 4, 90, threshold=threshold, rng=5)
        gen = np.random.default_rng(5)
        hits = 0
        for _ in range(90):
            X = gaussian_patterns(12, 4, rng=gen)
            hits += is_separable(X, random_labels(12, rng=gen), threshold=threshold)
        assert est.n_separable == hits


# ---------------------------------------------------------------------------
# One class with a threshold, and a threshold that must stand out (issue 52)
# ---------------------------------------------------------------------------

FUZZ_POINTS = np.array([[2.5e50, -1.2e50], [-1.7e51, 1.7e51], [-2.2e51, -5e50], [1.0, 0.0]])
SCALES_300 = [1e-300, 1e-200, 1e-100, 1e-12, 1.0, 1e12, 1e100, 1e200, 1e250]


def _checks(X, y, w, b) -> bool:
    """The separator, checked with Python's exact rationals (independent of perclib)."""
    from fractions import Fraction

    return all(
        int(t) * (sum(Fraction(float(a)) * Fraction(float(c)) for a, c in zip(x, w, strict=True))
                  + Fraction(float(b))) > 0
        for x, t in zip(X, y, strict=True)
    )


@pytest.mark.parametrize("label", [1, -1])
def test_one_class_with_a_threshold_is_separable_the_fuzz_case(label) -> None:
    # The fuzz's points surround the origin: not separable through it, but one class
    # with a threshold always is (w = 0, b = label).
    y = np.full(4, label)
    assert is_separable(FUZZ_POINTS, y, threshold=True)
    assert not is_separable(FUZZ_POINTS, y)
    w, b = separating_weights(FUZZ_POINTS, y, threshold=True)
    assert _checks(FUZZ_POINTS, y, w, b)
    with pytest.raises(ValueError, match="both labels"):
        max_margin(FUZZ_POINTS, y, threshold=True)


@pytest.mark.parametrize("scale", SCALES_300)
def test_one_class_with_a_threshold_at_every_scale_and_mixed(scale) -> None:
    base = FUZZ_POINTS / 1e51
    gen = np.random.default_rng(int(-math.log10(scale) + 400))
    mixed = base * np.array([[scale], [scale], [1.0], [1e-3 * scale]])  # rows of many sizes
    for X in (base * scale, mixed, gen.standard_normal((6, 3)) * scale):
        X = X[np.all(np.isfinite(X), axis=1)]
        y = np.ones(X.shape[0])
        assert is_separable(X, y, threshold=True), (scale, X)
        assert is_separable(X, -y, threshold=True)
        w, b = separating_weights(X, -y, threshold=True)
        assert _checks(X, -y, w, b)


@pytest.mark.parametrize("scale", SCALES_300)
def test_a_threshold_far_from_the_units_of_the_patterns_is_found(scale) -> None:
    # Three points around the origin and a tiny one inside them (+1), one far out (-1):
    # separable with a threshold (x1 + x2 < 2 scale), at every scale. The LP saw it
    # only near scale 1 (the column of ones was lost beside patterns of 1e50).
    X = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0], [3.0, 3.0]]) * scale
    X = np.vstack([X, [[1e-3 * min(scale, 1.0), 0.0]]])  # far smaller than the rest above 1
    y = np.array([1, 1, 1, -1, 1])
    assert is_separable(X, y, threshold=True)
    w, b = separating_weights(X, y, threshold=True)
    assert _checks(X, y, w, b)
    assert not is_separable(X, y)  # through the origin: the tiny +1 point sits beside it
    res = max_margin(X, y, threshold=True)
    assert res.gamma > 0 and _checks(X, y, res.w, res.b)
    assert res.gamma == pytest.approx(scale * 5 / 8**0.5, rel=1e-6)  # (1,0),(0,1) vs (3,3)
