"""The builds' caches serve nothing stale and rebuild only what changed (issue 51, item 4).

* frames: keyed by the lesson's code cells, the grid, perclib's source and the drawing
  packages' versions; a change of a widget's code renders its frames again;
* the site's Sphinx project is kept between builds: a one-page edit reads one page again;
* built handouts and printed decks are kept by the hash of what made them.

The frame tests replace the kernel that draws (``_render_lesson``) by a recorder, so they
test the cache's decisions in a second, not the drawing (the site test does that).
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import nbformat
import pytest

import coursetools.shared.players.frames as frames
from coursetools.shared.output_cache import OutputCache
from coursetools.site.incremental import sync_tree

ROOT = Path(__file__).resolve().parents[2]
LESSON = ROOT / "notebooks" / "02_xor.ipynb"


@pytest.fixture
def fake_repo(tmp_path, monkeypatch):
    """A copy of perclib under a fake repository root, and a renderer that records calls."""
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "perclib", root / "perclib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.json"))
    monkeypatch.setattr(frames, "repo_root", lambda: root)
    rendered: list[str] = []

    def fake_render(path, todo, cache, log, *, tracker=None, **_):
        results = {}
        nb = nbformat.read(path, as_version=4)
        for index, key, _spec, cache_key in todo:
            rendered.append(key)
            png = frames._stored_png(nb.cells[index])  # the stored figure as the one frame
            name = f"frame-{cache_key}"
            (cache / "frames" / f"{name}.png").write_bytes(png)
            manifest = {"controls": [{"values": [0], "start": 0}], "frames": [[name, "", ""]],
                        "first": {"png": ""}}
            frames._write_atomic(cache / f"{cache_key}.json", json.dumps(manifest).encode())
            results[index] = manifest
        if tracker is not None:
            tracker.lesson_done()
        return results

    monkeypatch.setattr(frames, "_render_lesson", fake_render)
    return root, rendered


def test_unchanged_code_reuses_every_frame(fake_repo, tmp_path):
    _, rendered = fake_repo
    first = frames.render_players([LESSON], cache_dir=tmp_path / "cache")
    n = len(rendered)
    assert n >= 1 and all(not p.cached for p in first[LESSON.stem])
    second = frames.render_players([LESSON], cache_dir=tmp_path / "cache")
    assert len(rendered) == n, "a second build with nothing changed drew frames again"
    assert all(p.cached for p in second[LESSON.stem])


def test_a_changed_widget_renders_its_frames_again(fake_repo, tmp_path):
    root, rendered = fake_repo
    frames.render_players([LESSON], cache_dir=tmp_path / "cache")
    n = len(rendered)
    widget = root / "perclib" / "widgets" / "separability.py"
    widget.write_text(widget.read_text(encoding="utf-8") + "\n# a changed redraw\n", encoding="utf-8")
    again = frames.render_players([LESSON], cache_dir=tmp_path / "cache")
    assert len(rendered) == 2 * n, "the widget's code changed but its frames were served from the cache"
    assert not any(p.cached for p in again[LESSON.stem])


def _edited_copy(tmp_path: Path, cell_type: str, addition: str) -> Path:
    """The lesson with ``addition`` appended to its first cell of ``cell_type``."""
    nb = nbformat.read(LESSON, as_version=4)
    next(c for c in nb.cells if c.cell_type == cell_type).source += addition
    edited = tmp_path / LESSON.name
    nbformat.write(nb, edited)
    return edited


def test_a_changed_code_cell_before_the_slider_renders_again(fake_repo, tmp_path):
    _, rendered = fake_repo
    frames.render_players([LESSON], cache_dir=tmp_path / "cache")
    n = len(rendered)
    edited = _edited_copy(tmp_path, "code", "\nx_unused = 1")
    frames.render_players([edited], cache_dir=tmp_path / "cache")
    assert len(rendered) == 2 * n


def test_a_text_edit_renders_nothing(fake_repo, tmp_path):
    _, rendered = fake_repo
    frames.render_players([LESSON], cache_dir=tmp_path / "cache")
    n = len(rendered)
    edited = _edited_copy(tmp_path, "markdown", "\n\nOne more sentence.")
    again = frames.render_players([edited], cache_dir=tmp_path / "cache")
    assert len(rendered) == n and all(p.cached for p in again[LESSON.stem])


def _sphinx_project(folder: Path, pages: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "conf.py").write_text("project = 'cache test'\nextensions = []\n", encoding="utf-8")
    toc = "\n".join(f"   {name}" for name in pages if name != "index")
    (folder / "index.rst").write_text(f"Index\n=====\n\n.. toctree::\n\n{toc}\n", encoding="utf-8")
    for name, text in pages.items():
        (folder / f"{name}.rst").write_text(textwrap.dedent(text), encoding="utf-8")


def test_a_one_page_edit_reads_one_page_again(tmp_path):
    from coursetools.site.build import run_sphinx

    pages = {f"lesson{i}": f"Lesson {i}\n========\n\nText of lesson {i}.\n" for i in range(3)}
    kept = tmp_path / "kept"
    _sphinx_project(tmp_path / "fresh1", pages)
    first = sync_tree(tmp_path / "fresh1", kept / "src")
    _, read = run_sphinx(kept / "src", kept / "html", kept / "doctrees", pages=4, show_progress=False)
    assert set(read) == {"index", "lesson0", "lesson1", "lesson2"} and len(first.written) == 5

    pages["lesson1"] += "\nOne more sentence.\n"
    _sphinx_project(tmp_path / "fresh2", pages)  # every file written afresh, as the build does
    second = sync_tree(tmp_path / "fresh2", kept / "src")
    assert second.written == ["lesson1.rst"] and second.kept == 4
    _, read = run_sphinx(kept / "src", kept / "html", kept / "doctrees", pages=4, show_progress=False)
    assert read == ["lesson1"]
    assert "One more sentence." in (kept / "html" / "lesson1.html").read_text(encoding="utf-8")


def test_an_output_cache_never_serves_another_inputs_output(tmp_path):
    lesson = tmp_path / "01.ipynb"
    lesson.write_text("{}", encoding="utf-8")
    built = tmp_path / "01.html"
    built.write_text("<p>one</p>", encoding="utf-8")
    cache = OutputCache(tmp_path / "cache", code="code v1")
    cache.store(cache.key(lesson, "solutions=False"), [built], {"n": 1})
    assert cache.restore(cache.key(lesson, "solutions=True"), [built]) is None
    assert OutputCache(tmp_path / "cache", code="code v2").restore(
        OutputCache(tmp_path / "cache", code="code v2").key(lesson, "solutions=False"), [built]) is None
    lesson.write_text('{"cells": []}', encoding="utf-8")
    assert cache.restore(cache.key(lesson, "solutions=False"), [built]) is None
    lesson.write_text("{}", encoding="utf-8")
    built.unlink()
    assert cache.restore(cache.key(lesson, "solutions=False"), [built]) == {"n": 1}
    assert built.read_text(encoding="utf-8") == "<p>one</p>"


def test_the_site_sources_are_the_same_bytes_twice(tmp_path):
    """What the site build writes for Sphinx depends on the lessons alone: a second write
    gives the same bytes, so the kept project rewrites nothing and Sphinx reads nothing
    (inserted cells once took a random id, and every page was read again; so did the
    page check's marker cells, which the real build always adds)."""
    from coursetools.site.build import write_sources
    from coursetools.site.safety import PageCheck

    notebooks = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    # The build keeps its marker word between builds (.cache/site-build/marker-word).
    write_sources(tmp_path / "a", notebooks, check=PageCheck(nonce="kept-word"))
    write_sources(tmp_path / "b", notebooks, check=PageCheck(nonce="kept-word"))
    report = sync_tree(tmp_path / "a", tmp_path / "kept")
    again = sync_tree(tmp_path / "b", tmp_path / "kept")
    assert report.written and again.written == [] and again.removed == []
