"""Figures of lesson 7 (non-separable data): one call per figure."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib.plotting import ACCENT_COLOR, HIGHLIGHT_COLOR, NORMAL_COLOR, new_figure


def draw_weight_lengths(mistakes_per_epoch: ArrayLike, weights: ArrayLike, R: float) -> Figure:
    """Left: mistakes per epoch. Right: ``||w_k||`` against the bound ``sqrt(k) R``.

    Parameters
    ----------
    mistakes_per_epoch : array_like of int
        Mistakes in each epoch of the run.
    weights : array_like, shape (n_updates + 1, N)
        The weight vectors of the run, ``w_0`` first.
    R : float
        Largest pattern norm (> 0).

    Returns
    -------
    Figure

    Examples
    --------
    >>> fig = draw_weight_lengths([2, 1], [[0.0], [1.0], [0.0], [1.0]], 1.0)
    >>> len(fig.axes)
    2
    """
    mistakes = np.asarray(mistakes_per_epoch, dtype=float).ravel()
    W = np.asarray(weights, dtype=float)
    if W.ndim != 2 or W.shape[0] < 2:
        raise ValueError(f"weights must be a 2-D trace with at least one update, got {W.shape}")
    if not (np.isfinite(R) and R > 0):
        raise ValueError(f"R must be a positive number, got {R!r}")
    k = np.arange(1, W.shape[0])
    fig, (ax, bx) = new_figure(2, width=4.2, height=3.4)
    ax.plot(mistakes, color=NORMAL_COLOR, lw=1.0)
    ax.set_xlabel("epoch")
    ax.set_ylabel("mistakes in the epoch")
    ax.set_ylim(0, None)
    bx.loglog(k, np.linalg.norm(W[1:], axis=1), color=NORMAL_COLOR, lw=1.0,
              label=r"$\|\mathbf{w}_k\|$")
    bx.loglog(k, np.sqrt(k) * R, "--", color=ACCENT_COLOR, label=r"$\sqrt{k}\,R$")
    bx.set_xlabel("update $k$")
    bx.set_ylabel("length")
    bx.legend(loc="upper left", fontsize=8)
    return fig


def draw_pocket_trace(trace_errors: ArrayLike, n_patterns: int) -> Figure:
    """Training errors of every weight vector of a run, and the best so far.

    Parameters
    ----------
    trace_errors : array_like of int
        Training errors of the weight vectors of the run, in order.
    n_patterns : int
        Size of the training set (the axis label).

    Returns
    -------
    Figure

    Examples
    --------
    >>> fig = draw_pocket_trace([5, 3, 4, 2], 10)
    >>> len(fig.axes)
    1
    """
    errors = np.asarray(trace_errors, dtype=float).ravel()
    if errors.size == 0:
        raise ValueError("trace_errors must not be empty")
    fig, (ax,) = new_figure(width=7.0, height=3.0)
    ax.plot(errors, color=NORMAL_COLOR, lw=0.5, label="current weights")
    ax.plot(np.minimum.accumulate(errors), color=HIGHLIGHT_COLOR, lw=2.0,
            label="fewest so far")
    ax.set_xlabel("update $k$")
    ax.set_ylabel(f"training errors (of {n_patterns})")
    ax.set_ylim(0, 60)
    ax.legend(loc="upper right", fontsize=8)
    return fig
