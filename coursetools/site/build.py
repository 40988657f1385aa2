"""The course as a static website: ``python -m coursetools.site``.

Builds ``site/`` (or ``--out DIR``) with Sphinx, MyST-NB and sphinx-book-theme (the
Jupyter Book stack) from the outputs stored in the lessons; no kernel runs:

* every lesson goes through ``coursetools.homework.build.student_version`` (nbgrader's own
  preprocessors): solution code, hidden tests and written answers never reach the
  site. The stored outputs of every other cell are put back; those of exercise
  answers and their checks are dropped (they were made by the solutions);
* slider cells become players (``coursetools.shared.players.frames``): the figure moves with native
  HTML controls and no kernel, every frame drawn at build time by the widget's own
  redraw code (the first one is the lesson's stored figure, byte for byte), with a line
  saying which controls are coarser than in the notebook and links to Binder and Colab;
* every figure carries alt text: the image's own description (its ``text/plain``)
  when it has one, else the nearest heading above it;
* lesson 0 is the landing page, lessons 1-9 follow in the sidebar, then a "How to use
  this course" page and the licence texts with the citation (``CITATION.cff``), to
  which every page's footer links;
* a lesson that was renumbered keeps a page at its old address (:data:`MOVED`) that
  forwards to its new one, so old links and bookmarks still land on it;
* the site is self-contained: MathJax 3 (the Python package ``django-static-mathjax``,
  see ``coursetools.shared.mathjax``) is copied into ``_static/mathjax`` and Sphinx's own
  search works offline.

Usage::

    python -m coursetools.site                 # -> site/
    python -m coursetools.site --out DIR
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import nbformat

from coursetools.shared.common import BRANCH, REPO, CourseToolsError, repo_root
from coursetools.shared.colab import colab_url, without_colab_cell
from coursetools.shared.players.frames import CACHE_DIR, Player, player_frames, player_html, render_players
from coursetools.shared.cells import (
    IMAGE_MIMES,
    built_markdown_cell,
    image_alt,
    lesson_title,
    plain_text,
    static_outputs,
)
from coursetools.homework.build import student_version
from coursetools.shared.mathjax import STARTUP, chtml_config, copy_mathjax
from coursetools.site.page_weight import first_load_bytes
from coursetools.shared.players.a11y import figure_data_table
from coursetools.shared.players.assets import PLAYER_CSS, PLAYER_JS
from coursetools.shared.roles import cell_role
from coursetools.site import questions as site_questions
from coursetools.site.safety import PageCheck, cell_label, refuse_unsafe
from coursetools.site.a11y import A11Y_CSS, A11Y_JS, names_match_labels, sidebar_landmark
from coursetools.site.incremental import BUILD_SUBDIR, copy_for_editing, sync_tree
from perclib.plotting import FIGURE_DATA_MIME

DEFAULT_OUT = "site"
REPO_URL = f"https://github.com/{REPO}"
BINDER_ROOT = f"https://mybinder.org/v2/gh/{REPO}/{BRANCH}?urlpath=lab/tree/notebooks/"
INDEX = "00_index"
HOW_TO = "how_to_use"
LICENCE = "licence"
WIDGET_CAPTION = (
    "Still picture: in the notebook, sliders move this figure. "
    '<a href="{url}">Open this lesson on Binder</a> to move them.'
)
#: where the site's MathJax 3 goes, under _static/ (coursetools.shared.mathjax copies it)
MATHJAX_DIR = "mathjax"
#: the script every page with maths loads (Sphinx's ``mathjax_path``, under _static/)
MATHJAX_PATH = f"{MATHJAX_DIR}/{STARTUP}"
#: MathJax 3's configuration on every page with maths (Sphinx's ``mathjax3_config``)
MATHJAX3_CONFIG = chtml_config()
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", flags=re.M)


def binder_url(stem: str) -> str:
    """The Binder launch link of a lesson (README's pattern)."""
    return f"{BINDER_ROOT}{stem}.ipynb"


_SUMMARY = re.compile(r"^(\s*)(.*</summary>)[ \t]*(.*)$")
_DETAILS_END = re.compile(r"^(\s*)(.*?)[ \t]*(</details>.*)$")


_SUMMARY_TEXT = re.compile(r"<summary>.*?</summary>")
_INLINE_MATH = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")


def _math_span(m: re.Match[str]) -> str:
    # A summary is raw HTML to MyST, so its $...$ would stay raw: mark it up as MyST
    # marks inline maths, for MathJax (which processes class "math" only).
    return f'<span class="math notranslate nohighlight">\\({html.escape(m.group(1), quote=False)}\\)</span>'


def markdown_in_details(source: str) -> str:
    r"""Blank lines around a ``<details>`` body, so MyST parses it as Markdown (maths too).

    Without them the body is part of an HTML block and its ``$...$`` stays raw text.
    Each line keeps its indentation (a ``<details>`` inside a list item stays there).

    >>> print(markdown_in_details("<details><summary>Answer</summary>$x$ is 1.</details>"))
    <details><summary>Answer</summary>
    <BLANKLINE>
    $x$ is 1.
    <BLANKLINE>
    </details>
    >>> print(markdown_in_details("<details><summary>Why $1/\\alpha$</summary>"))
    <details><summary>Why <span class="math notranslate nohighlight">\(1/\alpha\)</span></summary>
    <BLANKLINE>
    >>> print(markdown_in_details("  <details><summary>Why</summary>\n  $y$\n  </details>"))
      <details><summary>Why</summary>
    <BLANKLINE>
      $y$
    <BLANKLINE>
      </details>
    """
    out: list[str] = []
    for line in source.split("\n"):
        line = _SUMMARY_TEXT.sub(lambda m: _INLINE_MATH.sub(_math_span, m.group(0)), line)
        m = _SUMMARY.match(line)
        if m:
            out += [m.group(1) + m.group(2), ""]
            if not m.group(3).strip():
                continue
            line = m.group(1) + m.group(3)
        m = _DETAILS_END.match(line)
        if m and "<details" not in m.group(2):
            out += ([m.group(1) + m.group(2)] if m.group(2) else []) + ["", m.group(1) + m.group(3)]
        else:
            out.append(line)
    return "\n".join(out)


def _role(cell) -> str:
    try:
        return cell_role(cell).name
    except ValueError:
        return "lesson"


FRAMES_URL = "_static/frames/"


def site_notebook(nb, stem: str, players: list[Player] | None = None,
                  questions: dict[str, list[dict]] | None = None):
    """The lesson as the site shows it (the input is not modified).

    The student version with the stored outputs of ordinary cells put back, slider
    cells as players (``players``; without them, their still figure with a caption),
    alt text on every image and no execution counts.
    """
    # A player names its slider cell by index in the stored lesson: key it by cell id,
    # which survives taking the Colab cell out.
    by_cell = {nb.cells[p.cell].get("id", p.cell): p for p in players or []}
    nb = without_colab_cell(nb)  # the page's Colab button says how to open it there
    student = student_version(nb, stem)
    shown = static_outputs(nb)
    heading = ""
    answers: dict[str, list[str]] = {}
    for index, (cell, source) in enumerate(zip(student.cells, shown.cells, strict=True)):
        if cell.cell_type == "markdown":
            cell.source = markdown_in_details(cell.source)
            found = _HEADING.findall(cell.source)
            heading = plain_text(found[-1]) if found else heading
            continue
        cell.execution_count = None
        role = _role(source)
        if role in ("exercise", "exercise-check") or cell.metadata.get("nbgrader", {}).get("solution"):
            continue  # made by the solution (the student version clears them too)
        if role == "question":  # self-check questions: coursetools.site.questions
            shown = site_questions.site_cell(cell, source, (questions or {}).get(source.get("id", "")), stem)
            if shown:
                answers[source.get("id", str(index))] = shown
            continue
        outputs = []
        for out in source.get("outputs", []):
            if out.output_type == "error":
                continue
            if "execution_count" in out:
                out["execution_count"] = None
            data = out.get("data", {})
            if any(m in data for m in IMAGE_MIMES):
                alt = image_alt(data.get("text/plain", ""), heading)
                cell.metadata.setdefault("mystnb", {})["image"] = {"alt": alt}
            table = data.pop(FIGURE_DATA_MIME, None)
            outputs.append(out)
            if table:  # the numbers behind a curve, under it (a player's table, closed)
                markup = figure_data_table(table, f"fd-{stem[:2]}-{index}-{len(outputs)}")
                outputs.append(nbformat.v4.new_output("display_data", {"text/html": markup}))
        key = source.get("id", index)
        if role == "widget" and key in by_cell:
            player = player_html(by_cell[key], frames_url=FRAMES_URL, binder=binder_url(stem),
                                 colab=colab_url(f"{stem}.ipynb"), uid=f"pp-{stem[:2]}-{index}")
            outputs = [nbformat.v4.new_output("display_data", {"text/html": player})]
            cell.metadata.get("mystnb", {}).pop("image", None)
        elif role == "widget":
            caption = WIDGET_CAPTION.format(url=html.escape(binder_url(stem)))
            outputs.append(
                nbformat.v4.new_output(
                    "display_data",
                    {"text/html": f'<p class="site-caption">{caption}</p>',
                     "text/plain": re.sub(r"<[^>]+>", "", caption)},
                )
            )
        cell.outputs = outputs
    student.metadata.pop("widgets", None)
    if answers:  # "Show answer" fetches them: write_sources writes them beside the pages
        student.metadata["site_answers"] = answers
    return student


def count_figures(nb) -> int:
    """Images a lesson's page must show (one per stored image output)."""
    return sum(
        1
        for cell in static_outputs(nb).cells
        if cell.cell_type == "code" and _role(cell) not in ("exercise", "exercise-check")
        for out in cell.get("outputs", [])
        if any(m in out.get("data", {}) for m in IMAGE_MIMES)
    )


def citation() -> str:
    """One-line citation from ``CITATION.cff``."""
    import yaml

    cff = yaml.safe_load((repo_root() / "CITATION.cff").read_text(encoding="utf-8"))
    authors = ", ".join(a.get("name") or f"{a.get('given-names', '')} {a.get('family-names', '')}".strip()
                        for a in cff.get("authors", []))
    year = str(cff.get("date-released", ""))[:4]
    return f"{authors} ({year}). {cff['title']} (version {cff.get('version', '')}). {cff['repository-code']}"


def how_to_page() -> str:
    """Markdown of the "How to use this course" page."""
    # README's command, one step per line so it reads without scrolling.
    quick = (
        "python3 -m venv .venv && \\\n"
        '  .venv/bin/python -m pip install -e ".[course]" ./course-settings && \\\n'
        "  .venv/bin/python -m jupyter lab --ServerApp.root_dir=. notebooks/00_index.ipynb"
    )
    return textwrap.dedent(f"""\
        # How to use this course

        This website shows every lesson as it was last run: text, code, results and
        figures. To run the code and move the sliders, open the lessons as notebooks.

        ## Students

        - **Binder (nothing to install).** Every lesson page has a launch button (the
          rocket at the top) and each slider figure a link. The whole course:
          [launch on Binder]({binder_url(INDEX)}).
        - **On your computer.** With Python 3.11 or newer, from a clone of
          [the repository]({REPO_URL}), run the README's first quick-start command:

          ```bash
          @QUICK@
          ```
        - **Google Colab.** Every lesson page has a Colab button (under the rocket), which
          opens `{colab_url('NN_name.ipynb')}`.
          The lesson's first code cell installs the course package there (and does nothing
          anywhere else); run it first. The lessons and their sliders are tested on the
          versions Colab ships (ipywidgets 7.7.1, IPython 7.34).
        - **Exercises.** Each lesson ends with exercises. On this site their answers are
          stubs (`raise NotImplementedError()`); solve them in the notebook, where a
          check cell under each answer tells you when it is right.

        ## Instructors

        From the repository folder, after `pip install -e ".[instructor]"` (or the
        README's test install):

        ```bash
        .venv/bin/python -m coursetools.homework   # student versions -> homework/
        .venv/bin/python -m coursetools.handouts   # HTML + PDF handouts -> handouts/
        .venv/bin/python -m coursetools.site       # this website -> site/
        ```

        - **Homework** templates are nbgrader's release: solutions become stubs, hidden
          tests are removed, the checks stay.
        - **Grading** works with nbgrader as it is (`generate_assignment`, `autograde`,
          `formgrader`); [the instructors' guide]({REPO_URL}/blob/{BRANCH}/docs/instructors.md)
          walks through it, and [the class guide]({REPO_URL}/blob/{BRANCH}/docs/classroom.md)
          runs a class on JupyterHub.
        - **Handouts** are self-contained HTML and PDF pages, with `--with-solutions`
          for instructor copies.
        - **This site** is built from the stored outputs without running a kernel,
          from the student versions: no solution is published.

        ## Licence and citation

        The lesson text and figures are under CC BY 4.0, the code under the MIT licence
        (both texts: [Licences and citation]({LICENCE}.md)). Please cite the course as:
        {citation()}
        """).replace("@QUICK@", quick.replace("\n", "\n  "))


def licence_page() -> str:
    """Markdown of the "Licences and citation" page: the licence texts and CITATION.cff."""
    root = repo_root()

    def text(name: str) -> str:
        return (root / name).read_text(encoding="utf-8").strip()

    return (
        "# Licences and citation\n\n"
        f"## How to cite the course\n\n{citation()}\n\n"
        f"The citation file, [CITATION.cff]({REPO_URL}/blob/{BRANCH}/CITATION.cff):\n\n"
        f"```yaml\n{text('CITATION.cff')}\n```\n\n"
        "## Lesson text and figures: CC BY 4.0\n\n"
        f"```text\n{text('LICENSE-CONTENT')}\n```\n\n"
        "## Code: MIT\n\n"
        f"```text\n{text('LICENSE')}\n```\n"
    )


def _conf(title: str) -> str:
    # Every page sits at the site's top level, so a relative link works from all of them.
    footer = (
        f'Text and figures: <a href="{LICENCE}.html">CC BY 4.0</a>; '
        f'code: <a href="{LICENCE}.html">MIT</a>. '
        f"Cite as: {html.escape(citation())} "
        f'(<a href="{LICENCE}.html">CITATION.cff</a>).'
    )
    return textwrap.dedent(f"""\
        project = {title!r}
        author = "The perceptron-course contributors"
        root_doc = {INDEX!r}
        extensions = ["myst_nb"]
        exclude_patterns = ["_build"]
        myst_enable_extensions = ["dollarmath", "amsmath"]
        myst_dmath_double_inline = True  # $$...$$ inside a paragraph, as Jupyter allows
        suppress_warnings = ["myst.header", "mystnb.unknown_mime_type"]
        nb_execution_mode = "off"
        nb_output_stderr = "remove"
        nb_ipywidgets_js = {{}}
        html_theme = "sphinx_book_theme"
        # Figures have white backgrounds; without a default the theme logs a console error.
        html_context = {{"default_mode": "light"}}
        html_title = {title!r}
        html_static_path = ["_static"]
        html_css_files = ["site.css", "player.css", "questions.css"]
        html_js_files = ["search_math.js", "player.js", "questions.js", "a11y.js"]
        html_copy_source = False
        html_show_sourcelink = False
        html_show_sphinx = False
        html_last_updated_fmt = None
        # MathJax 3 from the site itself (the package django-static-mathjax), not a CDN.
        mathjax_path = {MATHJAX_PATH!r}
        # MyST marks the page tex2jax_ignore and each formula "math"; with its default
        # myst_update_mathjax it would write the same processHtmlClass into
        # mathjax3_config (or, on Sphinx 9 when that is unset, mathjax4_config): the
        # whole configuration is given here instead, the same on every Sphinx.
        myst_update_mathjax = False
        mathjax3_config = {MATHJAX3_CONFIG!r}
        html_theme_options = {{
            "repository_url": {REPO_URL!r},
            "repository_branch": {BRANCH!r},
            "path_to_docs": "notebooks",
            "use_repository_button": True,
            "use_download_button": False,
            "launch_buttons": {{"binderhub_url": "https://mybinder.org",
                               "colab_url": "https://colab.research.google.com",
                               "notebook_interface": "jupyterlab"}},
            "extra_footer": {footer!r},
            "navigation_with_keys": False,
        }}
        """)


_CSS = """\
.site-caption { font-style: italic; color: #555; margin: 0.2em 0 1em; }
.cell_output img { max-width: 100%; height: auto; }
/* A long URL or command in running text wraps instead of running into the sidebar. */
p code.literal, li code.literal, td code.literal { overflow-wrap: anywhere; }
p code.literal span.pre, li code.literal span.pre, td code.literal span.pre { white-space: normal; }
/* The theme's top bar repeats the sidebar's search (and is empty on a phone). */
#pst-header { display: none; }
/* The search field's magnifier is drawn over the field: the typed text starts after it. */
form.bd-search input.form-control { padding-left: 2.25rem; }
.site-downloads { font-size: 0.9em; color: #555; }
/* A check cell's line is a sentence: it wraps (in a scroll box its end was out of view). */
.tag_check .cell_output pre { white-space: pre-wrap; overflow-wrap: break-word; }
/* Dark mode: the theme paints each HTML output light with dark text (outputs are drawn
   for a white page) but leaves its links and captions in dark-mode colours, light on
   light (axe: 1.7:1); there they take the output's colours. The downloads line's grey
   was for a white page. */
html[data-theme="dark"] .bd-content div.cell_output .text_html caption { color: inherit; }
html[data-theme="dark"] .bd-content div.cell_output .text_html .pp-note a { color: #0b4f7c; }
html[data-theme="dark"] .site-downloads { color: #b8c0c8; }
"""

# The search page shows snippets of the pages' text, formulas as raw TeX: typeset
# them with the site's MathJax 3 as the results arrive (one typeset at a time).
_SEARCH_MATH_JS = """\
(function () {
  if (!/\\/search\\.html$/.test(window.location.pathname)) return;
  // The pages' configuration, without the typesetting at start (there is nothing yet).
  window.MathJax = @MATHJAX_CONFIG@;
  var root = document.documentElement.dataset.content_root || "./";
  var script = document.createElement("script");
  script.src = root + "_static/@MATHJAX_PATH@";
  // MathJax 3 is ready once its startup has run and its startup promise has resolved.
  var ready = new Promise(function (resolve, reject) {
    script.onload = resolve;
    script.onerror = function () { reject(new Error("could not load " + script.src)); };
  }).then(function () { return window.MathJax.startup.promise; });
  document.head.appendChild(script);
  var typesetting = ready;
  function typeset(results) {
    typesetting = typesetting
      .then(function () { return window.MathJax.typesetPromise([results]); })
      .catch(function (err) { console.error("MathJax: " + err); });
  }
  var pending = null;
  var watch = new MutationObserver(function () {
    if (pending) window.clearTimeout(pending);
    pending = window.setTimeout(function () {
      var results = document.getElementById("search-results");
      // A complete \\(...\\) or \\[...\\] (a snippet may cut one in half: leave that).
      var raw = results && /\\\\\\([\\s\\S]*?\\\\\\)|\\\\\\[[\\s\\S]*?\\\\\\]/.test(results.innerText);
      if (raw) { typeset(results); } else { pending = null; }
    }, 200);
  });
  // Snippets come from the text of each page's main block, which also holds the
  // theme's buttons ("System Settings Light Dark"): leave those out.
  function patchSnippets() {
    // searchtools.js declares Search with const: a global name, not a window property.
    if (typeof Search === "undefined" || Search.sitePatched) return;
    var toText = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      var doc = new DOMParser().parseFromString(htmlString, "text/html");
      doc.querySelectorAll(".bd-header-article, .prev-next-area").forEach(function (e) { e.remove(); });
      return toText(doc.documentElement.outerHTML, anchor);
    };
    Search.sitePatched = true;
  }
  patchSnippets();
  document.addEventListener("DOMContentLoaded", function () {
    patchSnippets();
    watch.observe(document.body, {childList: true, subtree: true});
  });
})();
"""



def search_math_js() -> str:
    """The search page's script, with the site's MathJax path and configuration.

    >>> "_static/mathjax/startup.js" in search_math_js() and "@" not in search_math_js()
    True
    """
    config = {**MATHJAX3_CONFIG, "startup": {"typeset": False}}
    return (_SEARCH_MATH_JS.replace("@MATHJAX_PATH@", MATHJAX_PATH)
            .replace("@MATHJAX_CONFIG@", json.dumps(config)))


_REDIRECT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>The perceptron: an executable course</title>
<meta http-equiv="refresh" content="0; url={page}.html"></head>
<body><p><a href="{page}.html">The perceptron: an executable course</a></p></body></html>
"""


#: Lesson pages that moved, old stem -> new stem (docs/renumbering.md): the old address
#: keeps a small page that forwards to the new one.
MOVED: dict[str, str] = {"08_statistical_mechanics": "09_statistical_mechanics"}

_MOVED_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>This lesson has moved</title>
<link rel="canonical" href="{page}.html">
<meta http-equiv="refresh" content="0; url={page}.html"></head>
<body><p>This lesson has moved: <a href="{page}.html">{title}</a>.</p></body></html>
"""


def moved_pages(titles: dict[str, str]) -> dict[str, str]:
    """The forwarding pages of :data:`MOVED`, file name -> HTML, given the lessons' titles
    (stem -> title).

    >>> pages = moved_pages({"08_kernels": "Lesson 8", "09_statistical_mechanics": "Lesson 9"})
    >>> list(pages), 'url=09_statistical_mechanics.html' in pages["08_statistical_mechanics.html"]
    (['08_statistical_mechanics.html'], True)
    """
    pages = {}
    for old, new in MOVED.items():
        if old in titles:
            raise CourseToolsError(f"{old} is a lesson again: remove it from site.MOVED")
        if new not in titles:
            raise CourseToolsError(f"site.MOVED forwards {old} to {new}, which is not a lesson")
        pages[f"{old}.html"] = _MOVED_PAGE.format(page=new, title=html.escape(titles[new]))
    return pages


_IMG = re.compile(r"<img\b[^>]*>")


def theme_image_alt(page: str) -> str:
    """Alt text for the theme's own icons that lack one (older sphinx-book-theme's logos).

    Only images under ``_static/``; the lessons' figures get theirs from ``site_notebook``.

    >>> theme_image_alt('<img src="_static/images/logo_binder.svg">')
    '<img alt="Binder logo" src="_static/images/logo_binder.svg">'
    >>> theme_image_alt('<img alt="" src="_static/images/logo_colab.png" />')
    '<img alt="Colab logo" src="_static/images/logo_colab.png" />'
    """

    def fix(m: re.Match) -> str:
        tag = m.group(0)
        src = re.search(r'\bsrc="([^"]*)"', tag)
        if not src or "_static/" not in src.group(1) or re.search(r'\balt="\s*[^"\s]', tag):
            return tag
        words = re.split(r"[_\-\s]+", Path(src.group(1)).stem)
        name = " ".join(words[1:]).title() + " logo" if words[0] == "logo" else " ".join(words)
        tag = re.sub(r'\s*\balt="[^"]*"', "", tag)
        return tag.replace("<img", f'<img alt="{html.escape(name)}"', 1)

    return _IMG.sub(fix, page)


#: Where a lesson page's download links point (inside the site, beside its pages).
DOWNLOADS = "_static/downloads"


def download_links(stem: str, pdf: bool) -> str:
    """The line under a lesson's title: its notebook (student version) and handout PDF.

    >>> print(download_links("05_convergence", pdf=False))  # doctest: +NORMALIZE_WHITESPACE
    <p class="site-downloads">Download: <a href="_static/downloads/05_convergence.ipynb"
    download>the notebook</a> (student version: exercises as stubs, no outputs; run it in
    JupyterLab)</p>
    """
    links = [f'<a href="{DOWNLOADS}/{stem}.ipynb" download>the notebook</a> (student version: '
             "exercises as stubs, no outputs; run it in\nJupyterLab)"]
    if pdf:
        links.append(f'<a href="{DOWNLOADS}/{stem}.pdf" download>the handout (PDF)</a>')
    return '<p class="site-downloads">Download: ' + " · ".join(links).replace("> (", ">\n(") + "</p>"


def write_downloads(target: Path, notebooks: list[Path], handouts: Path | None) -> dict[str, bool]:
    """Each lesson's student notebook, and its handout PDF if ``handouts`` holds one.

    Returns, per lesson stem, whether a PDF was included. Handouts take minutes to print
    (Chromium): the site does not print them, it ships the ones already built
    (``python -m coursetools.handouts`` first, into ``handouts/``).
    """
    target.mkdir(parents=True, exist_ok=True)
    found = {}
    for path in notebooks:
        if path.stem == INDEX:
            continue
        nbformat.write(student_version(nbformat.read(path, as_version=4), path.stem),
                       target / path.name)
        pdf = handouts / f"{path.stem}.pdf" if handouts is not None else None
        found[path.stem] = bool(pdf and pdf.is_file())
        if found[path.stem]:
            shutil.copyfile(pdf, target / pdf.name)
    return found


def _html_outputs(nb) -> set[str]:
    return {"".join(v) if isinstance(v, list) else v
            for cell in nb.cells for out in cell.get("outputs", [])
            for mime, v in out.get("data", {}).items() if mime == "text/html"}


def _mark_cells(check: PageCheck, nb, site_nb, path: Path) -> None:
    """Markers around each cell of ``site_nb`` (the site version of the lesson ``nb``),
    named as the lesson numbers them; the HTML outputs the lesson does not carry itself
    (players, question cards, data tables, captions) are the course's own markup."""
    name = f"notebooks/{path.name}"
    index = {cell.get("id"): (i, cell) for i, cell in enumerate(nb.cells) if cell.get("id")}
    labels: list[str | None] = []
    for k, cell in enumerate(site_nb.cells):
        if cell.metadata.pop("course_own", False):
            labels.append(None)  # a cell the build added (the download line)
            continue
        i, original = index.get(cell.get("id"), (k, cell))
        labels.append(cell_label(name, i, original))
    check.mark(path.stem, name, site_nb, labels, _html_outputs(site_nb) - _html_outputs(nb))


def write_sources(src: Path, notebooks: list[Path], players: dict[str, list[Player]] | None = None,
                  frames_dir: Path | None = None,
                  questions: dict[str, dict[str, list[dict]]] | None = None,
                  handouts: Path | None = None, check: PageCheck | None = None) -> None:
    """Write the Sphinx source folder: conf.py, the site versions and the extra page.

    ``check``, if given, gets each lesson cell wrapped in its markers and the markup the
    course put into the cells, to read the built pages with (``coursetools.site.safety``).
    """
    index_nb = None
    players = players or {}
    for path in notebooks:  # every lesson checked before anything is written
        refuse_unsafe(nbformat.read(path, as_version=4), f"notebooks/{path.name}")
    pdfs = write_downloads(src / DOWNLOADS, notebooks, handouts)
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        site_nb = site_notebook(nb, path.stem, players.get(path.stem), (questions or {}).get(path.stem))
        answers = site_nb.metadata.pop("site_answers", None)
        if answers:
            site_questions.write_answers(src / "_static", path.stem, answers)
        if path.stem != INDEX:
            title = next((i for i, c in enumerate(site_nb.cells) if c.cell_type == "markdown"), -1)
            site_nb.cells.insert(title + 1, built_markdown_cell(
                download_links(path.stem, pdfs.get(path.stem, False)), "site-downloads"))
            if check is not None:
                site_nb.cells[title + 1].metadata["course_own"] = True
        if check is not None:
            _mark_cells(check, nb, site_nb, path)
        if path.stem == INDEX:
            index_nb = site_nb
            continue
        nbformat.write(site_nb, src / path.name)
    if index_nb is None:
        raise CourseToolsError(f"notebooks/{INDEX}.ipynb not found: it is the landing page")
    lessons = "\n".join(p.stem for p in notebooks if p.stem != INDEX)
    totals = {stem: len(qs) for stem, qs in (questions or {}).items() if qs}
    if totals:  # self-check progress per lesson (coursetools.site.questions)
        index_nb.cells.append(built_markdown_cell(site_questions.index_html(totals), "site-progress"))
    index_nb.cells.append(built_markdown_cell(
        f"```{{toctree}}\n:hidden:\n:caption: Lessons\n\n{lessons}\n```\n\n"
        f"```{{toctree}}\n:hidden:\n:caption: About\n\n{HOW_TO}\n{LICENCE}\n```",
        "site-contents",
    ))
    nbformat.write(index_nb, src / f"{INDEX}.ipynb")
    (src / f"{HOW_TO}.md").write_text(how_to_page(), encoding="utf-8")
    (src / f"{LICENCE}.md").write_text(licence_page(), encoding="utf-8")
    (src / "conf.py").write_text(_conf("The perceptron: an executable course"), encoding="utf-8")
    static = src / "_static"
    static.mkdir(exist_ok=True)  # the downloads are already in it
    (static / "site.css").write_text(_CSS + A11Y_CSS, encoding="utf-8")
    (static / "search_math.js").write_text(search_math_js(), encoding="utf-8")
    (static / "player.js").write_text(PLAYER_JS, encoding="utf-8")
    (static / "player.css").write_text(PLAYER_CSS, encoding="utf-8")
    (static / "a11y.js").write_text(A11Y_JS, encoding="utf-8")
    site_questions.write_static(static)
    copy_mathjax(static / MATHJAX_DIR)
    if players and frames_dir is not None:
        target = static / "frames"
        target.mkdir()
        for sha in sorted(player_frames(players)):
            shutil.copyfile(frames_dir / f"{sha}.png", target / f"{sha}.png")


#: Issue 29's budgets; the build prints the measured values next to them.
BUDGET_SITE_MB = 150
BUDGET_FIRST_LOAD_MB = 3


#: The theme's Font Awesome as JavaScript (1.5 MB, every icon as SVG): the theme's style
#: sheet already draws the few icons the pages show from its webfonts (0.2 MB), so
#: the pages do not load the script and the site does not ship it.
ICON_SCRIPT = "fontawesome.js"
_ICON_SCRIPT_TAG = re.compile(
    rf'<script\b[^>]*src="[^"]*/{re.escape(ICON_SCRIPT)}[^"]*"[^>]*>\s*</script>\n?')


def without_icon_script(page: str) -> str:
    """A page without the theme's Font Awesome script (its icons come from the CSS).

    >>> without_icon_script('<script defer src="_static/scripts/fontawesome.js?digest=1"></script>x')
    'x'
    """
    return _ICON_SCRIPT_TAG.sub("", page)


def _marker_word(kept: Path) -> str:
    """The random word of the page check's cell markers, kept with the Sphinx project."""
    import secrets

    path = kept / "marker-word"
    if not path.is_file():
        kept.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(12), encoding="utf-8")
        path.chmod(0o600)
        shutil.rmtree(kept / "src", ignore_errors=True)  # markers of an older word
    return path.read_text(encoding="utf-8").strip()


