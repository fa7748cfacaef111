"""A helper behind a cache keyed by its arguments (`@functools.lru_cache`, `@functools.cache`, `@alru_cache` of
async-lru, cachetools' `@cached(cache)` and `cachetools.func`'s): its new parameter joins the key. A single root
(`root: str | None`) is hashable, so the cache keys by it and the rewrite stands; the list the tools take when
their roots are used beyond the first (`root: RootPaths`, a list) is not: every call passing it would fail with
"unhashable type: 'list'" (sweep K r01 of session 22). Such a helper is refused (MR103), never given the list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from migrate_roots.codemods._roots_model import Func, Pos
from migrate_roots.codemods.base import FileState

Key = tuple[str, str]  # (import root, module.qualname), as in _roots_plan

# Decorators that key a cache by the function's arguments, hashed.
CACHES = frozenset(
    {
        "functools.lru_cache",
        "functools.cache",
        "async_lru.alru_cache",
        "cachetools.cached",
        "cachetools.func.lru_cache",
        "cachetools.func.ttl_cache",
        "cachetools.func.lfu_cache",
        "cachetools.func.fifo_cache",
        "cachetools.func.rr_cache",
        "cachetools.func.mru_cache",
        "cachetools.func.tlru_cache",
    }
)


def cache_decorator(state: FileState, decorator: cst.BaseExpression) -> str | None:
    """`@alru_cache` for `@alru_cache(maxsize=32)` when it is one of `CACHES` (cachetools' `@cached(cache)`
    only with its own key, not one given by `key=`), else None."""
    call = decorator if isinstance(decorator, cst.Call) else None
    target = call.func if call is not None else decorator
    if not state.qnames(target) & CACHES:
        return None
    if call is not None and any(a.keyword is not None and a.keyword.value == "key" for a in call.args):
        return None  # `@cached(cache, key=...)`: a key of the project's, which may take a list
    return "@" + state.wrapper.module.code_for_node(target)


def shape_of(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    key: Key,
) -> str:
    """ "list" when a site the function reaches uses more than the first root (a tool then takes a list), else
    "single"."""
    seen: set[Key] = set()

    def walk(key: Key) -> str:
        if key in seen:
            return "single"
        seen.add(key)
        func = by_key[key][1]
        if any(s.uses == "list" for s in func.sites if s.refusal is None):
            return "list"
        return "list" if any(walk(c) == "list" for c, _ in calls[key] if c in reach) else "single"

    return walk(key)


def refusals(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    helpers: set[Key],
    reach: set[Key],
    tools_reaching: Callable[[Key], set[Key]],
) -> dict[Key, tuple[str, str]]:
    """The cached helpers of `helpers` that a tool taking a list reaches: MR103, naming the cache."""
    out: dict[Key, tuple[str, str]] = {}
    for key in sorted(helpers):
        func = by_key[key][1]
        if func.cache is None:
            continue
        listed = sorted(
            by_key[t][1].qualname for t in tools_reaching(key) if shape_of(by_key, calls, reach, t) == "list"
        )
        if listed:
            name = func.qualname.rpartition(".")[2]
            out[key] = (
                "MR103",
                f"`{name}` is cached by `{func.cache}`, whose key is its arguments: the path argument it would "
                f"take from `{listed[0]}` is a list (the roots are used beyond the first), which the key cannot "
                "hold (every call passing it would fail: unhashable type 'list'), so migrate-roots gives it none; "
                "pass the paths to it as a tuple by hand, or read them outside the cached function",
            )
    return out
