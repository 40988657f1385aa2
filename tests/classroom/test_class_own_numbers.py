"""Each student's own numbers: in their kernel, again at autograde, and copies fail.

A homework whose data come from ``perclib.classroom.student_seed``: the class writes a
course secret and one key per student (``report_options.write_student_keys``); each
student's kernel (nbclient, with the class's ``JUPYTER_CONFIG_PATH`` and the student's
login name) makes that student's numbers; nbgrader's own autograde, with the class's
sanitize preprocessors (``StudentKey`` among them), checks every submission against its
submitter's numbers. Two students run the stored solution and pass; a third hard-codes
the first one's answer and fails with the "not yours" message. The expected numbers are
computed here with ``hmac`` directly, not with perclib's helper; without a class the
lesson's fixed seed is used.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")

DATA = ("import numpy as np\nfrom perclib.classroom import student_seed\n"
        "data = np.random.default_rng(student_seed('hw/ex1', 7)).integers(1, 100, size=5)\n"
        "print(data.tolist())")
SOLUTION = "total = int(data.sum())"
CHECK = '''from perclib.classroom import NOT_YOURS, student_seed
mine = np.random.default_rng(student_seed("hw/ex1", 7)).integers(1, 100, size=5)
assert isinstance(total, int), "total must be a whole number"
assert total == int(mine.sum()), f"total = {total} " + NOT_YOURS
print("exercise 1: correct")
'''


def homework() -> nbformat.NotebookNode:
    meta = {"schema_version": 3, "locked": False}
    cells = [
        nbformat.v4.new_code_cell(DATA, metadata={"nbgrader": {**meta, "grade": False, "solution": False,
                                                               "locked": True, "grade_id": "data"}}),
        nbformat.v4.new_code_cell(f"### BEGIN SOLUTION\n{SOLUTION}\n### END SOLUTION\n", metadata={
            "nbgrader": {**meta, "grade": False, "solution": True, "grade_id": "ex1-answer"}}),
        nbformat.v4.new_code_cell(CHECK, metadata={"nbgrader": {**meta, "grade": True, "solution": False,
                                                                "locked": True, "grade_id": "ex1-check",
                                                                "points": 1}}),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def numbers_for(key_hex: str | None) -> list[int]:
    """The data, computed here: HMAC-SHA256(key, label), first 8 bytes, top 63 bits."""
    if key_hex is None:
        seed = 7
    else:
        digest = hmac.new(bytes.fromhex(key_hex), b"hw/ex1", hashlib.sha256).digest()
        seed = int.from_bytes(digest[:8], "big") >> 1
    return [int(v) for v in np.random.default_rng(seed).integers(1, 100, size=5)]


def run_as_student(nb, monkeypatch, *, config: Path | None, user: str) -> nbformat.NotebookNode:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("USER", user)
    monkeypatch.setenv("LOGNAME", user)
    monkeypatch.delenv("PERCLIB_STUDENT_KEY", raising=False)
    if config is None:
        monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    else:
        monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(config))
    NotebookClient(nb, kernel_name="python3", timeout=120, allow_errors=True).execute()
    return nb


def test_own_numbers_in_the_kernel_and_at_autograde(tmp_path, monkeypatch) -> None:
    from nbgrader.api import Gradebook
    from nbgrader.apps import NbGraderAPI
    from traitlets.config import Config

    from coursetools.classroom.autograde import SANITIZE
    from coursetools.classroom.report_options import SECRET_FILE, write_lesson_options

    course, class_dir = tmp_path / "course", tmp_path / "class"
    (course / "source" / "hw").mkdir(parents=True)
    (class_dir / "jupyter" / "student").mkdir(parents=True)
    students = ["ada", "bob", "cy"]
    write_lesson_options(class_dir, course, "teacher", students, record_questions=False, own_numbers=True)
    keys = {s: (class_dir / "student-keys" / s).read_text().strip() for s in students}
    assert (class_dir / "student-keys").stat().st_mode & 0o777 == 0o711
    assert all((class_dir / "student-keys" / s).stat().st_mode & 0o777 == 0o400 for s in students)
    assert (course / SECRET_FILE).stat().st_mode & 0o077 == 0
    secret = bytes.fromhex((course / SECRET_FILE).read_text().strip())
    for s in students:  # the key is the keyed hash of the id, computed here independently
        assert keys[s] == hmac.new(secret, f"student:{s}".encode(), hashlib.sha256).hexdigest()
    assert len(set(map(tuple, (numbers_for(keys[s]) for s in students)))) == 3

    nbformat.write(homework(), course / "source" / "hw" / "hw.ipynb")
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    config = Config()
    config.CourseDirectory.root = str(course)
    config.CourseDirectory.course_id = "own-numbers-test"
    config.Autograde.sanitize_preprocessors = SANITIZE
    api = NbGraderAPI(config=config)
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        gb.update_or_create_assignment("hw")
    assert api.generate_assignment("hw", force=True)["success"]
    released = nbformat.read(course / "release" / "hw" / "hw.ipynb", as_version=4)
    student_config = class_dir / "jupyter" / "student"
    ada_total = sum(numbers_for(keys["ada"]))
    answers = {"ada": SOLUTION, "bob": SOLUTION, "cy": f"total = {ada_total}  # from ada's notebook"}
    for s in students:
        nb = nbformat.from_dict(json.loads(json.dumps(released)))
        nb.cells[1].source = answers[s]
        run_as_student(nb, monkeypatch, config=student_config, user=s)
        # In the student's kernel: their own numbers.
        assert nb.cells[0].outputs[0]["text"].strip() == str(numbers_for(keys[s]))
        folder = course / "submitted" / s / "hw"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / "hw.ipynb")
    # Autograde as the instructor: no class file, no USER of the student; the key comes
    # from the secret through StudentKey.
    monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    monkeypatch.setenv("USER", "teacher")
    monkeypatch.setenv("LOGNAME", "teacher")
    for s in students:
        assert api.autograde("hw", s, force=True)["success"]
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        scores = {s: gb.find_submission("hw", s).score for s in students}
    assert scores == {"ada": 1, "bob": 1, "cy": 0}
    for s in students:  # autograde re-ran the data cell with the submitter's own numbers
        graded = nbformat.read(course / "autograded" / s / "hw" / "hw.ipynb", as_version=4)
        assert graded.cells[0].outputs[0]["text"].strip() == str(numbers_for(keys[s])), s
    graded = nbformat.read(course / "autograded" / "cy" / "hw" / "hw.ipynb", as_version=4)
    (error,) = [o for o in graded.cells[2].outputs if o["output_type"] == "error"]
    assert f"total = {ada_total} does not fit your numbers" in error["evalue"]
    assert "not yours" in error["evalue"]
    monkeypatch.delenv("PERCLIB_STUDENT_KEY", raising=False)  # StudentKey sets it in this process


def test_without_a_class_the_fixed_seed_and_the_stored_solution_pass(tmp_path, monkeypatch) -> None:
    nb = homework()
    nb.cells[1].source = SOLUTION
    run_as_student(nb, monkeypatch, config=None, user="reader")
    assert nb.cells[0].outputs[0]["text"].strip() == str(numbers_for(None))
    assert nb.cells[2].outputs[-1]["text"] == "exercise 1: correct\n"
    # A class file without keys (questions only) changes nothing either.
    (tmp_path / "perclib_class.json").write_text(json.dumps({"record_questions": True}))
    nb2 = homework()
    run_as_student(nb2, monkeypatch, config=tmp_path, user="reader")
    assert nb2.cells[0].outputs[0]["text"].strip() == str(numbers_for(None))


def test_student_seed_refuses_a_bad_label_and_ignores_a_short_key() -> None:
    from perclib.classroom import student_seed

    with pytest.raises(ValueError, match="label must be a non-empty string"):
        student_seed("", 1, environ={})
    assert student_seed("x", 3, environ={"PERCLIB_STUDENT_KEY": "abcd"}) == 3  # too short: no key
    assert student_seed("x", 3, environ={"PERCLIB_STUDENT_KEY": "zz" * 32}) == 3  # not hex


def test_the_sandbox_passes_the_key_and_nothing_else_of_the_class(monkeypatch) -> None:
    from coursetools.classroom.sandbox import Limits, bwrap_command

    monkeypatch.setenv("PERCLIB_STUDENT_KEY", "ab" * 32)
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "/srv/class/jupyter/instructor")
    cmd = bwrap_command(Path("/run/k.json"), hide=[], limits=Limits(), python="/usr/bin/python3",
                        ro_paths=[Path("/usr")])
    pairs = {cmd[i + 1]: cmd[i + 2] for i, a in enumerate(cmd) if a == "--setenv"}
    assert pairs["PERCLIB_STUDENT_KEY"] == "ab" * 32
    assert "JUPYTER_CONFIG_PATH" not in pairs


# -- lesson 6, exercise 2 (a maximum margin by hand): the lesson's own instance --------
LESSON6 = ROOT / "notebooks" / "06_margins.ipynb"


def _cell(nb, grade_id: str) -> int:
    return next(i for i, c in enumerate(nb.cells)
                if c.metadata.get("nbgrader", {}).get("grade_id") == grade_id)


def test_lesson6_ex2_each_student_their_own_patterns(monkeypatch) -> None:
    """The stored solution passes for every student; a copied answer fails, saying so."""
    from nbclient import NotebookClient

    lesson = nbformat.read(LESSON6, as_version=4)
    answer, check = _cell(lesson, "ex2-answer"), _cell(lesson, "ex2-check")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.delenv("PERCLIB_STUDENT_KEY", raising=False)
    monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    keys = [hashlib.sha256(f"student {i}".encode()).hexdigest() for i in range(12)]
    runs: list[str | None] = []  # the key of each solution run, in order
    cells = [c for c in lesson.cells[:answer] if c.cell_type == "code"]
    for key in [None, *keys]:
        setup = ("import os\nos.environ.pop('PERCLIB_STUDENT_KEY', None)" if key is None else
                 f"import os\nos.environ['PERCLIB_STUDENT_KEY'] = '{key}'")
        cells += [nbformat.v4.new_code_cell(setup), lesson.cells[answer], lesson.cells[check],
                  nbformat.v4.new_code_cell("print(X_mm.astype(int).tolist(), "
                                            "[float(v).hex() for v in [g3, *u3]])")]
        runs.append(key)
    # Student 1 hands their answer (the numbers) to student 2, who hard-codes it.
    copy = nbformat.v4.new_code_cell("def three_point_max_margin():\n    return COPIED\n")
    cells += [nbformat.v4.new_code_cell(f"import os\nos.environ['PERCLIB_STUDENT_KEY'] = '{keys[1]}'"),
              copy, lesson.cells[check]]
    copies = [nbformat.v4.new_code_cell(c.source, metadata=json.loads(json.dumps(c.metadata)))
              for c in cells]  # fresh cell ids: the answer and check cells run many times
    nb = nbformat.v4.new_notebook(cells=copies)
    nb.metadata = lesson.metadata
    client = NotebookClient(nb, kernel_name="python3", timeout=300, allow_errors=True)
    first_copy_cell = len(cells) - 2
    with client.setup_kernel():
        for i, cell in enumerate(nb.cells[:first_copy_cell]):
            client.execute_cell(cell, i)
        printed = [c.outputs[-1]["text"] for c in nb.cells[:first_copy_cell]
                   if c.source.startswith("print(X_mm")]
        g, ux, uy = [float.fromhex(v) for v in json.loads(printed[1].split("] ", 1)[1].replace("'", '"'))]
        nb.cells[first_copy_cell].source = copy.source.replace(
            "COPIED", f"float.fromhex('{g.hex()}'), np.array([float.fromhex('{ux.hex()}'), "
                      f"float.fromhex('{uy.hex()}')])")
        for i in range(first_copy_cell, len(nb.cells)):
            client.execute_cell(nb.cells[i], i)
    checks = [c for c in nb.cells if c.source == lesson.cells[check].source]
    for key, c in zip(runs, checks, strict=False):
        errors = [o for o in c.outputs if o["output_type"] == "error"]
        assert not errors, (key, errors and errors[0]["evalue"])
        assert "exercise 2: correct\n" in "".join(o.get("text", "") for o in c.outputs), key
    patterns = [p.split("] [")[0] + "]" for p in printed]
    assert patterns[0].startswith("[[1, 2], [3, 0], [-1, -3]]")  # no class: the lesson's own
    assert len(set(patterns)) >= 10  # students get their own
    (error,) = [o for o in checks[-1].outputs if o["output_type"] == "error"]
    assert "your three patterns are your own" in error["evalue"] and "not yours" in error["evalue"]
