"""Questions leave no trace: exploring them and saving keeps every lesson as committed.

"Another one" rewrites a question's prompt in the page (an update of its display
output), and JupyterLab's autosave would write that to the lesson file. The course's
save hook (course-settings) keeps the stored outputs of every unchanged cell tagged
``question``, as it does for slider cells. Here every renewable question of every lesson
is explored the way the frontend records it (the prompt output replaced by the next
instances' prompts, the cell run again), the notebook is saved through a real
jupyter_server contents manager with the hook, and the file is unchanged byte for byte.
Without the hook the same save changes the file (the test can fail).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "course-settings"))  # the source, not an installed copy

import perceptron_course_settings as pcs  # noqa: E402

FileContentsManager = pytest.importorskip(
    "jupyter_server.services.contents.filemanager").FileContentsManager
LESSONS = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
SPEC_MIME = "application/vnd.perclib.question+json"

#: Run a renewable question's cell by itself and print the prompt bundles of seeds 1..3,
#: what "Another one" shows (the site builds its instances the same way).
EXPLORE = """
import json, sys
from perclib import widgets
from perclib.questions import instance
from perclib.widgets.question import _prompt_bundle
made = []
widgets.ask = lambda q, **k: made.append(q)
exec(compile(sys.stdin.read(), "<question>", "exec"), {})
print(json.dumps([_prompt_bundle(instance(made[0], seed)) for seed in (1, 2, 3)]))
"""


def _source(cell) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _explore(cell) -> list[dict]:
    source = _source(cell).replace("from perclib.widgets import ask", "from perclib import widgets")
    source = re.sub(r"^ask\((\w+)\)", r"widgets.ask(\1)", source, flags=re.M)
    result = subprocess.run([sys.executable, "-c", EXPLORE], input=source, capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _questions(content) -> list[int]:
    return [i for i, c in enumerate(content["cells"]) if "question" in c["metadata"].get("tags", [])]


def _renewable(cell) -> bool:
    return re.search(r"^ask\(\w+\)\s*$", _source(cell), re.M) is not None


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem[:2] for p in LESSONS])
def test_exploring_every_question_and_saving_leaves_the_lesson_as_committed(lesson, tmp_path):
    shutil.copy(lesson, tmp_path / lesson.name)
    before = (tmp_path / lesson.name).read_bytes()
    explored, bundles = 0, {}
    for hooked in (True, False):
        manager = FileContentsManager(root_dir=str(tmp_path))
        if hooked:
            manager.register_pre_save_hook(pcs.keep_slider_frames)
        content = manager.get(lesson.name)["content"]
        for index in _questions(content):
            cell = content["cells"][index]
            cell["execution_count"] = 99  # the reader ran the cell
            if _renewable(cell):
                prompt = next(o for o in cell["outputs"] if SPEC_MIME in o.get("data", {}))
                if index not in bundles:
                    bundles[index] = _explore(cell)
                for bundle in bundles[index]:  # "Another one", three times
                    prompt["data"] = bundle
                explored += hooked
        manager.save({"type": "notebook", "content": content}, lesson.name)
        after = (tmp_path / lesson.name).read_bytes()
        if hooked:
            assert after == before, f"{lesson.name}: exploring its questions changed the file"
        else:
            assert after != before, "without the hook the save must change the file"
            shutil.copy(lesson, tmp_path / lesson.name)
    assert explored == sum(_renewable(c) for c in json.loads(before)["cells"]
                           if "question" in c["metadata"].get("tags", []))
