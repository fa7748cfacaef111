"""Decorator-based servers, migrated by the engine, then driven by each SDK line's own client.

For each legacy fixture in tests/e2e/: run the ORIGINAL server once for the baseline answer (legacy client
with a roots callback), run `migrate-roots apply` on a copy, then drive the migrated server in every era,
with and without the new argument, in-process and over stdio. One expected-outcome table below.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import jsonschema
import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

HERE = Path(__file__).resolve().parent

#: fixture -> SDK lines it runs under
FIXTURES = {
    "mcp1_fastmcp.py": ("mcp1",),
    "mcp1_registrar.py": ("mcp1",),
    "mcp1_taken.py": ("mcp1",),
    "mcp2_taken.py": ("mcp2",),
    "mcp2_mcpserver.py": ("mcp2",),
    "mcp2_typed.py": ("mcp2",),
    "fastmcp_listroots.py": ("fastmcp2", "fastmcp3"),
    "fastmcp_lazy.py": ("fastmcp2", "fastmcp3"),
    "fastmcp4_session.py": ("fastmcp4",),
    "fastmcp_mixin.py": ("fastmcp2", "fastmcp3"),
    "fastmcp4_mixin.py": ("fastmcp4",),
}
NO_MODERN_ERA = {"mcp1", "fastmcp2", "fastmcp3"}
#: fixtures made from another: fastmcp_listroots.py under `from __future__ import annotations`, where fastmcp 2
#: resolves the tools' string annotations in its own module (_lazy_annotations: builtins only, no description)
DERIVED = {
    "fastmcp_lazy.py": (
        "fastmcp_listroots.py",
        lambda text: text.replace(
            "\n\nfrom urllib.parse", "\n\nfrom __future__ import annotations\n\nfrom urllib.parse", 1
        ),
    )
}
#: (fixture, tool) whose new parameter is spelled with builtins only, without a description
NO_DESCRIPTION = {("fastmcp_lazy.py", "where"), ("fastmcp_lazy.py", "where_all")}
TOOLS = ("where", "where_all")

# The expected outcome of each cell: (era, argument given) -> outcome.
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


CASES = [(fixture, line, "") for fixture, lines in FIXTURES.items() for line in lines]
#: the same servers as a module of a package (`pkg/server.py`) that is run by its path, as the driver runs it
#: (stdio: `python pkg/server.py`; in process: loaded from its file, as `fastmcp run` does): the compatibility
#: module's import is written in both forms (_imports_by_path)
CASES += [("mcp1_fastmcp.py", "mcp1", "pkg"), ("mcp2_mcpserver.py", "mcp2", "pkg")]
CASES += [("fastmcp4_session.py", "fastmcp4", "pkg")]


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
@pytest.mark.parametrize(
    ("fixture", "line", "package"), CASES, ids=[f"{f[:-3]}-{line}{'-' * bool(p)}{p}" for f, line, p in CASES]
)
def test_migrated_server(tmp_path, workspace, fixture, line, package, transport):
    python = sdk_python_or_skip(line)
    client_dir, arg_dir = workspace
    roots = [client_dir.as_uri()]
    original = tmp_path / "orig" / package / "server.py"
    migrated = tmp_path / "new" / package / "server.py"
    for target in (original, migrated):
        target.parent.mkdir(parents=True)
        if package:
            (target.parent / "__init__.py").write_text("")
        if fixture in DERIVED:
            source, derive = DERIVED[fixture]
            target.write_text(derive((HERE / "e2e" / source).read_text()))
        else:
            shutil.copy(HERE / "e2e" / fixture, target)

    results = run_engine(tmp_path / "new")
    assert [r for r in results if r.status.value == "failed"] == []
    if package:
        assert "if TYPE_CHECKING or __package__:" in migrated.read_text()
    assert (migrated.parent / "_mcp_roots_compat.py").is_file()
    sites = [f for r in results for f in r.findings if f.code in ("MR101", "MR102")]
    assert len(sites) == 2 and all(f.action.value == "rewritten" for f in sites), sites
    assert "list_roots()" not in migrated.read_text()

    before = drive(
        python,
        original,
        line,
        transport,
        [{"era": "legacy-roots", "tool": t, "args": {}, "roots": roots} for t in TOOLS],
        "--lenient-warnings",
    )
    baseline = {t: r["text"] for t, r in zip(TOOLS, before, strict=True)}
    assert baseline["where"] == str(client_dir)

    calls, cells = [], []
    for (era, with_arg), outcome in EXPECTED.items():
        if era == "modern" and line in NO_MODERN_ERA:
            continue
        for tool in TOOLS:
            value = str(arg_dir) if tool == "where" else [str(arg_dir)]
            calls.append(
                {
                    "era": era,
                    "tool": tool,
                    "args": {"root": value} if with_arg else {},
                    "roots": roots if era != "legacy-noroots" else [],
                }
            )
            cells.append((era, with_arg, tool, outcome))
    after = drive(python, migrated, line, transport, calls)

    schemas = {r["tool"]: r["input_schema"] for r in after}
    for tool in TOOLS:
        schema = schemas[tool]
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["type"] == "object"
        assert "root" in schema["properties"], schema
        assert "root" not in schema.get("required", [])
        if (fixture, tool) in NO_DESCRIPTION:
            assert "description" not in schema["properties"]["root"], schema
        else:
            assert "Absolute path" in schema["properties"]["root"]["description"]

    for (era, with_arg, tool, outcome), result in zip(cells, after, strict=True):
        where = f"{line}/{transport}/{era}/{'arg' if with_arg else 'no arg'}/{tool}"
        if outcome == SAME_AS_BEFORE:
            assert not result["is_error"], (where, result)
            assert result["text"] == baseline[tool], where
        elif outcome == ARGUMENT:
            assert not result["is_error"], (where, result)
            assert result["text"] == str(arg_dir), (where, result)
        else:
            assert result["is_error"] or result["raised"], (where, result)
            assert "`root`" in result["text"], (where, result)
