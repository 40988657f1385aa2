"""Statistical mechanics of the perceptron: Gardner capacity and learning curves.

Conventions (Gardner's): patterns have i.i.d. standard normal entries, so their
norm is about ``sqrt(N)``; a weight vector ``w`` stores pattern ``x`` with label
``y`` at *stability* ``kappa`` when ``y (w . x) / ||w|| >= kappa``. This is the
geometric margin of the data in the units of the entries, so the best stability
of a data set is ``max_margin(X, y).gamma`` (the margin of the maximum-margin
hyperplane through the origin). In a teacher-student problem, the labels are
``y = sign(B . x)`` for a teacher ``B`` (``sign(0) = -1``, an event of probability
zero here), and a student ``w`` errs on a fresh pattern with probability
``arccos(R) / pi``, where ``R`` is the normalised overlap of ``w`` and ``B``.

The theory curves are the large-N results of the replica method (replica
symmetric, which is exact for these convex problems); the simulations are finite-N
estimates with standard errors, meant to be compared with them.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq
from scipy.special import ndtr

from perclib._validation import (
    as_count,
    as_float_array,
    as_limit,
    as_rng,
    as_weights,
    refuse_work,
    unit_scaled,
)
from perclib.geometry import MarginResolutionError, max_margin
from perclib.train.perceptron import perceptron

RULES = ("hebb", "perceptron", "max_margin")
#: Largest number of pattern entries (alpha_max N * N) a simulation draws at once.
MAX_SIMULATION_ENTRIES = 10**8
#: Default limit on a simulation's estimated work, in multiply-adds (sum of P N per
#: Hebb student, P N**2 per perceptron or max-margin solve): 10**10 is about half a
#: minute on one core (the stored tables of lesson 9 need 2.5e9).
MAX_SIMULATION_WORK = 10**10

try:  # BLAS threads only fight over shared cores on these small problems
    from threadpoolctl import threadpool_limits as _limit_threads
except ImportError:  # pragma: no cover - threadpoolctl comes with scikit-learn
    _limit_threads = None


def _one_blas_thread() -> contextlib.AbstractContextManager:
    return _limit_threads(1) if _limit_threads is not None else contextlib.nullcontext()


def _as_real_array(value: ArrayLike, name: str, minimum: float) -> NDArray[np.float64]:
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number or an array of numbers, got {value!r}")
    arr = as_float_array(value, name, "a number or an array of numbers")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if np.any(arr < minimum):
        raise ValueError(f"{name} must be >= {minimum}, got {value!r}")
    return arr


def _phi(t: NDArray[np.float64]) -> NDArray[np.float64]:
    return np.exp(-0.5 * t**2) / math.sqrt(2 * math.pi)


# ---------------------------------------------------------------------------
# Capacity
# ---------------------------------------------------------------------------


def gardner_capacity(kappa: ArrayLike) -> float | NDArray[np.float64]:
    """Gardner's capacity ``alpha_c(kappa) = 1 / int_{-kappa}^inf Dt (t + kappa)^2``.

    ``Dt`` is the standard Gaussian measure. The integral has the closed form
    ``(1 + kappa^2) Phi(kappa) + kappa phi(kappa)`` (integrate by parts; ``Phi``
    and ``phi`` are the normal distribution function and density), which is what
    is evaluated, so ``alpha_c(0) = 1 / (1/2) = 2`` exactly: Cover's capacity. The
    formula holds for ``kappa >= 0``, where the set of solutions is convex.

    Parameters
    ----------
    kappa : float or array_like
        Stability (margin in units of the pattern entries), >= 0.

    Returns
    -------
    float or ndarray
        A float for a scalar ``kappa``, else an array of the same shape.

    Examples
    --------
    >>> gardner_capacity(0.0)
    2.0
    >>> np.round(gardner_capacity([0.5, 1.0]), 4).tolist()
    [0.9612, 0.5196]
    """
    k = _as_real_array(kappa, "kappa", 0.0)
    integral = (1.0 + k**2) * ndtr(k) + k * _phi(k)
    alpha = 1.0 / integral
    return float(alpha) if alpha.ndim == 0 else alpha


# ---------------------------------------------------------------------------
# Generalisation
# ---------------------------------------------------------------------------


def _directions(w: ArrayLike, teacher: ArrayLike) -> tuple[NDArray[np.float64], ...]:
    """``w`` and the teacher validated (same length, finite, non-zero) and rescaled by
    powers of two, with their lengths: ``(w, B, ||w||, ||B||)``."""
    B = as_weights(teacher, name="teacher")
    w = as_weights(w, B.size, name="w")
    # Directions only: scale both to a largest entry near 1 (exact powers of two), so
    # that vectors of size 1e200 or 1e-200 neither overflow nor vanish.
    w, B = unit_scaled(w), unit_scaled(B)
    nw, nb = float(np.linalg.norm(w)), float(np.linalg.norm(B))
    if nw == 0 or nb == 0:
        raise ValueError("w and teacher must be non-zero vectors: a zero vector has no direction")
    return w, B, nw, nb


def overlap(w: ArrayLike, teacher: ArrayLike) -> float:
    """The normalised overlap ``R = w . B / (||w|| ||B||)`` (the cosine of their angle).

    Examples
    --------
    >>> overlap([1.0, 0.0], [1.0, 1.0])
    0.7071067811865475
    """
    w, B, nw, nb = _directions(w, teacher)
    return float(np.clip(w @ B / (nw * nb), -1.0, 1.0))


def generalization_error(w: ArrayLike, teacher: ArrayLike) -> float:
    """Probability that ``w`` and the teacher disagree on a Gaussian pattern: ``theta/pi``.

    Only the projection of ``x`` onto the plane spanned by ``w`` and ``B`` matters,
    and for an isotropic Gaussian ``x`` its direction is uniform on the circle. The
    signs of ``w . x`` and ``B . x`` differ exactly when that direction falls in one
    of the two wedges between the two decision lines, each of angle
    ``theta = arccos(R)``: probability ``2 theta / (2 pi)``.

    The angle is not computed as ``arccos(R)``: near ``R = 1`` the cosine is
    ``1 - theta**2 / 2``, which rounds to 1 for every angle under about 1.5e-8 radians,
    so a student that close to the teacher would silently get error 0. With unit
    vectors ``u``, ``v`` instead, ``||u - v|| = 2 sin(theta/2)`` and
    ``||u + v|| = 2 cos(theta/2)``, and ``theta = 2 arctan2(||u - v||, ||u + v||)``
    keeps its relative accuracy at every angle.

    Parameters
    ----------
    w, teacher : array_like, shape (N,)
        Non-zero weight vectors (their lengths do not matter).

    Returns
    -------
    float
        In [0, 1]; exactly 0 when ``w`` is the teacher times a power of two.

    Examples
    --------
    >>> round(generalization_error([1.0, 0.0], [1.0, 1.0]), 12)  # 45 degrees apart
    0.25
    >>> generalization_error([1.0, 0.0], [-1.0, 0.0])
    1.0
    >>> generalization_error([1.0, 1e-12], [1.0, 0.0]) * np.pi  # 1e-12 rad, not 0
    1e-12
    """
    w, B, nw, nb = _directions(w, teacher)
    u, v = w / nw, B / nb
    theta = 2.0 * np.arctan2(np.linalg.norm(u - v), np.linalg.norm(u + v))
    return float(min(theta / np.pi, 1.0))


def hebb_generalization(alpha: ArrayLike) -> float | NDArray[np.float64]:
    """The large-N learning curve of the Hebb rule ``w = sum_mu y_mu x_mu``.

    ``eps(alpha) = arccos(R) / pi`` with ``R = sqrt(2 alpha / (2 alpha + pi))``:
    along the teacher, ``w`` grows by ``|B . x_mu|`` per example (mean
    ``sqrt(2/pi)``); across it, by a Gaussian vector independent of the label, so
    ``w . B ~ P sqrt(2/pi)`` and ``||w||^2 ~ P^2 (2/pi) + P N``.

    Parameters
    ----------
    alpha : float or array_like
        Examples per weight, ``P / N`` (>= 0).

    Examples
    --------
    >>> hebb_generalization(0.0)
    0.5
    >>> round(hebb_generalization(1.0), 4)
    0.2856
    """
    a = _as_real_array(alpha, "alpha", 0.0)
    # arccos(R) = arctan(sqrt(1 - R^2) / R) = arctan(sqrt(pi / (2 alpha))): no
    # cancellation in 1 - R^2 at large alpha (1e17), no overflow of 2 alpha (1e308).
    with np.errstate(divide="ignore"):
        eps = np.arctan(np.sqrt(np.pi / 2 / a)) / np.pi
    return float(eps) if eps.ndim == 0 else eps


# Replica theory of two zero-training-error students. Integrals over the Gaussian
# measure on a fixed grid: the integrands are smooth and vanish beyond |t| = 12.
_T = np.linspace(-12.0, 12.0, 24001)
_DT = _phi(_T) * (_T[1] - _T[0])


def _H(x: NDArray[np.float64]) -> NDArray[np.float64]:
    return ndtr(-x)  # H(x) = int_x^inf Dt


#: Largest alpha the replica curves accept (:func:`max_margin_generalization` is checked to
#: 1e-6 up to 1e4; the Gibbs and Bayes curves hold their asymptotes to 1e-6 up to 1e5).
MAX_ALPHA = 1e5


def _replica_curve(
    alpha: ArrayLike, name: str, asymptote: str, error_at: Callable[[float], float]
) -> float | NDArray[np.float64]:
    """``error_at(alpha)`` for every alpha > 0 (0.5 at alpha = 0), shaped like ``alpha``.

    The one place where the replica curves check their domain: alpha above
    :data:`MAX_ALPHA` raises a ValueError that names the curve's asymptote.
    """
    a = _as_real_array(alpha, "alpha", 0.0)
    if np.any(a > MAX_ALPHA):
        raise ValueError(
            f"alpha must be <= {MAX_ALPHA:g} for {name}, got {np.max(a):g}; "
            f"use the asymptote {asymptote} there"
        )
    eps = np.array([error_at(float(x)) if x > 0 else 0.5 for x in a.ravel()])
    return float(eps[0]) if a.ndim == 0 else eps.reshape(a.shape)


@functools.lru_cache(maxsize=4096)
def _gibbs_overlap(alpha: float) -> float:
    """R of Gibbs learning: R / sqrt(1 - R) = alpha/pi int Dt exp(-R t^2/2) / H(-sqrt(R) t)."""

    def f(R: float) -> float:
        rhs = alpha / np.pi * np.sum(_DT * np.exp(-0.5 * R * _T**2) / _H(-np.sqrt(R) * _T))
        return R / np.sqrt(1 - R) - rhs

    return brentq(f, 0.0, 1.0 - 1e-15, xtol=1e-15)


def gibbs_generalization(alpha: ArrayLike) -> float | NDArray[np.float64]:
    """Large-N generalisation error of Gibbs learning (a random student of zero training error).

    The replica-symmetric saddle point (Engel and Van den Broeck 2001, eq. 2.42)
    ``R / sqrt(1 - R) = (alpha / pi) int Dt exp(-R t^2 / 2) / H(-sqrt(R) t)``, solved
    for ``R``; ``eps = arccos(R) / pi``, about ``0.625 / alpha`` for large ``alpha``.
    ``alpha`` above :data:`MAX_ALPHA` (1e5) raises a ValueError.

    Examples
    --------
    >>> round(gibbs_generalization(1.0), 3)
    0.338
    """
    return _replica_curve(alpha, "gibbs_generalization", "0.625 / alpha",
                          lambda x: np.arccos(_gibbs_overlap(x)) / np.pi)


def bayes_generalization(alpha: ArrayLike) -> float | NDArray[np.float64]:
    """Large-N generalisation error of the Bayes-optimal student (the floor of all students).

    The Bayes-optimal prediction on a new pattern is the majority vote of the version
    space; for large N it is the prediction of the version space's centre of mass.
    Two independent Gibbs students have the same overlap ``q = R`` with each other as
    with the teacher (the teacher is itself a uniform point of the version space), so
    the centre of mass has overlap ``R / sqrt(q) = sqrt(R)`` with the teacher, where
    ``R`` solves the Gibbs saddle point (:func:`gibbs_generalization`). Hence
    ``eps = arccos(sqrt(R)) / pi``, about ``0.442 / alpha`` (``1 / sqrt(2)`` of Gibbs)
    for large ``alpha``. No student trained on the same examples does better on
    average. ``alpha`` above :data:`MAX_ALPHA` (1e5) raises a ValueError.

    Parameters
    ----------
    alpha : float or array_like
        Examples per weight, ``P / N`` (>= 0).

    Returns
    -------
    float or ndarray
        A float for a scalar ``alpha``, else an array of the same shape.

    Examples
    --------
    >>> round(bayes_generalization(1.0), 3)
    0.254
    >>> bool(bayes_generalization(4.0) < gibbs_generalization(4.0))
    True
    """
    return _replica_curve(alpha, "bayes_generalization", "0.442 / alpha",
                          lambda x: np.arccos(np.sqrt(_gibbs_overlap(x))) / np.pi)


# Gauss-Legendre rule for the panels of _stability_integral.
_GL_X, _GL_W = np.polynomial.legendre.leggauss(24)
_CUT = 12.0  # phi(t) and Phi(-t) are below 1e-32 beyond |t| = 12


def _gauss_legendre(lo: float, hi: float, width: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Nodes and weights of composite Gauss-Legendre on ``[lo, hi]``, panels <= ``width``."""
    n = max(1, math.ceil((hi - lo) / width))
    edges = np.linspace(lo, hi, n + 1)
    half = (edges[1:] - edges[:-1])[:, None] / 2
    nodes = (edges[1:] + edges[:-1])[:, None] / 2 + half * _GL_X
    return nodes.ravel(), (half * _GL_W).ravel()


