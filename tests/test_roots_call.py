"""MR101-MR106: tools of decorator-based servers get an explicit path argument."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers
from tests.helpers import codes

# One rule family, one test file: other families have their own tests (and tests/test_examples.py runs all).
check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

ALIAS_ONE = """\
RootPath = Annotated[
    str | None,
    Field(
        description="Absolute path (or file:// URI) of the directory this tool works "
        "in, usually the project or workspace root. Required when the MCP client does "
        "not provide roots."
    ),
]
"""
ALIAS_LIST = """\
RootPaths = Annotated[
    list[str] | None,
    Field(
        description="Absolute paths (or file:// URIs) of the directories this tool may "
        "work in; the first is the main workspace. Required when the MCP client does "
        "not provide roots."
    ),
]
"""
COMMENT = (
    "# Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,\n# SEP-2577).\n"
)


def aliases(*blocks: str, indent: str = "        ") -> str:
    """The alias block the rewrite inserts after the imports, indented like the test's expected text."""
    text = "\n" + COMMENT + "".join(blocks)
    return "".join(indent + line if line.strip() else line for line in text.splitlines(keepends=True))


# A tool in server.py that reaches roots through `project_dir` in workspace.py, before and after.
HELPER_TOOL = """\
        from mcp.server.fastmcp import Context, FastMCP
        from .workspace import project_dir

        mcp = FastMCP("x")

        @mcp.tool()
        async def ls(ctx: Context) -> str:
            return str(await project_dir(ctx))
        """
HELPER_TOOL_AFTER = f"""\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field
        from .workspace import project_dir
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        @mcp.tool()
        async def ls(ctx: Context, root: RootPath = None) -> str:
            return str(await project_dir(ctx, root=root))
        """


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
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
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
        from typing import Annotated

        from mcp.server import fastmcp as fm
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_LIST)}
        server = fm.FastMCP("x")

        @server.tool(name="folders")
        async def folders(c: fm.Context, root: RootPaths = None) -> list[str]:
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
        from typing import Annotated

        from fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        @mcp.tool
        async def first(ctx: Context, root: RootPath = None) -> str:
            roots = await list_roots_compat(ctx, root, name="root", shape="list")
            return str(roots[0].uri)
        """,
    )


def test_helper_chain_across_files(tmp_path):
    check_transformed(
        tmp_path,
        HELPER_TOOL,
        HELPER_TOOL_AFTER,
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

            from pkg._mcp_roots_compat import list_roots_compat

            async def project_dir(ctx: Context, root: str | None = None):
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

        from pkg._mcp_roots_compat import list_roots_compat

        mcp = FastMCP("x")

        @mcp.tool()
        async def status(ctx: Context, repo_path: str | None = None) -> str:
            if repo_path is None:
                result = await list_roots_compat(ctx, repo_path, name="repo_path")
                repo_path = str(result.roots[0].uri)
            return repo_path
""",
    )


