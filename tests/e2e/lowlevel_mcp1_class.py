"""A legacy mcp 1.x low-level server in a class: `match` on an enum, pydantic models for the schemas, roots
through `self.server.request_context` guarded by `except LookupError` (migrate-roots test fixture)."""

from enum import Enum
from typing import Any
from urllib.parse import unquote, urlparse

from mcp.server.lowlevel import Server
from mcp.types import TextContent, Tool
from pydantic import BaseModel


class WhereArgs(BaseModel):
    pass


class EchoArgs(BaseModel):
    text: str = ""


class Tools(str, Enum):
    WHERE = "where"
    WHERE_ALL = "where_all"
    ECHO = "echo"


class FilesServer:
    def __init__(self) -> None:
        self.server = Server("lowlevel-mcp1-class")
        self._register()

    def _register(self) -> None:
        @self.server.list_tools()
        async def list_tools() -> list[Tool]:
            return [
                Tool(
                    name=Tools.WHERE, description="The directory", inputSchema=WhereArgs.model_json_schema()
                ),
                Tool(
                    name=Tools.WHERE_ALL,
                    description="Every directory",
                    inputSchema=WhereArgs.model_json_schema(),
                ),
                Tool(name=Tools.ECHO, description="Echo", inputSchema=EchoArgs.model_json_schema()),
            ]

        @self.server.call_tool()
        async def call_tool(name: str, arguments: dict[str, Any]) -> list[TextContent]:
            match name:
                case Tools.WHERE:
                    text = (await self._folders())[0]
                case Tools.WHERE_ALL:
                    text = "\n".join(await self._folders())
                case Tools.ECHO:
                    text = EchoArgs(**arguments).text
                case _:
                    raise ValueError(f"unknown tool {name}")
            return [TextContent(type="text", text=text)]

    async def _folders(self) -> list[str]:
        try:
            ctx = self.server.request_context
        except LookupError:
            return []
        result = await ctx.session.list_roots()
        return [unquote(urlparse(str(root.uri)).path) for root in result.roots]


server = FilesServer().server


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
