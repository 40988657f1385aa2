"""The course's Jupyter settings (course-settings/): save hook, student menus, installed files.

The save hook runs inside a real jupyter_server ``FileContentsManager`` (what JupyterLab
and Notebook 7 save through), on a copy of a real lesson: a moved slider frame is put
back, a student's edit is kept, and a failing hook never blocks a save. The browser
test (tests/lessons/test_browser.py) checks the same end to end after real slider moves.
"""

from __future__ import annotations

import base64
import copy
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "course-settings"
sys.path.insert(0, str(SETTINGS))  # test the source, not a possibly older installed copy

import perceptron_course_settings as pcs  # noqa: E402
from perceptron_course_settings import __main__ as roles_cli  # noqa: E402

FileContentsManager = pytest.importorskip("jupyter_server.services.contents.filemanager").FileContentsManager
LESSON = "01_threshold_units.ipynb"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.fixture
def manager(tmp_path):
    shutil.copy(ROOT / "notebooks" / LESSON, tmp_path / LESSON)
    cm = FileContentsManager(root_dir=str(tmp_path))
    cm.register_pre_save_hook(pcs.keep_slider_frames)
    return cm


def _widget_cells(content) -> list[int]:
    return [i for i, c in enumerate(content["cells"]) if "widget" in c["metadata"].get("tags", [])]


def _move_slider(cell) -> None:
    """What a slider move leaves in the page: a new figure and status line."""
    for out in cell["outputs"]:
        data = out.get("data", {})
        if "image/png" in data:
            data["image/png"] = base64.b64encode(b"\x89PNG another frame").decode()
        if "text/html" in data:
            data["text/html"] = "w = (9, 9) moved"


def test_exploring_and_saving_leaves_the_lesson_byte_for_byte(manager, tmp_path):
    before = (tmp_path / LESSON).read_bytes()
    model = manager.get(LESSON)
    cells = _widget_cells(model["content"])
    assert cells, "the lesson has slider cells"
    for i in cells:
        _move_slider(model["content"]["cells"][i])
        model["content"]["cells"][i]["execution_count"] = 99  # the cell was run again
    manager.save({"type": "notebook", "content": model["content"]}, LESSON)
    assert (tmp_path / LESSON).read_bytes() == before


def test_student_edits_are_saved(manager, tmp_path):
    model = manager.get(LESSON)
    content = model["content"]
    first, *rest = _widget_cells(content)
    markdown = next(i for i, c in enumerate(content["cells"]) if c["cell_type"] == "markdown")
    content["cells"][markdown]["source"] += "\n\nMy own note."
    # An edited slider cell keeps what the student ran; an unchanged one its stored frame.
    content["cells"][first]["source"] += "\n# my change"
    _move_slider(content["cells"][first])
    _move_slider(content["cells"][rest[0]])
    manager.save({"type": "notebook", "content": copy.deepcopy(content)}, LESSON)
    saved = json.loads((tmp_path / LESSON).read_text())
    stored = json.loads((ROOT / "notebooks" / LESSON).read_text())
    assert "".join(saved["cells"][markdown]["source"]).endswith("My own note.")
    assert "".join(saved["cells"][first]["source"]).endswith("# my change")
    assert saved["cells"][first]["outputs"] != stored["cells"][first]["outputs"]
    assert saved["cells"][rest[0]]["outputs"] == stored["cells"][rest[0]]["outputs"]


def test_untagged_widget_outputs_of_other_notebooks_are_saved(tmp_path):
    """A student's own notebook (no ``widget`` tag) is saved exactly as sent."""
    own = {"cells": [{"cell_type": "code", "id": "x", "source": "s", "metadata": {},
                      "execution_count": 1, "outputs": [{"moved": 1}]}]}
    disk = copy.deepcopy(own)
    disk["cells"][0]["outputs"] = [{"moved": 0}]
    assert pcs.restore_widget_cells(own, disk) == []
    assert own["cells"][0]["outputs"] == [{"moved": 1}]


