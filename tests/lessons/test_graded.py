"""Graded checks out of the answer's reach (issue 50): the mechanism and real autograde.

* ``perclib.graded``: plain data both ways (float32 stays float32, fractions exact),
  the check's forbidden names read from its syntax, a stripped perclib in which the
  forbidden functions do not exist (no file holds their code);
* the answer's sandbox: it sees the stripped copy wherever the real perclib lives,
  nothing of the repository, and runs as nobody without network;
* every lesson's stored solutions pass the graded path;
* real ``nbgrader autograde`` with the class's instructor config (the sandbox kernel,
  ``GradedChecks`` after ``Execute``): a submission whose lesson-1 Exercise 1 empties
  ``FAMILIES``, rebinds ``np`` and execs perclib's source under another name passes
  the check in the kernel, and scores 0 for that exercise; the stored solution scores
  full marks.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")


def _need_bwrap() -> None:
    if shutil.which("bwrap") is None:
        pytest.fail("graded checks need bwrap (apt-get install bubblewrap)")


def test_plain_data_keeps_types_and_values() -> None:
    from perclib.graded import decode, encode

    value = (np.float32(0.1), np.arange(6, dtype=np.int64).reshape(2, 3) * 2**61,
             [Fraction(1, 3), 2**80, -0.0, float("inf")], {(1, 2): "a"}, np.array([1e-300]),
             np.array([1.0, 2.0], dtype=np.float32), True, None, 1 + 2j)
    back = decode(json.loads(json.dumps(encode(value))))
    assert back[0].dtype == np.float32 and back[0] == np.float32(0.1)
    assert back[1].dtype == np.int64 and np.array_equal(back[1], value[1])
    assert back[2] == value[2] and type(back[2][0]) is Fraction
    assert back[3] == {(1, 2): "a"} and back[4][0] == 1e-300
    assert back[5].dtype == np.float32 and back[6:] == (True, None, 1 + 2j)


def test_objects_that_are_not_plain_data_are_refused() -> None:
    from perclib.graded import encode

    class Lazy(list):  # a subclass could compute when read
        pass

    for value in (Lazy([1]), object(), (x for x in [1]), lambda: 1):
        with pytest.raises(TypeError, match="plain values"):
            encode(value)


def test_forbidden_names_are_read_from_the_check() -> None:
    from perclib.checking import FAMILIES
    from perclib.graded import forbidden_names

    names = forbidden_names("with without('units.corner_unit', family=('separation', 'counting')):\n"
                            "    f()\nwith perclib.checking.without(family='overlap'):\n    g()")
    assert names[0] == "units.corner_unit"
    assert set(names) == {"units.corner_unit", *FAMILIES["separation"], *FAMILIES["counting"],
                          *FAMILIES["overlap"]}
    with pytest.raises(ValueError, match="family"):
        forbidden_names("without(family='nope')")


def test_the_stripped_perclib_lacks_the_functions_and_their_code(tmp_path) -> None:
    from perclib.graded import forbidden_names, strip_perclib

    names = forbidden_names("without('units.corner_unit', family='separation')")
    root = strip_perclib(names, tmp_path)
    text = "\n".join(p.read_text() for p in (root / "perclib").rglob("*.py"))
    for gone in ("def separating_weights", "def perceptron(", "def _separability_lp",
                 "def corner_unit", "def _one_epoch"):
        assert gone not in text, gone
    probe = ("import perclib, perclib.geometry, perclib.train, perclib.units\n"
             "print(perclib.boolean_cube(2).shape, hasattr(perclib, 'perceptron'),\n"
             "      hasattr(perclib.geometry, 'separating_weights'), perclib.in_general_position)")
    done = subprocess.run([sys.executable, "-P", "-c", probe], cwd=tmp_path, text=True,
                          capture_output=True, env={"PYTHONPATH": str(root), "PATH": os.environ["PATH"]},
                          check=True)
    assert done.stdout.startswith("(4, 2) False False <function in_general_position"), done.stdout


def test_the_answer_sandbox_sees_only_the_stripped_copy() -> None:
    _need_bwrap()
    from coursetools.classroom.graded import _perclib_folders, graded_verdict

    real = [str(p) for p in _perclib_folders([Path("/")])] + ["/work/main/perclib"]
    probe = ("import os, socket, perclib\n"
             f"perclib_dirs = {real!r}\n"
             "def f():\n"
             f"    return [os.path.exists({str(ROOT / 'perclib')!r}),\n"
             "            any(os.path.exists(p) for p in perclib_dirs),\n"
             "            perclib.__path__[0], os.getuid(), hasattr(perclib, 'perceptron'),\n"
             "            sorted(os.environ)]\n")
    check = ("from perclib.checking import without\n"
             "with without(family='perceptron'):\n    seen = f()\n"
             "assert seen[:2] == [False, False] and 'graded-perclib-' in seen[2], seen\n"
             "assert seen[3:5] == [65534, False], seen\n"
             "assert 'PYTHONPATH' in seen[5] and not any('TOKEN' in k for k in seen[5]), seen\n"
             "### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS\n")
    verdict = graded_verdict(check, probe, ["import numpy as np"])
    assert verdict["passed"], verdict


def test_the_answer_process_cannot_fill_shared_memory() -> None:
    """/dev/shm's pages count against no per-process limit: the answer's process gets a
    /dev/shm of the grading kernel's size (64 MiB), so 200 MiB written there fail (in
    files of 40 MiB, each under the per-file limit)."""
    _need_bwrap()
    from coursetools.classroom.graded import graded_verdict

    answer = ("def fill():\n"
              "    try:\n"
              "        for k in range(5):\n"
              "            with open(f'/dev/shm/fill{k}', 'wb') as handle:\n"
              "                for _ in range(40):\n"
              "                    handle.write(b's' * 1024 * 1024)\n"
              "    except OSError:\n"
              "        return 'OSError'\n"
              "    return 'done'\n")
    check = "assert fill() == 'OSError'\n### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS\n"
    verdict = graded_verdict(check, answer, [])
    assert verdict["passed"], verdict


def test_the_answers_processes_share_one_memory_limit(request) -> None:
    """With the course's cgroup (as setup writes it), the answer's process and every
    process it forks share the grading kernel's 3 GiB: of four children that each fill
    1.5 GiB, at most one keeps its memory (the others are stopped by the OOM killer).
    Without it each child has its own 3 GiB of address space, and all four finish."""
    _need_bwrap()
    import secrets

    from cgroup_support import cgroup_tree

    from coursetools.classroom.cgroup import delegate, memory_controller
    from coursetools.classroom.graded import graded_verdict

    controller = memory_controller()
    assert controller is not None, "no memory cgroup controller under /sys/fs/cgroup"
    group = controller.course_folder(f"test-{secrets.token_hex(3)}")
    delegate(group, controller.version, os.getuid(), os.getgid())
    request.addfinalizer(lambda: [p.rmdir() for p in cgroup_tree(group)])
    answer = ("import os, time\n"
              "def children_that_kept_their_memory():\n"
              "    pids = []\n"
              "    for _ in range(4):\n"
              "        pid = os.fork()\n"
              "        if pid == 0:\n"
              "            try:\n"
              "                block = b'w' * (1536 * 1024 * 1024)\n"
              "                time.sleep(3)\n"
              "                os._exit(0 if block else 1)\n"
              "            except MemoryError:\n"
              "                os._exit(3)\n"
              "        pids.append(pid)\n"
              "    codes = [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids]\n"
              "    return sum(code == 0 for code in codes)\n")
    check = ("kept = children_that_kept_their_memory()\n"
             "assert kept <= 1, kept\n### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS\n")
    verdict = graded_verdict(check, answer, [], memory_cgroup=group)
    assert verdict["passed"], verdict


def test_a_function_reading_the_lessons_data_is_told_why_it_fails_at_grading() -> None:
    """The answer's process has the lesson's imports and definitions, not its data
    cells: a function that reads a data global fails there, with a message saying so."""
    _need_bwrap()
    from coursetools.classroom.graded import graded_verdict
    from perclib.graded import answer_context

    answer = "def total():\n    return float(np.sum(J))\n"
    context = answer_context(["import numpy as np\nJ = np.ones(3)"], answer)
    assert context == ["import numpy as np"], context
    check = "assert total() == 3.0\n### BEGIN HIDDEN TESTS\n### END HIDDEN TESTS\n"
    verdict = graded_verdict(check, answer, context)
    assert not verdict["passed"] and verdict["error"][0] == "NameError", verdict
    assert "not its data" in verdict["error"][1], verdict


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_stored_solutions_pass_the_graded_path(lesson: Path) -> None:
    _need_bwrap()
    from coursetools.classroom.graded import exercises, notebook_verdicts

    cells = nbformat.read(lesson, as_version=4).cells
    verdicts = notebook_verdicts(cells)
    assert len(verdicts) == len(exercises(cells)) > 0
    failed = {k: v["error"] for k, v in verdicts.items() if not v["passed"]}
    assert not failed, failed


# -- real nbgrader, the class's instructor config ------------------------------------

#: Lesson 1's Exercise 1 answered by tampering: FAMILIES emptied, np rebound, the
#: source of perclib.units exec'd under another file name for its corner unit.
TAMPERING = '''\
import sys
import types

import numpy
import perclib
import perclib.checking
for _family in list(perclib.checking.FAMILIES):
    perclib.checking.FAMILIES[_family] = ()
np = numpy
_units = sys.modules["units_copy"] = types.ModuleType("units_copy")
_path = perclib.__path__[0] + "/units.py"
exec(compile(open(_path).read(), "/tmp/units_copy.py", "exec"), vars(_units))


def nand_unit(n):
    w, theta = _units.corner_unit(np.ones(n))
    return -w, -theta
'''


def test_autograde_scores_a_tampering_answer_zero_and_the_solution_full(tmp_path, monkeypatch,
                                                                      request) -> None:
    _need_bwrap()
    import secrets

    from cgroup_support import own_grading_cgroup
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from traitlets.config.loader import PyFileConfigLoader

    from coursetools.classroom.sandbox import KERNEL_NAME
    from coursetools.classroom.settings import ClassSettings
    from coursetools.classroom.setup import nbgrader_config_text, sandbox_kernel_text

    lesson = ROOT / "notebooks" / "01_threshold_units.ipynb"
    course = tmp_path / "course"
    (course / "source" / "l1").mkdir(parents=True)
    settings = ClassSettings(class_dir=tmp_path / "class", instructor="teacher", course_root=course,
                             exchange_root=tmp_path / "exchange", course_id=f"t-{secrets.token_hex(3)}")
    own_grading_cgroup(settings, request)  # the kernels' memory limit, as setup makes it
    (course / "nbgrader_config.py").write_text(nbgrader_config_text(settings, "instructor"))
    spec = tmp_path / "share" / "kernels" / KERNEL_NAME / "kernel.json"
    spec.parent.mkdir(parents=True)
    spec.write_text(sandbox_kernel_text(settings))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "share"))
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    shutil.copy(lesson, course / "source" / "l1" / "l1.ipynb")
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    api = NbGraderAPI(config=config)
    assert api.generate_assignment("l1", force=True)["success"]
    solved = nbformat.read(lesson, as_version=4)
    tampered = nbformat.read(lesson, as_version=4)
    answer = next(c for c in tampered.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ex1-answer")
    answer.source = TAMPERING
    for student, nb in {"solved": solved, "tampered": tampered}.items():
        folder = course / "submitted" / student / "l1"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / "l1.ipynb")
        result = api.autograde("l1", student, force=True)
        assert result["success"], result.get("log")
    points = {c.metadata.nbgrader.grade_id: c.metadata.nbgrader.points for c in solved.cells
              if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code"}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {student: {g.name: g.score for g in gb.find_submission_notebook("l1", "l1", student).grades
                            if g.name in points}
                  for student in ("solved", "tampered")}
    assert scores["solved"] == points, scores
    assert scores["tampered"] == {**points, "ex1-check": 0}, scores
    graded = nbformat.read(course / "autograded" / "tampered" / "l1" / "l1.ipynb", as_version=4)
    check = next(c for c in graded.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "ex1-check")
    # it passed in the kernel (the tampering works there), and failed out of its reach
    assert any("exercise 1: correct" in o.get("text", "") for o in check.outputs), check.outputs
    errors = [o for o in check.outputs if o.output_type == "error"]
    assert errors and "at grading" in errors[0].evalue, check.outputs


# -- the reviews' wrong answers, in the graded path --------------------------------

def _graded_verdicts(lesson: Path, wanted) -> list[tuple[str, dict]]:
    """The graded path's verdict on each attempt of the lesson's table that ``wanted``
    selects, as (exercise: label, verdict)."""
    _need_bwrap()
    sys.path.insert(0, str(ROOT / "tests"))
    from exercise_audit import load_table

    from coursetools.authoring.adversarial import _fill, exercises
    from coursetools.classroom.graded import graded_verdict
    from perclib.graded import answer_context

    table = load_table(int(lesson.name[:2]))
    verdicts = []
    for exercise in exercises(lesson):
        for attempt in table[exercise.grade_id.replace("-check", "-answer")]:
            if wanted(attempt):
                source = _fill(exercise, attempt.code)
                verdict = graded_verdict(exercise.check, source,
                                         answer_context(exercise.before, source))
                verdicts.append((f"{exercise.grade_id}: {attempt.label}", verdict))
    return verdicts


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_the_reviews_wrong_answers_fail_the_graded_path(lesson: Path) -> None:
    """Each wrong answer of review turn 6 (in ``tests/lazy_answers``, labelled
    "(review 6)") fails the graded check too, not only the check in the kernel."""
    verdicts = _graded_verdicts(lesson, lambda attempt: "(review 6)" in attempt.label)
    passed = [label for label, verdict in verdicts if verdict["passed"]]
    assert not passed, passed


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_right_answers_in_another_form_pass_the_graded_path(lesson: Path) -> None:
    """A right answer that is not the stored solution (kind ``right:`` in the tables)
    scores in the graded path as it passes in the kernel."""
    verdicts = _graded_verdicts(lesson, lambda attempt: attempt.kind == "right")
    failed = [f"{label}: {verdict}" for label, verdict in verdicts if not verdict["passed"]]
    assert not failed, failed
