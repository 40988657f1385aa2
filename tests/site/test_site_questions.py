"""Self-check questions on the built website (issue 39), in headless Chromium.

The site is built once for this module by tests/site/test_site.py's fixture (the same build,
the same loopback-only browser). On the lesson pages a reader answers with the keyboard
alone: a right answer is accepted with its reason, wrong answers get the hints aimed at
them (and a stronger one from the second try), the answer shows only when asked, the
feedback is in a live region, progress survives a reload and shows on the index, "Another
one" gives a different instance whose own answer is accepted, and no request is made.
The script's rules are compared with ``perclib.questions.Question.check`` on every kind.
The page holds no answer (issue 53): ``window`` and every data attribute are searched,
in plain and under the old fixed key, before "Show answer" fetches the answers file.
"""

from __future__ import annotations

import functools
import html
import json
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
import sympy as sp
import test_site as _site

from coursetools.shared.common import CourseToolsError
from coursetools.site.questions import (
    BUDGET_JS_BYTES,
    JS_NAME,
    all_questions,
    lesson_questions,
    markdown_html,
    site_instance,
)
from perclib import cover_count
from perclib.questions import SITE_SEEDS, Question, decode

# The site, its server and the browser: tests/site/test_site.py's fixtures, built once here.
site_dir, served, browser, _Visit = _site.site_dir, _site.served, _site.browser, _site._Visit
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
#: Lessons with questions (all of 1-9; the test above holds every one to six).
WITH_QUESTIONS = [p for p in NOTEBOOKS
                  if any("question" in c.metadata.get("tags", [])
                         for c in nbformat.read(p, as_version=4).cells)]
TEXTS = {"why": "Because **so**.", "hint": "General hint.", "stronger": "Stronger one."}


