"""How fast the website's players show a frame after a control moves (issue 29: < 100 ms).

Builds the site (frames from the cache in ``.cache/site-frames``, rendered if missing)
or takes ``--site DIR``, serves it on the loopback interface and opens every lesson in
headless Chromium. For each player it moves the first control one step at a time
(the case the player preloads for: the neighbours of the current value) and, as the
reference, jumps to far positions the player has not preloaded. The time is from the
``input`` event to the new picture decoded and painted (``img.decode()`` and one
animation frame), measured in the page with ``performance.now()``.

Run: ``python benchmarks/bench_player.py [--site DIR] [--moves 8]``
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

_MEASURE = r"""async ([id, moves, far]) => {
  const p = document.getElementById(id);
  const f = p.querySelector('[data-k="0"]');
  const img = p.querySelector('img.pp-frame');
  const n = f.type === 'checkbox' ? 2 : (f.tagName === 'SELECT' ? f.options.length : +f.max + 1);
  const get = () => f.type === 'checkbox' ? (f.checked ? 1 : 0)
                    : (f.tagName === 'SELECT' ? f.selectedIndex : +f.value);
  const set = (v) => { if (f.type === 'checkbox') f.checked = !!v;
                       else if (f.tagName === 'SELECT') f.selectedIndex = v; else f.value = String(v); };
  const pause = (ms) => new Promise(r => setTimeout(r, ms));
  const times = [];
  let dir = 1, seen = new Set([get()]);
  f.focus();  // as a reader does first: the player then preloads the first neighbours
  for (let i = 0; i < moves; i++) {
    await pause(300);  // time for the player to preload the neighbours
    let v = get();
    if (far) {  // a position the player has not loaded yet
      const fresh = [...Array(n).keys()].filter(x => !seen.has(x) && Math.abs(x - v) > 1);
      if (!fresh.length) break;
      v = fresh[Math.floor(fresh.length / 2)];
    } else {
      if (v + dir < 0 || v + dir >= n) dir = -dir;
      v += dir;
    }
    seen.add(v);
    const t0 = performance.now();
    set(v);
    f.dispatchEvent(new Event('input', {bubbles: true}));
    await img.decode();
    await new Promise(r => requestAnimationFrame(() => r()));
    times.push(performance.now() - t0);
  }
  return {times, n};
}"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one into a temp folder)")
    parser.add_argument("--moves", type=int, default=8, help="moves per player and case (default 8)")
    args = parser.parse_args(argv)

    from browser_support import CHROMIUM_ARGS, find_chromium
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            from coursetools.site.build import build

            site = build(Path(tmp) / "site", verbose=False)
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        rows = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            for html in sorted(site.glob("[0-9][0-9]_*.html")):
                page.goto(f"{url}/{html.name}", wait_until="load")
                for pid in page.eval_on_selector_all(".pp-player", "els => els.map(e => e.id)"):
                    page.locator(f"#{pid}").scroll_into_view_if_needed()
                    near = page.evaluate(_MEASURE, [pid, args.moves, False])
                    far = page.evaluate(_MEASURE, [pid, max(2, args.moves // 2), True])
                    rows.append((pid, near["n"], near["times"], far["times"]))
            browser.close()
        server.shutdown()

    def stats(times: list[float]) -> str:
        if not times:
            return f"{'-':>8} {'-':>8}"
        return f"{statistics.median(times):8.1f} {max(times):8.1f}"

    print(f"{'player':<12} {'positions':>9} | {'neighbour, preloaded':>17} | {'far jump, not preloaded':>17}")
    print(f"{'':<12} {'':>9} | {'median ms':>9} {'max ms':>7} | {'median ms':>9} {'max ms':>7}")
    for pid, n, near, far in rows:
        print(f"{pid:<12} {n:>9} | {stats(near)} | {stats(far)}")
    every = [t for _, _, near, _ in rows for t in near]
    print(f"all neighbour moves: median {statistics.median(every):.1f} ms, max {max(every):.1f} ms "
          f"(budget: 100 ms); {len(every)} moves on {len(rows)} players")


if __name__ == "__main__":
    main()
