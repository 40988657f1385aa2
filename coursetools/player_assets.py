"""The website's figure player: a small script and its style (no library, no network).

Each player (``coursetools.frames.player_html``) holds native controls, the first frame,
the status line and its manifest as inline JSON. The script only swaps pictures and
text: a control move picks the grid point's frame file, its alt text and its status
line; the neighbours of the new position (one step along every control) are preloaded
so that the next move shows at once. The first neighbours wait until a reader reaches
for the player (pointer, touch, keyboard focus): a page's first load is the frames it
shows (issue 29's budget, ``coursetools.page_weight``).
"""

PLAYER_JS = r"""
(function () {
  "use strict";
  function setUp(root) {
    var data = JSON.parse(root.querySelector("script.pp-data").textContent);
    var img = root.querySelector("img.pp-frame");
    var status = root.querySelector(".pp-status");
    var fields = Array.prototype.slice.call(root.querySelectorAll("[data-k]"));
    var sizes = data.controls.map(function (c) { return c.labels.length; });
    var cache = {};
    function position() {
      return fields.map(function (f) {
        if (f.type === "checkbox") return f.checked ? 1 : 0;
        return parseInt(f.value, 10);
      });
    }
    function index(pos) {
      var i = 0;
      for (var k = 0; k < pos.length; k++) i = i * sizes[k] + pos[k];
      return i;
    }
    function url(i) { return data.base + data.frames[i][0] + ".png"; }
    function preload(i) {
      var u = url(i);
      if (cache[u]) return;
      var pic = new Image();
      pic.decoding = "async";
      pic.src = u;
      cache[u] = pic;
    }
    function neighbours(pos) {
      for (var k = 0; k < pos.length; k++) {
        for (var d = -1; d <= 1; d += 2) {
          var p = pos.slice();
          p[k] += d;
          if (p[k] >= 0 && p[k] < sizes[k]) preload(index(p));
        }
      }
    }
    function show() {
      var pos = position();
      var frame = data.frames[index(pos)];
      fields.forEach(function (f, k) {
        var label = data.controls[k].labels[pos[k]];
        var out = root.querySelector('output[for="' + f.id + '"]');
        if (out) out.textContent = label;
        if (f.type === "range") f.setAttribute("aria-valuetext", label);
      });
      img.src = url(index(pos));
      img.alt = data.alt + frame[2];
      if (status.innerHTML !== frame[1]) status.innerHTML = frame[1];
      root.setAttribute("data-frame", String(index(pos)));
      neighbours(pos);
    }
    fields.forEach(function (f) {
      f.addEventListener("input", show);
      f.addEventListener("change", show);
    });
    // The first frame is the <img> itself. Its neighbours are fetched once a reader
    // reaches for the player (pointer, touch or keyboard focus), not with the page:
    // the page's first load stays the frames it shows.
    var warmed = false;
    function warm() {
      if (warmed) return;
      warmed = true;
      neighbours(position());
    }
    ["pointerenter", "touchstart", "focusin"].forEach(function (type) {
      root.addEventListener(type, warm, {passive: true});
    });
    root.setAttribute("data-frame", String(index(position())));
    root.classList.add("pp-ready");
  }
  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".pp-player"), function (root) {
      try { setUp(root); } catch (e) { root.classList.add("pp-broken"); throw e; }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
"""

PLAYER_CSS = """
.pp-player { max-width: 100%; margin: 0.5em 0 1em; }
.pp-controls { display: flex; flex-direction: column; gap: 0.35em; margin-bottom: 0.5em; }
.pp-row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3em 0.8em; }
.pp-row label { min-width: 7em; font-weight: 600; }
.pp-row input[type=range] { flex: 1 1 12em; min-width: 0; max-width: 32em; height: 2em; margin: 0; }
.pp-row select { min-height: 2.2em; max-width: 100%; }
.pp-row input[type=checkbox] { width: 1.4em; height: 1.4em; }
.pp-value { min-width: 4em; font-variant-numeric: tabular-nums; }
.pp-player input:focus-visible, .pp-player select:focus-visible {
  outline: 3px solid #0b5fff; outline-offset: 2px; }
.pp-player img.pp-frame { display: block; max-width: 100%; height: auto; }
.pp-status { margin: 0.3em 0; min-height: 1.5em; overflow-wrap: anywhere; }
.pp-note { font-size: 90%; }
"""