def _stability_integral(theta: float, kappa: float) -> float:
    """``int_{t<kappa} Dt 2 H(-R t / sqrt(1-R^2)) (kappa - t)^2`` with ``R = cos(theta)``.

    ``2 H(-R t / sqrt(1 - R^2)) = 2 Phi(a t)`` with ``a = cot(theta)``: a step of width
    ``1 / a`` at t = 0, as narrow as ``theta`` (about ``pi eps``) when alpha is large.
    A fixed grid cannot resolve it (the drift of issue 23), so the range is split where
    ``Phi(a t)`` changes: below ``-12 / a`` it vanishes (< 1e-32, dropped), up to
    ``+12 / a`` composite Gauss-Legendre panels of width ``min(1, 1 / a)`` follow the
    step, and beyond it panels of width 1 follow the Gaussian. Every piece is summed
    directly (no difference of large closed-form terms), so the small integrals of
    large alpha keep their relative accuracy.
    """
    a = math.cos(theta) / math.sin(theta)
    lo = max(-_CUT, -_CUT / a)
    # Beyond t = 12 the Gaussian has let go (phi < 1e-32, relative to an integral of at
    # least (kappa - 12)^2 phi-weighted): panels there would add nothing but time, and
    # at small alpha (kappa ~ 1 / sqrt(alpha), 1e6 at alpha = 1e-12) a million of them.
    top = min(kappa, _CUT)
    mid = min(top, _CUT / a)
    total = 0.0
    for left, right, width in ((lo, mid, min(1.0, 1.0 / a)), (mid, top, 1.0)):
        if right > left:
            t, w = _gauss_legendre(left, right, width)
            total += float(np.sum(w * 2 * ndtr(a * t) * _phi(t) * (kappa - t) ** 2))
    return total


