"""Low-level `Server` tools (MR151-MR153): the schema, the call handler branch and the roots call, together.

The low-level API does not derive `inputSchema` from a signature: one `call_tool` handler serves every tool
and dispatches on the tool name, and the schemas are hand-written JSON Schema in `list_tools`. This family
works with the roots-call family (codemods/roots_call.py), which owns the roots sites, the helpers and the
package plan:

- index (both walks, at the module node): find the handlers (mcp 1.x `@server.call_tool()`, mcp 2.x
  `Server(on_call_tool=...)` / `add_request_handler("tools/call", ...)`, fastmcp `mcp._mcp_server`), their
  branches per tool (if/elif on the name, `match`, a dict of functions), and each tool's schema
  (`types.Tool(name=..., inputSchema=...)`). Each branch, dispatched function and handler is declared
  "tool-like" to the roots-call family through `state.extra["tool_like"]`, with the expression that holds
  the path there (`arguments.get("root")`, `(params.arguments or {}).get("root")`), or with a refusal (MR152)
  when its schema cannot be edited with certainty.
- plan: the roots-call plan decides which of them reach roots and with which shape.
- rewrite: the roots-call family rewrites the sites and helpers; this family adds the property to the
  schema of each tool that reaches roots: in the dict literal, in the module constant (or, when the constant
  also serves a tool that does not reach roots, in a derived copy for this tool only), or as a field of the
  pydantic model.

Where it lives: `_lowlevel_model` (codes, what the index finds), `_lowlevel_schemas` and `_lowlevel_dispatch`
(the index: tools and schemas, then handlers and branches), `_lowlevel_rewrite` and `_lowlevel_edits` (the
schema edits). This module holds the rules, so they register when it is imported.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk_imports
from migrate_roots.codemods._lowlevel_dispatch import _Indexer
from migrate_roots.codemods._lowlevel_model import (
    CODE,
    DYNAMIC,
    UNKNOWN,
    Handler,
    Index,
    Schema,
    ToolDecl,
    _code,
    _first_refusal,
    _handler_tools,
    _runtime_refusal,
)
from migrate_roots.codemods._lowlevel_rewrite import _Rewrite
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_model import Plan
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.codemods.roots_call import RootsCall
from migrate_roots.model import Severity

__all__ = [
    "CODE",
    "DYNAMIC",
    "UNKNOWN",
    "Handler",
    "Index",
    "LowLevelTools",
    "Schema",
    "SchemaDynamic",
    "ToolDecl",
    "ToolUnknown",
]


class LowLevelTools(Rule):
    code = CODE
    name = "lowlevel-tool-roots"
    summary = (
        "Roots read in a low-level `Server` tool: the tool's schema gains the path property and its handler "
        "branch passes it to the shim."
    )
    severity = Severity.BROKEN
    fix = "safe"
    tokens = (b"list_roots",)
    requires = b""  # as the roots-call family: a roots token is always parsed
    nodes = (cst.Module,)
    limits = (
        "Schemas built at runtime, imported from another module, or tools whose branch cannot be told apart "
        "(MR152, MR153) are marked, not rewritten. Needs the roots-call family (MR101) enabled."
    )

    def __init__(self) -> None:
        self.index = Index()

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if not isinstance(node, cst.Module):
            return
        _sdk_imports.note_sdk_imports(state)
        self.index = _Indexer(state).run(node)
        like = state.extra.setdefault("tool_like", {})
        # (qualname, tool: the plan's name for it, value, code, refusal, the tool the client calls: findings)
        for handler in self.index.handlers:
            tools = _handler_tools(self.index)
            if self.index.dynamic_tools:
                refusal: tuple[str, str] | None = _runtime_refusal(self.index)
            elif not tools:
                refusal = (UNKNOWN, "no `types.Tool(name=...)` found in this module for this handler's tools")
            else:
                refusal = _first_refusal(self.index, tools)
            splats = _handed_on_whole(handler, state)
            blocks = [block for block, _, _ in handler.branches]
            # A splat outside every branch reaches every tool; one inside a branch, that branch's tools only.
            splat = next(
                (why for call, why in splats if not any(_within(call, b, state) for b in blocks)), None
            )
            # A read before the dispatch belongs to every tool of the handler, to no one of them: no tool.
            name = handler.func.name.value
            like[handler.func] = (handler.qualname, name, handler.value, CODE, splat or refusal, None)
            for block, keys, qualname in handler.branches:
                shown = self._shown(keys)
                mine = next((why for call, why in splats if _within(call, block, state)), None)
                why = splat or mine or _first_refusal(self.index, keys)
                like[block] = (qualname, shown, handler.value, CODE, why, shown)
            for func, keys, value, why_table in handler.tables:
                shown = self._shown(keys)
                refusal = splat or ((UNKNOWN, why_table) if why_table else _first_refusal(self.index, keys))
                like[func] = (state.qualname(func), shown, value or handler.value, CODE, refusal, shown)
            dispatched = state.extra.setdefault("dispatched", [])  # read by the plan (ModuleFacts.dispatched)
            dispatched += [
                (fq, self._shown(keys), holder, line) for fq, keys, holder, line in handler.elsewhere
            ]

    def _shown(self, keys: list[str]) -> str:
        """The tools a branch serves as the client names them (`tree`), described in the module or not."""
        return ", ".join(self.index.tools[k].display if k in self.index.tools else k[2:] for k in keys)

    def leave(self, state: FileState) -> None:
        if state.phase != "rewrite":
            return
        plan = state.plan.get(RootsCall.code)
        if not isinstance(plan, Plan) or not plan.tools:
            return
        _Rewrite(self.index, plan, state).record()


class SchemaDynamic(Rule):
    code = DYNAMIC
    name = "lowlevel-schema-dynamic"
    summary = "Low-level tool reaching roots whose inputSchema is built at runtime or elsewhere: marked."
    severity = Severity.BROKEN
    tokens = LowLevelTools.tokens
    requires = b""
    runner = LowLevelTools
    limits = "The property cannot be added with certainty; add it by hand and pass it to list_roots_compat."


class ToolUnknown(Rule):
    code = UNKNOWN
    name = "lowlevel-tool-unknown"
    summary = "Low-level handler whose tools or dispatch cannot be matched to their schemas: marked."
    severity = Severity.BROKEN
    tokens = LowLevelTools.tokens
    requires = b""
    runner = LowLevelTools
    limits = "Name the tools with string literals (or enum members) in both `list_tools` and the dispatch."


def _within(node: cst.CSTNode, block: cst.CSTNode, state: FileState) -> bool:
    current: cst.CSTNode | None = node
    while current is not None and current is not block:
        current = state.parent(current)
    return current is block


def _handed_on_whole(handler: Handler, state: FileState) -> list[tuple[cst.Call, tuple[str, str]]]:
    """MR153 for each call of the handler that hands the tool arguments on whole (`search(roots, **arguments)`)
    to a function of the module that neither reads roots nor takes `**kwargs`, or to one the module does not
    define: the new schema property would reach it as an unexpected keyword. A pydantic model of the module
    (extra fields ignored unless its config says otherwise) takes what comes."""
    module = state.wrapper.module
    functions = {s.name.value: s for s in module.body if isinstance(s, cst.FunctionDef)}
    classes = {s.name.value: s for s in module.body if isinstance(s, cst.ClassDef)}
    found: list[tuple[cst.Call, tuple[str, str]]] = []

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            for arg in node.args:
                if arg.star != "**" or _code(arg.value).strip() not in handler.args:
                    continue
                callee = node.func.value if isinstance(node.func, cst.Name) else None
                target = functions.get(callee) if callee else None
                if target is not None and (
                    target.params.star_kwarg is not None or "list_roots" in _code(target)
                ):
                    continue  # it takes what comes, or it is the roots reader the plan gives the parameter
                model = classes.get(callee) if callee else None
                if (
                    model is not None
                    and "BaseModel" in _code(model).split(":")[0]
                    and "extra" not in _code(model)
                ):
                    continue
                shown = _code(node.func).strip()
                found.append(
                    (
                        node,
                        (
                            UNKNOWN,
                            f"the tool arguments are handed on whole (`{shown}(..., **{_code(arg.value).strip()})`): "
                            f"a new `{state.settings.param_name}` property would reach `{shown}` as an unexpected "
                            "keyword",
                        ),
                    )
                )
                return

    read(handler.func.body, Find())
    return found
