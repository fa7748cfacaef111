"""MR201-MR202: roots list_changed registrations and their handlers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import helpers as helpers_module
from tests.helpers import check_noop, check_transformed, codes

# --- noop cases first ------------------------------------------------------------------------------------


def test_noop_users_own_notification_type(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        from .events import RootsListChangedNotification

        mcp = FastMCP("x")
        handlers = {}


        async def on_change(event):
            return event


        handlers[RootsListChangedNotification] = on_change
        """,
        extra={"events.py": "class RootsListChangedNotification:\n    pass\n"},
    )
    assert findings == []


def test_noop_users_own_event_bus_with_the_same_string(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        from .bus import EventBus

        mcp = FastMCP("x")


        def wire(bus: EventBus, handler):
            bus.add_notification_handler("notifications/roots/list_changed", dict, handler)
        """,
        extra={"bus.py": "class EventBus:\n    def add_notification_handler(self, *a):\n        pass\n"},
    )
    assert findings == []


def test_noop_without_the_sdk(tmp_path):
    assert check_noop(tmp_path, "roots_list_changed = []\nprint(roots_list_changed)\n") == []


# --- rewrites --------------------------------------------------------------------------------------------


def test_mcp1_private_handlers_dict_with_chained_initialized_handler(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        _previous = mcp._mcp_server.notification_handlers.get(types.InitializedNotification)


        async def _on_initialized(notification: types.InitializedNotification) -> None:
            if _previous is not None:
                await _previous(notification)
            print("client ready")


        async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
            print("roots changed")
            await mcp.get_context().session.send_resource_list_changed()


        mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed
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
    )
    assert codes(findings) == ["MR201"]
    assert "handler `_on_roots_changed` removed" in findings[0].message
    assert "resources/list_changed" in findings[0].message
    assert findings[0].severity.value == "deprecated"


def test_lowlevel_server_handlers_dict_and_unused_import(tmp_path):
    check_transformed(
        tmp_path,
        """\
        from mcp.server.lowlevel import Server
        from mcp.types import RootsListChangedNotification

        server = Server("x")


        async def refresh(notification: RootsListChangedNotification) -> None:
            print("changed")


        server.notification_handlers[RootsListChangedNotification] = refresh
        """,
        """\
        from mcp.server.lowlevel import Server

        server = Server("x")
        """,
    )


def test_mcp2_constructor_keyword_and_add_notification_handler(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from typing import Any

        import mcp.types as types
        from mcp.server.lowlevel import Server


        async def on_roots_list_changed(ctx: Any, params: types.NotificationParams | None) -> None:
            print("roots changed")


        async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[])


        server = Server(
            "x",
            on_list_tools=on_list_tools,
            on_roots_list_changed=on_roots_list_changed,
        )
        other = Server("y", on_roots_list_changed=on_roots_list_changed)


        async def _log_change(ctx: Any, params: Any) -> None:
            print("changed")


        server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, _log_change)
        """,
        """\
        from typing import Any

        import mcp.types as types
        from mcp.server.lowlevel import Server


        async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult(tools=[])


        server = Server(
            "x",
            on_list_tools=on_list_tools,
        )
        other = Server("y")
        """,
    )
    assert codes(findings) == ["MR201", "MR201", "MR201"]
    assert all("removed (nothing else" in f.message for f in findings)


def test_handler_used_elsewhere_is_kept(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        async def reload_config(notification=None) -> None:
            print("reload")


        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = reload_config


        @mcp.tool()
        async def reload() -> str:
            await reload_config()
            return "ok"
        """,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        async def reload_config(notification=None) -> None:
            print("reload")


        @mcp.tool()
        async def reload() -> str:
            await reload_config()
            return "ok"
        """,
    )
    assert codes(findings) == ["MR201"]
    assert "kept (still used elsewhere)" in findings[0].message


def test_handler_used_from_another_module_is_kept(tmp_path):
    check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        async def on_roots(notification) -> None:
            print("roots changed")


        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = on_roots
        """,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")


        async def on_roots(notification) -> None:
            print("roots changed")
        """,
        extra={"cli.py": "from .server import on_roots\n\nprint(on_roots)\n"},
    )


