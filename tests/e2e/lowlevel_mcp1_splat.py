"""A legacy mcp 1.x low-level server that hands each tool's arguments on with `**arguments` to a function
reading roots (migrate-roots test fixture, run under the real SDK): the function gains the parameter and the
call passes the argument within `**arguments`, never a second time."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("lowlevel-mcp1-splat")

TEXT_SCHEMA = {"type": "object", "properties": {"text": {"type": "string", "description": "Anything"}}}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(
            name="where", description="The directory", inputSchema={"type": "object", "properties": {}}
        ),
        types.Tool(name="where_all", description="Every directory", inputSchema=TEXT_SCHEMA),
        types.Tool(name="echo", description="Echo", inputSchema=TEXT_SCHEMA),
    ]


async def where(text: str = "") -> str:
    result = await server.request_context.session.list_roots()
    return text + unquote(urlparse(str(result.roots[0].uri)).path)


async def where_all(text: str = "") -> str:
    result = await server.request_context.session.list_roots()
    return text + "\n".join(unquote(urlparse(str(r.uri)).path) for r in result.roots)


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    if name == "where":
        text = await where(**arguments)
    elif name == "where_all":
        text = await where_all(**arguments)
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