@pytest.mark.parametrize(
    ("guard", "given"),
    [
        ("    if repo_path is not None:\n        return repo_path\n", "repo_path"),
        ("    if repo_path:\n        return repo_path\n", "repo_path or None"),
        ("    if repo_path:\n        return repo_path\n    elif False:\n        pass\n", None),
    ],
    ids=["early-return-is-not-none", "early-return-truthy", "not-leaving"],
)
def test_existing_path_param_returned_early_is_reused(tmp_path, guard, given):
    """`if repo_path: return repo_path` before the read (the helpers' sweep): the read runs only when the
    argument is unset, so it is the argument; an empty string passes a truthiness test and the shim refuses
    '', so the read gets `repo_path or None`. A guard that does not always leave is no such test."""
    before = (
        'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.tool()\n'
        "async def where(ctx: Context, repo_path: str | None = None) -> str:\n"
        f"{guard}    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    )
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(before)
    helpers.run_engine(root, select=["MR1"])
    text = (root / "pkg" / "server.py").read_text()
    if given is None:
        assert "root: RootPath = None" in text
    else:
        assert "async def where(ctx: Context, repo_path: str | None = None) -> str:" in text
        assert f'result = await list_roots_compat(ctx, {given}, name="repo_path")' in text
    assert [r for r in helpers.run_engine(root, select=["MR1"]) if r.changed] == []


def test_existing_path_param_tested_for_truth_passes_none_for_an_empty_string(tmp_path):
    """`if not repo_path:` lets `''` reach the read, which asked the client before; the shim refuses ''."""
    before = (
        'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("x")\n\n\n@mcp.tool()\n'
        'async def where(ctx: Context, repo_path: str = "") -> str:\n    if not repo_path:\n'
        "        result = await ctx.session.list_roots()\n        repo_path = str(result.roots[0].uri)\n"
        "    return repo_path\n"
    )
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(before)
    helpers.run_engine(root, select=["MR1"])
    text = (root / "pkg" / "server.py").read_text()
    assert 'result = await list_roots_compat(ctx, repo_path or None, name="repo_path")' in text


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
            # migrate-roots: MR103: roots read in `on_ready`, which is not a tool and which no
            #   call migrate-roots can follow reaches (unused, a handler, called from outside
            #   the package, or called through a value it cannot type, such as a method of an
            #   object a function returns): if a tool reaches it, give that tool a path argument
            #   by hand
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
                # migrate-roots: MR105: this code treats 'client has no roots' (None)
                #   differently from 'empty list': decide what an absent path argument means
                #   here
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


def test_old_python_target_spells_optional(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def every(ctx: Context) -> int:
            result = await ctx.session.list_roots()
            return len(result.roots)
        """,
        f"""\
        from typing import List, Optional

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field
        from typing_extensions import Annotated

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_LIST.replace("list[str] | None", "Optional[List[str]]"))}
        mcp = FastMCP("x")

        @mcp.tool()
        async def every(ctx: Context, root: RootPaths = None) -> int:
            result = await list_roots_compat(ctx, root, name="root")
            return len(result.roots)
        """,
        settings={"target-version": "3.8"},
    )
    assert codes(findings) == ["MR101"]


def test_mcp2_add_tool_get_context_and_timeouts(tmp_path):
    check_transformed(
        tmp_path,
        """\
        import asyncio

        from mcp.server.mcpserver import MCPServer

        server = MCPServer("y")

        async def first():
            ctx = server.get_context()
            try:
                res = await asyncio.wait_for(ctx.session.list_roots(), timeout=2.0)
            except Exception:
                return None
            return res.roots[0]

        async def plain() -> str:
            return str(await first())

        server.add_tool(plain)
        """,
        f"""\
        import asyncio
        from typing import Annotated

        from mcp.server.mcpserver import MCPServer
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        server = MCPServer("y")

        async def first(root: str | None = None):
            ctx = server.get_context()
            try:
                res = await asyncio.wait_for(
                    list_roots_compat(ctx, root, name="root"), timeout=2.0
                )
            except Exception:
                return None
            return res.roots[0]

        async def plain(root: RootPath = None) -> str:
            return str(await first(root=root))

        server.add_tool(plain)
        """,
    )


def test_fastmcp_get_context_without_ctx_param(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from fastmcp import FastMCP
        from fastmcp.server.dependencies import get_context

        mcp = FastMCP("x")

        @mcp.tool
        async def names() -> list[str]:
            roots = await get_context().list_roots()
            return [r.name for r in roots]
        """,
        f"""\
        from typing import Annotated

        from fastmcp import FastMCP
        from fastmcp.server.dependencies import get_context
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_LIST)}
        mcp = FastMCP("x")

        @mcp.tool
        async def names(root: RootPaths = None) -> list[str]:
            roots = await list_roots_compat(get_context(), root, name="root", shape="list")
            return [r.name for r in roots]
        """,
    )


