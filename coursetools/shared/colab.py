"""The lessons' first code cell: install the course package on Google Colab.

Colab opens a lesson straight from GitHub, without the repository and without
``perclib``. Every lesson therefore starts with one code cell that, on Colab and only
there, installs the course package from the repository, without its dependencies (its
code is collapsed in JupyterLab and Notebook 7, and the site and the handouts leave it out):
Colab already has NumPy, SciPy, SymPy, Matplotlib, IPython and ipywidgets, and
replacing its IPython would break its kernel (``.ci/colab.sh`` runs every lesson on
Colab's versions). Anywhere else the cell does nothing.

    python -m coursetools.colab [notebooks ...]          # insert or update the cell
    python -m coursetools.colab --check [notebooks ...]  # exit 1 if a lesson lacks it

The tool only edits sources; re-store the lessons (``python -m coursetools.run``)
afterwards so the stored execution counts follow.

Examples
--------
>>> colab_url("notebooks/05_convergence.ipynb")
'https://colab.research.google.com/github/perceptron-course/perceptron-course/blob/main/notebooks/05_convergence.ipynb'
"""

from __future__ import annotations

from pathlib import Path

import nbformat

from coursetools.shared.common import BRANCH, REPO

INSTALL_URL = f"git+https://github.com/{REPO}@{BRANCH}"

#: The first code cell of every lesson (its first line identifies it).
COLAB_CELL = f'''\
# On Google Colab: install the course package first. Anywhere else: nothing happens.
import sys

if "google.colab" in sys.modules:
    import subprocess

    url = "{INSTALL_URL}"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", url],
                   check=True)'''
MARKER = COLAB_CELL.splitlines()[0]


def is_colab_cell(cell) -> bool:
    """True for the Colab install cell (a code cell starting with its first line)."""
    source = cell.get("source", "")
    source = "".join(source) if isinstance(source, list) else source
    return cell.get("cell_type") == "code" and source.startswith(MARKER)


def without_colab_cell(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` without the Colab cell: the site and the handouts leave it out
    (the site's Colab button and the README say how to open a lesson on Colab)."""
    out = nbformat.from_dict(nb)
    out.cells = [cell for cell in out.cells if not is_colab_cell(cell)]
    return out


def _collapsed(cell: nbformat.NotebookNode) -> bool:
    """Collapse the cell's code in JupyterLab and Notebook 7; True if that changed it."""
    jupyter = cell.metadata.setdefault("jupyter", nbformat.NotebookNode())
    if jupyter.get("source_hidden") is True:
        return False
    jupyter["source_hidden"] = True
    return True


def colab_url(notebook: str | Path) -> str:
    """The address that opens a lesson of the repository in Colab."""
    name = Path(notebook).name
    return f"https://colab.research.google.com/github/{REPO}/blob/{BRANCH}/notebooks/{name}"


def with_colab_cell(nb: nbformat.NotebookNode) -> bool:
    """Make the Colab cell the notebook's first code cell; True if anything changed."""
    code = [i for i, cell in enumerate(nb.cells) if cell.cell_type == "code"]
    if code and nb.cells[code[0]].source.startswith(MARKER):
        cell = nb.cells[code[0]]
        changed = _collapsed(cell)
        if cell.source == COLAB_CELL:
            return changed
        cell.source = COLAB_CELL
        return True
    stale = [i for i in code if nb.cells[i].source.startswith(MARKER)]
    for i in reversed(stale):  # an old copy further down
        del nb.cells[i]
    cell = nbformat.v4.new_code_cell(COLAB_CELL)
    cell.id = "colab-install"  # stable, so re-inserting changes nothing
    _collapsed(cell)  # the first thing a reader sees is the lesson, not the install
    position = code[0] if code else len(nb.cells)
    nb.cells.insert(position, cell)
    return True
