"""The roots-plumbing analysis shared by list_changed.py (MR201-MR202) and roots_cache.py (MR211-MR218): one
pass over a file (`analyse`) decides every piece of roots plumbing that goes and every piece that is marked,
so that removals that depend on each other (a handler and the stale flag it sets) are decided together.

The steps live beside it: `_plumbing_collect.py` (the walk that finds registrations, handlers and reads),
`_plumbing_caches.py` (caches and stale flags, to a fixed point, and the registrations they keep),
`_plumbing_fetches.py` (eager fetches, tasks, dead helpers, discarded reads), `_plumbing_leftovers.py`
(leftover references, wording, imports, spacing), `_plumbing_queries.py`, `_plumbing_state.py` and `_plumbing_edits.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods._plumbing_base import ANALYSIS, CANDIDATES, Registration
from migrate_roots.codemods._plumbing_caches import _Caches
from migrate_roots.codemods._plumbing_collect import _Collector
from migrate_roots.codemods._plumbing_fetches import _Fetches
from migrate_roots.codemods._plumbing_leftovers import _Leftovers, allow_lists
from migrate_roots.codemods._plumbing_queries import _first, _names, _strings_in
from migrate_roots.codemods._plumbing_state import (
    _ALLOWS,
    _LOG_METHODS,
    _LOGGERS,
    _STDLIB,
    _dotted,
    _first_party_import,
    _names_global,
    _relays,
    _scheduled,
    _spelled,
    _state_write,
)
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState


def analyse(state: FileState) -> None:
    """Run the plumbing analysis once per walk and record its edits, findings and markers."""
    if ANALYSIS in state.extra:
        return
    state.extra[ANALYSIS] = None
    # A server speaking MCP by hand (JSON-RPC without the SDK) spells the notification's method itself (or
    # misspells it: `misspelt_method`); a helper module without the SDK may keep the roots it reads in a cache
    # of its own (sweep M, r03: rewritten, the first call's argument answered every later one).
    if not state.extra.get("imports_sdk") and not any(
        "roots/list" in line or "list_roots" in line for line in state.lines
    ):
        return
    state.extra[ANALYSIS] = plumbing = _Plumbing(state)  # `kept_caches` reads it
    plumbing.run()


def kept_caches(state: FileState) -> frozenset[str]:
    """The module-level roots caches of this file that stay (MR211 marks them instead of removing them)."""
    analyse(state)
    plumbing = state.extra.get(ANALYSIS)
    if plumbing is None:
        return frozenset()
    return frozenset(plumbing.caches - plumbing.removable_caches)


def removable_caches(state: FileState) -> frozenset[str]:
    """The module-level roots caches of this file that MR211 removes (its guard unwrapped)."""
    analyse(state)
    plumbing = state.extra.get(ANALYSIS)
    return frozenset(plumbing.removable_caches) if plumbing is not None else frozenset()


def kept_attributes(state: FileState) -> dict[tuple[int, int], str]:
    """Per function (by position), the first attribute its roots reads are kept on (MR212)."""
    analyse(state)
    plumbing = state.extra.get(ANALYSIS)
    kept: dict[tuple[int, int], str] = {}
    if plumbing is None:
        return kept
    for func, assign, target in plumbing.attr_writes:
        if assign in plumbing.setter_said:
            kept.setdefault(state.pos(func), plumbing.setter_said[assign][0])
        elif not plumbing.inside_removed(assign):
            kept.setdefault(
                state.pos(func), _spelled(target) + ("()" if isinstance(assign, cst.Call) else "")
            )
    return kept


class _Plumbing(_Caches, _Fetches, _Leftovers):
    """The analysis of one file: collect, then decide (`_decide`), in an order the steps depend on."""

    # --- collection ----------------------------------------------------------------------------------
    def run(self) -> None:
        state = self.state
        for stmt in self.module.body:
            if isinstance(stmt, cst.FunctionDef):
                self.top[stmt.name.value] = stmt
            scope = state.scope(stmt)
            if isinstance(scope, GlobalScope):
                self.globalscope = scope
        for stmt in self.module.body:
            if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
                small = stmt.body[0]
                target = None
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    target = small.targets[0].target
                elif isinstance(small, cst.AnnAssign):
                    target = small.target
                if isinstance(target, cst.Name):
                    self.top_assigns.setdefault(target.value, []).append(stmt)
                    if target.value == "__all__":
                        self.exported |= _strings_in(small)
        self.state.walk(self.module, _Collector(self))
        self._roots_related()
        self._decide()
        # Names whose fate depends on other modules (see PackageRefs).
        handlers = {r.handler_name for r in self.registrations if r.handler_name}
        state.extra[CANDIDATES] = frozenset(self.related | handlers | self.caches)

    # --- roots-related functions ----------------------------------------------------------------------
    def _roots_related(self) -> None:
        related = {name for name, f in self.top.items() if self.funcs[f].sites}
        changed = True
        while changed:
            changed = False
            for name, f in self.top.items():
                if name not in related and self.funcs[f].calls & related:
                    related.add(name)
                    changed = True
        self.related = related

    # --- decisions -----------------------------------------------------------------------------------
    def _decide(self) -> None:
        regs = self.registrations
        # 1. Registrations and their handlers.
        for reg in regs:
            if not self.allowed(reg.node, "MR201"):
                reg.ignored = True
                reg.refusal = "ignored"
            if reg.refusal is None and reg.handler is not None:
                info = self.funcs[reg.handler]
                if info.relays:
                    reg.refusal = (
                        f"handler `{reg.handler_name}` relays the change to downstream servers (a proxy): "
                        "they may still cache roots; remove this once they take explicit paths"
                    )
            if reg.refusal is None and reg.branch is not None and _relays(reg.branch):
                reg.refusal = (
                    "this branch relays the change to downstream servers (a proxy): they may still cache "
                    "roots; remove it once they take explicit paths"
                )
            if reg.refusal is None:
                reg.refusal = self._state_refusal(reg)
        # Registrations that go do not keep their handler alive.
        self.reg_nodes = [r.node for r in regs if r.refusal is None]
        # 2. Caches (module globals) and the handlers that invalidate them, to a fixed point.
        self._caches()
        # 3. Final registrations: remove, or mark.
        for reg in regs:
            self._record_registration(reg)
        # 4. Eager fetches in initialized handlers, background tasks, resources/list_changed.
        self._eager()
        # 5. Dead helpers and discarded results.
        self._dead()
        # 6. Leftover references, class/attribute caches, wording.
        self._leftovers()
        self._attribute_caches()
        self._wording()
        self._prune_imports()
        self._keep_spacing()
        self._drop_findings()

    def _state_refusal(self, reg: Registration) -> str | None:
        """A handler that changes state other than module globals (which MR211 follows) stays: marked."""
        body: cst.CSTNode | None = reg.handler or reg.branch
        if body is None:
            value = reg.handler_expr
            if value is None:
                return None
            local = self._local_function(value)
            if local is not None:
                who = f"the handler `{local.name.value}`"
                if _relays(local):
                    return (
                        f"{who} relays the change to downstream servers (a proxy): they may still cache roots; "
                        "remove this once they take explicit paths"
                    )
                found = self._body_refusal(local, who)
                if found is not None:
                    return found
                if isinstance(value, cst.Name) and self._inert_local(local, value):
                    reg.local_handler = local  # goes with the registration (coco-search's shape)
                    return None
            if not isinstance(value, cst.Lambda):
                spelled = self.state.wrapper.module.code_for_node(value)
                spelled = spelled if len(spelled) <= 60 and "\n" not in spelled else f"{spelled[:57]}..."
                return (
                    f"the handler `{spelled}` is not a module-level function of this file (a method, a "
                    "local function, an import, a wrapper): check what it invalidates, then remove the "
                    "registration and the handler by hand"
                )
            called = _names(value) & set(self.top)
            if called:
                return (
                    f"the handler (not a plain function) calls `{_first(called)}`: check what it invalidates, "
                    "then remove the registration by hand"
                )
            effect = self._global_method_call(value)
            if effect is not None:
                return f"the handler calls `{effect}` on module state: remove it by hand"
            return None
        return self._body_refusal(body, "the handler")

    def _body_refusal(self, body: cst.CSTNode, who: str) -> str | None:
        """Why a handler's body must stay: state it changes, a function of the module it calls that relays
        the change or changes state, a function imported from elsewhere (out of sight). `who` names it."""
        scheduled = _scheduled(body)
        if scheduled is not None and scheduled.partition("(")[0] not in self.top:  # a module function: below
            return (
                f"{who} schedules `{scheduled}` to run later: what it does (re-read roots, refresh state that "
                f"tools read) is out of this handler's sight; remove both by hand once the readers take the "
                f"`{self.param}` argument"
            )
        target = _state_write(body) or self._global_method_call(body)
        guarded = sorted(allow_lists(self.state, body)) if target and target.startswith("self.") else []
        if target is not None and guarded:
            return (
                f"{who} changes `{target}` of a class that checks values against `{guarded[0]}`, an allow-list: "
                "keep it while legacy clients connect; MCP 2026-07-28 requests send no such notification, so "
                "for them take the allow-list from the server's configuration, never from the caller"
            )
        if target is not None:
            return (
                f"{who} changes `{target}`, which something may still read: remove it by hand once the "
                f"readers take the `{self.param}` argument"
            )
        seen: set[str] = set()
        todo = sorted(self._calls_of(body) & set(self.top))
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            info = self.funcs[self.top[name]]
            if info.relays:
                return (
                    f"{who} calls `{name}`, which relays the change to downstream servers (a proxy): they may "
                    "still cache roots; remove both once they take explicit paths"
                )
            changed = _state_write(info.node) or self._global_method_call(info.node)
            if info.globals_declared or changed is not None:
                what = f" (`{changed}`)" if changed else ""
                if _ALLOWS.search(changed or name):
                    # An allow-list bounds what tools may touch: the caller's own argument must not replace it.
                    env = self.allowlist_env
                    return (
                        f"{who} calls `{name}`, which changes an allow-list{what}: keep that bound with "
                        f"the operator ({env} or the server's own setting), not the caller's `{self.param}` "
                        "argument, then remove both by hand"
                    )
                return (
                    f"{who} calls `{name}`, which changes module state{what}: remove both by hand once "
                    f"the readers take the `{self.param}` argument"
                )
            todo.extend(sorted(info.calls & set(self.top)))
        # The same for a name the handler imports inside its own body (`from pkg.cache import forget`, then
        # `forget()`: sweep F r05 of session 20).
        local = _local_import(body, self.state)
        if local is not None:
            return (
                f"{who} imports `{local[0]}` from `{local[1]}` inside its body, which migrate-roots does not read "
                "here: check what it does (a cache it clears must stay cleared while legacy clients connect), "
                "then remove the registration and the handler by hand"
            )
        # A function imported from the project or a dependency: what it does is out of this file's sight (it
        # may relay the change, or refresh an allow-list), so the handler stays.
        for name in sorted(
            set().union(*(self._calls_of(self.funcs[self.top[n]].node) for n in seen), self._calls_of(body))
        ):
            imported = self._imported(name)
            if imported is not None:
                return (
                    f"{who} calls `{name}` (imported from `{imported}`), which migrate-roots does not read "
                    "here: check what it does (a relay to downstream servers must stay while they take roots), "
                    "then remove the registration and the handler by hand"
                )
        return None

    def _local_function(self, value: cst.BaseExpression) -> cst.FunctionDef | None:
        """The function a plain name names in its own scope (a closure defined beside the registration)."""
        scope = self.state.scope(value) if isinstance(value, cst.Name) else None
        if scope is None or not isinstance(value, cst.Name) or value.value not in scope:
            return None
        nodes = [getattr(a, "node", None) for a in scope[value.value]]
        return nodes[0] if len(nodes) == 1 and isinstance(nodes[0], cst.FunctionDef) else None

    def _inert_local(self, local: cst.FunctionDef, value: cst.Name) -> bool:
        """Whether a closure registered as the handler may go with its registration: undecorated, named once
        (by the registration), and its body only logs. A closure sees its enclosing function's values, which
        the module-level checks do not follow, so nothing short of that is taken."""
        if local.decorators:
            return False
        scope = self.state.scope(value)
        assignments = list(scope.assignments[value.value]) if scope is not None else []
        if len(assignments) != 1:
            return False
        # Every reference to that binding, nested functions' too (a tool in the same factory calling the
        # handler: sweep D r01 of session 20), is the registration's.
        if [a.node for a in assignments[0].references] != [value]:
            return False
        body = local.body.body
        for index, stmt in enumerate(body):
            if isinstance(stmt, cst.SimpleStatementLine) and all(
                self._inert(small, index) for small in stmt.body
            ):
                continue
            return False
        return True

    def _inert(self, small: cst.BaseSmallStatement, index: int) -> bool:
        if isinstance(small, cst.Pass) or (isinstance(small, cst.Return) and small.value is None):
            return True
        if not isinstance(small, cst.Expr):
            return False
        if isinstance(small.value, cst.SimpleString):
            return index == 0  # the docstring
        call = small.value
        return isinstance(call, cst.Call) and self._log_call(call) and not _has_effects(call.args)

    def _log_call(self, call: cst.Call) -> bool:
        """`print(...)`, `logging.info(...)`, or `logger.info(...)` on a module-level `logging.getLogger(...)`."""
        func = call.func
        if isinstance(func, cst.Name):
            scope = self.state.scope(func)
            return func.value == "print" and scope is not None and not scope.assignments[func.value]
        if not isinstance(func, cst.Attribute) or func.attr.value not in _LOG_METHODS:
            return False
        if self.state.qnames(func.value) == {"logging"}:
            return True
        receiver = func.value
        if not isinstance(receiver, cst.Name) or receiver.value not in self.top_assigns:
            return False
        scope = self.state.scope(receiver)
        if (
            scope is None
            or not _names_global(scope, receiver.value)
            or len(self.top_assigns[receiver.value]) != 1
        ):
            return False
        return bool(self.made_by(receiver.value) & _LOGGERS)

    def _imported(self, name: str) -> str | None:
        """The module a module-level `from M import name` of this file takes `name` from, unless M is the
        standard library or an MCP SDK."""
        scope = self.globalscope
        if scope is None or name not in scope:
            return None
        for assignment in scope[name]:
            node = getattr(assignment, "node", None)
            if isinstance(node, cst.ImportFrom) and _first_party_import(scope, name):
                module = ("." * len(node.relative)) + (
                    _dotted(node.module) if node.module is not None else ""
                )
                if module.lstrip(".").partition(".")[0] not in ("mcp", "fastmcp"):
                    return module
        return None

    def _calls_of(self, node: cst.CSTNode) -> set[str]:
        if isinstance(node, cst.FunctionDef):
            return set(self.funcs[node].calls)
        found: set[str] = set()

        class Calls(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                if isinstance(n.func, cst.Name):
                    found.add(n.func.value)

        read(node, Calls())
        return found


def _has_effects(args: Sequence[cst.Arg]) -> bool:
    """Whether log arguments call, await, assign or yield anything (a closure's value may be a live object)."""
    found = False

    class Effects(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            if isinstance(node, (cst.Call, cst.Await, cst.NamedExpr, cst.Yield, cst.Lambda)):
                found = True
            return not found

    for arg in args:
        read(arg, Effects())
    return found


def _local_import(body: cst.CSTNode, state: FileState) -> tuple[str, str] | None:
    """(name, module) of the first `from M import name` inside `body` whose M is neither the standard library
    nor an MCP SDK, and whose name the body uses."""
    found: list[tuple[str, str]] = []
    used: set[str] = set()

    class Imports(cst.CSTVisitor):
        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            module = ("." * len(node.relative)) + (_dotted(node.module) if node.module is not None else "")
            top = module.lstrip(".").partition(".")[0]
            if (node.relative or (top not in _STDLIB and top not in ("mcp", "fastmcp"))) and not isinstance(
                node.names, cst.ImportStar
            ):
                for alias in node.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(bound, cst.Name):
                        found.append((bound.value, module))

        def visit_Name(self, node: cst.Name) -> None:
            used.add(node.value)

    read(body, Imports())
    return next(((n, m) for n, m in found if n in used), None)