def test_shared_helper_kwonly_and_kwargs(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def base(ctx):
            result = await ctx.session.list_roots()
            return result.roots[0].uri

        async def middle(ctx, *, strict: bool = False):
            return await base(ctx)

        @mcp.tool()
        async def a(x: int, *, ctx: Context) -> str:
            return str(await middle(ctx))

        @mcp.tool()
        async def b(ctx: Context, **extra) -> str:
            return f"{await middle(ctx)}{await base(ctx)}"
        """,
        f"""\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        async def base(ctx, root: str | None = None):
            result = await list_roots_compat(ctx, root, name="root")
            return result.roots[0].uri

        async def middle(ctx, *, strict: bool = False, root: str | None = None):
            return await base(ctx, root=root)

        @mcp.tool()
        async def a(x: int, *, ctx: Context, root: RootPath = None) -> str:
            return str(await middle(ctx, root=root))

        @mcp.tool()
        async def b(ctx: Context, root: RootPath = None, **extra) -> str:
            return f"{{await middle(ctx, root=root)}}{{await base(ctx, root=root)}}"
        """,
    )


def test_wrapper_decorator_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import functools
        from mcp.server.fastmcp import Context

        def with_roots(fn):
            @functools.wraps(fn)
            async def wrapper(ctx: Context, *args):
                roots = await ctx.session.list_roots()
                return await fn(roots, *args)
            return wrapper
        """,
        """\
        import functools
        from mcp.server.fastmcp import Context

        def with_roots(fn):
            @functools.wraps(fn)
            async def wrapper(ctx: Context, *args):
                # migrate-roots: MR104: roots read in a decorator that wraps tools; give each
                #   wrapped tool a path argument
                roots = await ctx.session.list_roots()
                return await fn(roots, *args)
            return wrapper
""",
    )
    assert codes(findings) == ["MR104"]


def test_synthesized_signature_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import inspect
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def generated(ctx: Context, **kwargs):
            return (await ctx.session.list_roots()).roots[0].uri

        generated.__signature__ = inspect.Signature([])
        mcp.add_tool(generated, name="gen")
        """,
        """\
        import inspect
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def generated(ctx: Context, **kwargs):
            # migrate-roots: MR104: tool `gen`, registered by `mcp.add_tool(generated)`
            #   (server.py:15), is built at run time with a synthesized `__signature__`: its
            #   inputSchema is not its code, so migrate-roots cannot add a path argument; check
            #   that the signature declares one (add it by hand if not) and that its value
            #   reaches this read
            return (await ctx.session.list_roots()).roots[0].uri

        generated.__signature__ = inspect.Signature([])
        mcp.add_tool(generated, name="gen")
""",
    )
    assert codes(findings) == ["MR104"]


@pytest.mark.parametrize(
    ("imports", "decorated", "register"),
    [
        ("import functools", "@functools.wraps(fn)", "mcp.tool()(wrapper)"),
        ("from functools import wraps", "@wraps(fn)", "mcp.tool()(wrapper)"),
        ("import functools as ft", "@ft.wraps(fn)", "mcp.add_tool(wrapper)"),
        ("import functools", "@mcp.tool()\n    @functools.wraps(fn)", ""),
    ],
)
def test_a_tool_made_by_wraps_is_marked_not_given_a_parameter(tmp_path, imports, decorated, register):
    # The SDK follows `__wrapped__`: the schema is `fn`'s, so a `root` added to the wrapper is never offered,
    # and a client passing it is told the argument is missing (gtags-server's `workspace_tool`).
    from tests.helpers import run_engine

    (tmp_path / "server.py").write_text(
        f"""\
{imports}
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")


async def first_root():
    listing = await mcp.get_context().session.list_roots()
    return listing.roots[0].uri


def workspace_tool(fn):
    {decorated}
    async def wrapper(**kwargs):
        return fn(await first_root(), **kwargs)

    {register}
    return fn
