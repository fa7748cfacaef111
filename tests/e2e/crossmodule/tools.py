"""Tools registered on a server object imported from another module."""

from app import mcp
from sdk import Context
from workspace import every_root, first_shared, resolve, workspace


@mcp.tool()
async def where(ctx: Context, project_dir: str | None = None) -> str:
    """The project directory (the argument when given, else the client's first root)."""
    return await resolve(ctx, project_dir)


async def all_roots(ctx: Context) -> str:
    """Every shared directory."""
    return await every_root(ctx)


mcp.add_tool(all_roots, name="where_all")


@mcp.tool()
async def where_first(ctx: Context) -> str:
    """The first shared directory, through the module's instance."""
    return await workspace.first(ctx)


@mcp.tool()
async def where_first_again(ctx: Context) -> str:
    """The same, asked of the tool above as a function: its argument must be passed on."""
    return await where_first(ctx)


@mcp.tool()
async def where_or_given(ctx: Context, working_directory: str | None = None) -> str:
    """The given directory, else the client's first root: the argument is already there."""
    if not working_directory:
        working_directory = await first_shared(ctx)
    return working_directory
