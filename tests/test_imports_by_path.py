"""A package module that may be run by its path (`python pkg/server.py`, `fastmcp run pkg/server.py`) imports
the compatibility module in both forms, so it still starts (session 20, sweep B r05). The SDK runs are the
`-pkg` cases of test_e2e_decorator.py, where the driver runs the server by its path."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest

from migrate_roots.codemods import _imports_by_path
from tests import helpers

SERVER = """\
{imports}from mcp.server.fastmcp import Context, FastMCP

{server}

@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
{main}"""
BUILT = 'mcp = FastMCP("x")\n'
MAIN = '\n\nif __name__ == "__main__":\n    mcp.run()\n'
DUAL = """\
if TYPE_CHECKING or __package__:
    from ._mcp_roots_compat import list_roots_compat
else:  # run by its path: its own folder is on sys.path
    from _mcp_roots_compat import list_roots_compat
"""


def migrated(tmp_path, source: str, package: bool = True, extra: dict[str, str] | None = None) -> str:
    root = helpers._layout(tmp_path, source, extra, package)
    results = helpers.run_engine(root)
    assert not [r for r in results if r.status.value == "failed"]
    text = (root / "pkg" / "server.py" if package else root / "server.py").read_text()
    assert "list_roots_compat(ctx, root" in text, text
    return text


# --- the import stays in one form -----------------------------------------------------------------------


def test_noop_module_that_imports_its_package_relatively(tmp_path):
    source = SERVER.format(imports="from .util import NAME\n", server=BUILT, main=MAIN)
    text = migrated(tmp_path, source, extra={"util.py": "NAME = 1\n"})
    assert "from ._mcp_roots_compat import list_roots_compat\n" in text
    assert "__package__" not in text and "TYPE_CHECKING" not in text


def test_noop_module_that_imports_its_package_absolutely(tmp_path):
    source = SERVER.format(imports="from pkg.util import NAME\n", server=BUILT, main=MAIN)
    text = migrated(tmp_path, source, extra={"util.py": "NAME = 1\n"})
    assert "from pkg._mcp_roots_compat import list_roots_compat\n" in text
    assert "__package__" not in text


def test_noop_module_that_shows_no_way_to_run_it(tmp_path):
    source = """\
    from mcp.server.fastmcp import Context, FastMCP


    def register(mcp: FastMCP) -> None:
        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
    """
    text = migrated(tmp_path, source)
    assert "from pkg._mcp_roots_compat import list_roots_compat\n" in text
    assert "__package__" not in text


def test_noop_loose_module(tmp_path):
    text = migrated(tmp_path, SERVER.format(imports="", server=BUILT, main=MAIN), package=False)
    assert "from _mcp_roots_compat import list_roots_compat\n" in text
    assert "__package__" not in text


def test_noop_module_deeper_in_the_package(tmp_path):
    source = SERVER.format(imports="", server=BUILT, main=MAIN)
    root = helpers.package(tmp_path, {"sub/__init__.py": "", "sub/server.py": source})
    helpers.run_engine(root)
    text = (root / "pkg" / "sub" / "server.py").read_text()
    assert "from pkg._mcp_roots_compat import list_roots_compat\n" in text
    assert "__package__" not in text


# --- both forms -------------------------------------------------------------------------------------------


def test_main_block(tmp_path):
    text = migrated(tmp_path, SERVER.format(imports="", server=BUILT, main=MAIN))
    assert text.startswith("from typing import TYPE_CHECKING, Annotated\n\n")
    assert "from pydantic import Field\n\n" + DUAL + "\n# Explicit directory arguments" in text


def test_main_block_spelled_the_other_way(tmp_path):
    main = "\n\nif '__main__' == __name__:\n    mcp.run()\n"
    assert DUAL in migrated(tmp_path, SERVER.format(imports="", server=BUILT, main=main))


def test_noop_server_built_at_module_level_without_main_block(tmp_path):
    """Most such modules are imported, or run with `python -m`: the plain import reads better there."""
    text = migrated(tmp_path, SERVER.format(imports="", server=BUILT, main=""))
    assert "from pkg._mcp_roots_compat import list_roots_compat\n" in text
    assert "__package__" not in text


def test_whole_run_is_idle_the_second_time(tmp_path):
    helpers.check_transformed(
        tmp_path,
        SERVER.format(imports="", server=BUILT, main=MAIN),
        migrated(tmp_path / "first", SERVER.format(imports="", server=BUILT, main=MAIN)),
    )


def test_low_level_server(tmp_path):
    source = textwrap.dedent(
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")


        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="where", description="d", inputSchema={"type": "object", "properties": {}})]


        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            result = await server.request_context.session.list_roots()
            return [types.TextContent(type="text", text=str(result.roots[0].uri))]


        if __name__ == "__main__":
            pass
        """
    )
    root = helpers._layout(tmp_path, source, None, True)
    helpers.run_engine(root)
    text = (root / "pkg" / "server.py").read_text()
    # the schema's property constant is a declaration of ours: after the imports, the block among them
    assert "from mcp.server.lowlevel import Server\n\n" + DUAL + "\n# The explicit directory argument" in text