def test_fastmcp_middleware_branch(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        from fastmcp import FastMCP
        from fastmcp.server.middleware import Middleware


        class RootsWatcher(Middleware):
            async def on_notification(self, context, call_next):
                if context.method == "notifications/roots/list_changed":
                    print("roots changed")
                    return None
                return await call_next(context)


        mcp = FastMCP("x", middleware=[RootsWatcher()])
        """,
        """\
        from fastmcp import FastMCP
        from fastmcp.server.middleware import Middleware


        class RootsWatcher(Middleware):
            async def on_notification(self, context, call_next):
                return await call_next(context)


        mcp = FastMCP("x", middleware=[RootsWatcher()])
        """,
    )
    assert codes(findings) == ["MR201"]


# --- marked ------------------------------------------------------------------------------------------------


def test_proxy_relaying_the_notification_is_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from mcp import ClientSession
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("proxy")
        downstream: ClientSession | None = None


        async def _relay_roots_changed(notification: types.RootsListChangedNotification) -> None:
            if downstream is not None:
                await downstream.send_roots_list_changed()


        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _relay_roots_changed
        """,
        """\
        import mcp.types as types
        from mcp import ClientSession
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("proxy")
        downstream: ClientSession | None = None


        # migrate-roots: MR202: a roots list_changed handler, kept with its registration
        #   (`notification_handlers[RootsListChangedNotification]`, see its marker): the
        #   notification does not exist in MCP 2026-07-28
        async def _relay_roots_changed(notification: types.RootsListChangedNotification) -> None:
            if downstream is not None:
                await downstream.send_roots_list_changed()


        # migrate-roots: MR202: handler `_relay_roots_changed` relays the change to downstream
        #   servers (a proxy): they may still cache roots; remove this once they take explicit
        #   paths
        mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _relay_roots_changed
""",
    )
    assert codes(findings) == ["MR202", "MR202", "MR303"]  # the registration, and the handler kept with it
    assert {f.severity.value for f in findings} == {"deprecated"}


HUB = """\
import mcp.types as types
from mcp.server.lowlevel import Server
{imports}
app = Server("hub")
CHILDREN: list = []
{helpers}

async def on_changed(_n: types.RootsListChangedNotification) -> None:
    {body}


app.notification_handlers[types.RootsListChangedNotification] = on_changed
"""


def _hub_findings(tmp_path, imports: str, helpers: str, body: str, extra=None):
    source = HUB.format(imports=imports, helpers=helpers, body=body)
    root = helpers_module._layout(tmp_path, source, extra, True)
    results = helpers_module.run_engine(root, write=False)
    return [
        (f.code, f.action.value, f.message) for r in results for f in r.findings if f.code.startswith("MR2")
    ]


@pytest.mark.parametrize(
    ("helpers", "body"),
    [
        (
            "\n\nasync def _fan_out() -> None:\n    for child in CHILDREN:\n        await child.send_roots_list_changed()\n",
            "await _fan_out()",
        ),
        (
            "\n\nasync def _one(child) -> None:\n    await child.send_roots_list_changed()\n\n\n"
            "async def _fan_out() -> None:\n    for child in CHILDREN:\n        await _one(child)\n",
            "await _fan_out()",
        ),
    ],
    ids=["helper", "two-deep"],
)
def test_a_relay_through_a_helper_of_the_module_is_marked(tmp_path, helpers, body):
    """mcp-hub's shape: the handler only calls a helper that fans the change out to child servers; removing
    them would stop legacy children from hearing of it."""
    findings = _hub_findings(tmp_path, "", helpers, body)
    assert [f[:2] for f in findings] == [("MR202", "marked"), ("MR202", "marked")], findings
    assert any("relays the change to downstream servers" in f[2] for f in findings), findings