def _stability_coefficient(theta: float, kappa: float, alpha: float) -> float:
    """``1 - R^2 - alpha int_{t<kappa} Dt 2 H(-R t / sqrt(1-R^2)) (kappa - t)^2``, ``R = cos(theta)``.

    The coefficient of ``1 / (2 (1 - q))`` in Gardner's entropy with a teacher as the
    replica overlap ``q -> 1``; solutions with stability ``kappa`` and overlap ``R``
    exist while it is positive. In terms of the angle ``theta`` between student and
    teacher (``1 - R^2 = sin^2 theta``), so nothing cancels when ``R`` is near 1.
    """
    return math.sin(theta) ** 2 - alpha * _stability_integral(theta, kappa)


def _stationarity(theta: float, kappa: float, alpha: float) -> float:
    """``d/d theta`` of :func:`_stability_coefficient`, divided by ``2 sin(theta)``.

    With ``s = sin(theta)`` the derivative of the integral has a closed form
    (``phi(t) phi(t cot theta)`` is a Gaussian of width ``s``, whose truncated moments
    are elementary), so the maximising angle is the root of

        ``cos(theta) - (alpha / pi) [s exp(-kappa^2 / (2 s^2)) + kappa sqrt(2 pi) Phi(kappa / s)]``,

    which is positive below the maximising angle and negative above it.
    """
    s = math.sin(theta)
    tail = s * math.exp(-(kappa * kappa) / (2 * s * s)) + kappa * math.sqrt(2 * math.pi) * ndtr(kappa / s)
    # cos(theta) as sin(pi/2 - theta): exactly 0 at the top of the bracket, pi / 2
    return math.sin(math.pi / 2 - theta) - alpha / math.pi * tail


