"""coursetools.run: notebooks stored exactly as JupyterLab saves them, widget state that matches.

* every notebook in notebooks/ is already in that form (a fixed point of
  ``coursetools.authoring.run.canonical``), so opening and saving it in JupyterLab changes
  nothing (tests/lessons/test_browser.py checks the same thing in the real browser);
* executing a small notebook with a widget twice gives the same bytes, every widget the
  outputs show has its state stored, and no integral float survives (JavaScript would
  rewrite ``1.0`` as ``1``).
"""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import nbformat
import pytest

from coursetools.authoring import run

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_doctests():
    assert doctest.testmod(run).failed == 0


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_is_stored_as_jupyterlab_saves_it(path):
    text = path.read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    expected = run.dumps(run.canonical(nb))
    assert text == expected, (
        f"{path.name} is not stored as JupyterLab would save it (JupyterLab would mark it "
        f"unsaved or rewrite it); store it with `python -m coursetools.run notebooks/{path.name}`"
    )
    spec = nb.metadata.get("kernelspec", {})
    assert spec.get("display_name") == "Python 3 (ipykernel)" and spec.get("name") == "python3", (
        f"{path.name}: kernelspec {spec} is not what JupyterLab writes for ipykernel's python3"
    )
    assert "version" in nb.metadata.get("language_info", {}), f"{path.name}: language_info lacks the kernel's"


def test_js_numbers_only_touches_integral_floats():
    data = {"a": 1.0, "b": [2.5, -3.0, True, None, "4.0"], "c": {"d": 1e300, "e": 0.1}}
    assert run.js_numbers(data) == {"a": 1, "b": [2.5, -3, True, None, "4.0"], "c": {"d": 1e300, "e": 0.1}}
    assert type(run.js_numbers(1.0)) is int and type(run.js_numbers(1e21)) is float


def _widget_notebook(path: Path) -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import perclib.widgets  # stable ids\nimport ipywidgets as w\nprint(1)"),
        nbformat.v4.new_code_cell("s = w.FloatSlider(value=2.0, min=-3.0, max=3.0)\ns"),
        nbformat.v4.new_code_cell("print('a')\nprint('b')"),
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)


def test_execute_twice_gives_the_same_file_and_matching_widget_state(tmp_path):
    path = tmp_path / "w.ipynb"
    _widget_notebook(path)
    assert run.main([str(path), "--timeout", "120"]) == 0
    first = path.read_bytes()
    assert run.main([str(path), "--timeout", "120"]) == 0
    assert path.read_bytes() == first, "two runs stored different files"

    nb = json.loads(first)
    assert nb["nbformat_minor"] == 5 and all("id" in c for c in nb["cells"])
    assert nb["metadata"]["kernelspec"]["display_name"] == "Python 3 (ipykernel)"
    assert all("execution" not in c["metadata"] for c in nb["cells"])
    assert [c["execution_count"] for c in nb["cells"]] == [1, 2, 3]
    # One merged stream output, as JupyterLab would hold it.
    assert nb["cells"][2]["outputs"] == [{"name": "stdout", "output_type": "stream", "text": ["a\n", "b\n"]}]
    view = nb["cells"][1]["outputs"][0]["data"][run.WIDGET_VIEW_MIME]
    state = nb["metadata"]["widgets"][run.WIDGET_STATE_MIME]["state"]
    slider = state[view["model_id"]]["state"]
    assert slider["value"] == 2 and type(slider["value"]) is int and slider["min"] == -3
    # Stored disabled: a frontend showing the stored state has no kernel behind the slider.
    assert slider["disabled"] is True
    # Every model the slider refers to (layout, style) is stored too, nothing else.
    refs = {v[len(run.MODEL_REF) :] for v in slider.values() if run._is_model_ref(v)}
    assert set(state) == {view["model_id"]} | refs
    assert text_is_final(path)


def text_is_final(path: Path) -> bool:
    text = path.read_text()
    return text.endswith("}\n") and not text.endswith("\n\n")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_widget_state_matches_what_a_run_displays(path):
    """Every widget output names a stored model, under the id any run of its cell recreates.

    A missing model shows "Error displaying widget: model not found" once the lesson is
    reopened without a kernel; an id that a new run does not recreate means a student's
    save rewrites the lesson (perclib.widgets.base.stable_model_ids).
    """
    from perclib.widgets.base import _hex_id

    nb = nbformat.read(path, as_version=4)
    state = nb.metadata.get("widgets", {}).get(run.WIDGET_STATE_MIME, {}).get("state", {})
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(run.WIDGET_VIEW_MIME)
            if not view:
                continue
            mid = view["model_id"]
            assert mid in state, f"{path.name} cell {i}: widget {mid} has no stored state"
            controls = [m for m in state.values() if "disabled" in m["state"]]
            assert controls and all(m["state"]["disabled"] is True for m in controls), (
                f"{path.name}: stored controls must be disabled (nothing follows them without "
                "a kernel); store the lesson with `python -m coursetools.run`")
            stable = {_hex_id(f"{cell.source}\0{k}") for k in range(2000)}
            assert mid in stable, (
                f"{path.name} cell {i}: widget id {mid} is not the one a run of this cell creates; "
                f"store the lesson with `python -m coursetools.run`"
            )
