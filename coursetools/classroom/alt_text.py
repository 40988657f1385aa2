"""Alt text on every figure of the formgrader's pages and the feedback, as the site gives it.

A lesson's figures are PNG outputs whose ``text/plain`` is the figure's description (the
course's figures describe themselves) or only matplotlib's ``<Figure size ...>``. nbconvert
writes an image's ``alt`` from the output's metadata and, finding none, warns "Alternative
text is missing on N image(s)" and writes a placeholder. ``FigureAltText`` gives each image
output the alt text the published site gives it (``coursetools.site.build.image_alt``): the
description when it says something, else "Figure: " and the heading above the cell.

Example
-------
>>> import nbformat
>>> nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("## The margin"),
...     nbformat.v4.new_code_cell("f", outputs=[nbformat.v4.new_output("display_data",
...         {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure size 640x480 with 1 Axes>"})])])
>>> _ = FigureAltText().preprocess(nb, {})
>>> nb.cells[1].outputs[0].metadata["image/png"]["alt"]
'Figure: The margin'
"""

from __future__ import annotations

from nbconvert.preprocessors import Preprocessor

IMAGE_MIMES = ("image/png", "image/jpeg", "image/gif", "image/svg+xml")


class FigureAltText(Preprocessor):
    """Sets ``alt`` on every image output that has none (see the module's description)."""

    def preprocess(self, nb, resources):  # noqa: D102 - nbconvert's
        # The site's own rule (one rule for the site, the handouts and the class).
        from coursetools.shared.cells import image_alt, plain_text

        heading = ""
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                lines = [ln for ln in str(cell.source).splitlines() if ln.lstrip().startswith("#")]
                if lines:
                    heading = plain_text(lines[-1].lstrip().lstrip("#"))
                continue
            for out in cell.get("outputs", []):
                data = out.get("data") or {}
                plain = data.get("text/plain", "")
                plain = "".join(plain) if isinstance(plain, list) else str(plain)
                for mime in IMAGE_MIMES:
                    if mime in data:
                        meta = out.setdefault("metadata", {}).setdefault(mime, {})
                        if not meta.get("alt"):
                            meta["alt"] = image_alt(plain, heading)
        return nb, resources
