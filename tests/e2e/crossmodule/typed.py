"""Tools whose roots read is typed by the project's own types of `shapes.py` (sweep N of session 22)."""

from app import mcp
from sdk import Context
from shapes import AppCtx, RootsSession, ToolCtx
from workspace import _path


@mcp.tool()
async def where_aliased(ctx: AppCtx) -> str:
    """The first shared directory, under an alias of the Context another module defines."""
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


async def _first_of(ctx: ToolCtx) -> str:
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool()
async def where_by_base(ctx: Context) -> str:
    """The first shared directory, read by a helper typed by a Protocol whose base declares the session."""
    return await _first_of(ctx)


async def _first_listed(session: RootsSession) -> str:
    result = await session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool()
async def where_by_session(ctx: Context) -> str:
    """The first shared directory, read by a helper typed by a Protocol with the session's `list_roots()`."""
    return await _first_listed(ctx.session)
