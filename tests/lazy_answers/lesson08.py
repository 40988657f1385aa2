"""Lazy and wrong answers to lesson 08's exercises (see tests/exercise_audit.py)."""

from exercise_audit import Attempt

ATTEMPTS: dict[str, list[Attempt]] = {}
