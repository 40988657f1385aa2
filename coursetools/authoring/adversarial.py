"""The adversarial run: the reviews' bypass families against every graded check (issue 50).

Mutation (:mod:`coursetools.mutation`) measures how a check fails *wrong* answers.
This run measures how the graded path (:mod:`coursetools.classroom.graded`) fails
answers that get around the check. Each family below turns one exercise's answer into
an attack; the attack's payload is a cheat from ``tests/lazy_answers`` (a ``library:``
answer that calls the function the exercise forbids, or a ``capture:`` one through a
private helper) or, for the families that make a lenient check pass, a ``wrong:``
answer. Every attack runs through the graded path, in the answer's sandbox, and is
*caught* when the graded check fails. A family that needs a cheat the exercise has not
got (nothing in perclib does its job) is ``n/a``.

=====================  =================================================================
``empty-families``     ``perclib.checking.FAMILIES`` emptied, then the cheat
``decoy``              each function the cheat uses captured, a decoy bound to its name
                       (the guard blocks the decoy), the captured one called
``module-copy``        the perclib module that holds the function loaded alone from its
                       file (the path in the sandbox, then the server's real path)
``source-exec``        that module's source exec'd under another file name
``private-helper``     a ``capture:`` answer (a private helper that does the job)
``patch-numpy``        ``np.all``, ``np.allclose``, ``np.array_equal``, ``np.isclose``
                       patched to say yes, then a wrong answer
``rebind-names``       the notebook's ``np``, ``perceptron``, ``brentq``, ``Fraction``,
                       ``boolean_cube`` rebound to lenient stand-ins, then a wrong answer
``lazy-result``        the cheat's result wrapped in an object that computes it only
                       when the check reads it (``__array__``, ``__iter__``,
                       ``__float__``...), after the guard's block has closed
``check-helpers``      the function calls the check's own helpers (found in its globals
                       or its caller's frame), else a wrong answer
=====================  =================================================================

Run it::

    python -m coursetools.adversarial                 # every lesson, with the control:
                                                      # the table, in docs/adversarial-report.md
    python -m coursetools.adversarial notebooks/07_nonseparable.ipynb --only ex1

``tests/lessons/test_adversarial.py`` runs it in CI and requires every attack caught.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ("empty-families", "decoy", "module-copy", "source-exec", "private-helper",
            "patch-numpy", "rebind-names", "lazy-result", "check-helpers")


@dataclass
class Exercise:
    lesson: str
    grade_id: str  # the check's
    function: str
    stub: str  # the answer cell as handed out
    check: str
    before: list[str]  # the lesson's code cells above the answer
    cheats: list[str]  # library: answers
    captures: list[str]  # capture: answers
    wrongs: list[str]


def _tests_on_path() -> None:
    tests = str(ROOT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)


def exercises(lesson: Path) -> list[Exercise]:
    """The graded exercises of a lesson with their stubs and the answers to attack with."""
    _tests_on_path()
    from exercise_audit import load_table

    from coursetools.classroom.graded import exercises as pairs
    from coursetools.homework.build import student_version
    from perclib.graded import answer_functions

    nb = nbformat.read(lesson, as_version=4)
    student = student_version(nb, lesson.name)
    table = load_table(int(lesson.name[:2]))
    found = []
    for answer, check in pairs(nb.cells):
        answer_id = nb.cells[answer].metadata.nbgrader.grade_id
        attempts = table.get(answer_id, [])
        by_kind = {kind: [a.code for a in attempts if a.kind in kinds]
                   for kind, kinds in (("library", ("library", "sibling")),
                                       ("capture", ("capture",)), ("wrong", ("wrong",)))}
        before = [c.source for c in nb.cells[:answer] if c.cell_type == "code"]
        found.append(Exercise(lesson.stem, nb.cells[check].metadata.nbgrader.grade_id,
                              answer_functions(nb.cells[answer].source)[-1],
                              student.cells[answer].source, nb.cells[check].source, before,
                              by_kind["library"], by_kind["capture"], by_kind["wrong"]))
    return found


def _fill(exercise: Exercise, body: str) -> str:
    _tests_on_path()
    from exercise_audit import fill_stub

    return fill_stub(exercise.stub, body)


_FROM_PERCLIB = re.compile(
    r"^(?P<indent>[ \t]*)from perclib(?P<sub>(?:\.\w+)*) import (?P<names>[\w ,]+)$", re.M)


def _perclib_imports(code: str) -> dict[str, str]:
    """Each name a cheat imports from perclib -> the perclib name to locate it by."""
    return {n.strip(): (m["sub"][1:] + "." if m["sub"] else "") + n.strip()
            for m in _FROM_PERCLIB.finditer(code) for n in m["names"].split(",")}


def _replace_imports(code: str, template: str) -> str:
    """``from perclib import a, b`` -> one ``template`` line per name."""
    def lines(match: re.Match[str]) -> str:
        return "\n".join(match["indent"] + template.format(name=n.strip())
                         for n in match["names"].split(","))
    return _FROM_PERCLIB.sub(lines, code)


def _module_of(name: str) -> str:
    """The file (relative to perclib/) that defines a public perclib name."""
    from perclib.graded import _locate, _package

    module, _ = _locate(_package(), name)
    parts = module.split(".")[1:]
    path = _package().joinpath(*parts)
    return "/".join(parts) + ("/__init__.py" if path.is_dir() else ".py")


PRELUDE_FAMILIES = '''\
import perclib.checking as _chk
for _k in list(_chk.FAMILIES):
    _chk.FAMILIES[_k] = ()
'''

PRELUDE_DECOY = '''\
import importlib as _il
import perclib as _p
_REAL = {{}}
for _n, _file in {names!r}.items():
    try:
        _mod = _il.import_module("perclib." + _file[:-3].replace("/", ".").removesuffix(".__init__"))
        _REAL[_n] = getattr(_mod, _n)
        def _decoy(*a, **k):
            return None
        setattr(_mod, _n, _decoy)
        setattr(_p, _n, _decoy)
    except Exception:
        pass
'''

PRELUDE_COPY = '''\
import importlib.util as _ilu
import sys as _sys
import perclib as _p
_REAL = {{}}
for _n, _file in {names!r}.items():
    for _path in (_p.__path__[0] + "/" + _file, {real!r} + "/" + _file):
        try:
            _spec = _ilu.spec_from_file_location("copy_" + _n, _path)
            _mod = _sys.modules["copy_" + _n] = _ilu.module_from_spec(_spec)
            _spec.loader.exec_module(_mod)
            _REAL[_n] = getattr(_mod, _n)
            break
        except Exception:
            pass
'''

PRELUDE_EXEC = '''\
import sys as _sys
import types as _types
import perclib as _p
_REAL = {{}}
for _n, _file in {names!r}.items():
    for _path in (_p.__path__[0] + "/" + _file, {real!r} + "/" + _file):
        try:
            _m = _sys.modules["copy_" + _n] = _types.ModuleType("copy_" + _n)
            exec(compile(open(_path).read(), "/tmp/copy_" + _n + ".py", "exec"), vars(_m))
            _REAL[_n] = getattr(_m, _n)
            break
        except Exception:
            pass
'''

PRELUDE_NUMPY = '''\
import numpy as _np
def _yes(*a, **k):
    return True
for _f in ("all", "allclose", "array_equal", "isclose"):
    setattr(_np, _f, _yes)
'''

PRELUDE_REBIND = '''\
import numpy as _numpy
class _Lenient:
    def __getattr__(self, name):
        if name in ("all", "allclose", "array_equal", "isclose"):
            return lambda *a, **k: True
        return getattr(_numpy, name)
    def __call__(self, *a, **k):
        return self
np = _Lenient()
perceptron = brentq = Fraction = boolean_cube = _Lenient()
'''

LAZY = '''\
import numpy as _numpy
class _Lazy:
    def __init__(self, thunk):
        self._thunk = thunk
    def _v(self):
        return self._thunk()
    def __array__(self, dtype=None, copy=None):
        return _numpy.asarray(self._v(), dtype=dtype)
    def __iter__(self):
        return iter(self._v())
    def __len__(self):
        return len(self._v())
    def __getitem__(self, i):
        return self._v()[i]
    def __float__(self):
        return float(self._v())
    def __int__(self):
        return int(self._v())
    def __index__(self):
        return int(self._v())
    def __bool__(self):
        return bool(self._v())
    def __eq__(self, other):
        return self._v() == other
    def __getattr__(self, name):
        return getattr(self._v(), name)


def {name}(*args, **kwargs):
    return _Lazy(lambda: _impl(*args, **kwargs))
'''

HELPERS = '''\
import sys as _sys


def {name}(*args, **kwargs):
    for _helper in {helpers!r}:
        _found = globals().get(_helper)
        _frame = _sys._getframe(1)
        while _found is None and _frame is not None:
            _found = _frame.f_globals.get(_helper) or _frame.f_locals.get(_helper)
            _frame = _frame.f_back
        if callable(_found):
            try:
                return _found(*args, **kwargs)
            except Exception:
                pass
    return _wrong(*args, **kwargs)
'''


def _rename(source: str, old: str, new: str) -> str:
    return re.sub(rf"^def {re.escape(old)}\(", f"def {new}(", source, count=1, flags=re.M)


def attack(exercise: Exercise, family: str) -> str | None:
    """The answer cell of one family's attack on one exercise (None: n/a)."""
    cheat = exercise.cheats[0] if exercise.cheats else None
    wrong = exercise.wrongs[0] if exercise.wrongs else None
    real = str(ROOT / "perclib")
    if family == "empty-families":
        return None if cheat is None else PRELUDE_FAMILIES + _fill(exercise, cheat)
    if family in ("decoy", "module-copy", "source-exec"):
        if cheat is None:
            return None
        names = {n: _module_of(full) for n, full in _perclib_imports(cheat).items()}
        if not names:
            return None
        prelude = {"decoy": PRELUDE_DECOY, "module-copy": PRELUDE_COPY,
                   "source-exec": PRELUDE_EXEC}[family].format(names=names, real=real)
        body = _replace_imports(cheat, "{name} = _REAL[{name!r}]")
        return prelude + _fill(exercise, body)
    if family == "private-helper":
        return None if not exercise.captures else _fill(exercise, exercise.captures[0])
    if family == "patch-numpy":
        return None if wrong is None else PRELUDE_NUMPY + _fill(exercise, wrong)
    if family == "rebind-names":
        return None if wrong is None else PRELUDE_REBIND + _fill(exercise, wrong)
    if family == "lazy-result":
        body = cheat or wrong
        if body is None:
            return None
        return (_rename(_fill(exercise, body), exercise.function, "_impl") + "\n\n"
                + LAZY.format(name=exercise.function))
    if family == "check-helpers":
        tree = ast.parse(exercise.check)
        helpers = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
                   and not n.name.startswith("check")]
        if not helpers or wrong is None:
            return None
        return (_rename(_fill(exercise, wrong), exercise.function, "_wrong") + "\n\n"
                + HELPERS.format(name=exercise.function, helpers=helpers))
    raise ValueError(f"family: {family!r} is not one of {FAMILIES}")