def test_a_failing_hook_never_blocks_a_save(manager, tmp_path):
    model = manager.get(LESSON)
    (tmp_path / LESSON).write_text("not json")  # the hook cannot read the file on disk
    i = _widget_cells(model["content"])[0]
    _move_slider(model["content"]["cells"][i])
    manager.save({"type": "notebook", "content": model["content"]}, LESSON)
    saved = json.loads((tmp_path / LESSON).read_text())
    assert saved["cells"][i]["outputs"][1]["data"]["image/png"] == base64.b64encode(
        b"\x89PNG another frame"
    ).decode()
    # A new notebook (no file yet) and a non-notebook save go through too.
    manager.save({"type": "notebook", "content": model["content"]}, "new.ipynb")
    manager.save({"type": "file", "format": "text", "content": "x"}, "notes.txt")
    assert (tmp_path / "new.ipynb").is_file() and (tmp_path / "notes.txt").read_text() == "x"


def _jupyter(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "jupyter", *args], capture_output=True, text=True, timeout=120
    )
    return re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)  # no colours


def test_the_install_enables_the_hook_and_hides_nbgrader():
    """What ``pip install ./course-settings`` put in this environment is in effect."""
    server = _jupyter("server", "extension", "list")
    assert "perceptron_course_settings enabled" in server, server
    assert "perceptron_course_settings  OK" in server, server
    lab = _jupyter("labextension", "list")
    assert re.search(r"perceptron-course-settings v\S+ enabled OK", lab), lab
    if importlib.util.find_spec("nbgrader"):
        assert re.search(r"@jupyter/nbgrader v\S+ disabled", lab), lab
        for name in roles_cli.NBGRADER_SERVER:
            assert f"{name} disabled" in server, server


def test_instructor_command_writes_files_that_win(tmp_path):
    """``instructor`` enables nbgrader in files read after the course's own; ``student`` removes them."""
    from jupyter_server.config_manager import BaseJSONConfigManager

    etc = tmp_path / "etc" / "jupyter"
    shutil.copytree(SETTINGS / "jupyter-config", etc)
    files = roles_cli.instructor_files(tmp_path)
    for path, content in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))
    lab = BaseJSONConfigManager(config_dir=str(etc / "labconfig")).get("page_config")
    assert lab["disabledExtensions"]["@jupyter/nbgrader"] is False
    server = BaseJSONConfigManager(config_dir=str(etc)).get("jupyter_server_config")
    assert all(server["ServerApp"]["jpserver_extensions"][e] for e in roles_cli.NBGRADER_SERVER)
    for path in files:
        path.unlink()
    lab = BaseJSONConfigManager(config_dir=str(etc / "labconfig")).get("page_config")
    assert lab["disabledExtensions"]["@jupyter/nbgrader"] is True
    server = BaseJSONConfigManager(config_dir=str(etc)).get("jupyter_server_config")
    assert not any(server["ServerApp"]["jpserver_extensions"][e] for e in roles_cli.NBGRADER_SERVER)


def test_style_extension_says_the_sentence_on_the_control_row():
    """The extension's style targets SliderFigure's row class and carries the sentence;
    its ./extension module is the one that names sliders and describes figures."""
    from perclib.widgets.base import ControlRow

    js = (SETTINGS / "labextension" / "static" / "remoteEntry.js").read_text()
    package = json.loads((SETTINGS / "labextension" / "package.json").read_text())
    assert package["jupyterlab"]["_build"] == {
        "load": "static/remoteEntry.js", "extension": "./extension", "style": "./style"}
    assert 'module === "./extension"' in js and "IRenderMimeRegistry" in js
    assert 'window._JUPYTERLAB["' + package["name"] + '"]' in js
    assert "perclib-controls" in ControlRow()._dom_classes
    assert ".perclib-controls.jupyter-widgets-disconnected::before" in js
    assert "run it (Shift+Enter) to bring the sliders back" in js
