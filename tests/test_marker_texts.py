"""Every finding tells the truth (issue 17): a marker names the real reason and the place.

One table, one row per case of every code that marks or reports: a few-line server of our own (in the spirit
of MIGRATION.md's examples), the code expected at one site (a `# tag` comment or a line's text), exactly
once, with the words that tie its text to this case: the helper's, tool's or cache's name, the registration's
spelling, the file:line where the rule promises a place. Across every finding of the table's servers, no
text belongs to two codes. A row whose text is false or misleading today is `xfail(strict=True)` and asserts
the true text. Not here: MR904 (internal error) and MR905 (file changed during the run) need a fault injected.
"""

from __future__ import annotations

import os
import textwrap

import pytest

from tests import helpers

FAST = 'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("x")\n\n'
TYPES = 'import mcp.types as types\nfrom mcp.server.fastmcp import FastMCP\n\nmcp = FastMCP("x")\n\n'
LOW = 'import mcp.types as types\nfrom mcp.server.lowlevel import Server\n\nserver = Server("x")\n'


def fast(body: str, head: str = FAST) -> str:
    return head + textwrap.dedent(body)


def low(tools: str | None, before: str = "", branch: str = 'if name == "tree":') -> str:
    """A low-level server whose `list_tools` returns `tools` (None: no list_tools) and whose branch reads roots."""
    listed = f"\n@server.list_tools()\nasync def list_tools() -> list[types.Tool]:\n    return {tools}\n"
    return (
        LOW
        + before
        + (listed if tools is not None else "")
        + "\n@server.call_tool()\nasync def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n"
        + f"    {branch}\n        result = await server.request_context.session.list_roots()\n"
        + '        return [types.TextContent(type="text", text=str(result.roots[0].uri))]\n    raise ValueError(name)\n'
    )


TOOL = fast("""\
    @mcp.tool()
    async def where(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
    """)
CACHED = fast("""\
    _roots = None
    @mcp.tool()
    async def where(ctx: Context) -> str:
        global _roots
        if not _roots:  # guard
            _roots = (await ctx.session.list_roots()).roots  # fill
        return str(_roots[0].uri)
    """)
OUTSIDE = fast("""\
    import asyncio
    import click
    from mcp.server.session import ServerSession
    from myapp import command
    ROOTS = asyncio.run(mcp.get_context().session.list_roots())
    SESSION: ServerSession | None = None
    @mcp.tool()
    async def where(ctx: Context) -> str:
        return str((await SESSION.list_roots()).roots)  # captured
    async def scan(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots)  # scan
    async def startup(ctx: Context) -> None:
        await scan(ctx)
    async def crawl(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots)  # crawl
    @command("crawl")
    async def run(ctx: Context) -> str:
        return await crawl(ctx)
    async def first_root(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots[0].uri)  # click
    @click.command()
    async def main(ctx: Context) -> None:
        print(await first_root(ctx))
    def make():
        async def reader(ctx: Context) -> str:
            return str((await ctx.session.list_roots()).roots)  # returned
        return reader
    @mcp.resource("roots://first")
    async def first(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots)  # resource
    _loaded = False
    async def load(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots)  # once
    @mcp.tool()
    async def loaded(ctx: Context) -> str:
        global _loaded
        if not _loaded:
            _loaded = True
            await load(ctx)
        return "ok"
    @command("sync")
    async def sync_now(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots)  # decorated
    class Caching(Context):
        async def list_roots(self):
            return await super().list_roots()  # override
    async def untyped(thing):
        return await thing.list_roots()  # untyped
    fetch_roots = lambda ctx: ctx.session.list_roots()  # lambda
    @mcp.prompt()
    async def review(ctx: Context, focus: str) -> str:
        return str((await ctx.session.list_roots()).roots) + focus  # prompt
    """)
WRAPPERS = fast("""\
    import functools
    import inspect
    from functools import wraps
    def with_roots(fn):
        @functools.wraps(fn)
        async def wrapper(ctx: Context, *args):
            return await fn(await ctx.session.list_roots(), *args)  # wrapper
        return wrapper
    async def first_root(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots[0].uri)  # wraps
    async def second_root(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots[1].uri)  # functools.wraps
    def with_first(fn):
        @wraps(fn)
        async def inner(ctx: Context, *args):
            return await fn(await first_root(ctx), *args)
        return inner
    def with_second(fn):
        @functools.wraps(fn)
        async def outer(ctx: Context, *args):
            return await fn(await second_root(ctx), *args)
        return outer
    async def where(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots)  # signature
    where.__signature__ = inspect.Signature([])
    mcp.tool()(where)
    """)