def _plain(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def _lead(markup: str) -> str:
    """The plain words of a hint before its first formula (typeset maths reads otherwise)."""
    return _plain(markup).split("\\(")[0].split("\\[")[0].strip()[:50]


@functools.cache
def _specs(stem: str) -> dict[str, list[dict]]:
    """The lesson's questions as the build made them (the same cache), by cell id."""
    return all_questions([ROOT / "notebooks" / f"{stem}.ipynb"], ROOT / ".cache")[stem]


def _page_questions(page_path: Path) -> list[dict]:
    """The questions of a built page: id, stem, the instances as the page holds them and
    the descriptions they were made from (``specs``, with the answers: from the lesson)."""
    text = page_path.read_text(encoding="utf-8")
    found = []
    for m in re.finditer(r'<div class="qz" id="([^"]+)" data-stem="([^"]+)" data-id="([^"]+)" '
                         r'data-q="([^"]+)"', text):
        found.append({"uid": m.group(1), "stem": m.group(2), "id": m.group(3),
                      "instances": json.loads(html.unescape(m.group(4))),
                      "specs": _specs(m.group(2))[m.group(3)]})
    return found


# ------------------------------------------------------------------ the built files
def test_every_lesson_has_six_questions_three_predict_first() -> None:
    for number in range(1, 10):
        (path,) = [p for p in NOTEBOOKS if p.name.startswith(f"0{number}_")]
        cells = [c for c in nbformat.read(path, as_version=4).cells
                 if "question" in c.metadata.get("tags", [])]
        specs = [next(o["data"]["application/vnd.perclib.question+json"] for o in c.outputs
                      if "application/vnd.perclib.question+json" in o.get("data", {})) for c in cells]
        assert len(specs) >= 6, f"{path.name}: {len(specs)} questions"
        assert sum(s["predict"] for s in specs) >= 3, f"{path.name}: fewer than 3 predict-first"


def test_questions_on_the_pages_and_answers_out_of_sight(site_dir) -> None:
    search = (site_dir / "searchindex.js").read_text(encoding="utf-8")
    for lesson in WITH_QUESTIONS:
        page = site_dir / f"{lesson.stem}.html"
        questions = _page_questions(page)
        n_cells = sum("question" in c.metadata.get("tags", [])
                      for c in nbformat.read(lesson, as_version=4).cells)
        assert len(questions) == n_cells, f"{page.name}: {len(questions)} of {n_cells} questions"
        text = page.read_text(encoding="utf-8")
        assert "from perclib.questions import" not in text, "a question's code reached the page"
        visible = _plain(re.sub(r"<script.*?</script>", "", text, flags=re.S))
        for q in questions:
            for inst, spec in zip(q["instances"][:3], q["specs"], strict=False):
                secret = decode(spec["secret"])
                # A choice's answer is one of its visible options; its reason is not shown.
                keys = ("why",) if inst["kind"] in ("choice", "choices", "yesno") else ("why", "shown")
                for key in keys:
                    words = _plain(secret[key])
                    if len(words) < 12:
                        continue  # "Yes", "$8$": too short to tell apart from the prose
                    assert words not in visible, f"{page.name} {q['id']}: its {key} is visible"
                    assert words not in search, f"{page.name} {q['id']}: its {key} is in the search index"
            if len(q["instances"]) > 1:
                assert len(q["instances"]) >= 20
                assert len({inst["prompt"] for inst in q["instances"]}) > 1
    script = site_dir / "_static" / JS_NAME
    assert script.stat().st_size <= BUDGET_JS_BYTES


def test_the_index_knows_how_many_questions_each_lesson_has(site_dir) -> None:
    text = (site_dir / "00_index.html").read_text(encoding="utf-8")
    m = re.search(r'class="qz-index" data-totals="([^"]+)"', text)
    assert m, "no progress holder on the index"
    totals = json.loads(html.unescape(m.group(1)))
    for lesson in WITH_QUESTIONS:
        assert totals[lesson.stem] == len(_page_questions(site_dir / f"{lesson.stem}.html"))


def test_first_view_within_budget(site_dir) -> None:
    from coursetools.site.build import BUDGET_FIRST_LOAD_MB
    from coursetools.site.page_weight import first_load_bytes

    for lesson in WITH_QUESTIONS:
        assert first_load_bytes(site_dir, site_dir / f"{lesson.stem}.html") <= BUDGET_FIRST_LOAD_MB * 2**20


# ------------------------------------------------------------------ the build's rules
def _lesson(tmp_path: Path, source: str, outputs=()) -> Path:
    cell = nbformat.v4.new_code_cell(source, metadata={"tags": ["question"]})
    cell.outputs = list(outputs)
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Lesson"), cell])
    path = tmp_path / "09_demo.ipynb"
    nbformat.write(nb, path)
    return path


def _spec_output(question: Question):
    return nbformat.v4.new_output("display_data", {"application/vnd.perclib.question+json": question.spec(),
                                                   "text/plain": "q"})


RENEWABLE = """from perclib.questions import Question
from perclib.widgets import ask


def make(rng):
    n = int(rng.integers(2, 50))
    return Question(f"{n} + 1?", kind="integer", answer=n + 1, why="w", hint="h", stronger="s")


ask(make)
"""


def test_the_build_names_a_cell_whose_answer_is_typed_by_hand(tmp_path) -> None:
    source = ("from perclib.questions import Question\nfrom perclib.widgets import ask\n"
              "ask(Question('q', kind='integer', answer=8, why='w', hint='h', stronger='s'))\n")
    path = _lesson(tmp_path, source)
    with pytest.raises(CourseToolsError, match=r"09_demo.ipynb cell 1 \(id .*answer=8 is typed by hand"):
        lesson_questions(path, tmp_path / "cache")


def test_renewable_questions_get_24_instances_checked_against_the_stored_one(tmp_path) -> None:
    import numpy as np

    ns: dict = {}
    exec(RENEWABLE.replace("ask(make)", ""), ns)
    stored = ns["make"](np.random.default_rng(0))
    path = _lesson(tmp_path, RENEWABLE, [_spec_output(stored)])
    (instances,) = lesson_questions(path, tmp_path / "cache").values()
    assert len(instances) == SITE_SEEDS >= 20 and instances[0] == json.loads(json.dumps(stored.spec()))
    assert len(list((tmp_path / "cache").glob("*.json"))) == 1  # cached like the frames
    stale = ns["make"](np.random.default_rng(5))
    path = _lesson(tmp_path, RENEWABLE, [_spec_output(stale)])
    with pytest.raises(CourseToolsError, match="stale"):
        lesson_questions(path, tmp_path / "cache")
    needs_more = RENEWABLE.replace("n = int(rng.integers(2, 50))", "n = OFFSET + 1")
    path = _lesson(tmp_path, needs_more, [_spec_output(stored)])
    with pytest.raises(CourseToolsError, match="must run by itself"):
        lesson_questions(path, tmp_path / "cache")


# ------------------------------------------------------------------ in a browser
def _visit(browser, served, page: str) -> _Visit:
    visit = _Visit(browser, {"width": 1200, "height": 900})
    visit.requests = []
    visit.page.on("request", lambda r: visit.requests.append(r))
    visit.open(f"{served}/{page}")
    return visit


def _feedback(page, uid: str) -> str:
    return page.locator(f"#{uid} .qz-feedback").inner_text()


def _wait_feedback(page, uid: str, before: str) -> str:
    page.wait_for_function(
        "([uid, before]) => document.querySelector('#' + uid + ' .qz-feedback').innerText !== before",
        arg=[uid, before], timeout=5000)
    return _feedback(page, uid)


def _keyboard_into(page, uid: str) -> None:
    """Put the keyboard focus just before the question; the rest is Tab and typing."""
    page.evaluate("uid => { const e = document.getElementById(uid); e.tabIndex = -1; e.focus(); }", uid)


def _type_and_check(page, uid: str, text: str) -> str:
    before = _feedback(page, uid)
    field = page.locator(f"#{uid} .qz-input")
    if page.evaluate("() => document.activeElement && document.activeElement.classList.contains('qz-input')"):
        page.keyboard.press("Control+A")
    else:
        _keyboard_into(page, uid)
        page.keyboard.press("Tab")
        assert field.evaluate("e => e === document.activeElement"), "Tab did not reach the answer box"
    page.keyboard.type(text)
    page.keyboard.press("Enter")  # submits the form: the Check button's action
    if _feedback(page, uid) == before:
        return _wait_feedback(page, uid, before)
    return _feedback(page, uid)


def _html_secret(spec: dict) -> dict:
    """The instance's answer, hints and reasons, texts as the page shows them (HTML)."""
    s = decode(spec["secret"])
    for key in ("why", "hint", "stronger"):
        s[key] = markdown_html(s[key], inline=True)
    s["hints"] = [[k, markdown_html(t, inline=True)] for k, t in s["hints"]]
    return s


def _hints(spec: dict) -> dict:
    s = _html_secret(spec)
    return {str(k): _lead(t) for k, t in s["hints"]}, s


@pytest.mark.browser
def test_a_reader_answers_with_the_keyboard_alone(site_dir, served, browser) -> None:
    stem = "01_threshold_units"
    (q,) = [q for q in _page_questions(site_dir / f"{stem}.html") if q["id"] == "q01-grandmother"]
    hints, secret = _hints(q["specs"][0])
    visit = _visit(browser, served, f"{stem}.html")
    page, uid = visit.page, q["uid"]
    try:
        region = page.locator(f"#{uid} .qz-feedback")
        assert region.get_attribute("aria-live") == "polite" and region.get_attribute("role") == "status"
        # Three wrong answers, each with the hint aimed at it; a stronger hint from the second.
        wrong = [("65536", hints["65536"]), ("0", hints["0"]), ("7", _lead(secret["hint"]))]
        for k, (answer, hint) in enumerate(wrong):
            said = " ".join(_type_and_check(page, uid, answer).split())
            assert said.startswith("✗ Not yet.") and hint in said, (answer, said)
            assert ("Stronger hint:" in said) == (k >= 1), said
            assert "Answer:" not in said
        # The answer only when asked: Tab from the box to Check, then to "Show answer".
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.classList.contains('qz-show')")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelector('#{uid} .qz-feedback').innerText.startsWith('Answer')")
        assert _lead(secret["why"]) in " ".join(_feedback(page, uid).split())
        said = _type_and_check(page, uid, "1")
        assert said.startswith("✓ Right.") and _lead(secret["why"]) in " ".join(said.split())
        assert page.locator(".qz-progress").is_visible(), "the progress line is not shown"
        progress = page.locator(".qz-progress .qz-count").inner_text()
        total = len(_page_questions(site_dir / f"{stem}.html"))
        # Found after "Show answer": counted apart from first tries and hints.
        assert progress == (f"Self-check questions answered right: 1 of {total} (at the first "
                            "try 0, after hints 0, after Show answer 1)."), progress
        # Kept across a reload, and shown on the index.
        visit.open(f"{served}/{stem}.html")
        assert f"right: 1 of {total} (" in page.locator(".qz-progress .qz-count").inner_text()
        assert page.locator(f"#{uid} .qz-solved").is_visible()
        visit.open(f"{served}/00_index.html")
        badge = page.locator(f'.qz-badge[data-stem="{stem}"]')
        assert badge.inner_text().strip() == f"(self-check: 1 of {total}, 0 at the first try)"
        page.locator(".qz-index button").focus()
        page.keyboard.press("Enter")
        assert badge.inner_text().strip() == f"(self-check: 0 of {total}, 0 at the first try)"
        page.screenshot(path=str(ROOT / "test-output" / "site" / "questions-index.png"))
        assert not visit.blocked and not visit.errors, (visit.blocked, visit.errors)
        # One fetch: the answers file, when "Show answer" was pressed.
        fetched = [r.url for r in visit.requests if r.resource_type in ("xhr", "fetch", "websocket")]
        assert fetched == [f"{served}/_static/answers/{stem}.json"], fetched
        assert all(r.url.startswith(served) or r.url.startswith("data:") for r in visit.requests)
    finally:
        visit.close()


