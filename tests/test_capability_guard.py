"""A roots-capability check in front of the roots read lets the explicit argument through (issue 18, item 4).

Measured before: `if caps.roots: ...read... return os.getcwd()` was rewritten so that the argument was read
only when the client declared roots: a modern client that passed `root` got the working directory. The test
becomes "argument given, or the old condition", in every spelling of the check; a check used otherwise is
marked (MR105).
"""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers
from tests.helpers import codes
from tests.test_roots_call import ALIAS_LIST, ALIAS_ONE, aliases

check_transformed = partial(helpers.check_transformed, select=["MR1"])
check_noop = partial(helpers.check_noop, select=["MR1"])

IMPORTS = """\
        import os

        import mcp.types as types
        from mcp.server.fastmcp import Context, FastMCP
"""
NEW_IMPORTS = """\
        import os
        from typing import Annotated

        import mcp.types as types
        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
"""


def _server(body: str) -> str:
    return f"""\
{IMPORTS}
        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context) -> str:
{body}"""


def _migrated(body: str, alias: str = ALIAS_ONE) -> str:
    kind = "RootPaths" if alias is ALIAS_LIST else "RootPath"
    return f"""\
{NEW_IMPORTS}{aliases(alias)}
        mcp = FastMCP("x")

        @mcp.tool()
        async def where(ctx: Context, root: {kind} = None) -> str:
{body}"""


def test_noop_check_returned_is_marked_not_rewritten(tmp_path):
    findings = check_transformed(
        tmp_path,
        _server("""\
            if ctx.session.client_params.capabilities.roots is None:
                return "none"
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri) + str(ctx.session.client_params.capabilities.roots is not None)
        """),
        _server("""\
            if ctx.session.client_params.capabilities.roots is None:
                return "none"
            # migrate-roots: MR105: a roots-capability check guards this call: with a path
            #   argument the check must go; decide what a client without roots and without the
            #   argument gets
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri) + str(ctx.session.client_params.capabilities.roots is not None)
        """),
    )
    assert codes(findings) == ["MR105"]


def test_caps_variable_and_branch_holding_the_read(tmp_path):
    check_transformed(
        tmp_path,
        _server("""\
            caps = ctx.session.client_params.capabilities
            if caps.roots:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)
            return os.getcwd()
        """),
        _migrated("""\
            caps = ctx.session.client_params.capabilities
            if root is not None or caps.roots:
                result = await list_roots_compat(ctx, root, name="root")
                return str(result.roots[0].uri)
            return os.getcwd()
        """),
    )


def test_check_client_capability_with_early_return(tmp_path):
    check_transformed(
        tmp_path,
        _server("""\
            if not ctx.session.check_client_capability(types.ClientCapabilities(roots=types.RootsCapability())):
                return os.getcwd()
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """),
        _migrated("""\
            if (
                root is None
                and not ctx.session.check_client_capability(types.ClientCapabilities(roots=types.RootsCapability()))
            ):
                return os.getcwd()
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """),
    )


def test_a_generic_predicate_asked_about_roots_is_widened(tmp_path):
    # Session 15's sweep C, r07: `client_supports(ctx, "roots")` was left as it was, and a client that passed
    # `root` without declaring roots got the working directory.
    check_transformed(
        tmp_path,
        _server("""\
            if not ctx.supports("roots"):
                return os.getcwd()
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """),
        _migrated("""\
            if root is None and not ctx.supports("roots"):
                return os.getcwd()
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """),
    )


def test_capabilities_roots_is_none_with_else_branch(tmp_path):
    # Sweep N, r02: the other operand (an operator's switch) keeps holding when `root` is given.
    check_transformed(
        tmp_path,
        _server("""\
            if ctx.session.client_params.capabilities.roots is None or os.environ.get("X"):
                base = os.getcwd()
            else:
                base = str((await ctx.session.list_roots()).roots[0].uri)
            return base
        """),
        _migrated("""\
            if (root is None and ctx.session.client_params.capabilities.roots is None) or os.environ.get("X"):
                base = os.getcwd()
            else:
                base = str((await list_roots_compat(ctx, root, name="root")).roots[0].uri)
            return base
        """),
    )


