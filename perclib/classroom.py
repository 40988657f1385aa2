"""What a lesson does differently in a class, and only there: records and own numbers.

A class (``python -m coursetools.classroom``, see docs/classroom.md) can switch on two
things for its students, in the file :data:`CLASS_FILE` of the students' Jupyter
configuration folder (on their ``JUPYTER_CONFIG_PATH``, which the hub sets and every
kernel inherits). A reader alone, the website's build and CI have no such file, so
nothing here changes what they see:

* ``record_questions``: each try at a self-check question is kept in the notebook
  itself, as an output of the question's cell (MIME type :data:`ATTEMPTS_MIME`), so
  it travels with the submission and is sent nowhere (:class:`AttemptLog`);
* ``student_keys``: a folder holding one key file per student (readable by that
  student only); :func:`student_seed` turns the key into the seed of an exercise's
  data, so each student gets their own numbers. At autograde the grader gives the
  kernel the submitting student's key in ``PERCLIB_STUDENT_KEY`` instead.

Without a key, :func:`student_seed` returns the lesson's fixed seed: the stored
lesson stays the same everywhere else.

Examples
--------
>>> student_seed("03/ex2", 2024, environ={})
2024
>>> student_seed("03/ex2", 2024, environ={"PERCLIB_STUDENT_KEY": "ab" * 32}) != 2024
True
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["ATTEMPTS_MIME", "NOT_YOURS", "AttemptLog", "class_settings", "read_attempts", "student_seed"]

#: The class's switches, in a folder of ``JUPYTER_CONFIG_PATH`` (the students' only).
CLASS_FILE = "perclib_class.json"
#: Output type of a question's record of tries (saved with the notebook).
ATTEMPTS_MIME = "application/vnd.perclib.attempts+json"
#: The grader's way to hand a kernel the submitting student's key (hex).
KEY_VARIABLE = "PERCLIB_STUDENT_KEY"
#: What a check says when an answer does not fit the student's own numbers.
NOT_YOURS = ("does not fit your numbers. In this class every student has their own data, "
             "made for you in the cell above: work from those (numbers copied from another "
             "notebook are not yours)")


def class_settings(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The class's switches (empty outside a class): the first :data:`CLASS_FILE` found.

    >>> class_settings({})
    {}
    """
    env = os.environ if environ is None else environ
    for folder in env.get("JUPYTER_CONFIG_PATH", "").split(os.pathsep):
        path = Path(folder) / CLASS_FILE if folder else None
        if path is not None and path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}
            return data if isinstance(data, dict) else {}
    return {}


def _student_key(env: Mapping[str, str]) -> bytes | None:
    text = env.get(KEY_VARIABLE, "").strip()
    if not text:
        folder = class_settings(env).get("student_keys")
        if not folder:
            return None
        try:
            text = (Path(folder) / getpass.getuser()).read_text(encoding="ascii").strip()
        except (OSError, KeyError, UnicodeDecodeError):
            return None
    try:
        key = bytes.fromhex(text)
    except ValueError:
        return None
    return key if len(key) >= 16 else None


def student_seed(label: str, default: int | None, *,
                 environ: Mapping[str, str] | None = None) -> int | None:
    """The seed of an exercise's data: the student's own in a class, else ``default``.

    Parameters
    ----------
    label : str
        Names the exercise for good ("03/ex2"): each label gives other numbers.
    default : int or None
        The lesson's fixed seed (or None: "the lesson's own data"), returned without a
        class (a reader alone, the site, CI).
    environ : mapping, optional
        The environment to read (default ``os.environ``).

    Returns
    -------
    int or None
        ``HMAC-SHA256(student key, label)`` as a 63-bit number in a class, else ``default``.

    Examples
    --------
    >>> student_seed("01/ex1", 7, environ={})
    7
    """
    if not isinstance(label, str) or not label:
        raise ValueError(f"label must be a non-empty string naming the exercise, got {label!r}")
    key = _student_key(os.environ if environ is None else environ)
    if key is None:
        return None if default is None else int(default)
    digest = hmac.new(key, label.encode("utf-8"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def records_questions(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the class asks this kernel to keep the tries at questions.

    >>> records_questions({})
    False
    """
    return bool(class_settings(environ).get("record_questions"))


def question_id(prompt: str) -> str:
    """A question's id: a short hash of its first prompt (the same in every copy).

    >>> question_id("3 + 4?") == question_id("3 + 4?") != question_id("3 + 5?")
    True
    """
    return "q-" + hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:12]


class AttemptLog:
    """The tries at one question, shown as one output that each try rewrites.

    The output's bundle holds the record (:data:`ATTEMPTS_MIME`) and a line of text that
    tells the student their tries are kept in the notebook for the instructor.

    >>> log = AttemptLog("q-1", "3 + 4?", "integer")
    >>> log.add("check", correct=False, response="12", hint="targeted", stronger=False, seed=0)
    >>> log.record()["events"][0]["response"], log.bundle()["text/plain"][:24]
    ('12', 'Your tries at this quest')
    """

    def __init__(self, question: str, prompt: str, kind: str) -> None:
        self.question, self.prompt, self.kind = question, prompt, kind
        self.events: list[dict[str, Any]] = []
        self.output: Any = None

    def add(self, action: str, **fields: Any) -> None:
        """Keep one try (``action`` "check" or "show") and rewrite the output."""
        event = {"action": action, "time": datetime.now(UTC).isoformat(timespec="seconds"), **fields}
        self.events.append(event)
        if self.output is not None:
            self.output.value = self.record()

    def record(self) -> dict[str, Any]:
        return {"question": self.question, "prompt": self.prompt[:300], "kind": self.kind,
                "events": list(self.events)}

    def bundle(self, record: dict[str, Any] | None = None) -> dict[str, Any]:
        record = record or self.record()
        n = len(record["events"])
        text = (f"Your tries at this question are kept in this notebook for your instructor "
                f"({n} so far).")
        return {"text/plain": text, ATTEMPTS_MIME: record}


def read_attempts(nb: Any) -> list[dict[str, Any]]:
    """Every question record saved in a notebook (an nbformat notebook), in cell order."""
    found = []
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            record = output.get("data", {}).get(ATTEMPTS_MIME)
            if isinstance(record, str):
                try:
                    record = json.loads(record)
                except ValueError:
                    continue
            if isinstance(record, dict) and isinstance(record.get("question"), str):
                found.append(record)
    return found
