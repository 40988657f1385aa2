"""An Agg canvas whose pixels do not depend on the last bits of the data.

Two machines that run a lesson compute the same curves up to the last bits of
floating-point arithmetic (BLAS kernels and SIMD code differ between CPUs). Agg turns
a vertex into pixels at 1/256 px, so a difference of a few units in the last place can,
now and then, tip one anti-aliased edge pixel by one intensity level: a different PNG,
a stored lesson that changes when a student runs it, a ``git pull`` that conflicts.

:class:`StableCanvas` closes that door. Every vertex, marker position and collection
offset is taken to display space (pixels) and rounded to a grid of
:data:`GRID_PX` pixels *before* Agg sees it. A grid point is a multiple of 1/64, exact
in Agg's fixed point, so Agg's own rounding has nothing left to tip; a difference of
1e-12 px moves a vertex to another grid point only if it lies within 1e-12 px of a
grid boundary (probability about 1e-10 per vertex). The grid is far below what the eye
or Agg's anti-aliasing can show: a figure looks exactly as before.

Images (``imshow``) are left alone: their colours are quantised to 8 bits by the
colour map, where the same argument holds per pixel. Text is placed on whole pixels by
Agg already.

Examples
--------
>>> from matplotlib.figure import Figure
>>> fig = Figure(figsize=(2, 1), dpi=100)
>>> canvas = StableCanvas(fig)
>>> _ = fig.add_subplot().plot([0, 1], [0, 1 / 3])
>>> canvas.draw(); type(canvas.get_renderer()).__name__
'StableRenderer'
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.path import Path
from matplotlib.transforms import IdentityTransform, Transform

#: Spacing of the grid every vertex is rounded to, in pixels (exact in Agg's 24.8 fixed point).
GRID_PX = 1.0 / 64.0
_IDENTITY = IdentityTransform()


def snap_to_grid(points: np.ndarray) -> np.ndarray:
    """Round display coordinates to the :data:`GRID_PX` grid (NaN stays NaN).

    >>> snap_to_grid(np.array([[0.1, 2.0 / 3.0]])).tolist()
    [[0.09375, 0.671875]]
    """
    with np.errstate(invalid="ignore", over="ignore"):
        return np.round(np.asarray(points, dtype=float) / GRID_PX) * GRID_PX


def _snapped_path(path: Path, transform: Transform) -> Path:
    """``path`` in display space with its vertices on the grid (codes and flags kept)."""
    moved = transform.transform_path(path)
    snapped = Path(snap_to_grid(moved.vertices), moved.codes, _interpolation_steps=1, closed=False)
    snapped.should_simplify = path.should_simplify
    snapped.simplify_threshold = path.simplify_threshold
    return snapped


class StableRenderer(RendererAgg):
    """``RendererAgg`` that rounds geometry to the pixel grid before drawing it."""

    def _update_methods(self) -> None:
        super()._update_methods()
        raw_markers = self._renderer.draw_markers
        raw_collection = self._renderer.draw_path_collection

        def draw_markers(gc, marker_path, marker_trans, path, trans, rgbFace=None) -> None:  # noqa: N803
            # The marker shape is fixed (points); only where it is drawn depends on data.
            raw_markers(gc, marker_path, marker_trans, _snapped_path(path, trans), _IDENTITY, rgbFace)

        def draw_path_collection(
            gc, master_transform, paths, all_transforms, offsets, offset_trans, *rest: Any
        ) -> None:
            offsets = np.asarray(offsets, dtype=float)
            if offsets.size:
                offsets = snap_to_grid(offset_trans.transform(offsets.reshape(-1, 2)))
                offset_trans = _IDENTITY
            if len(all_transforms) == 0:
                # Data-space paths (contours, line and polygon collections).
                paths = [_snapped_path(p, master_transform) for p in paths]
                master_transform = _IDENTITY
            raw_collection(gc, master_transform, paths, all_transforms, offsets, offset_trans, *rest)

        self.draw_markers = draw_markers
        self.draw_path_collection = draw_path_collection

    def draw_path(self, gc, path, transform, rgbFace=None) -> None:  # noqa: N803 - matplotlib's name
        super().draw_path(gc, _snapped_path(path, transform), _IDENTITY, rgbFace)


class StableCanvas(FigureCanvasAgg):
    """``FigureCanvasAgg`` drawing with :class:`StableRenderer` (also for ``savefig``/PNG)."""

    def get_renderer(self) -> StableRenderer:  # type: ignore[override]
        w, h = self.get_width_height(physical=True)
        key = (w, h, self.figure.dpi)
        if self._lastKey != key or not isinstance(getattr(self, "renderer", None), StableRenderer):
            self.renderer = StableRenderer(w, h, self.figure.dpi)
            self._lastKey = key
        return self.renderer
