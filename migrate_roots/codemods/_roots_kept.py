"""Roots reads kept beyond the call by the function's own code, read in the index: behind a fetch-once guard
whose cache stays (MR211, refused with the cache's reason), and the attribute a function keeps its reads on
(MR212, which the plan reads: codemods/_kept_on_way.py)."""

from __future__ import annotations

from collections.abc import Iterable

from migrate_roots.codemods._roots_model import Func
from migrate_roots.codemods.base import FileState


def cache_refusals(functions: Iterable[Func], state: FileState) -> None:
    """A read behind a fetch-once guard whose cache stays (MR211) would read the path argument on the first
    call only and ignore it afterwards: refused, with the cache's own reason."""
    functions = list(functions)
    sites = [s for f in functions for s in f.sites if s.cached and s.refusal is None]
    if not sites:
        return
    from migrate_roots.codemods._plumbing import removable_caches
    from migrate_roots.codemods.list_changed import kept_caches

    kept = kept_caches(state)
    removed = removable_caches(state)
    own = "MR211" in state.enabled  # else the cache rule is not selected: the site's own code says it
    scope = state.scope(state.wrapper.module)
    for site in sites:
        names = sorted(set(site.cached) & kept)
        # A variable of an enclosing function (`nonlocal workspace` in a `register(mcp)` factory): no module
        # cache the plumbing removes, so it stays (sweep G, r04: one call's root answered every later call).
        closed = sorted(n for n in site.cached if scope is None or n not in scope)
        # A module variable the cache analysis does not remove (a helper module without the SDK, whose read it
        # does not know as one: sweep M, r03) stays too, unmarked by MR211.
        unknown = sorted(n for n in site.cached if n not in closed and n not in removed and n not in kept)
        held = (
            (unknown[0], "a module variable kept across calls (`global`)")
            if unknown and not names
            else (closed[0], "a variable of the enclosing function kept across calls (`nonlocal`)")
            if closed and not names
            else None
        )
        if held is not None:
            site.refusal = (
                "MR211" if own else "MR101" if site.shape == "result" else "MR102",
                f"roots read behind `{held[0]}`, {held[1]}: a path argument here would be read when it is "
                "filled and ignored while it holds; remove that cache by hand, then run again",
            )
        elif names and own:
            site.refusal = (
                "MR211",
                f"roots read behind `{names[0]}`, a cache that stays (see its MR211 marker): a path "
                "argument here would be read when the cache is filled and ignored while it holds; remove "
                "the cache by hand, then run again",
            )
        elif names:
            site.refusal = (
                "MR101" if site.shape == "result" else "MR102",
                f"roots read behind `{names[0]}`, a module cache that stays (the cache rule, MR211, is not "
                "selected): a path argument here would be read when the cache is filled and ignored while "
                "it holds; select MR211 or remove the cache by hand, then run again",
            )


def kept_attributes(functions: Iterable[Func], state: FileState) -> None:
    """The attribute each function keeps its own roots reads on (MR212): the plan refuses those reads when
    a tool reaches them (codemods/_kept_on_way.py)."""
    functions = list(functions)
    if not any(f.sites for f in functions):
        return
    from migrate_roots.codemods.list_changed import kept_attributes as attributes

    kept = attributes(state)
    for func in functions:
        if func.sites and func.pos in kept:
            func.keeps = kept[func.pos]
