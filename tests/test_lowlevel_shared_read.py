"""A low-level server whose roots helper is reached from a prompt handler and from `call_tool` (RAGConnect),
with its tools described by a `_tool(name, ...)` helper: the marker is the same whatever the order of the
handlers in the file, and names what is really there."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

PROMPT = """
@server.get_prompt()
async def get_prompt(name: str, arguments: dict | None) -> types.GetPromptResult:
    text = ",".join(await _dirs())
    msg = types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))
    return types.GetPromptResult(messages=[msg])
"""

TOOLS = """
@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [_tool("where", "Show the folders", {})]


@server.call_tool()
async def call_tool(name: str, arguments: dict | None) -> list[types.TextContent]:
    dirs = await _dirs()
    if name == "where":
        return [types.TextContent(type="text", text=",".join(dirs))]
    raise ValueError(name)


def _tool(name: str, description: str, properties: dict) -> types.Tool:
    schema = {"type": "object", "properties": properties}
    return types.Tool(name=name, description=description, inputSchema=schema)
"""

READ = """
async def _dirs() -> list[str]:
    result = await server.request_context.session.list_roots()
    return [str(r.uri) for r in result.roots]
"""


@pytest.mark.parametrize("order", ["prompt-first", "prompt-last"])
def test_the_tools_way_is_named_whatever_the_order(tmp_path, order):
    head = "import mcp.types as types\nfrom mcp.server import Server\n\nserver = Server('x')\n\n"
    body = PROMPT + TOOLS if order == "prompt-first" else TOOLS + PROMPT
    (tmp_path / "srv.py").write_text(head + textwrap.dedent(body) + READ)
    results = helpers.run_engine(tmp_path, select=["MR1"], write=False)
    found = [f for r in results for f in r.findings]
    assert [f.code for f in found] == ["MR152"], found
    message = found[0].message
    assert "reached from `call_tool`: this server lists its tools at runtime" in message, message
    assert "with the name `name` it is given in `_tool`" in message, message
    assert "tool `name`" not in message and "not defined in this module" not in message, message
