"""Lessons 7 and 8 widgets: predictors on noisy data (7), and kernel decision boundaries (8).

``build_noise_comparison``: a label-noise slider. Left, one noisy training set in
the plane with the teacher's line and the lines of the last, pocket and averaged
weights; right, the held-out error of the last, pocket, averaged and voted
predictors against the noise, averaged over several training sets.

``build_kernel_boundary``: a degree slider (polynomial kernel, left) and a width
slider (Gaussian kernel, right) on XOR-like data or two rings; the kernel
perceptron's decision regions, boundary and support patterns.

Everything a control can reach is computed when the widget is built; a move only
swaps data into existing artists (``SliderFigure`` with ``moving=``).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
import numpy as np
from contourpy import contour_generator
from matplotlib.colors import ListedColormap
from numpy.typing import NDArray

from perclib._validation import as_count
from perclib.data import teacher_data
from perclib.plotting import (
    ACCENT_COLOR,
    BOUNDARY_COLOR,
    HIGHLIGHT_COLOR,
    MARGIN_COLOR,
    NORMAL_COLOR,
    POSITIVE_COLOR,
    decision_line,
    new_figure,
    plot_patterns,
    setup_plane,
    update_line,
    update_patterns,
)
from perclib.train.averaged import averaged_perceptron
from perclib.train.kernel_perceptron import kernel_perceptron
from perclib.train.pocket import pocket
from perclib.units import sign
from perclib.widgets.base import SliderFigure

_STYLE = {"description_width": "initial"}
_LAYOUT = widgets.Layout(width="520px")
PREDICTORS = ("last", "pocket", "averaged", "voted")
_COLORS = {"last": NORMAL_COLOR, "pocket": HIGHLIGHT_COLOR, "averaged": ACCENT_COLOR,
           "voted": POSITIVE_COLOR}


# ---------------------------------------------------------------------------
# Label noise: four predictors
# ---------------------------------------------------------------------------


def noisy_teacher(
    P: int, N: int, noise: float, *, seed: int, teacher: NDArray[np.float64] | None = None
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Gaussian patterns labelled by a teacher, then each label flipped with prob. ``noise``.

    The flips are nested: the same uniform draw per pattern is compared with
    ``noise``, so a larger noise flips a superset of the labels. Returns ``(X, y, u)``.

    Examples
    --------
    >>> X, y, u = noisy_teacher(100, 2, 0.2, seed=0)
    >>> X.shape, bool(np.mean(y != sign(X @ u, at_zero=1)) < 0.35)
    ((100, 2), True)
    """
    d = teacher_data(P, N, margin=0.0, teacher=teacher, rng=seed)
    flip = np.random.default_rng([seed, 1]).random(P) < noise
    return d.X, np.where(flip, -d.y, d.y), d.teacher


def four_predictors(
    X: NDArray[np.float64], y: NDArray[np.float64], *, epochs: int, seed: int
) -> dict[str, Any]:
    """Last, pocket (best seen) and averaged weights, and the voted predictor's result.

    Examples
    --------
    >>> X, y, _ = noisy_teacher(40, 2, 0.1, seed=1)
    >>> sorted(four_predictors(X, y, epochs=5, seed=0))
    ['averaged', 'last', 'pocket', 'voted']
    """
    avg = averaged_perceptron(X, y, epochs=epochs)
    return {
        "last": avg.run.w,
        "pocket": pocket(X, y, best_seen=True, max_epochs=epochs, rng=seed).w,
        "averaged": avg.w,
        "voted": avg,
    }


def held_out_errors(
    predictors: dict[str, Any], Z: NDArray[np.float64], labels: NDArray[np.float64]
) -> dict[str, float]:
    """Fraction of held-out patterns each predictor gets wrong (``sign(0) = -1``)."""
    out = {}
    for name, model in predictors.items():
        guess = model.vote(Z) if name == "voted" else sign(Z @ model)
        out[name] = float(np.mean(guess != labels))
    return out


