"""Frames of the lessons' slider figures, rendered at build time for the website's player.

Every slider figure of the lessons is a :class:`perclib.widgets.base.SliderFigure`: a
pure function of its control values. For each lesson with slider cells this module runs
the lesson's code cells in a fresh kernel (as ``coursetools.run`` does: solutions in
place) and, right after each slider cell, moves that cell's figure through a grid of
control values (:data:`GRIDS`) by setting ``control.value``, exactly what a slider move
does. Each frame is the PNG the widget itself sends to the notebook for those values
(:func:`frame_png`: ``image.value``, the fast PNG of its redraw), and at the lesson's
values the PNG the lesson stores (``_recompressed``, compressed harder), saved under the
SHA-256 of its bytes (identical frames are one file), with its status line and alt text
(``describe()``). (Recompressing every frame the way the lesson stores its one figure
made files 12 % smaller and took three times as long as the drawing.)

The first frame of every player must be the lesson's stored figure, byte for byte: the
frame at the lesson's control values is compared with the PNG stored in the notebook,
and a difference stops the build (the lesson is stale: re-store it with
``coursetools.run``).

Results are cached in ``.cache/site-frames/`` (git-ignored) under a key made of the
perclib sources, this module, the lesson's cells up to the slider cell, the grid and the
versions of the drawing packages: a rebuild with nothing changed starts no kernel.

Grid specs (:data:`GRIDS`), per control name:

* ``"all"``: every position of the notebook's control (every slider step, every option);
* an int ``n``: ``n`` evenly spaced positions, ends included, on the slider's own steps,
  plus the lesson's value;
* a list: exactly these values (plus the lesson's value);
* a control left out is held at the lesson's value (the player says so).

Examples
--------
>>> grid_values({"kind": "range", "min": 0, "max": 10, "step": 1, "value": 3}, 3)
[0, 3, 5, 10]
>>> grid_values({"kind": "range", "min": 0.0, "max": 1.0, "step": 0.25, "value": 0.5}, "all")
[0.0, 0.25, 0.5, 0.75, 1.0]
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import inspect
import itertools
import json
import math
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from coursetools.shared.common import CourseToolsError, repo_root

CACHE_DIR = ".cache/site-frames"
#: Lessons rendered at once (each in its own kernel): the course's machines have 2 cores.
WORKERS = 2
#: Packages whose versions change the pixels (or the PNG bytes) of a frame.
DRAWING_PACKAGES = ("numpy", "scipy", "matplotlib", "pillow", "ipywidgets", "contourpy")

#: Which controls of each slider figure vary on the site, keyed "lesson stem:builder".
#: Others stay at the lesson's values. Sizes are chosen against the budgets of
#: issue 29 (site <= 150 MB, clean build <= 5 min on 2 cores).
GRIDS: dict[str, dict[str, Any]] = {
    # Lesson 1: the line turns with w's angle and shifts with theta; |w| held at 1.
    "01_threshold_units:build_threshold_demo": {"angle": 19, "theta": 7},
    "01_threshold_units:build_bias_trick_demo": {"angle": 19, "theta": 5},
    # Lesson 2: every Boolean function, the line turning; theta held.
    "02_xor:build_boolean_separator": {"function": "all", "angle": 13},
    # Lesson 3: D moves on a 0.5 grid (collinear positions included); C held.
    "03_general_position:build_point_mover": {"D x": 9, "D y": 9},
    # Lesson 4: every labelling of the lesson's 5 points, with and without a threshold.
    "04_cover_counting:build_dichotomy_explorer": {"labelling": "all", "threshold": "all"},
    "04_cover_counting:build_capacity_curve": {"N": [5, 10, 25, 50, 100], "P": 21},
    # Lesson 5: every update of the run; every teacher margin.
    "05_convergence:build_training_stepper": {"k": "all"},
    "05_convergence:build_margin_explorer": {"margin": "all"},
    # Lesson 6: gamma and the separator's angle; every rule at roughly log-spaced updates.
    "06_margins:build_margin_family": {
        # gamma's slider steps by 0.0025 up to 0.569 (1.15 gamma_max): every 28th step
        "gamma": [0.0, 0.07, 0.14, 0.21, 0.28, 0.35, 0.42, 0.49, 0.56],
        "angle": 13,
    },
    "06_margins:build_margin_training": {
        "algorithm": "all",
        "step": [0, 1, 2, 3, 5, 7, 10, 14, 30, 40, 60, 80, 100, 140, 200, 300, 400],
    },
    # Lesson 7: every noise level.
    "07_nonseparable:build_noise_comparison": {"noise": "all"},
    # Lesson 8: every data set, degree and width.
    "08_kernels:build_kernel_boundary": {"data": "all", "degree": "all", "width": 7},
    # Lesson 9: every kappa step; alpha at every third step (5 per doubling).
    "09_statistical_mechanics:build_capacity_explorer": {"kappa": "all"},
    "09_statistical_mechanics:build_learning_explorer": {"alpha": 39},  # 0.25 * 2**(k/5)
}


# ------------------------------------------------------------------ grids
def _snap(value: float, lo: float, step: float) -> float:
    # What a browser slider sends: lo + k*step, printed with the step's decimals.
    k = round((value - lo) / step)
    decimals = max(0, -math.floor(math.log10(step)) + 2) if step < 1 else 0
    return round(lo + k * step, decimals + 6)


def grid_values(control: dict[str, Any], spec: Any) -> list[Any]:
    """The values a control takes on the site, in order, always with the lesson's value.

    ``control`` is the description made in the kernel (:func:`_control_info`).
    """
    current = control["value"]
    if control["kind"] in ("select", "toggle"):
        options = control["values"]
        if spec == "all":
            return list(options)
        chosen = list(spec) if isinstance(spec, list | tuple) else options
        return [v for v in options if v in chosen or v == current]
    if control["kind"] == "log":
        lo, hi, step, base = control["min"], control["max"], control["step"], control["base"]
        # A slider's positions: lo + k*step up to hi (hi itself need not be on a step).
        n_all = math.floor((hi - lo) / step + 1e-9) + 1
        exps = [lo + k * step for k in range(n_all)]
        if isinstance(spec, int) and spec < n_all:
            picks = {round(k * (n_all - 1) / (spec - 1)) for k in range(spec)}
            exps = [exps[k] for k in sorted(picks)]
        values = list(spec) if isinstance(spec, list | tuple) else [base**e for e in exps]
        values = [v for v in values if not math.isclose(v, current, rel_tol=1e-9)]
        return sorted([*values, current])
    lo, hi, step = control["min"], control["max"], control["step"]
    is_int = control["kind"] == "int"
    if isinstance(spec, list | tuple):
        values = list(spec)
    else:
        n_all = math.floor((hi - lo) / step + 1e-9) + 1
        n = n_all if spec == "all" else min(int(spec), n_all)
        positions = sorted({round(k * (n_all - 1) / (n - 1)) for k in range(n)}) if n > 1 else [0]
        values = [lo + k * step if is_int else min(_snap(lo + k * step, lo, step), hi) for k in positions]
    # The lesson's own value replaces its nearest neighbour's twin (the first frame).
    values = [v for v in values if not math.isclose(v, current, rel_tol=1e-9, abs_tol=1e-12)]
    values.append(current)
    return sorted(values)


# ------------------------------------------------------------------ in the kernel
def _control_info(control: Any) -> dict[str, Any]:
    import ipywidgets as widgets

    info: dict[str, Any] = {"label": (control.description or "").strip(), "value": control.value}
    if isinstance(control, widgets.Checkbox | widgets.ToggleButton):
        info.update(kind="toggle", values=[False, True], labels=["off", "on"])
    elif isinstance(control, widgets.FloatLogSlider):
        info.update(kind="log", min=control.min, max=control.max, step=control.step, base=control.base,
                    format=control.readout_format)
    elif hasattr(control, "options"):  # Dropdown, SelectionSlider, RadioButtons, ...
        labels = list(control._options_labels)
        values = list(control._options_values)
        info.update(kind="select", values=values, labels=labels)
    elif isinstance(control, widgets.IntSlider | widgets.BoundedIntText):
        info.update(kind="int", min=control.min, max=control.max, step=control.step or 1,
                    format=getattr(control, "readout_format", "d"))
    elif isinstance(control, widgets.FloatSlider | widgets.BoundedFloatText):
        info.update(kind="float", min=control.min, max=control.max, step=control.step,
                    format=getattr(control, "readout_format", ".2f"))
    else:
        raise TypeError(f"the player cannot show a {type(control).__name__} control")
    return info


def _label(info: dict[str, Any], value: Any) -> str:
    if info["kind"] in ("select", "toggle"):
        return str(info["labels"][info["values"].index(value)])
    fmt = info.get("format") or ""
    try:
        return format(value, fmt) if fmt else str(value)
    except ValueError:
        return str(value)


#: Marks the progress lines a kernel writes to stderr while it renders (read by the build).
PROGRESS_MARK = "\x1ecourse-frames"


def render_in_kernel(figure: Any, spec: dict[str, Any], frames_dir: str, progress: bool = False) -> str:
    """Render ``figure`` (a SliderFigure) on the grid ``spec``; return the manifest as JSON.

    Runs inside the lesson's kernel, right after the slider cell. Writes every frame to
    ``frames_dir/<sha256>.png``; the manifest lists the varying controls (with their
    values and labels), the held ones, and for every grid point, in row-major order,
    its frame, status line (HTML) and alt text. With ``progress``, writes the number of
    frames and then one line per frame to stderr (:data:`PROGRESS_MARK`).
    """
    import zlib

    import PIL

    from perclib.widgets.base import SliderFigure, _recompressed

    if not isinstance(figure, SliderFigure):
        raise TypeError(f"the slider cell's value is a {type(figure).__name__}, not a SliderFigure")
    unknown = set(spec) - set(figure.controls)
    if unknown:
        raise KeyError(f"grid names controls the figure does not have: {sorted(unknown)}")
    first = {"png": figure.image.value, "status": figure.status.value, "alt": figure.describe()}
    start_values = dict(figure.values)
    infos = {name: _control_info(c) for name, c in figure.controls.items()}
    varying = [name for name in figure.controls if name in spec]
    axes = [grid_values(infos[name], spec[name]) for name in varying]
    out = Path(frames_dir)
    out.mkdir(parents=True, exist_ok=True)
    frames: list[list[Any]] = []
    pixels: dict[bytes, str] = {}

    index = out / ".index"
    index.mkdir(exist_ok=True)
    tools = f"{PIL.__version__}-{zlib.ZLIB_RUNTIME_VERSION}"

    def save(png: bytes, at_start: bool) -> tuple[str, int, int]:
        if not at_start:
            sha = hashlib.sha256(png).hexdigest()[:32]
            target = out / f"{sha}.png"
            if not target.exists():
                _write_atomic(target, png)
            return sha, *figure._canvas.get_width_height()
        # The stored form: one recompression (the slow part), also across builds: the
        # fast PNG's bytes (same Pillow and zlib) name the stored one.
        digest = hashlib.sha1(png).hexdigest()
        if digest not in pixels:
            known = index / f"{digest}-{tools}"
            sha = known.read_text() if known.is_file() else ""
            if not sha or not (out / f"{sha}.png").is_file():
                stored = _recompressed(png)
                sha = hashlib.sha256(stored).hexdigest()[:32]
                target = out / f"{sha}.png"
                if not target.exists():
                    _write_atomic(target, stored)
                _write_atomic(known, sha.encode())
            pixels[digest] = sha
        return pixels[digest], *figure._canvas.get_width_height()

    if progress:
        sys.stderr.write(f"{PROGRESS_MARK} total {math.prod(len(a) for a in axes)}\n")
    for point in itertools.product(*axes):
        if progress:
            sys.stderr.write(f"{PROGRESS_MARK} frame\n")
        for name, value in zip(varying, point, strict=True):
            control = figure.controls[name]
            if control.value != value:
                control.value = value
            if control.value != value:  # clamped: another control changed this one's range
                raise ValueError(f"{name} = {value!r} not reachable on this grid (got {control.value!r})")
        at_start = figure.values == start_values
        png = figure.image.value if at_start else frame_png(figure, first["png"])
        sha, width, height = save(png, at_start)
        frames.append([sha, figure.status.value, figure.describe()])
    for name, value in start_values.items():  # leave the figure as the lesson left it
        if figure.controls[name].value != value:
            figure.controls[name].value = value
    manifest = {
        "controls": [
            {"name": name, "label": infos[name]["label"] or name, "kind": infos[name]["kind"],
             "values": values, "labels": [_label(infos[name], v) for v in values],
             "start": values.index(start_values[name]), "positions": _positions(infos[name])}
            for name, values in zip(varying, axes, strict=True)
        ],
        "held": [{"name": name, "label": infos[name]["label"] or name,
                  "value": _label(infos[name], start_values[name])}
                 for name in figure.controls if name not in spec],
        "frames": frames,
        "width": width,
        "height": height,
        "first": {"png": base64.b64encode(first["png"]).decode("ascii"), "status": first["status"],
                  "alt": first["alt"]},
    }
    return json.dumps(manifest, default=_json_default)


def _write_atomic(target: Path, data: bytes) -> None:
    # Two builds may share the cache: a reader never sees half a file.
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, target)


def frame_png(figure: Any, stored: bytes) -> bytes:
    """The PNG a player shows for ``figure``'s current values (away from the lesson's).

    ``image.value``: the fast PNG the widget's redraw made for these pixels, which is
    what the notebook receives after a slider move. The one exception: when the pixels
    did not change since the lesson displayed the figure, ``image.value`` still holds
    the stored form (``stored``), and the fast PNG is drawn, so that a frame's bytes
    never depend on the path of moves that led to it.
    """
    png = figure.image.value
    return figure.png() if png == stored else png


def render_points_in_kernel(figure: Any, points: list[dict[str, Any]]) -> str:
    """The frame PNGs (base64) of ``figure`` at each point, as JSON (for the tests).

    Made as :func:`render_in_kernel` makes them: the stored form at the lesson's values,
    :func:`frame_png` elsewhere.
    """
    from perclib.widgets.base import _recompressed

    start, stored = dict(figure.values), figure.image.value
    pngs = []
    for point in points:
        for name, value in point.items():
            figure.controls[name].value = value
        png = _recompressed(figure.image.value) if figure.values == start else frame_png(figure, stored)
        pngs.append(base64.b64encode(png).decode("ascii"))
    return json.dumps(pngs)


def _positions(info: dict[str, Any]) -> int:
    """How many positions the notebook's control has."""
    if info["kind"] in ("select", "toggle"):
        return len(info["values"])
    return math.floor((info["max"] - info["min"]) / info["step"] + 1e-9) + 1