@pytest.mark.browser
def test_another_one_and_choices_with_the_keyboard(site_dir, served, browser) -> None:
    stem = "01_threshold_units"
    (q,) = [q for q in _page_questions(site_dir / f"{stem}.html") if q["id"] == "q01-output"]
    visit = _visit(browser, served, f"{stem}.html")
    page, uid = visit.page, q["uid"]
    try:
        first_prompt = page.locator(f"#{uid} .qz-prompt").inner_text()
        another = page.locator(f"#{uid} .qz-another")
        assert another.is_visible()
        another.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "([uid, p]) => document.querySelector('#' + uid + ' .qz-prompt').innerText !== p",
            arg=[uid, first_prompt])
        inst = q["instances"][1]
        assert inst["prompt"] != q["instances"][0]["prompt"]
        answer = decode(q["specs"][1]["secret"])["answer"]  # the index of the right option
        # Focus moved to the first option; arrow keys move between radio buttons.
        for _ in range(answer):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Space")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => document.querySelector('#{uid} .qz-feedback').innerText.startsWith('✓')")
        assert page.locator(f"#{uid} .qz-feedback").inner_text().startswith("✓ Right.")
        page.screenshot(path=str(ROOT / "test-output" / "site" / "questions-lesson1.png"), full_page=False)
        assert not visit.blocked and not visit.errors, (visit.blocked, visit.errors)
    finally:
        visit.close()


