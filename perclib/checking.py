"""Tools for the lessons' exercise checks.

An exercise that asks the student to write, say, a separability test must not be
passed by calling the course's own one, nor a sibling that does the same job.
:func:`without` switches ``perclib`` functions off for the duration of a check. It
blocks the *function*, not a name: while the block runs, the function's code is
swapped for code that raises an ``AssertionError`` saying which exercise wants the
student's own code. So every route to it fails alike: ``perclib.X``, an alias, a
default argument (``def f(x, _solve=separating_weights)``), a closure, an attribute of
a class. Private helpers can be named too (``"counting.separable_dichotomies_bruteforce"``).

:data:`FAMILIES` groups perclib's solvers by the job they do; a check switches off the
family that does its exercise's job (``without(family="separation")``).

The guard also holds against an answer that tries to get around it (issue 40). When
this module is imported (``import perclib`` imports it) it seals itself and installs
an audit hook (:func:`sys.addaudithook`, which cannot be removed). Code in the
notebook (a cell, or a string it executes) that reads or replaces the ``__code__`` of
a perclib function, builds a function from perclib's code, loads a second copy of a
perclib module from its file or reloads one, or rebinds or replaces this module or its
``without`` fails at once, or at the next cell, with an ``AssertionError`` that says a
grader reads the answer. No in-process check is airtight (a determined answer can
still copy perclib's source); the message makes the policy plain: a grader reads
every answer, and one that goes around the guard earns nothing.

Examples
--------
>>> import perclib
>>> from perclib.checking import without
>>> with without("is_separable", reason="write the LP yourself"):
...     perclib.is_separable([[1.0]], [1])
Traceback (most recent call last):
...
AssertionError: this exercise asks for your own code, not perclib.is_separable: write the LP yourself
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from perclib._answer_reads import note_lesson_data

__all__ = ["FAMILIES", "TAMPERED", "family_members", "without"]

#: The start of the message an answer that goes around the guard gets.
TAMPERED = "this answer tampers with perclib's exercise guard"

#: perclib functions grouped by the job they do. A name is a public name of
#: ``perclib`` or ``"submodule.name"`` for a private helper (``perclib.`` implied).
FAMILIES: dict[str, tuple[str, ...]] = {
    # Anything that decides separability or returns a separating vector.
    "separation": (
        "is_separable", "separating_weights", "max_margin", "perceptron", "pocket",
        "averaged_perceptron", "kernel_perceptron", "margin_perceptron", "minover", "adatron",
        "geometry._max_min_lp", "geometry._separability_lp", "geometry._solve_max_margin",
        "geometry._lp_on_scaled", "geometry._separable_many",
        "train.perceptron._perceptron_run", "train.perceptron._run_epochs",
        "train.perceptron._one_epoch", "train._pyloop.epoch", "train._pyloop.scalar_epoch",
    ),
    # The perceptron and every trainer that runs its loop (or the dual form of it).
    "perceptron": (
        "perceptron", "pocket", "averaged_perceptron", "kernel_perceptron",
        "margin_perceptron", "minover", "adatron",
        "train.perceptron._perceptron_run", "train.perceptron._run_epochs",
        "train.perceptron._one_epoch", "train._timing.timed_perceptron",
        "train._pyloop.epoch", "train._pyloop.scalar_epoch",
    ),
    # Maximum-margin solvers.
    "max_margin": (
        "max_margin", "minover", "adatron", "margin_perceptron", "shattering_margin",
        "geometry._solve_max_margin", "geometry._ldp_max_margin", "geometry._primal_active_set",
    ),
    # Counting separable labellings, exactly or by formula.
    "counting": (
        "cover_count", "cover_counts", "cover_count_symbolic", "capacity_fraction",
        "capacity_curve", "count_dichotomies", "separable_dichotomies",
        "arrangement_dichotomies", "extension_split", "margin_dichotomy_count",
        "dichotomy_margins", "nonseparable_restrictions",
        "counting.separable_dichotomies_bruteforce", "counting._enumerate_incremental",
        "counting._enumerate_bruteforce", "counting._half_cover",
        "_regions.count_regions", "_regions._regions_in_space", "_regions._restrict",
        "_regions.count_regions_with_work", "_regions.closed_form_regions",
        "_cube.cube_threshold_functions", "_cube.points_off_the_cube_arrangement",
        "capacity._cells", "project_out",
    ),
    # Margins of patterns, of a separator and of a data set.
    "margins": (
        "margin", "pattern_margins", "direction_margins", "separator_margin", "mistake_bound",
        "radius", "max_margin", "admissible_arc",
    ),
    # Explicit feature maps and Gram matrices (kernels, lesson 8).
    "features": ("polynomial_features", "gram_matrix"),
    # The teacher-student overlap and the error it gives (lesson 9).
    "overlap": ("overlap", "generalization_error"),
    # General position and the degenerate subsets that break it.
    "general_position": (
        "in_general_position", "dependent_subsets", "widgets.general_position.collinear_triples",
        "_subsets.all_subsets_well_conditioned", "_subsets.all_subsets_svd",
        "_subsets._ill_conditioned",
    ),
    # The averaged perceptron's vote, and the exact signs it counts (lesson 7).
    "voting": (
        "averaged_perceptron", "_exact.exact_margin_signs",  # AveragedResult.vote calls it
    ),
}


def family_members(family: str) -> tuple[str, ...]:
    """The names in one of :data:`FAMILIES`, with a clear error for an unknown family.

    >>> "minover" in family_members("perceptron")
    True
    """
    try:
        return FAMILIES[family]
    except KeyError:
        raise ValueError(f"family: {family!r} is not one of {sorted(FAMILIES)}") from None


def _resolve(name: str) -> Any:
    """The object a name refers to: a public perclib name or ``submodule.name``."""
    # The package this module belongs to, already imported (importing perclib.checking
    # imports perclib first); looked up, not imported, since perclib imports this module.
    perclib = sys.modules["perclib"]

    if "." not in name:
        if name not in perclib.__all__:
            raise ValueError(f"names: {name!r} is not exported by perclib (private helpers: 'module.name')")
        return getattr(perclib, name)
    module_name, _, attr = name.rpartition(".")
    try:
        module = importlib.import_module(f"perclib.{module_name}")
        return getattr(module, attr)
    except (ImportError, AttributeError):
        raise ValueError(f"names: perclib.{name} does not exist") from None


def _message(name: str, reason: str) -> str:
    message = f"this exercise asks for your own code, not perclib.{name}"
    return f"{message}: {reason}" if reason else message


def _blocking_code(function: types.FunctionType, message: str) -> types.CodeType | None:
    """Code with ``function``'s free variables that raises ``AssertionError(message)``.

    ``function.__code__`` may only be replaced by code with the same free variables
    (its closure cells stay attached), so the raiser is compiled inside a scope that
    defines them. None if the compiler orders them differently (then only names are
    patched).
    """
    freevars = function.__code__.co_freevars
    lines = ["def _outer():"]
    lines += [f"    {var} = None" for var in freevars]
    lines += ["    def blocked(*args, **kwargs):"]
    if freevars:
        lines += [f"        ({', '.join(freevars)},)"]
    lines += [f"        raise AssertionError({message!r})", "    return blocked"]
    scope: dict[str, Any] = {}
    exec(compile("\n".join(lines), f"<blocked {function.__qualname__}>", "exec"), scope)
    code = scope["_outer"]().__code__
    if code.co_freevars != freevars:
        return None
    return code.replace(co_name=function.__code__.co_name, co_qualname=function.__code__.co_qualname)


def _namespaces() -> Iterator[dict[str, Any]]:
    """Every namespace a student's cell can reach a perclib object through by name."""
    for module_name, module in list(sys.modules.items()):
        if module is not None and (module_name == "perclib" or module_name.startswith("perclib.")):
            yield vars(module)
    main = sys.modules.get("__main__")
    if main is not None:
        yield vars(main)


