"""perceptron-course's Jupyter server extension: saving a lesson keeps its slider frames.

(and its self-check questions as stored: a question cell, tagged ``question``, rewrites
its prompt when the reader asks for "Another one", and its input row holds answers; on
save, an unchanged question cell keeps the outputs the file holds, like a slider cell.)

A slider cell (tagged ``widget``) stores three outputs: the row of controls, the
figure and the status line. Moving a slider rewrites the last two in the page, and
JupyterLab's autosave would write them to the lesson file: the tracked file would
change without the student editing anything, and a later ``git pull`` would conflict.

The widget state stored in the lesson is always the lesson's starting state (the
widget manager's ``saveState`` is off, see overrides.json), so the only frame that
agrees with the controls a reopened lesson shows is the starting frame, the one the
file already holds. :func:`keep_slider_frames`, a pre-save hook, therefore puts back,
for every cell tagged ``widget`` whose source is unchanged, the outputs and execution
count that the file on disk holds for that cell (same cell id, same source). Every
other cell, and any widget cell the student edited, is saved as sent. A lesson that was
explored and saved stays byte for byte as committed; it reopens with figure, status
line and controls at the starting values.

The hook never blocks a save: any problem (no file yet, a file that is not JSON, a
contents manager without local files) leaves the model as the browser sent it.

Installed by ``pip install ./course-settings`` through
``etc/jupyter/jupyter_server_config.d/perceptron_course_settings.json``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

__all__ = ["keep_slider_frames", "restore_widget_cells"]

WIDGET_TAG = "widget"
#: Tags of cells whose outputs change while a reader explores: sliders and questions.
KEPT_TAGS = (WIDGET_TAG, "question")
_log = logging.getLogger(__name__)


def _is_widget_cell(cell: dict[str, Any]) -> bool:
    tags = cell.get("metadata", {}).get("tags", [])
    return (cell.get("cell_type") == "code" and isinstance(tags, list)
            and any(tag in tags for tag in KEPT_TAGS))


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def restore_widget_cells(content: dict[str, Any], on_disk: dict[str, Any]) -> list[int]:
    """Give each unchanged widget cell of ``content`` its outputs from ``on_disk``.

    A cell qualifies when it is tagged ``widget`` or ``question`` in both notebooks, has the same
    cell id and the same source. ``content`` is changed in place; the indices of the
    cells whose outputs or execution count were put back are returned.

    Examples
    --------
    >>> cell = {"cell_type": "code", "id": "a", "source": "show()", "metadata": {"tags": ["widget"]},
    ...         "execution_count": 3, "outputs": [{"frame": "start"}]}
    >>> disk = {"cells": [cell]}
    >>> saved = {"cells": [dict(cell, execution_count=9, outputs=[{"frame": "moved"}])]}
    >>> restore_widget_cells(saved, disk), saved["cells"][0]["outputs"]
    ([0], [{'frame': 'start'}])
    """
    stored = {
        cell.get("id"): cell
        for cell in on_disk.get("cells", [])
        if isinstance(cell, dict) and _is_widget_cell(cell) and cell.get("id")
    }
    restored = []
    for index, cell in enumerate(content.get("cells", [])):
        if not isinstance(cell, dict) or not _is_widget_cell(cell):
            continue
        old = stored.get(cell.get("id"))
        if old is None or _source(old) != _source(cell):
            continue  # a new or edited cell: saved as the student has it
        if cell.get("outputs") != old.get("outputs") or cell.get("execution_count") != old.get(
            "execution_count"
        ):
            cell["outputs"] = old.get("outputs", [])
            cell["execution_count"] = old.get("execution_count")
            restored.append(index)
    return restored


def keep_slider_frames(model: dict[str, Any], path: str, contents_manager: Any, **kwargs: Any) -> None:
    """Jupyter pre-save hook: unchanged slider cells keep the frames the file holds.

    See the module docstring. Never raises: a failure is logged and the model is saved
    as it came.
    """
    try:
        content = model.get("content")
        if model.get("type") != "notebook" or not isinstance(content, dict):
            return
        os_path = Path(contents_manager._get_os_path(path))
        if not os_path.is_file():
            return
        on_disk = json.loads(os_path.read_text(encoding="utf-8"))
        restored = restore_widget_cells(content, on_disk)
        if restored:
            _log.debug("%s: slider cells %s keep their stored frames", path, restored)
    except Exception as err:  # a save must never fail because of this hook
        _log.warning("perceptron-course save hook skipped for %s: %s", path, err)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "perceptron_course_settings"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    manager = serverapp.contents_manager
    if hasattr(manager, "register_pre_save_hook"):
        manager.register_pre_save_hook(keep_slider_frames)
        serverapp.log.info("perceptron-course: slider cells keep their stored frames on save")
    else:  # pragma: no cover - jupyter_server < 2
        serverapp.log.warning("perceptron-course: this jupyter_server has no pre-save hooks")
