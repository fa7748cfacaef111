"""The functions of a package plan by identity (`Functions`), with their calls resolved across modules and
import roots (a package's re-exports, a getter's return class, a script's sibling import), and the facts the
plan asks of them before it computes its reach (overridden methods)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import replace

from migrate_roots.codemods._roots_model import Func, Pos, Summary, import_root
from migrate_roots.codemods.program import typed
from migrate_roots.codemods.program.model import ProgramModel

Key = tuple[str, str]  # (import root, module.qualname): a function's identity across the run


# A bare `import json` is the standard library's even beside a `json.py` (`Functions._resolve_from`).
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ()))


class Functions:
    """Every summarized function by identity, with its calls resolved: a callee's dotted name is looked up in
    the caller's own import root first, else in the one root that defines it (none when several do). A
    function registered as a tool on a server object of another module (the model of its import root) is a
    tool here; a call made once per process (behind a global flag) is no edge: it cannot carry a per-call
    argument. The summaries stay as they are: a changed function is a copy."""

    def __init__(self, summaries: Mapping[str, Summary], models: Mapping[str, ProgramModel]) -> None:
        self.by_key: dict[Key, tuple[str, Func]] = {}
        self.memo: dict[Key, Key | None] = {}  # `resolve`'s answers, by (root, name)
        self.sdk: set[Key] = set()  # functions of files that import the SDK
        roots_of: dict[str, list[str]] = {}
        self.modules: set[tuple[str, str]] = set()
        # (root, module) -> its top-level `from x import name` (name -> x.name) and star-imported modules:
        # a package's `__init__` re-exports what tools import (`from ..config import resolve_base_dir`).
        self.reexports: dict[tuple[str, str], tuple[dict[str, str], tuple[str, ...]]] = {}
        # (root, module) -> its module-level instances of package classes (`workspace = Workspace()`).
        self.instances: dict[tuple[str, str], dict[str, str]] = {}
        # A class of the project -> its bases of the project, in order (a method it inherits is theirs).
        self.bases: dict[str, tuple[str, ...]] = {}
        self.own: dict[str, set[str]] = {}  # ... and the methods it defines itself (ModuleFacts.overrides)
        self.several: set[str] = set()  # ... and those with more bases than one (ModuleFacts.several)
        for path, summary in summaries.items():
            root = import_root(summary)
            self.modules.add((root, summary.module))
            if summary.facts is not None:
                self.reexports[(root, summary.module)] = (dict(summary.facts.imports), summary.facts.stars)
                self.bases.update(summary.facts.bases)
                self.several |= summary.facts.several
                for override, _, _ in summary.facts.overrides:
                    cls, _, method = override.rpartition(".")
                    self.own.setdefault(cls, set()).add(method)
            if summary.instances:
                self.instances[(root, summary.module)] = summary.instances
            tools, hidden = models[root].tools, models[root].hidden
            for qualname, func in summary.functions.items():
                fq = f"{summary.module}.{qualname}"
                if func.tool is None and fq in tools:
                    func = replace(func, tool=tools[fq])
                if fq in hidden:  # `exclude_args` of a registration in another module: no caller gives them
                    unfit = frozenset(func.params) if "*" in hidden[fq] else hidden[fq]
                    func = replace(func, not_paths=func.not_paths | unfit, fixed=func.fixed | unfit)
                if func.once:
                    func = replace(func, calls=[c for c in func.calls if c[1] not in func.once])
                self.by_key[(root, fq)] = (path, func)
                roots_of.setdefault(fq, []).append(root)
                if summary.sdk:
                    self.sdk.add((root, fq))
        self.roots_of = roots_of
        # A tool registered by a name a package re-exports (`from pkg import where; mcp.tool(where)`, `where`
        # defined in `pkg.tools`: sweep N, r10) is the function that name resolves to.
        for root, model in models.items():
            for fq, name in model.tools.items():
                key = self.resolve(root, fq) if (root, fq) not in self.by_key else None
                if key is not None and self.by_key[key][1].tool is None:
                    path, func = self.by_key[key]
                    func = replace(func, tool=name)
                    if fq in model.hidden:  # ... with the `exclude_args` given there
                        unfit = frozenset(func.params) if "*" in model.hidden[fq] else model.hidden[fq]
                        func = replace(func, not_paths=func.not_paths | unfit, fixed=func.fixed | unfit)
                    self.by_key[key] = (path, func)
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
        # Once per name: star imports fan out at every level, and a package whose modules star-import each
        # other took minutes (dedalus-mcp-python, once stage two read more of it). A name being resolved is
        # a cycle when met again: no answer.
        memo = self.memo
        if (root, fq) in memo:
            return memo[(root, fq)]
        memo[(root, fq)] = None
        found = self._resolve(root, fq, depth)
        if found is None and fq.endswith(".fn"):
            # fastmcp 2's `await where.fn(ctx)`: the tool object's own function, called as any function is.
            tool = self._resolve(root, fq[:-3], depth + 1)
            found = tool if tool is not None and self.by_key[tool][1].tool is not None else None
        memo[(root, fq)] = found
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
        cls, _, method = fq.rpartition(".")
        # Single inheritance only: beside a mixin, `self.m()` in the base may meet the mixin's `m` (sweep I r01).
        plain = cls not in self.several and method not in self.own.get(cls, ())
        inherited = self.bases.get(cls, ()) if plain else ()
        for base in inherited:  # a method the class inherits (sweep E r03 of session 20)
            found = self.resolve(root, f"{base}.{method}", depth + 1)
            if found is not None:
                return found
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
        # Only a star module the group holds: an unread one would be climbed to its package and grow the name
        # at every level (`types.messages.lifecycle.shared....`: minutes on dedalus-mcp-python).
        found = {
            k
            for star in stars
            if (root, star) in self.modules
            and (k := self.resolve(root, f"{star}.{rest}", depth + 1)) is not None
        }
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


def package_models(summaries: Mapping[str, Summary]) -> dict[str, ProgramModel]:
    """The program model of each import root: its server objects, tools and callers (codemods/program)."""
    by_root: dict[str, dict[str, Summary]] = {}
    for path, summary in summaries.items():
        by_root.setdefault(import_root(summary), {})[path] = summary
    return {root: ProgramModel.build(group) for root, group in by_root.items()}


def overridden_methods(summaries: Mapping[str, Summary], funcs: Functions, first: set[Key]) -> dict[Key, str]:
    """Methods a subclass of the project overrides with one that would not take the path argument (sweep G,
    r05: `FixedWorkspace.get` beside `Workspace.get`, called through a value typed as the base: every call
    failed once the subclass was configured): why each is refused."""
    out: dict[Key, str] = {}
    # A method of a class that a class of several bases lists after another (`PinnedIndexer(PinnedWorkspace,
    # Indexer)`): on its instances `self.workspace()` may meet the earlier base's method, which would not take
    # the argument (sweep I r01 of session 21). Whether that base defines it is not known here: said.
    later: dict[str, tuple[str, str]] = {}
    for cls, bases in sorted(funcs.bases.items()):
        if cls in funcs.several:
            for index, base in enumerate(bases[1:], 1):
                later.setdefault(base, (cls, bases[index - 1]))
    for method in sorted(first):
        owner = method[1].rpartition(".")[0]
        if owner in later and funcs.by_key[method][1].tool is None:
            cls, before = later[owner]
            out.setdefault(
                method,
                f"`{funcs.by_key[method][1].qualname}` is a method of `{owner.rpartition('.')[2]}`, which "
                f"`{cls.rpartition('.')[2]}` lists after `{before.rpartition('.')[2]}`: on its instances a method of "
                "that name there, if it defines one, is met first and would not take a path argument passed down; "
                "give both the parameter by hand",
            )
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


def resolved_name(funcs: Functions, root: str, fq: str) -> str | None:
    key = funcs.resolve(root, fq)
    return key[1] if key is not None else None
