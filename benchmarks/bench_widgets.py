"""Median time of one slider update for every lesson widget, old mechanism against new.

Both run side by side in one real IPython kernel (started with jupyter_client), so
the times include what a kernel does per update: redraw, render to PNG, and send the
frame to the frontend over ZeroMQ.

* **old**: the figure as an ``ipywidgets.Image`` (and the status as ``ipywidgets.HTML``)
  inside the widget, drawn on plain Agg; each update sets the image's value (a binary
  comm message). This is how the lessons worked before figures became outputs.
* **new**: the figure and the status line as ordinary outputs, drawn on
  :class:`perclib.stable_canvas.StableCanvas`; each update sends an
  ``update_display_data`` message (the PNG base64-encoded in JSON).

Each update is triggered exactly as the kernel does when the browser syncs a new
value (``control.value = v``). Target: 30 ms or less per update.

Run: ``python benchmarks/bench_widgets.py``
"""

from __future__ import annotations

import json
import textwrap

from coursetools.shared.kernels import start_kernel

TARGET_MS = 30.0

KERNEL_CODE = textwrap.dedent(
    """
    import json, statistics, time
    import ipywidgets as widgets
    from IPython.display import display
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from perclib.widgets.registry import all_demos, control_values

    def time_updates(demo, name, repeats=2):
        control = demo.controls[name]
        values = [v for v in control_values(control, interior=8) if v != control.value]
        times = []
        for _ in range(repeats):
            for value in values or [control.value]:
                if control.value == value:
                    continue
                start = time.perf_counter()
                control.value = value
                times.append(time.perf_counter() - start)
        return 1e3 * statistics.median(times) if times else float("nan")

    def old_style(demo):
        # The figure and status as widgets inside the widget box, on plain Agg.
        demo._canvas = FigureCanvasAgg(demo.figure)
        demo._background = None
        demo.image = widgets.Image(format="png")
        demo.status = widgets.HTML()
        demo.refresh()
        display(widgets.VBox([demo.widget, demo.image, demo.status]))
        return demo

    rows = []
    for key, build in all_demos().items():
        old = old_style(build())
        new = build()
        display(new)
        for name in new.controls:
            rows.append((key, name, time_updates(old, name), time_updates(new, name)))
    print("ROWS " + json.dumps(rows))
    """
)


def main() -> None:
    manager, client = start_kernel("python3")
    found: list[list] = []

    def on_message(message: dict) -> None:
        if message["msg_type"] == "stream" and message["content"]["text"].startswith("ROWS "):
            found.extend(json.loads(message["content"]["text"][5:]))
        elif message["msg_type"] == "error":
            print("\n".join(message["content"]["traceback"]))

    try:
        client.execute_interactive(KERNEL_CODE, output_hook=on_message, timeout=1800)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    width = max((len(r[0]) + len(r[1]) for r in found), default=20) + 3
    header = f"{'widget / control':<{width}} {'old ms':>8} {'new ms':>8} {'new/old':>8}"
    print(f"{header}  target {TARGET_MS:.0f} ms")
    for key, name, old_ms, new_ms in found:
        flag = "ok" if new_ms <= TARGET_MS else "SLOW"
        print(f"{key + ' / ' + name:<{width}} {old_ms:8.1f} {new_ms:8.1f} {new_ms / old_ms:8.2f}  {flag}")
    if found:
        ratios = sorted(r[3] / r[2] for r in found)
        print(f"median new/old over {len(found)} controls: {ratios[len(ratios) // 2]:.2f}")


if __name__ == "__main__":
    main()
