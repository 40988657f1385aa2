"""MathJax 3 from the package index (``coursetools.shared.mathjax``): found, copied, never Debian's.

No browser: the site, slide and handout tests check the typesetting itself.
"""

from __future__ import annotations

import doctest
import re
import sys
from pathlib import Path

import pytest

from coursetools import CourseToolsError
from coursetools.shared import mathjax

ROOT = Path(__file__).resolve().parents[2]


def test_docstring_examples_run():
    failures, tried = doctest.testmod(mathjax)
    assert tried > 0 and failures == 0


def test_found_in_the_installed_package_not_a_system_folder():
    es5 = mathjax.es5_dir()
    assert es5.parts[-4:] == ("mathjax", "static", "mathjax", "es5"), es5
    assert not str(es5).startswith("/usr/share/"), es5
    assert mathjax.version().startswith("3.")
    assert mathjax.svg_bundle().is_file()


def test_missing_package_is_one_line_with_the_pip_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "mathjax", None)  # as if not installed
    with pytest.raises(CourseToolsError) as info:
        mathjax.es5_dir()
    message = str(info.value)
    assert "\n" not in message
    assert f"{sys.executable} -m pip install django-static-mathjax" in message


def test_copy_holds_what_a_page_loads_and_the_licence(tmp_path):
    script = mathjax.copy_mathjax(tmp_path / "mathjax")
    assert script == tmp_path / "mathjax" / "startup.js"
    es5 = mathjax.es5_dir()
    for part in ("startup.js", "core.js", "input/tex.js", "output/chtml.js", "output/chtml/fonts/tex.js",
                 "a11y/assistive-mml.js", "output/chtml/fonts/woff-v2/MathJax_Main-Regular.woff"):
        assert (tmp_path / "mathjax" / part).read_bytes() == (es5 / part).read_bytes(), part
    assert "Apache License" in (tmp_path / "mathjax" / "LICENSE").read_text(encoding="utf-8")
    # The components the configuration loads are all there (the loader's names + ".js").
    for name in mathjax.chtml_config()["loader"]["load"]:
        assert (tmp_path / "mathjax" / f"{name}.js").is_file(), name
    files = [f for f in (tmp_path / "mathjax").rglob("*") if f.is_file()]
    size = sum(f.stat().st_size for f in files)
    assert size < 2.5 * 2**20, f"{size / 2**20:.1f} MB copied"
    assert not any(f.name in ("tex-chtml.js", "tex-svg.js", "MathJax.js", "menu.js") for f in files)
    # Exactly what a page may fetch (its configuration's components and what they load,
    # the site's first-load figure counts the same list) and the licence: with TeX's
    # autoload off, no extension is fetched that the configuration does not name.
    may_fetch = set()
    for part in mathjax.component_files(mathjax.chtml_config()["loader"]["load"]):
        target = tmp_path / "mathjax" / part
        may_fetch |= set(target.rglob("*")) if target.is_dir() else {target}
    assert set(files) == {f for f in may_fetch if f.is_file()} | {tmp_path / "mathjax" / "LICENSE"}


def test_tex_fetches_nothing_its_configuration_does_not_name():
    tex = mathjax.chtml_config()["tex"]
    assert {"autoload", "require", "noundefined"} <= set(tex["packages"]["[-]"])
    extensions = [n for n in mathjax.chtml_config()["loader"]["load"] if n.startswith("[tex]/")]
    assert extensions == [f"[tex]/{name}" for name in mathjax.TEX_EXTENSIONS]
    assert mathjax.component_files(["output/chtml"]) == [
        "startup.js", "core.js", "output/chtml/fonts/tex.js", "output/chtml/fonts/woff-v2", "output/chtml.js"]


def test_no_tool_looks_for_a_system_mathjax():
    """MathJax 2 from Debian (libjs-mathjax, $MATHJAX_JS, /usr/share/...) is gone for good."""
    for path in sorted((ROOT / "coursetools").rglob("*.py")) + [ROOT / ".ci" / "run"]:
        text = path.read_text(encoding="utf-8")
        for old in ("libjs-mathjax", "MATHJAX_JS", "/usr/share/javascript/mathjax", "MathJax.Hub",
                    "find_mathjax", "MathJax.js"):
            assert old not in text, f"{old!r} in {path.relative_to(ROOT)}"


def test_the_extras_that_build_pages_install_mathjax():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    for extra in ("test", "site", "instructor"):
        assert any(re.match(r"django-static-mathjax>=3", d) for d in extras[extra]), extra
