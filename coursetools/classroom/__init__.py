"""A class on one JupyterHub machine: configuration, roster, grades.

``python -m coursetools.classroom`` (see ``docs/classroom.md``):

* ``setup``: writes a class folder (``classroom.json``, ``jupyterhub_config.py``, one
  Jupyter configuration folder per role), the nbgrader exchange with the course's
  folders, the instructor's course folder with the lessons as nbgrader sources, the
  grading sandbox's kernel and the instructor's login-shell profile;
* ``check``: checks all of that on the running machine and says what to fix;
* ``roster import FILE``: students from a CSV into nbgrader's gradebook, all or none;
* ``export-grades``: per student and per exercise, as Canvas or Moodle import them;
* ``edited-checks ASSIGNMENT``: submissions whose locked check cells were changed;
* ``report ASSIGNMENT`` (or ``--all``): the class report, HTML and CSV (``report``,
  ``report_checks``, ``report_html``);
* ``lesson-options``: question records and each student's own numbers for the students'
  kernels (``report_options``; the kernel side is ``perclib.classroom``).

Modules: ``settings`` (the class folder), ``setup`` (writing and checking it),
``roster``, ``grades`` (gradebook reads and exports), ``__main__`` (the command line);
for the instructor's nbgrader: ``sandbox`` (the kernel autograde runs a submission in,
inside bubblewrap), ``exchange`` (collect refusing forged submissions), ``autograde``
(the edited-check warning only for a check the student changed).
"""

from coursetools.classroom.settings import ClassSettings, load_settings

__all__ = ["ClassSettings", "load_settings"]
