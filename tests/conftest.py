"""Shared pytest setup.

In CI, hypothesis runs derandomized: the same examples every run, so a green
suite stays green on any machine; locally it explores new examples each time.
Tests sit in one folder per area; run one area with ``pytest tests/site``.
The grouping of tests onto pytest-xdist workers is in the repository's root
``conftest.py`` (it must also apply when only notebooks are collected).
"""

import os
import sys
from pathlib import Path

from hypothesis import settings

# Tests live in folders by area (tests/perclib, tests/site, ...); the helpers they share
# (browser_support, axe_support, exercise_audit, other_cpu) and the fixture lessons stay
# here, importable from every folder.
_HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(_HERE), str(_HERE / "fixtures")]

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

