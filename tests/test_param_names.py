"""The new argument's name is free in the tool and every nested scope (issue 18, item 3).

Measured before the fix: `for root in ("a", "b"): ...` ahead of the roots read overwrote the new `root`
argument, so the shim received "b". The plan now takes the first free candidate (`root`, `root_path`,
`root_dir`, `root_arg`, ...) and the finding says so; a candidate that is already a parameter is reused.
"""

from __future__ import annotations

from functools import partial

from tests import helpers
from tests.test_roots_call import ALIAS_ONE, aliases

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

HEAD = """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
"""


def test_noop_existing_root_parameter_is_the_argument(tmp_path):
    """An existing `root` parameter (rebound in a loop or not) is the user's argument already: reused."""
    findings = helpers.check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context, root: str | None = None) -> str:
            result = await ctx.session.list_roots()
            return root or str(result.roots[0].uri)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        from pkg._mcp_roots_compat import list_roots_compat

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context, root: str | None = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return root or str(result.roots[0].uri)
        """,
        select=["MR1"],
    )
    assert "already a name" not in findings[0].message


def _tool(before_read: str, after_read: str = "") -> str:
    return f"""\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context) -> str:
{before_read}            result = await ctx.session.list_roots()
            return str(result.roots[0].uri){after_read}
        """


def _migrated(param: str, before_read: str, after_read: str = "") -> str:
    return f"""\
{HEAD}{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context, {param}: RootPath = None) -> str:
{before_read}            result = await list_roots_compat(ctx, {param}, name="{param}")
            return str(result.roots[0].uri){after_read}
        """


LOOP = """\
            for root in ("a", "b"):
                print(root)
"""
COMPREHENSION = """\
            names = [root.upper() for root in ("a", "b")]
"""
CLOSURE = """\
            def show(root):
                return root
"""
WALRUS_AND_ROOT_PATH = """\
            if (root := "x") and (root_path := "y"):
                print(root, root_path)
"""


def test_loop_variable_takes_the_next_name(tmp_path):
    findings = check_transformed(tmp_path, _tool(LOOP), _migrated("root_path", LOOP))
    assert "(`root` is already a name in `where`)" in findings[0].message


def test_comprehension_variable_takes_the_next_name(tmp_path):
    check_transformed(tmp_path, _tool(COMPREHENSION), _migrated("root_path", COMPREHENSION))


def test_nested_function_parameter_takes_the_next_name(tmp_path):
    check_transformed(tmp_path, _tool(CLOSURE), _migrated("root_path", CLOSURE))


def test_two_taken_names_take_the_third(tmp_path):
    check_transformed(tmp_path, _tool(WALRUS_AND_ROOT_PATH), _migrated("root_dir", WALRUS_AND_ROOT_PATH))


def test_global_read_by_the_tool_takes_the_next_name(tmp_path):
    before = _tool("            print(root)\n").replace(
        'mcp = FastMCP("x")', 'mcp = FastMCP("x")\n        root = "/srv"'
    )
    after = _migrated("root_path", "            print(root)\n").replace(
        'mcp = FastMCP("x")', 'mcp = FastMCP("x")\n        root = "/srv"'
    )
    check_transformed(tmp_path, before, after)


def test_attribute_and_keyword_named_root_do_not_count(tmp_path):
    body = "            print(ctx.root, dict(root=1))\n"
    check_transformed(tmp_path, _tool(body), _migrated("root", body))


def test_helper_with_a_local_root_gets_a_free_name_and_the_call_passes_it(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def first(ctx: Context) -> str:
            for root in ("a", "b"):
                print(root)
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await first(ctx)
        """,
        f"""\
{HEAD}{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        async def first(ctx: Context, root_path: str | None = None) -> str:
            for root in ("a", "b"):
                print(root)
            result = await list_roots_compat(ctx, root_path, name="root")
            return str(result.roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            return await first(ctx, root_path=root)
        """,
    )
    # The client passes `root` (the tool's name); the finding says so and why the helper holds it otherwise.
    read = next(f for f in findings if f.code == "MR101")
    assert (
        "reads the `root` argument (passed in as `root_path`: `root` is already a name in `first`)"
        in read.message
    )


def test_existing_root_with_a_value_of_its_own_is_not_the_argument(tmp_path):
    """`root: str = "src"` is a sub-folder of the workspace the roots give: reused, every call would hand the
    shim "src" (refused as relative, for legacy clients too: helpers' sweep, run on mcp 1.30). A parameter with
    a default other than None, or none at all, has a value of its own: the argument takes the next free name."""
    before = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def grep(pattern: str, ctx: Context, root: str = "src") -> list[str]:
            res = await ctx.session.list_roots()
            base = Path(str(res.roots[0].uri).removeprefix("file://"))
            return [str(p) for p in (base / root).rglob(pattern)]
        """
    findings = helpers.check_transformed(
        tmp_path,
        before,
        f"""\
        from pathlib import Path
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        @mcp.tool()
        async def grep(
            pattern: str, ctx: Context, root: str = "src", root_path: RootPath = None
        ) -> list[str]:
            res = await list_roots_compat(ctx, root_path, name="root_path")
            base = Path(str(res.roots[0].uri).removeprefix("file://"))
            return [str(p) for p in (base / root).rglob(pattern)]
        """,
        select=["MR1"],
    )
    assert "now reads the `root_path` argument (`root` is already a name in `grep`)" in findings[0].message
