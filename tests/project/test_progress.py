"""The builds' progress bars (``coursetools.shared.common.progress``): sane in a CI log.

Off a terminal (a pipe, a CI log) a bar prints plain lines, no carriage returns, at
most one per interval however often it is updated or re-labelled, and always its last
state; with ``enabled=False`` it prints nothing. The frames bar reads the progress
lines a kernel writes (``coursetools.shared.players.frames.PROGRESS_MARK``).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from coursetools.shared.common import progress
bar = progress(total=900, desc="frames", unit="frame", enabled=sys.argv[1] == "on")
for i in range(1000):
    bar.update(1)
    bar.set_postfix_str(f"figure {i // 100}")
    if i % 100 == 0:
        bar.total += 10
        bar.refresh()
bar.close()
print("done")
"""


def _run(state: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, state], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)


def test_off_a_terminal_a_bar_prints_few_plain_lines_to_stderr():
    result = _run("on")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "done\n", "the bar belongs on stderr"
    assert "\r" not in result.stderr and "\x1b" not in result.stderr
    lines = result.stderr.strip().split("\n")
    assert 1 <= len(lines) <= 3, lines  # the first line, the last, nothing in between
    assert lines[-1].startswith("frames: 100%") and "1000/1000" in lines[-1], lines[-1]


def test_a_disabled_bar_prints_nothing():
    result = _run("off")
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_the_frames_bar_follows_the_kernel_lines():
    from coursetools.shared.players.frames import PROGRESS_MARK, _Progress

    tracker = _Progress({"a": 50, "b": 20}, lessons=2, enabled=True)  # a disabled bar counts nothing
    assert tracker.bar.total == 70
    heard = tracker.listener("a")
    heard(f"{PROGRESS_MARK} total 30\n{PROGRESS_MARK} frame\n")  # exact grid: 30, not 50
    heard(f"{PROGRESS_MARK} frame\nsome other stderr text\n{PROGRESS_MARK} frame\n")
    assert (tracker.bar.n, tracker.bar.total) == (3, 50)
    tracker.lesson_done()
    assert tracker.finished == 1
    tracker.close()
