"""MR110 end to end: servers whose roots bound what a tool may read (tests/e2e/bounded), migrated by the engine,
then driven by each SDK line's own client, in-process and over stdio.

Before and after must answer alike wherever the operator listed nothing: a legacy client with roots is bound by
its roots, one without roots by the server's own fallback (the working directory), and so is a 2026-07-28
request (on mcp 2.x the old call fails there, and the server falls back). With MCP_ROOTS_ALLOWED_PATHS set, a
2026-07-28 request is bound by the operator's directories, and a legacy client still by its own roots.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.sdk.harness import drive

pytestmark = pytest.mark.sdk

SOURCE = Path(__file__).resolve().parent / "e2e" / "bounded"
SESSION = (SOURCE / "mcp2_mcpserver.py").read_text()
# The session form under each line that has it (mcp 1.x spelled through the request context), and fastmcp's
# own list form.
SERVERS = {
    "mcp1": SESSION.replace(
        "mcp.server.mcpserver import Context, MCPServer", "mcp.server.fastmcp import Context, FastMCP"
    )
    .replace('MCPServer("bounded-mcp2")', 'FastMCP("bounded-mcp1")')
    .replace("ctx.session.list_roots()", "ctx.request_context.session.list_roots()"),
    "mcp2": SESSION,
    "fastmcp3": (SOURCE / "fastmcp_listroots.py").read_text(),
    "fastmcp4": SESSION.replace(
        "mcp.server.mcpserver import Context, MCPServer", "fastmcp import Context, FastMCP"
    ).replace('MCPServer("bounded-mcp2")', 'FastMCP("bounded-fastmcp4")'),
}
MODERN = {"mcp2", "fastmcp4"}


@pytest.mark.parametrize("transport", ["inproc", "stdio"])
@pytest.mark.parametrize("line", sorted(SERVERS))
def test_migrated_bound_server(tmp_path, workspace, line, transport):
    python = sdk_python_or_skip(line)
    client_dir, operator_dir = workspace
    (client_dir / "a.txt").write_text("client file")
    (operator_dir / "b.txt").write_text("operator file")
    original, migrated = tmp_path / "orig", tmp_path / "new"
    for folder in (original, migrated):
        folder.mkdir()
        (folder / "server.py").write_text(SERVERS[line])
        (folder / "here.txt").write_text("working directory file")

    results = run_engine(migrated)
    assert [r for r in results if r.status.value == "failed"] == []
    assert sorted(f.code for r in results for f in r.findings) == ["MR110"]
    text = (migrated / "server.py").read_text()
    assert "allowed_roots_compat(" in text and ".list_roots()" not in text

    # "here.txt" resolves against the server's working directory (its copy's folder, in both transports).
    files = {"client": str(client_dir / "a.txt"), "operator": str(operator_dir / "b.txt"), "cwd": "here.txt"}
    eras = [("legacy-roots", [client_dir.as_uri()]), ("legacy-noroots", [])]
    eras += [("modern", [client_dir.as_uri()])] if line in MODERN else []
    cells = [(era, roots, name, path) for era, roots in eras for name, path in files.items()]
    calls = [
        {"era": era, "tool": "read", "args": {"path": path}, "roots": roots} for era, roots, _, path in cells
    ]

    before = drive(python, original / "server.py", line, transport, calls, "--lenient-warnings")
    after = drive(python, migrated / "server.py", line, transport, calls)
    assert [r["text"] for r in after] == [r["text"] for r in before], after
    # What the operator lists: a 2026-07-28 request is bound by it, a legacy client keeps its own roots.
    listed = drive(
        python,
        migrated / "server.py",
        line,
        transport,
        calls,
        env={"MCP_ROOTS_ALLOWED_PATHS": str(operator_dir)},
    )
    allowed = {
        ("legacy-roots", "client"): "client file",
        ("legacy-noroots", "cwd"): "working directory file",
        ("modern", "cwd"): "working directory file",
    }
    allowed_listed = {**allowed, ("modern", "operator"): "operator file"}
    del allowed_listed[("modern", "cwd")]
    for (era, _, name, _), result, result_listed in zip(cells, after, listed, strict=True):
        for table, got in ((allowed, result), (allowed_listed, result_listed)):
            want = table.get((era, name))
            assert not got["is_error"], (era, name, got)
            assert got["text"] == want if want else got["text"].startswith("denied: "), (era, name, got)


# A class of the project that derives from a bounding class in another module (sweep N of session 22): one that
# still calls the base's check by name keeps the bound (MR110, r01); one whose check checks nothing, or that lists
# a trusting mixin before the base, holds none (MR101: the tool takes the caller's `root`, r02 and r03).
SANDBOX = """\
from pathlib import Path


