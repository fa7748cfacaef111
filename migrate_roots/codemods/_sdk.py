"""SDK names the rules match, in one place, so the ratchet tests can pin each against the installed SDKs.

Names are fully qualified import paths as libcst's QualifiedNameProvider reports them.

A matched object is matched under every public name an SDK line exports it by: `from mcp.server import
ServerRequestContext` is the class of `from mcp.server.context import ServerRequestContext`. Each table holds
first the names its objects are defined or documented under, then the same objects as attributes of every
other public module of `mcp`, `mcp_types` and `fastmcp` (an import is an attribute too), grouped by the SDK
lines that have them. tests/sdk/reexports.py lists those in an SDK line's environment; tests/test_ratchet.py
keeps them in REEXPORTS and fails, naming them, when a line has one that a table lacks. The tables stay
literals: migrate-roots runs without the SDK installed.
"""

from __future__ import annotations

import re
from typing import Any

import libcst as cst
from libcst.metadata import GlobalScope

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
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x (fastmcp 2.x/3.x run on it)
        "mcp.server.FastMCP",
        "mcp.shared.memory.FastMCP",
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.client.client.MCPServer",
        "mcp.server.MCPServer",
        # mcp 1.x's CLI modules, which import only with typer (fastmcp 2.x installs it)
        "mcp.cli.cli.FastMCP",
        # fastmcp 2.x-4.x
        "fastmcp.cli.run.FastMCP",
        "fastmcp.server.context.FastMCP",
        "fastmcp.utilities.inspect.FastMCP",
        # fastmcp 2.x-3.x
        "fastmcp.cli.run.FastMCP1x",  # mcp's FastMCP
        "fastmcp.client.client.FastMCP1Server",  # mcp's FastMCP
        "fastmcp.client.transports.FastMCP1Server",  # mcp's FastMCP
        "fastmcp.server.openapi.server.FastMCP",
        "fastmcp.utilities.inspect.FastMCP1x",  # mcp's FastMCP
        # fastmcp 3.x-4.x
        "fastmcp.server.providers.proxy.FastMCP",
        # fastmcp 2.x
        "fastmcp.client.client.FastMCP",  # fastmcp 3.x-4.x: FastMCP to type checkers, `Any` at run time
        "fastmcp.client.transports.FastMCP",
        "fastmcp.server.proxy.FastMCP",
        "fastmcp.server.proxy.FastMCP1Server",  # mcp's FastMCP
        "fastmcp.utilities.mcp_config.FastMCP",
        # fastmcp 3.x
        "fastmcp.client.transports.inference.FastMCP1Server",  # mcp's FastMCP
        "fastmcp.client.transports.memory.FastMCP1Server",  # mcp's FastMCP
        "fastmcp.server.providers.proxy.FastMCP1Server",  # mcp's FastMCP
        # fastmcp 4.x
        "fastmcp.cli.run.SDKServer",  # mcp's MCPServer
        "fastmcp.client.client.SDKServer",  # mcp's MCPServer
        "fastmcp.client.transports.SDKServer",  # mcp's MCPServer
        "fastmcp.client.transports.inference.SDKServer",  # mcp's MCPServer
        "fastmcp.client.transports.memory.SDKServer",  # mcp's MCPServer
        "fastmcp.server.providers.proxy.SDKServer",  # mcp's MCPServer
        "fastmcp.utilities.inspect.SDKServer",  # mcp's MCPServer
    }
)
LOW_LEVEL_SERVERS = frozenset(
    {
        "mcp.server.Server",
        "mcp.server.lowlevel.Server",
        "mcp.server.lowlevel.server.Server",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x (fastmcp 2.x/3.x run on it)
        "mcp.server.fastmcp.server.MCPServer",  # the low-level Server, imported as MCPServer
        "mcp.server.streamable_http_manager.MCPServer",  # the low-level Server, imported as MCPServer
        "mcp.shared.memory.Server",
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.client.client.Server",
        "mcp.server.mcpserver.server.Server",
        # mcp 1.x's CLI modules, which import only with typer (fastmcp 2.x installs it)
        "mcp.cli.cli.LowLevelServer",  # the low-level Server
        # fastmcp 4.x
        "fastmcp.client.transports.memory.Server",
    }
)

