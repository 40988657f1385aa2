"""Algorithms that look for a separator with a *large* margin, with full traces.

Three classical rules, all for hyperplanes through the origin (for a threshold,
train on :func:`perclib.augment` patterns; note that the constant input then makes
the bias part of the weight vector, so its size is penalised too and the
"augmented" maximum margin is in general *smaller* than the margin of the best
affine hyperplane, :func:`perclib.max_margin` with ``threshold=True``).

* :func:`margin_perceptron`: the perceptron, but it also updates on patterns that
  are correct with too little room, ``y (w.x) <= beta``.
* :func:`minover`: Krauth and Mezard's MinOver, which always updates on the pattern
  with the smallest stability ``y (w.x)``.
* :func:`adatron`: Anlauf and Biehl's AdaTron, coordinate ascent on the dual
  problem of the maximum-margin separator, in terms of embedding strengths.

All three write the weights as ``w = w0 + sum_mu a_mu y_mu x_mu`` with embedding
strengths ``a_mu >= 0`` (``w0 = 0`` except for the margin perceptron on request).
This gives a *certificate*: for any unit separator ``u`` with margin ``gamma``,
``u.w = sum_mu a_mu y_mu (u.x_mu) >= gamma sum_mu a_mu``, and ``u.w <= ||w||``, so

    margin(w)  <=  gamma_max  <=  ||w|| / sum_mu a_mu.

The left side is what the current weights achieve, the right side an upper bound
on what any separator can achieve; their gap is a proven distance to the optimum
(it is zero exactly at the maximum-margin solution). MinOver and AdaTron stop when
the relative gap falls below ``tol``.

Finally, :func:`direction_margins` and :func:`admissible_arc` describe the family
H_gamma of separators with margin at least gamma in the plane (lesson 6).
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._exact import exact_margin_signs
from perclib._validation import (
    as_count,
    as_labels,
    as_patterns,
    as_positive_float,
    as_real,
    exponent,
    row_norms,
    unit_scaled,
)
from perclib.train._budget import MAX_WORK, allowed, as_budget, warn_spent
from perclib.train.perceptron import _run_epochs, _training_inputs

# Rows of the weight trace processed at a time when computing margins over time.
_CHUNK = 2048


@dataclass(frozen=True, eq=False)
class LargeMarginResult:
    """What a large-margin training run did, update by update.

    Every update has the form ``w <- w + c * y_i * x_i`` (a change ``c`` of the
    embedding strength of pattern ``i``), so the whole run is stored as the pairs
    ``(indices[k], coefficients[k])`` and the weights are rebuilt from them.

    Attributes
    ----------
    algorithm : str
        ``"margin_perceptron"``, ``"minover"`` or ``"adatron"``.
    w : ndarray, shape (N,)
        Final weights.
    converged : bool
        Margin perceptron: the last epoch made no update (every ``y (w.x) > beta``).
        MinOver, AdaTron: the certified relative gap to the maximum margin reached
        ``tol`` (see :attr:`gap`).
    iterations : int
        Epochs (margin perceptron, AdaTron) or steps (MinOver) performed.
    indices : ndarray of int, shape (n_updates,)
        The pattern behind each update, in order.
    coefficients : ndarray, shape (n_updates,)
        Change of that pattern's strength at each update (``eta`` for the margin
        perceptron, 1 for MinOver, of either sign for AdaTron).
    strengths : ndarray, shape (P,)
        Embedding strengths ``a`` with ``w = w0 + sum_mu a_mu y_mu x_mu``, all >= 0.
    w0 : ndarray, shape (N,)
        Starting weights.
    epoch_ends : ndarray of int, shape (iterations,), or None
        AdaTron only: the number of updates made by the end of each sweep, so
        ``margins[epoch_ends]`` is the margin after each sweep (None otherwise).
    out_of_budget : bool
        True when the work budget (``max_work``) stopped the run before its own limit
        (``max_epochs`` or ``max_steps``); ``converged`` is then False.
    """

    algorithm: str
    w: NDArray[np.float64]
    converged: bool
    iterations: int
    indices: NDArray[np.intp]
    coefficients: NDArray[np.float64]
    strengths: NDArray[np.float64]
    w0: NDArray[np.float64]
    _X: NDArray[np.float64] = field(repr=False)
    _y: NDArray[np.float64] = field(repr=False)
    epoch_ends: NDArray[np.int64] | None = field(default=None, repr=False)
    out_of_budget: bool = False

    @property
    def n_updates(self) -> int:
        """Number of updates made in the whole run."""
        return int(self.indices.size)

    @property
    def support(self) -> NDArray[np.intp]:
        """Patterns with a positive embedding strength (for AdaTron: the support patterns)."""
        return np.flatnonzero(self.strengths > 0).astype(np.intp)

    @cached_property
    def weights(self) -> NDArray[np.float64]:
        """Weights after each update, the start included: shape ``(n_updates + 1, N)``."""
        steps = (self.coefficients * self._y[self.indices])[:, None] * self._X[self.indices]
        return np.cumsum(np.vstack([self.w0[None, :], steps]), axis=0)

    @cached_property
    def margins(self) -> NDArray[np.float64]:
        """Normalised margin ``min_mu y_mu (w.x_mu) / ||w||`` after each update.

        NaN where the weights are zero (no hyperplane). Shape ``(n_updates + 1,)``.
        Weights that separate the data with a margin below float64's range (patterns of
        1e200 and 1e-200 together) raise :class:`perclib.geometry.MarginResolutionError`
        rather than report a margin of 0.
        """
        return _normalised_margins(self.weights, self._X, self._y, self.algorithm)

    @cached_property
    def upper_bounds(self) -> NDArray[np.float64]:
        """The certificate ``||w|| / sum_mu a_mu >= gamma_max`` after each update.

        Valid when the data are separable and the run started from ``w0 = 0``
        (otherwise, and before the first update, NaN). Shape ``(n_updates + 1,)``.
        """
        out = np.full(self.weights.shape[0], np.nan)
        if np.any(self.w0 != 0):
            return out
        # Total strength after each update: the running sum of the coefficients.
        total = np.concatenate([[0.0], np.cumsum(self.coefficients)])
        norms = row_norms(self.weights)
        ok = total > 0
        out[ok] = norms[ok] / total[ok]
        return out

    @property
    def margin(self) -> float:
        """Normalised margin of the final weights (NaN if they are zero)."""
        return float(self.margins[-1])

    @property
    def gap(self) -> float:
        """Certified relative distance to the optimum: ``1 - margin / upper_bound`` (final weights)."""
        upper = float(self.upper_bounds[-1])
        return 1.0 - self.margin / upper if upper > 0 else float("nan")

    def __repr__(self) -> str:
        state = "converged" if self.converged else "did NOT converge"
        state += " (work budget spent)" if self.out_of_budget else ""
        return (
            f"LargeMarginResult({self.algorithm}, {state} after {self.iterations} iteration(s), "
            f"{self.n_updates} update(s), w={np.array2string(self.w, precision=4)})"
        )


class MarginWarning(RuntimeWarning):
    """A run's weights are right, but their margin is below float64's normal range."""


def _normalised_margins(
    W: NDArray[np.float64], X: NDArray[np.float64], y: NDArray[np.float64], who: str,
    final: bool = False,
) -> NDArray[np.float64]:
    """``min_mu y_mu (w.x_mu) / ||w||`` for every row ``w`` of ``W`` (NaN for ``w = 0``).

    Each pattern is scaled by its own power of two, so that a pattern 1e-400 times the
    largest is not flushed to zero before its margin is taken; each margin is scaled
    back exactly. A weight vector whose margins are all positive but whose smallest is
    below float64's range raises MarginResolutionError: 0 would say it touches a pattern.
    """
    out = np.empty(W.shape[0])
    top = np.max(np.abs(X), axis=1)
    e = np.where(top > 0, np.frexp(top)[1], 0)
    Xr = np.ldexp(X, -e[:, None])  # each row's largest entry in [1/2, 1): exact
    for start in range(0, out.size, _CHUNK):
        Wk = unit_scaled(W[start : start + _CHUNK])  # the margin ignores |w|
        norms = np.linalg.norm(Wk, axis=1)
        with np.errstate(invalid="ignore", divide="ignore", under="ignore", over="ignore"):
            R = (Wk @ Xr.T) * y / norms[:, None]  # margins in each row's own units
            T = np.ldexp(R, e[None, :])
        worst = np.min(T, axis=1)
        # Below the smallest normal float64 a margin has lost its precision, or is 0.
        doubt = np.flatnonzero((norms > 0) & (worst < np.finfo(np.float64).tiny))
        if doubt.size:
            # A margin of 0 must be a pattern on the hyperplane (or beyond it), not a
            # positive margin lost to underflow: the signs are decided exactly.
            signs = exact_margin_signs(X, y, W[start + doubt])
            lost = doubt[np.all(signs > 0, axis=1)]
            if lost.size:
                from perclib.geometry import MarginResolutionError

                which = "final weights" if final else f"weights after update {start + int(lost[0])}"
                raise MarginResolutionError(
                    f"{who}: its {which} separate every "
                    "pattern of X, but their margin is below float64's normal range (about "
                    "2e-308, where it would lose its precision or round to 0): "
                    f"X's patterns range from {np.min(top[top > 0]):.3g} to {np.max(top):.3g} "
                    "in size, more than float64 can resolve a margin for (max_margin refuses "
                    "such data too); rescale X or drop its tiniest patterns"
                )
        out[start : start + _CHUNK] = np.where(norms > 0, worst, np.nan)
    return out


def _far_exponent(X: NDArray[np.float64]) -> int:
    """The power of two to divide X by: 0 for moderate data, else its size (exact scaling)."""
    e = exponent(X)
    return e if abs(e) > 64 else 0


def _as_nonnegative_float(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = as_real(value, name)
    if value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    return value


def _as_tol(tol: object) -> float:
    tol = as_positive_float(tol, "tol")
    if tol >= 1:
        raise ValueError(f"tol is a relative gap and must be < 1, got {tol}")
    return tol


def _certified(w: NDArray[np.float64], total: float, worst: float, tol: float, shift: int = 0) -> bool:
    """True when ``margin(w) > 0`` is within relative ``tol`` of the upper bound ``||w|| / total``.

    ``worst`` is the smallest stability in units where the true one is ``worst * 2**shift``
    relative to ``w`` (the callers' exact power-of-two scalings); ``shift = 0``: as they are.
    """
    norm = float(np.linalg.norm(w))
    if worst <= 0 or norm == 0 or total <= 0:
        return False
    return 1.0 - float(np.ldexp((worst / norm) / (norm / total), shift)) <= tol


# ---------------------------------------------------------------------------
# The perceptron with margin
# ---------------------------------------------------------------------------


def margin_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    beta: float,
    eta: float = 1.0,
    w0: ArrayLike | None = None,
    max_epochs: int = 1000,
    order: str = "cyclic",
    rng: object = None,
    max_work: int | None = MAX_WORK,
) -> LargeMarginResult:
    """The perceptron with margin: update whenever ``y (w.x) <= beta``.

    ``beta = 0`` is the classical perceptron. Note that ``beta`` is compared with the
    *unnormalised* stability ``y (w.x)``, whose scale grows with ``||w||``, i.e. with
    ``eta`` and the pattern norms: from ``w0 = 0`` the run depends on ``beta`` and ``eta``
    only through ``beta / eta``, which is large or small compared with ``R^2``
    (``R = max ||x||``).

    Guarantee (from ``w0 = 0``, separable data with maximum margin ``gamma``): the
    proof of Novikoff's theorem goes through with ``||w||^2`` growing by at most
    ``2 eta beta + eta^2 R^2`` per update, which gives

    * at most ``(R^2 + 2 beta / eta) / gamma^2`` updates, and
    * a final margin ``> gamma * beta / (2 beta + eta R^2)``,

    so for ``beta >> eta R^2`` at least (nearly) half of the maximum margin is
    guaranteed. In practice the margin is often much closer to ``gamma``.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    beta : float
        Required stability, >= 0 (keyword only: there is no natural default).
    eta : float, default 1
        Learning rate (> 0).
    w0 : array_like, shape (N,), optional
        Starting weights; zeros by default (the guarantees above assume zeros).
    max_epochs : int, default 1000
        Upper limit on passes through the data; non-separable data stop here with
        ``converged=False``.
    order : {"cyclic", "random"}
        Present patterns 0..P-1 every epoch, or in a fresh seeded permutation each epoch.
    rng : seed or Generator, optional
        Used only with ``order="random"``.
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds, an epoch costing ``P N``; as in
        :func:`perclib.perceptron`.

    Returns
    -------
    LargeMarginResult

    Examples
    --------
    >>> res = margin_perceptron([[1.0, 0.0], [0.0, 1.0]], [1, 1], beta=1.0)
    >>> res.converged, res.w.tolist()
    (True, [2.0, 2.0])
    """
    X, y, eta, w_start, max_epochs, gen = _training_inputs(X, y, eta, w0, max_epochs, order, rng)
    beta = _as_nonnegative_float(beta, "beta")
    max_work = as_budget(max_work)
    P = X.shape[0]
    w, updates, converged, spent = _run_epochs(
        X, y, w_start, eta, max_epochs, gen, beta, max_work=max_work, name="margin_perceptron"
    )
    epochs = len(updates)
    indices = np.concatenate(updates).astype(np.intp)
    return LargeMarginResult(
        algorithm="margin_perceptron",
        w=w,
        converged=converged,
        iterations=epochs,
        indices=indices,
        coefficients=np.full(indices.size, eta),
        strengths=eta * np.bincount(indices, minlength=P).astype(np.float64),
        w0=w_start,
        _X=X,
        _y=y,
        out_of_budget=spent,
    )


# ---------------------------------------------------------------------------
# MinOver (Krauth & Mezard 1987)
# ---------------------------------------------------------------------------


def minover(
    X: ArrayLike,
    y: ArrayLike,
    *,
    max_steps: int = 10_000,
    tol: float = 1e-3,
    max_work: int | None = MAX_WORK,
) -> LargeMarginResult:
    """MinOver: from ``w = 0``, always update on the pattern of minimal stability.

    Each step computes the stabilities ``h_mu = y_mu (w.x_mu)``, picks the smallest
    (the first one on ties) and adds ``y_mu x_mu`` to ``w``. Unlike the perceptron it
    keeps updating after the data are separated: for separable data the normalised
    margin ``min_mu h_mu / ||w||`` converges to the maximum margin (Krauth & Mezard,
    1987), but only asymptotically, and slowly.

    The run stops when the certified gap (module docstring) satisfies
    ``1 - margin / (||w|| / steps) <= tol`` (``converged=True``), or after
    ``max_steps`` steps (``converged=False``; always so for non-separable data).

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    max_steps : int, default 10000
        Upper limit on the number of updates.
    tol : float, default 1e-3
        Relative gap to the maximum margin at which to stop, in (0, 1).
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds, a step costing ``(P + 1) N`` (the stabilities of
        every pattern): the run stops after the last step that fits, with
        ``out_of_budget=True`` and a :class:`perclib.train.WorkBudgetWarning`; None: no
        limit but ``max_steps``.

    Returns
    -------
    LargeMarginResult
        Every step is an update, so ``iterations == n_updates``. Weights that separate
        the data with a margin below float64's normal range (patterns of 1e200 and
        1e-200 together) come with a ``MarginWarning``, and their ``margin`` raises
        :class:`perclib.geometry.MarginResolutionError`, as :func:`perclib.max_margin`
        does on such data: no float64 holds that margin.

    Examples
    --------
    >>> res = minover([[1.0, 0.0], [0.0, 1.0]], [1, 1], max_steps=100)
    >>> res.converged, res.n_updates, res.w.tolist()
    (True, 2, [1.0, 1.0])
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    P, N = X.shape
    max_steps = as_count(max_steps, "max_steps", 1)
    tol = _as_tol(tol)
    max_work = as_budget(max_work)
    wanted = max_steps
    max_steps = allowed(max_work, (P + 1) * N, max_steps)
    J = y[:, None] * X  # reflected patterns: the stabilities are J @ w
    # w is summed in the data's own units, so that a pattern far smaller than the largest
    # is still added exactly (dividing X by its size first would flush it to zero and
    # lose every update on it). Only when max_steps updates of the largest pattern could
    # overflow are the sums kept in units of 2**ew, and then nothing may be flushed.
    ew = max(0, exponent(X) + max_steps.bit_length() + 2 - 1023)
    Jw = np.ldexp(J, -ew) if ew else J
    if ew and not np.array_equal(np.ldexp(Jw, ew), J):
        raise ValueError(
            "the patterns of X range over more than float64 can add up exactly in MinOver's "
            f"sums (largest entry {np.max(np.abs(X)):.3g}, and entries lost below 1e-308 once "
            "scaled for max_steps updates): rescale X, drop its tiniest patterns, or lower max_steps"
        )
    # Stabilities on exactly scaled copies (no overflow for data of 1e200): the true ones
    # are h * 2**(ex + ew_s) with ws = w 2**-ew_s.
    ex = _far_exponent(X)
    Js = np.ldexp(J, -ex) if ex else J
    w = np.zeros(N)
    chosen: list[int] = []  # grows with the run (max_steps may be far larger than needed)
    converged = False
    steps = 0
    h = Js @ w
    while steps < max_steps:
        mu = int(np.argmin(h))
        w = w + Jw[mu]
        chosen.append(mu)
        steps += 1
        es = _far_exponent(w)
        ws = np.ldexp(w, -es) if es else w
        h = Js @ ws  # recomputed, not updated, so no rounding drifts in
        if _certified(ws, float(steps), float(h.min()), tol, ex - es - ew):
            converged = True
            break
    w = np.ldexp(w, ew) if ew else w
    try:
        _normalised_margins(w[None, :], X, y, "minover", final=True)
    except ValueError as err:  # MarginResolutionError: the run is right, its margin no float
        warnings.warn(f"{err}; the result's margin and margins raise this error",
                      MarginWarning, stacklevel=2)
    spent = not converged and max_steps < wanted
    if spent:
        warn_spent("minover", f"{steps} of max_steps={wanted} steps", max_work)
    indices = np.array(chosen, dtype=np.intp)
    return LargeMarginResult(
        algorithm="minover",
        w=w,
        converged=converged,
        iterations=steps,
        indices=indices,
        coefficients=np.ones(steps),
        strengths=np.bincount(indices, minlength=P).astype(np.float64),
        w0=np.zeros(N),
        _X=X,
        _y=y,
        out_of_budget=spent,
    )


