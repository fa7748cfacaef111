"""The program model (migrate_roots/codemods/program): server objects from elsewhere, tool registrations in
every form, contexts by data flow, existing path parameters reused, and markers that name the real reason.

Each shape once as a rewrite or a truthful marker; noop cases first (a `.tool` on something that is not an
MCP server object, a `list_roots` of something else). The rewrites are driven by real SDK clients in
tests/test_program_model_e2e.py.
"""

from __future__ import annotations

import pytest

from migrate_roots.codemods.program.model import ProgramModel
from tests import helpers
from tests.helpers import check_noop, check_transformed, codes

# --- noop cases first ------------------------------------------------------------------------------------


def test_tool_decorator_of_another_framework_is_no_tool(tmp_path):
    """`@api.tool` on an object of a third-party package, and a storage's own `list_roots()`: nothing."""
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP
        from plugin_host import api
        from storage import Storage

        mcp = FastMCP("x")
        store = Storage()

        @api.tool
        async def where() -> str:
            return str(store.list_roots())
        """,
    )
    assert findings == []


def test_tool_of_an_annotated_foreign_object_is_no_tool(tmp_path):
    """`register(app: Flask)`: annotated as something else, so not a server object."""
    findings = check_noop(
        tmp_path,
        """\
        from flask import Flask
        from mcp.server.fastmcp import Context


        def register(app: Flask) -> None:
            @app.tool
            async def where(ctx: Context) -> str:
                return "x"
        """,
    )
    assert findings == []


# --- rewrites and markers --------------------------------------------------------------------------------


def test_import(tmp_path):
    """`from ._mcp import mcp`: the server object of another module of the group."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context
        from ._mcp import mcp

        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context
        from pydantic import Field
        from ._mcp import mcp
        from ._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
""",
        extra={"_mcp.py": 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n'},
    )
    assert codes(findings) == ["MR101"]


def test_import_unparsed(tmp_path):
    """`from .app import mcp`, a module this run does not parse: the first-party import is trusted; the registered name is kept."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context
        from .app import mcp

        @mcp.tool(name="where-am-i")
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context
        from pydantic import Field
        from ._mcp_roots_compat import list_roots_compat
        from .app import mcp

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        @mcp.tool(name="where-am-i")
        async def where(ctx: Context, root: RootPath = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
""",
        extra={"app.py": 'from mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n'},
    )
    assert codes(findings) == ["MR101"]


def test_star(tmp_path):
    """`from .runtime import *` brings the server object and the helper that reads roots."""
    findings = check_transformed(
        tmp_path,
        """\
        from .runtime import *

        @mcp.tool
        async def where(ctx: Context) -> str:
            return await first_root(ctx)
        """,
        """\
        from typing import Annotated

        from pydantic import Field

        from .runtime import *

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        @mcp.tool
        async def where(ctx: Context, root: RootPath = None) -> str:
            return await first_root(ctx, root=root)
""",
        extra={
            "runtime.py": 'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("x")\n\n\nasync def first_root(ctx):\n    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n'
        },
    )
    assert codes(findings) == ["MR101", "MR107"]


def test_param(tmp_path):
    """`def register_tools(app: FastMCP)`: the annotation names the server object."""
    findings = check_transformed(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP


        def register_tools(app: FastMCP) -> None:
            @app.tool
            async def where(ctx: Context) -> str:
                roots = await ctx.list_roots()
                return str(roots[0].uri)
        """,
        """\
        from typing import Annotated

        from fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]


        def register_tools(app: FastMCP) -> None:
            @app.tool
            async def where(ctx: Context, root: RootPath = None) -> str:
                roots = await list_roots_compat(ctx, root, name="root", shape="list")
                return str(roots[0].uri)
""",
    )
    assert codes(findings) == ["MR102"]


