"""mcp 1.x FastMCP server, as migrate-roots leaves it (was: `await ctx.session.list_roots()`)."""

from typing import Annotated, List, Optional
from urllib.parse import unquote, urlparse

from mcp.server.fastmcp import Context, FastMCP
from pydantic import Field

from _mcp_roots_compat import list_roots_compat

mcp = FastMCP("where-mcp1")


@mcp.tool()
async def where(
    root: Annotated[Optional[str], Field(description="Absolute path of the directory to work in.")] = None,
    ctx: Context = None,
) -> str:
    result = await list_roots_compat(ctx, root, name="root")
    return unquote(urlparse(str(result.roots[0].uri)).path)


@mcp.tool()
async def where_all(
    roots: Annotated[Optional[List[str]], Field(description="Absolute paths of the directories to work in.")] = None,
    ctx: Context = None,
) -> str:
    found = await list_roots_compat(ctx, roots, name="roots", shape="list")
    return "\n".join(unquote(urlparse(str(r.uri)).path) for r in found)


if __name__ == "__main__":
    mcp.run()
