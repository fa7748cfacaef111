"""The roots method taken as a value (issue 17, item 3): `fetch = ctx.session.list_roots` or `list_roots =
getattr(session, "list_roots", None)`, then `await fetch()` or `await asyncio.wait_for(list_roots(), 5)`.

A local bound once to the method and called with no arguments in the same function is the read, on the object
the method was taken from: rewritten like a direct call (pycharm-sonar-mcp, Synapse-Desktop and mito in the
field; before, a MR103 marker on the `getattr`, and the attribute form was silent). Anything else (handed to
another function, rebound, a default other than None) is marked where it is taken; noop cases first.
"""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers
from tests.test_roots_call import ALIAS_ONE, aliases

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

HEAD = """\
        import asyncio
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
"""


def _tool(body: str) -> str:
    return f"""\
        import asyncio

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context) -> str:
{body}"""


def _migrated(body: str) -> str:
    return f"""\
{HEAD}{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
{body}"""


# --- noop: marked where the method is taken ------------------------------------------------------------------


def test_noop_method_handed_to_another_function_is_marked(tmp_path):
    body = """\
            return str(await run(ctx.session.list_roots))


        async def run(fn):
            return await fn()
"""
    source = _tool(body)
    findings = check_noop(tmp_path, source, write=False)
    taken = [f for f in findings if "taken as a value" in f.message]
    assert [f.code for f in taken] == ["MR103"]
    assert "(`ctx.session.list_roots`, handed to `run(...)`)" in taken[0].message


@pytest.mark.parametrize(
    "body",
    [
        # rebound: which method runs is decided at run time
        "            fetch = ctx.session.list_roots\n            if not fetch:\n                fetch = asyncio.sleep\n"
        "            return str(await fetch())\n",
        # stored on an object: called who knows where
        "            ctx.fetch = ctx.session.list_roots\n            return 'ok'\n",
    ],
)
def test_noop_method_rebound_or_stored_is_marked(tmp_path, body):
    findings = check_noop(tmp_path, _tool(body), write=False)
    assert [f.code for f in findings] == ["MR103"]
    assert "the roots method taken as a value (`ctx.session.list_roots`)" in findings[0].message


def test_noop_getattr_with_a_default_other_than_none_is_marked(tmp_path):
    body = """\
            list_roots = getattr(ctx.session, "list_roots", _none)
            return str(await list_roots())


        async def _none():
            return None
"""
    source = _tool(body)
    findings = check_noop(tmp_path, source, write=False)
    assert [f.code for f in findings] == ["MR103"]
    assert "named in a string" in findings[0].message


# --- rewritten -------------------------------------------------------------------------------------------------


def test_attribute_taken_once_and_called_is_the_read_and_its_local_goes(tmp_path):
    findings = check_transformed(
        tmp_path,
        _tool("""\
            fetch = ctx.session.list_roots
            result = await fetch()
            return str(result.roots[0].uri)
"""),
        _migrated("""\
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
"""),
    )
    assert [f.code for f in findings] == ["MR101"]
    assert "`fetch()` (`ctx.session.list_roots`, taken as a value) asks the client" in findings[0].message


def test_comment_above_the_dropped_local_moves_to_the_next_statement(tmp_path):
    check_transformed(
        tmp_path,
        _tool("""\
            # ask the client
            fetch = ctx.session.list_roots
            result = await fetch()
            return str(result.roots[0].uri)
"""),
        _migrated("""\
            # ask the client
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
"""),
    )


@pytest.mark.parametrize(
    "taken",
    [
        'list_roots = getattr(session, "list_roots", None)',
        "list_roots = getattr(session, 'list_roots')",
        'list_roots = getattr(session, "list_roots", None) if session is not None else None',
    ],
)
def test_method_taken_by_getattr_is_rewritten_and_its_test_stays(tmp_path, taken):
    """The local and its `callable` test stay: every SDK session has the method, so the test passes and the
    explicit argument is read wherever the old call was made; the `getattr` gets no marker of its own."""
    body = f"""\
            session = ctx.session
            {taken}
            if not callable(list_roots):
                return "no roots"
            result = await asyncio.wait_for({{call}}, 5)
            return str(result.roots[0].uri)
"""
    findings = check_transformed(
        tmp_path,
        _tool(body.format(call="list_roots()")),
        _migrated(body.format(call='list_roots_compat(session, root, name="root")')),
    )
    assert [f.code for f in findings] == ["MR101"]