def test_self_attr(tmp_path):
    """`self._mcp = mcp_instance` (annotated `FastMCP`), then `@self._mcp.tool` in a method."""
    findings = check_transformed(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP


        class Provider:
            def __init__(self, mcp_instance: FastMCP) -> None:
                self._mcp = mcp_instance

            def register(self) -> None:
                @self._mcp.tool
                async def where(ctx: Context) -> str:
                    roots = await ctx.list_roots()
                    return str(roots[0].uri)
        """,
        """\
        from typing import Annotated

        from fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]


        class Provider:
            def __init__(self, mcp_instance: FastMCP) -> None:
                self._mcp = mcp_instance

            def register(self) -> None:
                @self._mcp.tool
                async def where(ctx: Context, root: RootPath = None) -> str:
                    roots = await list_roots_compat(ctx, root, name="root", shape="list")
                    return str(roots[0].uri)
""",
    )
    assert codes(findings) == ["MR102"]


def test_unannotated_param(tmp_path):
    """A server object nothing shows: marked with the registration and its place."""
    findings = check_transformed(
        tmp_path,
        """\
        from fastmcp import Context


        def register(app):
            @app.tool
            async def where(ctx: Context) -> str:
                roots = await ctx.list_roots()
                return str(roots[0].uri)
        """,
        """\
        from fastmcp import Context


        def register(app):
            @app.tool
            async def where(ctx: Context) -> str:
                # migrate-roots: MR103: tool `where` is registered by `@app.tool` inside
                #   `register(app)` (pkg/server.py:5), whose server object cannot be resolved:
                #   roots read outside any tool call migrate-roots can see
                roots = await ctx.list_roots()
                return str(roots[0].uri)
""",
    )
    assert codes(findings) == ["MR103"]


def test_tool_call(tmp_path):
    """`mcp.tool()(fn)`: a registration by call."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)


        mcp.tool()(where)
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        mcp = FastMCP("x")


        async def where(ctx: Context, root: RootPath = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)


        mcp.tool()(where)
""",
    )
    assert codes(findings) == ["MR101"]


def test_add_tool_other_module(tmp_path):
    """`mcp.add_tool(fn)` on a server object imported from another module."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context
        from .app import mcp


        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)


        mcp.add_tool(where, name="where")
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context
        from pydantic import Field
        from ._mcp_roots_compat import list_roots_compat
        from .app import mcp

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]


        async def where(ctx: Context, root: RootPath = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)


        mcp.add_tool(where, name="where")