NONE_VERSUS_EMPTY = fast("""\
    import asyncio
    from mcp.shared.exceptions import McpError
    @mcp.tool()
    async def where(ctx: Context) -> str:
        roots = (await ctx.session.list_roots()).roots  # none
        if roots is None:
            return "any"
        return "none" if not roots else str(roots)
    @mcp.tool()
    async def fails(ctx: Context) -> str:
        try:
            result = await ctx.session.list_roots()  # failure
        except RuntimeError:
            result = None
        return "" if result is None else str(result.roots)
    @mcp.tool()
    async def code(ctx: Context) -> str:
        try:
            result = await ctx.session.list_roots()  # error fields
        except McpError as exc:
            return str(exc.error.code)
        return str(result.roots)
    async def first(ctx: Context) -> str:
        return str((await ctx.session.list_roots()).roots[0].uri)
    @mcp.tool()
    async def waits(ctx: Context) -> str:
        while not ctx.session.client_params.capabilities.roots:
            await asyncio.sleep(1)
        direct = await ctx.session.list_roots()  # capability
        return str(direct) + await first(ctx)  # passes down
    """)
HELPER = fast("""\
    import sys
    from .fakes import imported_fake
    async def resolve(ctx: Context, root: str | None = None):
        return (await ctx.session.list_roots()).roots[0].uri  # clash
    async def roots_of(ctx: Context):
        return [str(r.uri) for r in (await ctx.session.list_roots()).roots]
    @mcp.tool()
    async def where(ctx: Context) -> str:
        return (await roots_of(ctx))[0] + str(await resolve(ctx, "x"))
    def test_where(monkeypatch, tmp_path):
        async def fake_roots(ctx):
            return ["/repo"]
        async def shadowing(ctx):
            return [str(root)]
        root = tmp_path
        monkeypatch.setattr(sys.modules[__name__], "roots_of", fake_roots)
        monkeypatch.setattr(sys.modules[__name__], "roots_of", shadowing)
        monkeypatch.setattr(sys.modules[__name__], "roots_of", lambda ctx: ["/repo"])
        monkeypatch.setattr(sys.modules[__name__], "roots_of", imported_fake)
    """)
BOUNDS = fast("""\
    import os
    import workspaces
    def inside(base: str, target: str) -> bool:
        return os.path.commonpath([base, target]) == base
    @mcp.tool()
    async def view(relative: str, ctx: Context) -> str:
        base = os.path.realpath((await ctx.session.list_roots()).roots[0].uri.path)  # prefix
        target = os.path.realpath(os.path.join(base, relative))
        return "denied" if not target.startswith(base + os.sep) else target
    @mcp.tool()
    async def peek(relative: str, ctx: Context) -> str:
        base = (await ctx.session.list_roots()).roots[0].uri.path  # commonpath
        return "denied" if not inside(base, os.path.join(base, relative)) else base
    @mcp.tool()
    async def index(notes_dir: str, ctx: Context) -> str:
        if ".." in notes_dir:
            return "denied"
        return (await ctx.session.list_roots()).roots[0].uri.path + notes_dir  # checked
    @mcp.tool()
    async def enter(project_dir: str, ctx: Context) -> str:
        listed = await ctx.session.list_roots()  # handed out
        return str(workspaces.choose(project_dir, listed.roots))
    """)
DISPATCHED = LOW + textwrap.dedent("""\
    async def where(a, b):
        return str((await server.request_context.session.list_roots()).roots[0].uri)
    TOOLS = {"where": where}
    @server.list_tools()
    async def list_tools() -> list[types.Tool]:
        return [types.Tool(name="where", inputSchema={"type": "object"})]
    @server.call_tool()
    async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
        return [types.TextContent(type="text", text=await TOOLS[name]())]
    """)
