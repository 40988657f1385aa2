"""The shared plotting primitives and the SliderFigure mechanism."""

from __future__ import annotations

import base64

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
import pytest

from perclib.plotting import (
    decision_line,
    margin_lines,
    new_figure,
    normal_arrow,
    plot_patterns,
    setup_plane,
    update_arrow,
    update_line,
    update_patterns,
)
from perclib.widgets import SliderFigure


def test_decision_line_lies_on_the_hyperplane() -> None:
    fig, (ax,) = new_figure()
    setup_plane(ax)
    w, theta = np.array([2.0, -1.0]), 0.7
    line = decision_line(ax, w, theta)
    pts = np.column_stack([line.get_xdata(), line.get_ydata()])
    assert np.allclose(pts @ w, theta)
    update_line(line, [0.0, 0.0])  # no hyperplane: nothing drawn, no exception
    assert np.all(np.isnan(line.get_xdata()))


def test_margin_lines_are_at_distance_gamma() -> None:
    fig, (ax,) = new_figure()
    w, theta, gamma = np.array([3.0, 4.0]), 1.0, 0.25
    upper, lower = margin_lines(ax, w, theta, gamma)
    for line, sign in ((upper, 1), (lower, -1)):
        pts = np.column_stack([line.get_xdata(), line.get_ydata()])
        assert np.allclose((pts @ w - theta) / 5.0, sign * gamma)


def test_patterns_move_between_classes_in_place() -> None:
    fig, (ax,) = new_figure()
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]])
    pos, neg = plot_patterns(ax, X, [1, 1, -1])
    n_collections = len(ax.collections)
    update_patterns((pos, neg), X, [-1, -1, -1])
    assert len(ax.collections) == n_collections  # same artists, moved
    assert pos.get_offsets().shape[0] == 0 and neg.get_offsets().shape[0] == 3


def test_normal_arrow_points_along_w_and_hides_for_zero() -> None:
    fig, (ax,) = new_figure()
    arrow = normal_arrow(ax, [0.0, 2.0], 1.0, length=0.5)
    assert np.allclose(arrow.xy, (0.0, 1.0))  # foot (0, 0.5) plus 0.5 along the unit normal
    update_arrow(arrow, [0.0, 0.0])
    assert not arrow.get_visible()


def make_demo() -> tuple[SliderFigure, object]:
    fig, (ax,) = new_figure()
    setup_plane(ax)
    line = decision_line(ax, [1.0, 0.0])

    def redraw(values: dict) -> str:
        angle = np.deg2rad(values["angle"])
        update_line(line, [np.cos(angle), np.sin(angle)], values["theta"])
        return f"angle {values['angle']:.0f}"

    controls = {
        "angle": widgets.FloatSlider(value=0.0, min=0.0, max=180.0),
        "theta": widgets.FloatSlider(value=0.0, min=-1.0, max=1.0),
    }
    return SliderFigure(fig, controls, redraw), line


def test_slider_move_redraws_the_same_figure() -> None:
    open_before = plt.get_fignums()
    demo, line = make_demo()
    first_png = demo.image.value
    demo.controls["angle"].value = 90.0
    assert demo.n_redraws == 2
    assert np.allclose(line.get_ydata(), 0.0, atol=1e-9)  # w = (0, 1): the line y = 0
    assert demo.image.value != first_png
    assert demo.status.value == "angle 90"
    assert plt.get_fignums() == open_before  # no pyplot figure stacked per move