""",
    )
    assert codes(findings) == ["MR101"]


def test_getattr(tmp_path):
    """`getattr(ctx, "session", None)` is `ctx.session`, and `ctx: Any` says nothing against it."""
    findings = check_transformed(
        tmp_path,
        """\
        from typing import Any

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Any) -> str:
            session = getattr(ctx, "session", None)
            if session is None:
                return ""
            result = await session.list_roots()
            return str(result.roots[0].uri)
        """,
        """\
        from typing import Annotated, Any

        from mcp.server.fastmcp import FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPath = Annotated[
            str | None,
            Field(
                description="Absolute path (or file:// URI) of the directory this tool works "
                "in, usually the project or workspace root. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Any, root: RootPath = None) -> str:
            session = getattr(ctx, "session", None)
            if session is None:
                return ""
            result = await list_roots_compat(session, root, name="root")
            return str(result.roots[0].uri)
""",
    )
    assert codes(findings) == ["MR101"]


def test_closure(tmp_path):
    """A nested async function run by `anyio.from_thread.run` reads the enclosing function's `root`."""
    findings = check_transformed(
        tmp_path,
        """\
        import anyio
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def first_root(ctx: Context) -> str:
            async def _call():
                return await ctx.list_roots()

            roots = anyio.from_thread.run(_call)
            return str(roots[0].uri)


        @mcp.tool
        def where(ctx: Context) -> str:
            return first_root(ctx)
        """,
        """\
        from typing import Annotated

        import anyio
        from fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat

        # Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
        # SEP-2577).
        RootPaths = Annotated[
            list[str] | None,
            Field(
                description="Absolute paths (or file:// URIs) of the directories this tool may "
                "work in; the first is the main workspace. Required when the MCP client does "
                "not provide roots."
            ),
        ]

        mcp = FastMCP("x")


        def first_root(ctx: Context, root: list[str] | None = None) -> str:
            async def _call():
                return await list_roots_compat(ctx, root, name="root", shape="list")

            roots = anyio.from_thread.run(_call)
            return str(roots[0].uri)


        @mcp.tool
        def where(ctx: Context, root: RootPaths = None) -> str:
            return first_root(ctx, root=root)
""",
    )
    assert codes(findings) == ["MR102", "MR107"]


def test_guard_reuse(tmp_path):
    """Issue 17, item 6: the helper returns `explicit` when set: it is the roots call's value, no second argument."""
    findings = check_transformed(
        tmp_path,
        """\
        from pathlib import Path

        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def resolve(ctx: Context, explicit: str | None) -> Path:
            if explicit:
                return Path(explicit)
            roots = await ctx.list_roots()
            return Path(str(roots[0].uri))


        @mcp.tool
        async def search(ctx: Context, project_dir: str | None = None) -> str:
            return str(await resolve(ctx, project_dir))
        """,
        """\
        from pathlib import Path

        from fastmcp import Context, FastMCP

        from pkg._mcp_roots_compat import list_roots_compat

        mcp = FastMCP("x")


        async def resolve(ctx: Context, explicit: str | None) -> Path:
            if explicit:
                return Path(explicit)
            roots = await list_roots_compat(ctx, None, name="project_dir", shape="list")
            return Path(str(roots[0].uri))


        @mcp.tool
        async def search(ctx: Context, project_dir: str | None = None) -> str:
            return str(await resolve(ctx, project_dir))
""",
    )
    assert codes(findings) == ["MR102"]


def test_boundary_not_reused(tmp_path):
    """A path checked against the roots is a boundary, not their source: the existing path parameter is not
    reused as the roots, and since the roots bound what the tool may write, the read takes the operator's bound
    in place, with no argument (MR110)."""
    findings = check_transformed(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def check(ctx: Context, output_path: str | None) -> None:
            roots = await ctx.list_roots()
            if output_path and not any(output_path.startswith(str(r.uri)) for r in roots):
                raise ValueError("outside the roots")


        @mcp.tool
        async def download(ctx: Context, output_path: str | None = None) -> str:
            await check(ctx, output_path)
            return "ok"
        """,
        """\
        from fastmcp import Context, FastMCP

        from pkg._mcp_roots_compat import allowed_roots_compat

        mcp = FastMCP("x")


        async def check(ctx: Context, output_path: str | None) -> None:
            roots = await allowed_roots_compat(ctx, shape="list")
            if output_path and not any(output_path.startswith(str(r.uri)) for r in roots):
                raise ValueError("outside the roots")


        @mcp.tool
        async def download(ctx: Context, output_path: str | None = None) -> str:
            await check(ctx, output_path)
            return "ok"
""",
    )
    assert codes(findings) == ["MR110"]


def test_once(tmp_path):
    """A call made once per process behind a global flag cannot carry a per-call argument: marked, with the flag."""
    findings = check_transformed(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _DONE = False
        _ROOT = None


        async def first_root(ctx: Context) -> str:
            roots = await ctx.list_roots()
            return str(roots[0].uri)


        async def setup(ctx: Context) -> None:
            global _DONE, _ROOT
            if _DONE:
                return
            _ROOT = await first_root(ctx)
            _DONE = True


        @mcp.tool
        async def where(ctx: Context) -> str:
            await setup(ctx)
            return str(_ROOT)
        """,
        """\
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _DONE = False
        _ROOT = None


        async def first_root(ctx: Context) -> str:
            # migrate-roots: MR211: roots read in `first_root`, called by `setup`
            #   (pkg/server.py:21) once per process, behind the flag `_DONE`: a path argument
            #   would be read on the first call and ignored afterwards; read it per call, then
            #   run again
            roots = await ctx.list_roots()
            return str(roots[0].uri)


        async def setup(ctx: Context) -> None:
            global _DONE, _ROOT
            if _DONE:
                return
            _ROOT = await first_root(ctx)
            _DONE = True


        @mcp.tool
        async def where(ctx: Context) -> str:
            await setup(ctx)
            return str(_ROOT)
""",
    )
    assert codes(findings) == ["MR211"]


def test_handler(tmp_path):
    """A resource handler: MR103 names it and its registration."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.resource("roots://first")
        async def first(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.resource("roots://first")
        async def first(ctx: Context) -> str:
            # migrate-roots: MR103: roots read in the handler `first` registered by
            #   `@mcp.resource` (pkg/server.py:7), outside any tool call: a resource read
            #   carries no arguments beyond its URI: put the path in its URI template, by hand
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
""",
    )
    assert codes(findings) == ["MR103"]


def test_decorated(tmp_path):
    """A decorator migrate-roots does not know: MR103 names it rather than claiming no tool reaches the read."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        from .registry import section_tool

        mcp = FastMCP("x")


        async def first_root(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)


        @section_tool("files")
        async def where(ctx: Context) -> str:
            return await first_root(ctx)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        from .registry import section_tool

        mcp = FastMCP("x")


        async def first_root(ctx: Context) -> str:
            # migrate-roots: MR103: roots read in `first_root`, reached from `where`
            #   (pkg/server.py:18), decorated by `@section_tool("files")`, which migrate-roots
            #   does not know as a tool registration (a registrar of the project is not
            #   followed): if it registers a tool, give that tool a path argument by hand
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)


        @section_tool("files")
        async def where(ctx: Context) -> str:
            return await first_root(ctx)
""",
    )
    assert codes(findings) == ["MR103"]


