"""A low-level inputSchema that combines others (`oneOf` of closed branches, a top-level `$ref`) is marked
MR152: a property added beside them may still be refused by the client-side and server-side validation."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

SERVER = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("x")
SCHEMA = {schema}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="find", description="f", inputSchema=SCHEMA)]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    r = await server.request_context.session.list_roots()
    return [types.TextContent(type="text", text=str(r.roots[0].uri))]
"""


@pytest.mark.parametrize(
    ("schema", "key"),
    [
        (
            '{"type": "object", "properties": {}, "oneOf": [{"properties": {"a": {"type": "string"}}, '
            '"additionalProperties": False}]}',
            "oneOf",
        ),
        ('{"type": "object", "$ref": "#/$defs/Q", "$defs": {"Q": {"additionalProperties": False}}}', "$ref"),
        ('{"type": "object", "allOf": [{"required": ["q"]}]}', "allOf"),
    ],
)
def test_noop_a_combined_schema_is_marked(tmp_path, schema, key):
    findings = check_noop(tmp_path, SERVER.format(schema=schema))
    assert helpers.codes(findings) == ["MR152"]
    assert f"its schema combines others (`{key}`)" in findings[0].message
