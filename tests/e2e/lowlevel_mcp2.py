"""A legacy mcp 2.x low-level server: constructor handlers taking (ctx, params), a dispatch table, roots
through the session of `ctx` (migrate-roots test fixture, run under the real SDK)."""

from typing import Any
from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

NO_ARGS = {"type": "object"}


async def list_tools(ctx: ServerRequestContext, params: Any) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name="where", description="The directory", input_schema={"type": "object", "properties": {}}
            ),
            types.Tool(name="where_all", description="Every directory", input_schema=NO_ARGS),
            types.Tool(
                name="echo",
                description="Echo",
                input_schema={"type": "object", "properties": {"text": {"type": "string"}}},
            ),
        ]
    )


async def folders(ctx: ServerRequestContext) -> list[str]:
    result = await ctx.session.list_roots()
    return [unquote(urlparse(str(root.uri)).path) for root in result.roots]


async def where(ctx: ServerRequestContext, arguments: dict[str, Any]) -> str:
    return (await folders(ctx))[0]


async def where_all(ctx, arguments: dict[str, Any]) -> str:
    return "\n".join(await folders(ctx))


async def echo(ctx: ServerRequestContext, arguments: dict[str, Any]) -> str:
    return str(arguments.get("text", ""))


TOOLS = {"where": where, "where_all": where_all, "echo": echo}


async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    text = await TOOLS[params.name](ctx, params.arguments or {})
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


server = Server("lowlevel-mcp2", on_list_tools=list_tools, on_call_tool=call_tool)


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
