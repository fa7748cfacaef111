"""Roots that bound a path, seen through a helper's answer, and kept consistent across the module.

The roots demo and hiil: `is_path_allowed(path, ctx)` reads roots and answers whether `path` lies in one (through
`is_safe_path`, a function the run cannot read); `read_dir` raises "not within an approved root" when it says no;
a `list_roots` tool beside them lists "the directories accessible to this server". Before, the helper's answer
was no bound: `read_dir`'s raise was taken for a check the roots skip (MR109 with a false reason) and, once that
was mended, `is_path_allowed` took the caller's `root` (a widened bound). Now the answer is the bound (MR110),
and every other read of the module takes the same bound: `list_roots` reports what `read_dir` enforces."""

from __future__ import annotations

from tests import helpers

HEAD = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from safety import is_safe_path

mcp = FastMCP("x")


async def is_path_allowed(requested: Path, ctx: Context) -> bool:
    result = await ctx.session.list_roots()
    return any(is_safe_path(requested, Path(r.uri.path)) for r in result.roots)


@mcp.tool()
async def read_dir(path: str, ctx: Context) -> list[str]:
    requested = Path(path).resolve()
    if not {gate}(requested, ctx):
        raise ValueError(f"Access denied: {{path}} is not within an approved root directory")
    return [p.name for p in requested.iterdir()]
"""
LISTING = """

@mcp.tool()
async def list_roots(ctx: Context) -> list[str]:
    result = await ctx.session.list_roots()
    return [str(r.uri) for r in result.roots]
"""


def _findings(tmp_path, source: str, **kwargs):
    root = helpers.package(tmp_path, {"server.py": source})
    results = helpers.run_engine(root, select=["MR1"], write=False, **kwargs)
    return [(f.code, f.action.value, f.line, f.message) for r in results for f in r.findings]


def test_noop_a_module_without_a_bound_keeps_its_listing_tool_rewritten(tmp_path):
    source = 'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("x")\n' + LISTING
    assert [f[:2] for f in _findings(tmp_path, source)] == [("MR101", "rewritten")]


def test_a_raise_gated_by_the_helpers_answer_makes_its_roots_a_bound(tmp_path):
    findings = _findings(tmp_path, HEAD.format(gate="await is_path_allowed"))
    assert [f[:2] for f in findings] == [("MR110", "rewritten")], findings
    assert "(a raise that says the path is outside in `read_dir`)" in findings[0][3]


def test_the_same_gate_without_mr110_is_marked_with_the_bound(tmp_path):
    findings = _findings(tmp_path, HEAD.format(gate="await is_path_allowed"), ignore=["MR110"])
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings
    assert findings[0][3].startswith(
        "roots bound what this tool may touch (a raise that says the path is outside"
    )


def test_every_other_read_of_a_bounded_module_takes_the_bound(tmp_path):
    findings = _findings(tmp_path, HEAD.format(gate="await is_path_allowed") + LISTING)
    assert [f[:2] for f in findings] == [("MR110", "rewritten"), ("MR110", "rewritten")], findings
    assert "(in this module: a raise that says the path is outside in `read_dir`)" in findings[1][3]