def test_hasattr_flag_variable(tmp_path):
    check_transformed(
        tmp_path,
        _server("""\
            supported = hasattr(ctx.session, "list_roots")
            if supported:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)
            return os.getcwd()
        """),
        _migrated("""\
            supported = hasattr(ctx.session, "list_roots")
            if root is not None or supported:
                result = await list_roots_compat(ctx, root, name="root")
                return str(result.roots[0].uri)
            return os.getcwd()
        """),
    )


def test_derived_flag_and_conditional_expression(tmp_path):
    check_transformed(
        tmp_path,
        _server("""\
            has_roots = ctx.session.client_params.capabilities.roots is not None
            result = (await ctx.session.list_roots()) if has_roots else None
            return str(result.roots[0].uri) if result else os.getcwd()
        """),
        _migrated(
            """\
            has_roots = ctx.session.client_params.capabilities.roots is not None
            result = (await list_roots_compat(ctx, root, name="root")) if root is not None or has_roots else None
            return str(result.roots[0].uri) if result else os.getcwd()
        """,
            ALIAS_LIST,
        ),
    )


def test_check_in_the_tool_around_the_helper_call(tmp_path):
    check_transformed(
        tmp_path,
        f"""\
{IMPORTS}
        mcp = FastMCP("x")

        async def first(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context) -> str:
            if ctx.session.client_params.capabilities.roots:
                return await first(ctx)
            return os.getcwd()
        """,
        f"""\
{NEW_IMPORTS}{aliases(ALIAS_ONE)}
        mcp = FastMCP("x")

        async def first(ctx: Context, root: str | None = None) -> str:
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)

        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            if root is not None or ctx.session.client_params.capabilities.roots:
                return await first(ctx, root=root)
            return os.getcwd()
        """,
    )


def test_noop_other_capability_is_not_a_roots_check(tmp_path):
    findings = check_transformed(
        tmp_path,
        _server("""\
            if ctx.session.client_params.capabilities.sampling:
                print("can sample")
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """),
        _migrated("""\
            if ctx.session.client_params.capabilities.sampling:
                print("can sample")
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """),
    )
    assert codes(findings) == ["MR101"]


def test_getattr_spelling_of_the_capabilities_with_early_return(tmp_path):
    """codex-in-claude's spelling: the capabilities and their `roots` read through `getattr`, an early return."""
    check_transformed(
        tmp_path,
        _server("""\
            capabilities = getattr(ctx.session, "client_capabilities", None)
            if capabilities is None or getattr(capabilities, "roots", None) is None:
                return os.getcwd()
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """),
        _migrated("""\
            capabilities = getattr(ctx.session, "client_capabilities", None)
            if (
                root is None
                and (capabilities is None or getattr(capabilities, "roots", None) is None)
            ):
                return os.getcwd()
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """),
    )


def test_widened_check_whose_old_condition_overflows_its_own_line_is_split_inside_the_call(tmp_path):
    """coco-search (the field check's lint step, audit/regressions/capability_guard_wrap_overflow.py): the
    88-column `if session.check_client_capability(...):` became an `or` line of 91 columns (E501)."""
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP
        from mcp.types import ClientCapabilities, RootsCapability

        mcp = FastMCP("wrap")


        async def detect_project(ctx: Context) -> str:
            try:
                session = ctx.session
                if session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
                    result = await session.list_roots()
                    return str(result.roots[0].uri)
            except Exception:
                pass
            return ""


        @mcp.tool()
        async def where(ctx: Context) -> str:
            return await detect_project(ctx)
        """,
        """\
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from mcp.types import ClientCapabilities, RootsCapability
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

        mcp = FastMCP("wrap")


        async def detect_project(ctx: Context, root: str | None = None) -> str:
            try:
                session = ctx.session
                if (
                    root is not None
                    or session.check_client_capability(
                        ClientCapabilities(roots=RootsCapability())
                    )
                ):
                    result = await list_roots_compat(session, root, name="root")
                    return str(result.roots[0].uri)
            except Exception:
                pass
            return ""


        @mcp.tool()
        async def where(ctx: Context, root: RootPath = None) -> str:
            return await detect_project(ctx, root=root)
        """,
    )
    assert "MR101" in codes(findings)


PREDICATE = """\
        def _has_roots(ctx) -> bool:
            caps = getattr(ctx.session.client_params, "capabilities", None)
            return getattr(caps, "roots", None) is not None

