"""Complex numbers are refused with a TypeError, never silently cast to real.

NumPy's float conversion drops the imaginary part with only a warning, so without
an explicit check a student's complex array would be used as a different, real one.
"""

from __future__ import annotations

import numpy as np
import pytest

import perclib

X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -2.0]])
y = np.array([1.0, -1.0, -1.0])
Xc = X + 1e-3j
yc = y.astype(complex)
wc = np.array([1.0 + 0.5j, 0.0])

CALLS = {
    "perceptron X": lambda: perclib.perceptron(Xc, y),
    "perceptron y": lambda: perclib.perceptron(X, yc),
    "perceptron w0": lambda: perclib.perceptron(X, y, w0=wc),
    "is_separable": lambda: perclib.is_separable(Xc, y),
    "margin w": lambda: perclib.margin(wc, X, y),
    "max_margin": lambda: perclib.max_margin(Xc, y),
    "in_general_position": lambda: perclib.in_general_position(Xc),
    "count_dichotomies": lambda: perclib.count_dichotomies(Xc),
    "augment": lambda: perclib.augment(Xc),
    "threshold_unit": lambda: perclib.threshold_unit(X, wc),
    "sign": lambda: perclib.sign(np.array([1j, -1.0])),
    "to_pm1": lambda: perclib.to_pm1(np.array([1.0 + 0j, 0.0])),
    "boolean_function": lambda: perclib.boolean_function(2, np.array([0, 1, 1, 1j])),
    "teacher_data": lambda: perclib.teacher_data(5, 2, teacher=wc, rng=0),
    "list of complex": lambda: perclib.perceptron([[1j, 1.0], [1.0, 0.0]], [1, -1]),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_complex_input_is_refused(call) -> None:
    with pytest.raises(TypeError, match="complex"):
        call()


def test_real_input_with_zero_imaginary_dtype_is_still_refused() -> None:
    # Even 1+0j is refused: the dtype says the caller meant complex arithmetic.
    with pytest.raises(TypeError, match="complex"):
        perclib.perceptron(X.astype(complex), y)
