"""A roots read handed to `setdefault` on a holder that outlives the call (sweep T, r05): the first value is
kept and served to every later call, so a path argument there would count once; marked MR211, the server left
as it was. Noop-like cases (a container made per call) first."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = """\
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("files")
_CACHE: dict[str, str] = {}
"""


def _run(tmp_path, body):
    source = HEAD + body
    (tmp_path / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(tmp_path) for f in r.findings]
    return findings, source, (tmp_path / "server.py").read_text()


def _unmarked(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.strip().startswith("#")]


PER_CALL = {
    "fresh_dict": """

@mcp.tool()
async def where(ctx: Context) -> str:
    seen = {}
    return seen.setdefault("workspace", str((await ctx.session.list_roots()).roots[0].uri))
""",
    "local_object": """

class Box:
    def __init__(self) -> None:
        self.items: dict[str, str] = {}


@mcp.tool()
async def where(ctx: Context) -> str:
    box = Box()
    box.items.setdefault("workspace", str((await ctx.session.list_roots()).roots[0].uri))
    return box.items["workspace"]
""",
    "key_not_value": """

@mcp.tool()
async def where(ctx: Context) -> str:
    uri = str((await ctx.session.list_roots()).roots[0].uri)
    _CACHE.setdefault(uri, "seen")
    return uri
""",
}


@pytest.mark.parametrize("body", PER_CALL.values(), ids=PER_CALL.keys())
def test_a_value_made_per_call_is_rewritten(tmp_path, body):
    findings, _, text = _run(tmp_path, body)
    assert "MR211" not in helpers.codes(findings)
    assert "list_roots_compat(" in text and "root: RootPath" in text


INLINE_SETDEFAULT = {
    "module_dict": """

@mcp.tool()
async def where(ctx: Context) -> str:
    return _CACHE.setdefault("workspace", str((await ctx.session.list_roots()).roots[0].uri))
""",
    "get_or_setdefault": """

@mcp.tool()
async def where(ctx: Context) -> str:
    return _CACHE.get("w") or _CACHE.setdefault("w", str((await ctx.session.list_roots()).roots[0].uri))
""",
    "class_attribute": """

class Workspaces:
    _by: dict[str, str] = {}

    @classmethod
    async def get(cls, ctx: Context) -> str:
        return cls._by.setdefault("w", str((await ctx.session.list_roots()).roots[0].uri))


@mcp.tool()
async def where(ctx: Context) -> str:
    return await Workspaces.get(ctx)
""",
    "default_argument": """

async def _ws(ctx: Context, _memo: dict = {}) -> str:
    return _memo.setdefault("w", str((await ctx.session.list_roots()).roots[0].uri))


@mcp.tool()
async def where(ctx: Context) -> str:
    return await _ws(ctx)
""",
}


@pytest.mark.parametrize("body", INLINE_SETDEFAULT.values(), ids=INLINE_SETDEFAULT.keys())
def test_a_read_handed_to_setdefault_is_marked(tmp_path, body):
    findings, source, text = _run(tmp_path, body)
    assert helpers.codes(findings) == ["MR211"]
    assert "by `setdefault` (server.py:" in findings[0].message
    assert "which keeps the first value beyond this call" in findings[0].message
    assert _unmarked(text) == _unmarked(source)  # the server as it was, with the marker
