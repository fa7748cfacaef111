"""Tools that share one roots helper (one keeps a local `root`, gdc-claude-plugin's shape), and a tool whose
path-like parameter is typed as no path (`project: int | None`)."""

from app import mcp
from sdk import Context
from workspace import _path


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool()
async def remember(ctx: Context, note: str) -> str:
    """The first shared directory, followed by the note."""
    root = await first_root(ctx)
    return root + note


@mcp.tool()
async def recall(ctx: Context) -> str:
    """The first shared directory."""
    return await first_root(ctx)


@mcp.tool()
async def ticket(ctx: Context, project: int | None = None) -> str:
    """The project's number when given, else the first shared directory."""
    if project is not None:
        return str(project)
    return await first_root(ctx)
