"""The numbers behind a still curve figure (issue 43, item 2): stored beside the image by
a real kernel (what the site shows of it: tests/site/test_site_figure_data.py)."""

from __future__ import annotations

from figure_data_support import SOURCE, executed

from perclib.plotting import FIGURE_DATA_MIME


def test_a_kernel_stores_the_table_beside_the_image():
    nb = executed()
    (out,) = [o for o in nb.cells[0].outputs if "image/png" in o.get("data", {})]
    assert out["data"][FIGURE_DATA_MIME]["rows"] == [["1", "0.5"], ["2", "0.25"], ["3", "0.125"]]
    assert out["data"][FIGURE_DATA_MIME]["columns"] == ["step", "value"]
    assert out["data"]["text/plain"] == "A plot of a halving: 0.5, 0.25, 0.125."


def test_a_figure_without_a_table_stores_nothing_more():
    nb = executed(SOURCE.split("fig.set_data_table")[0] + "display(fig)")
    (out,) = [o for o in nb.cells[0].outputs if "image/png" in o.get("data", {})]
    assert sorted(out["data"]) == ["image/png", "text/plain"]


def test_the_capacity_table_agrees_with_covers_count():
    """At whole P the table's values are Cover's fractions, computed here in integers."""
    from math import comb

    from perclib.plotting.counting import draw_capacity_curves

    table = draw_capacity_curves((4, 20)).data_table
    assert table["columns"] == ["load α", "N = 4", "N = 20"]
    for row in table["rows"]:
        load = float(row[0])
        for n, shown in zip((4, 20), row[1:], strict=True):
            p = load * n
            if p != int(p):
                continue
            p = int(p)
            exact = 2 * sum(comb(p - 1, k) for k in range(n)) / 2**p
            assert shown == f"{exact:.3f}", (load, n, shown, exact)


def test_the_curve_figures_of_the_lessons_store_their_tables():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "notebooks"
    counts = {}
    for lesson in sorted(root.glob("0[1-9]_*.ipynb")):
        cells = json.loads(lesson.read_text())["cells"]
        counts[lesson.stem[:2]] = sum(FIGURE_DATA_MIME in o.get("data", {})
                                      for c in cells for o in c.get("outputs", []))
    # Cover's curves (4), the proof's chain (5); the margin histogram, the large-margin
    # runs, AdaTron's sweeps and the margin counts (6); the weight lengths and the pocket's
    # record (7); the volume streams, the capacity samples and the learning curves (9).
    assert {k: v for k, v in counts.items() if v} == {"04": 1, "05": 1, "06": 4, "07": 2,
                                                       "09": 3}
