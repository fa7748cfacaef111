"""Small libcst edits several rule families share (recorded with `FileState.edit`, applied after the walk)."""

from __future__ import annotations

from typing import Any

import libcst as cst


def drop_keyword(keyword: str) -> Any:
    """An edit for a Call: remove the `keyword=...` argument, keeping the list's comma layout."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        args = list(node.args)
        index = next(
            (i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == keyword), None
        )
        if index is None:
            return node
        removed = args.pop(index)
        if index == len(args) and args:
            args[-1] = args[-1].with_changes(comma=removed.comma)
        return node.with_changes(args=args)

    return change