MCP_CONTEXTS = frozenset(
    {
        "mcp.server.fastmcp.Context",
        "mcp.server.fastmcp.server.Context",
        "mcp.server.mcpserver.Context",
        "mcp.server.mcpserver.context.Context",
        "mcp.server.mcpserver.server.Context",
        # The same objects under other public modules (see the module docstring):
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.server.apps.Context",
        "mcp.server.mcpserver.resolve.Context",
        "mcp.server.mcpserver.utilities.context_injection.Context",
    }
)
FASTMCP_CONTEXTS = frozenset(
    {
        "fastmcp.Context",
        "fastmcp.server.Context",
        "fastmcp.server.context.Context",
        # The same objects under other public modules (see the module docstring):
        # fastmcp 2.x-3.x
        "fastmcp.server.middleware.tool_injection.Context",
        # fastmcp 3.x-4.x
        "fastmcp.experimental.transforms.code_mode.Context",
        "fastmcp.server.providers.proxy.Context",
        "fastmcp.server.transforms.search.base.Context",
        "fastmcp.server.transforms.search.bm25.Context",
        "fastmcp.server.transforms.search.regex.Context",
        # fastmcp 2.x
        "fastmcp.server.proxy.Context",
        # fastmcp 4.x
        "fastmcp.experimental.transforms.jev_search.Context",
        "fastmcp.skills.extension.Context",
    }
)
REQUEST_CONTEXTS = frozenset(
    {
        "mcp.server.context.Context",
        "mcp.server.context.ServerRequestContext",
        "mcp.shared.context.RequestContext",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x (fastmcp 2.x/3.x run on it)
        "mcp.client.experimental.task_handlers.RequestContext",
        "mcp.client.session.RequestContext",
        "mcp.server.fastmcp.server.RequestContext",
        "mcp.server.lowlevel.server.RequestContext",
        "mcp.shared.progress.RequestContext",
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.server.ServerRequestContext",
        "mcp.server.apps.ServerRequestContext",
        "mcp.server.extension.ServerRequestContext",
        "mcp.server.lowlevel.server.ServerRequestContext",
        "mcp.server.mcpserver.context.ServerRequestContext",
        "mcp.server.mcpserver.server.ServerRequestContext",
        "mcp.server.request_state.ServerRequestContext",
        "mcp.server.runner.ServerRequestContext",
        "mcp.server.subscriptions.ServerRequestContext",
        # fastmcp 2.x-3.x
        "fastmcp.client.elicitation.RequestContext",  # fastmcp 4.x: its own client-side class of that name
        "fastmcp.client.roots.RequestContext",  # fastmcp 4.x: its own client-side class of that name
        "fastmcp.client.sampling.RequestContext",  # fastmcp 4.x: its own client-side class of that name
        "fastmcp.server.context.RequestContext",
        # fastmcp 2.x
        "fastmcp.server.proxy.RequestContext",
        # fastmcp 3.x
        "fastmcp.server.providers.proxy.RequestContext",
        # fastmcp 4.x
        "fastmcp.server.context.ServerRequestContext",
        "fastmcp.server.dependencies.ServerRequestContext",
        "fastmcp.server.extensions.ServerRequestContext",
        "fastmcp.server.low_level.ServerRequestContext",
        "fastmcp.server.mixins.mcp_operations.ServerRequestContext",
        "fastmcp.server.providers.proxy.ServerRequestContext",
        "fastmcp.skills.extension.ServerRequestContext",
        "fastmcp.skills.provider.ServerRequestContext",
    }
)
SESSIONS = frozenset(
    {
        "mcp.ServerSession",
        "mcp.server.session.ServerSession",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x and 2.x
        "mcp.server.elicitation.ServerSession",
        # mcp 1.x (fastmcp 2.x/3.x run on it)
        "mcp.server.experimental.request_context.ServerSession",
        "mcp.server.experimental.task_context.ServerSession",
        "mcp.server.experimental.task_result_handler.ServerSession",
        "mcp.server.experimental.task_support.ServerSession",
        "mcp.server.fastmcp.server.ServerSession",
        "mcp.server.lowlevel.server.ServerSession",
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.server.context.ServerSession",
        "mcp.server.runner.ServerSession",
        # fastmcp 2.x-4.x
        "fastmcp.client.sampling.ServerSession",
        "fastmcp.server.context.ServerSession",
        "fastmcp.server.low_level.ServerSession",
        # fastmcp 2.x
        "fastmcp.server.proxy.ServerSession",
        # fastmcp 3.x
        "fastmcp.server.providers.proxy.ServerSession",
        "fastmcp.server.tasks.elicitation.ServerSession",
        # fastmcp 4.x
        "fastmcp.server.dependencies.ServerSession",
    }
)
# Calls that return the current request's context.
GET_CONTEXT_FUNCTIONS = frozenset(
    {
        "fastmcp.server.dependencies.get_context",
        # The same objects under other public modules (see the module docstring):
        # fastmcp 2.x-3.x
        "fastmcp.server.tasks.handlers.get_context",
        # fastmcp 3.x-4.x
        "fastmcp.server.providers.proxy.get_context",
        "fastmcp.server.transforms.prompts_as_tools.get_context",
        "fastmcp.server.transforms.resources_as_tools.get_context",
        # fastmcp 2.x
        "fastmcp.prompts.prompt.get_context",
        "fastmcp.resources.resource.get_context",
        "fastmcp.resources.template.get_context",
        "fastmcp.server.proxy.get_context",
        "fastmcp.tools.tool.get_context",
        # fastmcp 4.x
        "fastmcp.server.extensions.get_context",
        "fastmcp.skills.provider.get_context",
    }
)
REQUEST_CTX_VARS = frozenset(
    {
        "mcp.server.lowlevel.server.request_ctx",  # mcp 1.x only
        # The same objects under other public modules (see the module docstring):
        # fastmcp 2.x-3.x
        "fastmcp.server.context.request_ctx",
        "fastmcp.server.dependencies.request_ctx",
        # fastmcp 3.x
        "fastmcp.server.providers.proxy.request_ctx",
        "fastmcp.server.telemetry.request_ctx",
    }
)

