"""The shim, end to end, under every SDK line: server kind x transport x era x with/without the argument.

Each server in tests/sdk/servers/ is what the codemod produces; the shim is copied next to them from
migrate_roots/templates/ at test time. One driver process per (server, transport) runs every call of that row (see
tests/sdk/driver.py) with the line's own client; the cells below only look up their result.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path
from urllib.parse import quote

import pytest

jsonschema = pytest.importorskip("jsonschema")

pytestmark = pytest.mark.sdk

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHIM = REPO / "migrate_roots" / "templates" / "_mcp_roots_compat.py"
SERVERS_DIR = HERE / "sdk" / "servers"
DRIVER = HERE / "sdk" / "driver.py"


def _load_envs():
    # by path: works whether or not tests/ is a package, whatever pytest's import mode
    spec = importlib.util.spec_from_file_location("_migrate_roots_sdk_envs", HERE / "sdk" / "envs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sdk_python_or_skip = _load_envs().sdk_python_or_skip

#: server id -> (SDK line, server file, module attribute, tools it has)
SERVERS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {
    "mcp1": ("mcp1", "mcp1_fastmcp.py", "mcp", ("where", "where_all")),
    "mcp1-lowlevel": ("mcp1", "mcp1_lowlevel.py", "server", ("where",)),
    "mcp2": ("mcp2", "mcp2_mcpserver.py", "mcp", ("where", "where_all")),
    "mcp2-lowlevel": ("mcp2", "mcp2_lowlevel.py", "server", ("where",)),
    "fastmcp2": ("fastmcp2", "fastmcp_server.py", "mcp", ("where", "where_all")),
    "fastmcp3": ("fastmcp3", "fastmcp_server.py", "mcp", ("where", "where_all")),
    "fastmcp4": ("fastmcp4", "fastmcp_server.py", "mcp", ("where", "where_all")),
}
TRANSPORTS = ("inproc", "stdio")
ERAS = ("legacy-roots", "legacy-noroots", "modern")

#: tool -> the argument it takes
ARGUMENT = {"where": "root", "where_all": "roots"}

# Outcomes
ARG_PATH = "the path(s) passed as the argument"
CLIENT_ROOT = "the root the client answered roots/list with"
NEEDS_ARG = "a tool error naming the argument"
SKIPPED = "skipped: this line has no 2026-07-28 era"

#: THE expected outcomes: (line or "*", era, argument given) -> outcome. A line's own entry wins over "*".
EXPECTED: dict[tuple[str, str, bool], str] = {
    ("*", "legacy-roots", True): ARG_PATH,
    ("*", "legacy-roots", False): CLIENT_ROOT,
    ("*", "legacy-noroots", True): ARG_PATH,
    ("*", "legacy-noroots", False): NEEDS_ARG,
    ("*", "modern", True): ARG_PATH,
    ("*", "modern", False): NEEDS_ARG,  # although the modern client still declares roots (the trap)
    ("mcp1", "modern", True): SKIPPED,
    ("mcp1", "modern", False): SKIPPED,
    ("fastmcp2", "modern", True): SKIPPED,
    ("fastmcp2", "modern", False): SKIPPED,
    ("fastmcp3", "modern", True): SKIPPED,
    ("fastmcp3", "modern", False): SKIPPED,
}


def expected(line: str, era: str, with_arg: bool) -> str:
    return EXPECTED.get((line, era, with_arg), EXPECTED[("*", era, with_arg)])


CELLS = [
    pytest.param(
        server,
        transport,
        era,
        tool,
        with_arg,
        id=f"{server}-{transport}-{era}-{tool}-{'arg' if with_arg else 'noarg'}",
    )
    for server, (_line, _file, _attr, tools) in SERVERS.items()
    for transport in TRANSPORTS
    for era in ERAS
    for tool in tools
    for with_arg in (True, False)
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Servers + the shim copied side by side; real directories to pass as arguments and as roots."""
    base = tmp_path_factory.mktemp("shim-matrix")
    servers = base / "servers"
    servers.mkdir()
    for src in SERVERS_DIR.glob("*.py"):
        shutil.copy(src, servers / src.name)
    shutil.copy(SHIM, servers / SHIM.name)
    arg_dirs = [base / "arg dir ü", base / "second arg"]
    client_root = base / "client root"
    for d in (*arg_dirs, client_root):
        d.mkdir()
    return {
        "servers": servers,
        "arg_dirs": [str(d) for d in arg_dirs],
        "client_root": str(client_root),
        "client_root_uri": "file://" + quote(str(client_root)),
    }


