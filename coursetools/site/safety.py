"""The site runs only its own scripts: lessons carrying active HTML are refused.

A lesson's Markdown and its stored outputs reach the published site as HTML. The build
(``coursetools.site``) checks every lesson before it writes anything and stops, naming
the notebook and the cell, when it finds:

* a ``<script>``, ``<iframe>``, ``<frame>``, ``<object>`` or ``<embed>`` element;
* an event-handler attribute (``onclick=``, ``onerror=``, any ``on...=`` in a tag);
* a ``javascript:``, ``vbscript:`` or ``data:text/html`` link (also spelled with HTML
  entities or split by white space, as browsers read it);
* an output of type ``application/javascript`` or ``text/javascript``.

Markdown is checked outside code (fenced blocks and inline code show HTML as text);
outputs of type HTML, Markdown, SVG and LaTeX are checked whole; raw cells too. The
course's own players and question widgets are injected by the build *after* this
check, so they are never refused. Plain text and images are not HTML and pass.

Example
-------
>>> problems_in_html('<p onclick="steal()">x</p>')
['an event-handler attribute (onclick=)']
>>> problems_in_html('<a href="https://example.org">fine</a>')
[]
"""

from __future__ import annotations

import html
import re

from coursetools.shared.common import CourseToolsError

_ELEMENT = re.compile(r"<\s*(script|iframe|frame|object|embed)\b", re.I)
_HANDLER = re.compile(r"<[a-z][^>]*?[\s/\"'](on[a-z]+)\s*=", re.I | re.S)
_SCHEME = re.compile(r"(javascript|vbscript)\s*:|data\s*:\s*text/html", re.I)
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
#: Output types that are HTML (or may hold it) when the page shows them.
HTML_MIMES = ("text/html", "text/markdown", "image/svg+xml", "text/latex")
SCRIPT_MIMES = ("application/javascript", "text/javascript")


def problems_in_html(text: str) -> list[str]:
    """What in ``text`` would run a script on the page (empty when nothing)."""
    found = []
    for m in _ELEMENT.finditer(text):
        found.append(f"a <{m.group(1).lower()}> element")
    for m in _HANDLER.finditer(text):
        found.append(f"an event-handler attribute ({m.group(1).lower()}=)")
    # Browsers decode entities and drop tabs and newlines inside a URL.
    decoded = re.sub(r"[\t\r\n\x00]", "", html.unescape(text))
    for m in _SCHEME.finditer(decoded):
        found.append(f"a {m.group(0).lower().replace(' ', '')} link")
    return list(dict.fromkeys(found))


def _markdown_text(source: str) -> str:
    """Markdown without its code (where HTML is shown as text, not run)."""
    return _INLINE_CODE.sub("", _FENCE.sub("", source))


def notebook_problems(nb, name: str) -> list[str]:
    """One line per unsafe thing in the lesson ``nb`` (shown as ``name``)."""
    lines = []
    for index, cell in enumerate(nb.cells):
        where = f"{name}, cell {index} ({cell.cell_type}, id {cell.get('id', '?')})"
        texts = []
        if cell.cell_type == "markdown":
            texts.append(("its Markdown", _markdown_text(cell.source)))
        elif cell.cell_type == "raw":
            texts.append(("its raw text", cell.source))
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            for mime in SCRIPT_MIMES:
                if mime in data:
                    lines.append(f"{where}: an output of type {mime} (a script)")
            for mime in HTML_MIMES:
                if mime in data:
                    value = data[mime]
                    texts.append((f"its {mime} output", "".join(value) if isinstance(value, list) else value))
        for what, text in texts:
            for problem in problems_in_html(text):
                lines.append(f"{where}: {problem} in {what}")
    return lines


def refuse_unsafe(nb, name: str) -> None:
    """Raise ``CourseToolsError`` listing what in the lesson would run on the site."""
    lines = notebook_problems(nb, name)
    if lines:
        raise CourseToolsError(
            "the site runs only its own scripts; remove these from the lesson:\n  "
            + "\n  ".join(lines)
        )
