# Regression (quality, not an error): a tool that ALREADY takes an explicit directory argument, used as the
# fallback when roots are missing, gets a SECOND, list-shaped `root` argument instead of that one being reused.
#
# Found on: bees-md 0.9.1 (22 tools with `repo_root: str | None = None`, resolved by
# `resolve_repo_root(ctx, repo_root)`: roots first, `repo_root` when the client has none) and codex-in-claude
# 0.24.0 (14 tools with `workspace_root`, checked against the roots). After `apply`, each of those tools has both
# `repo_root` (str) and `root` (list[str], described as "the first is the main workspace"): two arguments for one
# directory, and a singular name on a list (a model passing `"root": "/x"` gets a validation error). On
# codex-in-claude the 14 extra schema entries also pushed tools/list ~3.4 KB over the project's own size budget
# (2 of its 6 new test failures).
# Reproduce: save as pkg/server.py, `migrate-roots apply pkg`: `where` gets `root: RootPaths = None` next to
# `repo_root`, and the roots call is routed through the shim with `root`.
# Expected (docs/shared real-world-patterns: "the migration mostly deletes code"): reuse `repo_root` (the
# `path-params` setting exists for this; a parameter passed as the fallback of the roots helper is the signal),
# so the tool keeps one directory argument; or at least report the overlap.
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("bees")


async def resolve_repo_root(ctx: Context, explicit_root: str | None) -> Path:
    try:
        result = await ctx.session.list_roots()
        if result.roots:
            return Path(result.roots[0].uri.path or "/")
    except Exception:
        pass
    if explicit_root:
        return Path(explicit_root)
    raise ValueError("Please provide repo_root parameter when calling this tool.")


@mcp.tool()
async def where(ctx: Context, repo_root: str | None = None) -> str:
    return str(await resolve_repo_root(ctx, repo_root))
