"""A read-only visit of the file being analysed, without libcst's copy of every node on the way.

`node.visit(visitor)` rebuilds each node it passes (libcst's visitor is a transformer underneath), which was a
sixth of a scan's time in the rules' own small walks. While a file's rules run (`engine_walk._walk`), `read`
walks the file's parsed tree through the children its metadata already holds (`FileState.walk`: the same
nodes, order and `visit_`/`leave_` calls). A node the walk does not know (built by a rule, or of another
module's tree) is visited by libcst as before. Only for visitors that read: a transformer's result is lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import libcst as cst

_FILES: list[Any] = []  # the FileState whose rules are running, innermost last


def read(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """`node.visit(visitor)`, for a visitor that only reads."""
    if _FILES:
        _FILES[-1].walk(node, visitor)
    else:
        node.visit(visitor)


@contextmanager
def reading(state: Any) -> Iterator[None]:
    """Let `read` walk `state`'s tree while the block runs."""
    _FILES.append(state)
    try:
        yield
    finally:
        _FILES.pop()
