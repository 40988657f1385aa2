"""The website's figure player: a small script and its style (no library, no network).

Each player (``coursetools.shared.players.frames.player_html``) holds native controls, the first frame,
the status line and its manifest as inline JSON. The script only swaps pictures and
text: a control move picks the grid point's frame file, its alt text and its status
line; the neighbours of the new position (one step along every control) are preloaded
so that the next move shows at once. The first neighbours wait until a reader reaches
for the player (pointer, touch, keyboard focus): a page's first load is the frames it
shows (issue 29's budget, ``coursetools.site.page_weight``).

For readers who do not see the figure (issue 43, docs/accessibility.md): each slider's
``aria-valuetext`` follows its position in words; the minus and plus buttons move it
one step (``aria-disabled`` at an end); the new frame's alt text starts with what
changed since the frame before; a visually hidden polite live region says what changed
once, 0.7 s after the last move (not once per frame); a curve figure's optional sound
plays only when its button is pressed.
"""

PLAYER_JS = r"""
(function () {
  "use strict";
  // How long after the last move the live region speaks (one announcement per burst
  // of key presses, not one per frame).
  var ANNOUNCE_MS = 700;
  function segments(html) {
    // A status line as plain segments, split at its line breaks and "|" (as
    // coursetools.shared.players.a11y.status_segments does for the table).
    var box = document.createElement("div");
    box.innerHTML = html.replace(/<br\s*\/?>/gi, " | ");
    return box.textContent.replace(/\u00a0/g, " ").split("|")
      .map(function (s) { return s.replace(/\s+/g, " ").trim(); })
      .filter(function (s) { return s.length > 0; });
  }
  function setUp(root) {
    var data = JSON.parse(root.querySelector("script.pp-data").textContent);
    var img = root.querySelector("img.pp-frame");
    var status = root.querySelector(".pp-status");
    var announcer = root.querySelector(".pp-announce");
    var fields = Array.prototype.slice.call(root.querySelectorAll("[data-k]"));
    var buttons = Array.prototype.slice.call(root.querySelectorAll("button.pp-step"));
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
    function positionOf(i) {
      var pos = [];
      for (var k = sizes.length - 1; k >= 0; k--) { pos.unshift(i % sizes[k]); i = Math.floor(i / sizes[k]); }
      return pos;
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
    // What frame b shows that frame a did not, in a sentence that stands alone: the
    // controls that moved (in words, with their old values) and the readout's segments
    // that changed.
    function change(a, b) {
      var pa = positionOf(a), pb = positionOf(b), moved = [];
      for (var k = 0; k < pb.length; k++) {
        if (pa[k] !== pb[k]) {
          moved.push(data.controls[k].spoken[pb[k]] + " (was " + data.controls[k].spoken[pa[k]] + ")");
        }
      }
      var sa = segments(data.frames[a][1]), sb = segments(data.frames[b][1]);
      var changed = sb.filter(function (s) { return sa.indexOf(s) < 0; });
      var head = moved.length ? "Now " + moved.join(", ") : "Unchanged controls";
      var tail = changed.length ? ": " + changed.join("; ") : ": the readout is unchanged";
      return head + tail + ".";
    }
    var current = index(position());
    var announced = current;
    var timer = null;
    function announce() {
      timer = null;
      var now = index(position());
      if (now === announced) return;
      announcer.textContent = change(announced, now);
      announced = now;
    }
    function show() {
      var pos = position();
      var i = index(pos);
      var frame = data.frames[i];
      fields.forEach(function (f, k) {
        var out = root.querySelector('output[for="' + f.id + '"]');
        if (out) out.textContent = data.controls[k].labels[pos[k]];
        if (f.type === "range") f.setAttribute("aria-valuetext", data.controls[k].spoken[pos[k]]);
      });
      buttons.forEach(function (b) {
        var k = parseInt(b.getAttribute("data-for"), 10);
        var step = parseInt(b.getAttribute("data-step"), 10);
        var p = pos[k] + step;
        if (p < 0 || p >= sizes[k]) b.setAttribute("aria-disabled", "true");
        else b.removeAttribute("aria-disabled");
      });
      if (i !== current) {
        img.src = url(i);
        // The new frame's alt text: what changed, then the figure in full.
        img.alt = change(current, i) + " " + data.alt + frame[2];
        current = i;
      }
      if (status.innerHTML !== frame[1]) status.innerHTML = frame[1];
      root.setAttribute("data-frame", String(i));
      neighbours(pos);
      if (timer !== null) window.clearTimeout(timer);
      timer = window.setTimeout(announce, ANNOUNCE_MS);
    }
    fields.forEach(function (f) {
      f.addEventListener("input", show);
      f.addEventListener("change", show);
    });
    buttons.forEach(function (b) {
      b.addEventListener("click", function () {
        if (b.getAttribute("aria-disabled") === "true") return;
        var f = fields[parseInt(b.getAttribute("data-for"), 10)];
        var next = parseInt(f.value, 10) + parseInt(b.getAttribute("data-step"), 10);
        if (next < parseInt(f.min, 10) || next > parseInt(f.max, 10)) return;
        f.value = String(next);
        show();
      });
    });
    // Optional sound (curve figures): the readout along one control as a tone whose
    // pitch follows the number, two octaves from the smallest to the largest value.
    // Only this button starts it (an AudioContext is made on the first click).
    var soundButton = root.querySelector("button.pp-sound");
    var audio = null, playing = null;
    function stopSound() {
      if (playing) { try { playing.stop(); } catch (e) {} playing = null; }
      if (soundButton) soundButton.setAttribute("aria-pressed", "false");
    }
    if (soundButton && data.sound) {
      soundButton.setAttribute("aria-pressed", "false");
      soundButton.addEventListener("click", function () {
        if (playing) { stopSound(); return; }
        var Ctx = window.AudioContext || window.webkitAudioContext;
        if (!Ctx) return;
        audio = audio || new Ctx();
        var values = data.sound.values;
        var lo = Math.min.apply(null, values), hi = Math.max.apply(null, values);
        var span = hi > lo ? hi - lo : 1, step = 0.15, t0 = audio.currentTime + 0.05;
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = "sine";
        gain.gain.value = 0.15;
        values.forEach(function (v, i) {
          osc.frequency.setValueAtTime(220 * Math.pow(2, 2 * (v - lo) / span), t0 + i * step);
        });
        osc.connect(gain);
        gain.connect(audio.destination);
        osc.onended = stopSound;
        osc.start(t0);
        osc.stop(t0 + values.length * step);
        playing = osc;
        soundButton.setAttribute("aria-pressed", "true");
      });
    }
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
    root.setAttribute("data-frame", String(current));
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
.pp-track { display: flex; align-items: center; gap: 0.4em; flex: 1 1 14em; min-width: 0; max-width: 36em; }
.pp-row input[type=range] { flex: 1 1 12em; min-width: 0; max-width: 32em; height: 2em; margin: 0; }
.pp-row select { min-height: 2.2em; max-width: 100%; }
.pp-row input[type=checkbox] { width: 1.4em; height: 1.4em; }
.pp-value { min-width: 4em; font-variant-numeric: tabular-nums; }
.pp-player input:focus-visible, .pp-player select:focus-visible {
  outline: 3px solid #0b5fff; outline-offset: 2px; }
.pp-player img.pp-frame { display: block; max-width: 100%; height: auto; }
.pp-status { margin: 0.3em 0; min-height: 1.5em; overflow-wrap: anywhere; }
.pp-note { font-size: 90%; }
.pp-step { min-width: 2.2em; min-height: 2.2em; font-size: 110%; line-height: 1; border: 1px solid #555;
  border-radius: 0.3em; background: #f3f4f5; color: #14181e; cursor: pointer; }
.pp-step[aria-disabled=true] { color: #6b6b6b; border-color: #9a9a9a; cursor: default; }
.pp-player button:focus-visible, .pp-table summary:focus-visible, .pp-table-scroll:focus-visible {
  outline: 3px solid #0b5fff; outline-offset: 2px; }
/* Read by screen readers, not shown: the one announcement after the last move. */
.pp-announce { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.pp-sound { min-height: 2.2em; border: 1px solid #555; border-radius: 0.3em; background: #f3f4f5;
  color: #14181e; cursor: pointer; padding: 0 0.8em; }
.pp-sound[aria-pressed=true] { background: #dce7fc; }
.pp-table { margin: 0.3em 0; }
.pp-table summary { cursor: pointer; }
.pp-table-scroll { max-height: 24em; overflow: auto; }
.pp-table table { border-collapse: collapse; font-size: 90%; font-variant-numeric: tabular-nums; }
.pp-table caption { caption-side: top; text-align: left; padding: 0.2em 0; }
.pp-table th, .pp-table td { border: 1px solid #d1d5da; padding: 0.15em 0.5em; text-align: left;
  vertical-align: top; }
.pp-table thead th { position: sticky; top: 0; background: #f3f4f5; }
"""
