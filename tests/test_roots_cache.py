"""MR211-MR218: roots caches, eager fetches, refresh tasks, dead roots code and wording.

Most cases select MR2 only, so that what MR101 does to the same file (tested in test_roots_call.py) does not
blur what these rules do; one case runs every default rule together.
"""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers
from tests.helpers import check_noop, check_transformed, codes

MR2 = {"select": ["MR2"]}

# --- noop cases first ------------------------------------------------------------------------------------


def test_noop_users_own_roots_cache_without_the_sdk(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        _roots = None


        def tree_roots(forest):
            global _roots
            if _roots is None:
                _roots = [t for t in forest if t.parent is None]
            return _roots
        """,
    )
    assert findings == []


def test_noop_users_own_list_roots_method_cached(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        from .repo import Repo

        mcp = FastMCP("x")
        _cache = None


        async def cached(repo: Repo):
            global _cache
            if _cache is None:
                _cache = await repo.list_roots()
            return _cache
        """,
        extra={"repo.py": "class Repo:\n    async def list_roots(self):\n        return []\n"},
    )
    assert findings == []


def test_noop_dead_helper_used_from_another_module_or_exported(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context

        __all__ = ["exported_roots"]


        async def exported_roots(ctx: Context):
            return await ctx.session.list_roots()


        async def shared_roots(ctx: Context):
            return await ctx.session.list_roots()
        """,
        extra={"cli.py": "from .server import shared_roots\n\nprint(shared_roots)\n"},
        **MR2,
    )
    assert findings == []


# --- rewrites --------------------------------------------------------------------------------------------


def test_stale_flag_cache_read_only_by_the_fetching_tool(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        _roots_cache: list[str] = []
        _roots_stale = True


        async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
            global _roots_stale
            _roots_stale = True


        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed


        @mcp.tool()
        async def where(ctx: Context) -> str:
            global _roots_cache, _roots_stale
            if _roots_stale:
                _roots_cache = [str(r.uri) for r in (await ctx.session.list_roots()).roots]
                _roots_stale = False
            return _roots_cache[0]
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def where(ctx: Context) -> str:
            _roots_cache = [str(r.uri) for r in (await ctx.session.list_roots()).roots]
            return _roots_cache[0]
        """,
        **MR2,
    )
    assert codes(findings) == ["MR201", "MR211"]
    assert all(f.action.value == "rewritten" for f in findings)


def test_stale_flag_cache_with_every_default_rule(tmp_path):
    # MR101 gives the tool its path argument in the same run; only the parts of this rule are pinned here.
    root = tmp_path / "proj" / "pkg"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "server.py").write_text(
        "import mcp.types as types\n"
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n'
        "_cache: list[str] = []\n"
        "_stale = True\n\n\n"
        "async def _changed(notification: types.RootsListChangedNotification) -> None:\n"
        "    global _stale\n"
        "    _stale = True\n\n\n"
        "mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _changed\n\n\n"
        "@mcp.tool()\n"
        "async def where(ctx: Context) -> str:\n"
        "    global _cache, _stale\n"
        "    if _stale:\n"
        "        _cache = [str(r.uri) for r in (await ctx.session.list_roots()).roots]\n"
        "        _stale = False\n"
        "    return _cache[0]\n"
    )
    from tests.helpers import flakes, run_engine

    results = run_engine(tmp_path / "proj")
    text = (root / "server.py").read_text()
    assert "_stale" not in text and "global" not in text and "notification_handlers" not in text
    assert "list_roots_compat(ctx, root" in " ".join(text.split()).replace("( ", "(")
    assert not flakes(text)
    assert {"MR101", "MR201", "MR211"} <= {f.code for r in results for f in r.findings}


def test_once_per_process_cache_in_a_helper(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _roots = None


        async def get_roots(ctx: Context):
            global _roots
            if _roots is None:
                _roots = (await ctx.session.list_roots()).roots
            return _roots


        @mcp.tool()
        async def first(ctx: Context) -> str:
            return str((await get_roots(ctx))[0].uri)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def get_roots(ctx: Context):
            _roots = (await ctx.session.list_roots()).roots
            return _roots


        @mcp.tool()
        async def first(ctx: Context) -> str:
            return str((await get_roots(ctx))[0].uri)
        """,
        **MR2,
    )
    assert codes(findings) == ["MR211"]


def test_chained_initialized_handler_keeps_its_other_links(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        _previous = mcp._mcp_server.notification_handlers.get(types.InitializedNotification)


        async def _warm_roots() -> None:
            session = mcp.get_context().session
            await session.list_roots()


        async def _on_initialized(notification: types.InitializedNotification) -> None:
            if _previous is not None:
                await _previous(notification)
            print("client ready")
            await _warm_roots()


        mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
        """,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        _previous = mcp._mcp_server.notification_handlers.get(types.InitializedNotification)


        async def _on_initialized(notification: types.InitializedNotification) -> None:
            if _previous is not None:
                await _previous(notification)
            print("client ready")


        mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
        """,
        **MR2,
    )
    assert codes(findings) == ["MR213", "MR216"]


def test_dead_helpers_and_discarded_results(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def _workspace_roots(ctx: Context) -> list[str]:
            result = await ctx.session.list_roots()
            return [str(r.uri) for r in result.roots]


        async def _first_root(ctx: Context) -> str:
            return (await _workspace_roots(ctx))[0]


        @mcp.resource("info://server")
        async def info(ctx: Context) -> str:
            await ctx.session.list_roots()
            return "server x"
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.resource("info://server")
        async def info(ctx: Context) -> str:
            return "server x"
        """,
        **MR2,
    )
    assert codes(findings) == ["MR216", "MR216", "MR217"]
    assert "nothing in the package calls it" in findings[0].message


