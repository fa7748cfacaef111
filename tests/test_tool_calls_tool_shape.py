"""Session 17's sweep T, r01: a tool calling another tool whose own `path: str` is already its argument passed
its new list-shaped `root` (`RootPaths`) there, `ls(ctx, path=root)`: a TypeError for every call giving `root`.
A list goes into such a parameter as its first entry, the main workspace (`root[0] if root else None`: None
without the argument, so the callee reads roots as before). Noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

WORKSPACE = """\
from pathlib import Path

from mcp.server.fastmcp import Context


async def workspace_dir(ctx: Context) -> Path:
    result = await ctx.session.list_roots()
    if not result.roots:
        return Path.cwd()
    return Path(result.roots[0].uri.path)


async def resolve(ctx: Context, {param}: str | None) -> Path:
    if {param}:
        return Path({param})
    return await workspace_dir(ctx)
"""

TOOLS = """\
from mcp.server.fastmcp import Context, FastMCP

from .workspace import resolve, workspace_dir

mcp = FastMCP("files")


@mcp.tool()
async def where(ctx: Context) -> str:
    return str(await workspace_dir(ctx))


@mcp.tool()
async def ls(ctx: Context, {param}: str | None = None) -> list[str]:
    d = await resolve(ctx, {param})
    return sorted(p.name for p in d.iterdir())


@mcp.tool()
async def summary(ctx: Context) -> str:
    {body}
"""


def _run(tmp_path, body: str, param: str = "path") -> str:
    root = helpers.package(
        tmp_path,
        {"workspace.py": WORKSPACE.format(param=param), "tools.py": TOOLS.format(param=param, body=body)},
    )
    helpers.run_engine(root, select=["MR1"])
    text = (root / "pkg" / "tools.py").read_text()
    assert not helpers.flakes(text)
    return text


def test_noop_a_call_giving_the_callees_path_is_left_alone(tmp_path):
    text = _run(tmp_path, "return f\"{await where(ctx)}: {len(await ls(ctx, path='/srv'))}\"")
    assert "await ls(ctx, path='/srv')" in text
    assert "await where(ctx, root=root)" in text  # list to list: passed as it is


@pytest.mark.parametrize(
    ("body", "param", "expected"),
    [
        (
            'names = await ls(ctx)\n    return f"{await where(ctx)}: {len(names)}"',
            "path",
            "ls(ctx, path=root[0] if root else None)",
        ),
        (
            'return f"{await where(ctx)}: {len(await ls(ctx))}"',
            "path",
            "ls(ctx, path=root[0] if root else None)",
        ),
        (
            'names = await ls(ctx)\n    return f"{await where(ctx)}: {len(names)}"',
            "directory",
            "ls(ctx, directory=root[0] if root else None)",
        ),
    ],
)
def test_a_list_root_goes_into_a_single_path_as_its_first(tmp_path, body, param, expected):
    text = _run(tmp_path, body, param)
    assert "async def summary(ctx: Context, root: RootPaths = None)" in text
    assert expected in text
    assert "await where(ctx, root=root)" in text
