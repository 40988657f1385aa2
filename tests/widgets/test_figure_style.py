"""One figure style made for reading on screen and in print, checked on every lesson figure.

Every widget the lessons build (found through ``perclib.widgets.registry.all_demos``)
is drawn and measured in pixels at the display dpi, as the notebook shows it (the image
at its natural size):

* the figure is ``DISPLAY_DPI`` and between ``MIN_WIDTH_PX`` and ``MAX_WIDTH_PX`` wide,
  so the notebook column never shrinks it and a one-panel figure is not a thumbnail;
* no text is smaller than ``MIN_FONT_PX`` pixels, no legend text than ``MIN_LEGEND_PX``;
* every visible panel has tick numbers on each of its axes;
* no legend covers data: no plotted point or curve vertex lies under a legend;
* the static frame kept for handouts (the PNG in the display bundle) carries the
  status line (the key) under the figure.

Plain figures: ``perclib.plotting.new_figure`` gives the same dpi, widths and fonts.
"""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
from matplotlib.collections import PathCollection
from matplotlib.lines import Line2D
from matplotlib.text import Text
from PIL import Image

from perclib import plotting
from perclib.plotting import (
    DISPLAY_DPI,
    MAX_WIDTH_PX,
    MIN_FONT_PX,
    MIN_LEGEND_PX,
    MIN_WIDTH_PX,
    new_figure,
)
from perclib.widgets.registry import all_demos

DEMOS = all_demos()


def _visible_texts(fig):
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        ax = text.axes
        if ax is not None and not ax.get_visible():
            continue
        yield text


def _points_under(bbox, pts: np.ndarray) -> int:
    pad = 1.0
    inside = (
        (pts[:, 0] > bbox.x0 + pad)
        & (pts[:, 0] < bbox.x1 - pad)
        & (pts[:, 1] > bbox.y0 + pad)
        & (pts[:, 1] < bbox.y1 - pad)
    )
    return int(inside.sum())


def _axes_points(ax) -> np.ndarray:
    box = ax.get_window_extent()
    pts = []
    for art in ax.get_children():
        if not art.get_visible():
            continue
        if isinstance(art, PathCollection):
            offsets = np.asarray(art.get_offsets(), dtype=float)
            if offsets.size:
                pts.append(art.get_offset_transform().transform(offsets))
        elif isinstance(art, Line2D) and np.asarray(art.get_xydata()).size:
            pts.append(art.get_transform().transform(np.asarray(art.get_xydata(), dtype=float)))
    if not pts:
        return np.empty((0, 2))
    allp = np.vstack(pts)
    allp = allp[np.all(np.isfinite(allp), axis=1)]
    keep = (allp[:, 0] >= box.x0) & (allp[:, 0] <= box.x1) & (allp[:, 1] >= box.y0) & (allp[:, 1] <= box.y1)
    return allp[keep]


@pytest.fixture(scope="module", params=sorted(DEMOS), ids=str)
def drawn(request):
    demo = DEMOS[request.param]()
    png = demo.png()  # draws the figure as the notebook shows it
    return request.param, demo, png


def test_size_and_dpi(drawn):
    name, demo, png = drawn
    fig = demo.figure
    assert fig.dpi == DISPLAY_DPI, f"{name}: dpi {fig.dpi}, the course draws at {DISPLAY_DPI}"
    width = Image.open(io.BytesIO(png)).size[0]
    assert MIN_WIDTH_PX <= width <= MAX_WIDTH_PX, (
        f"{name}: {width} px wide; course figures are {MIN_WIDTH_PX}-{MAX_WIDTH_PX} px"
    )


def test_no_text_under_the_minimum(drawn):
    name, demo, _ = drawn
    fig = demo.figure
    small = [
        (round(t.get_fontsize() * fig.dpi / 72, 1), t.get_text()[:40])
        for t in _visible_texts(fig)
        if t.get_fontsize() * fig.dpi / 72 < MIN_FONT_PX - 1e-6
    ]
    assert not small, f"{name}: text under {MIN_FONT_PX} px at 100% zoom: {small[:5]}"


def test_legends_are_readable(drawn):
    """A legend is read at a glance (on a projector, in print): at least 9 pt."""
    from matplotlib.legend import Legend

    name, demo, _ = drawn
    fig = demo.figure
    small = [
        (round(t.get_fontsize() * fig.dpi / 72, 1), t.get_text()[:40])
        for legend in fig.findobj(Legend) if legend.get_visible()
        for t in [*legend.get_texts(), legend.get_title()]
        if t.get_visible() and t.get_text().strip()
        and t.get_fontsize() * fig.dpi / 72 < MIN_LEGEND_PX - 1e-6
    ]
    assert not small, f"{name}: legend text under {MIN_LEGEND_PX} px: {small[:5]}"


