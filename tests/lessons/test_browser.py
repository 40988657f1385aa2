"""Every lesson in a real browser: headless Chromium driving JupyterLab 4 (and Notebook 7).

For each notebooks/NN_*.ipynb in JupyterLab (and lesson 2 in Notebook 7),
copied as a student gets it from a fresh clone (stored outputs and widget state
included), in one shared ``jupyter lab`` on loopback:

* open it: it is not marked unsaved before anyone types;
* run all cells (the ``notebook:run-all-cells`` command): no cell has an error output or
  a traceback on stderr, every code cell ran, and no widget shows "Error displaying
  widget" / "Model not found";
* at least one slider renders; every slider moves from the keyboard (focus the handle,
  press the arrow keys) and changes what its cell shows, and for at least one slider a
  figure changes (its screenshot differs);
* the kernels compute as on another CPU (OpenBLAS's generic kernels, NumPy without
  this CPU's SIMD paths: tests/other_cpu.py; the kernel is asked, and must say so),
  as a student's machine differs from the one that stored the lessons;
* save (what the autosave does): the saved file equals the stored lesson byte for byte,
  figures included (a top-to-bottom run recreates the same outputs, widget ids and
  pixels, so a student's save does not touch the tracked file);
* move the sliders, save: the file is still the stored lesson byte for byte (the course
  settings' save hook keeps each unchanged slider cell's stored frame);
* shut the kernel down, close the lesson's tab and open the file again in the same
  JupyterLab (Notebook 7: leave the page and load it again); lesson 2 in JupyterLab
  instead leaves the page and loads it again seven times: with the kernel running,
  then shut down, then five more times with a new kernel starting. Never a reload to
  mend anything: each time every widget cell shows its figure
  (an ordinary image output) holding the stored starting frame, which agrees with the
  controls (restored from the stored starting state), and its status line, whatever
  the widget manager does; a control
  row without a live kernel says in words (the course style) that running the cell
  brings the sliders back, with no red "disconnected" icon, also when the widget
  manager fails to restore it (its start-up race, counted and reported in
  timings.txt); every ``hide-input`` cell has its code collapsed;
* the course settings the README install puts in the environment (course-settings/
  overrides.json: slider arrow keys in Notebook 7, widget state not saved) are in effect;
* the page makes no request except to loopback (everything else is aborted and fails
  the test).

``test_lesson_opens_clean`` serves the repository itself (root = repository, as the
README's launch command does), opens the index and lesson 2 without running them, saves and
leaves: the notebook is not dirty on open and ``git status --porcelain notebooks/`` is
unchanged (empty in a clean checkout).

Screenshots (after the run and after each reopen) and a timing table go to
test-output/browser/. Needs Chromium (Debian package; ``PERCEPTRON_CHROMIUM`` overrides
the path) and playwright: without them the tests skip, except under CI (``CI`` set),
where they fail. ``PERCEPTRON_BROWSER_NOTEBOOKS`` points the tests at another folder
of notebooks (used to develop the test itself).
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM_ARGS,
    JupyterServer,
    LessonPage,
    LessonReport,
    find_chromium,
    loopback_guard,
)
from other_cpu import PROBE, cpu_report, other_cpu_environment, other_cpu_variables

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = Path(os.environ.get("PERCEPTRON_BROWSER_NOTEBOOKS", ROOT / "notebooks"))
OUTPUT = ROOT / "test-output" / "browser"
IN_CI = bool(os.environ.get("CI"))

INDEX = "00_index.ipynb"
NOTEBOOK_NAMES = sorted(p.name for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
LESSONS = [n for n in NOTEBOOK_NAMES if n != INDEX]

CASES = [pytest.param(n, "lab", id=f"lab-{Path(n).stem}") for n in NOTEBOOK_NAMES]
# Notebook 7 is the same widget code behind other shortcuts and another page: it is
# driven on lesson 2 (float sliders and a dropdown; every lesson's controls are of
# these kinds), which keeps CI under its time budget.
NOTEBOOK7_LESSONS = ["02_xor.ipynb"]
CASES += [
    pytest.param(n, "notebook7", id=f"notebook7-{Path(n).stem}") for n in LESSONS if n in NOTEBOOK7_LESSONS
]

OPEN_TIMEOUT_MS = 120_000
# The reopen cycle in depth (kernel running, shut down, then five more reopenings with a
# new kernel starting, to meet the widget manager's start-up race) runs on one lesson in
# JupyterLab; every other lesson is reopened once, after shutting its kernel down.
DEEP_REOPEN = ("02_xor.ipynb", "lab")
EXTRA_REOPENINGS = 5
RUN_TIMEOUT_MS = 300_000
# A 40 px drag on a 360-degree slider then moves it by at most about 30 degrees.
MIN_TRACK_PX = 450

pytestmark = pytest.mark.browser

REPORTS: list[LessonReport] = []


def _unavailable(reason: str):
    if IN_CI:
        pytest.fail(f"{reason} (CI is set, so the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        _unavailable("Chromium not found (apt-get install chromium, or set PERCEPTRON_CHROMIUM)")
    return path


@pytest.fixture(scope="module")
def jupyter_server(tmp_path_factory):
    for module in ("jupyterlab", "notebook"):
        if importlib.util.find_spec(module) is None:
            _unavailable(f"{module} is not installed (pip install jupyterlab notebook)")
    root = tmp_path_factory.mktemp("browser-root")
    # The lessons as committed: outputs and stored widget state, as a fresh clone has them.
    shutil.copytree(NOTEBOOKS, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    state = tmp_path_factory.mktemp("browser-jupyter")
    # No user settings: the course settings come from the environment (course-settings/).
    # The kernels compute as on another CPU (tests/other_cpu.py): Run All + save must
    # still write the stored bytes, as it must on a student's machine.
    server = JupyterServer(root, state, extra_env=other_cpu_variables())
    with server:
        yield server
    _write_timings()


@pytest.fixture(scope="module")
def chromium(chromium_path):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install playwright)")
    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS, headless=True)
    except Exception as err:  # a broken install should not look like a lesson failure
        pw.stop()
        _unavailable(f"Chromium at {chromium_path} does not start under playwright: {err}")
    yield browser
    browser.close()
    pw.stop()


def _write_timings() -> None:
    if not REPORTS:
        return
    lines = [
        f"{'notebook':<34} {'ui':<10} {'open s':>7} {'run s':>7} {'slider s':>8} "
        f"{'reopen s':>8} {'sliders':>7} {'track':>5} {'hidden':>6}  result",
    ]
    for r in REPORTS:
        verdict = "ok" if not _problems(r) else "FAIL: " + "; ".join(_problems(r))[:150]
        lines.append(
            f"{r.name:<34} {r.ui:<10} {r.open_s:7.1f} {r.run_s:7.1f} {r.sliders_s:8.1f} "
            f"{r.reopen_s:8.1f} {r.n_sliders:7d} {r.min_track_px:5.0f} {r.hidden_inputs:6d}  {verdict}"
        )
    total = sum(r.open_s + r.run_s + r.sliders_s + r.reopen_s for r in REPORTS)
    lines.append(f"total {total:.1f} s")
    lines.append("")
    lines.append("Sliders moved with the keyboard (cell index: label, value before -> after, effect):")
    for r in REPORTS:
        for p in r.probes:
            effect = (
                "figure pixels changed"
                if p.pixels_changed
                else "figure replaced"
                if p.figure_changed
                else "text changed"
                if p.output_changed
                else "NOTHING changed"
            )
            lines.append(
                f"  {r.name} [{r.ui}] cell {p.cell}: {p.label!r} "
                f"{p.value_before} -> {p.value_after}: {effect}"
                + (f" (moved on a second try, after a click; first: {p.second_try})" if p.second_try else "")
            )
    notes = [
        f"  {r.name} [{r.ui}] cell {cell}: figure is {nat} px wide but shown at {shown} px (blurry)"
        for r in REPORTS
        for cell, nat, shown in r.upscaled
    ]
    if notes:
        lines.append("")
        lines.append("Notes (not failures): figures stretched beyond their resolution")
        lines.extend(dict.fromkeys(notes))
    reopenings = sum(r.reopenings for r in REPORTS)
    hit = sum(len(r.restore_races) for r in REPORTS)
    lines.append("")
    lines.append(
        f"Reopenings: {reopenings}; a control row was left unrestored by the widget manager's "
        f"start-up race ({RESTORE_RACE_TEXT!r} or nothing) in {hit}. Figures and status "
        "lines are ordinary outputs: every one of them was checked on every reopening."
    )
    lines.extend(f"  {r.name} [{r.ui}] {race}" for r in REPORTS for race in r.restore_races)
    text = "\n".join(lines) + "\n"
    OUTPUT.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # one table per pytest-xdist worker
    (OUTPUT / (f"timings-{worker}.txt" if worker else "timings.txt")).write_text(text)
    print("\n\nBrowser lesson timings (also in test-output/browser/timings.txt)\n" + text)


def _count_changed(old: str, new: str) -> tuple[int, list[str]]:
    diff = [
        line
        for line in difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
        if line[:1] in "+-" and not line.startswith(("+++", "---"))
    ]
    return len(diff), [line[:160] for line in diff[:8]]


def _pngs(notebook: dict) -> list[str]:
    return [
        output["data"]["image/png"]
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if "image/png" in output.get("data", {})
    ]


def _compare_saved(report: LessonReport, stored: Path, saved: Path) -> None:
    """How many lines the browser's save changed in the stored lesson (byte for byte).

    Figures included: their pixels do not depend on last-bit differences between CPUs
    (perclib.stable_canvas, tests/widgets/test_stable_pixels.py), so Run All + save must leave
    every stored PNG exactly as it is.
    """
    old_text, new_text = stored.read_text(), saved.read_text()
    report.saved_changed_lines, report.saved_diff = _count_changed(old_text, new_text)
    old_pngs, new_pngs = _pngs(json.loads(old_text)), _pngs(json.loads(new_text))
    changed = sum(a != b for a, b in zip(old_pngs, new_pngs, strict=False))
    if changed or len(old_pngs) != len(new_pngs):
        report.saved_diff.insert(0, f"{changed} of {len(old_pngs)} figures differ ({len(new_pngs)} saved)")


def _last_frames(saved: Path) -> dict[int, list[str]]:
    """Cell index -> the figure PNGs (base64) the saved file holds for each widget cell."""
    notebook = json.loads(saved.read_text())
    frames = {}
    for i, cell in enumerate(notebook["cells"]):
        outputs = cell.get("outputs", [])
        if any(WIDGET_VIEW in o.get("data", {}) for o in outputs):
            frames[i] = [o["data"]["image/png"] for o in outputs if "image/png" in o.get("data", {})]
    return frames


RESTORE_RACE_TEXT = "Error displaying widget: model not found"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def _saved_state_covers_views(saved: Path) -> bool:
    """Every widget view in the saved lesson has its model in the stored widget state."""
    notebook = json.loads(saved.read_text())
    state = notebook["metadata"].get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    views = [
        output["data"][WIDGET_VIEW]["model_id"]
        for cell in notebook["cells"]
        for output in cell.get("outputs", [])
        if WIDGET_VIEW in output.get("data", {})
    ]
    return bool(views) and all(model_id in state for model_id in views)


def _reopen_problems(
    lesson: LessonPage, report: LessonReport, mode: str, frames: dict, start_values: dict
) -> list[str]:
    """Every figure and status line is shown, holding the saved last frame.

    Live controls show what the figure shows: the values the lesson starts at
    (``start_values``, read after Run All), as the figure is the stored starting frame.

    A control row that the widget manager failed to restore (its start-up race, see
    README) is counted in ``report.restore_races``, not failed: the figure and the
    status line are ordinary outputs and must be there whatever the manager does.
    """
    problems = []
    race_cells = []
    for cell in lesson.widget_cells():
        i = cell["cell"]
        if cell["figures"] == 0 or cell["statuses"] == 0:
            problems.append(f"cell {i}: the file holds no figure or status output")
        if len(cell["srcs"]) != cell["figures"]:
            problems.append(f"cell {i}: {cell['figures']} figure(s) in the file, {len(cell['srcs'])} shown")
        shown = [src.split(",", 1)[-1] for src in cell["srcs"]]
        if i in frames and shown != frames[i][: len(shown)]:
            problems.append(f"cell {i}: the figure shown is not the last frame saved")
        if cell["statuses_shown"] < cell["statuses"]:
            problems.append(f"cell {i}: a status line is missing")
        if cell["values"] and cell["values"] != start_values.get(i):
            problems.append(
                f"cell {i}: the controls show {cell['values']} above the starting frame "
                f"(drawn at {start_values.get(i)})"
            )
        if cell["errors"] or not cell["controls"]:
            other = [e for e in cell["errors"] if e not in RESTORE_RACE_TEXT]
            if other:
                problems.append(f"cell {i}: {other}")
            race_cells.append(i)
        if cell["icons"]:
            problems.append(f"cell {i}: {cell['icons']} red 'disconnected' icon(s) instead of words")
        if cell.get("movable_offline"):
            problems.append(f"cell {i}: {cell['movable_offline']} control(s) without a kernel can "
                            "still be moved (nothing follows them): they must be disabled")
        if (cell["offline"] or cell["errors"]) and cell["notes"] != 1:
            problems.append(
                f"cell {i}: a control row without a live kernel shows {cell['notes']} notes "
                "saying how to bring the sliders back (want exactly 1)"
            )
    if race_cells:
        report.restore_races.append(f"{mode}: control rows of cells {race_cells}")
    hidden = lesson.hidden_input_cells()
    report.hidden_inputs = len(hidden)
    for cell in hidden:
        if not cell["collapsed"]:
            problems.append(f"cell {cell['cell']}: tagged hide-input but its code is shown")
    return problems


@functools.cache
def _other_cpu() -> dict:
    """What :data:`other_cpu.PROBE` reports in a process started as on another CPU."""
    return cpu_report(other_cpu_environment())


def _as_other_cpu(kernel: dict) -> bool:
    """Every BLAS the kernel loaded (NumPy's, SciPy's) runs the emulated CPU's kernels."""
    want = _other_cpu()
    blas_ok = bool(kernel["blas"]) and set(kernel["blas"]) <= set(want["blas"])
    return blas_ok and kernel["simd"] == want["simd"]


