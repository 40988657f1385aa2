"""MathJax 3 from the Python package index, for the site, the slides and the handouts.

The package ``django-static-mathjax`` (Apache-2.0; nothing of Django is needed or
imported) installs MathJax 3 as the top-level package ``mathjax``, its browser files
under ``mathjax/static/mathjax/es5/``. This module has one job: find that folder, say
how a page loads MathJax from it, and copy what a page loads.

* HTML-CSS output (the site and the slides): a page loads MathJax's small
  ``startup.js``, which fetches the components its configuration names
  (:data:`CHTML_COMPONENTS`: TeX input, HTML-CSS output, the assistive MathML for
  screen readers) and the TeX fonts. This is the ``tex-chtml.js`` bundle without its
  context menu: 0.4 MB less on every page. TeX's ``autoload`` and ``require`` are off:
  what a page may fetch is exactly what its configuration names
  (:func:`component_files`), so the site's first-load figure can count it; a macro
  outside TeX's base and AMS packages needs its extension in :data:`TEX_EXTENSIONS`
  (without it, it is an "Undefined control sequence" error that the tests see).
  :func:`copy_mathjax` copies those files and MathJax's ``LICENSE``: 1.2 MB in all.
* SVG output (the handouts): the bundle ``tex-svg.js`` is loaded straight from the
  package at build time (:func:`svg_bundle`); the handout keeps only the SVG it drew.

>>> chtml_config()["loader"]["load"]
['input/tex', 'output/chtml', 'a11y/assistive-mml']
>>> "core.js" in component_files(["input/tex"])
True
"""

from __future__ import annotations

import importlib.resources
import json
import shutil
import sys
from pathlib import Path

from coursetools.shared.common import CourseToolsError

#: The Python package (and the import name it installs).
PACKAGE = "django-static-mathjax"
IMPORT_NAME = "mathjax"
#: What an HTML-CSS page's ``<script>`` loads (in the folder :func:`copy_mathjax` fills).
STARTUP = "startup.js"
#: The components ``startup.js`` loads for an HTML-CSS page (MathJax's loader names).
CHTML_COMPONENTS = ("input/tex", "output/chtml", "a11y/assistive-mml")
#: TeX extensions every page loads at start (names as in ``[tex]/name``): none, as the
#: lessons use TeX's base and AMS macros only. Add one here when a formula needs it
#: (``"boldsymbol"`` for ``\\boldsymbol``): with ``autoload`` off, nothing else is fetched.
TEX_EXTENSIONS: tuple[str, ...] = ()
#: What a component loads itself, relative to the es5 folder (MathJax's loader
#: fetches ``core.js`` before any component; the HTML-CSS output its font data and,
#: for the characters a page shows, the woff fonts of that folder).
COMPONENT_NEEDS = {
    "input/tex": ("core.js",),
    "output/chtml": ("core.js", "output/chtml/fonts/tex.js", "output/chtml/fonts/woff-v2"),
    "a11y/assistive-mml": ("core.js",),
}
#: The files an HTML-CSS page needs, relative to the es5 folder: :data:`STARTUP`, the
#: components it loads and what those load themselves.
CHTML_PARTS = (
    STARTUP,
    "core.js",
    "input/tex.js",
    "output/chtml.js",
    "output/chtml/fonts/tex.js",
    "output/chtml/fonts/woff-v2",
    "a11y/assistive-mml.js",
    *(f"input/tex/extensions/{name}.js" for name in TEX_EXTENSIONS),
)
#: The bundle the handouts are typeset with at build time (TeX input, SVG output).
TEX_SVG = "tex-svg.js"

#: The options every page gives MathJax 3 (``window.MathJax.options``): no context
#: menu (it is not loaded), and the classes MyST marks (the page is ``mathjax_ignore``,
#: each formula ``math``).
PAGE_OPTIONS = {
    "enableMenu": False,
    "ignoreHtmlClass": "tex2jax_ignore|mathjax_ignore",
    "processHtmlClass": "tex2jax_process|mathjax_process|math|output_area",
}
#: TeX input for every page: an undefined macro is an error (``mjx-merror``) that the
#: builds and tests see, not red text that passes for a formula; no ``autoload`` or
#: ``require`` (they fetch extensions a page's configuration does not name).
TEX_OPTIONS = {
    "inlineMath": [["\\(", "\\)"]],
    "displayMath": [["$$", "$$"], ["\\[", "\\]"]],
    "processEscapes": True,
    "packages": {"[-]": ["noundefined", "autoload", "require"],
                 # MathJax is not given an empty "[+]" (nothing to add, nothing to merge).
                 **({"[+]": list(TEX_EXTENSIONS)} if TEX_EXTENSIONS else {})},
}


