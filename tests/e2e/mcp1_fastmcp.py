"""A legacy mcp 1.x FastMCP server, before migration: roots through the session, a helper, and a list use."""

from urllib.parse import unquote, urlparse

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("e2e-mcp1")


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


async def project_dir(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool()
async def where(ctx: Context) -> str:
    """The project directory."""
    return await project_dir(ctx)


@mcp.tool()
async def where_all(ctx: Context) -> str:
    """Every shared directory."""
    result = await ctx.request_context.session.list_roots()
    return "\n".join(_path(r.uri) for r in result.roots)


@mcp.tool()
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run()
