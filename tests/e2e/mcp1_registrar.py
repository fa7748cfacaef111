"""A legacy mcp 1.x FastMCP server, before migration: its tools go through the project's own registrars, a
decorator whose `functools.wraps` wrapper passes every argument on (sphinxcontrib-nexus's `@nexus_tool`) and a
decorator factory that registers the function itself (obsidian-mcp-server's `@register_tool(mcp, name)`)."""

import functools
from urllib.parse import unquote, urlparse

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("e2e-mcp1-registrar")
CALLS: list[str] = []
ENABLED = {"where_all"}


def logged_tool(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        CALLS.append(fn.__name__)
        return await fn(*args, **kwargs)

    return mcp.tool()(wrapper)


def register_tool(server: FastMCP, name: str):
    def decorator(fn):
        if name not in ENABLED:
            return fn
        return server.tool(name=name)(fn)

    return decorator


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


async def project_dir(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@logged_tool
async def where(ctx: Context) -> str:
    """The project directory."""
    return await project_dir(ctx)


@register_tool(mcp, "where_all")
async def where_all(ctx: Context) -> str:
    """Every shared directory."""
    result = await ctx.request_context.session.list_roots()
    return "\n".join(_path(r.uri) for r in result.roots)


@logged_tool
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run()