@pytest.mark.parametrize("imports", ["from .fanout import fan_out\n", "from pkg.fanout import fan_out\n"])
def test_a_handler_calling_an_imported_function_is_marked(tmp_path, imports):
    """What `fan_out` does is out of this file's sight: the handler stays, marked, naming it."""
    extra = {"fanout.py": "async def fan_out() -> None:\n    print('relayed')\n"}
    findings = _hub_findings(tmp_path, imports, "", "await fan_out()", extra)
    assert [f[:2] for f in findings] == [("MR202", "marked"), ("MR202", "marked")], findings
    assert any("the handler calls `fan_out` (imported from `" in f[2] for f in findings), findings


@pytest.mark.parametrize(
    "body",
    [
        "job = asyncio.create_task(holder.reload())\n    PENDING.add(job)",
        "asyncio.ensure_future(holder.reload())",
        "asyncio.get_running_loop().create_task(holder.reload())",
    ],
)
def test_a_handler_scheduling_work_names_the_work(tmp_path, body):
    """Dev10x-Claude: the handler schedules `folders.reload()` (a roots re-read onto what a tool reads) and
    keeps the task in a set; the marker named the task set (`PENDING.add()`) as the state that matters."""
    helpers = "\n\nclass Holder:\n    async def reload(self) -> None:\n        pass\n\n\nholder = Holder()\nPENDING: set = set()\n"
    findings = _hub_findings(tmp_path, "import asyncio\n", helpers, body)
    assert [f[:2] for f in findings] == [("MR202", "marked"), ("MR202", "marked")], findings
    assert any("the handler schedules `holder.reload()` to run later" in f[2] for f in findings), findings
    assert not any("PENDING" in f[2] for f in findings), findings


def test_noop_a_handler_calling_only_the_standard_library_is_removed(tmp_path):
    findings = _hub_findings(tmp_path, "from logging import info\n", "", "info('roots changed')")
    assert [f[:2] for f in findings] == [("MR201", "rewritten")], findings


def test_middleware_branch_with_else_and_dict_literal_are_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import mcp.types as types
        from fastmcp.server.middleware import Middleware


        async def h(notification):
            return None


        HANDLERS = {types.RootsListChangedNotification: h}


        class Watcher(Middleware):
            async def on_notification(self, context, call_next):
                if context.method == "notifications/roots/list_changed":
                    return None
                else:
                    return await call_next(context)
        """,
        """\
        import mcp.types as types
        from fastmcp.server.middleware import Middleware


        async def h(notification):
            return None


        # migrate-roots: MR202: roots list_changed referenced in a form migrate-roots does not
        #   remove: the notification does not exist in MCP 2026-07-28; remove it by hand (a tool
        #   that reads roots takes the `root` argument, or its marker says why not)
        HANDLERS = {types.RootsListChangedNotification: h}


        class Watcher(Middleware):
            async def on_notification(self, context, call_next):
                # migrate-roots: MR202: the branch has an else/elif: remove the roots branch by
                #   hand
                if context.method == "notifications/roots/list_changed":
                    return None
                else:
                    return await call_next(context)
