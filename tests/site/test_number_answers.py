"""A number answer may be arithmetic, read alike in the kernel and on the site (issue 53).

A reader who types ``1/sqrt(5)``, ``3/sqrt(2)``, ``2^10`` or ``pi/4`` for a number question
is understood by ``perclib._typed.parse_number`` (the kernel, JupyterLab's widget) and by
the site's ``questions.js``; ``1e999999999`` and ``9^9^9^9`` get "too large" from both, at
once. One table of inputs (valid, unreadable, too large) goes through both: Python's
``Question.check`` and the script's ``check`` on the same questions, as the site holds
them (salted hashes), in Node (no browser, no site build). Each row also says what the
right reading is, worked out here with ``math`` independently of either parser, so that
two parsers wrong in the same way still fail.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from coursetools.site.questions import JS_NAME, markdown_html, site_instance
from perclib.questions import TOO_LARGE, Question

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "coursetools" / "site" / JS_NAME
UNREADABLE, BIG = "unreadable", "too large"

#: (what a reader types, its value as the course reads it, or UNREADABLE / BIG).
TABLE: list[tuple[str, object]] = [
    ("0.447", 0.447), ("-2.5", -2.5), (".5", 0.5), ("2.", 2.0), ("1e-3", 1e-3), ("2.5E2", 250.0),
    ("1/4", 0.25), ("1/sqrt(5)", 1 / math.sqrt(5)), ("3/sqrt(2)", 3 / math.sqrt(2)),
    ("sqrt(2)/2", math.sqrt(2) / 2), ("2^10", 1024.0), ("2**10", 1024.0), ("2^-1", 0.5),
    ("2**-1", 0.5), ("-2^2", -4.0), ("2^3^2", 512.0), ("(2^3)^2", 64.0), ("pi/4", math.pi / 4),
    ("2pi", 2 * math.pi), ("2 sqrt(2)", 2 * math.sqrt(2)), ("3(1+1)", 6.0), ("(1+2)(3-1)", 6.0),
    ("e^2", math.e**2), ("1/2pi", math.pi / 2), ("1 - 2 - 3", -4.0), ("8/2/2", 2.0),
    (" 1 / sqrt( 5 ) ", 1 / math.sqrt(5)), ("sqrt(sqrt(16))", 2.0), ("--1", 1.0),
    ("1e300", 1e300), ("1.5e-300", 1.5e-300), ("((((1))))", 1.0),
    # cannot be read: typos, names the reader may not use, no real value
    ("", UNREADABLE), ("abc", UNREADABLE), ("1 0", UNREADABLE), ("1,5", UNREADABLE),
    ("sqrt 2", UNREADABLE), ("sqrt(2", UNREADABLE), ("1+", UNREADABLE), ("(1))", UNREADABLE),
    ("log(2)", UNREADABLE), ("x", UNREADABLE), ("2^^2", UNREADABLE), ("1/0", UNREADABLE),
    ("0^-1", UNREADABLE), ("sqrt(-1)", UNREADABLE), ("(-8)^(1/3)", UNREADABLE),
    ("__import__('os')", UNREADABLE), ("1;2", UNREADABLE), ("nan", UNREADABLE),
    ("inf", UNREADABLE),
    # too large to read: said at once, not a try
    ("1e999999999", BIG), ("1e-999999999", BIG), ("1e301", BIG), ("99e299", BIG),
    ("9^9^9^9", BIG), ("2^2^2^2^2^2", BIG), ("2^1000", BIG), ("0.5^1000", BIG), ("1^301", BIG),
    ("1e300*1e300", BIG),
    ("1e300/1e-300", BIG), ("1e200^2", BIG), ("1" + "0" * 61, BIG), ("1+" * 101 + "1", BIG),
    ("(" * 40 + "1" + ")" * 40, BIG), ("-" * 40 + "1", BIG),
]


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is required in CI (.ci/run's npm brings it)")
        pytest.skip("node not installed")
    return node


#: questions.js in Node: a page with no question on it, then ``check`` on each case.
_HARNESS = """
const fs = require("fs"), vm = require("vm");
const page = {readyState: "complete", currentScript: null, querySelectorAll: () => [],
              querySelector: () => null};
