"""Self-check questions: written once in a lesson, answered in the kernel and on the site.

A *question cell* (author tag ``question``, see ``coursetools.roles``) builds one
:class:`Question` and shows it with :func:`perclib.widgets.ask` (the widget lives a floor
above this model, which knows nothing of widgets). The answer is computed in the cell by
perclib or sympy, never typed by hand (the site's build refuses a literal answer,
``coursetools.site.questions``). The same object gives the feedback everywhere:

* :meth:`Question.check` reads what the reader typed or picked and returns a
  :class:`Feedback`: one line of *why* for a right answer; for a wrong one the hint aimed
  at that mistake (``hints``: wrong answer -> hint) or the general ``hint``, and from the
  second wrong try on also the ``stronger`` hint. The answer itself only comes from
  :meth:`Question.answer_text`, which the "Show answer" button calls;
* :meth:`Question.spec` is the JSON the website's script needs (the same rules, written
  again in JavaScript in ``coursetools/site/questions.js``; tests check that both agree).

A question about data can be renewed: pass ``ask`` a function ``make(rng)`` that
builds a fresh :class:`Question` from a random generator. "Another one" calls it with
the next seed (0, 1, 2, ...); the site prebuilds seeds 0..23.

Kinds of answer (``kind=``):

==============  ==================================  ===========================================
kind            ``answer``                          the reader gives
==============  ==================================  ===========================================
``integer``     an int                              a whole number
``number``      a float, with ``tol=``              a number or arithmetic: ``1/sqrt(5)``, ``2^10``
``fraction``    a Fraction / sympy Rational         an exact fraction ``a/b`` (or exact decimal)
``choice``      one of ``choices``                  one option (every wrong one has a hint)
``choices``     a set of ``choices``                several options
``yesno``       a bool                              Yes or No
``formula``     a sympy expression in ``variables``  a formula, compared at random values
==============  ==================================  ===========================================

Examples
--------
>>> from perclib import cover_count
>>> q = Question("How many labellings of 4 points in the plane can a line through the "
...              "origin separate?", kind="integer", answer=cover_count(4, 2),
...              why="Cover: $C(4, 2) = 2(1 + 3) = 8$.",
...              hints={cover_count(4, 3): "That is the count with a threshold."},
...              hint="Use Cover's formula with $P = 4$, $N = 2$.",
...              stronger="$C(P, N) = 2\\\\sum_{k<N} \\\\binom{P-1}{k}$.")
>>> q.check("14").message
'Not yet. That is the count with a threshold.'
>>> q.check("8").correct
True
"""

from __future__ import annotations

import base64
import html
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral, Real
from typing import Any

import numpy as np

# The limits, TooLarge and the number reader live in perclib._typed (one job: reading a
# typed answer in bounded time); imported here, where the rest of the reading is.
from perclib._typed import MAX_EXPONENT, TOO_LARGE, TooLarge, parse_number  # noqa: F401 (re-exported)
from perclib._typed import bounded as _bounded

__all__ = ["Feedback", "Question", "instance"]

KINDS = ("integer", "number", "fraction", "choice", "choices", "yesno", "formula")
#: MIME type of the question's description in the stored output (read by the site build).
SPEC_MIME = "application/vnd.perclib.question+json"
#: Seeds the website prebuilds for a question with "Another one".
SITE_SEEDS = 24
#: What a reader without a kernel sees in place of the input row (GitHub, a fresh clone).
ROW_TEXT = "Run this cell to answer here and check your answer."
#: Relative tolerance of a formula compared at random values.
FORMULA_RTOL = 1e-6
_KEY = b"perceptron-course"  # the site's answers are XOR-ed with it: out of sight, not secret


@dataclass(frozen=True)
class Feedback:
    """What a check says.

    Attributes
    ----------
    correct : bool
        The response is right.
    message : str
        One line (Markdown with maths) for the reader.
    counted : bool
        False when the response could not be read (an empty box, "abc" for a number):
        it does not count as a try.
    """

    correct: bool
    message: str
    counted: bool = True


# ------------------------------------------------------------------ reading responses


def _clean(text: str) -> str:
    return re.sub(r"[\s_,]", "", _bounded(text))