"""
    )
    results = run_engine(tmp_path, select=["MR1"])
    findings = [f for r in results for f in r.findings]
    assert codes(findings) == ["MR104"]
    assert "is a wrapper made with" in findings[0].message and "wrapped function" in findings[0].message
    text = (tmp_path / "server.py").read_text()
    assert "async def wrapper(**kwargs):" in text and "async def first_root():" in text


def test_captured_session_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _session = None

        async def remember(ctx: Context):
            global _session
            _session = ctx.session

        @mcp.tool()
        async def count() -> int:
            res = await _session.list_roots()
            return len(res.roots)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _session = None

        async def remember(ctx: Context):
            global _session
            _session = ctx.session

        @mcp.tool()
        async def count() -> int:
            # migrate-roots: MR103: roots read through `_session`, a session held in a global or
            #   on an object, which may outlive the request (or belong to another client): no
            #   tool argument reaches it; take the session (or a path argument) from the request
            #   that needs the roots
            res = await _session.list_roots()
            return len(res.roots)
""",
    )
    assert codes(findings) == ["MR103"]


def test_python_314_syntax_is_accepted(tmp_path):
    """PEP 695 aliases and generics, PEP 758 bare except lists, PEP 750 t-strings parse and survive."""
    check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        type Paths = list[str]
        mcp = FastMCP("x")

        def first[T](items: list[T]) -> T:
            return items[0]

        @mcp.tool()
        async def where(ctx: Context) -> str:
            try:
                result = await ctx.session.list_roots()
            except TimeoutError, LookupError:
                return t"none"
            return str(first(result.roots).uri)
        """,
        f"""\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_LIST)}
        type Paths = list[str]
        mcp = FastMCP("x")

        def first[T](items: list[T]) -> T:
            return items[0]

        @mcp.tool()
        async def where(ctx: Context, root: RootPaths = None) -> str:
            try:
                result = await list_roots_compat(ctx, root, name="root")
            except TimeoutError, LookupError:
                return t"none"
            return str(first(result.roots).uri)
        """,
    )


def test_global_cache_guard_is_not_none_versus_empty(tmp_path):
    """`if _cache is None` means "not fetched yet", not "no roots capability": no MR105 refusal. The cache
    stays (its rule, MR211, is not selected here), so a path argument would be read once and then ignored:
    marked under the site's own code, never silent. With MR211 selected the cache goes and the site is
    rewritten (tests/test_roots_cache.py)."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _cache = None

        @mcp.tool()
        async def where(ctx: Context) -> str:
            global _cache
            if _cache is None:
                _cache = (await ctx.session.list_roots()).roots
            return str(_cache[0].uri)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _cache = None

        @mcp.tool()
        async def where(ctx: Context) -> str:
            global _cache
            if _cache is None:
                # migrate-roots: MR101: roots read behind `_cache`, a module cache that stays
                #   (the cache rule, MR211, is not selected): a path argument here would be read
                #   when the cache is filled and ignored while it holds; select MR211 or remove
                #   the cache by hand, then run again
                _cache = (await ctx.session.list_roots()).roots
            return str(_cache[0].uri)
""",
    )
    assert codes(findings) == ["MR101"]
    assert "MR211, is not" in findings[0].message


def test_exploded_signature_keeps_its_layout(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(
            pattern: str,
            ctx: Context,
        ) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """,
        f"""\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        @mcp.tool()
        async def where(
            pattern: str,
            ctx: Context,
            root: RootPath = None,
        ) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """,
    )