SDK_PREFIXES = ("mcp", "fastmcp")
# Annotations that say nothing about what a parameter is.
OPAQUE_TYPES = frozenset({"typing.Any", "typing_extensions.Any", "builtins.object", "object", "Any"})
# What may stand beside an opaque type and leave it opaque: `Any | None`, `Optional[Any]`, `Union[Any, None]`.
_OPTIONAL_PARTS = frozenset({"None", "builtins.None", "typing.Optional", "typing.Union", "Optional", "Union"})

# Receiver kinds, from what a `.list_roots()` or `.session` hangs off.
CONTEXT = "context"  # mcp Context (has .session and .request_context)
FASTMCP_CONTEXT = "fastmcp-context"  # fastmcp Context (also has .list_roots())
REQUEST_CONTEXT = "request-context"  # low-level RequestContext (has .session)
SESSION = "session"
HL_SERVER = "server"
LL_SERVER = "lowlevel-server"
CAPTURED = "captured"  # an MCP-looking object held outside any request (global, attribute)
FOREIGN = "foreign"  # known not to be an MCP object (annotated or constructed as something else)


def annotation_kind(state: Any, annotation: cst.BaseExpression, depth: int = 0) -> str | None:
    """Kind named by a parameter annotation (`Context`, `Context | None`, `"Context"`, `Context[S, T]`), also
    through a module-level alias of the file (`MCPContext = Context`, `Ctx: TypeAlias = Context[S, T]`)."""
    names: set[str] = set()
    aliased: list[str | None] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.update(state.qnames(node))
            value = _module_alias(state, node) if depth < 4 else None
            if value is not None:
                aliased.append(annotation_kind(state, value, depth + 1))

        def visit_Attribute(self, node: cst.Attribute) -> None:
            names.update(state.qnames(node))

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            # A forward reference (`"Context"`, `Optional["Context"]`): resolve its first name in the module.
            text = node.evaluated_value
            if isinstance(text, str):
                head = text.split("[")[0].split("|")[0].strip()
                names.update(_module_qualified(state, head))

    annotation.visit(Names())
    found = [kind for kind in aliased if kind not in (None, FOREIGN)]
    if found:
        return found[0]
    if names - _OPTIONAL_PARTS <= OPAQUE_TYPES:  # `Any`, `object | None`, nothing known: as if unannotated
        return None
    if names & FASTMCP_CONTEXTS:
        return FASTMCP_CONTEXT
    if names & MCP_CONTEXTS:
        return CONTEXT
    if names & REQUEST_CONTEXTS:
        return REQUEST_CONTEXT
    if names & SESSIONS:
        return SESSION
    if names & LOW_LEVEL_SERVERS:  # `server: Server` (codemods/lowlevel.py)
        return LL_SERVER
    if names & HIGH_LEVEL_SERVERS:  # `app: FastMCP` (a `register_tools(app)` function)
        return HL_SERVER
    return FOREIGN


