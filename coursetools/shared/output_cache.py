"""Products of one lesson kept by the content hash of what made them.

A handout or a slide deck depends on the lesson file, on the code that builds it and on
the versions of the tools it runs. :class:`OutputCache` files each built output under
``.cache/<product>/<key>/``, where the key hashes all of these, and hands the files back
when the same key comes again: a rebuild after a one-sentence edit builds one lesson and
copies the others. A change of any input is a new key, so a stale output is never served
(the worst a cache can do is keep an unused entry; :meth:`OutputCache.prune` drops them).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
from collections.abc import Iterable, Sequence
from importlib import metadata
from pathlib import Path

from coursetools.shared.common import repo_root

_META = "numbers.json"


def source_digest(folders: Iterable[Path], packages: Sequence[str] = ()) -> str:
    """A hash of every Python, JavaScript and CSS file under ``folders`` and of the
    installed versions of ``packages`` (and of Python): the code that makes an output.

    >>> source_digest([]) == source_digest([])
    True
    """
    digest = hashlib.sha256()
    root = repo_root()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix in (".py", ".js", ".css") and "__pycache__" not in path.parts:
                name = path.relative_to(root) if path.is_relative_to(root) else path
                digest.update(str(name).encode() + b"\0" + path.read_bytes())
    for name in packages:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=none".encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()


class OutputCache:
    """Built files of one product, by the hash of their inputs.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     cache = OutputCache(Path(tmp) / "cache", code="v1")
    ...     lesson = Path(tmp, "01.ipynb"); _ = lesson.write_text("{}")
    ...     out = Path(tmp, "01.html"); _ = out.write_text("<p>built</p>")
    ...     key = cache.key(lesson, "html")
    ...     cache.store(key, [out], {"formulas": 3})
    ...     out.unlink()
    ...     hit = cache.restore(key, [out])
    ...     _ = lesson.write_text('{"edited": 1}')
    ...     miss = cache.restore(cache.key(lesson, "html"), [out])
    ...     print(hit, out.read_text(), miss)
    {'formulas': 3} <p>built</p> None
    """

    def __init__(self, folder: Path, code: str):
        self.folder = Path(folder)
        self.code = code

    def key(self, *inputs: Path | str) -> str:
        """The key of an output made from ``inputs`` by this cache's code: a path counts
        by its bytes (a folder by every file in it, names included), a string as it is."""
        digest = hashlib.sha256(self.code.encode())
        for item in inputs:
            if isinstance(item, Path) and item.is_dir():
                for path in sorted(p for p in item.rglob("*") if p.is_file()):
                    digest.update(b"\0" + path.relative_to(item).as_posix().encode() + b"\0")
                    digest.update(path.read_bytes())
            elif isinstance(item, Path):
                digest.update(b"\0file\0" + item.read_bytes())
            else:
                digest.update(b"\0text\0" + item.encode())
        return digest.hexdigest()[:40]

    def restore(self, key: str, targets: Sequence[Path]) -> dict | None:
        """Copy the files kept under ``key`` to ``targets`` and return the numbers stored
        with them; None (and nothing copied) if the entry is missing or incomplete."""
        entry = self.folder / key
        kept = [entry / Path(t).name for t in targets]
        if not (entry / _META).is_file() or not all(k.is_file() for k in kept):
            return None
        for source, target in zip(kept, targets, strict=True):
            Path(target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        return json.loads((entry / _META).read_text(encoding="utf-8"))

    def store(self, key: str, built: Sequence[Path], meta: dict | None = None) -> None:
        """Keep copies of ``built`` (and ``meta``) under ``key``; a reader never sees a
        half-written entry (it is written whole, then renamed into place)."""
        entry = self.folder / key
        partial = self.folder / f".{key}.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        for path in built:
            shutil.copyfile(path, partial / Path(path).name)
        (partial / _META).write_text(json.dumps(meta or {}), encoding="utf-8")
        shutil.rmtree(entry, ignore_errors=True)
        partial.rename(entry)
