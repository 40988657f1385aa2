"""Lecture slides (issues 34 and 44): one offline reveal.js deck per lesson, and its PDF.

The decks are built once for the module; each is then opened in headless Chromium,
every slide is visited and measured as it is projected (1280 x 720): nothing spills,
text is large, maths is typeset (check lines included: no ASCII maths), no title is an
authoring label, no slide is under a third full unless it holds a figure, and every
slider figure plays on its slide from the keyboard without taking reveal's arrows.
A screenshot of every slide goes to test-output/slides/.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from coursetools.shared.common import lesson_notebooks, repo_root
from coursetools.slides import build as slides

pytestmark = pytest.mark.browser
LESSONS = lesson_notebooks()
SHOTS = repo_root() / "test-output" / "slides"


def _chromium() -> str | None:
    from coursetools.shared.browser import find_chromium

    found = find_chromium()
    if found is None and os.environ.get("CI"):
        pytest.fail("Chromium is required in CI (.ci/run installs Debian's chromium)")
    return found


@pytest.fixture(scope="module")
def decks(tmp_path_factory) -> Path:
    if _chromium() is None:
        pytest.skip("no Chromium: install Debian's chromium to build and test the slides")
    out = tmp_path_factory.mktemp("slides")
    slides.build(out, verbose=False)
    return out


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    from coursetools.shared.browser import CHROMIUM_ARGS

    with sync_playwright() as pw:
        chrome = pw.chromium.launch(executable_path=_chromium(), headless=True, args=CHROMIUM_ARGS)
        yield chrome
        chrome.close()


def _secret_lines(nb) -> list[str]:
    """Lines of solutions, hidden tests and worked answers: none may reach a deck."""
    found = []
    for cell in nb.cells:
        source = cell.source
        regions = re.findall(r"### BEGIN SOLUTION(.*?)### END SOLUTION", source, re.S)
        regions += re.findall(r"### BEGIN HIDDEN TESTS(.*?)### END HIDDEN TESTS", source, re.S)
        if cell.metadata.get("nbgrader", {}).get("solution") and cell.cell_type == "markdown":
            regions.append(source)
        for region in regions:
            found += [line.strip() for line in region.splitlines() if len(line.strip()) > 30]
    return found


#: Maths typed the programmer's way, which a slide must typeset instead.
ASCII_MATHS = re.compile(r"\^|\*\*|<=|>=|!=|\bsqrt\(|\|\||\b[A-Za-z]\*\(|\b[A-Za-z]\w*_\w"
                         r"|\b(?:gamma|alpha|kappa|theta|eta|epsilon|sigma|lambda|pi)\b")

MEASURE = """() => {
  const s = Reveal.getCurrentSlide();
  const box = s.getBoundingClientRect(), scale = Reveal.getScale();
  const text = s.cloneNode(true);
  // Words of text: not the notes, a player's controls, readout and keys, nor the outline.
  text.querySelectorAll('aside.notes, script, mjx-assistive-mml, .pp-controls, .pp-status, '
                        + 'p.keys, ol.outline')
      .forEach(e => e.remove());
  const fonts = [...s.querySelectorAll('p, li, h1, h2, .caption, .formula')]
      .filter(e => !e.closest('aside')).map(e => parseFloat(getComputedStyle(e).fontSize));
  const img = s.querySelector('img.figure');
  let figure = null;
  if (img) {
    const r = img.getBoundingClientRect();
    const ratio = Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight);
    figure = {h: img.naturalHeight * ratio / scale, w: img.naturalWidth * ratio / scale,
              loaded: img.naturalWidth > 0};
  }
  // Content that spills out without making the slide scroll (a wide formula).
  let right = 0, bottom = 0;
  for (const e of s.querySelectorAll('*')) {
    // Notes are not shown; MathJax's assistive MathML is clipped to nothing on purpose,
    // and so are the glyph pieces of a stretched delimiter (measured by their mjx-ext box).
    if (e.closest('aside, mjx-assistive-mml, script') || e.parentElement.closest('mjx-ext')) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    right = Math.max(right, (r.right - box.left) / scale);
    bottom = Math.max(bottom, (r.bottom - box.top) / scale);
  }
  const shown = [...s.querySelectorAll('mjx-container')].filter(e => !e.closest('aside'));
  // The content box: what the slide shows (notes, scripts and the player's data aside).
  let x0 = 1e9, y0 = 1e9, x1 = -1e9, y1 = -1e9;
  for (const e of s.querySelectorAll('h1, h2, p, li, .formula, img, .pp-controls, .pp-status')) {
    if (e.closest('aside')) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    x0 = Math.min(x0, r.left); y0 = Math.min(y0, r.top);
    x1 = Math.max(x1, r.right); y1 = Math.max(y1, r.bottom);
  }
  const area = x1 > x0 ? (x1 - x0) * (y1 - y0) / (box.width * box.height) : 0;
  // Check lines as read, formulas left out: what remains must be prose, not ASCII maths.
  const checks = [...s.querySelectorAll('ul.checks li')].map(li => {
    const c = li.cloneNode(true); c.querySelectorAll('mjx-container').forEach(m => m.remove());
    return c.textContent; });
  const title = (s.querySelector('h1, h2') || {textContent: ''}).textContent;
  return {area: area, checks: checks, title: title,
          player: !!s.querySelector('.pp-player'),
          scrollH: Math.max(s.scrollHeight, bottom), scrollW: Math.max(s.scrollWidth, right),
          math: shown.length, mathErrors: shown.filter(e => e.querySelector('mjx-merror')).length,
          text: text.innerText,
          minFont: fonts.length ? Math.min(...fonts) : 99, figure: figure,
          notes: (s.querySelector('aside.notes') || {innerText: ''}).innerText.trim().length};
}"""


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_deck_projects_cleanly(decks: Path, browser, lesson: Path) -> None:
    deck = decks / lesson.stem
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    external, errors = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))

    def guard(route):
        if route.request.url.startswith(("file:", "data:", "about:", "blob:")):
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.goto((deck / "index.html").as_uri(), wait_until="load")
    page.wait_for_function("document.body.dataset.deckReady === '1'", timeout=60_000)
    # MathJax 3, from the deck's folder, typeset every formula (the notes' too) before
    # the deck started.
    maths = page.evaluate("""() => ({version: window.MathJax && MathJax.version,
      typeset: document.querySelectorAll('mjx-container[jax="CHTML"]').length,
      errors: [...document.querySelectorAll('mjx-merror')].map(e => e.textContent)})""")
    source = (deck / "index.html").read_text(encoding="utf-8")
    assert str(maths["version"]).startswith("3."), maths
    assert maths["typeset"] > 0 or not re.search(r"\\\(|\\\[", source), maths
    assert not maths["errors"], f"{lesson.name}: MathJax errors {maths['errors'][:5]}"
    positions = page.evaluate(
        "Reveal.getSlides().map(s => [Reveal.getIndices(s).h, Reveal.getIndices(s).v || 0])")
    problems, with_notes = [], 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    for k, (h, v) in enumerate(positions):
        page.evaluate(f"Reveal.slide({h}, {v}, 99)")
        m = page.evaluate(MEASURE)
        where = f"slide {k + 1} ({h}/{v})"
        if m["scrollH"] > 720 + 2 or m["scrollW"] > 1280 + 2:
            problems.append(f"{where}: content {m['scrollW']}x{m['scrollH']} overflows 1280x720")
        if m["minFont"] < 24:
            problems.append(f"{where}: text at {m['minFont']} px (< 24 px)")
        words = len(m["text"].split())
        if words > slides.WORD_BUDGET + 15:  # formulas typeset into many short tokens
            problems.append(f"{where}: {words} words of text")
        if m["mathErrors"]:
            problems.append(f"{where}: {m['mathErrors']} formulas with a MathJax error")
        raw = re.findall(r"\$|\\\(|\\\[", m["text"])
        if raw:
            problems.append(f"{where}: raw maths markers {raw[:3]} in {m['text'][:80]!r}")
        if m["figure"] is not None:
            fig = m["figure"]
            if not fig["loaded"]:
                problems.append(f"{where}: the figure did not load")
            # A player leaves room for its controls, its status line and its keys.
            elif fig["h"] < (0.5 if m["player"] else 0.6) * 720 and fig["w"] < 0.9 * 1280:
                problems.append(f"{where}: figure {fig['w']:.0f}x{fig['h']:.0f} is small")
        elif k > 0 and m["area"] < 1 / 3:
            problems.append(f"{where}: only {m['area']:.0%} of the slide holds content: {m['text'][:60]!r}")
        if slides.AUTHORING_LABEL.match(m["title"]) or re.match(r"exercise", m["title"], re.I):
            problems.append(f"{where}: the title {m['title']!r} is an authoring label")
        ascii_maths = [c for c in m["checks"] if ASCII_MATHS.search(c)]
        if ascii_maths:
            problems.append(f"{where}: ASCII maths in a check line: {ascii_maths[0]!r}")
        with_notes += m["notes"] > 0
        page.screenshot(path=str(SHOTS / f"{lesson.stem}-{k + 1:02d}.png"))  # every slide, looked at
    page.close()
    assert not external, f"{lesson.name}: requests outside the deck: {external[:5]}"
    assert not errors, f"{lesson.name}: console errors: {errors[:5]}"
    assert not problems, f"{lesson.name}:\n" + "\n".join(problems)
    # The lesson's prose is there as speaker notes (figure slides may have none).
    assert with_notes >= len(positions) // 2, f"{lesson.name}: notes on {with_notes} of {len(positions)}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_deck_files_hold_no_solution(decks: Path, lesson: Path) -> None:
    nb = nbformat.read(lesson, as_version=4)
    secrets = _secret_lines(nb)
    assert secrets, f"{lesson.name}: found no solution lines to look for (the test would be empty)"
    text = (decks / lesson.stem / "index.html").read_text(encoding="utf-8")
    import html as html_module

    plain = html_module.unescape(text)
    leaked = [s for s in secrets if s in plain]
    assert not leaked, f"{lesson.name}: solution text in the deck: {leaked[:3]}"
    assert "NotImplementedError" not in plain and "YOUR ANSWER HERE" not in plain


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_pdf_has_one_page_per_slide(decks: Path, lesson: Path) -> None:
    from coursetools.handouts.build import pdf_pages

    deck = decks / lesson.stem
    count = json.loads((deck / "slides.json").read_text())["slides"]
    pages = pdf_pages(deck / f"{lesson.stem}.pdf")
    if pages is None:
        pytest.skip("pdfinfo (poppler-utils) not installed")
    assert pages == count, f"{lesson.name}: {pages} PDF pages for {count} slides"


def test_slide_metadata_is_written_and_current() -> None:
    """Every cell carries Jupyter's slide metadata, as RISE reads it, and it is up to date."""
    for lesson in LESSONS:
        nb = nbformat.read(lesson, as_version=4)
        missing = [i for i, c in enumerate(nb.cells) if "slide_type" not in c.metadata.get("slideshow", {})]
        assert not missing, f"{lesson.name}: cells {missing[:5]} have no slideshow.slide_type"
        assert slides.apply_metadata(nb) == 0, (
            f"{lesson.name}: slide metadata out of date (python -m coursetools.slides --metadata)")
        hidden = [i for i, (c, t) in enumerate(zip(nb.cells, slides.slide_types(nb), strict=True))
                  if t != "skip" and slides._role(c) in slides.SKIPPED_ROLES]
        assert not hidden, f"{lesson.name}: exercise cells {hidden} would be shown"


