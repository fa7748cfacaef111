"""MR501-MR503: MCP logging is reported (never rewritten); a stdlib logger is never mistaken for a Context."""

from __future__ import annotations

from tests.helpers import check_noop, codes

# --- noop cases first: nothing to report -----------------------------------------------------------------


def test_noop_stdlib_logger_in_a_tool(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import logging
        from mcp.server.fastmcp import Context, FastMCP

        logger = logging.getLogger(__name__)
        mcp = FastMCP("x")

        class Service:
            def __init__(self):
                self.log = logging.getLogger("svc")

            def run(self):
                self.log.info("running")
                self.log.error("failed")

        @mcp.tool()
        def work(ctx: Context) -> str:
            logger.info("started")
            logging.warning("careful")
            logging.getLogger().debug("x")
            logger.log(logging.INFO, "done")
            return "ok"
        """,
    )
    assert findings == []


def test_noop_logger_passed_as_unannotated_parameter(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP

        def report(log, value):
            log.info("value %s", value)
            log.error("boom")
        """,
    )
    assert findings == []


def test_noop_foreign_context_and_session(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP
        from myapp import AppContext, make_session

        async def helper(ctx: AppContext):
            await ctx.info("not an MCP context")
            session = make_session()
            await session.send_log_message("info", "mine")
        """,
    )
    assert findings == []


def test_noop_set_logging_level_of_own_object(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from myapp import registry

        @registry.set_logging_level()
        def handler(level):
            pass

        registry.build(on_set_logging_level=handler)
        """,
    )
    assert findings == []


# --- reported ---------------------------------------------------------------------------------------------


def test_context_log_methods(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        import logging
        from mcp.server.fastmcp import Context, FastMCP

        logger = logging.getLogger(__name__)
        mcp = FastMCP("x")

        @mcp.tool()
        async def work(ctx: Context) -> str:
            logger.info("stdlib: not reported")
            await ctx.debug("a")
            await ctx.info("b")
            await ctx.warning("c")
            await ctx.error("d")
            await ctx.log("info", "e")
            return "ok"
        """,
    )
    assert codes(findings) == ["MR501"] * 5
    assert [f.line for f in findings] == [10, 11, 12, 13, 14]
    assert {f.severity.value for f in findings} == {"deprecated"}
    assert {f.tool for f in findings} == {"work"}
    assert "`logging`" in findings[0].message and "2027-07-28" in findings[0].message


def test_fastmcp_and_mcp2_contexts_and_get_context(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from fastmcp import Context, FastMCP
        from fastmcp.server.dependencies import get_context

        mcp = FastMCP("x")

        @mcp.tool
        async def one(ctx: Context) -> None:
            await ctx.info("fastmcp")

        @mcp.tool
        async def two() -> None:
            await get_context().warning("no ctx parameter")

        async def helper(ctx):
            await ctx.info("unannotated but awaited")
        """,
        extra={
            "mcp2.py": """\
            from mcp.server.mcpserver import Context

            async def helper(ctx: Context):
                await ctx.error("mcp 2.x")
            """
        },
    )
    assert codes(findings) == ["MR501"] * 4


def test_send_log_message(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import Context
        from mcp.server.lowlevel import Server

        server = Server("low")

        async def tool(ctx: Context):
            await ctx.session.send_log_message(level="info", data="x")

        async def handler():
            await server.request_context.session.send_log_message(level="info", data="y")
        """,
    )
    assert codes(findings) == ["MR502", "MR502"]
    assert "`logging`" in findings[0].message


def test_set_level_handlers(tmp_path):
    findings = check_noop(
        tmp_path,
        """\
        from mcp.server.fastmcp import FastMCP
        from mcp.server.lowlevel import Server

        server = Server("low")
        app = FastMCP("x")

        @server.set_logging_level()
        async def set_level(level):
            pass

        @app._mcp_server.set_logging_level()
        async def set_level_private(level):
            pass

        async def on_level(ctx, params):
            pass

        modern = Server("modern", on_set_logging_level=on_level)
        """,
    )
    assert codes(findings) == ["MR503"] * 3
    assert [f.line for f in findings] == [7, 11, 18]
    assert "configuration" in findings[0].message