""",
    )
    assert codes(findings) == ["MR202", "MR202"]


def test_handlers_that_change_other_state_are_marked(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import asyncio

        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")
        roots_changed = asyncio.Event()


        class State:
            stale = False


        def _invalidate() -> None:
            global _cache
            _cache = None


        _cache = None


        async def on_event(notification) -> None:
            roots_changed.set()


        async def on_attr(notification) -> None:
            State.stale = True


        async def on_call(notification) -> None:
            _invalidate()


        server.notification_handlers[types.RootsListChangedNotification] = on_event
        server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, on_attr)
        other = Server("y", on_roots_list_changed=on_call)
        third = Server("z", on_roots_list_changed=lambda ctx, params: _invalidate())


        class Holder:
            def __init__(self) -> None:
                self.stale = False
                server.notification_handlers[types.RootsListChangedNotification] = self.on_roots

            async def on_roots(self, notification) -> None:
                self.stale = True
        """,
        """\
        import asyncio

        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")
        roots_changed = asyncio.Event()


        class State:
            stale = False


        def _invalidate() -> None:
            global _cache
            _cache = None


        _cache = None


        async def on_event(notification) -> None:
            roots_changed.set()


        async def on_attr(notification) -> None:
            State.stale = True


        async def on_call(notification) -> None:
            _invalidate()


        # migrate-roots: MR202: the handler changes `roots_changed.set()`, which something may
        #   still read: remove it by hand once the readers take the `root` argument
        server.notification_handlers[types.RootsListChangedNotification] = on_event
        # migrate-roots: MR202: the handler changes `State.stale`, which something may still
        #   read: remove it by hand once the readers take the `root` argument
        server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, on_attr)
        # migrate-roots: MR202: the handler calls `_invalidate`, which changes module state:
        #   remove both by hand once the readers take the `root` argument
        other = Server("y", on_roots_list_changed=on_call)
        # migrate-roots: MR202: the handler (not a plain function) calls `_invalidate`: check
        #   what it invalidates, then remove the registration by hand
        third = Server("z", on_roots_list_changed=lambda ctx, params: _invalidate())


        class Holder:
            def __init__(self) -> None:
                self.stale = False
                # migrate-roots: MR202: the handler `self.on_roots` is not a module-level
                #   function of this file (a method, a local function, an import, a wrapper):
                #   check what it invalidates, then remove the registration and the handler by
                #   hand
                server.notification_handlers[types.RootsListChangedNotification] = self.on_roots

            async def on_roots(self, notification) -> None:
                self.stale = True
""",
    )
    assert codes(findings) == ["MR202"] * 5


def test_ignore_comment_silences(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import mcp.types as types
        from mcp.server.lowlevel import Server

        server = Server("x")


        async def refresh(notification) -> None:
            print("changed")


        server.notification_handlers[types.RootsListChangedNotification] = refresh  # migrate-roots: ignore[MR201]
        """,
    )
    assert findings == []


# --- end to end: migrated servers under the real SDK lines ---------------------------------------------------

MCP1_FASTMCP = '''\
"""mcp 1.x FastMCP server with roots list_changed wiring, a stale-flag cache and a chained initialized handler."""

from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("lc-mcp1")
_roots_cache: list[str] = []
_roots_stale = True
_previous = mcp._mcp_server.notification_handlers.get(types.InitializedNotification)
READY: list[str] = []


async def _on_initialized(notification: types.InitializedNotification) -> None:
    if _previous is not None:
        await _previous(notification)
    READY.append("initialized")


async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
    global _roots_stale
    _roots_stale = True


mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed


@mcp.tool()
async def where(ctx: Context) -> str:
    """The project directory."""
    global _roots_cache, _roots_stale
    if _roots_stale:
        _roots_cache = [unquote(urlparse(str(r.uri)).path) for r in (await ctx.session.list_roots()).roots]
        _roots_stale = False
    return _roots_cache[0]


@mcp.tool()
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run()
'''

MCP2_MCPSERVER = '''\
"""mcp 2.x MCPServer with a roots list_changed handler on its low-level server and a stale-flag cache."""

from urllib.parse import unquote, urlparse

import mcp.types as types
from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("lc-mcp2")
_roots_cache: list[str] = []
_roots_stale = True


async def _on_roots_changed(ctx, params) -> None:
    global _roots_stale
    _roots_stale = True


mcp._lowlevel_server.add_notification_handler(
    "notifications/roots/list_changed", types.NotificationParams, _on_roots_changed
)


@mcp.tool()
async def where(ctx: Context) -> str:
    """The project directory."""
    global _roots_cache, _roots_stale
    if _roots_stale:
        _roots_cache = [unquote(urlparse(str(r.uri)).path) for r in (await ctx.session.list_roots()).roots]
        _roots_stale = False
    return _roots_cache[0]


@mcp.tool()
def echo(text: str) -> str:
    """Untouched by the migration."""
    return text


if __name__ == "__main__":
    mcp.run()
'''

MCP2_LOWLEVEL = '''\
"""mcp 2.x low-level Server with a roots change handler passed to its constructor (warns on mcp 2.x)."""

import logging
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server

logger = logging.getLogger(__name__)


async def on_roots_list_changed(ctx: Any, params: Any) -> None:
    logger.info("roots changed")


async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    return types.ListToolsResult(tools=[types.Tool(name="echo", description="Echo.", input_schema=schema)])


async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    text = str((params.arguments or {}).get("text", ""))
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


server = Server(
    "lc-lowlevel-mcp2",
    on_list_tools=on_list_tools,
    on_call_tool=on_call_tool,
    on_roots_list_changed=on_roots_list_changed,
)


async def _main() -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    import anyio

    anyio.run(_main)
'''

E2E_SERVERS = {
    # name -> (source, module attribute holding the server, SDK line, tools the migrated server lists)
    "mcp1_fastmcp": (MCP1_FASTMCP, "mcp", "mcp1", ("echo", "where")),
    "mcp2_mcpserver": (MCP2_MCPSERVER, "mcp", "mcp2", ("echo", "where")),
    "mcp2_lowlevel": (MCP2_LOWLEVEL, "server", "mcp2", ("echo",)),
}

# Run with the SDK env's python: a legacy client that sends notifications/roots/list_changed (before and after
# calling the tools) to the migrated server over stdio, then pings it. Prints the tool results as JSON.
NOTIFY_CLIENT = """\
import json, sys, warnings
from pathlib import Path

import anyio
import mcp.types as types

LINE, SERVER, ROOT = sys.argv[1], sys.argv[2], sys.argv[3]
CALLS = json.loads(sys.argv[4])


async def roots_cb(context):
    return types.ListRootsResult(roots=[types.Root(uri=Path(ROOT).as_uri())])


def text(result):
    return chr(10).join(getattr(c, "text", "") for c in result.content)


def is_error(result):
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", False))


async def main():
    from mcp import StdioServerParameters

    params = StdioServerParameters(command=sys.executable, args=[SERVER])
    out = []
    if LINE == "mcp1":
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, list_roots_callback=roots_cb) as session:
                await session.initialize()
                await session.send_roots_list_changed()
                for name, args in CALLS:
                    r = await session.call_tool(name, args)
                    out.append({"tool": name, "is_error": is_error(r), "text": text(r)})
                await session.send_roots_list_changed()
                await session.send_ping()
    else:
        from mcp import Client

        async with Client(params, mode="legacy", list_roots_callback=roots_cb) as client:
            await client.send_roots_list_changed()
            for name, args in CALLS:
                r = await client.call_tool(name, args)
                out.append({"tool": name, "is_error": is_error(r), "text": text(r)})
            await client.send_roots_list_changed()
            await client.send_ping()
    print(json.dumps(out))


