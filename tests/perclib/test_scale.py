"""Scale safety (issue 23): data scaled by 1e-200 or 1e+200 give the same answers, scaled.

Squares of such numbers leave float64 (1e400 overflows, 1e-400 underflows), so any
norm or dot product computed naively goes wrong silently. Every public function of
the modules below either gives the unscaled answer, transformed as the mathematics
says (scale-free answers unchanged, lengths times s, ...), or raises a clear
ValueError saying that the result itself does not fit in float64. The geometry and
margin_capacity modules have their own scale tests.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

import perclib

SCALES = [1e-200, 1e200]
rng = np.random.default_rng(23)
X = rng.standard_normal((12, 3))
U = np.array([1.0, -0.5, 0.25])
Y = np.where(X @ U > 0, 1.0, -1.0)
MARGIN_X = X + 0.3 * Y[:, None] * U / np.linalg.norm(U)  # separable with a margin
CUBE = perclib.boolean_cube(3)
Z = rng.standard_normal((5, 3))


def same(a, b) -> None:
    np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def close(a, b, rtol: float = 1e-12) -> None:
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rtol, atol=0)


CHECKS: dict[str, Callable[[float], None]] = {}


def check(*names: str) -> Callable[[Callable[[float], None]], Callable[[float], None]]:
    """Register a check under the public names it covers (one test case per name and scale)."""

    def register(fn: Callable[[float], None]) -> Callable[[float], None]:
        CHECKS[", ".join(names)] = fn
        return fn

    return register


@check("count_dichotomies")
def _(s: float) -> None:
    for threshold in (False, True):
        assert perclib.count_dichotomies(s * X, threshold=threshold) == perclib.count_dichotomies(
            X, threshold=threshold
        )


@check("separable_dichotomies")
def _(s: float) -> None:
    for threshold in (False, True):
        same(perclib.separable_dichotomies(s * X[:6], threshold=threshold),
             perclib.separable_dichotomies(X[:6], threshold=threshold))


@check("arrangement_dichotomies")
def _(s: float) -> None:
    for threshold in (False, True):
        same(perclib.arrangement_dichotomies(s * CUBE, threshold=threshold),
             perclib.arrangement_dichotomies(CUBE, threshold=threshold))


@check("dependent_subsets")
def _(s: float) -> None:
    for threshold in (False, True):
        assert perclib.dependent_subsets(s * CUBE, 4, threshold=threshold) == perclib.dependent_subsets(
            CUBE, 4, threshold=threshold
        )


@check("extension_split")
def _(s: float) -> None:
    for threshold in (False, True):
        a = perclib.extension_split(s * X[:6], s * X[6], threshold=threshold)
        b = perclib.extension_split(X[:6], X[6], threshold=threshold)
        same(a.both, b.both)
        same(a.one_way, b.one_way)


@check("nonseparable_restrictions")
def _(s: float) -> None:
    y = perclib.boolean_function(3, 0b01101001)
    subsets = perclib.dependent_subsets(CUBE, 4, threshold=True)
    assert perclib.nonseparable_restrictions(s * CUBE, y, subsets, threshold=True) == (
        perclib.nonseparable_restrictions(CUBE, y, subsets, threshold=True)
    )


@check("project_out")
def _(s: float) -> None:
    close(perclib.project_out(s * X, U), s * perclib.project_out(X, U))
    close(perclib.project_out(X, s * U), perclib.project_out(X, U))


@check("radius")
def _(s: float) -> None:
    close(perclib.radius(s * X), s * perclib.radius(X))
    assert perclib.radius(s * X, threshold=True) == pytest.approx(math.hypot(1.0, s * perclib.radius(X)))


@check("separator_margin")
def _(s: float) -> None:
    close(perclib.separator_margin(U, s * MARGIN_X, Y), s * perclib.separator_margin(U, MARGIN_X, Y))
    close(perclib.separator_margin(s * U, MARGIN_X, Y), perclib.separator_margin(U, MARGIN_X, Y))


@check("mistake_bound")
def _(s: float) -> None:
    w0 = np.array([0.3, 0.1, -0.2])
    for kwargs in ({}, {"sharp": True}):
        close(perclib.mistake_bound(U, s * MARGIN_X, Y, w0=s * w0, **kwargs),
              perclib.mistake_bound(U, MARGIN_X, Y, w0=w0, **kwargs))


@check("novikoff_trace")
def _(s: float) -> None:
    # The trace's squared norms are s**2 times larger: not representable, said clearly.
    run = perclib.perceptron(s * MARGIN_X, Y)
    with pytest.raises(ValueError, match="result: the squared norms"):
        perclib.novikoff_trace(run, U)


@check("perceptron")
def _(s: float) -> None:
    for order in ("cyclic", "random"):
        a = perclib.perceptron(s * MARGIN_X, Y, order=order, rng=2)
        b = perclib.perceptron(MARGIN_X, Y, order=order, rng=2)
        same(a.indices, b.indices)
        close(a.w / s, b.w)


@check("margin_perceptron")
def _(s: float) -> None:
    for order in ("cyclic", "random"):
        a = perclib.margin_perceptron(s * MARGIN_X, Y, beta=2.0 * s, eta=0.5 / s, order=order, rng=1)
        b = perclib.margin_perceptron(MARGIN_X, Y, beta=2.0, eta=0.5, order=order, rng=1)
        same(a.indices, b.indices)
        close(a.w, b.w)
        close(a.margins / s, b.margins)


@check("minover")
def _(s: float) -> None:
    a, b = perclib.minover(s * MARGIN_X, Y), perclib.minover(MARGIN_X, Y)
    same(a.indices, b.indices)
    close(a.w / s, b.w)
    close(a.margins / s, b.margins)


@check("adatron")
def _(s: float) -> None:
    with pytest.raises(ValueError, match="X: patterns of size about 2"):
        perclib.adatron(s * MARGIN_X, Y)
    t = 2.0**300 if s > 1 else 2.0**-300  # strengths ~ 1/t**2 still fit: exact rescaling
    a, b = perclib.adatron(t * MARGIN_X, Y), perclib.adatron(MARGIN_X, Y)
    same(a.indices, b.indices)
    close(a.w * t, b.w)
    close(a.strengths * t**2, b.strengths)


@check("averaged_perceptron")
def _(s: float) -> None:
    a, b = perclib.averaged_perceptron(s * X, Y, epochs=3), perclib.averaged_perceptron(X, Y, epochs=3)
    same(a.votes, b.votes)
    close(a.w / s, b.w)
    same(a.vote(s * Z), b.vote(Z))


@check("pocket")
def _(s: float) -> None:
    noisy = Y.copy()
    noisy[:2] *= -1
    a, b = perclib.pocket(s * X, noisy, rng=0), perclib.pocket(X, noisy, rng=0)
    assert (a.errors, a.index) == (b.errors, b.index)
    same(a.trace_errors, b.trace_errors)


@check("gram_matrix")
def _(s: float) -> None:
    for kernel in ("linear", "poly"):
        if kernel == "poly" and s < 1:  # (gamma a.b + 1)**2 = 1 exactly in float64
            same(perclib.gram_matrix(s * X, kernel=kernel), np.ones((12, 12)))
            continue
        with pytest.raises(ValueError, match="A, B: the .*kernel.* (overflows|underflows) float64"):
            perclib.gram_matrix(s * X, kernel=kernel)
    rbf = perclib.gram_matrix(s * X, kernel="rbf")
    same(rbf, np.eye(12) if s > 1 else np.ones((12, 12)))  # what float64 can say: 0, 1


@check("polynomial_features")
def _(s: float) -> None:
    with pytest.raises(ValueError, match="X: monomials of degree 2"):
        perclib.polynomial_features(s * X)


@check("kernel_perceptron")
def _(s: float) -> None:
    with pytest.raises(ValueError, match="rescale"):
        perclib.kernel_perceptron(s * X, Y)
    # The Gaussian kernel at any scale: its Gram matrix is the identity for points 1e200
    # apart (separable: each pattern its own support) and all ones for points 1e-200
    # apart (one point, both labels: never separable); both are what float64 says.
    run = perclib.kernel_perceptron(s * X, Y, kernel="rbf", max_epochs=20)
    assert run.converged == (s > 1)


@check("threshold_unit", "sign")
def _(s: float) -> None:
    w, theta = np.array([1.0, -2.0, 0.5]), 0.3
    same(perclib.threshold_unit(s * X, w, s * theta), perclib.threshold_unit(X, w, theta))
    same(perclib.threshold_unit(X, s * w, s * theta), perclib.threshold_unit(X, w, theta))
    same(perclib.threshold_unit(s * X, s * w, 0.0), perclib.threshold_unit(X, w, 0.0))
    same(perclib.sign(s * (X @ w)), perclib.sign(X @ w))


@check("augment", "reflect", "augment_weights", "split_augmented")
def _(s: float) -> None:
    w, theta = np.array([1.0, -2.0, 0.5]), 0.3
    same(perclib.augment(s * X)[:, :-1], s * X)
    same(perclib.reflect(s * X, Y), s * perclib.reflect(X, Y))
    same(perclib.augment_weights(s * w, s * theta), s * perclib.augment_weights(w, theta))
    v, t = perclib.split_augmented(s * perclib.augment_weights(w, theta))
    close(v, s * w)
    assert t == pytest.approx(s * theta)


@check("overlap", "generalization_error")
def _(s: float) -> None:
    B = np.array([1.0, 1.0, 0.0])
    w = np.array([1.0, 0.0, 0.0])
    for a, b in ((s * w, B), (w, s * B), (s * w, s * B), (s * w, B / s)):
        assert perclib.overlap(a, b) == pytest.approx(perclib.overlap(w, B), rel=1e-14)
        assert perclib.generalization_error(a, b) == pytest.approx(0.25, rel=1e-14)


@check("teacher_data")
def _(s: float) -> None:
    a = perclib.teacher_data(20, 3, margin=0.1, teacher=s * U, rng=4)
    b = perclib.teacher_data(20, 3, margin=0.1, teacher=U, rng=4)
    close(a.X, b.X, rtol=1e-14)
    same(a.y, b.y)


@pytest.mark.parametrize("scale", SCALES, ids=["1e-200", "1e+200"])
@pytest.mark.parametrize("names", list(CHECKS))
def test_scaled_data_give_scaled_answers(names: str, scale: float) -> None:
    CHECKS[names](scale)


def test_every_data_taking_function_is_checked() -> None:
    """Functions that take no patterns or vectors (counts, curves, theory) need no scale check."""
    no_data = {
        "boolean_cube", "boolean_function", "gaussian_patterns", "random_labels", "xor", "to_01",
        "to_pm1", "cover_count", "capacity_fraction", "cover_count_symbolic", "cover_counts",
        "capacity_curve", "separable_fraction_mc", "gardner_capacity", "hebb_generalization",
        "gibbs_generalization", "max_margin_generalization", "learning_curve", "capacity_sample",
    }
    checked = {name for names in CHECKS for name in names.split(", ")}
    skip = {"geometry", "margin_capacity"}  # another helper's modules, with their own tests
    public = {
        name for name in perclib.__all__
        if callable(getattr(perclib, name)) and not isinstance(getattr(perclib, name), type)
        and getattr(perclib, name).__module__.split(".")[1] not in skip
    }
    assert public - no_data == checked, sorted(public - no_data ^ checked)
