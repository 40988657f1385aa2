"""``python -m coursetools.homework``: build the student versions (homework)."""

from coursetools.shared.common import require, run_cli

# One line naming the extra to install, not a traceback, when a package is missing.
require("homework", ("nbconvert", "nbgrader", "tqdm"))

from coursetools.homework.build import main  # noqa: E402  (after the check above)

raise SystemExit(run_cli(main))
