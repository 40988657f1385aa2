"""Lecture handouts (``python -m coursetools.handouts``).

One build (one Chromium) for the lessons present in ``notebooks/`` plus a fixture
lesson with ``$x^2$`` maths, a figure, a widget cell (widget view + static PNG) and a
LaTeX output. Each HTML handout is then opened in a fresh headless Chromium whose every
request is routed: anything but ``file:``/``data:``/``blob:``/``about:`` or loopback
fails the test. Checks: no script at all, maths typeset to SVG with no raw ``$...$``
left in the visible text, one ``<img>`` per image output of the source, every image
decoded (``naturalWidth > 0``), no widget view left, and the first PDF page rendered
to PNG (pdftoppm) is not blank.

The maths is typeset by MathJax 3 from the Python package ``django-static-mathjax``
(no system MathJax); a formula MathJax cannot typeset stops the build (tested).

Needs Chromium, poppler-utils, MathJax 3 and playwright (Python packages, the
``instructor`` extra): without them the tests skip, except when ``CI`` is set, where
they fail.
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

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "fixtures")]

import fixture_lessons  # noqa: E402

from coursetools import CourseToolsError, lesson_notebooks  # noqa: E402
from coursetools.handouts import build as ho  # noqa: E402
from coursetools.shared.browser import CHROMIUM_ARGS, find_chromium  # noqa: E402
from coursetools.shared.cells import lesson_title  # noqa: E402
from coursetools.shared.roles import cell_role  # noqa: E402

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
    if find_chromium() is None:
        _missing("Chromium not found (apt-get install chromium)")
    try:
        from coursetools.shared import mathjax

        mathjax.svg_bundle()
    except CourseToolsError as exc:
        _missing(str(exc))
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
    handouts += ho.build([fixture], tmp / "out", verbose=False, with_solutions=True)
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print()
        for h in handouts:
            print("handout:", h.summary())
    return {h.html.stem + ".ipynb": (h.source, h) for h in handouts}


@pytest.fixture(scope="module")
def browser():
    _require_tools()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=find_chromium(), headless=True, args=CHROMIUM_ARGS
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


def role(cell) -> str:
    return cell_role(cell).name


def secret_lines(nb) -> tuple[set[str], set[str]]:
    """(solution, hidden-test) lines: stripped lines found only inside marked regions
    or written answers (same rule as tests/homework/test_nbgrader.py)."""
    from coursetools.homework.build import find_regions

    regions = find_regions(nb)
    in_region = {(r.cell_index, n) for r in regions for n in range(r.begin_line, r.end_line + 1)}
    outside = {
        line.strip() for i, c in enumerate(nb.cells)
        for n, line in enumerate(c.source.split("\n"), start=1) if (i, n) not in in_region
    }
    found: dict[str, set[str]] = {"solution": set(), "hidden tests": set()}
    for r in regions:
        found[r.kind] |= {line.strip() for line in r.lines if line.strip()}
    return found["solution"] - outside, found["hidden tests"] - outside


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
                math: document.querySelectorAll('mjx-container[jax="SVG"]').length,
                mathErrors: document.querySelectorAll('mjx-container [data-mjx-error], mjx-merror').length,
                mathSvgs: [...document.querySelectorAll('mjx-container[jax="SVG"] > svg')]
                  .map(s => s.getBoundingClientRect().width),
                // MathML for screen readers: clipped to nothing (it must not print twice).
                shownMml: [...document.querySelectorAll('mjx-assistive-mml')]
                  .filter(e => getComputedStyle(e).position !== 'absolute'
                               || !getComputedStyle(e).clip.startsWith('rect(1px')).length,
                danglingUses: [...document.querySelectorAll('mjx-container use')]
                  .map(u => u.getAttribute('href') || u.getAttribute('xlink:href') || '')
                  .filter(h => !h.startsWith('#') || !document.getElementById(h.slice(1))),
                text: text,
                outputImgs: document.querySelectorAll('.jp-OutputArea-output img').length,
                decoded: imgs.map(i => i.complete && i.naturalWidth > 0),
                srcs: imgs.map(i => i.src.slice(0, 30)),
                widgets: document.querySelectorAll('.jupyter-widgets, .widget-slider').length,
                inputs: document.querySelectorAll('.jp-InputArea .highlight pre').length,
                inputText: [...document.querySelectorAll('.jp-InputArea .highlight pre')]
                  .map(e => e.innerText).join('\\n'),
                outputText: [...document.querySelectorAll('.jp-OutputArea-output')]
                  .map(e => e.innerText).join('\\n'),
                captions: document.querySelectorAll('.handout-caption').length,
                closedDetails: document.querySelectorAll('details:not([open])').length,
                outputWordBreak: [...document.querySelectorAll('.jp-OutputArea-output pre')]
                  .map(e => getComputedStyle(e).wordBreak + '/' + getComputedStyle(e).overflowWrap),
                title: document.title,
                footer: (document.querySelector('.handout-footer') || {}).innerText || '',
              };
            }"""
        )
        drawn = page.query_selector_all('mjx-container[jax="SVG"] > svg')[:5]  # not a display's row
        inked = [_ink(el.screenshot()) for el in drawn]
    finally:
        page.close()
    assert facts["scripts"] == 0, "the handout must not need any script"
    assert not facts["danglingUses"], f"formula glyphs missing: {facts['danglingUses'][:5]}"
    assert all(f > 0.02 for f in inked), f"formulas drawn without ink: {inked}"
    raw = re.findall(r"\$[^$\n]+\$", facts["text"])
    assert not raw, f"maths left untypeset: {raw[:5]}"
    if markdown_has_math(nb):
        assert facts["math"] > 0, "no MathJax output in a lesson with maths"
        assert facts["math"] == handout.n_math
    assert facts["mathErrors"] == 0 and facts["shownMml"] == 0, facts
    assert all(w > 0 for w in facts["mathSvgs"]), "a formula rendered with zero width"
    assert facts["outputImgs"] == source_image_outputs(nb)  # checks and answers hold none
    assert all(facts["decoded"]), f"images not decoded: {facts['srcs']}"
    assert all(s.startswith("data:") for s in facts["srcs"]), "images must be embedded"
    assert facts["widgets"] == 0
    from coursetools.shared.colab import is_colab_cell

    # The Colab cell is left out of the handouts (the README says how to open Colab).
    shown = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()
             and role(c) in ("lesson", "widget", "exercise") and not is_colab_cell(c)]
    assert facts["inputs"] == len(shown), "lesson, widget and exercise code is shown, no other"
    # roles: check cells show their output line only, widgets a caption, no solutions
    checks = [c for c in nb.cells if role(c) == "check"]
    assert facts["outputText"].count("✓ ") >= len(checks)
    shown_lines = {line.strip() for c in shown for line in c.source.split("\n")}
    check_only = {line.strip() for c in checks for line in c.source.split("\n")} - shown_lines
    input_lines = {line.strip() for line in facts["inputText"].splitlines()}
    leaked = check_only & input_lines - {""}
    assert not leaked, f"check code shown: {sorted(leaked)[:5]}"
    assert facts["captions"] == sum(role(c) == "widget" for c in nb.cells)
    solution, hidden = secret_lines(nb)
    assert not solution & input_lines, f"solution lines in the handout: {sorted(solution & input_lines)[:5]}"
    assert not hidden & input_lines
    assert "Worked solution" not in html
    assert facts["closedDetails"] == 0, "paper can't be clicked: every <details> is open"
    assert all(w == "normal/normal" for w in facts["outputWordBreak"]), "output breaks mid-word"
    title = lesson_title(nb, source.stem)
    assert facts["title"] == title and title in facts["footer"] and ho.LICENCE in facts["footer"]


