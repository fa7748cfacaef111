"""Roots kept on an attribute by a function on the way (MR212): refused, never rewritten.

`self._roots = await self.helper(ctx)` in a tool, or in any function between a tool and the read, keeps one
request's answer for later requests: with a path argument at the read, the value one caller passed would be
served to the next (behind an `if not self._roots` guard, every call after the first ignores its argument).
The read's own function keeps them when the plumbing analysis finds the write there (`Func.keeps`).
A cache on the way that keeps the call's value (`_CACHE[k] = await helper(ctx)` behind `if k not in _CACHE`,
`setdefault`: `Func.cached`) is MR211's, as when the read is written there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any, TypeVar

from migrate_roots.codemods._checked_params import callers_within
from migrate_roots.codemods._plumbing_state import _ALLOWS
from migrate_roots.codemods._roots_model import Pos

K = TypeVar("K")
_PER_REQUEST = "keep it per request by hand (pass it down, or key the stored value by it)"


def refuse(
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
    allowlist_env: str = "MCP_ROOTS_ALLOWED_PATHS",
) -> dict[K, dict[Pos, tuple[str, str]]]:
    """Function -> its sites to refuse (MR212) because a caller on the way stores the call's result on an
    attribute. A pure function of its inputs."""
    callers = callers_within(reach, calls)
    out: dict[K, dict[Pos, tuple[str, str]]] = {}
    for key in sorted(reach, key=repr):
        sites = [s for s in by_key[key][1].sites if s.refusal is None and not s.done]
        if not sites:
            continue
        keeps = by_key[key][1].keeps
        if keeps is not None:
            reason = (
                f"this function keeps the roots it reads {_on(keeps)} (see its MR212 marker), which outlives "
                "the request: a path argument here would serve one caller's value to later calls; "
                + (
                    f"`{keeps}` bounds what the tools may touch: keep that bound with the operator ({allowlist_env} "
                    "or the server's own setting), not a caller's argument, by hand"
                    if _ALLOWS.search(keeps)
                    else _PER_REQUEST
                )
                + ", then run again"
            )
            out[key] = {s.pos: ("MR212", reason) for s in sites}
            continue
        found: tuple[K, str, Pos] | None = None
        cache: tuple[K, tuple[str, int, str]] | None = None
        newly: tuple[K, str, Pos, K] | None = None
        # Whether the shim's error can leave the read's function: a handler there that catches it (waggle's
        # widened `except (NotFoundError, McpError)`) keeps callers' `except ValueError` from ever seeing it.
        escapes = not all(s.caught for s in sites)
        seen, todo = {key}, [(key, escapes)]
        while todo and found is None and cache is None and newly is None:
            current, open_ = todo.pop()
            for caller, pos in sorted(callers.get(current, ()), key=repr):
                handler = by_key[caller][1].newly.get(pos) if open_ else None
                if handler is not None:
                    newly = (caller, handler, pos, current)
                    break
                target = by_key[caller][1].stores.get(pos)
                if target is not None:
                    found = (caller, target, pos)
                    break
                held = by_key[caller][1].cached.get(pos)
                if held is not None:
                    cache = (caller, held)
                    break
                if caller not in seen:
                    seen.add(caller)
                    todo.append((caller, open_ and pos not in by_key[caller][1].caught))
        if newly is not None:
            caller, handler, pos, callee = newly
            path, func = by_key[caller]
            reason = (
                f"`{handler}` around the call of `{by_key[callee][1].qualname.rpartition('.')[2]}` in "
                f"`{func.qualname.rpartition('.')[2]}` ({os.path.basename(path)}:{pos[0]}) would catch "
                "RootsArgumentError, which this read raises when no path is given, while the old call's SDK error "
                "went through it: a legacy client without roots would get that handler's answer instead of an "
                "error; add `except RootsArgumentError: raise` before it by hand, then run again"
            )
            out[key] = {s.pos: ("MR105", reason) for s in sites}
            continue
        if cache is not None:
            path, func = by_key[cache[0]]
            reason = _cached(func.qualname.rpartition(".")[2], *cache[1], os.path.basename(path))
            out[key] = {s.pos: ("MR211", reason) for s in sites}
            continue
        if found is None:
            continue
        caller, target, pos = found
        path, func = by_key[caller]
        name = func.qualname.rpartition(".")[2]
        pos = func.stored_at.get(pos, pos)  # the assignment, not the call, when they are apart
        reason = (
            f"`{name}` keeps what this read gives {_on(target)} ({os.path.basename(path)}:{pos[0]}), which "
            f"outlives the request: a path argument here would serve one caller's value to later calls; "
            f"{_PER_REQUEST}, then run again"
        )
        out[key] = {s.pos: ("MR212", reason) for s in sites}
    return out


def _cached(name: str, holder: str, line: int, kind: str, file: str) -> str:
    """MR211's reason at a read whose value a caller on the way keeps in a cache (program/kept_calls.py)."""
    at = f"{file}:{line}"
    fix = "remove the cache (or key it by the argument) by hand, then run again"
    if kind in ("disk", "disk_tried"):
        tested = "the test" if kind == "disk" else "its read tried first"
        return (
            f"`{name}` reaches this read only while `{holder}` is not on disk ({tested} at {at}), which what it "
            f"builds is then kept in: a path argument would count until it exists and be ignored afterwards; {fix}"
        )
    how = {
        "returned": f"a cache it returns from before the call ({at})",
        "store": f"an on-disk store of the module's it returns from before the call ({at})",
        "empty": f"filled when empty ({at}) and kept beyond the call",
        "absent": f"filled when absent ({at}) and kept beyond the call",
        "setdefault": f"by `setdefault` ({at}), which keeps the first value beyond the call",
    }[kind]
    then = (
        "ignored while the cache holds an entry"
        if kind in ("returned", "store")
        else "kept from the first call and served to every later one"
        if kind == "setdefault"
        else "read when the cache is filled and ignored while it holds"
    )
    return f"`{name}` keeps what this read gives in `{holder}`, {how}: a path argument here would be {then}; {fix}"


def _on(keeps: str) -> str:
    """`on `x.attr``, or `on `x` through `x.bind()`` for a setter method (`_plumbing_collect._setter_call`)."""
    if keeps.endswith("()") and "." not in keeps:  # a module function (`bind_project()`)
        return f"through `{keeps}`"
    if keeps.endswith("()"):
        return f"on `{keeps[: keeps.rindex('.')]}` through `{keeps}`"
    return f"on `{keeps}`"
