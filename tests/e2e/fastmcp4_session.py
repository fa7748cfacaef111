"""A fastmcp 4.x server, before migration: the context's roots method is gone there, the session call remains."""

from urllib.parse import unquote, urlparse

from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context

mcp = FastMCP("e2e-fastmcp4")


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


@mcp.tool
async def where(ctx: Context) -> str:
    """The project directory."""
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool
async def where_all() -> str:
    """Every shared directory (no ctx parameter: get_context())."""
    ctx = get_context()
    result = await ctx.request_context.session.list_roots()
    return "\n".join(_path(r.uri) for r in result.roots)


@mcp.tool
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run(show_banner=False)
