"""A project decorator around a function that would get the path argument: its wrapper must take `**kwargs`,
pass them on, and keep no results (session 15's sweeps, A r01/r05/r07 and B r07: each was rewritten and then
failed with a TypeError, or answered one call's argument with another's result). Noop cases first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import helpers

HELPER = """\
from mcp.server.fastmcp import Context

from .deco import wrap


@wrap
async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from .helper import first_root

mcp = FastMCP("demo")


@mcp.tool()
async def where(ctx: Context) -> str:
    return await first_root(ctx)
"""

TRANSPARENT = """\
import functools


def wrap(fn):
    @functools.wraps(fn)
    async def wrapper(*args, **kwargs):
        return await fn(*args, **kwargs)

    return wrapper
"""

FIXED = TRANSPARENT.replace("(*args, **kwargs)", "(ctx)")
DROPPED = TRANSPARENT.replace("fn(*args, **kwargs)", "fn(*args)")
MEMO = """\
import functools

_cache = {}


def wrap(fn):
    @functools.wraps(fn)
    async def wrapper(ctx, *args, **kwargs):
        key = id(ctx.session)
        if key not in _cache:
            _cache[key] = await fn(ctx, *args, **kwargs)
        return _cache[key]

    return wrapper
"""
FACTORY = """\
import functools


def wrap(times):
    def decorator(fn):
        @functools.wraps(fn)
        async def wrapper(ctx):
            return await fn(ctx)

        return wrapper

    return decorator
"""


def _run(tmp_path: Path, deco: str, helper: str = HELPER) -> tuple[Path, list]:
    root = helpers.package(tmp_path, {"server.py": SERVER, "helper.py": helper, "deco.py": deco})
    results = helpers.run_engine(root)
    return root / "pkg", [f for r in results for f in r.findings]


def test_noop_a_transparent_wrapper_is_rewritten_through(tmp_path):
    pkg, findings = _run(tmp_path, TRANSPARENT)
    assert helpers.codes(findings) == ["MR101", "MR107"]
    assert "first_root(ctx, root=root)" in (pkg / "server.py").read_text()


@pytest.mark.parametrize(
    ("deco", "said"),
    [
        (FIXED, "whose wrapper `wrapper` takes no `**kwargs`"),
        (DROPPED, "does not pass `**kwargs` on"),
        (MEMO, "keeps results in `_cache`"),
    ],
    ids=["fixed-signature", "kwargs-dropped", "memo"],
)
def test_a_helper_behind_an_opaque_wrapper_is_marked_and_left_alone(tmp_path, deco, said):
    pkg, findings = _run(tmp_path, deco)
    assert helpers.codes(findings) == ["MR103"]
    assert "`first_root` is decorated by `@wrap` (deco.py)" in findings[0].message
    assert said in findings[0].message
    assert "root" not in (pkg / "server.py").read_text().replace("first_root", "")


def test_a_factory_made_wrapper_is_read_one_level_down(tmp_path):
    pkg, findings = _run(tmp_path, FACTORY, HELPER.replace("@wrap\n", "@wrap(3)\n"))
    assert helpers.codes(findings) == ["MR103"]
    assert "`@wrap` (deco.py)" in findings[0].message


def test_a_tool_behind_an_opaque_wrapper_is_marked_where_it_calls_a_threaded_helper(tmp_path):
    server = SERVER.replace("from .helper", "from .deco import wrap\nfrom .helper") + (
        "\n\n@mcp.tool()\n@wrap\nasync def there(ctx: Context) -> str:\n    return await first_root(ctx)\n"
    )
    root = helpers.package(
        tmp_path,
        {"server.py": server, "helper.py": HELPER.replace("@wrap\n", ""), "deco.py": FIXED},
    )
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    assert helpers.codes(findings) == ["MR101", "MR104", "MR107"]
    marked = next(f for f in findings if f.code == "MR104")
    assert "tool `there` is decorated by `@wrap` (deco.py)" in marked.message
    text = (root / "pkg" / "server.py").read_text()
    assert "async def where(ctx: Context, root: RootPath = None)" in text
    assert "async def there(ctx: Context) -> str:" in text
