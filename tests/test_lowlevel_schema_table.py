"""A low-level tool whose inputSchema is an entry of a module dict (`input_schema=SCHEMAS["where"]`): marked
MR152, and the marker says what the schema is, not "built at runtime" (session 17's weak point)."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
    import mcp.types as types
    from mcp.server.lowlevel import Server

    SCHEMAS = {{"where": {{"type": "object", "properties": {{}}}}}}
    server = Server("x")


    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool(name="where", inputSchema={schema})]


    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        result = await server.request_context.session.list_roots()
        return [types.TextContent(type="text", text=str(result.roots[0].uri))]
    """


def _findings(tmp_path, schema: str):
    root = helpers.package(tmp_path, {"server.py": SERVER.format(schema=schema)})
    results = helpers.run_engine(root, write=False)
    return [(f.code, f.message) for r in results for f in r.findings if f.code.startswith("MR15")]


def test_noop_a_schema_built_by_a_call_is_still_built_at_runtime(tmp_path):
    findings = _findings(tmp_path, "dict(SCHEMAS)")
    assert [code for code, _ in findings] == ["MR152"], findings
    assert "built at runtime" in findings[0][1]


@pytest.mark.parametrize("schema", ['SCHEMAS["where"]', "SCHEMAS['where']"])
def test_a_schema_taken_from_a_module_dict_is_named_as_such(tmp_path, schema):
    findings = _findings(tmp_path, schema)
    assert [code for code, _ in findings] == ["MR152"], findings
    assert "an entry of the module's dict `SCHEMAS`" in findings[0][1]
    assert "built at runtime" not in findings[0][1]
