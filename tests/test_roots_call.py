"""MR101-MR106: tools of decorator-based servers get an explicit path argument."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes

ANN = (
    'Annotated[str | None, Field(description="Absolute path (or file:// URI) of the directory this tool works '
    'in, usually the project or workspace root. Required when the MCP client does not provide roots.")]'
)
ANN_LIST = (
    'Annotated[list[str] | None, Field(description="Absolute paths (or file:// URIs) of the directories this '
    'tool may work in; the first is the main workspace. Required when the MCP client does not provide roots.")]'
)


# --- noop cases first ------------------------------------------------------------------------------------


def test_noop_user_list_roots_method(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        class Repo:
            async def list_roots(self):
                return []

        async def main(repo: Repo):
            return await repo.list_roots()
        """,
    )
    assert findings == []


def test_noop_ctx_that_is_not_mcp(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP
        from myapp import AppContext

        mcp = FastMCP("x")

        async def helper(ctx: AppContext):
            return await ctx.session.list_roots()
        """,
    )
    assert findings == []


def test_noop_no_roots(tmp_path):
    assert check_noop(tmp_path, "from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n") == []


# --- rewrites --------------------------------------------------------------------------------------------


def test_direct_session_call_first_root(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """,
        f"""\
        from mcp.server.fastmcp import Context, FastMCP
        from ._mcp_roots_compat import list_roots_compat
        from pydantic import Field
        from typing import Annotated

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context, root: {ANN} = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """,
    )
    assert codes(findings) == ["MR101"]
    assert findings[0].action.value == "rewritten"


def test_list_use_gets_list_param_and_aliased_imports(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from mcp.server import fastmcp as fm

        server = fm.FastMCP("x")

        @server.tool(name="folders")
        async def folders(c: fm.Context) -> list[str]:
            res = await c.request_context.session.list_roots()
            return [str(r.uri) for r in res.roots]
        """,
        f"""\
        from mcp.server import fastmcp as fm
        from ._mcp_roots_compat import list_roots_compat
        from pydantic import Field
        from typing import Annotated

        server = fm.FastMCP("x")

        @server.tool(name="folders")
        async def folders(c: fm.Context, root: {ANN_LIST} = None) -> list[str]:
            res = await list_roots_compat(c.request_context, root, name="root")
            return [str(r.uri) for r in res.roots]
        """,
    )


def test_fastmcp_ctx_list_roots_keeps_list_shape(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool
        async def first(ctx: Context) -> str:
            roots = await ctx.list_roots()
            return str(roots[0].uri)
        """,
        f"""\
        from fastmcp import Context, FastMCP
        from ._mcp_roots_compat import list_roots_compat
        from pydantic import Field
        from typing import Annotated

        mcp = FastMCP("x")

        @mcp.tool
        async def first(ctx: Context, root: {ANN} = None) -> str:
            roots = await list_roots_compat(ctx, root, name="root", shape="list")
            return str(roots[0].uri)
        """,
    )


def test_helper_chain_across_files(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from .workspace import project_dir

        mcp = FastMCP("x")

        @mcp.tool()
        async def ls(ctx: Context) -> str:
            return str(await project_dir(ctx))
        """,
        f"""\
        from mcp.server.fastmcp import Context, FastMCP
        from .workspace import project_dir
        from pydantic import Field
        from typing import Annotated

        mcp = FastMCP("x")

        @mcp.tool()
        async def ls(ctx: Context, root: {ANN} = None) -> str:
            return str(await project_dir(ctx, root=root))
        """,
        extra={
            "workspace.py": """\
            from mcp.server.fastmcp import Context

            async def project_dir(ctx: Context):
                result = await ctx.session.list_roots()
                return result.roots[0].uri
            """
        },
        extra_after={
            "workspace.py": """\
            from mcp.server.fastmcp import Context
            from ._mcp_roots_compat import list_roots_compat

            async def project_dir(ctx: Context, root=None):
                result = await list_roots_compat(ctx, root, name="root")
                return result.roots[0].uri
            """
        },
    )


def test_existing_path_param_is_reused(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def status(ctx: Context, repo_path: str | None = None) -> str:
            if repo_path is None:
                result = await ctx.session.list_roots()
                repo_path = str(result.roots[0].uri)
            return repo_path
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from ._mcp_roots_compat import list_roots_compat

        mcp = FastMCP("x")

        @mcp.tool()
        async def status(ctx: Context, repo_path: str | None = None) -> str:
            if repo_path is None:
                result = await list_roots_compat(ctx, repo_path, name="repo_path")
                repo_path = str(result.roots[0].uri)
            return repo_path
        """,
    )


# --- refusals --------------------------------------------------------------------------------------------


def test_roots_at_startup_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def on_ready(ctx: Context):
            await ctx.session.list_roots()
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def on_ready(ctx: Context):
            # migrate-roots: MR103: roots read outside any tool call found in the package (startup, handler, unused helper): nothing can pass a path argument here
            await ctx.session.list_roots()
        """,
    )
    assert codes(findings) == ["MR103"]


def test_none_versus_empty_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def read(path: str, ctx: Context) -> str:
            try:
                roots = (await ctx.session.list_roots()).roots
            except Exception:
                roots = None
            if roots is not None and not roots:
                raise ValueError("no access")
            return path
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def read(path: str, ctx: Context) -> str:
            try:
                # migrate-roots: MR105: this code treats 'client has no roots' (None) differently from 'empty list': decide what an absent path argument means here
                roots = (await ctx.session.list_roots()).roots
            except Exception:
                roots = None
            if roots is not None and not roots:
                raise ValueError("no access")
            return path
        """,
    )
    assert codes(findings) == ["MR105"]


def test_ignore_comment_silences(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        async def on_ready(ctx: Context):
            await ctx.session.list_roots()  # migrate-roots: ignore[MR103]
        """,
    )
    assert findings == []