def parse_integer(text: str) -> int | None:
    """A whole number typed by a reader (commas and ``_`` between digits allowed).

    Raises :class:`TooLarge` for more than ``perclib._typed.MAX_DIGITS`` digits. Digits
    split by a space ("1 0") are not read as one number.

    >>> parse_integer(" 1,024 "), parse_integer("8.5"), parse_integer("-3"), parse_integer("1 0")
    (1024, None, -3, None)
    """
    if re.search(r"\d\s+\d", _bounded(text)):
        return None
    s = _clean(text)
    return int(s) if re.fullmatch(r"[+-]?\d+", s) else None


def parse_fraction(text: str) -> Fraction | None:
    """An exact rational: ``a/b``, an integer or a decimal (read exactly).

    Raises :class:`TooLarge` for an exponent beyond :data:`MAX_EXPONENT`.

    >>> parse_fraction("3/8"), parse_fraction("0.375"), parse_fraction("1/0")
    (Fraction(3, 8), Fraction(3, 8), None)
    """
    s = re.sub(r"\s", "", _bounded(text))
    m = re.fullmatch(r"([+-]?\d+)/([+-]?\d+)", s)
    if m:
        den = int(m.group(2))
        return Fraction(int(m.group(1)), den) if den else None
    m = re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE]([+-]?\d+))?", s)
    if m:
        # Fraction("1e999999999") would build a billion-digit integer: refuse it first.
        if m.group(3) is not None and abs(int(m.group(3))) > MAX_EXPONENT:
            raise TooLarge("the exponent is too large")
        return Fraction(s)
    return None


_FORMULA_CHARS = re.compile(r"^[\w\s+\-*/^().,]*$")
#: Functions a reader may use in a formula (the site's script knows the same ones).
FORMULA_FUNCTIONS = ("sqrt", "log", "exp", "sin", "cos")


def parse_formula(text: str, variables: Iterable[str]) -> Any:
    """A formula typed by a reader as a sympy expression, None if it cannot be read.

    ``^`` is a power, ``2N`` means ``2*N``; only the question's variables and
    :data:`FORMULA_FUNCTIONS` are names.

    >>> parse_formula("2N + P^2", ["N", "P"])
    2*N + P**2
    >>> parse_formula("import os", ["N"]) is None
    True
    """
    import sympy as sp
    from sympy.parsing.sympy_parser import (
        convert_xor,
        implicit_multiplication,
        parse_expr,
        standard_transformations,
    )

    s = _bounded(text).strip()
    if not s or not _FORMULA_CHARS.match(s):
        return None
    names = {name: sp.Symbol(name) for name in variables}
    allowed = {**names, **{f: getattr(sp, f) for f in FORMULA_FUNCTIONS}}
    words = set(re.findall(r"[A-Za-z_]\w*", s))
    if not words <= set(allowed):
        return None
    options = dict(local_dict=allowed, global_dict={"Integer": sp.Integer, "Float": sp.Float,
                                                    "Rational": sp.Rational, "Symbol": sp.Symbol},
                   transformations=(*standard_transformations, implicit_multiplication,
                                    convert_xor))
    try:
        # Unevaluated first: 9^9^9^9 must be measured before sympy tries to compute it.
        raw = parse_expr(s, evaluate=False, **{**options, "global_dict": {
            **options["global_dict"], "Add": sp.Add, "Mul": sp.Mul, "Pow": sp.Pow}})
    except Exception:  # a reader's typo: any parse failure means "cannot read"
        return None
    if not isinstance(raw, sp.Basic):
        return None
    if _log_size(raw) > MAX_EXPONENT:
        raise TooLarge("the formula's values are too large")
    try:
        expr = parse_expr(s, **options)
    except Exception:
        return None
    return expr if isinstance(expr, sp.Basic) else None


