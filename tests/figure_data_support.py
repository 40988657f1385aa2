"""A one-cell notebook with a still figure and its data table, run by a real kernel
(shared by tests/lessons/test_figure_data.py and tests/site/test_site_figure_data.py)."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

SOURCE = """%matplotlib inline
from perclib.plotting import new_figure
fig, (ax,) = new_figure()
ax.plot([1, 2, 3], [0.5, 0.25, 0.125])
fig.alt_text = "A plot of a halving: 0.5, 0.25, 0.125."
fig.set_data_table("Each step halves the value.", ["step", "value"],
                   [[1, "0.5"], [2, "0.25"], [3, "0.125"]])
display(fig)
"""


def executed(source: str = SOURCE) -> nbformat.NotebookNode:
    """A one-cell notebook run by a real kernel."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    return nb
