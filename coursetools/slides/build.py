"""Lecture slides from the lessons: ``python -m coursetools.slides``.

One reveal.js deck per lesson, built from the lessons' stored outputs with no kernel and
no network: reveal.js (from the ``sphinx-revealjs`` package) and MathJax are copied into
the deck's own folder, and each deck is also printed to PDF, one slide per page.

The deck follows Jupyter's own slide metadata (``metadata.slideshow.slide_type``), so the
same cells also play live in JupyterLab with RISE. ``--metadata`` writes that metadata
from the cells' roles (:func:`slide_type`), ``--check-metadata`` only checks it:

* a markdown cell that opens with a heading starts a ``slide`` (``###``: a ``subslide``);
* other markdown is ``notes``;
* a code cell with a figure (a lesson figure or a slider's stored frame) is a
  ``subslide`` of its own;
* a check cell is a ``fragment``: its ``✓`` line appears on the slide;
* a question cell (self-check, ``perclib.questions``) is a ``subslide``: "Think first",
  the question, and its answer on the next slide down (``coursetools.shared.question_print``);
* everything else (code, the Colab cell, exercises and their checks, written answers,
  and every cell from the "Exercises" heading on) is ``skip``.

A slide carries the idea, large: the heading, the lesson's display formulas and the bold
lead of each paragraph ("**The order matters for the run.**"). The cell's whole text
becomes the slide's speaker notes, so a lesson needs no slide-only cells: to put an idea
on a slide, write it as a bold lead. A slide holds at most :data:`WORD_BUDGET` words;
more continues on a slide below it.

Usage::

    python -m coursetools.slides                  # every lesson -> slides/NN_name/
    python -m coursetools.slides --lesson 5 --out DIR
    python -m coursetools.slides --metadata       # write the slide metadata of the lessons
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from coursetools.shared.asciimath import check_line_tex
from coursetools.shared.colab import is_colab_cell
from coursetools.shared.common import CourseToolsError, lesson_notebooks, repo_root
from coursetools.shared.mathjax import chtml_config, copy_mathjax
from coursetools.shared.question_print import slide_notes, slide_parts

DEFAULT_OUT = "slides"
#: Most words of text on one slide (a display formula counts as five).
WORD_BUDGET = 55
#: ✓ lines shown on one slide; the rest go to its notes.
MAX_CHECKS = 2
#: Words of a slider's status line shown under its figure.
CAPTION_WORDS = 20
FORMULA_WORDS = 5
#: Paragraph leads that name a kind of statement, not its content ("**Proof.**").
GENERIC_LEADS = {"proof", "goals", "example", "things to try", "note", "remark", "answer"}
#: Leads that name a statement ("**Theorem.**"): shown with the sentence that states it.
STATEMENT_LEADS = re.compile(r"^(theorem|lemma|definition|claim|corollary)\b", re.I)
#: A bold lead without one of these verbs is a label ("**The running time.**"), not a
#: statement ("**The order matters for the run.**"): the sentence after it goes with it.
VERBS = set("""is are was were be has have had does do did can cannot must need needs holds hold
works work stalls stall matters matter hides hide falls fall stays stay grows grow changes change
gives give makes make counts count decides decide becomes become follows follow means mean proves
prove carries carry beats beat stops stop moves move fires fire separates separate errs err helps
help shrinks shrink loses lose bounds bound costs cost fails fail lies lie sees see keeps keep
converges converge explains explain wins win tells tell takes take depends depend""".split())
#: Longest sentence shown after a label (a longer one stays in the notes).
SENTENCE_WORDS = 32
#: Headings written for the notebook reader, not for the audience ("Widget: ...").
AUTHORING_LABEL = re.compile(r"^(?:widget|slider|interactive|demo)\s*:\s*", re.I)
STOP_HEADINGS = re.compile(r"^(exercises|references)\b", re.I)
SLIDE_TYPES = ("slide", "subslide", "fragment", "notes", "skip", "-")
SKIPPED_ROLES = ("exercise", "exercise-check", "written")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
_DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE_MATH = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")
_BOLD_LEAD = re.compile(r"^\s*(?:[*-]\s+|\d+\.\s+)?\*\*(.+?)\*\*", re.S)
_DETAILS = re.compile(r"<details>.*?</details>", re.S)
IMAGE_MIMES = ("image/png", "image/jpeg", "image/svg+xml")
#: MathJax 3 in a deck: the site's TeX options, ``\(...\)`` and ``\[...\]`` only
#: (:func:`markdown_html` writes those), no menu.
MATHJAX_CONFIG = chtml_config({"displayMath": [["\\[", "\\]"]]})


# --------------------------------------------------------------------------- metadata
def _role(cell) -> str:
    from coursetools.shared.roles import cell_role

    try:
        return cell_role(cell).name
    except ValueError:
        return "lesson"


def _has_figure(cell) -> bool:
    return any(m in out.get("data", {}) for out in cell.get("outputs", []) for m in IMAGE_MIMES)


def slide_type(cell, *, after_exercises: bool) -> str:
    """The slide type a cell gets from its role (see the module docstring).

    >>> from nbformat import v4
    >>> slide_type(v4.new_markdown_cell("## 1. The algorithm"), after_exercises=False)
    'slide'
    >>> slide_type(v4.new_markdown_cell("Prose."), after_exercises=False)
    'notes'
    """
    if after_exercises:
        return "skip"
    role = _role(cell)
    if role in SKIPPED_ROLES or cell.metadata.get("nbgrader", {}).get("solution"):
        return "skip"
    if role == "question":
        return "subslide"
    if cell.cell_type == "markdown":
        first = cell.source.lstrip().split("\n", 1)[0]
        match = _HEADING.match(first)
        if match:
            return "subslide" if len(match.group(1)) >= 3 else "slide"
        return "notes"
    if is_colab_cell(cell):
        return "skip"
    if role == "check":
        return "fragment"
    if _has_figure(cell):
        return "subslide"
    return "skip"


def slide_types(nb) -> list[str]:
    """The slide type of every cell of a lesson, in order."""
    types, stopped = [], False
    for cell in nb.cells:
        if cell.cell_type == "markdown" and any(
            STOP_HEADINGS.match(h) for _, h in _HEADING.findall(cell.source)
        ):
            # A cell holding "## Summary" and then "## Exercises" still opens the summary.
            first = _HEADING.match(cell.source.lstrip().split("\n", 1)[0])
            if first and STOP_HEADINGS.match(first.group(2)) or stopped:
                stopped = True
                types.append("skip")
                continue
            types.append(slide_type(cell, after_exercises=False))
            stopped = True
            continue
        types.append(slide_type(cell, after_exercises=stopped))
    return types


def apply_metadata(nb) -> int:
    """Write ``slideshow.slide_type`` into every cell; return how many changed."""
    changed = 0
    for cell, kind in zip(nb.cells, slide_types(nb), strict=True):
        if cell.metadata.get("slideshow", {}).get("slide_type") != kind:
            cell.metadata["slideshow"] = {"slide_type": kind}
            changed += 1
    return changed


# --------------------------------------------------------------------------- content
def _protect_math(text: str) -> tuple[str, list[str]]:
    """Replace maths by placeholders so Markdown leaves it alone."""
    kept: list[str] = []

    def hold(m: re.Match, display: bool) -> str:
        tex = html.escape(m.group(1).strip(), quote=False)
        kept.append(f"\\[{tex}\\]" if display else f"\\({tex}\\)")
        return f"@@MATH{len(kept) - 1}@@"

    text = _DISPLAY_MATH.sub(lambda m: hold(m, True), text)
    text = _INLINE_MATH.sub(lambda m: hold(m, False), text)
    return text, kept


def markdown_html(text: str) -> str:
    """Markdown to HTML with ``$...$`` / ``$$...$$`` kept for MathJax.

    >>> markdown_html("**Bold** and $x^2$")
    '<p><strong>Bold</strong> and \\\\(x^2\\\\)</p>\\n'
    """
    from markdown_it import MarkdownIt

    protected, maths = _protect_math(text)
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(protected)
    return re.sub(r"@@MATH(\d+)@@", lambda m: maths[int(m.group(1))], rendered)


def _words(text: str) -> int:
    plain = _DISPLAY_MATH.sub(" formula " * FORMULA_WORDS, text)
    plain = _INLINE_MATH.sub(" x ", plain)
    return len(re.sub(r"[*_`#>]", " ", plain).split())


def _paragraphs(text: str) -> list[str]:
    """Paragraphs and list items of a markdown text (display formulas kept whole)."""
    blocks, current = [], []
    for line in text.split("\n"):
        starts_item = re.match(r"^\s*(?:[*-]|\d+\.)\s+", line)
        if not line.strip() or (starts_item and current):
            if current:
                blocks.append("\n".join(current))
            current = [line] if line.strip() else []
        else:
            current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _next_sentence(text: str) -> str:
    """The first sentence of ``text`` (maths kept whole), or "" if it is too long."""
    protected, maths = _protect_math(" ".join(text.split()))
    match = re.match(r"(.+?[.!?])(?:\s+(?=[A-Z(@\[])|$)", protected)
    sentence = match.group(1) if match else protected
    if any(maths[int(k)].startswith("\\[") for k in re.findall(r"@@MATH(\d+)@@", sentence)):
        return ""  # a display formula inside: the slide shows formulas on their own
    sentence = _restore_math(sentence, maths)
    return sentence if 0 < _words(sentence) <= SENTENCE_WORDS else ""


def _restore_math(text: str, maths: list[str]) -> str:
    """Put inline formulas held by :func:`_protect_math` back as ``$...$`` (unescaped)."""
    return re.sub(r"@@MATH(\d+)@@",
                  lambda m: "$" + html.unescape(maths[int(m.group(1))][2:-2]) + "$", text)


def is_label(phrase: str) -> bool:
    """A bold lead that names a topic rather than saying something about it.

    >>> is_label("The running time."), is_label("The order matters for the run.")
    (True, False)
    >>> is_label("What carries over, exactly.")
    True
    """
    words = {w.lower() for w in re.findall(r"[A-Za-z']+", phrase)}
    question = re.match(r"(what|why|how|where|when|which)\b", phrase.strip(), re.I)  # a heading
    return phrase.rstrip().endswith(":") or bool(question) or not words & VERBS


def ideas(text: str) -> list[str]:
    """What of a markdown text goes on a slide: statements and the first display formula.

    A bold lead that is a sentence stands alone; a short one is a label, shown with the
    sentence after it; "**Theorem.**" and the like show the sentence that states it.

    >>> ideas("**The order matters for the run.** Shuffle it.\\n\\n$$k \\\\le R^2$$")
    ['The order matters for the run.', '$$k \\\\le R^2$$']
    >>> ideas("**The running time.** Each update costs $O(N)$ operations. More.")
    ['**The running time.** Each update costs $O(N)$ operations.']
    >>> ideas("**Proof.** Let $x$ be...")
    []
    """
    found: list[str] = []
    formula = None
    for block in _paragraphs(_DETAILS.sub("", text)):
        lead = _BOLD_LEAD.match(block)
        if lead:
            phrase = " ".join(lead.group(1).split())
            name = phrase.rstrip(".:").lower()
            rest = block[lead.end():].strip()
            rest = re.sub(r"^[.:]\s*", "", rest)
            if name in GENERIC_LEADS:
                pass
            elif STATEMENT_LEADS.match(name) or is_label(phrase):
                sentence = _next_sentence(rest) if rest and not rest.startswith("$$") else ""
                if sentence:
                    found.append(f"**{phrase}** {sentence}")
                elif not is_label(phrase) and len(phrase.split()) >= 2:
                    found.append(phrase)  # a statement whose sentence is too long to show
            elif len(phrase.split()) >= 2:
                found.append(phrase)
        math = _DISPLAY_MATH.search(block)
        if formula is None and math:
            # The first display formula states the result; later ones are its proof.
            formula = f"$${math.group(1).strip()}$$"
            found.append(formula)
    return found


def first_sentence(text: str, limit: int = 25) -> str | None:
    """The first sentence of a text's first paragraph, if it is short enough.

    >>> first_sentence("In 1969 a book stalled the field. Then more.")
    'In 1969 a book stalled the field.'
    """
    for block in _paragraphs(_DETAILS.sub("", text)):
        if block.lstrip().startswith(("<", "$$", "|", "!")):
            continue
        plain = " ".join(block.split())
        plain = re.sub(r"^(?:[*-]|\d+\.)\s+", "", plain)
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", plain)
        match = re.match(r"(.+?[.!?])(?:\s|$)", plain)
        sentence = match.group(1) if match else plain
        return sentence if _words(sentence) <= limit else None
    return None


def summary_points(text: str) -> list[str]:
    """The first sentence of each bullet of a summary (cut at a colon if long).

    A cut that leaves fewer than four words is a heading ("Three regimes"), not a
    point: that bullet stays in the speaker notes only.

    >>> summary_points("* The run depends on the order. It ends.\\n"
    ...                "* XOR is not separable: no line puts the ones on one side and zeros on the other.\\n"
    ...                "* Three regimes: a b c d e f g h i j k l m n o p.")
    ['The run depends on the order.', 'XOR is not separable.']
    """
    points = []
    for block in _paragraphs(text):
        if not re.match(r"^\s*(?:[*-]|\d+\.)\s+", block):
            continue
        sentence = first_sentence(block, limit=1000) or ""
        shortest = 2
        if _words(sentence) > 14:
            # Cut at the colon; the point still ends as a sentence does.
            sentence = re.split(r"[:;]\s", sentence, maxsplit=1)[0].rstrip() + "."
            shortest = 4
        if shortest <= _words(sentence) <= 14:
            points.append(sentence)
    return points


@dataclass
class Slide:
    """One reveal.js section."""

    title: str
    items: list[str] = field(default_factory=list)  # markdown: ideas
    checks: list[str] = field(default_factory=list)  # ✓ lines, shown as fragments
    figure: tuple[str, str, str] | None = None  # (mime, base64 or svg, alt)
    caption: str = ""
    player: Any = None  # a coursetools.shared.players.frames.Player: the figure moves on the slide
    statement: str = ""  # the sentence the figure illustrates, above it
    notes: list[str] = field(default_factory=list)  # markdown
    vertical: bool = False  # a subslide below the previous one
    first: bool = False  # the lesson's title slide
    authored: bool = False  # its text is the author's slide text (``metadata.slides.text``)
    question: bool = False  # a self-check question's slide (or its answer's): kept as it is

    def words(self) -> int:
        return _words(self.title) + sum(_words(t) for t in self.items + self.checks
                                        + [self.caption, self.statement])


def _check_lines(cell) -> list[str]:
    lines = []
    for out in cell.get("outputs", []):
        text = out.get("text", "") if out.get("output_type") == "stream" else ""
        lines += [line.strip() for line in text.splitlines() if line.strip().startswith("✓")]
    return lines


def _figure(cell) -> tuple[tuple[str, str, str] | None, str]:
    """The cell's first figure (mime, data, alt) and, for a slider cell, its status line."""
    figure, status = None, ""
    for out in cell.get("outputs", []):
        data = out.get("data", {})
        if figure is None:
            for mime in IMAGE_MIMES:
                if mime in data:
                    alt = " ".join(str(data.get("text/plain", "")).split())
                    if alt.startswith("<"):
                        alt = ""
                    figure = (mime, data[mime], alt)
                    break
        elif "text/html" in data and not status:
            status = re.sub(r"<br\s*/?>", " | ", data["text/html"])
            status = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", status)).split())
    return figure, short_caption(status)


