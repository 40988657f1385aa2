/* Self-check questions of the site (markup: coursetools.site.questions). The page holds
   no answer: salted SHA-256 hashes of the responses it recognises (coursetools.site.answers),
   reasons and hints sealed by the response they are for; "Show answer" fetches the answers
   file. Rules: perclib.questions.Question.check. Progress: this browser's localStorage. */
(function () {  /* (the body is not indented: two bytes a line off the budget) */
"use strict";
var STORE = "perceptron-course:questions";
var HERE = document.currentScript ? document.currentScript.src.replace(/[^/]*$/, "") : "_static/";

/* SHA-256 (FIPS 180-4) of bytes, as bytes: synchronous, and on http:// pages too. */
var K256 = [];
(function () {
  var n = 2, found = 0;
  function frac(x) { return ((x - Math.floor(x)) * 4294967296) >>> 0; }
  while (found < 64) {
    var prime = true;
    for (var d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
    if (prime) { K256.push(frac(Math.pow(n, 1 / 3))); found++; }
    n++;
  }
})();
function sha256(bytes) {
  var H = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  var len = bytes.length, total = ((len + 9 + 63) >> 6) << 6, m = new Uint8Array(total), w = new Array(64);
  m.set(bytes); m[len] = 0x80;
  var bits = len * 8;
  for (var i = 0; i < 4; i++) m[total - 1 - i] = (bits / Math.pow(2, 8 * i)) & 0xff;
  function r(x, n) { return (x >>> n) | (x << (32 - n)); }
  for (var off = 0; off < total; off += 64) {
    for (var t = 0; t < 16; t++) w[t] = (m[off + 4 * t] << 24) | (m[off + 4 * t + 1] << 16) | (m[off + 4 * t + 2] << 8) | m[off + 4 * t + 3];
    for (t = 16; t < 64; t++) {
      var s0 = r(w[t - 15], 7) ^ r(w[t - 15], 18) ^ (w[t - 15] >>> 3), s1 = r(w[t - 2], 17) ^ r(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
    }
    var a = H[0], b = H[1], c = H[2], d = H[3], e = H[4], f = H[5], g = H[6], h = H[7];
    for (t = 0; t < 64; t++) {
      var t1 = (h + (r(e, 6) ^ r(e, 11) ^ r(e, 25)) + ((e & f) ^ (~e & g)) + K256[t] + w[t]) | 0;
      var t2 = ((r(a, 2) ^ r(a, 13) ^ r(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    H = [H[0] + a, H[1] + b, H[2] + c, H[3] + d, H[4] + e, H[5] + f, H[6] + g, H[7] + h].map(function (x) { return x | 0; });
  }
  var out = new Uint8Array(32);
  for (i = 0; i < 32; i++) out[i] = (H[i >> 2] >>> (24 - 8 * (i & 3))) & 0xff;
  return out;
}
var utf8 = new TextEncoder();
function digest(salt, text) {
  var d = sha256(utf8.encode(salt + "|" + text)), hex = "";
  for (var i = 0; i < 8; i++) hex += (d[i] < 16 ? "0" : "") + d[i].toString(16);
  return hex;
}
function unseal(salt, text, sealed) {  /* coursetools.site.answers.seal, backwards */
  var key = sha256(utf8.encode("key|" + salt + "|" + text)), raw = atob(sealed), out = new Uint8Array(raw.length);
  for (var block = 0; block < raw.length; block += 32) {
    var input = new Uint8Array(36); input.set(key);
    input[32] = (block >>> 24) & 0xff; input[33] = (block >>> 16) & 0xff; input[34] = (block >>> 8) & 0xff; input[35] = block & 0xff;
    var pad = sha256(input);
    for (var i = block; i < Math.min(raw.length, block + 32); i++) out[i] = raw.charCodeAt(i) ^ pad[i - block];
  }
  return new TextDecoder("utf-8").decode(out);
}
function load() {
  try { return JSON.parse(window.localStorage.getItem(STORE)) || {}; } catch (e) { return {}; }
}
function save(state) {
  try { window.localStorage.setItem(STORE, JSON.stringify(state)); } catch (e) { /* private mode */ }
}
function typeset(el) {
  var mj = window.MathJax;
  if (mj && mj.typesetPromise) {
    (mj.startup && mj.startup.promise ? mj.startup.promise : Promise.resolve())
      .then(function () { return mj.typesetPromise([el]); })
      .catch(function (err) { console.error("MathJax: " + err); });
  }
}

/* A response too long or too large to read (perclib._typed.TooLarge): thrown, then said. */
var BIG = {}, TOO_LARGE = "That is too large to check here: answers in this course are moderate numbers.";
function bounded(s) { s = String(s); if (s.length > 200 || /\d{61}/.test(s)) throw BIG; return s; }
function parseInteger(s) {
  s = bounded(s);
  if (/\d\s+\d/.test(s)) return null;
  s = s.replace(/[\s_,]/g, "");
  return /^[+-]?\d+$/.test(s) ? BigInt(s).toString() : null;
}
function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { var t = a % b; a = b; b = t; } return a; }
function parseFraction(s) {  /* [num, den] as BigInt, den > 0, exact */
  s = bounded(s).replace(/\s/g, "");
  var m = /^([+-]?\d+)\/([+-]?\d+)$/.exec(s), n, d;
  if (m) { n = BigInt(m[1]); d = BigInt(m[2]); if (d === 0n) return null; }
  else {
    m = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(s);
    if (!m || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
    var e = parseInt(m[4] || 0, 10);
    if (Math.abs(e) > 300) throw BIG;
    e -= m[3].length; n = BigInt(m[1] + m[2] + m[3]); d = 1n;
    if (e >= 0) n *= 10n ** BigInt(e); else d = 10n ** BigInt(-e);
  }
  if (d < 0n) { n = -n; d = -d; }
  var g = gcd(n, d) || 1n;
  return [n / g, d / g];
}

/* One parser (no eval), two uses. A formula: numbers, the question's variables, + - * / ^
   ** ( ), sqrt log exp sin cos, 2N for 2*N, as perclib.questions.parse_formula reads it;
   gives a function of the variables. A number (num): perclib._typed.parse_number's
   grammar and limits, step for step; gives its value. null: cannot be read. */
var FUNCS = { sqrt: Math.sqrt, log: Math.log, exp: Math.exp, sin: Math.sin, cos: Math.cos };
function parse(text, variables, num) {
  var src = bounded(text).trim();
  if (!src) return null;
  var toks = [], re = /\s*(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[A-Za-z_]\w*|\*\*|[-+*/^(),])/y, m, at = 0;
  while (at < src.length) {
    re.lastIndex = at; m = re.exec(src);
    if (!m) { if (/^\s*$/.test(src.slice(at))) break; return null; }
    toks.push(m[1]); at = re.lastIndex;
  }
  var i = 0, depth = 0;
  function peek() { return toks[i]; }
  function ok(x) {
    if (num) { if (x !== x) throw 0; if (Math.abs(x) > 1e300) throw BIG; }
    return x;
  }
  function expr() {
    var node = term();
    while (peek() === "+" || peek() === "-") { var op = toks[i++], r = term(); node = bin(op, node, r); }
    return node;
  }
  function term() {
    for (var node = unary(), t; ;) {
      t = peek();
      if (t === "*" || t === "/") { i++; node = bin(t, node, unary()); }
      else if (t !== undefined && (num ? /^[A-Za-z_(]/ : /^[\w.(]/).test(t)) node = bin("*", node, power());  /* 2N, 2pi, 2(N+1) */
      else return node;
    }
  }
  function unary() {
    if (num && ++depth > 30) throw BIG;
    var t = peek(), a;
    if (t === "-" || t === "+") { i++; a = unary(); if (t === "-") { var b = a; a = function (v) { return -b(v); }; } }
    else a = power();
    depth--;
    return a;
  }
  function power() {
    var base = atom();
    if (peek() === "^" || peek() === "**") {
      i++; var ex = unary();
      return function (v) {
        var x = base(v), y = ex(v);
        if (num) { if (Math.abs(y) > 300) throw BIG; if (x === 0 && y < 0) throw 0; }
        return ok(Math.pow(x, y));
      };
    }
    return base;
  }
  function atom() {
    var t = toks[i++];
    if (t === undefined) throw 0;
    var f = t === "(" ? null : FUNCS[t];
    if ((t === "(" || f && peek() === "(" && (!num || t === "sqrt")) && (f ? toks[i++] : 1)) {
      var e = expr(); if (toks[i++] !== ")") throw 0;
      return f ? function (v) { return ok(f(e(v))); } : e;
    }
    if (/^[\d.]/.test(t)) {
      if (num && Math.abs(parseInt((/e([+-]?\d+)$/i.exec(t) || [0, 0])[1], 10)) > 300) throw BIG;
      var x = ok(parseFloat(t)); return function () { return x; };
    }
    if (num && (t === "pi" || t === "e")) { var c = Math[t === "e" ? "E" : "PI"]; return function () { return c; }; }
    if (!num && variables.indexOf(t) >= 0) return function (v) { return v[t]; };
    throw 0;
  }
  function bin(op, a, b) {
    return function (v) {
      var x = a(v), y = b(v);
      if (num && op === "/" && y === 0) throw 0;
      return ok(op === "+" ? x + y : op === "-" ? x - y : op === "*" ? x * y : x / y);
    };
  }
  try { var f = expr(); if (i !== toks.length) return null; return num ? f({}) : f; } catch (e) { if (e === BIG) throw e; return null; }
}
/* A value to 8 significant digits, as coursetools.site.answers._significant. */
function significant(x) {
  if (x === 0) return "0";
  if (!isFinite(x)) return "nan";
  var e = Math.floor(Math.log10(Math.abs(x))), k = 0, m = 0;
  for (var n = 0; n < 3; n++) {
    k = e - 7;
    m = Math.floor((k < 0 ? x * Math.pow(10, -k) : x / Math.pow(10, k)) + 0.5);
    if (Math.abs(m) >= 1e8) e += 1; else if (Math.abs(m) < 1e7) e -= 1; else break;
  }
  return m + "e" + k;
}

/* The canonical texts a response may stand for (a number: its grid index and the two
   neighbours), or null when it cannot be read. */
function candidates(q, c, response) {
  switch (q.kind) {
    case "integer": var i = parseInteger(response); return i === null ? null : [i];
    case "fraction": var f = parseFraction(response); return f ? [f[0] + "/" + f[1]] : null;
    case "number":
      var x = parse(response, [], 1); if (x === null) return null;
      var j = Math.floor(x / c.tol + 0.5);
      return isFinite(j) ? [String(j), String(j - 1), String(j + 1)] : null;
    case "choice": return response == null ? null : [String(response)];
    case "yesno": return response == null ? null : [response ? "yes" : "no"];
    case "choices": return [response.slice().sort(function (a, b) { return a - b; }).join(",")];
    case "formula":
      var fn = parse(response, q.variables); if (!fn) return null;
      var vals = c.points.map(function (p) { return fn(p); });
      return vals.every(isFinite) ? [vals.map(significant).join(";")] : null;
  }
  return null;
}
function aimedHint(q, c, texts, response) {
  if (q.kind === "choices") {
    for (var k = 0; k < q.choices.length; k++) {
      var mine = k + ":" + (response.indexOf(k) >= 0 ? 1 : 0);
      if (digest(c.salt, mine) !== c.members[k])
        return c.member_hints[k] ? unseal(c.salt, mine, c.member_hints[k]) : c.hint;
    }
    return c.hint;
  }
  for (var h = 0; h < c.hints.length; h++)
    for (var t = 0; t < texts.length; t++)
      if (digest(c.salt, texts[t]) === c.hints[h][0]) return unseal(c.salt, texts[t], c.hints[h][1]);
  if (q.kind === "fraction") {  /* close to the answer, on a grid of a hundredth of its size */
    var f = parseFraction(response), v = Number(f[0]) / Number(f[1]), x = c.close_exp,
      idx = Math.floor((x < 0 ? v * Math.pow(10, -x) : v / Math.pow(10, x)) + 0.5);
    for (var n = -1; n <= 1; n++) if (digest(c.salt, "close:" + (idx + n)) === c.close)
      return "Close, but not exact: give the exact fraction a/b.";
  }
  return c.hint;
}
/* {correct, message (HTML), counted}: as perclib.questions.Question.check */
function check(q, response, wrongBefore) {
  var c = q.check, texts;
  try { texts = candidates(q, c, response); } catch (e) {
    if (e !== BIG) throw e;
    return { correct: false, message: TOO_LARGE, counted: false };
  }
  if (texts === null) return { correct: false, message: q.unreadable, counted: false };
  for (var t = 0; t < texts.length; t++)
    if (digest(c.salt, texts[t]) === c.answer)
      return { correct: true, message: "Right. " + unseal(c.salt, texts[t], c.why), counted: true };
  var message = "Not yet. " + aimedHint(q, c, texts, response);
  if (wrongBefore >= 1) message += " Stronger hint: " + c.stronger;
  return { correct: false, message: message, counted: true };
}
window.perclibQuestions = { check: check };

function el(tag, attrs, text) {
  var e = document.createElement(tag);
  for (var k in attrs) if (attrs.hasOwnProperty(k)) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  return e;
}
function Question(root, progress) {
  var self = this, at = function (name) { return root.querySelector(".qz-" + name); };
  this.root = root; this.progress = progress;
  this.instances = JSON.parse(root.getAttribute("data-q"));
  this.stem = root.getAttribute("data-stem");
  this.k = 0; this.wrong = 0; this.shown = false;
  this.id = root.getAttribute("data-id");
  this.prompt = at("prompt"); this.form = at("form"); this.field = at("field");
  this.feedback = at("feedback"); this.status = at("solved");
  this.form.addEventListener("submit", function (ev) { ev.preventDefault(); self.onCheck(); });
  at("show").addEventListener("click", function () { self.onShow(); });
  this.another = at("another");
  if (this.instances.length > 1) {
    this.another.hidden = false;
    this.another.addEventListener("click", function () { self.onAnother(); });
  }
  this.form.hidden = false;
  at("buttons").hidden = false;
  this.render(false);
  this.markSolved();
}
Question.prototype.q = function () { return this.instances[this.k]; };
Question.prototype.render = function (withPrompt) {
  var q = this.q(), uid = this.root.id + "-" + this.k, field = this.field;
  if (withPrompt) { this.prompt.innerHTML = q.prompt; typeset(this.prompt); }
  field.innerHTML = "";
  if (q.kind === "choice" || q.kind === "yesno" || q.kind === "choices") {
    var fs = el("fieldset", { "class": "qz-options" }), options = q.kind === "yesno" ? ["Yes", "No"] : q.choices;
    fs.appendChild(el("legend", { "class": "qz-sr" }, q.kind === "choices" ? "Tick every right option" : "Pick one option"));
    options.forEach(function (text, c) {
      var id = uid + "-o" + c, lab = el("label", { "for": id });
      var input = el("input", { type: q.kind === "choices" ? "checkbox" : "radio", name: uid, id: id, value: String(c) });
      var words = el("span", {}); words.innerHTML = " " + text;  /* HTML with maths, from the build */
      lab.appendChild(input); lab.appendChild(words);
      fs.appendChild(lab);
    });
    field.appendChild(fs);
    typeset(fs);
  } else {
    var id = uid + "-in";
    field.appendChild(el("label", { "for": id }, "Your answer "));
    field.appendChild(el("input", { type: "text", id: id, autocomplete: "off", spellcheck: "false",
      placeholder: q.placeholder, "class": "qz-input" }));
  }
};
Question.prototype.response = function () {
  var q = this.q(), boxes = this.field.querySelectorAll("input");
  if (q.kind === "choices") {
    var out = [];
    boxes.forEach(function (b) { if (b.checked) out.push(parseInt(b.value, 10)); });
    return out;
  }
  if (q.kind === "choice" || q.kind === "yesno") {
    for (var i = 0; i < boxes.length; i++) if (boxes[i].checked) {
      var c = parseInt(boxes[i].value, 10);
      return q.kind === "yesno" ? c === 0 : c;
    }
    return null;
  }
  return boxes[0].value;
};
Question.prototype.say = function (html, cls) {
  this.feedback.className = "qz-feedback" + (cls ? " " + cls : "");
  this.feedback.innerHTML = html;
  typeset(this.feedback);
};
Question.prototype.onCheck = function () {
  var result = check(this.q(), this.response(), this.wrong);
  if (result.counted && !result.correct) this.wrong += 1;
  this.say((result.correct ? "✓ " : result.counted ? "✗ " : "") + result.message,
    result.correct ? "qz-right" : result.counted ? "qz-wrong" : "");
  /* How it was found: 1 at the first try, 2 after hints, 3 after "Show answer". */
  if (result.correct) {
    this.progress.solve(this.id, this.shown ? 3 : this.wrong ? 2 : 1);
    this.markSolved();
  }
};
Question.prototype.onShow = function () {  /* the only place an answer is fetched */
  var self = this, k = this.k;
  this.shown = true;
  fetch(HERE + "answers/" + this.stem + ".json")
    .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
    .then(function (all) { self.say(all[self.id][k], "qz-shown"); })
    .catch(function () { self.say("The answer could not be loaded (open the site from a web server).", ""); });
};
Question.prototype.onAnother = function () {
  this.k = (this.k + 1) % this.instances.length;
  this.wrong = 0; this.shown = false;
  this.render(true);
  this.say("A new instance of the question.", "");
  var first = this.field.querySelector("input");
  if (first) first.focus();
};
Question.prototype.markSolved = function () {
  this.status.hidden = !this.progress.solved(this.id);
};

function Progress(stem) { this.stem = stem; }
Progress.prototype.solved = function (id) { var s = load()[this.stem] || {}; return !!s[id]; };
/* A question's record: how it was first got right (1 first try, 2 hints, 3 shown). */
Progress.prototype.solve = function (id, how) {
  var all = load(), s = all[this.stem] = all[this.stem] || {};
  s[id] = s[id] ? Math.min(s[id], how) : how; save(all); this.show();
};
function tally(s, ids) {
  var t = { right: 0, first: 0, hints: 0, shown: 0 };
  (ids || Object.keys(s)).forEach(function (id) {
    var v = s[id]; if (!v) return;
    t.right += 1; if (v === 1) t.first += 1; else if (v === 2) t.hints += 1; else t.shown += 1;
  });
  return t;
}
Progress.prototype.show = function () {
  if (!this.line) return;
  var t = tally(load()[this.stem] || {}, this.ids);
  this.line.textContent = "Self-check questions answered right: " + t.right + " of " + this.ids.length +
    " (at the first try " + t.first + ", after hints " + t.hints + ", after Show answer " + t.shown + ").";
};

function lessonPage(roots) {
  var stem = roots[0].getAttribute("data-stem"), progress = new Progress(stem), questions = [];
  progress.ids = roots.map(function (r) { return r.getAttribute("data-id"); });
  var box = el("div", { "class": "qz-progress", role: "status" });
  progress.line = el("span", { "class": "qz-count" });
  var reset = el("button", { type: "button", "class": "qz-reset" }, "Reset this lesson's progress");
  reset.addEventListener("click", function () {
    var all = load(); delete all[stem]; save(all); progress.show();
    questions.forEach(function (q) { q.markSolved(); });
  });
  box.appendChild(progress.line); box.appendChild(document.createTextNode(" ")); box.appendChild(reset);
  /* The article's title (the theme prints another, hidden, copy for paper first). */
  var h1 = document.querySelector("article h1") || document.querySelector("main h1");
  if (h1 && h1.parentNode) h1.parentNode.insertBefore(box, h1.nextSibling);
  roots.forEach(function (r) { questions.push(new Question(r, progress)); });
  progress.show();
}

function indexPage(holder) {
  var totals = JSON.parse(holder.getAttribute("data-totals")), badges = [];
  function refresh() {
    var all = load();
    badges.forEach(function (b) {
      var t = tally(all[b.stem] || {});
      b.el.textContent = " (self-check: " + Math.min(t.right, totals[b.stem]) + " of " + totals[b.stem] +
        ", " + t.first + " at the first try)";
    });
  }
  Object.keys(totals).forEach(function (stem) {
    var link = document.querySelector('main a[href$="' + stem + '.html"], article a[href$="' + stem + '.html"]');
    if (!link) return;
    var badge = el("span", { "class": "qz-badge", "data-stem": stem });
    link.parentNode.insertBefore(badge, link.nextSibling);
    badges.push({ stem: stem, el: badge });
  });
  var reset = el("button", { type: "button", "class": "qz-reset" }, "Reset all self-check progress");
  reset.addEventListener("click", function () { save({}); refresh(); });
  holder.appendChild(el("span", {}, "Your self-check progress is kept in this browser only. "));
  holder.appendChild(reset);
  refresh();
}

function start() {
  var roots = Array.prototype.slice.call(document.querySelectorAll(".qz[data-q]"));
  if (roots.length) lessonPage(roots);
  var holder = document.querySelector(".qz-index[data-totals]");
  if (holder) indexPage(holder);
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
})();