def install_hint() -> str:
    """The pip command that installs MathJax 3 into this Python.

    >>> PACKAGE in install_hint()
    True
    """
    return f"{sys.executable} -m pip install {PACKAGE}"


def es5_dir() -> Path:
    """The folder of MathJax 3's browser files in the installed ``mathjax`` package.

    Raises ``CourseToolsError`` (one line, with the pip command) when the package is
    missing or is not a file-system install with those files.

    >>> (es5_dir() / STARTUP).is_file()
    True
    """
    try:
        root = importlib.resources.files(IMPORT_NAME)
    except ModuleNotFoundError:
        root = None
    es5 = Path(str(root)) / "static" / "mathjax" / "es5" if root is not None else None
    if es5 is None or not all((es5 / name).exists() for name in (*CHTML_PARTS, TEX_SVG)):
        raise CourseToolsError(
            f"MathJax 3 not found (the Python package {PACKAGE}): run  {install_hint()}"
        )
    return es5


def version() -> str:
    """MathJax's own version, from the ``package.json`` next to its files.

    >>> version().split(".")[0]
    '3'
    """
    meta = json.loads((es5_dir().parent / "package.json").read_text(encoding="utf-8"))
    return str(meta["version"])


def svg_bundle() -> Path:
    """The ``tex-svg.js`` bundle in the package (the handouts load it at build time).

    >>> svg_bundle().name
    'tex-svg.js'
    """
    return es5_dir() / TEX_SVG


def chtml_config(tex: dict | None = None, **more: dict) -> dict:
    """``window.MathJax`` for a page that loads :data:`STARTUP`: the components, the
    TeX options (``tex`` updates :data:`TEX_OPTIONS`), :data:`PAGE_OPTIONS` and ``more``
    top-level blocks (``startup={"typeset": False}``...).

    >>> chtml_config({"displayMath": [["\\\\[", "\\\\]"]]})["tex"]["displayMath"]
    [['\\\\[', '\\\\]']]
    >>> chtml_config(startup={"typeset": False})["startup"]
    {'typeset': False}
    """
    return {
        "loader": {"load": [*CHTML_COMPONENTS, *(f"[tex]/{name}" for name in TEX_EXTENSIONS)]},
        "tex": {**TEX_OPTIONS, **(tex or {})},
        "options": dict(PAGE_OPTIONS),
        **more,
    }


def component_files(components: list[str]) -> list[str]:
    """What a page whose configuration loads ``components`` fetches from MathJax's
    folder: :data:`STARTUP`, each component's file and what it loads itself
    (:data:`COMPONENT_NEEDS`; a folder stands for every file in it), in load order.

    >>> component_files(["input/tex", "[tex]/boldsymbol"])
    ['startup.js', 'core.js', 'input/tex.js', 'input/tex/extensions/boldsymbol.js']
    """
    files = [STARTUP]
    for name in components:
        tex = name.removeprefix("[tex]/")
        own = f"input/tex/extensions/{tex}.js" if tex != name else f"{name}.js"
        for part in (*COMPONENT_NEEDS.get(name, ("core.js",)), own):
            if part not in files:
                files.append(part)
    return files


def copy_mathjax(dest: Path) -> Path:
    """Copy what an HTML-CSS page needs into ``dest``; return its script (``startup.js``).

    ``dest`` keeps the package's layout (components, fonts and extensions where the
    loader looks for them, next to ``startup.js``) and gets MathJax's ``LICENSE``.
    """
    es5 = es5_dir()
    dest = Path(dest)
    for part in CHTML_PARTS:
        src, target = es5 / part, dest / part
        target.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, target, dirs_exist_ok=True)
        else:
            shutil.copyfile(src, target)
    shutil.copyfile(es5.parent / "LICENSE", dest / "LICENSE")
    return dest / STARTUP
