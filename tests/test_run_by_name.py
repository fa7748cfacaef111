"""A tool that gains a path argument, run by other code without it (sweep R, r01 and r03): by its name from
another module or on a parent server that mounts its server with a prefix, or through its fastmcp tool object.
That run passes no path: marked MR104 at the call, naming the tool. Noop cases (nothing marked there) first."""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine

FS = """\
from fastmcp import Context, FastMCP

fs = FastMCP("fs")


@fs.tool
async def where(ctx: Context) -> str:
    roots = await ctx.list_roots()
    return str(roots[0].uri)


@fs.tool
def ping() -> str:
    return "pong"
"""

SERVER = """\
import asyncio

from fastmcp import FastMCP

from .fs import fs, where

mcp = FastMCP("main")
{setup}


@mcp.tool
async def summary() -> str:
    {body}
    return str(result)
"""


def _run(tmp_path, setup: str, body: str, files: dict[str, str] | None = None):
    root = package(
        tmp_path, {"fs.py": FS, "server.py": SERVER.format(setup=setup, body=body), **(files or {})}
    )
    findings = [f for r in run_engine(root) for f in r.findings]
    return root, [f for f in findings if f.path == "pkg/server.py"]


@pytest.mark.parametrize(
    ("setup", "body"),
    [
        ("", 'result = await fs.call_tool("where", {"root": "/srv"})'),
        ("", "result = await fs.call_tool('where', {'root': '/srv'})"),
        ("", 'result = await fs.call_tool("ping", {})'),  # a tool that takes no new argument
        ("", "result = asyncio.run(asyncio.sleep(0))"),
        ('mcp.mount(fs, namespace="fs")', 'result = await mcp.call_tool("fs_where", {"root": "/srv"})'),
        ('mcp.mount(fs, namespace="fs")', 'result = await mcp.call_tool("other_where", {})'),
        ('mcp.mount(fs, namespace="fs")', 'result = await mcp.call_tool("fs_ping", {})'),
        ("", 'result = await (await fs.get_tool("where")).run({"root": "/srv"})'),
        ("", 'result = await (await fs.get_tool("ping")).run({})'),
        ("", 'result = await where.run({"root": "/srv"})'),
        ("", 'result = await (await fs.get_tools())["where"].run({"root": "/srv"})'),
        ("", 'result = await (await fs.get_tools())["ping"].run({})'),
    ],
)
def test_a_run_that_passes_the_argument_or_runs_another_tool_is_not_marked(tmp_path, setup, body):
    _, findings = _run(tmp_path, setup, body)
    assert codes(findings) == [], findings


@pytest.mark.parametrize(
    "body",
    [
        'result = await fs.call_tool("where", {})',
        'result = await fs.call_tool("where")',
        'result = await fs.call_tool(name="where", arguments={})',
        'result = await fs._tool_manager.call_tool("where", {"x": 1})',
    ],
)
def test_a_tool_of_another_module_run_by_name_is_marked(tmp_path, body):
    root, findings = _run(tmp_path, "", body)
    assert codes(findings) == ["MR104"], findings
    assert findings[0].message.startswith(
        "runs the tool `where` by its name through the server, and `where` (pkg/fs.py:"
    ), findings[0].message
    assert "now takes `root`: this call passes none" in findings[0].message
    assert "# migrate-roots: MR104: runs the tool `where`" in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    "setup",
    [
        'mcp.mount(fs, namespace="fs")',
        'mcp.mount(fs, prefix="fs")',
        'mcp.mount("fs", fs)',
        'mcp.mount(server=fs, namespace="fs")',
        'asyncio.run(mcp.import_server(fs, prefix="fs"))',
    ],
)
def test_a_tool_of_a_mounted_server_run_by_its_prefixed_name_is_marked(tmp_path, setup):
    _, findings = _run(tmp_path, setup, 'result = await mcp.call_tool("fs_where", {})')
    assert codes(findings) == ["MR104"], findings
    message = findings[0].message
    assert message.startswith(
        "runs the tool `fs_where` by its name through the server, and `fs_where` is `where`"
    )
    assert "mounted with the prefix `fs` by `mcp." in message and "now takes `root`" in message


def test_a_tool_a_mount_renames_is_found_under_its_new_name(tmp_path):
    # Sweep S, r05: `tool_names={"where": "locate"}`, then `call_tool("files_locate")` was silent.
    setup = 'mcp.mount(fs, namespace="files", tool_names={"where": "locate"})'
    _, findings = _run(tmp_path, setup, 'result = await mcp.call_tool("files_locate", {})')
    assert codes(findings) == ["MR104"], findings
    assert "`files_locate` is `where` (pkg/fs.py:" in findings[0].message
    _, quiet = _run(tmp_path / "b", setup, 'result = await mcp.call_tool("files_where", {})')
    assert quiet == []  # renamed: no tool answers to its old name under the prefix


APP = 'from fastmcp import FastMCP\n\napp = FastMCP("app")\n'
TOOLS = "from fastmcp import Context\n\nfrom .app import app\n\n\n@app.tool\nasync def look(ctx: Context) -> str:\n    return str((await ctx.list_roots())[0].uri)\n"