warnings.simplefilter("ignore")
anyio.run(main)
"""


def _migrate(tmp_path, name):
    from tests.helpers import flakes, run_engine

    source, attr, line, tools = E2E_SERVERS[name]
    server = tmp_path / name / "server.py"
    server.parent.mkdir()
    server.write_text(source)
    results = run_engine(server.parent)
    assert [r for r in results if r.status.value == "failed"] == []
    text = server.read_text()
    assert "notification_handlers[types.RootsListChanged" not in text
    assert "roots_list_changed" not in text and "roots/list_changed" not in text
    assert "_roots_stale" not in text
    assert not flakes(text)
    return server, attr, line, tools


@pytest.mark.sdk
@pytest.mark.parametrize("name", sorted(E2E_SERVERS))
def test_e2e_migrated_server_serves_its_tools_in_both_eras(tmp_path, name):
    import json
    import subprocess

    from tests.sdk.envs import sdk_python_or_skip

    server, attr, line, tools = _migrate(tmp_path, name)
    python = sdk_python_or_skip(line)
    client_dir = tmp_path / "client project"
    arg_dir = tmp_path / "argument dir"
    client_dir.mkdir()
    arg_dir.mkdir()
    eras = ["legacy-roots"] + ([] if line == "mcp1" else ["modern"])
    calls = []
    for era in eras:
        calls.append({"era": era, "tool": "echo", "args": {"text": "hi"}, "roots": [client_dir.as_uri()]})
        if "where" in tools:
            calls.append(
                {
                    "era": era,
                    "tool": "where",
                    "args": {"root": [str(arg_dir)]},
                    "roots": [client_dir.as_uri()],
                }
            )
            if era == "legacy-roots":
                calls.append({"era": era, "tool": "where", "args": {}, "roots": [client_dir.as_uri()]})
    driver = Path(__file__).parent / "sdk" / "driver.py"
    for transport in ("inproc", "stdio"):
        out = subprocess.run(
            [
                str(python),
                str(driver),
                "--server",
                str(server),
                "--attr",
                attr,
                "--line",
                line,
                "--transport",
                transport,
                "--batch",
                json.dumps(calls),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=server.parent,
        )
        assert out.returncode == 0, out.stderr[-3000:]
        results = json.loads(out.stdout.strip().splitlines()[-1])["results"]
        for call, result in zip(calls, results, strict=True):
            where = (transport, call["era"], call["tool"], call["args"])
            assert not result["skipped"] and not result["is_error"], (where, result)
            assert sorted(result["tools"]) == sorted(tools), (where, result)
            if call["tool"] == "echo":
                assert result["text"] == "hi", (where, result)
            elif call["args"]:
                assert result["text"] == str(arg_dir), (where, result)
            else:
                assert result["text"] == str(client_dir), (where, result)


@pytest.mark.sdk
@pytest.mark.parametrize("name", sorted(E2E_SERVERS))
def test_e2e_legacy_client_sending_list_changed_causes_no_error(tmp_path, name):
    import json
    import subprocess

    from tests.sdk.envs import sdk_python_or_skip

    server, _, line, tools = _migrate(tmp_path, name)
    python = sdk_python_or_skip(line)
    client_dir = tmp_path / "client project"
    client_dir.mkdir()
    script = tmp_path / "notify_client.py"
    script.write_text(NOTIFY_CLIENT)
    calls = [["echo", {"text": "hi"}]] + ([["where", {}]] if "where" in tools else [])
    out = subprocess.run(
        [str(python), str(script), line, str(server), str(client_dir), json.dumps(calls)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=server.parent,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert "Traceback" not in out.stderr and "error" not in out.stderr.lower(), out.stderr[-3000:]
    results = json.loads(out.stdout.strip().splitlines()[-1])
    assert [r["is_error"] for r in results] == [False] * len(calls), results
    assert results[0]["text"] == "hi"
    if "where" in tools:
        assert results[1]["text"] == str(client_dir)


# --- the package references, indexed (plan_refs) ---------------------------------------------------------


def _pairwise_refs(summaries):
    """The rule as it was written first, pair by pair: the reference the indexed `plan_refs` must equal."""
    import os

    def same_package(path, refs, other_path, other):
        if "." in refs.module or "." in other.module:
            return refs.module.split(".")[0] == other.module.split(".")[0]
        return os.path.dirname(path) == os.path.dirname(other_path)

    out = {}
    for path, summary in summaries.items():
        if not summary.candidates:
            continue
        others = set()
        for other_path, other in summaries.items():
            if other_path != path and same_package(path, summary, other_path, other):
                others |= other.mentions & summary.candidates
        out[path] = frozenset(others)
    return out


def test_plan_refs_equals_the_pairwise_rule():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from migrate_roots.codemods.list_changed import PackageRefs, Refs

    names = st.sampled_from(["a", "b", "pkg", "util", "helper", "cache"])
    files = st.lists(
        st.tuples(
            st.sampled_from(["", "src/", "src/pkg/", "other/", "src/pkg/sub/"]),  # folder
            st.lists(st.sampled_from(["pkg", "app", "tool", "sub"]), min_size=1, max_size=3),  # module parts
            st.frozensets(names, max_size=3),
            st.frozensets(names, max_size=4),
        ),
        max_size=8,
    )

    @settings(max_examples=300, deadline=None)
    @given(files)
    def check(items):
        summaries = {}
        for n, (folder, parts, candidates, mentions) in enumerate(items):
            summaries[f"{folder}f{n}.py"] = Refs(".".join(parts), candidates, mentions)
        assert PackageRefs.plan_refs(summaries) == _pairwise_refs(summaries)

    check()


# --- registrations inside a function (docling-mcp's `install_roots_handlers()`) ---------------------------


_INSTALLED_BEFORE = """\
    from mcp.server.fastmcp import FastMCP
    from mcp.types import RootsListChangedNotification

    from {imp} import {name}

    mcp = FastMCP("x")


    async def _refresh() -> None:
        {name}.{method}(["file:///srv"])


    async def _on_roots_changed(notify: RootsListChangedNotification) -> None:
        await _refresh()


    def install_handlers() -> None:
        server = mcp._mcp_server
        server.notification_handlers[RootsListChangedNotification] = _on_roots_changed
    """


@pytest.mark.parametrize(
    ("imp", "name", "method", "marker"),
    [
        (
            ".shared",
            "allowed_roots",
            "update_from_client_roots",
            # An allow-list: the advice keeps the bound with the operator, not the caller's argument.
            "        # migrate-roots: MR202: the handler calls `_refresh`, which changes an allow-list\n"
            "        #   (`allowed_roots.update_from_client_roots()`): keep that bound with the operator\n"
            "        #   (MCP_ROOTS_ALLOWED_PATHS or the server's own setting), not the caller's `root`\n"
            "        #   argument, then remove both by hand\n",
        ),
        (
            "pkg.registry",
            "registry",
            "replace",
            "        # migrate-roots: MR202: the handler calls `_refresh`, which changes module state\n"
            "        #   (`registry.replace()`): remove both by hand once the readers take the `root`\n"
            "        #   argument\n",
        ),
    ],
)
def test_handler_registered_inside_a_function_that_changes_package_state_is_marked(
    tmp_path, imp, name, method, marker
):
    before = _INSTALLED_BEFORE.format(imp=imp, name=name, method=method)
    after = before.replace(
        "    async def _on_roots_changed",
        "    # migrate-roots: MR202: a roots list_changed handler, kept with its registration\n"
        "    #   (`notification_handlers[RootsListChangedNotification]` in `install_handlers()`, see\n"
        "    #   its marker): the notification does not exist in MCP 2026-07-28\n"
        "    async def _on_roots_changed",
    ).replace("        server.notification_handlers[", marker + "        server.notification_handlers[")
    extra = {"shared.py": "allowed_roots = None\n", "registry.py": "registry = None\n"}
    findings = check_transformed(tmp_path, before, after, extra=extra)
    assert codes(findings) == ["MR202", "MR202"]


def test_handler_registered_inside_a_function_that_only_logs_is_removed(tmp_path):
    findings = check_transformed(
        tmp_path,
        """\
        import asyncio
        import logging

        from mcp.server.fastmcp import FastMCP
        from mcp.types import RootsListChangedNotification

        from .log import setup_logger

        mcp = FastMCP("x")
        logger = setup_logger()
        _session = None


        async def _on_roots_changed(notify: RootsListChangedNotification) -> None:
            logger.warning("roots changed for %s", _session.get())
            logging.getLogger(__name__).info("changed")
            await asyncio.sleep(0)


        def install_handlers() -> None:
            mcp._mcp_server.notification_handlers[RootsListChangedNotification] = _on_roots_changed
        """,
        """\
        from mcp.server.fastmcp import FastMCP

        from .log import setup_logger

        mcp = FastMCP("x")
        logger = setup_logger()
        _session = None


        def install_handlers() -> None:
            pass
        """,
        extra={"log.py": "def setup_logger():\n    return None\n"},
    )
    assert codes(findings) == ["MR201"]


@pytest.mark.parametrize(
    ("handler", "expected"),
    [
        ("state.on_changed", "is not a module-level function of this file"),
        ("on_changed_plain", None),
    ],
    ids=["method", "function"],
)
def test_a_registration_by_a_module_constant_is_seen(tmp_path, handler, expected):
    """clew's shape: `ROOTS_CHANGED_METHOD = "notifications/roots/list_changed"`, then
    `server.add_notification_handler(ROOTS_CHANGED_METHOD, NotificationParams, state.on_roots_list_changed)`:
    the registration had no finding."""
    source = f"""\
