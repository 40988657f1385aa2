"""Question cells of a lesson: the rule that their answers are computed, and their stored specs.

A question cell (role ``question``) builds ``perclib.questions.Question(..., answer=...)``
objects and shows one with ``ask``. Its answer must come from code, never typed by hand.
The rule checked here, on the cell's source (its syntax tree), without running it:

* the cell calls ``ask(...)``;
* every ``Question(...)`` call has ``answer=``, and that expression is not a *literal*.

A literal is a constant (``8``, ``"yes"``, ``True``), a container, arithmetic, comparison
or f-string made only of literals (``3/8``, ``[1, 2]``, ``1 > 2``), a call of a
constructor on literals (``Fraction(3, 8)``, ``sp.Rational(3, 8)``, ``int("8")``,
``sp.Symbol("N") * 2``), a subscript or conditional whose parts are literals, or a name
the cell binds to a literal (``n = 8`` ... ``answer=n``). Anything else computes:
``cover_count(4, 2)``, ``count_dichotomies(X)``, ``"Yes" if is_separable(X, y) else "No"``.
(A name bound in an earlier cell counts as computed: keep the numbers a question asks
about inside its cell or derived from the lesson's data.)

``coursetools.roles`` reports a cell that breaks the rule as a role error naming it, and
the site build (``coursetools.site.questions``) stops on it.

Examples
--------
>>> question_problems("ask(Question('q', kind='integer', answer=8, why='w', hint='h', stronger='s'))")
['Question(...) on line 1: answer=8 is typed by hand; compute it with perclib or sympy']
>>> question_problems("ask(Question('q', kind='integer', answer=cover_count(4, 2), why='w', "
...                   "hint='h', stronger='s'))")
[]
"""

from __future__ import annotations

import ast
import re
from typing import Any

#: Calls that only build a value from their (literal) arguments: no computation.
CONSTRUCTORS = frozenset({
    "Fraction", "Rational", "Integer", "Float", "S", "sympify", "Symbol", "symbols", "int",
    "float", "str", "bool", "set", "frozenset", "list", "tuple", "dict", "len", "Decimal",
    "array", "asarray", "float64", "int64",
})
#: The MIME type of a question's description in a stored output (perclib.questions.SPEC_MIME).
SPEC_MIME = "application/vnd.perclib.question+json"


def _parse(source: str) -> ast.Module | None:
    # IPython magics and shell lines are not Python: blank them (line numbers stay).
    lines = ["" if re.match(r"\s*[%!]", line) else line for line in source.split("\n")]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _func_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


class _Literals:
    """Decides whether an expression is a literal, following names bound in the cell."""

    def __init__(self, tree: ast.Module) -> None:
        self.bound: dict[str, list[ast.expr | None]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    value = node.value if isinstance(target, ast.Name) else None
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            self.bound.setdefault(name.id, []).append(value)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
                self.bound.setdefault(node.target.id, []).append(
                    node.value if isinstance(node, ast.AnnAssign) else None)
            elif isinstance(node, ast.NamedExpr):
                self.bound.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, ast.For | ast.comprehension):
                self._unknown(node.target)
            elif isinstance(node, ast.withitem) and node.optional_vars is not None:
                self._unknown(node.optional_vars)
            elif isinstance(node, ast.arg):
                self.bound.setdefault(node.arg, []).append(None)
        self._seen: set[str] = set()

    def _unknown(self, target: ast.AST) -> None:
        for name in ast.walk(target):
            if isinstance(name, ast.Name):
                self.bound.setdefault(name.id, []).append(None)

    def literal(self, node: ast.expr | None) -> bool:
        if node is None:
            return False
        if isinstance(node, ast.Constant):
            return True
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return all(self.literal(e) for e in node.elts)
        if isinstance(node, ast.Dict):
            return all(self.literal(k) for k in node.keys if k is not None) and all(
                self.literal(v) for v in node.values)
        if isinstance(node, ast.UnaryOp):
            return self.literal(node.operand)
        if isinstance(node, ast.BinOp):
            return self.literal(node.left) and self.literal(node.right)
        if isinstance(node, ast.BoolOp):
            return all(self.literal(v) for v in node.values)
        if isinstance(node, ast.Compare):
            return self.literal(node.left) and all(self.literal(c) for c in node.comparators)
        if isinstance(node, ast.JoinedStr):
            return all(self.literal(v.value) if isinstance(v, ast.FormattedValue) else True
                       for v in node.values)
        if isinstance(node, ast.Subscript):
            return self.literal(node.value) and self.literal(node.slice)
        if isinstance(node, ast.IfExp):
            return self.literal(node.test)
        if isinstance(node, ast.Call):
            return _func_name(node.func) in CONSTRUCTORS and all(
                self.literal(a.value if isinstance(a, ast.Starred) else a) for a in node.args
            ) and all(self.literal(k.value) for k in node.keywords)
        if isinstance(node, ast.Name):
            values = self.bound.get(node.id)
            if not values or node.id in self._seen:
                return False  # bound elsewhere (an earlier cell, a loop, an argument)
            self._seen.add(node.id)
            try:
                return all(self.literal(v) for v in values)
            finally:
                self._seen.discard(node.id)
        return False


def question_problems(source: str) -> list[str]:
    """What is wrong with a question cell's source (empty when nothing is)."""
    tree = _parse(source)
    if tree is None:
        return ["the question cell is not valid Python"]
    problems: list[str] = []
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    if not any(_func_name(c.func) == "ask" for c in calls):
        problems.append("a question cell shows its question with perclib.widgets.ask(...)")
    questions = [c for c in calls if _func_name(c.func) == "Question"]
    if not questions:
        problems.append("a question cell builds a perclib.questions.Question(...)")
    literals = _Literals(tree)
    for call in questions:
        answer = next((k.value for k in call.keywords if k.arg == "answer"), None)
        if answer is None:
            problems.append(f"Question(...) on line {call.lineno}: no answer= keyword")
        elif literals.literal(answer):
            problems.append(f"Question(...) on line {call.lineno}: answer={ast.unparse(answer)} is "
                            "typed by hand; compute it with perclib or sympy")
    return problems


def literal_answers(source: str) -> list[str]:
    """The problems of :func:`question_problems` about hand-typed answers only."""
    return [p for p in question_problems(source) if "typed by hand" in p]


def stored_spec(cell: Any) -> dict[str, Any] | None:
    """The question description a question cell's stored output holds (None if none)."""
    for out in cell.get("outputs", []):
        spec = out.get("data", {}).get(SPEC_MIME)
        if spec is not None:
            return dict(spec)
    return None


def is_renewable(source: str) -> bool:
    """Whether the cell asks a renewable question: ``ask(make)`` with a function, not
    ``ask(Question(...))``.

    >>> is_renewable("def make(rng):\\n    return Question(...)\\nask(make)")
    True
    """
    tree = _parse(source)
    if tree is None:
        return False
    for call in ast.walk(tree):
        if isinstance(call, ast.Call) and _func_name(call.func) == "ask" and call.args:
            return not (isinstance(call.args[0], ast.Call) and _func_name(call.args[0].func) == "Question")
    return False
