"""Is a name used anywhere else in the project? Asked before a rule deletes something as dead.

A run sees only the paths it was given (`apply pkg`), but a helper of `pkg` may be called from `main.py` beside
it, from a script or from the tests. Before deleting, the rest of the project is searched for the name, as
bytes (a whole word in any Python file): any mention is enough evidence to keep it, and the rule reports what
it kept and why instead of deleting.

The project is the git work tree holding the file, else the folder of the nearest `pyproject.toml` (or
`setup.py` / `setup.cfg`), else the folder holding the file's top-level package. Files are listed as discovery lists
them (git-aware, virtual environments and build folders skipped), once per project and process.
"""

from __future__ import annotations

import bisect
import os
import re
from functools import lru_cache
from pathlib import Path

_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")
# A folder holding one of these is a project's root (engine_walk.package_info: never a package of it).
PROJECT_MARKERS = (*_PROJECT_FILES, ".git")


@lru_cache(maxsize=256)
def project_root(folder: str, fallback: str) -> str:
    """The git work tree above `folder`, else the nearest folder with project metadata, else `fallback`."""
    nearest = None
    current = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            return current
        if nearest is None and any(os.path.isfile(os.path.join(current, n)) for n in _PROJECT_FILES):
            nearest = current
        parent = os.path.dirname(current)
        if parent == current:
            return nearest or os.path.abspath(fallback)
        current = parent


@lru_cache(maxsize=16)
def _python_files(root: str) -> tuple[str, ...]:
    from migrate_roots.discovery import discover

    return tuple(os.path.abspath(p) for p in discover([Path(root)]))


# Bytes of a project's files held at once; a larger project is read per name.
_HAYSTACK_LIMIT = 128 * 1024 * 1024


@lru_cache(maxsize=2)
def _haystack(root: str) -> tuple[bytes, tuple[int, ...], tuple[str, ...]] | None:
    """Every Python file of the project, read once and joined (NUL between files), with each file's start: a
    run asks about many names (every dead-looking helper), and reading the tree per name cost seconds."""
    parts: list[bytes] = []
    starts: list[int] = []
    size = 0
    for other in _python_files(root):
        try:
            with open(other, "rb") as handle:
                data = handle.read()
        except OSError:
            data = b""
        starts.append(size)
        parts.append(data)
        size += len(data) + 1
        if size > _HAYSTACK_LIMIT:
            return None
    return b"\0".join(parts), tuple(starts), _python_files(root)


def _word_at(data: bytes, name: bytes, start: int = 0) -> int:
    """The first whole-word occurrence of `name` in `data` from `start` (a plain find, then its edges), or -1."""
    while True:
        at = data.find(name, start)
        if at < 0:
            return -1
        before = data[at - 1 : at] if at else b""
        after = data[at + len(name) : at + len(name) + 1]
        if not _IDENT.match(before) and not _IDENT.match(after):
            return at
        start = at + 1


_IDENT = re.compile(rb"[A-Za-z0-9_]")


def used_elsewhere(path: str, name: str, fallback: str) -> str | None:
    """A project file other than `path` that mentions `name` (relative to the project), or None."""
    me = os.path.abspath(path)
    root = project_root(os.path.dirname(me), fallback or os.path.dirname(me))
    needle = name.encode()
    hay = _haystack(root)
    if hay is None:
        return _used_elsewhere_streamed(root, me, needle)
    data, starts, files = hay
    at = _word_at(data, needle)
    while at >= 0:
        other = files[bisect.bisect_right(starts, at) - 1]
        if other != me:
            return os.path.relpath(other, root).replace(os.sep, "/")
        at = _word_at(data, needle, at + 1)
    return None


def _used_elsewhere_streamed(root: str, me: str, needle: bytes) -> str | None:
    for other in _python_files(root):
        if other == me:
            continue
        try:
            with open(other, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        if _word_at(data, needle) >= 0:
            return os.path.relpath(other, root).replace(os.sep, "/")
    return None
