"""Self-check questions on the website: markup, prebuilt instances, progress (issue 39).

A question cell of a lesson (role ``question``, ``perclib.questions``) becomes on its page:

* the prompt as HTML (visible, searchable), a form built by ``questions.js`` (a text box,
  radio buttons or check boxes, a Check button), a feedback line in an ``aria-live``
  region, "Show answer" and, for a renewable question, "Another one";
* the question's instances (:data:`perclib.questions.SITE_SEEDS` of them for a renewable
  question, else the one stored) in one ``data-q`` attribute, encoded: answers, hints and
  reasons are in no visible text, alt text or search index (Sphinx indexes the text of
  raw HTML with its tags removed, and an attribute is inside a tag). The page source
  still holds them, encoded: these are self-checks, graded work stays in nbgrader;
* the cell's code is removed from the page (it computes the answer).

The answers come from the lessons' stored outputs (the site runs no lesson): a static
question's description is the one its cell stored (:data:`perclib.questions.SPEC_MIME`).
A renewable question's cell is run alone (it must be self-contained: imports and data in
the cell) for seeds 0..23; seed 0 must give the stored description (otherwise the lesson
is stale). Those instances are cached in ``.cache/site-questions/`` under a key made of
the cell's source and perclib's sources, like the players' frames. The build stops, naming
the lesson and cell, when a question's answer is typed by hand
(:func:`coursetools.shared.question_cells.question_problems`) or its stored output is missing.

Progress (which questions a reader got right) is kept by ``questions.js`` in the reader's
``localStorage``, shown at the top of each lesson ("4 of 7") and on the index, with resets.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any

from coursetools.shared.common import CourseToolsError, repo_root
from coursetools.shared.question_cells import SPEC_MIME, is_renewable, question_problems, stored_spec

CACHE_SUBDIR = "site-questions"
JS_NAME = "questions.js"
CSS_NAME = "questions.css"
#: The question script's budget (issue 39).
BUDGET_JS_BYTES = 20_000

CSS = """\
.qz { border: 1px solid #c9d3de; border-left: 4px solid #0072B2; border-radius: 4px;
      padding: 0.6em 0.9em; margin: 0.8em 0 1.2em; background: #f7fafc; }
.qz-label { font-weight: 600; margin: 0 0 0.3em; color: #0b4f7c; }
.qz-prompt p { margin: 0.2em 0; }
.qz-form { margin: 0.4em 0; display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; }
.qz-options { border: 0; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 0.2em; }
.qz-options label { cursor: pointer; }
.qz-input { min-width: 12em; padding: 0.2em 0.4em; }
.qz-field > label { margin-right: 0.4em; }
.qz button { padding: 0.25em 0.8em; border: 1px solid #0b4f7c; border-radius: 3px;
             background: #fff; color: #0b4f7c; cursor: pointer; }
.qz button.qz-check { background: #0b4f7c; color: #fff; }
.qz button:focus-visible, .qz input:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
.qz-feedback { min-height: 1.4em; margin: 0.3em 0; }
.qz-right { color: #0a6b3b; }
.qz-wrong { color: #8a3b00; }
.qz-solved { color: #0a6b3b; font-weight: 600; margin-left: 0.6em; white-space: nowrap; }
.qz-sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.qz-progress, .qz-index { margin: 0.5em 0 1em; padding: 0.4em 0.8em; background: #f0f5fa;
                           border-radius: 4px; }
.qz-progress button, .qz-index button { margin-left: 0.5em; padding: 0.1em 0.6em; }
.qz-badge { color: #0b4f7c; font-size: 0.9em; }
.qz-input { background: #fff; color: #1a1a1a; border: 1px solid #8795a5; }
/* Dark mode (the theme's switch): a dark card with light text and a matching input. The
   theme paints every HTML output light with dark text in dark mode (for outputs drawn for
   a white page): not the card's frame, whose text would be dark on dark. */
html[data-theme="dark"] .bd-content div.cell_output .text_html:has(> .qz) {
  background-color: transparent !important; padding: 0 !important; }
html[data-theme="dark"] .qz { background: #1b222b; border-color: #3a4756; color: #e3e8ee;
                              border-left-color: #56B4E9; }
html[data-theme="dark"] .qz-label, html[data-theme="dark"] .qz-badge { color: #9fd0f3; }
html[data-theme="dark"] .qz button { background: #12171d; color: #9fd0f3; border-color: #9fd0f3; }
html[data-theme="dark"] .qz button.qz-check { background: #9fd0f3; color: #0b1520; }
html[data-theme="dark"] .qz-input { background: #12171d; color: #e8e8e8; border-color: #6b7b8c; }
html[data-theme="dark"] .qz-right, html[data-theme="dark"] .qz-solved { color: #7fdcab; }
html[data-theme="dark"] .qz-wrong { color: #f4b27a; }
html[data-theme="dark"] .qz-progress, html[data-theme="dark"] .qz-index { background: #1b222b; }
"""

_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$([^$\n]+?)\$")


def markdown_html(text: str, *, inline: bool = False) -> str:
    """Markdown with ``$...$`` maths as HTML for the site's MathJax (class ``math``).

    >>> markdown_html("**Right.** $a < b$", inline=True)
    '<strong>Right.</strong> <span class="math notranslate nohighlight">\\\\(a &lt; b\\\\)</span>'
    """
    from markdown_it import MarkdownIt

    kept: list[str] = []

    def hold(m: re.Match[str], display: bool) -> str:
        tex = html.escape(m.group(1).strip(), quote=False)
        opening, closing = ("\\[", "\\]") if display else ("\\(", "\\)")
        kept.append(f'<span class="math notranslate nohighlight">{opening}{tex}{closing}</span>')
        return f"@@MATH{len(kept) - 1}@@"

    protected = _INLINE.sub(lambda m: hold(m, False), _DISPLAY.sub(lambda m: hold(m, True), text))
    md = MarkdownIt("commonmark", {"html": False})
    rendered = md.renderInline(protected) if inline else md.render(protected).strip()
    return re.sub(r"@@MATH(\d+)@@", lambda m: kept[int(m.group(1))], rendered)


def site_instance(spec: dict[str, Any]) -> dict[str, Any]:
    """One instance as ``questions.js`` reads it: texts as HTML, no answer (hashes and
    sealed texts, ``coursetools.site.answers``)."""
    from coursetools.site.answers import public_check, salt_for
    from perclib.questions import decode

    secret = decode(spec["secret"])
    for key in ("why", "hint", "stronger"):
        secret[key] = markdown_html(secret[key], inline=True)
    secret["hints"] = [[k, markdown_html(t, inline=True)] for k, t in secret["hints"]]
    kind = spec["kind"]
    secret["n_choices"] = len(spec.get("choices", []))
    placeholder = {"integer": "a whole number", "number": "a number", "fraction": "a/b",
                   "formula": "a formula in " + ", ".join(spec.get("variables", []))}.get(kind, "")
    choices = [markdown_html(c, inline=True) for c in spec.get("choices", [])]
    return {"kind": kind, "prompt": markdown_html(spec["prompt"]), "choices": choices,
            "variables": spec.get("variables", []), "placeholder": placeholder,
            "unreadable": markdown_html(_unreadable(kind, spec.get("variables", [])), inline=True),
            "check": public_check(kind, secret, salt_for(spec))}


def site_answer(spec: dict[str, Any]) -> str:
    """What "Show answer" shows for one instance (HTML): the answer and its reason."""
    from perclib.questions import decode

    secret = decode(spec["secret"])
    return markdown_html(f"Answer: {secret['shown']}. {secret['why']}", inline=True)


#: Where the answers of a lesson's questions go, under the site's ``_static``.
ANSWERS_DIR = "answers"


def _unreadable(kind: str, variables: list[str]) -> str:
    # The same sentence as in the notebook: Question._unreadable.
    from perclib.questions import Question

    probe = Question.__new__(Question)
    probe.kind, probe.variables = kind, variables
    return probe._unreadable()


# ------------------------------------------------------------------ instances
def _fingerprint() -> str:
    digest = hashlib.sha256()
    root = repo_root()
    for path in sorted((root / "perclib").rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _run_alone(source: str, where: str, seeds: range) -> list[dict[str, Any]]:
    """Run a renewable question cell by itself and return its instances' descriptions."""
    import perclib.questions as questions
    import perclib.widgets as widgets
    import perclib.widgets.question as question_widget

    asked: list[Any] = []
    original = widgets.ask
    # Collect, show nothing: a cell reads `ask` from perclib.widgets (or its module).
    widgets.ask = question_widget.ask = lambda question, seed=0: asked.append(question)
    try:
        code = "\n".join("" if re.match(r"\s*[%!]", line) else line for line in source.split("\n"))
        exec(compile(code, where, "exec"), {"__name__": "__question__"})
        if len(asked) != 1:
            raise CourseToolsError(f"{where}: a question cell asks exactly one question")
        return [json.loads(json.dumps(questions.instance(asked[0], seed).spec())) for seed in seeds]
    except CourseToolsError:
        raise
    except Exception as exc:
        raise CourseToolsError(
            f"{where}: a question with 'Another one' must run by itself (its imports and data "
            f"in its cell); running it alone failed: {type(exc).__name__}: {exc}") from exc
    finally:
        widgets.ask = question_widget.ask = original


def lesson_questions(path: Path, cache: Path, fingerprint: str | None = None) -> dict[str, list[dict]]:
    """Every question of a lesson, by cell id: the list of its instances' descriptions.

    Raises :class:`CourseToolsError` naming the lesson and cell when an answer is typed by
    hand, a stored output is missing, or seed 0 no longer gives the stored question.
    """
    import nbformat

    from coursetools.shared.roles import cell_role
    from perclib.questions import SITE_SEEDS

    nb = nbformat.read(path, as_version=4)
    found: dict[str, list[dict]] = {}
    fingerprint = fingerprint or _fingerprint()
    for index, cell in enumerate(nb.cells):
        try:
            if cell.cell_type != "code" or cell_role(cell).name != "question":
                continue
        except ValueError:
            continue
        where = f"{path.name} cell {index} (id {cell.get('id')})"
        problems = question_problems(cell.source)
        if problems:
            raise CourseToolsError(f"{where}: " + "; ".join(problems))
        spec = stored_spec(cell)
        if spec is None:
            raise CourseToolsError(f"{where}: no stored question ({SPEC_MIME}); store the lesson "
                                   "with python -m coursetools.run")
        if not is_renewable(cell.source):
            found[cell.get("id", str(index))] = [spec]
            continue
        key = hashlib.sha256((fingerprint + "\0" + cell.source).encode()).hexdigest()[:40]
        entry = cache / f"{key}.json"
        instances = json.loads(entry.read_text(encoding="utf-8")) if entry.is_file() else None
        if instances is None:
            instances = _run_alone(cell.source, where, range(SITE_SEEDS))
            entry.parent.mkdir(parents=True, exist_ok=True)
            tmp = entry.with_suffix(".tmp")
            tmp.write_text(json.dumps(instances), encoding="utf-8")
            tmp.replace(entry)
        if instances[0] != spec:
            raise CourseToolsError(f"{where}: seed 0 no longer gives the stored question; the "
                                   "lesson is stale: re-store it with python -m coursetools.run")
        found[cell.get("id", str(index))] = instances
    return found


def all_questions(notebooks: list[Path], cache_root: Path) -> dict[str, dict[str, list[dict]]]:
    """:func:`lesson_questions` of every lesson, by stem; instances cached under
    ``cache_root / "site-questions"`` (``cache_root``: the ``.cache`` folder)."""
    fingerprint = _fingerprint()
    cache = Path(cache_root) / CACHE_SUBDIR
    return {path.stem: lesson_questions(path, cache, fingerprint) for path in notebooks}


# ------------------------------------------------------------------ markup
def question_html(instances: list[dict[str, Any]], *, stem: str, cell_id: str, predict: bool) -> str:
    """The question's markup (the script adds the form; without it the prompt still reads)."""
    data = html.escape(json.dumps([site_instance(spec) for spec in instances], separators=(",", ":")))
    uid = "qz-" + re.sub(r"[^\w-]", "-", f"{stem[:2]}-{cell_id}")
    label = "Predict first" if predict else "Check yourself"
    return (
        f'<div class="qz" id="{uid}" data-stem="{html.escape(stem)}" data-id="{html.escape(cell_id)}" '
        f'data-q="{data}">'
        f'<p class="qz-label">{label}</p>'
        f'<div class="qz-prompt">{markdown_html(instances[0]["prompt"])}</div>'
        f'<form class="qz-form" hidden><div class="qz-field"></div>'
        f'<button type="submit" class="qz-check">Check</button></form>'
        f'<div class="qz-feedback" role="status" aria-live="polite"></div>'
        f'<div class="qz-buttons" hidden><button type="button" class="qz-show">Show answer</button> '
        f'<button type="button" class="qz-another" hidden>Another one</button>'
        f'<span class="qz-solved" hidden>✓ answered</span></div>'
        "</div>"
    )


def question_output(instances: list[dict[str, Any]], *, stem: str, cell_id: str) -> Any:
    """The cell's one output on the site: the question's markup as ``text/html``."""
    import nbformat

    markup = question_html(instances, stem=stem, cell_id=cell_id, predict=instances[0].get("predict", False))
    return nbformat.v4.new_output("display_data", {"text/html": markup})


def site_cell(cell: Any, stored: Any, instances: list[dict[str, Any]] | None, stem: str) -> list[str]:
    """Turn a lesson's question cell into its site form, in place: the code removed (it
    computes the answer), the outputs replaced by the question's markup. ``stored`` is the
    cell as the lesson stores it (with its outputs); ``instances`` the prebuilt ones.
    Returns what "Show answer" shows for each instance (for the answers file)."""
    tags = cell.metadata.setdefault("tags", [])
    if "remove-input" not in tags:
        tags.append("remove-input")
    if not instances:
        spec = stored_spec(stored)
        instances = [spec] if spec is not None else []
    cell.outputs = ([question_output(instances, stem=stem, cell_id=stored.get("id", ""))]
                    if instances else [])
    return [site_answer(spec) for spec in instances]


def write_answers(static: Path, stem: str, answers: dict[str, list[str]]) -> None:
    """A lesson's answers file, fetched by ``questions.js`` on "Show answer" only."""
    folder = static / ANSWERS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{stem}.json").write_text(json.dumps(answers, ensure_ascii=False), encoding="utf-8")


def index_html(totals: dict[str, int]) -> str:
    """The index page's progress holder (``questions.js`` fills it and adds the badges)."""
    return f'<div class="qz-index" data-totals="{html.escape(json.dumps(totals))}"></div>'


def write_static(static: Path) -> None:
    """Copy the question script and style into the site's ``_static``; check the budget."""
    source = Path(__file__).with_name(JS_NAME)
    size = source.stat().st_size
    if size > BUDGET_JS_BYTES:
        raise CourseToolsError(f"{JS_NAME} is {size} bytes, over its budget of {BUDGET_JS_BYTES}")
    (static / JS_NAME).write_bytes(source.read_bytes())
    (static / CSS_NAME).write_text(CSS, encoding="utf-8")
