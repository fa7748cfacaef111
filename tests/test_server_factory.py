"""A server object made by a factory of the module (`mcp = create_server()`, `def create_server() -> FastMCP`
keeping one in a global: maid-runner-mcp's shape, found by the session 21 field hunt): its annotation says it
gives a server, so tools registered on `mcp` in other modules are tools, and take the argument. Without an
annotation (or a server it constructs and returns) the object stays unresolved: MR103, as before."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
from mcp.server.fastmcp import FastMCP

_server: FastMCP | None = None


def create_server(){returns}:
    global _server
    if _server is None:
        _server = FastMCP("x")
    return _server


mcp = create_server()
"""
TOOLS = """\
from mcp.server.fastmcp import Context

from pkg.server import mcp


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""


def _run(tmp_path, returns: str) -> tuple[list, str]:
    root = helpers.package(tmp_path, {"server.py": SERVER.format(returns=returns), "tools.py": TOOLS})
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    return findings, (root / "pkg" / "tools.py").read_text()


def test_noop_an_unannotated_factory_stays_unresolved(tmp_path):
    findings, text = _run(tmp_path, "")
    assert [(f.code, f.action.value) for f in findings] == [("MR103", "marked")], findings
    assert "cannot be resolved" in findings[0].message


@pytest.mark.parametrize("returns", [" -> FastMCP", ' -> "FastMCP"'])
def test_a_factory_annotated_as_giving_a_server_gives_one(tmp_path, returns):
    findings, text = _run(tmp_path, returns)
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "rewritten")], findings
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text