def test_fastmcp_context_method_taken_keeps_the_list_shape(tmp_path):
    before = """\
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool
        async def where(ctx: Context) -> str:
            fetch = ctx.list_roots
            roots = await fetch()
            return str(roots[0].uri)
        """
    after = f"""\
        from typing import Annotated

        from fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")


        @mcp.tool
        async def where(ctx: Context, root: RootPath = None) -> str:
            roots = await list_roots_compat(ctx, root, name="root", shape="list")
            return str(roots[0].uri)
        """
    findings = check_transformed(tmp_path, before, after)
    assert [f.code for f in findings] == ["MR102"]


def test_bound_read_through_a_taken_method_takes_the_operators_bound_without_a_marker(tmp_path):
    """Roots that bound paths, read through `getattr(session, "list_roots", None)`: the call becomes
    `allowed_roots_compat(session)` (MR110) and the `getattr` carries no MR109 (it was the plan only when
    MR110 is off); the local, used by the call only, goes."""
    taken = '\n            list_roots = getattr(session, "list_roots", None)'
    body = """\
            session = ctx.session{taken}
            result = await {call}
            base = Path(path).resolve()
            if not any(base.is_relative_to(Path(r.uri.path)) for r in result.roots):
                raise ValueError("outside the roots")
            return base.read_text()
"""
    before = f"""\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def read(ctx: Context, path: str) -> str:
{body.format(call="list_roots()", taken=taken)}"""
    after = f"""\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP

        from pkg._mcp_roots_compat import allowed_roots_compat

        mcp = FastMCP("x")


        @mcp.tool()
        async def read(ctx: Context, path: str) -> str:
{body.format(call="allowed_roots_compat(session)", taken="")}"""
    findings = check_transformed(tmp_path, before, after)
    assert [f.code for f in findings] == ["MR110"]


def test_bound_read_through_a_method_kept_for_its_test_is_taken_once(tmp_path):
    """The `getattr` stays for its `callable` test beside `allowed_roots_compat(session)`: a second run finds
    no read beside the `getattr` and once marked it MR103 (pycharm-sonar-mcp, Synapse-Desktop: not idle)."""
    body = """\
            session = ctx.session
            list_roots = getattr(session, "list_roots", None)
            if not callable(list_roots):
                return ""
            result = await {call}
            base = Path(path).resolve()
            if not any(base.is_relative_to(Path(r.uri.path)) for r in result.roots):
                raise ValueError("outside the roots")
            return base.read_text()
"""
    head = """\
        from pathlib import Path

        from mcp.server.fastmcp import Context, FastMCP
{compat}
        mcp = FastMCP("x")


        @mcp.tool()
        async def read(ctx: Context, path: str) -> str:
"""
    compat = "\n        from pkg._mcp_roots_compat import allowed_roots_compat\n"
    findings = check_transformed(
        tmp_path,
        head.format(compat="") + body.format(call="list_roots()"),
        head.format(compat=compat) + body.format(call="allowed_roots_compat(session)"),
    )
    assert [f.code for f in findings] == ["MR110"]


@pytest.mark.parametrize(
    "take",
    [
        'fn = getattr(ctx, "list_roots", None)\n        roots = await fn()',
        "fn = ctx.list_roots\n        roots = await fn()",
    ],
)
def test_a_cache_filled_by_the_taken_method_is_marked_on_the_first_run(tmp_path, take):
    """The cache rules see the read the roots-call rule rewrites: the global it fills is marked MR211 at once (a
    second run used to add the marker only after the read had become a shim call)."""
    source = f"""\
from pathlib import Path

from fastmcp import Context, FastMCP

mcp = FastMCP("demo")
WORKSPACE: list[Path] = []


async def workspace(ctx: Context) -> Path:
    global WORKSPACE
    try:
        {take}
        if roots:
            WORKSPACE = [Path(str(r.uri)[7:]) for r in roots]
    except Exception:
        pass
    return WORKSPACE[0] if WORKSPACE else Path.cwd()


@mcp.tool
async def list_files(ctx: Context) -> list[str]:
    return [p.name for p in (await workspace(ctx)).iterdir()]
"""
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "server.py").write_text(source)
    first = helpers.run_engine(folder)
    assert "MR211" in helpers.codes(f for r in first for f in r.findings)
    assert "# migrate-roots: MR211" in (folder / "server.py").read_text()
    again = helpers.run_engine(folder)
    assert all(r.status.value != "changed" for r in again)
