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

import os
import re
from functools import lru_cache
from pathlib import Path

_PROJECT_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


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


def used_elsewhere(path: str, name: str, fallback: str) -> str | None:
    """A project file other than `path` that mentions `name` (relative to the project), or None."""
    me = os.path.abspath(path)
    root = project_root(os.path.dirname(me), fallback or os.path.dirname(me))
    word = re.compile(rb"(?<![A-Za-z0-9_])" + re.escape(name.encode()) + rb"(?![A-Za-z0-9_])")
    for other in _python_files(root):
        if other == me:
            continue
        try:
            with open(other, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        if word.search(data):
            return os.path.relpath(other, root).replace(os.sep, "/")
    return None
