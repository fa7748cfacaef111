"""A signature ruff already laid out with all its parameters on one indented line (`(\\n    a, b\\n)`) keeps
that layout when the new parameter joins it, or is laid one a line with a trailing comma when the line grows too
long (sweep S, r02: the new parameter went on a line of its own and the project's `ruff format --check` failed).
A call the rewrite makes too long is laid out as ruff would (tests/test_layout.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import helpers

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


@mcp.tool()
async def where_is_the_workspace_of_this_project(
    ctx: Context, pattern: str = "*", limit: int = 10
) -> str:
    result = await ctx.session.list_roots()
    return f"{result.roots[0].uri} {pattern} {limit}"


async def _helper_with_a_rather_long_name_for_the_test(
    ctx: Context, pattern: str = "*", limit: int = 10
) -> str:
    result = await ctx.session.list_roots()
    return f"{result.roots[0].uri} {pattern} {limit}"


@mcp.tool()
async def through(ctx: Context) -> str:
    return await _helper_with_a_rather_long_name_for_the_test(ctx)
"""


def _apply(tmp_path, width: int, check: str = "pkg/server.py", source: str = SERVER) -> str:
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pyproject.toml").write_text(f"[tool.ruff]\nline-length = {width}\n")
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(source)
    formatted = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--no-cache", "--check", "pkg"], cwd=proj
    )
    assert formatted.returncode == 0  # the project was formatted before
    helpers.run_engine(proj, select=["MR1"])
    text = (proj / "pkg" / "server.py").read_text()
    if not check:
        return text
    after = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--no-cache", "--check", check],
        cwd=proj,
        capture_output=True,
        text=True,
    )
    assert after.returncode == 0, after.stdout
    return (proj / "pkg" / "server.py").read_text()


def test_noop_a_signature_one_a_line_keeps_that_layout(tmp_path):
    exploded = SERVER.replace(
        '    ctx: Context, pattern: str = "*", limit: int = 10\n) -> str:\n    result',
        '    ctx: Context,\n    pattern: str = "*",\n    limit: int = 10,\n) -> str:\n    result',
        1,
    )
    (tmp_path / "server.py").write_text(exploded)
    helpers.run_engine(tmp_path, select=["MR1"])
    assert (
        "    limit: int = 10,\n    root: RootPath = None,\n) -> str:" in (tmp_path / "server.py").read_text()
    )


@pytest.mark.parametrize("width", [88, 100])
def test_the_new_parameter_joins_the_line_when_it_fits(tmp_path, width):
    text = _apply(tmp_path, width)
    assert '\n    ctx: Context, pattern: str = "*", limit: int = 10, root: RootPath = None\n) -> str:' in text
    assert (
        '\n    ctx: Context, pattern: str = "*", limit: int = 10, root: str | None = None\n) -> str:' in text
    )


def test_a_line_grown_too_long_is_laid_one_a_line(tmp_path):
    """At 72 columns the helper's call grows too long too: its statement is laid out as ruff would
    (codemods/_layout.py), so the project's `ruff format --check` still passes."""
    text = _apply(tmp_path, 72)
    assert (
        "    return await _helper_with_a_rather_long_name_for_the_test(\n        ctx, root=root\n    )"
        in text
    )
    assert (
        '(\n    ctx: Context,\n    pattern: str = "*",\n    limit: int = 10,\n    root: RootPath = None,\n) -> str:'
        in text
    )


KEYWORD_ONLY = SERVER.replace(
    "_for_the_test(\n    ctx: Context, pattern", "_for_the_test(\n    ctx: Context, *, pattern"
)


def test_a_keyword_only_signature_grown_too_long_is_laid_out_as_ruff_would(tmp_path):
    """`*` and keyword-only parameters: ruff's plain layouts do not take them, black does (the field's
    code-indexing-mcp: `_startup_roots(ctx, *, discover=False, indexes=False)` went past 100 columns)."""
    text = _apply(tmp_path, 72, source=KEYWORD_ONLY)
    assert (
        '    ctx: Context,\n    *,\n    pattern: str = "*",\n    limit: int = 10,\n    root: str | None = None,\n) -> str:'
        in text
    )