def _python_cases() -> list[tuple[Question, list]]:
    """One question of each kind, with responses: right, each hint key, other, unreadable."""
    P = sp.Symbol("P")
    return [
        (Question("i", kind="integer", answer=cover_count(4, 2), hints={14: "T *h*.", 16: "All."}, **TEXTS),
         ["8", " 8 ", "14", "16", "9", "1,024", "x", ""]),
        (Question("n", kind="number", answer=0.4472, tol=2e-3, hints={0.2: "Square."}, **TEXTS),
         ["0.447", "0.4452", "0.2", "1/5", "2e-1", "0.5", "abc", "1/sqrt(5)", "sqrt(5)/5", "1/sqrt(25)",
          "1e999999999", "9^9^9^9", "x" * 201]),
        (Question("f", kind="fraction", answer=Fraction(cover_count(4, 2), 16),
                  hints={Fraction(7, 8): "Thr."}, **TEXTS),
         ["1/2", "8/16", "0.5", "7/8", "14/16", "0.501", "2/3", "1/0", "x"]),
        (Question("c", kind="choice", answer=["a", "b", "c"][len("x")], choices=["a", "b", "c"],
                  hints={"a": "Not a.", "c": "Not $c$."}, **TEXTS), [1, 0, 2, None]),
        (Question("m", kind="choices", answer={"a", "c"}, choices=["a", "b", "c"],
                  hints={"b": "Not b."}, **TEXTS), [[0, 2], [0, 1, 2], [0], [], [2]]),
        (Question("y", kind="yesno", answer=cover_count(3, 2) == 6, **TEXTS), [True, False, None]),
        (Question("p", kind="formula", variables=["P"], answer=sp.expand(2 * P + 2),
                  hints={2 * P: "Plus two."}, **TEXTS),
         ["2P+2", "2*(P+1)", "2 P + 2", "2P", "P^2", "2**P", "sqrt(P)", "Q", "import os", "2P+"]),
    ]