# --- marked ------------------------------------------------------------------------------------------------


def test_stale_flag_cache_read_by_a_tool_and_a_non_tool_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        _roots_cache: list[str] = []
        _roots_stale = True


        async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
            global _roots_stale
            _roots_stale = True


        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed


        @mcp.tool()
        async def where(ctx: Context) -> str:
            global _roots_cache, _roots_stale
            if _roots_stale:
                _roots_cache = [str(r.uri) for r in (await ctx.session.list_roots()).roots]
                _roots_stale = False
            return _roots_cache[0]


        def status() -> str:
            return ", ".join(_roots_cache)
        """,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        # migrate-roots: MR211: `_roots_cache` keeps roots (or their staleness) across requests,
        #   and cannot go yet: read by `status`, a function that does not fetch it; read the
        #   `root` argument per request instead
        _roots_cache: list[str] = []
        # migrate-roots: MR211: `_roots_stale` keeps roots (or their staleness) across requests,
        #   and cannot go yet: shares a guard with `_roots_cache`; read the `root` argument per
        #   request instead
        _roots_stale = True


        # migrate-roots: MR202: a roots list_changed handler, kept with its registration
        #   (`notification_handlers[RootsListChangedNotification]`, see its marker): the
        #   notification does not exist in MCP 2026-07-28
        async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
            global _roots_stale
            _roots_stale = True


        # migrate-roots: MR202: the handler invalidates `_roots_stale` which is still read (see
        #   MR211): remove both once the readers take the `root` argument
        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed


        @mcp.tool()
        async def where(ctx: Context) -> str:
            global _roots_cache, _roots_stale
            if _roots_stale:
                _roots_cache = [str(r.uri) for r in (await ctx.session.list_roots()).roots]
                _roots_stale = False
            return _roots_cache[0]


        def status() -> str:
            return ", ".join(_roots_cache)
""",
        **MR2,
    )
    assert codes(findings) == ["MR202", "MR202", "MR211", "MR211"]


def test_cache_read_by_another_tool_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _roots = None


        @mcp.tool()
        async def load(ctx: Context) -> str:
            global _roots
            if _roots is None:
                _roots = (await ctx.session.list_roots()).roots
            return "loaded"


        @mcp.tool()
        async def show() -> str:
            return str(_roots)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        # migrate-roots: MR211: `_roots` keeps roots (or their staleness) across requests, and
        #   cannot go yet: read by `show`, a tool that does not fetch it; read the `root`
        #   argument per request instead
        _roots = None


        @mcp.tool()
        async def load(ctx: Context) -> str:
            global _roots
            if _roots is None:
                _roots = (await ctx.session.list_roots()).roots
            return "loaded"


        @mcp.tool()
        async def show() -> str:
            return str(_roots)
""",
        **MR2,
    )
    assert codes(findings) == ["MR211"]


def test_class_level_cache_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        class Workspace:
            roots: list[str] | None = None

            async def refresh(self, ctx: Context) -> None:
                result = await ctx.session.list_roots()
                Workspace.roots = [str(r.uri) for r in result.roots]
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        class Workspace:
            roots: list[str] | None = None

            async def refresh(self, ctx: Context) -> None:
                result = await ctx.session.list_roots()
                # migrate-roots: MR212: roots kept on `Workspace.roots` outlive the request (a
                #   class attribute, shared by every instance): take the directory per request
                #   instead (a `root` argument the tool passes down)
                Workspace.roots = [str(r.uri) for r in result.roots]
""",
        **MR2,
    )
    assert codes(findings) == ["MR212"]


