"""The plan's decisions about tools as a whole (`plan_package` calls them): which tool's own path parameter is
already its argument (`unset_tools`), which helpers only such tools call (`idle_helpers`), a tool that calls
another tool as a function (`tool_to_tool`), and a tool that would take an argument nothing reads
(`drop_idle`). Pure functions of the plan's inputs; `tool_to_tool` and `drop_idle` edit the plans being built.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from migrate_roots.codemods._checked_params import callers_within
from migrate_roots.codemods._param_types import path_param
from migrate_roots.codemods._roots_model import Func, Plan, Pos

Key = tuple[str, str]  # (import root, module.qualname), as in _roots_plan


def tool_to_tool(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    plans: dict[str, Plan],
    param: str,
) -> None:
    """A tool that calls another tool as a function (`return await spawn(ctx, prompt, wd)`) passes its own
    argument on by the callee's keyword, unless the call already gives that parameter: else the caller's new
    argument would be taken and dropped (spellbook's `spawn_claude_session`)."""
    for key in sorted(reach):
        path, func = by_key[key]
        if func.tool is None or func.value is not None:
            continue
        supplied = _supplied(func)
        for callee, pos in calls[key]:
            target = by_key.get(callee)
            if callee == key or callee not in reach or target is None or target[1].tool is None:
                continue
            cpath, cfunc = target
            if cfunc.value is not None or cfunc.qualname not in plans[cpath].tools:
                continue
            name, _, new = plans[cpath].tools[cfunc.qualname]
            # A new parameter no call can give yet; an existing one only where the call's arguments are known.
            if pos in plans[path].calls or (
                not new and (pos not in supplied or name in _given(cfunc, supplied[pos]))
            ):
                continue
            plans[path].calls[pos] = plans[path].values[func.qualname]
            plans[path].callees[pos] = callee[1].rpartition(".")[2]
            if name != param:
                plans[path].keywords[pos] = name
            # The caller's list (`root: RootPaths`) into the callee's own `path: str` (sweep T, r01): a list there
            # is a TypeError; its first is the main workspace, as the callee's one path stands for its roots.
            own, shape, fresh = plans[path].tools[func.qualname]
            listed = shape == "list" if fresh else func.aliased.get(own) == "list"
            if listed and not new and cfunc.aliased.get(name) != "list":
                plans[path].firsts.add(pos)


def unset_tools(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    guarded: Mapping[Key, Any],
    path_like: Any,
    param: str,
) -> dict[Key, str]:
    """Tool -> its own path parameter whose being set skips every way it has to roots (`if working_directory
    is None: working_directory = await first_root(ctx)`, spellbook): that parameter is already the argument."""
    out: dict[Key, str] = {}
    for key in sorted(reach):
        func = by_key[key][1]
        ways = [pos for c, pos in calls[key] if c in reach and c not in guarded]
        if func.tool is None or func.value is not None or not ways or param in func.params:
            continue
        skipped = {s.existing for s in func.sites if s.refusal is None} | {
            func.guards.get(pos) for pos in ways
        }
        name = next(iter(skipped))
        if len(skipped) == 1 and name is not None and path_param(func, name, path_like):
            out[key] = name
    return out


def idle_helpers(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    guarded: Mapping[Key, Any],
    unset: Mapping[Key, str],
) -> set[Key]:
    """Helpers that only `unset` tools, or helpers of this set, call within `reach` (to a fixed point)."""
    callers = {
        callee: {c for c, _ in found if c != callee} for callee, found in callers_within(reach, calls).items()
    }
    callers = {k: v for k, v in callers.items() if v}
    helpers = {
        k
        for k in reach
        if by_key[k][1].tool is None and by_key[k][1].value is None and k not in guarded and k in callers
    }
    idle = set(helpers)
    changed = True
    while changed:
        changed = False
        for key in sorted(idle):
            if not all(c in unset or c in idle for c in callers[key]):
                idle.discard(key)
                changed = True
    return idle


def drop_idle(by_key: Mapping[Key, tuple[str, Func]], reach: set[Key], plans: dict[str, Plan]) -> None:
    """A tool planned a new argument that nothing would read (it reaches roots only through a tool it calls
    with that tool's own argument given: `return await inner(ctx, project_dir)`) takes none."""
    for key in sorted(reach):
        path, func = by_key[key]
        plan = plans[path]
        if (
            func.tool is None
            or func.value is not None
            or not plan.tools.get(func.qualname, ("", "", False))[2]
        ):
            continue
        if any(plan.sites.get(s.pos, ()) is None for s in func.sites) or any(
            p in plan.calls for _, p in func.calls
        ):
            continue
        del plan.tools[func.qualname]
        del plan.values[func.qualname]


def refused_callers(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    plans: dict[str, Plan],
) -> None:
    """A tool the plan cannot give an argument (built at run time, a `functools.wraps` wrapper: its own
    refusal) that calls a helper other tools now thread one through: its call passes none, so its 2026-07-28
    clients get the helper's error naming an argument they cannot send. Said at that call, with the reason."""
    for key, (path, func) in sorted(by_key.items()):
        # ... and a handler (a resource, a prompt) calling a helper the tools now thread one through (session
        # 15's sweep D, r06: gitlab-mcp's resources), which takes no argument of its own.
        handler = func.tool is None and func.handler is not None
        # ... and a nested function its tool hands as a value (`tg.start_soon(fill)`: sweep G, r10), which no
        # call the plan follows reaches: alone, its read would be marked; beside a threaded helper it was silent.
        handed = func.tool is None and func.handed_to is not None
        if key in reach or not (handler or handed or (func.tool is not None and func.refusal is not None)):
            continue
        for callee, pos in calls[key]:
            cpath, cfunc = by_key[callee]
            plan = plans.get(cpath)
            param = plan.values.get(cfunc.qualname) if callee in reach and plan is not None else None
            # The helper's own parameter (new, or from an earlier run), not one it reuses or None it passes.
            if (
                plan is None
                or param is None
                or cfunc.tool is not None
                or not param.isidentifier()
                or param == "None"
                or (param not in cfunc.params and plan.threaded.get(cfunc.qualname) != param)
                or any(k == param for k, _ in func.bound.get(pos, ()))
            ):
                continue
            index = _param_index(cfunc, param)
            helper = cfunc.qualname.rpartition(".")[2]
            if handed and func.handed_to is not None:
                outer, spelled, line = func.handed_to
                said = (
                    "MR103",
                    f"`{helper}` now takes `{param}`, which the tools pass; this call, in "
                    f"`{func.qualname.rpartition('.')[2]}`, a function `{outer}` hands as a value to `{spelled}` "
                    f"({os.path.basename(path)}:{line}), passes none, so a 2026-07-28 client gets the helper's "
                    f"error there: give `{outer}` the argument and pass it on here, by hand",
                )
            elif func.refusal is not None:
                said = (
                    func.refusal[0],
                    f"`{helper}` now takes `{param}`, which other tools pass; this call passes none, so a "
                    f"2026-07-28 client of this tool gets its error: {func.refusal[1]}",
                )
            else:
                said = (
                    "MR103",
                    f"`{helper}` now takes `{param}`, which the tools pass; this call, in the handler "
                    f"`{func.qualname.rpartition('.')[2]}` registered by `{func.handler}`, passes none, so a "
                    "2026-07-28 client of it gets no roots there (the helper's error, or its own fallback): a "
                    "handler takes no tool argument; put the path in its URI template (a resource) or in the "
                    "server's configuration, by hand",
                )
            plans.setdefault(path, Plan()).notes[pos] = (*said, param, index)
            plans[path].callees[pos] = cfunc.qualname.rpartition(".")[2]


def handed_threaded(
    by_key: Mapping[Key, tuple[str, Func]],
    reach: set[Key],
    plans: dict[str, Plan],
    resolve: Callable[[Key, str], Key | None],
) -> None:
    """A helper the tools now thread the argument through, handed by name to a call that runs it later
    (`tg.start_soon(index_root, ctx, out)`: sweep I, r05): that hand-off passes no argument, so its 2026-07-28
    clients get the helper's error. Said at the hand-off."""
    for key, (path, func) in sorted(by_key.items()):
        for fq, pos, spelled in func.hands:
            callee = resolve(key, fq)
            if callee is None or callee not in reach or callee not in by_key:
                continue
            cpath, cfunc = by_key[callee]
            plan = plans.get(cpath)
            param = plan.values.get(cfunc.qualname) if plan is not None else None
            if cfunc.tool is not None or param is None or not param.isidentifier() or param == "None":
                continue
            helper = cfunc.qualname.rpartition(".")[2]
            said = (
                "MR103",
                f"`{helper}` now takes `{param}`, which the tools pass; `{spelled}` hands it over as a value and "
                f"passes none, so a 2026-07-28 client gets the helper's error there: pass `{param}` along by hand "
                f"(`functools.partial({helper}, ..., {param}={param})`)",
            )
            plans.setdefault(path, Plan()).notes.setdefault(pos, (*said, param, -1))


def untyped_calls(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    plans: dict[str, Plan],
) -> None:
    """A call of a method, handed the context, on a value the index cannot type (`self.paths.workspace(ctx)`
    with `paths` a dataclass field, a property or a base class's attribute: sweeps C r07 and E r05 of session
    20), where a method of that name now takes the argument: said at the call, unless it passes that argument.
    Whether it is that method is not known; silent, a 2026-07-28 client got the helper's error there."""
    threaded: dict[str, list[tuple[str, str, str, int]]] = {}
    for key in sorted(reach):
        path, func = by_key[key]
        plan = plans.get(path)
        param = plan.values.get(func.qualname) if plan is not None else None
        if "." not in func.qualname or func.tool is not None or not param or not param.isidentifier():
            continue
        if param == "None" or (
            param not in func.params and plan is not None and func.qualname not in plan.threaded
        ):
            continue
        index = _param_index(func, param)
        where = f"{os.path.basename(path)}:{func.pos[0]}"
        threaded.setdefault(func.qualname.rpartition(".")[2], []).append((func.qualname, where, param, index))
    for key, (path, func) in sorted(by_key.items()):
        tied = {pos for _, pos in calls.get(key, ())}
        for name, pos, spelled in func.untyped:
            found = threaded.get(name)
            if not found or pos in tied:
                continue
            qualname, where, param, index = found[0]
            said = (
                "MR103",
                f"`{spelled}(...)` is handed the context on a value migrate-roots cannot type; `{qualname}` "
                f"({where}) of that name now takes `{param}`: if it is the one called here, give "
                f"`{func.qualname.rpartition('.')[2]}` a path argument and pass it on, by hand",
            )
            plans.setdefault(path, Plan()).notes.setdefault(pos, (*said, param, index))
            plans[path].callees.setdefault(pos, name)


def _param_index(func: Func, param: str) -> int:
    """The position a call gives `param` of `func` at (its own, or the one a new parameter takes), `self` aside."""
    index = func.params.index(param) if param in func.params else func.positional
    return index - 1 if func.params[:1] in (("self",), ("cls",)) else index


def _given(func: Func, keys: tuple[str, ...]) -> set[str]:
    """The parameters of `func` that a call's arguments (`_supplied`) bind."""
    theirs = [p for p in func.params if p not in ("self", "cls")]
    return {theirs[int(k[1:])] if k.startswith("#") and int(k[1:]) < len(theirs) else k for k in keys}


def _supplied(func: Func) -> dict[Pos, tuple[str, ...]]:
    """Call position -> what each argument binds (a keyword, or `#<index>` when positional), from the facts."""
    facts = func.bound_sign
    if facts is None:
        return {}
    return {pos: tuple(k for k, _ in arguments) for pos, arguments in facts.args}


def behind_key(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    path_like: Any,
    good: Any,
    values: frozenset[str],
) -> dict[Key, str]:
    """`_behind_key`, kept to the helpers no tool reaches otherwise that read roots (`good`), or call such a
    helper."""
    behind = {k: v for k, v in _behind_key(by_key, calls, path_like, values).items() if k not in reach}
    useful = {k for k in behind if good(by_key[k][1])}
    grown = True
    while grown:
        more = {k for k in behind if k not in useful and any(c in useful for c, _ in calls[k])}
        useful |= more
        grown = bool(more)
    return {k: behind[k] for k in sorted(useful)}


def _behind_key(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    path_like: Any,
    values: frozenset[str],
) -> dict[Key, str]:
    """Helper -> the key of the tools' arguments (`project_dir`) whose value, when the caller gives one, skips
    every way into it (codemods/program/keyed.py): it reads roots only without that argument, so it takes none,
    and its reads pass None with the key as the argument their error names.

    A way in is a call made only without the key's value: in a tool built at run time whose synthesized
    signature surely declares the key, reading it from its own `**kwargs`; or in a module function every caller
    of which is such a tool handing it its `**kwargs` (unchanged) in the very parameter the key is read from;
    or a call from another such helper. Helpers and those functions are module-level functions used only by
    such calls (never handed on as values, never called at module level). Any other caller, or two keys: not."""
    callers: dict[Key, list[tuple[Key, Pos]]] = {}
    for key, made in calls.items():
        for callee, pos in made:
            if callee != key:
                callers.setdefault(callee, []).append((key, pos))

    def plain(key: Key) -> bool:
        """A module-level function of ours, defined once, undecorated, not calling itself, used only by calls
        from functions (a decorator, a second definition or a recursion could drop the key on the way)."""
        func = by_key[key][1]
        return (
            "." not in func.qualname
            and key[1] not in values
            and len(func.defs) <= 1
            and func.decorator is None
            and func.handler is None
            and all(c != key for c, _ in calls.get(key, ()))
        )

    def declares(key: Key, name: str) -> bool:
        """A tool built at run time whose one signature surely has `name`, which its `**kwargs` then receives
        (a parameter of that name would take the value before `**kwargs`)."""
        func = by_key[key][1]
        return (
            func.tool is not None
            and func.value is None
            and bool(func.star)
            and name in func.declared
            and name not in func.params
        )

    def entry(caller: Key, pos: Pos) -> str | None:
        func = by_key[caller][1]
        found = func.keyed.get(pos)
        if found is None or not path_like(found[0]) or func.value is not None:
            return None
        name, param = found
        if func.tool is not None:
            return name if param == func.star and declares(caller, name) else None
        if not plain(caller) or param not in func.params:
            return None
        index = func.params.index(param)
        slots = {param} | ({f"#{index}"} if index < func.positional else set())
        ups = callers.get(caller, [])
        sure = all(declares(c, name) and slots & set(by_key[c][1].forwards.get(p, ())) for c, p in ups)
        return name if ups and sure else None

    members = {
        k for k, (_, f) in by_key.items() if f.tool is None and f.value is None and k in callers and plain(k)
    }
    while True:
        members = {k for k in members if all(entry(c, p) is not None or c in members for c, p in callers[k])}
        keys: dict[Key, set[str]] = {k: set() for k in members}
        changed = True
        while changed:
            changed = False
            for key in sorted(members):
                found = {n for c, p in callers[key] if (n := entry(c, p)) is not None}
                found |= {n for c, _ in callers[key] if c in members for n in keys[c]}
                if found != keys[key]:
                    keys[key], changed = found, True
        odd = {k for k in members if len(keys[k]) != 1}
        if not odd:
            return {k: keys[k].pop() for k in members}
        members -= odd