def test_existing_path_param_handed_to_the_roots_helper_is_reused(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def resolve(ctx: Context, explicit: str | None):
            try:
                return (await ctx.session.list_roots()).roots[0].uri
            except Exception:
                return explicit

        @mcp.tool()
        async def where(ctx: Context, repo_root: str | None = None) -> str:
            return str(await resolve(ctx, repo_root))
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        from pkg._mcp_roots_compat import list_roots_compat

        mcp = FastMCP("x")

        async def resolve(ctx: Context, explicit: str | None):
            try:
                return (
                    (await list_roots_compat(ctx, explicit or None, name="repo_root"))
                    .roots[0]
                    .uri
                )
            except Exception:
                return explicit

        @mcp.tool()
        async def where(ctx: Context, repo_root: str | None = None) -> str:
            return str(await resolve(ctx, repo_root))
""",
    )
    # The helper's own parameter carries the tool's argument there: no second parameter (issue 17, item 6).
    assert codes(findings) == ["MR101"]


def test_run_interrupted_between_files_is_completed(tmp_path):
    """The helper's file was rewritten by a killed run, the tool's was not: the next run finishes the tool."""
    findings = check_transformed(
        tmp_path,
        HELPER_TOOL,
        HELPER_TOOL_AFTER,
        extra={
            "workspace.py": """\
            from mcp.server.fastmcp import Context

            from pkg._mcp_roots_compat import list_roots_compat

            async def project_dir(ctx: Context, root: str | None = None):
                result = await list_roots_compat(ctx, root, name="root")
                return result.roots[0].uri
""",
            "_mcp_roots_compat.py": '"""Compatibility helper for MCP servers moving off "roots" (stub)."""\n\n'
            "async def list_roots_compat(ctx, value, *, name='root', shape='result'):\n    return None\n",
        },
        extra_after={
            "workspace.py": """\
            from mcp.server.fastmcp import Context

            from pkg._mcp_roots_compat import list_roots_compat

            async def project_dir(ctx: Context, root: str | None = None):
                result = await list_roots_compat(ctx, root, name="root")
                return result.roots[0].uri
"""
        },
    )
    assert [f for f in findings if f.code in ("MR101", "MR106", "MR107")] == []


# --- shapes of the field sweep of 2026-12-03 ----------------------------------------------------------------


def _run(tmp_path, server: str, extra: dict[str, str] | None = None, write: bool = False):
    root = helpers._layout(tmp_path, server, extra, True)
    results = helpers.run_engine(root, write=write)
    return root, [f for r in results for f in r.findings]


def test_the_argument_goes_to_the_helper_not_to_a_method_of_its_result(tmp_path):
    """`first_root(ctx).iterdir()` is two calls that start at one place: `root=root` belongs to `first_root`
    (measured: it was added to `iterdir`, a TypeError on every call, legacy clients too)."""
    server = (
        "from pathlib import Path\n\nimport anyio\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\ndef first_root(ctx: Context) -> Path:\n'
        "    async def fetch():\n        return await ctx.session.list_roots()\n\n"
        "    result = anyio.from_thread.run(fetch)\n    return Path(result.roots[0].uri.path)\n\n\n"
        "@mcp.tool()\ndef list_files(ctx: Context) -> list[str]:\n"
        "    return sorted(p.name for p in first_root(ctx).iterdir())\n"
    )
    root, found = _run(tmp_path, server, write=True)
    text = (root / "pkg" / "server.py").read_text()
    assert "first_root(ctx, root=root).iterdir()" in text, text
    assert "iterdir(root=" not in text
    assert codes(found) == ["MR101", "MR107"]


def test_a_read_whose_roots_are_chosen_by_name_is_marked(tmp_path):
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n@mcp.tool()\nasync def find_config(ctx: Context) -> str:\n'
        "    result = await ctx.session.list_roots()\n    for r in result.roots:\n"
        '        if r.name.startswith("config"):\n            return str(r.uri)\n    return ""\n\n\n'
        "@mcp.tool()\nasync def first(ctx: Context) -> str:\n"
        "    result = await ctx.session.list_roots()\n    return 'main' if result.roots[0].name == 'main' else ''\n\n\n"
        "@mcp.tool()\nasync def base_names(ctx: Context) -> str:\n"
        "    result = await ctx.session.list_roots()\n"
        "    return ', '.join(Path(r.uri.path).name for r in result.roots)\n"
    )
    _, found = _run(tmp_path, server)
    assert [(f.line, f.code, f.action.value) for f in found] == [
        (8, "MR101", "marked"),
        (17, "MR101", "marked"),
        (23, "MR101", "rewritten"),  # `Path(...).name` is a file name, not the root's
    ]
    assert found[0].message.startswith("this function reads the roots' names, `r.name` (server.py:10)")
    assert "`result.roots[0].name` (server.py:18)" in found[1].message


@pytest.mark.parametrize(
    "subject",
    ["root.name", "(root.name)", "(root.name, str(root.uri))"],
)
def test_roots_matched_by_name_carry_values_not_directories(tmp_path, subject):
    """semanticworkbench's memory servers: `match root.name: case "session-id": session_id = root.uri.host`
    picks a storage key out of a named root. A path argument's roots have no name, so its value would be
    ignored (and with it the per-session key): marked, never rewritten."""
    case = '"session-id"' if subject.count(",") == 0 else '("session-id", _)'
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n@mcp.tool()\nasync def recall(ctx: Context) -> str:\n'
        "    result = await ctx.session.list_roots()\n    session_id = ''\n    for root in result.roots:\n"
        f"        match {subject}:\n            case {case}:\n"
        "                session_id = (root.uri.host or '').strip('/')\n    return session_id\n"
    )
    root, found = _run(tmp_path, server, write=True)
    assert [(f.line, f.code, f.action.value) for f in found] == [(8, "MR101", "marked")]
    assert found[0].message.startswith("this function reads the roots' names, `")
    assert "root.name" in found[0].message and "(server.py:11)" in found[0].message
    assert "root: " not in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    "test",
    [
        'root.uri.host == "workspace"',
        '"workspace" == root.uri.host',
        'root.uri.host in ("workspace", "repo")',
    ],
)
def test_roots_told_apart_by_their_uri_host_are_marked(tmp_path, test):
    """semanticworkbench's filesystem-edit server: a root whose URI host is `workspace` switches the server to
    client-resource mode. A path argument's roots are `file://` URIs with no host, so that test would never
    hold: marked, never rewritten."""
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n@mcp.tool()\nasync def mode(ctx: Context) -> str:\n'
        "    result = await ctx.session.list_roots()\n    for root in result.roots:\n"
        f"        if {test}:\n            return 'client resources'\n    return 'files'\n"
    )
    root, found = _run(tmp_path, server, write=True)
    assert [(f.line, f.code, f.action.value) for f in found] == [(8, "MR101", "marked")]
    assert found[0].message.startswith("this function tells roots apart by their URI's host, `root.uri.host`")
    assert "root: " not in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    "use",
    [
        "return f'.files/{result.roots[0].uri.host}'",
        "folder = Path('.files') / result.roots[0].uri.host\n    return str(folder)",
        "for root in result.roots:\n        key = root.uri.host\n        return key\n    return ''",
    ],
    ids=["f-string", "path", "loop-value"],
)
def test_roots_whose_uri_host_is_used_as_a_value_are_marked(tmp_path, use):
    """EnterpriseAI-Client: the client sends `file://{conversation_id}` and the tool keeps each conversation's
    files under `.files/{host}`. A path argument's roots (and the operator's directories, MR110) have no
    host: every conversation would share `.files/None`. Marked, never rewritten."""
    server = (
        "from pathlib import Path\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n@mcp.tool()\nasync def folder(ctx: Context) -> str:\n'
        f"    result = await ctx.session.list_roots()\n    {use}\n"
    )
    root, found = _run(tmp_path, server, write=True)
    assert [(f.line, f.code, f.action.value) for f in found] == [(10, "MR101", "marked")], found
    assert found[0].message.startswith("this function uses the roots' URI host as a value, `")
    assert "root: " not in (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize("test", ['root.uri.host not in ("", "localhost")', "root.uri.host"])
def test_roots_whose_remote_hosts_are_skipped_are_still_rewritten(tmp_path, test):
    """Skipping a remote root (a host other than "" or "localhost") keeps every `file://` root from a path."""
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n@mcp.tool()\nasync def local(ctx: Context) -> str:\n'
        "    result = await ctx.session.list_roots()\n    for root in result.roots:\n"
        f"        if {test}:\n            continue\n        return str(root.uri)\n    return ''\n"
    )
    _, found = _run(tmp_path, server)
    assert [(f.line, f.code, f.action.value) for f in found] == [(8, "MR101", "rewritten")]


def test_a_raw_roots_request_is_marked_never_silent(tmp_path):
    server = (
        "import mcp.types as types\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n'
        "    result = await ctx.session.send_request(\n"
        "        types.ServerRequest(types.ListRootsRequest()), types.ListRootsResult\n    )\n"
        "    return str(result.roots[0].uri)\n"
    )
    root, found = _run(tmp_path, server, write=True)
    assert [(f.line, f.code, f.action.value) for f in found] == [(9, "MR101", "marked")]
    assert "raw request" in found[0].message
    assert (
        "move it to the server's configuration instead: a tool argument is shown to the model"
        in found[0].message
    )
    assert "root: " not in (root / "pkg" / "server.py").read_text()


def test_noop_a_users_own_list_roots_in_an_mcp_module_stays_silent(tmp_path):
    server = (
        "from mcp.server.fastmcp import FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\nclass Tree:\n    def list_roots(self) -> list:\n        return []\n\n\n'
        "def own(tree: Tree) -> list:\n    forest = Tree()\n    return forest.list_roots() + tree.list_roots()\n"
    )
    _, found = _run(tmp_path, server)
    assert found == []


def test_a_session_held_on_an_object_is_marked(tmp_path):
    server = (
        "import mcp.types as types\nfrom mcp.server.fastmcp import FastMCP\n\n"
        'mcp = FastMCP("x")\n\n\nclass State:\n    host_session = None\n\n\nstate = State()\n\n\n'
        "async def roots_for_child(_ctx) -> types.ListRootsResult:\n    host = state.host_session\n"
        "    return await host.list_roots()\n\n\n"
        "async def direct() -> types.ListRootsResult:\n    return await state.host_session.list_roots()\n"
    )
    _, found = _run(tmp_path, server)
    assert [(f.line, f.code) for f in found] == [(16, "MR103"), (20, "MR103")]
    assert found[0].message.startswith("roots read through `host`, a session held on an object")


@pytest.mark.parametrize(
    "use",
    [
        "listed = session.list_roots()\n    return [r.uri for r in listed.roots]",
        "return [r.uri for r in session.list_roots().roots]",
        "for r in session.list_roots().roots:\n        return r.uri",
    ],
)
def test_a_synchronous_list_roots_call_is_marked_not_made_async(tmp_path, use):
    # bioimage-mcp's permission check: its own adapter's `list_roots()` is synchronous. The async shim in its
    # place gave an un-awaited coroutine, no roots, and every path refused.
    from tests.helpers import run_engine

    (tmp_path / "server.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n"
        f"def allowed(session):\n    {use}\n\n\n"
        "@mcp.tool()\nasync def where(ctx: Context) -> str:\n    return str(allowed(ctx.session))\n"
    )
    results = run_engine(tmp_path, select=["MR1"])
    findings = [f for r in results for f in r.findings]
    assert codes(findings) == ["MR103"]
    assert "is called without `await` in the synchronous function `allowed`" in findings[0].message
    assert "list_roots_compat" not in (tmp_path / "server.py").read_text()


@pytest.mark.parametrize(
    ("init", "read"),
    [
        ("self._session: ServerSession | None = None", "self._session.list_roots()"),
        ("self._session: Optional[ServerSession] = None", "self._session.list_roots()"),
        ("self._held = session", "self._held.list_roots()"),
        ("self._ctx: Context | None = None", "self._ctx.session.list_roots()"),
    ],
)
def test_a_session_kept_on_a_private_attribute_is_marked(tmp_path, init, read):
    # Dev10x-Claude's holder: the session of one request kept on an object that later reads roots through it.
    # `self.session` was marked by its name; a private or other name was silent.
    from tests.helpers import run_engine

    (tmp_path / "server.py").write_text(
        "from typing import Optional\n\n"
        "from mcp.server.fastmcp import Context, FastMCP\nfrom mcp.server.session import ServerSession\n\n"
        "app = FastMCP('x')\n\n\nclass Folders:\n"
        f"    def __init__(self, session: ServerSession | None = None) -> None:\n        {init}\n\n"
        f"    async def first(self) -> str:\n        res = await {read}\n        return str(res.roots[0].uri)\n\n\n"
        "shared = Folders()\n\n\n@app.tool()\nasync def show(ctx: Context) -> str:\n"
        "    return await shared.first()\n"
    )
    results = run_engine(tmp_path, select=["MR1"])
    findings = [f for r in results for f in r.findings]
    assert codes(findings) == ["MR103"], findings
    assert "a session held in a global or on an object" in findings[0].message


def test_a_wrapper_a_factory_returns_names_the_factory_not_the_wrapped_template(tmp_path):
    # playwright-python-mcp: `_factory` returns `run`, made with `@wraps(_template)`; the tools get a
    # synthesized `__signature__` where they are registered. `_template` is never called: advice to give "each
    # tool it wraps" a parameter pointed at the wrong place.
    from tests.helpers import run_engine

    (tmp_path / "server.py").write_text(
        "from functools import wraps\nfrom inspect import Parameter, Signature\n\n"
        "from fastmcp import Context, FastMCP\n\napp = FastMCP('gen')\n\n\n"
        "async def _template(**_kw):\n    raise RuntimeError('never called')\n\n\n"
        "async def _first_root(ctx):\n    found = await ctx.list_roots()\n    return str(found[0].uri)\n\n\n"
        "def _factory(name):\n    @wraps(_template)\n    async def run(**kw):\n"
        "        return name + await _first_root(kw.pop('ctx'))\n\n    return run\n\n\n"
        "for tool_name in ('shout', 'whisper'):\n    fn = _factory(tool_name)\n"
        "    fn.__signature__ = Signature([Parameter('ctx', Parameter.KEYWORD_ONLY, annotation=Context)])\n"
        "    app.tool(name=tool_name)(fn)\n"
    )
    findings = [f for r in run_engine(tmp_path, select=["MR1"]) for f in r.findings]
    assert codes(findings) == ["MR104"], findings
    message = findings[0].message
    assert "which `_factory` returns made with `@wraps(_template)`" in message, message
    assert "give each tool it wraps" not in message, message


@pytest.mark.parametrize(
    ("handler", "test", "rewritten"),
    [
        ("except Exception:", "if result is not None and result.roots:", True),
        ("except (McpError, ValueError):", "if result is None or not result.roots:", True),
        ("except:", "if result is not None and result.roots:", True),
        # the rewrite widens it to the shim's error (sweep L r01 of session 22; was marked before)
        ("except McpError:", "if result is not None and result.roots:", True),
        ("except Exception:", "if result is not None and not result.roots:", False),  # told apart
    ],
    ids=["exception", "both-errors-or", "bare", "sdk-error-only", "told-apart"],
)
def test_none_on_failure_under_a_handler_of_the_shims_error(tmp_path, handler, test, rewritten):
    """sweep H r05 (session 21): `try: result = await <read> except Exception: result = None`, then None and an
    empty list taking one branch: a request without the argument takes that branch as the failing call did."""
    body = "return str(result.roots[0].uri)" if "not result.roots" not in test else "return 'empty'"
    source = f"""\
from mcp.server.fastmcp import Context, FastMCP
from mcp.shared.exceptions import McpError

mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    try:
        result = await ctx.session.list_roots()
    {handler}
        result = None
    {test}
        {body}
    return "/fallback"
"""
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == (
        [("MR101", "rewritten")] if rewritten else [("MR105", "marked")]
    ), findings