def short_caption(status: str, words: int = CAPTION_WORDS) -> str:
    """A slider's status line cut at a ``|`` to at most ``words`` words (the figure speaks).

    >>> short_caption("w = (1, 0): 3 of 4 right | LP: not separable | legend: dots", 12)
    'w = (1, 0): 3 of 4 right | LP: not separable'
    """
    kept: list[str] = []
    for part in (p.strip() for p in status.split("|")):
        if part and len(" ".join(kept + [part]).split()) > words:
            break
        if part:
            kept.append(part)
    return " | ".join(kept) if kept else " ".join(status.split()[:words])


def _heading_parts(source: str) -> tuple[str, str]:
    """(heading text, the rest) of a markdown cell that opens with a heading."""
    source = source.lstrip()
    first, _, rest = source.partition("\n")
    match = _HEADING.match(first)
    return (match.group(2).strip(), rest) if match else ("", source)


def _split_sections(source: str) -> list[tuple[str, str]]:
    """(heading, body) pieces of a markdown cell with several headings."""
    pieces = []
    matches = list(_HEADING.finditer(source))
    if not matches or matches[0].start() > 0 and source[: matches[0].start()].strip():
        pieces.append(("", source[: matches[0].start()] if matches else source))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(source)
        pieces.append((m.group(2).strip(), source[m.end():end]))
    return pieces


