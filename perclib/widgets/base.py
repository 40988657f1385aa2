"""The one mechanism every lesson widget uses: controls -> redraw -> outputs.

A :class:`SliderFigure` owns a pyplot-free matplotlib figure, a set of ipywidgets
controls and a ``redraw`` callback that moves existing artists. On every control
change it calls ``redraw``, renders the figure to PNG and rewrites two ordinary
notebook outputs in place through their display ids (:class:`LiveOutput`): the
figure (``image/png`` with a ``text/plain`` description) and the status line
(``text/html``). Only the controls are widgets.

Why the figure is not a widget: a widget's picture lives in the widget manager's
state, and when a lesson is reopened the manager can lose the race to restore it
(``Error displaying widget: model not found``, ipywidgets issue 4026). An ordinary
output is stored in the notebook file and shown by every frontend, exporter and
handout, with or without a kernel. Updating it through its display id appends
nothing (no stacked figures) and needs no extension; the callback is ordinary Python,
so tests drive it without a browser by setting ``control.value`` exactly as the
frontend does.

The display ids tie the outputs to the page that ran the cell. A page opened later on
the same running kernel (a reopened lesson, a reload) shows the stored outputs, which
no longer follow the kernel; when its widget manager asks for the widgets' states, the
kernel closes the controls of every figure another page showed
(:func:`detach_from_other_frontends`), so that no live control contradicts its figure.

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
import math
import re
import sys
import uuid
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox
from PIL import Image

from perclib.stable_canvas import StableCanvas

Redraw = Callable[[dict[str, Any]], str | None]

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


def _kernel_parent() -> dict | None:
    """The message the kernel is handling now, None outside a kernel."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets depends on IPython
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None or not hasattr(kernel, "get_parent"):
        return None
    return kernel.get_parent() or {}


def _execute_request() -> tuple[str, str] | None:
    """(msg_id, code) of the cell the kernel is running now, None outside a cell."""
    parent = _kernel_parent()
    if parent is None:
        return None
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


def _frontend_session() -> str | None:
    """The client session id of the frontend whose message the kernel is handling."""
    return (_kernel_parent() or {}).get("header", {}).get("session")


#: Slider figures shown in a frontend, with the client session that showed them.
_SHOWN: weakref.WeakKeyDictionary[SliderFigure, str | None] = weakref.WeakKeyDictionary()


def detach_from_other_frontends(session: str | None) -> int:
    """Close the controls of every slider figure shown by a frontend other than ``session``.

    A lesson reopened (or its page reloaded) while its kernel runs is a new frontend:
    its figure and status line come from the file (the starting frame the save hook
    keeps) and no longer receive the kernel's updates, whose display ids belonged to
    the old page. Live controls there would show the student's last values above the
    starting frame and move nothing. Closed, they show the course's sentence instead
    (run the cell to bring the sliders back), and a run gives a consistent live figure.
    A frontend that reconnects (same session, e.g. after a network drop) keeps them.
    Called when a frontend asks the kernel for its widgets' states.

    Returns
    -------
    int
        How many slider figures were detached.
    """
    others = [figure for figure, shown_by in list(_SHOWN.items()) if shown_by != session]
    for figure in others:
        figure.detach()
    return len(others)


def _watch_new_frontends() -> None:
    """Detach slider figures when another frontend asks for the widgets' states.

    The widget manager of a newly opened lesson or page sends ``request_states`` on
    ipywidgets' control comm; the figures must be closed before the kernel answers
    with the states. Installed once. Not on Google Colab, whose own widget frontend
    (one frame per output) these tests cannot drive, nor with an ipywidgets that has no
    control comm.
    """
    original = widgets.Widget.__dict__.get("_handle_control_comm_msg")
    if original is None or getattr(widgets.Widget, "_perclib_watches_frontends", False):
        return
    if "google.colab" in sys.modules:
        return

    def handle(cls: type, msg: dict) -> Any:
        data = msg.get("content", {}).get("data", {})
        if data.get("method") == "request_states":
            detach_from_other_frontends(msg.get("header", {}).get("session"))
        return original.__func__(cls, msg)

    widgets.Widget._handle_control_comm_msg = classmethod(handle)
    widgets.Widget._perclib_watches_frontends = True


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


