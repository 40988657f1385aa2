"""Feed lazy and wrong answers to a lesson's *visible* exercise checks.

A table per lesson (``tests/lazy_answers/lessonNN.py``) lists, for each autograded
exercise (nbgrader grade id ``exN-answer``), attempts a lazy or confused student would
write. Each attempt replaces the stub of the student version (what
``coursetools.homework`` hands out: hidden tests removed), then the check cell under it
runs. The attempt must make that visible check fail with an ``AssertionError`` whose
message is not empty and does not contain any of the attempt's ``secrets`` (the answer).
The lesson's own solution must then pass the same visible check.

Attempt labels start with their kind (issue 31 names them):

- ``library:`` calls the perclib function the exercise asks the student to write;
- ``capture:`` reaches a switched-off perclib function another way (a default argument,
  a closure, an alias, a private helper);
- ``sibling:`` uses another perclib function that does the same job;
- ``hard-coded:`` returns numbers the lesson printed;
- ``wrong:`` a usual mistake;
- ``self-consistent:`` an answer consistent with itself but false (a recursion that
  drops its boundary values, a certificate scaled to nothing);
- ``tolerance:`` decides with a tolerance where the exercise needs an exact answer;
- ``scale:`` right at the lesson's scale, wrong at another (1e-6, 1e12);
- ``lookup:`` a lookup table of the visible check's inputs. It may pass the visible
  check (that is fair: those inputs are shown); it must fail the *full* check, whose
  hidden tests use inputs the student never sees;
- ``edge:`` right on the visible inputs, wrong at an edge of the stated spec (a near-tie
  at 1e-10, int64 extremes, level 1/2, N = 1): must fail the *full* check (issue 40);
- ``tamper:`` goes around perclib's guard (a copy of a module loaded from its file, the
  check's frames read): must fail the visible check with the guard's message, which
  says a grader reads the answer;
- ``reach:`` uses a reference value or helper of the check: must fail the *full* check,
  with any error (the reference is not there while the answer runs);
- ``right:`` a correct answer in another form than the stored solution (``3 * a`` for
  ``2 * a``, another valid construction): must *pass* the full check, so that a check
  strict enough to kill every mutant does not also fail a student who is right.

Every other kind must fail the visible check.
"""

from __future__ import annotations

import importlib
import queue
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from coursetools.homework.build import student_version
from coursetools.shared.kernels import start_kernel

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("library", "capture", "sibling", "hard-coded", "wrong", "self-consistent", "tolerance",
         "scale", "lookup", "edge", "tamper", "reach", "right")
#: Kinds judged by the full check (hidden tests included); the others by the visible one.
FULL_CHECK_KINDS = ("lookup", "edge", "reach")
GRADER_READS = "A grader reads every answer"
STUB = re.compile(r"^(?P<indent>[ \t]*)# YOUR CODE HERE\n(?P=indent)raise NotImplementedError\(\)$", re.M)


@dataclass(frozen=True)
class Attempt:
    """One answer a student might give: ``code`` replaces the stub of the exercise."""

    label: str
    code: str
    secrets: tuple[str, ...] = field(default=())

    @property
    def kind(self) -> str:
        return self.label.split(":", 1)[0]


@dataclass
class Outcome:
    exercise: str
    label: str
    problem: str | None  # None: the attempt failed the check as it should
    message: str = ""


def load_table(lesson_number: int) -> dict[str, list[Attempt]]:
    """The attempts of one lesson, keyed by grade id (``ex1-answer``)."""
    module = importlib.import_module(f"lazy_answers.lesson{lesson_number:02d}")
    return module.ATTEMPTS


def fill_stub(stub_source: str, code: str) -> str:
    """The student's cell with ``code`` written where the stub is."""
    match = STUB.search(stub_source)
    if match is None:
        raise ValueError("no '# YOUR CODE HERE' stub in the cell")
    body = textwrap.indent(textwrap.dedent(code).strip("\n"), match["indent"])
    return stub_source[: match.start()] + body + stub_source[match.end() :]