class Sandbox:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def check(self, rel: str) -> Path:
        target = (self.root / rel).resolve()
        if not target.is_relative_to(self.root):
            raise PermissionError(f"{rel} is outside the workspace")
        return target

    def read(self, rel: str) -> str:
        return self.check(rel).read_text()
"""
DERIVED = {
    "by-name": "class Box(Sandbox):\n    def check(self, rel: str) -> Path:\n        return Sandbox.check(self, rel)\n",
    "unchecked": "class Box(Sandbox):\n    def check(self, rel: str) -> Path:\n        return self.root / rel\n",
    "mixin-first": (
        "class Trusting:\n    root: Path\n\n    def check(self, rel: str) -> Path:\n        return self.root / rel\n"
        "\n\nclass Box(Trusting, Sandbox):\n    pass\n"
    ),
}
TOOL = """\
from pathlib import Path
from urllib.parse import unquote

from mcp.server.mcpserver import Context, MCPServer

from pkg.extra import Box

mcp = MCPServer("overridden")


async def workspace(ctx: Context) -> Path:
    result = await ctx.session.list_roots()
    return Path(unquote(result.roots[0].uri.path))


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    return Box(await workspace(ctx)).read(path)
"""


@pytest.mark.parametrize("derived", sorted(DERIVED))
def test_migrated_overridden_check(tmp_path, workspace, derived):
    python = sdk_python_or_skip("mcp2")
    client_dir, outside = workspace
    (client_dir / "a.txt").write_text("client file")
    (outside / "b.txt").write_text("outside file")
    original, migrated = tmp_path / "orig", tmp_path / "new"
    for folder in (original, migrated):
        (folder / "pkg").mkdir(parents=True)
        (folder / "pkg" / "__init__.py").write_text("")
        (folder / "pkg" / "sandbox.py").write_text(SANDBOX)
        extra = "from pathlib import Path\n\nfrom pkg.sandbox import Sandbox\n\n\n" + DERIVED[derived]
        (folder / "pkg" / "extra.py").write_text(extra)
        (folder / "pkg" / "server.py").write_text(TOOL)
        (folder / "main.py").write_text("from pkg.server import mcp\n")

    results = run_engine(migrated)
    bounded = derived == "by-name"
    codes = sorted(f.code for r in results for f in r.findings)
    assert codes == (["MR110"] if bounded else ["MR101", "MR107"]), codes

    escape = f"../{outside.name}/b.txt"
    roots = [client_dir.as_uri()]
    calls = [
        {"era": "legacy-roots", "tool": "read", "args": {"path": "a.txt"}, "roots": roots},
        {"era": "legacy-roots", "tool": "read", "args": {"path": escape}, "roots": roots},
        {"era": "modern", "tool": "read", "args": {"path": "a.txt"}, "roots": roots},
    ]
    before = drive(python, original / "main.py", "mcp2", "inproc", calls, "--lenient-warnings")
    after = drive(python, migrated / "main.py", "mcp2", "inproc", calls)
    # Legacy clients with roots: as before (the escape refused by a bound, read where there is none).
    assert [(r["is_error"], r["text"]) for r in after[:2]] == [(r["is_error"], r["text"]) for r in before[:2]]
    assert after[0]["text"] == "client file" and after[1]["is_error"] is bounded
    explicit = [
        {"era": "modern", "tool": "read", "args": {"path": "b.txt", "root": str(outside)}, "roots": []},
        {"era": "modern", "tool": "read", "args": {"path": escape}, "roots": []},
    ]
    # With the operator's list where a bound is kept; the caller's own `root` where there is none.
    env = {"MCP_ROOTS_ALLOWED_PATHS": str(client_dir)} if bounded else None
    listed = drive(python, migrated / "main.py", "mcp2", "inproc", explicit, env=env)
    if bounded:
        # No argument the caller could move the bound with; the operator's list bounds 2026-07-28 requests.
        assert after[2]["is_error"] and all(r["is_error"] for r in listed), (after, listed)
    else:
        # The caller's folder, as a legacy client's roots were: the check never ran.
        assert listed[0] == {**listed[0], "is_error": False, "text": "outside file"}, listed


# Roots handed to a class chosen at run time among the project's (sweep P r01 of session 22), and to the bound
# parameter of a constructor that checks against it (r05): MR110, no argument. Before: a `root` argument, and
# `{"path": "b.txt", "root": <outside>}` read a file past the legacy client's root.
CHOSEN = {
    "table": ('BOXES = {"notes": Sandbox, "docs": Plain}\n', "BOXES[area](await workspace(ctx)).read(path)"),
    "get": ('BOXES = {"notes": Sandbox}\n', "BOXES.get(area, Plain)(await workspace(ctx)).read(path)"),
    "conditional": ("", '(Plain if area == "docs" else Sandbox)(await workspace(ctx)).read(path)'),
    "constructor": ("", "GuardedPath(await workspace(ctx), path).full.read_text()"),
    "dataclass": ("", "GuardedFile(await workspace(ctx), path).full.read_text()"),
}
GUARDS = """\
from dataclasses import dataclass, field
from pathlib import Path

