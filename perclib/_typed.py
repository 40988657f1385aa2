"""What a reader types, read in bounded time and size: the limits and the number reader.

A ``number`` answer may be plain arithmetic, as a reader writes it on paper:
``0.447``, ``1/sqrt(5)``, ``3/sqrt(2)``, ``sqrt(2)/2``, ``2^10``, ``2**10``, ``pi/4``,
``1e-3``. :func:`parse_number` reads it with a small recursive-descent parser (no
``eval``, no sympy), in two steps: the text becomes a tree, then the tree a float. The
website's script (``coursetools/site/questions.js``) follows the same grammar and the
same limits step for step; tests run one table of inputs through both.

Grammar (``^`` and ``**`` are powers and group to the right, ``-2^2`` is ``-4``)::

    expr  = term (("+" | "-") term)*
    term  = unary (("*" | "/") unary | power)*    # "2pi", "2sqrt(2)", "3(1+1)": a name
    unary = ("+" | "-") unary | power             #   or "(" right after multiplies
    power = atom (("^" | "**") unary)?
    atom  = decimal | "pi" | "e" | "sqrt" "(" expr ")" | "(" expr ")"

A decimal is ``12``, ``1.5``, ``.5`` or ``1e-3``; ``1 0`` (two numbers side by side) is
not read. Limits, each a clear :class:`TooLarge` rather than a long wait:
:data:`MAX_RESPONSE` characters, :data:`MAX_DIGITS` digits in a row, a decimal exponent
or a power's exponent beyond :data:`MAX_EXPONENT` in size, a value (or any step on the
way) beyond :data:`LIMIT`, nesting deeper than :data:`MAX_DEPTH`. Division by zero, the
square root of a negative number and anything else without a real value are unreadable
(None), not too large.

Example
-------
>>> parse_number("1/sqrt(5)") == 1 / 5 ** 0.5, parse_number("2^10"), parse_number("pi/4")
(True, 1024.0, 0.7853981633974483)
>>> parse_number("1/0") is None, parse_number("2 3") is None
(True, True)
"""

from __future__ import annotations

import math
import re
from typing import Any

#: Longest response read at all (characters), and most digits of one number in it.
MAX_RESPONSE = 200
MAX_DIGITS = 60
#: Largest |exponent| of a typed decimal (``1e-3``) or of a power (``2^10``), and largest
#: log10 of a formula's size.
MAX_EXPONENT = 300
#: Largest |value| of a number answer and of every step of its arithmetic.
LIMIT = 1e300
#: Deepest nesting of signs, brackets and powers in a number answer.
MAX_DEPTH = 30
TOO_LARGE = "That is too large to check here: answers in this course are moderate numbers."


class TooLarge(ValueError):
    """A response too long or too large to read in bounded time (``1e999999999``)."""


class _Unreadable(ValueError):
    """Not a number: a typo, a name the reader may not use, no real value."""


def bounded(text: Any) -> str:
    """``text`` as a string, or :class:`TooLarge` when it is too long or a run of digits
    is too long to read."""
    s = str(text)
    if len(s) > MAX_RESPONSE:
        raise TooLarge("the response is too long")
    if any(len(run) > MAX_DIGITS for run in re.findall(r"\d+", s)):
        raise TooLarge("a number with too many digits")
    return s


_TOKEN = re.compile(r"\s*(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[A-Za-z_]\w*|\*\*|[-+*/^()])",
                    re.ASCII)
_CONSTANTS = {"pi": math.pi, "e": math.e}


def _tokens(s: str) -> list[str] | None:
    out, at = [], 0
    while at < len(s):
        m = _TOKEN.match(s, at)
        if not m:
            return out if not s[at:].strip() else None
        out.append(m.group(1))
        at = m.end()
    return out


class _Parser:
    """Text to tree: ``("num", x)``, ``("neg", a)``, ``("sqrt", a)``, ``(op, a, b)``."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.at, self.depth = tokens, 0, 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise _Unreadable("the answer stops early")
        self.at += 1
        return token

    def expr(self) -> tuple:
        node = self.term()
        while self.peek() in ("+", "-"):
            node = (self.take(), node, self.term())
        return node

    def term(self) -> tuple:
        node = self.unary()
        while True:
            token = self.peek()
            if token in ("*", "/"):
                node = (self.take(), node, self.unary())
            elif token is not None and (token == "(" or token[0].isalpha() or token[0] == "_"):
                node = ("*", node, self.power())  # 2pi, 2sqrt(2), 3(1+1)
            else:
                return node

    def unary(self) -> tuple:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise TooLarge("the answer is nested too deeply")
        token = self.peek()
        if token in ("+", "-"):
            self.take()
            node = self.unary()
            node = ("neg", node) if token == "-" else node
        else:
            node = self.power()
        self.depth -= 1
        return node

    def power(self) -> tuple:
        base = self.atom()
        if self.peek() in ("^", "**"):
            self.take()
            return ("^", base, self.unary())
        return base

    def atom(self) -> tuple:
        token = self.take()
        if token == "(" or token == "sqrt" and self.peek() == "(":
            if token == "sqrt":
                self.take()
            node = self.expr()
            if self.take() != ")":
                raise _Unreadable("a bracket is not closed")
            return ("sqrt", node) if token == "sqrt" else node
        if token[0].isdigit() or token[0] == ".":
            exponent = re.search(r"[eE]([+-]?\d+)$", token)
            if exponent and abs(int(exponent.group(1))) > MAX_EXPONENT:
                raise TooLarge("the exponent is too large")
            return ("num", _checked(float(token)))
        if token in _CONSTANTS:
            return ("num", _CONSTANTS[token])
        raise _Unreadable(f"{token!r} is not a number")


def _checked(x: float) -> float:
    if math.isnan(x):
        raise _Unreadable("no real value")
    if abs(x) > LIMIT:
        raise TooLarge("the number is too large")
    return x


def _value(node: tuple) -> float:
    """The tree's value, every step checked (left operand first, as the script does)."""
    op = node[0]
    if op == "num":
        return node[1]
    if op in ("neg", "sqrt"):
        a = _value(node[1])
        if op == "neg":
            return -a
        if a < 0:
            raise _Unreadable("the square root of a negative number")
        return _checked(math.sqrt(a))
    a, b = _value(node[1]), _value(node[2])
    if op == "^":
        if abs(b) > MAX_EXPONENT:
            raise TooLarge("the power's exponent is too large")
        try:
            return _checked(math.pow(a, b))
        except OverflowError:
            raise TooLarge("the power is too large") from None
        except ValueError:  # 0^-1, (-8)^(1/3): no real value
            raise _Unreadable("the power has no real value") from None
    if op == "/" and b == 0:
        raise _Unreadable("division by zero")
    return _checked(a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b)


def parse_number(text: Any) -> float | None:
    """A real number typed by a reader, arithmetic allowed (see the module's grammar);
    None when it cannot be read; :class:`TooLarge` beyond the limits.

    >>> parse_number("3/sqrt(2)") == 3 / 2 ** 0.5, parse_number("1e-3"), parse_number("2**-1")
    (True, 0.001, 0.5)
    >>> try:
    ...     parse_number("9^9^9^9")
    ... except TooLarge as exc:
    ...     print(exc)
    the power's exponent is too large
    """
    tokens = _tokens(bounded(text))
    if not tokens:
        return None
    parser = _Parser(tokens)
    try:
        tree = parser.expr()
        if parser.at != len(tokens):
            return None
        return _value(tree)
    except _Unreadable:
        return None