REMOVED = fast(
    """\
    from fastmcp.server.middleware import Middleware
    from mcp.server.lowlevel import Server
    async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
        print("roots changed")
    async def _on_roots(ctx, params) -> None:
        print("roots changed")
    mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed
    server = Server("x", on_roots_list_changed=_on_roots)
    class Removed(Middleware):
        async def on_notification(self, context, call_next):
            if context.method == "notifications/roots/list_changed":  # removed
                return None
            return await call_next(context)
    class Kept(Middleware):
        async def on_notification(self, context, call_next):
            if "notifications/roots/list_changed" == context.method:  # else
                await context.fastmcp_context.session.send_resource_list_changed()
            else:
                return await call_next(context)
    """,
    TYPES,
)
KEPT = fast(
    """\
    import asyncio
    import functools
    from mcp import ClientSession
    from .handlers import imported
    downstream: ClientSession | None = None
    changed = asyncio.Event()
    _cache = None
    class State:
        stale = False
    def _invalidate() -> None:
        global _cache
        _cache = None
    async def _relay(notification) -> None:
        await downstream.send_roots_list_changed()
    async def on_event(notification) -> None:
        changed.set()
    async def on_attr(notification) -> None:
        State.stale = True
    async def on_call(ctx, params) -> None:
        _invalidate()
    async def plain(notification) -> None:
        print("changed")
    async def _fan_out() -> None:
        await downstream.send_roots_list_changed()
    async def on_fan(notification) -> None:
        await _fan_out()
    async def on_imported(notification) -> None:
        await imported(None, None)
    class Holder:
        def __init__(self) -> None:
            server.notification_handlers[types.RootsListChangedNotification] = self.on_roots
        async def on_roots(self, notification) -> None:
            print("changed")
    server.notification_handlers[types.RootsListChangedNotification] = _relay
    server.notification_handlers[types.RootsListChangedNotification] = on_event
    server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, on_attr)
    other = Server("y", on_roots_list_changed=on_call)
    third = Server("z", on_roots_list_changed=lambda ctx, params: _invalidate())
    fourth = Server("w", on_roots_list_changed=imported)
    fifth = Server("v", on_roots_list_changed=functools.partial(on_call, "tag"))
    ok = server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, plain)
    server.notification_handlers[types.RootsListChangedNotification] = plain; print("set")
    HANDLERS = {types.RootsListChangedNotification: plain}
    sixth = Server("u", on_roots_list_changed=on_fan)
    seventh = Server("t", on_roots_list_changed=on_imported)
    """,
    LOW + "\n",
)
STALE = fast(
    """\
    _roots_cache: list[str] = []
    _roots_stale = True  # flag
    async def _on_roots_changed(notification: types.RootsListChangedNotification) -> None:
        global _roots_stale
        _roots_stale = True
    mcp._mcp_server.notification_handlers[types.RootsListChangedNotification] = _on_roots_changed
    async def workspace() -> list[str]:
        global _roots_cache, _roots_stale
        if _roots_stale:
            result = await mcp.get_context().session.list_roots()
            _roots_cache = [str(r.uri) for r in result.roots]
            _roots_stale = False
        return _roots_cache
    def status() -> str:
        return ", ".join(_roots_cache)
    """,
    TYPES,
)
LEFTOVERS = fast(
    """\
    import asyncio
    STATE = {}
    async def _warm_roots() -> None:
        await mcp.get_context().session.list_roots()
    async def _load_roots() -> None:
        STATE["roots"] = (await mcp.get_context().session.list_roots()).roots
    async def rescan() -> None:
        await mcp.get_context().session.list_roots()
        await mcp.get_context().session.send_resource_list_changed()
    async def _on_initialized(notification: types.InitializedNotification) -> None:
        await _warm_roots()
        await _load_roots()
        await rescan()
    mcp._mcp_server.notification_handlers[types.InitializedNotification] = _on_initialized
    class Workspace:
        async def refresh(self, ctx) -> None:
            self.roots = [str(r.uri) for r in (await ctx.session.list_roots()).roots]
    async def _rescan(ctx) -> None:
        while True:
            print((await ctx.session.list_roots()).roots)
            await asyncio.sleep(60)
    @mcp.tool()
    async def watch(ctx) -> str:
        asyncio.create_task(_rescan(ctx))
        await ctx.session.list_roots()  # ping
        return "watching"
    async def _workspace_roots(ctx) -> list[str]:
        return [str(r.uri) for r in (await ctx.session.list_roots()).roots]
    async def workspace_roots(ctx) -> list[str]:
        return [str(r.uri) for r in (await ctx.session.list_roots()).roots]
    @mcp.resource("info://server")
    async def info(ctx) -> str:
        await ctx.session.list_roots()  # discarded
        try:
            await ctx.session.list_roots()  # probe
        except Exception:
            return "legacy"
        return "modern"
    """,
    TYPES.replace("FastMCP\n", "Context, FastMCP\n"),
)
CLIENT = """\
import asyncio
import fastmcp
from mcp import ClientSession, types
CAPABILITIES = types.ClientCapabilities(roots=types.RootsCapability(listChanged=True))
SNAKE = types.RootsCapability(list_changed=True)
async def main(read, write, roots, answer, unknown) -> None:
    async with ClientSession(read, write, list_roots_callback=roots, sampling_callback=answer) as session:
        await session.send_roots_list_changed()
        await asyncio.wait_for(session.send_roots_list_changed(), 1)
        await unknown.send_roots_list_changed()
    async with fastmcp.Client("server.py", roots=["file:///a"], sampling_handler=answer) as client:
        client.set_roots(["file:///b"])
"""
SERVER_SIDE = fast("""\
    @mcp.tool()
    async def summarize(text: str, ctx: Context) -> str:
        await ctx.info("summarizing")
        await ctx.session.send_log_message(level="info", data="summarizing")
        return (await ctx.session.create_message(messages=[], max_tokens=9)).content.text
    """)
WORDING = fast('NO_ROOTS = "No workspace: configure roots in your MCP client"\n')
# The tool's body already binds `root`: its argument is `root_path`, and the advice names that one.
WORDING_RENAMED = WORDING + TOOL.replace(FAST, "").replace("    result =", '    root = "x"\n    result =')
FASTMCP_TOOL = TOOL.replace("mcp.server.fastmcp", "fastmcp")

