"""Roots caches in the plumbing analysis (MR211): module globals that keep roots or their staleness, the
fetching functions whose guard can be unwrapped, what blocks a removal (to a fixed point), and the
registrations (MR201/MR202) whose handler invalidates a cache.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._edits import drop_keyword
from migrate_roots.codemods._plumbing_base import Registration, _PlumbingBase
from migrate_roots.codemods._plumbing_edits import _keep_global, _prepend_body, _remove, _unwrap_if
from migrate_roots.codemods._plumbing_queries import (
    _all_simple_lines,
    _assigned_names,
    _assigns_flag,
    _contains,
    _fetcher_use_ok,
    _first,
    _guard,
    _is_flag,
    _names,
    _top_statements,
)
from migrate_roots.codemods._plumbing_state import (
    _FS_CHANGES,
    _LOG_METHODS,
    _LOGGERS,
    _READ_ONLY_METHODS,
    _assigned_at_top,
    _attribute_base,
    _dotted,
    _first_party_import,
    _is_literal,
    _names_global,
    _sends_resource_changed,
)
from migrate_roots.codemods._read import read
from migrate_roots.codemods.program import flow
from migrate_roots.codemods.program.flow import last_name
from migrate_roots.model import Action, Severity


class _Caches(_PlumbingBase):
    """Caches and stale flags, and the registrations they keep (a step of `_Plumbing`)."""

    # ... caches ----------------------------------------------------------------------------------------
    def _handler_units(self) -> list[tuple[Registration, cst.CSTNode]]:
        units: list[tuple[Registration, cst.CSTNode]] = []
        for reg in self.registrations:
            if reg.handler is not None:
                units.append((reg, reg.handler))
            elif reg.branch is not None:
                units.append((reg, reg.branch))
        return units

    def _handler_deletable(self, reg: Registration) -> bool:
        if reg.refusal is not None or "MR201" not in self.enabled:
            return False
        if reg.handler is None or reg.handler_name is None:
            return True  # nothing to delete but the registration
        if reg.handler.decorators or not self.deletable_name(reg.handler_name):
            return False
        uses = self.live_uses(reg.handler_name, ignore=self.reg_nodes)
        return not uses and self.used_elsewhere(reg.handler_name) is None

    def _caches(self) -> None:
        state = self.state
        candidates: set[str] = set()
        writers: dict[str, set[cst.CSTNode]] = {}
        units = self._handler_units()
        for name in self.top_assigns:
            if name.startswith("__"):
                continue
            for node in self.assignments(name):
                func = self.state.enclosing_function(node)
                unit: cst.CSTNode | None = None
                for _reg, u in units:
                    if u is func or (isinstance(u, cst.If) and _contains(u, node, state)):
                        unit = u
                        break
                if unit is not None:
                    candidates.add(name)
                    writers.setdefault(name, set()).add(unit)
                elif (
                    func is not None
                    and func in self.funcs
                    and self.funcs[func].sites
                    and name in self.funcs[func].globals_declared
                ):
                    candidates.add(name)
                    writers.setdefault(name, set()).add(func)
        self.caches = candidates
        if not candidates:
            return
        # Fetching functions: one top-level `if` guard that tests only cache names, with the fetch inside.
        fetchers: dict[cst.FunctionDef, cst.If] = {}
        for func, info in self.funcs.items():
            if not info.sites or not (info.globals_declared & candidates):
                continue
            guard = _guard(func, candidates, info.sites, state)
            if guard is not None:
                fetchers[func] = guard
        removable = set(candidates) if "MR211" in self.enabled else set()
        flags = {n for n in candidates if _is_flag(n, self)}
        reasons: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for name in sorted(removable):
                why = self._cache_blocker(name, fetchers, removable, flags, units)
                if why is not None:
                    removable.discard(name)
                    reasons[name] = why
                    changed = True
            for func, guard in list(fetchers.items()):
                # The guard fills module state besides the caches (`_INDEX.extend(...)`): unwrapped, it would
                # grow or change on every call (a list that repeats itself, an index that mixes roots).
                other = self._other_state(guard, candidates)
                if other is not None and self.funcs[func].globals_declared & removable:
                    for name in self.funcs[func].globals_declared & removable:
                        removable.discard(name)
                        reasons[name] = (
                            f"its guard in `{state.qualname(func)}` also changes `{other}`, which would then "
                            "change on every call"
                        )
                        changed = True
                if self._mr105(func) and self.funcs[func].globals_declared & removable:
                    for name in self.funcs[func].globals_declared & removable:
                        removable.discard(name)
                        reasons[name] = (
                            f"MR105 marks the roots read in `{state.qualname(func)}` because of the cache's "
                            "`is None` test; remove the cache by hand, then run again"
                        )
                        changed = True
                if not self.allowed(guard, "MR211"):
                    for name in self.funcs[func].globals_declared & removable:
                        removable.discard(name)
                        reasons[name] = "ignored"
                        changed = True
                names = (self.funcs[func].globals_declared & candidates) | (_names(guard.test) & candidates)
                if not names <= removable:
                    for name in names & removable:
                        removable.discard(name)
                        reasons.setdefault(name, f"shares a guard with `{_first(names - removable)}`")
                        changed = True
            for reg, unit in units:
                if isinstance(unit, cst.FunctionDef):
                    written = self.funcs[unit].globals_declared & candidates
                else:
                    written = _assigned_names(unit) & candidates
                if written and not self._handler_deletable(reg) and written & removable:
                    for name in written & removable:
                        removable.discard(name)
                        reasons[name] = "the list_changed handler that invalidates it stays"
                        changed = True
        self.removable_caches = removable
        self.fetchers = {f: g for f, g in fetchers.items() if self.funcs[f].globals_declared & removable}
        self.flags = flags
        # Edits: module-level definitions, global statements, guards, flag assignments.
        for name in sorted(removable):
            for stmt in self.top_assigns.get(name, []):
                self.removed.add(stmt)
                state.edit(stmt, _remove)
        for func, guard in self.fetchers.items():
            self._rewrite_fetcher(func, guard, removable, flags)
        for name in sorted(candidates - removable):
            if "MR211" not in self.enabled:
                continue
            defined = self.top_assigns.get(name)
            if not defined or reasons.get(name) == "ignored":
                continue
            stmt = defined[0]
            state.mark(
                stmt,
                "MR211",
                f"`{name}` keeps roots (or their staleness) across requests, and cannot go yet: "
                f"{reasons.get(name, 'not removable')}; read the `{self.param}` argument per request instead",
                Severity.DEPRECATED,
            )

    def _other_state(self, guard: cst.If, caches: set[str]) -> str | None:
        """A module-level value other than `caches` that the guard's body changes: a method called on it
        (`_INDEX.extend(...)`, `INDEX_DIR.mkdir()`), an item or attribute assigned on it."""
        top = set(self.top_assigns) - caches
        changed = self._global_method_call(guard.body)
        if changed is not None and changed.partition(".")[0] in top:
            return changed.partition(".")[0]
        for node in _assigned_targets(guard.body):
            root = node
            while isinstance(root, (cst.Subscript, cst.Attribute)):
                root = root.value
            if root is not node and isinstance(root, cst.Name) and root.value in top:
                return root.value
        return None

    def _global_method_call(self, node: cst.CSTNode) -> str | None:
        """`G.method(...)` on a module-level value (an Event, a list, a dict), other than a logger."""
        state = self.state
        found: list[str] = []
        top_assigns = self.top_assigns
        outer = self

        class Calls(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                func = n.func
                # `shutil.rmtree(INDEX_DIR)`: a module-level path handed to what changes the disk (B's r05).
                callee = last_name(func)
                if not found and callee in _FS_CHANGES:
                    held = [a.value.value for a in n.args if isinstance(a.value, cst.Name)]
                    named = [h for h in held if h in top_assigns]
                    if named:
                        found.append(named[0])
                        return
                if found or not isinstance(func, cst.Attribute):
                    return
                head = _attribute_base(func)  # `state.binding.reset()` changes what module `state` holds
                if not isinstance(head, cst.Name):
                    return
                name = head.value
                scope = state.scope(head)
                if scope is None or name not in scope:
                    return  # unknown
                if not _names_global(scope, name):
                    # A local, unless a function-local import binds it (`from pkg.state import binding`,
                    # mcp-guide's handler): that names the package's object as surely as a module import.
                    if not _first_party_import(scope, name):
                        return
                elif name not in top_assigns and not _first_party_import(scope, name):
                    return
                if _sdk.expr_kind(state, head) in (_sdk.HL_SERVER, _sdk.LL_SERVER):
                    return  # the server object itself (get_context(), ...)
                if outer.made_by(name) & _LOGGERS:
                    return
                if func.attr.value in _READ_ONLY_METHODS:
                    return  # `_active_session.get()` reads
                if func.attr.value in _LOG_METHODS and "log" in name.lower():
                    return  # `logger = setup_logger()`, then `logger.warning(...)`
                found.append(f"{_dotted(func)}()")

        read(node, Calls())
        return found[0] if found else None

    def _fetches_through(self, func: cst.FunctionDef) -> bool:
        """`func` calls a module-level function of the file that reads roots (`state.roots = await
        _client_roots(ctx)`: session 15's sweep D, r04, which called it a function that does not fetch); asked
        of a function that writes the cache (`global`), so a tool that only reads it after the call stays a
        reader."""
        return any(
            name in self.top and self.top[name] in self.funcs and self.funcs[self.top[name]].sites
            for name in self.funcs[func].calls
        )

    def _mr105(self, func: cst.FunctionDef) -> bool:
        """Does MR101's plan refuse a roots read of `func` as MR105 (None versus empty)?"""
        plan = self.state.plan.get("MR101")
        sites = getattr(plan, "sites", None)
        if not isinstance(sites, dict) or "MR101" not in self.enabled:
            return False
        for call in self.funcs[func].sites:
            decision = sites.get(self.state.pos(call))
            if isinstance(decision, tuple) and decision and decision[0] == "MR105":
                return True
        return False

    def literal_default(self, name: str) -> cst.SimpleStatementLine | None:
        """`_root: Path | None = None`: the one module-level definition of `name`, when its value is a literal."""
        defined = self.top_assigns.get(name, [])
        if len(defined) != 1 or len(defined[0].body) != 1:
            return None
        small = defined[0].body[0]
        value = getattr(small, "value", None)
        if isinstance(small, cst.AnnAssign) and not isinstance(small.target, cst.Name):
            return None
        if isinstance(small, cst.Assign) and len(small.targets) != 1:
            return None
        return defined[0] if value is not None and _is_literal(value) else None

    def _cache_blocker(
        self,
        name: str,
        fetchers: dict[cst.FunctionDef, cst.If],
        removable: set[str],
        flags: set[str],
        units: list[tuple[Registration, cst.CSTNode]],
    ) -> str | None:
        if not self.deletable_name(name):
            return "used from another module or exported"
        if len(self.top_assigns.get(name, [])) != 1:
            return "defined more than once at module level"
        unit_nodes = [u for _, u in units]
        unwrapped: list[str] = []  # functions that fetch behind a guard not unwrapped
        keepers: list[str] = []  # functions that fetch on every call and keep what they read in it
        # Functions that read it and do not fetch: label -> "a tool" / "a function", and where each is defined.
        readers: dict[str, str] = {}
        first: dict[str, tuple[int, int]] = {}
        for node in [*self.accesses(name), *self.assignments(name)]:
            if any(
                node is s.body[0].targets[0].target if isinstance(s.body[0], cst.Assign) else False
                for s in self.top_assigns.get(name, [])
            ):
                continue
            if any(_contains(stmt, node, self.state) for stmt in self.top_assigns.get(name, [])):
                continue
            if any(_contains(u, node, self.state) for u in unit_nodes):
                continue
            func = self.state.enclosing_function(node)
            if func is None:
                return "used at module level"
            if func not in fetchers:
                label = self.state.qualname(func)
                first.setdefault(label, self.state.pos(func))
                if self.funcs[func].sites and not any(
                    flow.guarding_globals(c, self.state, frozenset(self.funcs[func].globals_declared))
                    for c in self.funcs[func].sites
                ):
                    keepers += [label] if label not in keepers else []  # `if uri != _last: _last = uri`
                elif self.funcs[func].sites or (
                    name in self.funcs[func].globals_declared and self._fetches_through(func)
                ):
                    # it fetches (itself, or through a helper of the module), not inside one `if` block
                    unwrapped += [label] if label not in unwrapped else []
                else:
                    readers.setdefault(label, "a tool" if self.funcs[func].tool else "a function")
                continue
            guard = fetchers[func]
            seeded = self.literal_default(name) is not None
            if not _fetcher_use_ok(func, guard, node, name, name in flags, self.state, seeded):
                return f"used in `{self.state.qualname(func)}` outside its fetch guard"
        if readers or unwrapped or keepers:  # named in source order
            ordered = {k: readers[k] for k in sorted(readers, key=first.__getitem__)}
            return _readers_text(
                ordered, sorted(unwrapped, key=first.__getitem__), sorted(keepers, key=first.__getitem__)
            )
        where = self.used_elsewhere(name)
        return f"named in `{where}`, which this run does not rewrite" if where else None

    def _rewrite_fetcher(
        self, func: cst.FunctionDef, guard: cst.If, removable: set[str], flags: set[str]
    ) -> None:
        state = self.state
        # `global` statements lose the removed names.
        for stmt in _top_statements(func):
            if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
                small = stmt.body[0]
                if isinstance(small, cst.Global):
                    keep = [n.name.value for n in small.names if n.name.value not in removable]
                    if not keep:
                        self.removed.add(stmt)
                        state.edit(stmt, _remove)
                    elif len(keep) != len(small.names):
                        state.edit(small, _keep_global(keep))
        # Flag assignments anywhere in the function go.
        for stmt in _all_simple_lines(func):
            if len(stmt.body) == 1 and _assigns_flag(stmt.body[0], flags & removable):
                self.removed.add(stmt)
                state.edit(stmt, _remove)
        # A cache not assigned at the top of the guard starts from its module value, as a local.
        seeds: list[cst.SimpleStatementLine] = []
        for name in sorted(self.funcs[func].globals_declared & removable - flags):
            seed = None if _assigned_at_top(guard, name) else self.literal_default(name)
            if seed is not None:
                seeds.append(seed.with_changes(leading_lines=[]))
        if seeds:
            state.edit(guard, _prepend_body(seeds))
        # The guard's body takes its place.
        state.edit(guard, _unwrap_if)
        self.removed.add(guard.test)
        name = state.qualname(func)
        state.report(
            guard,
            "MR211",
            f"roots cache removed: `{name}` now reads roots on every call (the per-request value); "
            "removed globals: "
            + ", ".join(f"`{n}`" for n in sorted(self.funcs[func].globals_declared & removable)),
            Severity.DEPRECATED,
            Action.REWRITTEN,
        )

    # ... registrations ---------------------------------------------------------------------------------
    def _record_registration(self, reg: Registration) -> None:
        state = self.state
        if "MR201" not in self.enabled or reg.ignored:
            self.handled.add(reg.node)
            return
        if reg.refusal is not None:
            state.mark(reg.node, "MR202", reg.refusal, Severity.DEPRECATED)
            self.handled.add(reg.node)
            return
        units: list[cst.CSTNode] = []
        if reg.handler is not None:
            units = [reg.handler]
        elif reg.branch is not None:
            units = [reg.branch]
        for unit in units:
            if isinstance(unit, cst.FunctionDef):
                written = self.funcs[unit].globals_declared & self.caches
            else:
                written = _assigned_names(unit) & self.caches
            blocked = written - self.removable_caches
            if blocked:
                reg.refusal = (
                    "the handler invalidates "
                    + ", ".join(f"`{n}`" for n in sorted(blocked))
                    + " which is still read (see MR211): remove both once the readers take the "
                    f"`{self.param}` argument"
                )
                state.mark(reg.node, "MR202", reg.refusal, Severity.DEPRECATED)
                self.handled.add(reg.node)
                return
        extra = ""
        if reg.remove is not None:
            self.removed.add(reg.remove)
            state.edit(reg.remove, _remove)
        elif reg.kwarg is not None:
            call, arg = reg.kwarg
            self.removed.add(arg)
            state.edit(call, drop_keyword(arg.keyword.value if arg.keyword else ""))
        self.handled.add(reg.node)
        if reg.handler is not None and reg.handler_name is not None:
            if reg.handler in self.removed:
                extra = f"; handler `{reg.handler_name}` removed (nothing else in the package uses it)"
            elif self._handler_deletable(reg):
                self.removed.add(reg.handler)
                state.edit(reg.handler, _remove)
                extra = f"; handler `{reg.handler_name}` removed (nothing else in the package uses it)"
                if self.funcs[reg.handler].resource_changed:
                    extra += ", with the resources/list_changed it sent"
            else:
                extra = f"; handler `{reg.handler_name}` kept (still used elsewhere)"
        elif reg.local_handler is not None:
            self.removed.add(reg.local_handler)
            state.edit(reg.local_handler, _remove)
            extra = f"; handler `{reg.local_handler.name.value}`, a local function that only logged, removed"
        elif reg.branch is not None and _sends_resource_changed(reg.branch):
            extra = ", with the resources/list_changed it sent"
        state.report(
            reg.node,
            "MR201",
            f"roots list_changed registration ({reg.spelling}) removed: the notification does not exist in "
            f"MCP 2026-07-28 (a tool that reads roots takes the `{self.param}` argument, or its marker says why "
            f"not){extra}",
            Severity.DEPRECATED,
            Action.REWRITTEN,
        )


def _readers_text(readers: dict[str, str], unwrapped: list[str], keepers: list[str]) -> str:
    """Every function that keeps the cache alive: the readers that do not fetch it first (the cache serves
    them), the fetchers whose guard migrate-roots does not unwrap, and those that fetch on every call and keep
    what they read (a last-seen value); three names at most each."""

    def names(labels: list[str]) -> str:
        shown = [f"`{label}`" for label in labels[:3]]
        more = f" and {len(labels) - 3} more" if len(labels) > 3 else ""
        return (", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]) + more

    parts = []
    if readers:
        kinds = set(readers.values())
        kind = kinds.pop() if len(kinds) == 1 else "a function"
        plural = {"a tool": "tools", "a function": "functions"}[kind]
        parts.append(
            f"read by {names(list(readers))}, {kind if len(readers) == 1 else plural} that "
            f"{'does' if len(readers) == 1 else 'do'} not fetch it"
        )
    if unwrapped:
        parts.append(
            f"{'also ' if readers else ''}read by {names(unwrapped)}, which "
            f"{'reads' if len(unwrapped) == 1 else 'read'} roots behind a guard migrate-roots does not unwrap "
            "(an early `return`, or more than one test)"
        )
    if keepers:
        parts.append(
            f"{'also ' if parts else ''}written by {names(list(keepers))}, which "
            f"{'reads' if len(keepers) == 1 else 'read'} roots on every call and "
            f"{'keeps' if len(keepers) == 1 else 'keep'} what {'it' if len(keepers) == 1 else 'they'} read there "
            "for the next request"
        )
    return "; ".join(parts)


def _assigned_targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The targets assigned in `node` (`x[k] = v`, `x.a = v`, `x[k] += 1`)."""
    found: list[cst.BaseExpression] = []

    class Targets(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            found.append(n.target)

        def visit_AugAssign(self, n: cst.AugAssign) -> None:
            found.append(n.target)

    read(node, Targets())
    return found