#: Smallest angle searched (theta is about pi / (2 alpha) for large alpha, >= 1.5e-5).
_THETA_MIN = 1e-9


@functools.lru_cache(maxsize=4096)  # widgets and lessons reuse grids
def _max_stability(alpha: float) -> tuple[float, float]:
    """(kappa_max, theta) of the maximally stable student at ``alpha``.

    For each ``kappa`` the best angle is the root of :func:`_stationarity`, not the
    output of a minimiser: near a maximum the coefficient is flat, so an optimiser
    fixes the angle only to about the square root of float64's precision (1e-8), and
    the error curve with it; the root of the derivative is well-conditioned (issue 41:
    a stored table differed from a recomputation by 3e-8 relative).
    """

    def best(kappa: float) -> tuple[float, float]:
        def slope(x: float) -> float:
            return _stationarity(x, kappa, alpha)

        if slope(_THETA_MIN) <= 0:  # pragma: no cover - the maximum is interior for alpha <= 1e5
            theta = _THETA_MIN
        else:
            theta = brentq(slope, _THETA_MIN, math.pi / 2, xtol=1e-300, rtol=4 * np.finfo(float).eps)
        return _stability_coefficient(theta, kappa, alpha), theta

    # kappa_max grows like 1 / sqrt(alpha) as alpha -> 0: widen the bracket until the
    # coefficient changes sign (it is positive at kappa = 0 and falls with kappa).
    lo, hi = 0.0, 10.0
    while best(hi)[0] > 0:
        if hi > 1e8:
            raise ValueError(
                f"alpha={alpha:g} is too small: the maximal stability exceeds 1e8 (about "
                "alpha < 1e-16); the error there is 0.5 to within 1e-8"
            )
        lo, hi = hi, 4 * hi
    kappa = brentq(lambda k: best(k)[0], lo, hi, xtol=1e-14, rtol=1e-13)
    return kappa, best(kappa)[1]