@dataclass
class Outcome:
    exercise: str
    family: str
    caught: bool | None  # None: n/a
    message: str = ""
    control: bool | None = None  # passes with the whole perclib, unconfined (None: not run)


#: Families whose attack passes when nothing is removed from perclib (the control):
#: the others make a *lenient check* pass, which the check's own process never is.
CHEATS = ("empty-families", "decoy", "module-copy", "source-exec", "private-helper")


def run(lessons: Sequence[Path], only: set[str] | None = None, families: Sequence[str] = FAMILIES,
        workers: int = 2, control: bool = False) -> list[Outcome]:
    """Every family against every exercise's graded path.

    ``control``: also run each cheat with the whole of perclib in an unconfined answer
    process, where it must pass (else the attack is broken and its "caught" proves
    nothing).
    """
    from coursetools.classroom.graded import graded_verdict, stripped_copy
    from perclib.graded import answer_context

    def works(exercise: Exercise, body: str) -> bool:
        source = _fill(exercise, body)
        return graded_verdict(exercise.check, source, answer_context(exercise.before, source),
                              confine=False, strip=False)["passed"]

    jobs: list[tuple[str, str, Exercise, str | None]] = []
    for lesson in lessons:
        for exercise in exercises(lesson):
            if only and exercise.grade_id.split("-")[0] not in only:
                continue
            stripped_copy(exercise.check)
            stripped_copy("")
            # Attack with cheats that do pass when nothing is removed: a cheat that is
            # wrong anyway would be "caught" for the wrong reason.
            with ThreadPoolExecutor(max_workers=workers) as pool:
                for kind in ("cheats", "captures"):
                    bodies = getattr(exercise, kind)
                    ok = list(pool.map(lambda b, e=exercise: works(e, b), bodies))
                    setattr(exercise, kind, [b for b, good in zip(bodies, ok, strict=True) if good][:1])
            for family in families:
                jobs.append((f"{exercise.lesson}/{exercise.grade_id.split('-')[0]}", family,
                             exercise, attack(exercise, family)))

    def one(job: tuple[str, str, Exercise, str | None]) -> Outcome:
        name, family, exercise, source = job
        if source is None:
            return Outcome(name, family, None)
        context = answer_context(exercise.before, source)  # as the grader would
        verdict = graded_verdict(exercise.check, source, context)
        message = "" if verdict["passed"] else str(verdict["error"][1])[:200]
        works = None
        if control and family in CHEATS:
            works = graded_verdict(exercise.check, source, context, confine=False,
                                   strip=False)["passed"]
        return Outcome(name, family, not verdict["passed"], message, works)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, jobs))


