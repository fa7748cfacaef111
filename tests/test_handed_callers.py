"""A nested function a tool hands as a value (`tg.start_soon(fill)`) that calls a helper the other tools now
thread the path argument through (sweep G, r10): its call passes none. Alone, the helper's read is marked
MR103 (reached from a value-handed function); shared, it was silent. Now the call says so."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("t")


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
{direct}

@mcp.tool()
async def where_many(ctx: Context, times: int = 2) -> list[str]:
    out: list[str] = []

    async def fill() -> None:
        out.append(await first_root(ctx))

    async with anyio.create_task_group() as tg:
        for _ in range(times):
            tg.start_soon(fill)
    return out
"""

DIRECT = """

@mcp.tool()
async def where(ctx: Context) -> str:
    return await first_root(ctx)
"""


def _findings(tmp_path, direct):
    (tmp_path / "server.py").write_text(SERVER.format(direct=direct))
    results = helpers.run_engine(tmp_path, select=["MR1"], write=False)
    return [f for r in results for f in r.findings]


def test_noop_alone_the_read_is_marked_where_it_is(tmp_path):
    findings = _findings(tmp_path, "")
    assert [(f.code, f.line) for f in findings] == [("MR103", 8)]
    assert "tg.start_soon(fill)" in findings[0].message


@pytest.mark.parametrize("direct", [DIRECT])
def test_beside_a_threaded_helper_the_handed_call_is_marked(tmp_path, direct):
    findings = _findings(tmp_path, direct)
    handed = [f for f in findings if f.code == "MR103"]
    assert len(handed) == 1, findings
    assert handed[0].message.startswith(
        "`first_root` now takes `root`, which the tools pass; this call, in `fill`, a function `where_many` "
        "hands as a value to `tg.start_soon(fill)` (server.py:"
    )
    assert {f.code for f in findings} == {"MR101", "MR103", "MR107"}


HANDED_WITH_ARGS = """\
import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("t")


async def index_root(ctx: Context, out: list) -> None:
    result = await ctx.session.list_roots()
    out.append(str(result.roots[0].uri))


@mcp.tool()
async def where(ctx: Context) -> list:
    out: list = []
    await index_root(ctx, out)
    return out


@mcp.tool()
async def where_many(ctx: Context) -> list:
    out: list = []
    async with anyio.create_task_group() as tg:
        tg.start_soon(index_root, ctx, out)
    return out
"""


def test_a_threaded_helper_handed_by_name_with_its_arguments_is_marked_there(tmp_path):
    """Sweep I, r05: `tg.start_soon(index_root, ctx, out)` beside a direct caller was silent."""
    (tmp_path / "server.py").write_text(HANDED_WITH_ARGS)
    results = helpers.run_engine(tmp_path, select=["MR1"], write=False)
    findings = [f for r in results for f in r.findings]
    handed = [f for f in findings if f.code == "MR103"]
    assert [f.line for f in handed] == [23], findings
    assert handed[0].message.startswith(
        "`index_root` now takes `root`, which the tools pass; `tg.start_soon(index_root, ctx, out)` hands it over"
    )


def test_a_hand_off_inside_a_nested_function_is_marked_too(tmp_path):
    """Sweep N, r07: the `start_soon` inside a closure of the tool was silent."""
    source = HANDED_WITH_ARGS.replace(
        "    async with anyio.create_task_group() as tg:\n        tg.start_soon(index_root, ctx, out)\n",
        "    async def run() -> None:\n        async with anyio.create_task_group() as tg:\n"
        "            tg.start_soon(index_root, ctx, out)\n\n    await run()\n",
    )
    (tmp_path / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"], write=False) for f in r.findings]
    handed = [f for f in findings if f.code == "MR103"]
    assert len(handed) == 1 and "`tg.start_soon(index_root, ctx, out)` hands it over" in handed[0].message
