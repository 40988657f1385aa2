"""Training algorithms, each returning a full trace of what it did."""

from perclib.train._budget import MAX_WORK, WorkBudgetWarning
from perclib.train.averaged import AveragedResult, averaged_perceptron
from perclib.train.kernel_perceptron import KernelPerceptronResult, kernel_perceptron
from perclib.train.large_margin import (
    LargeMarginResult,
    adatron,
    margin_perceptron,
    minover,
)
from perclib.train.perceptron import PerceptronResult, perceptron
from perclib.train.pocket import PocketResult, pocket

__all__ = [
    "AveragedResult",
    "KernelPerceptronResult",
    "LargeMarginResult",
    "MAX_WORK",
    "PerceptronResult",
    "PocketResult",
    "WorkBudgetWarning",
    "adatron",
    "averaged_perceptron",
    "kernel_perceptron",
    "margin_perceptron",
    "minover",
    "perceptron",
    "pocket",
]
