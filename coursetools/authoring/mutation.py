"""Mutation testing of the lessons' exercise checks (issue 40).

A check is only as good as the wrong answers it fails. This tool takes each autograded
exercise's solution (the code between ``### BEGIN SOLUTION`` and ``### END SOLUTION``
of a cell ``exN-answer``), makes its *mutants* with a small mutator on Python's syntax
tree (the mutation libraries on PyPI mutate files of a package, not the code of a
notebook cell), and runs each against the FULL check cell ``exN-check``, hidden tests
included, in the namespace the lesson has built by then (every cell above the exercise
has run, with the earlier exercises' solutions).

A mutant is *killed* when the check raises (any error: at grading that is zero points)
or runs longer than the time limit (a check that never ends earns nothing either); it
*survives* when the check prints its "correct" line. A surviving mutant is either a
hole in the check or an equivalent program (``0.5 -> 0.05`` in a threshold that may be
anywhere between two counts); equivalents are listed, with a one-line reason each, in
``tests/mutation_equivalents.toml``. Score = killed / (mutants - equivalents).

Operators (the names in a mutant's id):

=================  ======================================================================
``compare``        ``<``/``<=``/``>``/``>=`` loosened, tightened or flipped; ``==``/``!=``
``tolerance``      a comparison with 0 becomes one with +-1e-9 or 1e-20 (a tolerance)
``constant``       a number times 10 or 0.1; an integer +-1
``dtype``          ``float`` -> ``np.float32``, ``Fraction(x)`` -> ``float(x)``,
                   ``int(x)`` -> ``np.int64(x)``
``call``           ``abs``, ``np.abs``, ``np.sqrt``, ``np.clip``, ``float``, ... dropped
``normalisation``  ``a / b`` -> ``a``
``arith``          ``+`` <-> ``-``, ``*`` <-> ``/``, ``a - b`` -> ``b - a``
``unary``          a minus sign or a ``not`` dropped; ``and`` <-> ``or``
``range``          ``range(n)`` -> ``range(n -+ 1)``; ``range(a, b)`` bounds -+ 1
``swap``           the first two arguments of a call swapped
``early-return``   the function's return statement at the end of a loop's body
``loop-cut``       ``break`` at the end of a loop's body (one iteration only)
``drop``           a statement deleted from a block of several
=================  ======================================================================

Run it::

    python -m coursetools.mutation                     # all lessons, writes the report
    python -m coursetools.mutation notebooks/02_xor.ipynb --no-report
    python -m coursetools.mutation --sample 20 --seed 3 --json out.json

Each mutant runs in a forked copy of the process that ran the lesson (so a mutant
cannot disturb the next one, and a mutant that loops forever is simply killed).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import io
import json
import os
import random
import re
import signal
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENTS = ROOT / "tests" / "mutation_equivalents.toml"
REPORT = ROOT / "docs" / "mutation-report.md"
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"
TIMEOUT = 30.0  # seconds per mutant (wall clock, on a loaded machine)

__all__ = ["Exercise", "Mutant", "exercises", "main", "mutants"]


# ---------------------------------------------------------------- exercises
@dataclass(frozen=True)
class Exercise:
    """One autograded exercise of a lesson: its answer cell and its full check cell."""

    lesson: str          # the notebook's stem, "02_xor"
    grade_id: str        # "ex3-answer"
    answer_index: int    # cell index of the answer; the check is the next graded cell
    answer: str
    check: str

    @property
    def key(self) -> str:
        return f"{self.lesson}/{self.grade_id}"


def exercises(notebook: Path) -> list[Exercise]:
    """The autograded exercises of a lesson, in order."""
    nb = nbformat.read(notebook, as_version=4)
    found = []
    for index, cell in enumerate(nb.cells):
        meta = cell.metadata.get("nbgrader", {})
        grade_id = meta.get("grade_id", "")
        if cell.cell_type == "code" and meta.get("solution") and grade_id.endswith("-answer"):
            check_id = grade_id.replace("-answer", "-check")
            check = next(c for c in nb.cells[index + 1:]
                         if c.metadata.get("nbgrader", {}).get("grade_id") == check_id)
            found.append(Exercise(notebook.stem, grade_id, index, cell.source, check.source))
    return found


# ---------------------------------------------------------------- mutants
@dataclass(frozen=True)
class Mutant:
    """A changed solution: ``id`` names the operator and the change, stable across runs."""

    id: str
    source: str

    @property
    def operator(self) -> str:
        return self.id.split(":", 1)[0]


_COMPARE_SWAPS: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE, ast.Gt), ast.LtE: (ast.Lt, ast.Gt), ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.Lt), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,), ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
_ARITH_SWAPS: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div,
                                  ast.Div: ast.Mult, ast.FloorDiv: ast.Div}
#: Calls whose dropping leaves their first argument: absolute values, roots, clips,
#: conversions (what a "normalisation" or an exactness step usually is).
_DROPPABLE = {"abs", "np.abs", "numpy.abs", "np.sqrt", "math.sqrt", "np.clip", "float",
              "int", "round", "np.round", "np.asarray", "np.array", "Fraction", "list",
              "tuple", "set", "sorted", "np.sign", "max", "min", "sum", "np.sum",
              "np.ravel", "np.linalg.norm"}


def _name(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # pragma: no cover - unparse handles every expression
        return "?"


def _solution_lines(source: str) -> tuple[int, int]:
    lines = source.splitlines()
    begin = next(i for i, line in enumerate(lines, 1) if line.strip() == BEGIN)
    end = next(i for i, line in enumerate(lines, 1) if line.strip() == END)
    return begin, end


class _Sites(ast.NodeVisitor):
    """Collect (node path, replacement factory) pairs inside the solution's lines."""

    def __init__(self, lines: tuple[int, int]) -> None:
        self.lines = lines
        self.sites: list[tuple[str, ast.AST, Callable[[ast.AST], list[tuple[str, object]]]]] = []

    def inside(self, node: ast.AST) -> bool:
        line = getattr(node, "lineno", None)
        return line is not None and self.lines[0] < line < self.lines[1]


