"""mcp 2.x's back-channel check in front of a roots read (`if not ctx.session.can_send_request: return
os.getcwd()`, sweep T, r03): False on every 2026-07-28 request, so it decides for roots/list as an era test does
and is widened like one; the explicit argument gets past it."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = "import os\n\nfrom mcp.server.mcpserver import Context, MCPServer\n\nREAD_ONLY = False\nmcp = MCPServer('x')\n\n\n"
READ = "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
LEAVE = "        return os.getcwd()\n"


def _run(tmp_path, body: str, name: str = "where") -> tuple[str, list]:
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "server.py").write_text(
        HEAD + f"@mcp.tool()\nasync def {name}(ctx: Context) -> str:\n" + body
    )
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"]) for f in r.findings]
    return (tmp_path / "server.py").read_text(), findings


def test_noop_a_back_channel_check_without_a_read_is_left(tmp_path):
    body = f"    if not ctx.session.can_send_request:\n{LEAVE}    return 'ok'\n"
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "server.py").write_text(HEAD + "@mcp.tool()\nasync def where(ctx: Context) -> str:\n" + body)
    before = (tmp_path / "server.py").read_text()
    helpers.run_engine(tmp_path, select=["MR1"])
    assert (tmp_path / "server.py").read_text() == before


@pytest.mark.parametrize(
    ("body", "test", "widened"),
    [
        ("", "not ctx.session.can_send_request", "root is None and not ctx.session.can_send_request"),
        (
            "",
            "ctx.request_context.session.can_send_request is False",
            "root is None and ctx.request_context.session.can_send_request is False",
        ),
        (
            "    can_ask = ctx.session.can_send_request\n",
            "not can_ask",
            "root is None and not can_ask",
        ),
        (
            "",
            "READ_ONLY or not ctx.session.can_send_request",
            "READ_ONLY or (root is None and not ctx.session.can_send_request)",
        ),
    ],
)
def test_a_back_channel_check_in_front_of_the_read_is_widened(tmp_path, body, test, widened):
    text, findings = _run(tmp_path, f"{body}    if {test}:\n{LEAVE}{READ}")
    assert f"    if {widened}:\n" in text
    assert 'list_roots_compat(ctx, root, name="root")' in text
    assert "MR105" not in helpers.codes(findings)


def test_a_back_channel_check_holding_the_read_lets_the_argument_in(tmp_path):
    body = (
        "    if ctx.session.can_send_request:\n        result = await ctx.session.list_roots()\n"
        "        return str(result.roots[0].uri)\n    return os.getcwd()\n"
    )
    text, _ = _run(tmp_path, body)
    assert "    if root is not None or ctx.session.can_send_request:\n" in text


def test_a_back_channel_check_returned_is_marked(tmp_path):
    body = f"    ok = ctx.session.can_send_request\n    print(ok)\n    while not ok:\n{LEAVE}{READ}"
    _, findings = _run(tmp_path, body)
    assert "MR105" in helpers.codes(findings)
