"""Self-check questions on paper and on slides (issue 39).

A question cell's stored output holds its description (``perclib.questions.SPEC_MIME``):
the prompt, the options and, encoded, the answer and its reason. From it:

* a handout shows the question as text with room to answer (a box, or the options with
  boxes to tick); the answer and its reason only in the ``--with-solutions`` copy
  (:func:`handout_cell`);
* a slide deck gets a "Think first" slide with the question, and the answer on the
  next step, the slide below it (:func:`slide_parts`).

The code of the cell (which computes the answer) is shown in neither.
"""

from __future__ import annotations

import html
from typing import Any

import nbformat

from coursetools.shared.question_cells import stored_spec

ANSWER_BOX = ('<div class="handout-answer" style="border: 1px solid #888; border-radius: 3px; '
              'min-height: 3.2em; margin: 0.3em 0 1em;" role="group" '
              'aria-label="room for your answer"></div>')


def _answer(spec: dict[str, Any]) -> tuple[str, str]:
    from perclib.questions import decode

    secret = decode(spec["secret"])
    return secret["shown"], secret["why"]


def _options(spec: dict[str, Any]) -> list[str]:
    if spec["kind"] == "yesno":
        return ["Yes", "No"]
    return list(spec.get("choices", []))


def question_markdown(spec: dict[str, Any], *, with_solution: bool) -> str:
    """The question as Markdown for paper: label, prompt, options or a box, the answer.

    >>> from perclib.questions import Question
    >>> q = Question("Is 7 prime?", kind="yesno", answer=all(7 % d for d in range(2, 7)),
    ...              why="No divisor below 7.", hint="h", stronger="s", predict=True)
    >>> print(question_markdown(q.spec(), with_solution=True))
    **Predict first.** Is 7 prime?
    <BLANKLINE>
    - ☐ Yes
    - ☐ No
    <BLANKLINE>
    <details open><summary>Answer</summary>
    <BLANKLINE>
    Yes. No divisor below 7.
    <BLANKLINE>
    </details>
    """
    label = "**Predict first.**" if spec.get("predict") else "**Check yourself.**"
    parts = [f"{label} {spec['prompt']}"]
    options = _options(spec)
    if options:
        parts.append("\n".join(f"- ☐ {html.escape(o, quote=False)}" for o in options))
    else:
        parts.append(ANSWER_BOX)
    if with_solution:
        shown, why = _answer(spec)
        parts.append(f"<details open><summary>Answer</summary>\n\n{shown}. {why}\n\n</details>")
    return "\n\n".join(parts)


def handout_cell(cell: Any, *, with_solutions: bool) -> Any:
    """The handout's form of a question cell: a Markdown cell (same id), no code."""
    spec = stored_spec(cell)
    text = question_markdown(spec, with_solution=with_solutions) if spec else ""
    new = nbformat.v4.new_markdown_cell(text)
    if "id" in cell:
        new["id"] = cell["id"]
    return new


def slide_notes(cell: Any) -> tuple[str, str] | None:
    """Speaker notes for a question's two slides: what the presenter needs, unseen.

    The "Think first" slide's notes give the answer and the hint to offer a stuck room;
    the answer slide's notes name the usual wrong answers and the stronger hint.
    None when the cell stores no question.
    """
    spec = stored_spec(cell)
    if spec is None:
        return None
    from perclib.questions import decode

    secret = decode(spec["secret"])
    ask = (f"The answer: {secret['shown']}. If the room is stuck, offer: {secret['hint']}")
    wrong = [text for _, text in secret.get("hints", [])]
    follow = [f"A usual wrong answer gets: {text}" for text in wrong[:2]]
    follow.append(f"For whoever is still unsure: {secret['stronger']}")
    return ask, "\n\n".join(follow)


def slide_parts(cell: Any) -> tuple[list[str], list[str]] | None:
    """A question's "Think first" slide items (prompt, options) and the next step's
    (the answer and why). None when the cell stores no question.

    >>> from perclib.questions import Question
    >>> q = Question("2 + 2?", kind="integer", answer=len("four"), why="Count.", hint="h",
    ...              stronger="s")
    >>> cell = nbformat.v4.new_code_cell("...")
    >>> cell.outputs = [nbformat.v4.new_output("display_data", {
    ...     "application/vnd.perclib.question+json": q.spec()})]
    >>> slide_parts(cell)
    (['2 + 2?'], ['$4$. Count.'])
    """
    spec = stored_spec(cell)
    if spec is None:
        return None
    shown, why = _answer(spec)
    items = [spec["prompt"], *(f"☐ {o}" for o in _options(spec))]
    return items, [f"{shown}. {why}"]
