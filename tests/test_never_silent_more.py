"""More spellings of roots references that used to be silent (session 14's adversarial sweep): each is now
rewritten or reported, with the code named here. Noop (marked, not rewritten) first."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, write=False)

LOWLEVEL = (
    "from mcp.server.lowlevel import Server\nfrom mcp.types import ListRootsRequest\n\nserver = Server('x')\n"
)
MIDDLEWARE = """\
from fastmcp.server.middleware import Middleware


class Watch(Middleware):
    async def on_notification(self, context, call_next):
        if context.method.{test}:
            print("roots changed")
        return await call_next(context)
"""


@pytest.mark.parametrize(
    ("source", "code", "line"),
    [
        # "roots/list" as the key of a table of method names (conduit-mcp's SERVER_SENT_REQUEST_CLASSES).
        (LOWLEVEL + 'TABLE = {\n    "ping": object,\n    "roots/list": ListRootsRequest,\n}\n', "MR101", 7),
        # The request not the first argument of the send (a proxy's `send_request(client_id, request)`).
        (
            LOWLEVEL
            + "\n\nasync def ask(session, cid):\n    return await session.send_request(cid, ListRootsRequest())\n",
            "MR101",
            8,
        ),
        # The list_changed method name in pieces, and matched by suffix in a middleware.
        (LOWLEVEL + 'server.add_handler("notifications/roots/" + "list_changed", print)\n', "MR202", 5),
        (LOWLEVEL + 'NAME = ("notifications/" "roots/list_changed")\n', "MR202", 5),
        (MIDDLEWARE.format(test='endswith("roots/list_changed")'), "MR202", 6),
        (MIDDLEWARE.format(test='endswith("/roots/list_changed")'), "MR202", 6),
        # The method named in a string for `operator.methodcaller`.
        (
            "import operator\n\nfrom mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n"
            "@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
            '    return str(await operator.methodcaller("list_roots")(ctx.session))\n',
            "MR103",
            10,
        ),
        # mcp 2.x's list_changed handler handed to `Server` through `**`.
        (
            "from mcp.server import Server\n\n\nasync def h(ctx, params):\n    print(1)\n\n\n"
            'HANDLERS = {"on_roots_list_changed": h}\nserver = Server("x", **HANDLERS)\n',
            "MR202",
            8,
        ),
        (
            'from mcp.server import Server\n\nserver = Server("x", **dict(on_roots_list_changed=print))\n',
            "MR202",
            3,
        ),
        # The method named for `__getattribute__`.
        (
            "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
            "async def where(ctx: Context) -> str:\n"
            '    return str(await ctx.session.__getattribute__("list_roots")())\n',
            "MR103",
            8,
        ),
        # The SDK's method called on its class.
        (
            "from mcp.server.fastmcp import Context, FastMCP\nfrom mcp.server.session import ServerSession\n\n"
            "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
            "    return str(await ServerSession.list_roots(ctx.session))\n",
            "MR103",
            9,
        ),
        (
            "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
            "async def where(ctx: Context) -> str:\n    return str(await type(ctx.session).list_roots(ctx.session))\n",
            "MR103",
            8,
        ),
        # mcp 2.x's era-portable roots, resolved into a tool parameter (session 15's sweep C, r03).
        (
            "from typing import Annotated\n\nfrom mcp.server.mcpserver import MCPServer\n"
            "from mcp.server.mcpserver.resolve import ListRoots, Resolve\nfrom mcp.types import ListRootsResult\n\n"
            "mcp = MCPServer('x')\n\n\ndef get_roots() -> ListRoots:\n    return ListRoots()\n\n\n@mcp.tool()\n"
            "async def where(roots: Annotated[ListRootsResult, Resolve(get_roots)]) -> str:\n"
            "    return str(roots.roots[0].uri)\n",
            "MR101",
            11,
        ),
        # A roots request built for an input request (the session 21 field hunt's r01), in a tool and in a
        # low-level handler.
        (
            "from mcp import types\nfrom mcp.server.mcpserver import Context, MCPServer\n\nmcp = MCPServer('x')\n\n\n"
            "@mcp.tool()\nasync def where(ctx: Context) -> types.InputRequiredResult | str:\n"
            "    if ctx.input_responses is None:\n"
            "        return types.InputRequiredResult(input_requests={'r': types.ListRootsRequest()})\n"
            "    return str(ctx.input_responses['r'].roots[0].uri)\n",
            "MR101",
            10,
        ),
        (
            "from mcp.server.lowlevel import Server\nfrom mcp.types import InputRequiredResult, ListRootsRequest\n\n\n"
            "async def on_call_tool(ctx, params):\n    requests = {'r': ListRootsRequest()}\n"
            "    return InputRequiredResult(input_requests=requests)\n\n\n"
            "app = Server('x', on_call_tool=on_call_tool)\n",
            "MR101",
            6,
        ),
        # The method named by a module constant (`getattr(session, METHOD)`).
        (
            "from mcp.server.fastmcp import Context, FastMCP\n\nMETHOD = 'list_roots'\nmcp = FastMCP('x')\n\n\n"
            "@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
            "    fetch = getattr(ctx.session, METHOD)\n    return str(await fetch())\n",
            "MR103",
            9,
        ),
    ],
)
def test_reported(tmp_path, source, code, line):
    findings = check_noop(tmp_path, source)
    assert [(f.code, f.line) for f in findings] == [(code, line)]


def test_noop_a_constant_bound_twice_is_not_followed(tmp_path):
    # `METHOD` is rebound before any call: `getattr` takes `ping`.
    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nMETHOD = 'list_roots'\nMETHOD = 'ping'\n"
        "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
        "    return str(await getattr(ctx.session, METHOD)())\n"
    )
    assert check_noop(tmp_path, source) == []


def test_one_marker_for_a_statement_that_names_list_changed_twice(tmp_path):
    source = (
        "from typing import Literal\n\nfrom mcp.server.lowlevel import Server\n\nserver = Server('x')\n\n\n"
        "class Changed:\n"
        '    method: Literal["notifications/roots/list_changed"] = "notifications/roots/list_changed"\n'
    )
    findings = check_noop(tmp_path, source)
    assert [f.code for f in findings] == ["MR202"] and "held in `method`" in findings[0].message


def test_a_pep_695_type_alias_of_the_context_is_followed(tmp_path):
    """`type Ctx = Context` (Python 3.12+), then `ctx: Ctx`: the tool is rewritten like `Ctx = Context`."""
    (tmp_path / "server.py").write_text(
        "from fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\ntype Ctx = Context\n\n\n@mcp.tool\n"
        "async def where(ctx: Ctx) -> str:\n    roots = await ctx.list_roots()\n    return str(roots[0].uri)\n"
    )
    results = helpers.run_engine(tmp_path)
    assert helpers.codes(f for r in results for f in r.findings) == ["MR102"]
    text = (tmp_path / "server.py").read_text()
    assert "async def where(ctx: Ctx, root: RootPath = None) -> str:" in text
    assert 'await list_roots_compat(ctx, root, name="root", shape="list")' in text


def test_a_read_removed_as_discarded_carries_no_other_marker(tmp_path):
    """MR217 removes a discarded read in a middleware hook: MR103's "rewrites nothing here" is not reported."""
    source = (
        "from fastmcp.server.middleware import Middleware\n\n\nclass WarmRoots(Middleware):\n"
        "    async def on_call_tool(self, context, call_next):\n"
        "        await context.fastmcp_context.list_roots()\n"
        "        return await call_next(context)\n"
    )
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path)
    assert helpers.codes(f for r in results for f in r.findings) == ["MR217"]
    assert "list_roots" not in (tmp_path / "server.py").read_text()


