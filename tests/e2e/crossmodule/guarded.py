"""Tools whose read sits behind a capability check imported from `caps`, or inside the project's own Context
subclass (`sdk.AppContext.list_roots`, mcp-use's shape)."""

from app import mcp
from caps import client_has_roots
from sdk import AppContext, Context
from workspace import _path


@mcp.tool()
async def where_checked(ctx: Context) -> str:
    """The first shared directory, or "no roots" for a client that declares none."""
    if not client_has_roots(ctx):
        return "no roots"
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool()
async def where_own_context(ctx: AppContext) -> str:
    """The first shared directory, asked of the project's own context."""
    roots = await ctx.list_roots()
    return _path(roots[0].uri)
