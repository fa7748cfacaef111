"""An existing path parameter is the explicit argument only where the read runs while it is empty (`if not
repo_path:`, `repo_path is None`, `repo_path or ...`). A read under `if not os.path.isabs(path):` runs while it
holds a relative path, which the shim refuses: before session 15 (sweep C, r01) every legacy call through it
failed; now the tool gets an argument of its own and the relative path stays relative to it."""

from __future__ import annotations

import pytest

from tests import helpers

SOURCE = """\
import os

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("files")


@mcp.tool()
async def list_dir(ctx: Context, {param}) -> list[str]:
    if {test}:
        result = await ctx.session.list_roots()
        path = os.path.join(result.roots[0].uri.path, path or ".")
    return sorted(os.listdir(path))
"""


def _run(tmp_path, param, test):
    (tmp_path / "server.py").write_text(SOURCE.format(param=param, test=test))
    helpers.run_engine(tmp_path)
    return (tmp_path / "server.py").read_text()


@pytest.mark.parametrize(
    ("param", "test"),
    [("path: str | None = None", "not path"), ("path: str | None = None", "path is None")],
)
def test_noop_an_emptiness_test_makes_the_parameter_the_argument(tmp_path, param, test):
    text = _run(tmp_path, param, test)
    assert "list_roots_compat(ctx, path" in text and "root: RootPath" not in text


@pytest.mark.parametrize(
    ("param", "test"),
    [
        ('path: str = "."', "not os.path.isabs(path)"),
        ("path: str | None = None", "path is None or not os.path.isabs(path)"),
        ('path: str = "."', "not path.startswith('/')"),
    ],
)
def test_any_other_test_of_it_gives_the_tool_its_own_argument(tmp_path, param, test):
    text = _run(tmp_path, param, test)
    assert 'list_roots_compat(ctx, root, name="root")' in text
    assert f"{param}, root: RootPath = None" in text