def noise_sweep(
    noises: NDArray[np.float64], *, P: int, N: int, seeds: int, epochs: int, n_test: int = 2000
) -> NDArray[np.float64]:
    """Held-out error against the teacher, shape ``(len(noises), seeds, 4)`` (PREDICTORS order).

    Examples
    --------
    >>> noise_sweep(np.array([0.0, 0.2]), P=30, N=2, seeds=2, epochs=3, n_test=100).shape
    (2, 2, 4)
    """
    out = np.empty((len(noises), seeds, len(PREDICTORS)))
    for s in range(seeds):
        Z = np.random.default_rng([s, 2]).standard_normal((n_test, N))
        for i, noise in enumerate(noises):
            X, y, u = noisy_teacher(P, N, float(noise), seed=s)
            errs = held_out_errors(four_predictors(X, y, epochs=epochs, seed=s), Z, sign(Z @ u, at_zero=1))
            out[i, s] = [errs[name] for name in PREDICTORS]
    return out


def build_noise_comparison(*, P: int = 60, seeds: int = 8, epochs: int = 20) -> SliderFigure:
    """A label-noise slider comparing the last, pocket, averaged and voted predictors.

    Examples
    --------
    >>> demo = build_noise_comparison(P=30, seeds=2, epochs=5)
    >>> sorted(demo.controls)
    ['noise']
    """
    P = as_count(P, "P", 2)
    seeds = as_count(seeds, "seeds", 1)
    epochs = as_count(epochs, "epochs", 1)
    noises = np.round(np.arange(0.0, 0.3001, 0.05), 2)
    sweep = noise_sweep(noises, P=P, N=2, seeds=seeds, epochs=epochs, n_test=1000)
    mean = sweep.mean(axis=1)
    shown = [noisy_teacher(P, 2, float(noise), seed=0) for noise in noises]
    lines_w = [four_predictors(X, y, epochs=epochs, seed=0) for X, y, _ in shown]

    fig, (ax, bx) = new_figure(2, width=4.3, height=4.0)
    setup_plane(ax, (-3.0, 3.0, -3.0, 3.0))
    points = plot_patterns(ax, shown[0][0], shown[0][1])
    decision_line(ax, shown[0][2], color=MARGIN_COLOR, lw=1.2, ls="--", label="teacher")
    drawn = {
        name: decision_line(ax, lines_w[0][name], color=_COLORS[name], lw=2.0, label=name)
        for name in ("last", "pocket", "averaged")
    }
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=8, frameon=False)
    ax.set_title("one training set (voted: no single line)", fontsize=9)

    styles = {"last": "o-", "pocket": "s-", "averaged": "^-", "voted": "v--"}
    for k, name in enumerate(PREDICTORS):
        bx.plot(noises, mean[:, k], styles[name], color=_COLORS[name], ms=4, lw=1.2, label=name)
    cursor = bx.axvline(noises[0], color=MARGIN_COLOR, lw=1.0, ls=":")
    (dots,) = bx.plot([], [], "o", ms=10, mfc="none", mec=BOUNDARY_COLOR, mew=1.4)
    bx.set_xlabel("fraction of labels flipped")
    bx.set_ylabel("held-out error (vs the teacher)")
    bx.set_xlim(-0.01, noises[-1] + 0.01)
    bx.set_ylim(0.0, max(0.05, 1.1 * float(mean.max())))
    bx.legend(loc="upper left", fontsize=8, framealpha=0.9)
    bx.set_title(f"mean over {seeds} training sets of {P} points", fontsize=9)

    def redraw(values: dict[str, Any]) -> str:
        i = int(np.argmin(np.abs(noises - float(values["noise"]))))
        X, y, _ = shown[i]
        update_patterns(points, X, y)
        for name, line in drawn.items():
            update_line(line, lines_w[i][name])
        cursor.set_xdata([noises[i], noises[i]])
        dots.set_data(np.full(len(PREDICTORS), noises[i]), mean[i])
        parts = ", ".join(f"{name} {100 * mean[i, k]:.1f}%" for k, name in enumerate(PREDICTORS))
        return f"{100 * noises[i]:.1f}% of the labels flipped; mean held-out error: {parts}"

    slider = widgets.FloatSlider(
        value=0.1, min=0.0, max=float(noises[-1]), step=0.05, description="label noise",
        readout_format=".2f", style=_STYLE, layout=_LAYOUT,
    )
    moving = [*points, *drawn.values(), cursor, dots]
    return SliderFigure(
        fig, {"noise": slider}, redraw, moving=moving,
        description=(
            "Left: one training set with a fraction of its labels flipped, and the "
            "lines of the last perceptron, the pocket and the averaged perceptron. "
            "Right: the mean held-out error of each variant against the fraction of "
            "labels flipped."
        ),
    )


