# Regression: a roots call is MISSED when the Context parameter is annotated with a string (forward reference).
#
# Found on: mcp-guide 1.1.0 (src/mcp_guide/mcp_context.py, `cache_mcp_globals(ctx: Optional["Context"] = None)`,
# with `from mcp.server.fastmcp import Context` inside `try/except ImportError`). `migrate-roots scan` reports
# nothing for its `await ctx.session.list_roots()`, so the server keeps a roots/list call that fails on every
# 2026-07-28 request, and the audit shows 0 sites for a server that has one.
# Reproduce: save as pkg/server.py, run `migrate-roots scan pkg`: no MR10x finding. The same file with
# `ctx: Optional[Context] = None` (no quotes) is found (MR101) and rewritten.
# Expected: the string annotation resolves like the bare name (MR101 on the `list_roots` line, tool `where`
# gets the path argument).
from typing import Optional

try:
    from mcp.server.fastmcp import Context, FastMCP
except ImportError:  # the real server guards the import like this
    Context = None  # type: ignore

mcp = FastMCP("guide")


async def helper(ctx: Optional["Context"] = None) -> list:
    if ctx is None:
        return []
    if hasattr(ctx, "session") and hasattr(ctx.session, "list_roots"):
        result = await ctx.session.list_roots()
        return list(result.roots)
    return []


@mcp.tool()
async def where(ctx: Context) -> str:
    roots = await helper(ctx)
    return str(roots)
