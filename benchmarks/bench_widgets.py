"""Median time of one slider update for every lesson widget.

Each update is triggered from Python exactly as the kernel does when the browser
syncs a new value (``control.value = v``), so the figure is redrawn and rendered
to PNG. Target: 30 ms or less per update. Widgets that blit (``moving=``) are timed
side by side with the same widget redrawn in full (column "full redraw").

Run: ``python benchmarks/bench_widgets.py``
"""

from __future__ import annotations

import statistics
import time

from perclib.widgets.registry import all_demos, control_values

TARGET_MS = 30.0


def time_updates(demo, control_name: str, repeats: int = 3) -> float:
    control = demo.controls[control_name]
    values = [v for v in control_values(control, interior=8) if v != control.value] or [control.value]
    times = []
    for _ in range(repeats):
        for value in values:
            if control.value == value:
                continue
            start = time.perf_counter()
            control.value = value
            times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times) if times else float("nan")


def without_blitting(demo):
    """The same widget redrawn in full on every update: the reference for blitting."""
    for artist in demo._moving:
        artist.set_animated(False)
    demo._moving = []
    demo._background = None
    return demo


def main() -> None:
    rows = []
    for name, build in all_demos().items():
        demo = build()
        reference = without_blitting(build()) if demo._moving else None
        for control_name in demo.controls:
            ms = time_updates(demo, control_name)
            ref = time_updates(reference, control_name) if reference is not None else float("nan")
            rows.append((name, control_name, ms, ref))
    width = max((len(r[0]) + len(r[1]) for r in rows), default=20) + 3
    print(f"{'widget / control':<{width}} {'median ms':>10} {'full redraw':>12}  target {TARGET_MS:.0f} ms")
    for name, control_name, ms, ref in rows:
        flag = "ok" if ms <= TARGET_MS else "SLOW"
        shown = f"{ref:12.1f}" if ref == ref else f"{'(no blit)':>12}"
        print(f"{name + ' / ' + control_name:<{width}} {ms:10.1f} {shown}  {flag}")


if __name__ == "__main__":
    main()
