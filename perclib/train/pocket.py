"""The pocket algorithm (Gallant, 1990): keep the best weights seen in your pocket.

On data that are not linearly separable the perceptron never stops and its last
weights can be poor: one more mistake moves them. The pocket algorithm runs the
perceptron with patterns in random order and keeps a copy of good weights aside.

* ``ratchet=True``: every weight vector the run produces is checked on the whole
  training set, and replaces the pocket only if it makes strictly fewer errors. The
  pocket thus holds the first of the best weights seen.
* ``ratchet=False``: Gallant's original rule, with no pass over the data: the current
  weights replace the pocket when their run of consecutive correct classifications
  is longer than the pocket's. Cheaper, but the pocket can get worse.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._validation import as_count, unit_scaled
from perclib.train._timing import lifetimes, timed_perceptron
from perclib.train.perceptron import PerceptronResult

# Trace rows checked against the training set at a time.
_CHUNK = 2048


@dataclass(frozen=True, eq=False)
class PocketResult:
    """The pocket weights and the run they were picked from.

    Attributes
    ----------
    w : ndarray, shape (N,)
        The pocket weights.
    errors : int
        Their training errors: patterns with ``y (w.x) <= 0``.
    index : int
        Which weight vector of the trace they are (``run.weights[index]``).
    trace_errors : ndarray of int, shape (n_updates + 1,)
        Training errors of every weight vector of the trace.
    run : PerceptronResult
        The underlying perceptron run (random order, from ``w = 0``).
    """

    w: NDArray[np.float64]
    errors: int
    index: int
    trace_errors: NDArray[np.int64]
    run: PerceptronResult

    def __repr__(self) -> str:
        return (
            f"PocketResult({self.errors} training error(s), weights after update {self.index} "
            f"of {self.run.n_updates}, w={np.array2string(self.w, precision=4)})"
        )


def _training_errors(
    W: NDArray[np.float64], X: NDArray[np.float64], y: NDArray[np.float64]
) -> NDArray[np.int64]:
    """Mistakes ``y (w.x) <= 0`` of each row ``w`` of ``W`` on the training set."""
    # Signs only: exact power-of-two rescaling keeps w.x finite for data of any size.
    W, X = unit_scaled(W), unit_scaled(X)
    out = np.empty(W.shape[0], dtype=np.int64)
    for start in range(0, W.shape[0], _CHUNK):
        block = W[start : start + _CHUNK]
        out[start : start + _CHUNK] = np.count_nonzero((block @ X.T) * y <= 0, axis=1)
    return out


def pocket(
    X: ArrayLike,
    y: ArrayLike,
    *,
    ratchet: bool = True,
    max_epochs: int = 100,
    rng: object = None,
) -> PocketResult:
    """The pocket algorithm, with or without Gallant's ratchet.

    Parameters
    ----------
    X : array_like, shape (P, N)
        Patterns, one per row (use :func:`perclib.augment` for a threshold).
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    ratchet : bool, default True
        Replace the pocket only by weights with strictly fewer training errors
        (module docstring); without it, by weights with a longer run of correct
        classifications.
    max_epochs : int, default 100
        Passes through the data; the run stops earlier only if an epoch is clean
        (then the pocket holds those weights, which make no error).
    rng : seed or Generator, optional
        Draws the presentation order of each epoch.

    Returns
    -------
    PocketResult

    Examples
    --------
    >>> X = [[1.0, 0.1], [1.0, -0.1], [1.0, 0.2], [-1.0, 0.0]]
    >>> res = pocket(X, [1, 1, 1, 1], max_epochs=20, rng=0)   # the last pattern is "noise"
    >>> res.errors, res.run.converged
    (1, False)
    """
    if not isinstance(ratchet, bool | np.bool_):
        raise TypeError(f"ratchet must be True or False, got {ratchet!r}")
    max_epochs = as_count(max_epochs, "max_epochs", 1)
    run, times = timed_perceptron(X, y, max_epochs=max_epochs, order="random", rng=rng)
    W = run.weights
    trace_errors = _training_errors(W, run.X, run.y)
    if run.converged:
        k = W.shape[0] - 1  # the final weights make no error and would be kept forever
    elif ratchet:
        k = int(np.argmin(trace_errors))  # the first of the best
    else:
        # Consecutive correct classifications: the lifetime minus the presentation
        # that created the vector (w0 was not created by one).
        runs = lifetimes(times, run.epochs * run.X.shape[0])
        runs[1:] -= 1
        k = int(np.argmax(runs))  # a longer run replaces the pocket, a tie does not
    return PocketResult(
        w=W[k].copy(), errors=int(trace_errors[k]), index=k, trace_errors=trace_errors, run=run
    )