"""


def test_check_made_by_a_predicate_function_of_the_module_is_widened(tmp_path):
    # oh-my-cassette's shape: `if not _has_roots(ctx): return cwd` in front of the read. Left as it was, a
    # modern client passing `root` got the working directory.
    check_transformed(
        tmp_path,
        _server("""\
            if not _has_roots(ctx):
                return os.getcwd()
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """).replace('        mcp = FastMCP("x")\n', PREDICATE + '        mcp = FastMCP("x")\n'),
        _migrated("""\
            if root is None and not _has_roots(ctx):
                return os.getcwd()
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """).replace('        mcp = FastMCP("x")\n', PREDICATE + '        mcp = FastMCP("x")\n'),
    )


def test_noop_a_function_of_the_module_that_checks_something_else_is_no_check(tmp_path):
    # `_is_ready(ctx)` checks no capability: the guard in front of the read stays as it is.
    before = _server("""\
            if not _is_ready(ctx):
                return os.getcwd()
            result = await ctx.session.list_roots()
            return str(result.roots[0].uri)
        """).replace(
        '        mcp = FastMCP("x")\n',
        '        def _is_ready(ctx) -> bool:\n            return ctx is not None\n\n        mcp = FastMCP("x")\n',
    )
    after = _migrated("""\
            if not _is_ready(ctx):
                return os.getcwd()
            result = await list_roots_compat(ctx, root, name="root")
            return str(result.roots[0].uri)
        """).replace(
        '        mcp = FastMCP("x")\n',
        '        def _is_ready(ctx) -> bool:\n            return ctx is not None\n\n        mcp = FastMCP("x")\n',
    )
    check_transformed(tmp_path, before, after)


COMPAT = "from pkg._mcp_roots_compat import list_roots_compat\n"
CAPS_MODULE = {
    "caps.py": """\
        def client_has_roots(ctx) -> bool:
            caps = getattr(ctx.session.client_params, "capabilities", None)
            return getattr(caps, "roots", None) is not None
        """
}


def test_noop_a_function_of_another_module_that_checks_something_else_is_no_check(tmp_path):
    extra = {"caps.py": "def client_has_roots(ctx) -> bool:\n    return ctx is not None\n"}
    guard = "            if not client_has_roots(ctx):\n                return os.getcwd()\n"
    read = (
        "            result = await ctx.session.list_roots()\n            return str(result.roots[0].uri)\n"
    )
    before = _server(guard + read).replace(
        "from mcp.server.fastmcp import Context, FastMCP\n",
        "from mcp.server.fastmcp import Context, FastMCP\n\n        from pkg.caps import client_has_roots\n",
    )
    findings = check_transformed(
        tmp_path,
        before,
        _migrated(
            guard + read.replace("ctx.session.list_roots()", 'list_roots_compat(ctx, root, name="root")')
        ).replace(COMPAT, COMPAT + "        from pkg.caps import client_has_roots\n"),
        extra=extra,
    )
    assert "MR105" not in codes(findings)


def _imported_guard(
    tmp_path, spelling: str, call: str, imports: tuple[str, ...], extra: dict[str, str] | None = None
) -> None:
    """A predicate imported from a module of the project (`spelling`), called as `call` in front of the read:
    widened as a predicate of the module is (before, a modern client passing `root` got the cwd). `imports`:
    the project's import lines after the rewrite."""
    guard = f"            if not {call}(ctx):\n                return os.getcwd()\n"
    read = (
        "            result = await ctx.session.list_roots()\n            return str(result.roots[0].uri)\n"
    )
    before = _server(guard + read).replace(
        "from mcp.server.fastmcp import Context, FastMCP\n",
        f"from mcp.server.fastmcp import Context, FastMCP\n\n        {spelling}\n",
    )
    after = _migrated(
        guard.replace("if not", "if root is None and not")
        + read.replace("ctx.session.list_roots()", 'list_roots_compat(ctx, root, name="root")')
    ).replace(f"        {COMPAT}", "".join(f"        {line}\n" for line in imports))
    check_transformed(tmp_path, before, after, extra={**CAPS_MODULE, **(extra or {})})


