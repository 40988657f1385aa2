"""Tools for the lessons' exercise checks.

An exercise that asks the student to write, say, a separability test must not be
passed by calling the course's own one. :func:`without` switches named ``perclib``
functions off for the duration of a check: every reference to them that the
student's code could reach (the ``perclib`` modules and the notebook's globals)
raises an ``AssertionError`` that says which exercise wants the student's own code.

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

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["without"]


def _blocked(name: str, reason: str) -> Callable[..., Any]:
    message = f"this exercise asks for your own code, not perclib.{name}"
    if reason:
        message += f": {reason}"

    def blocked(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(message)

    blocked.__name__ = name
    return blocked


def _namespaces() -> Iterator[dict[str, Any]]:
    """Every namespace a student's cell can reach a perclib function through."""
    for module_name, module in list(sys.modules.items()):
        if module is not None and (module_name == "perclib" or module_name.startswith("perclib.")):
            yield vars(module)
    main = sys.modules.get("__main__")
    if main is not None:
        yield vars(main)


@contextmanager
def without(*names: str, reason: str = "") -> Iterator[None]:
    """Make the named public ``perclib`` functions raise while the block runs.

    Parameters
    ----------
    names
        Names exported by ``perclib`` (``"is_separable"``, ...). Compute the check's
        reference values before the block: a perclib function that calls a named one
        internally raises inside it too.
    reason
        One sentence added to the error, saying what to write instead.

    Raises
    ------
    ValueError
        If a name is not a public ``perclib`` function.

    Examples
    --------
    >>> import perclib
    >>> with without("cover_count"):
    ...     pass  # the student's function is called here
    >>> perclib.cover_count(3, 2)
    6
    """
    import perclib

    originals = {}
    for name in names:
        if name not in perclib.__all__:
            raise ValueError(f"names: {name!r} is not exported by perclib")
        originals[name] = getattr(perclib, name)
    patched: list[tuple[dict[str, Any], str, Any]] = []
    try:
        for namespace in _namespaces():
            for key, value in list(namespace.items()):
                for name, original in originals.items():
                    if value is original:
                        patched.append((namespace, key, value))
                        namespace[key] = _blocked(name, reason)
        yield
    finally:
        for namespace, key, value in reversed(patched):
            namespace[key] = value
