"""Helpers that read roots, in a module of their own: one already takes the path, one reaches the session
through `getattr`, one is a method of the module's own instance (`workspace = Workspace()`)."""

from typing import Any
from urllib.parse import unquote, urlparse

from sdk import Context


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)


async def resolve(ctx: Context, explicit: str | None = None) -> str:
    if explicit:
        return explicit
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


async def every_root(ctx: Any) -> str:
    session = getattr(ctx, "session", None)
    result = await session.list_roots()
    return "\n".join(_path(r.uri) for r in result.roots)


class Workspace:
    async def first(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return _path(result.roots[0].uri)


workspace = Workspace()


async def first_shared(ctx: Context) -> str:
    """Only for a tool whose own `working_directory` skips it (the read names that argument)."""
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)