def _log_size(expr: Any) -> float:
    """An upper bound on log10 of |value| of an unevaluated formula, variables in (1, 5).

    Cheap and conservative: a power's exponent is evaluated only once its own size is
    known to be small, so ``9^9^9^9`` is refused without computing anything large.

    >>> import sympy as sp
    >>> 3 < _log_size(sp.sympify("2**10", evaluate=False)) <= 10   # log10(1024) = 3.01
    True
    >>> _log_size(sp.sympify("9^9^9^9".replace("^", "**"), evaluate=False))
    inf
    """
    import sympy as sp

    if expr.is_Symbol:
        return math.log10(5.0)
    if expr.is_Number:
        value = abs(expr)
        return max(math.log10(float(value.p) + 1), math.log10(float(value.q) + 1)) \
            if expr.is_Rational else math.log10(abs(float(expr)) + 1)
    args = [_log_size(a) for a in expr.args]
    if expr.is_Add:
        return max(args, default=0.0) + math.log10(len(args) + 1)
    if expr.is_Mul:
        return sum(args)
    if expr.is_Pow:
        base, exponent = expr.args
        if args[1] > 3:  # an exponent beyond about 1000
            return math.inf
        power = abs(float(exponent.subs({s: 5 for s in exponent.free_symbols}))) \
            if not exponent.free_symbols else 10 ** args[1]
        return power * max(args[0], 1.0)
    if isinstance(expr, sp.exp):
        return 10 ** args[0] * math.log10(math.e) if args[0] < 3 else math.inf
    return max(args, default=0.0)


# ------------------------------------------------------------------ the question
def _is_int(value: Any) -> bool:
    return isinstance(value, Integral | np.integer) and not isinstance(value, bool | np.bool_)


def _as_fraction(value: Any, name: str) -> Fraction:
    if _is_int(value):
        return Fraction(int(value))
    if isinstance(value, Fraction):
        return value
    try:
        import sympy as sp

        if isinstance(value, sp.Rational):
            return Fraction(int(value.p), int(value.q))
    except ImportError:  # pragma: no cover - sympy is a dependency
        pass
    raise TypeError(f"{name} must be an exact fraction (Fraction or sympy Rational), got {value!r}")


