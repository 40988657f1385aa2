"""Show or hide nbgrader's tools in this environment's JupyterLab and Notebook 7.

    python -m perceptron_course_settings instructor   # nbgrader's menus, Validate, Formgrader
    python -m perceptron_course_settings student      # hide them again (the install's default)
    python -m perceptron_course_settings status

The course settings hide nbgrader's front-end extension and switch its server
extensions off, so that a student who installs ``[test]``, ``[site]`` or
``[instructor]`` into the course environment does not see them. ``instructor`` writes two
files into the environment's Jupyter configuration that sort after the course's own
(``*_instructor.json``, a later file wins); ``student`` removes them. Restart
``jupyter lab`` afterwards.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

NBGRADER_LAB = "@jupyter/nbgrader"
NBGRADER_SERVER = [
    f"nbgrader.server_extensions.{name}"
    for name in ("formgrader", "validate_assignment", "assignment_list", "course_list")
]
NAME = "perceptron_course_settings_instructor.json"


def instructor_files(prefix: Path | None = None) -> dict[Path, dict]:
    """The files ``instructor`` writes, under ``<prefix>/etc/jupyter`` (default: this Python's)."""
    etc = Path(sys.prefix if prefix is None else prefix) / "etc" / "jupyter"
    return {
        etc / "jupyter_server_config.d" / NAME: {
            "ServerApp": {"jpserver_extensions": dict.fromkeys(NBGRADER_SERVER, True)}
        },
        etc / "labconfig" / "page_config.d" / NAME: {"disabledExtensions": {NBGRADER_LAB: False}},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m perceptron_course_settings", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("role", choices=["instructor", "student", "status"])
    args = parser.parse_args(argv)
    files = instructor_files()
    if args.role == "instructor":
        for path, content in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(content, indent=2) + "\n", encoding="utf-8")
        print("nbgrader's tools are shown in this environment; restart jupyter lab")
    elif args.role == "student":
        for path in files:
            path.unlink(missing_ok=True)
        print("nbgrader's tools are hidden in this environment (the course default); restart jupyter lab")
    else:
        shown = all(path.is_file() for path in files)
        print("nbgrader's tools: " + ("shown (instructor)" if shown else "hidden (student)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
