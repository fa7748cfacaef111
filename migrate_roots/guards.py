"""Guards around a run: what `apply` refuses to do, and the inputs the engine must survive.

- `dirty_files`: inside a git work tree, the files whose working copy differs from the index (modified and
  not staged, or untracked); `apply` refuses to run on them unless `--allow-dirty` (exit 2), so that the
  migration's diff can be reviewed on its own, as with `cargo fix`. Changes already staged do not count: the
  migration then shows as the unstaged diff on top of them (this is also what a pre-commit hook sees).
- `run_lock`: one `apply` at a time per work tree (per folder outside git): a second run waits for the first,
  then sees its result. On top of the writer's compare-before-write, which already refuses to overwrite
  bytes it did not read.
- `remove_stale_temp`: an interrupted run (SIGKILL, power loss) can leave the writer's temporary file
  (`.name.py.XXXX.migrate-roots.tmp`) next to a source file, never a half-written source file; the next run,
  holding the lock, removes them.
- `read_source`: reads only regular files (a FIFO would block the run, a socket or device cannot be read)
  and only up to `MAX_BYTES` (MR907 beyond that: parsing and metadata of a 10 MB file take minutes and GBs).
- `probe_parse`: libcst's native parser overflows its stack (a segmentation fault that would end the whole
  run) on very deep nesting; a file that looks deeply nested is first parsed in a throw-away child process.

Nothing here prints; the CLI turns the exceptions into one-line messages.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

MAX_BYTES = 2_000_000  # larger candidate files are skipped with MR907
TEMP_SUFFIX = ".migrate-roots.tmp"  # the writer's temporary files: `.<name>.<random>.migrate-roots.tmp`
_STALE = re.compile(r"^\..+\.[A-Za-z0-9_]+" + re.escape(TEMP_SUFFIX) + "$")

# A file is "deeply nested" (and parsed first in a child process) beyond these; real code stays far below.
MAX_BRACKET_DEPTH = 100
MAX_LINE = 20_000


class NotRegular(OSError):
    """A FIFO, socket or device named like a Python file."""


class TooLarge(Exception):
    def __init__(self, size: int) -> None:
        super().__init__(f"{size / 1e6:.1f} MB, over the {MAX_BYTES / 1e6:.0f} MB limit; skipped")
        self.size = size


# ---------------------------------------------------------------------------------------------------------
# Reading


def read_source(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file; NotRegular for anything else (without blocking on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        if not stat.S_ISREG(os.stat(path).st_mode):  # a socket cannot even be opened
            raise NotRegular(0, "not a regular file (FIFO, socket or device); skipped", str(path)) from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(0, "not a regular file (FIFO, socket or device); skipped", str(path))
        if limit is not None and info.st_size > limit:
            raise TooLarge(info.st_size)
        # Asking for one byte more than the size and getting exactly the size is the end of the file: one
        # system call a file instead of two (most of a no-match run is reading, benchmark 1). A short read
        # (a network file system) or a file that grew goes on to the usual loop.
        data = os.read(fd, info.st_size + 1)
        if len(data) == info.st_size:
            return data
        chunks = [data]
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


# ---------------------------------------------------------------------------------------------------------
# Deep nesting


_BRACKETS = re.compile(r"[()\[\]{}]")


def read_only(path: str | Path) -> bool:
    """No write bit in the file's mode: left alone, whoever runs (root may write it all the same)."""
    try:
        return not stat.S_IMODE(os.stat(path).st_mode) & 0o222
    except OSError:
        return False


def looks_deep(text: str) -> bool:
    """Cheap over-estimate: bracket depth (strings and comments included) or a very long line."""
    if len(text) < 2 * MAX_BRACKET_DEPTH:
        return False
    depth = top = opened = 0
    for match in _BRACKETS.finditer(text):
        if match.group() in "([{":
            if not depth:
                opened = match.start()
            depth += 1
            if depth > top:
                top = depth
                if top > MAX_BRACKET_DEPTH:
                    return True
        elif depth:
            depth -= 1
            if not depth and match.start() - opened > MAX_LINE:
                return True  # one bracketed expression longer than a long line (a huge operator chain)
    return any(len(line) > MAX_LINE for line in text.splitlines())


def _probe(text: str) -> None:  # runs in the child
    import faulthandler

    import libcst as cst

    faulthandler.disable()  # the crash is the expected outcome here, not worth a traceback on stderr

    with contextlib.suppress(Exception, RecursionError):
        cst.parse_module(text)
    os._exit(0)