LIST = '[types.Tool(name="tree", inputSchema={"type": "object"})]'
# scenario -> its server.py
S: dict[str, str] = {
    "tool": TOOL,
    "fastmcp": FASTMCP_TOOL.replace("ctx.session.", "ctx."),
    "cached": CACHED,
    "cached_only_mr101": CACHED + "\nprint(_roots)\n",
    "cached_module": CACHED + "\nprint(_roots)\n",
    "cached_exported": '__all__ = ["_roots"]\n' + CACHED,
    "tool_reader": CACHED.replace("@mcp.tool()\n", "")
    + "\n@mcp.tool()\ndef count() -> int:\n    return len(_roots)\n",
    "outside": OUTSIDE,
    "opaque": fast("""\
        async def first_root(ctx: Context) -> str:
            return str((await ctx.session.list_roots()).roots[0].uri)
        class Tools:
            async def where(self, ctx: Context) -> str:
                return await first_root(ctx)
        tools = Tools()
        for name in ("where",):
            mcp.add_tool(getattr(tools, name), name=name)
        """),
    "wrappers": WRAPPERS,
    "none_versus_empty": NONE_VERSUS_EMPTY,
    "helper": HELPER,
    "bounds": BOUNDS,
    "bounds_operator": BOUNDS,
    "bounds_old_shim": BOUNDS,
    "ll": low(LIST),
    "ll_runtime": low(LIST.replace('{"type": "object"}', 'schema_for("tree")')),
    "ll_no_schema": low('[types.Tool(name="tree")]'),
    "ll_imported": low(LIST.replace('{"type": "object"}', "TREE"), "from .schemas import TREE\n"),
    "ll_listed_at_runtime": low(LIST.replace('"tree"', "n")[:-1] + ' for n in ["tree"]]', "", "if True:"),
    "ll_listed_then_branch": low(LIST.replace('"tree"', "n")[:-1] + ' for n in ["tree"]]'),
    "ll_other_name": low(LIST.replace("tree", "ls")),
    "ll_twice": low(LIST[:-1] + ", " + LIST[1:]),
    "ll_no_tools": low(None, "", "if True:"),
    "ll_dispatched": DISPATCHED,
    "removed": REMOVED,
    "kept": KEPT,
    "stale": STALE,
    "leftovers": LEFTOVERS,
    "kept_attribute": fast(
        """\
        class State:
            roots: list = []
        @mcp.tool()
        async def where(ctx: Context) -> str:
            if not State.roots:
                result = await ctx.session.list_roots()
                State.roots = result.roots
            return str(State.roots[0].uri)
        """
    ),
    "by_name": fast(
        """\
        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return next(str(r.uri) for r in result.roots if r.name == "main")
        """
    ),
    "by_name_handed": fast(
        """\
        def pick(roots) -> str:
            for r in roots:
                if r.name == "main":
                    return str(r.uri)
            raise ValueError("no root named main")
        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return pick(result.roots)
        """
    ),
    "by_host": fast(
        """\
        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            return "resources" if any(r.uri.host == "workspace" for r in result.roots) else "files"
        """
    ),
    "raw_request": TYPES
    + textwrap.dedent(
        """\
        @mcp.tool()
        async def where(ctx) -> str:
            result = await ctx.session.send_request(types.ServerRequest(types.ListRootsRequest()), types.ListRootsResult)
            return str(result.roots[0].uri)
        """
    ),
    "held_session": TYPES
    + textwrap.dedent(
        """\
        class State:
            host_session = None
        state = State()
        async def roots_for_child(_ctx):
            return await state.host_session.list_roots()
        """
    ),
    "allow_attribute": fast(
        """\
        class Box:
            allowed: list = []
        box = Box()
        @mcp.tool()
        async def where(ctx: Context) -> str:
            result = await ctx.session.list_roots()
            box.allowed = result.roots
            return str(box.allowed)
        """
    ),
    "kept_on_way": fast(
        """\
        from .helpers import project_roots
        class State:
            roots: list = []
        @mcp.tool()
        async def where(ctx: Context) -> str:
            if not State.roots:
                State.roots = await project_roots(ctx)
            return State.roots[0]
        """
    ),
    "dead_named_outside": fast(
        "async def _workspace_roots(ctx: Context):\n    return await ctx.session.list_roots()\n"
    ),
    "dead_public_namespace": fast(
        "async def workspace_roots(ctx: Context):\n    return await ctx.session.list_roots()\n"
    ),
    "wording": WORDING,
    "wording_selected": WORDING,
    "wording_renamed": WORDING_RENAMED,
    "wording_bound": WORDING + BOUNDS.replace(FAST, ""),  # MR110 sites, no tool takes an argument
    "client": CLIENT,
    "client_mr305": CLIENT,
    "server_side": SERVER_SIDE,
    "sample": FASTMCP_TOOL.replace("ctx.session.list_roots()", 'ctx.sample("hi")'),
    "set_level": LOW
    + "\n\n@server.set_logging_level()\nasync def set_level(level) -> None:\n    print(level)\n",
    "fifo": TOOL,
    "undecodable": TOOL,
    "unparsable": TOOL.replace("result = await", "result = = await"),
    "shim": TOOL,
    "too_large": TOOL + "# list_roots\n" * 200_000,
}
# scenario -> extra files, select, run (a folder of the project), setup(pkg folder)
OPTIONS: dict[str, dict] = {
    "cached_only_mr101": {"select": ["MR101"]},
    "helper": {"extra": {"fakes.py": "async def imported_fake(ctx):\n    return []\n"}},
    "kept": {"extra": {"handlers.py": "async def imported(ctx, params):\n    print(1)\n"}},
    # `pkg/` has no `__init__.py` (its modules are loose to the rules); `tools/` calls into it.
    "dead_public_namespace": {
        "extra": {
            "../tools/files.py": "from pkg import server\n\nserver.workspace_roots(None)\n",
            "../pyproject.toml": "[project]\nname = 'x'\n",
        },
        "setup": lambda pkg: (pkg / "__init__.py").unlink(),
        "run": "pkg",
    },
    "dead_named_outside": {
        "extra": {"../main.py": "from pkg.server import _workspace_roots\n"},
        "run": "pkg",
    },
    "wording_selected": {"select": ["MR218"]},
    "kept_on_way": {
        "extra": {
            "helpers.py": "async def project_roots(ctx):\n    return (await ctx.session.list_roots()).roots\n"
        }
    },
    "client_mr305": {"select": ["MR305"]},
    "fifo": {"setup": lambda pkg: os.mkfifo(pkg / "pipe.py")},
    "undecodable": {
        "setup": lambda pkg: (pkg / "server.py").write_bytes(TOOL.encode().replace(b'"x"', b'"\xff"'))
    },
    "shim": {"extra": {"_mcp_roots_compat.py": "# my own\n"}},
    # MR110 takes these bounds in place; with it off they are marked MR109 (tests/test_bounds.py).
    "bounds": {"ignore": ["MR110"]},
    "bounds_old_shim": {
        "extra": {"_mcp_roots_compat.py": "async def list_roots_compat(ctx, value):\n    pass\n"}
    },
}


