"""A low-level handler that hands the tool arguments on whole (`**arguments`) to a function that neither reads
roots nor takes `**kwargs` is marked (MR153): a new schema property would reach that function as an unexpected
keyword (B's r02 and r06 shapes, session 14). Handed to the function that reads roots, the argument rides along
(tests/e2e/lowlevel_mcp1_splat.py, driven by the SDK's client in test_lowlevel_e2e)."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

HEAD = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("x")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", description="w", inputSchema={"type": "object", "properties": {}})]


"""


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        (
            "def search(roots, q=''):\n    return [q, *roots]\n\n\n@server.call_tool()\n"
            "async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n"
            "    r = await server.request_context.session.list_roots()\n"
            "    found = search([str(x.uri) for x in r.roots], **arguments)\n"
            "    return [types.TextContent(type='text', text=str(found))]\n",
            "search(..., **arguments)",
        ),
        (
            "async def handle_where(prefix: str = ''):\n"
            "    r = await server.request_context.session.list_roots()\n"
            "    return [types.TextContent(type='text', text=prefix + str(r.roots[0].uri))]\n\n\n"
            "HANDLERS = {'where': handle_where}\n\n\n@server.call_tool()\n"
            "async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n"
            "    return await HANDLERS[name](**arguments)\n",
            "HANDLERS[name](..., **arguments)",
        ),
    ],
)
def test_noop_arguments_handed_on_whole(tmp_path, body, shown):
    findings = check_noop(tmp_path, HEAD + body)
    assert helpers.codes(findings) == ["MR153"]
    assert f"the tool arguments are handed on whole (`{shown}`)" in findings[0].message
