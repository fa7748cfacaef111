"""A handler that turns the SDK's roots failure into an error of its own (`except McpError as exc: raise
RuntimeError(...) from exc`) is left as it is (codemods/_except_widen.py, `_raises`), so a client without
roots and without the argument gets the shim's error, which names `root`, and one with roots or the argument
gets the answer. Driven by the mcp 1.x and mcp 2.x clients (in-process), before and after the migration."""

from __future__ import annotations

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

SERVER = """\
from urllib.parse import unquote, urlparse

from mcp.server.{module} import Context, {cls}
from mcp.shared.exceptions import {error}

mcp = {cls}("e2e-reraise")


@mcp.tool()
async def where(ctx: Context) -> str:
    \"\"\"The project directory.\"\"\"
    try:
        result = await ctx.session.list_roots()
    except {error} as exc:
        raise RuntimeError("this client shares no folder") from exc
    return unquote(urlparse(str(result.roots[0].uri)).path)
"""
LINES = {"mcp1": ("fastmcp", "FastMCP", "McpError"), "mcp2": ("mcpserver", "MCPServer", "MCPError")}


@pytest.mark.parametrize("line", ["mcp1", "mcp2"])
def test_a_raising_handler_lets_the_shim_error_through(tmp_path, workspace, line):
    python = sdk_python_or_skip(line)
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    module, cls, error = LINES[line]
    migrated = tmp_path / "server.py"
    migrated.write_text(SERVER.format(module=module, cls=cls, error=error))
    results = run_engine(tmp_path)
    assert [(f.code, f.action.value) for r in results for f in r.findings] == [("MR101", "rewritten")]
    text = migrated.read_text()
    assert f"except {error} as exc:" in text and "RootsArgumentError" not in text

    calls = [
        ("legacy-roots", {}, roots, str(client_dir)),
        ("legacy-roots", {"root": str(arg_dir)}, roots, str(arg_dir)),
        ("legacy-noroots", {"root": str(arg_dir)}, [], str(arg_dir)),
        ("legacy-noroots", {}, [], "`root`"),
    ]
    if line == "mcp2":
        calls += [("modern", {"root": str(arg_dir)}, roots, str(arg_dir)), ("modern", {}, roots, "`root`")]
    after = drive(
        python,
        migrated,
        line,
        "inproc",
        [{"era": era, "tool": "where", "args": args, "roots": given} for era, args, given, _ in calls],
    )
    for (era, args, _, expected), result in zip(calls, after, strict=True):
        if expected.startswith("`"):
            assert result["is_error"] or result["raised"], (era, args, result)
            assert expected in result["text"] and "shares no folder" not in result["text"], (era, result)
        else:
            assert not result["is_error"], (era, args, result)
            assert result["text"] == expected, (era, args, result)
