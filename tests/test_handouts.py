"""Lecture handouts (``python -m coursetools.handouts``).

One build (one Chromium) for the lessons present in ``notebooks/`` plus a fixture
lesson with ``$x^2$`` maths, a figure, a widget cell (widget view + static PNG) and a
LaTeX output. Each HTML handout is then opened in a fresh headless Chromium whose every
request is routed: anything but ``file:``/``data:``/``blob:``/``about:`` or loopback
fails the test. Checks: no script at all, maths typeset to SVG with no raw ``$...$``
left in the visible text, one ``<img>`` per image output of the source, every image
decoded (``naturalWidth > 0``), no widget view left, and the first PDF page rendered
to PNG (pdftoppm) is not blank.

Needs Chromium, Debian's libjs-mathjax, poppler-utils and playwright (Python package
only): without them the tests skip, except when ``CI`` is set, where they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fixtures")]

import fixture_lessons  # noqa: E402

from coursetools import CourseToolsError, lesson_notebooks  # noqa: E402
from coursetools import handouts as ho  # noqa: E402

LESSONS = lesson_notebooks(ROOT / "notebooks")
FIXTURE_NAME = "01_fixture_handout.ipynb"
NAMES = [FIXTURE_NAME, *(p.name for p in LESSONS)]
IN_CI = bool(os.environ.get("CI"))
LOCAL_SCHEMES = ("file", "data", "blob", "about")
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
IMAGE_MIMES = ("image/png", "image/jpeg", "image/gif", "image/webp")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _missing(reason: str):
    if IN_CI:
        pytest.fail(f"{reason} (CI is set, so the handout tests must run)")
    pytest.skip(reason)


def _require_tools():
    if ho.find_chromium() is None:
        _missing("Chromium not found (apt-get install chromium)")
    if ho.find_mathjax() is None:
        _missing("MathJax 2 not found (apt-get install libjs-mathjax)")
    if shutil.which("pdftoppm") is None:
        _missing("pdftoppm not found (apt-get install poppler-utils)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("playwright (the Python package) is not installed")


@pytest.fixture(scope="module")
def built(tmp_path_factory, request):
    """Build every handout once: {notebook name: (source path, Handout)}."""
    _require_tools()
    tmp = tmp_path_factory.mktemp("handouts")
    # Build from a snapshot of notebooks/ (lessons may be edited while the tests run;
    # files the lessons refer to come along).
    shutil.copytree(
        ROOT / "notebooks", tmp / "src", ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    fixture = fixture_lessons.write(fixture_lessons.tiny_lesson(), tmp / "src" / FIXTURE_NAME)
    sources = [fixture, *(tmp / "src" / lesson.name for lesson in LESSONS)]
    handouts = ho.build(sources, tmp / "out", verbose=False)
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print()
        for h in handouts:
            print("handout:", h.summary())
    return {h.source.name: (h.source, h) for h in handouts}


@pytest.fixture(scope="module")
def browser():
    _require_tools()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=ho.find_chromium(), headless=True, args=ho.CHROMIUM_ARGS
        )
        yield b
        b.close()


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return True
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname in LOOPBACK


def open_offline(browser, url: str):
    """A page showing ``url`` with every non-local request aborted and recorded."""
    page = browser.new_page(viewport={"width": 1100, "height": 1400})
    leaks: list[str] = []
    requests: list[str] = []

    def guard(route):
        requests.append(route.request.url)
        if _is_local(route.request.url):
            route.continue_()
        else:
            leaks.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    return page, leaks, requests


def _ink(png: bytes) -> float:
    """Fraction of dark pixels in a PNG screenshot."""
    import io

    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    return float((pixels < 128).mean())


def source_image_outputs(nb) -> int:
    return sum(
        1
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if any(m in out.get("data", {}) for m in IMAGE_MIMES)
    )


def markdown_has_math(nb) -> bool:
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        text = re.sub(r"```.*?```|`[^`\n]*`", "", cell.source, flags=re.S)
        if re.search(r"\$[^$\n]+\$|\\\(|\\\[|\\begin\{", text):
            return True
    return False


@pytest.mark.parametrize("name", NAMES)
def test_handout_html_offline_maths_and_figures(built, browser, name):
    source, handout = built[name]
    nb = nbformat.read(source, as_version=4)
    html = handout.html.read_text(encoding="utf-8")
    assert WIDGET_VIEW not in html, "a widget view was left in the handout"
    page, leaks, requests = open_offline(browser, handout.html.resolve().as_uri())
    try:
        assert not leaks, f"requests left loopback/file: {leaks}"
        assert all(_is_local(u) for u in requests)
        facts = page.evaluate(
            """() => {
              const text = [...document.querySelectorAll('.jp-RenderedMarkdown, .jp-RenderedLatex')]
                .map(e => e.innerText).join('\\n');
              const imgs = [...document.querySelectorAll('img')];
              return {
                scripts: document.querySelectorAll('script').length,
                math: document.querySelectorAll('.MathJax_SVG, .MathJax_SVG_Display, mjx-container').length,
                mathSvgs: [...document.querySelectorAll('.MathJax_SVG svg')]
                  .map(s => s.getBoundingClientRect().width),
                danglingUses: [...document.querySelectorAll('.MathJax_SVG use')]
                  .map(u => u.getAttribute('href') || u.getAttribute('xlink:href') || '')
                  .filter(h => !h.startsWith('#') || !document.getElementById(h.slice(1))),
                text: text,
                outputImgs: document.querySelectorAll('.jp-OutputArea-output img').length,
                decoded: imgs.map(i => i.complete && i.naturalWidth > 0),
                srcs: imgs.map(i => i.src.slice(0, 30)),
                widgets: document.querySelectorAll('.jupyter-widgets, .widget-slider').length,
                inputs: document.querySelectorAll('.jp-InputArea .highlight pre').length,
              };
            }"""
        )
        inked = [_ink(el.screenshot()) for el in page.query_selector_all(".MathJax_SVG")[:5]]
    finally:
        page.close()
    assert facts["scripts"] == 0, "the handout must not need any script"
    assert not facts["danglingUses"], f"formula glyphs missing: {facts['danglingUses'][:5]}"
    assert all(f > 0.02 for f in inked), f"formulas drawn without ink: {inked}"
    raw = re.findall(r"\$[^$\n]+\$", facts["text"])
    assert not raw, f"maths left untypeset: {raw[:5]}"
    if markdown_has_math(nb):
        assert facts["math"] > 0, "no MathJax output in a lesson with maths"
    assert all(w > 0 for w in facts["mathSvgs"]), "a formula rendered with zero width"
    assert facts["outputImgs"] == source_image_outputs(nb)
    assert all(facts["decoded"]), f"images not decoded: {facts['srcs']}"
    assert all(s.startswith("data:") for s in facts["srcs"]), "images must be embedded"
    assert facts["widgets"] == 0
    n_code = sum(1 for c in nb.cells if c.cell_type == "code" and c.source.strip())
    assert facts["inputs"] >= n_code, "code input must be shown"


def test_fixture_handout_details(built):
    source, handout = built[FIXTURE_NAME]
    html = handout.html.read_text(encoding="utf-8")
    # x^2, x in R, f(x) = ..., the display sum, 2x, and the LaTeX output
    assert handout.n_math == 6
    assert handout.n_images == 3  # the plot and the two widgets' static figures
    assert "FloatSlider(value" not in html, "the widget's text repr must go with the view"
    assert "SliderFigure: theta" not in html
    assert "<script" not in html.lower()
    assert re.search(r"https?://(?!www\.w3\.org/)[^\s\"'<>]+", _strip_css_comments(html)) is None


def _strip_css_comments(html: str) -> str:
    return re.sub(r"/\*.*?\*/", "", html, flags=re.S)


@pytest.mark.parametrize("name", NAMES)
def test_handout_pdf_first_page_not_blank(built, name, tmp_path):
    import numpy as np
    from PIL import Image

    _, handout = built[name]
    assert handout.pdf is not None and handout.pdf.read_bytes()[:5] == b"%PDF-"
    prefix = tmp_path / "page"
    subprocess.run(
        ["pdftoppm", "-r", "40", "-f", "1", "-l", "1", "-png", str(handout.pdf), str(prefix)],
        check=True,
    )
    (png,) = tmp_path.glob("page*.png")
    pixels = np.asarray(Image.open(png).convert("L"), dtype=float)
    assert pixels.shape[0] > 100 and pixels.shape[1] > 100
    assert pixels.std() > 5, f"first PDF page looks blank (pixel std {pixels.std():.2f})"
    assert (pixels < 128).mean() > 0.002, "hardly any dark (text) pixels on page 1"


# ----------------------------------------------------------------- no browser needed
def test_widget_view_dropped_static_figure_kept():
    nb = fixture_lessons.tiny_lesson()
    static = ho.static_outputs(nb)
    widget_cell = static.cells[3]
    assert [sorted(o.data) for o in widget_cell.outputs] == [["image/png", "text/plain"], ["image/png"]]
    assert nb.cells[3].outputs[0].data[WIDGET_VIEW]  # the input is not modified
    assert ho.count_output_images(nb) == 3


def test_lesson_links_point_to_handouts():
    html = '<a href="02_xor.ipynb">next</a> <a href="./03_general_position.ipynb#goals">x</a>'
    html += ' <a href="https://example.org/02_xor.ipynb">ext</a> <a href="09_other.ipynb">o</a>'
    out = ho._link_handouts(html, {"02_xor", "03_general_position"})
    assert 'href="02_xor.html"' in out
    assert 'href="03_general_position.html#goals"' in out
    assert 'href="https://example.org/02_xor.ipynb"' in out
    assert 'href="09_other.ipynb"' in out


def test_refuses_source_folder_and_existing_outputs(tmp_path):
    src = fixture_lessons.write(fixture_lessons.tiny_lesson(), tmp_path / "src" / "01_x.ipynb")
    before = src.read_bytes()
    with pytest.raises(CourseToolsError, match="source"):
        ho.build([src], src.parent, force=True, verbose=False)
    out = tmp_path / "out"
    out.mkdir()
    (out / "01_x.pdf").write_text("old")
    with pytest.raises(CourseToolsError, match="--force"):
        ho.build([src], out, verbose=False)
    assert (out / "01_x.pdf").read_text() == "old"
    assert src.read_bytes() == before
