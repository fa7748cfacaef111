"""What the low-level index finds in one file (MR15x): the codes, the tools with their schemas, the handlers.

CST nodes: an `Index` lives for one walk only and is never pickled.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from migrate_roots.codemods.base import FileState

CODE = "MR151"
DYNAMIC = "MR152"
UNKNOWN = "MR153"

_MODULE = cst.Module([])


def _code(node: cst.CSTNode) -> str:
    return _MODULE.code_for_node(node)


@dataclass
class Schema:
    """Where a tool's input schema lives and how it can be edited."""

    kind: str  # "literal" (dict in the Tool call), "constant" (module dict), "model" (pydantic class)
    expr: cst.BaseExpression  # the inputSchema argument
    target: cst.CSTNode  # the dict literal to edit, or the ClassDef
    props: cst.Dict | None = None  # the "properties" dict literal, when there is one
    has_param: bool = False  # already has a property/field with the parameter's name


@dataclass
class ToolDecl:
    key: str
    display: str
    call: cst.Call
    schema: Schema | None = None
    refusal: tuple[str, str] | None = None


@dataclass
class Handler:
    func: cst.FunctionDef
    qualname: str
    form: str  # "v1": (name, arguments); "v2": (ctx, params)
    value: str  # expression of the path value in the handler's own body
    names: set[str]  # source texts that hold the tool name
    args: set[str]  # source texts that hold the arguments dict
    params_name: str = ""  # v2: the params parameter
    branches: list[tuple[cst.CSTNode, list[str], str]] = field(
        default_factory=list
    )  # (block, keys, qualname)
    tables: list[tuple[cst.FunctionDef, list[str], str, str | None]] = field(default_factory=list)
    # (function, keys, value expression, refusal)
    # Table entries naming a function of another module (`from .handlers import handle_where`): (its fully
    # qualified name, keys, the table as written, the table's line). The plan names them in its marker.
    elsewhere: list[tuple[str, list[str], str, int]] = field(default_factory=list)


@dataclass
class Index:
    tools: dict[str, ToolDecl] = field(default_factory=dict)
    dynamic_tools: list[cst.Call] = field(default_factory=list)  # Tool(...) whose name is not a literal
    # Where the first of them is, for the marker: "`types.Tool(...)` in a comprehension in `list_tools`, line 8".
    runtime: str = ""
    handlers: list[Handler] = field(default_factory=list)


def _runtime_refusal(index: Index, key: str | None = None) -> tuple[str, str]:
    """MR152 for a server whose tools are listed at runtime: the handler (no `key`), or a branch for `key`."""
    listed = f"this server lists its tools at runtime ({index.runtime})"
    if key is None:
        return DYNAMIC, f"{listed}: add the path property to the schemas by hand"
    how = "so its schema cannot be edited with certainty: add the path property by hand"
    return DYNAMIC, f"tool `{key[2:]}`: {listed}, {how}"


def _first_refusal(index: Index, keys: list[str]) -> tuple[str, str] | None:
    for key in keys:
        decl = index.tools.get(key)
        if decl is None and index.dynamic_tools:
            return _runtime_refusal(index, key)  # described by the runtime listing, most likely
        if decl is None:
            return (UNKNOWN, f"no `types.Tool(name={key[2:]!r}, ...)` found in this module for this branch")
        if decl.refusal is not None:
            return decl.refusal
    return None


def _handler_tools(index: Index) -> list[str]:
    """The tools a handler serves: every tool described in its module (none when listed at runtime)."""
    if index.dynamic_tools:
        return []
    return list(index.tools)


# Small tree helpers of the dispatch index (`_lowlevel_dispatch`).


def _extra_blocks(statement: cst.CSTNode) -> Iterator[cst.BaseSuite]:
    for name in ("handlers", "orelse", "finalbody"):
        value = getattr(statement, name, None)
        if value is None:
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            body = getattr(item, "body", None)
            if isinstance(body, cst.BaseSuite):
                yield body


def _holder_name(node: cst.Dict, state: FileState) -> str | None:
    """The source text a dict is bound to (`TOOLS`, `self._tools`), or '' for a dict used in place."""
    parent = state.parent(node)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        return _code(parent.targets[0].target).strip()
    if isinstance(parent, cst.AnnAssign):
        return _code(parent.target).strip()
    if isinstance(parent, cst.Subscript):
        return ""
    return None


def _inside(node: cst.CSTNode, ancestor: cst.CSTNode, state: FileState) -> bool:
    current = state.parent(node)
    while current is not None:
        if current is ancestor:
            return True
        current = state.parent(current)
    return False