def _on_step_grid(control: widgets.Widget) -> None:
    """Move a slider's value onto its step grid, where the browser would put it.

    A slider shown in the browser snaps an off-grid value (0.247 with step 0.0025) to the
    nearest step and sends it back: the figure a student sees would then differ from the
    one the lesson stored. Snapping here, before the first frame, makes them the same.

    >>> s = widgets.FloatSlider(value=0.247, min=0.0, max=1.0, step=0.0025)
    >>> _on_step_grid(s); round(s.value, 12)
    0.2475
    """
    if isinstance(control, widgets.FloatLogSlider):
        exponent = math.log(control.value, control.base)
        steps = (exponent - control.min) / control.step
        if abs(steps - round(steps)) > 1e-9:
            snapped = min(max(control.min + round(steps) * control.step, control.min), control.max)
            control.value = control.base**snapped
    elif isinstance(control, widgets.FloatSlider) and control.step:
        steps = (control.value - control.min) / control.step
        if abs(steps - round(steps)) > 1e-9:
            snapped = control.min + round(steps) * control.step
            control.value = min(max(snapped, control.min), control.max)


def start_value(value: object, name: str, lo: float, hi: float) -> float:
    """A slider's start value, checked: a real number in the slider's range ``[lo, hi]``.

    ipywidgets would clamp an out-of-range start silently and fail on NaN with "cannot
    convert float NaN to integer"; a student should instead read which argument is wrong.

    Examples
    --------
    >>> start_value(30, "angle", -180.0, 180.0)
    30.0
    """
    from perclib._validation import as_real

    number = as_real(value, name)  # TypeError for non-numbers, ValueError for NaN/inf
    if not lo <= number <= hi:
        wanted = f">= {lo:g}" if math.isinf(hi) else f"between {lo:g} and {hi:g} (the slider's range)"
        raise ValueError(f"{name} must be {wanted}, got {number:g}")
    return number


def checked_float_slider(
    name: str, value: object, lo: float, hi: float, **kwargs: Any
) -> widgets.FloatSlider:
    """A FloatSlider on ``[lo, hi]`` whose start ``value`` is checked by :func:`start_value`.

    The range is written once: the check and the slider cannot disagree.

    Examples
    --------
    >>> checked_float_slider("theta", 0.5, -1.0, 1.0, step=0.05).max
    1.0
    """
    return widgets.FloatSlider(value=start_value(value, name, lo, hi), min=lo, max=hi, **kwargs)


class LiveOutput:
    """One ordinary notebook output that a slider callback rewrites in place.

    :meth:`show` displays the current value as a ``display_data`` output under a display
    id of its own; every later assignment to :attr:`value` sends an
    ``update_display_data`` for that id, so the frontend replaces the output (every
    copy of it) instead of appending one. What the notebook file keeps is an ordinary
    output holding the last value: a reopened lesson shows it with no kernel and no
    widget manager. Before :meth:`show` (in tests, outside a kernel) only the value
    changes.

    Parameters
    ----------
    bundle : callable
        ``bundle(value) -> dict``: the MIME bundle (``{"image/png": base64, "text/plain":
        ...}``) that shows ``value``.
    value : object
        The first value.

    Examples
    --------
    >>> status = LiveOutput(lambda v: {"text/plain": v}, "w = 1")
    >>> status.value = "w = 2"
    >>> status.value, status.shown
    ('w = 2', False)
    """

    def __init__(self, bundle: Callable[[Any], dict[str, str]], value: Any) -> None:
        self._bundle = bundle
        self._value = value
        self._display_id = uuid.uuid4().hex
        self.shown = False

    @property
    def value(self) -> Any:
        """The value shown now."""
        return self._value

    @value.setter
    def value(self, new: Any) -> None:
        self._value = new
        if self.shown:
            from IPython.display import update_display

            update_display(self._bundle(new), raw=True, display_id=self._display_id)

    def show(self) -> None:
        """Display the current value as an output of the running cell."""
        from IPython.display import display

        display(self._bundle(self._value), raw=True, display_id=self._display_id)
        self.shown = True