class Question:
    """One self-check question: prompt, kind, computed answer and the feedback.

    Parameters
    ----------
    prompt : str
        Markdown with maths (``$...$``). Keep it short: one or two sentences.
    kind : str
        One of :data:`KINDS`.
    answer : object
        The right answer, computed by code (see the module's table for each kind).
    why : str
        One line shown with a right answer (and with a shown answer).
    hint : str
        Shown after a wrong answer that ``hints`` does not name.
    stronger : str
        Shown, after the hint, from the second wrong try on.
    hints : mapping, optional
        Wrong answer -> hint aimed at that mistake. For ``choice`` every wrong option
        needs one; for ``choices`` an option's hint is shown when the reader gets that
        option wrong (picked but wrong, or right but left out).
    tol : float, optional
        Absolute tolerance of a ``number`` (required there, refused elsewhere).
    choices : sequence of str, optional
        The options of ``choice`` and ``choices`` (in the order shown).
    variables : sequence of str, optional
        The names a ``formula`` may use.
    predict : bool, default False
        A predict-first question, placed before the result it asks about.
    shown : str, optional
        How the answer reads when shown (default: made from ``answer``).
    """

    def __init__(
        self,
        prompt: str,
        *,
        kind: str,
        answer: Any,
        why: str,
        hint: str,
        stronger: str,
        hints: Mapping[Any, str] | None = None,
        tol: float | None = None,
        choices: Iterable[str] | None = None,
        variables: Iterable[str] | None = None,
        predict: bool = False,
        shown: str | None = None,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}")
        for name, text in (("prompt", prompt), ("why", why), ("hint", hint), ("stronger", stronger)):
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"{name} must be a non-empty string")
        self.prompt, self.kind, self.why = prompt.strip(), kind, why.strip()
        self.hint, self.stronger, self.predict = hint.strip(), stronger.strip(), bool(predict)
        self.tol: float | None = None
        self.choices: list[str] = []
        self.variables: list[str] = []
        if (tol is not None) != (kind == "number"):
            raise ValueError("tol is required for kind 'number' and only there")
        if (choices is not None) != (kind in ("choice", "choices")):
            raise ValueError("choices are required for kinds 'choice'/'choices' and only there")
        if (variables is not None) != (kind == "formula"):
            raise ValueError("variables are required for kind 'formula' and only there")
        self.answer = self._read_answer(answer, tol, choices, variables)
        self.hints: list[tuple[Any, str]] = []
        for key, text in (hints or {}).items():
            value = self._read_key(key)
            if self._same(value, self.answer):
                raise ValueError(f"hints name the right answer {key!r}: a hint is for a wrong answer")
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"the hint for {key!r} must be a non-empty string")
            self.hints.append((value, text.strip()))
        if kind == "choice":
            named = {key for key, _ in self.hints}
            missing = [c for c in self.choices if c != self.answer and c not in named]
            if missing:
                raise ValueError(f"every wrong choice needs its own hint; missing: {missing}")
        self.shown = shown.strip() if shown else self._default_shown()

    # -- the answer and the hint keys, read once in a canonical form
    def _read_answer(self, answer: Any, tol: Any, choices: Any, variables: Any) -> Any:
        kind = self.kind
        if kind == "integer":
            if not _is_int(answer):
                raise TypeError(f"an 'integer' answer must be an int, got {answer!r}")
            return int(answer)
        if kind == "number":
            if not isinstance(tol, Real) or not tol > 0 or not math.isfinite(tol):
                raise ValueError(f"tol must be a positive number, got {tol!r}")
            self.tol = float(tol)
            if (isinstance(answer, bool | np.bool_) or not isinstance(answer, Real | np.floating | np.integer)
                    or not math.isfinite(float(answer))):
                raise TypeError(f"a 'number' answer must be a finite real, got {answer!r}")
            return float(answer)
        if kind == "fraction":
            return _as_fraction(answer, "a 'fraction' answer")
        if kind in ("choice", "choices"):
            self.choices = [str(c) for c in choices]
            if len(self.choices) < 2 or len(set(self.choices)) != len(self.choices):
                raise ValueError("choices must be at least two different strings")
            picked = {answer} if kind == "choice" else set(answer)
            if kind == "choice" and not isinstance(answer, str):
                raise TypeError(f"a 'choice' answer must be one of the choices, got {answer!r}")
            unknown = picked - set(self.choices)
            if unknown:
                raise ValueError(f"the answer names options that are not choices: {sorted(unknown)}")
            return answer if kind == "choice" else frozenset(answer)
        if kind == "yesno":
            if not isinstance(answer, bool | np.bool_):
                raise TypeError(f"a 'yesno' answer must be a bool, got {answer!r}")
            return bool(answer)
        import sympy as sp

        self.variables = [str(v) for v in variables]
        if not self.variables:
            raise ValueError("a formula needs at least one variable")
        expr = sp.sympify(answer)
        extra = {str(s) for s in expr.free_symbols} - set(self.variables)
        if extra:
            raise ValueError(f"the formula uses names that are not variables: {sorted(extra)}")
        self._points = self._formula_points()
        return expr

    def _read_key(self, key: Any) -> Any:
        if self.kind in ("choice", "choices"):
            if key not in self.choices:
                raise ValueError(f"hints name {key!r}, which is not a choice")
            return key
        if self.kind == "yesno":
            raise ValueError("a yes/no question has one wrong answer: give its hint as hint=")
        if self.kind == "formula":
            import sympy as sp

            return sp.sympify(key)
        if self.kind == "fraction":
            return _as_fraction(key, "a hint's key")
        if self.kind == "integer":
            if not _is_int(key):
                raise TypeError(f"a hint's key must be an int here, got {key!r}")
            return int(key)
        return float(key)

    def _formula_points(self) -> list[dict[str, float]]:
        # Fixed points (the same in every run and on the site), away from 0 and 1.
        rng = np.random.default_rng(20261128)
        return [{v: float(rng.uniform(1.5, 4.5)) for v in self.variables} for _ in range(6)]

    def _values(self, expr: Any) -> list[float] | None:
        import sympy as sp

        symbols = {v: sp.Symbol(v) for v in self.variables}
        out = []
        for point in self._points:
            try:
                value = complex(expr.subs({symbols[k]: v for k, v in point.items()}).evalf())
            except (TypeError, ValueError):
                return None
            if abs(value.imag) > 1e-12 * max(1.0, abs(value.real)) or not math.isfinite(value.real):
                return None
            out.append(value.real)
        return out

    def _same(self, given: Any, wanted: Any) -> bool:
        if self.kind == "number":
            return abs(float(given) - float(wanted)) <= self.tol * (1 + 1e-12)
        if self.kind == "formula":
            a, b = self._values(given), self._values(wanted)
            if a is None or b is None:
                return False
            return all(math.isclose(x, y, rel_tol=FORMULA_RTOL, abs_tol=FORMULA_RTOL)
                       for x, y in zip(a, b, strict=True))
        return given == wanted

    def _default_shown(self) -> str:
        a = self.answer
        if self.kind == "yesno":
            return "Yes" if a else "No"
        if self.kind == "fraction":
            return f"${a.numerator}/{a.denominator}$" if a.denominator != 1 else f"${a.numerator}$"
        if self.kind == "number":
            return f"${a:.6g}$"
        if self.kind == "choices":
            return "; ".join(c for c in self.choices if c in a) or "none of them"
        if self.kind == "formula":
            import sympy as sp

            return f"${sp.latex(a)}$"
        return f"${a}$" if self.kind == "integer" else str(a)

    # -- checking
    def read(self, response: Any) -> Any:
        """The response in the answer's canonical form, None if it cannot be read."""
        kind = self.kind
        if kind == "integer":
            return parse_integer(response)
        if kind == "number":
            return parse_number(response)
        if kind == "fraction":
            return parse_fraction(response)
        if kind == "choice":
            return response if response in self.choices else None
        if kind == "choices":
            picked = set(response or ())
            return frozenset(picked) if picked <= set(self.choices) else None
        if kind == "yesno":
            if isinstance(response, bool | np.bool_):
                return bool(response)
            return {"yes": True, "no": False}.get(str(response).strip().lower())
        expr = parse_formula(response, self.variables)
        return expr if expr is not None and self._values(expr) is not None else None

    def _unreadable(self) -> str:
        return {
            "integer": "Type a whole number, for example 12.",
            "number": "Type a number, for example 0.25, 1/4 or sqrt(2)/2.",
            "fraction": "Type an exact fraction, for example 3/8.",
            "choice": "Pick one of the options.",
            "choices": "Tick the options you think are right.",
            "yesno": "Pick Yes or No.",
            "formula": "Type a formula in " + ", ".join(self.variables)
                       + f", for example 2*{self.variables[0] if self.variables else 'N'} + 1.",
        }[self.kind]

    def _hint_for(self, value: Any) -> str:
        if self.kind == "choices":
            for choice in self.choices:
                if (choice in value) != (choice in self.answer):
                    for key, text in self.hints:
                        if key == choice:
                            return text
                    break
            return self.hint
        for key, text in self.hints:
            if self._same(value, key):
                return text
        return self.hint

    def check(self, response: Any, wrong_before: int = 0) -> Feedback:
        """Feedback on ``response``; ``wrong_before`` counts the reader's earlier wrong tries.

        Examples
        --------
        >>> q = Question("Is XOR linearly separable?", kind="yesno", answer=1 > 2,
        ...              why="No line splits the diagonals.", hint="Draw the four corners.",
        ...              stronger="Add the two conditions for the +1 corners.")
        >>> q.check("yes").message
        'Not yet. Draw the four corners.'
        >>> q.check("yes", wrong_before=1).message
        'Not yet. Draw the four corners. Stronger hint: Add the two conditions for the +1 corners.'
        >>> q.check("no")
        Feedback(correct=True, message='Right. No line splits the diagonals.', counted=True)
        """
        try:
            value = self.read(response)
        except TooLarge:
            return Feedback(False, TOO_LARGE, counted=False)
        if value is None:
            return Feedback(False, self._unreadable(), counted=False)
        if self._same(value, self.answer):
            return Feedback(True, f"Right. {self.why}")
        hint = self._hint_for(value)
        if self.kind == "fraction" and hint == self.hint and _close(value, self.answer):
            hint = "Close, but not exact: give the exact fraction a/b."
        message = f"Not yet. {hint}"
        if wrong_before >= 1:
            message += f" Stronger hint: {self.stronger}"
        return Feedback(False, message)

    def answer_text(self) -> str:
        """The answer and its reason (Markdown): what "Show answer" shows.

        >>> Question("2 + 2?", kind="integer", answer=len("four"), why="Count them.",
        ...          hint="h", stronger="s").answer_text()
        'Answer: $4$. Count them.'
        """
        return f"Answer: {self.shown}. {self.why}"

    # -- what the website needs
    def spec(self) -> dict[str, Any]:
        """The question as JSON: public part (prompt, options) and the encoded rest.

        ``secret`` holds the answer, hints and reasons, XOR-ed with a fixed key and
        base64-encoded (:func:`encode`), so that they are not in the stored lesson's text.
        Anyone who decodes it reads them: these are self-checks. The website never ships
        it: it turns it into salted hashes and sealed texts (``coursetools.site.answers``).
        """
        return {"kind": self.kind, "prompt": self.prompt, "choices": list(self.choices),
                "variables": list(self.variables), "predict": self.predict,
                "secret": encode(self.secret())}

    def secret(self) -> dict[str, Any]:
        """The answer, hints and texts in the form ``questions.js`` compares."""
        out: dict[str, Any] = {"why": self.why, "hint": self.hint, "stronger": self.stronger,
                               "shown": self.shown}
        out["answer"] = self._json(self.answer)
        # A hint of "several of several" is keyed by one option (its index), not a set.
        key = (lambda k: self.choices.index(k)) if self.kind == "choices" else self._json
        out["hints"] = [[key(k), t] for k, t in self.hints]
        if self.kind == "number":
            out["tol"] = self.tol
        if self.kind == "formula":
            out["points"] = self._points
        return out

    def _json(self, value: Any) -> Any:
        kind = self.kind
        if kind == "integer":
            return str(value)
        if kind == "fraction":
            return [str(value.numerator), str(value.denominator)]
        if kind == "choice":
            return self.choices.index(value)
        if kind == "choices":
            return sorted(self.choices.index(c) for c in value)
        if kind == "formula":
            return self._values(value)
        if kind == "number":
            # Twelve significant digits: the last bits of a computed float differ between
            # CPUs (BLAS kernels), and the stored lesson must not (its tolerance is far wider).
            return float(f"{float(value):.12g}")
        return value

    def __repr__(self) -> str:
        return f"Question({self.prompt[:40]!r}..., kind={self.kind!r})"


