"""The index's table of reading times and exercises stays true as lessons change."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INDEX = ROOT / "notebooks" / "00_index.ipynb"
LESSONS = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb") if not p.name.startswith("00_"))
ROW = re.compile(r"^\| (\d) \| about (\d+) min \| (\d+) \(([^)]*)\) \| (.+) \|$", re.M)


def _markdown(path: Path) -> list[str]:
    cells = json.loads(path.read_text())["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def _main_line_words(path: Path) -> int:
    words = 0
    for text in _markdown(path):
        if re.search(r"^#+ .*Exercises", text, re.M):
            break
        folded = sum(len(block.split()) for block in re.findall(r"<details.*?</details>", text, re.S))
        words += len(text.split()) - folded
    return words


def _rows() -> dict[int, tuple[int, int, str]]:
    text = "\n".join(_markdown(INDEX))
    return {int(m[1]): (int(m[2]), int(m[3]), m[4]) for m in ROW.finditer(text)}


def test_every_lesson_has_a_row() -> None:
    assert sorted(_rows()) == list(range(1, len(LESSONS) + 1))


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_time_and_exercises_match_the_lesson(lesson: Path) -> None:
    minutes, count, stars = _rows()[int(lesson.name[:2])]
    # About 100 words of mathematical prose a minute, plus 10 minutes of code and sliders.
    estimate = _main_line_words(lesson) / 100 + 10
    assert abs(minutes - estimate) <= 7.5, f"{lesson.name}: index {minutes} min, text {estimate:.0f}"
    marks = [m for text in _markdown(lesson) for m in re.findall(r"^\*\*Exercise \d+ (★+)", text, re.M)]
    assert count == len(marks), f"{lesson.name}: index says {count} exercises, the lesson has {len(marks)}"
    for level in ("★★★", "★★", "★"):
        n = marks.count(level)
        assert (f"{n} {level}" in stars.split(", ")) == bool(n), f"{lesson.name}: {stars} vs {marks}"
    assert "★★★" in marks, f"{lesson.name}: no ★★★ exercise"


@pytest.mark.parametrize("option", ["--out", "--force"])
def test_the_commands_said_to_take_out_and_force_do(option: str) -> None:
    """The index names the coursetools commands that take ``--out DIR`` and ``--force``."""
    text = "\n".join(_markdown(INDEX))
    claim = re.search(r"((?:`coursetools\.\w+`(?:, | and )?)+) take `--out DIR`, `--force`", text)
    assert claim, "the index no longer says which commands take --out DIR and --force"
    modules = re.findall(r"`coursetools\.(\w+)`", claim[1])
    assert len(modules) >= 2, claim[0]
    for name in modules:  # the command as the index shows it: python -m coursetools.NAME
        shown = subprocess.run([sys.executable, "-m", f"coursetools.{name}", "--help"],
                               capture_output=True, text=True, cwd=ROOT)
        assert shown.returncode == 0, f"coursetools.{name} --help: {shown.stderr[-2000:]}"
        assert option in shown.stdout, f"the index says coursetools.{name} takes {option}"
