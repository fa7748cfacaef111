"""A fastmcp 2.x/3.x server whose roots bound what a tool may read, before migration (MR110): fastmcp's
`ctx.list_roots` (a list of Root), a path outside every root refused, no roots: the working directory."""

from pathlib import Path
from urllib.parse import unquote, urlparse

from fastmcp import Context, FastMCP

mcp = FastMCP("bounded-fastmcp")


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    """A file's text, when it lies inside an allowed directory."""
    try:
        roots = [Path(unquote(urlparse(str(r.uri)).path)).resolve() for r in await ctx.list_roots()]
    except Exception:
        roots = [Path.cwd().resolve()]
    target = Path(path).resolve()
    if not any(target.is_relative_to(root) for root in roots):
        return f"denied: {path} is outside the allowed roots"
    return target.read_text()


if __name__ == "__main__":
    mcp.run()