from typing import Any

from mcp.server.lowlevel import Server
from mcp.types import NotificationParams

ROOTS_CHANGED = "notifications/roots/list_changed"
server = Server("x")


class State:
    async def on_changed(self, _ctx: Any, _params: Any) -> None:
        print("changed")


async def on_changed_plain(_ctx: Any, _params: Any) -> None:
    print("changed")


state = State()
server.add_notification_handler(ROOTS_CHANGED, NotificationParams, {handler})
"""
    root = helpers_module._layout(tmp_path, source, None, True)
    results = helpers_module.run_engine(root, write=False)
    found = [(f.code, f.action.value, f.line, f.message) for r in results for f in r.findings]
    at_registration = [f for f in found if f[2] == source.count("\n")]
    if expected is None:
        assert [f[:2] for f in at_registration] == [("MR201", "rewritten")], found
    else:
        assert [f[:2] for f in at_registration] == [("MR202", "marked")], found
        assert expected in at_registration[0][3]


LOCAL_HUB = """\
from mcp.server.lowlevel import Server
{imports}
CHILDREN: list = []


async def _fan_out() -> None:
    for child in CHILDREN:
        await child.send_roots_list_changed()


def build() -> Server:
    async def on_changed(_ctx, _params) -> None:
        {body}

    return Server("hub", on_roots_list_changed=on_changed)
