"""Answers that go around perclib.checking.without fail, saying a grader reads them (issue 40).

Each attack runs as notebook cells in a fresh IPython shell (a subprocess, so that the
audit hook the guard installs stays out of the test process): a second copy of a
perclib module loaded from its file, a reload, reading or rebuilding a function's code,
rebinding or replacing the guard. Each must fail with an ``AssertionError`` that starts
with ``perclib.checking.TAMPERED`` and says a grader reads the answer; ordinary use
(lazy imports, the guard itself, a name of one's own) must keep working.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RUNNER = textwrap.dedent('''
    import contextlib, io, json, sys
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config
    config = Config()
    config.HistoryManager.enabled = False
    shell = InteractiveShell.instance(config=config)
    outcomes = []
    for cell in json.loads(sys.stdin.read()):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            result = shell.run_cell(cell)
        error = result.error_in_exec or result.error_before_exec
        outcomes.append([type(error).__name__, str(error)] if error else ["ok", out.getvalue()])
    print(json.dumps(outcomes))
''')

SETUP = ("import gc, importlib, importlib.util, sys, types\nimport numpy as np\nimport perclib\n"
         "from perclib import perceptron\nfrom perclib.checking import without")
GEOMETRY = "perclib.__path__[0] + '/geometry.py'"

ATTACKS = {
    "a copy of a loaded module from its file": (
        f"spec = importlib.util.spec_from_file_location('g2', {GEOMETRY})\n"
        "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)"),
    "a copy of a module not imported yet, under its own name": (
        "spec = importlib.util.spec_from_file_location('perclib.kernels', "
        "perclib.__path__[0] + '/kernels.py')\n"
        "m = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)"),
    "a copy loaded inside the check (the guard is on)": (
        "def lazy(X, y):\n"
        f"    spec = importlib.util.spec_from_file_location('g3', {GEOMETRY})\n"
        "    m = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(m)\n"
        "    return m.separating_weights(X, y)\n"
        "with without(family='separation'):\n    lazy([[1.0]], [1])"),
    "a reload": "import perclib.geometry\nimportlib.reload(perclib.geometry)",
    "a reload of the guard": "import perclib.checking\nimportlib.reload(perclib.checking)",
    "the module's source compiled under its file name": (
        f"src = open({GEOMETRY}).read()\nexec(compile(src, {GEOMETRY}, 'exec'), {{}})"),
    "reading a function's code": "saved = perceptron.__code__",
    "putting the code back inside the block": (
        "def lazy(X, y, _f=perceptron):\n"
        "    _f.__code__ = (lambda *a, **k: None).__code__\n"
        "with without(family='perceptron'):\n    lazy([[1.0]], [1])"),
    "a function built from perclib's code": (
        f"code = compile(open({GEOMETRY}).read(), 'x.py', 'exec')\n"
        f"fake = compile('def f(): pass', {GEOMETRY}, 'exec').co_consts[0]\n"
        "types.FunctionType(fake, {})"),
    "rebinding the guard": "perclib.checking.without = lambda *a, **k: None",
    "deleting the guard": "del perclib.checking.without",
    "unsealing the module": "object.__setattr__(perclib.checking, '__class__', types.ModuleType)",
    "replacing the guard in the module's namespace": (
        "vars(perclib.checking)['without'] = lambda *a, **k: None\n"),
    "replacing the module in sys.modules": (
        "fake = types.ModuleType('perclib.checking')\nfake.without = lambda *a, **k: None\n"
        "sys.modules['perclib.checking'] = fake\n"),
    "rebinding the notebook's 'without' inside the block": (
        "def lazy():\n    sys._getframe(1).f_globals['without'] = lambda *a, **k: None\n"
        "with without(family='perceptron'):\n    lazy()"),
    "reading the check's frame (sys._getframe)": (
        "def lazy():\n    return sys._getframe(1).f_locals\n"
        "expected = 42\nwith without():\n    lazy()"),
    "reading the check's frame (inspect.stack)": (
        "import inspect\ndef lazy():\n    return inspect.stack()[1].frame.f_locals\n"
        "with without():\n    lazy()"),
    "reading the check's frame through a traceback": (
        "def lazy():\n    try:\n        raise ValueError\n    except ValueError as e:\n"
        "        return e.__traceback__.tb_frame.f_back.f_locals\n"
        "with without():\n    lazy()"),
    "searching the check's objects (gc)": (
        "def lazy():\n    return gc.get_objects()\nwith without():\n    lazy()"),
    "opening the guard's block by hand": "perclib.checking._GUARD.leave()",
    "searching the heap for the guard's state (gc, outside a check)": (
        "hooks = [f for f in gc.get_objects() if getattr(f, '__name__', '') == 'hook']"),
}
#: Attacks whose damage shows at the next cell (a namespace edit is not an event).
NEXT_CELL = {"replacing the guard in the module's namespace", "replacing the module in sys.modules"}

FINE = {
    "a lazy import through perclib": "from perclib import gram_matrix\nprint(gram_matrix(np.eye(2)).sum())",
    "a lazily imported submodule": "import perclib.statmech\nprint('ok')",
    "the guard itself": ("with without(family='perceptron'):\n    pass\n"
                         "print(perceptron([[1.0]], [1]).n_updates)"),
    "a name 'without' of one's own, then the check's import": (
        "without = 3\nfrom perclib.checking import without\nprint('ok')"),
    "inspecting a signature": "import inspect\nprint(inspect.signature(perceptron))",
    "frames outside a check": "print(sys._getframe(0).f_code.co_name)",
    "numpy, fractions and sympy inside a block": (
        "import sympy as sp\nfrom fractions import Fraction\nwith without(family='perceptron'):\n"
        "    print(sp.Matrix([[1, 2], [2, 4]]).rank(), Fraction(1, 3), np.linalg.norm([3, 4]))"),
}


def _run(cells: list[str]) -> list[list[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(cells), text=True,
                          capture_output=True, env=env, cwd=ROOT, timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def outcomes() -> dict[str, list[list[str]]]:
    """Each attack in a fresh shell of its own: (the attack's cell, the next cell)."""
    return {name: _run([SETUP, cell, "print('next cell')"])[1:]
            for name, cell in {**ATTACKS, **FINE}.items()}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_an_answer_that_goes_around_the_guard_fails_and_says_a_grader_reads_it(
        outcomes: dict[str, list[list[str]]], name: str) -> None:
    attack, next_cell = outcomes[name]
    error = next_cell if name in NEXT_CELL else attack
    assert error[0] == "AssertionError", f"{name}: {attack} / {next_cell}"
    assert error[1].startswith("this answer tampers with perclib's exercise guard"), error[1]
    assert "A grader reads every answer" in error[1]


@pytest.mark.parametrize("name", sorted(FINE))
def test_ordinary_use_is_untouched(outcomes: dict[str, list[list[str]]], name: str) -> None:
    cell, next_cell = outcomes[name]
    assert cell[0] == "ok" and next_cell[0] == "ok", f"{name}: {cell} / {next_cell}"


def test_running_a_perclib_module_as_a_script_is_not_tampering() -> None:
    """``python -m perclib.statmech_tables`` regenerates a file: runpy is not an answer."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "perclib.units"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
