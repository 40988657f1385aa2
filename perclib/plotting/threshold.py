"""Figures of lesson 1 (threshold units): image detectors, parallel lines, reflection.

Each function builds one figure of the lesson from its data and returns it, so the
lesson cell shows the computation and one call.

Examples
--------
>>> import numpy as np
>>> from perclib.plotting.threshold import plot_threshold_shifts
>>> fig = plot_threshold_shifts([1.0, 0.0], [0.0, 1.0])
>>> len(fig.axes)
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from perclib._exact import count_mistakes
from perclib._validation import as_labels, as_patterns, as_plane_points, as_real, as_weights
from perclib.plotting import (
    NEGATIVE_COLOR,
    decision_line,
    legend,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
)
from perclib.plotting._words import count, join, num, panels, point
from perclib.units import reflect, threshold_unit

_LINE_STYLES = ("--", "-", "-.", ":")


def plot_glyphs(images: Mapping[str, ArrayLike], w: ArrayLike, theta: float) -> Figure:
    """Small black-and-white images, each titled with ``w.x`` and the unit's output.

    Parameters
    ----------
    images : mapping of str to 2-D array_like
        Named 0/1 images, all of the same shape; ``w`` acts on them flattened.
    w : array_like
        Weights, one per pixel.
    theta : float
        Threshold of the unit.

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text):
        which images the unit answers +1 and -1 to, with their ``w.x``.

    Examples
    --------
    >>> img = np.eye(3)
    >>> fig = plot_glyphs({"diagonal": img}, img.ravel() * 2 - 1, 2.5)
    >>> fig.axes[0].get_title().splitlines()[1]
    'w.x = +3, f = +1'
    >>> "+1 for: diagonal (w.x = 3)" in repr(fig)
    True
    """
    if not isinstance(images, Mapping) or len(images) == 0:
        raise TypeError("images must be a non-empty mapping of names to 2-D 0/1 arrays")
    arrays = {str(name): np.asarray(img, dtype=float) for name, img in images.items()}
    shapes = {a.shape for a in arrays.values()}
    if len(shapes) != 1 or len(next(iter(shapes))) != 2:
        raise ValueError(f"images must be 2-D arrays of one shape, got shapes {sorted(shapes)}")
    X = as_patterns(np.array([a.ravel() for a in arrays.values()]), name="images")
    w = as_weights(w, X.shape[1])
    theta = as_real(theta, "theta")
    outputs = threshold_unit(X, w, theta)
    fig, axes = new_figure(len(arrays), width=1.75, height=2.2)
    rows, cols = next(iter(shapes))
    for ax, (name, img), x, out in zip(axes, arrays.items(), X, outputs, strict=True):
        ax.imshow(img, cmap="Greys", vmin=0, vmax=1)
        ax.set_xticks(range(0, cols, 2))
        ax.set_yticks(range(0, rows, 2))
        ax.set_xlabel("pixel column")
        ax.set_title(f"{name}\nw.x = {x @ w:+.0f}, f = {out:+d}", fontsize=8)
    axes[0].set_ylabel("pixel row")
    # Semicolons between the images: a name may hold a comma ("T, one pixel off").
    named = list(zip(arrays, X @ w, outputs, strict=True))
    answers = {
        sign: "; ".join(f"{name} (w.x = {num(v)})" for name, v, out in named
                        if out == sign)
        or "no image"
        for sign in (1, -1)
    }
    kind = "black-and-white" if np.isin(X, (0.0, 1.0)).all() else "grey-scale"
    fig.alt_text = (
        f"{panels(len(arrays))} of {rows} by {cols} pixel {kind} images, each titled "
        f"with w.x and the output f of one threshold unit with θ = {num(theta)}. "
        f"It answers +1 for: {answers[1]}. It answers -1 for: {answers[-1]}.")
    return fig


def plot_threshold_shifts(w: ArrayLike, thetas: Sequence[float]) -> Figure:
    """One weight vector with several thresholds: parallel decision lines.

    Parameters
    ----------
    w : array_like, shape (2,)
        The weight vector (drawn as an arrow from the line of the first threshold
        that is 1, or of the first one).
    thetas : sequence of float
        Up to four thresholds, one line style each.

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text):
        ``w``, the thresholds and each line's distance ``theta / ||w||`` from the origin.

    Examples
    --------
    >>> fig = plot_threshold_shifts([0.6, 0.8], [-1.0, 0.0, 1.0, 2.0])
    >>> len(fig.axes[0].get_legend().get_texts())
    4
    >>> "distance θ/‖w‖ from the origin, here -1, 0, 1 and 2" in repr(fig)
    True
    """
    w = as_weights(w, 2)
    thetas = [as_real(t, "thetas") for t in thetas]
    if not 1 <= len(thetas) <= len(_LINE_STYLES):
        raise ValueError(f"thetas must hold 1 to {len(_LINE_STYLES)} thresholds, got {len(thetas)}")
    fig, (ax,) = new_figure(width=4.4, height=4.0)
    setup_plane(ax, (-2.5, 2.5, -2.5, 2.5))
    for th, ls in zip(thetas, _LINE_STYLES, strict=False):
        decision_line(ax, w, th, ls=ls, label=fr"$\theta = {th:g}$")
    normal_arrow(ax, w, 1.0 if 1.0 in thetas else thetas[0], length=1.0)
    length = "unit-length " if np.isclose(np.linalg.norm(w), 1.0) else ""
    ax.set_title(fr"one {length}$\mathbf{{w}}$, {len(thetas)} thresholds", fontsize=10)
    legend(ax, loc="lower right")
    norm = float(np.linalg.norm(w))
    # The line w.x = theta meets the window [-a, a]^2 iff |theta| <= a (|w1| + |w2|).
    half = float(ax.get_xlim()[1])
    outside = [th for th in thetas if abs(th) > half * float(np.abs(w).sum())]
    if norm == 0.0:
        where = "w is the zero vector, so no line is drawn."
    else:
        where = (f"Each line lies at signed distance θ/‖w‖ from the origin, here "
                 f"{join(num(th / norm) for th in thetas)}: the larger θ, the further "
                 "the line is shifted in the direction of w.")
        if outside:
            which = join(num(th) for th in outside)
            where += (f" The line for θ = {which} lies" if len(outside) == 1
                      else f" The lines for θ = {which} lie") + " outside the window."
    fig.alt_text = (
        f"A plot of the decision lines w.x = θ of one weight vector w = {point(w)}, "
        f"with ‖w‖ = {num(norm)}, for θ = {join(num(th) for th in thetas)}, one line "
        f"style each, and an arrow along w. {where}")
    return fig


def plot_reflection(X: ArrayLike, y: ArrayLike, w: ArrayLike) -> Figure:
    """Patterns with labels and a separating ``w`` (left); the reflected ``y x`` (right).

    On the right every reflected pattern should lie on the positive side of the line
    ``w.x = 0``; each pattern with label -1 is shown where it was (open square) and
    joined to its reflection by a dotted segment.

    Parameters
    ----------
    X : array_like, shape (P, 2)
        Patterns.
    y : array_like, shape (P,)
        Labels in {-1, +1}.
    w : array_like, shape (2,)
        A weight vector through the origin.

    Returns
    -------
    Figure
        With a description of what it shows as its ``repr`` (the figure's alt text):
        the counts of each label, of mistakes (``y w.x <= 0``) and of reflected
        patterns on the side ``w`` points to.

    Examples
    --------
    >>> fig = plot_reflection([[1.0, 0.5], [-1.0, 0.2]], [1, -1], [1.0, 0.0])
    >>> fig.axes[1].get_title().startswith("reflected")
    True
    >>> "all 2 lie strictly on the side w points to" in repr(fig)
    True
    """
    X = as_plane_points(X)
    y = as_labels(y, X.shape[0])
    w = as_weights(w, 2)
    J = reflect(X, y)
    limit = max(3.0, float(np.ceil(np.max(np.abs(X)))) + 0.5)
    fig, (left, right) = new_figure(2, width=4.2, height=4.0)
    for ax, pts, labels in [(left, X, y), (right, J, np.ones(len(J)))]:
        setup_plane(ax, (-limit, limit, -limit, limit))
        pos, _ = plot_patterns(ax, pts, labels, label=ax is left)
        decision_line(ax, w, 0.0)
        normal_arrow(ax, w, 0.0, length=1.2)
    left.set_title(r"patterns $\mathbf{x}_\mu$ with labels $y_\mu$", fontsize=10)
    right.set_title(r"reflected $\mathbf{J}_\mu = y_\mu \mathbf{x}_\mu$", fontsize=10)
    pos.set_label(r"$\mathbf{J}_\mu$")
    negatives = X[y < 0]
    right.scatter(*negatives.T, s=45, marker="s", facecolors="none",
                  edgecolors=NEGATIVE_COLOR, label=r"$\mathbf{x}_\mu$ with $y_\mu=-1$")
    for x, j in zip(negatives, J[y < 0], strict=True):
        right.plot([x[0], j[0]], [x[1], j[1]], color=NEGATIVE_COLOR, lw=0.6, ls=":")
    legend(left)
    legend(right, loc="lower left")
    P, n_neg = len(X), int(np.count_nonzero(y < 0))
    mistakes = count_mistakes(X, y, w)
    ahead = int(np.count_nonzero(J @ w > 0))  # counted on the reflected points drawn
    if not np.any(w):
        verdict = "w is zero: no line is drawn and every pattern is a mistake"
    elif mistakes == 0:
        verdict = "every pattern lies on the side of its label"
    else:
        verdict = (f"{mistakes} of the {count(P, 'pattern')} lie on the wrong side of "
                   "the line or on it (y w.x ≤ 0)")
    moved = (f", the {n_neg} labelled -1 flipped through the origin (dotted segments "
             "join old and new places)" if n_neg
             else ": no pattern is labelled -1, so none moves")
    share = f"all {P}" if ahead == P else f"{ahead} of the {P}"
    fig.alt_text = (
        f"Two panels. Left: {count(P, 'pattern')}, {P - n_neg} labelled +1 (blue "
        f"circles) and {n_neg} labelled -1 (orange squares), and the line w.x = 0 with "
        f"an arrow along w; {verdict}. Right: the reflected patterns y x{moved}; "
        f"{share} lie strictly on the side w points to.")
    return fig
