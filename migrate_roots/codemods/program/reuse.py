"""An existing path parameter as the source wherever it flows (issue 17, item 6).

`search(ctx, project_dir=None)` hands `project_dir` to `_resolve_target(ctx, explicit)`, which returns early
when `explicit` is set and reads roots otherwise: `explicit` is already the roots call's explicit value. The
plan then rewrites the site with `explicit`, adds no parameter to the helper, and gives the tool no new
argument: `project_dir` is it.

Only when every caller the plan reaches is a tool passing one of its own path-like parameters there; a
helper whose roots call is not skipped by such a parameter (a path checked *against* the roots, a boundary)
gets the tool's argument threaded as before. A parameter the helper returns in place of the roots (`try:
return roots[0] except ...: return explicit`) is the same value by another road, and is reused the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from migrate_roots.codemods._param_types import path_param

K = TypeVar("K", str, tuple[str, str])  # a function's identity: its dotted name, or (import root, name)
Pos = tuple[int, int]


@dataclass(frozen=True)
class Reused:
    """A helper's own parameter that already carries the tools' path argument."""

    param: str
    guard: bool  # set, it skips the roots read (`if explicit: return explicit`); else it is returned instead

    @property
    def value(self) -> str:
        """What the rewritten read passes as the explicit value. Behind a guard the read runs only when the
        parameter is unset or falsy (`''`, which the shim would refuse): nothing. A parameter returned in
        place of the roots may hold a value there: it, when it is one."""
        return "None" if self.guard else f"{self.param} or None"


def guarded_helpers(
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
    path_like: Callable[[str], bool],
) -> dict[K, Reused]:
    """Helper -> its parameter that already carries the tools' path argument. `by_key`: function identity ->
    (path, _roots_model.Func); `calls`: its calls, resolved to identities."""
    callers: dict[K, list[tuple[K, Pos]]] = {}
    for key in reach:
        for callee, pos in calls[key]:
            if callee in reach:
                callers.setdefault(callee, []).append((key, pos))
    out: dict[K, Reused] = {}
    for fq in sorted(reach):
        func = by_key[fq][1]
        if func.tool is not None or func.value is not None or fq not in callers:
            continue
        nodes = [s.pos for s in func.sites if s.refusal is None]
        nodes += [pos for callee, pos in calls[fq] if callee in reach]
        guards = {func.guards.get(pos) for pos in nodes}
        # The parameter that skips the roots read when set, else the one returned in its place.
        guarding = [g for g in guards if g is not None] if len(guards) == 1 else []
        names = guarding + [n for n in func.returns if n not in guarding]
        for name in names:
            passed = [passed_at(by_key[c][1], pos, func, name) for c, pos in callers[fq]]
            # The tools' own *path* parameter (`project_dir`, ...): a `prompt` the helper returns on failure
            # is no path, and reusing it would send the prompt as a directory.
            if name not in func.not_paths and all(
                n is not None and path_param(by_key[c][1], n, path_like)
                for n, (c, _) in zip(passed, callers[fq], strict=True)
            ):
                out[fq] = Reused(name, name in guarding)
                break
    return out


def passed_at(caller: Any, pos: Pos, callee: Any, param: str) -> str | None:
    """The caller's own path parameter passed to `param` of `callee` at `pos`, when the caller is a tool."""
    if caller.tool is None or caller.value is not None:
        return None
    offset = 1 if callee.params and callee.params[0] in ("self", "cls") else 0
    index = callee.params.index(param) - offset
    names = [n for key, n in caller.bound.get(pos, ()) if key in (param, f"#{index}")]
    return names[0] if len(names) == 1 and names[0] in caller.params else None