def test_predicate_imported_by_name_is_widened(tmp_path):
    spelling = "from pkg.caps import client_has_roots"
    _imported_guard(tmp_path, spelling, "client_has_roots", (COMPAT.strip(), spelling))


def test_predicate_imported_relatively_under_another_name_is_widened(tmp_path):
    spelling = "from .caps import client_has_roots as has_roots"
    compat = "from ._mcp_roots_compat import list_roots_compat"
    _imported_guard(tmp_path, spelling, "has_roots", (compat, spelling))


def test_predicate_called_through_its_imported_module_is_widened(tmp_path):
    spelling = "from pkg import caps"
    _imported_guard(tmp_path, spelling, "caps.client_has_roots", (spelling, COMPAT.strip()))


def test_noop_a_reexported_name_bound_again_is_no_predicate(tmp_path):
    extra = {
        "checks.py": "from .caps import client_has_roots\n\n\ndef client_has_roots(ctx):\n    return True\n"
    }
    guard = "            if not client_has_roots(ctx):\n                return os.getcwd()\n"
    read = (
        "            result = await ctx.session.list_roots()\n            return str(result.roots[0].uri)\n"
    )
    spelling = "from pkg.checks import client_has_roots"
    before = _server(guard + read).replace(
        "from mcp.server.fastmcp import Context, FastMCP\n",
        f"from mcp.server.fastmcp import Context, FastMCP\n\n        {spelling}\n",
    )
    after = _migrated(
        guard + read.replace("ctx.session.list_roots()", 'list_roots_compat(ctx, root, name="root")')
    ).replace(COMPAT, COMPAT + f"        {spelling}\n")
    check_transformed(tmp_path, before, after, extra={**CAPS_MODULE, **extra})


def test_predicate_reexported_by_a_third_module_is_widened(tmp_path):
    """ai-governance's layout: the package's `checks.py` re-exports the predicate of `caps.py`."""
    spelling = "from pkg.checks import client_has_roots"
    extra = {"checks.py": "from .caps import client_has_roots\n\n__all__ = ['client_has_roots']\n"}
    _imported_guard(tmp_path, spelling, "client_has_roots", (COMPAT.strip(), spelling), extra)


def test_predicate_reexported_by_a_subpackage_under_another_name_is_widened(tmp_path):
    spelling = "from pkg.util import has_roots"
    extra = {"util/__init__.py": "from ..caps import client_has_roots as has_roots\n"}
    _imported_guard(tmp_path, spelling, "has_roots", (COMPAT.strip(), spelling), extra)


def test_predicate_reexported_twice_is_widened(tmp_path):
    spelling = "from pkg import has_roots"
    extra = {
        "__init__.py": "from pkg.util import has_roots\n",
        "util/__init__.py": "from pkg.util.checks import has_roots\n",
        "util/checks.py": "from pkg.caps import client_has_roots as has_roots\n",
    }
    _imported_guard(tmp_path, spelling, "has_roots", (spelling, COMPAT.strip()), extra)


def test_predicate_imported_inside_the_tool_is_widened(tmp_path):
    spelling = "from pkg.caps import client_has_roots"
    inner = f"            {spelling}\n\n"
    guard = "            if not client_has_roots(ctx):\n                return os.getcwd()\n"
    read = (
        "            result = await ctx.session.list_roots()\n            return str(result.roots[0].uri)\n"
    )
    after = _migrated(
        inner
        + guard.replace("if not", "if root is None and not")
        + read.replace("ctx.session.list_roots()", 'list_roots_compat(ctx, root, name="root")')
    )
    check_transformed(tmp_path, _server(inner + guard + read), after, extra=CAPS_MODULE)


