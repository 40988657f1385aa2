"""Tools that turn the lessons into what students and instructors use.

One package per product, one for what they share, one for the author (each arrow down:
a product imports ``shared``, never another product, except ``site`` reading
``homework``'s student versions; ``tests/project/test_layout.py`` keeps it so):

* ``shared``: paths and errors, cell roles, the Colab cell, question cells, MathJax,
  static cell outputs, question printing, the headless browser, the kernel-free players;
* ``homework``, ``handouts``, ``slides``, ``site``: ``python -m coursetools.NAME`` builds
  that product;
* ``classroom``: ``python -m coursetools.classroom``, a class on JupyterHub with nbgrader;
* ``authoring``: the author's commands ``python -m coursetools.roles``, ``.run``,
  ``.colab`` and ``.mutation``.
"""

from pathlib import Path

from coursetools.shared.common import CourseToolsError, lesson_notebooks, repo_root

# The author's commands keep the short names they have always had
# (``python -m coursetools.run``): their modules live in authoring/, which the package's
# search path includes. Code imports them by their full name, coursetools.authoring.X.
__path__.append(str(Path(__file__).with_name("authoring")))

__all__ = ["CourseToolsError", "lesson_notebooks", "repo_root"]