def max_margin_generalization(alpha: ArrayLike) -> float | NDArray[np.float64]:
    """Large-N generalisation error of the maximum-margin (maximally stable) student.

    Gardner's calculation with a teacher, in the limit where the solutions shrink
    to one point: the largest ``kappa`` for which
    ``max_R [1 - R^2 - alpha int_{t<kappa} Dt 2 H(-R t/sqrt(1-R^2)) (kappa - t)^2] = 0``,
    and the maximising ``R``; ``eps = arccos(R) / pi``, about ``0.50 / alpha`` for
    large ``alpha``. Without a teacher (``R = 0``) the condition is Gardner's
    capacity, ``alpha = alpha_c(kappa)``.

    The integral is evaluated piecewise around the step of ``H`` (see
    :func:`_stability_integral`), which keeps the result within a relative 1e-6 of
    the equations up to ``alpha = 1e4``; ``alpha`` above :data:`MAX_ALPHA` (1e5)
    raises a ValueError (use the asymptote ``0.50 / alpha`` there).

    Examples
    --------
    >>> round(max_margin_generalization(1.0), 3)
    0.266
    """
    return _replica_curve(alpha, "max_margin_generalization", "0.50 / alpha",
                          lambda x: _max_stability(x)[1] / np.pi)


@dataclass(frozen=True)
class MaxMarginTheory:
    """The large-N maximally stable student at one ``alpha`` (see :func:`max_margin_theory`).

    Attributes
    ----------
    alpha : float
    kappa : float
        Its stability (margin in units of the pattern entries).
    overlap : float
        ``R``, its normalised overlap with the teacher.
    error : float
        ``arccos(R) / pi``.
    support_fraction : float
        Fraction of the training patterns that end on the margin (support patterns).
    """

    alpha: float
    kappa: float
    overlap: float
    error: float
    support_fraction: float


