"""A method a class inherits from a base of the project is the base's (sweep E r03 of session 20): the call
`GitResolver().workspace(ctx)` reaches `Resolver.workspace`, which reads roots, so the tool takes the argument
and passes it down. Before, the tool had no argument and no marker, and its call kept asking the client."""

from __future__ import annotations

from tests import helpers

BASE = """\
from mcp.server.fastmcp import Context


class Resolver:
    async def workspace(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
"""
SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from pkg.paths import Resolver

mcp = FastMCP("x")


class GitResolver(Resolver):
{body}


@mcp.tool()
async def info(ctx: Context) -> str:
    return await GitResolver().workspace(ctx)
"""


def _run(tmp_path, body: str) -> tuple[list, str]:
    root = helpers.package(tmp_path, {"paths.py": BASE, "server.py": SERVER.format(body=body)})
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    return findings, (root / "pkg" / "server.py").read_text()


def test_noop_an_override_that_reads_nothing_is_the_one_called(tmp_path):
    findings, text = _run(
        tmp_path, "    async def workspace(self, ctx: Context) -> str:\n        return '/srv'"
    )
    assert "async def info(ctx: Context) -> str:" in text
    assert "MR101" not in [
        f.code for f in findings if f.action.value == "rewritten" and "server.py" in f.path
    ]


def test_an_inherited_method_that_reads_roots_gives_the_tool_the_argument(tmp_path):
    findings, text = _run(tmp_path, "    kind = 'git'")
    assert "async def info(ctx: Context, root: RootPath = None) -> str:" in text, text
    assert "return await GitResolver().workspace(ctx, root=root)" in text, text
    assert not helpers.flakes(text)


MIXED = """\
from mcp.server.fastmcp import Context, FastMCP


class Indexer:
    async def workspace(self, ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)

    async def files(self, ctx: Context) -> str:
        return await self.workspace(ctx)


class Pinned:
    async def workspace(self, ctx: Context) -> str:
        return "/srv/pinned"


class PinnedIndexer(Pinned, Indexer):
    pass


mcp = FastMCP("x")


@mcp.tool()
async def files(ctx: Context) -> str:
    return await Indexer().files(ctx)
"""


def test_a_method_of_a_base_listed_after_a_mixin_is_marked(tmp_path):
    """sweep I r01 (session 21): on a `PinnedIndexer`, `self.workspace(ctx, root=root)` in `Indexer.files` would
    meet `Pinned.workspace`, which takes no `root`: TypeError on every call."""
    root = helpers.package(tmp_path, {"server.py": MIXED})
    findings = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR103", "marked")], findings
    assert "`PinnedIndexer` lists after `Pinned`" in findings[0].message