def _module_alias(state: Any, name: cst.Name) -> cst.BaseExpression | None:
    """The value of a module-level `name = <type>` (or `name: TypeAlias = <type>`) the annotation names."""
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    assignments = list(scope[name.value])
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    if not isinstance(target, cst.Name) or not isinstance(
        getattr(assignments[0], "scope", None), GlobalScope
    ):
        return None
    value = _assigned_value(state, target)
    return value if isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)) else None


def _module_qualified(state: Any, dotted: str) -> set[str]:
    """Qualified names of `dotted` as the module's global scope binds its first part (imports included)."""
    from libcst.metadata import GlobalScope

    first, _, rest = dotted.partition(".")
    scope = state.scope(state.wrapper.module)
    if not isinstance(scope, GlobalScope) or not first.isidentifier():
        return set()
    found = set()
    for q in scope.get_qualified_names_for(first):
        found.add(state._absolute(f"{q.name}.{rest}" if rest else q.name))
    return found


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
    attr = _getattr_name(state, call)
    if attr is not None:  # `getattr(ctx, "session", None)` is `ctx.session`
        return _attribute_kind(state, call.args[0].value, attr, 0)
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
        return _attribute_kind(state, expr.value, expr.attr.value, depth)
    if isinstance(expr, cst.Name):
        return name_kind(state, expr, depth)
    return None


def _getattr_name(state: Any, call: cst.Call) -> str | None:
    """ "session" for `getattr(ctx, "session")` / `getattr(ctx, "session", None)` (the builtin)."""
    func = call.func
    if not (isinstance(func, cst.Name) and func.value == "getattr" and 2 <= len(call.args) <= 3):
        return None
    if state.qnames(func) - {"builtins.getattr", "getattr"}:
        return None  # a getattr of the module's own
    name = call.args[1].value
    value = name.evaluated_value if isinstance(name, cst.SimpleString) else None
    return value if isinstance(value, str) and value.isidentifier() else None


def _attribute_kind(state: Any, value: cst.BaseExpression, attr: str, depth: int) -> str | None:
    """Kind of `value.<attr>`."""
    base = expr_kind(state, value, depth + 1)
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
    parent = state.parent(value)
    if isinstance(value, cst.Name) and value.value == "self" and isinstance(parent, cst.Attribute):
        return self_attribute_kind(state, parent, depth)  # `self.server` (codemods/lowlevel.py)
    return None


def name_kind(state: Any, name: cst.Name, depth: int) -> str | None:
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    kinds: list[str | None] = []
    for assignment in scope[name.value]:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param):
            kind = annotation_kind(state, node.annotation.annotation) if node.annotation is not None else None
            if kind is None and state.extra.get("imports_sdk"):
                # Unannotated (or `Any`) in an MCP module: a session by its name, else the SDK's context.
                if "session" in node.name.value.lower():
                    kind = SESSION
                else:
                    kind = FASTMCP_CONTEXT if state.extra.get("imports_fastmcp") else CONTEXT
            kinds.append(kind)
            continue
        if isinstance(node, cst.Name):
            value = _assigned_value(state, node)
            if value is not None:
                kind = expr_kind(state, value, depth + 1)
                # A value some call built is not MCP's, but for `getattr(ctx, "session", None)` on an
                # untyped `ctx`: unknown, as `ctx` is.
                getattr_call = isinstance(value, cst.Call) and _getattr_name(state, value) is not None
                if kind is None and isinstance(value, cst.Call) and not getattr_call:
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


# ---------------------------------------------------------------------------------------------------------
# SEP-2577 sampling and logging (codemods/sampling.py MR4xx, codemods/logging_api.py MR5xx).
# Method and keyword names only (no dots): the receivers are resolved with `expr_kind` above.

# `await ctx.session.create_message(...)`: server-initiated sampling/createMessage (mcp 1.x/2.x sessions).
SESSION_SAMPLING_METHODS = frozenset({"create_message"})
# fastmcp 2.x/3.x `await ctx.sample(...)` (gone from fastmcp 4's Context).
FASTMCP_SAMPLING_METHODS = frozenset({"sample"})
# Client side: `ClientSession(sampling_callback=...)`, mcp 2.x `Client(sampling_callback=...)`,
# fastmcp `Client(sampling_handler=...)`.
SAMPLING_CALLBACK_KEYWORDS = frozenset({"sampling_callback", "sampling_handler"})
# `await ctx.info(...)` and friends on an mcp or fastmcp Context: notifications/message to the client.
CONTEXT_LOG_METHODS = frozenset({"debug", "info", "warning", "error", "log"})
# `await session.send_log_message(level=..., data=...)` on a ServerSession.
SESSION_LOG_METHODS = frozenset({"send_log_message"})
# logging/setLevel handlers: mcp 1.x `@server.set_logging_level()`, mcp 2.x `Server(on_set_logging_level=...)`.
SET_LEVEL_DECORATORS = frozenset({"set_logging_level"})
SET_LEVEL_KEYWORDS = frozenset({"on_set_logging_level"})


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