#: What a reader without live widgets sees in place of the controls (GitHub, a fresh clone).
CONTROL_ROW_TEXT = "Run this cell to move the sliders."


class ControlRow(widgets.VBox):
    """The row of controls: a VBox whose text form reads well where widgets do not run.

    A notebook file stores a widget view with a ``text/plain`` alternative, which
    ipywidgets takes from ``repr``; a lesson opened where no widget manager runs shows
    that text instead of ``VBox(children=(FloatSlider(...``. The class
    ``perclib-controls`` lets the course settings' style find the row (a row without a
    kernel says in words how to bring the sliders back).

    >>> repr(ControlRow([widgets.IntSlider()]))
    'Run this cell to move the sliders.'
    """

    def __init__(self, children: Sequence[widgets.Widget] = (), **kwargs: Any) -> None:
        super().__init__(list(children), **kwargs)
        self.add_class("perclib-controls")

    def __repr__(self) -> str:
        return CONTROL_ROW_TEXT


class SliderFigure:
    """A figure driven by named controls, redrawn in place on every change.

    In a notebook it shows as three outputs: the row of controls (the only widgets),
    the figure as an ordinary PNG output and the status line as an ordinary HTML
    output. A control change calls ``redraw`` and rewrites the last two in place
    (:class:`LiveOutput`), so the saved lesson holds the student's last frame as plain
    outputs that any viewer shows.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
        Made with :func:`perclib.plotting.new_figure` (not pyplot).
    controls : mapping of name -> ipywidgets ValueWidget
        Sliders, dropdowns, checkboxes... Their values reach ``redraw`` by name.
    redraw : callable
        ``redraw(values) -> str | None``: moves artists for the given values and may
        return an HTML status line (shown under the figure).
    description : str, optional
        What the figure shows, in words, for a reader who cannot see it: the
        ``text/plain`` of the figure output (screen readers, text exports, the alt
        text of the course website). The current status line is appended to it.
        Default: built from the panel titles.
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
    >>> sf = SliderFigure(fig, {"slope": widgets.FloatSlider(0.0, min=-1, max=1)}, redraw,
    ...                   description="A line through the origin.")
    >>> sf.controls["slope"].value = 0.5          # what a slider move does
    >>> float(line.get_ydata()[1]), sf.status.value
    (0.5, 'slope = 0.5')
    >>> sf.describe()
    'A line through the origin. Now: slope = 0.5'
    """

    def __init__(
        self,
        figure: Figure,
        controls: Mapping[str, widgets.ValueWidget],
        redraw: Redraw,
        *,
        description: str | None = None,
        freeze_layout: bool = True,
        moving: Sequence[Artist] = (),
    ) -> None:
        if not controls:
            raise ValueError("a SliderFigure needs at least one control")
        self.figure = figure
        self.controls = dict(controls)
        self._redraw = redraw
        self.description = description or _default_description(figure)
        canvas = figure.canvas
        self._canvas = canvas if isinstance(canvas, StableCanvas) else StableCanvas(figure)
        self._moving = sorted(moving, key=lambda artist: artist.get_zorder())
        for artist in self._moving:
            artist.set_animated(True)  # a full draw skips it; png() draws it on top
        self._background: Any = None
        self._freeze_layout = freeze_layout or bool(self._moving)
        self.image = LiveOutput(self._image_bundle, b"")
        self._pixels = b""
        self.status = LiveOutput(_status_bundle, "")
        self.n_redraws = 0
        for control in self.controls.values():
            _long_track(control)
            _on_step_grid(control)
            control.observe(self._on_change, names="value")
        #: The only widget: the row of controls.
        self.widget = ControlRow(list(self.controls.values()))
        self.refresh()

    @property
    def values(self) -> dict[str, Any]:
        """Current value of every control, by name."""
        return {name: control.value for name, control in self.controls.items()}

    def describe(self) -> str:
        """The figure in words: :attr:`description` and the current status line."""
        status = _plain_text(self.status.value)
        return f"{self.description} Now: {status}" if status else self.description

    def refresh(self) -> None:
        """Redraw the artists for the current values; update the figure and status outputs."""
        message = self._redraw(self.values)
        status_changed = message is not None and message != self.status.value
        if status_changed:
            self.status.value = message
        png = self.png()
        # The same picture is not sent again: a frontend echoing a value that differs in
        # its last bit (a slider snapping 0.6 to -1.5 + 42 * 0.05) must not rewrite the
        # stored frame, which is compressed differently.
        pixels = hashlib.sha1(self._canvas.buffer_rgba()).digest()
        if status_changed or pixels != self._pixels or not self.image.value:
            self.image.value = png
            self._pixels = pixels
        self.n_redraws += 1

    def png(self, *, compress_level: int = 1) -> bytes:
        """Draw the figure and return it as PNG bytes.

        The default compression is fast (a slider frame lives for a fraction of a
        second); the bytes depend only on the pixels, which :class:`StableCanvas`
        makes independent of last-bit differences in the data.
        """
        if self._background is None:
            self._canvas.draw()
            if self._freeze_layout and self.figure.get_layout_engine() is not None:
                self.figure.set_layout_engine("none")  # keep the positions just computed
            if self._moving:
                # The whole canvas in whole pixels: figure.bbox can be 459.99999 px high,
                # and then the copy misses the top row, where an arrow that leaves the
                # axes once leaves pixels for every later frame (frames then depend on
                # the order of the slider moves).
                width, height = self._canvas.get_width_height()
                self._background = self._canvas.copy_from_bbox(Bbox.from_bounds(0, 0, width, height))
        else:
            self._canvas.restore_region(self._background)
        for artist in self._moving:
            self.figure.draw_artist(artist)
        width, height = self._canvas.get_width_height()
        frame = Image.frombuffer("RGBA", (width, height), self._canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        buffer = io.BytesIO()
        frame.save(buffer, format="png", compress_level=compress_level)
        return buffer.getvalue()

    def _image_bundle(self, png: bytes) -> dict[str, str]:
        return {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": self.describe()}

    def _on_change(self, change: dict[str, Any]) -> None:
        self.refresh()

    def _ipython_display_(self) -> None:
        # Controls as a widget; figure and status as ordinary outputs that stay in the file.
        from IPython.display import display

        if self.detached:  # shown again after another frontend took over: reopen the comms
            for control in self.controls.values():
                control.open()
            self.widget.open()
        _watch_new_frontends()
        _SHOWN[self] = _frontend_session()
        display(self.widget)
        # The frame a saved lesson keeps: the same pixels, compressed harder.
        self.image._value = _recompressed(self.image.value or self.png())
        self.image.show()
        if self.status.value:
            self.status.show()

    def detach(self) -> None:
        """Close the controls' comms: no frontend shows them live any more.

        The figure keeps its values and still redraws when a control is set from
        Python; displaying it again reopens the controls. See
        :func:`detach_from_other_frontends`.
        """
        self.widget.close()
        for control in self.controls.values():
            control.close()
        _SHOWN.pop(self, None)

    @property
    def detached(self) -> bool:
        """True once :meth:`detach` closed the controls (until they are shown again)."""
        return self.widget.comm is None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        # Outside IPython's display machinery (e.g. a plain exporter): the figure alone.
        return self._image_bundle(self.image.value or self.png())


def _recompressed(png: bytes) -> bytes:
    buffer = io.BytesIO()
    Image.open(io.BytesIO(png)).save(buffer, format="png", optimize=True)
    return buffer.getvalue()


def _status_bundle(status_html: str) -> dict[str, str]:
    return {"text/html": status_html, "text/plain": _plain_text(status_html)}


def _default_description(figure: Figure) -> str:
    titles = [ax.get_title() for ax in figure.axes if ax.get_title()]
    if not titles:
        return "A figure driven by the sliders above."
    return "A figure driven by the sliders above; panels: " + "; ".join(titles) + "."
