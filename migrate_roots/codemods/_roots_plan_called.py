"""A function a low-level handler dispatches as a tool (`TOOLS = {"list_files": list_files}`) reads the path
argument from the arguments dict it is handed (`arguments.get("root")`). When a tool, or code a tool reaches,
also calls it directly with a dict of its own (`await list_files({"pattern": p})`), the caller's client's
argument never arrives there (sweep P, r03): the read is refused (MR153), unless the call hands on the caller's
own tool arguments as they are (`list_files(arguments)` in a dispatched `count_files(arguments)`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from migrate_roots.codemods._roots_model import Func, Pos

Key = tuple[str, str]  # (import root, module.qualname), as in _roots_plan

# The dict a dispatched function's value reads: `arguments.get("root")`, `(arguments or {}).get("root")`.
_DICT = re.compile(r"^\(?(\w+)(?: or \{\})?\)?\.get\(")


def refusals(
    by_key: Mapping[Key, tuple[str, Func]], calls: Mapping[Key, list[tuple[Key, Pos]]], param: str
) -> dict[Key, tuple[str, str]]:
    """Dispatched function -> (MR153, why) for those such a call reaches."""
    dispatched = {k for k, (_, f) in by_key.items() if f.value is not None and "[" not in f.qualname}
    if not dispatched:
        return {}
    from_tools = _reached_from_tools(by_key, calls)
    out: dict[Key, tuple[str, str]] = {}
    for caller in sorted(from_tools):
        cpath, cfunc = by_key[caller]
        for callee, pos in calls[caller]:
            if callee not in dispatched or callee == caller or callee in out:
                continue
            if _hands_on_own(cfunc, by_key[callee][1], pos):
                continue
            func = by_key[callee][1]
            tool = f" as tool `{func.called}`" if func.called else ""
            out[callee] = (
                "MR153",
                f"roots read in `{_last(func.qualname)}`, which the low-level tool handler dispatches{tool} and "
                f"`{_last(cfunc.qualname)}` also calls directly ({_short(cpath)}:{pos[0]}) with arguments of its "
                f"own: a `{param}` argument the client gives the tool that makes that call would not arrive "
                "here; migrate both by hand (pass it on in that call)",
            )
    return out


def _reached_from_tools(
    by_key: Mapping[Key, tuple[str, Func]], calls: Mapping[Key, list[tuple[Key, Pos]]]
) -> set[Key]:
    """The tools (and dispatched functions) and every function they reach through calls."""
    seen = {k for k, (_, f) in by_key.items() if f.tool is not None or f.value is not None}
    todo = list(seen)
    while todo:
        for callee, _ in calls.get(todo.pop(), ()):
            if callee in by_key and callee not in seen:
                seen.add(callee)
                todo.append(callee)
    return seen


def _hands_on_own(caller: Func, callee: Func, pos: Pos) -> bool:
    """The call gives the callee's dict parameter the caller's own tool arguments dict, as a plain name."""
    mine, theirs = _DICT.match(caller.value or ""), _DICT.match(callee.value or "")
    if mine is None or theirs is None:
        return False
    params = [p for p in callee.params[: callee.positional] if p not in ("self", "cls")]
    for slot, name in caller.bound.get(pos, ()):
        if name != mine[1]:
            continue
        index = int(slot[1:]) if slot.startswith("#") else -1
        if slot == theirs[1] or 0 <= index < len(params) and params[index] == theirs[1]:
            return True
    return False


def _last(qualname: str) -> str:
    return qualname.rpartition(".")[2]


def _short(path: str) -> str:
    head, name = os.path.split(path)
    return f"{os.path.basename(head)}/{name}" if os.path.basename(head) else name