def _py_response(q: Question, r):
    if q.kind == "choice":
        return None if r is None else q.choices[r]
    if q.kind == "choices":
        return {q.choices[k] for k in r}
    return r


@pytest.mark.browser
def test_the_script_checks_as_python_does(site_dir, served, browser) -> None:
    visit = _visit(browser, served, "01_threshold_units.html")
    try:
        for q, responses in _python_cases():
            inst = site_instance(json.loads(json.dumps(q.spec())))
            for before in (0, 1):
                for r in responses:
                    want = q.check(_py_response(q, r), wrong_before=before)
                    got = visit.page.evaluate(
                        "([q, r, b]) => window.perclibQuestions.check(q, r, b)", [inst, r, before])
                    message = markdown_html(want.message, inline=True)
                    assert (got["correct"], got["counted"]) == (want.correct, want.counted), (q.kind, r)
                    assert got["message"] == message, (q.kind, r, got["message"], message)
        assert not visit.errors, visit.errors
    finally:
        visit.close()


def _fill_right(page, uid: str, spec: dict) -> bool:
    """Give the page the instance's right answer through its form; False for a formula."""
    s, kind = decode(spec["secret"]), spec["kind"]
    if kind == "formula":
        return False
    if kind in ("integer", "number", "fraction"):
        text = {"integer": lambda a: a, "number": repr, "fraction": lambda a: f"{a[0]}/{a[1]}"}[kind]
        page.locator(f"#{uid} .qz-input").fill(text(s["answer"]))
    else:
        wanted = ({0} if s["answer"] else {1}) if kind == "yesno" else \
            set(s["answer"]) if kind == "choices" else {s["answer"]}
        boxes = page.locator(f"#{uid} .qz-options input")
        for k in range(boxes.count()):
            if k in wanted:
                boxes.nth(k).check()
            elif kind == "choices":
                boxes.nth(k).uncheck()
    page.locator(f"#{uid} .qz-check").click()
    return True


@pytest.mark.browser
def test_every_question_on_every_page_accepts_its_answer(site_dir, served, browser) -> None:
    checked = 0
    for lesson in WITH_QUESTIONS:
        visit = _visit(browser, served, f"{lesson.stem}.html")
        try:
            questions = _page_questions(site_dir / f"{lesson.stem}.html")
            assert visit.page.locator(".qz-form:not([hidden])").count() == len(questions)
            checked_here = 0
            for q in questions:
                if _fill_right(visit.page, q["uid"], q["specs"][0]):
                    said = _wait_feedback(visit.page, q["uid"], "")
                    assert said.startswith("✓ Right."), (lesson.name, q["id"], said)
                    checked += 1
                    checked_here += 1
            count = visit.page.locator(".qz-progress .qz-count").inner_text()
            # Every answer right at once: all at the first try.
            assert count.endswith(f"of {len(questions)} (at the first try {checked_here}, "
                                  "after hints 0, after Show answer 0)."), count
            assert not visit.errors and not visit.blocked, (lesson.name, visit.errors, visit.blocked)
        finally:
            visit.close()
    assert checked >= 30, checked


#: Everything a console line reads without the build: window's own values and every data
#: attribute, as text, plus each base64 run decoded with the fixed key the site used to
#: hide its answers under (perclib.questions.decode).
_LOOK = """() => {
  const seen = [];
  for (const name of Object.getOwnPropertyNames(window)) {
    let v; try { v = window[name]; } catch (e) { continue; }
    if (v === null || v === undefined) continue;
    try { seen.push(typeof v === "function" ? name : JSON.stringify(v) || ""); } catch (e) { /* cyclic */ }
  }
  for (const el of document.querySelectorAll("*"))
    for (const a of el.attributes) if (a.name.startsWith("data-")) seen.push(a.value);
  return seen;
}"""


