"""A fastmcp 2.x/3.x server, before migration: fastmcp's own roots call on the context (a list), and `get_context()` in a tool."""

from urllib.parse import unquote, urlparse

from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context

mcp = FastMCP("e2e-fastmcp")


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


@mcp.tool
async def where(ctx: Context) -> str:
    """The project directory."""
    roots = await ctx.list_roots()
    return _path(roots[0].uri)


@mcp.tool
async def where_all() -> str:
    """Every shared directory (no ctx parameter: get_context())."""
    ctx = get_context()
    roots = await ctx.list_roots()
    return "\n".join(_path(r.uri) for r in roots)


@mcp.tool
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run(show_banner=False)
