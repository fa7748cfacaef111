"""MR108: a test's fake of a helper that gains the path parameter gets the same parameter."""

from __future__ import annotations

from functools import partial

from tests import helpers
from tests.helpers import codes

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP
from .workspace import project_dir

mcp = FastMCP("x")

@mcp.tool()
async def ls(ctx: Context) -> str:
    return str(await project_dir(ctx))
"""
WORKSPACE = """\
from mcp.server.fastmcp import Context

async def project_dir(ctx: Context):
    result = await ctx.session.list_roots()
    return result.roots[0].uri
"""


def migrated(tmp_path, tests: str, tests_after: str) -> list:
    """Run MR1 over the package and a tests folder beside it; the server's own rewrite is MR101's."""
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_server.py").write_text(tests)
    before = (root / "tests" / "test_server.py").read_text()
    findings = check_transformed(
        tmp_path,
        SERVER,
        SERVER.replace("Context) -> str:", "Context, root: RootPath = None) -> str:")
        .replace("project_dir(ctx)", "project_dir(ctx, root=root)")
        .replace(
            "from mcp.server.fastmcp import Context, FastMCP\n",
            "from typing import Annotated\n\nfrom mcp.server.fastmcp import Context, FastMCP\nfrom pydantic import Field\n",
        )
        .replace('mcp = FastMCP("x")', ALIASES + 'mcp = FastMCP("x")'),
        extra={"workspace.py": WORKSPACE},
    )
    after = (root / "tests" / "test_server.py").read_text()
    assert after == tests_after, after
    assert (before == after) == (tests == tests_after)
    return findings


ALIASES = """\
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

"""


# --- noop cases first ------------------------------------------------------------------------------------


def test_noop_patch_of_a_helper_that_keeps_its_signature(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import sys

        def helper(x):
            return x

        def test_it(monkeypatch):
            def fake(x):
                return 1
            monkeypatch.setattr(sys.modules[__name__], "helper", fake)
        """,
    )
    assert "MR108" not in codes(findings)


def test_noop_fakes_that_already_fit(tmp_path):
    tests = """\
from unittest.mock import AsyncMock, patch

from pkg import workspace


def test_kwargs(monkeypatch):
    async def fake(ctx, **kwargs):
        return "/repo"

    monkeypatch.setattr(workspace, "project_dir", fake)


def test_mock():
    with patch("pkg.workspace.project_dir", new=AsyncMock(return_value="/repo")):
        pass


def test_already(monkeypatch):
    async def fake(ctx, root=None):
        return "/repo"

    monkeypatch.setattr(workspace, "project_dir", fake)
"""
    findings = migrated(tmp_path, tests, tests)
    assert "MR108" not in codes(findings)


# --- rewrites ---------------------------------------------------------------------------------------------


def test_monkeypatched_fake_gets_the_parameter(tmp_path):
    tests = """\
from pkg import workspace


def test_ls(monkeypatch):
    async def fake_dir(ctx):
        return "/repo"

    monkeypatch.setattr(workspace, "project_dir", fake_dir)
"""
    findings = migrated(
        tmp_path, tests, tests.replace("fake_dir(ctx)", "fake_dir(ctx, root: str | None = None)")
    )
    assert codes(findings).count("MR108") == 1


def test_patch_where_imported_and_patch_object(tmp_path):
    tests = """\
from unittest import mock

import pkg.server


async def fake_one(ctx):
    return "/one"


async def fake_two(ctx):
    return "/two"


def test_one():
    with mock.patch("pkg.server.project_dir", fake_one):
        pass


def test_two():
    with mock.patch.object(pkg.server, "project_dir", side_effect=fake_two):
        pass
"""
    after = tests.replace("fake_one(ctx)", "fake_one(ctx, root: str | None = None)").replace(
        "fake_two(ctx)", "fake_two(ctx, root: str | None = None)"
    )
    findings = migrated(tmp_path, tests, after)
    assert codes(findings).count("MR108") == 2


def test_lambda_is_reported_not_rewritten(tmp_path):
    tests = """\
from pkg import workspace


def test_ls(monkeypatch):
    monkeypatch.setattr(workspace, "project_dir", lambda ctx: "/repo")
"""
    findings = migrated(tmp_path, tests, tests)
    [note] = [f for f in findings if f.code == "MR108"]
    assert note.action.value == "reported" and "root=None" in note.message


def test_same_module_fake_through_sys_modules(tmp_path):
    """The audit's regression (codex-in-claude): a fake installed on `sys.modules[__name__]`."""
    findings = check_transformed(
        tmp_path,
        """\
        import sys
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        async def roots_of(ctx: Context):
            return [str(r.uri) for r in (await ctx.session.list_roots()).roots]

        @mcp.tool()
        async def where(ctx: Context) -> str:
            return (await roots_of(ctx))[0]

        def test_where(monkeypatch):
            async def fake_roots(ctx):
                return ["/repo"]
            monkeypatch.setattr(sys.modules[__name__], "roots_of", fake_roots)
        """,
        """\
        import sys
        from typing import Annotated
        from mcp.server.fastmcp import Context, FastMCP
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

        async def roots_of(ctx: Context, root: list[str] | None = None):
            return [str(r.uri) for r in (await list_roots_compat(ctx, root, name="root")).roots]

        @mcp.tool()
        async def where(ctx: Context, root: RootPaths = None) -> str:
            return (await roots_of(ctx, root=root))[0]

        def test_where(monkeypatch):
            async def fake_roots(ctx, root: list[str] | None = None):
                return ["/repo"]
            monkeypatch.setattr(sys.modules[__name__], "roots_of", fake_roots)
""",
    )
    assert codes(findings).count("MR108") == 1


def test_fake_reading_a_root_of_its_own_takes_kwargs(tmp_path):
    """The audit's second regression (codex-in-claude): `root=None` would shadow the closure's `root`."""
    tests = """\
from pkg import workspace


def test_ls(monkeypatch, tmp_path):
    root = tmp_path / "repo"

    async def fake_dir(ctx):
        return str(root)

    monkeypatch.setattr(workspace, "project_dir", fake_dir)
"""
    findings = migrated(tmp_path, tests, tests.replace("fake_dir(ctx)", "fake_dir(ctx, **kwargs)"))
    [note] = [f for f in findings if f.code == "MR108"]
    assert "**kwargs" in note.message and "shadow" in note.message
