"""pytest setup for the whole repository: which tests share a pytest-xdist worker.

The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject.toml). Tests that
must share one process stay together in one *work unit*: the cells of one notebook
under nbval (they share one kernel), and the tests of a module whose costly
module-scoped fixture builds something once (the site, the handouts, nbgrader's course
folder, the Jupyter server rooted at the repository). Every other test, each browser
lesson case included, is a unit of its own and goes to whichever worker is free.

The units are made by a scheduler of our own (xdist's ``pytest_xdist_make_scheduler``
hook) from the node ids, not by ``xdist_group`` marks: pytest 9.2 keeps node ids where
pytest-xdist 3.8's ``--dist loadgroup`` cannot rewrite them, so those marks are
silently ignored there. This file sits at the root so that it applies also when only
notebooks are collected (``pytest notebooks/02_xor.ipynb``).
"""

from __future__ import annotations

from typing import Any

import pytest

#: Test modules whose tests share one costly module-scoped fixture.
SHARED_FIXTURE_MODULES = ("tests/test_site.py", "tests/test_handouts.py", "tests/test_nbgrader.py")


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: tests of one unit run in one worker.

    >>> work_unit("notebooks/02_xor.ipynb::Cell 7")
    'notebooks/02_xor.ipynb'
    >>> work_unit("tests/test_site.py::test_every_image_has_alt_text")
    'tests/test_site.py'
    >>> work_unit("tests/test_browser.py::test_lesson_opens_clean[02_xor]")
    'tests/test_browser.py::test_lesson_opens_clean'
    >>> work_unit("tests/test_browser.py::test_lesson_in_browser[02_xor-lab]")
    'tests/test_browser.py::test_lesson_in_browser[02_xor-lab]'
    """
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb") or path in SHARED_FIXTURE_MODULES:
        return path
    if nodeid.startswith("tests/test_browser.py::test_lesson_opens_clean"):
        return "tests/test_browser.py::test_lesson_opens_clean"
    return nodeid


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist (the floor venv) it is never called
def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class CourseScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return CourseScheduling(config, log)
