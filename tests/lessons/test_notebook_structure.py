"""Every lesson notebook has the shape the course promises.

Executed top to bottom (counts 1..n, no stored errors), a title, goals and a
summary, at least one slider widget, exercises marked with cell roles (code
answers each followed by their check cell, at least one written exercise), and
working links to the previous and next lesson.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSONS = sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb") if not p.name.startswith("00_"))
LINK = re.compile(r"\]\(([^)\s]+?\.ipynb)(#[^)]*)?\)")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    return "".join(cell.get("source", ""))


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code" and source(c).strip()]


def test_there_are_lessons() -> None:
    assert len(LESSONS) >= 1, "no lesson notebooks found in notebooks/"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name)
class TestLesson:
    def test_executed_in_order_without_errors(self, path: Path) -> None:
        cells = code_cells(load(path))
        counts = [c.get("execution_count") for c in cells]
        assert counts == list(range(1, len(cells) + 1)), "restart the kernel and run all"
        for i, cell in enumerate(cells):
            for out in cell.get("outputs", []):
                assert out["output_type"] != "error", f"code cell {i} stored an error"

    def test_title_goals_summary(self, path: Path) -> None:
        nb = load(path)
        first = source(nb["cells"][0])
        number = int(path.name[:2])
        assert re.match(rf"#\s+Lesson {number}\b", first), f"first cell must be '# Lesson {number}: ...'"
        markdown = "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown").lower()
        assert "goal" in markdown and "prerequisite" in markdown
        assert "summary" in markdown
        assert "exercise" in markdown

    def test_has_a_slider_widget(self, path: Path) -> None:
        widget_cells = [
            c for c in code_cells(load(path))
            if any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in c["outputs"])
            # a question's input row is a widget; nbval compares its prompt (perclib.questions)
            and not any("application/vnd.perclib.question+json" in o.get("data", {}) for o in c["outputs"])
        ]
        assert widget_cells, "no cell displays a widget"
        for cell in widget_cells:
            tags = cell.get("metadata", {}).get("tags", [])
            assert any(t.startswith("nbval-") for t in tags), "widget cells need an nbval tag"

    def test_exercises_are_marked_with_roles(self, path: Path) -> None:
        """Exercises use the cell roles (COURSE.md section 5); tests/lessons/test_cell_roles.py
        checks the metadata itself, this checks the shape of the exercise section."""
        cells = load(path)["cells"]
        answers, written = 0, 0
        for i, cell in enumerate(cells):
            text = source(cell)
            begins, ends = text.count("### BEGIN SOLUTION"), text.count("### END SOLUTION")
            assert begins == ends, f"{path.name}: cell {i}: unbalanced solution markers"
            grader = cell.get("metadata", {}).get("nbgrader", {})
            if begins:
                assert cell["cell_type"] == "code" and grader.get("solution"), (
                    f"{path.name}: cell {i}: solution markers belong in an 'exercise' cell"
                )
            if grader.get("solution") and cell["cell_type"] == "code":
                answers += 1
                following = [c for c in cells[i + 1:] if c["cell_type"] == "code"]
                nxt = following[0].get("metadata", {}).get("nbgrader", {}) if following else {}
                assert nxt.get("grade") and nxt.get("locked"), (
                    f"{path.name}: cell {i}: the next code cell must be its 'exercise-check'"
                )
            if grader.get("solution") and cell["cell_type"] == "markdown":
                written += 1
        assert 2 <= answers + written <= 8, f"expected 2-8 exercises, found {answers + written}"
        assert written >= 1, "each lesson has at least one written (proof) exercise"

    def test_links_to_previous_and_next(self, path: Path) -> None:
        nb = load(path)
        text = "\n".join(source(c) for c in nb["cells"] if c["cell_type"] == "markdown")
        targets = {m.group(1) for m in LINK.finditer(text)}
        for target in targets:
            assert (path.parent / target).is_file(), f"link to missing notebook {target}"
        number = int(path.name[:2])
        previous = [p.name for p in NOTEBOOKS.glob(f"{number - 1:02d}_*.ipynb")]
        following = [p.name for p in NOTEBOOKS.glob(f"{number + 1:02d}_*.ipynb")]
        assert previous and previous[0] in targets, "missing link to the previous lesson"
        expected_next = following[0] if following else "00_index.ipynb"
        assert expected_next in targets, f"missing link to {expected_next}"

    def test_small_and_portable(self, path: Path) -> None:
        text = path.read_text(encoding="utf-8")
        assert len(text.encode()) < 2_000_000, "notebook too large; lower figure dpi"
        assert not re.search(r"(/work/|/tmp/|/root/|/home/)[\w.-]", text), "absolute machine path"
        assert "http://127.0.0.1" not in text and "localhost:" not in text


def test_no_display_maths_line_reads_as_markdown_markup() -> None:
    """A line of a $$...$$ block that starts like a list item, heading or quote ends the
    paragraph in MyST (the website) and some Markdown renderers: the formula breaks."""
    import glob

    bad = []
    for path in sorted(glob.glob(str(Path(__file__).resolve().parents[2] / "notebooks" / "*.ipynb"))):
        for i, cell in enumerate(json.loads(Path(path).read_text())["cells"]):
            if cell["cell_type"] != "markdown":
                continue
            for block in re.findall(r"\$\$(.*?)\$\$", "".join(cell["source"]), re.S):
                for line in block.split("\n")[1:]:
                    if re.match(r"\s*([-+*]|\d+[.)]|#+|>)\s", line):
                        bad.append(f"{Path(path).name} cell {i}: {line.strip()[:60]}")
    assert not bad, bad


#: The course's style rule: every code line a reader sees in a lesson is under 90 characters.
CODE_LINE_LIMIT = 90


def test_every_code_line_is_under_90_characters() -> None:
    """A longer line scrolls sideways in a notebook, the site and the handouts. Wrap it
    inside its brackets (a message as adjacent string literals) without changing what it
    does; a cell tagged ``widget`` must keep its source (its model ids come from it)."""
    long = []
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        for i, cell in enumerate(load(path)["cells"]):
            if cell["cell_type"] != "code":
                continue
            for line in source(cell).splitlines():
                if len(line) >= CODE_LINE_LIMIT:
                    long.append(f"{path.name} cell {i} ({len(line)} characters): {line}")
    assert not long, (
        f"{len(long)} code line(s) of {CODE_LINE_LIMIT} characters or more:\n" + "\n".join(long))
