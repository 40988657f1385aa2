"""Slider-driven figures for the lessons; each builder returns a SliderFigure."""

from perclib.widgets.base import SliderFigure
from perclib.widgets.registry import all_demos

__all__ = ["SliderFigure", "all_demos"]
