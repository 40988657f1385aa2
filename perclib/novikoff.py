"""The quantities of Novikoff's convergence proof, computed along a real perceptron run.

Novikoff's theorem. Let ``u`` be a unit vector (``||u|| = 1``) with
``y_mu (u.x_mu) >= gamma > 0`` for every pattern, and ``R = max_mu ||x_mu||`` (the
largest norm measured from the origin, not the diameter of the data). The perceptron
started at ``w_0 = 0`` makes at most ``R^2 / gamma^2`` updates (mistakes), whatever
the order of presentation and whatever the learning rate ``eta > 0``.

The proof follows two numbers after update ``k``:

* the overlap grows at least linearly: ``u.w_k >= u.w_0 + k eta gamma``;
* the squared norm grows at most linearly: ``||w_k||^2 <= ||w_0||^2 + k eta^2 R^2``
  (the cross term ``2 eta y (w.x)`` is ``<= 0`` because updates happen only on mistakes).

With ``w_0 = 0`` they give ``cos angle(u, w_k) >= sqrt(k) gamma / R``; a cosine is at
most 1, hence ``k <= R^2 / gamma^2``. From any start ``w_0`` the same two lines and
``u.w_0 >= -||w_0||`` give ``k <= R^2 / gamma^2 + 2 ||w_0|| / (eta gamma)``
(:func:`mistake_bound` with ``w0=``); the constant 2 is the best these two
inequalities allow. With a threshold, apply all of this to the augmented patterns
``(x, 1)`` and a unit augmented separator ``(w, -theta) / ||(w, -theta)||``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import (
    as_labels,
    as_patterns,
    as_positive_float,
    as_weights,
    exponent,
    norm,
    refuse_overflow,
    row_norms,
    unit_scaled,
)
from perclib.train import PerceptronResult
from perclib.units import augment


def _homogeneous(X: ArrayLike, threshold: bool) -> NDArray[np.float64]:
    if not isinstance(threshold, bool | np.bool_):
        raise TypeError(f"threshold must be True or False, got {threshold!r}")
    return augment(X) if threshold else as_patterns(X)


def _unit(u: ArrayLike, dim: int) -> NDArray[np.float64]:
    u = unit_scaled(as_weights(u, dim, name="u"))  # exact rescaling: any size of u works
    length = float(np.linalg.norm(u))
    if length == 0.0:
        raise ValueError("u must be a non-zero vector (its direction is the separator)")
    return u / length


def radius(X: ArrayLike, *, threshold: bool = False) -> float:
    """``R = max_mu ||x_mu||``, the largest pattern norm measured from the origin.

    With ``threshold=True`` the norms are those of the augmented patterns ``(x, 1)``,
    so ``R^2 = 1 + max ||x||^2``. This is not the diameter of the data: moving every
    pattern by the same vector keeps the diameter but changes ``R``.

    Parameters
    ----------
    X : array_like, shape (P, N)
    threshold : bool, default False

    Examples
    --------
    >>> radius([[3.0, 4.0], [1.0, 0.0]])
    5.0
    >>> round(radius([[3.0, 4.0]], threshold=True) ** 2, 12)
    26.0
    """
    if not isinstance(threshold, bool | np.bool_):
        raise TypeError(f"threshold must be True or False, got {threshold!r}")
    top = float(np.max(row_norms(as_patterns(X))))  # no overflow for patterns of 1e200
    return refuse_overflow(math.hypot(1.0, top) if threshold else top, "the radius R")


def separator_margin(u: ArrayLike, X: ArrayLike, y: ArrayLike, *, threshold: bool = False) -> float:
    """``gamma = min_mu y_mu (u.x_mu) / ||u||``: the margin of the separator ``u`` on the data.

    Positive exactly when ``u`` separates every pattern strictly. With
    ``threshold=True``, ``u`` is an augmented separator ``(w, -theta)`` of length
    ``N + 1`` and is normalised as a whole (this is the margin the augmented bound
    needs; the geometric margin in the plane is ``gamma * ||u|| / ||w||``).

    Examples
    --------
    >>> separator_margin([2.0, 0.0], [[1.0, 5.0], [-3.0, 1.0]], [1, -1])
    1.0
    >>> separator_margin([1.0, -1.0], [[2.0], [0.0]], [1, -1], threshold=True)  # w=1, theta=1
    0.7071067811865475
    """
    Z = _homogeneous(X, threshold)
    y = as_labels(y, Z.shape[0])
    u = _unit(u, Z.shape[1])
    # Z scaled by a power of two (exact) so that the products cannot overflow.
    with np.errstate(over="ignore"):
        gamma = float(np.ldexp(np.min(y * (unit_scaled(Z) @ u)), exponent(Z)))
    return refuse_overflow(gamma, "the margin gamma")


def mistake_bound(
    u: ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    *,
    threshold: bool = False,
    w0: ArrayLike | None = None,
    eta: float = 1.0,
    sharp: bool = False,
) -> float:
    """Novikoff's bound on the number of updates: ``R^2 / gamma^2`` from ``w_0 = 0``.

    ``R`` is :func:`radius`, ``gamma`` is :func:`separator_margin` of ``u``
    (normalised here, so any positive multiple of a separator gives the same bound).
    The tightest bound uses the maximum-margin separator.

    From a start ``w0 != 0`` with learning rate ``eta`` the bound is
    ``R^2 / gamma^2 + 2 ||w0|| / (eta gamma)``. It follows from
    ``u.w0 + k eta gamma <= u.w_k <= ||w_k|| <= sqrt(||w0||^2 + k eta^2 R^2)``:
    with ``b = u.w0 / (eta gamma)``, ``a = ||w0|| / (eta gamma)`` and
    ``B = R^2 / gamma^2`` the largest ``k`` these allow is the root
    ``k* = ((B - 2b) + sqrt((B - 2b)^2 + 4 (a^2 - b^2))) / 2``, which decreases with
    ``b`` and equals ``B + 2a`` at ``b = -a``. ``sharp=True`` returns ``k*`` itself
    (it uses the direction of ``w0``, not only its length).

    Parameters
    ----------
    u : array_like, shape (N,) (``N + 1`` with a threshold)
        A separator of the data.
    X, y : patterns (rows) and labels -1/+1.
    threshold : bool, default False
        Bound for the perceptron on the augmented patterns ``(x, 1)``; ``u`` and ``w0``
        are then augmented vectors.
    w0 : array_like, optional
        The start of the run (default: zero, and then ``eta`` plays no role).
    eta : float, default 1
        The learning rate (> 0).
    sharp : bool, default False
        Return the exact root ``k*`` instead of ``B + 2a``.

    Raises
    ------
    ValueError
        If ``u`` does not separate the data with a positive margin (no bound then),
        ``w0`` has the wrong length or ``eta <= 0``.

    Examples
    --------
    >>> round(mistake_bound([1.0, 1.0, 1.0], [[1, 0, 0], [0, 1, 0], [0, 0, 1]], [1, 1, 1]), 12)
    3.0

    The bound is a real number computed in floating point: compare counts with it
    up to rounding (here the exact value is 3, the float may be a hair below).
    One pattern ``x = 1`` (label +1) and the start ``w0 = -4``: ``1 + 2 * 4 / eta``.

    >>> mistake_bound([1.0], [[1.0]], [1], w0=[-4.0], eta=0.5)
    17.0
    >>> mistake_bound([1.0], [[1.0]], [1], w0=[-4.0], eta=0.5, sharp=True)
    17.0
    >>> mistake_bound([1.0], [[1.0]], [1], w0=[4.0], eta=0.5, sharp=True)  # already right
    0.0
    """
    gamma = separator_margin(u, X, y, threshold=threshold)
    if gamma <= 0:
        raise ValueError(
            f"u does not separate the data strictly (its margin is {gamma:.6g} <= 0), "
            "so Novikoff's theorem gives no bound"
        )
    if not isinstance(sharp, bool | np.bool_):
        raise TypeError(f"sharp must be True or False, got {sharp!r}")
    eta = as_positive_float(eta, "eta")
    B = refuse_overflow((radius(X, threshold=threshold) / gamma) ** 2, "the bound R^2 / gamma^2")
    if w0 is None:
        return B
    dim = _homogeneous(X, threshold).shape[1]
    w0 = as_weights(w0, dim, name="w0")
    a = norm(w0) / eta / gamma
    if not sharp:
        return B + 2.0 * a
    b = float(w0 @ _unit(u, dim)) / (eta * gamma)
    c = B - 2.0 * b
    # a^2 - b^2 >= 0 by Cauchy-Schwarz; clip the rounding when w0 is parallel to u.
    return (c + float(np.sqrt(c * c + 4.0 * max(a * a - b * b, 0.0)))) / 2.0


@dataclass(frozen=True, eq=False)
class NovikoffTrace:
    """The proof's quantities after each update ``k = 0 .. n_updates`` of one run.

    Attributes
    ----------
    k : ndarray of int, shape (n_updates + 1,)
        Update counter, 0 (the start) included.
    overlap : ndarray
        ``u.w_k`` with the unit separator ``u``.
    norm2 : ndarray
        ``||w_k||^2``.
    cos : ndarray
        ``u.w_k / ||w_k||``, the cosine of the angle between ``w_k`` and ``u`` (NaN where ``w_k = 0``).
    lower : ndarray
        Guaranteed lower bound on the overlap, ``u.w_0 + k eta gamma``.
    upper : ndarray
        Guaranteed upper bound on the squared norm, ``||w_0||^2 + k eta^2 R^2``.
    cos_lower : ndarray
        ``lower / sqrt(upper)``, a lower bound on ``cos`` wherever ``lower >= 0``
        (NaN elsewhere, and where ``upper = 0``). From ``w_0 = 0`` it is ``sqrt(k) gamma / R``.
    R, gamma, eta : float
        Radius of the patterns the perceptron saw, margin of ``u`` on them, learning rate.
    u : ndarray
        The unit separator.
    """

    k: NDArray[np.int64]
    overlap: NDArray[np.float64]
    norm2: NDArray[np.float64]
    cos: NDArray[np.float64]
    lower: NDArray[np.float64]
    upper: NDArray[np.float64]
    cos_lower: NDArray[np.float64]
    R: float
    gamma: float
    eta: float
    u: NDArray[np.float64]

    @property
    def n_updates(self) -> int:
        """Number of updates in the run."""
        return int(self.k[-1])

    @property
    def bound(self) -> float:
        """The most updates the run could make: ``R^2/gamma^2 + 2 ||w_0|| / (eta gamma)``.

        From ``w_0 = 0`` (``upper[0] = ||w_0||^2 = 0``) this is Novikoff's ``R^2 / gamma^2``.
        """
        with np.errstate(over="ignore"):
            start = float(np.sqrt(self.upper[0])) / (self.eta * self.gamma)
            ratio = self.R / self.gamma
            total = ratio * ratio + 2.0 * start  # float ** would raise OverflowError; * gives inf
        if not math.isfinite(total):
            raise ValueError(
                f"u: its margin gamma = {self.gamma:.3g} on patterns of radius R = {self.R:.3g} "
                f"is so thin that the bound R^2/gamma^2 (R/gamma = {ratio:.3g}, squared) is "
                "beyond float64's range (about 1.8e308): the theorem allows that many updates, "
                "a number no float holds; use a separator with a wider margin (max_margin "
                "gives the widest)"
            )
        return total

    def holds(self, rtol: float = 1e-12) -> bool:
        """True when both inequalities of the proof and ``cos <= 1`` hold at every ``k``.

        ``rtol`` allows for rounding, relative to the size of the bound: a real number
        >= 0.
        """
        if isinstance(rtol, bool) or not isinstance(rtol, numbers.Real):
            raise TypeError(
                f"rtol must be a real number >= 0 (a relative tolerance such as 1e-12), "
                f"got {type(rtol).__name__} {rtol!r}"
            )
        if not (math.isfinite(float(rtol)) and rtol >= 0):
            raise ValueError(f"rtol must be a finite number >= 0, got {rtol!r}")
        rtol = float(rtol)
        ok_lower = np.all(self.overlap >= self.lower - rtol * (1.0 + np.abs(self.lower)))
        ok_upper = np.all(self.norm2 <= self.upper + rtol * (1.0 + np.abs(self.upper)))
        cos = self.cos[~np.isnan(self.cos)]
        return bool(ok_lower and ok_upper and np.all(cos <= 1.0 + rtol))


def novikoff_trace(result: PerceptronResult, u: ArrayLike) -> NovikoffTrace:
    """The proof's two inequalities, update by update, for a finished perceptron run.

    Parameters
    ----------
    result : PerceptronResult
        A run of :func:`perclib.perceptron`. ``R`` and ``gamma`` are measured on the
        patterns that run saw, so for a unit with a threshold run the perceptron on
        ``augment(X)`` and pass an augmented ``u``.
    u : array_like, shape (N,)
        A separator of the data (normalised here).

    Raises
    ------
    ValueError
        If ``u`` does not separate the run's data strictly.

    Examples
    --------
    >>> from perclib import perceptron
    >>> X = [[1.0, 0.0], [0.0, 1.0]]
    >>> tr = novikoff_trace(perceptron(X, [1, 1]), [1.0, 1.0])
    >>> tr.norm2.tolist(), tr.upper.tolist(), round(tr.bound, 9)
    ([0.0, 1.0, 2.0], [0.0, 1.0, 2.0], 2.0)
    """
    if not isinstance(result, PerceptronResult):
        raise TypeError(f"result must be a PerceptronResult, got {type(result).__name__}")
    # The run keeps the (validated) patterns and labels it was trained on.
    X, y = result.X, result.y
    unit = _unit(u, X.shape[1])
    gamma = float(np.min(y * (X @ unit)))
    if gamma <= 0:
        raise ValueError(
            f"u does not separate the run's data strictly (margin {gamma:.6g} <= 0)"
        )
    R = radius(X)
    W = result.weights
    k = np.arange(W.shape[0], dtype=np.int64)
    overlap = W @ unit
    with np.errstate(over="ignore", under="ignore"):
        norm2 = np.einsum("ij,ij->i", W, W)
        bound2 = R * R  # float ** would raise OverflowError; * gives inf
    lost = (norm2 == 0) & np.any(W != 0, axis=1)
    if not np.all(np.isfinite(norm2)) or not 0 < bound2 < math.inf or np.any(lost):
        raise ValueError(
            "result: the squared norms ||w_k||^2 and R^2 of this run overflow or underflow "
            "float64 (patterns of size about 1e154 or more, or 1e-154 or less); rescale "
            "the patterns (the trace only changes by a factor)"
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        cos = np.where(norm2 > 0, overlap / np.sqrt(norm2), np.nan)
        lower = float(result.w0 @ unit) + k * result.eta * gamma
        upper = float(result.w0 @ result.w0) + k * result.eta**2 * R**2
        cos_lower = np.where((upper > 0) & (lower >= 0), lower / np.sqrt(upper), np.nan)
    return NovikoffTrace(
        k=k, overlap=overlap, norm2=norm2, cos=cos, lower=lower, upper=upper,
        cos_lower=cos_lower, R=R, gamma=gamma, eta=float(result.eta), u=unit,
    )