# -----------------------------------------------------------------------------------------------------
# Names used by _plumbing*.py (MR20x), roots_cache.py (MR21x) and client_roots.py (MR3xx).
# Added as a separate block; the code above is unchanged.

# The client -> server roots change notification type (mcp 1.x `mcp.types`, mcp 2.x re-exports `mcp_types`).
ROOTS_LIST_CHANGED_NOTIFICATIONS = frozenset(
    {"mcp.types.RootsListChangedNotification", "mcp_types.RootsListChangedNotification"}
)
ROOTS_LIST_CHANGED_METHOD = "notifications/roots/list_changed"
INITIALIZED_NOTIFICATIONS = frozenset(
    {
        "mcp.types.InitializedNotification",
        "mcp_types.InitializedNotification",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x and 2.x
        "mcp.InitializedNotification",
    }
)
INITIALIZED_METHOD = "notifications/initialized"
# fastmcp's server middleware base class (its `on_notification` hook sees roots notifications).
FASTMCP_MIDDLEWARE = frozenset(
    {
        "fastmcp.server.middleware.Middleware",
        "fastmcp.server.middleware.middleware.Middleware",
        # The same objects under other public modules (see the module docstring):
        # fastmcp 2.x-4.x
        "fastmcp.server.middleware.caching.Middleware",
        "fastmcp.server.middleware.error_handling.Middleware",
        "fastmcp.server.middleware.logging.Middleware",
        "fastmcp.server.middleware.rate_limiting.Middleware",
        "fastmcp.server.middleware.timing.Middleware",
        "fastmcp.server.middleware.tool_injection.Middleware",
        "fastmcp.server.server.Middleware",
        # fastmcp 3.x-4.x
        "fastmcp.server.middleware.authorization.Middleware",
        "fastmcp.server.middleware.dereference.Middleware",
        "fastmcp.server.middleware.ping.Middleware",
        "fastmcp.server.middleware.response_limiting.Middleware",
        "fastmcp.server.providers.proxy.Middleware",
    }
)
# Client objects that answer roots/list or send notifications/roots/list_changed.
CLIENT_SESSIONS = frozenset(
    {
        "mcp.ClientSession",
        "mcp.client.session.ClientSession",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x (fastmcp 2.x/3.x run on it)
        "mcp.shared.memory.ClientSession",
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.client.ClientSession",
        "mcp.client.client.ClientSession",
        # fastmcp 2.x-4.x
        "fastmcp.client.client.ClientSession",
        "fastmcp.client.elicitation.ClientSession",
        "fastmcp.client.roots.ClientSession",
        "fastmcp.client.sampling.ClientSession",
        # fastmcp 3.x-4.x
        "fastmcp.client.transports.base.ClientSession",
        "fastmcp.client.transports.config.ClientSession",
        "fastmcp.client.transports.http.ClientSession",
        "fastmcp.client.transports.memory.ClientSession",
        "fastmcp.client.transports.sse.ClientSession",
        "fastmcp.client.transports.stdio.ClientSession",
        "fastmcp.server.providers.proxy.ClientSession",
        # fastmcp 2.x
        "fastmcp.client.transports.ClientSession",
        "fastmcp.server.proxy.ClientSession",
    }
)
MCP2_CLIENTS = frozenset({"mcp.Client", "mcp.client.Client", "mcp.client.client.Client"})
FASTMCP_CLIENTS = frozenset(
    {
        "fastmcp.Client",
        "fastmcp.client.Client",
        "fastmcp.client.client.Client",
        # The same objects under other public modules (see the module docstring):
        # fastmcp 2.x-4.x
        "fastmcp.utilities.inspect.Client",
        # fastmcp 3.x-4.x
        "fastmcp.cli.client.Client",
        "fastmcp.server.providers.proxy.Client",
        # fastmcp 2.x
        "fastmcp.server.proxy.Client",
        # fastmcp 4.x
        "fastmcp.client.group.Client",
        "fastmcp.utilities.tests.Client",
    }
)
MEMORY_CONNECT = frozenset({"mcp.shared.memory.create_connected_server_and_client_session"})
ROOTS_CAPABILITIES = frozenset(
    {
        "mcp.types.RootsCapability",
        "mcp_types.RootsCapability",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x and 2.x
        "mcp.RootsCapability",
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.server.mcpserver.resolve.RootsCapability",
    }
)


