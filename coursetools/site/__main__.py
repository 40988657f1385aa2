"""``python -m coursetools.site``: build the course as a static website (:mod:`coursetools.site.build`)."""

from coursetools.shared.common import require, run_cli

# One line naming the extra to install, not a traceback, when a package is missing.
require("site", ("sphinx", "myst_nb", "sphinx_book_theme", "yaml", "nbgrader", "nbconvert",
                 "mathjax", "tqdm"))

from coursetools.site.build import main  # noqa: E402  (after the check above)

raise SystemExit(run_cli(main))
