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
import sys
import types
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["FAMILIES", "family_members", "without"]

#: perclib functions grouped by the job they do. A name is a public name of
#: ``perclib`` or ``"submodule.name"`` for a private helper (``perclib.`` implied).
FAMILIES: dict[str, tuple[str, ...]] = {
    # Anything that decides separability or returns a separating vector.
    "separation": (
        "is_separable", "separating_weights", "max_margin", "perceptron", "pocket",
        "averaged_perceptron", "kernel_perceptron", "margin_perceptron", "minover", "adatron",
        "geometry._max_min_lp", "geometry._separability_lp", "geometry._solve_max_margin",
        "train.perceptron._perceptron_run", "train.perceptron._run_epochs",
        "train.perceptron._one_epoch",
    ),
    # The perceptron and every trainer that runs its loop (or the dual form of it).
    "perceptron": (
        "perceptron", "pocket", "averaged_perceptron", "kernel_perceptron",
        "margin_perceptron", "minover", "adatron",
        "train.perceptron._perceptron_run", "train.perceptron._run_epochs",
        "train.perceptron._one_epoch", "train._timing.timed_perceptron",
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
    import perclib

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
    families = [family] if isinstance(family, str) else list(family)
    wanted = list(names) + [member for key in families for member in family_members(key)]
    targets: dict[int, tuple[str, Any]] = {}
    for name in wanted:
        obj = _resolve(name)
        targets.setdefault(id(obj), (name.rpartition(".")[2], obj))
    swapped: list[tuple[types.FunctionType, types.CodeType]] = []
    patched: list[tuple[dict[str, Any], str, Any]] = []
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
