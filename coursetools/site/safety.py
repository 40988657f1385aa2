"""The site runs only its own scripts: lessons carrying active HTML are refused.

A lesson's Markdown, its stored outputs and its metadata reach the published site as
HTML. The check reads HTML the way a browser's tokenizer does (the WHATWG tokenizer's
states for tags, attributes, comments and raw text, written out below in a few linear
regular expressions) and refuses, naming the notebook and the cell:

* a ``<script>``, ``<iframe>``, ``<frame>``, ``<object>``, ``<embed>``, ``<base>``,
  ``<meta>``, ``<link>``, ``<form>`` or ``<portal>`` element, a password field, an SVG
  ``<set>`` or ``<animate...>`` (they can rewrite a link);
* an event-handler attribute (any ``on...=``), ``formaction=``, ``form=``, ``srcdoc=``;
* a ``javascript:``, ``vbscript:`` or ``data:text/html`` URL in any attribute (entities
  decoded, control characters and white space dropped, as browsers read it);
* what a browser and this reader could read differently: markup inside a raw-text
  element (``<style>``, ``<textarea>``, ``<title>``, ...: raw text in HTML, elements in
  SVG) and ``<![CDATA[`` sections;
* an output of type ``application/javascript`` or ``text/javascript``.

It runs twice. Before the build (:func:`notebook_problems`), on what each cell carries:
its Markdown rendered by MyST's own Markdown parser, with the directives that pass text
through unchecked (``{raw}``, ``{eval-rst}``, ``{include}``) refused wherever they stand;
its HTML, SVG and Markdown outputs; raw cells; the notebook's ``html_meta``. After
Sphinx (:class:`PageCheck`), on the pages as built: the build puts a marker before and
after each lesson cell (a ``<div>`` carrying a random word drawn for this build), and
everything between two markers is held to the rules above, except the exact markup the
course put there itself (players, question cards, data tables). A cell whose HTML
swallows its closing marker (an open comment, attribute or raw-text element) is refused
too. The rest of the page (the theme, the course's own cells, the head) may carry
scripts but no ``<base>``, no ``<meta http-equiv>`` that acts and no password field.

Reading is linear in the page's size: each step of the scanner consumes the characters
it matched and no pattern backtracks (possessive quantifiers).

Example
-------
>>> problems_in_html('<p onclick="steal()">x</p>')
['an event-handler attribute (onclick=)']
>>> problems_in_html('<img alt="a>b" src=x onerror=go()>')
['an event-handler attribute (onerror=)']
>>> problems_in_html('<a href="https://example.org">fine</a>')
[]
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from coursetools.shared.cells import built_markdown_cell
from coursetools.shared.common import CourseToolsError

#: Output types that are HTML (or may hold it) when the page shows them.
HTML_MIMES = ("text/html", "image/svg+xml", "text/latex")
MARKDOWN_MIMES = ("text/markdown",)
SCRIPT_MIMES = ("application/javascript", "text/javascript")
#: MyST directives whose body reaches the page without the Markdown rules.
PASS_THROUGH_DIRECTIVES = frozenset({"raw", "eval-rst", "eval_rst", "include"})

#: Elements a lesson may not carry (they run code, load a page or send a form).
_ELEMENTS = frozenset({
    "script", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta",
    "link", "form", "portal", "plaintext", "set", "animate", "animatemotion",
    "animatetransform", "handler", "listener",
})
_ATTRIBUTES = frozenset({"formaction", "form", "srcdoc"})
#: Elements whose content a browser's tokenizer reads as text (in the HTML namespace;
#: in SVG and MathML the same names hold elements, hence "no markup inside").
_RAW_TEXT = frozenset({"script", "style", "xmp", "iframe", "noembed", "noframes", "noscript",
                       "textarea", "title"})
_SCHEMES = ("javascript:", "vbscript:", "data:text/html")
#: ``http-equiv`` values that change nothing but the encoding or the rendering mode.
_QUIET_HTTP_EQUIV = frozenset({"content-type", "x-ua-compatible", "content-language"})

# The tokenizer. ``[\t\n\f ]`` is HTML's white space (a CR was made an LF before). An
# attribute is a name (it may start with "="), then maybe "=" and a value: quoted, quoted
# and left open (it runs to the end: the tag is never closed), or unquoted. Every
# repetition is possessive and every choice atomic: nothing is read twice.
_VALUE = r"""(?>"[^"]*+"|'[^']*+'|"[^"]*+|'[^']*+|[^\t\n\f >]*+)"""
_ATTR = rf"[\t\n\f /]*+[^\t\n\f />][^\t\n\f />=]*+(?>[\t\n\f ]*+=[\t\n\f ]*+{_VALUE})?+"
_TAG = re.compile(rf"([A-Za-z][^\t\n\f />]*+)((?:{_ATTR})*+)[\t\n\f /]*+(>)?")
_ATTRIBUTE = re.compile(
    r"""[\t\n\f /]*+([^\t\n\f />][^\t\n\f />=]*+)"""
    r"""(?:[\t\n\f ]*+=[\t\n\f ]*+(?>"([^"]*+)"|'([^']*+)'|([^\t\n\f >]*+)))?+"""
)
_COMMENT_END = re.compile(r"--!?>")
_MARKUP = re.compile(r"<[A-Za-z!/?]")
_CONTROL = re.compile(r"[\x00-\x20]+")
_end_tags: dict[str, re.Pattern[str]] = {}
# A shortcut, not a second reader: runs of text and of tags that cannot matter (a name
# outside every list here, attributes whose names are not watched and whose values hold
# no ":" or "&", so no URL scheme) are skipped in one match. Anything else, or anything
# written in a way this pattern does not expect, goes to the tokenizer above.
_WATCHED_TAGS = "|".join(sorted(_ELEMENTS | _RAW_TEXT | {"base", "meta", "input"}))
_SAFE_VALUE = r"""(?>"(?:https?://)?[^"&:]*+"|'[^'&:]*+'|[^\t\n\f >"'&:=<`]++)"""
_SAFE_ATTR = (r"[\t\n\f ]++(?i:(?!on|form|srcdoc|data-sx|type|http-equiv|style|values))"
              rf"[A-Za-z_:][A-Za-z0-9_.:-]*+(?>[\t\n\f ]*+=[\t\n\f ]*+{_SAFE_VALUE})?+")
_QUIET = re.compile(
    rf"(?:[^<]++|<(?![A-Za-z!/?])|</?(?i:(?!(?:{_WATCHED_TAGS})[\t\n\f />]))[A-Za-z][A-Za-z0-9-]*+"
    rf"(?:{_SAFE_ATTR})*+[\t\n\f ]*+/?>)*+"
)
#: A report stops after this many problems (a refusal needs no more; nor does the time).
MAX_PROBLEMS = 100


class Token(NamedTuple):
    """One token: ``kind`` is start, end, comment, raw (a raw-text body), cdata or eof
    (a tag or comment still open at the end, which swallows the rest)."""

    kind: str
    start: int
    end: int
    name: str = ""
    attrs: tuple[tuple[str, str], ...] = ()


def _tag(text: str, pos: int, end_tag: bool) -> Token:
    """The tag whose name starts at ``pos`` (after ``<`` or ``</``)."""
    start = pos - (2 if end_tag else 1)
    m = _TAG.match(text, pos)
    name = m.group(1).lower()
    if m.group(3) is None:  # open at the end (browsers drop such a tag)
        return Token("eof", start, len(text), name)
    attrs: tuple[tuple[str, str], ...] = ()
    if m.group(2):
        attrs = tuple((a.group(1).lower(), next((v for v in a.group(2, 3, 4) if v is not None), ""))
                      for a in _ATTRIBUTE.finditer(m.group(2)))
    return Token("end" if end_tag else "start", start, m.end(), name, attrs)


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text`` that matter here (text, and tags no rule looks at, are left out).

    >>> [(t.kind, t.name) for t in tokens('<b title="a>b">x<!-- <i> --></b><style>b{}</style>')]
    [('comment', ''), ('start', 'style'), ('raw', 'style'), ('end', 'style')]
    >>> [(t.kind, t.name, t.attrs) for t in tokens('<b title="a>b" onclick=go()>')]
    [('start', 'b', (('title', 'a>b'), ('onclick', 'go()')))]
    """
    text = text.replace("\r", "\n")
    n = len(text)
    pos = _QUIET.match(text).end()
    while pos < n - 1:
        nxt = text[pos + 1]
        if nxt.isascii() and nxt.isalpha():
            tok = _tag(text, pos + 1, end_tag=False)
            yield tok
            if tok.kind == "eof":
                return
            pos = tok.end
            if tok.name == "plaintext":
                return  # the rest is text
            if tok.name in _RAW_TEXT:
                pattern = _end_tags.get(tok.name)
                if pattern is None:
                    pattern = _end_tags[tok.name] = re.compile(rf"</{tok.name}[\t\n\f />]", re.I)
                m = pattern.search(text, pos)
                body_end = m.start() if m else n
                yield Token("raw", pos, body_end, tok.name)
                pos = body_end
        elif nxt == "/":
            after = text[pos + 2:pos + 3]
            if after.isascii() and after.isalpha():
                tok = _tag(text, pos + 2, end_tag=True)
                yield tok
                if tok.kind == "eof":
                    return
                pos = tok.end
            elif after == ">":
                pos += 3
            else:  # a bogus comment, to the next ">"
                close = text.find(">", pos)
                yield Token("comment", pos, n if close < 0 else close + 1)
                pos = n if close < 0 else close + 1
        elif nxt in "!?":
            if text.startswith("!--", pos + 1):
                if text.startswith(">", pos + 4):
                    close = pos + 5
                elif text.startswith("->", pos + 4):
                    close = pos + 6
                else:
                    m = _COMMENT_END.search(text, pos + 4)
                    if m is None:
                        yield Token("eof", pos, n)
                        return
                    close = m.end()
                yield Token("comment", pos, close)
            else:
                kind = "cdata" if text.startswith("![CDATA[", pos + 1) else "comment"
                close = text.find(">", pos)
                close = n if close < 0 else close + 1
                yield Token(kind, pos, close)
            pos = close
        else:
            pos += 1
        pos = _QUIET.match(text, pos).end()


def _url_problem(value: str) -> str | None:
    plain = _CONTROL.sub("", html.unescape(value)).lower()
    for scheme in _SCHEMES:
        if plain.startswith(scheme):
            return f"a {scheme} link"
    return None


def page_rule_problems(tok: Token) -> list[str]:
    """What no page may carry, the course's own markup included: a ``<base>``, a
    ``<meta http-equiv>`` that acts (a refresh), a password field."""
    if tok.kind != "start":
        return []
    attrs = dict(tok.attrs)
    if tok.name == "base":
        return ["a <base> element"]
    if tok.name == "meta" and "http-equiv" in attrs:
        how = attrs["http-equiv"].strip().lower()
        if how not in _QUIET_HTTP_EQUIV:
            return [f"a <meta http-equiv={how}>"]
    if tok.name == "input" and attrs.get("type", "").strip().lower() == "password":
        return ["a password field"]
    return []


def token_problems(tok: Token, text: str) -> list[str]:
    """What in one token of a lesson's HTML would act on the page."""
    found = page_rule_problems(tok)
    if tok.kind == "cdata":
        found.append("a <![CDATA[ section")
    elif tok.kind == "raw":
        if tok.name not in _ELEMENTS and _MARKUP.search(text, tok.start, tok.end):
            found.append(f"markup inside <{tok.name}> (a browser may read it as HTML)")
    elif tok.kind == "start":
        if tok.name in _ELEMENTS and not found:
            found.append(f"a <{tok.name}> element")
        for name, value in tok.attrs:
            if name.startswith("on"):
                found.append(f"an event-handler attribute ({name}=)")
            elif name in _ATTRIBUTES:
                found.append(f"a {name}= attribute")
            problem = _url_problem(value)
            if problem is None and name in ("style", "values") and "javascript:" in _CONTROL.sub(
                    "", html.unescape(value)).lower():
                problem = "a javascript: link"
            if problem:
                found.append(problem)
    return found


def problems_in_html(text: str) -> list[str]:
    """What in ``text`` would run a script, redirect or send a form (empty when nothing)."""
    text = text.replace("\r", "\n")
    found: list[str] = []
    for tok in tokens(text):
        found += token_problems(tok, text)
        if len(found) >= MAX_PROBLEMS:
            break
    return list(dict.fromkeys(found))


# -- before the build: what each cell carries ---------------------------------------

_md_parser: Any = None


def _markdown_html(source: str, depth: int = 0) -> tuple[str, list[str]]:
    """``source`` rendered by MyST's Markdown parser (the site's extensions), and the
    pass-through directives it uses (searched inside every directive's body too)."""
    global _md_parser
    if _md_parser is None:
        from markdown_it.renderer import RendererHTML
        from myst_parser.config.main import MdParserConfig
        from myst_parser.parsers.mdit import create_md_parser

        config = MdParserConfig(enable_extensions={"dollarmath", "amsmath"}, dmath_double_inline=True)
        _md_parser = create_md_parser(config, RendererHTML)
        # markdown-it shows a javascript: link as text; keep it a link, to be refused
        # here, whatever the site's own parser would make of it.
        _md_parser.validateLink = lambda url: True
    tokens_ = _md_parser.parse(source)
    directives: list[str] = []
    for tok in tokens_:
        info = tok.info.strip() if tok.type == "fence" else ""
        if info.startswith("{") and "}" in info:
            name = info[1:info.index("}")].strip().lower()
            if name in PASS_THROUGH_DIRECTIVES:
                directives.append(f"a {{{name}}} directive (its text reaches the page unchecked)")
            elif depth < 8:  # a directive's body is MyST again
                inner_html, inner = _markdown_html(tok.content, depth + 1)
                directives += inner
                directives += problems_in_html(inner_html)
    return _md_parser.renderer.render(tokens_, _md_parser.options, {}), directives


#: Markdown longer than this is checked as if all of it were HTML (code included), which
#: finds everything the rendering would and more, in one linear pass: MyST's parser
#: takes seconds on a megabyte of tags.
MARKDOWN_RENDER_LIMIT = 50_000
_FENCE_DIRECTIVE = re.compile(r"^[ \t>]*+(?:`{3,}+|~{3,}+|:{3,}+)[ \t]*+\{([^}\n]*+)\}", re.M)
_ANY_SCHEME = re.compile("|".join(re.escape(s) for s in _SCHEMES))


def markdown_problems(source: str) -> list[str]:
    """What a Markdown text would put on the page that the rules refuse.

    >>> markdown_problems("```{raw} html\\n<b>x</b>\\n```")
    ['a {raw} directive (its text reaches the page unchecked)']
    >>> markdown_problems("Write `<script>` to load a script.")
    []
    """
    if len(source) <= MARKDOWN_RENDER_LIMIT:
        rendered, directives = _markdown_html(source)
        return list(dict.fromkeys(directives + problems_in_html(rendered)))
    found = [f"a {{{name.strip().lower()}}} directive (its text reaches the page unchecked)"
             for name in _FENCE_DIRECTIVE.findall(source)
             if name.strip().lower() in PASS_THROUGH_DIRECTIVES]
    found += problems_in_html(source)
    plain = _CONTROL.sub("", html.unescape(source)).lower()
    found += [f"a {m.group(0)} link" for m in _ANY_SCHEME.finditer(plain)]
    return list(dict.fromkeys(found))[:MAX_PROBLEMS]


def _text(value: Any) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def metadata_problems(metadata: dict) -> list[str]:
    """What a notebook's metadata would put in a page's head (MyST's ``html_meta``)."""
    found = []
    for where, meta in (("html_meta", metadata.get("html_meta")),
                        ("myst.html_meta", (metadata.get("myst") or {}).get("html_meta"))):
        if not meta:
            continue
        if not isinstance(meta, dict):
            found.append(f"its metadata {where} is not a mapping")
            continue
        for key, value in meta.items():
            attr, _, name = str(key).partition("=")
            tag = (f'<meta {html.escape(attr)}="{html.escape(name)}" content="{html.escape(str(value))}">'
                   if name else f'<meta name="{html.escape(attr)}" content="{html.escape(str(value))}">')
            found += [f"{p} in its metadata {where}" for p in problems_in_html(tag)]
    return found


def cell_label(name: str, index: int, cell: Any) -> str:
    """How a report names a cell: ``notebooks/X.ipynb, cell 3 (markdown, id ab12)``."""
    return f"{name}, cell {index} ({cell.cell_type}, id {cell.get('id', '?')})"


def notebook_problems(nb: Any, name: str) -> list[str]:
    """One line per unsafe thing in the lesson ``nb`` (shown as ``name``)."""
    lines = [f"{name}: {p}" for p in metadata_problems(nb.metadata)]
    for index, cell in enumerate(nb.cells):
        where = cell_label(name, index, cell)
        texts = []
        if cell.cell_type == "markdown":
            lines += [f"{where}: {p} in its Markdown" for p in markdown_problems(cell.source)]
        elif cell.cell_type == "raw":
            texts.append(("its raw text", cell.source))
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            for mime in SCRIPT_MIMES:
                if mime in data:
                    lines.append(f"{where}: an output of type {mime} (a script)")
            for mime in HTML_MIMES:
                if mime in data:
                    texts.append((f"its {mime} output", _text(data[mime])))
            for mime in MARKDOWN_MIMES:
                if mime in data:
                    found = markdown_problems(_text(data[mime]))
                    lines += [f"{where}: {p} in its {mime} output" for p in found]
        for what, text in texts:
            for problem in problems_in_html(text):
                lines.append(f"{where}: {problem} in {what}")
    return list(dict.fromkeys(lines))


def refuse_unsafe(nb: Any, name: str) -> None:
    """Raise ``CourseToolsError`` listing what in the lesson would run on the site."""
    _refuse(notebook_problems(nb, name))


def _refuse(lines: list[str]) -> None:
    if lines:
        raise CourseToolsError(
            "the site runs only its own scripts; remove these from the lesson:\n  "
            + "\n  ".join(lines)
        )


# -- after the build: the pages as they are -----------------------------------------

@dataclass
class PageCheck:
    """The check of the built pages: markers around each lesson cell, then the rules.

    ``mark`` wraps a page's notebook cells in markers (before Sphinx), ``problems`` reads
    a built page, ``strip`` takes the markers out of it.

    Example
    -------
    >>> check = PageCheck(nonce="n0")
    >>> check.markers("p", 0, "notebooks/p.ipynb, cell 0")
    ('<div hidden data-sx="n0 s 0"></div>', '<div hidden data-sx="n0 e 0"></div>')
    >>> page = '<div hidden data-sx="n0 s 0"></div><p onclick=x()></p><div hidden data-sx="n0 e 0"></div>'
    >>> check.problems("p", page)
    ['notebooks/p.ipynb, cell 0: an event-handler attribute (onclick=)']
    """

    nonce: str = field(default_factory=lambda: secrets.token_hex(12))
    #: per page stem: the label of each marked cell, in order
    cells: dict[str, list[str]] = field(default_factory=dict)
    #: per page stem: the exact markup the course itself put inside cells
    own: dict[str, set[str]] = field(default_factory=dict)
    #: per page stem: how to name the page outside its cells
    names: dict[str, str] = field(default_factory=dict)

    def markers(self, stem: str, k: int, label: str) -> tuple[str, str]:
        labels = self.cells.setdefault(stem, [])
        if k != len(labels):
            raise ValueError(f"cell markers of {stem} out of order: {k} after {len(labels)}")
        labels.append(label)
        return tuple(f'<div hidden data-sx="{self.nonce} {s} {k}"></div>' for s in "se")  # type: ignore[return-value]

    def mark(self, stem: str, name: str, nb: Any, labels: list[str | None], own: set[str]) -> None:
        """Put markers around each cell of the site notebook ``nb`` (in place); ``labels``
        name its cells (None: a cell the course made, left unmarked), ``own`` is the
        markup the course put into the lesson's cells."""
        self.names[stem] = name
        self.own[stem] = {o for o in own if o.strip()}
        cells = []
        for cell, label in zip(nb.cells, labels, strict=True):
            if label is None:
                cells.append(cell)
                continue
            k = len(self.cells.get(stem, []))
            begin, end = self.markers(stem, k, label)
            # Fixed ids (nbformat draws random ones): the same lesson must give the same
            # source bytes, or the kept Sphinx project reads every page again.
            cells += [built_markdown_cell(begin, f"site-check-{k}-begin"), cell,
                      built_markdown_cell(end, f"site-check-{k}-end")]
        nb.cells = cells

    def problems(self, stem: str, page: str) -> list[str]:
        """What in the built page ``page`` breaks the rules, one line each, by cell."""
        page = page.replace("\r", "\n")
        labels = self.cells.get(stem, [])
        name = self.names.get(stem, stem)
        spans = self._own_spans(stem, page)
        found: list[str] = []
        seen: list[tuple[str, int]] = []  # markers met, in order
        region: int | None = None
        span_i = 0
        for tok in tokens(page):
            marker = self._marker(tok)
            if marker is not None:
                seen.append(marker)
                region = marker[1] if marker[0] == "s" else None
                continue
            while span_i < len(spans) and spans[span_i][1] <= tok.start:
                span_i += 1
            inside_own = span_i < len(spans) and spans[span_i][0] <= tok.start
            if region is not None and span_i < len(spans) and (
                    tok.start < spans[span_i][0] < tok.end or (inside_own and tok.end > spans[span_i][1])):
                found.append(f"{labels[region]}: its HTML runs into the course's own markup")
                continue
            if region is None or inside_own:
                where = name if region is None else labels[region]
                found += [f"{where}: {p}" for p in page_rule_problems(tok)]
            else:
                found += [f"{labels[region]}: {p}" for p in token_problems(tok, page)]
            if tok.kind == "eof" and region is not None:
                found.append(f"{labels[region]}: its HTML is left open and swallows the rest of the page")
            if len(found) >= MAX_PROBLEMS:
                return list(dict.fromkeys(found))
        expected = [(s, k) for k in range(len(labels)) for s in "se"]
        if seen != expected and not any("swallows" in f for f in found):
            missing = next((i for i, (a, b) in enumerate(zip(seen, expected, strict=False)) if a != b),
                           min(len(seen), len(expected)))
            k = expected[missing][1] if missing < len(expected) else len(labels) - 1
            found.append(f"{labels[k] if labels else name}: its HTML is left open (a comment, an "
                         "attribute or a raw-text element swallows what follows it)")
        return list(dict.fromkeys(found))

    def _marker(self, tok: Token) -> tuple[str, int] | None:
        if tok.kind != "start" or tok.name != "div":
            return None
        value = dict(tok.attrs).get("data-sx", "")
        parts = value.split(" ")
        if len(parts) == 3 and parts[0] == self.nonce and parts[1] in "se" and parts[2].isdigit():
            return parts[1], int(parts[2])
        return None

    def _own_spans(self, stem: str, page: str) -> list[tuple[int, int]]:
        spans = []
        for fragment in self.own.get(stem, ()):
            fragment = fragment.replace("\r", "\n")
            at = page.find(fragment)
            while at >= 0:
                spans.append((at, at + len(fragment)))
                at = page.find(fragment, at + len(fragment))
        spans.sort()
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and a < merged[-1][1]:
                merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
            else:
                merged.append((a, b))
        return merged

    def strip(self, page: str) -> str:
        """The page without its markers."""
        return re.sub(rf'<div hidden data-sx="{re.escape(self.nonce)} [se] \d+"></div>\n?', "", page)

    def refuse(self, pages: dict[str, str]) -> None:
        """Raise ``CourseToolsError`` if any built page (stem -> HTML) breaks the rules."""
        lines = []
        for stem, page in pages.items():
            lines += self.problems(stem, page)
        _refuse(lines)
