"""A mcp 2.x MCPServer server, before migration: roots read in helpers whose context parameter is typed by a
Protocol of the project and by a type variable bound to the SDK's Context (sweep L r03 of session 22: both were
silent)."""

from typing import Protocol, TypeVar
from urllib.parse import unquote, urlparse

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.session import ServerSession

mcp = MCPServer("e2e-mcp2-typed")

C = TypeVar("C", bound=Context)


class HasSession(Protocol):
    @property
    def session(self) -> ServerSession: ...


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


async def _project(ctx: HasSession) -> str:
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


async def _shared(ctx: C) -> list[str]:
    result = await ctx.session.list_roots()
    return [_path(r.uri) for r in result.roots]


@mcp.tool()
async def where(ctx: Context) -> str:
    """The project directory."""
    return await _project(ctx)


@mcp.tool()
async def where_all(ctx: Context) -> str:
    """Every shared directory."""
    return "\n".join(await _shared(ctx))


@mcp.tool()
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run()