def _raiser(message: str) -> Callable[..., Any]:
    def blocked(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(message)

    return blocked


@contextmanager
def without(*names: str, family: str | Iterable[str] = (), reason: str = "") -> Iterator[None]:
    """Make perclib functions raise, however they are reached, while the block runs.

    Parameters
    ----------
    names
        Public perclib names (``"is_separable"``) or private helpers as
        ``"submodule.name"`` (``"counting.separable_dichotomies_bruteforce"``).
    family
        One or more keys of :data:`FAMILIES`; all their members are switched off too.
    reason
        One sentence added to the error, saying what to write instead.

    Compute the check's reference values before the block: a perclib function that
    calls a switched-off one internally raises inside it too. Everything is restored
    when the block ends, also on an error or ``KeyboardInterrupt``.

    Raises
    ------
    ValueError
        If a name or family does not exist.

    Examples
    --------
    >>> import perclib
    >>> def lazy(X, y, _solve=perclib.perceptron):   # a default-argument capture
    ...     return _solve(X, y).w
    >>> with without(family="perceptron"):
    ...     lazy([[1.0]], [1])
    Traceback (most recent call last):
    ...
    AssertionError: this exercise asks for your own code, not perclib.perceptron
    >>> lazy([[1.0]], [1])
    array([1.])
    """
    _GUARD.verify()
    # Before the block: an answer that reads the lesson's data works here and fails at
    # grading, where its cell runs alone. Say so now (the check's code is two frames up).
    note_lesson_data(depth=2)
    families = [family] if isinstance(family, str) else list(family)
    wanted = list(names) + [member for key in families for member in family_members(key)]
    targets: dict[int, tuple[str, Any]] = {}
    for name in wanted:
        obj = _resolve(name)
        targets.setdefault(id(obj), (name.rpartition(".")[2], obj))
    swapped: list[tuple[types.FunctionType, types.CodeType]] = []
    patched: list[tuple[dict[str, Any], str, Any]] = []
    _GUARD.enter()
    try:
        for short, obj in targets.values():
            message = _message(short, reason)
            code = _blocking_code(obj, message) if isinstance(obj, types.FunctionType) else None
            if code is not None:
                swapped.append((obj, obj.__code__))
                obj.__code__ = code
                continue
            # Not a plain function (a class, a builtin): replace the names that hold it.
            for namespace in _namespaces():
                for key, value in list(namespace.items()):
                    if value is obj:
                        patched.append((namespace, key, value))
                        namespace[key] = _raiser(message)
        yield
    finally:
        for function, code in reversed(swapped):
            function.__code__ = code
        for namespace, key, value in reversed(patched):
            namespace[key] = value
        _GUARD.leave()
    _GUARD.verify()


class _Sealed(types.ModuleType):
    """This module's class once loaded: its names cannot be rebound or deleted."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AssertionError(_tamper(f"it rebinds perclib.checking.{name}"))

    def __delattr__(self, name: str) -> None:
        raise AssertionError(_tamper(f"it deletes perclib.checking.{name}"))


def _tamper(what: str) -> str:
    return (f"{TAMPERED}: {what}. A grader reads every answer; one that goes around "
            "the check earns nothing. Write the exercise's code yourself")


class _Guard:
    """The audit hook's state, kept in a closure: ``verify`` raises on tampering,
    ``enter``/``leave`` mark a check's block (only the guard's own code may)."""

    def __init__(self, verify: Callable[..., None], enter: Callable[[], None],
                 leave: Callable[[], None]) -> None:
        self.verify, self.enter, self.leave = verify, enter, leave


def _install() -> _Guard:
    """Seal this module, install the audit hook (once per process), return the guard."""
    module = sys.modules[__name__]
    package_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    perclib_dir = os.path.join(package_dir, "perclib") + os.sep
    genuine = {"without": without, "_GUARD": None}
    guard_codes = {without.__wrapped__.__code__} if hasattr(without, "__wrapped__") else set()
    busy = [False]
    depth = [0]  # how many blocks are open: while one is, a check is running
    frame_events = {"sys._getframe", "sys._current_frames", "gc.get_referrers",
                    "gc.get_referents", "gc.get_objects"}
    frame_attributes = {"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back"}

    def in_perclib(filename: str) -> bool:
        return os.path.abspath(filename).startswith(perclib_dir)

    def user_frame(frame: types.FrameType | None) -> bool:
        # Notebook code: a cell (ipykernel's temporary file or '<ipython-input-...>'),
        # a string it executes, or any function defined in the notebook (__main__).
        if frame is None:
            return False
        filename = frame.f_code.co_filename
        if filename.startswith("<frozen "):  # the import system and runpy
            return False
        return (frame.f_globals.get("__name__") == "__main__" or filename.startswith("<")
                or "ipykernel_" in filename) and not in_perclib(filename)

    def user_on_stack(frame: types.FrameType | None) -> bool:
        while frame is not None:
            if user_frame(frame):
                return True
            frame = frame.f_back
        return False

    def perclib_function(obj: Any) -> bool:
        return isinstance(obj, types.FunctionType) and str(
            getattr(obj, "__module__", "") or "").startswith("perclib")

    def expected_name(filename: str) -> str:
        relative = os.path.relpath(os.path.abspath(filename), package_dir)
        parts = relative[: -len(".py")].split(os.sep)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    def fresh_import(code: types.CodeType, frame: types.FrameType | None) -> bool:
        # A first import by the import system: exec_module(module) of a module
        # registered under its own name, whose namespace holds no definitions yet.
        target = None
        for _ in range(3):  # exec_module(module) calls exec through a helper frame
            if frame is None:
                break
            candidate = frame.f_locals.get("module")
            if isinstance(candidate, types.ModuleType):
                target = candidate
                break
            frame = frame.f_back
        if target is None:
            return False
        name = expected_name(code.co_filename)
        defined = [k for k in vars(target) if not (k.startswith("__") and k.endswith("__"))]
        return target.__name__ == name and sys.modules.get(name) is target and not defined

    def verify(names_in_notebook: bool = True) -> None:
        if sys.modules.get(__name__) is not module or type(module) is not _Sealed:
            raise AssertionError(_tamper("sys.modules['perclib.checking'] was replaced"))
        names = vars(module)
        for key, value in genuine.items():
            if names.get(key) is not value:
                raise AssertionError(_tamper(f"perclib.checking.{key} was replaced"))
        main = sys.modules.get("__main__") if names_in_notebook else None
        found = vars(main).get("without", genuine["without"]) if main is not None else None
        if found is not None and found is not genuine["without"] and callable(found):
            raise AssertionError(_tamper("the notebook's name 'without' is not the guard"))

    def mark(step: int) -> None:
        caller = sys._getframe(2)
        if caller.f_code not in guard_codes:
            raise AssertionError(_tamper("it opens or closes the guard's block itself"))
        depth[0] = max(0, depth[0] + step)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if busy[0] or event not in ("object.__getattr__", "object.__setattr__",
                                    "function.__new__", "exec") and event not in frame_events:
            return
        busy[0] = True
        try:
            caller = sys._getframe(1)
            if event in frame_events:
                # While a check runs, the frames above the answer hold the check's data:
                # no code but perclib's may reach them (sys._getframe, inspect, gc).
                # Notebook code never searches the heap (it could reach the guard's state).
                if depth[0] and not in_perclib(caller.f_code.co_filename):
                    raise AssertionError(_tamper(
                        "it reaches into the check's frames or objects while the check runs"))
                if event.startswith("gc.") and user_frame(caller):
                    raise AssertionError(_tamper("it searches the interpreter's objects"))
            elif event == "object.__getattr__":
                obj, name = args
                if name == "__code__" and perclib_function(obj) and user_frame(caller):
                    raise AssertionError(_tamper("it reads the code of a perclib function"))
                if depth[0] and name in frame_attributes and not in_perclib(caller.f_code.co_filename):
                    raise AssertionError(_tamper(
                        "it reaches into the check's frames while the check runs"))
            elif event == "object.__setattr__":
                obj, name, _ = args
                if name in ("__code__", "__defaults__", "__kwdefaults__") and \
                        perclib_function(obj) and caller.f_code not in guard_codes:
                    raise AssertionError(_tamper(f"it changes {name} of a perclib function"))
                if obj is module and caller.f_code not in guard_codes:
                    raise AssertionError(_tamper(f"it changes perclib.checking.{name}"))
            elif event == "function.__new__":
                (code,) = args[:1]
                if isinstance(code, types.CodeType) and in_perclib(code.co_filename) \
                        and user_on_stack(caller):
                    raise AssertionError(_tamper("it builds a function from perclib's code"))
            else:  # exec
                code = args[0]
                if not isinstance(code, types.CodeType) or code.co_name != "<module>":
                    return
                if in_perclib(code.co_filename):
                    if not fresh_import(code, caller) and user_on_stack(caller):
                        raise AssertionError(_tamper(
                            "it loads a second copy of a perclib module, or reloads one"))
                elif code.co_filename.startswith("<ipython-input") or \
                        "ipykernel_" in code.co_filename:
                    verify(names_in_notebook=False)  # every cell starts with an intact guard
        finally:
            busy[0] = False

    guard = _Guard(verify, lambda: mark(1), lambda: mark(-1))
    genuine["_GUARD"] = guard
    guard_codes.add(_install.__code__)
    module.__class__ = _Sealed
    sys.addaudithook(hook)
    return guard


_GUARD = _install()
