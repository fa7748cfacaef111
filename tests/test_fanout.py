"""Sharing the prefilter's work with forked children gives the serial loop's answer, whatever a child does."""

from __future__ import annotations

import os
import threading

import pytest

from migrate_roots import fanout
from tests.helpers import run_engine


def _some(part: list[int]) -> list[tuple[int, tuple[int, int]]]:
    return [(i, (n, os.getpid())) for i, n in enumerate(part) if n % 7 < 3]


def _answer(pairs: list[tuple[int, tuple[int, int]]]) -> list[tuple[int, int]]:
    return [(index, n) for index, (n, _) in pairs]


ITEMS = list(range(1000))
SERIAL = [(n, n) for n in ITEMS if n % 7 < 3]


def test_below_the_minimum_no_fork():
    pairs = fanout.split(_some, ITEMS[:10], 2)
    assert _answer(pairs) == SERIAL[:6] and {pid for _, (_, pid) in pairs} == {os.getpid()}


def test_one_job_no_fork():
    pairs = fanout.split(_some, ITEMS, 1)
    assert _answer(pairs) == SERIAL and {pid for _, (_, pid) in pairs} == {os.getpid()}


@pytest.mark.parametrize("jobs", [2, 3, 4])
def test_shares_run_in_children_and_merge_in_order(jobs):
    if threading.active_count() > 1:
        pytest.skip("another thread runs: fanout rightly does the work here")
    pairs = fanout.split(_some, ITEMS, jobs)
    assert _answer(pairs) == SERIAL
    assert len({pid for _, (_, pid) in pairs}) == jobs


def test_a_failing_child_is_redone_here():
    parent = os.getpid()

    def flaky(part: list[int]) -> list[tuple[int, tuple[int, int]]]:
        if os.getpid() != parent:
            raise RuntimeError("child trouble")
        return _some(part)

    pairs = fanout.split(flaky, ITEMS, 2)
    assert _answer(pairs) == SERIAL and {pid for _, (_, pid) in pairs} == {parent}


def test_a_child_answer_that_does_not_unmarshal_is_redone_here():
    parent = os.getpid()

    def odd(part: list[int]) -> list[tuple[int, object]]:
        if os.getpid() != parent:
            return [(0, object())]  # marshal cannot send it: the child exits non-zero
        return list(_some(part))

    assert _answer(fanout.split(odd, ITEMS, 2)) == SERIAL  # type: ignore[arg-type]


def test_no_fork_while_another_thread_runs():
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        pairs = fanout.split(_some, ITEMS, 2)
    finally:
        stop.set()
        worker.join()
    assert _answer(pairs) == SERIAL and {pid for _, (_, pid) in pairs} == {os.getpid()}


SERVER = """from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("s")


@mcp.tool()
async def where(ctx: Context) -> str:
    roots = await ctx.session.list_roots()
    return str(roots.roots[0].uri)
"""


def test_the_engine_finds_the_same_with_one_job_and_two(tmp_path):
    """Hits, a FIFO, a file too large, and plain files among 300: the shared prefilter misses none."""
    for n in range(300):
        folder = tmp_path / f"lib{n % 7}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod{n}.py").write_text(f"VALUE = {n}\n")
    for n in (3, 150, 299):
        (tmp_path / f"lib{n % 7}" / f"mod{n}.py").write_text(SERVER)
    os.mkfifo(tmp_path / "lib2" / "pipe.py")
    (tmp_path / "lib5" / "huge.py").write_text("import mcp\nx = ctx.session.list_roots\n" + "#" * 2_100_000)

    def outcome(jobs: int) -> list[tuple[str, str, list[str]]]:
        results = run_engine(tmp_path, write=False, jobs=jobs)
        return [(r.path, r.status.value, sorted(f.code for f in r.findings)) for r in results]

    one, two = outcome(1), outcome(2)
    assert one == two
    assert {path for path, _, codes in one if "MR901" in codes} == {os.path.join("lib2", "pipe.py")}
    assert {path for path, _, codes in one if "MR907" in codes} == {os.path.join("lib5", "huge.py")}
    changed = {path for path, status, _ in one if status == "changed" and "compat" not in path}
    assert changed == {os.path.join(f"lib{n % 7}", f"mod{n}.py") for n in (3, 150, 299)}
