"""MR110: a roots read whose roots bound what a tool may touch takes the operator's bound in place.

`await ctx.session.list_roots()` becomes `await allowed_roots_compat(ctx.session)`: a legacy-era request makes
the old call (the same roots, or the same error and so the server's own fallback), a 2026-07-28 request gets
the directories listed in MCP_ROOTS_ALLOWED_PATHS. No argument is added: the caller never picks its bound.
Noop cases first; the bounds themselves are recognised as MR109 recognises them (tests/test_bounds.py).
"""

from __future__ import annotations

import textwrap
from functools import partial

from tests import helpers
from tests.helpers import codes

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

VIEW = textwrap.dedent("""\
    import os

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("files")


    @mcp.tool()
    async def view(relative: str, ctx: Context) -> str:
        result = await ctx.session.list_roots()  # migrate-roots: ignore[MR110]
        base = os.path.realpath(result.roots[0].uri.path)
        target = os.path.realpath(os.path.join(base, relative))
        if not target.startswith(base + os.sep):
            return "denied"
        return target
    """)


def test_noop_a_line_that_ignores_mr110(tmp_path):
    findings = check_noop(tmp_path, VIEW)
    assert codes(findings) == []


def test_noop_without_mr110_the_bound_is_marked_mr109(tmp_path):
    source = VIEW.replace("  # migrate-roots: ignore[MR110]", "")
    findings = helpers.check_transformed(
        tmp_path,
        source,
        source.replace(
            "    result = await",
            "    # migrate-roots: MR109: roots bound what this tool may touch (a prefix test on a\n"
            "    #   resolved path in `view`): an explicit argument would let the caller choose its\n"
            "    #   own bound. Keep the bound with the operator (MCP_ROOTS_ALLOWED_PATHS, which the\n"
            "    #   compatibility module enforces, or the old fallback such as the working\n"
            "    #   directory) and migrate this by hand\n"
            "    result = await",
        ),
        select=["MR1"],
        ignore=["MR110"],
    )
    assert codes(findings) == ["MR109"]


def test_noop_a_compatibility_module_without_the_function_keeps_the_marker(tmp_path):
    """A module written by an earlier migrate-roots is yours and never overwritten: importing the missing
    function would break the server, so MR109 says what to do."""
    source = VIEW.replace("  # migrate-roots: ignore[MR110]", "")
    old_shim = {"_mcp_roots_compat.py": "async def list_roots_compat(ctx, value):\n    return None\n"}
    findings = check_transformed(
        tmp_path,
        source,
        source.replace(
            "    result = await",
            "    # migrate-roots: MR109: roots bound what this tool may touch (a prefix test on a\n"
            "    #   resolved path in `view`); `_mcp_roots_compat.py` was written by an earlier\n"
            "    #   migrate-roots and has no `allowed_roots_compat`, which would take the operator's\n"
            "    #   bound (MCP_ROOTS_ALLOWED_PATHS) here: add it from `migrate-roots shim` (or\n"
            "    #   delete the module), then run again\n"
            "    result = await",
        ),
        extra=old_shim,
        extra_after=old_shim,
    )
    assert codes(findings) == ["MR109"]


def test_noop_a_checked_path_argument_is_no_bound_of_the_roots(tmp_path):
    """The roots are a default the tool never checks, its own argument is checked: MR109, not MR110."""
    findings = helpers.check_noop(
        tmp_path,
        """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("notes")


        @mcp.tool()
        async def index(notes_dir: str, ctx: Context) -> str:
            if ".." in notes_dir:
                raise ValueError("notes_dir escapes")
            result = await ctx.session.list_roots()  # migrate-roots: ignore[MR109]
            return f"{notes_dir} in {Path(result.roots[0].uri.path)}"
        """,
        select=["MR1"],
    )
    assert codes(findings) == []


