# Regression: `session.list_roots()` on a session object passed in as an untyped (Any) parameter is MISSED.
#
# Found on: mcp-nav-shared 0.2.0 (src/mcp_nav_shared/workspace.py, `Workspace.select(self, session: Any)` ->
# `_client_roots(session)` -> `await session.list_roots()`), called by codenav-mcp 0.2.1 as
# `await _selector.select(ctx.session)`. `migrate-roots scan` finds nothing, in the library or in a single
# package that holds both halves (below); the call raises on every 2026-07-28 request (swallowed there, so the
# client's worktree is silently ignored).
# Reproduce: save as pkg/server.py, run `migrate-roots scan pkg`: no finding. Annotating
# `session: ServerSession` makes it found (MR101).
# Expected: at least a finding (MR10x, marked) for a `list_roots()` call on a value that the package's only
# caller fills with `ctx.session`; a rewrite if the plan can thread the argument through.
from typing import Any

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("nav")


async def client_roots(session: Any) -> list[str]:
    if session is None:
        return []
    try:
        if session.client_params.capabilities.roots is None:
            return []
        result = await session.list_roots()
    except Exception:
        return []
    return [str(root.uri) for root in result.roots]


@mcp.tool()
async def where(ctx: Context) -> str:
    return ",".join(await client_roots(ctx.session))
