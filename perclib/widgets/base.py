"""The one mechanism every lesson widget uses: controls -> redraw -> image.

A :class:`SliderFigure` owns a pyplot-free matplotlib figure, a set of ipywidgets
controls and a ``redraw`` callback that moves existing artists. On every control
change it calls ``redraw`` and renders the figure into an ``ipywidgets.Image``.

Why an image widget and not ``plt.show`` in an ``Output``: nothing is appended to
the notebook per move (no stacked figures), it needs no extra frontend extension
(works in JupyterLab 4 and Notebook 7 with plain ipywidgets), and the callback is
ordinary Python, so tests drive it without a browser by setting ``control.value``
exactly as the frontend does.

The object also carries a static PNG in its display bundle, so exports that cannot
run widgets (HTML/PDF handouts, an untrusted notebook) show the figure instead of a
dead slider.

Importing this module gives every widget made afterwards in the process a model id
from a counter (:func:`stable_model_ids`): a lesson run top to bottom in a fresh kernel
creates the same ids every time, so the widget state stored in the notebook file keeps
matching the outputs a student's own run saves (README, "Changing a lesson").
"""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

Redraw = Callable[[dict[str, Any]], str | None]


def _model_id(n: int) -> str:
    return hashlib.sha1(f"perclib-widget-{n}".encode()).hexdigest()[:32]


def stable_model_ids() -> None:
    """Number the model ids of widgets created from now on: ``0, 1, 2, ...`` hashed.

    Installed once per process (on import of this module); later calls do nothing.
    A widget given an explicit ``model_id`` keeps it, and a construction callback
    installed earlier still runs.

    Examples
    --------
    >>> stable_model_ids()
    >>> a, b = widgets.Label(), widgets.Label()
    >>> int(b.model_id != a.model_id), len(a.model_id)
    (1, 32)
    """
    if getattr(widgets.Widget, "_perclib_model_ids", None) is not None:
        return
    counter = itertools.count()
    previous = widgets.Widget._widget_construction_callback

    def on_constructed(widget: widgets.Widget) -> None:
        # Runs in Widget.__init__ just before the comm opens with this id.
        if getattr(widget, "_model_id", None) is None:
            widget._model_id = _model_id(next(counter))
        if callable(previous):
            previous(widget)

    widgets.Widget._perclib_model_ids = counter
    widgets.Widget.on_widget_constructed(on_constructed)


stable_model_ids()


class SliderFigure:
    """A figure driven by named controls, redrawn in place on every change.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        Made with :func:`perclib.plotting.new_figure` (not pyplot).
    controls : mapping of name -> ipywidgets ValueWidget
        Sliders, dropdowns, checkboxes... Their values reach ``redraw`` by name.
    redraw : callable
        ``redraw(values) -> str | None``: moves artists for the given values and may
        return an HTML status line (shown under the figure).
    freeze_layout : bool, default True
        Compute the figure's (constrained) layout once, then keep it. Layout is the
        most expensive part of a draw and the axes should not jump while a slider
        moves; pass False for figures whose tick labels change width a lot.
    moving : sequence of Artist, optional
        The artists ``redraw`` changes. When given, everything else is drawn once and
        kept as a background; each frame restores it and draws only these (blitting),
        typically 3-5 times faster. Every artist that changes must be listed (one left
        out freezes in its first state), and static artists that must stay on top of a
        moving one should be listed too. They are drawn in z-order. Needs a fixed
        layout, so it implies ``freeze_layout=True``.

    Examples
    --------
    >>> import ipywidgets as widgets
    >>> from perclib.plotting import new_figure
    >>> fig, (ax,) = new_figure()
    >>> (line,) = ax.plot([0, 1], [0, 0])
    >>> def redraw(v):
    ...     line.set_ydata([0, v["slope"]])
    ...     return f"slope = {v['slope']}"
    >>> sf = SliderFigure(fig, {"slope": widgets.FloatSlider(0.0, min=-1, max=1)}, redraw)
    >>> sf.controls["slope"].value = 0.5          # what a slider move does
    >>> float(line.get_ydata()[1]), sf.status.value
    (0.5, 'slope = 0.5')
    """

    def __init__(
        self,
        figure: Figure,
        controls: Mapping[str, widgets.ValueWidget],
        redraw: Redraw,
        *,
        freeze_layout: bool = True,
        moving: Sequence[Artist] = (),
    ) -> None:
        if not controls:
            raise ValueError("a SliderFigure needs at least one control")
        self.figure = figure
        self.controls = dict(controls)
        self._redraw = redraw
        self._canvas = FigureCanvasAgg(figure)
        self._moving = sorted(moving, key=lambda artist: artist.get_zorder())
        for artist in self._moving:
            artist.set_animated(True)  # a full draw skips it; png() draws it on top
        self._background: Any = None
        self._freeze_layout = freeze_layout or bool(self._moving)
        # Natural pixel size (a flex box would stretch it and blur it), never wider than the cell.
        self.image = widgets.Image(
            format="png", layout=widgets.Layout(max_width="100%", height="auto", align_self="flex-start")
        )
        self.status = widgets.HTML()
        self.n_redraws = 0
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.widget = widgets.VBox(
            [widgets.VBox(list(self.controls.values())), self.image, self.status]
        )
        self.refresh()

    @property
    def values(self) -> dict[str, Any]:
        """Current value of every control, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def refresh(self) -> None:
        """Redraw the artists for the current values and re-render the image."""
        message = self._redraw(self.values)
        if message is not None:
            self.status.value = message
        self.image.value = self.png()
        self.n_redraws += 1

    def png(self) -> bytes:
        """Draw the figure and return it as PNG bytes."""
        if self._background is None:
            self._canvas.draw()
            if self._freeze_layout and self.figure.get_layout_engine() is not None:
                self.figure.set_layout_engine("none")  # keep the positions just computed
            if self._moving:
                self._background = self._canvas.copy_from_bbox(self.figure.bbox)
        else:
            self._canvas.restore_region(self._background)
        for artist in self._moving:
            self.figure.draw_artist(artist)
        width, height = self._canvas.get_width_height()
        frame = Image.frombuffer("RGBA", (width, height), self._canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        buffer = io.BytesIO()
        # Fast compression: a slider frame lives for a fraction of a second.
        frame.save(buffer, format="png", compress_level=1)
        return buffer.getvalue()

    def _on_change(self, change: dict[str, Any]) -> None:
        self.refresh()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        # Live frontends prefer the widget view; static exports fall back to the PNG.
        bundle = dict(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {})
        bundle["image/png"] = base64.b64encode(self.image.value).decode("ascii")
        bundle["text/plain"] = f"<{type(self).__name__}: {', '.join(self.controls)}>"
        return bundle