from pkg.sandbox import Sandbox


class Plain:
    def __init__(self, root: Path) -> None:
        self.root = root

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text()


class GuardedPath:
    def __init__(self, base: Path, rel: str) -> None:
        base = base.resolve()
        self.full = (base / rel).resolve()
        if not self.full.is_relative_to(base):
            raise PermissionError(f"{rel} is outside the workspace")


@dataclass
class GuardedFile:
    base: Path
    rel: str
    full: Path = field(init=False)

    def __post_init__(self) -> None:
        base = self.base.resolve()
        self.full = (base / self.rel).resolve()
        if not self.full.is_relative_to(base):
            raise PermissionError(f"{self.rel} is outside the workspace")
"""
CHOSEN_TOOL = """\
from pathlib import Path
from urllib.parse import unquote

from mcp.server.mcpserver import Context, MCPServer

from pkg.guards import GuardedFile, GuardedPath, Plain, Sandbox

mcp = MCPServer("chosen")
{table}

async def workspace(ctx: Context) -> Path:
    result = await ctx.session.list_roots()
    return Path(unquote(result.roots[0].uri.path))


@mcp.tool()
async def read(path: str, ctx: Context, area: str = "notes") -> str:
    return {made}
"""


@pytest.mark.parametrize("case", sorted(CHOSEN))
def test_migrated_chosen_or_constructor_bound(tmp_path, workspace, case):
    python = sdk_python_or_skip("mcp2")
    client_dir, outside = workspace
    (client_dir / "a.txt").write_text("client file")
    (outside / "b.txt").write_text("outside file")
    table, made = CHOSEN[case]
    original, migrated = tmp_path / "orig", tmp_path / "new"
    for folder in (original, migrated):
        (folder / "pkg").mkdir(parents=True)
        (folder / "pkg" / "__init__.py").write_text("")
        (folder / "pkg" / "sandbox.py").write_text(SANDBOX)
        (folder / "pkg" / "guards.py").write_text(GUARDS)
        (folder / "pkg" / "server.py").write_text(CHOSEN_TOOL.format(table=table, made=made))
        (folder / "main.py").write_text("from pkg.server import mcp\n")

    results = run_engine(migrated)
    assert sorted(f.code for r in results for f in r.findings) == ["MR110"]
    assert (
        "root" not in (migrated / "pkg" / "server.py").read_text().split("async def read(")[1].split(")")[0]
    )

    escape = f"../{outside.name}/b.txt"
    roots = [client_dir.as_uri()]
    calls = [
        {"era": "legacy-roots", "tool": "read", "args": {"path": "a.txt"}, "roots": roots},
        {"era": "legacy-roots", "tool": "read", "args": {"path": escape}, "roots": roots},
        {
            "era": "legacy-roots",
            "tool": "read",
            "args": {"path": "b.txt", "root": str(outside)},
            "roots": roots,
        },
        {"era": "modern", "tool": "read", "args": {"path": "a.txt"}, "roots": roots},
    ]
    before = drive(python, original / "main.py", "mcp2", "inproc", calls, "--lenient-warnings")
    after = drive(python, migrated / "main.py", "mcp2", "inproc", calls)
    # Unset, exactly as before: the legacy client's root bounds it (the escape and another `root` refused).
    assert [(r["is_error"], r["text"]) for r in after] == [(r["is_error"], r["text"]) for r in before]
    assert after[0]["text"] == "client file" and after[1]["is_error"] and after[3]["is_error"], after
    assert "outside file" not in after[2]["text"], after
    # A 2026-07-28 request is bound by the operator's list: inside it read, past it refused.
    modern = [
        {"era": "modern", "tool": "read", "args": {"path": "a.txt"}, "roots": []},
        {"era": "modern", "tool": "read", "args": {"path": escape}, "roots": []},
        {"era": "modern", "tool": "read", "args": {"path": "b.txt", "root": str(outside)}, "roots": []},
    ]
    env = {"MCP_ROOTS_ALLOWED_PATHS": str(client_dir)}
    listed = drive(python, migrated / "main.py", "mcp2", "inproc", modern, env=env)
    assert listed[0] == {**listed[0], "is_error": False, "text": "client file"}, listed
    assert listed[1]["is_error"] and "outside file" not in listed[2]["text"], listed
