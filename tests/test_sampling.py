"""MR401-MR403: sampling is reported (never rewritten), with its migration path."""

from __future__ import annotations

from tests.helpers import check_noop, codes

# --- noop cases first: nothing to report -----------------------------------------------------------------


def test_noop_random_sample_and_own_create_message(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import random
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")

        class Api:
            def create_message(self, text):
                return text

        def pick(rng: random.Random, items, api: Api):
            api.create_message("hello")
            return rng.sample(items, 2)
        """,
    )
    assert findings == []


def test_noop_unannotated_parameter_not_awaited(tmp_path):
    # `rng` is a guess from the imports only; the SDK's sample() is a coroutine, this call is not awaited.
    findings = check_noop(
        tmp_path,
        """\
        import fastmcp

        def pick(rng, items):
            return rng.sample(items, 2)
        """,
    )
    assert findings == []


def test_noop_sampling_callback_of_own_function(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from myapp import connect

        async def main(cb):
            await connect(sampling_callback=cb)
        """,
    )
    assert findings == []


def test_noop_when_rules_not_selected(tmp_path):
    src = """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")

    @mcp.tool()
    async def ask(ctx: Context) -> str:
        return str(await ctx.session.create_message(messages=[], max_tokens=5))
    """
    assert check_noop(tmp_path, src, select=["MR1"]) == []


# --- reported ---------------------------------------------------------------------------------------------


def test_session_create_message_in_tool(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool()
        async def ask(question: str, ctx: Context) -> str:
            result = await ctx.session.create_message(messages=[], max_tokens=50)
            other = await ctx.request_context.session.create_message(messages=[], max_tokens=5)
            return str(result) + str(other)
        """,
    )
    assert codes(findings) == ["MR401", "MR401"]
    first = findings[0]
    assert (first.line, first.col) == (7, 20)
    assert first.severity.value == "broken"
    assert first.action.value == "reported"
    assert first.tool == "ask"
    assert "model provider" in first.message and "2026-07-28" in first.message


def test_mcp2_context_and_lowlevel_server(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.lowlevel import Server
        from mcp.server.mcpserver import Context

        server = Server("low")

        async def helper(ctx: Context):
            return await ctx.session.create_message(messages=[], max_tokens=5)

        async def handler():
            return await server.request_context.session.create_message(messages=[], max_tokens=5)
        """,
    )
    assert codes(findings) == ["MR401", "MR401"]


def test_fastmcp_sample(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP

        mcp = FastMCP("x")

        @mcp.tool
        async def summarize(text: str, ctx: Context) -> str:
            reply = await ctx.sample(f"Summarize: {text}")
            return reply.text

        async def helper(ctx):
            return await ctx.sample("unannotated but awaited")
        """,
    )
    assert codes(findings) == ["MR402", "MR402"]
    assert findings[0].tool == "summarize"
    assert "fastmcp 4 removed it" in findings[0].message


def test_client_callbacks(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import fastmcp
        from mcp import ClientSession
        from mcp.shared.memory import create_connected_server_and_client_session

        async def main(read, write, server, cb):
            async with ClientSession(read, write, sampling_callback=cb):
                pass
            async with create_connected_server_and_client_session(server, sampling_callback=cb):
                pass
            async with fastmcp.Client(server, sampling_handler=cb):
                pass
        """,
    )
    assert codes(findings) == ["MR403", "MR403", "MR403"]
    assert {f.severity.value for f in findings} == {"deprecated"}
    assert "2027-07-28" in findings[0].message


def test_select_one_code_and_ignore_comment(tmp_path):
    src = """\
    from fastmcp import Client, Context

    async def helper(ctx: Context, cb):
        await ctx.sample("x")
        await ctx.session.create_message(messages=[], max_tokens=5)  # migrate-roots: ignore[MR401]
        Client("x", sampling_handler=cb)
    """
    assert codes(check_noop(tmp_path / "a", src)) == ["MR402", "MR403"]
    assert codes(check_noop(tmp_path / "b", src, select=["MR403"])) == ["MR403"]


def test_noop_a_sample_class_of_ones_own(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")

        class Sample:
            def __init__(self, rows):
                self.rows = rows

        @mcp.tool()
        def first(rows: list[int]) -> int:
            return Sample(rows).rows[0]
        """,
    )
    assert findings == []


def test_mcp2_sample_resolver_is_reported(tmp_path):
    """Sweep F, r03: `Resolve(summarize)` where `summarize` returns `Sample(...)` sends sampling in both eras;
    silent before, while its roots twin `ListRoots()` was reported."""
    findings = check_noop(
        tmp_path,
        """\
        from typing import Annotated

        from mcp.server.mcpserver import MCPServer, Resolve, Sample
        from mcp.types import CreateMessageResult, SamplingMessage, TextContent

        mcp = MCPServer("x")


        def summarize(text: str) -> Sample:
            return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=text))], max_tokens=5)


        @mcp.tool()
        async def summary(text: str, result: Annotated[CreateMessageResult, Resolve(summarize)]) -> str:
            return result.content.text
        """,
        write=False,
    )
    assert codes(findings) == ["MR401"]
    assert findings[0].message.startswith("mcp 2.x's `Sample(...)` asks the client's model")