def _page_set(src: Path) -> set[str]:
    """The Sphinx documents of a source folder (top-level notebooks and Markdown pages)."""
    return {p.name for p in src.glob("*") if p.suffix in (".ipynb", ".md")} if src.is_dir() else set()


def site_report(out: Path) -> dict[str, float]:
    """The site's size and its heaviest first page load (``coursetools.site.page_weight``:
    everything a lesson page fetches on its first view), in MB (2**20 bytes)."""
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    moved = {f"{old}.html" for old in MOVED}
    loads = {p.name: first_load_bytes(out, p) for p in out.glob("[0-9][0-9]_*.html")
             if p.name not in moved}
    heaviest = max(loads, key=loads.get) if loads else ""
    return {"site_mb": size / 2**20, "first_load_mb": loads.get(heaviest, 0) / 2**20,
            "heaviest_page": heaviest, "frames": len(list((out / "_static" / "frames").glob("*.png")))}


_SPHINX_STEP = re.compile(r"^(reading sources|writing output)\.\.\. \[\s*(\d+)%\]")


def run_sphinx(src: Path, out: Path, doctrees: Path, *, pages: int,
               show_progress: bool) -> tuple[str, list[str]]:
    """Run sphinx-build (HTML); return its warnings and the pages it read again.

    Sphinx reports each phase in percent ("reading sources... [ 50%] 04_cover_counting"):
    the bar counts pages read and written, ``2 * pages`` in all. With the doctrees and the
    output of an earlier build, Sphinx reads and writes only the pages whose sources
    changed (and those that depend on them).
    """
    from coursetools.shared.common import progress

    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-j", "auto", "-N",
           "-d", str(doctrees), str(src), str(out)]
    env = {**os.environ, "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
    before = {p.name: p.stat().st_mtime_ns for p in doctrees.glob("*.doctree")}
    with tempfile.TemporaryFile(mode="w+") as errors:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
        with progress(total=2 * pages, desc="site pages", unit="page", enabled=show_progress) as bar:
            assert proc.stdout is not None
            for line in proc.stdout:
                step = _SPHINX_STEP.match(line)
                if step:
                    phase = 0 if step[1] == "reading sources" else 1
                    bar.update(max(0, phase * pages + round(int(step[2]) * pages / 100) - bar.n))
        errors.seek(0)
        stderr = errors.read()
        if proc.wait() != 0:
            raise CourseToolsError(f"sphinx-build failed:\n{stderr[-4000:]}")
    # A page read again has a new doctree (parallel Sphinx prints ranges, not names).
    read = [p.stem for p in doctrees.glob("*.doctree") if before.get(p.name) != p.stat().st_mtime_ns]
    return stderr, sorted(read)


def build(out_dir: Path | str | None = None, *, verbose: bool = True, cache_dir: Path | None = None,
          report: dict | None = None) -> Path:
    """Build the site into ``out_dir`` (replaced if it exists); return its path.

    ``cache_dir`` is the frame cache (default ``.cache/site-frames`` in the repository);
    ``report``, if given, receives the measured numbers (sizes in MB, times in s).
    """
    out = (repo_root() / DEFAULT_OUT if out_dir is None else Path(out_dir)).resolve()
    root = repo_root().resolve()
    for guarded in (root, root / "notebooks", root / "tests", root / "coursetools", root / "perclib"):
        if out == guarded:
            raise CourseToolsError(f"refusing to build the site into {out}: choose another --out")
    if out.exists() and not (out / ".buildinfo").exists() and any(out.iterdir()):
        raise CourseToolsError(f"{out} exists and is not a site built by this command")
    notebooks = sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    start = time.perf_counter()
    log: list[str] = []
    cache = (cache_dir or root / CACHE_DIR).resolve()
    players = render_players(notebooks, cache_dir=cache, log=log, show_progress=verbose)
    questions = site_questions.all_questions(notebooks, cache.parent)
    frames_time = time.perf_counter() - start
    kept = cache.parent / BUILD_SUBDIR  # the Sphinx project kept between builds
    with tempfile.TemporaryDirectory(prefix="course-site-") as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        # The cell markers' word is drawn once per kept project (a lesson cannot know it,
        # and unchanged pages keep their markers and need not be built again).
        check = PageCheck(nonce=_marker_word(kept))
        write_sources(src, notebooks, players, cache / "frames", questions,
                      handouts=root / "handouts", check=check)
        pages_before = _page_set(kept / "src")
        synced = sync_tree(src, kept / "src")
        if _page_set(kept / "src") != pages_before:  # a page came or went: start afresh
            for stale in ("html", "doctrees"):
                shutil.rmtree(kept / stale, ignore_errors=True)
        stderr, rebuilt_pages = run_sphinx(kept / "src", kept / "html", kept / "doctrees",
                                           pages=len(notebooks) + 2, show_progress=verbose)
        if verbose and stderr.strip():
            print(stderr.strip(), file=sys.stderr)
        staging = Path(tmp) / "html"
        copy_for_editing(kept / "html", staging)
        # Build leftovers that are not part of the site: the Jinja macro files the
        # themes copy and the (empty, html_copy_source = False) source folder.
        for leftover in (staging / "_static").glob("*webpack-macros.html"):
            leftover.unlink()
        shutil.rmtree(staging / "_sources", ignore_errors=True)
        for script in (staging / "_static" / "scripts").glob(f"{ICON_SCRIPT}*"):
            script.unlink()  # with its .map and licence: no page loads it
        built = {page.stem: page.read_text(encoding="utf-8") for page in staging.glob("*.html")}
        check.refuse(built)  # the pages as built, each lesson cell by the rules
        for page in staging.glob("*.html"):
            text = built[page.stem]
            fixed = theme_image_alt(check.strip(text))
            fixed = names_match_labels(sidebar_landmark(without_icon_script(fixed)))
            if fixed != text:
                page.write_text(fixed, encoding="utf-8")
        (staging / "index.html").write_text(_REDIRECT.format(page=INDEX), encoding="utf-8")
        titles = {p.stem: lesson_title(nbformat.read(p, as_version=4), p.stem) for p in notebooks}
        for name, page in moved_pages(titles).items():
            (staging / name).write_text(page, encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(staging, out)
    numbers = site_report(out)
    n_players = sum(len(ps) for ps in players.values())
    n_rendered = sum(not p.cached for ps in players.values() for p in ps)
    numbers.update(total_s=time.perf_counter() - start, frames_s=frames_time, players=n_players,
                   rendered=n_rendered, pages_rebuilt=len(rebuilt_pages),
                   sources_written=len(synced.written))
    if report is not None:
        report.update(numbers)
    if verbose:
        for line in log:
            print(line)
        print(f"players: {n_players} ({n_rendered} rendered, {n_players - n_rendered} from the cache "
              f"{cache}), {numbers['frames']} frame files, frames ready in {frames_time:.1f} s")
        pages = ", ".join(rebuilt_pages) if rebuilt_pages else "none"
        print(f"pages: {len(rebuilt_pages)} rebuilt ({pages}); {synced.kept} source files reused "
              f"and {len(synced.written)} written in {kept}")
        print(f"site size: {numbers['site_mb']:.1f} MB (budget {BUDGET_SITE_MB} MB); heaviest first load: "
              f"{numbers['first_load_mb']:.2f} MB, {numbers['heaviest_page']} "
              f"(budget {BUDGET_FIRST_LOAD_MB} MB)")
        print(f"site -> {out} in {numbers['total_s']:.1f} s "
              f"({'warm' if n_rendered == 0 else 'rendering ' + str(n_rendered) + ' player(s)'}; "
              "budgets: clean build 300 s, warm 60 s, on 2 cores)")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m coursetools.site",
        description="Build the course as a static website from the lessons' stored "
        "outputs (student versions, no kernel run).",
    )
    parser.add_argument("--out", type=Path, default=repo_root() / DEFAULT_OUT,
                        help=f"output folder (default: {DEFAULT_OUT}/ at the repository root)")
    args = parser.parse_args(argv)
    build(args.out)

