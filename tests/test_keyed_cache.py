"""A roots read behind a per-key cache in a module container (`program.memo.returned_cache`): the function
returns a cached entry before it reads roots (`if (hit := _roots_cache.get(key)): return hit`), and fills the
container after. MR211 removes only caches held in plain globals; a path argument added here would be ignored
on every hit, so the read is marked MR211 with that reason (a shape of relace-mcp's `resolve_base_dir`)."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers

HEAD = """\
import weakref

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")
"""

READ = """\

async def base_dir(ctx: Context) -> str:
    key = str(id(ctx.session))
{guard}
    result = await ctx.session.list_roots()
    path = str(result.roots[0].uri)
{fill}
    return path


@mcp.tool()
async def where(ctx: Context) -> str:
    return await base_dir(ctx)
"""

CACHED = {
    "walrus-get": (
        "_cache: dict[str, str] = {}",
        "    if (hit := _cache.get(key)):\n        return hit",
        "    _cache[key] = path",
    ),
    "membership": (
        "_cache = dict()",
        "    if key in _cache:\n        return _cache[key]",
        "    _cache[key] = path",
    ),
    "nested-return": (
        "_cache: dict[str, str] = {}",
        "    if key and (hit := _cache.get(key)):\n        if hit:\n            return hit\n"
        "        _cache.pop(key, None)",
        "    _remember(key, path)",
    ),
    "setdefault": (
        "_cache = {}",
        "    if _cache.get(key) is not None:\n        return _cache[key]",
        "    _cache.setdefault(key, path)",
    ),
    "list": ("_seen: list[str] = []", "    if _seen:\n        return _seen[0]", "    _seen.append(path)"),
    # gtags-server's spellings: a weak-keyed table, looked up under try/except KeyError or through a local.
    "weak-try": (
        "_cache = weakref.WeakKeyDictionary()",
        "    try:\n        return _cache[key]\n    except KeyError:\n        pass",
        "    _cache[key] = path",
    ),
    "weak-membership": (
        "_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()",
        "    if key in _cache:\n        return _cache[key]",
        "    _cache[key] = path",
    ),
    "local-hit": (
        "_cache: dict[str, str] = {}",
        "    hit = _cache.get(key)\n    if hit is not None:\n        return hit",
        "    _cache[key] = path",
    ),
}

REMEMBER = """

def _remember(key: str, path: str) -> None:
    _cache[key] = path
"""


def _findings(tmp_path, module_line: str, guard: str, fill: str) -> list:
    source = HEAD + module_line + "\n\n" + READ.format(guard=guard, fill=fill) + REMEMBER
    if "_cache" not in module_line:
        source = source.replace(REMEMBER, "")
    root = helpers._layout(tmp_path, textwrap.dedent(source), None, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


def test_noop_a_table_the_module_never_fills_is_no_cache(tmp_path):
    # A constant table tested before the read (a configured override) is not a cache: the read is rewritten.
    found = _findings(
        tmp_path, '_fixed = {"a": "/srv/a"}', "    if key in _fixed:\n        return _fixed[key]", ""
    )
    assert "MR211" not in helpers.codes(found) and "MR101" in helpers.codes(found), found


def test_noop_a_filled_container_tested_after_the_read_is_no_guard(tmp_path):
    found = _findings(
        tmp_path, "_cache: dict[str, str] = {}", "", "    _cache[key] = path\n    if _cache:\n        pass"
    )
    assert "MR211" not in helpers.codes(found) and "MR101" in helpers.codes(found), found


@pytest.mark.parametrize("spelling", list(CACHED))
def test_a_read_behind_a_keyed_cache_is_marked_with_the_cache(tmp_path, spelling):
    module_line, guard, fill = CACHED[spelling]
    found = _findings(tmp_path, module_line, guard, fill)
    marked = [f for f in found if f.code == "MR211"]
    assert len(marked) == 1 and "MR101" not in helpers.codes(found), found
    name = module_line.split(":")[0].split(" ")[0]
    assert (
        f"roots read behind `{name}`, a module-level cache returned from before the read" in marked[0].message
    )
    assert "ignored while the cache holds an entry" in marked[0].message
