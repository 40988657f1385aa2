"""Instructor tools for perceptron-course.

* ``python -m coursetools.roles``: write the role metadata (``hide-input``, nbval,
  nbgrader) that the authors' cell tags ask for, in place and idempotently.
* ``python -m coursetools.homework``: student versions of the lessons (solutions
  replaced by stubs, outputs cleared), via nbgrader's ``ClearSolutions``.
* ``python -m coursetools.handouts``: self-contained HTML and PDF handouts with the
  maths pre-rendered offline in headless Chromium by MathJax 3 from the package index
  (``coursetools.mathjax``, which also serves the site and the slides).

Only ``roles`` writes to a lesson, and only role metadata; the generators never do.
"""

from coursetools._common import CourseToolsError, lesson_notebooks, repo_root

__all__ = ["CourseToolsError", "lesson_notebooks", "repo_root"]
