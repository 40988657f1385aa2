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

Importing this module gives every widget a cell makes afterwards a model id derived
from the cell's source (:func:`stable_model_ids`): every run of a lesson creates the
same ids, so the widget state stored in the notebook file keeps matching the outputs a
student's own run saves (README, "Changing a lesson").
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import re
import textwrap
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

Redraw = Callable[[dict[str, Any]], str | None]

_STATUS_PT = 10.0  # the status line in a static frame: 14 px at 100 dpi


def _plain_text(html_text: str) -> str:
    """The status line without HTML: tags dropped, entities decoded, spaces collapsed.

    >>> _plain_text("w = <b>1</b> &nbsp;|&nbsp; x<br>y")
    'w = 1 | x y'
    """
    no_tags = re.sub(r"<br\s*/?>", " ", html_text)
    no_tags = re.sub(r"<[^>]+>", "", no_tags)
    return " ".join(html.unescape(no_tags).split())


def _hex_id(key: str) -> str:
    return hashlib.sha1(key.encode()).hexdigest()[:32]


def _execute_request() -> tuple[str, str] | None:
    """(msg_id, code) of the cell the kernel is running now, None outside a cell."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets depends on IPython
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return None
    parent = kernel.get_parent() or {}
    header = parent.get("header", {})
    if header.get("msg_type") != "execute_request":
        return None  # e.g. a slider callback (comm message): no stable id needed
    return header.get("msg_id", ""), parent.get("content", {}).get("code", "")


def stable_model_ids() -> None:
    """Give widgets model ids that depend only on the cell that creates them.

    Inside a kernel, the k-th widget a cell creates gets the id
    ``sha1(cell source, k)``: the same whenever that cell runs, in any order and in
    any kernel, so a saved lesson's outputs always name models whose state the
    lesson file stores (see ``coursetools.run``). When a cell runs again in the same
    kernel, the widget still holding that id (from the earlier run, whose output
    the re-run replaced) is closed first. Widgets made outside a cell (in a slider
    callback) keep random ids; outside a kernel the ids come from a counter. Limitation:
    two cells with exactly the same source share ids, so the second closes the first's
    widgets (the lessons never repeat a widget cell verbatim).
    Installed once per process (on import of this module); later calls do nothing;
    an explicit ``model_id`` is kept and an earlier construction callback still runs.

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
    cell = {"msg_id": None, "n": 0}
    made: dict[str, weakref.ref] = {}
    previous = widgets.Widget._widget_construction_callback

    def on_constructed(widget: widgets.Widget) -> None:
        # Runs in Widget.__init__ just before the comm opens with this id.
        if getattr(widget, "_model_id", None) is None:
            request = _execute_request()
            if request is None:
                if not _in_kernel():
                    widget._model_id = _hex_id(f"perclib-widget-{next(counter)}")
                # else: a slider callback; ipywidgets' random id is right there
            else:
                msg_id, code = request
                if msg_id != cell["msg_id"]:
                    cell["msg_id"], cell["n"] = msg_id, 0
                model_id = _hex_id(f"{code}\0{cell['n']}")
                cell["n"] += 1
                old = made.get(model_id)
                if old is not None and old() is not None and old().comm is not None:
                    old().close()  # from an earlier run of this cell; its output is gone
                made[model_id] = weakref.ref(widget)
                widget._model_id = model_id
        if callable(previous):
            previous(widget)

    widgets.Widget._perclib_model_ids = counter
    widgets.Widget.on_widget_constructed(on_constructed)


def _in_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover
        return False
    return getattr(get_ipython(), "kernel", None) is not None


stable_model_ids()


#: A slider spans the output column up to this width: its track is then about 550-600 px,
#: so a 40 px drag moves an angle slider over 360 degrees by about 25 degrees.
SLIDER_MAX_WIDTH = "800px"
_MIN_TRACK_PX = 500

_SLIDERS = (
    widgets.FloatSlider, widgets.IntSlider, widgets.FloatLogSlider, widgets.SelectionSlider,
    widgets.IntRangeSlider, widgets.FloatRangeSlider, widgets.SelectionRangeSlider,
)


def _long_track(control: widgets.Widget) -> None:
    """Give a slider the full cell width (capped) unless it was set wide on purpose."""
    if not isinstance(control, _SLIDERS):
        return
    width = control.layout.width or ""
    if width.endswith("px") and float(width[:-2]) >= _MIN_TRACK_PX + 150:
        return
    control.layout.width = "100%"
    control.layout.max_width = SLIDER_MAX_WIDTH


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
            _long_track(control)
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

    def static_png(self) -> bytes:
        """The frame kept for handouts: the figure with its status line (the key) under it.

        A printed page has no slider and no HTML status, so the line that explains the
        picture (values, counts, what the colours mean) is drawn into the image.
        """
        figure_png = self.image.value or self.png()
        status = _plain_text(self.status.value)
        if not status:
            return figure_png
        frame = Image.open(io.BytesIO(figure_png)).convert("RGBA")
        dpi = self.figure.dpi
        chars = max(20, int(frame.width / (0.6 * _STATUS_PT * dpi / 72)))
        lines = textwrap.wrap(status, width=chars) or [status]
        line_px = 1.45 * _STATUS_PT * dpi / 72
        strip = Figure(figsize=(frame.width / dpi, (len(lines) * line_px + 8) / dpi), dpi=dpi)
        strip.text(
            0.01, 0.5, "\n".join(lines), fontsize=_STATUS_PT, va="center", ha="left", color="#222222"
        )
        canvas = FigureCanvasAgg(strip)
        canvas.draw()
        w, h = canvas.get_width_height()
        text = Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        out = Image.new("RGBA", (frame.width, frame.height + text.height), "white")
        out.paste(frame, (0, 0))
        out.paste(text, (0, frame.height))
        buffer = io.BytesIO()
        out.save(buffer, format="png", optimize=True)
        return buffer.getvalue()

    def _on_change(self, change: dict[str, Any]) -> None:
        self.refresh()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        # Live frontends prefer the widget view; static exports fall back to the PNG.
        bundle = dict(self.widget._repr_mimebundle_(include=include, exclude=exclude) or {})
        bundle["image/png"] = base64.b64encode(self.static_png()).decode("ascii")
        bundle["text/plain"] = f"<{type(self).__name__}: {', '.join(self.controls)}>"
        return bundle
