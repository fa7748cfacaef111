"""A capability predicate of another project module whose truth joins the check to other conditions
(`return not READ_ONLY and caps.roots is not None`), called in front of the read. Defined in the tool's own
module it was marked MR105; imported, it was no check at all: the read was rewritten and the test left as it
was, so a 2026-07-28 client passing `root` was still refused ("writing is disabled"). Widening the call would
let the argument past READ_ONLY too. Now it is marked MR105 wherever it is defined, and the read is left."""

from __future__ import annotations

import pytest

from tests import helpers

MIXED = """\
import os

from mcp.server.fastmcp import Context

READ_ONLY = os.environ.get("READ_ONLY") == "1"


def client_has_roots(ctx: Context) -> bool:
    caps = ctx.session.client_params.capabilities
    return not READ_ONLY and caps.roots is not None
"""

PURE = MIXED.replace("return not READ_ONLY and caps.roots is not None", "return caps.roots is not None")

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

{spelling}

mcp = FastMCP("t")


@mcp.tool()
async def write_note(text: str, ctx: Context) -> str:
    if not {call}(ctx):
        return "writing is disabled on this server"
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri) + text
"""

SPELLINGS = {
    "by name": ("from pkg.caps import client_has_roots", "client_has_roots", {}),
    "relative, renamed": ("from .caps import client_has_roots as has_roots", "has_roots", {}),
    "through its module": ("from pkg import caps", "caps.client_has_roots", {}),
    "re-exported by a package": (
        "from pkg.util import has_roots",
        "has_roots",
        {"util/__init__.py": "from ..caps import client_has_roots as has_roots\n"},
    ),
}


def _run(tmp_path, caps: str, spelling: str):
    line, call, extra = SPELLINGS[spelling]
    root = helpers.package(
        tmp_path, {"server.py": SERVER.format(spelling=line, call=call), "caps.py": caps, **extra}
    )
    results = helpers.run_engine(root, select=["MR1"], write=False)
    server = next(r for r in results if r.path.endswith("server.py"))
    return server, call


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_noop_a_pure_imported_predicate_is_still_widened(tmp_path, spelling):
    server, call = _run(tmp_path, PURE, spelling)
    assert f"    if root is None and not {call}(ctx):\n" in server.diff, server.diff
    assert helpers.codes(server.findings) == ["MR101"]


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_mixed_imported_predicate_is_marked_and_the_read_left(tmp_path, spelling):
    server, call = _run(tmp_path, MIXED, spelling)
    assert helpers.codes(server.findings) == ["MR105"], server.findings
    message = server.findings[0].message
    assert message.startswith(f"`{call}(ctx)` checks the roots capability together with other conditions")
    assert "list_roots_compat" not in server.diff
    assert f"    if not {call}(ctx):\n" in server.diff  # unchanged context line
