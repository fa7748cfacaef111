"""The SDK names the rules match: fully qualified import paths, as libcst's QualifiedNameProvider reports them.

Names are fully qualified import paths as libcst's QualifiedNameProvider reports them.

A matched object is matched under every public name an SDK line exports it by: `from mcp.server import
ServerRequestContext` is the class of `from mcp.server.context import ServerRequestContext`. Each table holds
first the names its objects are defined or documented under, then the same objects as attributes of every
other public module of `mcp`, `mcp_types` and `fastmcp` (an import is an attribute too), grouped by the SDK
lines that have them. tests/sdk/reexports.py lists those in an SDK line's environment; tests/test_ratchet.py
keeps them in REEXPORTS and fails, naming them, when a line has one that a table lacks. The tables stay
literals: migrate-roots runs without the SDK installed.

Data only (literals: migrate-roots runs without the SDK installed); `_sdk.py` re-exports every table and holds
the code that reads them.
"""

from __future__ import annotations

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
# fastmcp middleware's per-message context: `context.fastmcp_context` is the request's fastmcp Context.
MIDDLEWARE_CONTEXTS = frozenset(
    {
        "fastmcp.server.middleware.MiddlewareContext",
        "fastmcp.server.middleware.middleware.MiddlewareContext",
        # The same object under other public modules (see the module docstring):
        # fastmcp 2.x-4.x
        "fastmcp.server.middleware.caching.MiddlewareContext",
        "fastmcp.server.middleware.error_handling.MiddlewareContext",
        "fastmcp.server.middleware.logging.MiddlewareContext",
        "fastmcp.server.middleware.rate_limiting.MiddlewareContext",
        "fastmcp.server.middleware.timing.MiddlewareContext",
        "fastmcp.server.server.MiddlewareContext",
        # fastmcp 2.x
        "fastmcp.server.middleware.tool_injection.MiddlewareContext",
        # fastmcp 3.x-4.x
        "fastmcp.server.middleware.authorization.MiddlewareContext",
        "fastmcp.server.middleware.dereference.MiddlewareContext",
        "fastmcp.server.middleware.ping.MiddlewareContext",
        "fastmcp.server.middleware.response_limiting.MiddlewareContext",
        "fastmcp.server.providers.proxy.MiddlewareContext",
    }
)

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

# SEP-2577 sampling and logging (codemods/sampling.py MR4xx, codemods/logging_api.py MR5xx).
# Method and keyword names only (no dots): the receivers are resolved with `_sdk.expr_kind`.

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