def test_runtime_signature(tmp_path):
    """A tool built at run time with a synthesized `__signature__`: MR104 with its registration site."""
    findings = check_transformed(
        tmp_path,
        """\
        import inspect

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def make_tool(name: str):
            async def handler(ctx: Context, **kwargs) -> str:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)

            handler.__signature__ = inspect.signature(handler)
            return handler


        for name in ("a", "b"):
            mcp.add_tool(make_tool(name), name=name)
        """,
        """\
        import inspect

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def make_tool(name: str):
            async def handler(ctx: Context, **kwargs) -> str:
                # migrate-roots: MR104: tool `handler`, registered by
                #   `mcp.add_tool(make_tool(name))` (server.py:23), is built at run time with a
                #   synthesized `__signature__`: its inputSchema is not its code, so
                #   migrate-roots cannot add a path argument; check that the signature declares
                #   one (add it by hand if not) and that its value reaches this read
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)

            handler.__signature__ = inspect.signature(handler)
            return handler


        for name in ("a", "b"):
            mcp.add_tool(make_tool(name), name=name)
""",
    )
    assert codes(findings) == ["MR104"]


def test_value(tmp_path):
    """A function a factory returns (kept and called later): not a decorator, and MR103 says so."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def make_resolver():
            async def resolve(ctx: Context) -> str:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)

            return resolve


        RESOLVE = make_resolver()
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def make_resolver():
            async def resolve(ctx: Context) -> str:
                # migrate-roots: MR103: roots read in `resolve`, a function that `make_resolver`
                #   returns and its caller keeps and calls later: migrate-roots cannot see
                #   whether a tool call reaches it, or follow a path argument there
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)

            return resolve


        RESOLVE = make_resolver()
""",
    )
    assert codes(findings) == ["MR103"]


# --- every marker tells its own truth --------------------------------------------------------------------

