"""Share a list's work with forked children: the prefilter reads and searches every file of the tree, and on
two cores a tree where nothing matches is screened in a little over half the wall time (benchmark 1).

Fork, not a process pool: importing multiprocessing and concurrent.futures costs about 20 ms, as much as the
pool saves on a 3,000-file tree. A child gets its share by fork (nothing is pickled on the way in: the
prefilter's pattern may be any object) and sends back `marshal`-able results through a pipe. Whatever goes
wrong in a child (it dies, it is killed, its answer is cut short), the parent does that share itself, so the
results are always those of the serial loop, in the same order.

No fork where it is unsafe or unavailable: off Linux (macOS's system libraries may run threads of their own,
which is why the engine's worker pool forks only on Linux too), or when the process runs other Python threads
(a library caller's, or a test runner's), the work is done in this process.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

# Below this many items a fork costs more than it saves.
MINIMUM = 256


def _may_fork() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _child(work: Callable[[list[T]], list[Any]], part: list[T], write: int) -> None:
    """Run in the forked child: never returns."""
    code = 1
    try:
        data = marshal.dumps(work(part))
        view = memoryview(data)
        while view:
            view = view[os.write(write, view) :]
        code = 0
    finally:
        os._exit(code)


def split(
    work: Callable[[list[T]], list[tuple[int, Any]]], items: Sequence[T], jobs: int
) -> list[tuple[int, Any]]:
    """`work(items)` in `jobs` processes: `work` takes a list and returns `(index into it, result)` pairs; the
    answer is the pairs for the whole list, indexed into `items`, in index order."""
    items = list(items)
    if jobs <= 1 or len(items) < MINIMUM or not _may_fork():
        return work(items)
    parts = [items[k::jobs] for k in range(jobs)]
    children: list[tuple[int, int, int]] = []  # (share, pid, read end)
    for share in range(1, jobs):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child's coverage is not collected
            os.close(read)
            _child(work, parts[share], write)
        os.close(write)
        children.append((share, pid, read))
    answers = {0: work(parts[0])}
    for share, pid, read in children:
        try:
            data = _read_all(read)
        finally:
            os.close(read)
        _, status = os.waitpid(pid, 0)
        try:
            if status != 0:
                raise ValueError("child failed")
            answers[share] = marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            answers[share] = work(parts[share])
    merged = [(k + jobs * index, result) for k, answer in answers.items() for index, result in answer]
    return sorted(merged, key=lambda pair: pair[0])
