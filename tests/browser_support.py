"""Helpers for tests/lessons/test_browser.py: a throwaway Jupyter server and a loopback-only browser.

Nothing here is a test. The pieces:

* :func:`find_chromium` - the system Chromium (playwright never downloads a browser here).
* :func:`stripped_copy` - the lesson folder copied with every output and all widget state
  removed, so the browser sees what a student sees after a fresh clone.
* :class:`JupyterServer` - ``jupyter lab`` on a free loopback port with a random token,
  fresh config/data/runtime/settings/workspace directories, the JupyterLab app object
  exposed as ``window.jupyterapp`` (for ``notebook:run-all-cells``), cell windowing off
  (every cell stays in the DOM) and news/update checks off.
* :func:`loopback_guard` - routes every request of a browser context, lets loopback,
  ``data:`` and ``blob:`` through, aborts and records anything else.
* :class:`LessonPage` - drives one notebook in JupyterLab 4 or Notebook 7: wait for the
  kernel, run all cells, read back errors, find sliders, move one with the keyboard and
  tell whether a figure changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

import nbformat

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-client-side-phishing-detection",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-quic",
    "--metrics-recording-only",
    "--safebrowsing-disable-auto-update",
]

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}

# Text that must never show in a rendered notebook.
WIDGET_ERROR_TEXTS = ("Error displaying widget", "Model not found", "Failed to load model class")


def find_chromium() -> str | None:
    """Path of a Chromium binary: $PERCEPTRON_CHROMIUM, else chromium on PATH, else None."""
    for candidate in (
        os.environ.get("PERCEPTRON_CHROMIUM"),
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        "/usr/bin/chromium",
    ):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def strip_notebook(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Remove outputs, execution counts and saved widget state (in place); return nb."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)
    return nb


def stripped_copy(src_dir: Path, dst_dir: Path, names: list[str]) -> None:
    """Copy src_dir (data files included) to dst_dir; the given notebooks are stripped."""
    shutil.copytree(
        src_dir,
        dst_dir,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
    )
    for name in names:
        nb = nbformat.read(src_dir / name, as_version=4)
        nbformat.write(strip_notebook(nb), dst_dir / name)


def _write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


class JupyterServer:
    """``jupyter lab`` on loopback in a temporary home; use as a context manager."""

    def __init__(
        self,
        root_dir: Path,
        state_dir: Path,
        *,
        user_settings: Path | None = None,
        startup_timeout: float = 90,
        extra_env: dict[str, str] | None = None,
        kernel_transport: str = "ipc",
    ):
        self.root_dir = root_dir
        self.extra_env = dict(extra_env or {})  # on top of this process's (kernels inherit it)
        self.user_settings = user_settings
        self.state_dir = state_dir
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.startup_timeout = startup_timeout
        self.proc: subprocess.Popen | None = None
        self.log_path = state_dir / "server.log"
        # Kernels talk to the server over Unix sockets here, not TCP. With TCP,
        # jupyter_client picks five free ports and lets go of them; the kernel binds them
        # a second later, and under CI's load another process (an HTTP client's outgoing
        # port, another test's kernel) can take one in between: the kernel dies, the server
        # restarts it, and JupyterLab shows a "kernel restarting" dialog in the middle of a
        # test. Sockets live in a short folder of their own (a Unix socket path must stay
        # under 108 bytes). What the tests check, the lesson in the page, is the same.
        self.kernel_transport = kernel_transport
        self.runtime_dir = tempfile.mkdtemp(prefix="jrt-")

    # -- lifecycle ---------------------------------------------------------------
    def _environment(self) -> dict[str, str]:
        st = self.state_dir
        settings = st / "lab-user-settings"
        if self.user_settings is not None:
            # The settings Binder installs (binder/postBuild copies the same folder).
            shutil.copytree(self.user_settings, settings, dirs_exist_ok=True)
        # No windowing: every cell stays attached to the DOM, so all outputs can be read.
        _write_json(
            settings / "@jupyterlab/notebook-extension/tracker.jupyterlab-settings",
            {"windowingMode": "none"},
        )
        # No news or update checks (they would fetch from the internet).
        _write_json(
            settings / "@jupyterlab/apputils-extension/notification.jupyterlab-settings",
            {"fetchNews": "false", "checkForUpdates": False},
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
        env.update(
            JUPYTER_CONFIG_DIR=str(st / "config"),
            JUPYTER_DATA_DIR=str(st / "data"),
            JUPYTER_RUNTIME_DIR=self.runtime_dir,
            JUPYTER_PLATFORM_DIRS="1",
            JUPYTERLAB_SETTINGS_DIR=str(settings),
            JUPYTERLAB_WORKSPACES_DIR=str(st / "workspaces"),
            IPYTHONDIR=str(st / "ipython"),
            PYTHONUNBUFFERED="1",
        )
        env.update(self.extra_env)
        return env

    def start(self) -> JupyterServer:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--ServerApp.root_dir={self.root_dir}",
            f"--IdentityProvider.token={self.token}",
            "--ServerApp.open_browser=False",
            "--LabApp.expose_app_in_browser=True",
            "--JupyterNotebookApp.expose_app_in_browser=True",
            "--LabApp.news_url=",
            "--LanguageServerManager.autodetect=False",
            f"--KernelManager.transport={self.kernel_transport}",
        ]
        self._log = open(self.log_path, "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            cmd,
            cwd=self.root_dir,
            env=self._environment(),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited ({self.proc.returncode}):\n{self.log()}")
            try:
                with urllib.request.urlopen(self.api_url("api/status"), timeout=5) as resp:
                    if resp.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"jupyter lab did not answer within {self.startup_timeout} s:\n{self.log()}")

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            # The clean way: the server shuts down its kernels, then exits.
            try:
                req = urllib.request.Request(
                    self.api_url("api/shutdown"),
                    method="POST",
                    headers={"Authorization": f"token {self.token}"},
                )
                urllib.request.urlopen(req, timeout=10).close()
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait(timeout=10)
        self._log.close()
        self.proc = None
        shutil.rmtree(self.runtime_dir, ignore_errors=True)

    def __enter__(self) -> JupyterServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- urls --------------------------------------------------------------------
    def api_url(self, path: str) -> str:
        return f"{self.base_url}/{path}?token={self.token}"

    def notebook_url(self, name: str, ui: str, workspace: str) -> str:
        if ui == "lab":
            # A workspace of its own per lesson: no tabs restored from the previous one.
            return f"{self.base_url}/lab/workspaces/{quote(workspace)}/tree/{quote(name)}?token={self.token}"
        if ui == "notebook7":
            return f"{self.base_url}/notebooks/{quote(name)}?token={self.token}"
        raise ValueError(f"unknown ui {ui!r}")

    def log(self, tail: int = 4000) -> str:
        try:
            return self.log_path.read_text()[-tail:]
        except OSError:
            return ""


def is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    host = (parts.hostname or "").strip("[]")
    return host in LOOPBACK_HOSTS


def loopback_guard(context, blocked: list[str]) -> None:
    """Abort (and append to ``blocked``) every request that leaves the machine."""

    def handle(route):
        url = route.request.url
        if is_loopback(url):
            route.continue_()
        else:
            blocked.append(url)
            route.abort("blockedbyclient")

    context.route("**/*", handle)


# ----------------------------------------------------------------- page driving

# All JavaScript runs against the notebook panel the app shows (found by its path).
_JS_PANEL = """
(path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return null;
  const w = app.shell.currentWidget;
  if (!w || !w.context || w.context.path !== path || !w.sessionContext) return null;
  return w;
}
"""

_JS_KERNEL_IDLE = f"""
async (path) => {{
  const w = ({_JS_PANEL})(path);
  if (!w) return false;
  await w.sessionContext.ready;
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle' && k.connectionStatus === 'connected';
}}
"""

_JS_MARK_PANEL = f"""
(args) => {{
  const w = ({_JS_PANEL})(args[0]);
  w.node.setAttribute('data-browser-test', args[1]);
  return true;
}}
"""

_JS_RUN_ALL = """
async () => await window.jupyterapp.commands.execute('notebook:run-all-cells')
"""

_JS_MODEL = f"""
(path) => {{
  const w = ({_JS_PANEL})(path);
  return w ? JSON.stringify(w.content.model.toJSON()) : null;
}}
"""

# Runs code in the panel's kernel without touching the notebook (no cell, no history)
# and returns what it printed.
_JS_KERNEL_PRINT = f"""
async (args) => {{
  const w = ({_JS_PANEL})(args[0]);
  const kernel = w.sessionContext.session.kernel;
  const future = kernel.requestExecute({{code: args[1], silent: false, store_history: false}});
  let out = '';
  future.onIOPub = (msg) => {{
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') out += msg.content.ename + ': ' + msg.content.evalue;
  }};
  await future.done;
  return out;
}}
"""

_JS_SHUTDOWN = f"""
async (path) => {{
  const w = ({_JS_PANEL})(path);
  if (w) {{ await w.sessionContext.shutdown(); }}
  return true;
}}
"""

# A fingerprint of everything a slider can change: figures (img/canvas/large svg) and
# widget text outputs (HTML/Label/Output), in document order.
_JS_SIGNATURE = """
(root) => {
  const figs = [];
  const figSel = ['img', 'canvas', 'svg'].map(t => '.jp-OutputArea-output ' + t).join(', ');
  for (const el of root.querySelectorAll(figSel)) {
    if (el.closest('.widget-slider')) continue;
    if (el.tagName === 'IMG') {
      figs.push('img:' + el.getAttribute('src'));
    } else if (el.tagName === 'CANVAS') {
      try { figs.push('canvas:' + el.toDataURL()); } catch (e) { figs.push('canvas:?'); }
    } else {
      const r = el.getBoundingClientRect();
      if (r.width >= 100 && r.height >= 100) figs.push('svg:' + el.outerHTML);
    }
  }
  const texts = [];
  const textSel = ['.widget-html', '.widget-htmlmath', '.widget-label', '.widget-output',
                   '.jp-OutputArea-output .jp-RenderedHTMLCommon',
                   '.jp-OutputArea-output.jp-RenderedHTMLCommon'].join(', ');
  for (const el of root.querySelectorAll(textSel)) {
    if (el.closest('.widget-slider')) continue;
    texts.push(el.innerText);
  }
  return {figs, texts};
}
"""

_JS_IMAGES_LOADED = """
(root) => Array.from(root.querySelectorAll('img')).every(i => i.complete)
"""


_JS_ACTIVE_ELEMENT = """() => {
  const e = document.activeElement;
  if (!e) return 'nothing';
  const cls = (typeof e.className === 'string' ? e.className : '').trim().split(/\\s+/)
    .slice(0, 3).join('.');
  return e.tagName.toLowerCase() + (cls ? '.' + cls : '') + (document.hasFocus() ? '' : ' (page unfocused)');
}"""

_JS_OPEN_DIALOGS = """() => Array.from(document.querySelectorAll('.jp-Dialog')).map(
  (d) => (d.innerText || '').replace(/\\s+/g, ' ').trim().slice(0, 300))"""


@dataclass
class SliderProbe:
    cell: int
    label: str
    value_before: str
    value_after: str
    output_changed: bool  # any figure or widget text changed
    figure_changed: bool  # an image/canvas/svg in the notebook was replaced or redrawn
    figures_in_cell: int  # figures in the slider's own cell (screenshotted)
    pixels_changed: bool  # a screenshot of one of those figures differs
    # Where the keys went when the value did not move (the element that had the focus
    # after the presses, and any dialog open then): a failure must say what blocked it.
    focus_after: str = ""
    dialogs: tuple[str, ...] = ()
    # Moved only on a second try (a click on the handle first): what the first try met.
    second_try: str = ""


@dataclass
class LessonReport:
    name: str
    ui: str
    open_s: float = float("nan")
    run_s: float = float("nan")
    sliders_s: float = 0.0
    n_sliders: int = 0
    slider_cells: list[int] = field(default_factory=list)
    probes: list[SliderProbe] = field(default_factory=list)
    cell_errors: list[str] = field(default_factory=list)
    unexecuted_cells: list[int] = field(default_factory=list)
    widget_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    screenshot: str = ""
    # Figures shown larger than their pixel size look blurry: (cell, natural px, shown px).
    upscaled: list[tuple[int, int, int]] = field(default_factory=list)
    # Reopenings where the widget manager's start-up race left a control row unrestored
    # (figures and status lines are ordinary outputs and must show regardless).
    restore_races: list[str] = field(default_factory=list)
    reopenings: int = 0
    # Lines by which moving the sliders and saving changed the stored lesson (save hook).
    explored_changed_lines: int = 0
    explored_diff: list[str] = field(default_factory=list)
    # Save, close and reopen.
    dirty_on_open: bool = False
    saved_changed_lines: int = 0
    saved_diff: list[str] = field(default_factory=list)
    reopen_s: float = 0.0
    # "kernel running" / "kernel shut down" -> problems seen after reopening.
    reopen_problems: dict[str, list[str]] = field(default_factory=dict)
    hidden_inputs: int = 0
    # Narrowest slider track on the page, in CSS pixels (0: no slider).
    min_track_px: float = 0.0
    # The kernel's BLAS kernels and SIMD paths, as it reported them (see tests/other_cpu.py).
    kernel_cpu: str = ""
    # A slider moved after the kernel connection dropped and came back (deep cycle only).
    reconnect_probe: SliderProbe | None = None
    reconnect_lost: int | None = None  # the cell whose controls a reconnect took away
    # Screen readers in JupyterLab (issue 43, the course-settings extension): controls
    # without an accessible name, and figure descriptions (text/plain) no <img> carries.
    unnamed_controls: list[str] = field(default_factory=list)
    undescribed_figures: list[str] = field(default_factory=list)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:12]


class LessonPage:
    """One notebook open in a browser page (JupyterLab 4 or Notebook 7)."""

    def __init__(self, page, server: JupyterServer, name: str, ui: str, report: LessonReport):
        self.page = page
        self.server = server
        self.name = name
        self.ui = ui
        self.report = report
        self.tag = f"{ui}-{Path(name).stem}"
        self.root = f'[data-browser-test="{self.tag}"]'

    # -- open and run ------------------------------------------------------------
    def open(self, timeout_ms: float = 120_000, workspace: str = "") -> None:
        url = self.server.notebook_url(self.name, self.ui, workspace=self.tag + workspace)
        self.page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms)
        self.page.wait_for_function(f"({_JS_PANEL})({json.dumps(self.name)}) !== null", timeout=timeout_ms)
        self.page.evaluate(_JS_MARK_PANEL, [self.name, self.tag])
        self.wait_kernel_idle(timeout_ms)

    def wait_kernel_idle(self, timeout_ms: float) -> None:
        self.page.wait_for_function(_JS_KERNEL_IDLE, arg=self.name, timeout=timeout_ms, polling=200)

    def run_all(self, timeout_ms: float = 300_000) -> bool:
        # Resolves once every cell ran (or the first one failed); returns false on failure.
        with_timeout = f"""
        async () => await Promise.race([
          ({_JS_RUN_ALL})(),
          new Promise((_, rej) => setTimeout(() => rej(new Error('run-all timed out')), {int(timeout_ms)}))
        ])"""
        ok = bool(self.page.evaluate(with_timeout))
        self.wait_kernel_idle(timeout_ms)
        self.settle()
        return ok

    def settle(self, quiet_ms: int = 800, timeout_ms: float = 30_000) -> None:
        """Wait until widgets are rendered: no placeholders, images loaded, DOM quiet."""
        deadline = time.monotonic() + timeout_ms / 1000
        last = None
        stable_since = time.monotonic()
        while time.monotonic() < deadline:
            # textContent and a live element count: unlike innerText, they do not make
            # the page lay out a whole lesson ten times a second.
            state = self.page.evaluate(
                """(sel) => {
                  const root = document.querySelector(sel);
                  if (!root) return null;
                  return [root.getElementsByTagName('*').length,
                          root.textContent.includes('Loading widget'),
                          Array.from(root.getElementsByTagName('img')).every(i => i.complete)];
                }""",
                self.root,
            )
            if state != last:
                last = state
                stable_since = time.monotonic()
            elif state and not state[1] and state[2] and time.monotonic() - stable_since >= quiet_ms / 1000:
                return
            time.sleep(0.1)

    # -- read back -----------------------------------------------------------------
    def notebook_json(self) -> dict:
        return json.loads(self.page.evaluate(_JS_MODEL, self.name))

    def collect_errors(self) -> None:
        """Read the notebook model and the page; replaces the report's error lists."""
        self.report.cell_errors, self.report.unexecuted_cells, self.report.widget_errors = [], [], []
        nb = self.notebook_json()
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            if not "".join(cell["source"]).strip():
                continue
            if cell.get("execution_count") is None:
                self.report.unexecuted_cells.append(i)
            for out in cell.get("outputs", []):
                if out["output_type"] == "error":
                    self.report.cell_errors.append(f"cell {i}: {out['ename']}: {out['evalue']}"[:300])
                elif out["output_type"] == "stream" and out.get("name") == "stderr":
                    text = "".join(out["text"])
                    if "Traceback (most recent call last)" in text:
                        self.report.cell_errors.append(f"cell {i}: traceback on stderr: {text[-300:]}")
        texts = self.page.evaluate(
            """(sel) => Array.from(document.querySelectorAll(sel + ' .jp-OutputArea-output'))
                   .map(e => e.innerText)""",
            self.root,
        )
        for t in texts:
            for bad in WIDGET_ERROR_TEXTS:
                if bad in t:
                    self.report.widget_errors.append(t.strip()[:300])

    # -- sliders -------------------------------------------------------------------
    def slider_cells(self) -> dict[int, int]:
        """Cell index -> number of (enabled) sliders in its output."""
        counts = self.page.evaluate(
            """(sel) => {
              const cells = Array.from(document.querySelectorAll(sel + ' .jp-Cell'));
              const out = {};
              cells.forEach((c, i) => {
                const n = c.querySelectorAll('.jp-OutputArea .widget-slider .noUi-handle').length;
                if (n) out[i] = n;
              });
              return out;
            }""",
            self.root,
        )
        return {int(k): v for k, v in counts.items()}

    def _signature(self):
        return self.page.evaluate(
            "(args) => (" + _JS_SIGNATURE + ")(document.querySelector(args))", self.root
        )

    def _figure_shots(self, cell: int) -> list[str]:
        figures = self.page.locator(f"{self.root} .jp-Cell >> nth={cell}").locator(
            ".jp-OutputArea-output img, .jp-OutputArea-output canvas"
        )
        shots = []
        for k in range(min(figures.count(), 4)):
            fig = figures.nth(k)
            if fig.bounding_box() is None:
                continue
            shots.append(_digest(fig.screenshot(animations="disabled", timeout=15_000)))
        return shots

    @staticmethod
    def _slider_value(handle) -> str:
        return handle.get_attribute("aria-valuetext") or handle.get_attribute("aria-valuenow") or ""

    def _press(self, key: str, times: int) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(60)

    def _value_after(self, handle, before: str, timeout_s: float) -> str:
        """The handle's value once it differs from ``before`` (``before`` at the timeout)."""
        deadline = time.monotonic() + timeout_s
        while True:
            value = self._slider_value(handle)
            if value != before or time.monotonic() >= deadline:
                return value
            self.page.wait_for_timeout(100)

    def probe_slider(
        self, cell: int, k: int, change_timeout_s: float = 20, value_timeout_s: float = 8
    ) -> SliderProbe:
        cell_loc = self.page.locator(f"{self.root} .jp-Cell >> nth={cell}")
        slider = cell_loc.locator(".jp-OutputArea .widget-slider").nth(k)
        handle = slider.locator(".noUi-handle").first
        label = (slider.locator(".widget-label").first.inner_text(timeout=2000) or f"slider {k}").strip()
        handle.scroll_into_view_if_needed()
        before_value = self._slider_value(handle)
        before_sig = self._signature()
        before_shots = self._figure_shots(cell)

        # Towards the middle: right, unless the handle sits at its maximum.
        at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        keys = ("ArrowLeft", "ArrowRight") if at_max else ("ArrowRight", "ArrowLeft")
        after_value = before_value
        for key in keys:
            handle.focus()
            self._press(key, 3)
            # Read the value until it moves. A single read right after the presses can
            # come before a loaded page showed the move, and pressing the other way then
            # takes the slider back where it started: no move at all, though it moved.
            after_value = self._value_after(handle, before_value, timeout_s=value_timeout_s)
            if after_value != before_value:
                break

        focus_after, dialogs, second_try = "", (), ""
        if after_value == before_value:
            focus_after, dialogs = self._why_keys_missed(slider)
            # Once more as a student would: click the handle (a click on the handle
            # itself does not move it) and press again. A slider that is disabled, or
            # behind a dialog, stays where it is; one that moves is reported as such.
            try:
                handle.click(timeout=5000)
                self._press(keys[0], 3)
                after_value = self._value_after(handle, before_value, timeout_s=value_timeout_s)
            except Exception as err:  # e.g. a dialog intercepts the click
                dialogs += (f"(the click failed: {str(err).splitlines()[0][:200]})",)
            if after_value != before_value:
                second_try = f"focus on {focus_after}" + "".join(f"; dialog {d!r}" for d in dialogs)
                focus_after, dialogs = "", ()
        # Wait for the kernel's answer to reach the page.
        deadline = time.monotonic() + change_timeout_s
        after_sig = before_sig
        while time.monotonic() < deadline:
            after_sig = self._signature()
            if after_sig != before_sig:
                break
            time.sleep(0.2)
        self.wait_kernel_idle(60_000)
        self.settle(quiet_ms=500)
        after_sig = self._signature()
        after_shots = self._figure_shots(cell)
        figure_changed = after_sig["figs"] != before_sig["figs"]
        pixels_changed = bool(after_shots) and after_shots != before_shots
        return SliderProbe(
            cell=cell,
            label=label,
            value_before=before_value,
            value_after=after_value,
            output_changed=after_sig != before_sig,
            figure_changed=figure_changed,
            figures_in_cell=len(before_shots),
            pixels_changed=pixels_changed,
            focus_after=focus_after,
            dialogs=dialogs,
            second_try=second_try,
        )

    def _why_keys_missed(self, slider) -> tuple[str, tuple[str, ...]]:
        """Where the focus was, and which dialogs were open, when keys did not move ``slider``."""
        focus = self.page.evaluate(_JS_ACTIVE_ELEMENT)
        if slider.locator(".noUi-target[disabled]").count():
            focus += " (the slider is disabled: a stored, not a live, control)"
        return focus, tuple(self.open_dialogs())

    def open_dialogs(self) -> list[str]:
        """Title and text of every JupyterLab dialog open on the page."""
        return self.page.evaluate(_JS_OPEN_DIALOGS)

    def find_upscaled_figures(self, factor: float = 1.15) -> None:
        """Record figure images displayed more than ``factor`` times their pixel width."""
        found = self.page.evaluate(
            """(sel) => {
              const out = [];
              const cells = Array.from(document.querySelectorAll(sel + ' .jp-Cell'));
              cells.forEach((c, i) => {
                for (const img of c.querySelectorAll('.jp-OutputArea-output img')) {
                  if (img.naturalWidth > 0 && img.clientWidth > 0) {
                    out.push([i, img.naturalWidth, img.clientWidth * window.devicePixelRatio]);
                  }
                }
              });
              return out;
            }""",
            self.root,
        )
        self.report.upscaled = [(i, nat, round(shown)) for i, nat, shown in found if shown > factor * nat]

    def screenshot(self, path: Path, cell: int | None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if cell is not None:
            self.page.locator(f"{self.root} .jp-Cell >> nth={cell}").evaluate(
                "(c) => c.scrollIntoView({block: 'start'})"
            )
            self.page.wait_for_timeout(300)
        self.page.screenshot(path=str(path), animations="disabled")

    def kernel_print(self, code: str) -> str:
        """What ``code`` prints when run in the lesson's kernel, outside the notebook."""
        return self.page.evaluate(_JS_KERNEL_PRINT, [self.name, code])

    def shutdown_kernel(self) -> None:
        self.page.evaluate(_JS_SHUTDOWN, self.name)

    def reconnect_kernel(self) -> str:
        """Drop the page's kernel connection and connect again, as after a network drop.

        The same connection object reconnects (JupyterLab's ``reconnect``), so its client
        session id is kept; the widget manager then asks the kernel for the widgets'
        states again. Returns the connection status afterwards (``connected``).
        """
        return self.page.evaluate(
            f"""async (p) => {{
              const kernel = ({_JS_PANEL})(p).sessionContext.session.kernel;
              await kernel.reconnect();
              return kernel.connectionStatus;
            }}""",
            self.name,
        )

    # -- save, close, reopen -------------------------------------------------------------
    def is_dirty(self) -> bool:
        return bool(self.page.evaluate(f"(p) => ({_JS_PANEL})(p).context.model.dirty", self.name))

    def save(self) -> None:
        """Save as the user (or the two-minute autosave) would."""
        self.page.evaluate(f"async (p) => await ({_JS_PANEL})(p).context.save()", self.name)

    def close(self) -> None:
        """Leave the page: the notebook view goes away, its kernel keeps running."""
        self.page.goto("about:blank")

    def close_tab(self, timeout_ms: float = 60_000) -> None:
        """Close the notebook's tab in JupyterLab (the page and the app stay)."""
        self.page.evaluate(f"async (p) => {{ await ({_JS_PANEL})(p).close(); return true; }}", self.name)
        self.page.wait_for_function(f"({_JS_PANEL})({json.dumps(self.name)}) === null", timeout=timeout_ms)

    def open_in_app(self, timeout_ms: float = 120_000) -> None:
        """Open the notebook again from the running JupyterLab, as the file browser does."""
        self.page.evaluate(
            "async (p) => { await window.jupyterapp.commands.execute("
            "'docmanager:open', {path: p, factory: 'Notebook'}); return true; }",
            self.name,
        )
        self.page.wait_for_function(f"({_JS_PANEL})({json.dumps(self.name)}) !== null", timeout=timeout_ms)
        self.page.evaluate(_JS_MARK_PANEL, [self.name, self.tag])
        self.wait_kernel_idle(timeout_ms)

    def widget_cells(self) -> list[dict]:
        """Per code cell with a control row: what its outputs should show and what they show.

        ``figures``/``statuses``: image/png and text/html outputs in the notebook model;
        ``srcs``: the ``src`` of every figure image shown (loaded, visible); ``statuses_shown``:
        non-empty HTML outputs outside widgets; ``controls``: widget views that rendered
        controls; ``values``: what those controls show (slider values, menu choices,
        check boxes, toggles), in page order; ``errors``: widget error texts in the cell.
        """
        return self.page.evaluate(
            f"""(p) => {{
              const w = ({_JS_PANEL})(p);
              const out = [];
              w.content.widgets.forEach((cell, i) => {{
                if (cell.model.type !== 'code') return;
                const outputs = cell.model.sharedModel.toJSON().outputs || [];
                const isWidget = outputs.some(
                  o => o.data && o.data['application/vnd.jupyter.widget-view+json']);
                if (!isWidget) return;
                // A self-check question's row is not a slider figure (no figure, no status
                // line): tests/lessons/test_browser_questions.py drives those.
                if (outputs.some(o => o.data && o.data['application/vnd.perclib.question+json'])) return;
                const plain = (o) => o.data && !o.data['application/vnd.jupyter.widget-view+json'];
                const shown = Array.from(cell.node.querySelectorAll('.jp-OutputArea-output img'))
                  .filter(im => !im.closest('.jupyter-widgets'))
                  .filter(im => im.complete && im.naturalWidth > 0 && im.getBoundingClientRect().width > 0);
                const statuses = Array.from(
                    cell.node.querySelectorAll('.jp-OutputArea-output.jp-RenderedHTMLCommon, '
                                               + '.jp-OutputArea-output .jp-RenderedHTMLCommon'))
                  .filter(e => !e.closest('.jupyter-widgets') && e.innerText.trim().length > 0);
                const controls = Array.from(
                    cell.node.querySelectorAll('.jp-OutputArea-output .jupyter-widgets'))
                  .filter(e => e.querySelector('input, select, .noUi-handle, button'));
                const text = Array.from(cell.node.querySelectorAll('.jp-OutputArea-output'))
                  .map(e => e.innerText).join('\\n');
                // What the course style shows on a row without a kernel: the sentence
                // (::before of the row or of a failed view) and no red "disconnected" icon.
                const before = (e) => getComputedStyle(e, '::before').content;
                const rows = Array.from(cell.node.querySelectorAll('.jp-OutputArea-output, '
                                                               + '.jp-OutputArea-output *'));
                const notes = rows.map(before).filter(c => c.includes('Shift+Enter'));
                const icons = rows.filter(e => e.classList.contains('jupyter-widgets-disconnected'))
                  .filter(e => !['none', 'normal'].includes(before(e)) && !before(e).includes('Shift+Enter'));
                const offline = rows.some(e => e.classList.contains('jupyter-widgets-disconnected'));
                // A row without a kernel must not invite a drag: its controls are disabled
                // (the lesson stores them so, coursetools.run), nothing follows them.
                const dead = Array.from(cell.node.querySelectorAll('.perclib-controls'))
                  .filter(row => row.closest('.jupyter-widgets-disconnected'));
                const movable = dead.flatMap(row => Array.from(row.querySelectorAll(
                    '.noUi-handle, select, input, button'))
                  .filter(e => e.matches('.noUi-handle') ? !e.closest('[disabled]') : !e.disabled));
                // What the live controls show: slider handles, menus, check boxes, toggles.
                const live = Array.from(cell.node.querySelectorAll('.perclib-controls'))
                  .filter(row => !row.closest('.jupyter-widgets-disconnected'));
                const values = live.flatMap(row => Array.from(row.querySelectorAll(
                    '.noUi-handle, select, input[type=checkbox], .widget-toggle-button'))
                  .map(e => e.matches('.noUi-handle')
                    ? (e.getAttribute('aria-valuetext') || e.getAttribute('aria-valuenow'))
                    : e.matches('select') ? (e.selectedOptions[0] || {{}}).textContent
                    : e.matches('input') ? String(e.checked)
                    : String(e.classList.contains('mod-active'))));
                out.push({{cell: i,
                           figures: outputs.filter(o => plain(o) && o.data['image/png']).length,
                           statuses: outputs.filter(o => plain(o) && o.data['text/html']).length,
                           srcs: shown.map(im => im.getAttribute('src')),
                           statuses_shown: statuses.length,
                           controls: controls.length, values: values,
                           notes: notes.length, icons: icons.length, offline: offline,
                           movable_offline: movable.length,
                           errors: {json.dumps(list(WIDGET_ERROR_TEXTS))}.filter(t => text.includes(t))}});
              }});
              return out;
            }}""",
            self.name,
        )

    def hidden_input_cells(self) -> list[dict]:
        """Cells tagged ``hide-input``: index and whether their code is collapsed on screen."""
        return self.page.evaluate(
            f"""(p) => {{
              const w = ({_JS_PANEL})(p);
              const out = [];
              w.content.widgets.forEach((cell, i) => {{
                const tags = cell.model.getMetadata('tags') || [];
                if (!tags.includes('hide-input')) return;
                const editor = cell.node.querySelector('.jp-InputArea-editor');
                const shown = !!editor && editor.getBoundingClientRect().height > 0;
                out.push({{cell: i, collapsed: cell.inputHidden && !shown}});
              }});
              return out;
            }}""",
            self.name,
        )

    def slider_track_widths(self) -> list[float]:
        """Width in CSS pixels of every horizontal slider track in the notebook."""
        return self.page.evaluate(
            """(sel) => Array.from(document.querySelectorAll(
                   sel + ' .widget-hslider .noUi-target, ' + sel + ' .widget-slider .noUi-horizontal'))
                 .map(e => e.getBoundingClientRect().width).filter(w => w > 0)""",
            self.root,
        )
