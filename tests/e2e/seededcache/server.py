"""A fastmcp server, before migration: the client's root read once per process into module globals, filled
deep inside the fetch guard (a shape of real servers), and used to resolve relative paths."""

from pathlib import Path
from urllib.parse import unquote, urlparse

from fastmcp import Context, FastMCP

mcp = FastMCP("e2e-seeded-cache")

# Resolved once per process via ctx.list_roots().
_client_root: Path | None = None
_client_root_resolved: bool = False


async def _resolve_client_root(ctx: Context) -> Path | None:
    global _client_root, _client_root_resolved
    if not _client_root_resolved:
        try:
            roots = await ctx.list_roots()
            if roots:
                uri = str(roots[0].uri)
                if uri.startswith("file://"):
                    _client_root = Path(unquote(urlparse(uri).path))
        except Exception:
            pass
        _client_root_resolved = True
    return _client_root


@mcp.tool
async def resolve(ctx: Context, path: str) -> str:
    """Resolve a path against the client's project root."""
    root = await _resolve_client_root(ctx)
    return str(root / path) if root is not None else path


if __name__ == "__main__":
    mcp.run(show_banner=False)
