"""A self-check question in the notebook: prompt, input row, Check, Show answer, Another one.

Built by :func:`ask`. It follows the course's widget pattern
(``perclib.widgets.base``):

* the prompt is an ordinary output (Markdown, with the question's description for the
  site under :data:`perclib.questions.SPEC_MIME`) rewritten in place through its display
  id (:class:`~perclib.widgets.base.LiveOutput`) when "Another one" changes it, so the
  saved lesson shows it on GitHub, in handouts and with no kernel;
* the only widgets are the input row and the feedback line; every widget is made while
  the cell runs, so its model id comes from the cell's source
  (``stable_model_ids``) and the widget state a lesson stores matches a student's run;
  callbacks change values and options only, never make widgets;
* the row's text form (where no widget manager runs) says how to bring it back.

The same widgets exist in ipywidgets 7.7.1 (Colab) and 8: Text, RadioButtons (with no
option picked: ``index=None``), Checkbox, Button, HTMLMath, HBox/VBox.
"""

from __future__ import annotations

import warnings
from typing import Any

import ipywidgets as widgets

from perclib.questions import (
    ROW_TEXT,
    SPEC_MIME,
    Feedback,
    Maker,
    Question,
    inline_html,
    instance,
)
from perclib.widgets.base import LiveOutput


def _log_for(question: Question) -> Any:
    # Only in a class that asks for it (perclib.classroom): elsewhere nothing is kept.
    from perclib.classroom import AttemptLog, question_id, records_questions

    if not records_questions():
        return None
    return AttemptLog(question_id(prompt_markdown(question)), question.prompt, question.kind)


class QuestionRow(widgets.VBox):
    """The input row: reads as :data:`perclib.questions.ROW_TEXT` where widgets do not run.

    >>> repr(QuestionRow([]))
    'Run this cell to answer here and check your answer.'
    """

    def __init__(self, children: Any = (), **kwargs: Any) -> None:
        super().__init__(list(children), **kwargs)
        self.add_class("perclib-question")

    def __repr__(self) -> str:
        return ROW_TEXT


def prompt_markdown(question: Question) -> str:
    """The prompt as the lesson shows it (a predict-first question says so first).

    >>> q = Question("Guess.", kind="yesno", answer=bool(1), why="w", hint="h",
    ...              stronger="s", predict=True)
    >>> prompt_markdown(q)
    '**Predict first.** Guess.'
    """
    lead = "**Predict first.** " if question.predict else "**Check yourself.** "
    return lead + question.prompt


def _prompt_bundle(question: Question) -> dict[str, Any]:
    text = prompt_markdown(question)
    return {"text/markdown": text, "text/plain": text, SPEC_MIME: question.spec()}


