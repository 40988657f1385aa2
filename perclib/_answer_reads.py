"""Lesson variables an answer function reads: said in the kernel, before grading.

When a class grades an exercise (:mod:`perclib.graded`), the answer cell runs again in a
process of its own, with the lesson's imports and function definitions but not its data
cells. A function that reads a variable set in another cell of the lesson (``X = ...``)
works in the student's kernel and fails there with a ``NameError``. The checks call
:func:`note_lesson_data` as they start (through :func:`perclib.checking.without`), so
the student reads why in the check's output, before handing the notebook in.

Only functions defined in a notebook cell (module ``__main__``, source known to
:mod:`linecache`) are looked at; anything unclear is passed over in silence: a note
must never stop a check.

Example
-------
>>> lesson_data_read(lambda x: x + 1)   # not defined in a notebook cell: nothing to say
[]
"""

from __future__ import annotations

import ast
import inspect
import linecache
import sys
import textwrap
import types
from typing import Any

#: (function, names) pairs already noted in this kernel: each is said once.
_NOTED: set[tuple[str, tuple[str, ...]]] = set()


def lesson_data_read(function: Any) -> list[str]:
    """Names of lesson data that ``function`` reads from the notebook's globals.

    Data: a global that is neither a module nor callable (imports and definitions
    reach the grading process; data do not), and not set at the top of the cell that
    defines the function (the answer cell runs whole at grading).
    """
    if not isinstance(function, types.FunctionType) or function.__module__ != "__main__":
        return []
    own = _bound_in_cell(function.__code__.co_filename)
    if own is None:
        return []
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return []
    loaded, stored = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
    found = []
    for name in sorted(loaded - stored - own):
        if name not in function.__globals__:
            continue
        value = function.__globals__[name]
        if not isinstance(value, types.ModuleType) and not callable(value):
            found.append(name)
    return found


def _bound_in_cell(filename: str) -> set[str] | None:
    """Names the cell in ``filename`` binds at its top level (None: source unknown)."""
    lines = linecache.getlines(filename)
    if not lines:
        return None
    try:
        tree = ast.parse("".join(line for line in lines if not line.lstrip().startswith(("%", "!"))))
    except SyntaxError:
        return None
    bound: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            for inner in ast.walk(node):
                if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                    bound.add(inner.id)
    return bound


def note_lesson_data(depth: int = 1) -> None:
    """Print a note for each notebook function the calling check uses that reads lesson data.

    ``depth``: how many frames above this call the check's own code is. The functions
    looked at are those the check's code names (globals) or holds (locals), defined in
    another cell than the check's.
    """
    try:
        frame = sys._getframe(depth + 1)
        check_file = frame.f_code.co_filename
        candidates = [frame.f_globals.get(name) for name in frame.f_code.co_names]
        if frame.f_locals is not frame.f_globals:  # a cell's own frame: its names suffice
            candidates += list(frame.f_locals.values())
        for function in candidates:
            if not isinstance(function, types.FunctionType):
                continue
            if function.__code__.co_filename == check_file:
                continue  # the check's own helpers
            names = tuple(lesson_data_read(function))
            key = (function.__qualname__, names)
            if names and key not in _NOTED:
                _NOTED.add(key)
                print(_note(function.__name__, names))
    except Exception:  # noqa: BLE001 - a note must never stop a check
        return


def _note(function: str, names: tuple[str, ...]) -> str:
    listed = ", ".join(f"`{name}`" for name in names)
    one = len(names) == 1
    return (f"Note: `{function}` reads {listed}, set in another cell of the lesson. "
            "When a class grades this exercise, your answer cell runs on its own, with "
            "the lesson's imports and functions but not its data, so "
            f"{'it does' if one else 'they do'} not exist there. Pass "
            f"{'it' if one else 'them'} as an argument, or set {'it' if one else 'them'} "
            "in your answer cell.")