def max_margin_theory(alpha: float) -> MaxMarginTheory:
    """Stability, overlap, error and support fraction of the maximum-margin student.

    The capacity argument with a teacher: a pattern's stability before the weights
    adapt to it is ``t = R |u| + sqrt(1 - R^2) g`` (``u = B . x``, ``g`` an independent
    standard normal), with density ``2 phi(t) H(-R t / sqrt(1 - R^2))``. Lifting the
    patterns with ``t < kappa`` to ``kappa`` costs ``alpha int_{t<kappa} (kappa - t)^2``
    of the budget ``1 - R^2`` left after the overlap with the teacher is fixed. The
    maximum-margin student has the largest ``kappa`` that some ``R`` can afford, and
    that ``R``; the lifted patterns, a fraction
    ``int_{t<kappa} Dt 2 H(-R t / sqrt(1 - R^2))``, end on the margin.

    Parameters
    ----------
    alpha : float
        Examples per weight, ``0 < alpha <= 1e5``.

    Returns
    -------
    MaxMarginTheory

    Examples
    --------
    >>> th = max_margin_theory(1.0)
    >>> round(th.kappa, 3), round(th.overlap, 3), round(th.support_fraction, 3)
    (0.787, 0.671, 0.624)
    """
    a = _as_real_array(alpha, "alpha", 0.0)
    if a.ndim != 0 or not 0 < float(a) <= MAX_ALPHA:
        raise ValueError(f"alpha must be one number in (0, {MAX_ALPHA:g}], got {alpha!r}")
    kappa, theta = _max_stability(float(a))
    slope = math.cos(theta) / math.sin(theta)  # R / sqrt(1 - R^2)
    lo = max(-_CUT, -_CUT / slope)
    t, w = _gauss_legendre(lo, min(kappa, _CUT), min(1.0, 1.0 / slope))  # nothing beyond t = 12
    fraction = min(1.0, float(np.sum(w * 2 * ndtr(slope * t) * _phi(t))))  # rounding may pass 1
    return MaxMarginTheory(alpha=float(a), kappa=kappa, overlap=math.cos(theta),
                           error=theta / math.pi, support_fraction=fraction)


# ---------------------------------------------------------------------------
# Simulations
# ---------------------------------------------------------------------------


def _as_alphas(alphas: ArrayLike, N: int) -> NDArray[np.float64]:
    a = np.atleast_1d(_as_real_array(alphas, "alphas", 0.0))
    if a.ndim != 1 or a.size == 0:
        raise ValueError("alphas must be a non-empty 1-D list of numbers")
    if np.any(np.round(a * N) < 1):
        raise ValueError(f"alphas: every alpha must give at least one pattern, alpha * N >= 1 (N = {N})")
    entries = float(np.max(a)) * N * N
    if entries > MAX_SIMULATION_ENTRIES:
        raise ValueError(
            f"alphas: alpha = {np.max(a):g} with N = {N} draws about {entries:.3g} pattern entries, "
            f"more than the {MAX_SIMULATION_ENTRIES:.0e} (800 MB) a simulation may hold; use "
            "smaller alphas or N"
        )
    return a


def _refuse_simulation(
    sizes: NDArray[np.int_], N: int, repeats: int, rule: str, max_work: int | None, task: str
) -> None:
    # Memory is bounded by MAX_SIMULATION_ENTRIES; this bounds time, before any work.
    per_entry = 1 if rule == "hebb" else N
    work = repeats * int(sizes.sum()) * N * per_entry
    refuse_work(work, as_limit(max_work, "max_work"), task=task, unit="multiply-adds")


def _as_rule(rule: object) -> str:
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    return str(rule)