def test_fixture_handout_details(built):
    source, handout = built[FIXTURE_NAME]
    html = handout.html.read_text(encoding="utf-8")
    # x^2, x in R, f(x) = ..., the display sum, 2x, the LaTeX output, and the two
    # formulas of the written question (its worked answer is not in this handout)
    assert handout.n_math == 8
    assert handout.n_images == 3  # the plot and the two widgets' static figures
    assert "FloatSlider(value" not in html, "the widget's text repr must go with the view"
    assert "SliderFigure: theta" not in html
    assert "<script" not in html.lower()
    assert re.search(r"https?://(?!www\.w3\.org/)[^\s\"'<>]+", _strip_css_comments(html)) is None


def _strip_css_comments(html: str) -> str:
    return re.sub(r"/\*.*?\*/", "", html, flags=re.S)


def test_instructor_copy_has_the_solutions(built):
    source, handout = built[FIXTURE_NAME.replace(".ipynb", "-solutions.ipynb")]
    assert handout.html.name == "01_fixture_handout-solutions.html"
    html = handout.html.read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)  # code is highlighted: words sit in <span>s
    assert "return 2 * x" in text and "square_sum" in text, "solutions missing"
    assert "Worked solution" in html and "Distribute the factor" in html
    assert "<details open" in html
    assert "BEGIN SOLUTION" not in html and "YOUR CODE HERE" not in html
    assert "double(3) should be 6" not in html, "exercise checks stay hidden"
    assert "(with solutions)" in html