# ---------------------------------------------------------------------------
# Kernel decision boundaries
# ---------------------------------------------------------------------------


def kernel_datasets(P: int = 80, seed: int = 3) -> dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Two data sets no line separates: an XOR cloud and two concentric rings.

    XOR: four Gaussian blobs around the corners ``(+-1, +-1)``, label ``sign(x1 x2)``
    of the corner. Rings: radius 1 (label +1) and 2 (label -1), with some jitter.

    Examples
    --------
    >>> {name: X.shape for name, (X, y) in kernel_datasets(20).items()}
    {'XOR': (20, 2), 'rings': (20, 2)}
    """
    rng = np.random.default_rng(seed)
    corners = rng.choice([-1.0, 1.0], size=(P, 2))
    X_xor = corners + 0.3 * rng.standard_normal((P, 2))
    y_xor = corners[:, 0] * corners[:, 1]
    y_rings = np.where(np.arange(P) % 2 == 0, 1.0, -1.0)
    radius = np.where(y_rings > 0, 1.0, 2.0) + 0.15 * rng.standard_normal(P)
    angle = rng.uniform(0, 2 * np.pi, P)
    X_rings = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return {"XOR": (X_xor, y_xor), "rings": (X_rings, y_rings)}


def boundary_path(
    xs: NDArray[np.float64], ys: NDArray[np.float64], F: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The zero level of ``F`` (rows along ``ys``) as one polyline, pieces split by NaN rows.

    Examples
    --------
    >>> g = np.linspace(-1, 1, 5)
    >>> path = boundary_path(g, g, g[None, :] + 0 * g[:, None])   # F = x: the line x = 0
    >>> bool(np.allclose(path[:, 0], 0.0))
    True
    """
    pieces = contour_generator(xs, ys, F).lines(0.0)
    if not pieces:
        return np.full((1, 2), np.nan)
    gap = np.full((1, 2), np.nan)
    return np.vstack([part for piece in pieces for part in (gap, piece)][1:])


def _kernel_views(
    X: NDArray[np.float64], y: NDArray[np.float64], grid: NDArray[np.float64], **kernel: Any
) -> dict[str, Any]:
    run = kernel_perceptron(X, y, max_epochs=200, **kernel)
    F = run.decision_function(grid).reshape(_GRID, _GRID)
    wrong = int(np.count_nonzero(y * run.decision_function(X) <= 0))
    return {"run": run, "F": F, "wrong": wrong}


_GRID = 120
_LIM = 3.0