def test_refresh_task_probe_and_wording_are_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import asyncio

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def _refresh_loop(ctx: Context) -> None:
            while True:
                print((await ctx.session.list_roots()).roots)
                await asyncio.sleep(60)


        @mcp.tool()
        async def watch(ctx: Context) -> str:
            asyncio.create_task(_refresh_loop(ctx))
            return "watching"


        @mcp.tool()
        async def probe(ctx: Context) -> str:
            try:
                await ctx.session.list_roots()
            except Exception:
                return "No roots configured: please configure roots in your MCP client"
            return "ok"
        """,
        """\
        import asyncio

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def _refresh_loop(ctx: Context) -> None:
            while True:
                print((await ctx.session.list_roots()).roots)
                await asyncio.sleep(60)


        @mcp.tool()
        async def watch(ctx: Context) -> str:
            # migrate-roots: MR214: background roots refresh (`_refresh_loop`): roots cannot be
            #   fetched outside a request on MCP 2026-07-28 and no signal says they changed;
            #   drop the task, give the tools that need the directory a path argument (their own
            #   markers say where)
            asyncio.create_task(_refresh_loop(ctx))
            return "watching"


        @mcp.tool()
        async def probe(ctx: Context) -> str:
            try:
                # migrate-roots: MR217: roots fetched and the result thrown away (probes the
                #   roots capability inside try): delete the call, or test the `root` argument
                #   instead
                await ctx.session.list_roots()
            except Exception:
                return "No roots configured: please configure roots in your MCP client"
            return "ok"
""",
        **MR2,
    )
    assert codes(findings) == ["MR214", "MR217", "MR218"]
    assert {f.code: f.severity.value for f in findings}["MR214"] == "broken"


def test_wording_uses_the_configured_param_name(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        ERROR = "Client does not support roots"  # migrate-roots: ignore[MR218]
        """,
    )
    assert findings == []
    findings = check_transformed(
        tmp_path / "b",
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        ERROR = "Client does not support roots"
        """,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        # migrate-roots: MR218: this text speaks of MCP roots ("support roots"), deprecated in
        #   MCP 2026-07-28: tell users how to give the directory instead: the tools' path
        #   argument (`workdir`, unless their MR101/MR102 findings name another), or
        #   MCP_ROOTS_ALLOWED_PATHS where the server runs when roots bound what the tools may
        #   touch (MR110)
        ERROR = "Client does not support roots"
""",
        settings={"param-name": "workdir"},
        select=["MR218"],
    )
    assert codes(findings) == ["MR218"]


def test_wording_in_a_tool_description_is_marked_other_docstrings_are_not(tmp_path):
    findings = check_transformed(
        tmp_path,
        '''\
        """Add roots support to the server."""

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        class Forwarder:
            """Supports forwarding roots."""


        @mcp.tool()
        def grep(pattern: str) -> str:
            """Search the files. The client must provide roots."""
            return pattern
        ''',
        '''\
        """Add roots support to the server."""

        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        class Forwarder:
            """Supports forwarding roots."""


        @mcp.tool()
        def grep(pattern: str) -> str:
            # migrate-roots: MR218: this text speaks of MCP roots ("provide roots"), deprecated
            #   in MCP 2026-07-28: tell users how to give the directory instead: the tools' path
            #   argument (`root`, unless their MR101/MR102 findings name another), or
            #   MCP_ROOTS_ALLOWED_PATHS where the server runs when roots bound what the tools
            #   may touch (MR110)
            """Search the files. The client must provide roots."""
            return pattern
''',
        select=["MR218"],
    )
    assert codes(findings) == ["MR218"]


def test_public_dead_helper_is_reported_not_removed(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context


        async def on_initialized(ctx: Context):
            return await ctx.session.list_roots()
        """,
        **MR2,
    )
    assert codes(findings) == ["MR216"]
    assert findings[0].action.value == "reported" and "public" in findings[0].message


def test_test_function_that_reads_roots_is_not_a_dead_helper(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context


        async def test_roots_probe(ctx: Context):
            assert (await ctx.session.list_roots()).roots
        """,
        **MR2,
    )
    assert "MR216" not in codes(findings)


def test_eager_fetch_with_other_effects_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("files")
        CONFIG = {}


        async def _load_config() -> None:
            result = await mcp.get_context().session.list_roots()
            CONFIG["dirs"] = [str(r.uri) for r in result.roots]


        async def _on_initialized(notification: types.InitializedNotification) -> None:
            await _load_config()


        mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
        """,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("files")
        CONFIG = {}


        async def _load_config() -> None:
            result = await mcp.get_context().session.list_roots()
            CONFIG["dirs"] = [str(r.uri) for r in result.roots]


        async def _on_initialized(notification: types.InitializedNotification) -> None:
            # migrate-roots: MR213: eager roots fetch at `initialized` (`_load_config()`) does
            #   more than read roots, and cannot happen on MCP 2026-07-28: move what it sets up
            #   to server configuration or to the tools' `root` argument
            await _load_config()


        mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
""",
        **MR2,
    )
    assert codes(findings) == ["MR213"]


