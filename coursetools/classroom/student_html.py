"""Student HTML made inert before the instructor (formgrader) or a student (feedback) sees it.

A submitted notebook is the student's own document: its Markdown cells may hold raw HTML,
and its code writes ``text/html``, ``image/svg+xml`` or ``application/javascript``
outputs when autograde runs it. nbconvert (which renders the formgrader's grading page
and the feedback) passes all of that through as markup, so a student's ``<script>`` or
``<img onerror>`` would run in the instructor's browser, from the instructor's origin,
with the instructor's Jupyter API at hand.

``NeutraliseStudentHTML`` is an nbconvert preprocessor that leaves only passive markup:

* HTML (a ``text/html`` output, a raw cell, the HTML inside Markdown) is parsed with the
  standard library's ``html.parser`` and written again from what was parsed: allowed
  elements (text, tables, lists, images, links, ...) with allowed attributes, quoted and
  escaped; every other tag (``script``, ``iframe``, ``form``, ``base``, ``meta``, ``object``,
  ``svg`` inside HTML, ...) is written as visible text, an event handler (``on...``) or an
  ``id``/``name`` is dropped, a link whose scheme is not http(s) or mailto is dropped, and
  an image keeps its source only when the notebook carries it (a ``data:image`` URL or a
  cell attachment): an image from elsewhere would tell its server when the page is
  read; an image without ``alt`` gets one. HTML longer than ``MAX_HTML`` characters is
  shown as text unparsed, and the text after the last ``>`` is text (no tag can close
  there), which keeps the parser's time linear in the input;
* a Markdown cell is rendered as nbconvert renders it; when the result is not passive,
  its HTML is cleaned as above and, should Markdown itself still make an active link
  (``[x](javascript:...)``), the cell is shown as its source text in a code block;
* an ``image/svg+xml`` or ``text/markdown`` output that is not passive, and every output
  type nbconvert would run or embed as code (``application/javascript``, widget views,
  anything unknown), becomes ``text/plain`` (shown as text); output metadata keeps only
  numeric image sizes (nbconvert writes them into unquoted attributes); the notebook's
  widget state and non-image cell attachments are removed.

The class's instructor configuration runs it at the end of autograde (the stored
``autograded/`` notebook is clean) and in every HTML export of the instructor (the
formgrader's pages and the feedback), so a notebook graded before is cleaned when shown.

Example
-------
>>> clean_html('<b onclick="steal()">hi</b><script>steal()</script>')
'<b>hi</b>&lt;script>steal()&lt;/script>'
>>> active_parts('<a href="java&#9;script:alert(1)">x</a>')
['a href=javascript:alert(1)']
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

from nbconvert.preprocessors import Preprocessor

#: Elements a student's HTML may keep (their text is always kept).
ALLOWED_TAGS = frozenset({
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup", "dd",
    "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3",
    "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q",
    "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td",
    "tfoot", "th", "thead", "tr", "u", "ul", "var", "wbr",
})
#: Attributes an allowed element may keep; URLs are checked on top.
ALLOWED_ATTRS = frozenset({
    "align", "alt", "border", "class", "colspan", "dir", "height", "href", "lang", "rowspan",
    "scope", "span", "src", "start", "style", "title", "type", "valign", "width", "open",
})
#: Attributes (any element, HTML or SVG) whose value the browser loads or navigates to.
URL_ATTRS = frozenset({
    "action", "background", "cite", "data", "formaction", "href", "icon", "manifest",
    "ping", "poster", "src", "srcset", "xlink:href", "codebase", "dynsrc", "lowsrc",
})
#: Elements that are active whatever their attributes (in SVG too).
ACTIVE_TAGS = frozenset({
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "form", "input",
    "button", "select", "textarea", "base", "meta", "link", "foreignobject", "animate",
    "set", "animatemotion", "animatetransform", "portal", "noscript", "template", "math",
    "handler", "listener", "feimage",
})
SAFE_SCHEMES = ("http:", "https:", "mailto:")
IMAGE_DATA = ("data:image/png;", "data:image/jpeg;", "data:image/gif;", "data:image/webp;")
#: Style text that could load something or run something (old browsers' expression()).
_CSS_ACTIVE = ("url(", "@import", "expression", "javascript:", "\\", "behavior", "binding", "</")
#: Output types nbconvert shows as passive text or image (kept as they are).
PASSIVE_OUTPUTS = frozenset({"text/plain", "image/png", "image/jpeg", "image/gif", "text/latex"})
#: Longer HTML is shown as text without parsing (a bound on the parser's time).
MAX_HTML = 200_000
IMAGE_ATTACHMENTS = frozenset({"image/png", "image/jpeg", "image/gif"})
_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*:")


def _url_problem(value: str, tag: str) -> str | None:
    """Why ``value`` (a URL attribute of ``tag``) is active, or None."""
    # Browsers drop whitespace and control characters inside a scheme ("java\tscript:").
    squeezed = "".join(ch for ch in value if ch > " " and ch != "\x7f").lower()
    if _SCHEME.match(squeezed) is None:
        return None  # relative: the page's own origin (an attachment, a local image)
    if squeezed.startswith(SAFE_SCHEMES):
        return None
    if tag == "img" and squeezed.startswith(IMAGE_DATA):
        return None
    if tag == "img" and squeezed.startswith("attachment:"):
        return None
    return squeezed


def _embedded_image(value: str) -> bool:
    """An image carried by the notebook itself (a data: URL or a cell attachment)."""
    squeezed = "".join(ch for ch in value if ch > " " and ch != "\x7f").lower()
    return squeezed.startswith(IMAGE_DATA) or squeezed.startswith("attachment:")


def _style_problem(value: str) -> bool:
    low = value.lower()
    return any(word in low for word in _CSS_ACTIVE)


class _Cleaner(HTMLParser):
    """Rewrites HTML from its parse: passive elements kept, the rest as visible text."""

    def __init__(self, *, allowed: frozenset[str], any_attribute: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.allowed, self.any_attribute = allowed, any_attribute
        self.out: list[str] = []
        self.found: list[str] = []

    # -- what the parser meets -------------------------------------------------------
    def handle_starttag(self, tag, attrs):
        self._tag(tag, attrs, self.get_starttag_text() or f"<{tag}>", closing="")

    def handle_startendtag(self, tag, attrs):
        self._tag(tag, attrs, self.get_starttag_text() or f"<{tag}/>", closing=" /")

    def handle_endtag(self, tag):
        if tag in self.allowed and tag not in ACTIVE_TAGS:
            self.out.append(f"</{tag}>")
        else:
            self.out.append(_text(f"</{tag}>"))

    def handle_data(self, data):
        if self.lasttag in ("style",) and "style" in self.allowed and _style_problem(data):
            self.found.append("style text")
            self.out.append(_text(data))
            return
        self.out.append(_text(data))

    def handle_comment(self, data):
        self.found.append("comment") if data.strip().startswith("[if") else None

    def handle_decl(self, decl):
        pass  # a doctype or CDATA declaration: nothing to show

    def unknown_decl(self, data):
        self.out.append(_text(data))

    def handle_pi(self, data):
        self.found.append("processing instruction")

    # -- one tag ---------------------------------------------------------------------
    def _tag(self, tag, attrs, raw, closing):
        if tag in ACTIVE_TAGS or tag not in self.allowed:
            self.found.append(tag)
            self.out.append(_text(raw))  # shown as the student typed it
            return
        kept = []
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.found.append(f"{tag} {name}")
            elif name in URL_ATTRS and self.any_attribute:  # SVG: its own parts or images
                inside = value.strip().startswith("#") or _url_problem(value, "img") is None and \
                    value.strip().lower().startswith(IMAGE_DATA)
                if inside:
                    kept.append((name, value))
                else:
                    self.found.append(f"{tag} {name}={value[:40]}")
            elif tag == "img" and name == "src" and not _embedded_image(value):
                self.found.append(f"img src={value[:40]}")  # a request each time it is shown
            elif name in URL_ATTRS:
                problem = _url_problem(value, tag)
                if problem is not None:
                    self.found.append(f"{tag} {name}={problem}")
                elif name in ("href", "src"):
                    kept.append((name, value))
                else:
                    self.found.append(f"{tag} {name}")
            elif name == "style" and _style_problem(value):
                self.found.append(f"{tag} style")
            elif name in ("id", "name") and not self.any_attribute:
                continue  # would let a student's element stand for one of the page's
            elif self.any_attribute or name in ALLOWED_ATTRS:
                kept.append((name, value))
        if tag == "img" and not self.any_attribute and "alt" not in {n for n, _ in kept}:
            kept.append(("alt", "an image of the submission"))  # every image says something
        attributes = "".join(f' {n}="{html.escape(v, quote=True)}"' for n, v in kept)
        self.out.append(f"<{tag}{attributes}{closing}>")


def _text(data: str) -> str:
    # Only '&' and '<' can begin markup in text; '>' stays (Markdown's quotes use it).
    return data.replace("&", "&amp;").replace("<", "&lt;")


def _run(text: str, allowed: frozenset[str], any_attribute: bool) -> _Cleaner:
    cleaner = _Cleaner(allowed=allowed, any_attribute=any_attribute)
    if len(text) > MAX_HTML:
        cleaner.found.append(f"{len(text)} characters of HTML (more than {MAX_HTML})")
        cleaner.out.append(_text(text))
        return cleaner
    # After the last '>' no tag can close: that tail is text. (Python 3.11's parser would
    # look for the end of each '<' there again: quadratic time on '<a <a <a ...'.)
    end = text.rfind(">") + 1
    cleaner.feed(text[:end])
    cleaner.close()
    cleaner.out.append(_text(text[end:]))
    return cleaner


def clean_html(text: str) -> str:
    """``text`` with only passive markup: every active part is dropped or shown as text."""
    return "".join(_run(text, ALLOWED_TAGS, any_attribute=False).out)


def active_parts(text: str) -> list[str]:
    """What in the HTML ``text`` would run, load or navigate (empty: passive)."""
    return _run(text, ALLOWED_TAGS, any_attribute=False).found


#: SVG elements a drawing needs (matplotlib's SVG among them); anything else is active.
SVG_TAGS = frozenset({
    "svg", "g", "defs", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon",
    "text", "tspan", "clippath", "lineargradient", "radialgradient", "stop", "pattern",
    "mask", "marker", "symbol", "title", "desc", "metadata", "style", "filter", "use", "image",
    "fegaussianblur", "feoffset", "feblend", "fecolormatrix", "femerge", "femergenode",
    "rdf:rdf", "cc:work", "dc:format", "dc:type", "dc:date", "dc:creator", "cc:agent",
    "dc:title", "dc:description",
})


def svg_active_parts(text: str) -> list[str]:
    """What in the SVG ``text`` is active (an empty list: a passive drawing)."""
    return _run(text, SVG_TAGS, any_attribute=True).found


def _markdown_html(source: str, attachments: dict | None = None) -> str | None:
    """The cell as nbconvert renders it (None: nbconvert cannot, e.g. a missing attachment)."""
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    renderer = IPythonRenderer(escape=False, attachments=attachments or {})
    try:
        return MarkdownWithMath(renderer=renderer).render(source)
    except Exception:  # noqa: BLE001 - nbconvert's errors vary; shown as text below
        return None


def _passive_markdown(source: str, attachments: dict | None = None) -> bool:
    rendered = _markdown_html(source, attachments)
    return rendered is not None and not active_parts(rendered)


def _as_code_block(source: str) -> str:
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", source)), default=0))
    return ("*(active content from the submission, shown as text)*\n\n"
            f"{fence}text\n{source}\n{fence}\n")


def neutralise_markdown(source: str, attachments: dict | None = None) -> str:
    """A Markdown source whose rendering is passive (``source`` itself when it already is).

    A cell nbconvert cannot render (an attachment it names is missing) is shown as text
    too: the page is still rendered.
    """
    if _passive_markdown(source, attachments):
        return source
    cleaned = clean_html(source)
    if _passive_markdown(cleaned, attachments):
        return cleaned
    return _as_code_block(source)


def _text_of(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def neutralise_output(output) -> None:
    """Make one code-cell output passive, in place."""
    data = output.get("data")
    if not isinstance(data, dict):
        return
    shown: list[str] = []
    for mime in list(data):
        value = _text_of(data[mime]) if mime != "application/json" else data[mime]
        if mime in PASSIVE_OUTPUTS:
            continue
        if mime == "text/html":
            if active_parts(value):
                data[mime] = clean_html(value)
            continue
        if mime == "image/svg+xml" and not svg_active_parts(value):
            continue
        if mime == "text/markdown" and _passive_markdown(value):
            continue
        del data[mime]
        shown.append(f"[{mime} output from the submission, shown as text]\n{value}")
    if shown:
        plain = _text_of(data.get("text/plain", ""))
        data["text/plain"] = "\n".join([*shown, plain] if plain else shown)
    sizes = {}
    for mime, meta in dict(output.get("metadata") or {}).items():
        if isinstance(meta, dict):
            keep = {k: v for k, v in meta.items() if k in ("width", "height")
                    and isinstance(v, (int, float)) and not isinstance(v, bool)}
            if keep:
                sizes[mime] = keep
    if "metadata" in output:
        output["metadata"] = sizes


def neutralise_notebook(nb) -> None:
    """Make every student-written part of ``nb`` passive, in place."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        attachments = cell.get("attachments")
        if not isinstance(attachments, dict):
            attachments = None
        else:
            for name in list(attachments):
                bundle = attachments[name]
                if not isinstance(bundle, dict):
                    del attachments[name]
                    continue
                for mime in list(bundle):
                    if mime not in IMAGE_ATTACHMENTS:
                        del bundle[mime]
        if cell.cell_type == "markdown":
            cell.source = neutralise_markdown(_text_of(cell.source), attachments)
        elif cell.cell_type == "raw":
            cell.source = clean_html(_text_of(cell.source))
        elif cell.cell_type == "code":
            for output in cell.get("outputs", []):
                neutralise_output(output)


class NeutraliseStudentHTML(Preprocessor):
    """nbconvert/nbgrader preprocessor: see the module's description."""

    def preprocess(self, nb, resources):  # noqa: D102 - nbconvert's
        neutralise_notebook(nb)
        return nb, resources