@dataclass(frozen=True, eq=False)
class LearningCurve:
    """Simulated generalisation errors of one learning rule.

    Attributes
    ----------
    rule : str
    N : int
    alpha : ndarray, shape (A,)
    errors : ndarray, shape (A, S)
        ``arccos(R) / pi`` of the student, per alpha and per run (teacher and data
        drawn afresh for each run; within a run the data sets are nested: the first
        ``alpha N`` patterns of one stream).
    mean, sem : ndarray, shape (A,)
        Mean over runs and its standard error (sample std / sqrt(S)).
    """

    rule: str
    N: int
    alpha: NDArray[np.float64]
    errors: NDArray[np.float64]

    @property
    def mean(self) -> NDArray[np.float64]:
        return self.errors.mean(axis=1)

    @property
    def sem(self) -> NDArray[np.float64]:
        S = self.errors.shape[1]
        return self.errors.std(axis=1, ddof=1) / np.sqrt(S) if S > 1 else np.full(len(self.alpha), np.nan)


def _student(rule: str, X: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.float64]:
    if rule == "hebb":
        return y @ X
    if rule == "perceptron":
        run = perceptron(X, y, max_epochs=10_000)
        if not run.converged:  # pragma: no cover - teacher data are separable
            raise RuntimeError("the perceptron did not converge on teacher data")
        return run.w
    return max_margin(X, y).w


def learning_curve(
    alphas: ArrayLike,
    N: int,
    *,
    rule: str = "hebb",
    n_runs: int = 10,
    rng: object = None,
    max_work: int | None = MAX_SIMULATION_WORK,
) -> LearningCurve:
    """Teacher-student simulation: generalisation error against ``alpha = P / N``.

    Each run draws a teacher ``B`` (uniform direction) and a stream of Gaussian
    patterns labelled ``y = sign(B . x)``; for every alpha the student is trained on
    the first ``round(alpha N)`` patterns and its error ``arccos(R) / pi`` is exact
    for fresh Gaussian patterns (no test set needed). Students: ``"hebb"``
    (``w = sum y x``), ``"perceptron"`` (the classical algorithm from ``w = 0`` until
    a clean pass: zero training error) and ``"max_margin"`` (the separator through
    the origin with the largest margin). The same ``rng`` gives every rule the same
    teachers and data.

    Parameters
    ----------
    alphas : array_like
        Values of ``P / N`` (each gives ``round(alpha N) >= 1`` patterns; at most
        1e8 pattern entries ``max(alphas) N**2``, :data:`MAX_SIMULATION_ENTRIES`).
    N : int
        Input dimension.
    rule : {"hebb", "perceptron", "max_margin"}
    n_runs : int, default 10
        Independent runs (teachers and data sets) to average over; >= 2 gives
        standard errors.
    rng : None, int or numpy.random.Generator
    max_work : int or None, default 10**10
        Refuse, before any work, a simulation estimated to need more multiply-adds
        (``n_runs`` times the sum over alphas of ``P N``, times ``N`` for the
        perceptron and max-margin rules); None lifts the limit.

    Returns
    -------
    LearningCurve

    Examples
    --------
    >>> lc = learning_curve([1.0, 4.0], 50, rule="hebb", n_runs=4, rng=0)
    >>> lc.errors.shape, bool(lc.mean[1] < lc.mean[0])
    ((2, 4), True)
    """
    N = as_count(N, "N", 1)
    a = _as_alphas(alphas, N)
    rule = _as_rule(rule)
    n_runs = as_count(n_runs, "n_runs", 1)
    gen = as_rng(rng)
    sizes = np.round(a * N).astype(int)
    _refuse_simulation(sizes, N, n_runs, rule, max_work,
                       task=f"learning_curve(N={N}, rule={rule!r}, n_runs={n_runs})")
    errors = np.empty((a.size, n_runs))
    with _one_blas_thread():
        for r in range(n_runs):
            B = gen.standard_normal(N)
            X = gen.standard_normal((int(sizes.max()), N))
            y = np.where(X @ B > 0, 1.0, -1.0)
            for i, P in enumerate(sizes):
                w = _student(rule, X[:P], y[:P])
                errors[i, r] = generalization_error(w, B) if np.any(w) else 0.5
    return LearningCurve(rule=rule, N=N, alpha=a, errors=errors)


