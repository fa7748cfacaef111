"""An awaited `list_roots()` in a module that imports the SDK, on a value no rule traces to a request's session
or context, is marked (MR103) with the doubt said, never silent; noop cases first."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

HEAD = """\
import contextvars

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")
SESSIONS: dict = {}
current = contextvars.ContextVar("current")


@mcp.tool()
async def where(ctx: Context, key: str = "a") -> str:
"""


def test_noop_a_methods_own_list_roots_is_left_alone(tmp_path):
    source = (
        HEAD.replace(
            "@mcp.tool()\nasync def where",
            "class Store:\n    async def list_roots(self):\n        return []\n\n    async def where",
        )
        + "        return str(await self.list_roots())\n"
    )
    assert check_noop(tmp_path, source) == []


def test_noop_a_call_not_awaited_is_left_alone(tmp_path):
    # A synchronous client's method (an AWS Organizations client beside the server): not the SDK's coroutine.
    assert check_noop(tmp_path, HEAD + "        return str(SESSIONS[key].list_roots())\n") == []


@pytest.mark.parametrize(
    "body",
    [
        '    session, name = ctx.session, "x"\n        return str(await session.list_roots())',
        "    return str(await (session := ctx.session).list_roots())",
        "    session = ctx.session or SESSIONS[key]\n        return str(await session.list_roots())",
        "    for session in (ctx.session,):\n            return str(await session.list_roots())\n        return ''",
        "    return str(await (SESSIONS.get(key) or ctx.session).list_roots())",
        "    return str(await SESSIONS[key].list_roots())",
        "    return str(await current.get().list_roots())",
    ],
)
def test_an_untraced_awaited_read_is_marked(tmp_path, body):
    findings = check_noop(tmp_path, HEAD + "    " + body + "\n")
    assert helpers.codes(findings) == ["MR103"]
    assert "on a value migrate-roots cannot trace to a request's session or context" in findings[0].message