def _figure_descriptions(stored: Path) -> set[str]:
    """The sentences a lesson's figure outputs carry as text/plain (matplotlib's bare
    "<Figure size ...>" describes nothing and is left out)."""
    found = set()
    for cell in json.loads(stored.read_text())["cells"]:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            text = data.get("text/plain")
            if "image/png" in data and text:
                text = "".join(text).strip()
                if not text.startswith(("<Figure", "<matplotlib")):
                    found.add(text)
    return found


def _check_names_and_alt_text(page, stored: Path, report: LessonReport) -> None:
    """After Run All: every slider and dropdown has an accessible name (Chromium's own
    computation, through ARIA roles), and every figure description is some <img>'s alt."""
    shown = page.evaluate("""() => ({
      alts: [...document.querySelectorAll('.jp-OutputArea-output img')].map(i => i.alt),
      controls: [...document.querySelectorAll(
          '.widget-slider [role=slider], .widget-dropdown select')].map(
          e => e.closest('.widget-slider, .widget-dropdown')
                .querySelector('.widget-label')?.textContent.trim() || '')})""")
    alts = {a.strip() for a in shown["alts"]}
    report.undescribed_figures = sorted(d[:60] for d in _figure_descriptions(stored) - alts)
    for label in sorted(set(shown["controls"])):
        if not label:
            continue
        named = page.get_by_role("slider", name=label, exact=True).count()
        named += page.get_by_role("combobox", name=label, exact=True).count()
        if named == 0:
            report.unnamed_controls.append(label)