@dataclass(frozen=True, eq=False)
class CapacitySample:
    """Best stabilities of random labellings, for the capacity Monte Carlo.

    Attributes
    ----------
    N : int
    alpha : ndarray, shape (A,)
    margins : ndarray, shape (A, S)
        For each alpha and sample: the best stability ``max_margin(X, y).gamma`` of
        the sample's first ``P = round(alpha N)`` patterns (standard normal entries,
        uniformly random labels), or ``-inf`` when they cannot be separated at all.
    """

    N: int
    alpha: NDArray[np.float64]
    margins: NDArray[np.float64]

    def fraction(self, kappa: float = 0.0) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Fraction of samples storable with stability ``kappa``, and its standard error.

        Stored means best stability ``>= kappa`` (for ``kappa = 0``: separable).
        """
        if not isinstance(kappa, numbers.Real) or isinstance(kappa, bool) or not 0 <= kappa < math.inf:
            raise ValueError(f"kappa must be a finite real number >= 0, got {kappa!r}")
        stored = self.margins >= kappa if kappa > 0 else self.margins > -np.inf
        f = stored.mean(axis=1)
        return f, np.sqrt(f * (1 - f) / self.margins.shape[1])

    def crossing(self, kappa: float = 0.0) -> float:
        """The alpha at which the stored fraction falls through 1/2 (linear interpolation).

        NaN when the fraction does not cross 1/2 on the sampled alphas.
        """
        f, _ = self.fraction(kappa)
        below = np.flatnonzero(f < 0.5)
        if below.size == 0 or below[0] == 0:
            return float("nan")
        i = below[0]
        a0, a1, f0, f1 = self.alpha[i - 1], self.alpha[i], f[i - 1], f[i]
        return float(a0 + (f0 - 0.5) * (a1 - a0) / (f0 - f1))


def _best_stability(X: NDArray[np.float64], y: NDArray[np.float64]) -> float:
    try:
        return max_margin(X, y).gamma
    except MarginResolutionError:  # pragma: no cover - margin ~1e-12 of the data's scale
        return 0.0  # separable (max_margin agrees with is_separable), margin ~0
    except ValueError:
        return -np.inf  # not separable


def capacity_sample(
    alphas: ArrayLike,
    N: int,
    *,
    n_samples: int = 50,
    rng: object = None,
    max_work: int | None = MAX_SIMULATION_WORK,
) -> CapacitySample:
    """Monte Carlo of Gardner's capacity: best stabilities of random labellings.

    Each of ``n_samples`` independent samples is a stream of patterns (entries
    standard normal, so norms about ``sqrt(N)``) with uniformly random labels; for
    each alpha its first ``P = round(alpha N)`` patterns are taken (so within a
    sample, the best stability can only fall as alpha grows). The best stability
    ``max_w min_mu y_mu w . x_mu / ||w||`` of each set is computed by
    :func:`perclib.max_margin` (``-inf`` if no separator exists). The fraction
    storable at stability ``kappa`` is then read off for any ``kappa``
    (:meth:`CapacitySample.fraction`), without solving anything again. As ``N``
    grows it tends to 1 below ``gardner_capacity(kappa)`` and to 0 above. A sample
    estimated to need more than ``max_work`` multiply-adds (``n_samples`` times the
    sum over alphas of ``P N**2``; default 10**10, about half a minute) is refused
    before any work; ``max_work=None`` lifts the limit.

    Examples
    --------
    >>> s = capacity_sample([1.0, 3.0], 20, n_samples=10, rng=0)
    >>> s.fraction(0.0)[0].tolist()   # P = 20 always separable, P = 60 never here
    [1.0, 0.0]
    """
    N = as_count(N, "N", 1)
    a = _as_alphas(alphas, N)
    n_samples = as_count(n_samples, "n_samples", 1)
    gen = as_rng(rng)
    margins = np.empty((a.size, n_samples))
    sizes = np.round(a * N).astype(int)
    _refuse_simulation(sizes, N, n_samples, "max_margin", max_work,
                       task=f"capacity_sample(N={N}, n_samples={n_samples})")
    with _one_blas_thread():
        for s in range(n_samples):
            X = gen.standard_normal((int(sizes.max()), N))
            y = gen.choice(np.array([-1.0, 1.0]), size=int(sizes.max()))
            first_failure = np.inf  # fewest patterns of this stream found non-separable
            for i, P in enumerate(sizes):
                # More patterns never make a non-separable set separable: skip the solve.
                margins[i, s] = -np.inf if P >= first_failure else _best_stability(X[:P], y[:P])
                if margins[i, s] == -np.inf:
                    first_failure = min(first_failure, P)
    return CapacitySample(N=N, alpha=a, margins=margins)
