"""A mcp 2.x MCPServer server, before migration: the roots method taken as a value, by `getattr` behind
a `callable` test and a timeout (pycharm-sonar-mcp's, Synapse-Desktop's and mito's shape) and as a bound
method held in a local."""

import asyncio
from typing import Any
from urllib.parse import unquote, urlparse

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("e2e-mcp2-taken")


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


async def _project(session: Any) -> str:
    list_roots = getattr(session, "list_roots", None)
    if not callable(list_roots):
        return "no roots"
    result = await asyncio.wait_for(list_roots(), timeout=5.0)
    return _path(result.roots[0].uri)


@mcp.tool()
async def where(ctx: Context) -> str:
    """The project directory."""
    return await _project(ctx.session)


@mcp.tool()
async def where_all(ctx: Context) -> str:
    """Every shared directory."""
    fetch = ctx.session.list_roots
    result = await fetch()
    return "\n".join(_path(r.uri) for r in result.roots)


@mcp.tool()
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run()
