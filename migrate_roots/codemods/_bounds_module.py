"""Bounds elsewhere in a read's module (`_bounds_refuse` decides the read's own): roots one function keeps in a
global that another checks paths against (`_kept_bound`), and the other open reads of a module whose roots
bound a path (`same_module`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from migrate_roots.codemods._bounds import BoundFacts, Pos, taint

K = TypeVar("K")


def _kept_bound(fq: str, positions: list[Pos], by_fq: Mapping[str, tuple[str, Any]]) -> str | None:
    """A sign of another function of the module whose bound is a name this function fills from the read and
    that function does not bind itself: roots kept in a global (`ALLOWED[:] = [...]`, `global _allowed`) by one
    tool and enforced by another (B's r03 and r10: `refresh` fills it, `read` checks paths against it)."""
    path, func = by_fq[fq]
    here: BoundFacts | None = func.bound_sign
    if here is None:
        return None
    results = dict(here.results)
    tainted = taint(here, frozenset().union(*(results.get(p, frozenset()) for p in positions)))
    if not tainted:
        return None
    for other in sorted(by_fq):
        other_path, other_func = by_fq[other]
        facts: BoundFacts | None = other_func.bound_sign
        if other == fq or other_path != path or facts is None:
            continue
        own = frozenset().union(*(targets for targets, _ in facts.flows))
        for sign, names in facts.signs:
            if (names - own) & tainted:
                kept = ", ".join(f"`{n}`" for n in sorted((names - own) & tainted))
                return f"{sign} in `{other.rpartition('.')[2]}`, against {kept}, which this function fills"
    return None


def same_module(
    by_key: Mapping[K, tuple[str, Any]],
    bounded: Mapping[K, Mapping[Pos, Any]],
    signs: Mapping[tuple[K, Pos], str],
    allowlist_env: str,
) -> dict[K, dict[Pos, tuple[tuple[str, str], str]]]:
    """Every other open read of a module whose roots bound a path (`refuse`): the same bound. `list_roots` beside
    `is_path_allowed` (the roots demo, hiil) must report the directories `read_dir` enforces, and a tool that
    works in `roots[0]` must not let the caller choose a folder `read_dir` refuses. Reads already refused for a
    nearer reason (MR109's checked or handed-out paths) keep it."""
    bound_in: dict[str, str] = {}
    for key in sorted(bounded, key=repr):
        for pos in sorted(bounded[key]):
            bound_in.setdefault(by_key[key][0], signs[(key, pos)])
    out: dict[K, dict[Pos, tuple[tuple[str, str], str]]] = {}
    for key in sorted(by_key, key=repr):
        path, func = by_key[key]
        if path not in bound_in or func.refusal is not None:
            continue
        sign = bound_in[path]
        reason = (
            f"roots bound what this module's tools may touch ({sign}): an explicit argument here would let the "
            f"caller name a folder that bound refuses. Keep the bound with the operator ({allowlist_env}) and "
            "migrate this by hand"
        )
        for site in func.sites:
            open_site = site.refusal is None or site.refusal[0] == "MR105"
            if open_site and not site.done and site.pos not in bounded.get(key, {}):
                out.setdefault(key, {})[site.pos] = (("MR109", reason), f"in this module: {sign}")
    return out
