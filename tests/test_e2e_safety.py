"""Safe rewrites, driven by the mcp 2.x client in both eras after migration (issue 18, items 1, 3 and 4).

- a write bounded by the client's roots (else the working directory) still refuses
  `{"output_path": "/elsewhere/x", "root": ["/"]}` after migration, in every era, and writes nothing (MR110:
  no argument; a legacy client's roots, else the old fallback, bound it);
- a tool whose loop already uses `root` receives its explicit argument (`root_path`), not the loop's value;
- a roots-capability check in front of the read lets a modern client's argument through (not the cwd).
"""

from __future__ import annotations

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

APP = 'from mcp.server.mcpserver import MCPServer\n\nmcp = MCPServer("e2e-safety")\n'
HEAD = """\
import os
from pathlib import Path
from urllib.parse import unquote, urlparse

from app import mcp
from mcp.server.mcpserver import Context


def _path(uri: object) -> str:
    return unquote(urlparse(str(uri)).path)
"""
# The bounded write has a module of its own: every read of a module whose roots bound a path takes that bound
# (MR110), so the tools below, which use the roots as a directory, would take no argument beside it.
WRITER = (
    HEAD
    + '''

def _within(path: Path, roots) -> bool:
    return any(path.is_relative_to(Path(_path(r.uri)).resolve()) for r in roots)


@mcp.tool()
async def save(output_path: str, ctx: Context) -> str:
    """Write a file, only inside the client's roots (else only under the working directory)."""
    target = Path(output_path).resolve()
    roots = None
    try:
        roots = (await ctx.session.list_roots()).roots
    except Exception:
        pass
    if roots:
        if not _within(target, roots):
            return "refused: outside the roots"
    elif not target.is_relative_to(Path.cwd().resolve()):
        return "refused: outside the working directory"
    target.write_text("data")
    return "written"
'''
)
SERVER = (
    HEAD.replace(
        "from app import mcp\n", "import writer  # noqa: F401  (registers save)\nfrom app import mcp\n"
    )
    + '''

@mcp.tool()
async def looped(ctx: Context) -> str:
    """A loop that already uses the name `root`."""
    for root in ("a", "b"):
        print(root)
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)


@mcp.tool()
async def guarded(ctx: Context) -> str:
    """Roots only when the client declared them, else the working directory."""
    caps = ctx.session.client_params.capabilities if ctx.session.client_params else None
    if caps is None or not caps.roots:
        return os.getcwd()
    result = await ctx.session.list_roots()
    return _path(result.roots[0].uri)
'''
)


def test_safe_rewrites_under_the_mcp2_client(tmp_path, workspace):
    python = sdk_python_or_skip("mcp2")
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    server = tmp_path / "srv" / "server.py"
    server.parent.mkdir()
    server.write_text(SERVER)
    (server.parent / "writer.py").write_text(WRITER)
    (server.parent / "app.py").write_text(APP)
    results = run_engine(server.parent)
    findings = {(f.code, f.path.rsplit("/", 1)[-1]) for r in results for f in r.findings}
    assert ("MR110", "writer.py") in findings, findings  # the bound: the operator's list, no argument (MR110)
    written = (server.parent / "writer.py").read_text()
    assert "roots = (await allowed_roots_compat(ctx.session)).roots" in written
    assert "async def save(output_path: str, ctx: Context) -> str:" in written
    text = server.read_text()
    assert "async def looped(ctx: Context, root_path: RootPath = None)" in text
    assert "if root is None and (caps is None or not caps.roots):" in text
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "x"

    calls = []
    for era in ("legacy-roots", "modern"):
        calls += [
            {"era": era, "tool": "save", "args": {"output_path": str(target), "root": ["/"]}, "roots": roots},
            {"era": era, "tool": "looped", "args": {"root_path": str(arg_dir)}, "roots": roots},
            {"era": era, "tool": "guarded", "args": {"root": str(arg_dir)}, "roots": roots},
        ]
    calls.append({"era": "legacy-roots", "tool": "guarded", "args": {}, "roots": roots})
    out = drive(python, server, "mcp2", "inproc", calls)
    by = {(r["era"], r["tool"], bool(r["args"])): r for r in out}
    for era in ("legacy-roots", "modern"):
        assert by[(era, "save", True)]["text"].startswith("refused"), by[(era, "save", True)]
        assert by[(era, "looped", True)]["text"] == str(arg_dir), by[(era, "looped", True)]
        assert by[(era, "guarded", True)]["text"] == str(arg_dir), by[(era, "guarded", True)]
    assert by[("legacy-roots", "guarded", False)]["text"] == str(client_dir)  # same as before: the roots
    assert not target.exists()


NONE_ON_FAILURE = '''\
import os
from urllib.parse import unquote, urlparse

from {context} import Context, {server}
from mcp.shared.exceptions import {error}

mcp = {server}("e2e-none-on-failure")


@mcp.tool()
async def where(ctx: Context) -> str:
    """The client's first root, else $E2E_FALLBACK."""
    try:
        result = await ctx.session.list_roots()
    except {error}:
        result = None
    if result is not None and result.roots:
        return unquote(urlparse(str(result.roots[0].uri)).path)
    return os.environ["E2E_FALLBACK"]
'''


@pytest.mark.parametrize(
    ("line", "context", "server", "error"),
    [
        ("mcp1", "mcp.server.fastmcp", "FastMCP", "McpError"),
        ("mcp2", "mcp.server.mcpserver", "MCPServer", "MCPError"),
    ],
)
def test_none_on_failure_under_the_sdk_error_handler(tmp_path, workspace, line, context, server, error):
    """sweep L r01 (session 22): `except McpError: result = None`, then None and empty in one branch, is
    rewritten with the handler widened: a request without the argument still gets the fallback, in every era."""
    python = sdk_python_or_skip(line)
    client_dir, arg_dir = workspace
    path = tmp_path / "srv" / "server.py"
    path.parent.mkdir()
    path.write_text(NONE_ON_FAILURE.format(context=context, server=server, error=error))
    findings = [f.code for r in run_engine(path.parent) for f in r.findings]
    assert findings == ["MR101"], findings
    text = path.read_text()
    assert f"    except ({error}, RootsArgumentError):\n        result = None\n" in text, text
    assert "    if result is not None and result.roots:\n" in text, text
    assert "async def where(ctx: Context, root: RootPaths = None) -> str:" in text, text
    calls = [
        {"era": era, "tool": "where", "args": args, "roots": [client_dir.as_uri()]}
        for era in ("legacy-roots", "legacy-noroots", "modern")
        for args in ({}, {"root": [str(arg_dir)]})
    ]
    out = drive(python, path, line, "inproc", calls, env={"E2E_FALLBACK": "fallback"})
    got = {(r["era"], bool(r["args"])): r.get("text") for r in out if not r.get("skipped")}
    want = {
        ("legacy-roots", False): str(client_dir),  # as before: the client's roots
        ("legacy-roots", True): str(arg_dir),
        ("legacy-noroots", False): "fallback",  # as before: the failing call's None branch
        ("legacy-noroots", True): str(arg_dir),
        ("modern", False): "fallback",  # no argument: the shim's error takes the widened handler
        ("modern", True): str(arg_dir),
    }
    assert got == {k: v for k, v in want.items() if line == "mcp2" or k[0] != "modern"}, out