def _problems(r: LessonReport) -> list[str]:
    problems = []
    if r.unnamed_controls:
        problems.append(f"controls a screen reader cannot name: {r.unnamed_controls[:5]}")
    if r.undescribed_figures:
        problems.append(f"figures shown without their description as alt text: "
                        f"{r.undescribed_figures[:3]}")
    if r.kernel_cpu and not _as_other_cpu(json.loads(r.kernel_cpu)):
        problems.append(f"the kernel did not compute as another CPU: {r.kernel_cpu} (want {_other_cpu()})")
    elif not r.kernel_cpu and r.reopen_problems:
        problems.append("the kernel's BLAS and SIMD paths were not probed")
    if r.dirty_on_open:
        problems.append("marked unsaved as soon as it opened")
    if r.n_sliders and r.min_track_px < MIN_TRACK_PX:
        problems.append(f"a slider track is only {r.min_track_px:.0f} px long (want >= {MIN_TRACK_PX})")
    for mode, found in r.reopen_problems.items():
        problems.extend(f"after reopening ({mode}): {p}" for p in found)
    if r.saved_changed_lines:
        problems.append(
            f"run all + save changed {r.saved_changed_lines} lines of the stored lesson "
            f"(re-execute it with `python -m coursetools.run`; first lines: {r.saved_diff})"
        )
    if r.explored_changed_lines:
        problems.append(
            f"moving the sliders and saving changed {r.explored_changed_lines} lines of the "
            f"stored lesson (the course settings' save hook should keep it; {r.explored_diff})"
        )
    if r.blocked:
        problems.append(f"requests to non-loopback addresses: {sorted(set(r.blocked))}")
    if r.cell_errors:
        problems.append(f"cell errors: {r.cell_errors}")
    if r.unexecuted_cells:
        problems.append(f"code cells that did not run (index): {r.unexecuted_cells}")
    if r.widget_errors:
        problems.append(f"broken widgets: {r.widget_errors}")
    if r.name == INDEX:
        return problems
    if r.reopen_problems and r.hidden_inputs == 0:
        # Every lesson has check cells (tag hide-input) since the cell-roles round.
        problems.append("no cell tagged hide-input: a lesson's check cells must be collapsed")
    if r.n_sliders == 0:
        problems.append("no slider rendered")
        return problems
    for p in r.probes:
        if p.value_after == p.value_before:
            blocked = f"; focus on {p.focus_after}" if p.focus_after else ""
            blocked += "".join(f"; dialog open: {d!r}" for d in p.dialogs)
            problems.append(f"cell {p.cell}: slider {p.label!r} did not move from the keyboard{blocked}")
        elif not p.output_changed:
            problems.append(f"cell {p.cell}: moving slider {p.label!r} changed nothing on the page")
    if not any(p.figure_changed and (p.pixels_changed or not p.figures_in_cell) for p in r.probes):
        problems.append("no slider changed a figure")
    if r.reconnect_lost is not None:
        problems.append(
            f"cell {r.reconnect_lost}: after the kernel connection dropped and came back, "
            "its controls were no longer live"
        )
    moved = r.reconnect_probe
    if moved is not None and not (moved.value_after != moved.value_before and moved.pixels_changed):
        problems.append(
            f"cell {moved.cell}: after the kernel connection dropped and came back, slider "
            f"{moved.label!r} no longer moves the figure"
        )
    return problems