def _close(value: Fraction, answer: Fraction) -> bool:
    return abs(value - answer) <= abs(answer) / 100 + Fraction(1, 10**6)


def encode(data: Any) -> str:
    """JSON, XOR-ed with a fixed key, base64: out of sight, not secret.

    >>> decode(encode({"answer": "8"}))
    {'answer': '8'}
    """
    raw = json.dumps(data, separators=(",", ":")).encode("utf-8")
    return base64.b64encode(bytes(b ^ _KEY[i % len(_KEY)] for i, b in enumerate(raw))).decode("ascii")


def decode(text: str) -> Any:
    """The inverse of :func:`encode`."""
    raw = base64.b64decode(text)
    return json.loads(bytes(b ^ _KEY[i % len(_KEY)] for i, b in enumerate(raw)).decode("utf-8"))


# ------------------------------------------------------------------ Markdown in the kernel
_MATH = re.compile(r"(\$\$.+?\$\$|\$[^$]+\$)", re.S)


def inline_html(markdown: str) -> str:
    """One line of Markdown as HTML for the kernel's feedback (maths left to MathJax).

    Handles ``**bold**``, ``*italic*`` and ``code``; ``$...$`` passes through untouched.

    >>> inline_html("**Right.** $a<b$ and *so* `x`")
    '<b>Right.</b> $a<b$ and <i>so</i> <code>x</code>'
    """
    parts = _MATH.split(markdown)
    out = []
    for k, part in enumerate(parts):
        if k % 2:
            out.append(part)
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"`([^`]+)`", r"<code>\1</code>", part)
        part = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", part)
        part = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", part)
        out.append(part)
    return "".join(out)


# ------------------------------------------------------------------ in the kernel
Maker = Callable[[np.random.Generator], Question]


def instance(question: Question | Maker, seed: int = 0) -> Question:
    """The question itself, or the instance of ``seed`` of a renewable one.

    >>> def make(rng):
    ...     n = int(rng.integers(2, 9))
    ...     return Question(f"{n} + 1?", kind="integer", answer=n + 1, why="w", hint="h",
    ...                     stronger="s")
    >>> instance(make, 3).prompt == instance(make, 3).prompt
    True
    """
    if isinstance(question, Question):
        return question
    if not callable(question):
        raise TypeError(f"ask() takes a Question or a function rng -> Question, got {question!r}")
    made = question(np.random.default_rng(seed))
    if not isinstance(made, Question):
        raise TypeError(f"{getattr(question, '__name__', question)}(rng) must return a Question")
    return made
