"""Ratchet: every SDK name the codemods match or emit is pinned against the installed SDK lines.

A name we match must exist where we claim it does; a removed API we mark must really be absent; a name we
emit must import. An SDK release that renames something fails here instead of silently mis-migrating users.
The claims are one table; names are collected from `migrate_roots/codemods/_sdk.py`, so a new name without a claim fails.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from migrate_roots.codemods import _sdk
from tests.sdk.envs import LINES, sdk_python_or_skip

ALL = frozenset(LINES)
MCP1_BASED = frozenset({"mcp1", "fastmcp2", "fastmcp3"})  # fastmcp 2/3 run on mcp 1.x
MCP2_BASED = frozenset({"mcp2", "fastmcp4"})
FASTMCP = frozenset({"fastmcp2", "fastmcp3", "fastmcp4"})
FASTMCP2_3 = frozenset({"fastmcp2", "fastmcp3"})
FASTMCP3_4 = frozenset({"fastmcp3", "fastmcp4"})
FASTMCP2 = frozenset({"fastmcp2"})
FASTMCP3 = frozenset({"fastmcp3"})
FASTMCP4 = frozenset({"fastmcp4"})

# The matched objects of _sdk.py's tables under their other public names, as tests/sdk/reexports.py finds
# them (test_every_public_name_of_a_matched_object_is_matched): name -> the SDK lines where it must exist.
# The names of _sdk.py's tables not in here are the ones that define the tables' objects.
REEXPORTS: dict[str, frozenset[str]] = {
    # CLIENT_SESSIONS
    "mcp.shared.memory.ClientSession": MCP1_BASED,
    "mcp.client.ClientSession": MCP2_BASED,
    "mcp.client.client.ClientSession": MCP2_BASED,
    "fastmcp.client.client.ClientSession": FASTMCP,
    "fastmcp.client.elicitation.ClientSession": FASTMCP,
    "fastmcp.client.roots.ClientSession": FASTMCP,
    "fastmcp.client.sampling.ClientSession": FASTMCP,
    "fastmcp.client.transports.base.ClientSession": FASTMCP3_4,
    "fastmcp.client.transports.config.ClientSession": FASTMCP3_4,
    "fastmcp.client.transports.http.ClientSession": FASTMCP3_4,
    "fastmcp.client.transports.memory.ClientSession": FASTMCP3_4,
    "fastmcp.client.transports.sse.ClientSession": FASTMCP3_4,
    "fastmcp.client.transports.stdio.ClientSession": FASTMCP3_4,
    "fastmcp.server.providers.proxy.ClientSession": FASTMCP3_4,
    "fastmcp.client.transports.ClientSession": FASTMCP2,
    "fastmcp.server.proxy.ClientSession": FASTMCP2,
    # FASTMCP_CLIENTS
    "fastmcp.utilities.inspect.Client": FASTMCP,
    "fastmcp.cli.client.Client": FASTMCP3_4,
    "fastmcp.server.providers.proxy.Client": FASTMCP3_4,
    "fastmcp.server.proxy.Client": FASTMCP2,
    "fastmcp.client.group.Client": FASTMCP4,
    "fastmcp.utilities.tests.Client": FASTMCP4,
    # FASTMCP_CONTEXTS
    "fastmcp.server.middleware.tool_injection.Context": FASTMCP2_3,
    "fastmcp.experimental.transforms.code_mode.Context": FASTMCP3_4,
    "fastmcp.server.providers.proxy.Context": FASTMCP3_4,
    "fastmcp.server.transforms.search.base.Context": FASTMCP3_4,
    "fastmcp.server.transforms.search.bm25.Context": FASTMCP3_4,
    "fastmcp.server.transforms.search.regex.Context": FASTMCP3_4,
    "fastmcp.server.proxy.Context": FASTMCP2,
    "fastmcp.experimental.transforms.jev_search.Context": FASTMCP4,
    "fastmcp.skills.extension.Context": FASTMCP4,
    # FASTMCP_MIDDLEWARE
    "fastmcp.server.middleware.caching.Middleware": FASTMCP,
    "fastmcp.server.middleware.error_handling.Middleware": FASTMCP,
    "fastmcp.server.middleware.logging.Middleware": FASTMCP,
    "fastmcp.server.middleware.rate_limiting.Middleware": FASTMCP,
    "fastmcp.server.middleware.timing.Middleware": FASTMCP,
    "fastmcp.server.middleware.tool_injection.Middleware": FASTMCP,
    "fastmcp.server.server.Middleware": FASTMCP,
    "fastmcp.server.middleware.authorization.Middleware": FASTMCP3_4,
    "fastmcp.server.middleware.dereference.Middleware": FASTMCP3_4,
    "fastmcp.server.middleware.ping.Middleware": FASTMCP3_4,
    "fastmcp.server.middleware.response_limiting.Middleware": FASTMCP3_4,
    "fastmcp.server.providers.proxy.Middleware": FASTMCP3_4,
    # MIDDLEWARE_CONTEXTS
    "fastmcp.server.middleware.caching.MiddlewareContext": FASTMCP,
    "fastmcp.server.middleware.error_handling.MiddlewareContext": FASTMCP,
    "fastmcp.server.middleware.logging.MiddlewareContext": FASTMCP,
    "fastmcp.server.middleware.rate_limiting.MiddlewareContext": FASTMCP,
    "fastmcp.server.middleware.timing.MiddlewareContext": FASTMCP,
    "fastmcp.server.server.MiddlewareContext": FASTMCP,
    "fastmcp.server.middleware.tool_injection.MiddlewareContext": FASTMCP2,
    "fastmcp.server.middleware.authorization.MiddlewareContext": FASTMCP3_4,
    "fastmcp.server.middleware.dereference.MiddlewareContext": FASTMCP3_4,
    "fastmcp.server.middleware.ping.MiddlewareContext": FASTMCP3_4,
    "fastmcp.server.middleware.response_limiting.MiddlewareContext": FASTMCP3_4,
    "fastmcp.server.providers.proxy.MiddlewareContext": FASTMCP3_4,
    # GET_CONTEXT_FUNCTIONS
    "fastmcp.server.tasks.handlers.get_context": FASTMCP2_3,
    "fastmcp.server.providers.proxy.get_context": FASTMCP3_4,
    "fastmcp.server.transforms.prompts_as_tools.get_context": FASTMCP3_4,
    "fastmcp.server.transforms.resources_as_tools.get_context": FASTMCP3_4,
    "fastmcp.prompts.prompt.get_context": FASTMCP2,
    "fastmcp.resources.resource.get_context": FASTMCP2,
    "fastmcp.resources.template.get_context": FASTMCP2,
    "fastmcp.server.proxy.get_context": FASTMCP2,
    "fastmcp.tools.tool.get_context": FASTMCP2,
    "fastmcp.server.extensions.get_context": FASTMCP4,
    "fastmcp.skills.provider.get_context": FASTMCP4,
    # HIGH_LEVEL_SERVERS
    "mcp.server.FastMCP": MCP1_BASED,
    "mcp.shared.memory.FastMCP": MCP1_BASED,
    "mcp.client.client.MCPServer": MCP2_BASED,
    "mcp.server.MCPServer": MCP2_BASED,
    "mcp.cli.cli.FastMCP": FASTMCP2,  # mcp.cli imports only with typer, which fastmcp 2.x brings
    "fastmcp.cli.run.FastMCP": FASTMCP,
    "fastmcp.server.context.FastMCP": FASTMCP,
    "fastmcp.utilities.inspect.FastMCP": FASTMCP,
    "fastmcp.cli.run.FastMCP1x": FASTMCP2_3,
    "fastmcp.client.client.FastMCP1Server": FASTMCP2_3,
    "fastmcp.client.transports.FastMCP1Server": FASTMCP2_3,
    "fastmcp.server.openapi.server.FastMCP": FASTMCP2_3,
    "fastmcp.utilities.inspect.FastMCP1x": FASTMCP2_3,
    "fastmcp.server.providers.proxy.FastMCP": FASTMCP3_4,
    "fastmcp.client.client.FastMCP": FASTMCP,  # fastmcp 3.x-4.x: FastMCP to type checkers, `Any` at run time
    "fastmcp.client.transports.FastMCP": FASTMCP2,
    "fastmcp.server.proxy.FastMCP": FASTMCP2,
    "fastmcp.server.proxy.FastMCP1Server": FASTMCP2,
    "fastmcp.utilities.mcp_config.FastMCP": FASTMCP2,
    "fastmcp.client.transports.inference.FastMCP1Server": FASTMCP3,
    "fastmcp.client.transports.memory.FastMCP1Server": FASTMCP3,
    "fastmcp.server.providers.proxy.FastMCP1Server": FASTMCP3,
    "fastmcp.cli.run.SDKServer": FASTMCP4,
    "fastmcp.client.client.SDKServer": FASTMCP4,
    "fastmcp.client.transports.SDKServer": FASTMCP4,
    "fastmcp.client.transports.inference.SDKServer": FASTMCP4,
    "fastmcp.client.transports.memory.SDKServer": FASTMCP4,
    "fastmcp.server.providers.proxy.SDKServer": FASTMCP4,
    "fastmcp.utilities.inspect.SDKServer": FASTMCP4,
    # INITIALIZED_NOTIFICATIONS
    "mcp.InitializedNotification": ALL,
    # LOW_LEVEL_SERVERS
    "mcp.server.fastmcp.server.MCPServer": MCP1_BASED,
    "mcp.server.streamable_http_manager.MCPServer": MCP1_BASED,
    "mcp.shared.memory.Server": MCP1_BASED,
    "mcp.client.client.Server": MCP2_BASED,
    "mcp.server.mcpserver.server.Server": MCP2_BASED,
    "mcp.cli.cli.LowLevelServer": FASTMCP2,  # as above
    "fastmcp.client.transports.memory.Server": FASTMCP4,
    # MCP_CONTEXTS
    "mcp.server.apps.Context": MCP2_BASED,
    "mcp.server.mcpserver.resolve.Context": MCP2_BASED,
    "mcp.server.mcpserver.utilities.context_injection.Context": MCP2_BASED,
    # REQUEST_CONTEXTS
    "mcp.client.experimental.task_handlers.RequestContext": MCP1_BASED,
    "mcp.client.session.RequestContext": MCP1_BASED,
    "mcp.server.fastmcp.server.RequestContext": MCP1_BASED,
    "mcp.server.lowlevel.server.RequestContext": MCP1_BASED,
    "mcp.shared.progress.RequestContext": MCP1_BASED,
    "mcp.server.ServerRequestContext": MCP2_BASED,
    "mcp.server.apps.ServerRequestContext": MCP2_BASED,
    "mcp.server.extension.ServerRequestContext": MCP2_BASED,
    "mcp.server.lowlevel.server.ServerRequestContext": MCP2_BASED,
    "mcp.server.mcpserver.context.ServerRequestContext": MCP2_BASED,
    "mcp.server.mcpserver.server.ServerRequestContext": MCP2_BASED,
    "mcp.server.request_state.ServerRequestContext": MCP2_BASED,
    "mcp.server.runner.ServerRequestContext": MCP2_BASED,
    "mcp.server.subscriptions.ServerRequestContext": MCP2_BASED,
    "fastmcp.client.elicitation.RequestContext": FASTMCP,  # fastmcp 4.x: its own client-side class of that name
    "fastmcp.client.roots.RequestContext": FASTMCP,  # fastmcp 4.x: its own client-side class of that name
    "fastmcp.client.sampling.RequestContext": FASTMCP,  # fastmcp 4.x: its own client-side class of that name
    "fastmcp.server.context.RequestContext": FASTMCP2_3,
    "fastmcp.server.proxy.RequestContext": FASTMCP2,
    "fastmcp.server.providers.proxy.RequestContext": FASTMCP3,
    "fastmcp.server.context.ServerRequestContext": FASTMCP4,
    "fastmcp.server.dependencies.ServerRequestContext": FASTMCP4,
    "fastmcp.server.extensions.ServerRequestContext": FASTMCP4,
    "fastmcp.server.low_level.ServerRequestContext": FASTMCP4,
    "fastmcp.server.mixins.mcp_operations.ServerRequestContext": FASTMCP4,
    "fastmcp.server.providers.proxy.ServerRequestContext": FASTMCP4,
    "fastmcp.skills.extension.ServerRequestContext": FASTMCP4,
    "fastmcp.skills.provider.ServerRequestContext": FASTMCP4,
    # REQUEST_CTX_VARS
    "fastmcp.server.context.request_ctx": FASTMCP2_3,
    "fastmcp.server.dependencies.request_ctx": FASTMCP2_3,
    "fastmcp.server.providers.proxy.request_ctx": FASTMCP3,
    "fastmcp.server.telemetry.request_ctx": FASTMCP3,
    # ROOTS_CAPABILITIES
    "mcp.RootsCapability": ALL,
    "mcp.server.mcpserver.resolve.RootsCapability": MCP2_BASED,
    # SESSIONS
    "mcp.server.elicitation.ServerSession": ALL,
    "mcp.server.experimental.request_context.ServerSession": MCP1_BASED,
    "mcp.server.experimental.task_context.ServerSession": MCP1_BASED,
    "mcp.server.experimental.task_result_handler.ServerSession": MCP1_BASED,
    "mcp.server.experimental.task_support.ServerSession": MCP1_BASED,
    "mcp.server.fastmcp.server.ServerSession": MCP1_BASED,
    "mcp.server.lowlevel.server.ServerSession": MCP1_BASED,
    "mcp.server.context.ServerSession": MCP2_BASED,
    "mcp.server.runner.ServerSession": MCP2_BASED,
    "fastmcp.client.sampling.ServerSession": FASTMCP,
    "fastmcp.server.context.ServerSession": FASTMCP,
    "fastmcp.server.low_level.ServerSession": FASTMCP,
    "fastmcp.server.proxy.ServerSession": FASTMCP2,
    "fastmcp.server.providers.proxy.ServerSession": FASTMCP3,
    "fastmcp.server.tasks.elicitation.ServerSession": FASTMCP3,
    "fastmcp.server.dependencies.ServerSession": FASTMCP4,
    # TOOL_TYPES
    "mcp.server.validation.Tool": ALL,
    "mcp.shared.metadata_utils.Tool": ALL,
    "mcp.server.experimental.request_context.Tool": MCP1_BASED,
    "mcp.server.experimental.task_context.Tool": MCP1_BASED,
    "mcp.server.fastmcp.server.MCPTool": MCP1_BASED,
    "mcp.server.mcpserver.resolve.Tool": MCP2_BASED,
    "mcp.server.mcpserver.server.MCPTool": MCP2_BASED,
    "mcp.shared.peer.Tool": MCP2_BASED,
    "fastmcp.server.sampling.run.SDKTool": FASTMCP2_3,
    "fastmcp.server.sampling.sampling_tool.SDKTool": FASTMCP2_3,
    "fastmcp.tools.tool.MCPTool": FASTMCP2_3,
    "fastmcp.tools.base.MCPTool": FASTMCP3_4,
    "fastmcp.server.context.SDKTool": FASTMCP2,
    "fastmcp.server.server.SDKTool": FASTMCP2,
}

# name -> the SDK lines where it must exist (absent everywhere else).
CLAIMS: dict[str, frozenset[str]] = {
    # matched: high-level servers and contexts
    "mcp.server.fastmcp.FastMCP": MCP1_BASED,
    "mcp.server.fastmcp.server.FastMCP": MCP1_BASED,
    "mcp.server.fastmcp.Context": MCP1_BASED,
    "mcp.server.fastmcp.server.Context": MCP1_BASED,
    "mcp.server.mcpserver.MCPServer": MCP2_BASED,
    "mcp.server.mcpserver.server.MCPServer": MCP2_BASED,
    "mcp.server.mcpserver.Context": MCP2_BASED,
    "mcp.server.mcpserver.context.Context": MCP2_BASED,
    "mcp.server.mcpserver.server.Context": MCP2_BASED,
    "fastmcp.FastMCP": FASTMCP,
    "fastmcp.server.FastMCP": FASTMCP,
    "fastmcp.server.server.FastMCP": FASTMCP,
    "fastmcp.Context": FASTMCP,
    "fastmcp.server.Context": FASTMCP,
    "fastmcp.server.context.Context": FASTMCP,
    "fastmcp.server.dependencies.get_context": FASTMCP,
    # matched: low-level server, request context, session
    "mcp.server.Server": ALL,
    "mcp.server.lowlevel.Server": ALL,
    "mcp.server.lowlevel.server.Server": ALL,
    "mcp.server.lowlevel.server.request_ctx": MCP1_BASED,
    "mcp.shared.context.RequestContext": MCP1_BASED,
    "mcp.server.context.ServerRequestContext": MCP2_BASED,
    "mcp.server.context.Context": MCP2_BASED,
    "mcp.server.session.ServerSession": ALL,
    "mcp.ServerSession": ALL,
    # the roots calls we rewrite, and the one fastmcp removed (MR102's message says so)
    "mcp.server.session.ServerSession.list_roots": ALL,
    "fastmcp.server.context.Context.list_roots": frozenset({"fastmcp2", "fastmcp3"}),
    # matched: low-level tools and their schemas (migrate_roots/codemods/lowlevel.py)
    "mcp.types.Tool": ALL,
    "mcp.Tool": ALL,
    "mcp_types.Tool": MCP2_BASED,  # mcp 2.x ships its types as a package of their own too
    "pydantic.BaseModel": ALL,
    "pydantic.main.BaseModel": ALL,
    # matched: listChanged wiring (migrate_roots/codemods/list_changed.py)
    "mcp.types.RootsListChangedNotification": ALL,
    "mcp_types.RootsListChangedNotification": MCP2_BASED,
    "mcp.types.InitializedNotification": ALL,
    "mcp_types.InitializedNotification": MCP2_BASED,
    "fastmcp.server.middleware.Middleware": FASTMCP,
    "fastmcp.server.middleware.middleware.Middleware": FASTMCP,
    "fastmcp.server.middleware.MiddlewareContext": FASTMCP,
    "fastmcp.server.middleware.middleware.MiddlewareContext": FASTMCP,
    # matched: the client side (migrate_roots/codemods/client_roots.py)
    "mcp.ClientSession": ALL,
    "mcp.client.session.ClientSession": ALL,
    "mcp.client.session.ClientSession.send_roots_list_changed": ALL,
    "mcp.Client": MCP2_BASED,
    "mcp.client.Client": MCP2_BASED,
    "mcp.client.client.Client": MCP2_BASED,
    "mcp.shared.memory.create_connected_server_and_client_session": MCP1_BASED,
    "fastmcp.Client": FASTMCP,
    "fastmcp.client.Client": FASTMCP,
    "fastmcp.client.client.Client": FASTMCP,
    "mcp.types.RootsCapability": ALL,
    "mcp_types.RootsCapability": MCP2_BASED,
    # matched: all of the above under other public names (pydantic.BaseModel's excepted)
    **REEXPORTS,
    # reported: sampling and logging (migrate_roots/codemods/sampling.py, migrate_roots/codemods/logging_api.py)
    "mcp.server.session.ServerSession.create_message": ALL,
    "mcp.server.session.ServerSession.send_log_message": ALL,
    "fastmcp.server.context.Context.sample": frozenset({"fastmcp2", "fastmcp3"}),  # gone in fastmcp 4
    "fastmcp.server.context.Context.info": FASTMCP,
    "mcp.server.fastmcp.Context.info": MCP1_BASED,
    "mcp.server.mcpserver.Context.info": MCP2_BASED,
    # emitted by the rewrite and the shim
    "pydantic.Field": ALL,
    "typing.Annotated": ALL,
    "mcp.types.Root": ALL,
    "mcp.types.ListRootsResult": ALL,
    "mcp.MCPDeprecationWarning": MCP2_BASED,
    "mcp.server.fastmcp.exceptions.ToolError": MCP1_BASED,
    "mcp.server.mcpserver.exceptions.ToolError": MCP2_BASED,
    "fastmcp.exceptions.ToolError": FASTMCP,
}


# Tables of _sdk.py whose objects are not an SDK's: every SDK module that imports pydantic's BaseModel has it.
NOT_SDK_OBJECTS = frozenset({"PYDANTIC_MODELS"})


def sdk_tables() -> dict[str, frozenset[str]]:
    """The tables of dotted names in _sdk.py, by their names."""
    return {
        name: value
        for name, value in vars(_sdk).items()
        if isinstance(value, frozenset) and all(isinstance(v, str) and "." in v for v in value)
    }


def sdk_names() -> set[str]:
    return set().union(*sdk_tables().values())


def test_every_matched_name_has_a_claim():
    missing = sorted(sdk_names() - set(CLAIMS))
    assert not missing, f"add these names to CLAIMS: {missing}"


def test_every_reexport_is_matched():
    stale = sorted(REEXPORTS.keys() - sdk_names())
    assert not stale, f"REEXPORTS names no table of _sdk.py has: {stale}"


@pytest.mark.sdk
@pytest.mark.parametrize("line", sorted(LINES))
def test_names_exist_exactly_where_claimed(line):
    python = sdk_python_or_skip(line)
    names = sorted(CLAIMS)
    probe = Path(__file__).parent / "sdk" / "probe.py"
    out = subprocess.run(
        [str(python), str(probe), json.dumps(names)], capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout)
    wrong = {
        n: ("missing" if line in CLAIMS[n] else "present") for n in names if found[n] != (line in CLAIMS[n])
    }
    assert not wrong, f"{line}: SDK names differ from the claims: {wrong}"


@pytest.mark.sdk
@pytest.mark.parametrize("line", sorted(LINES))
def test_every_public_name_of_a_matched_object_is_matched(line):
    """`from mcp.server import ServerRequestContext` is the class `mcp.server.context.ServerRequestContext`:
    each table matches its objects under every public module attribute the line has them as."""
    python = sdk_python_or_skip(line)
    tables = {name: names for name, names in sdk_tables().items() if name not in NOT_SDK_OBJECTS}
    # The objects are those of the defining names: a re-export may be another object on another line.
    defining = {name: sorted(names - REEXPORTS.keys()) for name, names in tables.items()}
    probe = Path(__file__).parent / "sdk" / "reexports.py"
    out = subprocess.run(
        [str(python), str(probe), json.dumps(defining)], capture_output=True, text=True, timeout=600
    )
    assert out.returncode == 0, out.stderr[-2000:]
    found = json.loads(out.stdout)
    missing = {t: sorted(set(names) - tables[t]) for t, names in found["tables"].items()}
    missing = {t: names for t, names in missing.items() if names}
    assert not missing, (
        f"{line} exports matched objects under names migrate_roots/codemods/_sdk.py lacks; add them to their "
        f"tables, and each to REEXPORTS here: {json.dumps(missing, indent=1)}\n"
        f"(modules that did not import there, so were not searched: {sorted(found['failed'])})"
    )
    tables_of: dict[str, list[str]] = {}
    for table, names in found["tables"].items():
        for name in names:
            tables_of.setdefault(name, []).append(table)
    ambiguous = {name: t for name, t in tables_of.items() if len(t) > 1}
    assert not ambiguous, f"{line}: names of an object two tables hold (which kind is it?): {ambiguous}"
