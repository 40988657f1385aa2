"""Instructor tools for perceptron-course.

* ``python -m coursetools.homework``: student versions of the lessons (solutions
  replaced by stubs, outputs cleared), via nbgrader's ``ClearSolutions``.
* ``python -m coursetools.handouts``: self-contained HTML and PDF handouts with the
  maths pre-rendered offline by a local MathJax in headless Chromium.

Neither command ever writes over a lesson notebook.
"""

from coursetools._common import CourseToolsError, lesson_notebooks, repo_root

__all__ = ["CourseToolsError", "lesson_notebooks", "repo_root"]