# ---------------------------------------------------------------------------
# AdaTron (Anlauf & Biehl 1989)
# ---------------------------------------------------------------------------


def adatron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    max_epochs: int = 10_000,
    eta: float = 1.0,
    tol: float = 1e-9,
    max_work: int | None = MAX_WORK,
) -> LargeMarginResult:
    """AdaTron: the maximum-margin separator by ascent on the embedding strengths.

    The maximum-margin problem ``min ||w||^2 / 2`` subject to ``y_mu (w.x_mu) >= 1``
    has the dual ``max_a sum_mu a_mu - a.Q a / 2`` over ``a >= 0``, with the kernel
    matrix ``Q_{mu nu} = y_mu y_nu (x_mu . x_nu)``; then ``w = sum_mu a_mu y_mu x_mu``.
    AdaTron sweeps through the patterns and changes one strength at a time,

        a_mu <- max(0, a_mu + eta (1 - h_mu) / Q_{mu mu}),   h_mu = (Q a)_mu = y_mu (w.x_mu),

    i.e. patterns with stability below 1 are embedded more, those above 1 less, and
    no strength becomes negative. With ``eta = 1`` each change maximises the dual
    exactly along that coordinate; any ``0 < eta < 2`` increases it, and the strengths
    converge to a solution of the dual, so ``w`` converges to the maximum-margin
    weights (scaled so that the support patterns have ``h = 1``, ``||w|| = 1/gamma``).
    The support patterns are those whose strength stays positive.

    The run stops after the first epoch at whose end the certified relative gap
    (module docstring) is ``<= tol`` (``converged=True``) or after ``max_epochs``
    (``converged=False``; always so for non-separable data, where the strengths grow
    without bound). The kernel matrix has ``P^2`` entries, so keep ``P`` moderate.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    max_epochs : int, default 10000
        Upper limit on sweeps through the patterns. Convergence is linear but can be
        slow when a non-support pattern sits almost exactly at the optimal margin, or
        when the kernel matrix is ill-conditioned (nearly parallel patterns, such as
        augmented patterns far from the origin).
    eta : float, default 1
        Step in units of ``1 / ||x_mu||^2``; must satisfy ``0 < eta < 2``.
    tol : float, default 1e-9
        Relative gap to the maximum margin at which to stop, in (0, 1).
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds: the kernel matrix costs ``P^2 N``, a sweep
        ``3 P^2 + P N``. The run stops after the last sweep that fits (at least one),
        with ``out_of_budget=True`` and a :class:`perclib.train.WorkBudgetWarning`;
        None: no limit but ``max_epochs``.

    Returns
    -------
    LargeMarginResult
        ``strengths`` are the embedding strengths ``a``; ``support`` their positive entries.

    Examples
    --------
    >>> res = adatron([[2.0, 0.0], [0.0, 1.0]], [1, 1])
    >>> res.converged, np.round(res.strengths, 6).tolist(), np.round(res.w, 6).tolist()
    (True, [0.25, 1.0], [0.5, 1.0])
    >>> res.iterations, res.epoch_ends.tolist()  # one sweep of 2 updates reaches it
    (1, [2])
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    P, N = X.shape
    max_epochs = as_count(max_epochs, "max_epochs", 1)
    eta = as_positive_float(eta, "eta")
    if eta >= 2:
        raise ValueError(f"eta must be < 2 (in units of 1/||x||^2) for AdaTron to converge, got {eta}")
    tol = _as_tol(tol)
    max_work = as_budget(max_work)
    wanted = max_epochs
    left = None if max_work is None else max(1, max_work - P * P * N)
    max_epochs = allowed(left, 3 * P * P + P * N, max_epochs)
    if P > 5000:
        raise ValueError(f"adatron stores the {P} x {P} kernel matrix; use at most 5000 patterns")
    X_data, e = X, _far_exponent(X)
    if abs(e) > 480:
        raise ValueError(
            f"X: patterns of size about 2**{e} give embedding strengths of about 2**{-2 * e}, "
            "beyond float64; rescale the patterns (the maximum-margin direction does not change)"
        )
    X = np.ldexp(X, -e)  # exact; strengths scale back by 4**-e, weights by 2**-e
    J = y[:, None] * X
    Q = J @ J.T
    diag = np.diag(Q).copy()
    # A pattern at the origin can never reach stability 1 (the data are not separable
    # through the origin); give it a unit step so its strength grows, as the dual says.
    step = np.where(diag > 0, eta / np.where(diag > 0, diag, 1.0), eta)
    a = np.zeros(P)
    h = np.zeros(P)
    idx: list[int] = []
    coef: list[float] = []
    converged = False
    epochs = 0
    ends: list[int] = []
    for _ in range(max_epochs):
        epochs += 1
        for mu in range(P):
            new = max(0.0, a[mu] + step[mu] * (1.0 - h[mu]))
            delta = new - a[mu]
            if delta != 0.0:
                a[mu] = new
                h += delta * Q[:, mu]
                idx.append(mu)
                coef.append(delta)
        ends.append(len(idx))
        h = Q @ a  # exact stabilities at the end of the epoch (no accumulated rounding)
        w = J.T @ a
        if _certified(w, float(a.sum()), float(h.min()), tol):
            converged = True
            break
    spent = not converged and max_epochs < wanted
    if spent:
        warn_spent("adatron", f"{epochs} of max_epochs={wanted} sweeps", max_work)
    indices = np.array(idx, dtype=np.intp)
    coefficients = np.ldexp(np.array(coef, dtype=np.float64), -2 * e)
    return LargeMarginResult(
        algorithm="adatron",
        w=np.ldexp(J.T @ a, -e),
        converged=converged,
        iterations=epochs,
        indices=indices,
        coefficients=coefficients,
        strengths=np.ldexp(a, -2 * e),
        w0=np.zeros(N),
        _X=X_data,
        _y=y,
        epoch_ends=np.array(ends, dtype=np.int64),
        out_of_budget=spent,
    )
