"""A helper whose module name is rebound (`if cond: _dir = _dir_v2`) gets no path argument: MR103 (sweep Z, r30).

The tool's call `_dir(ctx, root=root)` would reach `_dir_v2` when the condition holds, which takes no `root`:
a TypeError for every client. Which function runs is decided at run time, so the read is marked, naming the
rebinding."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
    import os

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")


    {before}
    async def _dir(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)


    async def _dir_v2(ctx: Context) -> str:
        return os.getcwd()


    {after}


    @mcp.tool()
    async def where(ctx: Context) -> str:
        return await _dir(ctx)
    """


def _codes(tmp_path, before: str = "", after: str = "pass") -> list[tuple[str, str]]:
    text = SERVER.replace("{before}", before).replace("{after}", after)
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    return sorted((f.code, f.message) for r in results for f in r.findings)


@pytest.mark.parametrize(
    ("before", "after", "line"),
    [
        ("", 'if os.environ.get("IN_CWD"):\n        _dir = _dir_v2', 19),
        ("", "_dir: object = _dir_v2", 18),
        ("try:\n        from os import getcwd as _dir\n    except ImportError:\n        pass", "pass", 9),
    ],
    ids=["assigned-under-if", "annotated", "imported-too"],
)
def test_noop_a_rebound_helper_is_marked(tmp_path, before, after, line):
    findings = _codes(tmp_path, before, after)
    assert [c for c, _ in findings] == ["MR103"], findings
    assert f"`_dir` is bound again (server.py:{line})" in findings[0][1], findings


def test_a_helper_bound_once_is_rewritten(tmp_path):
    assert [c for c, _ in _codes(tmp_path)] == ["MR101", "MR107"]


def test_noop_a_rebound_method_is_marked(tmp_path):
    text = """\
        import os

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        class Finder:
            async def _dir(self, ctx: Context) -> str:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)

            async def _dir_v2(self, ctx: Context) -> str:
                return os.getcwd()

            if os.environ.get("IN_CWD"):
                _dir = _dir_v2


        finder = Finder()


        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await finder._dir(ctx)
        """
    root = helpers.package(tmp_path, {"server.py": text})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    findings = [(f.code, f.message) for r in results for f in r.findings]
    assert [c for c, _ in findings] == ["MR103"], findings
    assert "`Finder._dir` is bound again (server.py:17)" in findings[0][1], findings
