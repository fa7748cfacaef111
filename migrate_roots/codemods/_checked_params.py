"""A path argument checked on the way, roots that are not: a new argument would skip the check (MR109).

    async def handle_prepare(prompt, workspace_path, ctx):
        if workspace_path:
            wp = Path(workspace_path).resolve()
            if any(str(wp).startswith(p) for p in ("/etc", "/var", "/root")):
                raise ValueError("points to a system directory")
        await service.enrich(prompt, workspace_path=workspace_path, mcp_ctx=ctx)  # reads roots, first

The caller-chosen `workspace_path` may not name a system folder; the client's roots were the host's choice
and never checked. A new `root` argument makes that folder the caller's choice too, past the check the server
applies to the caller's other path: a widened bound (the project-synthesis field servers). Which check, on
which value, the server would want on the new argument is its own decision, so the site is marked.

A check counts (`_bounds.BoundFacts.checks`: the signs of a bound by the side they test, a plain
`x.startswith(...)` under an `if`, `".." in x`) when, in a function on the way from a tool to the read, the
tested side derives from one of its own parameters and not from the value the way returns (a root that
passes the check is checked), or when the parameter goes one call further into such a check. A plain prefix
or `..` test counts only on a path-like parameter. Not where the plan reuses the tool's own path argument for
the read (codemods/program/reuse.py, `Site.existing`): the checked value is the argument then.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from migrate_roots.codemods._bounds import BoundFacts, taint

K = TypeVar("K")
Pos = tuple[int, int]

# Signs that say a path is tested whatever the parameter is called; the others need a path-like name.
_PLAIN = frozenset({"a prefix test", "a `..` test"})


# What a path may pass through and stay the caller's path (`wp = Path(workspace_path).resolve()`); a value
# computed by anything else (`results = search(query)`, then `for path in results`) is another value.
_PATH_WORDS = frozenset(
    [
        "Path",
        "PurePath",
        "PosixPath",
        "PurePosixPath",
        "WindowsPath",
        "str",
        "os",
        "path",
        "fspath",
        "resolve",
        "absolute",
        "expanduser",
        "expandvars",
        "realpath",
        "abspath",
        "normpath",
        "normcase",
        "strip",
        "rstrip",
        "lstrip",
        "as_posix",
        "removeprefix",
        "unquote",
        "urlparse",
        "strict",
        "None",
    ]
)


def path_taint(facts: BoundFacts, seeds: frozenset[str]) -> frozenset[str]:
    """The names that hold one of `seeds` as a path: assigned from it through path functions only."""
    tainted = set(seeds)
    changed = True
    while changed:
        changed = False
        for targets, sources in facts.flows:
            if sources & tainted and not targets <= tainted and sources <= tainted | _PATH_WORDS:
                tainted |= targets
                changed = True
    return frozenset(tainted)


def params_of(func: Any) -> list[str]:
    params = list(func.params)
    return params[1:] if params and params[0] in ("self", "cls") else params


def _checked(
    key: K,
    seeds: Mapping[str, frozenset[str]],
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    path_like: Any,
    way: frozenset[str] = frozenset(),
    depth: int = 0,
) -> tuple[str, str, str, Pos, bool] | None:
    """(parameter, sign, file, position, against the way's value) of a check in `key` on the values `seeds`
    maps each of its own parameters to, or in a callee those values are handed to (a call deep); not a check
    that also tests `way`, the names the way's own value reaches, unless its bound side is the way's value."""
    path, func = by_key[key]
    facts: BoundFacts | None = func.bound_sign
    if facts is None:
        return None
    tainted = {name: path_taint(facts, names) for name, names in seeds.items()}
    # A callee whose check's bound side is the way's value (`Path(d) in p.parents`, `d` from the roots): the
    # roots bound the path, which `_bounds_refuse` says when it follows the way; said here when it does not.
    against = bool(way) and any(bound & way for _, bound in facts.signs)
    for name, held in tainted.items():
        for sign, tested, pos in facts.checks:
            if tested & held and (against or not tested & way) and (sign not in _PLAIN or path_like(name)):
                return name, sign, path, pos, against
    if depth >= 1:
        return None
    targets: dict[Pos, list[K]] = {}
    for callee, pos in calls.get(key, ()):
        targets.setdefault(pos, []).append(callee)
    for pos, arguments in sorted(facts.args):
        for callee in targets.get(pos, ()):
            theirs = params_of(by_key[callee][1]) if callee in by_key else []
            for keyword, mentioned in arguments:
                index = int(keyword[1:]) if keyword.startswith("#") else None
                target = theirs[index] if index is not None and index < len(theirs) else keyword
                names = [n for n, t in tainted.items() if mentioned & t and not mentioned & way]
                if not names or target not in theirs:
                    continue
                ok = path_like(names[0]) or path_like(target)
                # The callee's parameters the way's value is handed to (`inside(path, allowed)`: `dirs`) are
                # the way there: its check of `path` against them is a check against the roots.
                fed = frozenset(
                    theirs[int(k[1:])] if k.startswith("#") and int(k[1:]) < len(theirs) else k
                    for k, m in arguments
                    if m & way
                )
                held_facts = by_key[callee][1].bound_sign
                there = frozenset(taint(held_facts, fed)) if fed and held_facts is not None else frozenset()
                found = _checked(
                    callee, {target: frozenset({target})}, by_key, calls, lambda _, ok=ok: ok, there, depth=1
                )
                if found is not None:
                    return names[0], found[1], found[2], found[3], found[4]
    return None


def callers_within(reach: set[K], calls: Mapping[K, list[tuple[K, Pos]]]) -> dict[K, list[tuple[K, Pos]]]:
    """Callee -> (caller, call position), for the calls between functions of `reach` (the way up to a tool)."""
    callers: dict[K, list[tuple[K, Pos]]] = {}
    for key in reach:
        for callee, pos in calls[key]:
            if callee in reach:
                callers.setdefault(callee, []).append((key, pos))
    return callers


def way_names(facts: BoundFacts, positions: list[Pos]) -> frozenset[str]:
    """The names in a function that hold what its calls or sites at `positions` give (the way's own value)."""
    results = dict(facts.results)
    return frozenset(taint(facts, frozenset().union(*(results.get(p, frozenset()) for p in positions))))


H = TypeVar("H")


def first_on_way(
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
    reused: Mapping[K, Any],
    probe: Callable[[K, list[Pos]], H | None],
) -> list[tuple[K, list[Any], K, H]]:
    """For each function of `reach` with rewritable sites (and no reused parameter): the first function on the
    way up to the tools (itself first) where `probe(function, positions into the way)` finds something, as
    (function, its sites, where, what). The walk both MR109 refusals of a path argument share."""
    callers = callers_within(reach, calls)
    out: list[tuple[K, list[Any], K, H]] = []
    for key in sorted(reach, key=repr):
        sites = [s for s in by_key[key][1].sites if s.refusal is None and not s.done and not s.existing]
        if not sites or key in reused:
            continue
        seen = {key}
        todo: list[tuple[K, list[Pos]]] = [(key, [s.pos for s in sites])]
        while todo:
            current, positions = todo.pop()
            hit = probe(current, positions)
            if hit is not None:
                out.append((key, sites, current, hit))
                break
            for caller, pos in sorted(callers.get(current, ()), key=repr):
                if caller not in seen:
                    seen.add(caller)
                    todo.append((caller, [pos]))
    return out


def refuse(
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
    reused: Mapping[K, Any],
    path_like: Any,
    param: str,
) -> dict[K, dict[Pos, tuple[str, str]]]:
    """Function -> its sites to refuse (MR109) because a function on the way checks a path parameter that the
    roots skip (see the module docstring). A pure function of its inputs."""

    def probe(current: K, positions: list[Pos]) -> tuple[str, str, str, Pos, bool] | None:
        facts = by_key[current][1].bound_sign
        way = way_names(facts, positions) if facts is not None else frozenset()
        seeds = {p: frozenset({p}) for p in params_of(by_key[current][1])}
        return _checked(current, seeds, by_key, calls, path_like, way)

    out: dict[K, dict[Pos, tuple[str, str]]] = {}
    for key, sites, where, (name, sign, path, pos, against) in first_on_way(
        by_key, calls, reach, reused, probe
    ):
        function = by_key[where][1].qualname.rpartition(".")[2]
        place = f"{sign} ({os.path.basename(path)}:{pos[0]})"
        reason = (
            f"roots bound what this tool may touch: `{function}` checks its path argument `{name}` against them "
            f"with {place}: an explicit argument would let the caller choose its own bound. Keep the bound with "
            "the operator (the compatibility module's allow-list, or the old fallback) and migrate this by hand"
            if against
            else f"`{function}` checks its path argument `{name}` with {place}; the roots read here are not shown "
            f"to meet that check before their use: a new `{param}` argument could name a folder past it. Apply "
            "the same check to the roots' replacement by hand, then run again"
        )
        out[key] = {s.pos: ("MR109", reason) for s in sites}
    return out