def _walk_with_parents(tree: ast.AST) -> Iterator[tuple[ast.AST, ast.AST | None, str, int | None]]:
    """Every node with its parent, the parent's field holding it and the list index."""
    stack: list[tuple[ast.AST, ast.AST | None, str, int | None]] = [(tree, None, "", None)]
    while stack:
        node, parent, fname, index = stack.pop()
        yield node, parent, fname, index
        for name, value in reversed(list(ast.iter_fields(node))):
            if isinstance(value, list):
                for i in reversed(range(len(value))):
                    if isinstance(value[i], ast.AST):
                        stack.append((value[i], node, name, i))
            elif isinstance(value, ast.AST):
                stack.append((value, node, name, None))


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _replacements(node: ast.AST, parent: ast.AST | None, fname: str,
                  functions: list[ast.FunctionDef]) -> Iterator[tuple[str, ast.AST | list[ast.stmt]]]:
    """The mutations of one node: (id without the operator's prefix... , new node)."""
    old = _name(node)
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            for new_op in _COMPARE_SWAPS.get(type(op), ()):
                new = copy.deepcopy(node)
                new.ops[i] = new_op()
                yield f"compare: {old} -> {_name(new)}", new
            sides = [node.left, *node.comparators]
            for j, side in enumerate(sides):
                if isinstance(side, ast.Constant) and _number(side.value) and side.value == 0:
                    for tol in (1e-9, -1e-9, 1e-20):
                        new = copy.deepcopy(node)
                        target = new.left if j == 0 else new.comparators[j - 1]
                        target.value = tol
                        yield f"tolerance: {old} -> {_name(new)}", new
                    # A tolerance relative to the sizes of a dot product's factors:
                    # invariant under a change of units, wrong at a genuine near-tie.
                    dots = [n for s in sides for n in ast.walk(s)
                            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult)]
                    for dot in dots[:1]:
                        for tol in ("1e-9", "1e-12"):
                            new = copy.deepcopy(node)
                            scale = ast.parse(
                                f"{tol} * np.linalg.norm({_name(dot.left)})"
                                f" * np.linalg.norm({_name(dot.right)})", mode="eval").body
                            if j == 0:
                                new.left = scale
                            else:
                                new.comparators[j - 1] = scale
                            yield f"tolerance: {old} -> {_name(new)}", new
    elif isinstance(node, ast.Constant) and _number(node.value):
        if isinstance(parent, ast.Compare) and node.value == 0:
            return  # handled by the tolerance operator
        values: list[object] = []
        if isinstance(node.value, int):
            values = [node.value + 1, node.value - 1]
            if abs(node.value) > 1:
                values.append(node.value * 10)
        else:
            values = [node.value * 10, node.value * 0.1] if node.value else [1e-9]
        context = _name(parent) if isinstance(parent, ast.expr) else ""
        where = f" in {context}" if context and len(context) <= 70 else ""
        for value in values:
            yield f"constant: {old} -> {value!r}{where}", ast.Constant(value)
    elif isinstance(node, ast.Call):
        func = _name(node.func)
        for k, keyword in enumerate(node.keywords):
            if keyword.arg == "dtype" and _name(keyword.value) in ("float", "np.float64"):
                new = copy.deepcopy(node)
                new.keywords[k].value = ast.parse("np.float32", mode="eval").body
                yield f"dtype: {old} -> {_name(new)}", new
        if func in ("float", "np.float64"):
            new = copy.deepcopy(node)
            new.func = ast.parse("np.float32", mode="eval").body
            yield f"dtype: {old} -> {_name(new)}", new
        if func == "Fraction":
            new = copy.deepcopy(node)
            new.func = ast.Name("float", ast.Load())
            yield f"dtype: {old} -> {_name(new)}", new
        if func == "int":
            new = copy.deepcopy(node)
            new.func = ast.parse("np.int64", mode="eval").body
            yield f"dtype: {old} -> {_name(new)}", new
        if func in _DROPPABLE and node.args and not isinstance(node.args[0], ast.Starred):
            yield f"call: {old} -> {_name(node.args[0])}", copy.deepcopy(node.args[0])
        if func == "range":
            args = node.args
            variants: list[list[ast.expr]] = []

            def shifted(e: ast.expr, d: int) -> ast.expr:
                return ast.BinOp(copy.deepcopy(e), ast.Add() if d > 0 else ast.Sub(), ast.Constant(1))

            if len(args) == 1:
                variants = [[shifted(args[0], -1)], [shifted(args[0], 1)]]
            elif len(args) >= 2:
                rest = [copy.deepcopy(a) for a in args[2:]]
                variants = [[shifted(args[0], 1), copy.deepcopy(args[1]), *rest],
                            [copy.deepcopy(args[0]), shifted(args[1], -1), *rest],
                            [copy.deepcopy(args[0]), shifted(args[1], 1), *rest]]
            for new_args in variants:
                new = copy.deepcopy(node)
                new.args = new_args
                yield f"range: {old} -> {_name(new)}", new
        positional = [a for a in node.args if not isinstance(a, ast.Starred)]
        if len(positional) >= 2 and len(positional) == len(node.args):
            new = copy.deepcopy(node)
            new.args[0], new.args[1] = new.args[1], new.args[0]
            if _name(new) != old:
                yield f"swap: {old} -> {_name(new)}", new
    elif isinstance(node, ast.BinOp):
        if type(node.op) in _ARITH_SWAPS:
            new = copy.deepcopy(node)
            new.op = _ARITH_SWAPS[type(node.op)]()
            yield f"arith: {old} -> {_name(new)}", new
        if isinstance(node.op, (ast.Sub, ast.Div)):
            new = ast.BinOp(copy.deepcopy(node.right), node.op.__class__(), copy.deepcopy(node.left))
            yield f"swap: {old} -> {_name(new)}", new
        if isinstance(node.op, ast.Div):
            yield f"normalisation: {old} -> {_name(node.left)}", copy.deepcopy(node.left)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.Not)):
        yield f"unary: {old} -> {_name(node.operand)}", copy.deepcopy(node.operand)
    elif isinstance(node, ast.BoolOp):
        new = copy.deepcopy(node)
        new.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        yield f"unary: {old} -> {_name(new)}", new
    elif isinstance(node, ast.AugAssign) and type(node.op) in _ARITH_SWAPS:
        new = copy.deepcopy(node)
        new.op = _ARITH_SWAPS[type(node.op)]()
        yield f"arith: {old} -> {_name(new)}", new


