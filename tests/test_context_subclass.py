"""A project's own Context subclass with a `list_roots` method (mcp-use's shape).

    class Context(FastMCPContext):              # pkg/context.py
        async def list_roots(self):
            return (await self.session.list_roots()).roots

    @mcp.tool()
    async def where(ctx: Context) -> str:       # pkg/server.py
        roots = await ctx.list_roots()

The tool's call is no SDK read (mcp's Context has no `list_roots`): it is a call of the project's method, so
the tool takes the argument and hands it to the method, whose read is rewritten. Before, the tool was silent
and the method was marked MR103 with the false reason that no tool reaches it.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers
from tests.test_roots_call import ALIAS_LIST, aliases

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

CONTEXT = """\
        from mcp.server.fastmcp import Context as FastMCPContext


        class Context(FastMCPContext):
            async def list_roots(self):
                result = await self.{session}.list_roots()
                return result.roots
        """
CONTEXT_AFTER = """\
        from mcp.server.fastmcp import Context as FastMCPContext

        from {compat} import list_roots_compat


        class Context(FastMCPContext):
            async def list_roots(self, root: list[str] | None = None):
                result = await list_roots_compat(self{via}, root, name="root")
                return result.roots
        """

SERVER = """\
        from mcp.server.fastmcp import FastMCP

        {imports}
        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: {annotation}) -> str:
            roots = await ctx.list_roots()
            return str(roots[0].uri)
        """
SERVER_AFTER = """\
        from typing import Annotated

        from mcp.server.fastmcp import FastMCP
        from pydantic import Field

        {imports}
{aliases}
        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: {annotation}, root: RootPaths = None) -> str:
            roots = await ctx.list_roots(root=root)
            return str(roots[0].uri)
        """


def test_noop_a_list_roots_method_of_the_project_that_reads_no_roots(tmp_path):
    context = """\
        from mcp.server.fastmcp import Context as FastMCPContext


        class Context(FastMCPContext):
            async def list_roots(self):
                return ["/srv"]
        """
    server = SERVER.format(imports="from .context import Context\n", annotation="Context")
    assert not check_noop(tmp_path, server, extra={"context.py": context})


def _subclass(tmp_path, imports: str, annotation: str, session: str = "session", compat: str = "pkg") -> None:
    via = "" if session == "session" else f".{session.rpartition('.')[0]}"
    check_transformed(
        tmp_path,
        SERVER.format(imports=imports, annotation=annotation),
        SERVER_AFTER.format(imports=imports.rstrip("\n"), annotation=annotation, aliases=aliases(ALIAS_LIST)),
        extra={"context.py": CONTEXT.format(session=session)},
        extra_after={"context.py": CONTEXT_AFTER.format(compat=f"{compat}._mcp_roots_compat", via=via)},
    )


def test_subclass_imported_relatively(tmp_path):
    _subclass(tmp_path, "from .context import Context\n", "Context")


def test_subclass_imported_absolutely_under_another_name(tmp_path):
    _subclass(tmp_path, "from pkg.context import Context as AppContext\n", "AppContext")


def test_subclass_reached_through_its_module(tmp_path):
    _subclass(tmp_path, "from pkg import context\n", "context.Context")


def test_subclass_reading_through_the_request_context(tmp_path):
    _subclass(tmp_path, "from .context import Context\n", "Context", session="request_context.session")


OVERRIDE = """\
        from {module} import Context as BaseContext


        class Context(BaseContext):
            async def list_roots(self):
                roots = await {call}.list_roots()
                return [r for r in roots if r.uri.startswith("file://")]
        """


@pytest.mark.parametrize("module", ["fastmcp", "mcp.server.fastmcp", "fastmcp.server.context"])
@pytest.mark.parametrize("call", ["super()", "super(Context, self)"])
def test_override_reading_through_super_is_marked(tmp_path, module, call):
    # The SDK's read in an override: no tool argument reaches it; it used to be silent (rule 1).
    context = OVERRIDE.format(module=module, call=call)
    findings = check_noop(tmp_path, context, write=False)
    assert [f.code for f in findings] == ["MR103"]
    assert f"`{call}.list_roots()` in `Context.list_roots`, a method of a subclass" in findings[0].message


def test_noop_super_list_roots_of_a_class_not_built_on_the_sdk(tmp_path):
    source = """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        class Tree:
            def list_roots(self):
                return ["/"]


        class Forest(Tree):
            def list_roots(self):
                return super().list_roots() + ["/srv"]
        """
    assert check_noop(tmp_path, source, write=False) == []
