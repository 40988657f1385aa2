"""Project hygiene: the README's commands, CI, lint, the public API's docs."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import perclib

ROOT = Path(__file__).resolve().parents[2]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", quick, flags=re.S)]


def test_readme_quick_start_is_two_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in c for c in commands), "each quick-start command is one line"
    assert "jupyter lab" in commands[0]
    assert "pytest" in commands[1]


def test_readme_is_at_most_150_lines() -> None:
    """A newcomer's page: what it is, the lessons, the two commands, where the rest is."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move the detail into docs/"
    readme = "\n".join(lines)
    for page in ("instructors", "classroom", "slides", "changing-a-lesson", "perclib", "README"):
        assert f"(docs/{page}.md)" in readme, f"README.md does not point to docs/{page}.md"
        assert (ROOT / "docs" / f"{page}.md").is_file()


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert readme_commands()[1] in ci_lines


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def public_objects():
    for name in perclib.__all__:
        obj = getattr(perclib, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            yield name, obj


PUBLIC = list(public_objects())


@pytest.mark.parametrize(("name", "obj"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_public_api_is_documented_with_an_example(name: str, obj: object) -> None:
    doc = inspect.getdoc(obj) or ""
    assert doc, f"{name} has no docstring"
    if inspect.isfunction(obj):
        assert "Examples" in doc and ">>>" in doc, f"{name} needs an Examples section"


MODULES = sorted(
    info.name for info in pkgutil.walk_packages(perclib.__path__, prefix="perclib.")
)


@pytest.mark.parametrize("module_name", MODULES)
def test_docstring_examples_run(module_name: str) -> None:
    module = importlib.import_module(module_name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0, f"{failures} docstring example(s) failed in {module_name}"


def test_lazy_imports_cover_exactly_the_public_api() -> None:
    """Every name in __all__ is importable lazily, and nothing else is."""
    assert set(perclib._LAZY) == set(perclib.__all__)


@pytest.mark.parametrize("project", [".", "course-settings"])
def test_packaging_metadata_has_no_setuptools_deprecation(project: str, tmp_path: Path) -> None:
    """Our own metadata builds without a setuptools warning in the build log.

    The TOML-table ``license`` (deprecated, unsupported after 2027-02-18) would fail here:
    the licence is an SPDX expression with its ``license-files`` (PEP 639). The log is
    read because setuptools handles its warnings itself (``-W error`` does not stop it).
    """
    source = tmp_path / "src"
    shutil.copytree(
        ROOT / project, source,
        ignore=shutil.ignore_patterns(".venv*", "build", "*.egg-info", "notebooks", "test-output", ".git"),
    )
    code = (
        "import sys, setuptools.build_meta as b; "
        "print(b.prepare_metadata_for_build_wheel(sys.argv[1]))"
    )
    result = subprocess.run(
        [sys.executable, "-W", "default", "-c", code, str(tmp_path)],
        cwd=source, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    log = result.stdout + result.stderr
    warnings = [line for line in log.splitlines() if "SetuptoolsDeprecationWarning" in line
                or "SetuptoolsWarning" in line or "is deprecated" in line]
    assert not warnings, "\n".join(warnings) + "\n" + log[-3000:]
    metadata = (tmp_path / result.stdout.strip().splitlines()[-1] / "METADATA").read_text()
    assert "License-Expression: MIT" in metadata
    assert "License-File: LICENSE" in metadata
