"""Writing output files safely: a checked path, a temp file beside it, then ``os.replace``.

An output that cannot be written is a user error (exit 2, one message); an error half-way
leaves nothing behind: every file is first written to a temporary file in its own directory,
and only when all of them are complete are they renamed into place.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from interp.errors import InterpError


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def _mode(p: Path) -> int:
    """The new file's permissions: the old file's, or the usual ones under the umask (a temp
    file is created private)."""
    try:
        return p.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def check_writable(path: str | Path, what: str = "output") -> Path:
    """Fail early, before any work, when ``path`` cannot be written."""
    p = Path(path)
    if str(path).strip() == "":
        raise InterpError(f"the {what} file name is empty", hint="give a file name")
    if p.is_dir():
        raise InterpError(f"cannot write the {what} to {path}: it is a directory",
                          hint="give a file name, e.g. " + str(p / "out"))
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise InterpError(f"cannot write the {what} to {path}: directory {parent} does not exist",
                          hint="create the directory first, or write somewhere else")
    if not parent.is_dir():
        raise InterpError(f"cannot write the {what} to {path}: {parent} is not a directory",
                          hint="write to a file inside an existing directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InterpError(f"cannot write the {what} to {path}: directory {parent} is not "
                          "writable", hint="write somewhere you have permission to write")
    if p.exists() and not os.access(p, os.W_OK):
        raise InterpError(f"cannot write the {what} to {path}: the file is read-only",
                          hint="remove it, or write somewhere else")
    return p


def write_files(files: dict[str | Path, str | bytes], what: str = "output") -> None:
    """Write every file or none: temp files first, then rename each into place."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            p = check_writable(path, what)
            fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
            staged.append((tmp, p))
            with os.fdopen(fd, "wb") as fh:
                fh.write(data.encode("utf-8") if isinstance(data, str) else data)
            os.chmod(tmp, _mode(p))
        for tmp, p in staged:
            os.replace(tmp, p)
    except OSError as err:
        for tmp, _p in staged:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        target = staged[-1][1] if staged else next(iter(files), "")
        raise InterpError(f"cannot write the {what} to {target}: {_reason(err)}",
                          hint="check the path and the free space") from None
    except BaseException:
        for tmp, _p in staged:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
        raise


def write_text(path: str | Path, text: str, what: str = "output") -> None:
    write_files({path: text}, what)
