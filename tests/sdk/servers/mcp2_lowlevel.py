"""mcp 2.x low-level Server, as migrate-roots leaves it (was: `await ctx.session.list_roots()`)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.lowlevel import Server

from _mcp_roots_compat import RootsArgumentError, list_roots_compat

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


async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[types.Tool(name="where", description="Where am I working?", input_schema=ROOT_SCHEMA)]
    )


async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name != "where":
        raise ValueError(f"unknown tool {params.name}")
    try:
        result = await list_roots_compat(ctx, (params.arguments or {}).get("root"), name="root")
    except RootsArgumentError as exc:
        # mcp 2.x low-level: an exception becomes a JSON-RPC error, and on 2026-07-28 requests its text is
        # replaced by "Internal server error"; a tool error result reaches the model on both eras.
        return types.CallToolResult(content=[types.TextContent(type="text", text=str(exc))], is_error=True)
    path = unquote(urlparse(str(result.roots[0].uri)).path)
    return types.CallToolResult(content=[types.TextContent(type="text", text=path)])


server = Server("where-lowlevel-mcp2", on_list_tools=on_list_tools, on_call_tool=on_call_tool)


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