def _fixed_key_readings(texts: list[str]) -> str:
    out = []
    for text in texts:
        for run in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", text):
            try:
                out.append(json.dumps(decode(run)))
            except Exception:  # not the old encoding: nothing to read
                continue
    return "\n".join(out)


@pytest.mark.browser
def test_no_answer_is_on_the_page_before_show_answer(site_dir, served, browser) -> None:
    """window and the data attributes hold no answer, in plain or fixed-key form; "Show
    answer" fetches it."""
    # Lessons 4 and 8 hold every kind of question between them; lesson 1 the first seen.
    stems = ["01_threshold_units", "04_cover_counting", "08_kernels"]
    looked = 0
    for stem in stems:
        questions = _page_questions(site_dir / f"{stem}.html")
        visit = _visit(browser, served, f"{stem}.html")
        try:
            seen = visit.page.evaluate(_LOOK)
            assert "decode" not in visit.page.evaluate("() => Object.keys(window.perclibQuestions)")
            text = "\n".join(seen)
            hidden = _fixed_key_readings(seen)
            for q in questions:
                for inst, spec in zip(q["instances"][:4], q["specs"], strict=False):
                    secret = _html_secret(spec)
                    shown = markdown_html(secret["shown"], inline=True)
                    for words in (_plain(secret["why"]), secret["why"], f"Answer: {_plain(shown)}",
                                  f"Answer: {shown}"):
                        if len(words) >= 12:  # shorter ones match prose by chance
                            assert words not in text and words not in hidden, (stem, q["id"], words)
                    assert set(inst) >= {"check"} and "secret" not in inst and "answer" not in inst
                    assert re.fullmatch(r"[0-9a-f]{16}", inst["check"]["answer"]), inst["check"]["answer"]
                    for _, sealed in inst["check"].get("hints", []):
                        assert all(_plain(t) not in sealed for _, t in secret["hints"] if len(_plain(t)) >= 8)
                    looked += 1
            q = questions[0]
            secret = _html_secret(q["specs"][0])
            visit.page.locator(f"#{q['uid']} .qz-show").click()
            said = _wait_feedback(visit.page, q["uid"], "")
            assert said.startswith("Answer:") and _lead(secret["why"]) in " ".join(said.split()), said
            assert not visit.errors, visit.errors
        finally:
            visit.close()
    assert looked >= 6 * len(stems), looked


#: A reader's look (issue 53): one typed question of three lessons, a wrong answer with
#: its aimed hint, then the right one (typed as a reader would: 1/sqrt(5), not 0.4472).
READER_LOOK = [("01_threshold_units", "q01-distance-guess", "1/sqrt(5)"),
               ("04_cover_counting", "q04-any-count", None),
               ("06_margins", "q06-pattern-margin", "2/sqrt(10)")]
SHOTS = ROOT / "test-output" / "site"

#: axe's colour-contrast rule on one question card only (cheap enough for each state).
_CARD_CONTRAST = """uid => axe.run('#' + uid, {runOnly: {type: 'rule', values: ['color-contrast']}})
  .then(r => r.violations.flatMap(v => v.nodes.map(n => n.target.join(' ') + ': ' +
        (n.failureSummary || '').slice(0, 160))))"""


def _card_contrast(page, uid: str) -> list[str]:
    from axe_support import axe_script

    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        script = axe_script()
        if script is None:
            _site._unavailable("axe-core not installed (npm install --prefix .cache/npm axe-core@4.14.1)")
        page.add_script_tag(content=script)
    return page.evaluate(_CARD_CONTRAST, uid)


