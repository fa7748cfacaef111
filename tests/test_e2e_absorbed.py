"""A low-level server that already takes `workspace_root` on every tool and reads roots, only without it,
through a resolver kept as a value, in a read that absorbs every failure (cartogate's shape,
codemods/_roots_absorbed.py), migrated by the engine and driven by mcp 1.x's own client.

The read passes None and names `workspace_root`: the migrated server must answer every client without the
argument exactly as the unmigrated one did (the roots for a legacy client with roots, the server's own fallback
for one without), and the path given for every client with it; no `root` appears in any schema.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

HERE = Path(__file__).resolve().parent
TOOLS = ("where", "where_all")


def _calls(roots: list[str], arg: str | None) -> list[dict]:
    return [
        {
            "era": era,
            "tool": tool,
            "args": {"workspace_root": arg} if arg else {},
            "roots": roots if era != "legacy-noroots" else [],
        }
        for era in ("legacy-roots", "legacy-noroots")
        for tool in TOOLS
    ]


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
def test_migrated_absorbed_read(tmp_path, workspace, transport):
    python = sdk_python_or_skip("mcp1")
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    original = tmp_path / "orig" / "server.py"
    migrated = tmp_path / "new" / "server.py"
    for target in (original, migrated):
        target.parent.mkdir()
        target.write_text((HERE / "e2e" / "lowlevel_mcp1_absorbed.py").read_text())

    results = run_engine(migrated.parent)
    assert [r for r in results if r.status.value == "failed"] == []
    findings = [f for r in results for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "rewritten")], findings
    text = migrated.read_text()
    assert 'list_roots_compat(session, None, name="workspace_root")' in text
    assert "session.list_roots()" not in text

    before = drive(
        python, original, "mcp1", transport, _calls(roots, None), "--lenient-warnings", attr="server"
    )
    assert [r["text"] for r in before] == [str(client_dir)] * 2 + ["no workspace"] * 2, before

    after = drive(
        python, migrated, "mcp1", transport, _calls(roots, None) + _calls(roots, str(arg_dir)), attr="server"
    )
    schemas = {r["tool"]: r["input_schema"] for r in after}
    assert all(set(schemas[t]["properties"]) == {"workspace_root"} for t in TOOLS), schemas
    without, given = after[: len(before)], after[len(before) :]
    for old, new in zip(before, without, strict=True):
        assert not new["is_error"] and not new["raised"], new
        assert new["text"] == old["text"], (old, new)
    for result in given:
        assert not result["is_error"] and result["text"] == str(arg_dir), result
