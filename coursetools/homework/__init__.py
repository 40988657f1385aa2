"""Homework (``python -m coursetools.homework``): student versions through nbgrader."""
