"""The package plan of the roots-call family: plain data in (the files' `Summary`), plain data out (a `Plan`
per file). Which tools reach a roots site (through helpers, across files and import roots), what parameter
each gets, which helpers receive the value, which sites are refused (MR106, MR109) and which test doubles
follow.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from migrate_roots.codemods import (
    _bounds_module,
    _bounds_refuse,
    _checked_params,
    _fastmcp_forms,
    _kept_on_way,
    _names,
    _roots_absorbed,
    _roots_by_name,
    _roots_cached,
    _roots_handed_out,
    _roots_keyed,
    _roots_plan_called,
    _roots_plan_doubles,
    _roots_plan_tools,
    _roots_run_by_name,
    _roots_wrappers,
    _shim_place,
)
from migrate_roots.codemods._bounds_classes import Classes
from migrate_roots.codemods._param_types import path_param
from migrate_roots.codemods._roots_functions import (
    Functions,
    Key,
    overridden_methods,
    package_models,
    resolved_name,
)
from migrate_roots.codemods._roots_model import Func, Plan, Pos, Summary, import_root, reusable
from migrate_roots.codemods._sdk_alias import module_file
from migrate_roots.codemods.program import reuse
from migrate_roots.codemods.program.model import KEPT, ProgramModel

# The low-level family's refusals of a schema edit (`_lowlevel_model.DYNAMIC`, `UNKNOWN`).
_SCHEMA_REFUSALS = frozenset({"MR152", "MR153"})


def plan_package(
    summaries: Mapping[str, Summary], settings: Any, deselected: frozenset[tuple[str, Pos]] = frozenset()
) -> dict[str, Plan]:
    """The package plan. A pure function of the summaries: it reads them and never writes to them (the engine
    plans the same summaries more than once: the local guess, then the group). `deselected`: (path, position)
    of the reads left as they are (`_roots_select`)."""
    models = package_models(summaries)
    funcs = Functions(summaries, models)
    by_key, calls = funcs.by_key, funcs.calls
    refused: dict[Key, tuple[str, str]] = {}  # refusals decided here (the summaries' own stay as they are)
    param = settings.param_name
    for key, (path, func) in by_key.items() if deselected else ():
        off = {s.pos: ("MR101", "not selected") for s in func.sites if (path, s.pos) in deselected}
        if off:
            funcs.refuse_sites(key, off)

    # Roots that bound what a tool may touch must not become the caller's choice: marked (MR109). _bounds_refuse reads
    # dotted names: each import root with its own functions and the ones only one other root defines (resolve).
    bounded: dict[Key, dict[Pos, tuple[str, str]]] = {}
    signs: dict[tuple[Key, Pos], str] = {}  # the sign of each bound, for the operator's-bound rewrite (MR110)
    unread: dict[Key, dict[Pos, tuple[str, str]]] = {}
    parsed = frozenset(summary.module for summary in summaries.values())
    for root in sorted({r for r, _ in by_key}):
        view = {fq: entry for (r, fq), entry in by_key.items() if r == root or len(funcs.roots_of[fq]) == 1}
        resolve = partial(resolved_name, funcs, root)
        classes = Classes(funcs.bases, partial(module_file, root))  # a class's file, wherever the run read it
        bound_reads = _bounds_refuse.refuse(view, settings.allowlist_env, resolve, parsed, classes)
        for (fq, pos), (why, sign) in bound_reads.items():
            key = (root, fq) if (root, fq) in by_key else (funcs.roots_of[fq][0], fq)
            # No sign: roots handed to a module the run did not read, a bound or not (MR109, no MR110).
            (bounded if sign else unread).setdefault(key, {})[pos] = why
            signs[(key, pos)] = sign
    for key, refusals in (*bounded.items(), *unread.items()):
        funcs.refuse_sites(key, refusals)
    # Roots whose URI goes, here or in another module, to a function that hashes it into a key (_roots_keyed).
    for key, refusals in _roots_keyed.hashed_refusals(by_key, calls).items():
        funcs.refuse_sites(key, refusals)
    # ... or to a function that chooses among them by name (_roots_by_name).
    for key, refusals in _roots_by_name.named_refusals(by_key, calls).items():
        funcs.refuse_sites(key, refusals)

    def good_sites(func: Func) -> bool:
        return func.refusal is None and any(s.refusal is None for s in func.sites)

    # Functions that reach a rewritable site, through calls, to a fixed point (not through `excluded`); of
    # those, the ones a tool reaches: only they can receive a path argument.
    def reaching(excluded: Mapping[Key, Any]) -> set[Key]:
        reach = {k for k, (_, f) in by_key.items() if good_sites(f) and k not in excluded}
        changed = True
        while changed:
            changed = False
            for key, (_, func) in by_key.items():
                if key in reach or key in excluded or func.refusal is not None:
                    continue
                if any(c in reach for c, _ in calls[key]):
                    reach.add(key)
                    changed = True
        tools = {key for key in reach if by_key[key][1].tool is not None}
        return funcs.closure(tools, reach)

    path_like = _path_like(settings)
    # A helper on the way that already has a parameter of the configured name is refused (MR106), and nothing
    # reaches roots through it: its callers must not pass the keyword a second time. A helper whose own path
    # parameter the tools already pass (codemods/program/reuse.py) takes no new one.
    # Functions behind a project decorator whose wrapper would not carry the argument through (_roots_wrappers):
    # refused as a whole, as a tool's own refusal is (a refused tool's call of a threaded helper is said).
    wrapped = _roots_wrappers.refusals(by_key, summaries, set(by_key), funcs.resolve)
    wrapped.update(_fastmcp_forms.refusals(by_key, summaries, funcs.resolve))  # `from_tool`'s transform_fn
    wrapped.update(_roots_plan_called.refusals(by_key, calls, param))  # a dispatched function called directly
    for key, why in {**_roots_wrappers.clash_refusals(by_key, summaries, settings.target), **wrapped}.items():
        path, func = by_key[key]
        if func.refusal is None:
            by_key[key] = (path, replace(func, refusal=why))
    first = reaching(refused)
    stored = {name: where for s in summaries.values() for name, where in s.stored}
    rebound = {name: where for s in summaries.values() for name, where in s.rebound}
    overridden = overridden_methods(summaries, funcs, first)
    guarded = reuse.guarded_helpers(by_key, calls, first, path_like)
    for key in sorted(first):
        func = by_key[key][1]
        helper = func.tool is None and func.value is None and key not in guarded
        name = _names.choose(param, *reusable(func)) if helper else param
        if helper and name in func.params and not _threaded_before(key, funcs, first):
            refused[key] = ("MR106", f"helper already has a parameter named {name!r}; set param-name")
        elif (helper or func.tool is not None) and key in overridden:
            # ... a tool too: a method registered as `self.info` is the subclass's on its instances, and that
            # one takes no argument (sweep E r05 of session 20)
            refused[key] = ("MR103", overridden[key])
        elif helper and key[1] in rebound:
            refused[key] = (
                "MR103",
                f"`{func.qualname}` is bound again ({rebound[key[1]]}): which function its calls "
                "reach is decided at run time, and that one may not take the path argument; give it the argument "
                "by hand",
            )
        elif helper and key[1] in stored:
            refused[key] = (
                "MR103",
                f"`{func.qualname}` is also stored under another name or bound by `partial` ({stored[key[1]]}): "
                "the calls made through that value could not pass the path argument; give them the argument by hand",
            )
    # A helper behind a cache keyed by its arguments cannot take a list (unhashable): refused (MR103).
    cached = {
        k for k in first if by_key[k][1].tool is None and by_key[k][1].value is None and k not in guarded
    }
    for key, why in _roots_cached.refusals(
        by_key, calls, cached, first, lambda k: _tools_reaching(k, funcs, first)
    ).items():
        refused.setdefault(key, why)
    # A path argument checked on the way that the roots skip: a new argument would pass it by (MR109).
    checked = _checked_params.refuse(by_key, calls, first, guarded, path_like, param)
    # Roots handed, with a path argument, to code the plan does not read: the nearer reason (MR109).
    ours = {summary.module.partition(".")[0] for summary in summaries.values()}

    def runner(key: Key, fq: str) -> bool:
        """A function of the caller's module that runs a function value it is given (`_run_sync(fn, *args)`)."""
        func = by_key[key][1]
        module = key[1][: -len(func.qualname) - 1]
        return fq.rpartition(".")[0] == module and fq.rpartition(".")[2] in func.runners

    def unseen(key: Key, fq: str) -> bool:
        return (fq.partition(".")[0] not in ours and funcs.resolve(key[0], fq) is None) or runner(key, fq)

    handed_out = _roots_handed_out.refuse(by_key, calls, first, guarded, path_like, unseen, runner)
    for key, refusals in handed_out.items():
        checked[key] = {**checked.get(key, {}), **refusals}
    # Roots kept on an attribute by a caller on the way would keep one caller's argument too (MR212).
    for key, refusals in _kept_on_way.refuse(by_key, calls, first, settings.allowlist_env).items():
        checked[key] = {**refusals, **checked.get(key, {})}  # MR109's reason first where both refuse
    for key, refusals in checked.items():
        funcs.refuse_sites(key, refusals)
    # The other open reads of a module whose roots bound a path take that bound (MR110) too.
    extended = _bounds_module.same_module(by_key, bounded, signs, settings.allowlist_env)
    for key, found in extended.items():
        for pos, (why, sign) in found.items():
            bounded.setdefault(key, {})[pos] = why
            signs[(key, pos)] = sign
        funcs.refuse_sites(key, {pos: why for pos, (why, _) in found.items()})
    if refused or checked or extended:
        reach = reaching(refused)
        guarded = reuse.guarded_helpers(by_key, calls, reach, path_like)
    else:
        reach = first
    # Helpers reached only without the tools' explicit argument, read by key (`args.pop("project_dir")`), from
    # tools built at run time too: their reads pass None; the key is the argument (codemods/program/keyed.py).
    values = frozenset().union(*(s.values for s in summaries.values()))
    behind = _roots_plan_tools.behind_key(by_key, calls, reach, path_like, good_sites, values)
    # Reads whose every failure is absorbed, in a server whose call handler takes its own path key out of the
    # arguments: they pass None and name that key (codemods/_roots_absorbed.py).
    absorbed = _roots_absorbed.plan_reads(by_key, summaries, reach, path_like, kept(models))
    behind.update(absorbed)
    reach |= set(behind)
    # What code of a module that imports the SDK reaches: a roots call on an untyped value outside such code
    # (moto's AWS `list_roots()`) is not an MCP call.
    mcp_reached = funcs.closure(funcs.sdk)

    # Shapes: a tool takes a list when any site it reaches uses more than the first root.
    def shape_of(key: Key) -> str:
        return _roots_cached.shape_of(by_key, calls, reach, key)

    plans: dict[str, Plan] = {path: Plan() for path, s in summaries.items() if _has_sites(s)}
    unset = _roots_plan_tools.unset_tools(by_key, calls, reach, guarded, path_like, param)
    # Helpers only such tools (or such helpers) call: they read roots only without the tools' argument, so
    # they take no parameter, and their reads pass None (the shim's error names the tools' argument).
    idle = _roots_plan_tools.idle_helpers(by_key, calls, reach, guarded, unset) | set(behind)
    # A helper's parameter: free in its body (callers pass it by this keyword).
    helper_names = {
        key: _names.choose(param, *reusable(by_key[key][1]))
        for key in reach
        if by_key[key][1].tool is None
        and by_key[key][1].value is None
        and key not in guarded
        and key not in idle
    }
    # Tools that share a helper take one name (its error names it): a `root` local in one of them makes all of
    # them take `root_path`, not that one alone.
    shared_taken: dict[Key, frozenset[str]] = {}
    for key in sorted(reach):
        if by_key[key][1].tool is None and by_key[key][1].value is None:
            sharing = _tools_reaching(key, funcs, reach)
            taken = frozenset().union(*(by_key[t][1].taken for t in sharing))
            for t in sharing:
                shared_taken[t] = shared_taken.get(t, frozenset()) | taken
    for key in sorted(reach):
        path, func = by_key[key]
        plan = plans.setdefault(path, Plan())
        if func.value is not None:  # a low-level tool: the handler reads its arguments
            plan.tools[func.qualname] = (param, shape_of(key), False)
            plan.values[func.qualname] = func.value
        elif func.tool is not None:
            # Not one no caller can give (`exclude_args`) or no path can be: the tool then takes its own.
            existing = {
                s.existing
                for s in func.sites
                if s.refusal is None and s.existing and s.existing not in func.not_paths
            }
            calls_reach = any(c in reach for c, _ in calls[key])
            # An existing path parameter the tool passes to a helper that reads roots only when it is unset:
            # it is already the argument (codemods/program/reuse.py).
            handed = {
                n
                for c, pos in calls[key]
                if c in guarded
                for n in [reuse.passed_at(func, pos, by_key[c][1], guarded[c].param)]
                if n is not None and path_param(func, n, path_like)
            }
            if len(existing) == 1 and not calls_reach:
                name, new = existing.pop(), False
            elif key in unset:
                name, new = unset[key], False
            elif len(handed) == 1 and not existing and param not in func.params:
                name, new = handed.pop(), False
            else:  # the first name the body leaves free (a loop's `root` would overwrite the argument)
                taken, params = reusable(func)
                name = _names.choose(param, taken | shared_taken.get(key, frozenset()), params)
                new = name not in func.params
            plan.tools[func.qualname] = (name, shape_of(key), new)
            plan.values[func.qualname] = name
        elif key in guarded:
            plan.values[func.qualname] = guarded[key].value
        elif key in idle:
            plan.values[func.qualname] = "None"
        else:
            name = helper_names[key]
            if name not in func.params:
                plan.threaded[func.qualname] = name
            plan.values[func.qualname] = name
        for callee, pos in calls[key]:
            if (
                callee in reach
                and by_key[callee][1].tool is None
                and callee not in guarded
                and callee not in idle
            ):
                # Behind the tool's own guard its argument is unset (or falsy, `""`): the read gets None.
                plan.calls[pos] = "None" if key in unset else plan.values[func.qualname]
                plan.callees[pos] = callee[1].rpartition(".")[2]
                if helper_names.get(callee, param) != param:
                    plan.keywords[pos] = helper_names[callee]

    _roots_plan_tools.tool_to_tool(by_key, calls, reach, plans, param)

    # The argument a helper's error message names: the tools' own, when all the tools reaching it agree.
    for key in sorted(reach):
        path, func = by_key[key]
        if (
            func.tool is None
            and func.value is None
            and (func.qualname in plans[path].threaded or key in guarded or key in idle)
        ):
            names = {
                plans[by_key[t][0]].tools[by_key[t][1].qualname][0]
                for t in _tools_reaching(key, funcs, reach)
            }
            plans[path].names[func.qualname] = names.pop() if len(names) == 1 else param
            tools = _tools_reaching(key, funcs, reach)
            shapes = {
                shape if new or by_key[t][1].aliased.get(name) == shape else "any"
                for t in tools
                for name, shape, new in (plans[by_key[t][0]].tools[by_key[t][1].qualname],)
            }
            plans[path].helper_shapes[func.qualname] = frozenset(shapes or {"any"})
    for key, name in behind.items():
        plans[by_key[key][0]].names[by_key[key][1].qualname] = name
        if key in absorbed:
            plans[by_key[key][0]].absorbed.add(by_key[key][1].qualname)

    # Sites: rewrite where the enclosing function carries the value; otherwise say why not. An untyped
    # `x.session.list_roots()` that no MCP code reaches is no MCP call, unless its own package imports the SDK
    # elsewhere (a call through a value the plan cannot follow, `get_service().enrich(ctx=ctx)`): reported.
    mcp_packages = {_package_of(s) for s in summaries.values() if s.sdk}
    callers_of: dict[Key, set[Key]] = {}
    for caller, edges in calls.items():
        for callee, _ in edges:
            callers_of.setdefault(callee, set()).add(caller)
    for path, summary in summaries.items():
        root = import_root(summary)
        for qualname in summary.functions:
            key = (root, f"{summary.module}.{qualname}")
            func = by_key[key][1]  # as the plan sees it (a tool the model found, a bound refused above)
            for site in func.sites:
                if (
                    site.maybe
                    and key not in reach
                    and key not in mcp_reached
                    and _package_of(summary) not in mcp_packages
                ):
                    continue
                plan = plans.setdefault(path, Plan())
                refusal = func.refusal or refused.get(key)
                if refusal is not None and refusal[0] in _SCHEMA_REFUSALS and site.refusal is not None:
                    # A low-level tool's schema that cannot be edited (`schema = {...}` held in a local): the
                    # site's own reason is the nearer one (a raw or input request is never rewritten, schema or
                    # not), and a bound's read takes the operator's bound with no schema edit (sweep I, r13).
                    refusal = None
                if refusal is not None:
                    plan.sites[site.pos] = refusal
                elif site.refusal is not None:
                    plan.sites[site.pos] = site.refusal
                    # A bound refused above and nothing else: its read can take the operator's bound in place,
                    # with no argument (MR110); MR109's marker stays the plan when that rule is off.
                    if site.refusal is bounded.get(key, {}).get(site.pos):
                        plan.bound[site.pos] = signs[(key, site.pos)]
                elif key not in reach:
                    held = _held_by_refused(key, refused, callers_of, by_key)
                    why = held or _nested(models[root].why_unreached(key[1]), key[1], site.nested)
                    plan.sites[site.pos] = why
                else:
                    plan.sites[site.pos] = None
            # `hasattr(session, "list_roots")` beside a read is its guard (rewritten with it, `_capability_guard`,
            # or marked with its reason); alone, a method taken by name that the plan does not follow.
            if func.strings and (summary.sdk or _package_of(summary) in mcp_packages):
                decided = [plans[path].sites.get(site.pos) for site in func.sites if not site.done]
                named = next(
                    (d for d in decided if d is not None),
                    None if func.sites or func.in_place else _NAMED_ONLY,
                )
                for pos in func.strings:
                    if named is not None:
                        plans.setdefault(path, Plan()).strings[pos] = named
    _roots_plan_tools.drop_idle(by_key, reach, plans)
    _roots_plan_tools.refused_callers(by_key, calls, reach, plans)
    _roots_plan_tools.handed_threaded(by_key, reach, plans, lambda key, fq: funcs.resolve(key[0], fq))
    _roots_plan_tools.untyped_calls(by_key, calls, reach, plans)
    _roots_plan_doubles.plan_doubles(summaries, plans)
    _roots_run_by_name.plan(summaries, by_key, plans, funcs.resolve)
    for path, plan in plans.items():
        summary = summaries[path]
        # A file that only passes the value on may widen an `except McpError` (codemods/_except_widen.py).
        if any(v is None for v in plan.sites.values()) or plan.calls or plan.bound:
            plan.shim_import, plan.shim_path = _shim_place.location(summary, settings)
    return plans


