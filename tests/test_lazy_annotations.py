"""The new parameter of a fastmcp tool that takes a `Context`, in a module under `from __future__ import
annotations`, is spelled with builtins only (`root: str | None = None`): fastmcp 2 resolves such a tool's
string annotations in its own module, where `RootPath` is unknown, and the server would not start (session 20,
sweep A r03; the SDK run is tests/e2e/fastmcp_lazy.py in test_e2e_decorator.py)."""

from __future__ import annotations

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


@pytest.mark.parametrize(
    ("future", "params", "ctx", "pyproject"),
    [
        ("", "ctx: Context", "ctx", None),  # annotations are objects: fastmcp 2 resolves nothing
        (FUTURE, "", "get_context()", None),  # no Context parameter: no wrapper, the tool's own module
        (FUTURE, "ctx: Context", "ctx", '[project]\nname = "p"\ndependencies = ["fastmcp>=3.2"]\n'),
        (FUTURE, "ctx: Context", "ctx", '[tool.poetry.dependencies]\nfastmcp = "^3.0"\n'),
    ],
    ids=["eager", "no-context", "fastmcp-3-floor", "poetry-3"],
)
def test_noop_the_alias_stays_where_fastmcp_resolves_it(tmp_path, future, params, ctx, pyproject):
    source = TOOL.format(future=future, params=params, ctx=ctx)
    if ctx == "get_context()":
        source = source.replace(
            "from fastmcp import", "from fastmcp.server.dependencies import get_context\nfrom fastmcp import"
        )
    text = migrated(tmp_path, source, pyproject)
    assert "root: RootPath = None" in text, text


@pytest.mark.parametrize(
    ("params", "pyproject"),
    [
        ("ctx: Context", None),
        ("ctx: 'Context'", None),
        ("ctx: Context, limit: int = 3", '[project]\nname = "p"\ndependencies = ["fastmcp>=2.10,<3"]\n'),
        ("ctx: Context", '[project]\nname = "p"\ndependencies = ["fastmcp"]\n'),
        ("ctx: Context", '[project]\nname = "p"\ndependencies = ["fastmcp-extras>=4", "fastmcp>=2"]\n'),
    ],
    ids=["no-pyproject", "string", "fastmcp-2-range", "no-bound", "other-package"],
)
def test_builtins_only_where_fastmcp_2_may_run_it(tmp_path, params, pyproject):
    text = migrated(tmp_path, TOOL.format(future=FUTURE, params=params, ctx="ctx"), pyproject)
    assert "root: str | None = None" in text, text
    assert "RootPath" not in text and "Annotated" not in text and "Field" not in text, text


@pytest.mark.parametrize(
    ("spec", "floor"),
    [
        ('dependencies = ["fastmcp>=3.2"]', (3, 2)),
        ('dependencies = ["fastmcp[openai] ~= 2.14"]', (2, 14)),
        ("dependencies = [\"fastmcp==4.0.1; python_version >= '3.10'\"]", (4, 0)),
        ('dependencies = ["fastmcp<3"]', None),
        ('dependencies = ["mcp>=1.2"]', None),
        ('dependencies = []\n[project.optional-dependencies]\nserver = ["fastmcp>=3"]', (3, 0)),
    ],
)
def test_the_fastmcp_floor_a_project_asks_for(tmp_path, spec, floor):
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "p"\n{spec}\n')
    (tmp_path / "pkg").mkdir()
    assert _lazy_annotations._fastmcp_floor(str(tmp_path / "pkg")) == floor
