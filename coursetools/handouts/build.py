"""Lecture handouts: ``python -m coursetools.handouts``.

Each lesson becomes ``OUT/NN_name.html`` (one self-contained page) and
``OUT/NN_name.pdf``, from the outputs stored in the notebook (nothing is executed):

* nbconvert's ``HTMLExporter`` (lab template) with code input shown and every image
  embedded as a ``data:`` URI (``embed_images=True`` covers markdown images too);
* cells follow their roles (COURSE.md section 5): a check cell shows only its
  ``✓`` output line; a widget cell shows its static figure (the widget-view bundle
  and its ``interactive(...)`` text repr are dropped, no saved widget state) with a
  caption saying it moves with sliders in the notebook; an exercise shows its
  question and nbgrader's stub, never its solution, its check cells or its written
  answer. ``--with-solutions`` builds the instructor copy (``NN_name-solutions``)
  with the solutions and the worked written answers, opened;
* every ``<details>`` is printed open (paper can't be clicked); the lesson title
  (its first heading) is the page title and the PDF footer, with the licence
  (code MIT, text and figures CC BY 4.0) and page numbers;
* code lines longer than ``CODE_COLUMNS`` are wrapped in the handout with their
  indentation kept (continuation marked ``↪``); output text wraps at spaces only;
  if the last PDF page would be nearly empty the page is printed slightly smaller;
* the maths is pre-rendered OFFLINE: headless Chromium loads the page with MathJax 3's
  ``tex-svg.js`` from the installed Python package ``django-static-mathjax``
  (``file://``, see ``coursetools.shared.mathjax``), MathJax typesets every formula to
  self-contained SVG (each with its own glyphs), then every ``<script>`` is removed
  and the rendered DOM is saved. The handout needs no script and no network to be
  read; a formula MathJax cannot typeset (an undefined macro too) stops the build;
* links between lessons (``02_xor.ipynb``) point to the sibling handouts (``.html``);
* the PDF is Chromium's print-to-PDF of the saved page (A4, page numbers).

During the build every browser request other than ``file:``/``data:`` is refused and
reported as an error, so a handout can't silently depend on the network.

Needs: Chromium (``chromium`` on the PATH, or ``$PERCEPTRON_CHROMIUM``), and the Python
packages of the ``instructor`` extra: MathJax 3 (``django-static-mathjax``) and playwright
(the Python package only; its own browser download is not used).

Usage::

    python -m coursetools.handouts                    # all lessons -> handouts/
    python -m coursetools.handouts --out DIR notebooks/04_cover_counting.ipynb
    python -m coursetools.handouts --force --no-pdf
    python -m coursetools.handouts --with-solutions   # instructor copies
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import jinja2
import nbformat
from nbconvert import HTMLExporter
from nbgrader.preprocessors import ClearSolutions
from traitlets.config import Config

from coursetools.shared.common import (
    CourseToolsError,
    generator_parser,
    lesson_notebooks,
    plan_outputs,
    progress,
    repo_root,
)
from coursetools.shared.browser import Browser, find_chromium
from coursetools.shared.cells import (
    IMAGE_MIMES,
    built_markdown_cell,
    image_alt,
    lesson_title,
    plain_text,
    static_outputs,
)
from coursetools.shared.colab import without_colab_cell
from coursetools.shared.mathjax import TEX_OPTIONS, svg_bundle
from coursetools.shared.output_cache import OutputCache, source_digest
from coursetools.shared.question_print import handout_cell
from coursetools.shared.roles import cell_role

LICENCE = "Code MIT · text and figures CC BY 4.0"
WIDGET_CAPTION = "Still picture: in the notebook, sliders move this figure."
SOLUTIONS_SUFFIX = "-solutions"
#: code lines longer than this are wrapped (with their indentation) in the handout
CODE_COLUMNS = 90
#: a last PDF page with less than this fraction of its height used is "near empty"
MIN_LAST_PAGE_FILL = 0.2
PDF_SCALES = (1.0, 0.95, 0.9, 0.85)

DEFAULT_OUT = "handouts"

# MathJax 3 configuration used at build time only: TeX input with $...$ (the lab
# template leaves the Markdown's maths as written), SVG output with a local font
# cache: every formula carries its own glyphs (<defs> inside its <svg>), so it
# survives on its own once the scripts are gone. The assistive MathML stays (for
# screen readers, clipped to nothing by MathJax's own style sheet). Done or failed,
# the page says so in window.__handoutMathDone / __handoutMathError.
_MATHJAX_CONFIG = {
    "tex": {**TEX_OPTIONS, "inlineMath": [["$", "$"], ["\\(", "\\)"]], "processEnvironments": True},
    "svg": {"fontCache": "local"},
    "options": {"enableMenu": False},
}
_MATHJAX_BLOCK = (
    "\n<script>\n{% raw %}window.MathJax = " + json.dumps(_MATHJAX_CONFIG) + ";{% endraw %}\n"
    + r"""window.MathJax.startup = {pageReady: function () {
  return MathJax.startup.defaultPageReady().then(
    function () { window.__handoutMathDone = true; },
    function (err) { window.__handoutMathError = String(err); window.__handoutMathDone = true; });
}};
</script>
<script type="text/javascript" src="{{ resources.handout_mathjax_url }}"></script>
""")

# The lab template's image blocks with alt text (handout_notebook puts it in the
# output's metadata; nbconvert would write "No description has been provided").
_IMAGE_BLOCKS = "".join(
    f"{{% block data_{short} scoped %}}\n"
    f'<div class="jp-RenderedImage jp-OutputArea-output {{{{ extra_class }}}}">\n'
    f"<img src=\"data:{mime};base64,{{{{ output.data['{mime}'] | escape_html }}}}\" "
    f"alt=\"{{{{ output | get_metadata('alt', '{mime}') | escape_html }}}}\">\n"
    f"</div>\n{{% endblock data_{short} %}}\n"
    for short, mime in (("png", "image/png"), ("jpg", "image/jpeg"))
)

# The lab template without anything that would load from a CDN (require.js,
# the widget manager, mermaid), with the local MathJax, and with print tweaks.
#: A code cell of more lines than :data:`LONG_CELL_LINES` may break across pages in a
#: handout (nbconvert writes a cell's tags as classes ``celltag_<tag>``).
LONG_CELL_TAG = "handout-long"
LONG_CELL_LINES = 30

_TEMPLATE = (
    "{%- extends 'lab/index.html.j2' -%}\n"
    "{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}\n"
    "{% block jupyter_widgets %}{% endblock jupyter_widgets %}\n"
    "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}\n"
    "{%- block html_head_js_mathjax -%}" + _MATHJAX_BLOCK + "{%- endblock html_head_js_mathjax -%}\n"
    + _IMAGE_BLOCKS +
    "{% block extra_css %}\n<style type=\"text/css\">\n"
    "img { max-width: 100%; height: auto; }\n"
    "mjx-container[jax=SVG][display=true] { overflow-x: auto; overflow-y: hidden; }\n"
    # The hidden MathML a screen reader reads is as wide as the formula unbroken: on a
    # phone it stuck out of its paragraph, which became a scroll box no key can reach
    # (axe: scrollable-region-focusable). A 1px clipped box reads the same, sticks out of nothing.
    "mjx-container mjx-assistive-mml { width: 1px !important; height: 1px !important; }\n"
    ".jp-InputArea-editor pre { white-space: pre; }\n"
    # Lab's own CSS breaks output text anywhere (word-break: break-all): wrap at spaces.
    ".jp-OutputArea-output pre { white-space: pre-wrap !important;"
    " word-break: normal !important; overflow-wrap: normal !important; }\n"
    ".handout-caption { font-style: italic; color: #444; margin: 0.2em 0 0.8em; }\n"
    ".handout-check-note { font-style: italic; color: #444; border-left: 3px solid #bbb;"
    " padding-left: 0.6em; }\n"
    # A link in running text is told apart by more than its colour (WCAG 1.4.1).
    ".jp-RenderedHTMLCommon a:link, .jp-RenderedHTMLCommon a:visited, .handout-footer a"
    " { text-decoration: underline !important; }\n"
    ".handout-footer { margin-top: 2em; font-size: 0.85em; color: #555; }\n"
    "@media print {\n"
    "  body { margin: 0; }\n"
    "  .handout-footer { display: none; }\n"
    "  .jp-Notebook { padding: 0; }\n"
    "  .jp-Cell { padding: 2px 0; }\n"
    "  .jp-InputArea-editor pre, .jp-InputArea-editor .highlight pre,"
    " .jp-OutputArea-output pre { font-size: 10px !important; line-height: 1.35; }\n"
    "  .jp-OutputArea-output img, .jp-RenderedImage, mjx-container[jax=SVG][display=true]"
    " { break-inside: avoid; }\n"
    # A code cell stays on one page; text flows (a whole markdown cell kept together
    # left half pages blank), but never a lone line at a page's foot or head.
    "  .jp-CodeCell .jp-Cell-inputWrapper { break-inside: avoid; }\n"
    # ... unless it is too long to fit beside what precedes it (a cell kept whole left
    # lesson 6's page 16 half blank): it may continue on the next page.
    f"  .celltag_{LONG_CELL_TAG} .jp-Cell-inputWrapper {{ break-inside: auto; }}\n"
    "  p, li { orphans: 3; widows: 3; }\n"
    "  h1, h2, h3, h4 { break-after: avoid; }\n"
    "  a.anchor-link { display: none; }\n"
    "}\n</style>\n{% endblock extra_css %}\n"
)

_TEMPLATE_NAME = "coursetools_handout.html.j2"
#: The Pygments style of the handouts' code: made for WCAG AA contrast.
CODE_STYLE = "a11y-light"

_FOOTER = (
    '<div style="font-size:8px;width:100%;padding:0 12mm;color:#555;'
    'display:flex;justify-content:space-between;">'
    "<span>{title}</span><span>{licence}</span>"
    '<span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)

# JavaScript run in the page once MathJax has finished: report its errors (a TeX
# error is an merror node with data-mjx-error), drop the scripts, report what is left,
# return the final document.
_FINALISE_JS = r"""
() => {
  const report = {errors: [], rawMath: []};
  if (window.__handoutMathError) report.errors.push(window.__handoutMathError);
  // (The drawn formula's node; the assistive MathML repeats it as an <merror>.)
  document.querySelectorAll('mjx-container > svg [data-mjx-error]')
    .forEach(e => report.errors.push(e.getAttribute('data-mjx-error')));
  document.querySelectorAll('script').forEach(s => s.remove());
  const re = /\$[^$\n]+\$/;
  document.querySelectorAll('.jp-RenderedMarkdown, .jp-RenderedLatex').forEach(el => {
    const m = el.innerText.match(re); if (m) report.rawMath.push(m[0]);
  });
  report.nMath = document.querySelectorAll('mjx-container[jax="SVG"]').length;
  report.html = '<!DOCTYPE html>\n' + document.documentElement.outerHTML;
  return report;
}
"""


@dataclass
class Handout:
    source: Path
    html: Path
    pdf: Path | None
    html_bytes: int
    pdf_bytes: int
    n_math: int
    n_images: int
    seconds: float
    reused: bool = False

    def summary(self) -> str:
        pdf = f", {self.pdf.name} {self.pdf_bytes / 1024:.0f} KiB" if self.pdf else ""
        return (
            f"{self.source} -> {self.html} {self.html_bytes / 1024:.0f} KiB{pdf}; "
            f"{self.n_math} formulas, {self.n_images} images; "
            + ("reused (lesson and tools unchanged)" if self.reused else f"built in {self.seconds:.1f} s")
        )


def wrap_code(source: str, columns: int = CODE_COLUMNS) -> str:
    """Wrap lines longer than ``columns`` at a space, keeping their indentation.

    A continuation line starts at the line's indentation plus four spaces and ``↪``.

    >>> print(wrap_code("    total = first_value + second_value", columns=24))
        total = first_value
            ↪ + second_value
    """
    out = []
    for line in source.split("\n"):
        indent = line[: len(line) - len(line.lstrip())]
        prefix = indent + "    ↪ "
        first = True
        while len(line) > columns:
            cut = line.rfind(" ", len(indent if first else prefix) + 1, columns)
            if cut <= 0:
                break  # one long word: leave it whole
            out.append(line[:cut].rstrip())
            line = prefix + line[cut:].lstrip()
            first = False
        out.append(line)
    return "\n".join(out)


def _caption_output():
    text = html_lib.escape(WIDGET_CAPTION)
    return nbformat.v4.new_output(
        "display_data",
        {"text/html": f'<p class="handout-caption">{text}</p>', "text/plain": WIDGET_CAPTION},
    )


def _open_details(source: str) -> str:
    return re.sub(r"<details(?![^>]*\bopen\b)", "<details open", source)


def _without_markers(source: str) -> str:
    return "\n".join(
        line for line in source.split("\n")
        if not re.search(r"(BEGIN|END) (SOLUTION|HIDDEN TESTS)", line)
    )


def check_note(cell) -> str:
    """The line a handout shows in place of an exercise's check cell.

    >>> from nbformat.v4 import new_code_cell
    >>> cell = new_code_cell("assert f(2) == 4", metadata={"nbgrader": {"grade_id": "ex3-check"}})
    >>> "begins <code>exercise 3: correct</code> when the answer passes" in check_note(cell)
    True
    """
    grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
    number = re.match(r"ex(\d+)", grade_id)
    passed = f"a line that begins <code>exercise {number[1]}: correct</code>" if number else "one line"
    return ('<p class="handout-check-note">In the notebook, a check cell follows here: run it '
            f"after your answer. It prints {passed} when the answer passes, and otherwise an "
            "error that says what is wrong.</p>")


def handout_notebook(nb, *, with_solutions: bool = False):
    """A copy of ``nb`` as the handout shows it, cell by cell according to its role.

    The student handout has no solution, no exercise check and no written answer;
    the instructor copy (``with_solutions``) has the solutions and worked answers.
    """
    nb = static_outputs(without_colab_cell(nb))  # no install cell on paper
    if not with_solutions:
        nb, _ = ClearSolutions(
            code_stub={"python": "# YOUR CODE HERE\nraise NotImplementedError()"},
            text_stub="YOUR ANSWER HERE",
        ).preprocess(nb, {})
    cells = []
    heading = ""
    for cell in nb.cells:
        try:
            role = cell_role(cell).name
        except ValueError:
            role = "lesson"
        if cell.cell_type == "markdown":
            found = re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", cell.source, flags=re.M)
            heading = found[-1] if found else heading
        else:
            _set_image_alt(cell, heading)
        if role == "exercise-check":
            # Hidden in handouts (the student version keeps them); the exercise text
            # speaks of its check, so the page says where it is and what it prints.
            cells.append(built_markdown_cell(check_note(cell), f"{cell.get('id', 'check')}-note"))
            continue
        if role == "written" and not with_solutions:
            continue
        if role == "question":  # the question with room to answer (coursetools.shared.question_print)
            cells.append(handout_cell(cell, with_solutions=with_solutions))
            continue
        if cell.cell_type == "markdown":
            cell.source = _open_details(cell.source)
        else:
            cell.source = wrap_code(_without_markers(cell.source))
            if cell.source.count("\n") >= LONG_CELL_LINES:
                tags = cell.metadata.setdefault("tags", [])
                tags.append(LONG_CELL_TAG)
        if role == "check":
            cell.metadata["transient"] = {"remove_source": True}
        elif role == "widget":
            cell.outputs.append(_caption_output())
        cells.append(cell)
    nb.cells = cells
    return nb


def _set_image_alt(cell, heading: str) -> None:
    """Alt text on every image output (the template's ``alt``), as the site makes it:
    the figure's own description (its ``text/plain``), else the heading above it."""

    for out in cell.get("outputs", []):
        data = out.get("data", {})
        for mime in IMAGE_MIMES:
            if mime in data:
                alt = image_alt(data.get("text/plain", ""), plain_text(heading))
                out.setdefault("metadata", {}).setdefault(mime, {})["alt"] = alt


def count_output_images(nb) -> int:
    """Raster images the handout must show: one per output carrying one."""
    nb = static_outputs(nb)
    return sum(
        1
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if any(m in out.get("data", {}) for m in IMAGE_MIMES)
    )


def _exporter() -> HTMLExporter:
    loader = jinja2.DictLoader({_TEMPLATE_NAME: _TEMPLATE})
    return HTMLExporter(
        template_name="lab",
        template_file=_TEMPLATE_NAME,
        extra_loaders=[loader],
        embed_images=True,
        exclude_input=False,
        exclude_input_prompt=True,  # the width goes to the code (90 columns fit A4)
        exclude_output_prompt=True,
        sanitize_html=False,
        # Pygments' colours that reach 4.5:1 on the code cells' grey (issue 43, axe).
        config=Config({"CSSHTMLHeaderPreprocessor": {"style": CODE_STYLE}}),
    )


def _link_handouts(html: str, stems: set[str], suffix: str = "") -> str:
    """Relative links to lessons built in the same run point to their handout."""

    def repl(m: re.Match) -> str:
        stem = m.group(2)
        return f"{m.group(1)}{stem}{suffix}.html{m.group(3)}" if stem in stems else m.group(0)

    return re.sub(r'(href=")(?:\./)?([0-9][0-9]_[\w.-]+?)\.ipynb((?:#[^"]*)?")', repl, html)


def notebook_to_raw_html(
    nb_path: Path, mathjax: Path, stems: set[str], *, with_solutions: bool = False
) -> str:
    """The lab-template page, still with the script of MathJax 3 (``mathjax``, a local
    ``tex-svg.js``) in it."""
    source = nbformat.read(nb_path, as_version=4)
    title = lesson_title(source, nb_path.stem)
    nb = handout_notebook(source, with_solutions=with_solutions)
    if with_solutions:
        title += " (with solutions)"
    resources = {
        "metadata": {"name": title, "path": str(nb_path.parent)},
        "handout_mathjax_url": mathjax.as_uri(),
    }
    html, _ = _exporter().from_notebook_node(nb, resources=resources)
    footer = f'<p class="handout-footer">{html_lib.escape(title)}. {LICENCE}.</p>'
    html = html.replace("</main>", footer + "</main>", 1) if "</main>" in html else html
    return _link_handouts(html, stems, SOLUTIONS_SUFFIX if with_solutions else "")


def pdf_pages(pdf: Path) -> int | None:
    """Number of pages (poppler's pdfinfo), None if pdfinfo is missing."""
    if shutil.which("pdfinfo") is None:
        return None
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    match = re.search(r"^Pages:\s+(\d+)", info.stdout, flags=re.M)
    return int(match.group(1)) if match else None


def page_fills(pdf: Path, first: int = 1, last: int | None = None) -> list[float] | None:
    """Fraction of each page's printable height that holds content (0..1), top to bottom.

    Measured on the printed pages (pdftoppm): where the lowest dark pixel row is,
    between the top and bottom margins. ``None`` without pdfinfo/pdftoppm.
    """
    pages = pdf_pages(pdf)
    if pages is None or shutil.which("pdftoppm") is None:
        return None
    import numpy as np
    from PIL import Image

    last = pages if last is None else min(last, pages)
    fills = []
    with tempfile.TemporaryDirectory() as tmp:
        prefix = Path(tmp) / "page"
        subprocess.run(
            ["pdftoppm", "-r", "30", "-gray", "-f", str(first), "-l", str(last), "-png",
             str(pdf), str(prefix)],
            check=True,
        )
        for png in sorted(Path(tmp).glob("page*.png")):
            pixels = np.asarray(Image.open(png).convert("L"))
            height = pixels.shape[0]
            top, bottom = int(height * 14 / 297), int(height * (1 - 16 / 297))  # the margins
            rows = np.flatnonzero((pixels[top:bottom] < 200).any(axis=1))
            fills.append(0.0 if rows.size == 0 else float(rows[-1] + 1) / (bottom - top))
    return fills


def last_page_fill(pdf: Path) -> float | None:
    """Fraction of the last page's printable height that holds content (0..1)."""
    pages = pdf_pages(pdf)
    fills = None if pages is None else page_fills(pdf, first=pages)
    return fills[-1] if fills else None


def build(
    notebooks: list[Path] | None = None,
    out_dir: Path | str | None = None,
    *,
    force: bool = False,
    pdf: bool = True,
    verbose: bool = True,
    with_solutions: bool = False,
    cache_dir: Path | None = None,
) -> list[Handout]:
    """Build the HTML (and PDF) handout of each notebook into ``out_dir``.

    ``with_solutions`` builds the instructor copies, ``NN_name-solutions.html/.pdf``.
    A handout whose lesson, code and tools are unchanged is copied from the cache
    (``cache_dir``, default ``.cache/handouts``; see :func:`handout_cache`).
    """
    notebooks = lesson_notebooks() if not notebooks else [Path(p) for p in notebooks]
    out_dir = repo_root() / DEFAULT_OUT if out_dir is None else Path(out_dir)
    sfx = SOLUTIONS_SUFFIX if with_solutions else ""
    exts = f"{sfx}.html,{sfx}.pdf" if pdf else f"{sfx}.html"
    plan = plan_outputs(notebooks, Path(out_dir), exts, force=force)
    chromium = find_chromium()
    if chromium is None:
        raise CourseToolsError(
            "Chromium not found: install Debian's 'chromium' or set $PERCEPTRON_CHROMIUM"
        )
    mathjax = svg_bundle()  # MathJax 3 from the Python package
    stems = {Path(src).stem for src, _ in plan}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    handouts: list[Handout] = []
    cache = handout_cache(cache_dir)
    # The links between handouts name the set of lessons built together: part of the key.
    options = (f"solutions={with_solutions}", f"pdf={pdf}", "lessons=" + ",".join(sorted(stems)),
               "chromium=" + _file_id(chromium))
    browser: Browser | None = None
    try:
        with tempfile.TemporaryDirectory(prefix="handout-") as tmp:
            bar = progress(plan, desc="handouts" + (" with solutions" if with_solutions else ""),
                           unit="lesson", enabled=verbose)
            for src, targets in bar:
                start = time.perf_counter()
                key = cache.key(Path(src), *options)
                kept = cache.restore(key, targets)
                if kept is not None:
                    handout = Handout(source=Path(src), html=targets[0], pdf=targets[1] if pdf else None,
                                      seconds=time.perf_counter() - start, reused=True, **kept)
                    handouts.append(handout)
                    if verbose:
                        bar.write(handout.summary(), file=sys.stdout)
                    continue
                if browser is None:
                    browser = Browser(chromium)
                bar.set_postfix_str(f"{Path(src).stem}: typesetting")
                html_path = targets[0]
                raw = notebook_to_raw_html(
                    Path(src), mathjax, stems, with_solutions=with_solutions
                )
                nb = nbformat.read(src, as_version=4)
                title = lesson_title(nb, Path(src).stem)
                if with_solutions:
                    title += " (with solutions)"
                # Typeset in a scratch file next to nothing: relative URLs can't resolve
                # to anything but the (embedded) data, so a missing embed shows up.
                scratch = Path(tmp) / html_path.name
                scratch.write_text(raw, encoding="utf-8")
                page = browser.page()
                try:
                    page.goto(scratch.as_uri(), wait_until="load")
                    page.wait_for_function("window.__handoutMathDone === true", timeout=180_000)
                    report = page.evaluate(_FINALISE_JS)
                finally:
                    page.close()
                if browser.blocked:
                    raise CourseToolsError(
                        f"{src}: the page tried to load from the network: "
                        + ", ".join(sorted(set(browser.blocked)))
                    )
                if report["errors"]:
                    raise CourseToolsError(
                        f"{src}: MathJax could not typeset: {report['errors'][:5]}"
                    )
                if report["rawMath"]:
                    print(f"warning: {src}: maths left untypeset: {report['rawMath'][:5]}")
                html_path.write_text(report["html"], encoding="utf-8")
                pdf_path = None
                if pdf:
                    bar.set_postfix_str(f"{Path(src).stem}: printing the PDF")
                    pdf_path = targets[1]
                    footer = _FOOTER.format(
                        title=html_lib.escape(title), licence=html_lib.escape(LICENCE)
                    )
                    _print_pdf(browser, html_path, pdf_path, footer)
                    if browser.blocked:
                        raise CourseToolsError(
                            f"{src}: the handout tried to load from the network: "
                            + ", ".join(sorted(set(browser.blocked)))
                        )
                handout = Handout(
                    source=Path(src),
                    html=html_path,
                    pdf=pdf_path,
                    html_bytes=html_path.stat().st_size,
                    pdf_bytes=pdf_path.stat().st_size if pdf_path else 0,
                    n_math=report["nMath"],
                    n_images=count_output_images(nb),
                    seconds=time.perf_counter() - start,
                )
                handouts.append(handout)
                cache.store(key, targets, {"html_bytes": handout.html_bytes, "pdf_bytes": handout.pdf_bytes,
                                           "n_math": handout.n_math, "n_images": handout.n_images})
                if verbose:
                    bar.write(handout.summary(), file=sys.stdout)
            bar.close()
    finally:
        if browser is not None:
            browser.close()
    return handouts


def _file_id(path: str) -> str:
    """A program's path, size and time: a new Chromium (which prints the PDFs) is a new key."""
    stat = Path(path).resolve().stat()
    return f"{Path(path).resolve()}:{stat.st_size}:{stat.st_mtime_ns}"


#: Below ``.cache``: built handouts by the hash of the lesson, this code and its tools.
CACHE_SUBDIR = "handouts"


def handout_cache(folder: Path | None = None) -> OutputCache:
    """The handouts' :class:`OutputCache`: keyed by the lesson file, the code of this
    package and of ``shared`` (the MathJax bundle, the cells' rules) and the versions of
    the tools that typeset and print (nbconvert, nbgrader, MathJax, Playwright)."""
    here = Path(__file__).resolve().parent
    code = source_digest([here, here.parent / "shared"],
                         ["nbconvert", "nbgrader", "django-static-mathjax", "jinja2", "playwright",
                          "pygments", "mistune"])
    return OutputCache(folder or repo_root() / ".cache" / CACHE_SUBDIR, code)


def _print_pdf(browser: Browser, html_path: Path, pdf_path: Path, footer: str) -> None:
    """Print to PDF; if the last page is nearly empty, print a little smaller."""

    def render(scale: float) -> None:
        page = browser.page()
        try:
            page.goto(html_path.resolve().as_uri(), wait_until="load")
            page.emulate_media(media="print")
            page.pdf(
                path=str(pdf_path), format="A4", scale=scale, print_background=True,
                display_header_footer=True, header_template="<span></span>",
                footer_template=footer,
                margin={"top": "14mm", "bottom": "16mm", "left": "12mm", "right": "12mm"},
            )
        finally:
            page.close()

    tries: list[tuple[int, float, float]] = []  # (pages, -fill, scale)
    for scale in PDF_SCALES:
        render(scale)
        pages, fill = pdf_pages(pdf_path), last_page_fill(pdf_path)
        if pages is None or fill is None or pages == 1 or fill >= MIN_LAST_PAGE_FILL:
            return
        tries.append((pages, -fill, scale))
    best = min(tries)  # fewest pages, then the fullest last page
    if best[2] != PDF_SCALES[-1]:
        render(best[2])


def main(argv: list[str] | None = None) -> None:
    parser = generator_parser(
        "python -m coursetools.handouts",
        "Build self-contained HTML and PDF handouts of the lessons "
        "(maths pre-rendered offline, widgets shown as their static figure).",
        DEFAULT_OUT,
    )
    parser.add_argument("--no-pdf", dest="pdf", action="store_false", help="HTML only")
    parser.add_argument(
        "--with-solutions", action="store_true",
        help="instructor copies (NN_name-solutions.html/.pdf) with solutions and worked answers",
    )
    args = parser.parse_args(argv)
    total = time.perf_counter()
    handouts = build(args.notebooks, args.out, force=args.force, pdf=args.pdf,
                     with_solutions=args.with_solutions)
    print(f"{len(handouts)} handout(s) in {time.perf_counter() - total:.1f} s")

