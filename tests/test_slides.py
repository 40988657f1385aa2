"""Lecture slides (issue 34): one offline reveal.js deck per lesson, and its PDF.

The decks are built once for the module; each is then opened in headless Chromium,
every slide is visited and measured as it is projected (1280 x 720).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from coursetools import slides
from coursetools._common import lesson_notebooks, repo_root

pytestmark = pytest.mark.browser
LESSONS = lesson_notebooks()
SHOTS = repo_root() / "test-output" / "slides"


def _chromium() -> str | None:
    from coursetools.handouts import find_chromium

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

    from coursetools.handouts import CHROMIUM_ARGS

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


MEASURE = """() => {
  const s = Reveal.getCurrentSlide();
  const box = s.getBoundingClientRect(), scale = Reveal.getScale();
  const text = s.cloneNode(true);
  text.querySelectorAll('aside.notes, script, mjx-assistive-mml')
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
  return {scrollH: Math.max(s.scrollHeight, bottom), scrollW: Math.max(s.scrollWidth, right),
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
            elif fig["h"] < 0.6 * 720 and fig["w"] < 0.9 * 1280:
                problems.append(f"{where}: figure {fig['w']:.0f}x{fig['h']:.0f} is small")
        with_notes += m["notes"] > 0
        if k in (0, 1, len(positions) // 2, len(positions) - 1):
            page.screenshot(path=str(SHOTS / f"{lesson.stem}-{k + 1:02d}.png"))
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
    from coursetools.handouts import pdf_pages

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


def test_word_budget_and_ideas() -> None:
    text = ("**The order matters for the run.** Shuffle.\n\n**Proof.** Let x.\n\n"
            "$$k \\le R^2/\\gamma^2$$\n\n$$\\text{a second formula}$$")
    assert slides.ideas(text) == ["The order matters for the run.", "$$k \\le R^2/\\gamma^2$$"]
    many = slides.Slide("T", items=[f"**idea number {i} with several words here**" for i in range(12)])
    fitted = slides._fit([many])
    assert len(fitted) > 1 and all(s.words() <= slides.WORD_BUDGET for s in fitted)
    assert sum(len(s.items) for s in fitted) == 12


def test_unknown_lesson_and_unsafe_out_are_refused(tmp_path: Path) -> None:
    from coursetools._common import CourseToolsError

    with pytest.raises(CourseToolsError, match="--lesson 42"):
        slides.build(tmp_path, [42], pdf=False, verbose=False)
    with pytest.raises(CourseToolsError, match="refusing"):
        slides.build(repo_root() / "notebooks", [1], pdf=False, verbose=False)
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_decks_carry_mathjax3_from_the_package(decks: Path) -> None:
    """Each deck has its own MathJax 3 (the package django-static-mathjax), no MathJax 2."""
    from coursetools import mathjax

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
            pytest.fail("axe-core is required in CI (pip install axe-playwright-python)")
        pytest.skip("axe-core not installed (pip install axe-playwright-python)")
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    try:
        page.goto((decks / lesson.stem / "index.html").as_uri(), wait_until="load")
        page.wait_for_function("document.body.dataset.deckReady === '1'", timeout=60_000)
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