PLAYER = """() => {
  const s = Reveal.getCurrentSlide(), p = s.querySelector('.pp-player');
  if (!p) return null;
  const img = p.querySelector('img.pp-frame');
  return {frame: p.dataset.frame, src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth > 0,
          fields: [...p.querySelectorAll('[data-k]')].map(f => f.type === 'checkbox' ? (f.checked ? 1 : 0)
            : f.tagName === 'SELECT' ? f.selectedIndex : +f.value),
          last: [...p.querySelectorAll('[data-k]')].map(f => f.type === 'checkbox' ? 1
            : f.tagName === 'SELECT' ? f.options.length - 1 : +f.max),
          keys: (s.querySelector('p.keys') || {textContent: ''}).textContent,
          at: [Reveal.getIndices().h, Reveal.getIndices().v || 0]};
}"""


def _widget_cells(lesson: Path) -> int:
    nb = nbformat.read(lesson, as_version=4)
    return sum(slides._role(c) == "widget" and slides._has_figure(c) for c in nb.cells)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_slider_figure_plays_on_its_slide(decks: Path, browser, lesson: Path) -> None:
    """Each player's keys change its frame on its slide; the arrows still change slides."""
    deck = decks / lesson.stem
    expected = _widget_cells(lesson)
    assert json.loads((deck / "slides.json").read_text())["players"] == expected
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto((deck / "index.html").as_uri(), wait_until="load")
    page.wait_for_function("document.body.dataset.deckReady === '1'", timeout=60_000)
    positions = page.evaluate(
        "Reveal.getSlides().map(s => [Reveal.getIndices(s).h, Reveal.getIndices(s).v || 0,"
        " !!s.querySelector('.pp-player')])")
    played, problems = 0, []
    for h, v, has_player in positions:
        if not has_player:
            continue
        page.evaluate(f"Reveal.slide({h}, {v}, 99)")
        start = page.evaluate(PLAYER)
        where = f"slide {h}/{v}"
        if not start["loaded"]:
            problems.append(f"{where}: the first frame did not load")
        for k, (value, last) in enumerate(zip(start["fields"], start["last"], strict=True)):
            down, up, _, _ = slides.PLAYER_KEYS[k]
            if f"{down} {up}" not in " ".join(start["keys"].split()):
                problems.append(f"{where}: the slide does not name the keys {down} {up}")
            before = page.evaluate(PLAYER)
            page.keyboard.press(up if value < last else down)
            page.wait_for_function("() => { const i = Reveal.getCurrentSlide().querySelector("
                                   "'img.pp-frame'); return i.complete; }", timeout=10_000)
            after = page.evaluate(PLAYER)
            if after["frame"] == before["frame"] or after["src"] == before["src"]:
                problems.append(f"{where}: key {up if value < last else down} did not change the frame")
            elif not after["loaded"]:
                problems.append(f"{where}: the frame {after['src']} did not load")
            if after["at"] != [h, v]:
                problems.append(f"{where}: a player key changed the slide to {after['at']}")
        page.screenshot(path=str(SHOTS / f"{lesson.stem}-player-{h}-{v}.png"))
        played += 1
    # reveal.js keeps its arrows: the last player's slide is left with ArrowRight or ArrowDown.
    if played:
        at = page.evaluate("[Reveal.getIndices().h, Reveal.getIndices().v || 0]")
        page.keyboard.press("ArrowRight" if not page.evaluate("Reveal.isLastSlide()") else "ArrowLeft")
        assert page.evaluate("[Reveal.getIndices().h, Reveal.getIndices().v || 0]") != at
    page.close()
    assert played == expected, f"{lesson.name}: {played} players on slides, {expected} slider figures"
    assert not problems, f"{lesson.name}:\n" + "\n".join(problems)


