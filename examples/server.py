"""A small legacy MCP server (mcp 1.x FastMCP style) whose tools depend on roots.

Run it with `python examples/server.py` (needs `pip install "mcp>=1.30,<2"`); migrate it with
`migrate-roots apply examples`.
"""

from pathlib import Path
from urllib.parse import unquote, urlparse

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("workspace-tools")


def _to_path(uri: object) -> Path:
    return Path(unquote(urlparse(str(uri)).path))


async def project_dir(ctx: Context) -> Path:
    """The first root the client shared: the project the user has open."""
    result = await ctx.session.list_roots()
    return _to_path(result.roots[0].uri)


@mcp.tool()
async def list_files(pattern: str, ctx: Context) -> list[str]:
    """List files in the project that match a glob pattern."""
    base = await project_dir(ctx)
    return sorted(str(p.relative_to(base)) for p in base.glob(pattern))


@mcp.tool()
async def workspace_folders(ctx: Context) -> list[str]:
    """Every folder the client shared."""
    result = await ctx.session.list_roots()
    return [str(_to_path(root.uri)) for root in result.roots]


@mcp.tool()
def echo(text: str) -> str:
    """A tool that never needed roots: left alone."""
    return text


if __name__ == "__main__":
    mcp.run()
