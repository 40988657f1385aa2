"""Grading out of the answer's reach: the answer in a process of its own (issue 50).

In the lesson, an exercise's check calls the student's function in the notebook's own
process, inside :func:`perclib.checking.without`. That is good feedback but not a
grade: the answer and the check share one namespace, so an answer can empty
``FAMILIES``, rebind ``np`` or exec perclib's source. At grading the check runs again,
split in two processes:

* the **check process** runs the check cell, as the instructor wrote it, in a fresh
  interpreter with the real perclib. The student's function names in it are
  *proxies*: a call sends its arguments, as plain data, to
* the **answer process**, a fresh interpreter whose ``perclib`` is a copy with the
  functions the check forbids *removed from its source* (absent, not switched off).
  It runs the lesson's imports and definitions, then the answer cell as submitted,
  calls the function and sends the result back as plain data (JSON: numbers, lists,
  strings, arrays as typed lists, fractions; never a pickled object).

Nothing the answer does (to modules, globals, frames, the guard) leaves its process,
and the check's references never enter it. The grader's side (which cells, the
sandbox that confines the answer process) is :mod:`coursetools.classroom.graded`.

Examples
--------
>>> import numpy as np
>>> decode(json.loads(json.dumps(encode((np.arange(3.0), Fraction(1, 3), [True])))))
(array([0., 1., 2.]), Fraction(1, 3), [True])
>>> forbidden_names("with without('units.corner_unit', family='margins'):\\n    f()")[:2]
['units.corner_unit', 'margin']
"""

from __future__ import annotations

import ast
import builtins
import compileall
import contextlib
import importlib.util
import io
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from perclib.classroom import KEY_VARIABLE

#: CPython 3.11 (CI runs 3.11.7) may fail ``ast.parse`` run in two threads at once with
#: "SystemError: AST constructor recursion depth mismatch" (its AST state is shared): the
#: grader checks a notebook's exercises in threads, so every parse here takes turns.
_PARSE_LOCK = threading.Lock()


def _parse(source: str) -> ast.Module:
    """``ast.parse``, one thread at a time."""
    with _PARSE_LOCK:
        return ast.parse(source)


__all__ = ["answer_context", "check_imports", "decode", "encode", "forbidden_names", "run_check",
           "strip_perclib"]

#: The deepest nesting of lists the channel carries (a guard against a cyclic answer).
MAX_DEPTH = 64
#: Seconds the whole graded check may take, the answer's calls included.
TIMEOUT = 300.0


# -- plain data --------------------------------------------------------------------

