"""Execute notebooks top to bottom and store them exactly as JupyterLab saves them.

``python -m coursetools.run notebooks/05_convergence.ipynb [more.ipynb ...]``

Each notebook runs in a fresh kernel (nbclient; working directory = the notebook's
folder; a per-cell timeout) and is written back in the form JupyterLab 4 / Notebook 7
would write on save, so that opening it and saving (or autosaving) without edits
changes nothing on disk. What the browser round trip changes, and what this tool
therefore stores up front (each point was found by opening and saving lessons in
JupyterLab 4.6, see tests/lessons/test_browser.py):

* ``metadata.kernelspec`` is rewritten from the kernel that starts (its real
  ``display_name``) and ``metadata.language_info`` from the kernel's info reply;
* JSON numbers pass through JavaScript, which has no integral floats: ``180.0`` comes
  back as ``180`` (in widget state, metadata and JSON outputs);
* consecutive stream outputs are merged into one (nbclient's ``coalesce_streams``);
* no ``execution`` timing metadata (JupyterLab records it only if asked to);
* nbformat 4.5 with a cell id on every cell; the file itself is what the Jupyter
  server writes: ``nbformat.write`` (sorted keys, one-space indent, trailing newline).

Widget state (``metadata.widgets``) holds the full state of every model the outputs
display (and the layouts/styles those refer to), binary attributes as base64
``buffers``. JupyterLab restores it when the notebook opens without a live widget
(kernel shut down, fresh clone), and, with the widget manager's ``saveState`` off,
never rewrites it. Lesson widgets get model ids that are the same on every top-to-bottom
run (``perclib.widgets.base``), so this stored state keeps matching the outputs after a
student runs and saves a lesson: see README "Changing a lesson".
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import nbformat

WIDGET_STATE_MIME = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW_MIME = "application/vnd.jupyter.widget-view+json"
MODEL_REF = "IPY_MODEL_"

__all__ = ["canonical", "execute", "main", "write_canonical"]


# ------------------------------------------------------------------ JSON numbers
def js_numbers(value: Any) -> Any:
    """``value`` with every integral float turned into an int, as JSON.parse/stringify does.

    >>> js_numbers({"max": 180.0, "step": 0.5, "xs": [1.0, -0.0, 1e21]})
    {'max': 180, 'step': 0.5, 'xs': [1, 0, 1e+21]}
    """
    if isinstance(value, float):
        # JavaScript prints integral numbers below 1e21 without a fraction or exponent.
        if value.is_integer() and abs(value) < 1e21:
            return int(value)
        return value
    if isinstance(value, dict):
        return {k: js_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [js_numbers(v) for v in value]
    return value


# ------------------------------------------------------------------ widget state
def _widget_entry(entry: dict[str, Any]) -> dict[str, Any]:
    out = {
        "model_module": entry.get("model_module"),
        "model_module_version": entry.get("model_module_version"),
        "model_name": entry.get("model_name"),
        "state": js_numbers(entry.get("state", {})),
    }
    if entry.get("buffers"):
        out["buffers"] = [
            {"data": b["data"], "encoding": b.get("encoding", "base64"), "path": list(b["path"])}
            for b in entry["buffers"]
        ]
    return out


def _is_model_ref(v: Any) -> bool:
    return isinstance(v, str) and v.startswith(MODEL_REF)


def _refs(value: Any) -> Iterable[str]:
    if _is_model_ref(value):
        yield value[len(MODEL_REF) :]
    elif isinstance(value, dict):
        for v in value.values():
            yield from _refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _refs(v)


def _displayed_models(nb: nbformat.NotebookNode) -> list[str]:
    ids = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW_MIME)
            if isinstance(view, dict) and "model_id" in view:
                ids.append(view["model_id"])
    return ids


def _canonical_widget_state(nb: nbformat.NotebookNode) -> None:
    """Keep the models the outputs display and the models those refer to, nothing else.

    Every control is stored disabled. The stored state is what a widget manager shows
    when no kernel drives the controls (a reopened lesson, a reload while the kernel
    runs: ``perclib.widgets.base.detach_from_other_frontends``); there nothing follows a
    drag, so the controls must not invite one. A run creates live, enabled controls.
    """
    widgets = nb.metadata.get("widgets")
    full = (widgets or {}).get(WIDGET_STATE_MIME, {}).get("state", {})
    keep: dict[str, Any] = {}
    todo = _displayed_models(nb)
    while todo:
        mid = todo.pop()
        if mid in keep or mid not in full:
            continue
        keep[mid] = _widget_entry(full[mid])
        if "disabled" in keep[mid]["state"]:
            keep[mid]["state"]["disabled"] = True
        todo.extend(_refs(full[mid].get("state", {})))
    if keep:
        nb.metadata["widgets"] = {
            WIDGET_STATE_MIME: {"state": keep, "version_major": 2, "version_minor": 0}
        }
    else:
        nb.metadata.pop("widgets", None)


# ------------------------------------------------------------------ the whole file
def _merge_streams(outputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # JupyterLab joins consecutive stream outputs of the same name when it loads them.
    merged: list[dict[str, Any]] = []
    for out in outputs:
        prev = merged[-1] if merged else None
        if (
            prev is not None
            and out.get("output_type") == "stream"
            and prev.get("output_type") == "stream"
            and prev.get("name") == out.get("name")
        ):
            prev["text"] = "".join(prev["text"]) + "".join(out["text"])
        else:
            merged.append(out)
    return merged


def canonical(nb: nbformat.NotebookNode, kernel: dict[str, Any] | None = None) -> nbformat.NotebookNode:
    """A copy of ``nb`` in the form JupyterLab saves it (no execution).

    ``kernel``, when given, is the ``kernelspec`` dict of the kernel that ran it.
    """
    nb = copy.deepcopy(nb)
    nb.nbformat, nb.nbformat_minor = 4, max(5, nb.get("nbformat_minor", 5))
    if kernel is not None:
        nb.metadata["kernelspec"] = dict(kernel)
    for cell in nb.cells:
        if "id" not in cell:
            cell["id"] = nbformat.v4.new_code_cell().id
        cell.metadata.pop("execution", None)
        cell.metadata.pop("trusted", None)
        if cell.cell_type == "code":
            cell.outputs = [nbformat.from_dict(o) for o in _merge_streams(cell.outputs)]
    _canonical_widget_state(nb)
    out = nbformat.from_dict(js_numbers(nb))
    nbformat.validate(out)
    return out


def dumps(nb: nbformat.NotebookNode) -> str:
    """The exact text the Jupyter server writes for ``nb`` (trailing newline included)."""
    text = nbformat.writes(nb, version=nbformat.NO_CONVERT)
    return text if text.endswith("\n") else text + "\n"


def _kernelspec(name: str) -> dict[str, str]:
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec(name)
    return {"display_name": spec.display_name, "language": spec.language, "name": name}


def execute(path: Path, *, timeout: int = 600, kernel_name: str | None = None) -> nbformat.NotebookNode:
    """Run the notebook at ``path`` in a fresh kernel; return it in canonical form."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    nb.metadata.pop("widgets", None)  # state of an earlier run would refer to dead models
    name = kernel_name or nb.metadata.get("kernelspec", {}).get("name") or "python3"
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=name,
        resources={"metadata": {"path": str(path.parent.resolve())}},
        record_timing=False,
        store_widget_state=True,
        coalesce_streams=True,
    )
    client.execute()
    return canonical(nb, kernel=_kernelspec(name))


