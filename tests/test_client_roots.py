"""MR301-MR305: the client side of roots, reported as deprecated; MR305 removes the change notifications."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes

CLIENT = """\
import fastmcp
from mcp import ClientSession, types
from mcp.client.stdio import stdio_client


async def roots_cb(context):
    return types.ListRootsResult(roots=[])


async def main(params, folders):
    caps = types.ClientCapabilities(roots=types.RootsCapability(listChanged=True))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, list_roots_callback=roots_cb) as session:
            await session.initialize()
            await session.send_roots_list_changed()
    client = fastmcp.Client("server.py", roots=folders)
    client.set_roots(["file:///tmp"])
    return caps, types.RootsCapability(list_changed=True)
"""

# --- noop cases first ------------------------------------------------------------------------------------


def test_noop_users_own_same_named_methods(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        from .tree import Client, Forest

        mcp = FastMCP("x")


        async def main(forest: Forest):
            await forest.send_roots_list_changed()
            forest.set_roots(["a"])
            return Client(roots=["a"]), Forest(list_roots_callback=None)
        """,
        extra={"tree.py": "class Forest:\n    pass\n\n\nclass Client:\n    pass\n"},
    )
    assert findings == []


def test_noop_client_roots_are_reported_not_rewritten(tmp_path):
    findings = check_noop(tmp_path, CLIENT)
    assert codes(findings) == ["MR301", "MR302", "MR302", "MR303", "MR304", "MR304"]
    assert {f.severity.value for f in findings} == {"deprecated"}
    assert {f.action.value for f in findings} == {"reported"}
    trap = [f for f in findings if f.code == "MR304" and "list_changed=" in f.message]
    assert trap and "ignored by mcp 1.x" in trap[0].message


def test_noop_mcp2_client_and_memory_harness(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp import Client
        from mcp.shared.memory import create_connected_server_and_client_session


        async def main(server, cb):
            async with Client(server, mode="legacy", list_roots_callback=cb) as client:
                await client.send_roots_list_changed()
            async with create_connected_server_and_client_session(server, list_roots_callback=cb) as s:
                await s.send_roots_list_changed()
        """,
    )
    assert codes(findings) == ["MR301", "MR301", "MR303", "MR303"]


def test_noop_a_users_own_attribute_and_method_value_are_left_alone(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from .tree import Forest


        async def main(forest: Forest, cb):
            forest._list_roots_callback = cb
            send = forest.send_roots_list_changed
            await send()
        """,
        extra={"tree.py": "class Forest:\n    pass\n"},
    )
    assert findings == []


def test_a_callback_set_on_the_private_attribute_and_a_send_taken_as_a_value_are_reported(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp import ClientSession


        async def main(session: ClientSession, cb):
            session._list_roots_callback = cb
            send = session.send_roots_list_changed
            await send()
            await (session.send_roots_list_changed)()
        """,
    )
    assert codes(findings) == ["MR301", "MR303", "MR303"]
    assert "set on the session's private attribute here" in findings[0].message
    taken = sorted("taken as a value" in f.message for f in findings[1:])
    assert taken == [False, True]  # the parenthesised call is a call


# --- the opt-in rewrite ----------------------------------------------------------------------------------


def test_opt_in_removes_notifications_and_list_changed(tmp_path):
    findings = check_transformed(
        tmp_path,
        CLIENT,
        """\
        import fastmcp
        from mcp import ClientSession, types
        from mcp.client.stdio import stdio_client


        async def roots_cb(context):
            return types.ListRootsResult(roots=[])


        async def main(params, folders):
            caps = types.ClientCapabilities(roots=types.RootsCapability())
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, list_roots_callback=roots_cb) as session:
                    await session.initialize()
            client = fastmcp.Client("server.py", roots=folders)
            client.set_roots(["file:///tmp"])
            return caps, types.RootsCapability()
        """,
        select=["MR305"],
    )
    assert codes(findings) == ["MR305", "MR305", "MR305"]
    assert {f.action.value for f in findings} == {"rewritten"}


def test_opt_in_is_off_by_default_and_marks_what_it_cannot_remove(tmp_path):
    from migrate_roots import codemods

    assert "MR305" not in codemods.select_codes()
    findings = check_transformed(
        tmp_path,
        """\
        import asyncio

        from mcp import ClientSession


        class Proxy:
            def __init__(self, session: ClientSession) -> None:
                self.session = session

            async def relay(self, other) -> None:
                await asyncio.gather(self.session.send_roots_list_changed(), other.send_roots_list_changed())
        """,
        """\
        import asyncio

        from mcp import ClientSession


        class Proxy:
            def __init__(self, session: ClientSession) -> None:
                self.session = session

            async def relay(self, other) -> None:
                # migrate-roots: MR305: send_roots_list_changed() is part of a larger
                #   expression: remove it by hand
                # migrate-roots: MR305: receiver not recognised as an MCP client: remove by hand
                await asyncio.gather(self.session.send_roots_list_changed(), other.send_roots_list_changed())