@pytest.mark.parametrize(("name", "ui"), CASES)
def test_lesson_in_browser(name, ui, jupyter_server, chromium):
    report = LessonReport(name=name, ui=ui)
    REPORTS.append(report)
    context = chromium.new_context(viewport={"width": 1280, "height": 1000}, service_workers="block")
    loopback_guard(context, report.blocked)
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda err: report.page_errors.append(str(err)[:300]))
    page.on(
        "websocket",
        lambda ws: (
            None if ws.url.startswith(("ws://127.0.0.1", "ws://localhost")) else report.blocked.append(ws.url)
        ),
    )
    lesson = LessonPage(page, jupyter_server, name, ui, report)
    shot = OUTPUT / f"{Path(name).stem}-{ui}.png"
    try:
        t0 = time.perf_counter()
        lesson.open(OPEN_TIMEOUT_MS)
        lesson.settle()
        report.dirty_on_open = lesson.is_dirty()
        t1 = time.perf_counter()
        report.open_s = t1 - t0
        lesson.run_all(RUN_TIMEOUT_MS)
        report.run_s = time.perf_counter() - t1
        lesson.collect_errors()

        _check_names_and_alt_text(page, NOTEBOOKS / name, report)
        cells = lesson.slider_cells()
        report.slider_cells = sorted(cells)
        # What the controls show at the lesson's start: the stored figures' values.
        start_values = {cell["cell"]: cell["values"] for cell in lesson.widget_cells()}
        tracks = lesson.slider_track_widths()
        report.min_track_px = min(tracks) if tracks else 0.0
        report.n_sliders = sum(cells.values())
        # Run All + save (what the autosave does) must leave the stored lesson as it is.
        lesson.save()
        _compare_saved(report, NOTEBOOKS / name, jupyter_server.root_dir / name)

        t2 = time.perf_counter()
        if name != INDEX:
            # Every slider of every cell, from the keyboard.
            for cell, count in sorted(cells.items()):
                for k in range(count):
                    report.probes.append(lesson.probe_slider(cell, k))
            # Errors raised by slider callbacks land in the page too.
            lesson.collect_errors()
        report.sliders_s = time.perf_counter() - t2
        if (name, ui) == DEEP_REOPEN:
            # A network drop: the same page reconnects, and its sliders must stay live.
            assert lesson.reconnect_kernel() == "connected"
            lesson.settle(quiet_ms=1000)
            first = min(cells)
            if any(c["cell"] == first and c["values"] for c in lesson.widget_cells()):
                report.reconnect_probe = lesson.probe_slider(first, 0)
            else:
                report.reconnect_lost = first
        lesson.find_upscaled_figures()
        lesson.screenshot(shot, min(cells) if cells else 0)
        report.screenshot = str(shot.relative_to(ROOT)) if shot.is_relative_to(ROOT) else str(shot)

        # The kernel that ran the lesson computed as another CPU does (else the byte-for-byte
        # saves above say nothing about a student's machine).
        report.kernel_cpu = lesson.kernel_print(PROBE).strip()

        # Save after exploring, leave, reopen: with the kernel running, after shutting it
        # down, then again and again, each time with a new kernel starting. No page
        # reload anywhere: every figure must come back from the file alone.
        t3 = time.perf_counter()
        lesson.save()
        saved = jupyter_server.root_dir / name
        report.explored_changed_lines, report.explored_diff = _count_changed(
            (NOTEBOOKS / name).read_text(), saved.read_text()
        )
        # The figures a reopened lesson must show: the stored starting frames.
        frames = _last_frames(NOTEBOOKS / name)
        first_widget_cell = min(cells) if cells else 0
        modes = ["kernel running", "kernel shut down"] + [
            f"new kernel {k}" for k in range(2, 2 + EXTRA_REOPENINGS)
        ]
        in_app = (name, ui) != DEEP_REOPEN and ui == "lab"
        if (name, ui) != DEEP_REOPEN:
            modes = modes[1:2]  # kernel shut down: what a student meets the next day
        for k, mode in enumerate(modes):
            if mode != "kernel running":
                lesson.shutdown_kernel()
            if in_app:  # the tab closed and the file opened again in the same JupyterLab
                lesson.close_tab()
                lesson.open_in_app(OPEN_TIMEOUT_MS)
            else:  # the page left and loaded again
                lesson.close()
                lesson.open(OPEN_TIMEOUT_MS, workspace=f"-reopen{k}")
            lesson.settle(quiet_ms=1500)
            report.reopen_problems[mode] = _reopen_problems(lesson, report, mode, frames, start_values)
            if k < 2 or report.reopen_problems[mode]:
                tag = mode.replace(" ", "-")
                lesson.screenshot(OUTPUT / f"{Path(name).stem}-{ui}-reopen-{tag}.png", first_widget_cell)
        report.reopenings = len(modes)
        report.reopen_s = time.perf_counter() - t3
    except Exception:
        try:
            lesson.screenshot(shot, None)
        except Exception:
            pass
        raise
    finally:
        try:
            lesson.shutdown_kernel()
        except Exception:
            pass
        context.close()

    problems = _problems(report)
    assert not problems, (
        f"{name} in {ui}:\n- "
        + "\n- ".join(problems)
        + (f"\n(screenshot: {shot}; page errors: {report.page_errors[:5]})")
    )


