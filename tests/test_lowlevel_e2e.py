"""Low-level `Server` fixtures, migrated by the engine, then driven by each SDK line's own client.

For each legacy fixture in tests/e2e/lowlevel_*.py: run the ORIGINAL server once for the baseline answer
(legacy client with a roots callback), run the engine on a copy, then drive the migrated server in every era,
with and without the new argument, in-process and over stdio (tests/sdk/driver.py). `tools/list` must show the
property on the tools that read roots (and only there), as valid JSON Schema 2020-12.
"""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

HERE = Path(__file__).resolve().parent

#: fixture -> (SDK lines it runs under, the shape of `root` per tool: one path, or a list when the code uses
#: every root). mcp 1.x validates arguments against the schema, so a list property takes only lists there.
FIXTURES = {
    "lowlevel_mcp1.py": (("mcp1",), {"where": "single", "where_all": "list"}),
    "lowlevel_mcp1_class.py": (("mcp1",), {"where": "list", "where_all": "list"}),
    # Arguments handed on with `**arguments` to the functions that read roots (B's r07 shape, session 14).
    "lowlevel_mcp1_splat.py": (("mcp1",), {"where": "single", "where_all": "list"}),
    # A module binding `ROOT_PROPERTY` to a property of its own (sweep P, r04): ours is declared under a free name.
    "lowlevel_mcp1_taken_property.py": (("mcp1",), {"where": "single", "where_all": "list"}),
    # The same server, its object imported from another module (`_layout` writes app.py and server.py).
    "lowlevel_mcp1.py:split": (("mcp1",), {"where": "single", "where_all": "list"}),
    # Handlers registered by calling the decorator (sweep P, r02): `server.call_tool()(call_tool)` at module
    # level (`_layout` writes the calls), `self.server.call_tool()(self.call_tool)` in a class.
    "lowlevel_mcp1.py:callform": (("mcp1",), {"where": "single", "where_all": "list"}),
    "lowlevel_mcp1_callform.py": (("mcp1",), {"where": "single", "where_all": "list"}),
    # ... through a name bound to the decorator first: `reg = server.call_tool()`, then `reg(call_tool)`.
    "lowlevel_mcp1.py:heldform": (("mcp1",), {"where": "single", "where_all": "list"}),
    # fastmcp 4 has no low-level API of its own: its users write mcp 2.x `Server`s, driven by fastmcp 4's client.
    "lowlevel_mcp2.py": (("mcp2", "fastmcp4"), {"where": "list", "where_all": "list"}),
    "lowlevel_fastmcp.py": (("fastmcp2", "fastmcp3"), {"where": "single", "where_all": "list"}),
}
NO_MODERN_ERA = {"mcp1", "fastmcp2", "fastmcp3"}
ROOT_TOOLS = ("where", "where_all")  # read roots; "echo" does not

SAME_AS_BEFORE = "the same answer as the unmigrated server gave this client"
ARGUMENT = "the path passed as `root`"
NAMES_ARGUMENT = "a tool error that names `root`"
EXPECTED = {
    ("legacy-roots", False): SAME_AS_BEFORE,
    ("legacy-roots", True): ARGUMENT,
    ("legacy-noroots", False): NAMES_ARGUMENT,
    ("legacy-noroots", True): ARGUMENT,
    ("modern", False): NAMES_ARGUMENT,
    ("modern", True): ARGUMENT,
}


CASES = [(fixture, line) for fixture, (lines, _) in FIXTURES.items() for line in lines]
IDS = [f"{f.replace('.py', '').replace(':', '-')}-{line}" for f, line in CASES]
SERVER = 'from mcp.server.lowlevel import Server\n\nserver = Server("lowlevel-mcp1")\n'


