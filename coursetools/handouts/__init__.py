"""Lecture handouts (``python -m coursetools.handouts``): HTML and PDF, offline MathJax."""