#: A text slide with fewer words than this is filled up with the lesson's next sentences.
SPARSE_WORDS = 32


def _sentences(text: str) -> list[str]:
    """The sentences of the prose paragraphs of a markdown text (maths kept whole)."""
    found = []
    for block in _paragraphs(_DETAILS.sub("", text)):
        if block.lstrip().startswith(("<", "$$", "|", "!", "```", "#")) or _BOLD_LEAD.match(block):
            continue
        protected, maths = _protect_math(" ".join(block.split()))
        protected = re.sub(r"^(?:[*-]|\d+\.)\s+", "", protected)
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z(@`])", protected):
            sentence = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", sentence)
            held = re.findall(r"@@MATH(\d+)@@", sentence)
            if any(maths[int(k)].startswith("\\[") for k in held) or not sentence.rstrip().endswith(
                    (".", "!", "?")):
                continue  # a display formula inside, or not a whole sentence
            if sentence[:1].islower():
                continue  # the end of a sentence a display formula broke ("with a ...")
            found.append(_restore_math(sentence, maths))
    return found


def _fill_sparse(slide: Slide, text: str | None = None, used: set[str] | None = None) -> None:
    """A text slide that says too little takes the next sentences of its own section.

    Only whole sentences of the lesson, in order, and only as many as keep the slide
    within :data:`WORD_BUDGET`: the slide states its point the way the lesson does.
    """
    def said() -> int:  # the ✓ lines are evidence, not the point
        return _words(slide.title) + sum(_words(i) for i in slide.items)

    text = text if text is not None else (slide.notes[0] if slide.notes else "")
    if (slide.first or slide.authored or slide.question or slide.figure is not None
            or said() >= SPARSE_WORDS or not text):
        return
    source = " ".join(text.split())
    shown = " ".join(slide.items)
    used = set() if used is None else used  # sentences a slide above already shows
    for sentence in _sentences(text):
        if said() >= SPARSE_WORDS:
            break
        if sentence[:40] in shown or sentence[:40] in used or _words(sentence) > SENTENCE_WORDS:
            continue
        if said() + _words(sentence) > WORD_BUDGET - 5:  # room for a short ✓ line
            break
        # In the lesson's order: a sentence the lesson says first comes first.
        where = _count_before(slide.items, source, sentence) if sentence[:30] in source else len(slide.items)
        slide.items.insert(where, sentence)
        shown += " " + sentence
        used.add(sentence[:40])


def _plain_start(item: str) -> str:
    """The first words of an item as they stand in the lesson's text (for ordering)."""
    return item.replace("**", "")[:25]


def _count_before(items: list[str], source: str, sentence: str) -> int:
    """Where a sentence goes among a slide's items: after those the lesson says earlier."""
    where = source.find(sentence[:30])
    return sum(1 for i in items if 0 <= source.find(_plain_start(i)) < where)


def _fit(slides: list[Slide]) -> list[Slide]:
    """Keep every slide within the word budget.

    Ideas that do not fit continue on a slide below; ✓ lines that do not fit move to the
    slide's notes (they are the lesson's evidence, not its idea).
    """
    fitted: list[Slide] = []
    for slide in slides:
        _fill_sparse(slide)
        checks, slide.checks = slide.checks, []
        if slide.figure is None and not slide.question and slide.words() > WORD_BUDGET:
            items, slide.items = slide.items, []
            parts = [slide]
            for text in items:
                if parts[-1].words() + _words(text) > WORD_BUDGET and parts[-1].items:
                    parts.append(Slide(f"{slide.title} (continued)", vertical=True))
                parts[-1].items.append(text)
            # Even out the last two: no continuation slide with one lone point.
            if len(parts) > 1:
                before, last = parts[-2], parts[-1]
                while len(before.items) > len(last.items) + 1:
                    if last.words() + _words(before.items[-1]) > WORD_BUDGET:
                        break
                    last.items.insert(0, before.items.pop())
            used: set[str] = set()
            for part in parts:
                _fill_sparse(part, slide.notes[0] if slide.notes else "", used)
            fitted.extend(parts[:-1])
            slide = parts[-1]
        for line in checks:
            room = slide.figure is None or not slide.checks  # a figure leaves room for one
            if room and slide.words() + _words(line) <= WORD_BUDGET:
                slide.checks.append(line)
            else:
                slide.notes.append(f"Also checked in the lesson: {line}")
        fitted.append(slide)
    return fitted


def slide_text(cell) -> list[str] | None:
    """The slide text an author wrote for a markdown cell (``metadata.slides.text``), if any.

    A list of points (markdown, ``$...$`` maths), shown on the cell's slide in place of
    what the deck would take from the cell's text; the cell's text is still the notes.

    >>> from nbformat import v4
    >>> slide_text(v4.new_markdown_cell("## A", metadata={"slides": {"text": ["One point."]}}))
    ['One point.']
    """
    text = cell.metadata.get("slides", {}).get("text")
    if text is None:
        return None
    if isinstance(text, str):
        text = [text]
    if not isinstance(text, list) or not all(isinstance(t, str) and t.strip() for t in text):
        raise CourseToolsError("metadata.slides.text must be a string or a list of non-empty strings")
    return text


def clean_heading(heading: str) -> str:
    """A section heading as a slide title: no number, no authoring label.

    >>> clean_heading("Widget: one update at a time"), clean_heading("2.1 Few patterns")
    ('One update at a time', 'Few patterns')
    """
    heading = re.sub(r"^\d+(\.\d+)*\.?\s+", "", heading)
    stripped = AUTHORING_LABEL.sub("", heading)
    return stripped[:1].upper() + stripped[1:] if stripped != heading else heading


def _statement_for_figure(slide: Slide) -> str:
    """The sentence of ``slide`` that a figure after it illustrates (its first idea)."""
    for item in slide.items:
        if not item.startswith("$$") and _words(item) <= 28:
            return item
    return ""


def lesson_slides(nb, players: dict[int, Any] | None = None) -> list[Slide]:
    """The slides of one lesson (stored outputs, slide metadata; nothing is run).

    ``players`` maps a slider cell's index to its :class:`coursetools.shared.players.frames.Player`:
    that figure moves on its slide.
    """
    from coursetools.shared.cells import lesson_title, static_outputs

    shown = static_outputs(nb)
    title = lesson_title(nb, "Lesson")
    slides: list[Slide] = []
    section = title
    players = players or {}
    for index, cell in enumerate(shown.cells):
        kind = cell.metadata.get("slideshow", {}).get("slide_type")
        if kind not in SLIDE_TYPES:
            raise CourseToolsError(f"slide_type {kind!r} is not one of {SLIDE_TYPES} "
                                   "(run python -m coursetools.slides --metadata)")
        if kind in ("skip", None):
            continue
        if cell.cell_type == "markdown":
            authored = slide_text(cell)
            for heading, body in _split_sections(cell.source):
                if heading and STOP_HEADINGS.match(heading):
                    break
                if heading:
                    section = clean_heading(heading)
                    vertical = heading == "" or cell.source.lstrip().startswith("###")
                    slides.append(Slide(section, vertical=vertical, first=not slides))
                elif not slides:
                    slides.append(Slide(title, first=True))
                elif slides[-1].question:  # the lesson goes on below a question's slides
                    slides.append(Slide(section, vertical=True))
                slide = slides[-1]
                if not slide.first:
                    found = summary_points(body) if section.lower() == "summary" else ideas(body)
                    if authored is not None:
                        found, authored = list(authored), None  # the author's slide text
                        slide.authored = True
                    if not found and not slide.items and heading:
                        lead = first_sentence(body)
                        found = [lead] if lead else []
                    if found and slide.figure is not None:
                        # A figure fills its slide: the text after it goes on the next one.
                        slide = Slide(section, vertical=True)
                        slides.append(slide)
                    slide.items += found
                if body.strip():
                    slide.notes.append(body)
            continue
        if _role(cell) == "question":  # a "Think first" slide, the answer one step later
            parts = slide_parts(cell)
            if parts:  # the answer on the next step: a slide of its own (no word budget clash)
                ask, follow = slide_notes(cell)  # the presenter's notes: answer, hints
                slides.append(Slide("Think first", items=parts[0], vertical=True, question=True,
                                    notes=[ask]))
                slides.append(Slide("Think first: the answer", items=parts[1], vertical=True,
                                    question=True, notes=[follow]))
            continue
        if kind == "fragment":
            # A check's lines belong to the lesson's slide, not to a question's above them.
            lesson_slides_so_far = [s for s in slides if not s.question]
            if lesson_slides_so_far:
                slide = lesson_slides_so_far[-1]
                for line in _check_lines(cell):
                    if len(slide.checks) < MAX_CHECKS:
                        slide.checks.append(line)
                    else:
                        slide.notes.append(f"Also checked in the lesson: {line}")
            continue
        figure, status = _figure(cell)
        if figure is None:
            continue
        player = players.get(index)
        last = slides[-1] if slides else None
        if last is not None and last.question:  # a figure after a question: its own slide
            last = None
        if last is not None and last.figure is None and not last.first and not last.checks and (
                not last.items or (len(last.items) == 1 and _statement_for_figure(last))):
            # A section that opens with its figure, or one statement and its figure: one slide.
            last.statement = last.items[0] if last.items else ""
            last.items = []
            last.figure, last.caption, last.player = figure, status, player
        else:
            statement = _statement_for_figure(last) if last is not None and not last.first else ""
            slides.append(Slide(section, figure=figure, caption=status, vertical=True,
                                player=player, statement=statement))
    return _fit(_without_empty(slides))


def _without_empty(slides: list[Slide]) -> list[Slide]:
    """Drop a heading's slide with nothing on it ("## 4. X" straight above "### 4.1 Y").

    Its notes go to the next slide, which takes its place in the horizontal order.
    """
    kept: list[Slide] = []
    carry: list[str] = []
    vertical = None
    for slide in slides:
        empty = not (slide.first or slide.items or slide.checks or slide.figure is not None)
        if empty:
            carry += slide.notes
            vertical = slide.vertical if vertical is None else vertical
            continue
        if carry:
            slide.notes = carry + slide.notes
            slide.vertical = vertical
            carry, vertical = [], None
        kept.append(slide)
    if carry and kept:
        kept[-1].notes += carry
    return kept


# --------------------------------------------------------------------------- HTML
_CSS = """\
.reveal { font-size: 38px; }
.reveal h1 { font-size: 56px; text-transform: none; }
.reveal h2 { font-size: 46px; margin-bottom: 0.4em; text-transform: none; }
/* MathJax measures the font of what it typesets: show every slide until it is done. */
html.typesetting .reveal .slides section { display: block !important; position: static !important; }
.reveal ul.ideas { margin: 0 0 0 1.2em; } .reveal ul.ideas li { margin: 0.35em 0; }
.reveal ul.checks { list-style: none; margin: 0.6em 0 0; font-size: 28px; color: #1a6e32; }
.reveal .formula { font-size: 38px; margin: 0.3em 0; max-width: 100%; overflow-x: hidden; }
.reveal section img.figure { display: block; margin: 0 auto; max-width: 100%;
  object-fit: contain; border: 0; box-shadow: none; }
.reveal .caption { font-size: 24px; color: #444; text-align: center; margin-top: 0.3em; }
.reveal .subtitle { font-size: 28px; color: #555; }
.reveal section { text-align: left; }
.reveal section.title-slide { text-align: center; }
.reveal ol.outline { columns: 2; column-gap: 2em; text-align: left; font-size: 28px;
  margin: 1.2em 0 0 1.5em; } .reveal ol.outline li { margin: 0.2em 0; break-inside: avoid; }
.reveal p.statement { font-size: 30px; margin: 0 0 0.3em; }
.reveal .pp-player { margin: 0; } .reveal .pp-controls { flex-direction: row; flex-wrap: wrap;
  gap: 0.2em 1.6em; margin-bottom: 0.2em; font-size: 24px; }
.reveal .pp-row { flex-wrap: nowrap; } .reveal .pp-track { flex: 0 0 auto; }
.reveal .pp-row label { min-width: 0; } .reveal .pp-row input[type=range] { width: 260px; flex: 0 0 260px; }
.reveal .pp-row select { font-size: 24px; } .reveal .pp-value { min-width: 3em; }
.reveal img.pp-frame { display: block; margin: 0 auto; width: auto; max-width: 100%; object-fit: contain; }
.reveal .pp-status { font-size: 24px; color: #444; text-align: center; min-height: 0; margin: 0.1em 0; }
.reveal p.keys { font-size: 24px; color: #555; text-align: center; margin: 0.1em 0 0; }
.reveal kbd { border: 1px solid #999; border-radius: 4px; padding: 0 0.25em; font-size: 22px; }
/* reveal.js's slide number is white on 40 % black (2.8:1): darker for WCAG's 4.5:1; on
   a slide below another it is a link, and a link is a target of at least 24 px (2.5.8).
   Bottom left: at the right it covers part of the "below slide" arrow. */
.reveal .slide-number { background-color: rgba(0, 0, 0, 0.75); font-size: 16px; right: auto; left: 8px; }
.reveal .slide-number a { display: inline-block; min-height: 24px; line-height: 24px; padding: 0 4px; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en" class="typesetting"><head><meta charset="utf-8">
<title>{title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="reveal/dist/reset.css">
<link rel="stylesheet" href="reveal/dist/reveal.css">
<link rel="stylesheet" href="reveal/dist/theme/white.css">
<style>{css}</style>
<style>{player_css}</style>
<script>
window.MathJax = {mathjax_config};
</script>
<script src="mathjax/startup.js"></script>
</head><body>
<div class="reveal"><div class="slides">
{sections}
</div></div>
<script src="reveal/dist/reveal.js"></script>
<script src="reveal/plugin/notes/notes.js"></script>
<script>{player_js}</script>
<script>
// A player on the current slide moves with its keys (reveal.js keeps the arrows): the
// control's next or previous position, announced as a slider move is.
function movePlayer(k, step) {{
  var slide = Reveal.getCurrentSlide();
  var field = slide && slide.querySelector('.pp-player [data-k="' + k + '"]');
  if (!field) return;
  if (field.type === "checkbox") {{
    field.checked = step > 0;
  }} else if (field.tagName === "SELECT") {{
    field.selectedIndex = Math.max(0, Math.min(field.options.length - 1, field.selectedIndex + step));
  }} else {{
    field.value = String(Math.max(+field.min, Math.min(+field.max, +field.value + step)));
  }}
  field.dispatchEvent(new Event("input", {{bubbles: true}}));
}}
var playerKeys = {{}};
{player_keys}
// A control clicked with the mouse gives the keyboard back to the deck (the arrows).
document.addEventListener("change", function (e) {{
  if (e.target.closest && e.target.closest(".pp-player")) e.target.blur();
}});
document.addEventListener("pointerup", function (e) {{
  var field = e.target.closest && e.target.closest(".pp-player input, .pp-player select");
  if (field && field.type === "range") setTimeout(function () {{ field.blur(); }}, 0);
}});
// Typeset first, then lay out: reveal measures the slides once maths has its size.
function startDeck() {{
  // A display formula wider than the slide is set smaller until it fits (not below 60 %).
  document.querySelectorAll(".formula").forEach(function (box) {{
    var size = 38;
    while (box.scrollWidth > box.clientWidth + 1 && size > 20) {{
      size -= 2; box.style.fontSize = size + "px";
    }}
  }});
  document.documentElement.classList.remove("typesetting");
  // Whatever still spills out of its 1280 x 720 slide (a long inline formula, one
  // formula too many) is set smaller, figure first, text down to 28 px, never below.
  function fits(slide) {{
    return slide.scrollHeight <= 720 + 2 && slide.scrollWidth <= 1280 + 2;
  }}
  function fitSlide(slide) {{
    if (!slide || slide.dataset.fitted || slide.querySelector("section")) return;
    slide.dataset.fitted = "1";
    var img = slide.querySelector("img.figure");
    while (img && !fits(slide) && img.clientHeight > 360) {{
      img.style.height = (img.clientHeight - 20) + "px";
    }}
    var boxes = slide.querySelectorAll("ul.ideas, p.statement, .formula, ul.checks");
    for (var size = 36; size >= 28 && !fits(slide); size -= 2) {{
      boxes.forEach(function (box) {{
        if (parseFloat(getComputedStyle(box).fontSize) > size) box.style.fontSize = size + "px";
      }});
    }}
  }}
  Reveal.on("ready", function (event) {{
    document.querySelectorAll(".reveal .slides section").forEach(function (s) {{
      if (s.offsetParent !== null) fitSlide(s);  // the current slide; every page when printing
    }});
  }});
  Reveal.on("slidechanged", function (event) {{ fitSlide(event.currentSlide); }});
  Reveal.initialize({{
    width: 1280, height: 720, margin: 0.04, center: false, hash: true, slideNumber: "c/t",
    transition: "none", pdfSeparateFragments: false, pdfMaxPagesPerSlide: 1,
    keyboard: playerKeys, plugins: [RevealNotes]
  }}).then(function () {{ document.body.dataset.deckReady = "1"; }});
}}
// MathJax 3's startup promise resolves once every formula is typeset; a failure is
// reported (the tests read the console) and the deck starts all the same.
if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {{
  MathJax.startup.promise.then(startDeck, function (err) {{
    console.error("MathJax: " + err); startDeck();
  }});
}} else {{ startDeck(); }}
</script>
</body></html>
"""


#: Heights in px at 1280 x 720: the figure gets what the title, caption and ✓ lines leave.
FIGURE_MAX, FIGURE_MIN = 540, 440
CAPTION_LINE, CHECK_LINE, CHARS_PER_LINE = 34, 40, 80


STATEMENT_LINE, STATEMENT_CHARS, CONTROL_ROW = 40, 72, 46
#: Keys that move a player's controls on a slide (reveal.js keeps the arrows, space,
#: N/P, H/J/K/L, B, V, ".", F, O, S, G, "?" and Esc): "[" / "]" the first control, "-" /
#: "=" the second, "9" / "0" the third. Key codes as Chromium and Firefox send them.
PLAYER_KEYS = (("[", "]", (219,), (221,)), ("-", "=", (189, 173), (187, 61)), ("9", "0", (57,), (48,)))


def figure_height(slide: Slide) -> int:
    """The figure's height on its slide, so that statement, caption and ✓ lines still fit.

    >>> figure_height(Slide("T", figure=("image/png", "", "")))
    540
    >>> figure_height(Slide("T", figure=("image/png", "", ""), checks=["✓ " + "x" * 100]))
    460
    """
    lines = -(-len(slide.caption) // CHARS_PER_LINE) * CAPTION_LINE
    lines += sum(-(-len(c) // CHARS_PER_LINE) * CHECK_LINE for c in slide.checks)
    lines += -(-len(slide.statement) // STATEMENT_CHARS) * STATEMENT_LINE
    if slide.player is not None:
        controls = len(slide.player.manifest["controls"])
        lines += CONTROL_ROW * (1 + (controls > 2)) + CAPTION_LINE  # controls, the keys line
    return max(FIGURE_MIN - 40 * (slide.player is not None), FIGURE_MAX - lines)


def _keys_line(player: Any) -> str:
    """What to press to move a player on its slide, named after its controls."""
    parts = []
    for (down, up, _, _), control in zip(PLAYER_KEYS, player.manifest["controls"], strict=False):
        parts.append(f"<kbd>{html.escape(down)}</kbd> <kbd>{html.escape(up)}</kbd> "
                     f"{html.escape(control['label'])}")
    return '<p class="keys">Keys: ' + " · ".join(parts) + "</p>"


def _player_html(slide: Slide, uid: str) -> str:
    """The site's player (its markup, the deck's frames/ folder) sized for the slide."""
    from coursetools.shared.players.frames import player_html

    markup = player_html(slide.player, frames_url="frames/", binder="", colab="", uid=uid)
    markup = re.sub(r'<p class="pp-note.*?</p>', "", markup, flags=re.S)  # links: not projected
    # The site's data table and sound button serve a reader at a screen, not a projected
    # slide (the table alone holds a row per frame): the lecturer's notes carry the lesson.
    markup = re.sub(r'<details class="pp-table".*?</details>', "", markup, flags=re.S)
    markup = re.sub(r'<p class="pp-sound-row">.*?</p>', "", markup, flags=re.S)
    # On a slide the keys move the controls (said under the figure): no minus/plus buttons,
    # which would take the figure's room.
    markup = re.sub(r'<button type="button" class="pp-step".*?</button>', "", markup, flags=re.S)
    height = figure_height(slide)
    markup = markup.replace('class="pp-frame"', f'class="pp-frame figure" style="height: {height}px"', 1)
    return markup + _keys_line(slide.player)


def _section(slide: Slide, lesson_label: str, uid: str = "pp", outline: list[str] | None = None) -> str:
    parts = []
    if slide.first:
        parts.append(f"<h1>{markdown_html(slide.title)[3:-5]}</h1>")
        parts.append(f'<p class="subtitle">{html.escape(lesson_label)}</p>')
        if outline:
            parts.append('<ol class="outline">' + "".join(
                f"<li>{markdown_html(o)[3:-5]}</li>" for o in outline) + "</ol>")
    else:
        parts.append(f"<h2>{markdown_html(slide.title)[3:-5]}</h2>")
    bullets = [i for i in slide.items if not i.startswith("$$")]
    formulas = [i for i in slide.items if i.startswith("$$")]
    if bullets:
        parts.append('<ul class="ideas">' + "".join(
            f"<li>{markdown_html(b)[3:-5]}</li>" for b in bullets) + "</ul>")
    for formula in formulas:
        parts.append(f'<div class="formula">{markdown_html(formula)}</div>')
    if slide.statement:
        parts.append(f'<p class="statement">{markdown_html(slide.statement)[3:-5]}</p>')
    if slide.player is not None:
        parts.append(_player_html(slide, uid))
        if slide.caption:
            pass  # the player's own status line is its caption, and it moves with it
    elif slide.figure is not None:
        mime, data, alt = slide.figure
        src = (f"data:{mime};base64,{data}" if mime != "image/svg+xml"
               else "data:image/svg+xml;base64," + base64.b64encode(data.encode()).decode())
        height = figure_height(slide)
        parts.append(f'<img class="figure" src="{src}" style="height: {height}px" '
                     f'alt="{html.escape(alt or slide.title)}">')
        if slide.caption:
            parts.append(f'<p class="caption">{html.escape(slide.caption)}</p>')
    if slide.checks:
        parts.append('<ul class="checks">' + "".join(
            f'<li class="fragment">{markdown_html(check_line_tex(c))[3:-5]}</li>'
            for c in slide.checks) + "</ul>")
    if slide.notes:
        notes = "\n".join(markdown_html(n) for n in slide.notes)
        parts.append(f'<aside class="notes">{notes}</aside>')
    cls = ' class="title-slide"' if slide.first else ""
    return f"<section{cls}>\n" + "\n".join(parts) + "\n</section>"


def deck_html(slides: list[Slide], title: str, lesson_label: str) -> str:
    """One deck as HTML: horizontal slides, their subslides nested below them."""
    groups: list[list[Slide]] = []
    for slide in slides:
        if slide.vertical and groups:
            groups[-1].append(slide)
        else:
            groups.append([slide])
    sections = []
    outline = [g[0].title for g in groups[1:] if g[0].title.lower() != "summary"][:12]
    for h, group in enumerate(groups):
        inner = [_section(s, lesson_label, f"pp-{h}-{v}", outline if s.first else None)
                 for v, s in enumerate(group)]
        sections.append(inner[0] if len(inner) == 1 else "<section>\n" + "\n".join(inner) + "\n</section>")
    from coursetools.shared.players.assets import PLAYER_CSS, PLAYER_JS

    keys = "\n".join(
        f"playerKeys[{code}] = function () {{ movePlayer({k}, {step}); }};"
        for k, (_, _, down, up) in enumerate(PLAYER_KEYS)
        for codes, step in ((down, -1), (up, 1)) for code in codes)
    return _PAGE.format(title=html.escape(title), css=_CSS, sections="\n".join(sections),
                        player_css=PLAYER_CSS, player_js=PLAYER_JS, player_keys=keys,
                        mathjax_config=json.dumps(MATHJAX_CONFIG))


def reveal_root() -> Path:
    """reveal.js as the ``sphinx-revealjs`` package ships it (MIT licence)."""
    try:
        import sphinx_revealjs
    except ImportError:
        raise CourseToolsError(
            "reveal.js comes from the sphinx-revealjs package: "
            "run  .venv/bin/python -m pip install -e \".[instructor]\"") from None
    root = Path(sphinx_revealjs.__file__).parent / "_static" / "revealjs"
    if not (root / "dist" / "reveal.js").is_file():
        raise CourseToolsError(f"reveal.js not found in {root}")
    return root


def copy_assets(deck_dir: Path) -> None:
    """reveal.js (core, white theme, notes plugin) and MathJax 3 into the deck's folder."""
    root = reveal_root()
    for part in ("dist/reset.css", "dist/reveal.css", "dist/reveal.js", "dist/theme/white.css",
                 "dist/theme/fonts/source-sans-pro", "plugin/notes/notes.js",
                 "plugin/notes/speaker-view.html", "LICENSE"):
        src, target = root / part, deck_dir / "reveal" / part
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target, dirs_exist_ok=True)
        elif src.exists():
            shutil.copyfile(src, target)
    copy_mathjax(deck_dir / "mathjax")


def build_deck(lesson: Path, out_dir: Path, players: list[Any] | None = None,
               frames_dir: Path | None = None) -> Path:
    """Write ``out_dir/NN_name/index.html`` (and its assets); return the HTML path.

    ``players`` (the lesson's :class:`coursetools.shared.players.frames.Player` list, frames in
    ``frames_dir``) make its slider figures move on their slides.
    """
    from coursetools.shared.cells import lesson_title

    nb = nbformat.read(lesson, as_version=4)
    if not any("slideshow" in c.metadata for c in nb.cells):
        apply_metadata(nb)  # an unmarked lesson gets the default deck
    by_cell = {p.cell: p for p in players or []}
    slides = lesson_slides(nb, by_cell)
    if not slides:
        raise CourseToolsError(f"{lesson.name}: no slides (no headings?)")
    deck_dir = out_dir / lesson.stem
    if deck_dir.exists():
        shutil.rmtree(deck_dir)
    deck_dir.mkdir(parents=True)
    copy_assets(deck_dir)
    shown = [s.player for s in slides if s.player is not None]
    if shown and frames_dir is not None:
        from coursetools.shared.players.frames import player_frames

        (deck_dir / "frames").mkdir()
        for sha in sorted(player_frames({lesson.stem: shown})):
            shutil.copyfile(frames_dir / f"{sha}.png", deck_dir / "frames" / f"{sha}.png")
    title = lesson_title(nb, lesson.stem)
    label = f"perceptron-course · {lesson.stem[:2].lstrip('0') and 'lesson ' + lesson.stem[:2].lstrip('0')}"
    page = deck_dir / "index.html"
    page.write_text(deck_html(slides, title, label), encoding="utf-8")
    (deck_dir / "slides.json").write_text(json.dumps(
        {"lesson": lesson.name, "slides": len(slides), "players": len(shown),
         "notes": sum(1 for s in slides if s.notes)}), encoding="utf-8")
    return page


def print_pdf(page: Path, pdf: Path) -> None:
    """Print a deck to PDF with Chromium (reveal's print view, one slide per page)."""
    from coursetools.shared.browser import Browser, find_chromium

    chromium = find_chromium()
    if chromium is None:
        raise CourseToolsError("Chromium not found: install Debian's 'chromium' (the PDFs need it)")
    browser = Browser(chromium)
    try:
        tab = browser.page()
        tab.goto(page.resolve().as_uri() + "?print-pdf", wait_until="load")
        tab.wait_for_function("document.body.dataset.deckReady === '1'", timeout=60_000)
        tab.wait_for_timeout(300)
        tab.pdf(path=str(pdf), width="1280px", height="720px", print_background=True,
                margin={"top": "0", "bottom": "0", "left": "0", "right": "0"})
        if browser.blocked:
            raise CourseToolsError(f"{page}: the deck asked the network for {browser.blocked[:3]}")
    finally:
        browser.close()


def build(out_dir: Path | str | None = None, lessons: list[int] | None = None, *,
          pdf: bool = True, verbose: bool = True, players: bool = True,
          cache_dir: Path | None = None) -> list[Path]:
    """Build the decks (and PDFs) of the given lesson numbers (default: all).

    With ``players`` every slider figure moves on its slide: the site's frames
    (``coursetools.shared.players.frames``, cached in ``.cache/site-frames``; rendered in kernels the
    first time) and its player script.
    """
    out = (repo_root() / DEFAULT_OUT if out_dir is None else Path(out_dir)).resolve()
    root = repo_root().resolve()
    if out in (root, root / "notebooks", root / "coursetools", root / "perclib", root / "tests"):
        raise CourseToolsError(f"refusing to write slides into {out}: choose another --out")
    found = lesson_notebooks()
    if lessons:
        wanted = {f"{n:02d}" for n in lessons}
        unknown = wanted - {p.name[:2] for p in found}
        if unknown:
            raise CourseToolsError(f"--lesson {', '.join(sorted(unknown))}: no such lesson")
        found = [p for p in found if p.name[:2] in wanted]
    reveal_root()  # reveal.js missing: say so before creating any folder
    found_players: dict[str, list[Any]] = {}
    frames_dir = None
    if players:
        from coursetools.shared.players.frames import CACHE_DIR, render_players

        cache = (cache_dir or repo_root() / CACHE_DIR).resolve()
        found_players = render_players(found, cache_dir=cache, show_progress=verbose)
        frames_dir = cache / "frames"
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    from coursetools.shared.common import progress

    pdf_cache = deck_pdf_cache() if pdf else None
    bar = progress(found, desc="slides", unit="deck", enabled=verbose)
    for lesson in bar:
        start = time.perf_counter()
        bar.set_postfix_str(f"{lesson.stem}: deck")
        page = build_deck(lesson, out, found_players.get(lesson.stem), frames_dir)
        if pdf:
            # The PDF is a print of the deck: the same deck files print the same PDF.
            target = page.parent / f"{lesson.stem}.pdf"
            target.unlink(missing_ok=True)
            key = pdf_cache.key(page.parent)
            if pdf_cache.restore(key, [target]) is None:
                bar.set_postfix_str(f"{lesson.stem}: printing the PDF")
                print_pdf(page, target)
                pdf_cache.store(key, [target])
        pages.append(page)
        if verbose:
            count = json.loads((page.parent / "slides.json").read_text())["slides"]
            bar.write(f"{lesson.stem}: {count} slides -> {page.parent} ({time.perf_counter() - start:.1f} s)",
                      file=sys.stdout)
    bar.close()
    return pages


def deck_pdf_cache():
    """Printed decks by the hash of the deck's files, this package's code, Playwright's
    version and the Chromium that prints them (``.cache/slides-pdf``)."""
    from coursetools.shared.browser import find_chromium
    from coursetools.shared.output_cache import OutputCache, source_digest

    chromium = find_chromium()
    stat = Path(chromium).resolve().stat() if chromium else None
    code = source_digest([Path(__file__).resolve().parent], ["playwright"])
    code += f"|{chromium}:{stat.st_size if stat else 0}:{stat.st_mtime_ns if stat else 0}"
    return OutputCache(repo_root() / ".cache" / "slides-pdf", code)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m coursetools.slides",
        description="Lecture slides (reveal.js + PDF) from the lessons' stored outputs.")
    parser.add_argument("--out", type=Path, default=repo_root() / DEFAULT_OUT,
                        help=f"output folder (default: {DEFAULT_OUT}/ at the repository root)")
    parser.add_argument("--lesson", type=int, action="append", metavar="N",
                        help="only lesson N (repeatable)")
    parser.add_argument("--no-pdf", action="store_true", help="skip the PDF print")
    parser.add_argument("--no-players", action="store_true",
                        help="still figures only (no frames rendered, no kernel started)")
    parser.add_argument("--metadata", action="store_true",
                        help="write the slide metadata (slideshow.slide_type) into the lessons")
    parser.add_argument("--check-metadata", action="store_true",
                        help="exit 1 if a lesson's slide metadata is out of date")
    args = parser.parse_args(argv)
    if args.metadata or args.check_metadata:
        stale = []
        for lesson in lesson_notebooks():
            nb = nbformat.read(lesson, as_version=4)
            if apply_metadata(nb):
                stale.append(lesson.name)
                if args.metadata:
                    from coursetools.shared.roles import write_notebook

                    write_notebook(nb, lesson)
        if args.check_metadata and stale:
            print(f"slide metadata out of date: {', '.join(stale)} "
                  "(run python -m coursetools.slides --metadata)")
            raise SystemExit(1)
        print("slide metadata up to date" if not stale else f"wrote slide metadata: {', '.join(stale)}")
        return
    build(args.out, args.lesson, pdf=not args.no_pdf, players=not args.no_players)

