"""Words for the figures' descriptions (their alt text): numbers, counts and lists.

A description is read aloud by a screen reader, so numbers are written positionally
(no ``2.75e+03``; a power of ten as ``3 × 10¹²``), ``-0`` never appears, and lists end
with "and".

Examples
--------
>>> num(2746.3), num(-0.0), num(0.8191520), num(3e12), num(-1.25e-13)
('2750', '0', '0.819', '3 × 10¹²', '-1.25 × 10⁻¹³')
>>> count(1, "pattern"), count(3, "pattern")
('1 pattern', '3 patterns')
>>> join(["a", "b", "c"]), panels(2), point([1.2, -0.5])
('a, b and c', 'Two panels', '(1.2, -0.5)')
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

_PANEL_WORDS = ("One panel", "Two panels", "Three panels", "Four panels", "Five panels",
                "Six panels")


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def num(value: float, digits: int = 3) -> str:
    """``value`` to ``digits`` significant digits, written out (no ``-0``)."""
    value = float(value) + 0.0  # -0.0 + 0.0 is +0.0
    if value != 0.0 and not 1e-4 <= abs(value) < 1e9:
        # Extreme scales: a power of ten, written as read ("3 × 10¹²"), not "3e+12".
        mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    text = np.format_float_positional(value, precision=digits, unique=True,
                                      fractional=False, trim="-")
    return "0" if text in ("-0", "0") else text


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for one ("1 pattern", "3 patterns")."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def join(items: Iterable[str], last: str = " and ") -> str:
    """``a, b and c`` (or ``a or b`` with ``last=" or "``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


def panels(n: int) -> str:
    """The start of a description of ``n`` panels in a row ("Two panels")."""
    return _PANEL_WORDS[n - 1] if 1 <= n <= len(_PANEL_WORDS) else f"{n} panels"


def point(p: ArrayLike, digits: int = 3) -> str:
    """A point of the plane as ``(x1, x2)``."""
    coordinates = np.asarray(p, dtype=float).ravel()
    return "(" + ", ".join(num(v, digits) for v in coordinates) + ")"
