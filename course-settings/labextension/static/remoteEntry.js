// perceptron-course-settings: a JupyterLab / Notebook 7 extension, written by hand.
//
// JupyterLab loads this file as a module-federation container (window._JUPYTERLAB[name],
// with init(shareScope) and get(module)) and asks it for "./style" and "./extension", so
// no build step and no npm package are needed: the one JupyterLab package it uses
// (@jupyterlab/rendermime) comes from the share scope JupyterLab hands to init().
//
// "./extension" is for screen readers (issue 43): a figure output's <img> gets its alt
// text from the output's text/plain (perclib writes a sentence there; JupyterLab's own
// image renderer sets no alt), and every ipywidgets slider handle (a div with
// role="slider", which a <label> cannot name) gets its description as aria-label and its
// readout as aria-valuetext. For the self-check questions (issue 53): the feedback line
// is a live region, and the arrow keys choose among a question's options.
//
// "./style": the style says in words,
// on a lesson's row of controls (SliderFigure's VBox, class perclib-controls), what the
// widget manager otherwise shows as red "disconnected" icons: the sliders are not
// connected to a running kernel, and running the cell brings them back. The manager's
// restore error ("Error displaying widget: model not found", an output that holds only
// that text) is replaced by the same sentence.
(function () {
  "use strict";
  var SENTENCE =
    "The kernel is not running this cell: run it (Shift+Enter) to bring the sliders back.";
  var NOTE =
    "content: '" + SENTENCE + "';" +
    "display: block; flex: 0 0 auto; align-self: stretch;" +
    "font: normal 400 var(--jp-content-font-size1, 14px)/1.4 var(--jp-ui-font-family, sans-serif);" +
    "color: var(--jp-ui-font-color1, #333); padding: 4px 0;";
  // The widget manager's renderer is the output node itself (a Lumino panel); it gets the
  // class jupyter-widgets and only a text when it cannot show the model.
  var FAILED_VIEW = ".jp-OutputArea-output.lm-Panel.jupyter-widgets:not(:has(*))";
  // A self-check question's input row (class perclib-question) says the same in its words.
  var QUESTION_NOTE = NOTE.replace(SENTENCE,
    "The kernel is not running this cell: run it (Shift+Enter) to answer here.");
  var CSS = [
    "/* perceptron-course-settings */",
    ".perclib-controls.jupyter-widgets-disconnected::before {" + NOTE + "}",
    ".perclib-controls .jupyter-widgets-disconnected::before { content: none; display: none; }",
    ".perclib-question.jupyter-widgets-disconnected::before {" + QUESTION_NOTE + "}",
    ".perclib-question .jupyter-widgets-disconnected::before { content: none; display: none; }",
    FAILED_VIEW + " { font-size: 0; }",
    FAILED_VIEW + "::before {" + NOTE + "}",
  ].join("\n");

  function style() {
    if (!document.getElementById("perceptron-course-settings-style")) {
      var element = document.createElement("style");
      element.id = "perceptron-course-settings-style";
      element.textContent = CSS;
      document.head.appendChild(element);
    }
    return {};
  }

  // A slider's description names its handle; a dropdown's names its <select>. ipywidgets
  // 8 draws the description as a <label> without "for" (the handle is a div), so a screen
  // reader meets a bare number. Checked again whenever the page changes (widgets come and
  // go with outputs), at most once per frame.
  function nameControls() {
    var rows = document.querySelectorAll(".widget-slider, .widget-dropdown");
    for (var i = 0; i < rows.length; i++) {
      var label = rows[i].querySelector(":scope > .widget-label");
      var name = label ? label.textContent.trim() : "";
      if (!name) continue;
      var controls = rows[i].querySelectorAll("[role=slider], select");
      for (var j = 0; j < controls.length; j++) {
        if (controls[j].getAttribute("aria-label") !== name) {
          controls[j].setAttribute("aria-label", name);
        }
      }
    }
  }
  // A slider's readout is what the reader sees ("0.60"): a screen reader gets the same
  // through aria-valuetext, not the model's float (aria-valuenow 0.6000000000000001).
  // A question's feedback line is a live region, announced like the website's.
  function describeValues() {
    var rows = document.querySelectorAll(".widget-slider");
    for (var i = 0; i < rows.length; i++) {
      var readout = rows[i].querySelector(".widget-readout");
      var text = readout ? readout.textContent.trim() : "";
      var handles = rows[i].querySelectorAll("[role=slider]");
      for (var j = 0; j < handles.length; j++) {
        if (text && handles[j].getAttribute("aria-valuetext") !== text) {
          handles[j].setAttribute("aria-valuetext", text);
        }
      }
    }
    var lines = document.querySelectorAll(".perclib-question .perclib-feedback");
    for (var k = 0; k < lines.length; k++) {
      if (lines[k].getAttribute("aria-live") !== "polite") {
        lines[k].setAttribute("role", "status");
        lines[k].setAttribute("aria-live", "polite");
      }
    }
  }

  // In a question's options the arrow keys pick the next or previous option, as in any
  // radio group; JupyterLab would otherwise take them to move between cells. Listening on
  // window in the capture phase runs before JupyterLab's own keydown handler (document).
  var STEPS = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
  function optionKeys(event) {
    var target = event.target;
    if (!(event.key in STEPS) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (!target || target.type !== "radio" || !target.closest) return;
    var row = target.closest(".perclib-question");
    if (!row) return;
    var group = target.closest(".widget-radio-box") || row;
    var options = Array.prototype.slice.call(group.querySelectorAll("input[type=radio]"));
    var at = options.indexOf(target);
    if (at < 0 || options.length < 2) return;
    var next = options[(at + STEPS[event.key] + options.length) % options.length];
    event.preventDefault();
    event.stopPropagation();
    next.focus();
    next.click();  // checks it and tells the widget model, as a mouse click does
  }

  var scheduled = false;
  function watchControls() {
    if (typeof MutationObserver === "undefined" || !document.body) return;
    new MutationObserver(function () {
      if (scheduled) return;
      scheduled = true;
      window.requestAnimationFrame(function () {
        scheduled = false;
        nameControls();
        describeValues();
      });
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
    nameControls();
    describeValues();
    window.addEventListener("keydown", optionKeys, true);
  }

  // The alt text of a figure: its output's text/plain, unless that is matplotlib's
  // "<Figure size ...>", which describes nothing.
  function plainText(model) {
    var text = model && model.data ? model.data["text/plain"] : null;
    if (Array.isArray(text)) text = text.join("");
    return typeof text === "string" ? text.trim() : "";
  }
  function describeImage(node, model) {
    var text = plainText(model);
    var img = node.querySelector("img");
    if (img && text && !/^<(Figure|matplotlib)\b/.test(text)) img.setAttribute("alt", text);
  }

  var shareScope = null;
  function shared(name) {
    var versions = shareScope && shareScope[name];
    var keys = versions ? Object.keys(versions) : [];
    if (!keys.length) return Promise.reject(new Error("JupyterLab shares no " + name));
    // The newest version the page shares (JupyterLab shares one copy of its own packages).
    keys.sort(function (a, b) {
      var x = a.split(/[.-]/), y = b.split(/[.-]/);
      for (var k = 0; k < Math.max(x.length, y.length); k++) {
        var d = (parseInt(x[k], 10) || 0) - (parseInt(y[k], 10) || 0);
        if (d) return d;
      }
      return 0;
    });
    return Promise.resolve(versions[keys[keys.length - 1]].get()).then(function (factory) {
      return factory();
    });
  }

  function extension() {
    return shared("@jupyterlab/rendermime").then(function (rendermime) {
      var plugin = {
        id: "perceptron-course-settings:figure-and-slider-names",
        description: "Alt text on figure outputs (their text/plain) and names on slider handles.",
        autoStart: true,
        requires: [rendermime.IRenderMimeRegistry],
        activate: function (app, registry) {
          var base = rendermime.imageRendererFactory;
          var described = {
            safe: base.safe,
            mimeTypes: base.mimeTypes,
            defaultRank: base.defaultRank,
            createRenderer: function (options) {
              var renderer = base.createRenderer(options);
              var render = renderer.render.bind(renderer);
              renderer.render = function (model) {
                return Promise.resolve(render(model)).then(function () {
                  describeImage(renderer.node, model);
                });
              };
              return renderer;
            },
          };
          // Same rank as JupyterLab's image renderer, which this one wraps and replaces.
          var rank = registry.getRank(base.mimeTypes[0]);
          registry.addFactory(described, rank === undefined ? base.defaultRank : rank);
          watchControls();
        },
      };
      return { __esModule: true, default: [plugin] };
    });
  }

  var container = {
    init: function (scope) {
      shareScope = scope;
      return Promise.resolve();
    },
    get: function (module) {
      if (module === "./style") return Promise.resolve(style);
      if (module === "./extension") {
        return extension().then(function (exports) {
          return function () {
            return exports;
          };
        });
      }
      return Promise.reject(new Error("perceptron-course-settings has no module " + module));
    },
  };
  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB["perceptron-course-settings"] = container;
})();
