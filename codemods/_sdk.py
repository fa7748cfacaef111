"""SDK names the rules match, in one place, so the ratchet tests can pin each against the installed SDKs.

Names are fully qualified import paths as libcst's QualifiedNameProvider reports them.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

# High-level servers whose `@x.tool` decorates tools.
HIGH_LEVEL_SERVERS = frozenset(
    {
        "mcp.server.fastmcp.FastMCP",  # mcp 1.x
        "mcp.server.fastmcp.server.FastMCP",
        "mcp.server.mcpserver.MCPServer",  # mcp 2.x
        "mcp.server.mcpserver.server.MCPServer",
        "fastmcp.FastMCP",  # fastmcp 2.x-4.x
        "fastmcp.server.FastMCP",
        "fastmcp.server.server.FastMCP",
    }
)
LOW_LEVEL_SERVERS = frozenset(
    {"mcp.server.lowlevel.Server", "mcp.server.lowlevel.server.Server", "mcp.server.Server"}
)

MCP_CONTEXTS = frozenset(
    {
        "mcp.server.fastmcp.Context",
        "mcp.server.fastmcp.server.Context",
        "mcp.server.mcpserver.Context",
        "mcp.server.mcpserver.context.Context",
        "mcp.server.mcpserver.server.Context",
    }
)
FASTMCP_CONTEXTS = frozenset({"fastmcp.Context", "fastmcp.server.Context", "fastmcp.server.context.Context"})
REQUEST_CONTEXTS = frozenset(
    {
        "mcp.shared.context.RequestContext",
        "mcp.server.context.ServerRequestContext",
        "mcp.server.context.Context",
    }
)
SESSIONS = frozenset({"mcp.server.session.ServerSession", "mcp.ServerSession"})
# Calls that return the current request's context.
GET_CONTEXT_FUNCTIONS = frozenset(
    {"fastmcp.server.dependencies.get_context", "fastmcp.server.context.get_context", "fastmcp.get_context"}
)
REQUEST_CTX_VARS = frozenset({"mcp.server.lowlevel.server.request_ctx", "mcp.server.lowlevel.request_ctx"})

SDK_PREFIXES = ("mcp", "fastmcp")

# Receiver kinds, from what a `.list_roots()` or `.session` hangs off.
CONTEXT = "context"  # mcp Context (has .session and .request_context)
FASTMCP_CONTEXT = "fastmcp-context"  # fastmcp Context (also has .list_roots())
REQUEST_CONTEXT = "request-context"  # low-level RequestContext (has .session)
SESSION = "session"
HL_SERVER = "server"
LL_SERVER = "lowlevel-server"
CAPTURED = "captured"  # an MCP-looking object held outside any request (global, attribute)
FOREIGN = "foreign"  # known not to be an MCP object (annotated or constructed as something else)


def annotation_kind(state: Any, annotation: cst.BaseExpression) -> str | None:
    """Kind named by a parameter annotation (`Context`, `Context | None`, `"Context"`, `Context[S, T]`)."""
    names: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.update(state.qnames(node))

        def visit_Attribute(self, node: cst.Attribute) -> None:
            names.update(state.qnames(node))

    annotation.visit(Names())
    if isinstance(annotation, cst.SimpleString):
        text = annotation.evaluated_value
        if isinstance(text, str) and text.split("[")[0].strip() in ("Context", "fastmcp.Context"):
            return FASTMCP_CONTEXT if state.extra.get("imports_fastmcp") else CONTEXT
    if names & FASTMCP_CONTEXTS:
        return FASTMCP_CONTEXT
    if names & MCP_CONTEXTS:
        return CONTEXT
    if names & REQUEST_CONTEXTS:
        return REQUEST_CONTEXT
    if names & SESSIONS:
        return SESSION
    return FOREIGN


def call_kind(state: Any, call: cst.Call) -> str | None:
    """Kind of the value a call returns: a server constructor, get_context(), request_ctx.get()."""
    names = state.qnames(call.func)
    if names & HIGH_LEVEL_SERVERS:
        return HL_SERVER
    if names & LOW_LEVEL_SERVERS:
        return LL_SERVER
    if names & GET_CONTEXT_FUNCTIONS:
        return FASTMCP_CONTEXT
    func = call.func
    if isinstance(func, cst.Attribute):
        if func.attr.value == "get_context" and expr_kind(state, func.value) == HL_SERVER:
            return FASTMCP_CONTEXT if state.extra.get("imports_fastmcp") else CONTEXT
        if func.attr.value == "get" and state.qnames(func.value) & REQUEST_CTX_VARS:
            return REQUEST_CONTEXT
    return None


def expr_kind(state: Any, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """What MCP object `expr` is, by imports and scopes; None when it is not (or not known to be) one."""
    if depth > 8:
        return None
    if isinstance(expr, cst.Call):
        return call_kind(state, expr)
    if isinstance(expr, cst.Attribute):
        base = expr_kind(state, expr.value, depth + 1)
        attr = expr.attr.value
        if attr == "request_context":
            if base in (CONTEXT, FASTMCP_CONTEXT, LL_SERVER, HL_SERVER):
                return REQUEST_CONTEXT
            return CAPTURED if base is None and state.extra.get("imports_sdk") else None
        if attr == "session":
            if base in (CONTEXT, FASTMCP_CONTEXT, REQUEST_CONTEXT):
                return SESSION
            return CAPTURED if base is None and state.extra.get("imports_sdk") else None
        if attr in ("_mcp_server",) and base == HL_SERVER:
            return LL_SERVER
        return None
    if isinstance(expr, cst.Name):
        return name_kind(state, expr, depth)
    return None


def name_kind(state: Any, name: cst.Name, depth: int) -> str | None:
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    kinds: list[str | None] = []
    for assignment in scope[name.value]:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param):
            if node.annotation is not None:
                kinds.append(annotation_kind(state, node.annotation.annotation))
            elif state.extra.get("imports_sdk"):
                kinds.append(FASTMCP_CONTEXT if state.extra.get("imports_fastmcp") else CONTEXT)
            continue
        if isinstance(node, cst.Name):
            value = _assigned_value(state, node)
            if value is not None:
                kind = expr_kind(state, value, depth + 1)
                if kind is None and isinstance(value, cst.Call):
                    kind = FOREIGN
                # A session or context held in a module global outlives the request that produced it.
                if kind in (SESSION, CONTEXT, FASTMCP_CONTEXT, REQUEST_CONTEXT) and _is_global(assignment):
                    kind = CAPTURED
                kinds.append(kind)
    held = any(_is_global(a) for a in scope[name.value])
    if not any(kinds) and "session" in name.value.lower() and state.extra.get("imports_sdk") and held:
        kinds.append(CAPTURED)
    known = [k for k in kinds if k is not None]
    return known[0] if known else None


def _assigned_value(state: Any, target: cst.Name) -> cst.BaseExpression | None:
    parent = state.parent(target)
    if isinstance(parent, cst.AssignTarget):
        assign = state.parent(parent)
        return assign.value if isinstance(assign, cst.Assign) else None
    if isinstance(parent, (cst.AnnAssign, cst.NamedExpr)) and parent.target is target:
        return parent.value
    return None


def _is_global(assignment: Any) -> bool:
    from libcst.metadata import GlobalScope

    return isinstance(getattr(assignment, "scope", None), GlobalScope)