def kept(models: Mapping[str, ProgramModel]) -> Any:
    """Is a function's reason for no argument that it is kept as a value and called later (model.KEPT)?"""
    return lambda key: KEPT in models[key[0]].why_unreached(key[1])[1]


def _held_by_refused(
    key: Key,
    refused: Mapping[Key, tuple[str, str]],
    callers_of: Mapping[Key, set[Key]],
    by_key: Mapping[Key, tuple[str, Func]],
) -> tuple[str, str] | None:
    """A read reached only through a tool the plan refused (its override, sweep E r05 of session 20): that
    tool's reason, said of the read, not "no tool reaches it"."""
    seen, todo = {key}, [key]
    while todo:
        for caller in sorted(callers_of.get(todo.pop(), ())):
            if caller in seen:
                continue
            seen.add(caller)
            path, func = by_key[caller]
            if caller in refused and func.tool is not None:
                name = key[1].rpartition(".")[2]
                where = f"{os.path.basename(path)}:{func.pos[0]}"
                return refused[caller][0], (
                    f"roots read in `{name}`, reached from the tool `{func.qualname}` ({where}), which is marked: "
                    f"{refused[caller][1]}"
                )
            todo.append(caller)
    return None


def _nested(reason: tuple[str, str], fq: str, nested: str | None) -> tuple[str, str]:
    """A reason about the function owning a nested function's read, said of the nested one, where it is."""
    owner = fq.rpartition(".")[2]
    said = f"roots read in `{owner}`"
    if nested is None or not reason[1].startswith(said):
        return reason
    return reason[0], f"roots read in `{nested}`, nested in `{owner}`" + reason[1][len(said) :]


