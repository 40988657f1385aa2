"""axe-core in the browser tests: run it on an open Playwright page, keep what must fail.

axe-core's script (``axe.min.js``) comes from the package index: the package
``axe-playwright-python`` ships it (the ``test`` extra installs it). Nothing here is a
test; tests/site/test_site.py, test_slides.py and test_handouts.py call :func:`axe_problems`
on every page, deck and handout they already build.

A violation whose impact is *serious* or *critical* fails; *moderate* and *minor* ones
fail too unless docs/accessibility.md accepts them (:data:`ACCEPTED`, each with its
reason there), so a new kind of minor problem is looked at once rather than never.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

#: Impacts that always fail.
BLOCKING = ("serious", "critical")

#: Minor or moderate findings reviewed and accepted, with the reason in
#: docs/accessibility.md ("Accepted minor findings"): rule id -> a CSS selector that
#: every accepted element must contain (an element of that rule without it still fails).
#: A serious or critical finding is never accepted.
ACCEPTED: dict[str, str] = {
    # A header cell that is a formula: MathJax draws it as an aria-hidden SVG beside its
    # MathML, which Chromium exposes (a "math" node: "10 − 3"); axe counts no MathML text.
    "empty-table-header": "mjx-container mjx-assistive-mml math",
}


def axe_script() -> str | None:
    """The text of axe.min.js from the installed package, or None if it is missing."""
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "axe.min.js"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def axe_version() -> str:
    """The version line of the bundled axe-core ("4.12.1"), for the test log."""
    script = axe_script() or ""
    first = script.split("\n", 1)[0]
    return first.replace("/*! axe v", "").strip() if first.startswith("/*! axe v") else "unknown"


def run_axe(page, *, exclude: list[str] | None = None) -> list[dict]:
    """axe-core's violations on ``page`` (a Playwright page), WCAG 2.x A/AA and best practice.

    The script is injected with ``page.add_script_tag`` (the page's own scripts are not
    touched); ``exclude`` lists CSS selectors left out of the check.
    """
    script = axe_script()
    if script is None:
        raise RuntimeError("axe-core not installed: pip install axe-playwright-python")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=script)
    context = {"exclude": [[s] for s in (exclude or [])]} if exclude else None
    return page.evaluate(
        """([context, accepted]) => axe.run(context || document, {
             runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                                              'wcag22aa', 'best-practice']},
             resultTypes: ['violations'], elementRef: true,
           }).then(r => r.violations.map(v => ({
             id: v.id, impact: v.impact, help: v.help,
             nodes: v.nodes.map(n => ({target: n.target.join(' '),
                                      summary: (n.failureSummary || '').slice(0, 300),
                                      html: n.html.slice(0, 200),
                                      accepted: !!(accepted[v.id] && n.element
                                                   && n.element.querySelector(accepted[v.id]))}))})))""",
        [context, ACCEPTED],
    )


def axe_problems(page, where: str, *, exclude: list[str] | None = None) -> list[str]:
    """One line per violation on ``page`` that fails (see the module's docstring)."""
    out = []
    for v in run_axe(page, exclude=exclude):
        if v["impact"] not in BLOCKING and v["id"] in ACCEPTED:
            v["nodes"] = [n for n in v["nodes"] if not n["accepted"]]
            if not v["nodes"]:
                continue
        first = v["nodes"][0]
        out.append(f"{where}: axe {v['impact']} {v['id']} ({v['help']}) on {len(v['nodes'])} element(s), "
                   f"e.g. {first['target']}: {first['summary']} {first['html']}")
    return out