def parser_survives(text: str, timeout: float = 120) -> bool:
    """Parse `text` in a child process: False when the parser crashed it (or hung)."""
    import multiprocessing

    method = "fork" if sys.platform.startswith("linux") else "spawn"
    context: Any = multiprocessing.get_context(method)
    child = context.Process(target=_probe, args=(text,), daemon=True)
    child.start()
    child.join(timeout)
    if child.exitcode is None:
        child.kill()
        child.join()
        return False
    return child.exitcode == 0


# ---------------------------------------------------------------------------------------------------------
# Git: uncommitted changes


def _git(args: list[str], cwd: Path) -> bytes | None:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None


def work_tree(path: Path) -> Path | None:
    folder = path if path.is_dir() else path.parent
    out = _git(["rev-parse", "--show-toplevel"], folder)
    return Path(os.fsdecode(out.strip())).resolve() if out else None


def dirty_files(paths: Iterable[Path]) -> list[Path]:
    """Files below `paths` whose working copy differs from git's index, or untracked (absolute, sorted).

    Paths outside any git work tree have no such notion and are never dirty.
    """
    dirty: set[Path] = set()
    for given in paths:
        top = work_tree(given)
        if top is None:
            continue
        folder = given if given.is_dir() else given.parent
        spec = "." if given.is_dir() else given.name
        out = _git(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", spec], folder)
        if out is None:
            continue
        entries = out.split(b"\0")
        index = 0
        while index < len(entries):
            entry = entries[index]
            index += 1
            if len(entry) < 4:
                continue
            code, name = entry[:2], entry[3:]
            if code[:1] in (b"R", b"C"):
                index += 1  # the source name of a rename/copy follows
            if code[1:2] == b" ":
                continue  # staged only: the working copy is the index's, our edits stay a separate diff
            dirty.add((top / os.fsdecode(name)).resolve())
    return sorted(dirty)


def describe_dirty(dirty: list[Path], cwd: Path | None = None) -> str:
    """The one-line explanation `apply` prints when it refuses."""
    base = (cwd or Path.cwd()).resolve()

    def show(path: Path) -> str:
        try:
            return path.relative_to(base).as_posix()
        except ValueError:
            return str(path)

    names = ", ".join(show(p) for p in dirty[:3]) + (f" and {len(dirty) - 3} more" if len(dirty) > 3 else "")
    return (
        f"{len(dirty)} Python file(s) the run may write have uncommitted changes ({names}); commit or stash them "
        "first so the migration can be reviewed as its own diff, or pass --allow-dirty"
    )


# ---------------------------------------------------------------------------------------------------------
# One apply at a time


def _lock_file(paths: list[Path]) -> Path:
    roots = sorted({str(work_tree(p) or p.resolve()) for p in paths}) or [str(Path.cwd().resolve())]
    import hashlib

    key = hashlib.sha256("\0".join(roots).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"migrate-roots-{key}.lock"


@contextlib.contextmanager
def run_lock(paths: list[Path], on_wait: object = None) -> Iterator[Path]:
    """Hold an exclusive lock for the work tree(s) of `paths` (blocking; released when the process ends).

    The lock file is removed on release, so that runs leave nothing in the temporary folder. It is unlinked
    while still locked; a waiter that then gets the lock holds an inode no longer at `path`, so it checks that
    the file it locked is still the one at `path` and, if not, opens the new one and locks again.
    """
    path = _lock_file(paths)
    try:
        import fcntl
    except ImportError:  # not POSIX: the writer's compare-before-write is the only guard
        yield path
        return
    waited = False
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if callable(on_wait) and not waited:
                    on_wait(path)
                waited = True
                fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        if _same_file(fd, path):
            break
        os.close(fd)  # the holder unlinked the file we locked: lock the current one
    try:
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # still locked: no one else can hold a lock on this inode
        os.close(fd)  # closing releases the lock


def _same_file(fd: int, path: Path) -> bool:
    """Whether the open file `fd` is the file now at `path` (not unlinked or replaced since it was opened)."""
    try:
        at_path = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (held.st_dev, held.st_ino) == (at_path.st_dev, at_path.st_ino)


def remove_stale_temp(files: Iterable[str | Path]) -> list[Path]:
    """Delete the writer's leftover temporary files in the folders of `files` (call under `run_lock`)."""
    removed = []
    for folder in sorted({Path(os.path.dirname(f) or os.curdir) for f in files}):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name.endswith(TEMP_SUFFIX) and _STALE.match(name):
                stale = folder / name
                with contextlib.suppress(OSError):
                    if stale.is_file() and not stale.is_symlink():
                        stale.unlink()
                        removed.append(stale)
    return removed
