"""Shared pytest setup.

In CI, hypothesis runs derandomized: the same examples every run, so a green
suite stays green on any machine; locally it explores new examples each time.
The grouping of tests onto pytest-xdist workers is in the repository's root
``conftest.py`` (it must also apply when only notebooks are collected).
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