def table(outcomes: Sequence[Outcome]) -> str:
    lines = ["| exercise | family | caught | passes with all of perclib (control) |",
             "|---|---|---|---|"]
    for o in outcomes:
        mark = "n/a" if o.caught is None else ("yes" if o.caught else "**NO**")
        works = "" if o.control is None else ("yes" if o.control else "**no: attack broken**")
        lines.append(f"| {o.exercise} | {o.family} | {mark} | {works} |")
    caught = sum(o.caught is True for o in outcomes)
    run_ = sum(o.caught is not None for o in outcomes)
    lines.append(f"\n{caught} of {run_} attacks caught ({len(outcomes) - run_} n/a).")
    return "\n".join(lines)


REPORT = ROOT / "docs" / "adversarial-report.md"

REPORT_HEAD = """\
# Adversarial run: the bypass families against every graded check

Written by `python -m coursetools.adversarial` (every lesson, every family, with the
control; issue 50; the families are in the module's docstring). Each attack runs
through the graded path (the answer in its own sandboxed process, the check in
another); *caught* means the graded check failed. The control column runs the same
attack with all of perclib in an unconfined answer process: it must pass there, or the
attack proves nothing. `n/a`: the exercise has no cheat for that family in
`tests/lazy_answers` that passes its check with all of perclib (nothing in perclib does
its job, or no library answer is right), or no helper in its check.
`tests/lessons/test_adversarial.py` runs lessons 01, 04 and 07 of it in CI.

Last run: {when}, {seconds:.0f} s on {cores} cores (load average {load:.1f} at the start).

"""