def write_canonical(nb: nbformat.NotebookNode, path: Path) -> bool:
    """Write ``nb`` to ``path`` as the Jupyter server would; return True if it changed."""
    text = dumps(nb)
    old = path.read_text(encoding="utf-8") if path.exists() else None
    if old != text:
        path.write_text(text, encoding="utf-8")
    return old != text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m coursetools.run",
        description="Execute notebooks in a fresh kernel and store them as JupyterLab saves them.",
    )
    parser.add_argument("notebooks", nargs="+", type=Path)
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell (default 600)")
    parser.add_argument(
        "--no-execute",
        action="store_true",
        help="only rewrite the file in canonical form (outputs kept as they are)",
    )
    args = parser.parse_args(argv)
    status = 0
    for path in args.notebooks:
        if not path.is_file():
            print(f"{path}: no such notebook", file=sys.stderr)
            status = 2
            continue
        start = time.perf_counter()
        try:
            if args.no_execute:
                nb = canonical(nbformat.read(path, as_version=4))
            else:
                nb = execute(path, timeout=args.timeout)
        except Exception as err:  # report and go on with the next notebook
            print(f"{path}: FAILED: {type(err).__name__}: {err}"[:2000], file=sys.stderr)
            status = 1
            continue
        changed = write_canonical(nb, path)
        took = time.perf_counter() - start
        print(f"{path}: {'written' if changed else 'unchanged'} ({took:.1f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
