"""mcp 1.x low-level Server, as migrate-roots leaves it (was: `await server.request_context.session.list_roots()`)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.lowlevel import Server

from _mcp_roots_compat import list_roots_compat

server = Server("where-lowlevel-mcp1")

ROOT_SCHEMA = {
    "type": "object",
    "properties": {
        "root": {
            "anyOf": [{"type": "string"}, {"type": "null"}],
            "default": None,
            "description": "Absolute path of the directory to work in.",
        }
    },
}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", description="Where am I working?", inputSchema=ROOT_SCHEMA)]


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    if name != "where":
        raise ValueError(f"unknown tool {name}")
    result = await list_roots_compat(server.request_context, arguments.get("root"), name="root")
    return [types.TextContent(type="text", text=unquote(urlparse(str(result.roots[0].uri)).path))]


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