def test_cache_guard_testing_none_waits_for_mr105_and_stays_idempotent(tmp_path):
    # MR101 refuses the read (MR105) because of the cache's `is None` test: unwrapping the guard here would
    # let a second run rewrite it, so the cache is marked instead and a second run changes nothing.
    from tests.helpers import run_engine

    root = tmp_path / "proj" / "pkg"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "server.py").write_text(
        "from mcp.server.fastmcp import Context, FastMCP\n\n"
        'mcp = FastMCP("x")\n'
        "_roots = None\n\n\n"
        "async def get_roots(ctx: Context):\n"
        "    global _roots\n"
        "    if _roots is None:\n"
        "        _roots = (await ctx.session.list_roots()).roots\n"
        "    return _roots\n\n\n"
        "@mcp.tool()\n"
        "async def first(ctx: Context) -> str:\n"
        "    return str((await get_roots(ctx))[0].uri)\n"
    )
    first = run_engine(tmp_path / "proj")
    text = (root / "server.py").read_text()
    again = run_engine(tmp_path / "proj")
    assert (root / "server.py").read_text() == text
    assert not [r for r in again if r.status.value == "changed"]
    found = {f.code: f for r in first for f in r.findings}
    if "MR105" in found:  # today's MR101 plan; should it stop refusing, the cache goes in one run instead
        assert found["MR211"].action.value == "marked" and "MR105" in found["MR211"].message
    else:
        assert "global" not in text


def test_noop_warning_filter_pattern_is_not_user_facing_text(tmp_path):
    """A warnings filter names the SDK's message to silence it; nobody reads it (seen in a real server)."""
    findings = check_noop(
        tmp_path,
        """\
        import warnings

        from mcp import MCPDeprecationWarning
        from mcp.server.mcpserver import MCPServer

        warnings.filterwarnings("ignore", message=r"The roots capability is deprecated", category=MCPDeprecationWarning)
        mcp = MCPServer("x")
        """,
    )
    assert [f for f in findings if f.code == "MR218"] == []


def test_noop_wording_is_reported_not_marked_by_default(tmp_path):
    """MR218 is a hint about text: in the report only, unless `--select MR218` asks for markers."""
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        ERROR = "Client does not support roots"


        @mcp.tool(description="Needs roots: configure roots in your client")
        def grep(pattern: str) -> str:
            \"\"\"Search the files. The client must provide roots.\"\"\"
            return pattern
        """,
    )
    assert codes(findings) == ["MR218", "MR218", "MR218"]
    assert {f.action.value for f in findings} == {"reported"}


def test_wording_in_decorator_and_docstring_marks_each_place_once(tmp_path):
    """Seen on a real server: a marker from the decorator's text and one from the docstring, twice above the
    function on the first run and a third time on the second."""
    findings = check_transformed(
        tmp_path,
        '''\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        @mcp.tool(
            description="Needs roots: configure roots in your client",
        )
        def grep(pattern: str) -> str:
            """Search the files. The client must provide roots."""
            return pattern
        ''',
        '''\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        # migrate-roots: MR218: this text speaks of MCP roots ("configure roots"), deprecated in
        #   MCP 2026-07-28: tell users how to give the directory instead: the tools' path
        #   argument (`root`, unless their MR101/MR102 findings name another), or
        #   MCP_ROOTS_ALLOWED_PATHS where the server runs when roots bound what the tools may
        #   touch (MR110)
        @mcp.tool(
            description="Needs roots: configure roots in your client",
        )
        def grep(pattern: str) -> str:
            # migrate-roots: MR218: this text speaks of MCP roots ("provide roots"), deprecated
            #   in MCP 2026-07-28: tell users how to give the directory instead: the tools' path
            #   argument (`root`, unless their MR101/MR102 findings name another), or
            #   MCP_ROOTS_ALLOWED_PATHS where the server runs when roots bound what the tools
            #   may touch (MR110)
            """Search the files. The client must provide roots."""
            return pattern
        ''',
        select=["MR218"],
    )
    assert codes(findings) == ["MR218", "MR218"]


# --- a once-per-process flag tested by an early return (repobrain's `_maybe_upgrade_via_roots`) ----------

_EARLY_RETURN = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")
    _workspace: Path | None = None
    _attempted = False


    def _to_path(uri: str) -> Path | None:
        return Path(uri[7:]) if uri.startswith("file://") else None


    async def _upgrade(ctx: Context) -> None:
        global _workspace, _attempted
        {guard}
        _attempted = True
        try:
            result = await ctx.request_context.session.list_roots()
        except Exception:
            return
        if not result.roots:
            return
        found = _to_path(str(result.roots[0].uri))
        if found is None or not found.exists():
            return
        _workspace = found


    @mcp.tool()
    async def where(ctx: Context) -> str:
        await _upgrade(ctx)
        return str(_workspace)
    """


