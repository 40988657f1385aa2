"""A self-check question in JupyterLab 4 and Notebook 7, through a real kernel (issue 39).

Lesson 1 (outputs stripped) is opened in headless Chromium on a loopback Jupyter server
and run; then a reader uses the first question's row: a wrong answer gets its hint,
a second wrong one the stronger hint, "Show answer" the answer, the right answer is
accepted. Every click goes to the kernel and back (the feedback line is a widget the
kernel rewrites). Skips without Chromium or playwright, fails under CI, like
tests/lessons/test_browser.py.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM_ARGS,
    JupyterServer,
    LessonPage,
    LessonReport,
    find_chromium,
    loopback_guard,
    stripped_copy,
)

ROOT = Path(__file__).resolve().parents[2]
LESSON = "01_threshold_units.ipynb"


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set, so the browser tests must run)")
    pytest.skip(reason)


@pytest.mark.browser
@pytest.mark.parametrize("ui", ["lab", "notebook7"])
def test_a_question_answers_through_the_kernel(ui: str, tmp_path: Path) -> None:
    chromium = find_chromium()
    if chromium is None or importlib.util.find_spec("playwright") is None:
        _unavailable("Chromium or playwright not available")
    from playwright.sync_api import sync_playwright

    root = tmp_path / "root"
    stripped_copy(ROOT / "notebooks", root, [LESSON])
    with JupyterServer(root, tmp_path / "state") as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS, headless=True)
        blocked: list[str] = []
        context = browser.new_context(viewport={"width": 1300, "height": 1000})
        loopback_guard(context, blocked)
        page = context.new_page()
        lesson = LessonPage(page, server, LESSON, ui, LessonReport(name=LESSON, ui=ui))
        try:
            lesson.open()
            assert lesson.run_all(), "Run All failed"
            row = page.locator(f"{lesson.root} .perclib-question").first
            row.scroll_into_view_if_needed()
            box = row.locator("input[type=text]")
            feedback = row.locator(".widget-htmlmath")

            def answer(text: str, expect: str) -> str:
                box.fill(text)
                box.press("Tab")  # the value reaches the kernel before the click
                row.get_by_role("button", name="Check").click()
                page.wait_for_function(
                    "([el, want]) => el.textContent.includes(want)",
                    arg=[feedback.element_handle(), expect], timeout=30_000)
                return " ".join(feedback.text_content().split())

            said = answer("65536", "Not yet.")
            assert "dark on the whole T" in said and "Stronger hint" not in said, said
            said = answer("3", "Stronger hint")
            assert "Answer" not in said, said
            row.get_by_role("button", name="Show answer").click()
            page.wait_for_function("el => el.textContent.startsWith('Answer')",
                                   arg=feedback.element_handle(), timeout=30_000)
            said = answer("1", "Right.")
            assert said.startswith("✓ Right. Only the T itself"), said
            out = ROOT / "test-output" / "browser"
            out.mkdir(parents=True, exist_ok=True)
            row.screenshot(path=str(out / f"question-{ui}.png"))
            assert not blocked, blocked
        finally:
            context.close()
            browser.close()