def _final_return(function: ast.FunctionDef) -> ast.Return | None:
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return) and n.value is not None]
    return returns[-1] if returns else None


def mutants(answer: str) -> list[Mutant]:
    """Every mutant of the solution part of an answer cell (the rest stays as it is).

    >>> ids = [m.id for m in mutants("def f(x):\\n    ### BEGIN SOLUTION\\n"
    ...                              "    return x <= 0\\n    ### END SOLUTION\\n")]
    >>> "compare: x <= 0 -> x < 0" in ids and "tolerance: x <= 0 -> x <= 1e-09" in ids
    True
    """
    tree = ast.parse(answer)
    lines = _solution_lines(answer)
    baseline = ast.unparse(tree)
    found: dict[str, str] = {}

    def inside(node: ast.AST) -> bool:
        line = getattr(node, "lineno", None)
        return line is not None and lines[0] < line < lines[1]

    def add(mid: str, new_tree: ast.AST) -> None:
        ast.fix_missing_locations(new_tree)
        try:
            source = ast.unparse(new_tree)
            compile(source, "<mutant>", "exec")
        except (SyntaxError, ValueError, TypeError):
            return
        if source == baseline or source in found.values():
            return
        key, n = mid, 2
        while key in found:
            key, n = f"{mid} #{n}", n + 1
        found[key] = source

    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    count = sum(1 for _ in _walk_with_parents(tree))
    for position in range(count):
        # A fresh copy per site: the walk order is the same in every copy.
        node, parent, fname, index = list(_walk_with_parents(tree))[position]
        if not inside(node):
            continue
        for mid, replacement in _replacements(node, parent, fname, functions):
            new_tree = copy.deepcopy(tree)
            new_node, new_parent, new_fname, new_index = list(_walk_with_parents(new_tree))[position]
            if new_index is None:
                setattr(new_parent, new_fname, replacement)
            else:
                getattr(new_parent, new_fname)[new_index] = replacement
            add(mid, new_tree)
        # Statement-level operators.
        if isinstance(node, (ast.For, ast.While)):
            function = next((f for f in functions if node in ast.walk(f)), None)
            final = _final_return(function) if function else None
            extras = [("loop-cut", ast.Break())]
            if final is not None:
                extras.append(("early-return", copy.deepcopy(final)))
            for op, stmt in extras:
                new_tree = copy.deepcopy(tree)
                loop = list(_walk_with_parents(new_tree))[position][0]
                loop.body.append(stmt)
                head = _name(node).splitlines()[0]
                add(f"{op}: {_name(stmt)} after the first pass of '{head}'", new_tree)
        if isinstance(node, ast.stmt) and index is not None and parent is not None:
            block = getattr(parent, fname)
            if len(block) > 1 and not isinstance(node, (ast.FunctionDef, ast.Import, ast.ImportFrom)):
                new_tree = copy.deepcopy(tree)
                new_parent = list(_walk_with_parents(new_tree))[position][1]
                del getattr(new_parent, fname)[index]
                add(f"drop: {_name(node).splitlines()[0]}", new_tree)
    return [Mutant(mid, source) for mid, source in found.items()]


