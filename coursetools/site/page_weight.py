"""What a page of the built site fetches on its first view, and how many bytes.

Issue 29 caps a lesson page's first load (HTML, scripts, first frames) at 3 MB. The
figure counts what a browser fetches before anyone touches the page, read from the
built files alone (no browser):

* the HTML page;
* every file its ``<script src>``, ``<img src>`` and ``<link>`` (style sheets,
  preloads, icons) tags name: the players' first frames are ``<img>`` tags;
* what each style sheet pulls in: its ``@import`` and every ``url(...)`` it names
  (the icon webfonts among them), an upper bound: a browser skips a font or picture
  no element uses;
* MathJax: ``startup.js`` loads the components the page's ``window.MathJax``
  configuration names, and those load what they need themselves
  (:func:`coursetools.shared.mathjax.component_files`), every woff font of the HTML-CSS
  output included (which of them a browser fetches depends on the characters shown).

A player's other frames are fetched when a reader reaches for its controls, not at
load. ``tests/site/test_site.py`` checks the figure against the bytes headless Chromium
receives for every lesson page.

>>> import tempfile
>>> site = Path(tempfile.mkdtemp())
>>> _ = (site / "a.css").write_text("@font-face{src:url(f.woff2)}")
>>> _ = (site / "f.woff2").write_bytes(b"1234")
>>> _ = (site / "p.html").write_text('<link rel="stylesheet" href="a.css?v=1">')
>>> [f.name for f in first_load_files(site, site / "p.html")]
['p.html', 'a.css', 'f.woff2']
>>> first_load_bytes(site, site / "p.html")
72
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from coursetools.shared.mathjax import STARTUP, component_files

#: ``<link rel=...>`` values a browser fetches while loading a page (not "next",
#: "prev", "search" or "index": those are links a reader may follow).
FETCHED_LINKS = {"stylesheet", "preload", "modulepreload", "icon", "shortcut"}
_TAG = re.compile(r"<(script|img|link)\b([^>]*)>", flags=re.I)
_ATTR = re.compile(r'([\w:-]+)\s*=\s*"([^"]*)"')
_CSS_REF = re.compile(r"""@import\s+["']([^"']+)["']|url\(\s*["']?([^"')]+?)["']?\s*\)""")
_MATHJAX_CONFIG = re.compile(r"window\.MathJax\s*=\s*(\{.*?\})\s*;?\s*</script>", flags=re.S)


def tag_refs(html: str) -> list[str]:
    """The addresses a page's tags make the browser fetch at load, in page order.

    >>> tag_refs('<img src="a.png"><link rel="next" href="b.html"><script src="c.js">')
    ['a.png', 'c.js']
    """
    refs = []
    for tag, raw in _TAG.findall(html):
        attrs = dict(_ATTR.findall(raw))
        if tag.lower() == "link":
            if FETCHED_LINKS & set(attrs.get("rel", "").lower().split()):
                refs.append(attrs.get("href", ""))
        elif attrs.get("src"):
            refs.append(attrs["src"])
    return [r for r in refs if r]


def css_refs(css: str) -> list[str]:
    """The addresses a style sheet names (``@import`` and ``url(...)``), not ``data:``.

    >>> css_refs('@import "../basic.css"; a{background:url("x.png")} b{src:url(data:,)}')
    ['../basic.css', 'x.png']
    """
    refs = [a or b for a, b in _CSS_REF.findall(css)]
    return [r for r in refs if not r.startswith("data:")]


def local_file(site: Path, base: Path, ref: str) -> Path | None:
    """The file of ``site`` that ``ref`` (relative to the folder ``base``) names, or
    None for another site, a data URI or a missing file (the tests find those).

    >>> local_file(Path("/s"), Path("/s"), "https://example.org/x.js") is None
    True
    """
    if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", ref, flags=re.I):
        return None
    target = (base / re.split(r"[?#]", ref)[0]).resolve()
    root = site.resolve()
    if target != root and root not in target.parents or not target.is_file():
        return None
    return target


def mathjax_components(html: str) -> list[str]:
    """The MathJax components a page's inline ``window.MathJax = {...}`` loads.

    >>> mathjax_components('<script>window.MathJax = {"loader": {"load": ["input/tex"]}}</script>')
    ['input/tex']
    """
    match = _MATHJAX_CONFIG.search(html)
    if match is None:
        return []
    return list(json.loads(match.group(1)).get("loader", {}).get("load", []))


def _with_css(site: Path, css: Path, seen: dict[Path, None]) -> None:
    """Add a style sheet and what it pulls in (recursively) to ``seen``."""
    seen[css] = None
    for ref in css_refs(css.read_text(encoding="utf-8", errors="replace")):
        target = local_file(site, css.parent, ref)
        if target is None or target in seen:
            continue
        if target.suffix == ".css":
            _with_css(site, target, seen)
        else:
            seen[target] = None


def _expand(folder_or_file: Path) -> list[Path]:
    return sorted(f for f in folder_or_file.rglob("*") if f.is_file()) if folder_or_file.is_dir() \
        else [folder_or_file]


def first_load_files(site: Path, page: Path) -> list[Path]:
    """Every file of ``site`` that ``page`` fetches on its first view (itself first).

    Pages link to other pages (``<link rel="next">``); an HTML file named by a tag
    that fetches is not followed further.
    """
    html = page.read_text(encoding="utf-8")
    seen: dict[Path, None] = {page.resolve(): None}  # an ordered set
    for ref in tag_refs(html):
        target = local_file(site, page.parent, ref)
        if target is None or target in seen:
            continue
        if target.suffix == ".css":
            _with_css(site, target, seen)
            continue
        seen[target] = None
        if target.name == STARTUP and target.parent.name == "mathjax":
            # startup.js fetches the components the configuration names, next to it.
            for part in component_files(mathjax_components(html)):
                for f in _expand(target.parent / part):
                    seen.setdefault(f.resolve(), None)
    return list(seen)


def first_load_bytes(site: Path, page: Path) -> int:
    """The bytes of :func:`first_load_files`: what ``page`` costs on its first view."""
    return sum(f.stat().st_size for f in first_load_files(site, page))
