"""The server object, built in its own module from the project's own server class (the tools register on it
from another module, and one here)."""

from sdk import App, Context
from workspace import every_root

mcp = App("e2e-crossmodule")


@mcp.tool()
async def where_app(ctx: Context) -> str:
    """Every shared directory, from a tool on the subclass's instance."""
    return await every_root(ctx)