def _early_return_after(guard: str) -> str:
    workspace = (
        "    # migrate-roots: MR211: `_workspace` keeps roots (or their staleness) across requests,\n"
        "    #   and cannot go yet: read by `where`, a tool that does not fetch it; also read by\n"
        "    #   `_upgrade`, which reads roots behind a guard migrate-roots does not unwrap (an early\n"
        "    #   `return`, or more than one test); read the `root` argument per request instead\n"
    )
    flag = (
        "    # migrate-roots: MR211: `_attempted` keeps roots (or their staleness) across requests,\n"
        "    #   and cannot go yet: read by `_upgrade`, which reads roots behind a guard\n"
        "    #   migrate-roots does not unwrap (an early `return`, or more than one test); read the\n"
        "    #   `root` argument per request instead\n"
    )
    site = (
        "            # migrate-roots: MR211: roots read behind `_attempted`, a cache that stays (see\n"
        "            #   its MR211 marker): a path argument here would be read when the cache is\n"
        "            #   filled and ignored while it holds; remove the cache by hand, then run again\n"
    )
    return (
        _EARLY_RETURN.format(guard=guard)
        .replace("    _workspace: Path", workspace + "    _workspace: Path")
        .replace("    _attempted = False", flag + "    _attempted = False")
        .replace("            result = await", site + "            result = await")
    )


@pytest.mark.parametrize(
    "guard", ["if _attempted:\n            return", "if _attempted:\n            return None"]
)
def test_once_per_process_flag_tested_by_an_early_return_is_named_at_the_read(tmp_path, guard):
    findings = check_transformed(tmp_path, _EARLY_RETURN.format(guard=guard), _early_return_after(guard))
    assert codes(findings) == ["MR211", "MR211", "MR211"]
    assert not any(f.code == "MR105" for f in findings)  # `found is None` is `_to_path`'s answer, not roots'


# --- a cache filled deeper inside the guard (semantic-cache-mcp's `_resolve_client_root`) ------------------

_SEEDED = """\
    from pathlib import Path

    from fastmcp import Context, FastMCP

    mcp = FastMCP("x")
    {definition}
    _resolved = False


    async def _client_root(ctx: Context) -> Path | None:
        global _root, _resolved
        {before}if not _resolved:
            try:
                roots = await ctx.list_roots()
                if roots:
                    _root = Path(str(roots[0].uri)[7:])
            except Exception:
                pass
            _resolved = True
        return _root


    @mcp.tool()
    async def where(ctx: Context) -> str:
        return str(await _client_root(ctx))
    """


@pytest.mark.parametrize("definition", ["_root: Path | None = None", "_root = None"])
def test_cache_filled_inside_the_guard_starts_from_its_module_value(tmp_path, definition):
    findings = check_transformed(
        tmp_path,
        _SEEDED.format(definition=definition, before=""),
        f"""\
        from pathlib import Path

        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        async def _client_root(ctx: Context) -> Path | None:
            {definition}
            try:
                roots = await ctx.list_roots()
                if roots:
                    _root = Path(str(roots[0].uri)[7:])
            except Exception:
                pass
            return _root


        @mcp.tool()
        async def where(ctx: Context) -> str:
            return str(await _client_root(ctx))
        """,
        **MR2,
    )
    assert codes(findings) == ["MR211"]


@pytest.mark.parametrize(
    ("definition", "before"),
    [
        ("_root = Path.cwd()", ""),  # not a literal: the start value is computed once, at import
        ("_root = None", "print(_root)\n        "),  # read before the guard: the global's value
    ],
)
def test_noop_cache_filled_inside_the_guard_without_a_literal_start_or_read_before_it(
    tmp_path, definition, before
):
    root = helpers._layout(tmp_path, _SEEDED.format(definition=definition, before=before), None, True)
    findings = [f for r in helpers.run_engine(root, write=False, **MR2) for f in r.findings]
    assert codes(findings) == ["MR211", "MR211"]  # the two globals, marked
    assert all(f.action.value == "marked" for f in findings)


# --- roots kept on an attribute: the read is marked, never given a path argument (MR212) -------------------

_WORKSPACE = """\
from mcp.server.fastmcp import Context


class Workspace:
    def __init__(self) -> None:
        self._roots: list[str] = []

    async def load(self, ctx: Context) -> list[str]:
        if not self._roots:
            result = await ctx.session.list_roots()
            self._roots = [str(r.uri) for r in result.roots]
        return self._roots


workspace = Workspace()
"""

_WHERE_LOADS = """\
from mcp.server.fastmcp import Context, FastMCP

from .workspace import workspace

mcp = FastMCP("files")


@mcp.tool()
async def where(ctx: Context) -> str:
    return str(await workspace.load(ctx))
"""


