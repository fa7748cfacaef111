"""A rich progress bar on stderr, shown only on a terminal and only when there is enough work to watch."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from migrate_roots.engine import Progress

_MIN_FILES = 50  # below this a bar only flickers


@contextmanager
def progress_bar(enabled: bool) -> Iterator[Progress]:
    if not (enabled and sys.stderr.isatty()):
        yield lambda phase, done, total: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.progress import Progress as Bar

    tasks: dict[str, Any] = {}
    with Bar(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:

        def update(phase: str, done: int, total: int) -> None:
            if total < _MIN_FILES:
                return
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done, total=total)

        yield update
