"""Lecture slides (``python -m coursetools.slides``): reveal.js decks and their PDFs."""