def test_noop_roots_on_an_object_the_function_builds_are_rewritten_not_kept(tmp_path):
    """`found = Found(); found.roots = ...`: the object dies with the request, so the read is rewritten."""
    findings = helpers.run_engine(
        helpers._layout(
            tmp_path,
            """\
            from mcp.server.fastmcp import Context, FastMCP

            mcp = FastMCP("files")


            class Found:
                roots: list[str] = []


            @mcp.tool()
            async def where(ctx: Context) -> str:
                found = Found()
                result = await ctx.session.list_roots()
                found.roots = [str(r.uri) for r in result.roots]
                return ", ".join(found.roots)
            """,
            None,
            True,
        ),
        write=False,
    )
    assert codes(f for r in findings for f in r.findings) == ["MR101"]


def test_an_instance_attribute_behind_a_guard_in_a_helper_module_marks_the_read(tmp_path):
    root = helpers._layout(tmp_path, _WHERE_LOADS, {"workspace.py": _WORKSPACE}, True)
    results = helpers.run_engine(root)
    found = [(f.path, f.line, f.code, f.action.value) for r in results for f in r.findings]
    assert found == [
        ("pkg/workspace.py", 10, "MR212", "marked"),
        ("pkg/workspace.py", 11, "MR212", "marked"),
    ]
    read = next(f for r in results for f in r.findings if f.line == 10)
    assert read.message.startswith("this function keeps the roots it reads on `self._roots`")
    assert "serve one caller's value to later calls" in read.message
    # No path argument on the tool: it would be ignored after the first call.
    assert (root / "pkg" / "server.py").read_text() == textwrap.dedent(_WHERE_LOADS)
    assert not (root / "pkg" / "_mcp_roots_compat.py").exists()


def test_a_lifespan_field_written_by_the_tool_marks_its_read(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("files")


        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            ctx.request_context.lifespan_context.roots = result.roots
            return str(result.roots[0].uri)
        """,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("files")


        @mcp.tool()
        async def where(ctx: Context) -> str:
            # migrate-roots: MR212: this function keeps the roots it reads on
            #   `ctx.request_context.lifespan_context.roots` (see its MR212 marker), which
            #   outlives the request: a path argument here would serve one caller's value to
            #   later calls; keep it per request by hand (pass it down, or key the stored value
            #   by it), then run again
            result = await ctx.session.list_roots()
            # migrate-roots: MR212: roots kept on `ctx.request_context.lifespan_context.roots`
            #   outlive the request (a lifespan field, shared by every request): take the
            #   directory per request instead (a `root` argument the tool passes down)
            ctx.request_context.lifespan_context.roots = result.roots
            return str(result.roots[0].uri)
        """,
    )
    assert codes(findings) == ["MR212", "MR212"]


_STORED_BY_THE_TOOL = """\
from mcp.server.fastmcp import Context, FastMCP

from .helpers import project_roots

mcp = FastMCP("files")


class State:
    roots: list[str] = []


@mcp.tool()
async def where(ctx: Context) -> str:
    if not State.roots:
        State.roots = {spelling}
    return State.roots[0]
"""

_PROJECT_ROOTS = """\
from mcp.server.fastmcp import Context


async def project_roots(ctx: Context) -> list[str]:
    result = await ctx.session.list_roots()
    return [str(r.uri) for r in result.roots]
"""


@pytest.mark.parametrize(
    "spelling",
    ["await project_roots(ctx)", "list(await project_roots(ctx))", "[r for r in await project_roots(ctx)]"],
    ids=["await", "wrapped", "comprehension"],
)
def test_a_tool_that_keeps_a_helpers_roots_on_a_class_attribute_marks_the_read(tmp_path, spelling):
    server = _STORED_BY_THE_TOOL.format(spelling=spelling)
    root = helpers._layout(tmp_path, server, {"helpers.py": _PROJECT_ROOTS}, True)
    results = helpers.run_engine(root, write=False)
    found = [f for r in results for f in r.findings]
    assert [(f.path, f.line, f.code) for f in found] == [("pkg/helpers.py", 5, "MR212")]
    assert found[0].message.startswith("`where` keeps what this read gives on `State.roots` (server.py:15)")


def test_a_kept_attribute_with_the_cache_rules_off_is_marked_under_the_reads_own_code(tmp_path):
    root = helpers._layout(
        tmp_path,
        _STORED_BY_THE_TOOL.format(spelling="await project_roots(ctx)"),
        {"helpers.py": _PROJECT_ROOTS},
        True,
    )
    results = helpers.run_engine(root, select=["MR1"], write=False)
    found = [(f.code, f.action.value) for r in results for f in r.findings]
    assert found == [("MR101", "marked")]


