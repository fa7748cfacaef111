"""Session 16's sweep I: an absolute-path test spelled as a prefix (r07), a bound four modules away (r11) and a
low-level tool's bound beside a schema held in a local (r13). Noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

ABSOLUTE = """\
import os

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("p")


async def workspace(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return result.roots[0].uri.path


@mcp.tool()
async def download(paper_id: str, ctx: Context, save_path: str = "downloads") -> str:
    if save_path.startswith({prefix}):
        return save_path
    return os.path.join(await workspace(ctx), save_path)
"""


@pytest.mark.parametrize("prefix", ['"/"', "os.sep", '("/", "\\\\")'])
def test_noop_an_absolute_path_test_is_no_check(tmp_path, prefix):
    """`save_path.startswith("/")` asks what `os.path.isabs` asks: the path is joined to the roots, nothing is
    checked against them, so the read takes the argument (was MR109 "checks its path argument")."""
    (tmp_path / "server.py").write_text(ABSOLUTE.format(prefix=prefix))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    assert sorted(f.code for r in results for f in r.findings) == ["MR101", "MR107"]


SERVER = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

from pkg.files import load

mcp = FastMCP("t")


@mcp.tool()
async def read_file(path: str, ctx: Context) -> str:
    result = await ctx.session.list_roots()
    allowed = [Path(r.uri.path) for r in result.roots]
    return load(path, allowed)
"""

CHAIN = {
    "files.py": "from pkg.paths import resolve_in\n\n\ndef load(path, allowed):\n"
    "    return resolve_in(path, allowed).read_text()\n",
    "paths.py": "from pathlib import Path\n\nfrom pkg.policy import check\n\n\ndef resolve_in(path, allowed):\n"
    "    target = Path(path).resolve()\n    check(target, allowed)\n    return target\n",
    "policy.py": "from pkg.guard import ensure_inside\n\n\ndef check(target, allowed):\n"
    "    ensure_inside(target, allowed)\n",
    "guard.py": "def ensure_inside(target, allowed):\n    if not any(target.is_relative_to(a) for a in allowed):\n"
    "        raise PermissionError('Access denied')\n",
}


def test_noop_a_helper_one_module_away_that_checks_nothing_leaves_the_read_rewritable(tmp_path):
    files = {"files.py": "def load(path, allowed):\n    return f'{path} {allowed}'\n"}
    root = helpers._layout(tmp_path, SERVER, files, True)
    results = helpers.run_engine(root, select=["MR1"], write=False)
    assert [f.code for r in results for f in r.findings] == ["MR101"]


def test_roots_handed_past_the_followed_modules_are_marked(tmp_path):
    """server -> files -> paths -> policy -> guard: guard.py is four imports from the read, past the modules the
    engine follows; the roots reach it, so whether they bound the tool is unknown: marked, never rewritten."""
    root = helpers._layout(tmp_path, SERVER, CHAIN, True)
    results = helpers.run_engine(root, select=["MR1"])
    findings = [f for r in results for f in r.findings]
    assert [f.code for f in findings] == ["MR109"], findings
    assert "`ensure_inside` of `pkg.guard`" in findings[0].message
    assert "list_roots()" in (root / "pkg" / "server.py").read_text()


LOWLEVEL = """\
from pathlib import Path

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("files")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    {schema}
    return [types.Tool(name="read", description="Read a file", inputSchema={value})]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    result = await server.request_context.session.list_roots()
    bases = [Path(r.uri.path).resolve() for r in result.roots]
    target = Path(arguments["path"]).resolve()
    {check}
    return [types.TextContent(type="text", text=target.read_text())]
"""

SCHEMA = '{"type": "object", "properties": {"path": {"type": "string"}}}'
BOUND = 'if not any(target.is_relative_to(b) for b in bases):\n        return [types.TextContent(type="text", text="Access denied")]'


def test_noop_a_schema_held_in_a_local_without_a_bound_is_marked_mr152(tmp_path):
    source = LOWLEVEL.format(schema=f"schema = {SCHEMA}", value="schema", check="print(bases)")
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path, select=["MR1"], write=False)
    assert [f.code for r in results for f in r.findings] == ["MR152"]


@pytest.mark.parametrize("held", [True, False])
def test_a_low_level_bound_comes_before_its_schema(tmp_path, held):
    """The schema held in a local (MR152: add the property by hand) must not hide the bound: the read takes the
    operator's bound (MR110) as with the schema inline, and no schema edit is needed."""
    schema, value = (f"schema = {SCHEMA}", "schema") if held else ("pass", SCHEMA)
    (tmp_path / "server.py").write_text(LOWLEVEL.format(schema=schema, value=value, check=BOUND))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    assert [f.code for r in results for f in r.findings] == ["MR110"]
    text = (tmp_path / "server.py").read_text()
    assert "allowed_roots_compat(server.request_context.session)" in text and '"root"' not in text
