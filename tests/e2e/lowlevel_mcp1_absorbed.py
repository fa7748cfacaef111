"""A legacy mcp 1.x low-level server that already takes `workspace_root` on every tool (cartogate's shape): the
call handler pops it, and only without it resolves the workspace through a resolver kept as a value, whose roots
read absorbs every failure (migrate-roots test fixture, run under the real SDK)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("lowlevel-mcp1-absorbed")
WORKSPACE_ROOT_PARAM = "workspace_root"
TOOLS = {"where": "The directory this server works in", "where_all": "The same, by another name"}


def _with_workspace_root(schema: dict[str, Any]) -> dict[str, Any]:
    properties = dict(schema.get("properties", {}))
    properties[WORKSPACE_ROOT_PARAM] = {"type": "string", "description": "The workspace folder"}
    return {**schema, "properties": properties}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name=name, description=text, inputSchema=_with_workspace_root({"type": "object"}))
        for name, text in TOOLS.items()
    ]


async def _repo_from_client_roots(session: Any) -> str | None:
    try:
        result = await session.list_roots()
    except Exception:  # no roots support: degrade to the fallback
        return None
    for root in result.roots:
        return unquote(urlparse(str(root.uri)).path)
    return None


def _make_resolver(fallback: str):
    async def _resolve(session: Any) -> str:
        found = await _repo_from_client_roots(session)
        return found if found is not None else fallback

    return _resolve


RESOLVER = _make_resolver("no workspace")


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    root_arg = arguments.pop(WORKSPACE_ROOT_PARAM, None)
    if name not in TOOLS:
        raise ValueError(f"unknown tool {name}")
    if root_arg:
        text = root_arg
    else:
        text = await RESOLVER(server.request_context.session)
    return [types.TextContent(type="text", text=text)]


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