def build_kernel_boundary(*, P: int = 80, seed: int = 3) -> SliderFigure:
    """Degree (polynomial kernel) and width (Gaussian kernel) sliders on XOR or rings.

    The polynomial kernel is ``(x.z + 1)^degree``, the Gaussian one
    ``exp(-||x - z||^2 / (2 sigma^2))``. Shaded: where the kernel perceptron says
    +1 (blue) or -1 (orange); black: its decision boundary; rings: the patterns it
    made mistakes on, the only ones its weights are built from.

    Examples
    --------
    >>> demo = build_kernel_boundary(P=20)
    >>> sorted(demo.controls)
    ['data', 'degree', 'width']
    """
    P = as_count(P, "P", 4)
    seed = as_count(seed, "seed", 0)
    data = kernel_datasets(P, seed)
    degrees = list(range(1, 7))
    widths = np.round(np.arange(0.1, 2.001, 0.1), 2)
    xs = np.linspace(-_LIM, _LIM, _GRID)
    gx, gy = np.meshgrid(xs, xs)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    views: dict[tuple[str, str, float], dict[str, Any]] = {}
    for name, (X, y) in data.items():
        for d in degrees:
            views[name, "poly", d] = _kernel_views(X, y, grid, kernel="poly", degree=d, coef0=1.0)
        for s in widths:
            views[name, "rbf", float(s)] = _kernel_views(X, y, grid, kernel="rbf", gamma=1 / (2 * s**2))
    for view in views.values():
        view["path"] = boundary_path(xs, xs, view["F"])

    fig, axes = new_figure(2, width=4.0, height=4.0)
    cmap = ListedColormap(["#f6dcae", "#bcd7ea"])  # light orange (-1), light blue (+1)
    artists = []
    for ax, title in zip(axes, ("polynomial kernel", "Gaussian kernel"), strict=True):
        setup_plane(ax, (-_LIM, _LIM, -_LIM, _LIM))
        image = ax.imshow(
            np.zeros((_GRID, _GRID)), extent=(-_LIM, _LIM, -_LIM, _LIM), origin="lower",
            cmap=cmap, vmin=-1, vmax=1, interpolation="nearest", zorder=0,
        )
        (boundary,) = ax.plot([], [], color=BOUNDARY_COLOR, lw=1.6, zorder=2)
        points = plot_patterns(ax, *data["XOR"], size=30)
        support = ax.scatter([], [], s=95, facecolors="none", edgecolors=BOUNDARY_COLOR,
                             linewidths=1.0, zorder=4, label="$\\alpha_\\mu > 0$")
        ax.set_title(title, fontsize=9)
        artists.append((image, boundary, points, support))
    axes[0].legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=8,
                   frameon=False)

    def show(k: int, view: dict[str, Any], X: NDArray[np.float64], y: NDArray[np.float64]) -> None:
        image, boundary, points, support = artists[k]
        image.set_data(np.where(view["F"] > 0, 1.0, -1.0))
        boundary.set_data(view["path"][:, 0], view["path"][:, 1])
        update_patterns(points, X, y)
        support.set_offsets(X[view["run"].support])

    def describe(view: dict[str, Any]) -> str:
        run = view["run"]
        state = f"converged after {run.epochs} epochs" if run.converged else "no convergence in 200 epochs"
        used = f"{run.support.size} of {len(run.alpha)} patterns used"
        return f"{state}, {used}, {view['wrong']} training errors"

    def redraw(values: dict[str, Any]) -> str:
        X, y = data[values["data"]]
        degree = int(values["degree"])
        width = float(widths[int(np.argmin(np.abs(widths - float(values["width"]))))])
        poly = views[values["data"], "poly", degree]
        rbf = views[values["data"], "rbf", width]
        show(0, poly, X, y)
        show(1, rbf, X, y)
        return (
            f"<b>left</b>, (x&middot;z + 1)<sup>{degree}</sup>: {describe(poly)}<br>"
            f"<b>right</b>, &sigma; = {width:.1f} (&gamma; = {1 / (2 * width**2):.2f}): {describe(rbf)}"
        )

    controls = {
        "data": widgets.Dropdown(options=list(data), value="rings", description="data",
                                 style=_STYLE),
        "degree": widgets.IntSlider(value=2, min=1, max=degrees[-1], description="degree (left)",
                                    style=_STYLE, layout=_LAYOUT),
        "width": widgets.FloatSlider(value=0.5, min=float(widths[0]), max=float(widths[-1]), step=0.1,
                                     description="width \u03c3 (right)", readout_format=".1f",
                                     style=_STYLE, layout=_LAYOUT),
    }
    moving = [part for group in artists for part in (group[0], group[1], *group[2], group[3])]
    # The frame must stay on top of the redrawn image.
    moving += [spine for ax in axes for spine in ax.spines.values()]
    return SliderFigure(
        fig, controls, redraw, moving=moving,
        description=(
            "Two panels, each a data set in the plane that no line separates, with "
            "the decision boundary and regions of a kernel perceptron: a polynomial "
            "kernel on the left, a Gaussian kernel on the right."
        ),
    )


DEMOS = {
    "noise_comparison": build_noise_comparison,
    "kernel_boundary": build_kernel_boundary,
}