# code | case | scenario | action | the site: a line's text, or file=NAME (default: the one finding) | words...
TABLE = """
MR101 | tool | tool | rewritten | | now reads the `root` argument | falling back to roots for legacy clients
MR101 | cache-not-selected | cached_only_mr101 | marked | | behind `_roots` | the cache rule, MR211, is not selected
MR102 | fastmcp | fastmcp | rewritten | | now reads the `root` argument
MR102 | untyped | outside | marked | # untyped | `thing.list_roots()` on an untyped value | annotate it and run again
MR103 | import-time | outside | marked | ROOTS = | roots read at import time
MR103 | captured | outside | marked | # captured | through `SESSION`, a session held in a global or on an object | no tool argument reaches it
MR103 | callers | outside | marked | # scan | in `scan` | the calls migrate-roots can follow reach only from `startup` (pkg/server.py:17) | none of them a tool or called from one
MR103 | decorator | outside | marked | # crawl | in `crawl` | from `run` (pkg/server.py:21) | `@command("crawl")` | does not know as a tool registration
MR103 | click | outside | marked | # click | in `first_root` | from `main` (pkg/server.py:26) | decorated by `@click.command()` | does not know as a tool registration
MR103 | decorated | outside | marked | # decorated | roots read in `sync_now` (pkg/server.py:46) | decorated by `@command("sync")` | a registrar of the project is not followed
MR103 | override | outside | marked | # override | by `super().list_roots()` in `Caching.list_roots` | a method of a subclass of the SDK's class
MR103 | returned | outside | marked | # returned | in `reader` | a function that `make` returns
MR103 | opaque | opaque | marked | | roots read in `first_root` | reach only from `where` (pkg/server.py:9) | Tools registered from a value migrate-roots cannot follow to a function, such as `mcp.add_tool(getattr(tools, name))` (pkg/server.py:12), may be that way
MR103 | resource | outside | marked | # resource | the handler `first` | `@mcp.resource` (pkg/server.py:33) | a resource read carries no arguments beyond its URI
MR103 | lambda | outside | marked | # lambda | roots read in a lambda `fetch_roots` | make it a function
MR103 | prompt | outside | marked | # prompt | the handler `review` | `@mcp.prompt` | a prompt takes arguments too
MR104 | wrapper | wrappers | marked | # wrapper | roots read in a decorator that wraps tools
MR104 | wraps | wrappers | marked | # wraps | in `first_root` | from `inner` (pkg/server.py:19) | (`@wraps(fn)`)
MR104 | functools.wraps | wrappers | marked | # functools.wraps | in `second_root` | from `outer` (pkg/server.py:24) | (`@functools.wraps(fn)`)
MR104 | signature | wrappers | marked | # signature | tool `where` | `mcp.tool()(where)` (server.py:30) | synthesized `__signature__`
MR105 | none | none_versus_empty | marked | # none | treats 'client has no roots' (None) differently from 'empty list'
MR105 | failure | none_versus_empty | marked | # failure | when the call fails | sets `result = None`
MR105 | error-fields | none_versus_empty | marked | # error fields | reads it (`exc.error`) | RootsArgumentError
MR105 | capability | none_versus_empty | marked | # capability | a roots-capability check guards this call | the check must go
MR105 | passes-down | none_versus_empty | marked | # passes down | a roots-capability check | the path argument it passes down may never arrive
MR106 | clash | helper | marked | # clash | already has a parameter named 'root'
MR107 | helper | helper | rewritten | | `roots_of` now takes `root=None`
MR108 | fake | helper | rewritten | def fake_roots | test double `test_where.fake_roots` of `roots_of` | `root=None`
MR108 | shadowing | helper | rewritten | def shadowing | `test_where.shadowing` of `roots_of` | `**kwargs` | would shadow
MR108 | imported | helper | reported | imported_fake) | double of `roots_of` (`imported_fake`) is not a function defined in this file
MR108 | lambda | helper | reported | lambda ctx | lambda | of `roots_of`
MR109 | prefix | bounds | marked | # prefix | a prefix test on a resolved path in `view` | MCP_ROOTS_ALLOWED_PATHS
MR109 | helper | bounds | marked | # commonpath | `commonpath` in `inside`
MR109 | checked | bounds | marked | # checked | `index` checks its path argument `notes_dir` with a `..` test | could name a folder past it
MR109 | handed-out | bounds | marked | # handed out | `enter` hands the roots, with its path argument `project_dir`, to `choose` of `workspaces` (server.py: | which migrate-roots does not read | Decide which by hand
MR109 | old-shim | bounds_old_shim | marked | # prefix | a prefix test on a resolved path in `view` | `_mcp_roots_compat.py` was written by an earlier migrate-roots | has no `allowed_roots_compat`
MR110 | prefix | bounds_operator | rewritten | # prefix | a prefix test on a resolved path in `view` | is now `allowed_roots_compat` | legacy clients their roots as before | MCP_ROOTS_ALLOWED_PATHS
MR110 | helper | bounds_operator | rewritten | # commonpath | `commonpath` in `inside` | MCP_ROOTS_ALLOWED_PATHS
MR151 | schema | ll | rewritten | types.Tool( | low-level tool `tree` | its inputSchema gains the `root` property
MR152 | runtime | ll_runtime | marked | | tool `tree` | its inputSchema is built at runtime
MR152 | no-schema | ll_no_schema | marked | | tool `tree` has no inputSchema argument
MR152 | imported | ll_imported | marked | | tool `tree` | its schema `TREE` is not defined in this module
MR152 | listed | ll_listed_at_runtime | marked | | this server lists its tools at runtime | in a comprehension in `list_tools`, line 8
MR152 | branch | ll_listed_then_branch | marked | | tool `tree`: this server lists its tools at runtime | in a comprehension in `list_tools`, line 8
MR153 | other-name | ll_other_name | marked | | no `types.Tool(name='tree', ...)` found | for this branch
MR153 | twice | ll_twice | marked | | tool `tree` is described by several `Tool(...)` calls
MR153 | no-tools | ll_no_tools | marked | | no `types.Tool(name=...)` found | for this handler's tools
MR153 | dispatched | ll_dispatched | marked | | which parameter of this dispatched function
MR201 | dict | removed | rewritten | ] = _on_roots_changed | (notification_handlers[RootsListChangedNotification]) | handler `_on_roots_changed` removed
MR201 | keyword | removed | rewritten | =_on_roots) | (Server(on_roots_list_changed=...)) | handler `_on_roots` removed
MR201 | middleware | removed | rewritten | # removed | (fastmcp Middleware.on_notification branch) removed
MR202 | else | removed | marked | # else | the branch has an else/elif
MR202 | proxy | kept | marked | = _relay | handler `_relay` relays the change to downstream servers
MR202 | event | kept | marked | = on_event | the handler changes `changed.set()`
MR202 | attribute | kept | marked | on_attr) | the handler changes `State.stale`
MR202 | calls | kept | marked | =on_call) | the handler calls `_invalidate`, which changes module state
MR202 | lambda-calls | kept | marked | lambda | (not a plain function) calls `_invalidate`
MR202 | relay-helper | kept | marked | =on_fan) | the handler calls `_fan_out`, which relays the change to downstream servers
MR202 | imported-call | kept | marked | =on_imported) | the handler calls `imported` (imported from `.handlers`), which migrate-roots does not read here
MR202 | method | kept | marked | = self.on_roots | the handler `self.on_roots` is not a module-level function
MR202 | import | kept | marked | =imported) | the handler `imported` is not a module-level function
MR202 | partial | kept | marked | functools.partial( | the handler `functools.partial(on_call
MR202 | not-a-statement | kept | marked | ok = | registration is not a statement of its own
MR202 | shared-line | kept | marked | print("set") | registration shares its line with other statements
MR202 | dict-literal | kept | marked | HANDLERS | referenced in a form migrate-roots does not remove
MR202 | kept-handler | stale | marked | def _on_roots_changed | kept with its registration (`notification_handlers[RootsListChangedNotification]`
MR202 | invalidates | stale | marked | ] = _on_roots_changed | the handler invalidates `_roots_stale` which is still read
MR211 | removed | cached | rewritten | | roots cache removed: `where` now reads roots on every call | removed globals: `_roots`
MR211 | reader | stale | marked | _cache: list | `_roots_cache` keeps roots | read by `status`, a function that does not fetch it
MR211 | flag | stale | marked | # flag | `_roots_stale` keeps roots | shares a guard with `_roots_cache`
MR211 | behind | stale | marked | result = await | roots read behind `_roots_stale`, a cache that stays
MR211 | module | cached_module | marked | _roots = None | `_roots` keeps roots | used at module level
MR211 | exported | cached_exported | marked | _roots = None | `_roots` keeps roots | used from another module or exported
MR211 | tool-reader | tool_reader | marked | _roots = None | `_roots` keeps roots | read by `count`, a tool that does not fetch it
MR211 | once | outside | marked | # once | in `load` | called by `loaded` (pkg/server.py:43) | behind the flag `_loaded`
MR212 | attribute | leftovers | marked | | roots kept on `self.roots` outlive the request
MR212 | kept-read | kept_attribute | marked | result = await | keeps the roots it reads on `State.roots` | serve one caller's value to later calls
MR212 | kept-write | kept_attribute | marked | State.roots = result | roots kept on `State.roots` outlive the request | a `root` argument the tool passes down
MR101 | by-name | by_name | marked | | reads the roots' names, `r.name` | have no name
MR101 | by-name-handed | by_name_handed | marked | | hands the roots to `pick`, which reads their names | have no name
MR101 | by-host | by_host | marked | | tells roots apart by their URI's host, `r.uri.host` | `file://` URIs with no host
MR101 | raw-request | raw_request | marked | | roots asked for as a raw request | `list_roots_compat` here by hand
MR103 | held-session | held_session | marked | | roots read through `state.host_session`, a session held on an object
MR212 | allow-read | allow_attribute | marked | result = await | bounds what the tools may touch | keep that bound with the operator
MR212 | allow-write | allow_attribute | marked | box.allowed = | an allow-list that outlives the request | not the caller's `root` argument
MR212 | kept-on-way | kept_on_way | marked | file=helpers.py | `where` keeps what this read gives on `State.roots` (server.py:
MR213 | removed | leftovers | rewritten | await _warm_roots() | eager roots fetch at `initialized` removed (`_warm_roots()`, result unused)
MR213 | marked | leftovers | marked | await _load_roots() | eager roots fetch at `initialized` (`_load_roots()`) does more than read roots
MR214 | task | leftovers | marked | | background roots refresh (`_rescan`)
MR215 | roots-function | leftovers | marked | | resources/list_changed sent because roots changed | the server's own resources change
MR215 | kept-branch | removed | marked | | resources/list_changed sent because roots changed
MR216 | private | leftovers | rewritten | def _workspace_roots | dead roots helper `_workspace_roots` removed
MR216 | public | leftovers | reported | def workspace_roots | roots helper `workspace_roots` is unused within the package | it is public
MR216 | namespace | dead_public_namespace | reported | | `workspace_roots` has no caller in its package | but `tools/files.py` names it: kept
MR216 | named-outside | dead_named_outside | reported | | `_workspace_roots` has no caller in its package | but `main.py` names it: kept
MR217 | removed | leftovers | rewritten | # discarded | roots fetched and the result thrown away: call removed
MR217 | probe | leftovers | marked | # probe | probes the roots capability inside try
MR217 | in-rewritten-tool | leftovers | marked | # ping | rewritten by MR101 although its result is thrown away
MR218 | reported | wording | reported | | this text speaks of MCP roots ("configure roots"), deprecated | the tools' path argument (`root`, unless
MR218 | selected | wording_selected | marked | | this text speaks of MCP roots ("configure roots"), deprecated | the tools' path argument (`root`, unless
MR218 | renamed | wording_renamed | reported | | this text speaks of MCP roots ("configure roots"), deprecated | pass the `root_path` argument
MR218 | bound | wording_bound | reported | | this text speaks of MCP roots ("configure roots"), deprecated | list the allowed directories in MCP_ROOTS_ALLOWED_PATHS | MR110 adds no argument
MR301 | callback | client | reported | | this client answers roots/list
MR302 | constructor | client | reported | fastmcp.Client( | fastmcp `Client(roots=...)` answers roots/list
MR302 | set-roots | client | reported | set_roots | `set_roots(...)` sets the roots this fastmcp client answers with
MR303 | session | client | reported | await session.send | notifications/roots/list_changed does not exist | `--select MR305`
MR304 | camel | client | reported | CAPABILITIES | declares roots.listChanged
MR304 | snake | client | reported | SNAKE | `list_changed=` is ignored by mcp 1.x
MR305 | keyword | client_mr305 | rewritten | CAPABILITIES | `listChanged=True` removed
MR305 | call | client_mr305 | rewritten | await session.send | send_roots_list_changed() removed
MR305 | expression | client_mr305 | marked | wait_for | send_roots_list_changed() is part of a larger expression
MR305 | receiver | client_mr305 | marked | unknown. | receiver not recognised as an MCP client
MR401 | create-message | server_side | reported | | server-initiated sampling (`create_message`)
MR402 | sample | sample | reported | | fastmcp `ctx.sample()` sends sampling/createMessage
MR403 | callback | client | reported | ClientSession( | `sampling_callback=` answers server-initiated sampling
MR403 | handler | client | reported | fastmcp.Client( | `sampling_handler=` answers server-initiated sampling
MR501 | context | server_side | reported | | `ctx.info()` sends an MCP log notification
MR502 | session | server_side | reported | | `send_log_message()` sends an MCP log notification
MR503 | decorator | set_level | reported | | a logging/setLevel handler
MR901 | fifo | fifo | reported | file=pipe.py | cannot read: not a regular file (FIFO
MR902 | undecodable | undecodable | reported | FastMCP("x") | cannot decode: not valid utf-8
MR903 | unparsable | unparsable | reported | | cannot parse | expected one of
MR903 | line | unparsable | reported | = = await | error at 7:
MR906 | shim | shim | reported | file=_mcp_roots_compat.py | the compatibility module exists and differs
MR907 | too-large | too_large | reported | | file too large | over the 2 MB limit
"""
XFAIL: dict[str, str] = {}  # case -> why its text is false today (none)