""",
        select=["MR3", "MR305"],
    )
    assert codes(findings) == ["MR303", "MR303", "MR305", "MR305"]


def test_noop_proxy_relaying_roots_downstream_is_reported(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp import ClientSession, types
        from mcp.client.stdio import stdio_client
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("proxy")


        @mcp.tool()
        async def forward(ctx: Context, tool: str, params) -> str:
            async def relay(context) -> types.ListRootsResult:
                return await ctx.session.list_roots()

            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, list_roots_callback=relay) as downstream:
                    await downstream.initialize()
                    return str(await downstream.call_tool(tool, {}))
        """,
        select=["MR3"],
    )
    assert codes(findings) == ["MR301"]
    assert findings[0].severity.value == "deprecated"


def test_noop_callback_through_a_local_class_or_kwargs_is_reported(tmp_path):
    """The client class held in a local (fast-agent's `client_type = Forced if modern else Client`), and the
    keyword passed by name (fastmcp's `self._session_kwargs["list_roots_callback"] = ...`, a `**{...}`): all
    were silent (helpers' sweep)."""
    source = """\
        from mcp import ClientSession
        from mcp.client import Client


        async def roots(context):
            return None


        def connect(transport, modern: bool, read, write):
            client_type = Client if not modern else Client
            first = client_type(transport, list_roots_callback=roots)
            kwargs = {}
            kwargs["list_roots_callback"] = roots
            second = ClientSession(read, write, **kwargs)
            third = ClientSession(read, write, **{"list_roots_callback": roots})
            return first, second, third
        """
    findings = check_noop(tmp_path, source, write=False)
    assert codes(findings) == ["MR301", "MR301", "MR301"]
    assert [f.line for f in findings] == [11, 13, 15]


def test_noop_a_callback_keyword_outside_mcp_code_is_nothing(tmp_path):
    source = """\
        def connect(factory, roots):
            return factory(list_roots_callback=roots, **{"list_roots_callback": roots})
        """
    assert check_noop(tmp_path, source, write=False) == []


def test_noop_a_list_changed_notice_through_a_client_typed_any_is_reported(tmp_path):
    """An SDK-agnostic wrapper holds its client as `Any` (x402's): that says nothing, as no annotation does
    (helpers' sweep: it was silent); a client of another type stays out."""
    source = """\
        from typing import Any

        from mcp import ClientSession


        class Tracing:
            def __init__(self, inner: Any, other: "Tracing") -> None:
                self._inner = inner
                self._other = other

            async def changed(self, client: Any) -> None:
                await self._inner.send_roots_list_changed()
                await client.send_roots_list_changed()
                await self._other.send_roots_list_changed()
        """
    findings = check_noop(tmp_path, source, write=False)
    assert codes(findings) == ["MR303", "MR303"]
    assert [f.line for f in findings] == [12, 13]
