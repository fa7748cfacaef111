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


HELPER = """\
import os

from mcp import types
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("papers")


async def _resolve(save_path: str, ctx: Context) -> str:
    if os.path.isabs(save_path):
        return save_path
    if not ctx.session.check_client_capability(types.ClientCapabilities(roots=types.RootsCapability())):
        return save_path
    result = await ctx.session.list_roots()
    return {returned}


@mcp.tool()
async def download(ctx: Context, save_path: str = "./downloads") -> str:
    return await _resolve(save_path, ctx)
"""


def _helper(tmp_path, returned):
    (tmp_path / "server.py").write_text(HELPER.format(returned=returned))
    helpers.run_engine(tmp_path)
    return (tmp_path / "server.py").read_text()


def test_noop_a_parameter_returned_in_place_of_the_roots_is_reused(tmp_path):
    """`return save_path` on one road, the first root on the other: the same value by two roads, and the
    capability test it skips is widened with the parameter in parentheses (`or` binds looser than `is`)."""
    text = _helper(tmp_path, "result.roots[0].uri.path")
    assert 'list_roots_compat(ctx, save_path or None, name="save_path")' in text
    assert "(save_path or None) is None" in text
    compile(text, "server.py", "exec")


def test_a_parameter_the_roots_are_joined_to_is_no_alternative_to_them(tmp_path):
    """Sweep E, r02 (a fork of paper-search-mcp): a relative `save_path` joined to the first root. Reused, the
    relative path became the directory, and the widened test (`save_path or None is None`, unparenthesised)
    skipped the roots for every legacy call."""
    text = _helper(tmp_path, "os.path.join(result.roots[0].uri.path, save_path)")
    assert 'list_roots_compat(ctx, root, name="root")' in text
    assert "save_path or None" not in text
    assert 'save_path: str = "./downloads", root: RootPath = None' in text