# -----------------------------------------------------------------------------------------------------
# Low-level servers (codemods/lowlevel.py, MR15x). Added as a separate block; above, only the two
# one-line hooks marked "codemods/lowlevel.py" were added.

# Decorator of mcp 1.x `Server` (and fastmcp's `mcp._mcp_server`) that registers the tools/call handler.
CALL_TOOL_DECORATORS = frozenset({"call_tool"})
# mcp 2.x `Server(name, on_call_tool=...)` keyword, and the `add_request_handler` method name.
CALL_TOOL_KEYWORDS = frozenset({"on_call_tool"})
CALL_TOOL_METHOD = "tools/call"
# The tool description type (mcp 1.x `mcp.types`, mcp 2.x also re-exports it).
TOOL_TYPES = frozenset(
    {
        "mcp.Tool",
        "mcp.types.Tool",
        "mcp_types.Tool",
        # The same objects under other public modules (see the module docstring):
        # mcp 1.x and 2.x
        "mcp.server.validation.Tool",
        "mcp.shared.metadata_utils.Tool",
        # mcp 1.x (fastmcp 2.x/3.x run on it)
        "mcp.server.experimental.request_context.Tool",
        "mcp.server.experimental.task_context.Tool",
        "mcp.server.fastmcp.server.MCPTool",  # mcp.types.Tool
        # mcp 2.x (fastmcp 4.x runs on it)
        "mcp.server.mcpserver.resolve.Tool",
        "mcp.server.mcpserver.server.MCPTool",  # mcp.types.Tool
        "mcp.shared.peer.Tool",
        # fastmcp 2.x-3.x
        "fastmcp.server.sampling.run.SDKTool",  # mcp.types.Tool
        "fastmcp.server.sampling.sampling_tool.SDKTool",  # mcp.types.Tool
        "fastmcp.tools.tool.MCPTool",  # mcp.types.Tool
        # fastmcp 3.x-4.x
        "fastmcp.tools.base.MCPTool",  # mcp.types.Tool
        # fastmcp 2.x
        "fastmcp.server.context.SDKTool",  # mcp.types.Tool
        "fastmcp.server.server.SDKTool",  # mcp.types.Tool
    }
)
# pydantic models whose JSON Schema a tool may use (`Model.model_json_schema()`, v1 `Model.schema()`).
# pydantic's class, not the SDK's: the re-export ratchet leaves this table out (every SDK module that
# imports BaseModel has it as an attribute, and no one imports it from there).
PYDANTIC_MODELS = frozenset({"pydantic.BaseModel", "pydantic.main.BaseModel"})
MODEL_SCHEMA_METHODS = frozenset({"model_json_schema", "schema"})


def self_attribute_kind(state: Any, expr: cst.Attribute, depth: int) -> str | None:
    """Kind of `self.<attr>` from what the enclosing class assigns to it (`self.server = Server(...)`)."""
    node = state.parent(expr)
    while node is not None and not isinstance(node, cst.ClassDef):
        node = state.parent(node)
    if node is None:
        return None
    cache = state.extra.setdefault("_self_attributes", {})
    key = (id(node), expr.attr.value)
    if key in cache:
        return cache[key]
    cache[key] = None  # recursion guard
    kinds: list[str | None] = []
    attr = expr.attr.value

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, assign: cst.Assign) -> None:
            for target in assign.targets:
                if _is_self_attr(target.target, attr):
                    kinds.append(expr_kind(state, assign.value, depth + 1))

        def visit_AnnAssign(self, assign: cst.AnnAssign) -> None:
            if _is_self_attr(assign.target, attr):
                if assign.value is not None:
                    kinds.append(expr_kind(state, assign.value, depth + 1))
                else:
                    kinds.append(annotation_kind(state, assign.annotation.annotation))

    node.body.visit(Assigns())
    known = [k for k in kinds if k in (LL_SERVER, HL_SERVER)]
    cache[key] = known[0] if known else None
    return cache[key]


def _is_self_attr(target: cst.BaseExpression, attr: str) -> bool:
    return (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
        and target.attr.value == attr
    )
