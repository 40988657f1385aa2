"""Accessibility fixes of the website that are not the players' (issue 43).

Found by axe-core on the built pages (tests/site/test_site.py) and fixed at their cause:

* a display formula wider than the text column scrolls sideways (the theme's
  ``div.math mjx-container { overflow: auto hidden }``), and a region that scrolls must
  be reachable by keyboard (WCAG 2.1.1; axe ``scrollable-region-focusable``): the
  script :data:`A11Y_JS` gives every display formula that overflows, once MathJax has
  typeset it and again when the window is resized, ``tabindex="0"`` (then the arrow
  keys scroll it) and takes it out again when it fits;
* the sidebar holds the site's title link outside any landmark (the theme's top bar,
  which would hold it, is hidden by the site's style): :func:`sidebar_landmark` makes
  the sidebar a complementary landmark with a name.

Examples
--------
>>> sidebar_landmark('<div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar">')
'<div id="pst-primary-sidebar" class="bd-sidebar-primary bd-sidebar" role="complementary" \
aria-label="Course contents">'
"""

from __future__ import annotations

import re

A11Y_JS = """\
(function () {
  "use strict";
  // A display formula that scrolls sideways must be reachable with the keyboard.
  function mark() {
    document.querySelectorAll("mjx-container[display='true']").forEach(function (m) {
      if (m.scrollWidth > m.clientWidth + 1) m.setAttribute("tabindex", "0");
      else if (m.getAttribute("tabindex") === "0") m.removeAttribute("tabindex");
    });
  }
  function whenTypeset() {
    var mj = window.MathJax;
    if (mj && mj.startup && mj.startup.promise) mj.startup.promise.then(mark);
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(mark);
    mark();
  }
  var pending = null;
  window.addEventListener("resize", function () {
    if (pending) window.clearTimeout(pending);
    pending = window.setTimeout(mark, 200);
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", whenTypeset);
  else whenTypeset();
})();
"""

A11Y_CSS = """
mjx-container[tabindex]:focus-visible { outline: 3px solid #0b5fff; outline-offset: 2px; }
"""

_SIDEBAR = re.compile(r'(<div id="pst-primary-sidebar" class="[^"]*")(>)')


def sidebar_landmark(page: str) -> str:
    """The page with its primary sidebar as a named complementary landmark."""
    return _SIDEBAR.sub(r'\1 role="complementary" aria-label="Course contents"\2', page, count=1)


_SEARCH_BUTTON = re.compile(r'(<button class="btn search-button-field[^>]*?)\s+aria-label="Search"')
_TOGGLE = '<summary aria-label="Toggle hidden content">'


def names_match_labels(page: str) -> str:
    """The page without the theme's accessible names that hide a control's visible words
    (axe's label-content-name-mismatch, WCAG 2.5.3): the search button reads "Search
    Ctrl+K" and a folded code cell "Show code cell source", as a sighted reader sees them.

    >>> names_match_labels('<button class="btn search-button-field x" aria-label="Search">')
    '<button class="btn search-button-field x">'
    >>> names_match_labels('<summary aria-label="Toggle hidden content"><p>Show code cell source</p>')
    '<summary><p>Show code cell source</p>'
    """
    return _SEARCH_BUTTON.sub(r"\1", page).replace(_TOGGLE, "<summary>")