class Kernel:
    """A Python kernel started in ``notebooks/`` that runs cells and reports errors."""

    def __init__(self) -> None:
        self.km, self.kc = start_kernel("python3", cwd=str(ROOT / "notebooks"))

    def run(self, code: str, timeout: float = 300) -> tuple[str | None, str, str]:
        """Run ``code``; return (error name or None, error value, printed text)."""
        printed: list[str] = []

        def hook(msg: dict) -> None:
            if msg["msg_type"] == "stream":
                printed.append(msg["content"]["text"])

        try:
            reply = self.kc.execute_interactive(code, timeout=timeout, output_hook=hook, allow_stdin=False)
        except (TimeoutError, queue.Empty):
            return "Timeout", f"the cell ran longer than {timeout} s", "".join(printed)
        content = reply["content"]
        if content["status"] == "error":
            return content["ename"], content["evalue"], "".join(printed)
        return None, "", "".join(printed)

    def close(self) -> None:
        self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)


def audit(lesson: Path, table: dict[str, list[Attempt]]) -> list[Outcome]:
    """Run the lesson, and at every exercise its attempts, the solution and the check."""
    instructor = nbformat.read(lesson, as_version=4)
    student = student_version(instructor, lesson.name)
    outcomes: list[Outcome] = []
    kernel = Kernel()
    try:
        kernel.run("import matplotlib; matplotlib.use('Agg')")
        cells = list(zip(instructor.cells, student.cells, strict=True))
        for index, (full, stub) in enumerate(cells):
            if full.cell_type != "code":
                continue
            grade_id = full.metadata.get("nbgrader", {}).get("grade_id", "")
            if grade_id.endswith("-answer") and full.metadata["nbgrader"].get("solution"):
                visible, full_check = cells[index + 1][1].source, cells[index + 1][0].source
                outcomes += _try_attempts(kernel, grade_id, stub.source, visible, full_check, table)
                if OWN_NUMBERS in full.source + full_check:
                    data = [c.source for c, _ in cells[_data_start(cells, index):index]]
                    outcomes += own_numbers(kernel, grade_id, data, full.source, full_check)
            error, value, _ = kernel.run(full.source if grade_id.endswith("-answer") else stub.source)
            if error is not None:
                outcomes.append(Outcome(grade_id or f"cell {index}", "the lesson itself",
                                        f"raised {error}: {value}"))
                break
    finally:
        kernel.close()
    return outcomes


OWN_NUMBERS = "student_seed("
#: Two students' keys (hex, as the class's key files hold them).
STUDENT_KEYS = ("a1" * 32, "b2" * 32)
#: What a check must say when the answers are someone else's (perclib.classroom.NOT_YOURS
#: or the lesson's own words for it).
NOT_YOURS_WORDS = re.compile(r"not yours|not fit your numbers", re.IGNORECASE)

RECORD = """
import copy as _copy, functools as _functools
_recorded = {}
def _recording(name, f):
    @_functools.wraps(f)
    def wrapped(*args, **kwargs):
        result = f(*args, **kwargs)
        _recorded.setdefault(name, []).append(_copy.deepcopy(result))
        return result
    return wrapped
"""

REPLAY = """
def _replaying(name, answers):
    answers = list(answers)
    def replay(*args, **kwargs):   # the other student's results, call by call
        return _copy.deepcopy(answers.pop(0) if len(answers) > 1 else answers[0])
    return replay
"""


def _data_start(cells: list, answer_index: int) -> int:
    """The first cell after the previous exercise's check that makes own numbers."""
    start = answer_index
    for k in range(answer_index - 1, -1, -1):
        full = cells[k][0]
        if full.metadata.get("nbgrader", {}).get("grade_id", "").endswith("-check"):
            break
        if full.cell_type == "code" and OWN_NUMBERS in full.source:
            start = k
    return start


