"""A task the request itself waits for is no background roots refresh (sweep G, r11: MR214 said "drop the
task" of `task = create_task(first_root(ctx))` awaited two lines later). Noop cases first: each is rewritten
like a plain call; a task left to run on its own stays MR214."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = """\
import asyncio

import anyio
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("t")
CACHE: list[str] = []


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    CACHE[:] = [str(r.uri) for r in result.roots]
    return CACHE[0]


@mcp.tool()
async def where(ctx: Context) -> str:
"""

AWAITED = {
    "wait_for": "    task = asyncio.create_task(first_root(ctx))\n    return await asyncio.wait_for(task, 5)\n",
    "await": "    task = asyncio.ensure_future(first_root(ctx))\n    return await task\n",
    "gather": "    task = asyncio.create_task(first_root(ctx))\n    done = await asyncio.gather(task)\n    return done[0]\n",
    "at once": "    return await asyncio.create_task(first_root(ctx))\n",
    "task group": "    async with asyncio.TaskGroup() as tg:\n        task = tg.create_task(first_root(ctx))\n"
    "    return task.result()\n",
}


def _codes(tmp_path, body):
    (tmp_path / "server.py").write_text(HEAD + body)
    results = helpers.run_engine(tmp_path, write=False)
    return sorted({f.code for r in results for f in r.findings})


@pytest.mark.parametrize("form", sorted(AWAITED))
def test_noop_a_task_the_call_waits_for_is_no_background_refresh(tmp_path, form):
    assert "MR214" not in _codes(tmp_path, AWAITED[form])


def test_a_task_left_to_run_is_still_a_background_refresh(tmp_path):
    body = "    asyncio.create_task(first_root(ctx))\n    return CACHE[0] if CACHE else ''\n"
    assert "MR214" in _codes(tmp_path, body)
