"""fastmcp's own registrar of methods: `@mcp_tool(...)` on a method of an `MCPMixin` subclass, registered by
`register_all(mcp_server=...)` (fastmcp.contrib.mcp_mixin, fastmcp 2.x-4.x; rsp2k/mcp-arduino-server).

Before, the method was "not a tool" (MR103, a false reason) and stayed unmigrated; it is a tool: its read is
rewritten and its signature takes the argument (fastmcp builds the schema from the bound method). A project's
own decorator that happens to be called `mcp_tool` is no such registrar (still MR103). The SDK e2e:
tests/e2e/fastmcp_mixin.py and fastmcp4_mixin.py in tests/test_e2e_decorator.py."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

SERVER = """\
from fastmcp import Context, FastMCP
{imports}


class Tools(MCPMixin):
    {decorator}
    async def where(self, ctx: Context) -> str:
        roots = await ctx.list_roots()
        return str(roots[0].uri)


mcp = FastMCP("x")
Tools().register_all(mcp_server=mcp)
"""


def _run(tmp_path, imports: str, decorator: str):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    server = root / "pkg" / "server.py"
    server.write_text(textwrap.dedent(SERVER.format(imports=imports, decorator=decorator)))
    results = helpers.run_engine(root, select=["MR1"])
    return [(f.code, f.action.value) for r in results for f in r.findings], server.read_text()


def test_noop_a_project_decorator_named_mcp_tool_is_no_registrar(tmp_path):
    imports = "\n\ndef mcp_tool(**kw):\n    return lambda f: f\n\n\nclass MCPMixin:\n    pass\n"
    findings, text = _run(tmp_path, imports, '@mcp_tool(name="where")')
    assert findings == [("MR103", "marked")]
    assert "async def where(self, ctx: Context) -> str:" in text


@pytest.mark.parametrize(
    ("imports", "decorator"),
    [
        ("from fastmcp.contrib.mcp_mixin import MCPMixin, mcp_tool", '@mcp_tool(name="where_am_i")'),
        ("from fastmcp.contrib.mcp_mixin import MCPMixin, mcp_tool", "@mcp_tool()"),
        (
            "from fastmcp.contrib.mcp_mixin import MCPMixin\nfrom fastmcp.contrib import mcp_mixin",
            "@mcp_mixin.mcp_tool()",
        ),
        (
            "from fastmcp.contrib.mcp_mixin.mcp_mixin import MCPMixin, mcp_tool as tool",
            '@tool("where", description="The project.")',
        ),
    ],
)
def test_a_mixin_method_registered_by_mcp_tool_is_a_tool(tmp_path, imports, decorator):
    findings, text = _run(tmp_path, imports, decorator)
    assert findings == [("MR102", "rewritten")]
    assert "async def where(self, ctx: Context, root: RootPath = None) -> str:" in text
    assert 'roots = await list_roots_compat(ctx, root, name="root", shape="list")' in text
    assert helpers.flakes(text) == set()
