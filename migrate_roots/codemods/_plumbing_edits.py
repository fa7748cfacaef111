"""The edits of the plumbing analysis, as pure functions of a node: remove, unwrap an `if`, keep a removed
statement's blank lines, trim a `global` statement or an import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import libcst as cst

from migrate_roots.codemods._plumbing_state import _bound_name


def _remove(_node: cst.CSTNode) -> Any:
    return cst.RemovalSentinel.REMOVE


def _blank_lines(node: cst.CSTNode) -> int:
    lines = getattr(node, "leading_lines", ())
    count = 0
    for line in lines:
        if line.comment is not None:
            break
        count += 1
    return count


def _with_blank_lines(count: int) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        if not hasattr(node, "leading_lines") or _blank_lines(node) >= count:
            return node
        extra = [cst.EmptyLine(indent=False) for _ in range(count - _blank_lines(node))]  # no trailing spaces
        return node.with_changes(leading_lines=[*extra, *node.leading_lines])

    return change


def _without_blank_lines(node: cst.CSTNode) -> cst.CSTNode:
    lines = list(getattr(node, "leading_lines", ()))
    while lines and lines[0].comment is None:
        lines.pop(0)
    return node.with_changes(leading_lines=lines) if hasattr(node, "leading_lines") else node


def _prepend_body(statements: Sequence[cst.BaseStatement]) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.If) and isinstance(node.body, cst.IndentedBlock)
        return node.with_changes(body=node.body.with_changes(body=[*statements, *node.body.body]))

    return change


def _unwrap_if(node: cst.CSTNode) -> Any:
    assert isinstance(node, cst.If)
    body = node.body
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else []
    if not statements:
        return cst.RemovalSentinel.REMOVE
    first = statements[0]
    assert isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
    statements[0] = first.with_changes(leading_lines=[*node.leading_lines, *first.leading_lines])
    return cst.FlattenSentinel(statements)


def _keep_global(keep: list[str]) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Global)
        names = [n for n in node.names if n.name.value in keep]
        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return node.with_changes(names=names)

    return change


def _drop_aliases(drop: set[str]) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, (cst.Import, cst.ImportFrom))
        names = node.names
        assert not isinstance(names, cst.ImportStar)
        keep = [a for a in names if _bound_name(a) not in drop]
        if not keep:
            return node
        last = names[-1].comma if _has_parens(node) else cst.MaybeSentinel.DEFAULT
        keep[-1] = keep[-1].with_changes(comma=last)
        return node.with_changes(names=keep)

    return change


def _has_parens(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.ImportFrom) and node.lpar is not None
