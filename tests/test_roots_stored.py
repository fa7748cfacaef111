"""A roots helper stored under another name (`workspace_dir = first_root`, a table of handlers) is not given
the tools' path argument: the calls made through that name could not pass it, and a modern client's error
would name an argument their tool lacks. The read is marked (MR103), with where the helper is stored."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

HELPER = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


async def first_root(session):
    r = await session.list_roots()
    return str(r.roots[0].uri)


{stored}


@mcp.tool()
async def where(ctx: Context) -> str:
    return await first_root(ctx.session)
"""


@pytest.mark.parametrize(
    "stored",
    [
        "workspace_dir = first_root  # older name",
        "workspace_dir: object = first_root",
        'HANDLERS = {"where": first_root}',
        "HANDLERS = [first_root]",
    ],
)
def test_noop_a_helper_stored_under_another_name_is_marked(tmp_path, stored):
    findings = check_noop(tmp_path, HELPER.format(stored=stored))
    assert helpers.codes(findings) == ["MR103"]
    assert "is also stored under another name or bound by `partial` (server.py:11)" in findings[0].message


def test_a_helper_only_called_is_rewritten(tmp_path):
    (tmp_path / "server.py").write_text(HELPER.format(stored=""))
    results = helpers.run_engine(tmp_path)
    assert "MR101" in helpers.codes(f for r in results for f in r.findings)


def test_noop_a_helper_bound_by_partial_in_another_tool_is_marked(tmp_path):
    source = HELPER.format(stored="").replace(
        "from mcp.server.fastmcp", "import functools\n\nfrom mcp.server.fastmcp"
    ) + (
        "\n\n@mcp.tool()\nasync def later(ctx: Context) -> str:\n"
        "    fetch = functools.partial(first_root, ctx.session)\n    return await fetch()\n"
    )
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR103"] and "bound by `partial`" in findings[0].message