def write_report(outcomes: Sequence[Outcome], seconds: float, load: float) -> None:
    """docs/adversarial-report.md: the whole run's table, dated."""
    import os
    from datetime import UTC, datetime

    REPORT.write_text(REPORT_HEAD.format(when=f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
                                         seconds=seconds, cores=os.cpu_count(), load=load)
                      + table(outcomes) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    import os
    import time

    p = argparse.ArgumentParser(prog="python -m coursetools.adversarial", description=__doc__.split("\n")[0])
    p.add_argument("lessons", nargs="*")
    p.add_argument("--only", action="append", help="exercise, e.g. ex1 (repeatable)")
    p.add_argument("--family", action="append", choices=FAMILIES)
    p.add_argument("--control", action="store_true",
                   help="also run each cheat with all of perclib, where it must pass")
    p.add_argument("--no-report", action="store_true",
                   help="do not write docs/adversarial-report.md (a whole run writes it)")
    args = p.parse_args(argv)
    whole = not (args.lessons or args.only or args.family)
    lessons = [Path(x) for x in args.lessons] or sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
    load, start = os.getloadavg()[0], time.monotonic()
    outcomes = run(lessons, set(args.only) if args.only else None, args.family or FAMILIES,
                   control=args.control or whole)
    print(table(outcomes))
    passed = all(o.caught is not False and o.control is not False for o in outcomes)
    if whole and not args.no_report:
        write_report(outcomes, time.monotonic() - start, load)
        print(f"\nwritten: {REPORT.relative_to(ROOT)}")
    return 0 if passed else 1


if __name__ == "__main__":
    raise SystemExit(main())