def test_session_read_in_the_tool(tmp_path):
    findings = check_transformed(
        tmp_path,
        VIEW.replace("  # migrate-roots: ignore[MR110]", ""),
        VIEW.replace("  # migrate-roots: ignore[MR110]", "")
        .replace(
            "from mcp.server.fastmcp import Context, FastMCP\n",
            "from mcp.server.fastmcp import Context, FastMCP\n\n"
            "from pkg._mcp_roots_compat import allowed_roots_compat\n",
        )
        .replace("await ctx.session.list_roots()", "await allowed_roots_compat(ctx.session)"),
    )
    assert codes(findings) == ["MR110"]
    assert "a prefix test on a resolved path in `view`" in findings[0].message


def test_request_context_session_in_a_helper_whose_result_the_tool_checks(tmp_path):
    """The allow-list helper returns the roots, the tool checks the path against them (jira2mcp's shape, on
    the request context): the receiver is kept whole, so it fails where it failed."""
    before = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def allowed(ctx: Context) -> list[Path]:
            try:
                result = await ctx.request_context.session.list_roots()
            except Exception:
                return [Path.cwd()]
            return [Path(str(r.uri).removeprefix("file://")) for r in result.roots]


        @mcp.tool()
        async def save(path: str, ctx: Context) -> str:
            target = Path(path).resolve()
            if not any(target.is_relative_to(root) for root in await allowed(ctx)):
                raise ValueError("Path is outside allowed MCP roots")
            target.write_text("data")
            return str(target)
        """
    before = textwrap.dedent(before)
    after = before.replace(
        "from mcp.server.fastmcp import Context, FastMCP\n",
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom pkg._mcp_roots_compat import allowed_roots_compat\n",
    ).replace(
        "await ctx.request_context.session.list_roots()",
        "await allowed_roots_compat(ctx.request_context.session)",
    )
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR110"]
    assert "`is_relative_to` in `save`" in findings[0].message


def test_fastmcp_list_read_under_a_timeout_through_get_context(tmp_path):
    """fastmcp's `get_context().list_roots()` inside `asyncio.wait_for`, the check one call away in a helper
    (stealth-chrome-devtools-mcp's shape): the list shape, the receiver kept as the call's holder."""
    before = """\
        import asyncio
        from pathlib import Path

        from fastmcp import FastMCP
        from fastmcp.server.dependencies import get_context

        mcp = FastMCP("x")


        def _inside(target: Path, roots: list[Path]) -> bool:
            return any(target.is_relative_to(r) for r in roots)


        @mcp.tool
        async def clone(profile: str) -> str:
            listed = await asyncio.wait_for(get_context().list_roots(), 2.0)
            roots = [Path(str(r.uri).removeprefix("file://")) for r in listed]
            if not _inside(Path(profile).resolve(), roots):
                raise ValueError("profile is outside the client roots")
            return profile
        """
    before = textwrap.dedent(before)
    after = before.replace(
        "from fastmcp.server.dependencies import get_context\n",
        "from fastmcp.server.dependencies import get_context\n\nfrom pkg._mcp_roots_compat import allowed_roots_compat\n",
    ).replace(
        "asyncio.wait_for(get_context().list_roots(), 2.0)",
        # 89 columns on one line: the shim call's arguments wrap, as the other rewrites' do
        'asyncio.wait_for(\n        allowed_roots_compat(get_context(), shape="list"), 2.0\n    )',
    )
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR110"]
    assert "`is_relative_to` in `_inside`" in findings[0].message


def test_low_level_request_ctx_whose_roots_extend_the_operator_list(tmp_path):
    """A low-level server adds the client's roots to its configured uploads list (scholens' shape, through
    `request_ctx.get()`): the read is rewritten in place, the handler's schema is left alone."""
    before = """\
        from pathlib import Path

        import mcp.types as types
        from mcp.server.lowlevel import Server
        from mcp.server.lowlevel.server import request_ctx

        server = Server("x")
        CONFIGURED = [Path("/srv/papers")]


        async def client_roots() -> list[Path]:
            roots = list(CONFIGURED)
            try:
                response = await request_ctx.get().session.list_roots()
            except Exception:
                return roots
            roots += [Path(str(r.uri).removeprefix("file://")) for r in response.roots]
            return roots


        @server.list_tools()
        async def list_tools() -> list[types.Tool]:
            return [types.Tool(name="upload", inputSchema={"type": "object", "properties": {}})]


        @server.call_tool()
        async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
            path = Path(arguments["path"]).resolve()
            if not any(path.is_relative_to(r) for r in await client_roots()):
                raise ValueError("outside every exposed root")
            return [types.TextContent(type="text", text=path.read_text())]
        """
    before = textwrap.dedent(before)
    after = before.replace(
        "from mcp.server.lowlevel.server import request_ctx\n",
        "from mcp.server.lowlevel.server import request_ctx\n\nfrom pkg._mcp_roots_compat import allowed_roots_compat\n",
    ).replace(
        "await request_ctx.get().session.list_roots()",
        "await allowed_roots_compat(request_ctx.get().session)",
    )
    findings = check_transformed(tmp_path, before, after)
    assert [c for c in codes(findings) if c.startswith("MR1")] == ["MR110"]


