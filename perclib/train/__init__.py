"""Training algorithms, each returning a full trace of what it did."""

from perclib.train.perceptron import PerceptronResult, perceptron

__all__ = ["PerceptronResult", "perceptron"]
