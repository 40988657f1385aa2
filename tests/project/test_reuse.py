"""What others need to reuse the course legally and install it: licences, citation,
requirements in step with pyproject.toml, every imported package declared, py.typed."""

from __future__ import annotations

import ast
import json
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import jsonschema
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# The official Citation File Format 1.2.0 schema (as shipped with cffconvert 2.0.0).
CFF_SCHEMA = Path(__file__).resolve().parents[1] / "fixtures" / "citation-file-format-1.2.0.schema.json"


def requirement_lines(path: Path) -> list[str]:
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            lines.append(line)
    return lines


def by_name(requirements: list[str]) -> dict[str, str]:
    parsed = [Requirement(r) for r in requirements]
    return {canonicalize_name(r.name): str(r.specifier) for r in parsed}


def test_code_licence_is_mit_and_names_its_holders() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 The perceptron-course contributors" in text
    assert "<year>" not in text and "<copyright holders>" not in text
    # PEP 639: an SPDX expression, with the licence file listed.
    assert PYPROJECT["project"]["license"] == "MIT"
    assert "LICENSE" in PYPROJECT["project"]["license-files"]


def test_content_licence_is_the_full_cc_by_4_text_with_its_scope() -> None:
    text = (ROOT / "LICENSE-CONTENT").read_text(encoding="utf-8")
    assert "Creative Commons Attribution 4.0 International Public License" in text
    for section in ("Section 1", "Section 2", "Section 3", "Section 8"):
        assert section in text, f"the legal code lacks {section}"
    head = text.split("-" * 20, 1)[0]
    assert "notebooks/" in head and "figures" in head and "handouts" in head
    assert "LICENSE" in head, "the scope note must point to the code licence"


def test_readme_states_both_licences() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Licence", 1)[1]
    assert "MIT" in section and "LICENSE" in section
    assert "CC BY 4.0" in section and "LICENSE-CONTENT" in section


def test_citation_file_is_valid_cff_1_2() -> None:
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    schema = json.loads(CFF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(cff), key=lambda e: list(e.path))
    assert not errors, "; ".join(f"{list(e.path)}: {e.message}" for e in errors)
    assert cff["cff-version"] == "1.2.0"
    assert str(cff["version"]) == PYPROJECT["project"]["version"]
    assert set(cff["license"]) == {"MIT", "CC-BY-4.0"}


def test_cff_schema_check_can_fail() -> None:
    schema = json.loads(CFF_SCHEMA.read_text(encoding="utf-8"))
    broken = {"cff-version": "1.2.0", "title": "x", "message": "y", "authors": [],
              "license": "not-a-licence"}
    assert list(jsonschema.Draft7Validator(schema).iter_errors(broken))


def test_requirements_txt_matches_pyproject() -> None:
    lines = requirement_lines(ROOT / "requirements.txt")
    assert "-e ." in lines, "requirements.txt must install perclib itself"
    assert "./course-settings" in lines, "requirements.txt must install the course's Jupyter settings"
    listed = by_name([line for line in lines if not line.startswith(("-", "./"))])
    project = PYPROJECT["project"]
    expected = by_name(project["dependencies"] + project["optional-dependencies"]["course"])
    assert listed == expected, (
        "requirements.txt and pyproject.toml (dependencies + the 'course' extra) differ: "
        f"only in requirements.txt {set(listed.items()) - set(expected.items())}, "
        f"only in pyproject.toml {set(expected.items()) - set(listed.items())}"
    )


def optional_imports(tree: ast.AST) -> set[int]:
    """ids of import nodes inside ``try: ... except ImportError`` (optional extras)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id in {"ImportError", "ModuleNotFoundError"}
            for h in node.handlers
        ):
            found.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return found


def imported_top_level_modules(package: Path) -> set[str]:
    """Top-level modules a package imports unconditionally (optional imports excluded)."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        optional = optional_imports(tree)
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def test_every_package_perclib_imports_is_declared() -> None:
    imported = imported_top_level_modules(ROOT / "perclib")
    third_party = imported - set(sys.stdlib_module_names) - {"perclib"}
    declared = {canonicalize_name(Requirement(d).name) for d in PYPROJECT["project"]["dependencies"]}
    providers = packages_distributions()
    undeclared = {
        module: providers.get(module, ["?"])
        for module in third_party
        if not {canonicalize_name(d) for d in providers.get(module, [])} & declared
    }
    assert not undeclared, f"perclib imports packages it does not declare: {undeclared}"


def test_perclib_ships_py_typed() -> None:
    assert (ROOT / "perclib" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["perclib"]
