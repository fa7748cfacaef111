"""The roots method reached by name: `session = getattr(ctx, "session", None)` then `session.list_roots()`,
`hasattr(session, "list_roots")` in front of the read, and `getattr(session, "list_roots")` taken as a value.
Every such reference in MCP code is rewritten or reported (issue 17, "never silent"); noop cases first."""

from __future__ import annotations

import textwrap
from functools import partial

import pytest

from tests import helpers
from tests.helpers import codes, run_engine

check_transformed = partial(helpers.check_transformed, select=["MR1"])

TOOL = """\
    from mcp.server.fastmcp import Context, FastMCP

    from .workspace import project_dir

    mcp = FastMCP("x")


    @mcp.tool()
    async def ls(ctx: Context) -> str:
        return str(await project_dir(ctx))
    """
TOOL_AFTER = """\
    from typing import Annotated

    from mcp.server.fastmcp import Context, FastMCP
    from pydantic import Field

    from .workspace import project_dir

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
    async def ls(ctx: Context, root: RootPath = None) -> str:
        return str(await project_dir(ctx, root=root))
    """


def _findings(tmp_path, files):
    root = tmp_path / "proj"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    return [f for r in run_engine(root, select=["MR1"], write=False) for f in r.findings]


def test_noop_method_named_in_a_package_without_the_sdk(tmp_path):
    findings = _findings(
        tmp_path,
        {
            "lib/__init__.py": "",
            "lib/tree.py": """\
                def roots_of(obj):
                    if hasattr(obj, "list_roots"):
                        return obj.list_roots()
                    return getattr(obj, "list_roots", list)()
                """,
        },
    )
    assert findings == []


@pytest.mark.parametrize(
    "spelling",
    [
        'session = getattr(ctx, "session", None)',
        'session = getattr(ctx, "session")',
        "session = ctx.session",
        "session = ctx.request_context.session",
    ],
)
def test_session_taken_from_an_untyped_context_is_rewritten(tmp_path, spelling):
    helper = f"""\
        async def project_dir(ctx):
            {spelling}
            result = await session.list_roots()
            return result.roots[0].uri
        """
    helper_after = f"""\
        from pkg._mcp_roots_compat import list_roots_compat


        async def project_dir(ctx, root: str | None = None):
            {spelling}
            result = await list_roots_compat(session, root, name="root")
            return result.roots[0].uri
        """
    findings = check_transformed(
        tmp_path, TOOL, TOOL_AFTER, extra={"workspace.py": helper}, extra_after={"workspace.py": helper_after}
    )
    assert codes(findings) == ["MR101", "MR107"]


