"""An awaited `x.list_roots()` on a value some call built (`ctx = make()`, mcp-use's `ctx =
server.get_context()`: sweep S, r04), in a module that imports the SDK, was taken for no MCP object and left
silent. It is marked now, with the doubt said (MR103); boto3's `client.list_roots()` (not awaited) and an
instance of the module's own class with a `list_roots` method stay quiet."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
from mcp.server.fastmcp import FastMCP

from .other import make

mcp = FastMCP("x")


class Workspace:
    async def list_roots(self) -> list[str]:
        return ["/tmp"]


@mcp.tool()
async def where() -> str:
    {body}
"""

MARKED = {
    "awaited on a built value": "ctx = make()\n    roots = await ctx.list_roots()\n    return str(roots)",
    "awaited, built by a method": "ctx = mcp.get_context()\n    x = make()\n    roots = await x.list_roots()\n"
    "    return str(roots)",
}
QUIET = {
    "not awaited (boto3)": "client = make()\n    return str(client.list_roots())",
    "the module's own class": "ws = Workspace()\n    return str(await ws.list_roots())",
}


def _findings(tmp_path, body: str):
    root = helpers.package(
        tmp_path, {"server.py": SERVER.format(body=body), "other.py": "def make():\n    return None\n"}
    )
    return [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]


@pytest.mark.parametrize("case", sorted(QUIET))
def test_noop_values_that_are_no_mcp_object_stay_quiet(tmp_path, case):
    assert _findings(tmp_path, QUIET[case]) == []


@pytest.mark.parametrize("case", sorted(MARKED))
def test_an_awaited_read_on_a_built_value_is_marked(tmp_path, case):
    found = _findings(tmp_path, MARKED[case])
    assert helpers.codes(found) == ["MR103"], found
    assert "on a value migrate-roots cannot trace to a request's session or context" in found[0].message
