"""Every lesson widget survives every control at its ends and points between.

Driven from Python the way the kernel receives slider moves, so no browser is
needed. A redraw that raises (a zero weight vector, an empty class, P = N...) fails here.
"""

from __future__ import annotations

import io

import ipywidgets as widgets
import numpy as np
import pytest
from PIL import Image

from perclib.widgets.registry import all_demos, control_values

DEMOS = all_demos()


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_every_control_value_redraws(name: str) -> None:
    demo = DEMOS[name]()
    for control_name, control in demo.controls.items():
        start = control.value
        for value in control_values(control):
            before = demo.n_redraws
            control.value = value
            if value != start:
                assert demo.n_redraws > before, f"{control_name}={value!r} did not redraw"
            start = control.value
        assert demo.image.value[:8] == b"\x89PNG\r\n\x1a\n"


def test_registry_finds_lesson_widgets() -> None:
    # The lessons register their widgets; an empty registry means the import broke.
    assert len(DEMOS) >= 1


BLITTED = sorted(name for name, build in DEMOS.items() if build()._moving)


@pytest.mark.parametrize("name", BLITTED)
def test_blitted_frames_match_a_full_redraw(name: str) -> None:
    # A moving artist left out of `moving` would freeze; a full draw would show it moved.
    demo = DEMOS[name]()
    for control in demo.controls.values():
        values = list(control_values(control))
        control.value = values[len(values) // 2]
    blitted = np.asarray(Image.open(io.BytesIO(demo.image.value)).convert("RGB"), dtype=int)
    for artist in demo._moving:
        artist.set_animated(False)
    demo._canvas.draw()
    full = np.asarray(demo._canvas.buffer_rgba())[:, :, :3].astype(int)
    assert blitted.shape == full.shape
    differ = np.any(np.abs(blitted - full) > 8, axis=-1)
    # Only the stacking order where a moving artist overlaps a static one may differ.
    assert differ.mean() < 0.002


@pytest.mark.parametrize("name", sorted(all_demos()))
def test_slider_values_start_on_their_step_grid(name: str) -> None:
    """The browser snaps an off-grid value and sends it back: the stored frame would then
    differ from what a student sees after Run All (lesson 6's gamma, lesson 9's alpha)."""
    import math

    for label, control in all_demos()[name]().controls.items():
        if isinstance(control, widgets.FloatLogSlider):
            steps = (math.log(control.value, control.base) - control.min) / control.step
        elif isinstance(control, widgets.FloatSlider):
            steps = (control.value - control.min) / control.step
        else:
            continue
        assert abs(steps - round(steps)) < 1e-9, f"{name}/{label}: {control.value} is off the grid"
