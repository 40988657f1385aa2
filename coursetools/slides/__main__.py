"""``python -m coursetools.slides``: build the lecture slides (:mod:`coursetools.slides.build`)."""

from coursetools.shared.common import require, run_cli

# One line naming the extra to install, not a traceback, when a package is missing.
require("slides", ("nbformat", "markdown_it", "sphinx_revealjs", "mathjax", "playwright", "tqdm"))

from coursetools.slides.build import main  # noqa: E402  (after the check above)

raise SystemExit(run_cli(main))
