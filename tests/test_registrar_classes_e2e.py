"""tests/e2e/heldregistrar, migrated by the engine, then driven by fastmcp 2.x and 3.x's own clients,
in-process and over stdio (fastmcp 4.x has no `ctx.list_roots()`; these lines have no 2026-07-28 era):

- tools registered by a method of the project's registry object (`section_tool = registry.section_tool`,
  `@registry.section_tool(...)`), through a signature-keeping wrapper of another module;
- roots read by `get_context().list_roots()` under `asyncio.wait_for`, in a helper with no context two calls
  below the tool; the project falls back to its working directory when the read fails;
- a profile folder named after a hash of the roots, checked to lie in the profiles' folder.
"""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

SOURCE = Path(__file__).resolve().parent / "e2e" / "heldregistrar"


def _profile(base: Path, seed: str) -> str:
    """The folder the fixture names after `seed` (its own formula, restated)."""
    digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]
    label = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(seed).name or "session").strip(".-")
    return str(base / f"{label[:48] or 'session'}-{digest}")


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
@pytest.mark.parametrize("line", ["fastmcp2", "fastmcp3"])
def test_migrated_held_registrar_server(tmp_path, workspace, line, transport):
    python = sdk_python_or_skip(line)
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    base = tmp_path / "profiles"
    env = {"PROFILES": str(base)}
    original, migrated = tmp_path / "orig", tmp_path / "new"
    shutil.copytree(SOURCE, original)
    shutil.copytree(SOURCE, migrated)

    results = run_engine(migrated)
    assert [r for r in results if r.status.value == "failed"] == []
    codes = sorted((f.code, f.action.value) for r in results for f in r.findings)
    assert codes == [("MR102", "rewritten")] + [("MR107", "rewritten")] * 3, codes
    server_text = (migrated / "server.py").read_text()
    assert "async def where(root: RootPaths = None) -> str:" in server_text
    assert "def plain() -> str:" in server_text

    before = drive(
        python,
        original / "server.py",
        line,
        transport,
        [
            {"era": "legacy-roots", "tool": "where", "args": {}, "roots": roots},
            {"era": "legacy-roots", "tool": "profile", "args": {}, "roots": roots},
            {"era": "legacy-noroots", "tool": "where", "args": {}, "roots": []},
            {"era": "legacy-roots", "tool": "plain", "args": {}, "roots": roots},
        ],
        "--lenient-warnings",
        env=env,
    )
    # Without roots the project falls back to its working directory (the server's folder here).
    assert [r["text"] for r in before] == [
        str(client_dir),
        _profile(base, str(client_dir)),
        str(original),
        "plain",
    ]

    named = str(base / "mine")
    calls = [
        ("where", {}, roots, str(client_dir)),
        ("where", {"root": [str(arg_dir)]}, roots, str(arg_dir)),
        ("where", {"root": [arg_dir.as_uri()]}, [], str(arg_dir)),
        ("where", {}, [], str(migrated)),  # the read fails as before, and the project falls back as before
        ("profile", {}, roots, _profile(base, str(client_dir))),
        ("profile", {"root": [str(arg_dir)]}, roots, _profile(base, str(arg_dir))),
        ("profile", {"root": [str(arg_dir)]}, [], _profile(base, str(arg_dir))),
        ("profile", {"name": named}, [], named),
        ("plain", {}, [], "plain"),
    ]
    after = drive(
        python,
        migrated / "server.py",
        line,
        transport,
        [
            {"era": "legacy-roots" if given else "legacy-noroots", "tool": t, "args": a, "roots": given}
            for t, a, given, _ in calls
        ],
        env=env,
    )
    schemas = {r["tool"]: r["input_schema"] for r in after}
    assert "root" in schemas["where"]["properties"] and "root" in schemas["profile"]["properties"]
    assert "root" not in schemas["plain"].get("properties", {})
    for (tool, args, _, expected), result in zip(calls, after, strict=True):
        assert not result["is_error"], (tool, args, result)
        assert result["text"] == expected, (tool, args, result)
