"""The only code that writes user files: atomically, keeping mode bits, and never over someone else's edit."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path


class ChangedOnDisk(Exception):
    """The file no longer holds the bytes we read; we leave it alone."""


def write_atomic(path: Path, new: bytes, expected_old: bytes) -> None:
    """Replace `path` with `new` if it still holds `expected_old`.

    The new content goes to a temporary file in the same folder (same file system), is flushed to disk,
    gets the old file's mode bits, and replaces the original with `os.replace`: a reader, a crash or a kill
    sees either the old or the new file, never a half-written one.
    """
    if path.read_bytes() != expected_old:
        raise ChangedOnDisk(str(path))
    mode = stat.S_IMODE(path.stat().st_mode)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".migrate-roots.tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(new)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        # Last look before the swap: a concurrent run or an editor may have written meanwhile.
        if path.read_bytes() != expected_old:
            raise ChangedOnDisk(str(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_new(path: Path, content: bytes) -> bool:
    """Create `path` with `content` unless it already holds exactly that; True when written."""
    if path.exists():
        if path.read_bytes() == content:
            return False
        raise FileExistsError(str(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".migrate-roots.tmp", dir=path.parent)
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    return True
