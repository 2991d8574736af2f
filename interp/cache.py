"""The user cache: what one ``interp`` process works out that the next can reuse.

Entries are pickles keyed on a hash of everything they were built from (the file's bytes, the
name it is shown by, and the code that builds them), so an entry is never stale: a changed file
or a changed interp is a new key. The folder is ``$INTERP_CACHE_DIR``, else
``$XDG_CACHE_HOME/interp``, else ``~/.cache/interp``. The cache is only ever a shortcut: a
folder that cannot be written, or an entry that cannot be read, means working it out again.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

PACKAGE = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """The cache folder (created), or None when there is none to write to."""
    root = os.environ.get("INTERP_CACHE_DIR")
    if not root:
        xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        root = os.path.join(xdg, "interp")
    try:
        path = Path(root)
        path.mkdir(parents=True, exist_ok=True)
        return path if os.access(path, os.W_OK) else None
    except OSError:
        return None


def code_version(modules: Iterable[str]) -> str:
    """A fingerprint of interp's source files ``modules`` (paths under the package, e.g.
    ``system/loader.py``): their sizes and modification times, so an edit is a new key."""
    parts = []
    for name in modules:
        st = (PACKAGE / name).stat()
        parts.append(f"{name}:{st.st_size}:{st.st_mtime_ns}")
    return ";".join(parts)


def key(*parts: str | bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode() if isinstance(part, str) else part)
        h.update(b"\0")
    return h.hexdigest()[:32]


def cached(kind: str, digest: str, build: Callable[[], T], keep: int | None = None) -> T:
    """The entry ``kind-digest`` if it can be read, else ``build()`` (stored for next time;
    ``keep``: then only the ``keep`` newest entries of ``kind`` are kept)."""
    folder = cache_dir()
    if folder is None:
        return build()
    path = folder / f"{kind}-{digest}.pickle"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:  # missing, truncated or from another version: build it again
        pass
    value = build()
    tmp = None
    try:  # written whole, then renamed: a concurrent reader never sees half a file
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{kind}-")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:  # a full disk or an unpicklable value: no entry, same result
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
    if keep is not None:
        _prune(folder, kind, keep)
    return value


def _prune(folder: Path, kind: str, keep: int) -> None:
    """Remove all but the ``keep`` newest entries of ``kind`` (entries keyed on files' bytes,
    as parsed sources, would otherwise pile up, one per edit or temporary file)."""
    def written(path: Path) -> int:
        try:
            return path.stat().st_mtime_ns
        except OSError:  # removed meanwhile by another process
            return 0

    entries = sorted(folder.glob(f"{kind}-*.pickle"), key=written, reverse=True)
    for old in entries[keep:]:
        try:
            old.unlink()
        except OSError:
            pass


def grammar_cache(name: str) -> str | bool:
    """Lark's ``cache`` argument for grammar ``name``: a file in the user cache (Lark keys its
    content on the grammar's hash and options, and rebuilds it when they change), else True
    (Lark's own file in the temp folder)."""
    folder = cache_dir()
    return str(folder / f"lark-{name}.cache") if folder is not None else True