def own_numbers(kernel: Kernel, grade_id: str, data: list[str], answer: str,
                check: str) -> list[Outcome]:
    """An exercise with each student's own numbers (issue 49), in a class of two.

    Student A and student B (two keys) each run the stored solution: both must pass the
    full check, and their results must differ. Then B hands in A's results, hard-coded
    (a function that returns what A's returned, call by call): the check must fail and
    say that the numbers are not B's. At the end the key is unset and the data made
    again, so the rest of the lesson runs as a reader alone sees it.
    """
    import ast

    names = [node.name for node in ast.parse(answer).body if isinstance(node, ast.FunctionDef)]
    if not names:
        return [Outcome(grade_id, "own numbers", "the answer defines no function to record")]
    label = "own numbers"
    problems: list[str] = []

    def as_student(key: str | None) -> None:
        set_key = (f"os.environ['PERCLIB_STUDENT_KEY'] = {key!r}" if key else
                   "os.environ.pop('PERCLIB_STUDENT_KEY', None)")
        kernel.run(f"import os\n{set_key}")
        for source in data:
            kernel.run(source)

    def solve(key: str, who: str) -> None:
        as_student(key)
        kernel.run(answer)
        kernel.run(RECORD + "".join(f"{n} = _recording({n!r}, {n})\n" for n in names))
        error, value, _ = kernel.run(check)
        if error is not None:
            problems.append(f"the stored solution fails for {who}: {error}: {value}")

    try:
        solve(STUDENT_KEYS[0], "student A")
        kernel.run("_copied = _recorded")
        solve(STUDENT_KEYS[1], "student B")
        _, _, printed = kernel.run("print(repr(_copied) == repr(_recorded))")
        if printed.strip() != "False":
            problems.append("students A and B got the same results: their numbers are not "
                            "their own")
        kernel.run(REPLAY + "".join(f"{n} = _replaying({n!r}, _copied.get({n!r}, [None]))\n"
                                    for n in names))
        error, value, _ = kernel.run(check)
        if error is None:
            problems.append("student B handed in student A's results and passed")
        elif error != "AssertionError" or not NOT_YOURS_WORDS.search(value):
            problems.append("a copy of student A's results failed without saying the numbers "
                            f"are not B's: {error}: {value}")
    finally:
        as_student(None)
    return [Outcome(grade_id, label, "; ".join(problems) or None)]


def _try_attempts(kernel: Kernel, grade_id: str, stub: str, visible: str, full_check: str,
                  table: dict[str, list[Attempt]]) -> list[Outcome]:
    outcomes = []
    for attempt in table.get(grade_id, []):
        if attempt.kind not in KINDS:
            outcomes.append(Outcome(grade_id, attempt.label, f"unknown kind {attempt.kind!r}"))
            continue
        error, value, printed = kernel.run(fill_stub(stub, attempt.code))
        if error is not None:
            outcomes.append(Outcome(grade_id, attempt.label, f"the attempt itself raised {error}: {value}"))
            continue
        which = "full" if attempt.kind in FULL_CHECK_KINDS + ("right",) else "visible"
        error, value, printed = kernel.run(full_check if which == "full" else visible)
        if attempt.kind == "right":
            problem = None if error is None else f"a right answer failed the full check: {value}"
        elif error is None:
            problem = f"passed the {which} check (printed {printed.strip()!r})"
        elif attempt.kind == "reach":
            problem = None
        elif attempt.kind == "tamper" and GRADER_READS not in value:
            problem = f"failed without the guard's message that a grader reads it: {value}"
        elif error != "AssertionError":
            problem = f"failed with {error}: {value} (not an AssertionError that explains)"
        elif not value.strip():
            problem = "failed with an AssertionError without a message"
        elif leaked := [s for s in attempt.secrets if s in value]:
            problem = f"the message prints the answer {leaked}: {value}"
        else:
            problem = None
        outcomes.append(Outcome(grade_id, attempt.label, problem, value))
    return outcomes
