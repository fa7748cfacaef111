"""A legacy fastmcp 2.x/3.x server that registers its tools on the private low-level server
(`mcp._mcp_server`) and reads roots through `request_ctx` (migrate-roots test fixture)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from fastmcp import FastMCP
from mcp.server.lowlevel.server import request_ctx

mcp = FastMCP("lowlevel-fastmcp")
server = mcp  # the driver loads `server`


@mcp._mcp_server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="where", inputSchema={"type": "object", "properties": {}}),
        types.Tool(name="where_all", inputSchema={"type": "object", "properties": {}}),
        types.Tool(name="echo", inputSchema={"type": "object", "properties": {"text": {"type": "string"}}}),
    ]


async def folders() -> list[str]:
    result = await request_ctx.get().session.list_roots()
    return [unquote(urlparse(str(root.uri)).path) for root in result.roots]


@mcp._mcp_server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    if name == "where":
        result = await request_ctx.get().session.list_roots()
        text = unquote(urlparse(str(result.roots[0].uri)).path)
    elif name == "where_all":
        text = "\n".join(await folders())
    elif name == "echo":
        text = arguments.get("text", "")
    else:
        raise ValueError(f"unknown tool {name}")
    return [types.TextContent(type="text", text=text)]


if __name__ == "__main__":
    mcp.run()