"""


@pytest.mark.parametrize(
    ("imports", "body", "words"),
    [
        (
            "",
            "for child in CHILDREN:\n            await child.send_roots_list_changed()",
            "the handler `on_changed` relays the change",
        ),
        ("", "await _fan_out()", "the handler `on_changed` calls `_fan_out`, which relays the change"),
        ("from .fanout import fan_out\n", "await fan_out()", "calls `fan_out` (imported from `.fanout`)"),
        ("", "print(len(CHILDREN))", "is not a module-level function of this file"),
    ],
    ids=["direct", "module-helper", "imported", "plain"],
)
def test_a_local_handler_that_relays_is_marked_as_a_relay(tmp_path, imports, body, words):
    """mcp-hub's shape: `Server(on_roots_list_changed=on_changed)` with a closure that calls the relay; the
    marker advised removing it by hand, which would stop legacy children from hearing of the change."""
    source = LOCAL_HUB.format(imports=imports, body=body)
    extra = {"fanout.py": "async def fan_out() -> None:\n    print('relayed')\n"}
    root = helpers_module._layout(tmp_path, source, extra, True)
    results = helpers_module.run_engine(root, write=False)
    found = [(f.code, f.action.value, f.message) for r in results for f in r.findings if f.code == "MR202"]
    assert len(found) == 1 and found[0][1] == "marked", found
    assert words in found[0][2], found


def test_kept_handler_names_the_callee_that_writes_state_not_an_sdk_constructor(tmp_path):
    """A handler calls a reader (a raw ListRootsRequest built with `types.ServerRequest(...)`) and a writer of a
    global: the marker names the writer. `types` is the SDK's module, which keeps no state of the package; it
    was taken for package state, and the reader, popped first, was named (mcpcn-video-ai-subtitle-mcp)."""
    source = """\
        from typing import Any

        from mcp import types
        from mcp.server import Server

        TOKEN = ""
        SESSION = None


        async def safe_list_roots(session: Any) -> list:
            resp = await session.send_request(types.ServerRequest(types.ListRootsRequest()), types.ListRootsResult)
            return resp.roots


        def load_token(roots: list) -> None:
            global TOKEN
            TOKEN = str(roots[0].uri) if roots else ""


        server = Server("x")


        async def on_roots_changed(notification: types.RootsListChangedNotification) -> None:
            load_token(await safe_list_roots(SESSION))


        server.notification_handlers[types.RootsListChangedNotification] = on_roots_changed
        """
    findings = check_noop(tmp_path, source, write=False, select=["MR2"])
    kept = [f.message for f in findings if f.code == "MR202" and "calls" in f.message]
    assert kept == [
        "the handler calls `load_token`, which changes module state: remove both by hand once the "
        "readers take the `root` argument"
    ]
