"""The linear threshold unit and the small algebraic tricks around it.

Conventions (COURSE.md section 5): labels are -1/+1; a unit fires (+1) when
``w.x - theta > 0``. What happens exactly on the hyperplane is a choice, so it is
a parameter (``at_zero``) rather than a hidden accident of ``np.sign``, which
returns 0 there.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_labels, as_patterns, as_weights, reject_complex


def sign(z: ArrayLike, *, at_zero: int = -1) -> NDArray[np.int64]:
    """Sign with outputs in {-1, +1} and an explicit value at zero.

    Parameters
    ----------
    z : array_like
        Values (typically ``w.x - theta``).
    at_zero : {-1, +1}, default -1
        Output for ``z == 0``: -1 means "a unit fires only strictly above its threshold".

    Returns
    -------
    numpy.ndarray of int
        +1 where ``z > 0``, -1 where ``z < 0`` and ``at_zero`` where ``z == 0``.

    Examples
    --------
    >>> sign([2.0, -0.5, 0.0]).tolist()
    [1, -1, -1]
    >>> sign([0.0], at_zero=1).tolist()
    [1]
    """
    if at_zero not in (-1, 1):
        raise ValueError(f"at_zero must be -1 or +1, got {at_zero!r}")
    reject_complex(z, "z", "an array of real numbers")
    z = np.asarray(z, dtype=np.float64)
    if np.any(np.isnan(z)):
        raise ValueError("sign got NaN values")
    return np.where(z > 0, 1, np.where(z < 0, -1, at_zero)).astype(np.int64)


def threshold_unit(
    X: ArrayLike, w: ArrayLike, theta: float = 0.0, *, at_zero: int = -1
) -> NDArray[np.int64]:
    """Outputs of the unit ``f(x) = sign(w.x - theta)`` on every row of ``X``.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row.
    w : array_like, shape (N,)
        Weight vector (normal to the decision hyperplane ``w.x = theta``).
    theta : float, default 0
        Threshold; the hyperplane sits at distance ``theta / ||w||`` from the origin.
    at_zero : {-1, +1}, default -1
        Output on the hyperplane itself.

    Examples
    --------
    >>> threshold_unit([[1, 1], [0, 1]], [1, 1], theta=1.5).tolist()  # AND
    [1, -1]
    """
    X = as_patterns(X)
    w = as_weights(w, X.shape[1])
    if not np.isfinite(theta):
        raise ValueError(f"theta must be finite, got {theta}")
    return sign(X @ w - float(theta), at_zero=at_zero)


def augment(X: ArrayLike) -> NDArray[np.float64]:
    """Append a constant 1 to every pattern (the bias trick).

    With ``x_hat = (x, 1)`` and ``w_hat = (w, -theta)``, ``w_hat.x_hat = w.x - theta``:
    a unit with a threshold in N dimensions is a unit through the origin in N + 1.

    Examples
    --------
    >>> augment([[2.0, 3.0]]).tolist()
    [[2.0, 3.0, 1.0]]
    """
    X = as_patterns(X)
    return np.hstack([X, np.ones((X.shape[0], 1))])


def augment_weights(w: ArrayLike, theta: float) -> NDArray[np.float64]:
    """Return ``w_hat = (w, -theta)``, the partner of :func:`augment`.

    Examples
    --------
    >>> augment_weights([1.0, 1.0], 1.5).tolist()
    [1.0, 1.0, -1.5]
    """
    w = as_weights(w)
    return np.append(w, -float(theta))


def split_augmented(w_hat: ArrayLike) -> tuple[NDArray[np.float64], float]:
    """Split augmented weights ``(w, -theta)`` back into ``(w, theta)``.

    Examples
    --------
    >>> w, theta = split_augmented([1.0, 1.0, -1.5])
    >>> w.tolist(), theta
    ([1.0, 1.0], 1.5)
    """
    w_hat = as_weights(w_hat, name="w_hat")
    if w_hat.size < 2:
        raise ValueError("w_hat must have at least 2 entries: weights and the bias")
    return w_hat[:-1].copy(), float(-w_hat[-1])


def to_pm1(r: ArrayLike) -> NDArray[np.int64]:
    """Map {0, 1} outputs to {-1, +1} labels with ``s = 2 r - 1``.

    Examples
    --------
    >>> to_pm1([0, 1, 1]).tolist()
    [-1, 1, 1]
    """
    reject_complex(r, "r", "an array of 0/1 outputs")
    r = np.asarray(r)
    if r.ndim != 1 or r.size == 0:
        raise ValueError(f"r must be a non-empty 1-D array, got shape {r.shape}")
    if not np.all(np.isin(r, (0, 1))):
        raise ValueError(f"r must contain only 0 and 1, found {np.unique(r)[:5].tolist()}")
    return (2 * r.astype(np.int64) - 1).astype(np.int64)


def to_01(s: ArrayLike) -> NDArray[np.int64]:
    """Map {-1, +1} labels to {0, 1} outputs with ``r = (s + 1) / 2``.

    Examples
    --------
    >>> to_01([-1, 1]).tolist()
    [0, 1]
    """
    s = as_labels(s, name="s")
    return ((s + 1) // 2).astype(np.int64)


def reflect(X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
    """Reflected patterns ``J = y * x``: every condition becomes ``J.w > 0``.

    ``y (w.x) > 0`` for all patterns is the same statement as ``w.J > 0`` for all
    rows of ``J``, so a separating ``w`` is one with every ``J`` on its positive side.

    Examples
    --------
    >>> reflect([[1.0, 2.0], [3.0, 4.0]], [1, -1]).tolist()
    [[1.0, 2.0], [-3.0, -4.0]]
    """
    X = as_patterns(X)
    y = as_labels(y, X.shape[0])
    return y[:, None] * X