def _calls(tools: tuple[str, ...], wd: dict[str, object]) -> list[dict]:
    calls = []
    for era in ERAS:
        for tool in tools:
            for with_arg in (True, False):
                args: dict = {}
                if with_arg:
                    arg_dirs = wd["arg_dirs"]
                    # `where` gets a plain path; `where_all` a path and a percent-encoded file URI
                    args = (
                        {"root": arg_dirs[0]}
                        if tool == "where"
                        else {"roots": [arg_dirs[0], "file://" + quote(arg_dirs[1])]}
                    )
                calls.append({"era": era, "tool": tool, "args": args, "roots": [wd["client_root_uri"]]})
    return calls


_RESULTS: dict[tuple[str, str], dict[tuple[str, str, bool], dict]] = {}


def _row(server: str, transport: str, wd: dict[str, object]) -> dict[tuple[str, str, bool], dict]:
    """Run the driver once for a (server, transport) row and index its results by (era, tool, with_arg)."""
    key = (server, transport)
    if key not in _RESULTS:
        line, filename, attr, tools = SERVERS[server]
        python = sdk_python_or_skip(line)
        calls = _calls(tools, wd)
        cmd = [
            str(python),
            str(DRIVER),
            "--server",
            str(Path(wd["servers"]) / filename),
            "--attr",
            attr,
            "--line",
            line,
            "--transport",
            transport,
            "--batch",
            json.dumps(calls),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"driver failed:\n{proc.stdout}\n{proc.stderr[-4000:]}"
        results = json.loads(proc.stdout.strip().splitlines()[-1])["results"]
        _RESULTS[key] = {(r["era"], r["tool"], bool(r["args"])): r for r in results}
    return _RESULTS[key]


@pytest.mark.parametrize("server, transport, era, tool, with_arg", CELLS)
def test_cell(server: str, transport: str, era: str, tool: str, with_arg: bool, workdir) -> None:
    line = SERVERS[server][0]
    outcome = expected(line, era, with_arg)
    result = _row(server, transport, workdir)[(era, tool, with_arg)]
    if outcome == SKIPPED:
        assert result["skipped"], result
        return
    assert not result["skipped"], result
    assert "connection_error" not in result, result.get("connection_error")
    argument = ARGUMENT[tool]

    # tools/list: the argument is a property, and the schema is valid JSON Schema 2020-12
    schema = result["input_schema"]
    assert schema and schema.get("type") == "object", schema
    assert argument in schema.get("properties", {}), schema
    jsonschema.Draft202012Validator.check_schema(schema)

    text = result["text"]
    if outcome == ARG_PATH:
        want = workdir["arg_dirs"][:1] if tool == "where" else workdir["arg_dirs"]
        assert not result["is_error"], text
        assert text.splitlines() == want
    elif outcome == CLIENT_ROOT:
        assert not result["is_error"], text
        assert text.splitlines() == [workdir["client_root"]]
    elif outcome == NEEDS_ARG:
        assert result["is_error"], result
        assert f"needs the `{argument}` argument" in text, text
        assert "SEP-2577" in text, text
    else:  # pragma: no cover
        raise AssertionError(f"unknown outcome {outcome!r}")


def test_table_covers_every_cell() -> None:
    for line in {spec[0] for spec in SERVERS.values()}:
        for era in ERAS:
            for with_arg in (True, False):
                assert expected(line, era, with_arg) in (ARG_PATH, CLIENT_ROOT, NEEDS_ARG, SKIPPED)
