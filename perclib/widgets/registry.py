"""Find every lesson widget, for the benchmark and the robustness tests.

Each lesson module in ``perclib.widgets`` exposes ``DEMOS``: a dict from a name to
a zero-argument builder returning a :class:`SliderFigure` on the lesson's default
data. Collecting them here means a new lesson's widgets are benchmarked and
range-tested without editing either script.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from perclib.widgets.base import SliderFigure


def all_demos() -> dict[str, Callable[[], SliderFigure]]:
    """Every registered widget builder, keyed ``"module.name"``.

    Examples
    --------
    >>> isinstance(all_demos(), dict)
    True
    """
    found: dict[str, Callable[[], SliderFigure]] = {}
    # The modules beside this one (not perclib.widgets.__path__: the package imports us).
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        module = importlib.import_module(f"perclib.widgets.{info.name}")
        for name, builder in getattr(module, "DEMOS", {}).items():
            found[f"{info.name}.{name}"] = builder
    return found


def control_values(control: widgets.ValueWidget, interior: int = 3) -> Iterator[Any]:
    """Values worth visiting on a control: its ends and a few points between.

    Examples
    --------
    >>> list(control_values(widgets.IntSlider(min=0, max=4), interior=1))
    [0, 4, 2]
    """
    if isinstance(control, widgets.Checkbox | widgets.ToggleButton):
        yield from (True, False)
    elif hasattr(control, "options"):
        for option in control.options:
            # Dropdown options are labels or (label, value) pairs.
            yield option[1] if isinstance(option, tuple) else option
    elif hasattr(control, "min") and hasattr(control, "max"):
        lo, hi = control.min, control.max
        yield lo
        yield hi
        for k in range(1, interior + 1):
            value = lo + (hi - lo) * k / (interior + 1)
            yield round(value) if isinstance(control, widgets.IntSlider | widgets.IntText) else value
    else:
        yield control.value
