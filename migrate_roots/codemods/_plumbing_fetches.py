"""Eager roots fetches (MR213), background refreshes (MR214), resources/list_changed sent for roots
(MR215), dead roots helpers (MR216) and discarded roots reads (MR217), in the plumbing analysis.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._plumbing_base import _PlumbingBase
from migrate_roots.codemods._plumbing_edits import _remove
from migrate_roots.codemods._plumbing_queries import (
    _all_simple_lines,
    _called,
    _discarded_statement,
    _in_try,
    _is_site,
)
from migrate_roots.codemods._plumbing_state import _resource_calls, _state_write
from migrate_roots.codemods._read import read
from migrate_roots.model import Action, Severity

# Calls without side effects that a roots read's result goes through (MR213 removes a call made only of them).
_PURE_CALLS = frozenset(
    {
        f"builtins.{n}"
        for n in ("str", "len", "list", "tuple", "set", "dict", "sorted", "bool", "int", "isinstance")
    }
    | {"pathlib.Path", "urllib.parse.unquote", "urllib.parse.urlparse", "os.path.join", "os.path.abspath"}
)


class _Fetches(_PlumbingBase):
    """Fetches and helpers that no longer serve anything (a step of `_Plumbing`)."""

    # ... eager fetches, tasks, resources/list_changed ----------------------------------------------------
    def _pure_fetch(self, name: str) -> bool:
        """A roots-related top-level function whose call has no lasting effect once its caches are gone."""
        func = self.top.get(name)
        if func is None or name not in self.related:
            return False
        info = self.funcs[func]
        if info.globals_declared - self.removable_caches:
            return False
        if info.relays or info.resource_changed:
            return False
        if any(f is func for f, _, _ in self.attr_writes) or _state_write(func) is not None:
            return False
        return self._calls_are_pure(func, {name})

    def _calls_are_pure(self, func: cst.FunctionDef, seen: set[str]) -> bool:
        """Every call in `func` is a roots read, a side-effect-free builtin, or a pure function of this module."""
        state = self.state
        calls: list[cst.Call] = []

        class Calls(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                calls.append(n)

        read(func.body, Calls())
        for call in calls:
            if _is_site(call, state):
                continue
            target = call.func
            if isinstance(target, cst.Name) and target.value in self.top and target.value not in seen:
                seen.add(target.value)
                callee = self.top[target.value]
                info = self.funcs[callee]
                if info.globals_declared - self.removable_caches or _state_write(callee) is not None:
                    return False
                if not self._calls_are_pure(callee, seen):
                    return False
                continue
            if state.qnames(target) & _PURE_CALLS or _sdk.call_kind(state, call) is not None:
                continue  # a builtin, or `get_context()` and the like
            return False
        return True

    def _eager(self) -> None:
        state = self.state
        for handler in self.init_handlers:
            if self.inside_removed(handler):
                continue
            for stmt in _all_simple_lines(handler):
                if len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Expr):
                    continue
                call = _called(stmt.body[0].value)
                if call is None:
                    continue
                callee = call.func.value if isinstance(call.func, cst.Name) else None
                direct = call in self.funcs[handler].sites
                if callee not in self.related and not direct:
                    continue
                label = "roots read" if direct else f"`{callee}()`"
                if "MR213" not in self.enabled:
                    continue
                if not self.allowed(stmt, "MR213"):
                    continue
                pure = direct or (callee is not None and self._pure_fetch(callee))
                if pure and not _in_try(stmt, handler, state):
                    self.removed.add(stmt)
                    state.edit(stmt, _remove)
                    state.report(
                        stmt,
                        "MR213",
                        f"eager roots fetch at `initialized` removed ({label}, result unused): tools read the "
                        f"`{self.param}` argument per request; the handler's other work is kept",
                        Severity.DEPRECATED,
                        Action.REWRITTEN,
                    )
                else:
                    state.mark(
                        stmt,
                        "MR213",
                        f"eager roots fetch at `initialized` ({label}) does more than read roots, and cannot "
                        "happen on MCP 2026-07-28: move what it sets up to server configuration or to the tools' "
                        f"`{self.param}` argument",
                        Severity.BROKEN,
                    )
        for call, name in self.tasks:
            if self.inside_removed(call) or name not in self.related or "MR214" not in self.enabled:
                continue
            # Only where the plan gives this file's tools the argument is "tools take it" a fact.
            instead = (
                f"tools take `{self.param}`"
                if not self.unplanned
                else "give the tools that need the directory a path argument (their own markers say where)"
            )
            state.mark(
                call,
                "MR214",
                f"background roots refresh (`{name}`): roots cannot be fetched outside a request on MCP "
                f"2026-07-28 and no signal says they changed; drop the task, {instead}",
                Severity.BROKEN,
            )
        for func, info in self.funcs.items():
            if self.inside_removed(func) or "MR215" not in self.enabled:
                continue
            name = func.name.value
            in_handler = func in [r.handler for r in self.registrations]
            if not (in_handler or name in self.related):
                continue
            for call in info.resource_changed:
                if self.inside_removed(call):
                    continue
                state.mark(
                    call,
                    "MR215",
                    "resources/list_changed sent because roots changed: no roots change signal exists on "
                    "MCP 2026-07-28; send it when the server's own resources change",
                    Severity.DEPRECATED,
                )
        for reg in self.registrations:
            if reg.branch is not None and not self.inside_removed(reg.branch) and "MR215" in self.enabled:
                for call in _resource_calls(reg.branch):
                    state.mark(
                        call,
                        "MR215",
                        "resources/list_changed sent because roots changed: no roots change signal exists on "
                        "MCP 2026-07-28",
                        Severity.DEPRECATED,
                    )

    # ... dead helpers and discarded results --------------------------------------------------------------
    def _dead(self) -> None:
        state = self.state
        if "MR216" in self.enabled:
            # A function the roots plan makes a tool (registered from another module, hiil's `list_roots`: session
            # 15's sweep D, r01) is no unused helper.
            tools = getattr(state.plan.get("MR101"), "tools", {})
            changed = True
            while changed:
                changed = False
                for name, func in self.top.items():
                    if func in self.removed or name not in self.related or func.decorators or name in tools:
                        continue
                    if (
                        not self.deletable_name(name) or name == "main" or name.startswith("test")
                    ):  # pytest runs it
                        continue
                    if self.live_uses(name) or not self.allowed(func, "MR216"):
                        continue
                    if self.funcs[func].globals_declared - self.removable_caches:
                        continue  # it feeds a cache that stays: MR211 marks it
                    if any(f is func for f, _, _ in self.attr_writes):
                        continue
                    # The rest of the project: before a private helper goes, and for a public one of a folder
                    # without `__init__.py` (its "package" here), which `from utilities import dependencies` in
                    # another folder still calls. A package's public helper: what outside code imports is unknown.
                    public = not name.startswith("_")
                    where = self.used_elsewhere(name)  # hiil registers `list_roots` from a sibling package
                    if where is not None or public:
                        if func not in self.reported_public:
                            self.reported_public.add(func)
                            state.report(
                                func,
                                "MR216",
                                f"roots helper `{name}` has no caller in its package, but `{where}` names it: kept "
                                "(migrate-roots removes a roots helper only when no file of the project names it)"
                                if where is not None
                                else f"roots helper `{name}` is unused within the package; it is public, so code "
                                "outside the package may import it: delete it if nothing does"
                                if state.package
                                else f"roots helper `{name}` is named by no other file of the project; it is "
                                "public, so code outside the project may import it: delete it if nothing does",
                                Severity.DEPRECATED,
                            )
                        continue
                    self.removed.add(func)
                    state.edit(func, _remove)
                    state.report(
                        func,
                        "MR216",
                        f"dead roots helper `{name}` removed: nothing in the package calls it",
                        Severity.DEPRECATED,
                        Action.REWRITTEN,
                    )
                    changed = True
        if "MR217" not in self.enabled:
            return
        mr101 = state.plan.get("MR101")
        planned = getattr(mr101, "sites", {}) if mr101 is not None else {}
        for func, info in self.funcs.items():
            for call in info.sites:
                if self.inside_removed(call):
                    continue
                stmt = _discarded_statement(call, state)
                if stmt is None or not self.allowed(stmt, "MR217"):
                    continue
                pos = state.pos(call)
                rewritten = "MR101" in self.enabled and pos in planned and planned[pos] is None
                if _in_try(stmt, func, state) or rewritten:
                    why = (
                        "probes the roots capability inside try"
                        if _in_try(stmt, func, state)
                        else "rewritten by MR101 although its result is thrown away"
                    )
                    state.mark(
                        stmt,
                        "MR217",
                        f"roots fetched and the result thrown away ({why}): delete the call, or test the "
                        f"`{self.param}` argument instead",
                        Severity.DEPRECATED,
                    )
                    continue
                self.removed.add(stmt)
                state.edit(stmt, _remove)
                state.report(
                    stmt,
                    "MR217",
                    "roots fetched and the result thrown away: call removed",
                    Severity.DEPRECATED,
                    Action.REWRITTEN,
                )
