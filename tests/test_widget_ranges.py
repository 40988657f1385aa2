"""Every lesson widget survives every control at its ends and points between.

Driven from Python the way the kernel receives slider moves, so no browser is
needed. A redraw that raises (a zero weight vector, an empty class, P = N...) fails here.
"""

from __future__ import annotations

import pytest

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
