"""Training algorithms, each returning a full trace of what it did."""

from perclib.train.large_margin import (
    LargeMarginResult,
    adatron,
    margin_perceptron,
    minover,
)
from perclib.train.perceptron import PerceptronResult, perceptron

__all__ = [
    "LargeMarginResult",
    "PerceptronResult",
    "adatron",
    "margin_perceptron",
    "minover",
    "perceptron",
]
