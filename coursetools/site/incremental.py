"""Keep the site's Sphinx project between builds, so a rebuild reads only what changed.

Each build writes the Sphinx sources afresh into a scratch folder (that stays simple and
always right), then :func:`sync_tree` copies into the kept project only the files whose
bytes differ. Sphinx decides which pages to read again from the files' modification
times: an unchanged lesson keeps its time, so its page is neither read nor written again,
and a one-sentence edit re-renders one page. What the build reused and rebuilt is
reported (:class:`SyncReport`), and a project whose set of pages changed is rebuilt from
scratch (Sphinx would otherwise keep a removed page's HTML).
"""

from __future__ import annotations

import filecmp
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

#: Below ``.cache``: the kept Sphinx sources, doctrees and HTML.
BUILD_SUBDIR = "site-build"


@dataclass
class SyncReport:
    """Which files of the kept tree a sync wrote, removed or left alone."""

    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    kept: int = 0

    def pages(self, suffixes: tuple[str, ...] = (".ipynb", ".md")) -> list[str]:
        """The Sphinx documents among the written files (what Sphinx reads again)."""
        return sorted(p for p in self.written if p.endswith(suffixes) and "/" not in p)


def sync_tree(fresh: Path, kept: Path) -> SyncReport:
    """Make ``kept`` hold exactly the files of ``fresh``, rewriting only those that differ.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     a, b = Path(tmp, "a"), Path(tmp, "b")
    ...     a.mkdir(); _ = (a / "x.md").write_text("one"); _ = (a / "y.md").write_text("two")
    ...     first = sync_tree(a, b)
    ...     _ = (a / "y.md").write_text("three"); (a / "x.md").unlink()
    ...     second = sync_tree(a, b)
    >>> first.written, second.written, second.removed, second.kept
    (['x.md', 'y.md'], ['y.md'], ['x.md'], 0)
    """
    report = SyncReport()
    kept.mkdir(parents=True, exist_ok=True)
    wanted = set()
    for path in sorted(fresh.rglob("*")):
        rel = path.relative_to(fresh).as_posix()
        target = kept / rel
        if path.is_dir():
            target.mkdir(exist_ok=True)
            continue
        wanted.add(rel)
        if target.is_file() and filecmp.cmp(path, target, shallow=False):
            report.kept += 1
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
        report.written.append(rel)
    for path in sorted(kept.rglob("*"), reverse=True):  # files before their folders
        rel = path.relative_to(kept).as_posix()
        if path.is_file() and rel not in wanted:
            path.unlink()
            report.removed.append(rel)
        elif path.is_dir() and not (fresh / rel).is_dir():
            shutil.rmtree(path)
    return report


def copy_for_editing(built: Path, staging: Path) -> None:
    """Copy the kept HTML to ``staging``: pages as real copies (the build edits them
    afterwards), every other file as a hard link where the file system allows it (the
    frames alone are about a hundred megabytes, and they are never edited)."""
    for path in built.rglob("*"):
        target = staging / path.relative_to(built)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix == ".html":
            shutil.copyfile(path, target)
            continue
        try:
            os.link(path, target)
        except OSError:
            shutil.copyfile(path, target)
