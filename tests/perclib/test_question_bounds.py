"""A typed answer is read in bounded time and size: huge inputs get a clear "too large".

The parsers run in the reader's kernel: ``1e999999999`` would build a billion-digit
integer and ``9^9^9^9`` a tower that sympy never finishes. Each is refused before any
large number is built, with a message that is not counted as a try. The guard is a
subprocess with a generous timeout (a hang, not a speed, is what it catches).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import sympy as sp

from perclib.questions import TOO_LARGE, Question

ROOT = Path(__file__).resolve().parents[2]
P = sp.Symbol("P")


def _questions():
    return {
        "integer": Question("n?", kind="integer", answer=len("abc"), why="w", hint="h",
                            stronger="s"),
        "number": Question("x?", kind="number", answer=abs(-0.5), tol=0.01, why="w",
                           hint="h", stronger="s"),
        "fraction": Question("f?", kind="fraction", answer=sp.Rational(1, 2), why="w",
                             hint="h", stronger="s"),
        "formula": Question("C?", kind="formula", variables=["P"], answer=P**2 - P + 2,
                            why="w", hint="h", stronger="s"),
    }


HUGE = [("integer", "9" * 500), ("number", "1e999999999"), ("fraction", "1e-999999999"),
        ("formula", "9^9^9^9"), ("formula", "P^(10^9)"), ("formula", "exp(exp(exp(P)))"),
        ("formula", "2^2^2^2^2^2"), ("number", "1" + "0" * 10_000), ("number", "9^9^9^9"),
        ("number", "2^2^2^2^2^2"), ("number", "(" * 99 + "1" + ")" * 99), ("number", "1e300*1e300")]


@pytest.mark.parametrize(("kind", "text"), HUGE, ids=[f"{k}-{t[:12]}" for k, t in HUGE])
def test_huge_answers_are_too_large_not_a_try(kind, text):
    feedback = _questions()[kind].check(text)
    assert not feedback.correct and not feedback.counted
    assert feedback.message == TOO_LARGE


def test_ordinary_answers_still_read():
    q = _questions()
    assert q["integer"].check("3").correct and q["number"].check("1/2").correct
    assert q["number"].check("sqrt(2)^-2").correct and q["number"].check("2^-1").correct
    assert q["fraction"].check("0.5").correct and q["formula"].check("P(P-1)+2").correct
    assert q["formula"].check("(P-1)(P-2)+2P").correct
    assert not q["integer"].check("1 0").counted  # two numbers, not 10
    assert "for example 2*P + 1" in q["formula"].check("P +").message


def test_the_worst_inputs_return_in_bounded_time():
    code = ("from tests.perclib.test_question_bounds import HUGE, _questions\n"
            "qs = _questions()\n"
            "for kind, text in HUGE * 3:\n"
            "    qs[kind].check(text)\n"
            "print('ok')\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr
