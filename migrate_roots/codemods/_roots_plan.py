"""The package plan of the roots-call family: plain data in (the files' `Summary`), plain data out (a `Plan`
per file). Which tools reach a roots site (through helpers, across files and import roots), what parameter
each gets, which helpers receive the value, which sites are refused (MR106, MR109) and which test doubles
follow.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

from migrate_roots.codemods import (
    _bounds_refuse,
    _checked_params,
    _fastmcp_forms,
    _kept_on_way,
    _names,
    _roots_absorbed,
    _roots_by_name,
    _roots_handed_out,
    _roots_keyed,
    _roots_plan_doubles,
    _roots_plan_tools,
    _roots_wrappers,
    _shim_place,
)
from migrate_roots.codemods._param_types import path_param
from migrate_roots.codemods._roots_model import Func, Plan, Pos, Summary, import_root, reusable
from migrate_roots.codemods.program import reuse, typed
from migrate_roots.codemods.program.model import KEPT, ProgramModel

Key = tuple[str, str]  # (import root, module.qualname): a function's identity across the run


# A bare `import json` is the standard library's even beside a `json.py` (`_Functions._resolve_from`).
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


class _Functions:
    """Every summarized function by identity, with its calls resolved: a callee's dotted name is looked up in
    the caller's own import root first, else in the one root that defines it (none when several do). A
    function registered as a tool on a server object of another module (the model of its import root) is a
    tool here; a call made once per process (behind a global flag) is no edge: it cannot carry a per-call
    argument. The summaries stay as they are: a changed function is a copy."""

    def __init__(self, summaries: Mapping[str, Summary], models: Mapping[str, ProgramModel]) -> None:
        self.by_key: dict[Key, tuple[str, Func]] = {}
        self.sdk: set[Key] = set()  # functions of files that import the SDK
        roots_of: dict[str, list[str]] = {}
        self.modules: set[tuple[str, str]] = set()
        # (root, module) -> its top-level `from x import name` (name -> x.name) and star-imported modules:
        # a package's `__init__` re-exports what tools import (`from ..config import resolve_base_dir`).
        self.reexports: dict[tuple[str, str], tuple[dict[str, str], tuple[str, ...]]] = {}
        # (root, module) -> its module-level instances of package classes (`workspace = Workspace()`).
        self.instances: dict[tuple[str, str], dict[str, str]] = {}
        for path, summary in summaries.items():
            root = import_root(summary)
            self.modules.add((root, summary.module))
            if summary.facts is not None:
                self.reexports[(root, summary.module)] = (dict(summary.facts.imports), summary.facts.stars)
            if summary.instances:
                self.instances[(root, summary.module)] = summary.instances
            tools = models[root].tools
            for qualname, func in summary.functions.items():
                fq = f"{summary.module}.{qualname}"
                if func.tool is None and fq in tools:
                    func = replace(func, tool=tools[fq])
                if func.once:
                    func = replace(func, calls=[c for c in func.calls if c[1] not in func.once])
                self.by_key[(root, fq)] = (path, func)
                roots_of.setdefault(fq, []).append(root)
                if summary.sdk:
                    self.sdk.add((root, fq))
        self.roots_of = roots_of
        self.calls: dict[Key, list[tuple[Key, Pos]]] = {}
        for key, (path, func) in self.by_key.items():
            package = summaries[path].package
            resolved = ((self._resolve_from(key[0], package, callee), pos) for callee, pos in func.calls)
            self.calls[key] = [(k, pos) for k, pos in resolved if k is not None]

    def _resolve_from(self, root: str, package: str, fq: str) -> Key | None:
        """`resolve`, and for a bare import that names no module of the root (`from helper import x` in
        `pkg/scripts/run.py`), the sibling module of the caller's folder: where Python finds it when the file
        is run as a script (its folder is `sys.path[0]`), and nowhere else in the project."""
        found = self.resolve(root, fq)
        head = fq.partition(".")[0]
        if found is None and package and "." in fq and head not in _STDLIB:
            sibling = f"{package}.{head}"
            if (root, sibling) in self.modules:
                found = self.resolve(root, f"{package}.{fq}")
        return found

    def resolve(self, root: str, fq: str, depth: int = 0) -> Key | None:
        found = self._resolve(root, fq, depth)
        if found is None and fq.endswith(".fn"):
            # fastmcp 2's `await where.fn(ctx)`: the tool object's own function, called as any function is.
            tool = self._resolve(root, fq[:-3], depth + 1)
            found = tool if tool is not None and self.by_key[tool][1].tool is not None else None
        return found

    def _resolve(self, root: str, fq: str, depth: int) -> Key | None:
        if depth > 8:  # a cycle of re-exports
            return None
        if typed.RETURNED in fq:  # `pkg.mod.get_service().enrich`: the method of the class the getter gives
            getter, _, method = fq.partition(typed.RETURNED)
            key = self.resolve(root, getter, depth + 1)
            if key is None:  # `Workspace()` is no function of the package: a class, whose instance it gives
                return self.resolve(root, f"{getter}.{method}", depth + 1)
            gives = self.by_key[key][1].gives
            return self.resolve(key[0], f"{gives}.{method}", depth + 1) if gives else None
        if (root, fq) in self.by_key:
            return (root, fq)
        # A module of the caller's own root shadows its namesakes elsewhere (whose function this is not),
        # except for what it re-exports: the name it imported is followed to where it is defined.
        module = fq.rpartition(".")[0]
        while module:
            if (root, module) in self.modules:
                return self._reexported(root, module, fq[len(module) + 1 :], depth)
            module = module.rpartition(".")[0]
        roots = self.roots_of.get(fq, ())
        return (roots[0], fq) if len(roots) == 1 else None

    def _reexported(self, root: str, module: str, rest: str, depth: int) -> Key | None:
        """`module.rest` where `module` binds the first name of `rest` by an import (or a star import)."""
        imports, stars = self.reexports.get((root, module), ({}, ()))
        head, _, tail = rest.partition(".")
        if head in imports:
            return self.resolve(root, imports[head] + (f".{tail}" if tail else ""), depth + 1)
        instance = self.instances.get((root, module), {}).get(head)
        if instance is not None and tail:
            return self.resolve(root, f"{instance}.{tail}", depth + 1)
        found = {k for star in stars if (k := self.resolve(root, f"{star}.{rest}", depth + 1)) is not None}
        return found.pop() if len(found) == 1 else None

    def closure(self, start: set[Key], within: set[Key] | None = None) -> set[Key]:
        """`start` and what it calls, transitively (only through `within`, when given)."""
        seen, todo = set(start), list(start)
        while todo:
            for callee, _ in self.calls[todo.pop()]:
                if callee not in seen and (within is None or callee in within):
                    seen.add(callee)
                    todo.append(callee)
        return seen

    def refuse_sites(self, key: Key, refusals: Mapping[Pos, tuple[str, str]]) -> None:
        path, func = self.by_key[key]
        sites = [replace(s, refusal=refusals[s.pos]) if s.pos in refusals else s for s in func.sites]
        self.by_key[key] = (path, replace(func, sites=sites))


def _models(summaries: Mapping[str, Summary]) -> dict[str, ProgramModel]:
    """The program model of each import root: its server objects, tools and callers (codemods/program)."""
    by_root: dict[str, dict[str, Summary]] = {}
    for path, summary in summaries.items():
        by_root.setdefault(import_root(summary), {})[path] = summary
    return {root: ProgramModel.build(group) for root, group in by_root.items()}


def _overridden(summaries: Mapping[str, Summary], funcs: _Functions, first: set[Key]) -> dict[Key, str]:
    """Methods a subclass of the project overrides with one that would not take the path argument (sweep G,
    r05: `FixedWorkspace.get` beside `Workspace.get`, called through a value typed as the base: every call
    failed once the subclass was configured): why each is refused."""
    out: dict[Key, str] = {}
    for path, summary in summaries.items():
        root = import_root(summary)
        for override, base, line in summary.facts.overrides if summary.facts is not None else ():
            key = funcs.resolve(root, base)
            mine = funcs.resolve(root, override)
            if key is None or key not in first or (mine is not None and mine in first):
                continue
            out.setdefault(
                key,
                f"`{funcs.by_key[key][1].qualname}` is overridden by `{'.'.join(override.split('.')[-2:])}` "
                f"({os.path.basename(path)}:{line}), which a path argument passed down would reach without taking "
                "it: give both the parameter by hand",
            )
    return out


def _resolved_name(funcs: _Functions, root: str, fq: str) -> str | None:
    key = funcs.resolve(root, fq)
    return key[1] if key is not None else None


def plan_package(
    summaries: Mapping[str, Summary], settings: Any, deselected: frozenset[tuple[str, Pos]] = frozenset()
) -> dict[str, Plan]:
    """The package plan. A pure function of the summaries: it reads them and never writes to them (the engine
    plans the same summaries more than once: the local guess, then the group). `deselected`: (path, position)
    of the reads left as they are (`_roots_select`)."""
    models = _models(summaries)
    funcs = _Functions(summaries, models)
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
    for root in sorted({r for r, _ in by_key}):
        view = {fq: entry for (r, fq), entry in by_key.items() if r == root or len(funcs.roots_of[fq]) == 1}
        resolve = partial(_resolved_name, funcs, root)
        for (fq, pos), (why, sign) in _bounds_refuse.refuse(view, settings.allowlist_env, resolve).items():
            key = (root, fq) if (root, fq) in by_key else (funcs.roots_of[fq][0], fq)
            bounded.setdefault(key, {})[pos] = why
            signs[(key, pos)] = sign
    for key, refusals in bounded.items():
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
    for key, why in {**_roots_wrappers.clash_refusals(by_key, summaries, settings.target), **wrapped}.items():
        path, func = by_key[key]
        if func.refusal is None:
            by_key[key] = (path, replace(func, refusal=why))
    first = reaching(refused)
    stored = {name: where for s in summaries.values() for name, where in s.stored}
    overridden = _overridden(summaries, funcs, first)
    guarded = reuse.guarded_helpers(by_key, calls, first, path_like)
    for key in sorted(first):
        func = by_key[key][1]
        helper = func.tool is None and func.value is None and key not in guarded
        name = _names.choose(param, *reusable(func)) if helper else param
        if helper and name in func.params and not _threaded_before(key, funcs, first):
            refused[key] = ("MR106", f"helper already has a parameter named {name!r}; set param-name")
        elif helper and key in overridden:
            refused[key] = ("MR103", overridden[key])
        elif helper and key[1] in stored:
            refused[key] = (
                "MR103",
                f"`{func.qualname}` is also stored under another name or bound by `partial` ({stored[key[1]]}): "
                "the calls made through that value could not pass the path argument; give them the argument by hand",
            )
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
    extended = _bounds_refuse.same_module(by_key, bounded, signs, settings.allowlist_env)
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
    def shape_of(key: Key, seen: set[Key]) -> str:
        if key in seen:
            return "single"
        seen.add(key)
        _, func = by_key[key]
        if any(s.uses == "list" for s in func.sites if s.refusal is None):
            return "list"
        if any(shape_of(c, seen) == "list" for c, _ in calls[key] if c in reach):
            return "list"
        return "single"

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
            plan.tools[func.qualname] = (param, shape_of(key, set()), False)
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
            plan.tools[func.qualname] = (name, shape_of(key, set()), new)
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
                if refusal is not None:
                    plan.sites[site.pos] = refusal
                elif site.refusal is not None:
                    plan.sites[site.pos] = site.refusal
                    # A bound refused above and nothing else: its read can take the operator's bound in place,
                    # with no argument (MR110); MR109's marker stays the plan when that rule is off.
                    if site.refusal is bounded.get(key, {}).get(site.pos):
                        plan.bound[site.pos] = signs[(key, site.pos)]
                elif key not in reach:
                    plan.sites[site.pos] = _nested(models[root].why_unreached(key[1]), key[1], site.nested)
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
    _roots_plan_doubles.plan_doubles(summaries, plans)
    for path, plan in plans.items():
        summary = summaries[path]
        # A file that only passes the value on may widen an `except McpError` (codemods/_except_widen.py).
        if any(v is None for v in plan.sites.values()) or plan.calls or plan.bound:
            plan.shim_import, plan.shim_path = _shim_place.location(summary, settings)
    return plans


def kept(models: Mapping[str, ProgramModel]) -> Any:
    """Is a function's reason for no argument that it is kept as a value and called later (model.KEPT)?"""
    return lambda key: KEPT in models[key[0]].why_unreached(key[1])[1]


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


def _threaded_before(key: Key, funcs: _Functions, reach: set[Key]) -> bool:
    """The helper got its parameter from an earlier run: a rewritten site in it, or a callee that has one."""
    if any(s.done for s in funcs.by_key[key][1].sites):
        return True
    return any(c in reach and any(s.done for s in funcs.by_key[c][1].sites) for c, _ in funcs.calls[key])


def _path_like(settings: Any) -> Any:
    import re

    words = re.compile(r"(^|_)(root|roots|path|dir|directory|folder|workspace|repo|cwd|project)(_|$)")
    return lambda name: name in settings.path_params or bool(words.search(name))


def _tools_reaching(key: Key, funcs: _Functions, reach: set[Key]) -> set[Key]:
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
