"""Slider-driven figures for the lessons; each builder returns a SliderFigure."""

from perclib.widgets.base import SliderFigure
from perclib.widgets.convergence import (
    build_margin_explorer,
    build_training_stepper,
    learning_steps_figure,
    proof_figure,
)
from perclib.widgets.counting import build_capacity_curve, build_dichotomy_explorer
from perclib.widgets.general_position import build_point_mover, collinear_triples
from perclib.widgets.margins import build_margin_family, build_margin_training
from perclib.widgets.nonseparable import (
    build_kernel_boundary,
    build_noise_comparison,
    kernel_datasets,
)
from perclib.widgets.question import ask
from perclib.widgets.registry import all_demos
from perclib.widgets.separability import TWO_INPUT_NAMES, build_boolean_separator, truth_table
from perclib.widgets.statmech import build_capacity_explorer, build_learning_explorer
from perclib.widgets.threshold import build_bias_trick_demo, build_threshold_demo

__all__ = [
    "SliderFigure",
    "all_demos",
    "ask",
    # lesson 1
    "build_bias_trick_demo", "build_threshold_demo",
    # lesson 2
    "TWO_INPUT_NAMES", "build_boolean_separator", "truth_table",
    # lesson 3
    "build_point_mover", "collinear_triples",
    # lesson 4
    "build_capacity_curve", "build_dichotomy_explorer",
    # lesson 5
    "build_margin_explorer", "build_training_stepper", "learning_steps_figure",
    "proof_figure",
    # lesson 6
    "build_margin_family", "build_margin_training",
    # lesson 7
    "build_noise_comparison",
    # lesson 8
    "build_kernel_boundary", "kernel_datasets",
    # lesson 9
    "build_capacity_explorer", "build_learning_explorer",
]
