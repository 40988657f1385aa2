"""How many labellings the separators with margin at least gamma can realise.

Cover's theorem (lesson 4) counts the labellings of P points that *some* hyperplane
realises. Asking for a margin of at least ``gamma`` restricts the separators to the
class H_gamma, and the count falls with it. This module counts, for a given point
set, the labellings realisable with margin >= gamma, and finds the largest gamma at
which *every* labelling is still realisable (the set is then shattered by H_gamma).
Both rest on exact enumeration (:func:`perclib.separable_dichotomies`) and one
maximum-margin problem per separable labelling, so they are meant for small sets.

A labelling that is separable but whose maximum margin is below float64 resolution
(:class:`perclib.geometry.MarginResolutionError`, a margin under about 1e-12 of the
data radius) is given margin 0.0: it counts at ``gamma = 0`` (it is separable) and
at no positive level.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_patterns, reject_complex, row_norms
from perclib.counting import MAX_ENUMERATED, separable_dichotomies
from perclib.geometry import MarginResolutionError, max_margin

#: Margins within this fraction of the data radius of ``gamma`` count as ``>= gamma``:
#: maximum margins are computed to about 1e-12 relative, and exact ties (such as the
#: orthonormal basis, every labelling at exactly 1/sqrt(P)) must not flip on rounding.
RELATIVE_TOLERANCE = 1e-9


def dichotomy_margins(
    X: ArrayLike, *, threshold: bool = False, max_count: int | None = MAX_ENUMERATED
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Every separable labelling of the rows of ``X`` and its maximum margin.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    threshold : bool, default False
        Affine hyperplanes. A labelling with a single class then has an unbounded
        margin, reported as ``inf``.
    max_count : int or None, default 20,000
        Passed to :func:`perclib.separable_dichotomies` (refuses huge enumerations).

    Returns
    -------
    labels : ndarray of int, shape (n, P)
        The separable labellings, largest margin first.
    gammas : ndarray of float, shape (n,)
        Their maximum margins, in decreasing order; 0.0 for a separable labelling
        whose margin is below float64 resolution (see the module docstring).

    Examples
    --------
    >>> labels, gammas = dichotomy_margins([[1.0, 0.0], [1.0, 1.0]])
    >>> labels[0].tolist(), [round(float(g), 4) for g in gammas]
    ([-1, -1], [1.0, 1.0, 0.4472, 0.4472])
    """
    X = as_patterns(X)
    labels = separable_dichotomies(X, threshold=threshold, max_count=max_count)
    gammas = np.empty(len(labels))
    for i, s in enumerate(labels):
        if threshold and abs(int(s.sum())) == len(s):
            gammas[i] = np.inf  # one class: the threshold moves the plane away
            continue
        try:
            gammas[i] = max_margin(X, s, threshold=threshold).gamma
        except MarginResolutionError:
            gammas[i] = 0.0  # separable, margin below float64 resolution
    order = np.argsort(-gammas, kind="stable")
    return labels[order], gammas[order]


def _as_margin_level(gamma: object) -> float:
    reject_complex(gamma, "gamma", "a real margin level")
    try:
        value = float(gamma)  # type: ignore[arg-type]
    except OverflowError:
        raise ValueError("gamma is too large for float64 (beyond 1.8e308)") from None
    except (TypeError, ValueError):
        raise TypeError(f"gamma must be a real number, got {gamma!r}") from None
    if not np.isfinite(value) or value < 0:
        raise ValueError(f"gamma must be finite and >= 0, got {gamma!r}")
    return value


def _tolerance(X: NDArray[np.float64]) -> float:
    # Relative, as documented: a fraction of the data radius at every scale (no floor
    # of 1, which made it absolute below unit scale), computed without overflow.
    return RELATIVE_TOLERANCE * float(np.max(row_norms(X)))


def margin_dichotomy_count(
    X: ArrayLike, gamma: float, *, threshold: bool = False,
    max_count: int | None = MAX_ENUMERATED,
) -> int:
    """How many labellings of the rows of ``X`` some separator realises with margin >= gamma.

    At ``gamma = 0`` this is the number of (strictly) separable labellings, Cover's
    C(P, N) for points in general position; it falls as ``gamma`` grows, and is 0
    above the largest maximum margin of any labelling.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    gamma : float
        Margin level, ``>= 0``. Margins within ``RELATIVE_TOLERANCE`` times the data
        radius of ``gamma`` count as reaching it.
    threshold : bool, default False
        Affine hyperplanes.
    max_count : int or None, default 20,000
        Passed to :func:`perclib.separable_dichotomies`.

    Examples
    --------
    >>> X = [[1.0, 0.0], [1.0, 1.0]]
    >>> [margin_dichotomy_count(X, g) for g in (0.0, 0.4, 0.5, 1.0, 1.1)]
    [4, 4, 2, 2, 0]
    """
    level = _as_margin_level(gamma)
    X = as_patterns(X)
    _, gammas = dichotomy_margins(X, threshold=threshold, max_count=max_count)
    return int(np.count_nonzero(gammas >= level - _tolerance(X)))


def shattering_margin(
    X: ArrayLike, *, threshold: bool = False, max_count: int | None = MAX_ENUMERATED
) -> float:
    """The largest gamma at which all 2**P labellings of ``X`` are realisable with margin >= gamma.

    That is the smallest maximum margin over all labellings, or 0.0 when some
    labelling is not separable at all.

    Examples
    --------
    >>> round(shattering_margin(np.eye(4)), 6)    # the orthonormal basis: 1/sqrt(4)
    0.5
    >>> shattering_margin([[1.0, 0.0], [2.0, 0.0]])   # same direction: not shattered
    0.0
    """
    X = as_patterns(X)
    _, gammas = dichotomy_margins(X, threshold=threshold, max_count=max_count)
    if len(gammas) < 2 ** X.shape[0]:
        return 0.0
    return float(np.min(gammas))
