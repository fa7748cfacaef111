"""sweep L r01 (session 22): `try: result = await <read> except McpError: result = None`, then None and an empty
list taking one branch (`if result is not None and result.roots`). The rewrite widens that handler to
`(McpError, RootsArgumentError)`, so a request without the argument takes the None branch the failing call
took: rewritten, as `except Exception:` is (sweep H r05 of session 21), not marked MR105. Told apart, or with a
handler that is not widened, it stays marked. The SDK run is in tests/test_e2e_safety.py."""

from __future__ import annotations

import pytest

from tests.helpers import flakes, package, run_engine

MCP1 = "from mcp.server.fastmcp import Context, FastMCP\nfrom mcp.shared.exceptions import McpError\n"
MCP2 = "from mcp.server.mcpserver import Context, MCPServer as FastMCP\nfrom mcp.shared.exceptions import MCPError\n"


def _server(head: str, handler: str, test: str, body: str = "return str(result.roots[0].uri)") -> str:
    return f"""\
import logging

{head}
mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    try:
        result = await ctx.session.list_roots()
    {handler}
        result = None
    {test}
        {body}
    return "/fallback"
"""


def _run(tmp_path, source: str):
    root = package(tmp_path, {"server.py": source})
    findings = [f for r in run_engine(root, select=["MR1"]) for f in r.findings]
    return findings, (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    ("head", "handler", "test", "body"),
    [
        # an empty list is told from None: an argument would pass where empty roots refused
        (MCP1, "except McpError:", "if result is not None and not result.roots:", "return 'refused'"),
        (MCP2, "except MCPError:", "if result is None:", "return 'failed'"),
        # the SDK's error and something else the shim's error is not: still one handler the rewrite widens,
        # but None is tested alone
        (MCP1, "except (McpError, TimeoutError):", "if result is None:", "return 'failed'"),
    ],
    ids=["mcp1-told-apart", "mcp2-none-alone", "tuple-none-alone"],
)
def test_noop_none_told_apart_under_the_sdk_error_handler(tmp_path, head, handler, test, body):
    findings, text = _run(tmp_path, _server(head, handler, test, body))
    assert [(f.code, f.action.value) for f in findings] == [("MR105", "marked")], findings
    # the handler catches the shim's error once widened: a request without the argument does not fail, so the
    # reason is what the code tells apart, not "would fail instead"
    assert findings[0].message == (
        "this code treats 'client has no roots' (None) differently from 'empty list': decide what an absent "
        "path argument means here"
    ), findings[0].message
    assert "list_roots_compat" not in text and f"    {handler}\n" in text, text


def test_noop_handler_reading_the_sdk_error(tmp_path):
    """A handler that reads the SDK error's fields is not widened: the None branch is not where the shim's
    error goes, and the marker says why."""
    handler = 'except McpError as exc:\n        logging.warning("%s", exc.error.code)'
    findings, text = _run(tmp_path, _server(MCP1, handler, "if result is not None and result.roots:"))
    assert [(f.code, f.action.value) for f in findings] == [("MR105", "marked")], findings
    assert "catches the SDK's error and reads it (`exc.error`)" in findings[0].message, findings[0].message
    assert "list_roots_compat" not in text and "except McpError" in text, text


@pytest.mark.parametrize(
    ("head", "handler", "test", "widened"),
    [
        (
            MCP1,
            "except McpError:",
            "if result is not None and result.roots:",
            "except (McpError, RootsArgumentError):",
        ),
        (
            MCP2,
            "except MCPError:",
            "if result is not None and result.roots:",
            "except (MCPError, RootsArgumentError):",
        ),
        (
            MCP1,
            "except (McpError, TimeoutError):",
            "if result is None or not result.roots:",
            "except (McpError, TimeoutError, RootsArgumentError):",
        ),
        (
            "import mcp.shared.exceptions as errors\nfrom mcp.server.fastmcp import Context, FastMCP\n",
            "except errors.McpError:",
            "if result is not None and result.roots:",
            "except (errors.McpError, RootsArgumentError):",
        ),
        # an SDK error's handler before a broad one that raises: the old failure met the first; widened
        (
            MCP2,
            "except MCPError:\n        result = None\n    except Exception:\n        raise",
            "if result is not None and result.roots:",
            "except (MCPError, RootsArgumentError):",
        ),
    ],
    ids=["mcp1", "mcp2", "tuple-or", "module-attribute", "before-broad-raise"],
)
def test_none_on_failure_under_the_sdk_error_handler_rewritten(tmp_path, head, handler, test, widened):
    source = _server(head, handler, test)
    if "raise" in handler:  # the handler's own `result = None` is in `handler` already
        source = source.replace("        raise\n        result = None\n", "        raise\n")
    findings, text = _run(tmp_path, source)
    assert [(f.code, f.action.value) for f in findings] == [("MR101", "rewritten")], findings
    assert f"    {widened}\n        result = None\n" in text, text
    assert f"    {test}\n" in text, text  # the test is kept: None and empty still take one branch
    assert "result = await list_roots_compat(ctx, root" in text, text
    assert not flakes(text) - flakes(source), flakes(text)
