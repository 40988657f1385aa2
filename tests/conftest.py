"""Shared pytest setup.

In CI, hypothesis runs derandomized: the same examples every run, so a green
suite stays green on any machine; locally it explores new examples each time.

The suite runs on every core (pytest-xdist, ``-n auto --dist loadgroup`` in
pyproject.toml). Tests that must share one process stay together in an
``xdist_group``: the cells of one notebook under nbval (one kernel), and the tests of
a module whose costly module-scoped fixture builds something once (the site, the
handouts, nbgrader's course folder, the Jupyter server rooted at the repository).
Every other test, the browser test's lessons included, goes to whichever worker is free.
"""

import os

import pytest
from hypothesis import settings

#: Modules whose tests share one costly module-scoped fixture.
SHARED_FIXTURE_MODULES = {"test_site.py", "test_handouts.py", "test_nbgrader.py"}

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path
        if path.suffix == ".ipynb":
            group = f"nbval-{path.name}"
        elif path.name in SHARED_FIXTURE_MODULES:
            group = path.name
        elif path.name == "test_browser.py" and item.name.startswith("test_lesson_opens_clean"):
            group = "browser-repo-server"
        else:
            continue
        item.add_marker(pytest.mark.xdist_group(group))
