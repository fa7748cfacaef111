"""A function is one identity: by its import name within its own import root (two `server.py` in sibling
folders are two modules), across its redefinitions (every definition gets the parameter), and a registered
tool keeps its own when the name is rebound; and the plan is a pure function of the summaries."""

from __future__ import annotations

import textwrap
from functools import partial
from pathlib import Path

import pytest

from migrate_roots import codemods, engine, engine_plan
from migrate_roots.codemods.roots_call import plan_package
from migrate_roots.config import Settings
from tests import helpers
from tests.helpers import codes, flakes, run_engine

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

# After the rewrite: `typing` joins the standard library group, the compatibility import gets its own.
SDK_IMPORTS_AFTER = """\
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
"""


# --- redefinitions ----------------------------------------------------------------------------------------


def test_noop_redefined_helper_that_reads_no_roots(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import sys
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        if sys.platform == "win32":
            def base(ctx: Context) -> str:
                return "C:/"
        else:
            def base(ctx: Context) -> str:
                return "/"

        @mcp.tool()
        def where(ctx: Context) -> str:
            return base(ctx)
        """,
    )
    assert findings == []


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ('if sys.platform == "win32":', "else:"),  # both read roots, under if/else
        ("try:", "except ImportError:"),
        ("if sys.version_info >= (3, 11):", "else:"),
    ],
)
def test_every_definition_of_a_redefined_helper_gets_the_parameter(tmp_path, first, second):
    before = f"""\
        import sys
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        {first}
            async def base(ctx: Context) -> str:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri).lower()
        {second}
            async def base(ctx: Context) -> str:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await base(ctx)
        """
    after = (
        "        import sys\n        from typing import Annotated\n"
        + SDK_IMPORTS_AFTER
        + f"""
        mcp = FastMCP("x")

        {first}
            async def base(ctx: Context, root: str | None = None) -> str:
                result = await list_roots_compat(ctx, root, name="root")
                return str(result.roots[0].uri).lower()
        {second}
            async def base(ctx: Context, root: str | None = None) -> str:
                result = await list_roots_compat(ctx, root, name="root")
                return str(result.roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            return await base(ctx, root=root)
        """
    )
    findings = check_transformed(tmp_path, before, after)
    assert codes(findings) == ["MR101", "MR101", "MR107", "MR107"]


def test_only_one_definition_reads_roots(tmp_path):
    # The live definition on this platform may be the other one: it takes the keyword too.
    findings = check_transformed(
        tmp_path,
        """\
        import os
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        if os.name == "nt":
            def base(ctx: Context) -> str:
                return os.getcwd()
        else:
            async def base(ctx: Context) -> str:
                return (await ctx.session.list_roots()).roots[0].uri

        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await base(ctx)
        """,
        "        import os\n        from typing import Annotated\n"
        + SDK_IMPORTS_AFTER
        + """
        mcp = FastMCP("x")

        if os.name == "nt":
            def base(ctx: Context, root: str | None = None) -> str:
                return os.getcwd()
        else:
            async def base(ctx: Context, root: str | None = None) -> str:
                return (await list_roots_compat(ctx, root, name="root")).roots[0].uri

        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            return await base(ctx, root=root)
        """,
    )
    assert codes(findings) == ["MR101", "MR107", "MR107"]


def test_redefinition_takes_a_name_free_in_every_definition(tmp_path):
    # Only the first definition binds `root` (its loop): both take `root_path`, so the loop overwrites nothing.
    findings = check_transformed(
        tmp_path,
        """\
        import sys
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        if sys.platform == "win32":
            async def base(ctx: Context) -> str:
                for root in (await ctx.session.list_roots()).roots:
                    return str(root.uri).lower()
        else:
            async def base(ctx: Context) -> str:
                return str((await ctx.session.list_roots()).roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await base(ctx)
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

        if sys.platform == "win32":
            async def base(ctx: Context, root_path: list[str] | None = None) -> str:
                for root in (await list_roots_compat(ctx, root_path, name="root")).roots:
                    return str(root.uri).lower()
        else:
            async def base(ctx: Context, root_path: list[str] | None = None) -> str:
                return str((await list_roots_compat(ctx, root_path, name="root")).roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context, root: RootPaths = None) -> str:
            return await base(ctx, root_path=root)
        """,
    )
    assert codes(findings) == ["MR101", "MR101", "MR107", "MR107"]


@pytest.mark.parametrize("later", ["@mcp.prompt()", "@mcp.resource('login://x')", ""])
def test_a_tool_keeps_its_identity_when_its_name_is_rebound(tmp_path, later):
    before = f"""\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def login(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)

        {later}
        def login() -> str:
            return "Log in"
        """
    after = (
        "        from typing import Annotated\n\n"
        + SDK_IMPORTS_AFTER
        + f"""
        mcp = FastMCP("x")

        @mcp.tool()
        async def login(ctx: Context, root: RootPath = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)

        {later}
        def login() -> str:
            return "Log in"
        """
    )
    # Not check_transformed: pyflakes's "redefinition of unused 'login' from line N" names a line that moves.
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(textwrap.dedent(before))
    results = run_engine(root, select=["MR1"])
    assert (root / "pkg" / "server.py").read_text() == textwrap.dedent(after)
    assert [(f.code, f.tool) for r in results for f in r.findings] == [("MR101", "login")]
    assert [(t.tool, t.line) for r in results for t in r.tools] == [("login", 6)]
    assert not [r for r in run_engine(root, select=["MR1"]) if r.status.value == "changed"]


# --- modules by path and import root ----------------------------------------------------------------------

READS = """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("{name}")

    async def project_dir(ctx: Context) -> str:
        return (await ctx.session.list_roots()).roots[0].uri

    @mcp.tool()
    async def where(ctx: Context) -> str:
        return await project_dir(ctx)
    """
NO_ROOTS = """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("{name}")

    async def project_dir(ctx: Context) -> str:
        return "/srv"

    @mcp.tool()
    async def where(ctx: Context) -> str:
        return await project_dir(ctx)
    """


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text.format(name=name)))


LAYOUTS = {
    "loose files": {"examples/a/server.py": READS, "examples/b/server.py": NO_ROOTS},
    "packages": {
        "examples/a/app/__init__.py": "",
        "examples/a/app/server.py": READS,
        "examples/b/app/__init__.py": "",
        "examples/b/app/server.py": NO_ROOTS,
    },
    "src layouts": {
        "one/src/app/__init__.py": "",
        "one/src/app/server.py": NO_ROOTS,
        "two/src/app/__init__.py": "",
        "two/src/app/server.py": READS,
        "two/src/app/tools/__init__.py": "",
        "two/src/app/tools/server.py": NO_ROOTS,  # app.tools.server: another module again
    },
    "loose beside a package": {
        "a/server.py": READS,
        "b/server/__init__.py": NO_ROOTS,
        "c/server.py": NO_ROOTS,
    },
}


@pytest.mark.parametrize("layout", LAYOUTS, ids=list(LAYOUTS))
def test_same_named_modules_in_sibling_folders_are_different_modules(tmp_path, layout):
    files = LAYOUTS[layout]
    _tree(tmp_path, files)
    before = {name: (tmp_path / name).read_text() for name in files}
    results = run_engine(tmp_path, select=["MR1"])
    assert not [r for r in results if r.status.value == "failed"]
    for name, template in files.items():
        text = (tmp_path / name).read_text()
        assert not flakes(text) - flakes(before[name]), (name, text)
        if template is READS:
            assert "async def where(ctx: Context, root: RootPath = None)" in text, name
            assert "return await project_dir(ctx, root=root)" in text, name
        else:
            assert text == before[name], name


def test_same_named_modules_group_apart(tmp_path):
    entries = [
        engine.Entry(tmp_path / "a/server.py", module="server", package_root=str(tmp_path / "a")),
        engine.Entry(tmp_path / "b/server.py", module="server", package_root=str(tmp_path / "b")),
        engine.Entry(tmp_path / "c/src/app/x.py", module="app.x", package_root=str(tmp_path / "c/src/app")),
        engine.Entry(tmp_path / "d/src/app/x.py", module="app.x", package_root=str(tmp_path / "d/src/app")),
    ]
    assert [[e.path for e in g] for g in engine_plan._groups(entries)] == [[e.path] for e in entries]


# --- the plan is a pure function of the summaries ---------------------------------------------------------


def _summaries(root: Path) -> dict[str, object]:
    options = engine.Options(settings=Settings(), enabled=codemods.select_codes(["MR1"]))
    out = {}
    for path in sorted(root.rglob("*.py")):
        indexed = engine.index_file(path, options)
        assert isinstance(indexed, engine.Indexed)
        if "MR101" in indexed.summaries:
            out[str(path)] = indexed.summaries["MR101"]
    return out


def test_planning_twice_gives_the_same_plan(tmp_path):
    # A helper that already has a `root` parameter is refused (MR106): the refusal once went into the
    # summary, and the second plan (the engine plans the local guess, then the group) lost the helper.
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/server.py": """\
                from mcp.server.fastmcp import Context, FastMCP
                from .workspace import project_dir, deep

                mcp = FastMCP("x")

                @mcp.tool()
                async def where(ctx: Context) -> str:
                    return await project_dir(ctx, None) + await deep(ctx)
                """,
            "pkg/workspace.py": """\
                from mcp.server.fastmcp import Context

                async def project_dir(ctx: Context, root=None) -> str:
                    return (await ctx.session.list_roots()).roots[0].uri

                async def deep(ctx: Context) -> str:
                    return await project_dir(ctx, None)
                """,
        },
    )
    summaries = _summaries(tmp_path)
    first = plan_package(summaries, Settings())
    one = str(tmp_path / "pkg/workspace.py")
    alone = plan_package({one: summaries[one]}, Settings())
    assert plan_package(summaries, Settings()) == first
    assert plan_package({one: summaries[one]}, Settings()) == alone
    assert summaries == _summaries(tmp_path)  # nothing written into them
    assert {pos: d and d[0] for pos, d in first[one].sites.items()} == {(4, 19): "MR106"}
    # Nothing reaches roots through the refused helper: no caller passes `root` a second time.
    assert not any(plan.tools or plan.calls or plan.threaded for plan in first.values())