def _json_default(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if isinstance(value, tuple):
        return list(value)
    return str(value)


# ------------------------------------------------------------------ on the host
@dataclass
class Player:
    """One slider cell's player: its grid spec, manifest and where its frames are."""

    stem: str
    cell: int
    key: str  # "stem:builder"
    manifest: dict[str, Any]
    cached: bool


def widget_key(stem: str, source: str) -> str:
    """The :data:`GRIDS` key of a slider cell: ``"stem:builder"``.

    >>> widget_key("05_convergence", "build_training_stepper(X, y, start=9)")
    '05_convergence:build_training_stepper'
    """
    found = re.findall(r"\b(build_\w+)\s*\(", source)
    if len(found) != 1:
        raise CourseToolsError(f"{stem}: a slider cell must call one build_* function:\n{source}")
    return f"{stem}:{found[0]}"


def _is_widget(cell: Any) -> bool:
    return cell.cell_type == "code" and "widget" in cell.metadata.get("tags", [])


def _stored_png(cell: Any) -> bytes:
    for out in cell.get("outputs", []):
        if "image/png" in out.get("data", {}):
            return base64.b64decode(out["data"]["image/png"])
    raise CourseToolsError("a slider cell without a stored figure")


def _code_fingerprint() -> str:
    root = repo_root()
    digest = hashlib.sha256()
    for path in sorted((root / "perclib").rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    # This module's part that makes frames (not the markup, which does not change them).
    for function in (_snap, grid_values, _control_info, _label, render_in_kernel, frame_png, _positions):
        digest.update(inspect.getsource(function).encode())
    for name in DRAWING_PACKAGES:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=none".encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def _cache_key(code: str, cells: Sequence[str], spec: dict[str, Any]) -> str:
    digest = hashlib.sha256(code.encode())
    for source in cells:
        digest.update(b"\0cell\0" + source.encode())
    digest.update(json.dumps(spec, sort_keys=True).encode())
    return digest.hexdigest()[:40]


class _Kernel:
    """A fresh kernel in the notebooks' folder that runs code and returns its stdout."""

    def __init__(self, cwd: Path):
        from coursetools.shared.kernels import start_kernel

        env = {**os.environ, "PYDEVD_DISABLE_FILE_VALIDATION": "1"}
        self.manager, self.client = start_kernel("python3", cwd=str(cwd), env=env)

    def run(self, code: str, what: str, timeout: float = 600,
            on_stderr: Callable[[str], None] | None = None) -> tuple[str, int]:
        """Run ``code``; return its stdout and its execution count (stderr to ``on_stderr``)."""
        chunks: list[str] = []
        errors: list[str] = []

        def hook(msg: dict[str, Any]) -> None:
            kind, content = msg["header"]["msg_type"], msg["content"]
            if kind == "stream" and content.get("name") == "stdout":
                chunks.append(content["text"])
            elif kind == "stream" and content.get("name") == "stderr" and on_stderr is not None:
                on_stderr(content["text"])
            elif kind == "error":
                errors.append("\n".join(content.get("traceback", [])))

        reply = self.client.execute_interactive(code, timeout=timeout, output_hook=hook, store_history=True)
        if reply["content"]["status"] != "ok" or errors:
            text = re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(errors))
            raise CourseToolsError(f"{what} failed in the kernel:\n{text[-3000:]}")
        return "".join(chunks), reply["content"].get("execution_count", 0)

    def close(self) -> None:
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def render_points(path: Path, points: dict[int, list[dict[str, Any]]]) -> dict[int, list[bytes]]:
    """Render a lesson's slider cells afresh (a new kernel, no cache) at the given points.

    ``points`` maps a slider cell's index to control values; returns, for each, the PNG
    bytes the lesson would store for those values. The tests compare the site's frames
    with these.
    """
    out: dict[int, list[bytes]] = {}
    _render_lesson(path, [(index, "", {}, "") for index in points], Path("."), [], points=points, found=out)
    return out


def _render_lesson(path: Path, todo: list[tuple[int, str, dict[str, Any], str]],
                   cache: Path, log: list[str], *, points: dict[int, list[dict[str, Any]]] | None = None,
                   found: dict[int, list[bytes]] | None = None,
                   tracker: _Progress | None = None) -> dict[int, dict[str, Any]]:
    """Run one lesson in a kernel and render the slider cells in ``todo``."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    last = max(index for index, *_ in todo)
    wanted = {index: (key, spec, cache_key) for index, key, spec, cache_key in todo}
    start = time.perf_counter()
    kernel = _Kernel(path.parent)
    results: dict[int, dict[str, Any]] = {}
    try:
        for index, cell in enumerate(nb.cells[: last + 1]):
            if cell.cell_type != "code":
                continue
            _, count = kernel.run(cell.source, f"{path.name} cell {index}")
            if index not in wanted:
                continue
            key, spec, cache_key = wanted[index]
            if points is not None and found is not None:
                code = (
                    "import json as __j\n"
                    "from coursetools.shared.players.frames import render_points_in_kernel as __p\n"
                    f"print(__p(Out.get({count}), __j.loads({json.dumps(json.dumps(points[index]))})))"
                )
                pngs = json.loads(kernel.run(code, f"{path.name} cell {index}: fresh frames")[0])
                found[index] = [base64.b64decode(p) for p in pngs]
                continue
            # The cell's value (a lesson may use "_" as a name: take it from Out).
            code = (
                "import json as __j\nfrom coursetools.shared.players.frames import render_in_kernel as __r\n"
                f"print(__r(Out.get({count}), __j.loads({json.dumps(json.dumps(spec))}), "
                f"{str(cache / 'frames')!r}, {tracker is not None}))"
            )
            heard = tracker.listener(key) if tracker is not None else None
            manifest = json.loads(kernel.run(code, f"rendering {key}", on_stderr=heard)[0])
            _write_atomic(cache / f"{cache_key}.json", json.dumps(manifest).encode())
            results[index] = manifest
    finally:
        kernel.close()
        if tracker is not None:
            tracker.lesson_done()
    log.append(f"  {path.stem}: {len(todo)} figure(s) rendered in {time.perf_counter() - start:.1f} s")
    return results


def check_first_frame(player: Player, stored: bytes, frames_dir: Path, log: list[str]) -> None:
    """Check that the player's first frame is the lesson's stored figure, byte for byte.

    The frame rendered at the lesson's values (after the whole grid was swept) must be
    the stored PNG; anything else means the lesson is stale or a frame depends on the
    moves before it, and the build stops.
    """
    m = player.manifest
    first = _first_index(m)
    frame = (frames_dir / f"{m['frames'][first][0]}.png").read_bytes()
    if frame == stored:
        return
    raw = base64.b64decode(m["first"]["png"])
    why = ("the lesson's cell draws it differently now" if raw != stored
           else "moving the sliders and back changes the picture")
    raise CourseToolsError(
        f"{player.key} (cell {player.cell}): the frame at the lesson's values is not the stored "
        f"figure ({why}); if the lesson is stale, re-store it with python -m coursetools.run"
    )


def _first_index(manifest: dict[str, Any]) -> int:
    index = 0
    for control in manifest["controls"]:
        index = index * len(control["values"]) + control["start"]
    return index


class _Progress:
    """The frames bar: frames drawn of (estimated, then exact) frames to draw, lessons done.

    Each figure's grid is known exactly only in its kernel (the control ranges live in
    the widgets), so the total starts from what each figure gave in an earlier build
    (``frame-counts.json`` in the cache) or else :func:`estimate_frames`, and each figure
    corrects it as it starts.
    """

    def __init__(self, estimates: dict[str, int], lessons: int, enabled: bool):
        import threading

        from coursetools.shared.common import progress

        self.estimates = dict(estimates)
        self.lessons, self.finished = lessons, 0
        self.lock = threading.Lock()
        self.bar = progress(total=sum(estimates.values()), desc="site frames", unit="frame",
                            enabled=enabled)
        self.bar.set_postfix_str(f"lessons 0/{lessons}", refresh=False)

    def listener(self, key: str) -> Callable[[str], None]:
        def heard(text: str) -> None:
            frames = 0
            for line in text.split("\n"):  # not splitlines(): the mark is a separator to it
                if not line.startswith(PROGRESS_MARK):
                    continue
                word, *rest = line[len(PROGRESS_MARK):].split()
                if word == "total":
                    with self.lock:
                        self.bar.total += int(rest[0]) - self.estimates.pop(key, 0)
                        self.bar.refresh()
                elif word == "frame":
                    frames += 1
            if frames:
                with self.lock:
                    self.bar.update(frames)
        return heard

    def lesson_done(self) -> None:
        with self.lock:
            self.finished += 1
            self.bar.set_postfix_str(f"lessons {self.finished}/{self.lessons}")

    def close(self) -> None:
        self.bar.close()


def estimate_frames(spec: dict[str, Any]) -> int:
    """Frames a grid spec will give, before the kernel knows the controls' ranges.

    An int or a list is exact up to the lesson's own value; "all" is a guess (12).

    >>> estimate_frames({"angle": 19, "theta": 7}), estimate_frames({"k": "all"})
    (160, 12)
    """
    def one(s: Any) -> int:
        if s == "all":
            return 12
        return (len(s) if isinstance(s, list | tuple) else int(s)) + 1

    return math.prod(one(s) for s in spec.values())


def render_players(notebooks: Sequence[Path], *, cache_dir: Path | None = None,
                   workers: int = WORKERS, log: list[str] | None = None,
                   show_progress: bool = False) -> dict[str, list[Player]]:
    """Every slider cell's player, by lesson stem; frames rendered or taken from the cache.

    Frames are in ``cache_dir / "frames"``; ``show_progress`` draws a bar on stderr
    while frames are rendered. Raises :class:`CourseToolsError` if a slider
    cell has no grid, the kernel fails, or a first frame is not the stored figure.
    """

    cache = (cache_dir or repo_root() / CACHE_DIR).resolve()
    (cache / "frames").mkdir(parents=True, exist_ok=True)
    log = [] if log is None else log
    with _locked(cache):  # a second build waits, then finds the first one's frames
        return _render_players(notebooks, cache, workers, log, show_progress)


def _render_players(notebooks: Sequence[Path], cache: Path, workers: int,
                    log: list[str], show_progress: bool = False) -> dict[str, list[Player]]:
    import nbformat

    code = _code_fingerprint()
    players: dict[str, list[Player]] = {}
    jobs: dict[Path, list[tuple[int, str, dict[str, Any], str]]] = {}
    stored: dict[tuple[str, int], bytes] = {}
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        sources: list[str] = []
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                sources.append(cell.source)
            if not _is_widget(cell):
                continue
            key = widget_key(path.stem, cell.source)
            if key not in GRIDS:
                raise CourseToolsError(f"no frame grid for the slider cell {key}: add it to GRIDS")
            spec = GRIDS[key]
            cache_key = _cache_key(code, sources, spec)
            stored[(path.stem, index)] = _stored_png(cell)
            entry = cache / f"{cache_key}.json"
            manifest = None
            if entry.is_file():
                manifest = json.loads(entry.read_text(encoding="utf-8"))
                if not all((cache / "frames" / f"{f[0]}.png").is_file() for f in manifest["frames"]):
                    manifest = None
            player = Player(path.stem, index, key, manifest or {}, bool(manifest))
            players.setdefault(path.stem, []).append(player)
            if manifest is None:
                jobs.setdefault(path, []).append((index, key, spec, cache_key))
    if jobs:
        # What each figure gave last time (any earlier build): the bar's first total.
        counts_file = cache / "frame-counts.json"
        try:
            known = json.loads(counts_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            known = {}
        estimates = {key: int(known.get(key) or estimate_frames(spec))
                     for todo in jobs.values() for _, key, spec, _ in todo}
        tracker = _Progress(estimates, len(jobs), show_progress)
        try:
            with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
                futures = {path: pool.submit(_render_lesson, path, todo, cache, log, tracker=tracker)
                           for path, todo in jobs.items()}
                done = {path: f.result() for path, f in futures.items()}
        finally:
            tracker.close()
        for path, results in done.items():
            for player in players[path.stem]:
                if player.cell in results:
                    player.manifest = results[player.cell]
                    known[player.key] = len(player.manifest["frames"])
        _write_atomic(counts_file, json.dumps(known, sort_keys=True).encode())
    for stem_players in players.values():
        for player in stem_players:
            check_first_frame(player, stored[(player.stem, player.cell)], cache / "frames", log)
    return players


@contextlib.contextmanager
def _locked(cache: Path):
    """One renderer per cache at a time (parallel test workers build the site too)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock, writes are still atomic
        yield
        return
    with open(cache / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def player_frames(players: dict[str, list[Player]]) -> set[str]:
    """The frame files (sha names) all players use."""
    return {frame[0] for ps in players.values() for p in ps for frame in p.manifest["frames"]}


def _escape_json(text: str) -> str:
    # Inside <script>: no "</script>" and no "<!--" can end or confuse the element.
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def player_html(player: Player, *, frames_url: str, binder: str, colab: str, uid: str) -> str:
    """The player's markup: native controls, the first frame, the status line, the note.

    The manifest travels inline (JSON in a ``<script type="application/json">``), so the
    page works from ``file://``; frames load on demand from ``frames_url``. Each slider
    follows the WAI-ARIA slider pattern (issue 43, ``coursetools.shared.players.a11y``): a
    ``<label>``, an ``aria-valuetext`` in words, a minus and a plus button beside it;
    the status line shows every frame, and a separate polite live region announces the
    result once after the last move; under the player, the data as a table.
    """
    from coursetools.shared.players.a11y import data_table, sound_sweep, spoken_values

    m = player.manifest
    first = m["frames"][_first_index(m)]
    rows = []
    spoken = [spoken_values(player.key, c) for c in m["controls"]]
    for k, c in enumerate(m["controls"]):
        cid = f"{uid}-c{k}"
        label = html.escape(c["label"])
        shown = html.escape(c["labels"][c["start"]])
        words = html.escape(spoken[k][c["start"]])
        minus = plus = ""
        if c["kind"] == "toggle":
            checked = " checked" if c["values"][c["start"]] else ""
            field = f'<input type="checkbox" id="{cid}" data-k="{k}"{checked}>'
        elif c["kind"] == "select":
            opts = "".join(
                f'<option value="{i}"{" selected" if i == c["start"] else ""}>{html.escape(t)}</option>'
                for i, t in enumerate(c["labels"])
            )
            field = f'<select id="{cid}" data-k="{k}">{opts}</select>'
        else:
            last = len(c["values"]) - 1
            field = (f'<input type="range" id="{cid}" data-k="{k}" min="0" max="{last}" '
                     f'step="1" value="{c["start"]}" aria-valuetext="{words}">')
            # Buttons beside the slider (WCAG 2.5.7: no dragging needed; touch screen
            # readers). At an end a button is aria-disabled, not disabled: focus stays.
            minus = _step_button(k, cid, -1, f"decrease {label}", "\u2212", c["start"] == 0)
            plus = _step_button(k, cid, 1, f"increase {label}", "+", c["start"] == last)
        rows.append(
            f'<div class="pp-row"><label for="{cid}">{label}</label>'
            f'<span class="pp-track">{minus}{field}{plus}</span>'
            f'<output for="{cid}" class="pp-value" aria-hidden="true">{shown}</output></div>'
        )
    note = _note(m)
    controls = [{"kind": c["kind"], "labels": c["labels"], "label": c["label"], "spoken": spoken[k]}
                for k, c in enumerate(m["controls"])]
    # Every alt text starts with the figure's description: send it once.
    prefix = os.path.commonprefix([f[2] for f in m["frames"]])
    frames = [[sha, status, alt[len(prefix):]] for sha, status, alt in m["frames"]]
    data = {"frames": frames, "controls": controls, "base": frames_url, "alt": prefix}
    sound = sound_sweep(player.key, m)
    button = ""
    if sound is not None:  # optional sound: only ever started by this button
        data["sound"] = sound
        button = (f'<p class="pp-sound-row"><button type="button" class="pp-sound">Play as sound: '
                  f'{html.escape(sound["label"])}</button></p>')
    return (
        f'<div class="pp-player tex2jax_ignore mathjax_ignore" id="{uid}" role="group" '
        f'aria-label="Figure with sliders">'
        f'<div class="pp-controls">{"".join(rows)}</div>'
        f'<img class="pp-frame" src="{frames_url}{first[0]}.png" alt="{html.escape(first[2])}" '
        f'width="{m["width"]}" height="{m["height"]}">'
        f'<div class="pp-status">{first[1]}</div>'
        '<p class="pp-announce" role="status" aria-live="polite" aria-atomic="true"></p>'
        f"{data_table(player.key, m, uid)}{button}"
        f'<p class="pp-note site-caption">{note} Every value: <a href="{html.escape(binder)}">Binder</a> · '
        f'<a href="{html.escape(colab)}">Colab</a>.</p>'
        f'<script type="application/json" class="pp-data">{_escape_json(json.dumps(data))}</script>'
        "</div>"
    )


def _step_button(k: int, cid: str, step: int, name: str, sign: str, at_end: bool) -> str:
    off = ' aria-disabled="true"' if at_end else ""
    return (f'<button type="button" class="pp-step" data-for="{k}" data-step="{step}" '
            f'aria-controls="{cid}" aria-label="{name}"{off}>{sign}</button>')


def _note(m: dict[str, Any]) -> str:
    """One honest line: which controls are coarser than the notebook's, which are held."""
    parts = []
    for c in m["controls"]:
        if len(c["values"]) < c["positions"]:
            parts.append(f"{html.escape(c['label'])} {len(c['values'])} of {c['positions']} positions")
    held = [f"{html.escape(h['label'])} = {html.escape(h['value'])}" for h in m["held"]]
    text = "Moves without a kernel: every frame was drawn by the lesson's own code."
    if parts:
        text += " Grid: " + ", ".join(parts) + "."
    if held:
        text += " Held as in the lesson: " + ", ".join(held) + "."
    return text
