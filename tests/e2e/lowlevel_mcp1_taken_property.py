"""A legacy mcp 1.x low-level server that binds `ROOT_PROPERTY` to a property of its own (a relative text, sweep
P r04): the new `root` property must not take it (migrate-roots test fixture, run under the real SDK)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("lowlevel-mcp1-taken")

# Not a directory argument: a relative text, never starting with "/".
ROOT_PROPERTY = {"type": "string", "description": "Relative text", "pattern": "^[^/]"}

TEXT_SCHEMA = {
    "type": "object",
    "properties": {
        "text": ROOT_PROPERTY,
    },
}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="where",
            description="The directory this server works in",
            inputSchema={
                "type": "object",
                "properties": {},
            },
        ),
        types.Tool(name="where_all", description="Every directory", inputSchema=TEXT_SCHEMA),
        types.Tool(name="echo", description="Echo", inputSchema=TEXT_SCHEMA),
    ]


async def folders() -> list[str]:
    result = await server.request_context.session.list_roots()
    return [unquote(urlparse(str(root.uri)).path) for root in result.roots]


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    if name == "where":
        result = await server.request_context.session.list_roots()
        text = unquote(urlparse(str(result.roots[0].uri)).path)
    elif name == "where_all":
        text = "\n".join(await folders())
    elif name == "echo":
        text = arguments.get("text", "")
    else:
        raise ValueError(f"unknown tool {name}")
    return [types.TextContent(type="text", text=text)]


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