def test_check_lines_typeset_their_maths() -> None:
    from coursetools.shared.asciimath import check_line_tex

    line = "✓ k gamma <= u.w_k <= ||w_k|| <= sqrt(k) R at all 123 updates; R^2/gamma^2 = 4.0"
    typeset = check_line_tex(line)
    prose = re.sub(r"\$[^$]*\$", "", typeset)
    assert not ASCII_MATHS.search(prose), prose
    assert "\\sqrt{k}" in typeset and "\\gamma^{2}" in typeset and "at all 123 updates" in prose


def test_statements_not_labels() -> None:
    """A bold label brings its sentence; an authored slide text replaces the extracted one."""
    text = "**The running time.** Each update costs $O(N)$ operations. Then more."
    assert slides.ideas(text) == ["**The running time.** Each update costs $O(N)$ operations."]
    assert slides.clean_heading("Widget: margin against mistakes") == "Margin against mistakes"
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson 9: T"),
        nbformat.v4.new_markdown_cell(
            "## A section\n\n**Label.** " + "word " * 80,
            metadata={"slides": {"text": ["The author's point, in one sentence."]}}),
        nbformat.v4.new_markdown_cell("## Another\n\nIts first sentence. Its second one here."),
    ])
    slides.apply_metadata(nb)
    built = slides.lesson_slides(nb)
    assert built[1].items == ["The author's point, in one sentence."]
    assert built[2].items[:2] == ["Its first sentence.", "Its second one here."]  # sparse: filled


