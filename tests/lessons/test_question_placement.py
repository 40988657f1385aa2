"""Predict means predict: no predict-first question has its answer on the page above it.

For every predict-first question of lessons 1-9 (the stored seed-0 instance, read from the
question's description in the stored output) the check collects what a reader has seen
before reaching it: the lesson's intro (title and goals, cell 0) and every cell of the
question's section above it -- Markdown, earlier questions' prompts, code outputs (text,
alt texts of figures, HTML tables). It fails when the answer appears there in one of its
printed forms:

* a whole number of two digits or more: as a number token (``58``, ``1,024``,
  ``1{,}024``); a one-digit number only where it is stated as a result (``= 1``,
  ``is 0``), since "1" and "2" occur everywhere as indices and lesson numbers;
* a number with a tolerance: any decimal within the tolerance with at least two
  significant digits;
* a fraction: ``a/b``, ``\\frac{a}{b}``, the exact decimal, and "exactly half" for 1/2;
* a choice: the option's text (a numeral option as a number, see above);
* a formula: the shown formula with spaces, braces and ``*`` removed (``P^2-P+2``).

A yes/no question has no printed form of its own; it is checked through
:data:`GIVEAWAYS`, sentences the turn-6 reviews found stating such answers, which must not
come back above their questions. Renewable questions are checked over all the site's
instances in ``test_renewable_answers_are_not_above_them``.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from perclib.questions import SITE_SEEDS, SPEC_MIME, decode

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))

#: Sentences that gave a predict question's answer away (turn-6 reviews): each must not
#: stand above the question whose prompt contains the key.
GIVEAWAYS: dict[str, list[str]] = {
    "images, how many make it fire": ["fires for the letter T and nothing else"],
    "AND with the other tie rule": ["the constant \"false\""],
    "the four corners of XOR": ["a single threshold unit cannot compute it"],
    "three points on one line": ["three points on a line labelled"],
    "dichotomies of the plane": ["the two it cannot"],
    "one extra feature": ["one extra nonlinear feature"],
    "drawn from a density": ["with probability one"],
    "corners of the cube": ["the cube $\\{0,1\\}^3$ is not"],
    "flipped labels": ["A few flipped labels are enough"],
    "ever reach zero": ["it reaches zero before"],
    "average over the labellings": ["average: 2^-P", "average: $2^{-P}$"],
    "reliably store": ["182 for N = 100", "182 for $N = 100$"],
}


#: Questions whose answer appears above them by design, keyed by a piece of the prompt.
EXEMPT: dict[str, str] = {
    "with this course's convention": "the tie rule sign(0) = -1 is stated above on purpose; "
                                     "the question asks to apply it to a pattern on the "
                                     "threshold",
    r"How many with $\eta = 0.01$": "the prompt itself gives the count for eta = 1; the "
                                     "question asks whether the rate changes it",
    "in how many of the 10 trials": "the answer is all of them: it equals the number of "
                                    "trials the prompt names",
    "At most how many updates can the perceptron make": "renewable R^2/gamma^2 is a square "
        "such as 100 or 400, numbers that occur above as sizes; none is the bound of the "
        "same R and gamma",
}


def _exempt(prompt: str) -> bool:
    return any(key in prompt for key in EXEMPT)


def _text(value) -> str:
    return value if isinstance(value, str) else "".join(value)


def _cell_texts(cell: dict) -> list[str]:
    if cell["cell_type"] == "markdown":
        return [_text(cell["source"])]
    out = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            out.append(_text(output["text"]))
        data = output.get("data", {})
        for mime in ("text/markdown", "text/plain"):
            if mime in data:
                out.append(_text(data[mime]))
                break
        if "text/html" in data:
            out.append(html.unescape(re.sub(r"<[^>]+>", " ", _text(data["text/html"]))))
    return out


def _normal(text: str) -> str:
    text = text.replace("\u2212", "-").replace("\u00b2", "^2").replace("\u00b3", "^3")
    text = re.sub(r"(\d)(?:,|\{,\}|\\,|\u2009|\u202f)(?=\d{3}\b)", r"\1", text)
    return text


def _spec(cell: dict) -> dict | None:
    for output in cell.get("outputs", []):
        if SPEC_MIME in output.get("data", {}):
            return output["data"][SPEC_MIME]
    return None


def _is_heading(cell: dict) -> bool:
    return cell["cell_type"] == "markdown" and bool(re.match(r"\s*##\s", _text(cell["source"])))


def seen_before(cells: list[dict], index: int, *, near: bool = False) -> str:
    """What a reader has seen before cell ``index``: the intro and the section above it
    (with ``near``, only the two cells right above it)."""
    start = index
    while start > 0 and not _is_heading(cells[start]):
        start -= 1
    shown = cells[max(index - 2, 1):index] if near else [cells[0]] + cells[max(start, 1):index]
    return _normal("\n".join(t for c in shown for t in _cell_texts(c)))


# A number token, not part of a longer number, a subscript or a power, and not the value
# of a named parameter ("N = 20", "a = 400"): that is a setting, not a result.
_NUMBER = (r"(?<![\w.^/_{])(?<![A-Za-z]=)(?<![A-Za-z] =)(?<![A-Za-z]= )(?<![A-Za-z] = )"
           r"(?<![A-Za-z] = \$)(?<![A-Za-z]=\$)-?TOKEN(?![\w]|\.\d|/\d|\})")
#: A printed array of several numbers: the values of other patterns, not of a question.
_ARRAY = re.compile(r"\[[-+\d.\se,]{12,}\]")


def _integer_found(n: int, text: str, near: str | None = None) -> str | None:
    # A one-digit number is looked for only in ``near`` (the cells right above), where
    # "= 0" states a result; further up it is an index, a case or a lesson number.
    token = re.escape(str(n))
    if abs(n) < 10:
        if near is None:
            return None
        text = near
    if abs(n) >= 10:
        m = re.search(_NUMBER.replace("TOKEN", token), text)
    else:
        # stated as a result, not listed as one of several values ("are -1 or +1")
        # stated as a result ("C(5, 2) = 10", "is 0"), not as a value of a variable
        # ("w = 0") or one of several values ("are -1 or +1")
        m = re.search(r"(?:(?<=[)\d])\s*=|\bis|\bare|\bequals|\bgives)\s*\$?\s*" + token
                      + r"(?![\w.]|/\d|\$?\s*(?:or|and)\b|\$?\s*,)", text)
    return m.group(0) if m else None


def _decimal_found(value: float, tol: float, text: str) -> str | None:
    text = _ARRAY.sub(" ", text)
    for m in re.finditer(r"(?<![\w.])-?\d*\.\d+(?!\d|\s*/)", text):
        digits = m.group(0).lstrip("-0.").replace(".", "")
        if len(digits) >= 2 and abs(float(m.group(0)) - value) <= tol:
            return m.group(0)
    return None


def _compact(text: str) -> str:
    return re.sub(r"[\s${}*]|\\left|\\right|\\,", "", text)


def answer_found(secret: dict, spec: dict, text: str, near: str | None = None) -> str | None:
    """The printed form of the answer found in ``text``, None if there is none."""
    kind, answer = spec["kind"], secret["answer"]
    if kind == "integer":
        return _integer_found(int(answer), text, near)
    if kind == "number":
        return _decimal_found(float(answer), float(secret["tol"]), text)
    if kind == "fraction":
        value = Fraction(int(answer[0]), int(answer[1]))
        a, b = value.numerator, value.denominator
        if b == 1:
            return _integer_found(a, text, near)
        forms = [rf"(?<![\d.]){a}\s*/\s*{b}(?!\d)", rf"\\t?frac\{{?{a}\}}?\{{?{b}\}}?"]
        if value == Fraction(1, 2):
            forms.append(r"\b(?:exactly|is|are|just|one)\s+half\b(?!-)")
        for form in forms:
            m = re.search(form, text)
            if m:
                return m.group(0)
        if 10**6 % b == 0 or 2**20 % b == 0:  # a terminating decimal
            return _decimal_found(float(value), 0.0, text)
        return None
    if kind == "choice":
        option = spec["choices"][answer].strip()
        numeral = re.fullmatch(r"[+-]?\d+", option.replace("\u2212", "-"))
        if numeral:
            return _integer_found(int(option.replace("\u2212", "-")), text, near)
        others = [o for o in spec["choices"] if o != option]
        if all(o.strip().lower() in text.lower() for o in [option, *others]):
            return None  # every option is named above: names (students, methods), no answer
        if len(option.split()) == 1:
            m = re.search(rf"(?:=|\bis|\bare)\s+{re.escape(option)}\b", text, re.I)
            return m.group(0) if m else None
        return option if option.lower() in text.lower() else None
    if kind == "formula":
        shown = _compact(secret["shown"])
        if re.fullmatch(r"-?\d+", shown):  # a constant: read as a number
            return _integer_found(int(shown), text, near)
        return shown if shown and shown in _compact(text) else None
    return None  # yes/no and several options: see GIVEAWAYS


def predict_questions():
    for path in LESSONS:
        cells = json.loads(path.read_text())["cells"]
        for index, cell in enumerate(cells):
            spec = _spec(cell)
            if spec is not None and spec.get("predict"):
                yield pytest.param(path, index, id=f"L{path.name[:2]}-c{index}")


@pytest.mark.parametrize(("path", "index"), list(predict_questions()))
def test_a_predict_question_comes_before_its_answer(path, index):
    cells = json.loads(path.read_text())["cells"]
    spec = _spec(cells[index])
    text, near = seen_before(cells, index), seen_before(cells, index, near=True)
    found = None if _exempt(spec["prompt"]) else answer_found(decode(spec["secret"]), spec,
                                                              text, near)
    assert found is None, f"{path.name} cell {index}: the answer is above it, as {found!r}"
    for key, phrases in GIVEAWAYS.items():
        if key in spec["prompt"]:
            for phrase in phrases:
                assert phrase not in text, f"{path.name} cell {index}: {phrase!r} above it"


def test_the_check_finds_each_printed_form():
    # The check must be able to fail: each kind's printed forms are found, coincidences not.
    assert _integer_found(58, "the table: 29 58 93") == "58"
    assert _integer_found(1024, _normal("there are 1{,}024 of them")) == "1024"
    assert _integer_found(58, "258 and 5.8 and 58.5 and P_58") is None
    assert _integer_found(1, "lesson 1, x_1, 1/2", near="lesson 1, x_1, 1/2") is None
    assert _integer_found(1, "the count is 1 here") is None  # not in the cells right above
    assert _integer_found(1, "", near="the count is 1 here") is not None
    assert _integer_found(-1, "", near="outputs are $-1$ or $+1$") is None
    assert _decimal_found(0.4472, 0.002, "|theta|/||w|| = 0.4472") == "0.4472"
    assert _decimal_found(0.4472, 0.002, "0.5 and 0.45") is None
    assert _decimal_found(0.5, 0.0, "such as $0.50/\\alpha$") is None
    assert _decimal_found(1.796, 0.002, "margins: [1.138 1.796 1.818 0.806]") is None
    assert _integer_found(400, "at $B = 100$, $a = 400$") is None
    assert _integer_found(58, "$C(8, 3) = 58$") == "58"
    spec, half = {"kind": "fraction"}, {"answer": ["1", "2"]}
    assert answer_found(half, spec, "exactly half of them") is not None
    assert answer_found(half, spec, "$\\frac{1}{2}$") is not None
    assert answer_found(half, spec, "the upper half-plane") is None
    formula = {"answer": [], "shown": "$P^{2} - P + 2$"}
    assert answer_found(formula, {"kind": "formula"}, _normal("C(P,3) = P² − P + 2")) is not None
    choice = {"kind": "choice", "choices": ["closer to the origin", "farther", "-1"]}
    assert answer_found({"answer": 0}, choice, "it moves closer to the origin") is not None
    assert answer_found({"answer": 2}, choice, "labels in {-1, +1}") is None
    assert answer_found({"answer": 2}, choice, "", near="the output is -1") is not None


RUN_ALONE = """
import json, sys
import numpy as np
from perclib import questions
captured = []
import perclib.widgets as widgets
widgets.ask = lambda q, **k: captured.append(q)
source = sys.stdin.read()
exec(compile(source, "<question>", "exec"), {})
make = captured[0]
out = []
for seed in range(int(sys.argv[1])):
    q = questions.instance(make, seed)
    out.append({"spec": {"kind": q.kind, "choices": q.choices, "prompt": q.prompt},
                "secret": q.secret()})