def test_error_classifier_and_a_long_line(tmp_path):
    """An `except Exception` that reads the old call's error (telegram-mcp's "roots unsupported" test): the
    bound outranks MR105, and the old call's error still reaches it; a line that would overflow wraps."""
    before = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP
        from mcp.shared.exceptions import McpError

        mcp = FastMCP("x")
        SERVER_ROOTS = [Path("/srv")]


        def _unsupported(error: Exception) -> bool:
            return isinstance(error, McpError) and error.error.code == -32601


        async def _effective_roots(ctx: Context) -> list[Path]:
            try:
                the_list_roots_result_of_this_particular_request = await ctx.session.list_roots()
            except Exception as error:
                return list(SERVER_ROOTS) if _unsupported(error) else []
            return [Path(str(r.uri)[7:]) for r in the_list_roots_result_of_this_particular_request.roots]


        @mcp.tool()
        async def send_file(path: str, ctx: Context) -> str:
            target = Path(path).resolve()
            if not any(target.is_relative_to(r) for r in await _effective_roots(ctx)):
                return "Path is outside allowed roots."
            return str(target)
        """
    before = textwrap.dedent(before)
    after = before.replace(
        "from mcp.shared.exceptions import McpError\n",
        "from mcp.shared.exceptions import McpError\n\nfrom pkg._mcp_roots_compat import allowed_roots_compat\n",
    ).replace(
        "= await ctx.session.list_roots()\n",
        "= await allowed_roots_compat(\n            ctx.session\n        )\n",
    )
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR110"]


def test_a_capability_check_in_front_stays_and_the_finding_says_so(tmp_path):
    """dwg-mcp-server, filesystem servers: `if caps.roots is None: return None` before the bound read. The check
    is kept (widened, a legacy client without roots would reach the read), so a 2026-07-28 client that declares
    no roots never gets the operator's list: the finding does not promise it."""
    before = textwrap.dedent(
        """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def allowed(ctx: Context) -> list[Path] | None:
            params = ctx.session.client_params
            if params is None or params.capabilities.roots is None:
                return None
            result = await ctx.session.list_roots()
            return [Path(str(r.uri)[7:]) for r in result.roots]


        @mcp.tool()
        async def open_file(path: str, ctx: Context) -> str:
            roots = await allowed(ctx)
            if roots is not None and not any(Path(path).resolve().is_relative_to(r) for r in roots):
                raise ValueError("path is outside the client roots")
            return Path(path).read_text()
        """
    )
    after = before.replace(
        "from mcp.server.fastmcp import Context, FastMCP\n",
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom pkg._mcp_roots_compat import allowed_roots_compat\n",
    ).replace("await ctx.session.list_roots()", "await allowed_roots_compat(ctx.session)")
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR110"]
    assert "2026-07-28 requests that get past the roots-capability check in front of it the directories" in (
        findings[0].message
    )


def test_without_a_capability_check_the_finding_promises_the_list(tmp_path):
    source = VIEW.replace("  # migrate-roots: ignore[MR110]", "")
    findings = helpers.run_engine(helpers._layout(tmp_path, source, None, True), select=["MR1"], write=False)
    (found,) = [f for r in findings for f in r.findings]
    assert "MCP 2026-07-28 requests the directories the operator lists" in found.message
