// perceptron-course-settings: a style-only JupyterLab / Notebook 7 extension, written by hand.
//
// JupyterLab loads this file as a module-federation container (window._JUPYTERLAB[name],
// with init() and get(module)) and asks it for "./style" only (package.json has no
// "extension"), so no build step and no npm package are needed. The style says in words,
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

  var container = {
    init: function () {
      return Promise.resolve();
    },
    get: function (module) {
      if (module !== "./style") {
        return Promise.reject(new Error("perceptron-course-settings has no module " + module));
      }
      return Promise.resolve(style);
    },
  };
  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB["perceptron-course-settings"] = container;
})();