print(json.dumps(out))
"""


def renewable_questions():
    for path in LESSONS:
        cells = json.loads(path.read_text())["cells"]
        for index, cell in enumerate(cells):
            source = _text(cell.get("source", ""))
            if cell["cell_type"] == "code" and "question" in cell["metadata"].get("tags", []) \
                    and re.search(r"^ask\(\w+\)\s*$", source, re.M):
                yield pytest.param(path, index, id=f"L{path.name[:2]}-c{index}")


@pytest.mark.parametrize(("path", "index"), list(renewable_questions()))
def test_renewable_answers_are_not_above_them(path, index):
    # Every instance the site offers (seeds 0..23): its answer is not on the page above.
    cells = json.loads(path.read_text())["cells"]
    source = _text(cells[index]["source"]).replace("from perclib.widgets import ask",
                                                   "from perclib import widgets")
    source = re.sub(r"^ask\((\w+)\)", r"widgets.ask(\1)", source, flags=re.M)
    result = subprocess.run([sys.executable, "-c", RUN_ALONE, str(SITE_SEEDS)], input=source,
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    text, near = seen_before(cells, index), seen_before(cells, index, near=True)
    for seed, item in enumerate(json.loads(result.stdout)):
        prompt = item["spec"]["prompt"]
        assert not re.search(r"\\mathbf\{w\}\s*=\s*\(0,\s*0\)", prompt), f"seed {seed}: w = (0, 0)"
        if _exempt(prompt):
            continue
        found = answer_found(item["secret"], item["spec"], text, near)
        assert found is None, f"{path.name} cell {index}, seed {seed}: answer above as {found!r}"


def all_questions():
    for path in LESSONS:
        cells = json.loads(path.read_text())["cells"]
        for index, cell in enumerate(cells):
            if _spec(cell) is not None:
                yield pytest.param(path, index, id=f"L{path.name[:2]}-c{index}")


@pytest.mark.parametrize(("path", "index"), list(all_questions()))
def test_a_stronger_hint_never_states_the_answer(path, index):
    # Two blind tries must not reveal the answer: the stronger hint points at the method.
    spec = _spec(json.loads(path.read_text())["cells"][index])
    secret = decode(spec["secret"])
    stronger = _normal(secret["stronger"])
    found = answer_found(secret, spec, stronger, near=stronger)
    assert found is None, f"{path.name} cell {index}: the stronger hint says {found!r}"


def test_yes_no_and_two_way_questions_without_a_reason_are_rare():
    # A two-way question is a coin toss; a lesson has at most one without a reason part.
    for path in LESSONS:
        cells = json.loads(path.read_text())["cells"]
        blind = [index for index, cell in enumerate(cells)
                 if (spec := _spec(cell)) is not None
                 and (spec["kind"] == "yesno"
                      or spec["kind"] == "choice" and len(spec["choices"]) == 2)]
        assert len(blind) <= 1, f"{path.name}: yes/no or two-way questions at cells {blind}"


def test_every_question_cell_says_run_me_when_collapsed():
    # A student version clears outputs and a question's code is collapsed: JupyterLab then
    # shows the source's first line, which must tell the reader what to do.
    for path in LESSONS:
        for index, cell in enumerate(json.loads(path.read_text())["cells"]):
            if "question" in cell["metadata"].get("tags", []):
                first = _text(cell["source"]).split("\n")[0]
                assert first == RUN_ME, f"{path.name} cell {index}: first line {first!r}"


RUN_ME = "# Self-check question: run this cell (Shift+Enter) to answer it here."
