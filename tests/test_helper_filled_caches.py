"""Caches filled from a roots helper's result (sweep T, r04) and by `setdefault` (r05): the value one call
keeps would serve its path argument to every later call, so the read is marked MR211 (as when the read is
written in the cache's own function), and the server is left as it was. Noop-like cases (per-call values,
`lru_cache`, which keys by the new argument) first. The read handed to `setdefault` itself:
tests/test_setdefault_caches.py."""

from __future__ import annotations

import pytest

from tests import helpers

HEAD = """\
import functools

from mcp.server.mcpserver import Context, MCPServer

mcp = MCPServer("files")
_CACHE: dict[str, str] = {}


async def _first(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""


def _run(tmp_path, body):
    source = HEAD + body
    (tmp_path / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(tmp_path) for f in r.findings]
    return findings, source, (tmp_path / "server.py").read_text()


PER_CALL = {
    "fresh_dict": """

@mcp.tool()
async def where(ctx: Context) -> str:
    seen: dict[str, str] = {}
    if "workspace" not in seen:
        seen["workspace"] = await _first(ctx)
    return seen["workspace"]
""",
    "fresh_dict_inline": """

@mcp.tool()
async def where(ctx: Context) -> str:
    seen: dict[str, str] = {}
    if "workspace" not in seen:
        seen["workspace"] = await _first(ctx) + str((await ctx.session.list_roots()).roots[-1].uri)
    return seen["workspace"]
""",
    "fresh_setdefault": """

@mcp.tool()
async def where(ctx: Context) -> str:
    seen = {}
    return seen.setdefault("workspace", await _first(ctx))
""",
    "plain": """

@mcp.tool()
async def where(ctx: Context) -> str:
    value = await _first(ctx)
    _CACHE["last"] = value
    return value
""",
}


@pytest.mark.parametrize("body", PER_CALL.values(), ids=PER_CALL.keys())
def test_a_value_made_per_call_is_rewritten(tmp_path, body):
    findings, _, text = _run(tmp_path, body)
    assert "MR211" not in helpers.codes(findings)
    assert "list_roots_compat(" in text and "root: RootPath" in text


def test_an_lru_cache_is_keyed_by_the_new_argument(tmp_path):
    findings, _, text = _run(
        tmp_path,
        """

@functools.cache
async def _cached(ctx: Context) -> str:
    return await _first(ctx)


@mcp.tool()
async def where(ctx: Context) -> str:
    return await _cached(ctx)
""",
    )
    assert "MR211" not in helpers.codes(findings)
    assert "async def _cached(ctx: Context, root: str | None = None)" in text
    assert "return await _first(ctx, root=root)" in text


HELPER_FILLED = {
    "module_dict": (
        """

@mcp.tool()
async def where(ctx: Context) -> str:
    if "workspace" not in _CACHE:
        _CACHE["workspace"] = await _first(ctx)
    return _CACHE["workspace"]
""",
        "`where` keeps what this read gives in `_CACHE`, a cache it returns from before the call (server.py:",
    ),
    "default_argument": (
        """

async def _ws(ctx: Context, _memo: dict = {}) -> str:
    if "workspace" not in _memo:
        _memo["workspace"] = await _first(ctx)
    return _memo["workspace"]


@mcp.tool()
async def where(ctx: Context) -> str:
    return await _ws(ctx)
""",
        "`_ws` keeps what this read gives in `_memo`, filled when empty (server.py:",
    ),
    "classmethod": (
        """

class Workspaces:
    _by: dict[str, str] = {}

    @classmethod
    async def get(cls, ctx: Context) -> str:
        key = "workspace"
        if key not in cls._by:
            cls._by[key] = await _first(ctx)
        return cls._by[key]


@mcp.tool()
async def where(ctx: Context) -> str:
    return await Workspaces.get(ctx)
""",
        "`get` keeps what this read gives in `cls._by`, a cache it returns from before the call",
    ),
    "instance": (
        """

class Box:
    def __init__(self) -> None:
        self._by: dict[str, str] = {}

    async def get(self, ctx: Context) -> str:
        if "workspace" not in self._by:
            self._by["workspace"] = str(await _first(ctx))
        return self._by["workspace"]


box = Box()


@mcp.tool()
async def where(ctx: Context) -> str:
    return await box.get(ctx)
""",
        "`get` keeps what this read gives in `self._by`",
    ),
    "helper_setdefault": (
        """

@mcp.tool()
async def where(ctx: Context) -> str:
    return _CACHE.setdefault("workspace", await _first(ctx))
""",
        "`where` keeps what this read gives in `_CACHE`, by `setdefault` (server.py:",
    ),
    "get_or_setdefault": (
        """

@mcp.tool()
async def where(ctx: Context) -> str:
    return _CACHE.get("workspace") or _CACHE.setdefault("workspace", await _first(ctx))
""",
        "by `setdefault`",
    ),
    "two_helpers_away": (
        """

async def _second(ctx: Context) -> str:
    return (await _first(ctx)).rstrip("/")


@mcp.tool()
async def where(ctx: Context) -> str:
    if "workspace" not in _CACHE:
        _CACHE["workspace"] = await _second(ctx)
    return _CACHE["workspace"]
""",
        "`where` keeps what this read gives in `_CACHE`",
    ),
}


@pytest.mark.parametrize("body, reason", HELPER_FILLED.values(), ids=HELPER_FILLED.keys())
def test_a_cache_filled_from_a_helper_marks_the_read(tmp_path, body, reason):
    findings, source, text = _run(tmp_path, body)
    assert helpers.codes(findings) == ["MR211"]
    assert reason in findings[0].message
    assert "a path argument here would" in findings[0].message
    assert _unmarked(text) == _unmarked(source)  # the server as it was, with the marker


def _unmarked(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.strip().startswith("#")]
