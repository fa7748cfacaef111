"""A roots helper behind a cache keyed by its arguments (sweep K r01 of session 22: `@alru_cache` of async-lru).
Its new parameter joins the cache key: a single root (`root: str | None`) is hashable and the helper is rewritten;
the list the tools take when the roots are used beyond the first (`root: RootPaths`) is not, and every call
passing it failed with "unhashable type: 'list'". Such a helper is marked MR103, naming the cache, and given
nothing; the tools that reach roots only through it take no argument."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = """\
import functools
from urllib.parse import unquote, urlparse

import async_lru
import cachetools
import cachetools.func
from async_lru import alru_cache
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.session import ServerSession

mcp = MCPServer("files")

"""
SINGLE = """
{decorator}
async def _workspace(session: ServerSession) -> str:
    result = await session.list_roots()
    return unquote(urlparse(str(result.roots[0].uri)).path)


@mcp.tool()
async def where(ctx: Context) -> str:
    return await _workspace(ctx.session)
"""
LISTED = """
{decorator}
async def _workspaces(session: ServerSession) -> tuple[str, ...]:
    result = await session.list_roots()
    return tuple(unquote(urlparse(str(r.uri)).path) for r in result.roots)


@mcp.tool()
async def where(ctx: Context) -> list[str]:
    return list(await _workspaces(ctx.session))
"""
DECORATORS = {
    "functools.lru_cache": "@functools.lru_cache(maxsize=32)",
    "functools.cache": "@functools.cache",
    "alru_cache": "@alru_cache(maxsize=32)",
    "alru_cache-bare": "@alru_cache",
    "async_lru.alru_cache": "@async_lru.alru_cache()",
    "cachetools.cached": "@cachetools.cached(cachetools.TTLCache(8, 60))",
    "cachetools.func": "@cachetools.func.ttl_cache(ttl=60)",
}


def _run(tmp_path, body):
    (tmp_path / "server.py").write_text(HEAD + body)
    findings = [f for r in helpers.run_engine(tmp_path) for f in r.findings]
    return findings, (tmp_path / "server.py").read_text()


@pytest.mark.parametrize("decorator", DECORATORS.values(), ids=DECORATORS.keys())
def test_noop_a_single_root_is_keyed_by_the_cache(tmp_path, decorator):
    findings, text = _run(tmp_path, SINGLE.format(decorator=decorator))
    assert helpers.codes(findings) == ["MR101", "MR107"], findings
    assert "async def _workspace(session: ServerSession, root: str | None = None) -> str:" in text
    assert "return await _workspace(ctx.session, root=root)" in text
    assert "root: RootPath = None" in text


@pytest.mark.parametrize("decorator", DECORATORS.values(), ids=DECORATORS.keys())
def test_a_list_of_roots_is_never_given_to_a_cached_helper(tmp_path, decorator):
    body = LISTED.format(decorator=decorator)
    findings, text = _run(tmp_path, body)
    assert helpers.codes(findings) == ["MR103"], findings
    spelled = decorator.partition("(")[0]
    assert findings[0].message.startswith(
        f"`_workspaces` is cached by `{spelled}`, whose key is its arguments: the path argument it would take "
        "from `where` is a list (the roots are used beyond the first), which the key cannot hold (every call "
        "passing it would fail: unhashable type 'list'), so migrate-roots gives it none"
    ), findings[0].message
    assert "# migrate-roots: MR103" in text
    assert "RootPaths" not in text and "root=root" not in text  # no argument, no list in the key
    assert (
        text.replace(text[text.index("    # migrate-roots") : text.index("    result =")], "") == HEAD + body
    )


def test_a_list_made_by_another_helper_is_never_given_to_a_cached_one(tmp_path):
    # `_workspace` uses the first root only, but the tool takes a list for `_all`: it would pass that list.
    body = SINGLE.format(decorator="@functools.lru_cache").replace(
        "    return await _workspace(ctx.session)\n",
        "    return await _workspace(ctx.session) + str(await _all(ctx))\n",
    ) + (
        "\n\nasync def _all(ctx: Context) -> list[str]:\n"
        "    result = await ctx.session.list_roots()\n"
        "    return [str(r.uri) for r in result.roots]\n"
    )
    findings, text = _run(tmp_path, body)
    assert [(f.code, f.line) for f in sorted(findings, key=lambda f: f.line)] == [
        ("MR103", 16),
        ("MR107", 25),
        ("MR101", 26),
    ], findings
    assert "`_workspace` is cached by `@functools.lru_cache`" in findings[0].message
    assert "async def where(ctx: Context, root: RootPaths = None) -> str:" in text
    assert "return await _workspace(ctx.session) + str(await _all(ctx, root=root))" in text


def test_a_cache_keyed_by_the_project_is_rewritten(tmp_path):
    # `key=`: the project's own key function, which may well take a list: not the arguments hashed.
    decorator = "@cachetools.cached(cachetools.TTLCache(8, 60), key=lambda session, root=None: id(session))"
    findings, text = _run(tmp_path, LISTED.format(decorator=decorator))
    assert helpers.codes(findings) == ["MR101", "MR107"], findings
    assert "root: list[str] | None = None" in text
