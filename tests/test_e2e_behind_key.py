"""Tools built at run time that take `project_dir` by key and read roots only without it (Myco's shape,
codemods/program/keyed.py), migrated by the engine and driven by each SDK line's own client.

The read passes no value, so the migrated server must answer every client without `project_dir` exactly as
the unmigrated one did (the roots for a legacy client with roots; the server's own fallback otherwise, since
it absorbs the read's error), and the path given for every client with it; `project_dir` stays in the schema, and no `root` is added.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

HERE = Path(__file__).resolve().parent
LINES = ("mcp1", "mcp2")
# The mcp 2.x server is the same one, on MCPServer.
MCP2 = (
    ("mcp 1.x FastMCP", "mcp 2.x MCPServer"),
    (
        "from mcp.server.fastmcp import Context, FastMCP",
        "from mcp.server.mcpserver import Context, MCPServer",
    ),
    ('mcp = FastMCP("e2e-mcp1-runtime")', 'mcp = MCPServer("e2e-mcp2-runtime")'),
)


def _server(line: str) -> str:
    text = (HERE / "e2e" / "mcp1_runtime.py").read_text()
    for old, new in MCP2 if line == "mcp2" else ():
        assert old in text
        text = text.replace(old, new)
    return text


TOOLS = ("where", "where_all")


def _calls(eras: list[str], roots: list[str], arg: str | None) -> list[dict]:
    return [
        {
            "era": era,
            "tool": tool,
            "args": {"project_dir": arg} if arg else {},
            "roots": roots if era != "legacy-noroots" else [],
        }
        for era in eras
        for tool in TOOLS
    ]


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
@pytest.mark.parametrize("line", LINES)
def test_migrated_runtime_tools(tmp_path, workspace, line, transport):
    python = sdk_python_or_skip(line)
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    original = tmp_path / "orig" / "server.py"
    migrated = tmp_path / "new" / "server.py"
    for target in (original, migrated):
        target.parent.mkdir()
        target.write_text(_server(line))

    results = run_engine(migrated.parent)
    assert [r for r in results if r.status.value == "failed"] == []
    findings = [f for r in results for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "rewritten")], findings
    text = migrated.read_text()
    assert 'list_roots_compat(session, None, name="project_dir")' in text
    assert "session.list_roots()" not in text
    assert 'hasattr(session, "list_roots")' in text  # the read's own guard stands

    eras = ["legacy-roots", "legacy-noroots"] + (["modern"] if line == "mcp2" else [])
    before = drive(python, original, line, transport, _calls(eras, roots, None), "--lenient-warnings")
    assert [r["text"] for r in before[:2]] == [str(client_dir)] * 2
    assert all(r["text"] == "no project" for r in before[2:]), before

    after = drive(
        python, migrated, line, transport, _calls(eras, roots, None) + _calls(eras, roots, str(arg_dir))
    )
    schemas = {r["tool"]: r["input_schema"] for r in after}
    assert all("project_dir" in schemas[t]["properties"] for t in TOOLS), schemas
    assert all("root" not in schemas[t]["properties"] for t in TOOLS), schemas
    without, given = after[: len(before)], after[len(before) :]
    for old, new in zip(before, without, strict=True):
        assert not new["is_error"] and not new["raised"], new
        assert new["text"] == old["text"], (old, new)
    for result in given:
        assert not result["is_error"] and result["text"] == str(arg_dir), result
