"""axe-core in the browser tests: run it on an open Playwright page, keep what must fail.

axe-core's script (``axe.min.js``) is the current release from npm, installed by
``.ci/run`` into the project-local folder ``.cache/npm`` (by hand: ``npm install --prefix
.cache/npm axe-core@4.14.1``); older releases miss rules (4.14 added the serious
``label-content-name-mismatch`` findings, WCAG 2.5.3), so an older copy is refused. Nothing
here is a test; tests/site/test_site.py, tests/slides/test_slides.py and
tests/handouts/test_handouts.py call :func:`axe_problems` on every page, deck and handout
they already build.

A violation whose impact is *serious* or *critical* fails; *moderate* and *minor* ones
fail too unless docs/accessibility.md accepts them (:data:`ACCEPTED`, each with its
reason there), so a new kind of minor problem is looked at once rather than never.
"""

from __future__ import annotations

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


#: The oldest axe-core the tests accept.
MIN_VERSION = (4, 14)
#: Where .ci/run installs axe-core from npm.
AXE_PATH = Path(__file__).resolve().parents[1] / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"


def axe_script() -> str | None:
    """The text of axe.min.js (npm's axe-core, at least :data:`MIN_VERSION`), or None if
    it is missing."""
    if not AXE_PATH.is_file():
        return None
    script = AXE_PATH.read_text(encoding="utf-8")
    first = script.split("\n", 1)[0].replace("/*! axe v", "").strip()
    version = tuple(int(x) for x in first.split(".")[:2] if x.isdigit())
    if version < MIN_VERSION:
        raise RuntimeError(f"axe-core {first} in {AXE_PATH} is older than "
                           f"{'.'.join(map(str, MIN_VERSION))}: run .ci/run or npm install it again")
    return script


def axe_version() -> str:
    """The version line of the bundled axe-core ("4.12.1"), for the test log."""
    script = axe_script() or ""
    first = script.split("\n", 1)[0]
    return first.replace("/*! axe v", "").strip() if first.startswith("/*! axe v") else "unknown"


def run_axe(page, *, exclude: list[str] | None = None, rules: list[str] | None = None) -> list[dict]:
    """axe-core's violations on ``page`` (a Playwright page), WCAG 2.x A/AA and best practice.

    The script is injected with ``page.add_script_tag`` (the page's own scripts are not
    touched); ``exclude`` lists CSS selectors left out of the check; ``rules``, if given,
    runs only those rules (a second look at another width, say).
    """
    script = axe_script()
    if script is None:
        raise RuntimeError("axe-core not installed: npm install --prefix .cache/npm axe-core@4.14.1")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=script)
    context = {"exclude": [[s] for s in (exclude or [])]} if exclude else None
    return page.evaluate(
        """([context, accepted, rules]) => axe.run(context || document, {
             runOnly: rules ? {type: 'rule', values: rules}
                            : {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                                                      'wcag22aa', 'best-practice']},
             resultTypes: ['violations'], elementRef: true,
           }).then(r => r.violations.map(v => ({
             id: v.id, impact: v.impact, help: v.help,
             nodes: v.nodes.map(n => ({target: n.target.join(' '),
                                      summary: (n.failureSummary || '').slice(0, 300),
                                      html: n.html.slice(0, 200),
                                      accepted: !!(accepted[v.id] && n.element
                                                   && n.element.querySelector(accepted[v.id]))}))})))""",
        [context, ACCEPTED, rules],
    )


def axe_problems(page, where: str, *, exclude: list[str] | None = None,
                 rules: list[str] | None = None) -> list[str]:
    """One line per violation on ``page`` that fails (see the module's docstring)."""
    out = []
    for v in run_axe(page, exclude=exclude, rules=rules):
        if v["impact"] not in BLOCKING and v["id"] in ACCEPTED:
            v["nodes"] = [n for n in v["nodes"] if not n["accepted"]]
            if not v["nodes"]:
                continue
        first = v["nodes"][0]
        out.append(f"{where}: axe {v['impact']} {v['id']} ({v['help']}) on {len(v['nodes'])} element(s), "
                   f"e.g. {first['target']}: {first['summary']} {first['html']}")
    return out
