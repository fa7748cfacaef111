"""Roots read once into a holder that outlives the call (the lifespan value, a default argument, a variable of
the enclosing factory, a cachetools cache) are marked MR211: a path argument would count on the first call only
(B's r05 and r13, session 14). Filled into a container made fresh in the call, the read is rewritten."""

from __future__ import annotations

import pytest

from tests import helpers

TOOL = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")
{module}

{body}
"""

CASES = {
    "lifespan": (
        "",
        "@mcp.tool()\nasync def a(ctx: Context) -> list[str]:\n    app = ctx.request_context.lifespan_context\n"
        '    if "roots" not in app:\n        r = await ctx.session.list_roots()\n'
        '        app["roots"] = [str(x.uri) for x in r.roots]\n    return app["roots"]\n',
    ),
    "default argument": (
        "",
        "async def _roots(ctx, _memo=[]):\n    if not _memo:\n        r = await ctx.session.list_roots()\n"
        "        _memo.extend(str(x.uri) for x in r.roots)\n    return _memo\n\n\n"
        "@mcp.tool()\nasync def b(ctx: Context) -> list[str]:\n    return await _roots(ctx)\n",
    ),
    "factory variable": (
        "",
        "def make():\n    seen = {}\n\n    async def c(ctx: Context) -> list[str]:\n"
        '        if "r" not in seen:\n            r = await ctx.session.list_roots()\n'
        '            seen["r"] = [str(x.uri) for x in r.roots]\n        return seen["r"]\n\n    return c\n\n\n'
        "mcp.add_tool(make())\n",
    ),
    "cachetools": (
        "from cachetools import TTLCache\n\n_ttl = TTLCache(maxsize=1, ttl=60)\n",
        "@mcp.tool()\nasync def d(ctx: Context) -> list[str]:\n"
        '    if "r" in _ttl:\n        return _ttl["r"]\n    r = await ctx.session.list_roots()\n'
        '    _ttl["r"] = [str(x.uri) for x in r.roots]\n    return _ttl["r"]\n',
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_noop_roots_kept_beyond_the_call_are_marked(tmp_path, case):
    module, body = CASES[case]
    findings = helpers.check_noop(tmp_path, TOOL.format(module=module, body=body), write=False)
    assert [f.code for f in findings] == ["MR211"]


def test_a_container_made_in_the_call_is_rewritten(tmp_path):
    body = (
        "@mcp.tool()\nasync def e(ctx: Context) -> list[str]:\n    seen = {}\n"
        '    if "r" not in seen:\n        r = await ctx.session.list_roots()\n'
        '        seen["r"] = [str(x.uri) for x in r.roots]\n    return seen["r"]\n'
    )
    (tmp_path / "server.py").write_text(TOOL.format(module="", body=body))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    assert [f.code for r in results for f in r.findings] == ["MR101"]
