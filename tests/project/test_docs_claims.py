"""Claims the README, docs/ and the index make about the tools and the sliders, checked.

* every ``coursetools`` command either works or says in one line which extra to install
  (simulated by making its packages unimportable), with this Python's exact pip command;
* ``roles --check`` prints one line when all is well;
* every command the README, a page of docs/ or the index says takes ``--out`` (or ``--force``, or a list
  of notebooks) accepts it;
* the claim (docs/changing-a-lesson.md) about where sliders start holds for every slider the lessons store.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
# The README keeps what a newcomer needs first; the detail it points to lives in docs/.
DOCS = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md")))
INDEX = "".join(
    "".join(c["source"]) for c in json.loads((ROOT / "notebooks" / "00_index.ipynb").read_text())["cells"]
)
STATE = "application/vnd.jupyter.widget-state+json"

BLOCK = (
    "import runpy, sys\n"
    "for name in sys.argv[2:]:\n"
    "    sys.modules[name] = None  # as if not installed\n"
    "tool = sys.argv[1]\n"
    "sys.argv = ['python -m ' + tool, '--help']\n"
    "runpy.run_module(tool, run_name='__main__', alter_sys=True)\n"
)


def _run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize(
    ("tool", "blocked", "extra"),
    [
        ("coursetools.site", ["nbgrader"], "site"),
        ("coursetools.site", ["sphinx", "myst_nb"], "site"),
        ("coursetools.handouts", ["nbgrader"], "instructor"),
        ("coursetools.site", ["mathjax"], "site"),
        ("coursetools.handouts", ["mathjax"], "instructor"),
        ("coursetools.homework", ["nbgrader"], "instructor"),
        ("coursetools.slides", ["sphinx_revealjs"], "instructor"),
        ("coursetools.slides", ["markdown_it", "mathjax"], "instructor"),
    ],
)
def test_missing_extra_is_one_line_with_the_install_command(tool, blocked, extra):
    result = _run("-c", BLOCK, tool, *blocked)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert f'{sys.executable} -m pip install -e ".[{extra}]"' in lines[0], lines[0]
    for name in blocked:
        assert name in lines[0]


def test_slides_without_their_extra_write_nothing(tmp_path):
    """The missing extra is named before anything is written: no empty slides/ folder."""
    out = tmp_path / "slides"
    block = BLOCK.replace("'--help'", f"'--no-pdf', '--lesson', '1', '--out', {str(out)!r}")
    result = _run("-c", block, "coursetools.slides", "sphinx_revealjs")
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    assert 'pip install -e ".[instructor]"' in result.stderr
    assert not out.exists(), "the failed build left an empty slides folder"


def test_roles_check_says_all_is_well_in_one_line(tmp_path):
    import nbformat

    lesson = tmp_path / "01_up_to_date.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson 1"), nbformat.v4.new_code_cell("x = 1"),
    ]), lesson)
    result = _run("-m", "coursetools.roles", "--check", str(lesson))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().count("\n") == 0 and "up to date" in result.stdout, result.stdout


def _claims(text: str) -> list[tuple[str, str]]:
    """(tool, what it is said to take) from sentences like "`coursetools.x` takes `--out DIR`"."""
    found = []
    pattern = r"((?:`coursetools\.\w+`(?:, | and )?)+) takes? (.+?)[;.]\s"
    for tools, taken in re.findall(pattern, text, flags=re.S):
        for tool in re.findall(r"`(coursetools\.\w+)`", tools):
            found.append((tool, taken))
    return found


CLAIMS = _claims(README) + _claims(DOCS) + _claims(INDEX)


def test_the_out_claims_are_found():
    tools = {tool for tool, taken in CLAIMS if "--out" in taken}
    assert {"coursetools.homework", "coursetools.handouts", "coursetools.site"} <= tools, CLAIMS


@pytest.mark.parametrize(("tool", "taken"), CLAIMS)
def test_every_documented_option_is_accepted(tool, taken):
    result = _run("-m", tool, "--help")
    assert result.returncode == 0, result.stderr
    usage = result.stdout
    for option in re.findall(r"`(--[\w-]+)", taken):
        assert re.search(rf"(^|\s){option}\b", usage), f"{tool} does not take {option}:\n{usage}"
    if "list of notebooks" in taken:
        assert re.search(r"^usage:.*\bnotebooks\b", usage, flags=re.S), f"{tool} takes no notebooks:\n{usage}"


SLIDERS = {"FloatSliderModel", "IntSliderModel", "FloatLogSliderModel", "SelectionSliderModel"}


def _stored_sliders():
    for path in sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb")):
        state = json.loads(path.read_text())["metadata"].get("widgets", {}).get(STATE, {}).get("state", {})
        for model_id, entry in state.items():
            if entry["model_name"] in SLIDERS:
                yield path.name, model_id, entry["model_name"], entry["state"]


def test_readme_start_claim_holds_for_every_stored_slider():
    """docs/changing-a-lesson.md: each slider starts strictly inside its range (both ways)."""
    assert "strictly inside its range" in DOCS
    assert "middle of its range" not in DOCS + README
    sliders = list(_stored_sliders())
    assert len(sliders) >= 10
    for name, _model_id, kind, s in sliders:
        if kind == "SelectionSliderModel":
            low, value, high = 0, s["index"], len(s["_options_labels"]) - 1
        elif kind == "FloatLogSliderModel":
            low, value, high = s["base"] ** s["min"], s["value"], s["base"] ** s["max"]
        else:
            low, value, high = s["min"], s["value"], s["max"]
        label = s.get("description")
        assert low < value < high, f"{name}: slider {label!r} starts at {value} in [{low}, {high}]"
