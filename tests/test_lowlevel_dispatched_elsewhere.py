"""A low-level `call_tool` handler that dispatches on the tool name to functions of another module (sweep M,
r02): the table in the handler's module naming imported functions, or a table imported from another module.
The read is marked MR153 with the table and the tool, never "not a tool" (MR103): the rewrite edits a schema
and its dispatched function only in one module, so the read stays marked, and the marker says why."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER_HEAD = """\
from mcp import types
from mcp.server.lowlevel import Server

server = Server("files")

"""

LIST_TOOLS = """

@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", inputSchema={"type": "object", "properties": {}})]
"""

HANDLER = """\
from mcp import types

from {server} import server


async def handle_where(arguments: dict) -> list[types.TextContent]:
    result = await server.request_context.session.list_roots()
    return [types.TextContent(type="text", text=str(result.roots[0].uri))]
"""

# The table in the server's module, its value imported, in three spellings of the import and the lookup.
TABLE_HERE = {
    "from-import, subscript": (
        'from .handlers import handle_where  # noqa: E402\n\nHANDLERS = {"where": handle_where}\n',
        "    return await HANDLERS[name](arguments)\n",
    ),
    "module import, get": (
        'from . import handlers  # noqa: E402\n\nHANDLERS = {"where": handlers.handle_where}\n',
        "    return await HANDLERS.get(name)(arguments)\n",
    ),
    "aliased, subscript": (
        'from .handlers import handle_where as _where  # noqa: E402\n\nTOOLS = {"where": _where}\n',
        "    return await TOOLS[name](arguments)\n",
    ),
}


def _server(table: str, call: str) -> str:
    handler = "\n\n@server.call_tool()\nasync def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n"
    return SERVER_HEAD + table + LIST_TOOLS + handler + call


def _marked(tmp_path, files):
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root, select=["MR1"], write=False)
    return [f for r in results for f in r.findings]


def test_noop_a_table_of_local_functions_is_still_rewritten(tmp_path):
    local = SERVER_HEAD + (
        "\n\nasync def handle_where(arguments: dict) -> list[types.TextContent]:\n"
        "    result = await server.request_context.session.list_roots()\n"
        '    return [types.TextContent(type="text", text=str(result.roots[0].uri))]\n\n\n'
        'HANDLERS = {"where": handle_where}\n'
    )
    findings = _marked(
        tmp_path,
        {
            "server.py": _server("", "    return await HANDLERS[name](arguments)\n").replace(
                SERVER_HEAD, local
            )
        },
    )
    assert set(helpers.codes(findings)) == {"MR151"}, findings  # the schema and the read: rewritten


@pytest.mark.parametrize("spelling", sorted(TABLE_HERE))
def test_an_imported_function_in_a_table_is_named_as_dispatched(tmp_path, spelling):
    table, call = TABLE_HERE[spelling]
    findings = _marked(
        tmp_path, {"server.py": _server(table, call), "handlers.py": HANDLER.format(server=".server")}
    )
    assert helpers.codes(findings) == ["MR153"], findings
    message = findings[0].message
    holder = table.split("\n\n")[1].split(" =")[0]
    assert f"roots read in `handle_where`, which `{holder}` (pkg/server.py:" in message, message
    assert "dispatches as tool `where` from another module" in message
    assert "not a tool" not in message


def test_a_table_imported_from_another_module_names_its_functions(tmp_path):
    # The realistic layout: a handlers package with the table, a helper module with the read.
    files = {
        "server.py": SERVER_HEAD.replace('server = Server("files")\n', "from .app import server\n")
        + "from .handlers import HANDLERS\n"
        + LIST_TOOLS
        + "\n\n@server.call_tool()\nasync def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n"
        "    handler = HANDLERS.get(name)\n"
        "    if handler is None:\n"
        "        raise ValueError(name)\n"
        "    return await handler(arguments)\n",
        "app.py": 'from mcp.server.lowlevel import Server\n\nserver = Server("files")\n',
        "handlers/__init__.py": 'from .files import handle_where\n\nHANDLERS = {"where": handle_where}\n',
        "handlers/files.py": (
            "from mcp import types\n\nfrom ..app import server\nfrom ..workspace import workspace_dir\n\n\n"
            "async def handle_where(arguments: dict) -> list[types.TextContent]:\n"
            "    base = await workspace_dir()\n"
            '    return [types.TextContent(type="text", text=base)]\n'
        ),
        "workspace.py": (
            "from .app import server\n\n\nasync def workspace_dir() -> str:\n"
            "    result = await server.request_context.session.list_roots()\n"
            "    return str(result.roots[0].uri)\n"
        ),
    }
    findings = _marked(tmp_path, files)
    assert helpers.codes(findings) == ["MR153"], findings
    message = findings[0].message
    assert "roots read in `workspace_dir`, reached from `handle_where`, which `HANDLERS`" in message, message
    assert "(pkg/server.py:" in message and "dispatches as tool `where`" in message


def test_a_table_beside_its_functions_imported_by_the_server_names_them(tmp_path):
    """sweep A r02 (session 20): `handlers.py` defines `where` and `HANDLERS = {"where": where}`; the table's
    value was recorded unqualified, so the marker said "not a tool" (MR103)."""
    files = {
        "server.py": SERVER_HEAD.replace('server = Server("files")\n', "from .app import server\n")
        + "from .handlers import HANDLERS\n"
        + LIST_TOOLS
        + "\n\n@server.call_tool()\nasync def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n"
        "    return await HANDLERS[name](arguments)\n",
        "app.py": 'from mcp.server.lowlevel import Server\n\nserver = Server("files")\n',
        "handlers.py": HANDLER.format(server=".app") + '\n\nHANDLERS = {"where": handle_where}\n',
    }
    findings = _marked(tmp_path, files)
    assert helpers.codes(findings) == ["MR153"], findings
    assert "roots read in `handle_where`, which `HANDLERS` (pkg/server.py:" in findings[0].message
    assert "dispatches as tool `where`" in findings[0].message
