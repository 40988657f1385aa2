"""Stored figures are byte-stable under last-bit changes of their data.

Two CPUs compute a lesson's curves up to the last bits (BLAS kernels, SIMD code). If
those bits reached the pixels, a student's Run All + save would change the stored
figures and their ``git pull`` would conflict. Here every artist's data are moved by a
few units in the last place and the PNG must come out byte for byte the same; the
same perturbation does change plain Agg output, so the check has teeth.
"""

from __future__ import annotations

import numpy as np
import pytest
from IPython.core.pylabtools import print_figure
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import Collection, PathCollection
from matplotlib.image import AxesImage
from matplotlib.lines import Line2D
from matplotlib.patches import Polygon, Rectangle
from matplotlib.path import Path
from matplotlib.text import Annotation

from perclib import novikoff_trace, perceptron, teacher_data
from perclib.widgets import learning_steps_figure, proof_figure
from perclib.widgets.registry import all_demos

DEMOS = all_demos()


def nudge(values: object, ulps: int, salt: int) -> np.ndarray:
    """Move each value by up to ``ulps`` units in the last place; equal values move alike.

    Equal inputs stay equal (a polygon that closes on its first point still closes), as
    on a real machine, where the same computation gives the same bits.
    """
    v = np.array(values, dtype=float)
    if v.size == 0:
        return v
    bits = np.ascontiguousarray(v).view(np.uint64)
    mixed = ((bits ^ np.uint64(salt)) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
    steps = (mixed % np.uint64(2 * ulps + 1)).astype(np.int64) - ulps
    return v + steps * np.spacing(np.abs(v))


def perturb(figure, ulps: int, salt: int = 0) -> int:
    """Nudge the data of every artist of ``figure``; return how many artists moved."""
    moved = 0
    for artist in figure.findobj():
        if isinstance(artist, Line2D):
            x, y = artist.get_xdata(orig=True), artist.get_ydata(orig=True)
            if np.asarray(x).dtype.kind in "fiu" and np.asarray(y).dtype.kind in "fiu":
                artist.set_data(nudge(x, ulps, salt), nudge(y, ulps, salt))
                moved += 1
        elif isinstance(artist, Collection):
            offsets = np.asarray(artist.get_offsets())
            if offsets.size and np.any(offsets):
                artist.set_offsets(nudge(offsets, ulps, salt))
                moved += 1
            data_paths = not isinstance(artist, PathCollection) and len(artist.get_transforms()) == 0
            if data_paths and artist.get_paths():
                artist._paths = [Path(nudge(p.vertices, ulps, salt), p.codes) for p in artist.get_paths()]
                artist.stale = True
                moved += 1
        elif isinstance(artist, Polygon):
            artist.set_xy(nudge(artist.get_xy(), ulps, salt))
            moved += 1
        elif isinstance(artist, Rectangle) and artist.axes is not None and artist is not artist.axes.patch:
            x, y, w, h = nudge([artist.get_x(), artist.get_y(), artist.get_width(), artist.get_height()],
                               ulps, salt)
            artist.set_bounds(x, y, w, h)
            moved += 1
        elif isinstance(artist, AxesImage):
            artist.set_data(nudge(artist.get_array(), ulps, salt))
            moved += 1
        elif isinstance(artist, Annotation):
            artist.xy = tuple(nudge(artist.xy, ulps, salt))
            moved += 1
    return moved


def full_frame(demo) -> bytes:
    demo._background = None  # draw everything again, static artists included
    return demo.png()


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_slider_figure_pixels_ignore_last_bits(name: str) -> None:
    reference = full_frame(DEMOS[name]())
    for ulps, salt in ((1, 0), (4, 1), (64, 2)):
        demo = DEMOS[name]()
        assert perturb(demo.figure, ulps, salt) > 0
        assert full_frame(demo) == reference, f"{name}: {ulps} ulp(s) changed the stored figure"


def _lesson5_figures():
    data = teacher_data(60, 2, margin=0.02, rng=1)
    run = perceptron(data.X, data.y)
    yield learning_steps_figure(data.X, data.y, data.teacher, [1, 2])
    yield proof_figure(novikoff_trace(run, data.teacher))


def test_static_lesson_figures_ignore_last_bits() -> None:
    """Figures a lesson shows as ``fig`` go through IPython's PNG formatter, as in a kernel."""
    reference = [print_figure(fig, "png", bbox_inches="tight") for fig in _lesson5_figures()]
    for fig, expected in zip(_lesson5_figures(), reference, strict=True):
        assert perturb(fig, 4, 1) > 0
        assert print_figure(fig, "png", bbox_inches="tight") == expected


def test_the_perturbation_does_change_plain_agg_output() -> None:
    """Without the grid, the same nudges reach the pixels of some figures."""
    changed = []
    for name, build in DEMOS.items():
        plain, nudged = build(), build()
        for demo in (plain, nudged):
            demo._canvas = FigureCanvasAgg(demo.figure)
        perturb(nudged.figure, 4, 1)
        if full_frame(plain) != full_frame(nudged):
            changed.append(name)
            break  # one figure whose plain pixels move is the proof; the rest is cost
    assert changed, "the perturbation is too weak to test anything"


def _sweep(demo) -> None:
    """Visit every combination of each control's ends and middle, then go back."""
    import itertools

    from perclib.widgets.registry import control_values

    names = list(demo.controls)
    start = dict(demo.values)
    grid = [list(control_values(demo.controls[n], interior=1)) for n in names]
    for point in itertools.product(*grid):
        for name, value in zip(names, point, strict=True):
            demo.controls[name].value = value
    for name in names:
        demo.controls[name].value = start[name]


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_a_frame_does_not_depend_on_the_moves_before_it(name: str) -> None:
    """After any moves, a slider figure draws what a fresh one draws at the same values.

    The website's frames are rendered in one long sweep per widget, the notebook's
    after whatever a student did: both must equal a fresh figure's, byte for byte.
    (Lesson 1's threshold figure once kept pixels in the top row that the blitting
    background, copied from a bbox 459.99999 px high, did not restore.)
    """
    moved = DEMOS[name]()
    _sweep(moved)
    fresh = DEMOS[name]()
    for control, value in moved.values.items():  # some controls clamp others
        fresh.controls[control].value = value
    assert fresh.values == moved.values
    assert moved.png() == fresh.png(), f"{name}: the picture depends on earlier moves"


def test_an_arrow_leaving_the_figure_leaves_no_pixels_behind() -> None:
    """The case that found the bug: lesson 1's arrow reaches the top row at (-120, -3)."""
    from perclib.widgets.threshold import build_threshold_demo

    moved = build_threshold_demo()
    moved.controls["angle"].value = -120.0
    moved.controls["theta"].value = -3.0
    moved.controls["angle"].value = 45.0
    moved.controls["theta"].value = 0.5
    fresh = build_threshold_demo()
    fresh.controls["angle"].value = 45.0
    fresh.controls["theta"].value = 0.5
    assert moved.png() == fresh.png()