@pytest.mark.parametrize(
    ("url", "allowed"),
    [
        ("http://127.0.0.1:8888/lab", True),
        ("http://localhost:1/api/kernels", True),
        ("http://[::1]:8888/", True),
        ("data:image/png;base64,AAAA", True),
        ("blob:http://127.0.0.1:8888/1234", True),
        ("https://mybinder.org/badge_logo.svg", False),
        ("https://cdn.jsdelivr.net/npm/mathjax", False),
        ("http://127.0.0.1.example.com/", False),
        ("ws://10.0.0.1/", False),
    ],
)
def test_loopback_filter(url, allowed):
    from browser_support import is_loopback

    assert is_loopback(url) is allowed


@pytest.fixture(scope="module")
def repo_server(tmp_path_factory):
    """``jupyter lab`` rooted at the repository itself, as the README launches it."""
    state = tmp_path_factory.mktemp("browser-jupyter-repo")
    with JupyterServer(ROOT, state) as server:
        yield server


def _git_status(path: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "status", "--porcelain", "--", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None  # not a git checkout (e.g. an sdist): the byte comparison still runs
    return out.stdout


@pytest.mark.skipif(NOTEBOOKS != ROOT / "notebooks", reason="needs the repository's own notebooks")
@pytest.mark.parametrize("name", [INDEX, "02_xor.ipynb"])
def test_lesson_opens_clean(name, repo_server, chromium):
    """Open a real lesson (no run), save as the autosave would, leave: nothing changes.

    The launch the README gives (a server rooted at the repository) on the index and one
    lesson; ``test_lesson_in_browser`` opens, runs and saves every lesson, which covers
    the bytes of each file.
    """
    path = ROOT / "notebooks" / name
    before_bytes = path.read_bytes()
    before_status = _git_status(path)
    report = LessonReport(name=name, ui="lab")
    context = chromium.new_context(viewport={"width": 1280, "height": 1000}, service_workers="block")
    loopback_guard(context, report.blocked)
    page = context.new_page()
    page.set_default_timeout(60_000)
    lesson = LessonPage(page, repo_server, f"notebooks/{name}", "lab", report)
    try:
        lesson.open(OPEN_TIMEOUT_MS, workspace="-clean")
        lesson.settle(quiet_ms=1500)
        dirty = lesson.is_dirty()
        lesson.save()
        lesson.shutdown_kernel()
        lesson.close()
    finally:
        context.close()
        after_bytes = path.read_bytes()
        if after_bytes != before_bytes:
            path.write_bytes(before_bytes)  # never leave a lesson modified by the test
    changed, first = _count_changed(before_bytes.decode(), after_bytes.decode())
    assert not dirty, f"{name} is marked unsaved as soon as it opens"
    assert changed == 0, (
        f"opening and saving {name} in JupyterLab changed {changed} lines; store it with "
        f"`python -m coursetools.run notebooks/{name}` (first changes: {first})"
    )
    assert _git_status(path) == before_status, f"git status of {name} changed by opening it"
    assert not report.blocked, f"requests to non-loopback addresses: {report.blocked}"


def test_readme_launch_matches_binder():
    """The README's launch roots the server at the repository and opens the page Binder opens."""
    import re
    import shlex

    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    launch = re.findall(r"```bash\n(.*?)```", quick, flags=re.S)[0].strip()
    words = shlex.split(launch.split("&&")[-1])
    assert "--ServerApp.root_dir=." in words, f"launch must root the server at the repository: {launch}"
    opened = [w for w in words if w.endswith(".ipynb")]
    assert opened == ["notebooks/00_index.ipynb"], launch
    for text in (readme, (ROOT / "notebooks" / INDEX).read_text()):
        for urlpath in re.findall(r"mybinder\.org/v2/[^\s)\]\"]*urlpath=([^\s)\]\"&]+)", text):
            assert urlpath == "lab/tree/" + opened[0], f"Binder opens {urlpath}, README {opened[0]}"


@pytest.mark.parametrize("name", [n for n in NOTEBOOK_NAMES if n != INDEX])
def test_stored_widget_state_covers_every_view(name):
    """Reopening without a kernel draws each widget from the state stored in the file."""
    assert _saved_state_covers_views(NOTEBOOKS / name), f"{name}: a widget view has no stored model"