def _layout(fixture: str, folder: Path) -> None:
    """The fixture as `folder/server.py`; `name.py:split` moves its server object into `folder/app.py`, which
    server.py imports (ai-governance-mcp's shape); `name.py:callform` registers its handlers by calling the
    decorators after the functions (`server.call_tool()(call_tool)`), `name.py:heldform` through a name bound
    to the decorator (`register_call_tool = server.call_tool()`, then `register_call_tool(call_tool)`)."""
    name, _, variant = fixture.partition(":")
    text = (HERE / "e2e" / name).read_text()
    folder.mkdir()
    if variant == "split":
        assert SERVER in text
        (folder / "app.py").write_text(SERVER)
        text = text.replace(SERVER, "from app import server\n")
    elif variant in ("callform", "heldform"):
        calls = ""
        for handler in ("list_tools", "call_tool"):
            assert f"@server.{handler}()\n" in text
            text = text.replace(f"@server.{handler}()\n", "")
            if variant == "heldform":
                calls += f"register_{handler} = server.{handler}()\nregister_{handler}({handler})\n"
            else:
                calls += f"server.{handler}()({handler})\n"
        text = text.replace("\n\nasync def _main", f"\n\n{calls}\n\nasync def _main")
    (folder / "server.py").write_text(text)


def _types(prop: dict) -> set[str]:
    """JSON types a property allows (pydantic writes `anyOf: [..., {"type": "null"}]`)."""
    found = {prop["type"]} if "type" in prop else set()
    for option in prop.get("anyOf", []):
        found |= _types(option)
    return found


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
@pytest.mark.parametrize(("fixture", "line"), CASES, ids=IDS)
def test_migrated_lowlevel_server(tmp_path, workspace, fixture, line, transport):
    python = sdk_python_or_skip(line)
    shapes = FIXTURES[fixture][1]
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    original = tmp_path / "orig" / "server.py"
    migrated = tmp_path / "new" / "server.py"
    for target in (original, migrated):
        _layout(fixture, target.parent)

    results = run_engine(migrated.parent, select=("MR1",))
    assert [r for r in results if r.status.value == "failed"] == []
    assert (migrated.parent / "_mcp_roots_compat.py").is_file()
    findings = [f for r in results for f in r.findings]
    assert findings and all(f.action.value == "rewritten" for f in findings), findings
    assert {f.tool for f in findings if f.code == "MR151" and f.tool} >= set(ROOT_TOOLS)
    assert "list_roots()" not in migrated.read_text()

    before = drive(
        python,
        original,
        line,
        transport,
        [{"era": "legacy-roots", "tool": t, "args": {}, "roots": roots} for t in ROOT_TOOLS],
        "--lenient-warnings",
        attr="server",
    )
    baseline = {t: r["text"] for t, r in zip(ROOT_TOOLS, before, strict=True)}
    assert baseline["where"] == str(client_dir), before

    calls, cells = [], []
    for (era, with_arg), outcome in EXPECTED.items():
        if era == "modern" and line in NO_MODERN_ERA:
            continue
        for tool in ROOT_TOOLS:
            value = str(arg_dir) if shapes[tool] == "single" else [str(arg_dir)]
            calls.append(
                {
                    "era": era,
                    "tool": tool,
                    "args": {"root": value} if with_arg else {},
                    "roots": roots if era != "legacy-noroots" else [],
                }
            )
            cells.append((era, with_arg, tool, outcome))
        # the tool that does not read roots still works, with no new property
        calls.append({"era": era, "tool": "echo", "args": {"text": "hi"}, "roots": roots})
        cells.append((era, with_arg, "echo", "hi"))
    after = drive(python, migrated, line, transport, calls, attr="server")

    for result in after:
        assert "connection_error" not in result, result["connection_error"]
        schema = result["input_schema"]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object", schema
        if result["tool"] in ROOT_TOOLS:
            prop = schema["properties"]["root"]
            assert "root" not in schema.get("required", [])
            assert "Absolute path" in prop["description"], prop
            assert ("array" if shapes[result["tool"]] == "list" else "string") in _types(prop), prop
        else:
            assert "root" not in schema.get("properties", {}), schema

    for (era, with_arg, tool, outcome), result in zip(cells, after, strict=True):
        where = f"{line}/{transport}/{era}/{'arg' if with_arg else 'no arg'}/{tool}"
        if tool == "echo":
            assert not result["is_error"], (where, result)
            assert result["text"] == outcome, (where, result)
        elif outcome == SAME_AS_BEFORE:
            assert not result["is_error"], (where, result)
            assert result["text"] == baseline[tool], where
        elif outcome == ARGUMENT:
            assert not result["is_error"], (where, result)
            assert result["text"] == str(arg_dir), (where, result)
        else:
            assert result["is_error"], (where, result)
            assert "`root`" in result["text"] and "SEP-2577" in result["text"], (where, result)
