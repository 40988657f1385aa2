"""pytest setup for the whole repository: which tests share a pytest-xdist worker.

The suite runs on every core (pytest-xdist, ``-n auto`` in pyproject.toml). Tests that
must share one process stay together in one *work unit*: the cells of one notebook
under nbval (they share one kernel), and the tests of a module whose costly
module-scoped fixture builds something once (the site, the handouts, the slides' decks,
nbgrader's course folder, the Jupyter server rooted at the repository). Every other
test, each browser lesson case included, is a unit of its own and goes to whichever
worker is free.

The units are made by a scheduler of our own (xdist's ``pytest_xdist_make_scheduler``
hook) from the node ids, not by ``xdist_group`` marks: pytest 9.2 keeps node ids where
pytest-xdist 3.8's ``--dist loadgroup`` cannot rewrite them, so those marks are
silently ignored there. This file sits at the root so that it applies also when only
notebooks are collected (``pytest notebooks/02_xor.ipynb``).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

# One BLAS thread in every process of the run (the workers and the kernels, servers and
# tools they start inherit it): the suite already keeps every core busy with its own
# workers, and OpenBLAS threads that wait by spinning would only take cores from them.
# The lessons' outputs do not depend on it (the browser test runs them with one thread
# as on another CPU, tests/other_cpu.py, and requires the stored bytes).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

#: Test modules whose tests share one costly module-scoped fixture.
# (The slides' decks are built by one module fixture: split over two workers, each of them
# built all nine decks and their PDFs.)
SHARED_FIXTURE_MODULES = ("tests/site/test_site.py", "tests/handouts/test_handouts.py",
                          "tests/slides/test_slides.py",
                          "tests/perclib/test_guard_tamper.py")  # one shell per attack, run once
#: Modules whose costly module-scoped fixture is parametrized by lesson: one unit per lesson.
PER_LESSON_FIXTURE_MODULES = ("tests/homework/test_nbgrader.py",)
#: Units that take minutes (measured on 2 cores), started first so that no worker is
#: left alone with one of them at the end (longest processing time first).
LONG_UNITS = (
    "tests/site/test_site.py",
    "tests/classroom/test_classroom.py",
    "tests/lessons/test_browser.py::test_lesson_in_browser",
    "tests/project/test_binder.py::test_binder_environment",
    "tests/homework/test_nbgrader.py",
    "tests/slides/test_slides.py",
    "tests/handouts/test_handouts.py",
)


#: Tests that create system users and open the folders on the way to the course's Python
#: to them (restoring the modes when done): run one after the other in one worker, or one
#: closes (restores) a folder the other still needs.
MACHINE_TESTS = ("tests/classroom/test_classroom.py::test_class_end_to_end",
                 "tests/classroom/test_classroom_service.py::test_service_class_across_namespaces")
MACHINE_UNIT = "tests/classroom/test_classroom.py::machine"


def work_unit(nodeid: str) -> str:
    """The unit of work a test belongs to: tests of one unit run in one worker.

    >>> work_unit("notebooks/02_xor.ipynb::Cell 7")
    'notebooks/02_xor.ipynb'
    >>> work_unit("tests/site/test_site.py::test_every_image_has_alt_text")
    'tests/site/test_site.py'
    >>> work_unit("tests/lessons/test_browser.py::test_lesson_opens_clean[02_xor]")
    'tests/lessons/test_browser.py::test_lesson_opens_clean'
    >>> work_unit("tests/lessons/test_browser.py::test_lesson_in_browser[02_xor-lab]")
    'tests/lessons/test_browser.py::test_lesson_in_browser[02_xor-lab]'
    >>> work_unit("tests/homework/test_nbgrader.py::test_release_has_no_solution_and_no_hidden_test"
    ...           "[02_xor.ipynb]")
    'tests/homework/test_nbgrader.py[02_xor.ipynb]'
    >>> work_unit("tests/homework/test_nbgrader.py::test_cli")
    'tests/homework/test_nbgrader.py'
    >>> work_unit("tests/classroom/test_classroom_service.py::test_service_class_across_namespaces")
    'tests/classroom/test_classroom.py::machine'
    """
    if nodeid in MACHINE_TESTS:
        return MACHINE_UNIT
    path = nodeid.split("::", 1)[0]
    if path.endswith(".ipynb") or path in SHARED_FIXTURE_MODULES:
        return path
    if path in PER_LESSON_FIXTURE_MODULES:
        # The lesson is the test's parameter: ``test_x[02_xor.ipynb]``.
        param = nodeid.rsplit("[", 1)[1].rstrip("]") if nodeid.endswith("]") else ""
        return f"{path}[{param}]" if param else path
    if nodeid.startswith("tests/lessons/test_browser.py::test_lesson_opens_clean"):
        return "tests/lessons/test_browser.py::test_lesson_opens_clean"
    return nodeid


@pytest.hookimpl(optionalhook=True)  # without pytest-xdist (the floor venv) it is never called
def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    from xdist.scheduler import LoadScopeScheduling

    class CourseScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        ranked = False

        def _assign_work_unit(self, node: Any) -> None:
            if not self.ranked:
                # xdist queued the units by number of tests; the long ones go first
                # (a stable sort: the rest keep xdist's order).
                ordered = sorted(self.workqueue.items(), key=lambda item: unit_rank(item[0]))
                self.workqueue.clear()
                self.workqueue.update(ordered)
                self.ranked = True
            super()._assign_work_unit(node)

    return CourseScheduling(config, log)


def unit_rank(unit: str) -> int:
    """Sort key of a work unit: the :data:`LONG_UNITS` in their order, then the rest.

    >>> sorted(["tests/test_a.py::t", "tests/classroom/test_classroom.py::test_class_end_to_end",
    ...         "tests/site/test_site.py"], key=unit_rank)  # doctest: +NORMALIZE_WHITESPACE
    ['tests/site/test_site.py', 'tests/classroom/test_classroom.py::test_class_end_to_end',
     'tests/test_a.py::t']
    """
    for rank, prefix in enumerate(LONG_UNITS):
        if unit.startswith(prefix):
            return rank
    return len(LONG_UNITS)
