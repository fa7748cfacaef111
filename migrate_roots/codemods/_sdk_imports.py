"""Whether a file uses an SDK at all, and the receivers SEP-2577's sampling and logging rules (MR4xx, MR5xx) and
the client-roots and low-level rules ask about: an SDK callable, the module facts `expr_kind` reads
(`note_sdk_imports`), a name known only as an unannotated parameter (`loosely_typed`)."""

from __future__ import annotations

import re
from typing import Any

import libcst as cst

from migrate_roots.codemods._sdk import SDK_PREFIXES, annotation_kind


def is_sdk_callable(state: Any, func: cst.BaseExpression) -> bool:
    """Does this callee resolve (through imports) to something in the mcp or fastmcp packages?"""
    return any(name.split(".")[0] in SDK_PREFIXES for name in state.qnames(func))


# An import of the SDK (`from mcp.server import ...`, `import fastmcp`), at any indentation: the spelling of a
# name (`mcp_ctx`, `from mcp.server.fastmcp`) says nothing about which package a file uses.
_SDK_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(mcp|fastmcp|mcp_types)\b|import[ \t]+(?:[\w., \t]*,[ \t]*)?(mcp|fastmcp|mcp_types)\b)",
    re.M,
)


def note_sdk_imports(state: Any) -> None:
    """Set the module facts `expr_kind` reads, once per file: does it import an SDK, and the fastmcp package
    (whose Context.list_roots() is a list) rather than mcp's?"""
    if "imports_sdk" not in state.extra:
        found = {a or b for a, b in _SDK_IMPORT.findall("\n".join(state.lines))}
        state.extra["imports_fastmcp"] = "fastmcp" in found
        state.extra["imports_sdk"] = bool(found)


def loosely_typed(state: Any, expr: cst.BaseExpression) -> bool:
    """Is `expr` a name known only as an unannotated parameter (its MCP kind is a guess from the imports)?

    A random generator's `rng.sample(...)` or a logger passed as `log` look like that too, so callers also
    ask for a sign of the SDK's API (the MCP context methods are coroutines: the call is awaited).
    """
    if not isinstance(expr, cst.Name):
        return False
    scope = state.scope(expr)
    if scope is None or expr.value not in scope:
        return False
    nodes = [getattr(a, "node", None) for a in scope[expr.value]]
    return bool(nodes) and all(
        isinstance(n, cst.Param)
        and (n.annotation is None or annotation_kind(state, n.annotation.annotation) is None)
        for n in nodes
    )
