"""fastmcp_listroots.py under `from __future__ import annotations`: fastmcp 2 resolves the string annotations of
a tool that takes a `Context` in its own module, so `where` gets `root: str | None` (no description) and
`where_all`, which has no `Context` parameter, keeps `RootPaths` (session 20, sweep A r03)."""

from __future__ import annotations

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
