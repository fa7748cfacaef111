"""A low-level handler in a class that looks its tool's method up by a computed name (`getattr(self,
f"handle_{name}")`) is not followed; the method's roots read was said to be "not a tool" (sweep P, r05). Its
MR153 now names the lookup and the tool. A lookup whose name matches no tool stays MR103."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

V1 = """\
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server


class FilesServer:
    def __init__(self) -> None:
        self.server = Server("files")

        @self.server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="where", description="w", inputSchema={"type": "object", "properties": {}})]

        @self.server.call_tool()
        async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
            handler = LOOKUP
            return [types.TextContent(type="text", text=await handler(arguments))]

    async def METHOD(self, arguments: dict[str, Any]) -> str:
        result = await self.server.request_context.session.list_roots()
        return str(result.roots[0].uri)
"""

V2 = """\
import mcp.types as types
from mcp.server import Server


class FilesServer:
    def __init__(self) -> None:
        self.server = Server("files")
        self.server.add_request_handler("tools/list", types.ListToolsRequest, self._list_tools)
        self.server.add_request_handler("tools/call", types.CallToolRequest, self._call_tool)

    async def _list_tools(self, ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(
            tools=[types.Tool(name="where", description="w", input_schema={"type": "object", "properties": {}})]
        )

    async def _call_tool(self, ctx, params) -> types.CallToolResult:
        handler = LOOKUP
        return types.CallToolResult(content=[types.TextContent(type="text", text=await handler(ctx))])

    async def METHOD(self, ctx) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
"""


def test_noop_lookup_matching_no_tool_stays_mr103(tmp_path):
    source = V1.replace("LOOKUP", 'getattr(self, f"do_{name}")').replace("METHOD", "handle_where")
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR103"]
    assert "which is not a tool" in findings[0].message


@pytest.mark.parametrize(
    ("template", "lookup", "method", "line"),
    [
        (V1, 'getattr(self, f"handle_{name}", None)', "handle_where", 17),
        (V1, 'getattr(self, f"handle_{name}")', "handle_where", 17),
        (V1, 'getattr(self, "tool_" + name)', "tool_where", 17),
        (V1, 'getattr(self, f"{name}_tool")', "where_tool", 17),
        (V2, 'getattr(self, f"handle_{params.name}")', "handle_where", 17),
    ],
)
def test_noop_computed_lookup_is_named(tmp_path, template, lookup, method, line):
    source = template.replace("LOOKUP", lookup).replace("METHOD", method)
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR153"]
    message = " ".join(findings[0].message.split())
    assert message == (
        f"roots read in `{method}`, which the low-level tool handler looks up by a computed name (`{lookup}`, "
        f"pkg/server.py:{line}) as tool `where`: migrate-roots does not follow a computed dispatch; add the "
        "path property to the tool's schema and read it from the arguments by hand"
    )