def test_a_tool_run_by_name_through_the_server_is_marked_and_a_second_run_is_idle(tmp_path):
    """`await mcp.call_tool("where", {})` from another tool: `where` gains `root`, the call passes none (B's r11)."""
    source = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        "async def where(ctx: Context) -> str:\n    r = await ctx.session.list_roots()\n    return str(r.roots[0].uri)\n"
        "\n\n@mcp.tool()\nasync def summary() -> str:\n    return str(await mcp.call_tool('where', {}))\n"
    )
    (tmp_path / "server.py").write_text(source)
    results = helpers.run_engine(tmp_path)
    assert helpers.codes(f for r in results for f in r.findings) == ["MR101", "MR104"]
    first = (tmp_path / "server.py").read_text()
    assert "# migrate-roots: MR104: runs the tool `where` by its name through the server" in first
    helpers.run_engine(tmp_path)
    assert (tmp_path / "server.py").read_text() == first


def test_a_session_kept_in_a_dataclass_field_typed_as_the_sdks_is_marked(tmp_path):
    # Session 15's sweep A, r02: `deps: Deps`, whose class declares `session: ServerSession`.
    deps = (
        "from dataclasses import dataclass\n\nfrom mcp.server.session import ServerSession\n\n\n@dataclass\n"
        "class Deps:\n    session: ServerSession\n\n\nasync def first_root(deps: Deps) -> str:\n"
        "    result = await deps.session.list_roots()\n    return str(result.roots[0].uri)\n"
    )
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .deps import Deps, first_root\n\n"
        "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
        "    return await first_root(Deps(session=ctx.session))\n"
    )
    findings = check_noop(tmp_path, server, extra={"deps.py": deps})
    assert [(f.code, f.path, f.line) for f in findings] == [("MR103", "pkg/deps.py", 12)]