def _rows() -> list:
    rows = []
    for text in TABLE.strip().splitlines():
        code, label, scenario, action, at, *words = (part.strip() for part in text.split("|"))
        case = f"{code}-{label}"
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[case])] if case in XFAIL else []
        rows.append(pytest.param(code, scenario, action, at, words, id=case, marks=marks))
    return rows


ROWS = _rows()


@pytest.fixture(scope="module")
def findings_of(tmp_path_factory):
    cache: dict[str, list] = {}

    def run(scenario: str) -> list:
        if scenario not in cache:
            opts = OPTIONS.get(scenario, {})
            root = helpers._layout(tmp_path_factory.mktemp(scenario), S[scenario], opts.get("extra"), True)
            if "setup" in opts:
                opts["setup"](root / "pkg")
            results = helpers.run_engine(
                root / opts.get("run", ""),
                select=opts.get("select", ()),
                ignore=opts.get("ignore", ()),
                write=False,
            )
            cache[scenario] = [f for r in results for f in r.findings]
        return cache[scenario]

    return run


def _line(source: str, at: str) -> int:
    return next(n for n, text in enumerate(source.splitlines(), 1) if at in text)


@pytest.mark.parametrize(("code", "scenario", "action", "at", "words"), ROWS)
def test_each_finding_names_its_case(findings_of, code, scenario, action, at, words):
    file = at.removeprefix("file=") if at.startswith("file=") else "server.py"
    line = _line(S[scenario], at) if at and file == "server.py" else None
    mine = [
        f
        for f in findings_of(scenario)
        if f.code == code and os.path.basename(f.path) == file and line in (None, f.line)
    ]
    assert len(mine) == 1, (line, [(f.code, f.line, f.message) for f in findings_of(scenario)])
    assert mine[0].action.value == action, mine[0]
    for word in words:
        assert word in mine[0].message, (word, mine[0].message)


