"""A server object imported from another module of the project (ai-governance-mcp's shape).

    # pkg/_app.py                        # pkg/handlers.py
    server = Server("x")                 from ._app import server
                                         ... await server.request_context.session.list_roots()

`server.request_context` is the current request's context (a context variable), whichever module holds the
server. Before, a server object the file did not construct was "a session held outside the current request"
(MR103, a false reason), and its `@server.call_tool()` handler was no handler at all.
"""

from __future__ import annotations

import pytest

from tests import helpers

APP = 'from mcp.server.lowlevel import Server\n\nserver = Server("x")\n'
HANDLERS = """\
import mcp.types as types

{imports}


@{server}.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", description="d", inputSchema={{"type": "object", "properties": {{}}}})]


@{server}.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    result = await {server}.request_context.session.list_roots()
    return [types.TextContent(type="text", text=str(result.roots[0].uri))]
"""


def _run(tmp_path, files: dict[str, str]):
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root, select=["MR1", "MR2"])
    findings = [(f.code, f.action.value, f.message) for r in results for f in r.findings]
    return findings, (root / "pkg" / "handlers.py").read_text()


def test_noop_a_name_of_another_module_that_is_no_server_stays_held(tmp_path):
    # `server = make()`: nothing says what it is; a session reached through it is not the request's.
    app = "def make():\n    return None\n\n\nserver = make()\n"
    findings, text = _run(
        tmp_path,
        {"_app.py": app, "handlers.py": HANDLERS.format(imports="from ._app import server", server="server")},
    )
    assert [f[:2] for f in findings] == [("MR103", "marked")], findings
    assert "a session held in a global or on an object" in findings[0][2]


@pytest.mark.parametrize(
    ("files", "imports", "server"),
    [
        ({"_app.py": APP}, "from ._app import server", "server"),
        ({"_app.py": APP}, "from pkg._app import server as srv", "srv"),
        ({"_app.py": APP}, "from . import _app", "_app.server"),
        # Re-exported by a package `__init__`, as ai-governance-mcp's `server/__init__.py` does.
        (
            {"core/__init__.py": "from ._app import server as server\n", "core/_app.py": APP},
            "from .core import server",
            "server",
        ),
    ],
)
def test_handlers_on_an_imported_low_level_server_are_rewritten(tmp_path, files, imports, server):
    findings, text = _run(tmp_path, {**files, "handlers.py": HANDLERS.format(imports=imports, server=server)})
    assert sorted(f[:2] for f in findings) == [("MR151", "rewritten"), ("MR151", "rewritten")], findings
    assert (
        f'list_roots_compat(\n        {server}.request_context, arguments.get("root"), name="root"\n    )'
        in text
    )
    assert '"root": ROOT_PROPERTY' in text


def test_context_of_an_imported_fastmcp_server_is_the_requests(tmp_path):
    app = 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n'
    tools = """\
from ._app import mcp


@mcp.tool()
async def where() -> str:
    ctx = mcp.get_context()
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""
    findings, _ = _run(tmp_path, {"_app.py": app, "handlers.py": tools})
    assert [f[:2] for f in findings] == [("MR101", "rewritten")], findings


def test_a_cache_on_a_global_of_another_module_is_named_so(tmp_path):
    # ai-governance-mcp keeps the first root on `_state._cached_roots_path`, a module shared by every session.
    state = "cached = None\n"
    handlers = """\
from mcp.server.fastmcp import Context, FastMCP

from . import _state

mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    _state.cached = str(result.roots[0].uri)
    return _state.cached
"""
    findings, _ = _run(tmp_path, {"_state.py": state, "handlers.py": handlers})
    kept = [f[2] for f in findings if f[0] == "MR212" and "roots kept on `_state.cached`" in f[2]]
    assert kept and "(a global of module `_state`, shared by every request and session)" in kept[0], findings


def test_a_cache_on_an_imported_object_is_named_as_an_object(tmp_path):
    # Sweep M, r03's side note: `from .config import SETTINGS` is an object a module binds, not a module.
    config = "class Settings:\n    workspace = None\n\n\nSETTINGS = Settings()\n"
    handlers = """\
from mcp.server.fastmcp import Context, FastMCP

from .config import SETTINGS

mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    SETTINGS.workspace = str(result.roots[0].uri)
    return SETTINGS.workspace
"""
    findings, _ = _run(tmp_path, {"config.py": config, "handlers.py": handlers})
    kept = [f[2] for f in findings if f[0] == "MR212" and "roots kept on `SETTINGS.workspace`" in f[2]]
    assert kept, findings
    assert (
        "(an attribute of `SETTINGS`, an object imported from `.config` and shared by every request)"
        in kept[0]
    )
    assert "a global of module" not in kept[0]