class QuestionWidget:
    """A question shown in a notebook; the object :func:`ask` returns.

    Tests drive it as the frontend does: set :attr:`entry`'s value (or tick
    :attr:`boxes`), then call :meth:`on_check`, :meth:`on_show` or :meth:`on_another`
    (what the buttons' clicks call).

    Examples
    --------
    >>> q = Question("3 + 4?", kind="integer", answer=sum([3, 4]), why="Add.",
    ...              hints={12: "That is the product."}, hint="Add them.", stronger="3+4.")
    >>> w = QuestionWidget(q)
    >>> w.entry.value = "12"
    >>> w.on_check().correct, w.feedback.value
    (False, '✗ Not yet. That is the product.')
    >>> w.entry.value = "7"
    >>> w.on_check().correct, w.solved, w.outcome
    (True, True, 'after hints')
    """

    def __init__(self, question: Question | Maker, *, seed: int = 0) -> None:
        self._source = question
        self.seed = seed
        self.question = instance(question, seed)
        self.renewable = not isinstance(question, Question)
        self.wrong = 0
        self.solved = False
        self.shown = False  # "Show answer" pressed on this instance
        #: How the reader got it right: "first try", "after hints", "after Show answer".
        self.outcome: str | None = None
        self.prompt = LiveOutput(_prompt_bundle, self.question)
        self.log = _log_for(self.question)
        kind = self.question.kind
        self.entry: widgets.Widget
        self.boxes: list[widgets.Checkbox] = []
        if kind in ("choice", "yesno"):
            options = self.question.choices if kind == "choice" else ["Yes", "No"]
            self.entry = widgets.RadioButtons(options=options, index=None, description="",
                                              layout=widgets.Layout(width="auto"))
        elif kind == "choices":
            self.boxes = [widgets.Checkbox(value=False, description=c, indent=False)
                          for c in self.question.choices]
            self.entry = widgets.VBox(self.boxes)
        else:
            placeholder = {"integer": "a whole number", "number": "a number", "fraction": "a/b",
                           "formula": "a formula in " + ", ".join(self.question.variables)}[kind]
            self.entry = widgets.Text(value="", placeholder=placeholder, description="Answer:",
                                      layout=widgets.Layout(width="22em"))
        self.check_button = widgets.Button(description="Check", button_style="primary",
                                           tooltip="Check your answer")
        self.show_button = widgets.Button(description="Show answer", tooltip="Show the answer and why")
        self.another_button = widgets.Button(description="Another one",
                                             tooltip="A new instance of this question",
                                             layout=widgets.Layout(display="" if self.renewable else "none"))
        self.feedback = widgets.HTMLMath(value="")
        # The course settings' JupyterLab extension makes this a live region (aria-live),
        # so a screen reader announces each verdict, as the website's feedback line does.
        self.feedback.add_class("perclib-feedback")
        if isinstance(self.entry, widgets.Text):  # Enter in the box checks, as on the site
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)  # ipywidgets 8 prefers
                self.entry.on_submit(lambda _w: self.on_check())  # observe(); Colab has 7.7
        self.check_button.on_click(lambda _b: self.on_check())
        self.show_button.on_click(lambda _b: self.on_show())
        self.another_button.on_click(lambda _b: self.on_another())
        self.widget = QuestionRow([
            widgets.HBox([self.entry, self.check_button]),
            self.feedback,
            widgets.HBox([self.show_button, self.another_button]),
        ])

    # -- what the reader does
    def enter(self, response: Any) -> None:
        """Type or pick ``response`` as a reader would: text for a box, an option, "Yes"/"No"
        (or a bool), a set of options to tick.

        >>> w = QuestionWidget(Question("Which?", kind="choices", answer={"a"},
        ...                             choices=["a", "b"], why="w", hint="h", stronger="s"))
        >>> w.enter({"a"}); w.on_check().correct
        True
        """
        kind = self.question.kind
        if kind == "choices":
            for box in self.boxes:
                box.value = box.description in set(response)
        elif kind == "yesno":
            yes = response if isinstance(response, bool) else str(response).lower() == "yes"
            self.entry.value = "Yes" if yes else "No"
        else:
            self.entry.value = response if kind == "choice" else str(response)

    def response(self) -> Any:
        """The reader's current response, as :meth:`Question.check` reads it."""
        kind = self.question.kind
        if kind == "choices":
            return {box.description for box in self.boxes if box.value}
        if kind == "yesno":
            return {"Yes": True, "No": False}.get(self.entry.value)
        return self.entry.value

    def on_check(self) -> Feedback:
        """Check the current response and show the feedback line."""
        response = self.response()
        result = self.question.check(response, wrong_before=self.wrong)
        if self.log is not None and result.counted:
            value = self.question.read(response)
            general = result.correct or self.question._hint_for(value) == self.question.hint
            shown = sorted(response) if isinstance(response, set | frozenset) else response
            self.log.add("check", correct=result.correct, response=str(shown)[:100],
                         hint="none" if result.correct else ("general" if general else "targeted"),
                         stronger=not result.correct and self.wrong >= 1, seed=self.seed)
        if result.counted and not result.correct:
            self.wrong += 1
        if result.correct and not self.solved:
            self.outcome = ("after Show answer" if self.shown else
                            "first try" if self.wrong == 0 else "after hints")
        self.solved = self.solved or result.correct
        mark = "✓ " if result.correct else ("✗ " if result.counted else "")
        tail = f" <i>(right {'at the ' if self.outcome == 'first try' else ''}{self.outcome})</i>" \
            if result.correct else ""
        self.feedback.value = mark + inline_html(result.message) + tail
        return result

    def on_show(self) -> None:
        """Show the answer and why (only when the reader asks)."""
        self.shown = self.shown or not self.solved
        self.feedback.value = inline_html(self.question.answer_text())
        if self.log is not None:
            self.log.add("show", seed=self.seed)

    def on_another(self) -> None:
        """A fresh instance: the next seed's prompt, an empty row, no feedback."""
        if not self.renewable:
            return
        self.seed += 1
        new = instance(self._source, self.seed)
        if new.kind != self.question.kind:
            raise ValueError("every instance of a question must have the same kind")
        self.question, self.wrong, self.solved = new, 0, False
        self.shown, self.outcome = False, None
        if new.kind == "choice":
            self.entry.options = new.choices
            self.entry.index = None
        elif new.kind == "yesno":
            self.entry.index = None
        elif new.kind == "choices":
            for box, choice in zip(self.boxes, new.choices, strict=True):
                box.description, box.value = choice, False
        else:
            self.entry.value = ""
        self.feedback.value = ""
        self.prompt.value = new

    def _ipython_display_(self) -> None:
        from IPython.display import display

        self.prompt.show()
        display(self.widget)
        if self.log is not None:
            # The record shows as an output of this cell (so it is saved with the
            # notebook) and is rewritten in place after every try.
            self.log.output = LiveOutput(self.log.bundle, self.log.record())
            self.log.output.show()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        # Outside IPython's display machinery: the prompt alone.
        return _prompt_bundle(self.question)

    def __repr__(self) -> str:
        return f"QuestionWidget({self.question!r})"


def ask(question: Question | Maker, *, seed: int = 0) -> Any:
    """Show a question in the notebook: the prompt, an input row, Check and Show answer.

    Parameters
    ----------
    question : Question or callable
        A :class:`Question`, or ``make(rng) -> Question`` for a question with "Another
        one" (each click builds the instance of the next seed).
    seed : int, default 0
        The first instance's seed (the one the lesson stores and the site starts from).

    Returns
    -------
    QuestionWidget
        Displayed by the cell (it is the cell's value); tests drive it without a browser.
    """
    return QuestionWidget(question, seed=seed)