# ---------------------------------------------------------------- running
@dataclass
class Result:
    exercise: str
    mutant: str
    outcome: str          # "killed", "survived", "timeout", "equivalent"
    detail: str = ""
    seconds: float = 0.0


@dataclass
class Score:
    exercise: str
    total: int = 0
    killed: int = 0
    equivalent: int = 0
    survivors: list[str] = field(default_factory=list)
    stale_equivalents: list[str] = field(default_factory=list)
    baseline: str = "passed"

    @property
    def score(self) -> float:
        judged = self.total - self.equivalent
        return 1.0 if judged == 0 else self.killed / judged


def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, dict[str, str]]:
    """``{"02_xor/ex3-answer": {mutant id: reason}}`` from the reviewed TOML file."""
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        return {key: dict(value) for key, value in tomllib.load(handle).items()}


class _Shell:
    """An in-process IPython shell that runs a lesson's cells like the kernel would."""

    def __init__(self) -> None:
        os.environ.setdefault("MPLBACKEND", "Agg")
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        config = Config()
        config.HistoryManager.enabled = False  # no sqlite history: children share it
        self.shell = InteractiveShell.instance(config=config)
        self.shell.enable_gui = lambda gui=None: None  # '%matplotlib inline' needs no loop
        self.shell.run_cell("import matplotlib; matplotlib.use('Agg')", store_history=False)

    def run(self, source: str) -> str | None:
        """Run one cell quietly; None if it succeeded, else the error in one line."""
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            result = self.shell.run_cell(source, store_history=True, silent=False)
        error = result.error_in_exec or result.error_before_exec
        if error is None:
            return None
        return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


