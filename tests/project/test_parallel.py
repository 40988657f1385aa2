"""The suite's split into pytest-xdist work units (the root conftest.py)."""

from __future__ import annotations

import doctest
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _root_conftest():
    spec = importlib.util.spec_from_file_location("root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_work_units_keep_shared_state_together() -> None:
    module = _root_conftest()
    failures, tried = doctest.testmod(module)
    assert tried >= 4 and failures == 0
    for shared in module.SHARED_FIXTURE_MODULES:
        assert (ROOT / shared).is_file(), f"{shared} no longer exists"


def test_the_suite_runs_in_parallel_by_default() -> None:
    addopts = (ROOT / "pyproject.toml").read_text().split("addopts = ", 1)[1].splitlines()[0]
    assert "-n auto" in addopts