def encode(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON-ready plain data, with tags for what JSON lacks.

    Exact types only (a subclass of ``list`` or ``float`` could compute on demand):
    ``None``, ``bool``, ``int``, ``float``, ``str``, ``complex``, ``Fraction``,
    ``list``, ``tuple``, ``dict``, numpy arrays and numpy scalars (their dtype kept,
    so that float32 stays float32).

    >>> encode((1, [2.5]))
    {'__tuple__': [1, [2.5]]}
    """
    import numpy as np

    if depth > MAX_DEPTH:
        raise TypeError("the answer is nested too deeply to be read")
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if kind is complex:
        return {"__complex__": [value.real, value.imag]}
    if kind is Fraction:
        return {"__fraction__": [value.numerator, value.denominator]}
    if kind is list:
        return [encode(v, depth + 1) for v in value]
    if kind is tuple:
        return {"__tuple__": [encode(v, depth + 1) for v in value]}
    if kind is dict:
        return {"__dict__": [[encode(k, depth + 1), encode(v, depth + 1)] for k, v in value.items()]}
    if kind is np.ndarray:
        items = value.ravel().tolist()
        data = [encode(v, depth + 1) for v in items] if value.dtype.kind == "O" else items
        if value.dtype.kind == "c":
            data = [encode(complex(v), depth + 1) for v in items]
        return {"__ndarray__": value.dtype.str, "shape": list(value.shape), "data": data}
    if isinstance(value, np.generic) and kind.__module__ == "numpy":
        return {"__numpy__": value.dtype.str, "value": encode(value.item(), depth + 1)}
    raise TypeError(f"the grader reads numbers, arrays, lists, tuples, dicts, strings and "
                    f"fractions, not a {kind.__name__}: return plain values")


def decode(data: Any) -> Any:
    """The value :func:`encode` described (the inverse, on JSON-loaded data)."""
    import numpy as np

    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__tuple__" in data:
        return tuple(decode(v) for v in data["__tuple__"])
    if "__fraction__" in data:
        return Fraction(*data["__fraction__"])
    if "__complex__" in data:
        return complex(*data["__complex__"])
    if "__dict__" in data:
        return {_hashable(decode(k)): decode(v) for k, v in data["__dict__"]}
    if "__ndarray__" in data:
        dtype = np.dtype(data["__ndarray__"])
        items = [decode(v) for v in data["data"]]
        if dtype.kind == "O":
            array = np.empty(len(items), dtype=object)
            array[:] = items
        else:
            array = np.array(items, dtype=dtype)
        return array.reshape(data["shape"])
    if "__numpy__" in data:
        return np.dtype(data["__numpy__"]).type(decode(data["value"]))
    raise ValueError(f"unknown data {sorted(data)}")


def _hashable(key: Any) -> Any:
    return tuple(_hashable(k) for k in key) if isinstance(key, (list, tuple)) else key


# -- what the answer's perclib lacks ------------------------------------------------

def _constant_strings(node: ast.AST, names: dict[str, ast.AST] | None = None) -> list[str]:
    """The strings a literal holds; a name bound once at the check's top level to one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [s for element in node.elts for s in _constant_strings(element, names)]
    if isinstance(node, ast.Name) and names and node.id in names:
        return _constant_strings(names[node.id])
    if isinstance(node, ast.AST) and not isinstance(node, ast.Constant):
        raise ValueError(f"without(...): write the names and families as literals (or a "
                         f"name bound to one at the top of the check), not {ast.unparse(node)}")
    return []


def _package() -> Path:
    """perclib's folder, located without importing it (no guard, no scipy)."""
    import importlib.util

    spec = importlib.util.find_spec("perclib")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parent


def _families() -> dict[str, list[str]]:
    """:data:`perclib.checking.FAMILIES`, read from its source (the grader need not
    import perclib, whose guard hooks the process it is imported in)."""
    tree = _parse((_package() / "checking.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "FAMILIES":
            return {k: list(v) for k, v in ast.literal_eval(node.value).items()}
    raise RuntimeError("perclib.checking.FAMILIES not found")


def forbidden_names(check_source: str) -> list[str]:
    """Every perclib name a check's ``without(...)`` calls switch off, families expanded.

    Read from the check's syntax (its own source, never the answer's), so the answer's
    process can be built before the check runs.
    """
    families = _families()
    tree = _parse(check_source)
    literals = {node.targets[0].id: node.value for node in tree.body
                if isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)}
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name != "without":
            continue
        for arg in node.args:
            found += _constant_strings(arg, literals)
        for keyword in node.keywords:
            if keyword.arg == "family":
                for family in _constant_strings(keyword.value, literals):
                    if family not in families:
                        raise ValueError(f"family: {family!r} is not one of {sorted(families)}")
                    found += families[family]
    return list(dict.fromkeys(found))


def strip_perclib(names: Iterable[str], destination: Path) -> Path:
    """A copy of perclib in ``destination/perclib`` without the functions ``names`` name.

    Each function's definition is deleted from its module's source, with every import
    of it inside perclib and its entry in ``__all__``: in the copy the function does not
    exist, and no file holds its code. Returns ``destination``, the folder to put on
    ``sys.path``.
    """
    source = _package()
    base = _compiled_base(source)
    target = destination / "perclib"
    shutil.copytree(base, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    defined: dict[str, set[str]] = {}  # module name -> names defined there to delete
    bare: set[str] = set()
    for name in names:
        module, own = _locate(source, name)
        short = name.rpartition(".")[2]
        defined.setdefault(module, set()).update({own, short})
        bare |= {own, short}
    words = "|".join(re.escape(b) for b in sorted(bare))
    changed = set()
    for path in target.rglob("*.py") if bare else ():
        module = ".".join(("perclib", *path.relative_to(target).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        text = path.read_text(encoding="utf-8")
        if module not in defined and not re.search(rf"import[^#\n]*\b({words})\b|^\s+({words}),",
                                                   text, re.M):
            continue  # most modules: nothing to delete, no need to parse
        stripped = _strip_module(text, defined.get(module, set()), bare)
        if stripped is not None:
            path.write_text(stripped, encoding="utf-8")
            changed.add(path)
    # The modules left as they were take their compiled files from the base (valid:
    # same source size and time); only the changed ones are compiled again.
    for path in target.rglob("*.py"):
        compiled = Path(importlib.util.cache_from_source(str(base / path.relative_to(target))))
        if path not in changed and compiled.is_file():
            own = Path(importlib.util.cache_from_source(str(path)))
            own.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(compiled, own)
    compileall.compile_dir(target, quiet=2)  # the answer's process imports it read-only
    return destination


#: The compiled copy of perclib that stripped copies start from, per state of its
#: sources (one per process; the folder goes when the process ends).
_BASE: dict[tuple[Any, ...], tempfile.TemporaryDirectory[str]] = {}


def _compiled_base(source: Path) -> Path:
    """perclib copied and compiled once: compiling it all is most of a copy's cost."""
    key = (str(source), *((str(p), p.stat().st_mtime_ns, p.stat().st_size)
                          for p in sorted(source.rglob("*.py"))))
    if key not in _BASE:
        folder = tempfile.TemporaryDirectory(prefix="perclib-compiled-")
        shutil.copytree(source, Path(folder.name) / "perclib",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        compileall.compile_dir(Path(folder.name) / "perclib", quiet=2)
        _BASE.clear()
        _BASE[key] = folder
    return Path(_BASE[key].name) / "perclib"


#: Parsed perclib modules, by (file, modification time, size): read by every copy.
_TREES: dict[tuple[str, int, int], ast.Module] = {}


def _tree(path: Path) -> ast.Module:
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _TREES:
        _TREES[key] = _parse(path.read_text(encoding="utf-8"))
    return _TREES[key]


def _module_file(package: Path, module: str) -> Path | None:
    parts = module.split(".")[1:]
    if not parts:
        return package / "__init__.py"
    for candidate in (package.joinpath(*parts).with_suffix(".py"),
                      package.joinpath(*parts, "__init__.py")):
        if candidate.is_file():
            return candidate
    return None


def _locate(package: Path, name: str) -> tuple[str, str]:
    """(module, name) where a perclib name is defined, read from the sources' syntax.

    Follows ``from perclib.x import name`` re-exports (the package's lazy table too)
    without importing anything (importing the solvers would load scipy: seconds).
    """
    module_part, _, attr = name.rpartition(".")
    module = f"perclib.{module_part}" if module_part else "perclib"
    for _ in range(10):
        path = _module_file(package, module)
        if path is None:
            raise ValueError(f"names: perclib.{name} does not exist")
        tree = _tree(path)
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                    and node.name == attr:
                return module, attr
        source = next(((node.module, alias.name) for node in ast.walk(tree)
                       if isinstance(node, ast.ImportFrom) and node.module
                       and node.module.startswith("perclib")
                       for alias in node.names if (alias.asname or alias.name) == attr), None)
        if source is None:
            return module, attr  # bound some other way: deleted where it is bound
        module, attr = source
    raise ValueError(f"names: perclib.{name}: re-exported in a cycle")


def _strip_module(text: str, here: set[str], bare: set[str]) -> str | None:
    """The module's source without the definitions ``here`` and imports of ``bare``.

    Edits lines (a definition becomes ``pass``, an import keeps its other names) rather
    than re-printing the syntax tree: a tenth of the time, comments kept.
    """
    tree = _parse(text)
    edits: list[tuple[int, int, str]] = []  # (first line, last line, replacement)

    def replace(node: ast.stmt, first: int, new: str) -> None:
        edits.append((first, node.end_lineno or node.lineno, " " * node.col_offset + new))

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.name in here:
            replace(node, min([node.lineno] + [d.lineno for d in node.decorator_list]), "pass")
        elif isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if any(t in here for t in targets):
                replace(node, node.lineno, "pass")
            elif targets == ["__all__"] and isinstance(node.value, (ast.List, ast.Tuple)):
                kept = [e for e in node.value.elts
                        if not (isinstance(e, ast.Constant) and e.value in bare)]
                if len(kept) != len(node.value.elts):
                    node.value.elts = kept
                    replace(node, node.lineno, ast.unparse(node))
    for node in ast.walk(tree):  # imports anywhere: `if TYPE_CHECKING:`, inside functions
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("perclib")):
            kept = [a for a in node.names if a.name not in bare]
            if len(kept) != len(node.names):
                new = ast.unparse(ast.ImportFrom(module=node.module, names=kept, level=node.level))
                replace(node, node.lineno, new if kept else "pass")
    if not edits:
        return None
    lines = text.splitlines()
    for first, last, new in sorted(edits, reverse=True):
        lines[first - 1:last] = [new]
    return "\n".join(lines) + "\n"


# -- the lesson around the answer ---------------------------------------------------

def answer_context(cells: Sequence[str], answer_source: str) -> list[str]:
    """The imports and definitions of the lesson's code cells that an answer uses.

    Only the statements that bind a name the answer reads (and, in turn, the names those
    definitions read), each its own string: the answer's process runs them one by one
    and skips one that fails, such as an import of a function its perclib lacks. Data
    cells, plots and sliders are left out (an answer works from its arguments), and so
    are imports it does not need (matplotlib, sympy: seconds at start-up).

    >>> answer_context(["import numpy as np\\nimport sympy as sp\\nx = 3"], "np.ones(2)")
    ['import numpy as np']
    """
    bound: list[tuple[str, str]] = []  # (name bound, statement), in the lesson's order
    for cell in cells:
        lines = [line for line in cell.splitlines() if not line.lstrip().startswith(("%", "!"))]
        try:
            tree = _parse("\n".join(lines))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):
                bound += [((a.asname or a.name).split(".")[0], ast.unparse(ast.Import(names=[a])))
                          for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                bound += [(a.asname or a.name, ast.unparse(ast.ImportFrom(
                    module=node.module, names=[a], level=node.level))) for a in node.names]
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound.append((node.name, ast.unparse(node)))
    needed, chosen = _names_read(answer_source), set()
    while True:
        # the last statement that binds a name is the one the answer sees
        latest = {name: statement for name, statement in bound if name in needed}
        new = set(latest.values()) - chosen
        if not new:
            break
        chosen |= new
        for statement in new:
            needed |= _names_read(statement)
    return list(dict.fromkeys(statement for _, statement in bound if statement in chosen))


def _names_read(source: str) -> set[str]:
    try:
        tree = _parse(source)
    except SyntaxError:
        return set()
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def answer_functions(answer_source: str) -> list[str]:
    """The names of the functions (and classes) an answer cell defines at its top level."""
    return [node.name for node in _parse(answer_source).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


# -- the answer's process -------------------------------------------------------------

def _answer_main() -> int:
    """Run in the answer's process: read the job, then answer calls until stdin closes."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # what the answer prints goes to stderr, not into the channel
    sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), encoding="utf-8")
    requests = sys.stdin

    def send(message: dict[str, Any]) -> None:
        channel.write(json.dumps(message) + "\n")
        channel.flush()

    job = json.loads(requests.readline())
    try:
        import numpy  # noqa: F401 - the lesson's own import, checked before the answer

        import perclib  # noqa: F401
    except Exception as error:  # the copy itself is broken: the course's fault
        send({"broken": f"{type(error).__name__}: {error}"})
        return 1
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    for statement in job["context"]:
        with contextlib.suppress(Exception):
            exec(compile(statement, "<lesson>", "exec"), namespace)
    failed = None
    for node in _parse(job["answer"]).body:  # one statement at a time, like a cell
        try:
            exec(compile(ast.Module(body=[node], type_ignores=[]), "<answer>", "exec"), namespace)
        except Exception as error:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
                failed = f"{type(error).__name__}: {error}"
    send({"ready": True, "failed": failed})
    for line in requests:
        request = json.loads(line)
        try:
            function = namespace[request["name"]]
            args = decode(request["args"])
            kwargs = decode(request["kwargs"])
            result = function(*args, **kwargs)
            reply = {"ok": encode(result)}
        except BaseException as error:  # noqa: BLE001 - every failure goes back as data
            reply = {"error": [type(error).__name__, str(error)[:2000]]}
        send(reply)
    return 0


class _Answer:
    """The answer's process seen from the check's: start it, then call its functions."""

    def __init__(self, command: list[str], env: dict[str, str], context: list[str],
                 answer: str, deadline: float) -> None:
        self.deadline = deadline
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, text=True,
                                        cwd=env["HOME"])
        self._send({"context": context, "answer": answer})
        self._ready: dict[str, Any] | None = None  # read at the first call: the check
        # sets up its inputs while the answer's interpreter starts

    @property
    def ready(self) -> dict[str, Any]:
        if self._ready is None:
            self._ready = self._receive()
        return self._ready

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            raise AssertionError("the answer's process ended (it exits or crashes)") from None

    def _receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        left = self.deadline - time.monotonic()
        ready, _, _ = select.select([self.process.stdout], [], [], max(left, 0.0))
        if not ready:
            self.close()
            raise AssertionError("the answer ran past the grader's time limit")
        line = self.process.stdout.readline()
        if not line:
            raise AssertionError("the answer's process ended (it exits or crashes)")
        try:
            message = json.loads(line)
        except ValueError:
            raise AssertionError("the answer wrote into the grader's channel") from None
        if not isinstance(message, dict):
            raise AssertionError("the answer wrote into the grader's channel")
        return message

    def call(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if "broken" in self.ready:  # not the student's doing: stop the grading loudly
            raise RuntimeError(f"graded check: the answer's perclib does not import: "
                               f"{self.ready['broken']}")
        self._send({"name": name, "args": encode(list(args)), "kwargs": encode(dict(kwargs))})
        reply = self._receive()
        if "ok" in reply:
            try:
                return decode(reply["ok"])
            except Exception:
                raise AssertionError("the answer wrote into the grader's channel") from None
        kind, message = (list(reply.get("error", [])) + ["Error", ""])[:2]
        if kind == "NameError" and self.ready.get("failed"):
            message += f" (at grading the answer cell runs alone: {self.ready['failed']})"
        elif kind == "NameError":
            message += (" (at grading your function runs with the lesson's imports and "
                        "definitions only, not its data: use your arguments, or define "
                        "what you need in your answer cell)")
        error = getattr(builtins, str(kind), None)
        if isinstance(error, type) and issubclass(error, Exception) and \
                error not in (AssertionError, KeyboardInterrupt, SystemExit):
            raise error(message)
        raise AssertionError(f"your function raised {kind}: {message}")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            assert self.process.stdin is not None
            self.process.stdin.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _proxy(answer: _Answer, name: str) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        return answer.call(name, args, kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def run_check(check_source: str, answer_source: str, context: list[str],
              confine: Sequence[str] = (), timeout: float = TIMEOUT,
              stripped: str | None = None, student_key: str | None = None) -> dict[str, Any]:
    """Run a check cell against an answer in a process of its own; the verdict as data.

    Run this in a fresh process (``python -m perclib.graded check``): the check cell is
    executed here, with the real perclib, and each name the answer cell defines is a
    proxy to the answer's process. ``confine`` is the command prefix that starts the
    answer's process in a sandbox; ``{perclib}`` in it stands for the folder holding
    the stripped copy (see :mod:`coursetools.classroom.graded`). Empty: a plain child
    process (tests of the mechanism; perclib's real files stay readable to it).
    ``stripped``: a folder :func:`strip_perclib` made for this check's
    :func:`forbidden_names` (a grader reuses one across submissions); built if None.

    Returns ``{"passed": bool, "error": [type, message] | None, "printed": str,
    "seconds": float}``.
    """
    start = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="graded-"))
    answer = None
    printed = io.StringIO()
    try:
        root = Path(stripped) if stripped else strip_perclib(forbidden_names(check_source), workdir)
        command = [part.replace("{perclib}", str(root)) for part in confine]
        # -P: the working folder is not on sys.path (it may hold the real perclib)
        command += [sys.executable, "-P", "-m", "perclib.graded", "answer"]
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(root),
               "PYTHONNOUSERSITE": "1", "MPLBACKEND": "Agg", "HOME": str(workdir),
               "PYTHONDONTWRITEBYTECODE": "1"}
        # In a class with each student's own numbers, both sides make the graded
        # student's instance (perclib.classroom.student_seed), as their kernel did.
        os.environ.pop(KEY_VARIABLE, None)
        if student_key:
            env[KEY_VARIABLE] = os.environ[KEY_VARIABLE] = student_key
            if "--" in command:  # bubblewrap clears the environment: set it inside
                cut = command.index("--")
                command[cut:cut] = ["--setenv", KEY_VARIABLE, student_key]
        answer = _Answer(command, env, context, answer_source, start + timeout)
        namespace: dict[str, Any] = {"__name__": "__main__"}
        for name in answer_functions(answer_source):
            namespace[name] = _proxy(answer, name)
        with contextlib.redirect_stdout(printed):
            exec(compile(check_source, "<check>", "exec"), namespace)
        error = None
    except RuntimeError as failure:
        if str(failure).startswith("graded check:"):
            raise
        error = [type(failure).__name__, str(failure)]
    except Exception as failure:  # noqa: BLE001 - every failure of the check is a verdict
        error = [type(failure).__name__, str(failure)]
    finally:
        if answer is not None:
            answer.close()
        shutil.rmtree(workdir, ignore_errors=True)
    return {"passed": error is None, "error": error, "printed": printed.getvalue(),
            "seconds": round(time.monotonic() - start, 3)}


def _check_main() -> int:
    job = json.loads(sys.stdin.read())
    verdict = run_check(job["check"], job["answer"], job["context"], job.get("confine", ()),
                        job.get("timeout", TIMEOUT), job.get("stripped"), job.get("student_key"))
    sys.__stdout__.write(json.dumps(verdict) + "\n")
    return 0


#: What every check imports, loaded by a check server as it starts.
WARM = ("import numpy", "import perclib", "import perclib.checking", "import fractions",
        "import itertools")


def check_imports(check_source: str) -> list[str]:
    """The import statements at the top level of a check cell, each its own string.

    A check server runs them before it forks the check (:func:`_serve_main`), so that
    the forked check finds them loaded: sympy or scipy only for the checks that use them.

    >>> check_imports("import numpy as np\\nfrom perclib import perceptron, boolean_cube\\nx = 1")
    ['import numpy as np', 'from perclib import perceptron, boolean_cube']
    """
    try:
        tree = _parse(check_source)
    except SyntaxError:
        return []
    return [ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]


#: A dotted module name (what the server imports by name after a check; nothing else).
_MODULE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")


def _warm(statements: Iterable[str]) -> None:
    """Run a check's import statements here, where the checks are forked from."""
    for statement in statements:
        with contextlib.suppress(Exception):  # the check will report its own failure
            exec(compile(statement, "<warm>", "exec"), {"__name__": "__warm__"})


def _fork_check(job: dict[str, Any], others: Iterable[int]) -> tuple[int, int]:
    """Fork a check's process from the server; (pid, the pipe its verdict comes on)."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid != 0:
        os.close(write_end)
        return pid, read_end
    # the check's own process: nothing of the server's other channels
    os.close(read_end)
    for fd in (0, *others):
        with contextlib.suppress(OSError):
            os.close(fd)
    loaded = set(sys.modules)
    try:
        verdict = run_check(job["check"], job["answer"], job["context"],
                            job.get("confine", ()), job.get("timeout", TIMEOUT),
                            job.get("stripped"), job.get("student_key"))
    except BaseException as error:  # noqa: BLE001 - the grader reports it
        verdict = {"broken": f"{type(error).__name__}: {error}"}
    # What the check imported as it ran (scipy, from inside perclib's functions):
    # the server imports it too, so the next check of its kind has it loaded.
    verdict["imported"] = sorted(set(sys.modules) - loaded)
    data = (json.dumps(verdict) + "\n").encode()
    with contextlib.suppress(OSError):
        while data:
            data = data[os.write(write_end, data):]
    os._exit(0)


def _serve_main() -> int:
    """A check server: warm once, then one forked process per check, several at a time.

    Jobs on stdin, one JSON line each: ``{"id": n, "job": {...}}``; each job's verdict
    comes back on stdout as ``{"id": n, "verdict": {...}}``, in the order the checks
    end. The server runs the job's ``warm`` imports (the check's own, so sympy only for
    the checks that use it), then forks the check: it starts in milliseconds with its
    imports done, and nothing it does reaches the server or the next check. The server
    itself runs no check and no answer: only the checks' imports.
    """
    _warm(WARM)
    out = sys.__stdout__
    pending: dict[int, tuple[Any, int, list[bytes]]] = {}  # pipe -> (job id, pid, data)
    buffer, reading = b"", True
    while reading or pending:
        ready, _, _ = select.select(([0] if reading else []) + list(pending), [], [])
        for fd in ready:
            if fd != 0:
                chunk = os.read(fd, 1 << 16)
                if chunk:
                    pending[fd][2].append(chunk)
                    continue
                job_id, pid, chunks = pending.pop(fd)
                os.close(fd)
                os.waitpid(pid, 0)
                data = b"".join(chunks).decode()
                verdict = json.loads(data) if data else {"broken": "the check's process died"}
                imported = verdict.pop("imported", [])
                out.write(json.dumps({"id": job_id, "verdict": verdict}) + "\n")
                out.flush()
                _warm(f"import {name}" for name in imported
                      if name not in sys.modules and _MODULE_NAME.fullmatch(name))
                continue
            chunk = os.read(0, 1 << 16)
            reading = bool(chunk)
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in filter(None, lines):
                message = json.loads(line)
                _warm(message["job"].get("warm", ()))
                pid, pipe = _fork_check(message["job"], pending)
                pending[pipe] = (message["id"], pid, [])
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m perclib.graded answer|check|serve`` (the processes of a graded check)."""
    role = (argv if argv is not None else sys.argv[1:])[:1]
    if role == ["answer"]:
        return _answer_main()
    if role == ["check"]:
        return _check_main()
    if role == ["serve"]:
        return _serve_main()
    print("usage: python -m perclib.graded answer|check|serve (JSON on stdin)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