def test_noop_a_field_typed_as_the_projects_own_stays_unmarked(tmp_path):
    deps = (
        "from dataclasses import dataclass\n\nimport mcp\n\n\nclass Store:\n    async def list_roots(self):\n"
        "        return []\n\n\n@dataclass\nclass Deps:\n    session: Store\n\n\n"
        "async def first_root(deps: Deps) -> str:\n    return str(await deps.session.list_roots())\n"
    )
    assert check_noop(tmp_path, "VALUE = 1\n", extra={"deps.py": deps}) == []


def test_the_method_name_kept_in_a_constant_of_another_module_is_reported(tmp_path):
    # Session 15's sweep A, r06: `ROOTS_ATTR = "list_roots"` in a module without the SDK, used elsewhere.
    server = (
        "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .constants import ROOTS_ATTR\n\n"
        "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
        "    return str(await getattr(ctx.session, ROOTS_ATTR)())\n"
    )
    findings = check_noop(tmp_path, server, extra={"constants.py": 'ROOTS_ATTR = "list_roots"\n'})
    assert [(f.code, f.path, f.line) for f in findings] == [("MR103", "pkg/constants.py", 1)]


def test_a_helper_handed_to_a_library_runner_names_that_call(tmp_path):
    # Session 15's sweep A, r08: the marker listed reasons none of which was the real one.
    helper = (
        "from mcp.server.fastmcp import Context\n\n\nasync def first_root(ctx: Context) -> str:\n"
        "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    )
    server = (
        "import anyio.from_thread\nfrom mcp.server.fastmcp import Context, FastMCP\n\n"
        "from .helpers import first_root\n\nmcp = FastMCP('x')\n\n\n@mcp.tool()\n"
        "def where(ctx: Context) -> str:\n    print(first_root)\n    return anyio.from_thread.run(first_root, ctx)\n"
    )
    findings = check_noop(tmp_path, server, extra={"helpers.py": helper})
    assert [(f.code, f.path) for f in findings] == [("MR103", "pkg/helpers.py")]
    assert (
        "handed as a value to `anyio.from_thread.run(first_root, ctx)` (pkg/server.py:12)"
        in findings[0].message
    )


def test_a_resource_calling_a_helper_the_tools_thread_is_marked_at_its_call(tmp_path):
    # Session 15's sweep D, r06 (gitlab-mcp's resources): silent while a tool shared the helper.
    server = (
        "from fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n\n\n"
        "async def current_project(ctx: Context) -> str:\n    roots = await ctx.list_roots()\n"
        "    return str(roots[0].uri)\n\n\n@mcp.tool()\nasync def project(ctx: Context) -> str:\n"
        "    return await current_project(ctx)\n\n\n@mcp.resource('demo://projects/{name}/readme')\n"
        "async def readme(name: str, ctx: Context) -> str:\n    return await current_project(ctx) + name\n"
    )
    findings = helpers.check_noop(tmp_path, server, write=False)
    marked = [f for f in findings if f.code == "MR103"]
    assert [(f.line) for f in marked] == [18]
    assert "in the handler `readme` registered by `@mcp.resource`, passes none" in marked[0].message


def test_a_read_in_a_lambda_handed_to_a_thread_bridge_names_the_lambda(tmp_path):
    """sweep B r03 (session 20): `anyio.from_thread.run(lambda: ctx.list_roots())` in a sync fastmcp tool was
    marked as "another object's (an adapter's)", though it is fastmcp's own call, made where the lambda runs."""
    source = (
        "import anyio.from_thread\nfrom fastmcp import Context, FastMCP\n\nmcp = FastMCP('t')\n\n\n"
        "@mcp.tool\ndef where(ctx: Context) -> str:\n"
        "    roots = anyio.from_thread.run(lambda: ctx.list_roots())\n    return str(roots[0].uri)\n"
    )
    root = helpers._layout(tmp_path, source, None, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert [f.code for f in found] == ["MR103"], found
    assert found[0].message.startswith(
        "the roots call is made in a lambda (`lambda: ctx.list_roots()`, handed to `anyio.from_thread.run(...)`)"
    )
    assert "adapter" not in found[0].message