def test_method_taken_by_name_and_called_at_once_is_the_read(tmp_path):
    # Rewritten since session 12 (tests/test_roots_taken.py has the shapes); handed on, it is marked there.
    findings = _findings(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/server.py": """\
                import asyncio

                from mcp.server.fastmcp import Context, FastMCP

                mcp = FastMCP("x")


                @mcp.tool()
                async def where(ctx: Context) -> str:
                    list_roots = getattr(ctx.session, "list_roots")
                    result = await asyncio.wait_for(list_roots(), 5)
                    return str(result.roots[0].uri)
                """,
        },
    )
    assert [(f.code, f.line) for f in findings] == [("MR101", 11)]
    assert "`list_roots()` (`ctx.session.list_roots`, taken as a value)" in findings[0].message


def test_name_test_in_front_of_a_marked_read_carries_its_marker(tmp_path):
    # The read is outside any tool (MR103): the `hasattr` guard above it says the same, above its own line.
    findings = _findings(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/server.py": """\
                from mcp.server.fastmcp import Context, FastMCP

                mcp = FastMCP("x")


                async def on_ready(ctx: Context) -> None:
                    session = ctx.session
                    if not hasattr(session, "list_roots"):
                        return
                    print(await session.list_roots())
                """,
        },
    )
    assert [(f.code, f.line) for f in findings] == [("MR103", 8), ("MR103", 10)]


@pytest.mark.parametrize(
    "walk_up",
    [
        'node = getattr(node, "parent", None)',
        'node = getattr(node, "parent")',
        'node = getattr(getattr(node, "parent", None), "parent", None)',
        "node = node.parent",
    ],
)
def test_a_getattr_that_reads_its_own_target_is_no_error(tmp_path, walk_up):
    # `node = getattr(node, "parent", None)` in a loop: the kind of `node` asks the kind of `node` again. It once
    # recursed without end and the whole file was refused as "nesting too deep" (MR903), its tool unmigrated.
    before = f"""\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        def top(node):
            while node is not None:
                {walk_up}
            return node


        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """
    (tmp_path / "server.py").write_text(textwrap.dedent(before))
    results = run_engine(tmp_path, select=["MR1"])
    assert codes(f for r in results for f in r.findings) == ["MR101"]


@pytest.mark.parametrize(
    ("helper", "spelling"),
    [
        ("def _session_of(ctx):\n    return ctx.session\n", "session = _session_of(ctx)"),
        (
            "def _session_of(ctx):\n    try:\n        return ctx.session\n    except ValueError:\n        return None\n",
            "session = _session_of(ctx)",
        ),
        (
            "async def _session_of(ctx):\n    return ctx.request_context.session\n",
            "session = await _session_of(ctx)",
        ),
    ],
)
def test_session_handed_out_by_a_helper_is_rewritten(tmp_path, helper, spelling):
    # msaccess-vcs-mcp's `session = _resolve_session(ctx)`: the read behind it was silent.
    head = "from mcp.server.fastmcp import Context\n\n\n"
    read = f"async def project_dir(ctx: Context):\n    {spelling}\n    result = await session.list_roots()\n"
    before = head + helper + "\n\n" + read + "    return result.roots[0].uri\n"
    after = (
        head.replace("\n\n\n", "\n\nfrom pkg._mcp_roots_compat import list_roots_compat\n\n\n")
        + helper
        + "\n\n"
        + read.replace("ctx: Context)", "ctx: Context, root: str | None = None)").replace(
            "session.list_roots()", 'list_roots_compat(session, root, name="root")'
        )
        + "    return result.roots[0].uri\n"
    )
    findings = check_transformed(
        tmp_path, TOOL, TOOL_AFTER, extra={"workspace.py": before}, extra_after={"workspace.py": after}
    )
    assert codes(findings) == ["MR101", "MR107"]


def test_noop_a_value_a_helper_builds_is_no_session(tmp_path):
    findings = _findings(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/server.py": """\
                from mcp.server.fastmcp import Context, FastMCP

                mcp = FastMCP("x")


                class Catalog:
                    def list_roots(self):
                        return ["/srv"]


                def _catalog(ctx):
                    return Catalog()


                @mcp.tool()
                async def where(ctx: Context) -> str:
                    catalog = _catalog(ctx)
                    return catalog.list_roots()[0]
                """,
        },
    )
    assert findings == []


def test_session_handed_out_by_a_helper_of_a_module_without_the_sdk_is_rewritten(tmp_path):
    helper = """\
        def _session_of(ctx):
            return getattr(ctx, "session", None)


        async def project_dir(ctx{root}):
            session = _session_of(ctx)
            result = await {read}
            return result.roots[0].uri
        """
    after = helper.format(
        root=", root: str | None = None", read='list_roots_compat(session, root, name="root")'
    )
    findings = check_transformed(
        tmp_path,
        TOOL,
        TOOL_AFTER,
        extra={"workspace.py": helper.format(root="", read="session.list_roots()")},
        extra_after={
            "workspace.py": "        from pkg._mcp_roots_compat import list_roots_compat\n\n\n" + after
        },
    )
    assert codes(findings) == ["MR101", "MR107"]


@pytest.mark.parametrize("kind", ["def", "async def"])
def test_noop_a_synchronous_list_roots_used_at_once_in_a_module_without_the_sdk(tmp_path, kind):
    # hiil's `roots = chat.list_roots()`: the project's own method, called in a plain `def` and used at once,
    # cannot be the SDK's coroutine (it had been marked MR102, "a fastmcp Context or a session?").
    findings = _findings(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/server.py": """\
                from mcp.server.fastmcp import FastMCP

                from .cli import show_roots

                mcp = FastMCP("x")


                @mcp.tool()
                def where() -> str:
                    return str(show_roots(None))
                """,
            "pkg/cli.py": f"""\
                {kind} show_roots(chat):
                    roots = chat.list_roots()
                    if not roots:
                        return ""
                    return ", ".join(r["path"] for r in roots)
                """,
        },
    )
    assert findings == []
