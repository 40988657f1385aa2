"""Question tries are kept in the notebook in a class that asks for it, and nowhere else.

A real kernel (nbclient) runs a question cell, then "clicks" in a later cell (the
button callbacks run in the kernel the same way); the record must be in the saved
question cell's outputs (the frontend applies the same display update), and read
back by the report's reader. With no class file (a reader alone, the site's build,
CI) and with a class that does not switch it on, the same notebook keeps nothing.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from perclib.classroom import ATTEMPTS_MIME, read_attempts, records_questions

ROOT = Path(__file__).resolve().parents[2]

CELLS = [
    "from perclib.questions import Question\n"
    "from perclib.widgets import ask\n"
    "w = ask(Question('What is 3 + 4?', kind='integer', answer=3 + 4, why='Add.',\n"
    "                 hints={12: 'That is the product.'}, hint='Add them.', stronger='Count.'))\n"
    "w",
    "w.enter('12'); w.on_check(); w.enter('abc'); w.on_check(); w.enter('7'); w.on_check(); None",
]


def run(config_dir: Path | None, monkeypatch) -> nbformat.NotebookNode:
    """Run CELLS in a fresh kernel that inherits this environment."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    if config_dir is None:
        monkeypatch.delenv("JUPYTER_CONFIG_PATH", raising=False)
    else:
        monkeypatch.setenv("JUPYTER_CONFIG_PATH", str(config_dir))
    NotebookClient(nb, kernel_name="python3", timeout=120).execute()
    return nb


def test_a_class_that_records_keeps_every_try_in_the_question_cell(tmp_path, monkeypatch) -> None:
    (tmp_path / "perclib_class.json").write_text(json.dumps({"record_questions": True}))
    nb = run(tmp_path, monkeypatch)
    (record,) = read_attempts(nb)
    assert record["prompt"] == "What is 3 + 4?" and record["kind"] == "integer"
    events = record["events"]  # "abc" cannot be read: not a try
    assert [(e["action"], e["response"], e["correct"], e["hint"]) for e in events] == [
        ("check", "12", False, "targeted"), ("check", "7", True, "none")]
    # In the question's own cell (it travels with it), and it says so to the student.
    outputs = nb.cells[0].outputs
    assert any(ATTEMPTS_MIME in o.get("data", {}) for o in outputs)
    text = [o["data"]["text/plain"] for o in outputs if ATTEMPTS_MIME in o.get("data", {})]
    assert "kept in this notebook for your instructor (2 so far)" in text[0]
    assert nbformat.validate(nb) is None


@pytest.mark.parametrize("setting", [None, {"record_questions": False}])
def test_a_reader_alone_or_a_class_without_the_switch_keeps_nothing(tmp_path, setting, monkeypatch) -> None:
    if setting is not None:
        (tmp_path / "perclib_class.json").write_text(json.dumps(setting))
    nb = run(tmp_path if setting is not None else None, monkeypatch)
    assert read_attempts(nb) == []
    assert ATTEMPTS_MIME not in json.dumps(nbformat.writes(nb))


def test_the_switch_reads_only_the_class_file(tmp_path) -> None:
    assert records_questions({}) is False
    assert records_questions({"JUPYTER_CONFIG_PATH": str(tmp_path)}) is False
    (tmp_path / "perclib_class.json").write_text("{not json")
    assert records_questions({"JUPYTER_CONFIG_PATH": str(tmp_path)}) is False
    (tmp_path / "perclib_class.json").write_text(json.dumps({"record_questions": True}))
    assert records_questions({"JUPYTER_CONFIG_PATH": f"/nonexistent{os.pathsep}{tmp_path}"}) is True