def test_a_tool_registered_on_a_server_another_module_binds_is_found_under_its_prefix(tmp_path):
    setup = 'from .app import app\nmcp.mount(app, namespace="app")'
    files = {"app.py": APP, "tools.py": TOOLS}
    _, findings = _run(tmp_path, setup, 'result = await mcp.call_tool("app_look", {})', files)
    assert codes(findings) == ["MR104"], findings
    assert "and `app_look` is `look` (pkg/tools.py:" in findings[0].message


@pytest.mark.parametrize(
    "setup",
    [
        'mcp.mount(fs.copy(), namespace="fs")',  # a server it cannot follow
        'from .app import app\nmcp.mount(app, namespace="fs")',  # another server of the project
    ],
)
def test_a_mount_of_a_server_it_cannot_tell_is_said_as_a_condition(tmp_path, setup):
    _, findings = _run(tmp_path, setup, 'result = await mcp.call_tool("fs_where", {})', {"app.py": APP})
    assert codes(findings) == ["MR104"], findings
    assert "and if the server mounted with the prefix `fs`" in findings[0].message
    assert "is the one of `where`" in findings[0].message


@pytest.mark.parametrize(
    ("body", "how"),
    [
        (
            'result = await (await fs.get_tool("where")).run({})',
            "taken from the server by its name (`get_tool`)",
        ),
        ('tool = await fs.get_tool("where")\n    result = await tool.run({})', "(`get_tool`)"),
        ('tool = await fs.get_tool(key="where")\n    result = await tool.run(arguments={})', "(`get_tool`)"),
        ("result = await where.run({})", "through its tool object `where`"),
        # fastmcp 2's table of tools by name (sweep S, r05)
        (
            'result = await (await fs.get_tools())["where"].run({})',
            "server's tools by its name (`get_tools`)",
        ),
        ('tools = await fs.get_tools()\n    result = await tools["where"].run({})', "(`get_tools`)"),
        (
            'tools = await fs.get_tools()\n    tool = tools["where"]\n    result = await tool.run({})',
            "(`get_tools`)",
        ),
        # `root` as a value, not a key, passes no argument
        ('result = await where.run({"user": "root"})', "through its tool object `where`"),
    ],
)
def test_a_tool_of_another_module_run_through_its_tool_object_is_marked(tmp_path, body, how):
    _, findings = _run(tmp_path, "", body)
    assert codes(findings) == ["MR104"], findings
    assert how in findings[0].message and "`where` (pkg/fs.py:" in findings[0].message


SAME = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("main")


@mcp.tool
async def where(ctx: Context) -> str:
    roots = await ctx.list_roots()
    return str(roots[0].uri)


@mcp.tool
async def summary() -> str:
    {body}
    return str(result)
"""


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            'tool = await mcp.get_tool("where")\n    result = await tool.run({})',
            "runs the tool `where`, taken from the server by its name (`get_tool`), and `where` now takes `root`",
        ),
        (
            'result = await (await mcp.get_tool("where")).run({})',
            "runs the tool `where`, taken from the server by its name (`get_tool`), and `where` now takes `root`",
        ),
        (
            "result = await where.run({})",
            "runs the tool through its tool object `where`, and `where` now takes `root`",
        ),
        (
            "args = {}\n    result = await where.run(args)",
            "this call passes `args`, whose keys migrate-roots does not read: unless it holds `root`",
        ),
    ],
)
def test_a_tool_of_the_same_module_run_through_its_tool_object_is_marked(tmp_path, body, said):
    root = package(tmp_path, {"server.py": SAME.format(body=body)})
    findings = [f for r in run_engine(root) for f in r.findings]
    assert codes(findings) == ["MR102", "MR104"], findings
    assert said in next(f.message for f in findings if f.code == "MR104")
    first = (root / "pkg" / "server.py").read_text()
    run_engine(root)
    assert (root / "pkg" / "server.py").read_text() == first


def test_a_name_two_servers_use_is_said_as_a_condition(tmp_path):
    other = 'from fastmcp import FastMCP\n\nother = FastMCP("other")\n\n\n@other.tool\ndef where() -> str:\n    return "."\n'
    _, findings = _run(
        tmp_path,
        "from .other import other",
        'result = await other.call_tool("where", {})',
        {"other.py": other},
    )
    assert codes(findings) == ["MR104"], findings
    assert "and if it is the tool of that name at pkg/fs.py:" in findings[0].message
    assert "(tools named so: pkg/fs.py:" in findings[0].message and "pkg/other.py:" in findings[0].message


def test_the_run_tool_is_cited_by_its_folder_and_line_as_written(tmp_path):
    """Sweep S, r01: `pkg/server.py` runs `fs_where` of `pkg/fs/server.py`; cited by its base name, the line was
    taken for the caller's own and never renumbered (after apply it pointed into the RootPath block)."""
    fs_server = FS
    main = (
        'from fastmcp import FastMCP\n\nfrom pkg.fs.server import fs\n\nmcp = FastMCP("main")\n'
        'mcp.mount(fs, namespace="fs")\n\n\n@mcp.tool\nasync def summary() -> str:\n'
        '    return str(await mcp.call_tool("fs_where", {}))\n'
    )
    root = package(tmp_path, {"server.py": main, "fs/__init__.py": "", "fs/server.py": fs_server})
    run_engine(root, select=["MR1"])
    written = (root / "pkg" / "fs" / "server.py").read_text().splitlines()
    line = next(i for i, text in enumerate(written, 1) if text.startswith("async def where("))
    assert f"`where` (fs/server.py:{line})" in (root / "pkg" / "server.py").read_text()
