"""Which files a run considers: git-aware, exclude-aware, never following a link out of the tree."""

from __future__ import annotations

import fnmatch
import os
import stat
import subprocess
from collections.abc import Iterable, Iterator
from pathlib import Path

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "venv",
        ".env",
        "env",
        "node_modules",
        "__pycache__",
        "build",
        "dist",
        "site-packages",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".sdk-envs",
    }
)


def _is_venv(folder: Path) -> bool:
    return (folder / "pyvenv.cfg").is_file()


def _excluded(rel: str, name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(name, p) for p in patterns)


def _git_files(folder: Path) -> list[str] | None:
    """Tracked plus untracked-not-ignored files below `folder` ('/'-separated, relative), or None outside git."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."],
            cwd=folder,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return [name for name in os.fsdecode(out).split("\0") if name]


def _walk(folder: Path) -> Iterator[str]:
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not _is_venv(Path(dirpath, d)))
        rel = os.path.relpath(dirpath, folder)
        prefix = "" if rel == os.curdir else rel.replace(os.sep, "/") + "/"
        for name in filenames:
            yield prefix + name


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def discover(
    paths: Iterable[Path], exclude: Iterable[str] = (), links: dict[str, str] | None = None
) -> list[str]:
    """Python files under `paths`, sorted, without duplicates. A file named explicitly is always kept. Each
    symbolic link kept is recorded in `links`, when given, with the absolute path it resolves to.

    Paths are strings (as `str(Path)` spells them): the engine makes a `Path` only of a file it parses, and
    pathlib's per-file work was most of the cost of a run that parses nothing (benchmark 1).
    """
    patterns = list(exclude)
    found: dict[str, None] = {}
    for given in paths:
        if given.is_file() or (given.exists() and not given.is_dir()):
            found[str(given)] = None
            continue
        if not given.is_dir():
            continue
        root = given.resolve()
        base = str(given)
        listed = _git_files(given)
        for rel in listed if listed is not None else _walk(given):
            parts = rel.split("/")
            name = parts[-1]
            if not name.endswith(".py") or name == ".py" or not SKIP_DIRS.isdisjoint(parts[:-1]):
                continue
            if patterns and _excluded(rel, name, patterns):
                continue
            full = (
                rel.replace("/", os.sep)
                if base == os.curdir
                else os.path.join(base, rel.replace("/", os.sep))
            )
            try:
                mode = os.lstat(full).st_mode
            except OSError:  # listed by git but deleted from the work tree
                continue
            if stat.S_ISLNK(mode):
                if not _inside(Path(full), root):
                    continue
                if links is not None:
                    links[full] = os.path.realpath(full)
            found[full] = None
    return sorted(found, key=lambda p: p.replace(os.sep, "/"))
