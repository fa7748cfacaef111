"""fastmcp 2.x, 3.x and 4.x server, as migrate-roots leaves it (was: `await ctx.list_roots()`)."""

from typing import Annotated, List, Optional
from urllib.parse import unquote, urlparse

from fastmcp import Context, FastMCP
from pydantic import Field

from _mcp_roots_compat import list_roots_compat

mcp = FastMCP("where-fastmcp")


@mcp.tool
async def where(
    root: Annotated[Optional[str], Field(description="Absolute path of the directory to work in.")] = None,
    ctx: Context = None,
) -> str:
    roots = await list_roots_compat(ctx, root, name="root", shape="list")
    return unquote(urlparse(str(roots[0].uri)).path)


@mcp.tool
async def where_all(
    roots: Annotated[Optional[List[str]], Field(description="Absolute paths of the directories to work in.")] = None,
    ctx: Context = None,
) -> str:
    found = await list_roots_compat(ctx, roots, name="roots", shape="list")
    return "\n".join(unquote(urlparse(str(r.uri)).path) for r in found)


if __name__ == "__main__":
    mcp.run()
