"""Figures of lesson 5 (the perceptron and its convergence): one call per figure."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._validation import as_patterns, as_weights
from perclib.plotting import ACCENT_COLOR, HIGHLIGHT_COLOR, MARGIN_COLOR, NORMAL_COLOR, new_figure

#: A margin w.z within this fraction of ||w|| ||z|| of 0 is drawn as a tie (drawing only:
#: the lesson's runs decide ties exactly).
TIE_FRACTION = 1e-6


def draw_construction_phases(weights: ArrayLike, patterns: ArrayLike, u: ArrayLike) -> Figure:
    """The two phases of a run that uses up bound (b) of Novikoff's theorem.

    Left: the margin ``w_{j-1} . z_j`` the run has just before each update ``j``:
    below 0 while a tie is out of reach (phase 1), 0 once the ties start (phase 2).
    Right: ``u . w_j`` and ``||w_j||`` against ``j``, with the two lines of the proof,
    ``u . w_0 + j gamma`` and ``sqrt(||w_0||^2 + j R^2)`` (``gamma = min u . z``,
    ``R = max ||z||`` over the updates).

    Parameters
    ----------
    weights : array_like, shape (k + 1, N)
        The run's weights ``w_0, ..., w_k``.
    patterns : array_like, shape (k, N)
        The pattern of each update, label included (``z = y x``): ``w_j = w_{j-1} + z_j``.
    u : array_like, shape (N,)
        The separator of the proof (its length does not matter).

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text).

    Examples
    --------
    >>> W = [[-2.0, 0.0], [-1.0, 1.0], [0.0, 1.0]]
    >>> fig = draw_construction_phases(W, [[1.0, 1.0], [1.0, 0.0]], [1.0, 0.0])
    >>> len(fig.axes), repr(fig).startswith("Left:")
    (2, True)
    """
    W = as_patterns(weights, "weights")
    Z = as_patterns(patterns, "patterns")
    if W.shape[0] != Z.shape[0] + 1 or W.shape[1] != Z.shape[1]:
        raise ValueError(f"weights must hold one more row than patterns, with as many columns: "
                         f"got {W.shape} and {Z.shape}")
    if Z.shape[0] == 0:
        raise ValueError("patterns: the run made no update")
    if not np.allclose(W[1:] - W[:-1], Z, rtol=1e-9, atol=1e-12 * np.abs(W).max()):
        raise ValueError("weights and patterns do not match: w_j must be w_{j-1} + z_j")
    u = as_weights(u, W.shape[1], name="u")
    if not np.any(u):
        raise ValueError("u must be a non-zero vector: the separator of the proof")
    u = u / np.linalg.norm(u)
    k = np.arange(W.shape[0])
    before = np.einsum("ij,ij->i", W[:-1], Z)
    scale = np.linalg.norm(W[:-1], axis=1) * np.linalg.norm(Z, axis=1)
    tie = np.abs(before) <= TIE_FRACTION * scale
    first_tie = int(np.argmax(tie)) + 1 if tie.any() else None  # update number of the first tie
    gamma, R = float((Z @ u).min()), float(np.linalg.norm(Z, axis=1).max())

    fig, (ax1, ax2) = new_figure(2, width=4.5, height=3.4)
    ax1.plot(k[1:], before, ".", color=NORMAL_COLOR, ms=4)
    ax1.axhline(0.0, color=MARGIN_COLOR, lw=0.8)
    ax1.set_xlabel("update j")
    ax1.set_ylabel(r"$\mathbf{w}_{j-1}\cdot\mathbf{z}_j$ just before update $j$")
    ax1.set_title("the margin of each mistake")
    overlap, length = W @ u, np.linalg.norm(W, axis=1)
    ax2.plot(k, length, color=NORMAL_COLOR, label=r"$\|\mathbf{w}_j\|$")
    ax2.plot(k, np.sqrt(length[0] ** 2 + k * R**2), "--", color=NORMAL_COLOR, lw=1,
             label=r"$\sqrt{\|\mathbf{w}_0\|^2 + jR^2}$ (proof)")
    ax2.plot(k, overlap, color=ACCENT_COLOR, label=r"$\mathbf{u}\cdot\mathbf{w}_j$")
    ax2.plot(k, overlap[0] + k * gamma, ":", color=ACCENT_COLOR, lw=1.5,
             label=r"$\mathbf{u}\cdot\mathbf{w}_0 + j\gamma$ (proof)")
    ax2.axhline(0.0, color=MARGIN_COLOR, lw=0.8)
    ax2.set_xlabel("update j")
    ax2.set_title("what the proof tracks")
    ax2.legend(fontsize=9, loc="lower right", frameon=False)
    for ax in (ax1, ax2):
        if first_tie is not None:
            ax.axvspan(0, first_tie - 0.5, color=HIGHLIGHT_COLOR, alpha=0.15, lw=0)
            ax.axvline(first_tie - 0.5, color=HIGHLIGHT_COLOR, lw=1)
        ax.set_xlim(0, k[-1])
    if first_tie is not None:
        low = float(before.min())
        ax1.text(first_tie - 0.5, 0.55 * low, " phase 2: ties from here on", ha="left",
                 va="center", fontsize=9)
        ax1.text(0.5, 0.1 * low, "phase 1", ha="left", va="center", fontsize=9)
    phases = (f"the first {first_tie - 1} updates (shaded) have a negative margin and the other "
              f"{len(before) - first_tie + 1} are ties (w.z = 0 to within rounding)"
              if first_tie is not None else "no update is a tie")
    fig.alt_text = (
        f"Left: the margin w.z just before each of the run's {len(before)} updates; {phases}. "
        "Right: u.w and the length of w against the number of updates, each next to the line "
        "the proof allows it: u.w follows its line exactly, and the length stays just under "
        "its ceiling, so only Cauchy-Schwarz has room left.")
    return fig
