"""The author's tools, each a command: ``python -m coursetools.roles`` (cell-role
metadata), ``.run`` (store a lesson), ``.colab`` (the Colab cell), ``.mutation`` (how
many wrong answers the exercise checks catch). ``coursetools/__init__.py`` puts this
folder on the package's path, so the commands keep their short names."""
