"""A once-per-process roots cache filled deep inside its guard (tests/e2e/seededcache), migrated by the
engine (MR211 turns the cache into a local that starts from its module value, MR102 rewrites the read),
then driven by the fastmcp 3 client in both eras, in-process and over stdio."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

SOURCE = Path(__file__).resolve().parent / "e2e" / "seededcache"


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
def test_migrated_seeded_cache_server(tmp_path, workspace, transport):
    python = sdk_python_or_skip("fastmcp3")
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    original, migrated = tmp_path / "orig", tmp_path / "new"
    shutil.copytree(SOURCE, original)
    shutil.copytree(SOURCE, migrated)

    results = run_engine(migrated)
    assert [r for r in results if r.status.value == "failed"] == []
    done = {f.code: f.action.value for r in results for f in r.findings}
    assert done.get("MR211") == "rewritten" and done.get("MR102") == "rewritten", done
    text = (migrated / "server.py").read_text()
    assert "_client_root_resolved" not in text
    assert "root_path: RootPath = None" in text  # the tool binds `root` itself

    legacy = {"era": "legacy-roots", "tool": "resolve", "args": {"path": "a.txt"}, "roots": roots}
    before = drive(python, original / "server.py", "fastmcp3", transport, [legacy], "--lenient-warnings")
    assert [r["text"] for r in before] == [str(client_dir / "a.txt")]

    calls = [
        ("legacy-roots", {"path": "a.txt"}, roots, str(client_dir / "a.txt")),
        ("legacy-roots", {"path": "a.txt", "root_path": str(arg_dir)}, roots, str(arg_dir / "a.txt")),
        ("legacy-noroots", {"path": "a.txt", "root_path": str(arg_dir)}, [], str(arg_dir / "a.txt")),
        # No argument and no roots: the old code fell back to the bare path; so does the migrated one (its
        # `except Exception` takes the shim's error as it took the failed roots/list).
        ("legacy-noroots", {"path": "a.txt"}, [], "a.txt"),
    ]  # fastmcp 3 has no 2026-07-28 era (the driver's NO_MODERN_ERA); test_shim_matrix covers the shim there
    after = drive(
        python,
        migrated / "server.py",
        "fastmcp3",
        transport,
        [{"era": era, "tool": "resolve", "args": args, "roots": given} for era, args, given, _ in calls],
    )
    for (era, args, _, expected), result in zip(calls, after, strict=True):
        assert not result["is_error"], (era, args, result)
        assert result["text"] == expected, (era, args, result)
