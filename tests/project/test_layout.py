"""The house keeps its shape: no import cycle, every arrow down (issue 51).

The import graph is read from the sources with :mod:`ast` (nothing is imported), so a
lazy import inside a function counts as much as one at the top of a module.

Floors, lowest first:

* ``perclib``: the computations (the top-level modules and ``perclib.train``) know
  nothing of ``plotting``, which knows nothing of ``widgets``; the package's
  ``__init__`` is the front door and may import anything of its own package;
  ``perclib`` never imports ``coursetools``.
* ``coursetools``: ``shared`` is the ground; ``homework``, ``handouts`` and ``slides``
  stand on it; ``site`` (which shows ``homework``'s student versions) and ``classroom``
  stand above, and the author's tools (``authoring``: mutation and adversarial runs of
  the graded checks) on top. Packages on one floor never import each other.
* ``perclib.graded`` runs a graded check's processes: it loads perclib whole (the
  stripped copy, in the answer's process) and stands above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PERCLIB_FLOORS = {"core": 0, "train": 0, "plotting": 1, "widgets": 2, "graded": 3}
COURSETOOLS_FLOORS = {
    "shared": 0,
    "homework": 1, "handouts": 1, "slides": 1,
    "site": 2, "classroom": 2,
    "authoring": 3,
}
#: Modules that are a process of their own (``python -m perclib.graded answer``): they
#: load the package whole through its front door, so they stand above it.
ENTRY_POINTS = {"perclib.graded"}
MAX_TOP_LEVEL_ENTRIES = 8


def modules(package: str) -> dict[str, Path]:
    """Every module of ``package``, by dotted name (a package by its ``__init__``)."""
    found = {}
    for path in (ROOT / package).rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


ALL = {**modules("perclib"), **modules("coursetools")}


def _imports(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports (``from a import b`` -> ``a.b`` if a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.add(full if full in ALL else base)
    found = set()
    for target in targets:
        while target and target not in ALL:
            target = target.rpartition(".")[0]
        if target and target != name:
            found.add(target)
    return found


GRAPH = {name: _imports(name, path) for name, path in ALL.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def floor(module: str) -> tuple[str, int] | None:
    """(house, floor) of a module; None for a package's front door (its __init__)."""
    parts = module.split(".")
    if len(parts) == 1:
        return None
    if parts[0] == "perclib":
        area = parts[1] if parts[1] in PERCLIB_FLOORS else "core"
        return "perclib", PERCLIB_FLOORS[area]
    return "coursetools", COURSETOOLS_FLOORS[parts[1]]


def area(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2])


def test_the_graph_reads_every_module():
    # A guard on the reader above: it must see the arrows we know are there.
    assert "perclib.plotting" in GRAPH["perclib.widgets.threshold"]
    assert "perclib.questions" in GRAPH["perclib.widgets.question"]
    assert "coursetools.shared.common" in GRAPH["coursetools.site.build"]
    assert len(ALL) > 60


def test_no_import_cycle():
    assert _cycles(GRAPH) == []


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_arrow_goes_down():
    up = []
    for source, targets in GRAPH.items():
        here = floor(source)
        for target in targets:
            there = floor(target)
            if here is None or there is None:
                continue  # a front door imports its rooms; a room may use its own door
            if here[0] == "perclib" and there[0] == "coursetools":
                up.append(f"{source} -> {target} (perclib never imports coursetools)")
            elif here[0] == there[0] and there[1] > here[1]:
                up.append(f"{source} -> {target} (floor {here[1]} imports floor {there[1]})")
            elif (here[0] == there[0] == "coursetools" and there[1] == here[1]
                  and area(source) != area(target)):
                up.append(f"{source} -> {target} (two products on one floor)")
    assert up == []


@pytest.mark.parametrize("house", ["coursetools", "perclib"])
def test_no_room_imports_its_house_front_door(house):
    # perclib.checking once imported perclib (the front door, which imports it back).
    doors = [f"{source} -> {house}" for source, targets in GRAPH.items()
             if source.startswith(house + ".") and house in targets and source not in ENTRY_POINTS]
    assert doors == []


def test_coursetools_top_level_is_small():
    entries = sorted(p.name for p in (ROOT / "coursetools").iterdir()
                     if p.name != "__pycache__" and not p.name.startswith("__init__")
                     and (p.is_dir() or p.suffix == ".py"))
    assert len(entries) <= MAX_TOP_LEVEL_ENTRIES, entries
    assert set(COURSETOOLS_FLOORS) == {e.removesuffix(".py") for e in entries}


def test_the_commands_users_type_are_found():
    # python -m coursetools.NAME: a package with __main__, or an author's command.
    for name in ("site", "slides", "handouts", "homework", "classroom"):
        assert (ROOT / "coursetools" / name / "__main__.py").is_file(), name
    for name in ("roles", "run", "colab", "mutation"):
        assert (ROOT / "coursetools" / "authoring" / f"{name}.py").is_file(), name


def test_code_never_imports_an_author_command_by_its_short_name():
    # coursetools.run is the same file as coursetools.authoring.run, loaded twice.
    short = {f"coursetools.{n}" for n in ("roles", "run", "colab", "mutation")}
    users = []
    for base in ("perclib", "coursetools", "tests", "benchmarks"):
        for path in (ROOT / base).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module] if isinstance(node, ast.ImportFrom) else [])
                users += [f"{path.relative_to(ROOT)}: {n}" for n in names if n in short]
    assert users == []