@pytest.mark.parametrize(
    "write",
    ["State.roots = sorted(found)", "State.roots: list[str] = found", "State.roots += found"],
    ids=["plain", "annotated", "augmented"],
)
def test_a_tool_that_keeps_a_helpers_roots_through_a_local_name_marks_the_read(tmp_path, write):
    server = _STORED_BY_THE_TOOL.format(spelling="[]").replace(
        "        State.roots = []\n", f"        found = await project_roots(ctx)\n        {write}\n"
    )
    root = helpers._layout(tmp_path, server, {"helpers.py": _PROJECT_ROOTS}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert [(f.path, f.code) for f in found] == [("pkg/helpers.py", "MR212")], found
    # The place is the assignment (line 16), not the call that got the value (line 15): dbt-core-mcp's shape.
    assert found[0].message.startswith("`where` keeps what this read gives on `State.roots` (server.py:16)")


def test_roots_kept_on_an_allow_list_attribute_keep_the_bound_with_the_operator(tmp_path):
    """`box.allowed = [...]` in a helper the tool calls, checked by the sandbox's own module: the read is marked
    and neither marker tells the user to hand the bound to the caller's argument."""
    server = """\
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP

from .sandbox import Sandbox

mcp = FastMCP("box")
box = Sandbox()


async def _ensure(ctx: Context) -> None:
    result = await ctx.session.list_roots()
    box.allowed = [Path(r.uri.path).resolve() for r in result.roots]


@mcp.tool()
async def read(path: str, ctx: Context) -> str:
    await _ensure(ctx)
    return box.read(path)
"""
    sandbox = "class Sandbox:\n    allowed: list = []\n\n    def read(self, path: str) -> str:\n        return path\n"
    root = helpers._layout(tmp_path, server, {"sandbox.py": sandbox}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert [(f.line, f.code) for f in found] == [(12, "MR212"), (13, "MR212")]
    for finding in found:
        assert "keep that bound with the operator (MCP_ROOTS_ALLOWED_PATHS" in finding.message
        assert "take the directory per request" not in finding.message


def test_every_reader_that_keeps_a_cache_is_named(tmp_path):
    """atlassian-cli's shape: the cached folder is read by two client getters on every tool call, and the
    marker named only the fetcher. It names the readers that do not fetch, then the fetcher."""
    source = """\
from pathlib import Path

from mcp.server.lowlevel import Server

server = Server("x")
_project_dir: Path | None = None
_fetched = False


async def _resolve() -> Path | None:
    global _project_dir, _fetched
    if _fetched:
        return _project_dir
    _fetched = True
    result = await server.request_context.session.list_roots()
    _project_dir = Path(str(result.roots[0].uri)[7:])
    return _project_dir


def _client() -> str:
    return str(_project_dir)


def _store() -> str:
    return str(_project_dir) + "/db"
"""
    root = helpers._layout(tmp_path, source, None, True)
    results = helpers.run_engine(root, write=False)
    marker = next(f.message for r in results for f in r.findings if f.code == "MR211" and f.line == 6)
    assert "read by `_client` and `_store`, functions that do not fetch it; also read by `_resolve`" in marker


@pytest.mark.parametrize(
    "log",
    [
        'logger.debug("client has no roots configured: %s", exc)',
        'logger.warning(f"no roots support in client: {exc}")',
        'logging.info("roots are not provided " + str(exc))',
        'self.log.error("Client does not support roots")',
    ],
    ids=["debug", "f-string", "concatenated", "attribute"],
)
def test_noop_a_log_message_about_roots_is_not_user_wording(tmp_path, log):
    """A log line is the operator's, not what the model or user is told, and a legacy client's fallback keeps
    it true (the field's MR218 on debug text); the tool's own reply next to it is still wording."""
    findings = check_noop(
        tmp_path,
        f"""\
        import logging

        from mcp.server.fastmcp import FastMCP

        logger = logging.getLogger(__name__)
        mcp = FastMCP("x")


        class Box:
            log = logger

            def report(self, exc: Exception) -> str:
                {log}
                return "Please configure roots in your client"
        """,
    )
    assert codes(findings) == ["MR218"], findings
    assert findings[0].line == 14


def test_noop_a_projects_own_root_in_text_is_no_roots_wording(tmp_path):
    """ "the configured corpus root", "add a target root": a project's folders, not MCP roots (ai-governance-mcp's
    MR218 reports were false); "MCP root" and plural "roots" still count."""
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        CORPUS = "Search the configured corpus root"
        TARGET = "Add a target root to scaffold into"
        MCP_ROOT = "No MCP root was given"
        ROOTS = "The client shares no roots"
        """,
    )
    assert [(f.code, f.line) for f in findings] == [("MR218", 6), ("MR218", 7)], findings


def test_wording_beside_the_era_portable_roots_form_is_no_finding(tmp_path):
    """rag-search-engine (the helpers' sweep): the module asks for roots with mcp 2.x's `Resolve(ListRoots)`,
    which no rule rewrites; its error "the client sent no workspace roots" describes what it still does. The
    request itself is reported since session 15 (MR101, by hand: roots are deprecated in every era)."""
    findings = helpers.check_noop(
        tmp_path,
        """\
        from typing import Annotated

        from mcp.server.mcpserver import Context, MCPServer
        from mcp.server.mcpserver.resolve import ListRoots, Resolve
        from mcp_types import ListRootsResult

        mcp = MCPServer("scoped")


        def _ask(ctx: Context) -> ListRoots:
            return ListRoots()


        @mcp.tool()
        def search(pinned: Annotated[ListRootsResult, Resolve(_ask)]) -> str:
            if not pinned.roots:
                raise ValueError("the client shares no roots")
            return str(pinned.roots[0].uri)
        """,
        write=False,
    )
    assert [(f.code, f.line) for f in findings] == [("MR101", 11)], findings


def test_a_last_seen_value_written_after_an_unguarded_read_is_named_so(tmp_path):
    """EverMind's shape (the helpers' sweep): `refresh` reads roots on every call and keeps the first root in
    `_last` when it changed. The marker said the read sat "behind a guard migrate-roots does not unwrap"; there
    is no guard, and the read is rewritten."""
    source = textwrap.dedent("""\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        _last: str | None = None


        async def refresh(ctx: Context) -> None:
            global _last
            result = await ctx.session.list_roots()
            uri = str(result.roots[0].uri)
            if uri != _last:
                print("switched to", uri)
                _last = uri


        @mcp.tool()
        async def where(ctx: Context) -> str:
            await refresh(ctx)
            return "ok"
        """)
    root = helpers.package(tmp_path, {"server.py": source})
    results = helpers.run_engine(root, write=False)
    found = {f.code: f.message for r in results for f in r.findings}
    assert found["MR101"].startswith("`ctx.session.list_roots()` asks the client")
    assert (
        "written by `refresh`, which reads roots on every call and keeps what it read there" in found["MR211"]
    )
    assert "guard" not in found["MR211"]


@pytest.mark.parametrize(
    ("store", "lookup", "fill"),
    [
        ("CACHE: dict = {}", "CACHE.get(id(ctx.session))", "CACHE[id(ctx.session)] = cached"),
        ('_roots: ContextVar = ContextVar("_roots", default=None)', "_roots.get()", "_roots.set(cached)"),
    ],
    ids=["dict", "contextvar"],
)
def test_roots_looked_up_first_and_filled_when_empty_are_a_cache(tmp_path, store, lookup, fill):
    """`cached = CACHE.get(key)` (or a ContextVar's), then `if cached is None: cached = await ...read...`: a
    cache, which would shadow the argument on a hit. It was MR105 ('None differently from empty list'), a false
    reason (helpers' probes); taking the test for no roots state only would have rewritten the read."""
    source = f"""\
        from contextvars import ContextVar

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")
        {store}


        async def get_roots(ctx: Context):
            cached = {lookup}
            if cached is None:
                cached = await ctx.session.list_roots()
                {fill}
            return cached


        @mcp.tool()
        async def count(ctx: Context) -> int:
            return len((await get_roots(ctx)).roots)
        """
    findings = check_noop(tmp_path, source, write=False, select=["MR1", "MR2"])
    assert codes(findings) == ["MR211"]
    assert f"roots read behind `cached`, looked up first as `{lookup}` (server.py:10)" in findings[0].message


def test_wording_quotes_what_the_text_says_of_roots(tmp_path):
    """A status string ("no roots") does not tell anyone to set roots up: the finding quotes what it says."""
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def status(ctx: Context) -> str:
            return "roots" if ctx.session.client_params.capabilities.roots else "no roots"
        """,
    )
    assert codes(findings) == ["MR218"]
    assert findings[0].message.startswith(
        'this text speaks of MCP roots ("no roots"), deprecated in MCP 2026-07-28'
    )


def test_wording_that_sets_roots_or_names_the_method_is_reported(tmp_path):
    """Sweep J, r01 (codescalpel 2.0.0): "Set roots via the roots/list capability" was silent; a set of
    things is no verb."""
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        HINT = "Set roots via the roots/list capability or SCALPEL_ROOT."
        YOURS = "Set your MCP roots first"
        METHOD = "Use the roots/list capability"
        NOUN = "A set of roots and branches"
        """,
    )
    assert [(f.code, f.line) for f in findings] == [("MR218", 4), ("MR218", 5), ("MR218", 6)], findings


def test_noop_roots_of_an_equation_or_a_tree_are_no_mcp_roots(tmp_path):
    """Sweep N, r08: MR218 on ordinary English in a server that never uses roots."""
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        OUTLINE = "Set the roots of the outline"
        SOLVER = "Supports complex roots"
        NONE = "No real roots"
        """,
    )
    assert findings == []
