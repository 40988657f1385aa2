"""The Colab cell (issue 25): every lesson starts with it; it acts on Colab and only there.

The lessons themselves on Colab's versions (ipywidgets 7.7.1, IPython 7.34) are run by
``.ci/colab.sh``, which ``.ci/run`` calls.
"""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest

from coursetools.authoring.colab import main as colab_main
from coursetools.shared import colab
from coursetools.shared.colab import COLAB_CELL, colab_url, with_colab_cell

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_the_first_code_cell_is_the_colab_cell(lesson: Path) -> None:
    nb = nbformat.read(lesson, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code[0].source == COLAB_CELL, f"run python -m coursetools.colab {lesson.name}"
    assert not code[0].outputs, "outside Colab the cell prints nothing"
    assert code[0].metadata.get("jupyter", {}).get("source_hidden") is True, (
        f"the Colab cell is collapsed: run python -m coursetools.colab {lesson.name}"
    )
    assert sum(c.source.startswith(colab.MARKER) for c in code) == 1


def _run_cell(monkeypatch: pytest.MonkeyPatch, on_colab: bool) -> list[list[str]]:
    calls: list[list[str]] = []
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: calls.append(list(args)))
    if on_colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    exec(compile(COLAB_CELL, "<colab cell>", "exec"), {})
    return calls


def test_outside_colab_the_cell_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _run_cell(monkeypatch, on_colab=False) == []


def test_on_colab_it_installs_the_course_without_touching_colabs_packages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (call,) = _run_cell(monkeypatch, on_colab=True)
    assert call[:4] == [sys.executable, "-m", "pip", "install"]
    assert "--no-deps" in call  # Colab's IPython 7 must stay: perclib declares ipython>=8
    assert call[-1] == "git+https://github.com/perceptron-course/perceptron-course@main"


def test_inserting_is_idempotent_and_replaces_an_old_version() -> None:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson"),
        nbformat.v4.new_code_cell("import numpy as np"),
        nbformat.v4.new_code_cell(colab.MARKER + "\nold version"),
    ])
    assert with_colab_cell(nb)
    assert [c.source for c in nb.cells] == ["# Lesson", COLAB_CELL, "import numpy as np"]
    assert not with_colab_cell(nb)
    nbformat.validate(nb)


def test_colab_url_points_at_the_repository() -> None:
    assert colab_url(LESSONS[0]) == (
        "https://colab.research.google.com/github/perceptron-course/perceptron-course"
        f"/blob/main/notebooks/{LESSONS[0].name}"
    )


def test_check_mode_reports_a_missing_cell(tmp_path: Path) -> None:
    path = tmp_path / "01_x.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), path)
    assert colab_main(["--check", str(path)]) == 1
    assert colab_main([str(path)]) == 0
    assert colab_main(["--check", str(path)]) == 0


def _lesson_with_colab_cell() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson 9: a test\n\nText."),
        nbformat.v4.new_code_cell("x = 1"),
    ])
    with_colab_cell(nb)
    return nb


def test_the_colab_cell_is_collapsed_and_stays_collapsed() -> None:
    from coursetools.shared.roles import apply_roles

    nb = _lesson_with_colab_cell()
    cell = nb.cells[1]
    assert cell.source == COLAB_CELL and cell.metadata.jupyter.source_hidden is True
    apply_roles(nb)  # the role tool must not uncollapse it
    assert nb.cells[1].metadata.jupyter.source_hidden is True
    assert not with_colab_cell(nb), "a collapsed, current cell needs no change"
    del nb.cells[1].metadata["jupyter"]
    assert with_colab_cell(nb) and nb.cells[1].metadata.jupyter.source_hidden is True


def test_the_site_and_the_handouts_leave_the_colab_cell_out() -> None:
    from coursetools.handouts.build import handout_notebook
    from coursetools.site.build import site_notebook

    nb = _lesson_with_colab_cell()
    for shown in (site_notebook(nb, "09_test"), handout_notebook(nb)):
        sources = [c.source for c in shown.cells]
        assert not any(colab.MARKER in s for s in sources), sources
        assert any("x = 1" in s for s in sources)
    assert nb.cells[1].source == COLAB_CELL  # the lesson itself is not changed