def test_every_panel_has_tick_numbers(drawn):
    name, demo, _ = drawn
    for i, ax in enumerate(demo.figure.axes):
        if not ax.get_visible() or plotting.is_diagram(ax):
            continue
        axis_on = ax._axis3don if ax.name == "3d" else ax.axison  # 3-D axes keep their own flag
        assert axis_on, f"{name}: panel {i} has its axes (and tick numbers) turned off"
        axes = [ax.xaxis, ax.yaxis] + ([ax.zaxis] if ax.name == "3d" else [])
        for axis in axes:
            labels = [t.get_text() for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
            assert len(labels) >= 2, f"{name}: panel {i} {axis.axis_name}-axis has no tick numbers"


def test_legends_do_not_cover_data(drawn):
    name, demo, _ = drawn
    fig = demo.figure
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    renderer = fig.canvas.get_renderer()
    for leg in legends:
        if not leg.get_visible():
            continue
        bbox = leg.get_window_extent(renderer)
        for ax in fig.axes:
            if not ax.get_visible() or ax.name == "3d":
                continue
            covered = _points_under(bbox, _axes_points(ax))
            assert covered == 0, f"{name}: a legend covers {covered} plotted points"


def test_every_figure_is_described_in_words(drawn):
    """The figure output's text/plain says what it shows (alt text, screen readers)."""
    name, demo, png = drawn
    bundle = demo._repr_mimebundle_()
    assert base64.b64decode(bundle["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
    text = bundle["text/plain"]
    assert not text.startswith("A figure driven by the sliders"), f"{name}: no description of its own"
    assert len(demo.description.split()) >= 15, f"{name}: describe the panels, not just name them"
    assert "$" not in demo.description, f"{name}: the description is read aloud, not typeset"
    if demo.status.value.strip():
        # The key (values, counts, colours) travels with the figure as its status line.
        assert text.endswith(" Now: " + _plain(demo.status.value)), name


def _plain(status_html: str) -> str:
    from perclib.widgets.base import _plain_text

    return _plain_text(status_html)


@pytest.mark.parametrize("ncols", [1, 2, 3, 4])
def test_new_figure_style_defaults(ncols):
    fig, axes = new_figure(ncols)
    assert fig.dpi == DISPLAY_DPI
    width = fig.get_size_inches()[0] * fig.dpi
    assert MIN_WIDTH_PX <= round(width) <= MAX_WIDTH_PX
    for ax in axes:
        fig.canvas.draw() if hasattr(fig.canvas, "draw") else None
        tick = ax.xaxis.get_ticklabels()[0]
        assert tick.get_fontsize() * fig.dpi / 72 >= MIN_FONT_PX
    tiny = axes[0].text(0.5, 0.5, "small on purpose", fontsize=3)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    assert tiny.get_fontsize() * fig.dpi / 72 >= MIN_FONT_PX - 1e-9
    assert all(size * DISPLAY_DPI / 72 >= MIN_FONT_PX for size in plotting.FONT_SIZES.values())


def test_legend_default_is_beside_the_axes():
    fig, (ax,) = new_figure()
    plotting.plot_patterns(ax, [[0.0, 0.0], [1.0, 1.0], [-1.0, 0.5]], [1, -1, 1])
    plotting.setup_plane(ax)
    leg = plotting.legend(ax)
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig).draw()
    assert leg.get_window_extent().x0 >= ax.get_window_extent().x1


def test_sliders_have_long_tracks_and_start_inside(drawn):
    """Full cell width (capped at 800 px), and a starting value away from both ends."""
    name, demo, _ = drawn
    for key, control in demo.controls.items():
        if not hasattr(control, "min") or not hasattr(control, "max"):
            continue
        width = control.layout.width or ""
        assert width == "100%" or (width.endswith("px") and float(width[:-2]) >= 650), (
            f"{name}: slider {key!r} has width {width!r}; sliders span the cell"
        )
        lo, hi = control.min, control.max
        if hasattr(control, "base"):  # FloatLogSlider: min and max are exponents
            lo, hi = control.base**lo, control.base**hi
        assert lo < control.value < hi, f"{name}: slider {key!r} starts at an end: {control.value}"
