"""The new parameter of a fastmcp tool that takes a `Context`, in a module under `from __future__ import
annotations`, is spelled with builtins only (`root: str | None = None`): fastmcp 2 resolves such a tool's
string annotations in its own module, where `RootPath` is unknown, and the server would not start (session 20,
sweep A r03; the SDK run is tests/e2e/fastmcp_lazy.py in test_e2e_decorator.py)."""

from __future__ import annotations

import re

import pytest

from migrate_roots.codemods import _lazy_annotations
from tests import helpers

TOOL = """\
{future}from fastmcp import Context, FastMCP

mcp = FastMCP("x")


@mcp.tool
async def where({params}) -> str:
    roots = await {ctx}.list_roots()
    return str(roots[0].uri)
"""
FUTURE = "from __future__ import annotations\n\n"


def migrated(tmp_path, source: str, pyproject: str | None = None) -> str:
    root = helpers._layout(tmp_path, source, None, True)
    if pyproject is not None:
        (root / "pyproject.toml").write_text(pyproject)
    results = helpers.run_engine(root)
    assert not [r for r in results if r.status.value == "failed"]
    return (root / "pkg" / "server.py").read_text()


MCP_TOOL = TOOL.replace(
    "from fastmcp import Context, FastMCP", "from mcp.server.fastmcp import Context, FastMCP"
)


@pytest.mark.parametrize(
    ("source", "pyproject"),
    [
        (TOOL.format(future="", params="ctx: Context", ctx="ctx"), None),  # annotations are objects
        (
            TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx"),
            '[project]\nname = "p"\ndependencies = ["fastmcp>=3.2"]\n',
        ),
        (
            TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx"),
            '[tool.poetry.dependencies]\nfastmcp = "^3.0"\n',
        ),
        (
            MCP_TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx.session"),
            None,
        ),  # the mcp SDK's module
    ],
    ids=["eager", "fastmcp-3-floor", "poetry-3", "mcp-sdk-module"],
)
def test_noop_the_alias_stays_where_fastmcp_2_cannot_read_it(tmp_path, source, pyproject):
    text = migrated(tmp_path, source, pyproject)
    assert re.search(r"root: RootPaths? = None", text), text


ALIASED = TOOL.replace("from fastmcp import Context, FastMCP", "from fastmcp import Context as Ctx, FastMCP")
TRIED = TOOL.replace(
    "from fastmcp import Context, FastMCP",
    "try:\n    from fastmcp import Context, FastMCP\nexcept ImportError:\n"
    "    from mcp.server.fastmcp import Context, FastMCP",
)


@pytest.mark.parametrize(
    ("source", "pyproject"),
    [
        (TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx"), None),
        (TOOL.format(future=FUTURE, params="ctx: 'Context'", ctx="ctx"), None),
        (ALIASED.format(future=FUTURE, params="ctx: Ctx", ctx="ctx"), None),
        (TRIED.format(future=FUTURE, params="ctx: Context", ctx="ctx"), None),
        (
            TOOL.format(future=FUTURE, params="ctx: Context, limit: int = 3", ctx="ctx"),
            '[project]\nname = "p"\ndependencies = ["fastmcp>=2.10,<3"]\n',
        ),
        (
            TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx"),
            '[project]\nname = "p"\ndependencies = ["fastmcp"]\n',
        ),
        (
            TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx"),
            '[project]\nname = "p"\ndependencies = ["fastmcp-extras>=4", "fastmcp>=2"]\n',
        ),
        (
            TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx"),
            '[tool.poetry.dependencies]\nfastmcp = "^2.14 || ^3.0"\n',
        ),
        (
            MCP_TOOL.format(future=FUTURE, params="ctx: Context", ctx="ctx.session"),
            '[project]\nname = "p"\ndependencies = ["fastmcp>=2"]\n',
        ),
    ],
    ids=[
        "no-pyproject",
        "string",
        "alias",
        "try-import",
        "fastmcp-2-range",
        "no-bound",
        "other-package",
        "poetry-either",
        "mcp-module-fastmcp-project",
    ],
)
def test_builtins_only_where_fastmcp_2_may_read_it(tmp_path, source, pyproject):
    text = migrated(tmp_path, source, pyproject)
    assert re.search(r"root: (str|list\[str\]) \| None = None", text), text
    assert "RootPath" not in text and "Annotated" not in text and "Field" not in text, text


def test_a_module_without_an_sdk_import_gets_builtins(tmp_path):
    """sweep C r02: a Context subclass of the project, imported from `app.py` with the server object."""
    root = helpers._layout(
        tmp_path,
        FUTURE
        + "from pkg.app import AppContext, mcp\n\n\n@mcp.tool\nasync def where(ctx: AppContext) -> str:\n"
        "    roots = await ctx.list_roots()\n    return str(roots[0].uri)\n",
        {
            "app.py": "from fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\nclass AppContext(Context):\n    pass\n"
        },
        True,
    )
    helpers.run_engine(root)
    assert "root: str | None = None" in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    ("spec", "floor"),
    [
        ('dependencies = ["fastmcp>=3.2"]', (3, 2)),
        ('dependencies = ["fastmcp[openai] ~= 2.14"]', (2, 14)),
        ("dependencies = [\"fastmcp==4.0.1; python_version >= '3.10'\"]", (4, 0)),
        ('dependencies = ["fastmcp<3"]', None),
        ('dependencies = ["mcp>=1.2"]', _lazy_annotations._NO_FASTMCP),
        ('dependencies = ["fastmcp>=2.14,<4"]', (2, 14)),
        ('dependencies = []\n[project.optional-dependencies]\nserver = ["fastmcp>=3"]', (3, 0)),
    ],
)
def test_the_fastmcp_floor_a_project_asks_for(tmp_path, spec, floor):
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "p"\n{spec}\n')
    (tmp_path / "pkg").mkdir()
    assert _lazy_annotations._fastmcp_floor(str(tmp_path / "pkg")) == floor
