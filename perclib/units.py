"""The linear threshold unit and the small algebraic tricks around it.

Conventions (COURSE.md section 5): labels are -1/+1; a unit fires (+1) when
``w.x - theta > 0``. What happens exactly on the hyperplane is a choice, so it is
a parameter (``at_zero``) rather than a hidden accident of ``np.sign``, which
returns 0 there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_labels, as_patterns, as_real, as_weights, reject_complex


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
    at_zero = _as_at_zero(at_zero)
    if isinstance(z, str | bytes) or z is None:
        raise TypeError(f"z must be a number or an array of real numbers, got {z!r}")
    reject_complex(z, "z", "an array of real numbers")
    try:
        z = np.asarray(z, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise TypeError(f"z must be a number or an array of real numbers: {err}") from None
    if not np.all(np.isfinite(z)):
        # An infinite w.x - theta is an overflow upstream, never a trustworthy sign.
        raise ValueError("z contains NaN or infinite values: their sign is not defined")
    return np.where(z > 0, 1, np.where(z < 0, -1, at_zero)).astype(np.int64)


def _as_at_zero(at_zero: object) -> int:
    is_int = isinstance(at_zero, int | np.integer) and not isinstance(at_zero, bool | np.bool_)
    if not is_int or at_zero not in (-1, 1):
        raise ValueError(f"at_zero must be the integer -1 or +1, got {at_zero!r}")
    return int(at_zero)


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
    theta = as_real(theta, "theta")
    at_zero = _as_at_zero(at_zero)
    # Scale-free evaluation: with powers of two sx, sw bringing X and w near 1 (exact
    # scalings), sign(w.x - theta) = sign(w'.x' - theta / (sx sw)); the products can
    # then neither overflow (data near 1e200) nor vanish (near 1e-200).
    ex, ew = _exponent(X), _exponent(w)
    Xs, ws = np.ldexp(X, -ex), np.ldexp(w, -ew)
    with np.errstate(over="ignore", under="ignore"):
        t = np.ldexp(theta, -(ex + ew))
    if np.isinf(t):  # the threshold dwarfs every |w.x| <= N * max|x| * max|w|
        return np.full(X.shape[0], -1 if t > 0 else 1, dtype=np.int64)
    return sign(Xs @ ws - t, at_zero=at_zero)


def _exponent(A: NDArray[np.float64]) -> int:
    """The power of two nearest to ``max |A|`` (0 for an all-zero array)."""
    top = float(np.max(np.abs(A)))
    return int(np.frexp(top)[1]) if top > 0 else 0


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
    return np.append(w, -as_real(theta, "theta"))


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


# ----------------------------------------------------------------------------- networks


@dataclass(frozen=True)
class ThresholdNetwork:
    """Two layers of threshold units on 0/1 inputs (lesson 1, Exercise 6).

    Hidden unit ``j`` outputs ``r_j = 1`` when ``W[j].x - theta[j] > 0`` and 0
    otherwise; the output unit computes ``sign(v.r - theta_out)`` in {-1, +1}. A
    network may have no hidden unit at all (then it is a constant).

    Attributes
    ----------
    W : numpy.ndarray, shape (H, n)
        Hidden weights, one unit per row.
    theta : numpy.ndarray, shape (H,)
        Hidden thresholds.
    v : numpy.ndarray, shape (H,)
        Weights of the output unit.
    theta_out : float
        Threshold of the output unit.

    Examples
    --------
    >>> net = ThresholdNetwork(np.ones((1, 2)), np.array([1.5]), np.array([1.0]), 0.5)
    >>> net([[0, 1], [1, 1]]).tolist()  # AND through one hidden unit
    [-1, 1]
    """

    W: NDArray[np.float64]
    theta: NDArray[np.float64]
    v: NDArray[np.float64]
    theta_out: float

    @property
    def n_hidden(self) -> int:
        """Number of hidden units."""
        return int(self.W.shape[0])

    def hidden(self, X: ArrayLike) -> NDArray[np.int64]:
        """The hidden layer's 0/1 outputs, shape (P, H)."""
        X = as_patterns(X)
        if X.shape[1] != self.W.shape[1]:
            raise ValueError(f"X has {X.shape[1]} inputs, the network expects {self.W.shape[1]}")
        return (X @ self.W.T - self.theta > 0).astype(np.int64)

    def __call__(self, X: ArrayLike) -> NDArray[np.int64]:
        """The network's outputs (-1/+1), one per row of ``X``."""
        return sign(self.hidden(X) @ self.v - self.theta_out)


def corner_unit(c: ArrayLike) -> tuple[NDArray[np.float64], float]:
    """The unit that fires on the corner ``c`` of {0,1}^n and on no other corner.

    ``w = 2c - 1`` and ``theta = |c| - 1/2``: on a 0/1 input, ``w.x`` is the number
    of ones of ``c`` minus the number of coordinates where ``x`` and ``c`` differ.

    Examples
    --------
    >>> w, theta = corner_unit([1, 0, 1])
    >>> w.tolist(), theta
    ([1.0, -1.0, 1.0], 1.5)
    """
    reject_complex(c, "c", "a 0/1 vector")
    c = np.asarray(c, dtype=np.float64)
    if c.ndim != 1 or c.size == 0 or not np.all(np.isin(c, (0.0, 1.0))):
        raise ValueError(f"c must be a non-empty 1-D vector of 0s and 1s, got {c!r}")
    return 2.0 * c - 1.0, float(c.sum()) - 0.5


def two_layer_network(n: int, table: int | ArrayLike) -> ThresholdNetwork:
    """A two-layer threshold network computing any Boolean function of ``n`` inputs.

    One :func:`corner_unit` per input where the function is true, and an OR unit on top;
    when more than half the inputs are true, one corner unit per *false* input and a
    NOR unit on top instead. So at most ``2**(n-1)`` hidden units are used.

    Parameters
    ----------
    n : int
        Number of inputs.
    table : int or array_like
        The function, as for :func:`perclib.boolean_function` (its number, or its truth
        table on the rows of :func:`perclib.boolean_cube`).

    Examples
    --------
    >>> from perclib import boolean_cube
    >>> net = two_layer_network(2, [0, 1, 1, 0])  # XOR
    >>> net(boolean_cube(2)).tolist(), net.n_hidden
    ([-1, 1, 1, -1], 2)
    """
    from perclib.data import boolean_cube, boolean_function

    labels = boolean_function(n, table)
    cube = boolean_cube(n)
    use_true = np.count_nonzero(labels > 0) <= cube.shape[0] // 2
    corners = cube[labels > 0] if use_true else cube[labels < 0]
    units = [corner_unit(c) for c in corners]
    W = np.array([w for w, _ in units]).reshape(len(units), cube.shape[1])
    theta = np.array([t for _, t in units], dtype=np.float64)
    if use_true:  # OR: fires when some hidden unit does
        return ThresholdNetwork(W, theta, np.ones(len(units)), 0.5)
    return ThresholdNetwork(W, theta, -np.ones(len(units)), -0.5)  # NOR
