"""The averaged and the voted perceptron (Freund and Schapire, 1999).

Run the perceptron for a fixed number of epochs and keep every weight vector
``w_k`` of the trace with its survival count ``c_k``: how many presentations it
stayed the current weights. Two predictors come out of one run:

* voted: ``sign(sum_k c_k sign(w_k . x))``, each weight vector votes;
* averaged: ``sign(w_avg . x)`` with ``w_avg = sum_k c_k w_k / sum_k c_k``, the mean
  weight vector over all presentations (one vector, as cheap as the perceptron).

On non-separable data the last weights keep jumping after every mistake; the
vectors that survived long get many votes, which smooths the jumps out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from perclib._exact import exact_margin_signs
from perclib._validation import as_count, as_patterns
from perclib.train._budget import MAX_WORK, as_budget
from perclib.train._timing import lifetimes, timed_perceptron
from perclib.train.perceptron import PerceptronResult
from perclib.units import sign

# Trace rows voting at a time (bounds the memory of the vote).
_CHUNK = 2048
# Patterns voted on at a time: a block's ballots stay in the CPU cache. The signs are
# exact entry by entry, so the blocks change no ballot and no sum of votes.
_Z_BLOCK = 256


@dataclass(frozen=True, eq=False)
class AveragedResult:
    """The averaged weights, the voted predictor, and the run behind them.

    Attributes
    ----------
    w : ndarray, shape (N,)
        Averaged weights ``sum_k c_k w_k / sum_k c_k``.
    votes : ndarray of int, shape (n_updates + 1,)
        Survival count ``c_k`` of each weight vector of the trace (``run.weights``).
    run : PerceptronResult
        The perceptron run: ``run.w`` are the last weights, ``run.weights`` the trace.
    """

    w: NDArray[np.float64]
    votes: NDArray[np.int64]
    run: PerceptronResult

    def vote(self, Z: ArrayLike) -> NDArray[np.int64]:
        """The voted prediction ``sign(sum_k c_k sign(w_k . z))`` for each row of ``Z``.

        Both signs follow the course convention ``sign(0) = -1``.
        """
        Z = as_patterns(Z, "Z")
        N = self.run.w0.size
        if Z.shape[1] != N:
            raise ValueError(f"Z must have {N} columns, got {Z.shape[1]}")
        counts = self.votes.astype(np.float64)  # float, so the sum of votes runs in BLAS
        total = np.zeros(Z.shape[0])
        ones = np.ones(min(Z.shape[0], _Z_BLOCK))
        for first, W in self.run._chunks(rows=_CHUNK):  # the trace, never stored whole
            keep = np.flatnonzero(self.votes[first : first + W.shape[0]])  # no say without survival
            if keep.size:
                voters, weight = W[keep], counts[first + keep]
                for lo in range(0, Z.shape[0], _Z_BLOCK):
                    block = Z[lo : lo + _Z_BLOCK]
                    # sign(w.z) with sign(0) = -1, a tie decided exactly, at any scale
                    signs = exact_margin_signs(block, ones[: block.shape[0]], voters)
                    total[lo : lo + block.shape[0]] += weight @ np.where(signs > 0, 1.0, -1.0)
        return sign(total)

    def __repr__(self) -> str:
        return (
            f"AveragedResult({self.votes.size} weight vectors over {int(self.votes.sum())} "
            f"presentations, w={np.array2string(self.w, precision=4)})"
        )


def averaged_perceptron(
    X: ArrayLike,
    y: ArrayLike,
    *,
    epochs: int = 10,
    order: str = "cyclic",
    rng: object = None,
    max_work: int | None = MAX_WORK,
) -> AveragedResult:
    """Train the perceptron for ``epochs`` epochs from ``w = 0`` and average its weights.

    If the run converges earlier, the final weights would survive all remaining
    epochs unchanged, so they are credited with those presentations (the result is
    that of running every epoch).

    Parameters
    ----------
    X : array_like, shape (P, N)
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    epochs : int, default 10
        Number of passes ``T``; there are ``T P`` presentations in all.
    order : {"cyclic", "random"}
    rng : seed or Generator, optional
        Used only with ``order="random"``.
    max_work : int or None, default ``perclib.train.MAX_WORK`` (``10**10``)
        Work budget in multiply-adds, an epoch costing ``P N``: the run stops after the
        last epoch that fits (at least one), warns (:class:`perclib.train.WorkBudgetWarning`)
        and averages over the presentations it made (``run.out_of_budget`` is True).

    Returns
    -------
    AveragedResult

    Examples
    --------
    >>> res = averaged_perceptron([[1.0, 0.0], [0.0, 1.0]], [1, -1], epochs=2)
    >>> res.votes.tolist(), res.w.tolist()
    ([0, 1, 3], [1.0, -0.75])
    >>> res.vote([[1.0, 0.0], [0.0, 1.0]]).tolist()
    [1, -1]
    """
    epochs = as_count(epochs, "epochs", 1)
    run, times = timed_perceptron(X, y, max_epochs=epochs, order=order, rng=rng,
                                  max_work=as_budget(max_work), name="averaged_perceptron")
    total = (run.epochs if run.out_of_budget else epochs) * run.X.shape[0]
    votes = lifetimes(times, total)
    # sum_k c_k w_k without the trace: the step of update j (made at presentation t_j)
    # is part of every weight vector from then on, which together last total - t_j
    # presentations. So the mean is one weighted sum of the patterns, with coefficients
    # at most the number of updates of each (nothing can overflow that w itself cannot).
    share = (total - times).astype(np.float64) / total
    coef = np.bincount(run.indices, weights=share, minlength=run.X.shape[0]) * run.y
    w = coef @ run.X
    return AveragedResult(w=w, votes=votes, run=run)