def test_capabilities_known_and_roots_in_one_test_are_widened_together(tmp_path):
    # MemoryForge: `if caps is not None and caps.roots:` holds the read; the `is not None` half is part of the
    # check, not a capabilities read of another kind (it had been marked MR105).
    test = "session.client_capabilities is not None and session.client_capabilities.roots"
    body = """\
            session = ctx.session
            if {test}:
                result = await {read}
                return str(result.roots[0].uri)
            return os.getcwd()
        """
    check_transformed(
        tmp_path,
        _server(body.format(test=test, read="session.list_roots()")),
        _migrated(
            body.format(
                test=f"(\n                root is not None\n                or ({test})\n            )",
                read='list_roots_compat(session, root, name="root")',
            )
        ),
    )


@pytest.mark.parametrize("name", ["detect_roots_capability", "client_supports_roots", "_check_roots_support"])
def test_predicate_named_for_the_roots_capability_is_widened(tmp_path, name):
    """mito's `detect_roots_capability(ctx)` reaches the capability through helpers of its own
    (`_has_capability(caps, "roots")`), which no spelling above sees: its name says what it checks. Taking
    another check for one would only let an explicit argument past it; missing one ignores the argument."""
    extra = {
        "caps.py": f"""\
            def {name}(ctx) -> bool:
                return _has(_caps_of(ctx), "ro" + "ots")


            def _caps_of(ctx):
                return ctx.session.client_params


            def _has(caps, field) -> bool:
                return getattr(caps, field, None) is not None
            """
    }
    spelling = f"from pkg.caps import {name}"
    _imported_guard(tmp_path, spelling, name, (COMPAT.strip(), spelling), extra)


