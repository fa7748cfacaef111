"""A server spread over modules (tests/e2e/crossmodule), migrated by the engine, then driven by the mcp 1.x
client, in-process and over stdio, in both eras:

- the server object in `app.py`, tools registered on it in `tools.py` by decorator and by `add_tool`;
- roots read in `workspace.py` by a helper that already takes the path, by one that reaches the session
  through `getattr`, and by a method of the module's own instance (`from workspace import workspace`);
- a tool that calls another tool as a function;
- `Context` and `FastMCP` through the project's own re-export module `sdk.py` (clew), which also holds the
  project's Context subclass with a `list_roots` of its own (mcp-use);
- a capability check imported from `caps.py` (`guarded.py`);
- tools sharing one helper, one with a local `root`, and a path-like parameter typed as no path (`shared.py`);
- a tool nested in a class's `__init__` that reaches roots through `self.ws`, bound once (`held.py`);
- reads typed by the project's own types of `shapes.py` (`typed.py`, sweep N of session 22): an alias of the
  Context, a Protocol whose base declares the session, a Protocol whose `list_roots()` is the session's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

SOURCE = Path(__file__).resolve().parent / "e2e" / "crossmodule"


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
def test_migrated_crossmodule_server(tmp_path, workspace, transport):
    python = sdk_python_or_skip("mcp1")
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    original, migrated = tmp_path / "orig", tmp_path / "new"
    shutil.copytree(SOURCE, original)
    shutil.copytree(SOURCE, migrated)

    results = run_engine(migrated)
    assert [r for r in results if r.status.value == "failed"] == []
    rewritten = [f for r in results for f in r.findings if f.code == "MR101"]
    assert len(rewritten) == 10 and all(f.action.value == "rewritten" for f in rewritten), rewritten
    # The helper's own parameter carries `project_dir`: no second path argument on `where`.
    assert "root" not in (migrated / "tools.py").read_text().split("async def where")[1].split("\n")[0]

    before = drive(
        python,
        original / "server.py",
        "mcp1",
        transport,
        [
            {"era": "legacy-roots", "tool": t, "args": {}, "roots": roots}
            for t in (
                "where",
                "where_all",
                "where_first",
                "where_first_again",
                "where_or_given",
                "where_app",
                "where_checked",
                "where_own_context",
                "recall",
                "ticket",
                "where_held",
                "where_aliased",
                "where_by_base",
                "where_by_session",
            )
        ]
        + [{"era": "legacy-noroots", "tool": "where_checked", "args": {}, "roots": []}],
        "--lenient-warnings",
    )
    assert [r["text"] for r in before] == [str(client_dir)] * 14 + ["no roots"]

    calls = [
        ("where", {}, roots, str(client_dir)),
        ("where", {"project_dir": str(arg_dir)}, roots, str(arg_dir)),
        ("where", {"project_dir": str(arg_dir)}, [], str(arg_dir)),
        ("where", {}, [], "`project_dir`"),
        ("where_all", {}, roots, str(client_dir)),
        ("where_all", {"root": [str(arg_dir)]}, roots, str(arg_dir)),
        ("where_all", {}, [], "`root`"),
        ("where_first", {}, roots, str(client_dir)),
        ("where_first", {"root": str(arg_dir)}, roots, str(arg_dir)),
        ("where_first", {}, [], "`root`"),
        # A tool calling the tool above passes its own argument on (spellbook's shape).
        ("where_first_again", {}, roots, str(client_dir)),
        ("where_first_again", {"root": str(arg_dir)}, roots, str(arg_dir)),
        ("where_first_again", {"root": str(arg_dir)}, [], str(arg_dir)),
        ("where_first_again", {}, [], "`root`"),
        # The tool's own `working_directory` skips the roots when set: it is the argument, no second one; an
        # empty one still falls back to the roots for a legacy client.
        ("where_or_given", {}, roots, str(client_dir)),
        ("where_or_given", {"working_directory": ""}, roots, str(client_dir)),
        ("where_or_given", {"working_directory": str(arg_dir)}, [], str(arg_dir)),
        ("where_or_given", {}, [], "`working_directory`"),
        # A tool on an instance of the project's own subclass of FastMCP.
        ("where_app", {}, roots, str(client_dir)),
        ("where_app", {"root": [str(arg_dir)]}, [], str(arg_dir)),
        ("where_app", {}, [], "`root`"),
        # A capability check imported from `caps`: the argument gets past it; without one, the old answer.
        ("where_checked", {}, roots, str(client_dir)),
        ("where_checked", {"root": str(arg_dir)}, [], str(arg_dir)),
        ("where_checked", {}, [], "no roots"),
        # The project's own Context subclass: the tool hands the argument to its `list_roots` method.
        ("where_own_context", {}, roots, str(client_dir)),
        ("where_own_context", {"root": [str(arg_dir)]}, roots, str(arg_dir)),
        ("where_own_context", {"root": [str(arg_dir)]}, [], str(arg_dir)),
        ("where_own_context", {}, [], "`root`"),
        # Tools sharing a helper take one name: `remember` keeps a local `root`, so both take `root_path`.
        ("remember", {"note": "!"}, roots, f"{client_dir}!"),
        ("remember", {"note": "!", "root_path": str(arg_dir)}, [], f"{arg_dir}!"),
        ("remember", {"note": "!"}, [], "`root_path`"),
        ("recall", {"root_path": str(arg_dir)}, roots, str(arg_dir)),
        ("recall", {}, [], "`root_path`"),
        # `project: int | None` is no path: the argument is a new one beside it (`root_path`: it shares the
        # helper too).
        ("ticket", {"project": 7}, [], "7"),
        ("ticket", {}, roots, str(client_dir)),
        ("ticket", {"root_path": str(arg_dir)}, [], str(arg_dir)),
        ("ticket", {}, [], "`root_path`"),
        # Through `self.ws`, bound once to a `Workspace` in the class's `__init__` (session 20, sweep A r01).
        ("where_held", {}, roots, str(client_dir)),
        ("where_held", {"root": str(arg_dir)}, [], str(arg_dir)),
        ("where_held", {}, [], "`root`"),
        # Typed by `shapes.py`: an alias of the Context, a Protocol's base, a Protocol's `list_roots()`.
        *[
            call
            for tool in ("where_aliased", "where_by_base", "where_by_session")
            for call in (
                (tool, {}, roots, str(client_dir)),
                (tool, {"root": str(arg_dir)}, roots, str(arg_dir)),
                (tool, {"root": str(arg_dir)}, [], str(arg_dir)),
                (tool, {}, [], "`root`"),
            )
        ],
    ]
    after = drive(
        python,
        migrated / "server.py",
        "mcp1",
        transport,
        [
            {"era": "legacy-roots" if given else "legacy-noroots", "tool": t, "args": a, "roots": given}
            for t, a, given, _ in calls
        ],
    )
    schemas = {r["tool"]: r["input_schema"] for r in after}
    assert "root" not in schemas["where"]["properties"] and "project_dir" in schemas["where"]["properties"]
    assert "root" in schemas["where_all"]["properties"] and "root" in schemas["where_first"]["properties"]
    assert "root" in schemas["where_first_again"]["properties"]
    assert set(schemas["where_or_given"]["properties"]) == {"working_directory"}
    assert "root" in schemas["where_app"]["properties"]
    assert "root" in schemas["where_checked"]["properties"]
    assert "root" in schemas["where_own_context"]["properties"]
    assert "root_path" in schemas["remember"]["properties"] and "root_path" in schemas["recall"]["properties"]
    assert set(schemas["ticket"]["properties"]) == {"project", "root_path"}
    assert "root" in schemas["where_held"]["properties"]
    for tool in ("where_aliased", "where_by_base", "where_by_session"):
        assert set(schemas[tool]["properties"]) == {"root"}, schemas[tool]
    for (tool, args, _, expected), result in zip(calls, after, strict=True):
        if expected.startswith("`"):
            assert result["is_error"] or result["raised"], (tool, args, result)
            assert expected in result["text"], (tool, args, result)
        else:
            assert not result["is_error"], (tool, args, result)
            assert result["text"] == expected, (tool, args, result)
