"""Which files a run considers: git-aware, exclude-aware, never following a link out of the tree."""

from __future__ import annotations

import fnmatch
import os
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


def _excluded(path: Path, patterns: Iterable[str]) -> bool:
    text = path.as_posix()
    return any(fnmatch.fnmatch(text, p) or fnmatch.fnmatch(path.name, p) for p in patterns)


def _git_files(folder: Path) -> list[Path] | None:
    """Tracked plus untracked-not-ignored files below `folder`, or None outside a work tree."""
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
    return [folder / name for name in os.fsdecode(out).split("\0") if name]


def _walk(folder: Path) -> Iterator[Path]:
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not _is_venv(here / d))
        for name in filenames:
            yield here / name


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def discover(paths: Iterable[Path], exclude: Iterable[str] = ()) -> list[Path]:
    """Python files under `paths`, sorted, without duplicates. A file named explicitly is always kept."""
    patterns = list(exclude)
    found: dict[Path, None] = {}
    for given in paths:
        if given.is_file() or (given.exists() and not given.is_dir()):
            found[given] = None
            continue
        if not given.is_dir():
            continue
        root = given.resolve()
        listed = _git_files(given)
        candidates = listed if listed is not None else list(_walk(given))
        for path in candidates:
            if path.suffix != ".py" or not os.path.lexists(path):
                continue
            rel = path.relative_to(given)
            if any(part in SKIP_DIRS for part in rel.parts[:-1]):
                continue
            if _excluded(rel, patterns):
                continue
            if path.is_symlink() and not _inside(path, root):
                continue
            found[path] = None
    return sorted(found, key=lambda p: p.as_posix())
