"""Self-check questions (perclib.questions): answers, hints, the widget, the literal rule."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
import sympy as sp

from coursetools.shared.question_cells import is_renewable, question_problems, stored_spec
from coursetools.shared.roles import RoleError, apply_roles
from perclib import cover_count, xor
from perclib.questions import SPEC_MIME, TOO_LARGE, Question, decode, instance
from perclib.widgets import ask
from perclib.widgets.question import QuestionWidget, prompt_markdown

TEXTS = {"why": "Because.", "hint": "General hint.", "stronger": "Stronger one."}


def cover_question() -> Question:
    return Question(
        "Four points in general position in the plane: how many labellings can a line "
        "through the origin separate?",
        kind="integer", answer=cover_count(4, 2),
        hints={cover_count(4, 3): "That is the count with a threshold.", 2**4: "Not all are."},
        **TEXTS,
    )


# ------------------------------------------------------------------ each kind
def test_integer_right_wrong_named_and_general_hints() -> None:
    q = cover_question()
    assert q.check("8") == q.check(" 8 ") and q.check("8").correct
    assert q.check("8").message == "Right. Because."
    assert q.check("14").message == "Not yet. That is the count with a threshold."
    assert q.check("16").message == "Not yet. Not all are."
    assert q.check("9").message == "Not yet. General hint."
    assert "Stronger one." not in q.check("9").message
    assert q.check("9", wrong_before=1).message.endswith("Stronger hint: Stronger one.")


def test_the_answer_is_only_in_answer_text_never_in_feedback_to_a_wrong_answer() -> None:
    q = cover_question()
    for wrong in ("0", "14", "16", "9", "7"):
        for before in range(4):
            assert "8" not in q.check(wrong, wrong_before=before).message
    assert q.answer_text() == "Answer: $8$. Because."


def test_unreadable_input_is_not_a_try() -> None:
    q = cover_question()
    for text in ("", "eight", "8.5", "8/1x"):
        fb = q.check(text)
        assert not fb.correct and not fb.counted and "whole number" in fb.message


def test_number_with_tolerance() -> None:
    q = Question("Distance of the line $2x_1 + x_2 = 1$ from the origin?", kind="number",
                 answer=1 / float(sp.sqrt(5)), tol=1e-3,
                 hints={1 / 5: "Divide by the length, not its square."},
                 **TEXTS)
    assert q.check("0.4472").correct and q.check("0.447").correct and q.check("1/sqrt5").counted is False
    assert not q.check("0.45").correct
    assert q.check("0.2").message == "Not yet. Divide by the length, not its square."
    with pytest.raises(ValueError, match="tol"):
        Question("x", kind="number", answer=1.0, **TEXTS)
    # In JupyterLab's widget as in the kernel: arithmetic is read, a huge one refused at once.
    w = ask(q)
    w.entry.value = "9^9^9^9"
    w.check_button.click()
    assert w.feedback.value == TOO_LARGE and w.wrong == 0
    w.entry.value = "1/sqrt(5)"
    w.check_button.click()
    assert w.solved and w.outcome == "first try"


def test_fraction_is_exact() -> None:
    q = Question("Fraction of the 16 labellings that are separable?", kind="fraction",
                 answer=Fraction(cover_count(4, 2), 2**4), hints={Fraction(14, 16): "With a threshold."},
                 **TEXTS)
    assert q.check("1/2").correct and q.check("8/16").correct and q.check("0.5").correct
    assert q.check("7/8").message == "Not yet. With a threshold."
    assert "exact" in q.check("0.501").message and not q.check("0.501").correct
    assert q.check("1/0").counted is False
    sym = Question("s", kind="fraction", answer=sp.Rational(3, 8), **TEXTS)
    assert sym.check("3/8").correct and sym.answer_text().startswith("Answer: $3/8$")


def test_choice_needs_a_hint_for_every_wrong_option() -> None:
    options = ["AND", "XOR", "OR"]
    with pytest.raises(ValueError, match="every wrong choice"):
        Question("Which is not separable?", kind="choice", answer=options[1], choices=options,
                 hints={"AND": "AND is."}, **TEXTS)
    q = Question("Which is not separable?", kind="choice", answer=options[1], choices=options,
                 hints={"AND": "AND is one unit.", "OR": "OR is one unit too."}, **TEXTS)
    assert q.check("XOR").correct
    assert q.check("OR").message == "Not yet. OR is one unit too."
    assert q.check("NAND").counted is False


def test_several_of_several_names_the_first_wrong_option() -> None:
    q = Question("Which are separable?", kind="choices", answer={"AND", "OR"},
                 choices=["AND", "XOR", "OR"], hints={"XOR": "XOR is not.", "OR": "OR is."}, **TEXTS)
    assert q.check({"AND", "OR"}).correct
    assert q.check({"AND", "OR", "XOR"}).message == "Not yet. XOR is not."
    assert q.check({"AND"}).message == "Not yet. OR is."
    assert q.check({"XOR", "OR"}).message == "Not yet. General hint."  # AND: no own hint
    assert q.answer_text().startswith("Answer: AND; OR.")


def test_yes_no() -> None:
    X, y = xor()
    from perclib import is_separable

    q = Question("Is XOR separable?", kind="yesno", answer=is_separable(X, y, threshold=True), **TEXTS)
    assert q.check("no").correct and q.check(False).correct and not q.check("Yes").correct
    assert q.check("maybe").counted is False
    with pytest.raises(ValueError, match="one wrong answer"):
        Question("x", kind="yesno", answer=True, hints={False: "no"}, **TEXTS)


def test_formula_compared_at_random_values() -> None:
    P, N = sp.symbols("P N")
    q = Question("$C(P, 2)$ for $P \\ge 1$?", kind="formula", variables=["P"],
                 answer=sp.expand(2 * (1 + (P - 1))), hints={2 * P + 2: "That is $C(P, 3)$? No: +2."},
                 **TEXTS)
    assert q.check("2P").correct and q.check("2*P").correct and q.check("P + P").correct
    assert q.check("2P+2").message == "Not yet. That is $C(P, 3)$? No: +2."
    assert q.check("P^2").message == "Not yet. General hint."
    assert q.check("__import__('os')").counted is False and q.check("N").counted is False


def test_bad_questions_are_refused_early() -> None:
    with pytest.raises(ValueError, match="kind"):
        Question("x", kind="int", answer=1, **TEXTS)
    with pytest.raises(TypeError, match="integer"):
        Question("x", kind="integer", answer=1.5, **TEXTS)
    with pytest.raises(ValueError, match="right answer"):
        Question("x", kind="integer", answer=cover_count(4, 2), hints={8: "no"}, **TEXTS)
    with pytest.raises(ValueError, match="why"):
        Question("x", kind="integer", answer=1, why="", hint="h", stronger="s")


def test_spec_hides_the_answer_and_decodes_for_the_site() -> None:
    q = cover_question()
    spec = q.spec()
    assert "8" not in str({k: v for k, v in spec.items() if k != "secret"})
    assert "Because" not in spec["secret"] and "threshold" not in spec["secret"]
    secret = decode(spec["secret"])
    assert secret["answer"] == "8" and ["14", "That is the count with a threshold."] in secret["hints"]


# ------------------------------------------------------------------ the widget
def test_widget_check_hints_stronger_hint_and_show_answer() -> None:
    w = ask(cover_question())
    assert isinstance(w, QuestionWidget)
    w.entry.value = "14"
    w.check_button.click()
    assert w.feedback.value == "✗ Not yet. That is the count with a threshold."
    w.entry.value = "5"
    w.check_button.click()
    assert "Stronger hint: Stronger one." in w.feedback.value and "8" not in w.feedback.value
    w.show_button.click()
    assert w.feedback.value.startswith("Answer: $8$")
    w.entry.value = "8"
    w.check_button.click()
    # Right after "Show answer": the feedback says so, apart from first tries and hints.
    assert w.solved and w.feedback.value == "✓ Right. Because. <i>(right after Show answer)</i>"
    assert w.outcome == "after Show answer"
    assert w.another_button.layout.display == "none"
    fresh = ask(cover_question())
    fresh.entry.value = "8"
    fresh.check_button.click()
    assert fresh.outcome == "first try" and fresh.feedback.value.endswith(
        "<i>(right at the first try)</i>")


def test_widget_choice_and_choices_and_yesno() -> None:
    q = Question("Which?", kind="choice", answer=["a", "b"][len("x")], choices=["a", "b"],
                 hints={"a": "Not a."}, **TEXTS)
    w = QuestionWidget(q)
    assert w.entry.value is None  # nothing picked at first
    w.check_button.click()
    assert w.feedback.value == "Pick one of the options." and w.wrong == 0
    w.entry.value = "a"
    w.check_button.click()
    assert w.feedback.value == "✗ Not yet. Not a." and w.wrong == 1
    several = QuestionWidget(Question("Which?", kind="choices", answer={"a", "c"}, choices=["a", "b", "c"],
                                      **TEXTS))
    several.boxes[0].value = several.boxes[2].value = True
    assert several.on_check().correct
    yesno = QuestionWidget(Question("?", kind="yesno", answer=cover_count(3, 2) == 6, **TEXTS))
    yesno.entry.value = "Yes"
    assert yesno.on_check().correct


def make_count(rng):
    P = int(rng.integers(3, 9))
    return Question(f"How many labellings of {P} points on a line?", kind="integer",
                    answer=2 * P, hints={2**P: "Not every labelling."}, **TEXTS)


def test_another_one_gives_a_fresh_instance_with_its_own_answer() -> None:
    w = ask(make_count)
    first_prompt, first = w.question.prompt, w.question.answer
    assert w.another_button.layout.display == ""
    seen = {first_prompt}
    for _ in range(6):
        w.entry.value = "1"
        w.on_check()
        w.on_another()
        assert w.entry.value == "" and w.feedback.value == "" and w.wrong == 0
        seen.add(w.question.prompt)
        w.entry.value = str(w.question.answer)
        assert w.on_check().correct
    assert len(seen) > 1 and w.prompt.value is w.question
    assert instance(make_count, 0).answer == first  # seed 0 again: the same first instance


def test_widget_prompt_output_carries_the_spec() -> None:
    w = ask(cover_question())
    bundle = w._repr_mimebundle_()
    assert bundle["text/markdown"] == prompt_markdown(w.question) and SPEC_MIME in bundle
    assert repr(w.widget) == "Run this cell to answer here and check your answer."


# ------------------------------------------------------------------ the literal rule and the role
CELL = """from perclib.questions import Question
from perclib.widgets import ask
ask(Question("q", kind="integer", answer={answer}, why="w", hint="h", stronger="s"))
"""


@pytest.mark.parametrize("answer", ["8", "-8", "3/8", "Fraction(3, 8)", "sp.Rational(3, 8)", "n",
                                    "'yes' if 1 > 0 else 'no'", "['a', 'b'][1]", "len('four')"])
def test_literal_answers_are_refused(answer: str) -> None:
    source = ("n = 8\n" if answer == "n" else "") + CELL.format(answer=answer)
    (problem,) = question_problems(source)
    assert "typed by hand" in problem


@pytest.mark.parametrize("answer", ["cover_count(4, 2)", "count_dichotomies(X)", "result.updates",
                                    "'yes' if is_separable(X, y) else 'no'", "options[k]", "2 * P",
                                    "Fraction(cover_count(4, 2), 16)"])
def test_computed_answers_pass(answer: str) -> None:
    assert question_problems(CELL.format(answer=answer)) == []


def test_a_question_cell_must_ask_and_must_compute_and_the_role_names_the_cell() -> None:
    assert "ask(" in question_problems("Question('q', kind='integer', answer=f(), why='w', hint='h', "
                                       "stronger='s')")[0]
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(CELL.format(answer="8"), metadata={"tags": ["question"]})])
    with pytest.raises(RoleError, match=r"lesson\.ipynb: cell 0: .*answer=8 is typed by hand"):
        apply_roles(nb, "lesson.ipynb")
    nb.cells[0].source = CELL.format(answer="cover_count(4, 2)")
    changes = apply_roles(nb, "lesson.ipynb")
    assert changes and nb.cells[0].metadata["jupyter"]["source_hidden"] is True
    assert "nbval-ignore-output" not in nb.cells[0].metadata["tags"]
    assert apply_roles(nb, "lesson.ipynb") == []


def test_renewable_cells_are_recognised() -> None:
    assert not is_renewable(CELL.format(answer="f()"))
    assert is_renewable("def make(rng):\n    return Question('q', answer=f(rng))\nask(make)")


# ------------------------------------------------------------------ through a kernel
def test_in_a_kernel_the_buttons_give_the_feedback_and_ids_are_stable(tmp_path) -> None:
    from nbclient import NotebookClient

    source = (
        "from perclib import cover_count\nfrom perclib.questions import Question\n"
        "from perclib.widgets import ask\n"
        "q = ask(Question('How many?', kind='integer', answer=cover_count(4, 2), why='Cover.',"
        " hints={14: 'With a threshold.'}, hint='Count.', stronger='Use C(P, N).'))\nq"
    )
    drive = (
        "q.entry.value = '14'; q.check_button.click(); print(q.feedback.value)\n"
        "q.entry.value = '3'; q.check_button.click(); print(q.feedback.value)\n"
        "q.entry.value = '8'; q.check_button.click(); print(q.feedback.value)"
    )
    cells = [nbformat.v4.new_code_cell(source), nbformat.v4.new_code_cell(drive)]
    ids = []
    for _ in range(2):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c.source) for c in cells])
        client = NotebookClient(nb, timeout=120, kernel_name="python3",
                                resources={"metadata": {"path": tmp_path}})
        client.execute()
        outputs = nb.cells[0].outputs
        assert outputs[0]["data"]["text/markdown"] == "**Check yourself.** How many?"
        assert stored_spec(nb.cells[0])["kind"] == "integer"
        ids.append(outputs[1]["data"]["application/vnd.jupyter.widget-view+json"]["model_id"])
        lines = nb.cells[1].outputs[0]["text"].splitlines()
        assert lines == ["✗ Not yet. With a threshold.",
                         "✗ Not yet. Count. Stronger hint: Use C(P, N).",
                         "✓ Right. Cover. <i>(right after hints)</i>"]
    assert ids[0] == ids[1]


def test_several_of_several_hints_are_keyed_by_option_in_the_spec() -> None:
    q = Question("Which?", kind="choices", answer={"b"}, choices=["a", "b"],
                 hints={"a": "Not a.", "b": "b holds."}, **TEXTS)
    assert decode(q.spec()["secret"])["hints"] == [[0, "Not a."], [1, "b holds."]]


# ------------------------------------------------------------------ handouts, slides, homework
LESSON1 = Path(__file__).resolve().parents[2] / "notebooks" / "01_threshold_units.ipynb"


def _question_cells(nb) -> list:
    return [c for c in nb.cells if "question" in c.metadata.get("tags", [])]


def test_handouts_show_the_question_with_room_and_the_answer_only_with_solutions() -> None:
    pytest.importorskip("nbconvert", reason="the instructor tools (not in the floor venv)")
    from coursetools.handouts.build import handout_notebook

    nb = nbformat.read(LESSON1, as_version=4)
    ids = [c.id for c in _question_cells(nb)]
    for with_solutions in (False, True):
        handout = handout_notebook(nb, with_solutions=with_solutions)
        cells = {c.get("id"): c for c in handout.cells}
        for cell_id in ids:
            cell = cells[cell_id]
            spec = next(o["data"][SPEC_MIME] for c in _question_cells(nb) if c.id == cell_id
                        for o in c.outputs if SPEC_MIME in o.get("data", {}))
            secret = decode(spec["secret"])
            assert cell.cell_type == "markdown" and spec["prompt"] in cell.source
            assert ("handout-answer" in cell.source) == (spec["kind"] in ("integer", "number"))
            assert (secret["why"] in cell.source) == with_solutions, (cell_id, with_solutions)
        assert not any("perclib.questions" in c.source for c in handout.cells)


def test_slides_think_first_then_the_answer_one_step_later() -> None:
    pytest.importorskip("nbconvert", reason="the instructor tools (not in the floor venv)")
    from coursetools.slides.build import lesson_slides

    nb = nbformat.read(LESSON1, as_version=4)
    specs = [next(o["data"][SPEC_MIME] for o in c.outputs if SPEC_MIME in o.get("data", {}))
             for c in _question_cells(nb)]
    slides = lesson_slides(nb)
    titles = [s.title for s in slides]
    firsts = [k for k, t in enumerate(titles) if t == "Think first"]
    assert len(firsts) == len(specs)
    for k, spec in zip(firsts, specs, strict=True):
        secret = decode(spec["secret"])
        assert slides[k].items[0] == spec["prompt"]
        assert not any(secret["why"] in item for item in slides[k].items + slides[k].notes)
        assert titles[k + 1] == "Think first: the answer" and secret["why"] in slides[k + 1].items[0]


def test_the_homework_keeps_the_questions_ungraded() -> None:
    pytest.importorskip("nbconvert", reason="the instructor tools (not in the floor venv)")
    from coursetools.homework.build import student_version

    nb = nbformat.read(LESSON1, as_version=4)
    student = student_version(nb, LESSON1.stem)
    kept = {c.id: c for c in student.cells if "question" in c.metadata.get("tags", [])}
    assert set(kept) == {c.id for c in _question_cells(nb)}
    for cell_id, cell in kept.items():
        original = next(c for c in nb.cells if c.id == cell_id)
        assert cell.source == original.source and "nbgrader" not in cell.metadata


def test_the_examples_of_docs_questions_md_run_and_are_right() -> None:
    """docs/questions.md: every block of the kinds section runs, and its answers check."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "questions.md").read_text(encoding="utf-8")
    section = text[text.index("## One example of each kind"):text.index("## Another one")]
    namespace: dict = {}
    for block in re.findall(r"```python\n(.*?)```", section, flags=re.S):
        exec(compile(block, "docs/questions.md", "exec"), namespace)
    made = {name[2:]: q for name, q in namespace.items() if name.startswith("q_")}
    assert set(made) == {"integer", "number", "fraction", "choice", "choices", "yesno", "formula"}
    right = {"integer": "0", "number": "0.447", "fraction": "1/2", "choice": "closer to the origin",
             "choices": {"in affine general position"}, "yesno": "no", "formula": "2P"}
    for kind, q in made.items():
        assert q.kind == kind and q.check(right[kind]).correct, kind
        assert all(not q.check(key if kind not in ("choice",) else key).correct
                   for key, _ in q.hints if kind not in ("choices", "formula"))
    assert made["formula"].check("2P+2").message == "Not yet. That counts one gap too many."


def test_a_number_answer_is_a_real_not_a_bool() -> None:
    with pytest.raises(TypeError, match="finite real"):
        Question("x", kind="number", answer=cover_count(2, 2) > 3, tol=0.1, **TEXTS)