@pytest.mark.parametrize("name", NAMES)
def test_handout_pdf_title_and_last_page(built, name):
    source, handout = built[name]
    info = subprocess.run(["pdfinfo", str(handout.pdf)], capture_output=True, text=True,
                          check=True).stdout
    title = lesson_title(nbformat.read(source, as_version=4), source.stem)
    assert re.search(rf"^Title:\s+{re.escape(title)}\s*$", info, flags=re.M), info
    pages = int(re.search(r"^Pages:\s+(\d+)", info, flags=re.M).group(1))
    fill = ho.last_page_fill(handout.pdf)
    print(f"{name}: {pages} pages, last page {fill:.0%} full")
    assert pages == 1 or fill >= ho.MIN_LAST_PAGE_FILL, f"last page only {fill:.0%} full"


def test_each_hidden_check_leaves_a_note():
    """The exercise text says "run the check cell below": the handout says where it is."""
    nb = nbformat.read(ROOT / "notebooks" / "03_general_position.ipynb", as_version=4)
    checks = [c for c in nb.cells if role(c) == "exercise-check"]
    handout = ho.handout_notebook(nb)
    notes = [c.source for c in handout.cells if "handout-check-note" in c.source]
    assert checks and len(notes) == len(checks)
    for check, note in zip(checks, notes, strict=True):
        number = check.metadata["nbgrader"]["grade_id"].split("-")[0][2:]
        assert f"exercise {number}: correct" in note
        assert check.source.strip().split("\n")[0] not in note  # the check's code stays hidden


@pytest.mark.parametrize("name", NAMES)
def test_no_handout_page_is_left_half_blank(built, name):
    """Text flows from page to page: no page before the last is under half full.

    (A markdown cell kept whole on one page used to leave half pages blank.)
    """
    _, handout = built[name]
    fills = ho.page_fills(handout.pdf)
    assert fills is not None, "pdftoppm is needed to measure the pages"
    thin = [(page, round(fill, 2)) for page, fill in enumerate(fills[:-1], start=1) if fill < 0.5]
    assert not thin, f"{handout.pdf.name}: pages under half full: {thin}"


def test_code_wrapping_keeps_indentation():
    line = "        result = some_function(first_argument, second_argument, third_argument)"
    wrapped = ho.wrap_code("def f():\n" + line, columns=50).split("\n")
    assert wrapped[0] == "def f():"
    assert all(len(w) <= 50 for w in wrapped)
    assert wrapped[1].startswith("        result = ")
    assert all(w.startswith("            ↪ ") for w in wrapped[2:]) and len(wrapped) > 2
    # the words are all there, in order
    joined = " ".join(w.strip().removeprefix("↪ ") for w in wrapped[1:])
    assert joined == line.strip()
    assert ho.wrap_code("x = 1\n    y = 2") == "x = 1\n    y = 2"


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


def test_a_formula_mathjax_cannot_typeset_stops_the_build(tmp_path):
    """An undefined macro is an error, not red text in a handout (and the finder is honest)."""
    _require_tools()
    from coursetools.shared import mathjax

    assert ho.svg_bundle() == mathjax.es5_dir() / "tex-svg.js"
    assert mathjax.version().startswith("3.")
    raw = ho.notebook_to_raw_html(
        fixture_lessons.write(fixture_lessons.tiny_lesson(), tmp_path / "01_x.ipynb"),
        ho.svg_bundle(), set(),
    )
    assert f'src="{ho.svg_bundle().as_uri()}"' in raw and "MathJax.js" not in raw
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Broken\n\nA macro that does not exist: $\\notamacro x$.")])
    src = fixture_lessons.write(nb, tmp_path / "01_broken.ipynb")
    # In a process of its own: this module's browser fixture holds playwright here.
    result = subprocess.run(
        [sys.executable, "-m", "coursetools.handouts", "--no-pdf", "--out", str(tmp_path / "out"), str(src)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert re.search(r"^error: .*MathJax could not typeset.*notamacro", result.stderr, re.M), result.stderr
    assert not (tmp_path / "out" / "01_broken.html").exists()


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


#: axe's rules that depend on the screen's width, run again at a phone's.
NARROW_RULES = ["scrollable-region-focusable"]


@pytest.mark.parametrize("name", [*NAMES, FIXTURE_NAME.replace(".ipynb", "-solutions.ipynb")])
def test_handout_passes_axe(built, browser, name):
    """axe-core (issue 43, tests/axe_support.py) on every handout, the instructor copy
    too, on a desktop and, for what overflows, on a phone's width (375 px: a long formula's
    hidden MathML once made its paragraph a scroll box no key could reach): no serious or critical
    violation, no minor one not accepted in docs/accessibility.md."""
    from axe_support import axe_problems, axe_script

    if axe_script() is None:
        _missing("axe-core not installed (npm install --prefix .cache/npm axe-core@4.14.1)")
    _, handout = built[name]
    # axe accepts any alt text; nbconvert's stand-in for a missing one says nothing.
    assert "No description has been provided" not in handout.html.read_text(encoding="utf-8")
    page, leaks, _ = open_offline(browser, handout.html.resolve().as_uri())
    try:
        problems = axe_problems(page, handout.html.name)
        # What a narrow screen changes: what overflows, so what scrolls.
        page.set_viewport_size({"width": 375, "height": 800})
        problems += axe_problems(page, f"{handout.html.name} at 375 px", rules=NARROW_RULES)
    finally:
        page.close()
    assert not leaks
    assert not problems, "\n".join(problems)


def test_an_unchanged_handout_is_reused_and_an_edited_one_rebuilt(tmp_path):
    """The handouts cache (issue 51): same lesson and tools, same bytes, no Chromium run;
    one changed sentence, a new build."""
    _require_tools()
    from concurrent.futures import ThreadPoolExecutor

    def build(out: str):  # in a thread of its own: this worker may hold a Playwright loop
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(ho.build, [src], tmp_path / out, pdf=False, verbose=False,
                               cache_dir=tmp_path / "cache").result()

    src = fixture_lessons.write(fixture_lessons.tiny_lesson(), tmp_path / "src" / FIXTURE_NAME)
    (first,) = build("a")
    (again,) = build("b")
    assert not first.reused and again.reused
    assert again.html.read_bytes() == first.html.read_bytes()
    assert (again.n_math, again.n_images) == (first.n_math, first.n_images)
    nb = nbformat.read(src, as_version=4)
    prose = next(c for c in nb.cells if c.cell_type == "markdown")
    prose.source += "\n\nA sentence added by the test."
    nbformat.write(nb, src)
    (edited,) = build("c")
    assert not edited.reused
    assert "A sentence added by the test." in edited.html.read_text(encoding="utf-8")
