"""A symbolic link to a Python file the run also reads is one file under two module names (MR908): both are
reported and left alone, and no link is ever written over."""

from __future__ import annotations

import os

from tests.helpers import codes, run_engine

HELPER = """\
from mcp.server.fastmcp import Context


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from .link import first_root

mcp = FastMCP("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    return await first_root(ctx)
"""


def _package(tmp_path, target: str = "real/impl.py"):
    pkg = tmp_path / "pkg"
    (pkg / "real").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "real" / "__init__.py").write_text("")
    (pkg / target).write_text(HELPER)
    (pkg / "server.py").write_text(SERVER)
    os.symlink(target, pkg / "link.py")
    return pkg


def _snapshot(folder):
    return {
        str(p.relative_to(folder)): (p.is_symlink(), p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def test_a_link_and_its_target_are_both_reported_and_left_alone(tmp_path):
    pkg = _package(tmp_path)
    before = _snapshot(tmp_path)
    results = run_engine(tmp_path)
    failed = {r.path: r.findings[0].message for r in results if r.status.value == "failed"}
    assert set(failed) == {os.path.join("pkg", "link.py"), os.path.join("pkg", "real", "impl.py")}
    assert "a symbolic link to `pkg/real/impl.py`" in failed[os.path.join("pkg", "link.py")]
    assert (
        "the file the symbolic link `pkg/link.py` points to" in failed[os.path.join("pkg", "real", "impl.py")]
    )
    assert codes(f for r in results for f in r.findings) == ["MR908", "MR908"]
    assert _snapshot(tmp_path) == before and (pkg / "link.py").is_symlink()


def test_a_link_whose_target_is_not_read_is_left_alone_too(tmp_path):
    # The target is not named .py: the run reads the link only; its callers are left as they are with it.
    pkg = _package(tmp_path, target="real/impl.txt")
    before = _snapshot(tmp_path)
    results = run_engine(tmp_path)
    assert [(r.path, codes(r.findings)) for r in results] == [(os.path.join("pkg", "link.py"), ["MR908"])]
    assert "a symbolic link to `" in results[0].findings[0].message
    assert _snapshot(tmp_path) == before and (pkg / "link.py").is_symlink()


def test_a_link_is_never_written_over(tmp_path):
    """The writer's own check, whatever the plan: a link named on the command line is read like any file."""
    from migrate_roots.engine_output import _Linked, _write

    pkg = _package(tmp_path)
    try:
        _write(pkg / "link.py", b"x = 1\n", HELPER.encode(), None, None)  # type: ignore[arg-type]
    except _Linked:
        pass
    else:
        raise AssertionError("a link was written over")
    assert (pkg / "link.py").is_symlink() and (pkg / "real" / "impl.py").read_text() == HELPER


def test_a_second_run_is_idle(tmp_path):
    _package(tmp_path)
    run_engine(tmp_path)
    before = _snapshot(tmp_path)
    run_engine(tmp_path)
    assert _snapshot(tmp_path) == before