# --- the edit itself ----------------------------------------------------------------------------------------


def _dual(source: str, single: bool = False) -> str:
    module = cst.parse_module(textwrap.dedent(source))
    changed = _imports_by_path.dual_import("._compat", "pkg", single)(module)
    assert isinstance(changed, cst.Module)
    return changed.code


def test_names_of_every_spelling_join_one_block():
    assert _dual(
        """\
        import os
        from pkg._compat import list_roots_compat
        from ._compat import RootsArgumentError, list_roots_compat

        x = 1
        """
    ) == textwrap.dedent(
        """\
        import os
        if TYPE_CHECKING or __package__:
            from ._compat import RootsArgumentError, list_roots_compat
        else:  # run by its path: its own folder is on sys.path
            from _compat import RootsArgumentError, list_roots_compat

        x = 1
        """
    )


def test_a_later_name_joins_the_block_one_name_a_statement():
    assert _dual(
        """\
        if TYPE_CHECKING or __package__:
            from ._compat import list_roots_compat
        else:  # run by its path: its own folder is on sys.path
            from _compat import list_roots_compat
        from ._compat import RootsArgumentError
        """,
        single=True,
    ) == textwrap.dedent(
        """\
        if TYPE_CHECKING or __package__:
            from ._compat import RootsArgumentError
            from ._compat import list_roots_compat
        else:  # run by its path: its own folder is on sys.path
            from _compat import RootsArgumentError
            from _compat import list_roots_compat
        """
    )


def test_an_aliased_import_is_left_alone():
    source = "from ._compat import list_roots_compat as lrc\n"
    assert _dual(source) == source


def test_a_module_a_script_beside_it_imports_by_its_bare_name(tmp_path):
    """sweep G r15 (session 21): `server.py` (run by its path) does `from tools import register`; the read is in
    `tools.py`, a top-level module then, where `from pkg._mcp_roots_compat` would not resolve."""
    tools = """\
    from mcp.server.fastmcp import Context, FastMCP


    def register(mcp: FastMCP) -> None:
        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
    """
    server = 'from mcp.server.fastmcp import FastMCP\n\nfrom tools import register\n\nmcp = FastMCP("x")\n'
    server += 'register(mcp)\n\nif __name__ == "__main__":\n    mcp.run()\n'
    root = helpers.package(tmp_path, {"tools.py": tools, "server.py": server})
    helpers.run_engine(root)
    assert DUAL in (root / "pkg" / "tools.py").read_text()
    assert (root / "pkg" / "server.py").read_text() == server


@pytest.mark.parametrize(
    ("flag", "dual"),
    [
        ("from typing_extensions import TYPE_CHECKING\n", True),  # used as it is, not imported again
        ("TYPE_CHECKING = False\n", False),  # a flag of its own, maybe bound after the imports: plain import
    ],
    ids=["typing-extensions", "own-flag"],
)
def test_a_type_checking_name_the_module_binds_already(tmp_path, flag, dual):
    """sweep G r16 (session 21): before, `from typing import TYPE_CHECKING` was added beside it (F811), or
    beside an assignment mypy then refused."""
    text = migrated(tmp_path, SERVER.format(imports=flag, server=BUILT, main=MAIN))
    assert (DUAL in text) is dual, text
    assert "from typing import TYPE_CHECKING" not in text
    assert not helpers.flakes(text)
