"""lowlevel_mcp1.py with its server object imported from another module (`from app import server`, as
ai-governance-mcp's handlers do): the handlers and `server.request_context` are the same (migrate-roots test
fixture, run under the real SDK)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from app import server

TEXT_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "Anything"},
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
