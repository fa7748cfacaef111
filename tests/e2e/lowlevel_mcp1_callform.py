"""A legacy mcp 1.x low-level server in a class whose handlers are methods registered by calling the
decorator, `self.server.call_tool()(self.call_tool)` (sweep P, r02; migrate-roots test fixture)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.lowlevel import Server

SCHEMA = {"type": "object", "properties": {"text": {"type": "string"}}}


class FilesServer:
    def __init__(self) -> None:
        self.server = Server("lowlevel-mcp1-callform")
        self.server.list_tools()(self.list_tools)
        self.server.call_tool()(self.call_tool)

    async def list_tools(self) -> list[types.Tool]:
        return [
            types.Tool(name="where", description="The directory", inputSchema={"type": "object"}),
            types.Tool(name="where_all", description="Every directory", inputSchema=SCHEMA),
            types.Tool(name="echo", description="Echo", inputSchema=SCHEMA),
        ]

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
        if name == "where":
            result = await self.server.request_context.session.list_roots()
            text = unquote(urlparse(str(result.roots[0].uri)).path)
        elif name == "where_all":
            text = "\n".join(await self.folders())
        elif name == "echo":
            text = arguments.get("text", "")
        else:
            raise ValueError(f"unknown tool {name}")
        return [types.TextContent(type="text", text=text)]

    async def folders(self) -> list[str]:
        result = await self.server.request_context.session.list_roots()
        return [unquote(urlparse(str(root.uri)).path) for root in result.roots]


server = FilesServer().server


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
