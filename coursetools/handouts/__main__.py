"""``python -m coursetools.handouts``: build the HTML and PDF lecture handouts."""

from coursetools.shared.common import require, run_cli

# One line naming the extra to install, not a traceback, when a package is missing.
require("handouts", ("jinja2", "nbconvert", "nbgrader", "mathjax", "tqdm"))

from coursetools.handouts.build import main  # noqa: E402  (after the check above)

raise SystemExit(run_cli(main))