const box = {window: {}, document: page, TextEncoder, TextDecoder, atob, console};
vm.createContext(box);
vm.runInContext(fs.readFileSync(process.argv[1], "utf8"), box);
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const out = cases.map(([q, r, b]) => box.window.perclibQuestions.check(q, r, b));
process.stdout.write(JSON.stringify(out));
"""


def script_checks(cases: list[tuple[dict, object, int]]) -> list[dict]:
    """questions.js's ``check`` on each (site instance, response, wrong tries before)."""
    result = subprocess.run([_node(), "-e", _HARNESS, str(SCRIPT)], input=json.dumps(cases),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _question(answer: float) -> Question:
    return Question("x?", kind="number", answer=answer, tol=1e-9 * max(1.0, abs(answer)),
                    why="w", hint="h", stronger="s")


def test_the_table_reads_as_the_course_says_in_both_places() -> None:
    """Each valid row is accepted as its own value by both checks; each other row gets the
    unreadable or too-large message from both, not counted as a try."""
    probe = _question(0.25)
    questions = [(text, want, probe if isinstance(want, str) else _question(want)) for text, want in TABLE]
    cases = []
    for text, _want, q in questions:
        inst = site_instance(json.loads(json.dumps(q.spec())))
        cases += [(inst, text, 0), (inst, text, 1)]
    got = script_checks(cases)
    problems = []
    for k, (text, want, q) in enumerate(questions):
        for before in (0, 1):
            py, js = q.check(text, wrong_before=before), got[2 * k + before]
            if want == BIG:
                expected = (False, False, TOO_LARGE)
            elif want == UNREADABLE:
                expected = (False, False, q._unreadable())
            else:
                expected = (True, True, "Right. w")
            py_said = (py.correct, py.counted, py.message)
            js_said = (js["correct"], js["counted"], js["message"])
            if py_said != expected:
                problems.append(f"python {text!r}: {py_said}, want {expected}")
            if js_said != (expected[0], expected[1], markdown_html(expected[2], inline=True)):
                problems.append(f"script {text!r}: {js_said}, want {expected}")
    assert not problems, "\n".join(problems)


def test_both_agree_on_wrong_answers_hints_and_neighbours() -> None:
    """One question (0.4472, tol 2e-3, a hint for 0.2) against every row, first and later
    tries: the same verdict and message in both places."""
    q = Question("n", kind="number", answer=0.4472, tol=2e-3, hints={0.2: "Square it."}, why="w",
                 hint="h", stronger="s")
    inst = site_instance(json.loads(json.dumps(q.spec())))
    extra = ["sqrt(0.2)", "sqrt(1/5)", "1/5", "0.4452", "2/sqrt(20)", "sqrt(5)/5", "0.5"]
    texts = [t for t, _ in TABLE] + extra
    got = script_checks([(inst, t, b) for t in texts for b in (0, 1)])
    problems = []
    for k, text in enumerate(texts):
        for before in (0, 1):
            py, js = q.check(text, wrong_before=before), got[2 * k + before]
            if (js["correct"], js["counted"], js["message"]) != (
                    py.correct, py.counted, markdown_html(py.message, inline=True)):
                problems.append(f"{text!r} (before {before}): python {py}, script {js}")
    assert not problems, "\n".join(problems)
    assert q.check("sqrt(1/5)").correct and q.check("1/5").message == "Not yet. Square it."


def test_no_input_makes_the_script_wait() -> None:
    """The script answers the whole too-large table, many times over, at once (a hang, not
    a speed, is what the timeout catches)."""
    q = site_instance(json.loads(json.dumps(_question(1.0).spec())))
    big = [t for t, want in TABLE if want == BIG]
    got = script_checks([(q, t, 0) for t in big * 20])
    assert {r["message"] for r in got} == {TOO_LARGE}