_NAMED_ONLY = (
    "MR103",
    'the roots method named in a string ("list_roots" for `getattr`, `hasattr`, `methodcaller` or `__getattribute__`): migrate-roots does not '
    "follow a method taken by name; review by hand where its result goes",
)


def _package_of(summary: Summary) -> tuple[str, str]:
    """(import root, top-level package); a loose module's package is its folder."""
    return import_root(summary), summary.module.split(".")[0] if summary.package else ""


def _threaded_before(key: Key, funcs: Functions, reach: set[Key]) -> bool:
    """The helper got its parameter from an earlier run: a rewritten site in it, or a callee that has one."""
    if any(s.done for s in funcs.by_key[key][1].sites):
        return True
    return any(c in reach and any(s.done for s in funcs.by_key[c][1].sites) for c, _ in funcs.calls[key])


def _path_like(settings: Any) -> Any:
    import re

    words = re.compile(r"(^|_)(root|roots|path|dir|directory|folder|workspace|repo|cwd|project)(_|$)")
    return lambda name: name in settings.path_params or bool(words.search(name))


def _tools_reaching(key: Key, funcs: Functions, reach: set[Key]) -> set[Key]:
    callers: dict[Key, set[Key]] = {}
    for caller in reach:
        for callee, _ in funcs.calls[caller]:
            callers.setdefault(callee, set()).add(caller)
    seen, todo, tools = {key}, [key], set()
    while todo:
        for caller in callers.get(todo.pop(), ()):
            if caller in seen:
                continue
            seen.add(caller)
            if funcs.by_key[caller][1].tool is not None:
                tools.add(caller)
            else:
                todo.append(caller)
    return {t for t in tools if funcs.by_key[t][1].value is None}


def _has_sites(summary: Summary) -> bool:
    return any(f.sites for f in summary.functions.values())
