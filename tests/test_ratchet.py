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


def sdk_names() -> set[str]:
    names: set[str] = set()
    for value in vars(_sdk).values():
        if isinstance(value, frozenset) and all(isinstance(v, str) and "." in v for v in value):
            names |= value
    return names


def test_every_matched_name_has_a_claim():
    missing = sorted(sdk_names() - set(CLAIMS))
    assert not missing, f"add these names to CLAIMS: {missing}"


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