_MARKED = {
    # case -> (the server module, the code expected, words its text must hold)
    "handler": (
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.resource("roots://first")
        async def first(ctx: Context) -> str:
            return str((await ctx.session.list_roots()).roots)
        """,
        "MR103",
        ("handler `first`", "@mcp.resource", "server.py:6"),
    ),
    "unused": (
        """\
        from mcp.server.fastmcp import Context

        async def lonely(ctx: Context) -> str:
            return str((await ctx.session.list_roots()).roots)
        """,
        "MR103",
        ("`lonely`", "no call migrate-roots can follow reaches"),
    ),
    "unresolved": (
        """\
        from mcp.server.fastmcp import Context

        def register(app):
            @app.tool()
            async def where(ctx: Context) -> str:
                return str((await ctx.session.list_roots()).roots)
        """,
        "MR103",
        ("tool `where`", "register(app)", "cannot be resolved"),
    ),
    "failure": (
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context) -> str:
            try:
                result = await ctx.session.list_roots()
            except RuntimeError:
                result = None
            return "" if result is None else str(result.roots)
        """,
        "MR105",
        ("when the call fails", "`result = None`"),
    ),
    "none_versus_empty": (
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            roots = result.roots
            if roots is None:
                return "any"
            return "none" if not roots else str(roots)
        """,
        "MR105",
        ("(None) differently from 'empty list'",),
    ),
}


def test_each_marker_names_its_case_and_no_two_codes_share_a_text(tmp_path):
    texts: dict[str, set[str]] = {}
    for case, (source, code, words) in _MARKED.items():
        root = helpers._layout(tmp_path / case, source, None, True)
        marked = [f for r in helpers.run_engine(root, write=False) for f in r.findings if f.code == code]
        assert len(marked) == 1, (case, marked)
        for word in words:
            assert word in marked[0].message, (case, word, marked[0].message)
        texts.setdefault(code, set()).add(marked[0].message)
    for code, mine in texts.items():
        for other, theirs in texts.items():
            assert other == code or not mine & theirs


@pytest.mark.parametrize(
    "alias",
    [
        "MCPContext = Context",
        "MCPContext = Context[ServerSession, None]",
        "MCPContext: TypeAlias = Context",
    ],
)
def test_context_type_alias_is_a_context(tmp_path, alias):
    """`ctx: MCPContext` where `MCPContext = Context` (a field server; 13 tools of another were missed): the
    alias names the SDK's context, so its session is this request's and the tool is rewritten."""
    findings = helpers.run_engine(
        helpers._layout(
            tmp_path,
            f"""\
            from typing import TypeAlias

            from mcp.server.fastmcp import Context, FastMCP
            from mcp.server.session import ServerSession

            {alias}
            mcp = FastMCP("x")


            @mcp.tool()
            async def where(ctx: MCPContext) -> str:
                session = ctx.request_context.session
                result = await session.list_roots()
                return str(result.roots[0].uri)
            """,
            None,
            True,
        ),
        select=["MR1"],
        write=False,
    )
    assert codes(f for r in findings for f in r.findings) == ["MR101"]


@pytest.mark.parametrize(
    ("imports", "decorator", "code", "words"),
    [
        ("import click", "@click.command()", "MR103", "decorated by `@click.command()`"),
        ("import click as c", "@c.group()", "MR103", "decorated by `@c.group()`"),
        ("import functools", "@functools.wraps(fn)", "MR104", "the wrapper a decorator puts around"),
        ("import functools as ft", "@ft.wraps(fn)", "MR104", "the wrapper a decorator puts around"),
    ],
)
def test_a_decorator_of_another_library_is_no_handler_registration(tmp_path, imports, decorator, code, words):
    """`@click.command()` and `@functools.wraps(fn)` decorate an imported module's way: no server object, so
    no 'handler registered by' (a marker said so). What stays is the decorator migrate-roots does not know."""
    source = f"""\
        {imports}
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def first_root(ctx: Context) -> str:
            return str((await ctx.session.list_roots()).roots[0].uri)


        def deco(fn):
            {decorator}
            async def inner(ctx: Context):
                return await fn(await first_root(ctx))

            return inner
        """
    root = helpers._layout(tmp_path, source, None, True)
    found = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [f.code for f in found] == [code], found
    assert words in found[0].message and "registered by" not in found[0].message, found[0].message


@pytest.mark.parametrize("param", ["prompt", "text"])
def test_a_returned_parameter_that_is_no_path_is_not_reused(tmp_path, param):
    """`except Exception: return prompt` returns the prompt in place of the roots: not the tools' path
    argument (reuse.py took it for one and passed `prompt or None` to the shim as the directory)."""
    source = f"""\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def enrich({param}: str, ctx: Context) -> str:
            try:
                result = await ctx.session.list_roots()
                return f"{{{param}}} {{result.roots[0].uri}}"
            except Exception:
                return {param}


        @mcp.tool()
        async def optimize({param}: str, ctx: Context) -> str:
            return await enrich({param}, ctx)
        """
    root = helpers._layout(tmp_path, source, None, True)
    helpers.run_engine(root)
    text = (root / "pkg" / "server.py").read_text()
    assert f"{param} or None" not in text
    assert "list_roots_compat(ctx, root, " in text and "root: RootPath = None" in text


ONCE_ON_OBJECT = """\
from dataclasses import dataclass

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


@dataclass
class App:
    checked: bool = False
    root: str = "."


async def _first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)


async def _update(app: App, ctx: Context) -> None:
    if app.checked:
        return
    app.checked = True
    {read}


@mcp.tool()
async def where(ctx: Context) -> str:
    app = ctx.request_context.lifespan_context
    await _update(app, ctx)
    return app.root
"""


@pytest.mark.parametrize(
    ("read", "line", "words"),
    [
        # the flag in front of the call into the read (code-atlas: _maybe_update_root -> _try_list_roots)
        (
            "app.root = await _first_root(ctx)",
            15,
            "called by `_update` (pkg/server.py:23) once, behind the flag",
        ),
        # the flag in front of the read itself
        (
            "app.root = str((await ctx.session.list_roots()).roots[0].uri)",
            23,
            "roots read once, behind the flag",
        ),
    ],
)
def test_once_behind_a_flag_kept_on_an_object(tmp_path, read, line, words):
    """A flag on the lifespan context (`if app.checked: return`, then `app.checked = True`) lets the read run
    on the first call only: a path argument would be ignored after it (code-atlas was rewritten, wrongly)."""
    source = ONCE_ON_OBJECT.replace("{read}", read)
    findings = check_noop(tmp_path, source, select=["MR1", "MR211"], settings={"markers": False})
    marked = [f for f in findings if f.code.startswith("MR1") or f.code == "MR211"]
    assert [(f.line, f.code) for f in marked if f.line == line] == [(line, "MR211")], marked
    assert words in next(f.message for f in marked if f.line == line)
    assert "`app.checked`" in next(f.message for f in marked if f.line == line)


def test_a_long_unknown_decorator_is_quoted_short_in_the_marker(tmp_path):
    """code-indexing-mcp: a decorator with a nine-line `description=` was copied whole into a twelve-line
    marker. A decorator whose arguments span lines or run long is quoted as `@f(...)`."""
    source = """\
from mcp.server.fastmcp import Context

from .registry import command


async def first_root(ctx: Context) -> str:
    return str((await ctx.session.list_roots()).roots[0].uri)


@command(
    title="Initialize project",
    description=(
        "Register a directory as an indexable project and write its local marker, which holds an id."
    ),
)
async def init_project(ctx: Context) -> str:
    return await first_root(ctx)
"""
    from tests import helpers as h

    root = h._layout(
        tmp_path, source, {"registry.py": "def command(**kw):\n    return lambda fn: fn\n"}, True
    )
    results = h.run_engine(root, select=["MR1"], write=False)
    messages = [f.message for r in results for f in r.findings if f.code == "MR103"]
    assert len(messages) == 1 and "decorated by `@command(...)`, which migrate-roots" in messages[0], messages
    assert "Initialize project" not in messages[0]


def test_an_opaque_registration_spanning_lines_is_quoted_on_one_line():
    """The helpers' sweep: `mcp.tool(\\n    name=name,\\n    title=name,\\n)(fn)` was quoted with its line breaks as
    runs of spaces (`mcp.tool(     name=name, ...`)."""
    model = ProgramModel(opaque=("mcp.tool(\n    name=name,\n    title=name,\n)(fn)", "pkg/registry.py", 10))
    assert "such as `mcp.tool(name=name, title=name)(fn)` (pkg/registry.py:10)" in model._opaque_note()
