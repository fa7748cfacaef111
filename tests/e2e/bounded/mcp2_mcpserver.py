"""A mcp 2.x MCPServer server whose roots bound what a tool may read, before migration (MR110): a path outside
every root is refused, and a client without roots (or a request roots/list cannot reach) is confined to the
working directory."""

from pathlib import Path
from urllib.parse import unquote, urlparse

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("bounded-mcp2")


async def allowed(ctx: Context) -> list[Path]:
    try:
        result = await ctx.session.list_roots()
    except Exception:
        return [Path.cwd().resolve()]
    return [Path(unquote(urlparse(str(r.uri)).path)).resolve() for r in result.roots]


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    """A file's text, when it lies inside an allowed directory."""
    target = Path(path).resolve()
    if not any(target.is_relative_to(root) for root in await allowed(ctx)):
        return f"denied: {path} is outside the allowed roots"
    return target.read_text()


if __name__ == "__main__":
    mcp.run()
