"""What a lesson's cells show where no kernel runs: the handouts, the site and the slides.

Widgets keep only their static fallback (:func:`static_outputs`), a lesson is named by its
first heading (:func:`lesson_title`) and a figure's alt text is its own description when
it has one (:func:`image_alt`). Each product builds on these; none imports another.
"""

from __future__ import annotations

import copy
import re

import nbformat

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
IMAGE_MIMES = ("image/png", "image/jpeg", "image/gif", "image/webp")
_DEFAULT_REPR = re.compile(r"^<\w*Figure size [^>]*>$")


def static_outputs(nb):
    """A copy of ``nb`` in which widgets show only their static fallback.

    The widget-view bundle is removed from every output; an output left with only a
    text repr of the widget (``interactive(children=...)``, ``VBox(...)``) is
    dropped; images and other rich data stay. Saved widget state is removed.
    """
    nb = copy.deepcopy(nb)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        kept = []
        for out in cell.get("outputs", []):
            data = out.get("data")
            if data is not None and (WIDGET_VIEW in data or WIDGET_STATE in data):
                data.pop(WIDGET_VIEW, None)
                data.pop(WIDGET_STATE, None)
                data.pop("text/plain", None)  # the repr of the widget object
                if not data:
                    continue
            kept.append(out)
        cell.outputs = kept
    return nb


def lesson_title(nb, fallback: str) -> str:
    """The text of the lesson's first heading (markdown markup removed).

    >>> from nbformat import v4
    >>> lesson_title(v4.new_notebook(cells=[v4.new_markdown_cell("# Lesson 2: *XOR*")]), "x")
    'Lesson 2: XOR'
    """
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        match = re.search(r"^#{1,6}\s+(.+?)\s*#*\s*$", cell.source, flags=re.M)
        if match:
            text = re.sub(r"[*_`]|\$", "", match.group(1))
            text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
            return re.sub(r"\s+", " ", text).strip() or fallback
    return fallback


def plain_text(text: str) -> str:
    """Markdown heading text without markup (for alt text)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*_`$\\]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def image_alt(description: str, heading: str) -> str:
    """Alt text of a figure: its own description if informative, else the heading's.

    >>> image_alt("<CourseFigure size 840x400 with 2 Axes>", "The bias trick")
    'Figure: The bias trick'
    >>> image_alt("Left: the unit's line.", "The bias trick")
    "Left: the unit's line."
    """
    description = re.sub(r"\s+", " ", description).strip()
    if description and not _DEFAULT_REPR.match(description):
        return description
    return f"Figure: {heading}" if heading else "Figure"


def built_markdown_cell(source: str, cell_id: str) -> nbformat.NotebookNode:
    """A Markdown cell a build adds to a lesson, with a fixed id (nbformat draws a random
    one): the same lesson then gives the same bytes, which the caches rely on.

    >>> built_markdown_cell("Downloads", "site-downloads").id
    'site-downloads'
    """
    cell = nbformat.v4.new_markdown_cell(source)
    cell["id"] = cell_id
    return cell