def test_word_budget_and_ideas() -> None:
    text = ("**The order matters for the run.** Shuffle.\n\n**Proof.** Let x.\n\n"
            "$$k \\le R^2/\\gamma^2$$\n\n$$\\text{a second formula}$$")
    assert slides.ideas(text) == ["The order matters for the run.", "$$k \\le R^2/\\gamma^2$$"]
    many = slides.Slide("T", items=[f"**idea number {i} with several words here**" for i in range(12)])
    fitted = slides._fit([many])
    assert len(fitted) > 1 and all(s.words() <= slides.WORD_BUDGET for s in fitted)
    assert sum(len(s.items) for s in fitted) == 12


def test_unknown_lesson_and_unsafe_out_are_refused(tmp_path: Path) -> None:
    from coursetools.shared.common import CourseToolsError

    with pytest.raises(CourseToolsError, match="--lesson 42"):
        slides.build(tmp_path, [42], pdf=False, verbose=False)
    with pytest.raises(CourseToolsError, match="refusing"):
        slides.build(repo_root() / "notebooks", [1], pdf=False, verbose=False)
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_decks_carry_mathjax3_from_the_package(decks: Path) -> None:
    """Each deck has its own MathJax 3 (the package django-static-mathjax), no MathJax 2."""
    from coursetools.shared import mathjax

    es5 = mathjax.es5_dir()
    for lesson in LESSONS:
        copied = decks / lesson.stem / "mathjax"
        assert (copied / "startup.js").read_bytes() == (es5 / "startup.js").read_bytes()
        assert (copied / "LICENSE").is_file() and not (copied / "MathJax.js").exists()
        assert '<script src="mathjax/startup.js">' in (decks / lesson.stem / "index.html").read_text()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_deck_passes_axe(decks: Path, browser, lesson: Path) -> None:
    """axe-core (issue 43) on the deck as a whole at its first slide, then on every slide
    as it is shown: no serious or critical violation, no minor one not accepted in
    docs/accessibility.md (tests/axe_support.py)."""
    from axe_support import axe_problems, axe_script

    if axe_script() is None:
        if os.environ.get("CI"):
            pytest.fail("axe-core is required in CI (npm install --prefix .cache/npm axe-core@4.14.1)")
        pytest.skip("axe-core not installed (npm install --prefix .cache/npm axe-core@4.14.1)")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto((decks / lesson.stem / "index.html").as_uri(), wait_until="load")
        page.wait_for_function("document.body.dataset.deckReady === '1'", timeout=60_000)
        # Each slide as a reader sees it at rest: a fragment fading in is, for a moment, a
        # colour between the text's and the page's (axe caught it mid-fade, at 1.9:1).
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; "
                                   "animation: none !important; }")
        problems = axe_problems(page, f"{lesson.stem} slide 1")
        positions = page.evaluate(
            "Reveal.getSlides().map(s => [Reveal.getIndices(s).h, Reveal.getIndices(s).v || 0])")
        for k, (h, v) in enumerate(positions[1:], start=2):
            page.evaluate(f"Reveal.slide({h}, {v}, 99)")
            # Only the slide on screen: the others are hidden from every reader.
            others = [".reveal .slides section:not(.present)"]
            problems += axe_problems(page, f"{lesson.stem} slide {k}", exclude=others)
    finally:
        page.close()
    # A violation found on every slide (the page's frame) is said once.
    unique = list(dict.fromkeys(p.split(": ", 1)[1] for p in problems))
    assert not unique, "\n".join(unique)