def _captured_display(demo: SliderFigure) -> tuple[list[dict], list[dict]]:
    """What a kernel publishes when ``demo`` is shown, then when a slider moves."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.display import display
    from IPython.utils.capture import capture_output

    InteractiveShell.instance()
    with capture_output() as shown:
        display(demo)
    with capture_output() as moved:
        demo.controls["angle"].value = 90.0
    return shown.outputs, moved.outputs


def test_only_the_controls_are_a_widget() -> None:
    demo, _ = make_demo()
    shown, _moved = _captured_display(demo)
    kinds = [sorted(out.data) for out in shown]
    assert kinds == [
        ["application/vnd.jupyter.widget-view+json", "text/plain"],  # the control row
        ["image/png", "text/plain"],  # the figure: an ordinary output
        ["text/html", "text/plain"],  # the status line: an ordinary output
    ]
    assert base64.b64decode(shown[1].data["image/png"]).startswith(b"\x89PNG")
    assert shown[1].data["text/plain"] == "A figure driven by the sliders above. Now: angle 0"
    assert shown[2].data["text/html"] == "angle 0"


def test_a_slider_move_rewrites_the_outputs_in_place() -> None:
    demo, _ = make_demo()
    shown, moved = _captured_display(demo)
    ids = [out.transient.get("display_id") for out in shown[1:]]
    assert all(ids) and ids[0] != ids[1]
    # Only updates, for the two display ids: nothing is appended to the cell.
    assert [out.update for out in moved] == [True, True]
    assert [out.transient["display_id"] for out in moved] == [ids[1], ids[0]]
    status, figure = moved
    assert status.data == {"text/html": "angle 90", "text/plain": "angle 90"}
    assert figure.data["image/png"] != shown[1].data["image/png"]
    assert figure.data["text/plain"].endswith("Now: angle 90")


def test_unchanged_status_sends_no_update() -> None:
    demo, _ = make_demo()
    _captured_display(demo)
    from IPython.utils.capture import capture_output

    with capture_output() as moved:
        demo.controls["theta"].value = 0.5  # the status line does not mention theta
    assert len(moved.outputs) == 1 and "image/png" in moved.outputs[0].data


def test_slider_figure_needs_controls() -> None:
    fig, _ = new_figure()
    with pytest.raises(ValueError, match="at least one control"):
        SliderFigure(fig, {}, lambda values: None)


def test_a_value_echoed_with_another_last_bit_sends_nothing() -> None:
    """A frontend may send back 0.6000000000000001 for 0.6 (min + k * step): same frame."""
    demo, _ = make_demo()
    demo.controls["theta"].value = 0.6
    _captured_display(demo)  # shown, then angle moved to 90
    from IPython.utils.capture import capture_output

    with capture_output() as echo:
        demo.controls["theta"].value = -1.0 + 32 * 0.05  # 0.6000000000000001
    assert demo.controls["theta"].value != 0.6
    assert echo.outputs == [], "an identical frame was sent again (and would be saved again)"


class _ControlComm:
    """Stands in for ipywidgets' control comm: keeps what the kernel answers."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, data: dict, buffers: object = None) -> None:
        self.sent.append(data)


def _request_states(session: str) -> set[str]:
    """A frontend's ``request_states``; the model ids the kernel answers with."""
    comm = _ControlComm()
    before = widgets.Widget._control_comm
    widgets.Widget._control_comm = comm
    try:
        message = {"header": {"session": session}, "content": {"data": {"method": "request_states"}}}
        widgets.Widget._handle_control_comm_msg(message)
    finally:
        widgets.Widget._control_comm = before
    return set(comm.sent[-1]["states"])


def test_a_new_frontend_gets_no_live_controls_for_a_figure_it_cannot_update(monkeypatch) -> None:
    from perclib.widgets import base

    demo, _ = make_demo()
    monkeypatch.setattr(base, "_frontend_session", lambda: "first page")
    _captured_display(demo)
    row = {demo.widget.model_id, *(control.model_id for control in demo.controls.values())}

    # The same page reconnecting (a network drop): its controls stay live.
    assert row <= _request_states("first page")
    assert not demo.detached and demo.widget.comm is not None

    # A reopened lesson or reloaded page: its outputs no longer follow the figure, so the
    # kernel closes the controls before it answers (the row then says to run the cell).
    assert not row & _request_states("reopened page")
    assert demo.detached and demo.widget.comm is None
    assert all(control.comm is None for control in demo.controls.values())

    # Shown again (the student runs the cell in the new page): live again, same ids.
    monkeypatch.setattr(base, "_frontend_session", lambda: "reopened page")
    from IPython.display import display
    from IPython.utils.capture import capture_output

    with capture_output() as shown:
        display(demo)
    with capture_output() as moved:
        demo.controls["angle"].value = 45.0
    assert not demo.detached and row <= _request_states("reopened page")
    # The outputs shown in the new page follow the moves.
    new_ids = {out.transient["display_id"] for out in shown.outputs[1:]}
    assert {out.transient["display_id"] for out in moved.outputs} == new_ids


def test_a_figure_never_shown_is_not_detached() -> None:
    from perclib.widgets import base

    demo, _ = make_demo()
    assert base.detach_from_other_frontends("any page") == 0 or not demo.detached
    assert demo.widget.comm is not None
