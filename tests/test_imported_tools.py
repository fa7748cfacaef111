"""A function of another module registered as a tool (hiil: `mcp.tool(name="list_roots")(list_roots)` after
`from veda_engine.tools.roots import list_roots`, in a sibling top-level package).

Before, the function was "not a tool" (MR103, a false reason) and MR216 called it unused; now the model makes it
the tool: its read is rewritten and its signature takes the argument."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

ROOTS = """\
from mcp.server.fastmcp import Context


async def list_roots(ctx: Context) -> list[str]:
    result = await ctx.session.list_roots()
    return [str(r.uri) for r in result.roots]
"""


def _run(tmp_path, files: dict[str, str]):
    root = tmp_path / "proj"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    results = helpers.run_engine(root, select=["MR1", "MR2"])
    return [(f.code, f.action.value, f.message) for r in results for f in r.findings], root


def test_noop_a_function_imported_but_never_registered_stays_unreached(tmp_path):
    server = 'from mcp.server.fastmcp import FastMCP\n\nfrom .tools.roots import list_roots\n\nmcp = FastMCP("w")\n'
    files = {
        "pkg/__init__.py": "",
        "pkg/tools/__init__.py": "",
        "pkg/tools/roots.py": ROOTS,
        "pkg/main.py": server,
    }
    findings, _ = _run(tmp_path, files)
    assert [f[:2] for f in findings if f[0] == "MR103"] == [("MR103", "marked")], findings


@pytest.mark.parametrize(
    ("imports", "registration"),
    [
        ("from .tools.roots import list_roots", "mcp.tool()(list_roots)"),
        ("from .tools.roots import list_roots as listing", 'mcp.tool(name="list_roots")(listing)'),
        ("from pkg.tools.roots import list_roots", "mcp.add_tool(list_roots)"),
        # Through the module (session 15's sweep A, r03: "not a tool" before).
        ("from .tools import roots", "mcp.tool()(roots.list_roots)"),
        ("from .tools import roots", "mcp.add_tool(roots.list_roots)"),
        ("import pkg.tools.roots", "mcp.tool()(pkg.tools.roots.list_roots)"),
    ],
)
def test_a_function_of_another_module_registered_here_is_the_tool(tmp_path, imports, registration):
    server = f'from mcp.server.fastmcp import FastMCP\n\n{imports}\n\nmcp = FastMCP("w")\n{registration}\n'
    files = {
        "pkg/__init__.py": "",
        "pkg/tools/__init__.py": "",
        "pkg/tools/roots.py": ROOTS,
        "pkg/main.py": server,
    }
    findings, root = _run(tmp_path, files)
    assert [f[:2] for f in findings] == [("MR101", "rewritten")], findings
    text = (root / "pkg/tools/roots.py").read_text()
    assert "async def list_roots(ctx: Context, root: RootPaths = None) -> list[str]:" in text, text
    assert 'list_roots_compat(ctx, root, name="root")' in text, text


def test_registered_from_a_sibling_top_level_package(tmp_path):
    server = 'from eng.tools.roots import list_roots\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("w")\nmcp.tool()(list_roots)\n'
    files = {"eng/__init__.py": "", "eng/tools/__init__.py": "", "eng/tools/roots.py": ROOTS}
    files |= {"wsrv/__init__.py": "", "wsrv/main.py": server}
    findings, root = _run(tmp_path, files)
    assert ("MR101", "rewritten") in [f[:2] for f in findings], findings
    # A tool is no unused helper (session 15's sweep D, r01: MR216 said so, citing a file that names it).
    assert not [f for f in findings if f[0] == "MR216"], findings
    assert "root: RootPaths = None" in (root / "eng/tools/roots.py").read_text()


@pytest.mark.parametrize("collection", ["[list_files, grep]", "(list_files, grep)", "{list_files, grep}"])
def test_a_loop_over_a_list_of_tools_from_another_module_is_named(tmp_path, collection):
    """sweep A r04 (session 20): `for fn in ALL_TOOLS: mcp.add_tool(fn)` over a list of the tools package; the
    server module was never read, so MR103 said "none of them a tool" without naming that registration."""
    root = helpers.package(
        tmp_path,
        {
            "tools/__init__.py": f"from .files import grep, list_files\n\nALL_TOOLS = {collection}\n",
            "tools/files.py": (
                "from mcp.server.fastmcp import Context\n\n\nasync def _base(ctx: Context) -> str:\n"
                "    res = await ctx.session.list_roots()\n    return str(res.roots[0].uri)\n\n\n"
                "async def list_files(ctx: Context) -> str:\n    return await _base(ctx)\n\n\n"
                "async def grep(needle: str, ctx: Context) -> str:\n    return needle + await _base(ctx)\n"
            ),
            "server.py": (
                "from mcp.server.fastmcp import FastMCP\n\nfrom .tools import ALL_TOOLS\n\n"
                'mcp = FastMCP("x")\nfor fn in ALL_TOOLS:\n    mcp.add_tool(fn)\n'
            ),
        },
    )
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert [f.code for f in found] == ["MR103"], found
    assert "such as `mcp.add_tool(fn)` (pkg/server.py:7), may be that way" in found[0].message
