/* Self-check questions on the course website (coursetools.site_questions builds the markup).
   No kernel, no network: every instance of a question, with its answer and hints, is in the
   page, encoded (XOR with a fixed key, base64) so that it is not in the page's text or search
   index; a reader who decodes it can read it: these are self-checks. The rules are those of
   perclib.questions.Question.check, written again here; the tests compare both.
   Progress (which questions were answered right) stays in this browser's localStorage. */
(function () {
  "use strict";
  var KEY = "perceptron-course", STORE = "perceptron-course:questions";

  function decode(text) {
    var raw = atob(text), bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i) ^ KEY.charCodeAt(i % KEY.length);
    return JSON.parse(new TextDecoder("utf-8").decode(bytes));
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

  /* ---------------------------------------------------------------- reading answers */
  function clean(s) { return String(s).replace(/[\s_,]/g, ""); }
  function parseInteger(s) {
    s = clean(s);
    return /^[+-]?\d+$/.test(s) ? BigInt(s).toString() : null;
  }
  function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { var t = a % b; a = b; b = t; } return a; }
  function parseFraction(s) {  /* [num, den] as BigInt, den > 0, exact */
    s = String(s).replace(/\s/g, "");
    var m = /^([+-]?\d+)\/([+-]?\d+)$/.exec(s), n, d;
    if (m) { n = BigInt(m[1]); d = BigInt(m[2]); if (d === 0n) return null; }
    else {
      m = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(s);
      if (!m || !(m[2] + m[3]) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
      var e = (m[4] ? parseInt(m[4], 10) : 0) - m[3].length;
      n = BigInt((m[1] === "-" ? "-" : "") + (m[2] + m[3] || "0")); d = 1n;
      if (Math.abs(e) > 400) return null;
      if (e >= 0) n *= 10n ** BigInt(e); else d = 10n ** BigInt(-e);
    }
    if (d < 0n) { n = -n; d = -d; }
    var g = gcd(n, d) || 1n;
    return [n / g, d / g];
  }
  function fracValue(f) { return Number(f[0]) / Number(f[1]); }

  /* A formula: numbers, the question's variables, + - * / ^ ** ( ), sqrt log exp sin cos,
     and 2N for 2*N, as sympy reads it in perclib.questions.parse_formula. */
  var FUNCS = { sqrt: Math.sqrt, log: Math.log, exp: Math.exp, sin: Math.sin, cos: Math.cos };
  function parseFormula(text, variables) {
    var src = String(text).trim();
    if (!src || !/^[\w\s+\-*/^().,]*$/.test(src)) return null;
    var toks = [], re = /\s*(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+|[A-Za-z_]\w*|\*\*|[+\-*/^(),])/y, m, at = 0;
    while (at < src.length) {
      re.lastIndex = at; m = re.exec(src);
      if (!m) { if (/^\s*$/.test(src.slice(at))) break; return null; }
      toks.push(m[1]); at = re.lastIndex;
    }
    var i = 0;
    function peek() { return toks[i]; }
    function isAtomStart(t) { return t !== undefined && (/^[\w.]/.test(t) || t === "("); }
    function expr() {
      var node = term();
      while (peek() === "+" || peek() === "-") { var op = toks[i++], r = term(); node = bin(op, node, r); }
      return node;
    }
    function term() {
      var node = unary();
      for (;;) {
        if (peek() === "*" || peek() === "/") { var op = toks[i++]; node = bin(op, node, unary()); }
        else if (isAtomStart(peek())) node = bin("*", node, power());  /* 2N, 2(N+1) */
        else return node;
      }
    }
    function unary() {
      if (peek() === "-") { i++; var a = unary(); return function (v) { return -a(v); }; }
      if (peek() === "+") { i++; return unary(); }
      return power();
    }
    function power() {
      var base = atom();
      if (peek() === "^" || peek() === "**") { i++; var ex = unary(); return function (v) { return Math.pow(base(v), ex(v)); }; }
      return base;
    }
    function atom() {
      var t = toks[i++];
      if (t === undefined) throw new Error("end");
      if (t === "(") { var e = expr(); if (toks[i++] !== ")") throw new Error(")"); return e; }
      if (/^[\d.]/.test(t)) { var x = parseFloat(t); return function () { return x; }; }
      if (FUNCS[t] && peek() === "(") {
        i++; var arg = expr(); if (toks[i++] !== ")") throw new Error(")");
        return function (v) { return FUNCS[t](arg(v)); };
      }
      if (variables.indexOf(t) >= 0) return function (v) { return v[t]; };
      throw new Error("name " + t);
    }
    function bin(op, a, b) {
      return function (v) {
        var x = a(v), y = b(v);
        return op === "+" ? x + y : op === "-" ? x - y : op === "*" ? x * y : x / y;
      };
    }
    try { var f = expr(); if (i !== toks.length) return null; return f; } catch (e) { return null; }
  }
  function isclose(x, y, rel, abs) { return Math.abs(x - y) <= Math.max(rel * Math.max(Math.abs(x), Math.abs(y)), abs); }

  /* ---------------------------------------------------------------- checking */
  function read(q, s, response) {
    switch (q.kind) {
      case "integer": return parseInteger(response);
      case "fraction": return parseFraction(response);
      case "number": var f = parseFraction(response); return f ? fracValue(f) : null;
      case "choice": return response === null || response === undefined ? null : response;
      case "choices": return response;
      case "yesno": return response === null || response === undefined ? null : response;
      case "formula":
        var fn = parseFormula(response, q.variables); if (!fn) return null;
        var vals = s.points.map(function (p) { return fn(p); });
        return vals.every(isFinite) ? vals : null;
    }
    return null;
  }
  function same(q, s, a, b) {
    switch (q.kind) {
      case "integer": return a === String(b);
      case "fraction": return BigInt(a[0]) * BigInt(b[1]) === BigInt(b[0]) * BigInt(a[1]);
      case "number": return Math.abs(a - b) <= s.tol * (1 + 1e-12);
      case "choices": return a.length === b.length && a.every(function (x, k) { return x === b[k]; });
      case "formula": return a.every(function (x, k) { return isclose(x, b[k], 1e-6, 1e-6); });
    }
    return a === b;
  }
  function hintFor(q, s, value) {
    if (q.kind === "choices") {
      for (var c = 0; c < q.choices.length; c++) {
        if ((value.indexOf(c) >= 0) !== (s.answer.indexOf(c) >= 0)) {
          for (var h = 0; h < s.hints.length; h++) if (s.hints[h][0] === c) return s.hints[h][1];
          return s.hint;
        }
      }
      return s.hint;
    }
    for (var k = 0; k < s.hints.length; k++) if (same(q, s, value, s.hints[k][0])) return s.hints[k][1];
    return s.hint;
  }
  /* {correct, message (HTML), counted}: as perclib.questions.Question.check */
  function check(q, response, wrongBefore) {
    var s = q.s || (q.s = decode(q.secret));
    var value = read(q, s, response);
    if (value === null) return { correct: false, message: q.unreadable, counted: false };
    if (same(q, s, value, s.answer)) return { correct: true, message: "Right. " + s.why, counted: true };
    var hint = hintFor(q, s, value);
    if (q.kind === "fraction" && hint === s.hint) {
      var v = fracValue(value), a = fracValue(s.answer);
      if (Math.abs(v - a) <= Math.abs(a) / 100 + 1e-6) hint = "Close, but not exact: give the exact fraction a/b.";
    }
    var message = "Not yet. " + hint;
    if (wrongBefore >= 1) message += " Stronger hint: " + s.stronger;
    return { correct: false, message: message, counted: true };
  }
  window.perclibQuestions = { check: check, decode: decode };

  /* ---------------------------------------------------------------- one question */
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) if (attrs.hasOwnProperty(k)) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function Question(root, progress) {
    this.root = root; this.progress = progress;
    this.instances = decode(root.getAttribute("data-q"));
    this.k = 0; this.wrong = 0; this.shown = false;
    this.id = root.getAttribute("data-id");
    this.prompt = root.querySelector(".qz-prompt");
    this.form = root.querySelector(".qz-form");
    this.field = root.querySelector(".qz-field");
    this.feedback = root.querySelector(".qz-feedback");
    this.status = root.querySelector(".qz-solved");
    var self = this;
    this.form.addEventListener("submit", function (ev) { ev.preventDefault(); self.onCheck(); });
    root.querySelector(".qz-show").addEventListener("click", function () { self.onShow(); });
    this.another = root.querySelector(".qz-another");
    if (this.instances.length > 1) {
      this.another.hidden = false;
      this.another.addEventListener("click", function () { self.onAnother(); });
    }
    this.form.hidden = false;
    root.querySelector(".qz-buttons").hidden = false;
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
  Question.prototype.onShow = function () {
    var q = this.q(), s = q.s || (q.s = decode(q.secret));
    this.shown = true;
    this.say("Answer: " + s.shown + ". " + s.why, "qz-shown");
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

  /* ---------------------------------------------------------------- progress */
  function Progress(stem) { this.stem = stem; }
  Progress.prototype.solved = function (id) { var s = load()[this.stem] || {}; return !!s[id]; };
  /* A question's record is how it was first got right (the best of the reader's runs):
     1 at the first try, 2 after hints, 3 after "Show answer". */
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
  Progress.prototype.count = function () { return tally(load()[this.stem] || {}, this.ids).right; };
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