@pytest.mark.browser
@pytest.mark.parametrize(("stem", "qid", "typed"), READER_LOOK, ids=[s[:2] for s, _, _ in READER_LOOK])
def test_a_readers_look_at_a_question(site_dir, served, browser, stem, qid, typed) -> None:
    """Screenshots (test-output/site/question-NN-*.png) of one question before an answer,
    after a wrong one and after the right one, in light and dark mode (and on a phone,
    answered): the prompt is in
    view, nothing of the answer is on the page before "Show answer", the feedback changes
    in its live region with the hint aimed at the slip, then accepts the answer; the card's
    text has enough contrast in both states and modes (axe, on lesson 1's card)."""
    (q,) = [q for q in _page_questions(site_dir / f"{stem}.html") if q["id"] == qid]
    hints, secret = _hints(q["specs"][0])
    wrong = str(q["specs"][0] and decode(q["specs"][0]["secret"])["hints"][0][0])
    right = typed or str(secret["answer"])
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = f"question-{stem[:2]}"
    # The card's colours are the same in every lesson: axe looks at the first one's.
    contrast = _card_contrast if stem == READER_LOOK[0][0] else (lambda page, uid: [])
    problems: list[str] = []
    for scheme in ("light", "dark"):
        visit = _visit(browser, served, f"{stem}.html")
        page, uid = visit.page, q["uid"]
        try:
            if scheme == "dark":  # the reader picks "Dark" in the theme's colour-mode menu
                page.locator(".theme-switch-button:visible").first.click()
                page.locator(".theme-change-button[data-mode=dark]:visible").first.click()
                page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
                page.mouse.click(5, 890)  # a click in the sidebar's empty foot closes the menu
                page.locator(".theme-change-button:visible").first.wait_for(state="hidden")
            card = page.locator(f"#{uid}")
            # Before: the card at the foot of the screen, the lesson's text above it.
            card.evaluate("e => e.scrollIntoView({block: 'end'})")
            prompt = page.locator(f"#{uid} .qz-prompt")
            assert prompt.is_visible() and prompt.evaluate(
                "e => e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().bottom <= innerHeight")
            said = " ".join(prompt.inner_text().split())
            assert _lead(q["instances"][0]["prompt"])[:30] in said, (said, q["instances"][0]["prompt"])
            region = page.locator(f"#{uid} .qz-feedback")
            assert (region.get_attribute("aria-live"), region.get_attribute("role")) == ("polite", "status")
            assert region.inner_text().strip() == ""
            text = " ".join(page.evaluate("() => document.body.innerText").split())
            shown = _plain(markdown_html(secret["shown"], inline=True))
            for words in (_plain(secret["why"]), f"Answer: {shown}"):
                assert words not in text, f"{stem} {qid}: {words!r} is on the page before Show answer"
            page.screenshot(path=str(SHOTS / f"{shot}-1-before-{scheme}.png"))
            # A wrong answer: the hint aimed at that slip, in the live region; no answer.
            said = " ".join(_type_and_check(page, uid, wrong).split())
            assert said.startswith("✗ Not yet.") and hints[wrong if stem[:2] == "04" else str(float(wrong))] \
                in said, (wrong, said)
            assert "Answer:" not in said and _plain(secret["why"]) not in said
            card.screenshot(path=str(SHOTS / f"{shot}-2-wrong-{scheme}.png"))
            problems += [f"{scheme} wrong: {p}" for p in contrast(page, uid)]
            # The right answer, typed as a reader would.
            said = " ".join(_type_and_check(page, uid, right).split())
            assert said.startswith("✓ Right.") and _lead(secret["why"]) in said, (right, said)
            assert page.locator(f"#{uid} .qz-solved").is_visible()
            card.screenshot(path=str(SHOTS / f"{shot}-3-right-{scheme}.png"))
            problems += [f"{scheme} right: {p}" for p in contrast(page, uid)]
            fetched = [r.url for r in visit.requests if "/answers/" in r.url]
            assert not fetched, f"the answers file was fetched without Show answer: {fetched}"
            assert not visit.errors and not visit.blocked, (visit.errors, visit.blocked)
        finally:
            visit.close()
    # On a phone: the card fits the screen's width, answered there too.
    visit = _Visit(browser, {"width": 375, "height": 800})
    try:
        page = visit.open(f"{served}/{stem}.html")
        card = page.locator(f"#{q['uid']}")
        card.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.locator(f"#{q['uid']} .qz-input").fill(right)
        page.locator(f"#{q['uid']} .qz-check").click()
        assert _wait_feedback(page, q["uid"], "").startswith("✓ Right.")
        box = card.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
        assert card.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the card scrolls sideways"
        page.screenshot(path=str(SHOTS / f"{shot}-4-phone.png"))
    finally:
        visit.close()
    assert not problems, "\n".join(problems)