SHARED = "MR151 (at the read) says what MR101 says: 'roots/list ... fails ... now reads the `root` argument'"
SHARING: set[str] = set()  # codes whose text another code shares (none today)
CODES = sorted({p.values[0] for p in ROWS})


@pytest.mark.parametrize(
    "code",
    [
        pytest.param(c, marks=pytest.mark.xfail(strict=True, reason=SHARED)) if c in SHARING else c
        for c in CODES
    ],
)
def test_no_two_codes_share_a_text(findings_of, code):
    texts: dict[str, set[str]] = {}
    for scenario in S:
        for f in findings_of(scenario):
            texts.setdefault(f.code, set()).add(f.message)
    shared = {
        (other, text)
        for other, theirs in texts.items()
        if other != code
        for text in texts.get(code, set()) & theirs
    }
    assert not shared


TOOL_FIELD = [
    pytest.param("ll_other_name", "MR153", "tree", id="branch-of-an-unlisted-tool"),
    pytest.param("ll_no_tools", "MR153", None, id="before-the-dispatch"),
]


@pytest.mark.parametrize(("scenario", "code", "tool"), TOOL_FIELD)
def test_a_low_level_finding_names_the_tool_the_client_calls(findings_of, scenario, code, tool):
    assert [f.tool for f in findings_of(scenario) if f.code == code] == [tool]