@pytest.mark.parametrize(
    ("test", "widened"),
    [
        ('ctx.protocol_version >= "2026-07-28"', 'root is None and ctx.protocol_version >= "2026-07-28"'),
        (
            'params is None or params.protocolVersion < "2025-06-18"',
            'root is None and (params is None or params.protocolVersion < "2025-06-18")',
        ),
    ],
)
def test_a_test_of_the_client_era_in_front_of_the_read_is_widened(tmp_path, test, widened):
    """Sweep G, r07 (mcp 2.x): modern requests took a configured folder before the read, and the new argument
    was ignored on exactly the requests it was added for."""
    body = (
        "    params = ctx.session.client_params\n"
        f"    if {test}:\n        return os.environ.get('WORKSPACE', '/srv')\n"
        "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    )
    source = "import os\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n"
    source += "@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body
    (tmp_path / "server.py").write_text(source)
    helpers.run_engine(tmp_path, select=["MR1"])
    text = (tmp_path / "server.py").read_text()
    assert f"    if {widened}:\n" in text
    assert 'list_roots_compat(ctx, root, name="root")' in text


def test_noop_the_era_named_elsewhere_is_no_check(tmp_path):
    body = (
        "    print('era', ctx.session.client_params.protocolVersion)\n"
        "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    )
    source = "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n"
    source += "@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body
    (tmp_path / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"]) for f in r.findings]
    assert codes(findings) == ["MR101"] and findings[0].action.value == "rewritten"


def _era_server(tmp_path, top: str, body: str, extra: dict[str, str] | None = None) -> str:
    """Run the rewrite on a tool whose `body` (four spaces in) tests the era before its read; `top`: lines of
    the module before the server. Returns the server module as written."""
    for name, text in (extra or {}).items():
        (tmp_path / name).write_text(text)
    source = (
        "import os\n\nfrom mcp.server.fastmcp import Context, FastMCP\n" + top + "\nmcp = FastMCP('x')\n\n\n"
    )
    source += "@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body
    source += "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "server.py").write_text(source)
    helpers.run_engine(tmp_path, select=["MR1"])
    text = (tmp_path / "server.py").read_text()
    assert 'list_roots_compat(ctx, root, name="root")' in text
    return text


LEAVE = "        return os.environ.get('WORKSPACE', '/srv')\n"


@pytest.mark.parametrize(
    ("top", "test"),
    [
        ("\nLIMIT = 5\n", "ctx.protocol_version >= LIMIT"),  # not a date
        ("\nMODERN = '2026-07-28'\n", "os.environ.get('SINCE', '') >= MODERN"),  # not the era
        (
            "\nMODERN = '2026-07-28'\nMODERN = os.environ.get('MODERN', MODERN)\n",
            "ctx.protocol_version >= MODERN",
        ),
    ],
)
def test_noop_a_comparison_beside_no_era_or_no_date_is_no_check(tmp_path, top, test):
    text = _era_server(tmp_path, top, f"    if {test}:\n{LEAVE}")
    assert f"    if {test}:\n" in text


@pytest.mark.parametrize(
    ("top", "body", "widened"),
    [
        ("\nMODERN = '2026-07-28'\n", "", "ctx.protocol_version >= MODERN"),
        ("\nLEGACY = {'2025-06-18', '2025-11-25'}\n", "", "ctx.protocol_version not in LEGACY"),
        ("\nLEGACY: tuple[str, ...] = ('2025-06-18',)\n", "", "ctx.protocol_version not in LEGACY"),
        ("", "    version = ctx.protocol_version\n", "version >= '2026-07-28'"),
        ("", "    cutoff = '2026-07-28'\n", "ctx.protocol_version >= cutoff"),
        ("", "", "ctx.protocol_version not in ('2025-06-18', '2025-11-25')"),
        (
            "\n\ndef stateless(ctx) -> bool:\n    return ctx.protocol_version >= MODERN\n\n\nMODERN = '2026-07-28'\n",
            "",
            "stateless(ctx)",
        ),
    ],
)
def test_an_era_test_through_a_constant_a_local_or_a_predicate_is_widened(tmp_path, top, body, widened):
    """Sweep I, r03 (mcp 2.x, proven with the SDK): the date in a module constant, a local, a set of dates, or
    the test in a predicate of the module was left as it was: `root` was ignored on modern requests."""
    text = _era_server(tmp_path, top, f"{body}    if {widened}:\n{LEAVE}")
    assert f"    if root is None and {widened}:\n" in text


@pytest.mark.parametrize(
    ("spelling", "test"),
    [
        ("from .versions import MODERN", "ctx.protocol_version >= MODERN"),
        ("from . import versions", "ctx.protocol_version >= versions.MODERN"),
        ("from .versions import is_modern", "is_modern(ctx)"),
        ("from . import versions", "versions.is_modern(ctx)"),
    ],
)
def test_an_era_test_through_another_module_is_widened(tmp_path, spelling, test):
    versions = "MODERN = '2026-07-28'\n\n\ndef is_modern(ctx):\n    return ctx.protocol_version >= MODERN\n"
    text = _era_server(tmp_path, f"\n{spelling}\n", f"    if {test}:\n{LEAVE}", {"versions.py": versions})
    assert f"    if root is None and {test}:\n" in text


@pytest.mark.parametrize(
    ("top", "test"),
    [
        (
            "from mcp.types.version import KNOWN_PROTOCOL_VERSIONS",
            "ctx.protocol_version in KNOWN_PROTOCOL_VERSIONS",
        ),
        (
            "from mcp.types.version import is_version_at_least",
            "is_version_at_least(os.environ['V'], '2026-07-28')",
        ),
        ("from mcp.types.version import LATEST_MODERN_VERSION", "os.environ['V'] == LATEST_MODERN_VERSION"),
    ],
)
def test_noop_the_sdk_version_names_beside_no_era_or_every_version_are_no_check(tmp_path, top, test):
    text = _era_server(tmp_path, f"{top}\n", f"    if {test}:\n{LEAVE}")
    assert f"    if {test}:\n" in text


@pytest.mark.parametrize(
    ("top", "test"),
    [
        (
            "from mcp.types.version import is_version_at_least",
            "is_version_at_least(ctx.protocol_version, '2026-07-28')",
        ),
        (
            "from mcp.types.version import MODERN_PROTOCOL_VERSIONS",
            "ctx.protocol_version in MODERN_PROTOCOL_VERSIONS",
        ),
        (
            "from mcp.types.version import LATEST_MODERN_VERSION",
            "ctx.protocol_version == LATEST_MODERN_VERSION",
        ),
        (
            "from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS as OLD",
            "ctx.protocol_version not in OLD",
        ),
        ("from mcp.types import version", "version.is_version_at_least(ctx.protocol_version, '2026-07-28')"),
        ("import mcp.types.version", "ctx.protocol_version in mcp.types.version.MODERN_PROTOCOL_VERSIONS"),
        ("import mcp_types.version as mv", "not mv.is_version_at_least(ctx.protocol_version, '2026-07-28')"),
    ],
)
def test_an_era_test_through_the_sdk_version_registry_is_widened(tmp_path, top, test):
    """Sweep N, r01 (mcp 2.x, proven with the SDK): the SDK's own helper and constants for the question
    (`mcp.types.version`) were no era test: `root` was ignored on modern requests."""
    text = _era_server(tmp_path, f"{top}\n", f"    if {test}:\n{LEAVE}")
    assert f"if root is None and {test}:" in " ".join(
        text.replace("(\n", "").replace("\n    ):", ":").split()
    )


def test_noop_a_check_alone_beside_an_operator_switch_elsewhere_is_widened_whole(tmp_path):
    text = _era_server(
        tmp_path,
        "\nREAD_ONLY = False\n",
        f"    if READ_ONLY:\n{LEAVE}    if not ctx.session.client_params.capabilities.roots:\n{LEAVE}",
    )
    assert "    if READ_ONLY:\n" in text
    assert "    if root is None and not ctx.session.client_params.capabilities.roots:\n" in text


@pytest.mark.parametrize(
    ("test", "widened"),
    [
        (
            "READ_ONLY or ctx.protocol_version >= '2026-07-28'",
            "READ_ONLY or (root is None and ctx.protocol_version >= '2026-07-28')",
        ),
        (
            "READ_ONLY or not ctx.session.client_params.capabilities.roots",
            "READ_ONLY or (root is None and not ctx.session.client_params.capabilities.roots)",
        ),
        (
            "READ_ONLY and ctx.protocol_version >= '2026-07-28' or LOCKED",
            "READ_ONLY and (root is None and ctx.protocol_version >= '2026-07-28') or LOCKED",
        ),
    ],
)
def test_only_the_check_of_a_test_joined_to_an_operator_switch_is_widened(tmp_path, test, widened):
    """Sweep N, r02 (mcp 2.x and 1.x, proven with the SDK): `if READ_ONLY or <era test>: return` was widened as a
    whole, so a caller passing `root` wrote through the operator's READ_ONLY switch."""
    text = _era_server(tmp_path, "\nREAD_ONLY = LOCKED = True\n", f"    if {test}:\n{LEAVE}")
    assert f"    if {widened}:\n" in text


def test_only_the_check_of_a_test_holding_the_read_is_widened(tmp_path):
    check_transformed(
        tmp_path,
        _server("""\
            if os.environ.get("ENABLED") and ctx.session.client_params.capabilities.roots:
                result = await ctx.session.list_roots()
                return str(result.roots[0].uri)
            return os.getcwd()
        """),
        _migrated("""\
            if os.environ.get("ENABLED") and (root is not None or ctx.session.client_params.capabilities.roots):
                result = await list_roots_compat(ctx, root, name="root")
                return str(result.roots[0].uri)
            return os.getcwd()
        """),
    )


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            "    if not (READ_ONLY or ctx.session.client_params.capabilities.roots):\n        return 'off'\n",
            "shares its test with other conditions",
        ),
        (
            "    blocked = READ_ONLY or ctx.protocol_version >= '2026-07-28'\n    if blocked:\n        return 'off'\n",
            "a roots-capability check guards this call",
        ),
        (
            "    if blocked(ctx):\n        return 'off'\n",
            "`blocked(ctx)` checks the roots capability together with",
        ),
    ],
)
def test_a_check_joined_to_other_conditions_where_it_cannot_be_split_is_marked(tmp_path, body, said):
    top = "\nREAD_ONLY = True\n\n\ndef blocked(ctx):\n    return READ_ONLY or ctx.protocol_version >= '2026-07-28'\n"
    source = (
        "import os\n\nfrom mcp.server.fastmcp import Context, FastMCP\n" + top + "\nmcp = FastMCP('x')\n\n\n"
    )
    source += "@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body
    source += "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    findings = helpers.check_noop(tmp_path, source, select=["MR1"], write=False)
    assert codes(findings) == ["MR105"], findings
    assert said in findings[0].message.replace("\n", " ")
