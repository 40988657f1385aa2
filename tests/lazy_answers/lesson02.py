"""Lazy and wrong answers to lesson 02's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

ATTEMPTS: dict[str, list[Attempt]] = {
    "ex1-answer": [
        Attempt("hard-coded: AND's unit", "w = np.array([1.0, 1.0])\ntheta = 1.5"),
        Attempt("wrong: corner on the line", "w = np.array([-1.0, 1.0])\ntheta = -1.0"),
        Attempt("wrong: converse implication", "w = np.array([2.0, -2.0])\ntheta = -1.0"),
    ],
}
