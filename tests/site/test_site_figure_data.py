"""What the site makes of a still figure's data table (issue 43, item 2): the image, then
the table as HTML of its own, closed; the stored lesson untouched."""

from __future__ import annotations

from figure_data_support import SOURCE, executed

from coursetools.site.build import site_notebook
from perclib.plotting import FIGURE_DATA_MIME


def test_the_site_shows_the_table_under_the_image():
    nb = executed()
    shown = site_notebook(nb, "01_test").cells[0].outputs
    kinds = [sorted(o.get("data", {})) for o in shown]
    # The image first (without the table's data, which no renderer of the site reads),
    # then the table as HTML of its own (in one output, HTML would replace the image).
    assert kinds[0] == ["image/png", "text/plain"], kinds
    table = shown[1]["data"]["text/html"]
    assert table.startswith('<details class="pp-table"')
    assert "<caption>Each step halves the value.</caption>" in table
    assert '<th scope="col">step</th><th scope="col">value</th>' in table
    assert table.count("<tr>") == 4  # the header and three rows
    (out,) = [o for o in nb.cells[0].outputs if "image/png" in o.get("data", {})]
    assert FIGURE_DATA_MIME in out["data"], "the site must not change the stored lesson"


def test_a_figure_without_a_table_shows_only_its_image():
    nb = executed(SOURCE.split("fig.set_data_table")[0] + "display(fig)")
    assert len(site_notebook(nb, "01_test").cells[0].outputs) == 1
