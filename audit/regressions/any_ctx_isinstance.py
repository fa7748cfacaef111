# Regression: a fastmcp `ctx.list_roots()` call is MISSED when the parameter is typed `Any` and narrowed with
# `isinstance(ctx, Context)`.
#
# Found on: dbt-core-mcp 1.7.1 (src/dbt_core_mcp/server.py, `DbtCoreMcpServer._detect_workspace_roots(self,
# ctx: Any)`), reached from every tool through `self._ensure_initialized_with_context(ctx)`. `migrate-roots scan`
# reports nothing; under fastmcp 4 `ctx.list_roots` no longer exists (AttributeError, swallowed by the server's
# `except Exception`), so the workspace silently falls back to the server's cwd.
# Reproduce: save as pkg/server.py, run `migrate-roots scan pkg`: no finding. With `ctx: Context` instead of
# `ctx: Any` the same call is found (MR102) and rewritten.
# Expected: the `isinstance(ctx, Context)` guard (or the call of `first_root(ctx)` from a tool passing its own
# Context) makes `ctx` a Context for the resolver; MR102 on the `list_roots` line.
from typing import Any

from fastmcp import FastMCP
from fastmcp.server.context import Context

mcp = FastMCP("dbt")


async def first_root(ctx: Any) -> str | None:
    if isinstance(ctx, Context):
        roots = await ctx.list_roots()
        if roots:
            return str(roots[0].uri)
    return None


@mcp.tool
async def where(ctx: Context) -> str:
    return str(await first_root(ctx))
