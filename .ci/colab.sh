#!/usr/bin/env bash
# Every lesson on Google Colab's versions (issue 25): ipywidgets 7.7.1, IPython 7.34.
#
# Creates a fresh venv with the pins of .ci/colab-versions.txt, installs perclib without
# its dependencies (what the lessons' first cell does on Colab), executes every lesson
# with nbclient in a kernel of that venv, and requires: no error, and every slider cell
# shows its figure (an image/png output) next to its controls. Then it moves every
# slider of every slider figure from the kernel: each must redraw, and each figure must
# change with at least one of them.
#
#     bash .ci/colab.sh [VENV_DIR]      # default: a temporary directory
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${1:-$(mktemp -d)/colabvenv}"
export PYDEVD_DISABLE_FILE_VALIDATION=1  # ipykernel 6.17 on Python 3.11: a debugger warning
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -r .ci/colab-versions.txt nbclient==0.10.0 nbformat
"$venv/bin/python" -m pip install -q -e . --no-deps
"$venv/bin/python" -m pip list 2>/dev/null | grep -iE '^(ipywidgets|ipython|ipykernel|numpy|matplotlib|numba) '

"$venv/bin/python" - notebooks/0[1-9]_*.ipynb <<'PY'
import sys, time
import nbformat
from nbclient import NotebookClient

MOVE = """
import gc, ipywidgets
from perclib.widgets.base import SliderFigure
assert ipywidgets.__version__ == "7.7.1", ipywidgets.__version__
_moved = 0
for _fig in [o for o in gc.get_objects() if isinstance(o, SliderFigure)]:
    _changed = False
    for _name, _control in _fig.controls.items():
        if getattr(_control, "max", None) is None or _control.max == _control.min:
            continue
        _before, _frame = _fig.n_redraws, _fig.image.value
        _control.value = _control.max if _control.value != _control.max else _control.min
        assert _fig.n_redraws > _before, f"{_name}: no redraw"
        _changed = _changed or _fig.image.value != _frame
        _moved += 1
    assert _changed, f"no slider changed the figure {_fig.description[:60]!r}"
print(f"moved {_moved} sliders")
# Every self-check question answers through its widgets as on Colab: a wrong answer is
# refused, the right one accepted, and "Another one" gives an instance whose answer works.
from perclib.widgets.question import QuestionWidget
def _right(q):
    if q.kind == "fraction":
        return f"{q.answer.numerator}/{q.answer.denominator}"
    return q.answer if q.kind in ("choice", "choices", "yesno") else str(q.answer)
_asked = 0
for _q in [o for o in gc.get_objects() if isinstance(o, QuestionWidget)]:
    for _round in range(2 if _q.renewable else 1):
        if _round:
            _q.another_button.click()
        if _q.question.kind in ("integer", "fraction"):
            _q.enter("-12345"); _q.check_button.click()
            assert _q.feedback.value.startswith("✗"), _q.feedback.value
        _q.enter(_right(_q.question)); _q.check_button.click()
        assert _q.feedback.value.startswith("✓"), (_q.question.prompt, _q.feedback.value)
    _asked += 1
print(f"and answered {_asked} questions")
"""

# The probe runs from a module of its own, not from a notebook cell: perclib's exercise
# guard (perclib.checking) refuses a cell that searches the heap (gc.get_objects), which
# is how the probe finds every figure and question the lesson made.
import tempfile, pathlib
probe_dir = tempfile.mkdtemp()
pathlib.Path(probe_dir, "_colab_probe.py").write_text(MOVE)
CELL = f"import sys\nsys.path.insert(0, {probe_dir!r})\nimport _colab_probe"

failures = []
for path in sys.argv[1:]:
    start = time.perf_counter()
    nb = nbformat.read(path, as_version=4)
    widget_cells = [c for c in nb.cells if "widget" in c.metadata.get("tags", [])]
    nb.cells.append(nbformat.v4.new_code_cell(CELL))
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": "notebooks"}})
    try:
        client.execute()
    except Exception as error:  # report every lesson, then fail
        failures.append(f"{path}: {type(error).__name__}: {str(error)[-600:]}")
        continue
    for cell in widget_cells:
        kinds = [o.get("output_type") for o in cell.outputs]
        pngs = [o for o in cell.outputs if "image/png" in o.get("data", {})]
        if not pngs:
            failures.append(f"{path}: a slider cell shows no figure (outputs: {kinds})")
    moved = " ".join(o.get("text", "") for o in nb.cells[-1].outputs).replace("\n", " ").strip()
    print(f"{path}: ran on Colab's versions, {len(widget_cells)} slider cells, "
          f"{moved} ({time.perf_counter() - start:.1f} s)")
if failures:
    sys.exit("\n".join(failures))
PY