def _in_child(shell: _Shell, mutant: Mutant, check: str, timeout: float) -> tuple[str, str]:
    """Run the mutant and the check in a forked child; (outcome, detail)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: quiet, then report one line through the pipe
        os.close(read)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        message = "survived"
        try:
            error = shell.run(mutant.source)
            if error is not None:
                message = f"killed\tthe mutant itself: {error}"
            else:
                error = shell.run(check)
                message = "survived" if error is None else f"killed\t{error}"
        except BaseException as exc:  # noqa: BLE001 - everything counts as killed
            message = f"killed\t{type(exc).__name__}"
        os.write(write, message.encode()[:4000])
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return "timeout", f"still running after {timeout:.0f} s"
        time.sleep(0.02)
    data = b""
    while chunk := os.read(read, 4096):
        data += chunk
    os.close(read)
    text = data.decode(errors="replace")
    if not text:
        return "killed", f"the child died (status {status})"
    outcome, _, detail = text.partition("\t")
    return outcome, detail


def run_lesson(notebook: Path, select: Callable[[Exercise, Mutant], bool] | None = None,
               timeout: float = TIMEOUT, log: Callable[[str], None] = print) -> list[Result]:
    """Run a lesson top to bottom; at each exercise, its (selected) mutants in children."""
    cwd = os.getcwd()
    os.chdir(notebook.parent)
    results: list[Result] = []
    try:
        shell = _Shell()
        nb = nbformat.read(notebook, as_version=4)
        by_index = {ex.answer_index: ex for ex in exercises(notebook)}
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            exercise = by_index.get(index)
            if exercise is not None:
                chosen = [m for m in mutants(exercise.answer) if select is None or select(exercise, m)]
                for mutant in chosen:
                    start = time.monotonic()
                    outcome, detail = _in_child(shell, mutant, exercise.check, timeout)
                    results.append(Result(exercise.key, mutant.id, outcome, detail,
                                          time.monotonic() - start))
                    if outcome == "survived":
                        listed = mutant.id in load_equivalents().get(exercise.key, {})
                        log(f"  {'equivalent' if listed else 'SURVIVED'} {exercise.key}: "
                            f"{mutant.id}")
                log(f"{exercise.key}: {len(chosen)} mutants run")
            error = shell.run(cell.source)
            if error is not None:
                raise RuntimeError(f"{notebook.name} cell {index} failed: {error}")
    finally:
        os.chdir(cwd)
    return results


def score(results: Sequence[Result], equivalents: dict[str, dict[str, str]],
          all_ids: dict[str, list[str]] | None = None) -> list[Score]:
    """Per exercise: mutants, killed, listed equivalents, survivors."""
    table: dict[str, Score] = {}
    for result in results:
        entry = table.setdefault(result.exercise, Score(result.exercise))
        entry.total += 1
        listed = equivalents.get(result.exercise, {})
        if result.outcome in ("killed", "timeout"):
            entry.killed += 1
            if result.mutant in listed:
                entry.stale_equivalents.append(result.mutant)
        elif result.mutant in listed:
            entry.equivalent += 1
        else:
            entry.survivors.append(result.mutant)
    if all_ids is not None:
        for key, ids in all_ids.items():
            entry = table.setdefault(key, Score(key))
            unknown = set(equivalents.get(key, {})) - set(ids)
            entry.stale_equivalents += sorted(unknown)
    return [table[k] for k in sorted(table)]


def write_report(scores: Sequence[Score], equivalents: dict[str, dict[str, str]],
                 seconds: float, path: Path = REPORT) -> None:
    total = sum(s.total for s in scores)
    killed = sum(s.killed for s in scores)
    equivalent = sum(s.equivalent for s in scores)
    lines = [
        "# Mutation report of the exercise checks",
        "",
        "Written by `python -m coursetools.mutation` (see its docstring and "
        "`docs/exercise-checks.md`); refresh it whenever a check or a solution changes.",
        "Each mutant of an exercise's solution ran against the full check, hidden tests "
        "included. Score = killed / (mutants - listed equivalents).",
        "",
        f"All exercises: {total} mutants, {killed} killed, {equivalent} equivalent, "
        f"{total - killed - equivalent} surviving; run time {seconds:.0f} s "
        "(wall clock, shared machine).",
        "",
        "| exercise | mutants | killed | equivalent | surviving | score |",
        "|---|---|---|---|---|---|",
    ]
    for s in scores:
        lines.append(f"| {s.exercise} | {s.total} | {s.killed} | {s.equivalent} | "
                     f"{len(s.survivors)} | {100 * s.score:.1f} % |")
    lines += ["", "## Surviving mutants", ""]
    survivors = [(s.exercise, m) for s in scores for m in s.survivors]
    lines += [f"- `{e}`: `{m}`" for e, m in survivors] or ["None."]
    lines += ["", "## Equivalent mutants (from tests/mutation_equivalents.toml)", ""]
    for key in sorted(equivalents):
        for mid, reason in equivalents[key].items():
            lines.append(f"- `{key}`: `{mid}` ({reason})")
    stale = [(s.exercise, m) for s in scores for m in s.stale_equivalents]
    if stale:
        lines += ["", "## Listed as equivalent but killed or no longer made (remove them)", ""]
        lines += [f"- `{e}`: `{m}`" for e, m in stale]
    path.write_text("\n".join(lines) + "\n")


def lessons(paths: Sequence[str]) -> list[Path]:
    if paths:
        return [Path(p).resolve() for p in paths]
    return sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="lessons (default: all)")
    parser.add_argument("--sample", type=int, default=0,
                        help="run only this many mutants per lesson, drawn with --seed")
    parser.add_argument("--seed", default="0", help="any string (CI passes the commit)")
    parser.add_argument("--only", default="", help="a regex on 'lesson/exN-answer'")
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--json", default="", help="write every result to this file")
    parser.add_argument("--no-report", action="store_true", help="do not write the report")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    args = parser.parse_args(argv)
    equivalents = load_equivalents()
    start = time.monotonic()
    results: list[Result] = []
    all_ids: dict[str, list[str]] = {}
    for notebook in lessons(args.notebooks):
        chosen: set[tuple[str, str]] | None = None
        pool = [(ex, m) for ex in exercises(notebook) if re.search(args.only, ex.key)
                for m in mutants(ex.answer)]
        for ex, m in pool:
            all_ids.setdefault(ex.key, []).append(m.id)
        if args.list:
            for ex, m in pool:
                print(f"{ex.key}\t{m.id}")
            continue
        if not pool:
            continue
        if args.sample:
            rng = random.Random(f"{args.seed}/{notebook.stem}")
            chosen = {(ex.key, m.id) for ex, m in rng.sample(pool, min(args.sample, len(pool)))}
        else:
            chosen = {(ex.key, m.id) for ex, m in pool}

        def select(ex: Exercise, m: Mutant, chosen: set[tuple[str, str]] = chosen) -> bool:
            return (ex.key, m.id) in chosen

        print(f"{notebook.name}: {len(chosen)} mutants", flush=True)
        results += run_lesson(notebook, select, args.timeout,
                              log=lambda s: print(s, flush=True))
    if args.list:
        return 0
    seconds = time.monotonic() - start
    full = not args.sample and not args.only and not args.notebooks
    scores = score(results, equivalents, all_ids if full else None)
    for s in scores:
        print(f"{s.exercise}: {s.total} mutants, {s.killed} killed, {s.equivalent} equivalent,"
              f" {len(s.survivors)} surviving ({100 * s.score:.1f} %)")
    if args.json:
        Path(args.json).write_text(json.dumps([r.__dict__ for r in results], indent=1))
    if full and not args.no_report:
        write_report(scores, equivalents, seconds)
    return 0 if all(not s.survivors for s in scores) else 1


if __name__ == "__main__":
    sys.exit(main())
