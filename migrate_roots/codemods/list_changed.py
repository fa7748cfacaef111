"""`notifications/roots/list_changed` wiring in servers: registrations removed, handlers removed when unused.

Codes MR201-MR202 run as one rule (`ListChanged`). The analysis behind them (`analyse`) is shared with
`roots_cache.py` (MR211-MR218): one pass over a file decides every piece of roots plumbing that goes
(registrations, handlers, caches and stale flags, eager fetches, dead helpers, the imports only they used) and
every piece that is marked, so that removals that depend on each other (a handler and the stale flag it sets)
are decided together and a second run finds nothing left to do.

Registrations handled, all resolved through libcst metadata (qualified names, scopes), never by text:

- `<server>.notification_handlers[types.RootsListChangedNotification] = h` (mcp 1.x, also `mcp._mcp_server`);
- `Server(..., on_roots_list_changed=h)` (mcp 2.x);
- `<server>.add_notification_handler("notifications/roots/list_changed", params_type, h)` (mcp 2.x, fastmcp 4);
- a branch `if context.method == "notifications/roots/list_changed": ...` (or `isinstance(context.message,
  RootsListChangedNotification)`) in `on_notification` of a fastmcp `Middleware` subclass.

Package knowledge (is a handler, helper or cache used from another module?) comes from `summarize`/`plan`:
every file reports the identifiers it mentions; a name is kept when any other file of the package mentions it.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods import _project_refs, _sdk
from migrate_roots.codemods._edits import drop_keyword
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.model import Action, Severity

TOKENS = (b"RootsListChanged", b"roots_list_changed", b"roots/list_changed")
CACHE_TOKENS = (b"list_roots", b"roots", b"Roots")
# Calls without side effects that a roots read's result goes through (MR213 removes a call made only of them).
_PURE_CALLS = frozenset(
    {
        f"builtins.{n}"
        for n in ("str", "len", "list", "tuple", "set", "dict", "sorted", "bool", "int", "isinstance")
    }
    | {"pathlib.Path", "urllib.parse.unquote", "urllib.parse.urlparse", "os.path.join", "os.path.abspath"}
)
_LOGGERS = frozenset({"logging.getLogger", "structlog.get_logger", "structlog.getLogger"})
ANALYSIS = "roots-plumbing"  # state.extra key of the shared analysis
CANDIDATES = "roots-plumbing-candidates"  # top-level names the analysis may delete

# Wording in user-facing strings that tells people to set up roots (MR218).
_ROOTS_WORDING = re.compile(
    r"\b(configur\w*|set\s*up|provid\w*|add|declar\w*|expos\w*|shar\w*|enabl\w*|support\w*|grant\w*)"
    r"\s+(\w+\s+){0,2}?roots?\b"
    r"|\broots?\s+(capabilit\w*|support|are\s+(not|configured|set|provided)|is\s+(not|configured|set))"
    r"|\bno\s+(\w+\s+)?roots?\b|\bwithout\s+(\w+\s+)?roots?\b",
    re.IGNORECASE,
)


# -----------------------------------------------------------------------------------------------------
# Package references: which top-level names of a file does another file of the package mention?


@dataclass
class Refs:
    module: str
    candidates: frozenset[str]  # top-level names this file might delete
    mentions: frozenset[
        str
    ]  # identifiers (names, attributes, import aliases, identifier strings) it mentions


class PackageRefs:
    """`summarize`/`follow_tokens`/`plan` shared by the MR20x and MR21x runners."""

    def summarize(self, state: FileState) -> Any:
        if "roots-plumbing-refs" not in state.extra:  # MR201 and MR211 both summarize: walk once
            candidates = frozenset(state.extra.get(CANDIDATES, ()))
            mentions = frozenset(_mentions(state))
            state.extra["roots-plumbing-refs"] = Refs(state.module, candidates, mentions)
        return state.extra["roots-plumbing-refs"]

    @classmethod
    def follow_tokens(cls, summaries: Mapping[str, Any]) -> set[bytes]:
        tokens: set[bytes] = set()
        for summary in summaries.values():
            if isinstance(summary, Refs):
                tokens |= {n.encode() for n in summary.candidates if len(n) > 3}
        return tokens

    @classmethod
    def plan_refs(cls, summaries: Mapping[str, Any]) -> dict[str, frozenset[str]]:
        # Indexed by package rather than compared pairwise: a tree of 2,000 servers made 5 million pairs
        # (7.7 s of one process, benchmark 3); tests/test_list_changed.py holds it equal to the pairwise rule.
        refs = {path: s for path, s in summaries.items() if isinstance(s, Refs)}
        by_top: dict[str, list[str]] = {}
        loose_by_dir: dict[str, list[str]] = {}
        for path, summary in refs.items():
            by_top.setdefault(_top(summary.module), []).append(path)
            if "." not in summary.module:
                loose_by_dir.setdefault(os.path.dirname(path), []).append(path)
        out: dict[str, frozenset[str]] = {}
        for path, summary in refs.items():
            if not summary.candidates:
                continue
            others: set[str] = set()
            for other_path in _others(path, summary.module, refs, by_top, loose_by_dir):
                others |= refs[other_path].mentions & summary.candidates
            out[path] = frozenset(others)
        return out


def _top(module: str) -> str:
    return module.split(".")[0]


def _others(
    path: str,
    module: str,
    refs: Mapping[str, Refs],
    by_top: Mapping[str, list[str]],
    loose_by_dir: Mapping[str, list[str]],
) -> Iterator[str]:
    """The other files of `path`'s package: of one top-level package when either file is in a package
    (dotted module name), else of one folder; other trees cannot use a name."""
    if "." in module:
        yield from (o for o in by_top.get(_top(module), ()) if o != path)
        return
    for other in by_top.get(module, ()):
        if other != path and "." in refs[other].module:
            yield other
    yield from (o for o in loose_by_dir.get(os.path.dirname(path), ()) if o != path)


def _mentions(state: FileState) -> set[str]:
    found: set[str] = set()

    class Mentions(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            value = node.evaluated_value
            if isinstance(value, str) and value.isidentifier():
                found.add(value)

    state.walk(state.wrapper.module, Mentions())
    return found


# -----------------------------------------------------------------------------------------------------
# The shared analysis.


@dataclass
class Registration:
    node: cst.CSTNode  # what findings point at
    spelling: str
    remove: cst.CSTNode | None = None  # statement to delete
    kwarg: tuple[cst.Call, cst.Arg] | None = None  # constructor keyword to drop
    handler: cst.FunctionDef | None = None  # top-level handler function of this module
    handler_name: str | None = None
    branch: cst.If | None = None  # fastmcp middleware branch (the handler body itself)
    handler_expr: cst.BaseExpression | None = None  # the registered value when not a module function
    refusal: str | None = None  # why it is kept (MR202)
    ignored: bool = False  # `# migrate-roots: ignore[MR201]` on its line


@dataclass
class FuncInfo:
    node: cst.FunctionDef
    top: bool  # defined at module level
    sites: list[cst.Call] = field(default_factory=list)
    calls: set[str] = field(default_factory=set)  # simple names called
    globals_declared: set[str] = field(default_factory=set)
    relays: list[cst.Call] = field(default_factory=list)  # .send_roots_list_changed()
    resource_changed: list[cst.Call] = field(default_factory=list)  # .send_resource_list_changed()
    tool: bool = False


def analyse(state: FileState) -> None:
    """Run the plumbing analysis once per walk and record its edits, findings and markers."""
    if ANALYSIS in state.extra:
        return
    state.extra[ANALYSIS] = None
    if not state.extra.get("imports_sdk"):
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


def _external(state: FileState) -> frozenset[str]:
    names: frozenset[str] = frozenset()
    for code in ("MR201", "MR211"):
        value = state.plan.get(code)
        if isinstance(value, frozenset):
            names |= value
    return names


def _remove(_node: cst.CSTNode) -> Any:
    return cst.RemovalSentinel.REMOVE


class _Plumbing:
    def __init__(self, state: FileState) -> None:
        self.state = state
        self.module = state.wrapper.module
        self.external = _external(state)
        self.enabled = state.enabled
        self.param = state.settings.param_name
        self.funcs: dict[cst.FunctionDef, FuncInfo] = {}
        self.top: dict[str, cst.FunctionDef] = {}
        self.top_assigns: dict[str, list[cst.SimpleStatementLine]] = {}
        self.registrations: list[Registration] = []
        self.init_handlers: list[cst.FunctionDef] = []
        self.type_refs: list[cst.CSTNode] = []  # RootsListChangedNotification references
        self.method_strings: list[cst.SimpleString] = []
        self.wording: list[cst.CSTNode] = []
        self.tasks: list[tuple[cst.Call, str]] = []  # create_task / start_soon of a function, by name
        self.attr_writes: list[tuple[cst.FunctionDef, cst.Assign | cst.AnnAssign, cst.Attribute]] = []
        self.exported: set[str] = set()
        self.removed: set[cst.CSTNode] = set()  # statements and functions that go
        self.handled: set[cst.CSTNode] = set()  # registration nodes consumed (not leftovers)
        self.globalscope: GlobalScope | None = None
        self.reg_nodes: list[cst.CSTNode] = []
        self.reported_public: set[cst.FunctionDef] = set()
        self.related: set[str] = set()
        self.caches: set[str] = set()
        self.removable_caches: set[str] = set()
        self.fetchers: dict[cst.FunctionDef, cst.If] = {}
        self.flags: set[str] = set()
        self.elsewhere: dict[str, str | None] = {}

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

    # --- helpers ---------------------------------------------------------------------------------------
    def inside_removed(self, node: cst.CSTNode) -> bool:
        current: cst.CSTNode | None = node
        while current is not None:
            if current in self.removed:
                return True
            current = self.state.parent(current)
        return False

    def accesses(self, name: str) -> list[cst.CSTNode]:
        scope = self.globalscope
        if scope is None or name not in scope:
            return []
        seen: dict[int, cst.CSTNode] = {}
        for assignment in scope[name]:
            for access in assignment.references:
                seen[id(access.node)] = access.node
        return list(seen.values())

    def assignments(self, name: str) -> list[cst.CSTNode]:
        scope = self.globalscope
        if scope is None or name not in scope:
            return []
        return [a.node for a in scope[name] if hasattr(a, "node")]

    def live_uses(self, name: str, ignore: Iterable[cst.CSTNode] = ()) -> list[cst.CSTNode]:
        skip = set(ignore)
        out = []
        for node in self.accesses(name):
            if node in skip or self.inside_removed(node):
                continue
            if any(s is node or _contains(s, node, self.state) for s in skip):
                continue
            out.append(node)
        return out

    def allowed(self, node: cst.CSTNode, code: str) -> bool:
        """Enabled, and not silenced by an ignore comment on the node's first line."""
        return code in self.enabled and not self.state.ignored(self.state.pos(node)[0], code)

    def deletable_name(self, name: str) -> bool:
        # Names of three characters or fewer are not followed into other modules (see follow_tokens): kept.
        return (
            len(name) > 3
            and name not in self.external
            and name not in self.exported
            and not name.startswith("__")
        )

    def used_elsewhere(self, name: str) -> str | None:
        """A file of the project outside this run's view that names `name` (_project_refs): keep it then."""
        if name not in self.elsewhere:
            state = self.state
            # Without project metadata: the folder holding the top-level package (scripts sit beside it).
            fallback = os.path.dirname(state.package_root) if state.package else state.package_root
            self.elsewhere[name] = _project_refs.used_elsewhere(state.path, name, fallback)
        return self.elsewhere[name]

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        current = self.state.parent(node)
        while current is not None and not isinstance(current, cst.FunctionDef):
            current = self.state.parent(current)
        return current

    def line(self, node: cst.CSTNode) -> int:
        return self.state.pos(node)[0]

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
            if not isinstance(value, cst.Lambda):
                return (
                    f"the handler `{_dotted(value)}` is not a module-level function of this file (a method, a "
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
        target = _state_write(body) or self._global_method_call(body)
        if target is not None:
            return (
                f"the handler changes `{target}`, which something may still read: remove it by hand once the "
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
            changed = _state_write(info.node) or self._global_method_call(info.node)
            if info.globals_declared or changed is not None:
                what = f" (`{changed}`)" if changed else ""
                return (
                    f"the handler calls `{name}`, which changes module state{what}: remove both by hand once "
                    f"the readers take the `{self.param}` argument"
                )
            todo.extend(sorted(info.calls & set(self.top)))
        return None

    def _global_method_call(self, node: cst.CSTNode) -> str | None:
        """`G.method(...)` on a module-level value (an Event, a list, a dict), other than a logger."""
        state = self.state
        found: list[str] = []
        top_assigns = self.top_assigns

        class Calls(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                func = n.func
                if found or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
                    return
                name = func.value.value
                scope = state.scope(func.value)
                if scope is None or name not in scope or not _names_global(scope, name):
                    return  # unknown, or a local of the same name
                if name not in top_assigns and not _first_party_import(scope, name):
                    return
                if _sdk.expr_kind(state, func.value) in (_sdk.HL_SERVER, _sdk.LL_SERVER):
                    return  # the server object itself (get_context(), ...)
                if name in top_assigns:
                    small = top_assigns[name][0].body[0]
                    value = getattr(small, "value", None)
                    if isinstance(value, cst.Call) and state.qnames(value.func) & _LOGGERS:
                        return
                if func.attr.value in _READ_ONLY_METHODS:
                    return  # `_active_session.get()` reads
                if func.attr.value in _LOG_METHODS and "log" in name.lower():
                    return  # `logger = setup_logger()`, then `logger.warning(...)`
                found.append(f"{name}.{func.attr.value}()")

        node.visit(Calls())
        return found[0] if found else None

    def _calls_of(self, node: cst.CSTNode) -> set[str]:
        if isinstance(node, cst.FunctionDef):
            return set(self.funcs[node].calls)
        found: set[str] = set()

        class Calls(cst.CSTVisitor):
            def visit_Call(self, n: cst.Call) -> None:
                if isinstance(n.func, cst.Name):
                    found.add(n.func.value)

        node.visit(Calls())
        return found

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
                func = self.enclosing_function(node)
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
            func = self.enclosing_function(node)
            if func is None:
                return "used at module level"
            if func not in fetchers:
                label = self.state.qualname(func)
                if self.funcs[func].sites:  # it fetches, but not inside one `if <not cached>:` block
                    return (
                        f"read by `{label}`, which reads roots behind a guard migrate-roots does not "
                        "unwrap (an early `return`, or more than one test)"
                    )
                kind = "a tool" if self.funcs[func].tool else "a function"
                return f"read by `{label}`, {kind} that does not fetch it"
            guard = fetchers[func]
            seeded = self.literal_default(name) is not None
            if not _fetcher_use_ok(func, guard, node, name, name in flags, self.state, seeded):
                return f"used in `{self.state.qualname(func)}` outside its fetch guard"
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
        elif reg.branch is not None and _sends_resource_changed(reg.branch):
            extra = ", with the resources/list_changed it sent"
        state.report(
            reg.node,
            "MR201",
            f"roots list_changed registration ({reg.spelling}) removed: the notification does not exist in "
            f"MCP 2026-07-28 and tools now take the `{self.param}` argument{extra}",
            Severity.DEPRECATED,
            Action.REWRITTEN,
        )

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

        func.body.visit(Calls())
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
            state.mark(
                call,
                "MR214",
                f"background roots refresh (`{name}`): roots cannot be fetched outside a request on MCP "
                f"2026-07-28 and no signal says they changed; drop the task, tools take `{self.param}`",
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
            changed = True
            while changed:
                changed = False
                for name, func in self.top.items():
                    if func in self.removed or name not in self.related or func.decorators:
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
                    if not name.startswith("_"):
                        if func not in self.reported_public:
                            self.reported_public.add(func)
                            state.report(
                                func,
                                "MR216",
                                f"roots helper `{name}` is unused within the package; it is public, so code "
                                "outside the package may import it: delete it if nothing does",
                                Severity.DEPRECATED,
                            )
                        continue
                    where = self.used_elsewhere(name)
                    if where is not None:
                        if func not in self.reported_public:
                            self.reported_public.add(func)
                            state.report(
                                func,
                                "MR216",
                                f"roots helper `{name}` looks dead in its package, but `{where}` "
                                "names it: kept; delete it once nothing uses it",
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

    # ... leftovers ------------------------------------------------------------------------------------
    def _leftovers(self) -> None:
        state = self.state
        if "MR202" not in self.enabled:
            return
        owned = [*self.handled, *(r.handler for r in self.registrations if r.handler and r.refusal is None)]
        kept = [r for r in self.registrations if r.handler is not None and r.refusal is not None]
        for node in [*self.type_refs, *self.method_strings]:
            if self.inside_removed(node) or any(_contains(h, node, state) for h in owned):
                continue  # a handler that goes takes its own annotation with it
            reg = next((r for r in kept if r.handler and _contains(r.handler, node, state)), None)
            if reg is not None:
                if state.markers.get(state.statement_of(node)):
                    continue  # the handler already says why it stays (MR211)
                # No line number: the marker above the registration would shift it on a second run.
                state.mark(
                    node,
                    "MR202",
                    f"a roots list_changed handler, kept with its registration (`{reg.spelling}`{_inside(reg.node, state)},"
                    " see its marker): the notification does not exist in MCP 2026-07-28",
                    Severity.DEPRECATED,
                )
                continue
            state.mark(
                node,
                "MR202",
                "roots list_changed referenced in a form migrate-roots does not remove: the notification does "
                f"not exist in MCP 2026-07-28; tools now take the `{self.param}` argument",
                Severity.DEPRECATED,
            )

    def _attribute_caches(self) -> None:
        state = self.state
        if "MR212" not in self.enabled:
            return
        for _func, assign, target in self.attr_writes:
            if self.inside_removed(assign):
                continue
            state.mark(
                assign,
                "MR212",
                f"roots kept on `{_dotted(target)}` outlive the request (class attribute, instance or "
                f"lifespan field): read the `{self.param}` argument per request instead",
                Severity.DEPRECATED,
            )

    def _wording(self) -> None:
        state = self.state
        if "MR218" not in self.enabled:
            return
        # A hint about text, not about code: in the report only, unless `select` names MR218 itself.
        selected = any(code.strip().upper() == "MR218" for code in state.settings.select)
        for node in self.wording:
            if self.inside_removed(node):
                continue
            (state.mark if selected else state.report)(
                node,
                "MR218",
                f"this text tells users to set up roots: tell them to pass the `{self.param}` argument "
                "(or configure the server) instead",
                Severity.INFO,
            )

    # ... imports and other rules' findings ------------------------------------------------------------
    def _prune_imports(self) -> None:
        if not self.removed:
            return
        state = self.state
        for stmt in self.module.body:
            if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
                continue
            small = stmt.body[0]
            if not isinstance(small, (cst.Import, cst.ImportFrom)) or isinstance(small.names, cst.ImportStar):
                continue
            drop: list[str] = []
            for alias in small.names:
                bound = _bound_name(alias)
                if bound is None:
                    continue
                uses = self.accesses(bound)
                if uses and all(self.inside_removed(u) for u in uses):
                    drop.append(bound)
            if not drop:
                continue
            if len(drop) == len(small.names):
                self.removed.add(stmt)
                state.edit(stmt, _remove)
            else:
                state.edit(small, _drop_aliases(set(drop)))

    def _keep_spacing(self) -> None:
        """A removed statement's blank lines above it go to the next statement that stays."""
        state = self.state
        for node in list(self.removed):
            parent = state.parent(node)
            body = getattr(parent, "body", None)
            if not isinstance(body, (list, tuple)) or node not in body:
                continue
            blank = _blank_lines(node)
            index = body.index(node) + 1
            while index < len(body) and body[index] in self.removed:
                index += 1
            if index < len(body) and blank > _blank_lines(body[index]):
                state.edit(body[index], _with_blank_lines(blank))
            elif index < len(body) and parent is self.module and all(s in self.removed for s in body[:index]):
                state.edit(body[index], _without_blank_lines)  # it is now the module's first statement

    def _drop_findings(self) -> None:
        """Other rules' findings inside code that is removed describe nothing the user will see."""
        state = self.state
        spans = []
        for node in self.removed:
            if isinstance(node, (cst.FunctionDef, cst.SimpleStatementLine, cst.If)):
                start = state.pos(node)[0]
                end = state.end_line(node)
                spans.append((start, end))
        if not spans:
            return
        mine = ("MR20", "MR21")
        state.findings[:] = [
            f
            for f in state.findings
            if f.code.startswith(mine) or not any(a <= f.line <= b for a, b in spans)
        ]


# -----------------------------------------------------------------------------------------------------
# The collector.


class _Collector(cst.CSTVisitor):
    def __init__(self, owner: _Plumbing) -> None:
        super().__init__()
        self.o = owner
        self.state = owner.state
        self.stack: list[cst.FunctionDef] = []
        self.classes: list[cst.ClassDef] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.append(node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        top = not self.stack and not self.classes
        info = FuncInfo(node, top)
        info.tool = any(_is_tool(self.state, d.decorator) for d in node.decorators)
        self.o.funcs[node] = info
        self.stack.append(node)
        if (
            node.name.value == "on_notification"
            and self.classes
            and any(self.state.qnames(b.value) & _sdk.FASTMCP_MIDDLEWARE for b in self.classes[-1].bases)
        ):
            node.body.visit(_MiddlewareBranches(self.o))

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()

    def visit_Global(self, node: cst.Global) -> None:
        if self.stack:
            self.o.funcs[self.stack[-1]].globals_declared |= {n.name.value for n in node.names}

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1:
            target = node.targets[0].target
            if (
                isinstance(target, cst.Subscript)
                and isinstance(target.value, cst.Attribute)
                and target.value.attr.value == "notification_handlers"
                and len(target.slice) == 1
            ):
                key = target.slice[0].slice
                if isinstance(key, cst.Index):
                    self._handlers_key(node, key.value)
        self._attr_write(node, [t.target for t in node.targets])

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._attr_write(node, [node.target])

    def _attr_write(self, node: cst.Assign | cst.AnnAssign, targets: list[cst.BaseExpression]) -> None:
        if not self.stack or node.value is None:
            return
        func = self.stack[-1]
        info = self.o.funcs[func]
        if not info.sites and not any(_is_site(c, self.state) for c in _calls_in(node.value, self.state)):
            return  # no roots read so far in this function (the walk goes in order), none in the value
        for target in targets:
            if isinstance(target, cst.Attribute) and _mentions_site(node.value, func, self.o):
                base = target.value
                while isinstance(base, cst.Attribute):
                    base = base.value
                if isinstance(base, cst.Name) and _is_local(base, func, self.state):
                    continue
                self.o.attr_writes.append((func, node, target))

    def _handlers_key(self, assign: cst.Assign, key: cst.BaseExpression) -> None:
        names = self.state.qnames(key)
        stmt = self.state.parent(assign)
        single = isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1
        if names & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS:
            reg = Registration(assign, "notification_handlers[RootsListChangedNotification]")
            self.o.handled.add(key)
            if single:
                reg.remove = stmt
            else:
                reg.refusal = "registration shares its line with other statements"
            self._handler(reg, assign.value)
            self.o.registrations.append(reg)
        elif names & _sdk.INITIALIZED_NOTIFICATIONS:
            self._init_handler(assign.value)

    def _handler(self, reg: Registration, value: cst.BaseExpression) -> None:
        reg.handler_expr = value
        if isinstance(value, cst.Name):
            func = self.o.top.get(value.value)
            scope = self.state.scope(value)
            # The module's function, also when registered from inside a function (`install_handlers()`).
            if func is not None and scope is not None and _names_global(scope, value.value):
                reg.handler = func
                reg.handler_name = value.value

    def _init_handler(self, value: cst.BaseExpression) -> None:
        if isinstance(value, cst.Name) and value.value in self.o.top:
            self.o.init_handlers.append(self.o.top[value.value])

    def visit_Call(self, node: cst.Call) -> None:
        state = self.state
        func = node.func
        if self.stack:
            info = self.o.funcs[self.stack[-1]]
            if isinstance(func, cst.Name):
                info.calls.add(func.value)
            if _is_site(node, state):
                info.sites.append(node)
            if isinstance(func, cst.Attribute):
                if func.attr.value == "send_roots_list_changed":
                    info.relays.append(node)
                elif func.attr.value == "send_resource_list_changed":
                    info.resource_changed.append(node)
        names = state.qnames(func)
        if names & _sdk.LOW_LEVEL_SERVERS:
            for arg in node.args:
                if arg.keyword is not None and arg.keyword.value == "on_roots_list_changed":
                    reg = Registration(arg, "Server(on_roots_list_changed=...)", kwarg=(node, arg))
                    self._handler(reg, arg.value)
                    self.o.registrations.append(reg)
                    self.o.handled.add(arg)
                elif arg.keyword is not None and arg.keyword.value == "on_initialized":
                    self._init_handler(arg.value)
        if isinstance(func, cst.Attribute) and func.attr.value == "add_notification_handler" and node.args:
            method = node.args[0].value
            value = method.evaluated_value if isinstance(method, cst.SimpleString) else None
            kind = _sdk.expr_kind(state, func.value)
            if kind == _sdk.FOREIGN:
                self.o.handled.add(node)  # a user's own event bus that happens to use the same string
            elif value in (_sdk.ROOTS_LIST_CHANGED_METHOD, _sdk.INITIALIZED_METHOD):
                handler = _handler_arg(node)
                if value == _sdk.INITIALIZED_METHOD:
                    if handler is not None:
                        self._init_handler(handler)
                    return
                reg = Registration(node, 'add_notification_handler("notifications/roots/list_changed")')
                stmt = _statement_of_call(node, state)
                if stmt is None:
                    reg.refusal = "registration is not a statement of its own"
                else:
                    reg.remove = stmt
                if handler is not None:
                    self._handler(reg, handler)
                self.o.registrations.append(reg)
                self.o.handled.add(node)
        if isinstance(func, (cst.Attribute, cst.Name)):
            attr = func.attr.value if isinstance(func, cst.Attribute) else func.value
            tasks = ("create_task", "ensure_future", "start_soon", "start", "run_coroutine_threadsafe")
            if attr in tasks and node.args:
                target = node.args[0].value
                if isinstance(target, cst.Call):
                    target = target.func
                if isinstance(target, cst.Name) and target.value in self.o.top:
                    self.o.tasks.append((node, target.value))

    def visit_Name(self, node: cst.Name) -> None:
        if self.state.qnames(node) & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS:
            parent = self.state.parent(node)
            in_attribute = isinstance(parent, cst.Attribute) and parent.attr is node
            if not in_attribute and not _in_import(node, self.state):
                self.o.type_refs.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self.state.qnames(node) & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS and not _in_import(
            node, self.state
        ):
            self.o.type_refs.append(node)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        if not isinstance(value, str):
            return
        if value == _sdk.ROOTS_LIST_CHANGED_METHOD:
            self.o.method_strings.append(node)
        elif (
            _ROOTS_WORDING.search(value)
            and self._user_facing(node)
            and not _our_description(node, self.state)
        ):
            self.o.wording.append(node)

    def _user_facing(self, node: cst.SimpleString) -> bool:
        """Not a docstring, unless it is a tool's (the tool description a model reads); not a pattern."""
        if _pattern_argument(node, self.state):
            return False
        owner = _docstring_owner(node, self.state)
        if owner is None:
            return True
        return isinstance(owner, cst.FunctionDef) and owner in self.o.funcs and self.o.funcs[owner].tool

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        if _ROOTS_WORDING.search(node.value):
            current: cst.CSTNode | None = node
            while current is not None and not isinstance(current, cst.FormattedString):
                current = self.state.parent(current)
            if current is not None and current not in self.o.wording:
                self.o.wording.append(current)


class _MiddlewareBranches(cst.CSTVisitor):
    def __init__(self, owner: _Plumbing) -> None:
        super().__init__()
        self.o = owner

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # nested functions are not the hook's branches

    def visit_If(self, node: cst.If) -> None:
        state = self.o.state
        kind = _branch_kind(node.test, state)
        if kind is None:
            return
        self.o.handled.add(node.test)
        if kind == _sdk.INITIALIZED_METHOD:
            return
        reg = Registration(node, "fastmcp Middleware.on_notification branch", branch=node)
        if node.orelse is not None:
            reg.refusal = "the branch has an else/elif: remove the roots branch by hand"
        else:
            reg.remove = node
        self.o.registrations.append(reg)


# -----------------------------------------------------------------------------------------------------
# Small helpers.


def _branch_kind(test: cst.BaseExpression, state: FileState) -> str | None:
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, cst.Equal):
            for a, b in ((test.left, target.comparator), (target.comparator, test.left)):
                if (
                    isinstance(a, cst.SimpleString)
                    and isinstance(b, cst.Attribute)
                    and b.attr.value == "method"
                ):
                    value = a.evaluated_value
                    if value in (_sdk.ROOTS_LIST_CHANGED_METHOD, _sdk.INITIALIZED_METHOD):
                        return str(value)
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Name)
        and test.func.value == "isinstance"
        and len(test.args) == 2
        and state.qnames(test.args[1].value) & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS
    ):
        return _sdk.ROOTS_LIST_CHANGED_METHOD
    return None


def _is_site(call: cst.Call, state: FileState) -> bool:
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "list_roots" and not call.args:
        return _sdk.expr_kind(state, func.value) in (_sdk.SESSION, _sdk.FASTMCP_CONTEXT, _sdk.CAPTURED)
    shim = f"{state.settings.shim_module}.list_roots_compat"
    return any(q.endswith(shim) for q in state.qnames(func))


def _is_tool(state: FileState, decorator: cst.BaseExpression) -> bool:
    from migrate_roots.codemods.roots_call import _tool_decorator

    return _tool_decorator(state, decorator) is not None


def _handler_arg(call: cst.Call) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "handler":
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    return positional[2].value if len(positional) >= 3 else None


def _statement_of_call(call: cst.Call, state: FileState) -> cst.SimpleStatementLine | None:
    parent = state.parent(call)
    if isinstance(parent, cst.Await):
        parent = state.parent(parent)
    if isinstance(parent, cst.Expr):
        stmt = state.parent(parent)
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
            return stmt
    return None


def _discarded_statement(call: cst.Call, state: FileState) -> cst.SimpleStatementLine | None:
    """The statement line when a roots read's value is thrown away (`await ctx.session.list_roots()`)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "list_roots"):
        return None
    return _statement_of_call(call, state)


def _called(expr: cst.BaseExpression) -> cst.Call | None:
    if isinstance(expr, cst.Await):
        expr = expr.expression
    return expr if isinstance(expr, cst.Call) else None


def _in_try(stmt: cst.CSTNode, stop: cst.CSTNode, state: FileState) -> bool:
    current = state.parent(stmt)
    while current is not None and current is not stop:
        if isinstance(current, (cst.Try, cst.TryStar)):
            return True
        current = state.parent(current)
    return False


def _contains(outer: cst.CSTNode, node: cst.CSTNode, state: FileState) -> bool:
    current: cst.CSTNode | None = node
    while current is not None:
        if current is outer:
            return True
        current = state.parent(current)
    return False


def _in_import(node: cst.CSTNode, state: FileState) -> bool:
    current: cst.CSTNode | None = node
    while current is not None:
        if isinstance(current, (cst.Import, cst.ImportFrom)):
            return True
        if isinstance(current, cst.BaseStatement):
            return False
        current = state.parent(current)
    return False


_PATTERN_CALLS = frozenset(
    {"filterwarnings", "simplefilter", "compile", "match", "search", "fullmatch", "sub"}
)


def _pattern_argument(node: cst.CSTNode, state: FileState) -> bool:
    """A string handed to a warnings filter or a regex function: it matches text, nobody reads it."""
    arg = state.parent(node)
    call = state.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call):
        return False
    func = call.func
    name = (
        func.attr.value
        if isinstance(func, cst.Attribute)
        else func.value
        if isinstance(func, cst.Name)
        else ""
    )
    return name in _PATTERN_CALLS


def _our_description(node: cst.SimpleString, state: FileState) -> bool:
    """Text that migrate-roots itself wrote (the path parameter's description)."""
    from migrate_roots.codemods.roots_call import DESCRIPTION_MANY, DESCRIPTION_ONE

    whole: cst.CSTNode = node
    parent = state.parent(node)
    while isinstance(parent, cst.ConcatenatedString):
        whole, parent = parent, state.parent(parent)
    value = whole.evaluated_value if isinstance(whole, (cst.SimpleString, cst.ConcatenatedString)) else None
    if not isinstance(value, str):
        return False
    tails = {d.rsplit(". ", 1)[-1] for d in (DESCRIPTION_ONE, DESCRIPTION_MANY)}
    return value in (DESCRIPTION_ONE, DESCRIPTION_MANY) or any(value.endswith(t) for t in tails)


def _docstring_owner(node: cst.CSTNode, state: FileState) -> cst.CSTNode | None:
    """The module, class or function whose docstring `node` is, else None."""
    expr = state.parent(node)
    if not isinstance(expr, cst.Expr):
        return None
    line = state.parent(expr)
    if not isinstance(line, cst.SimpleStatementLine) or line.body[0] is not expr:
        return None
    block = state.parent(line)
    if isinstance(block, cst.Module):
        return block if block.body and block.body[0] is line else None
    if isinstance(block, cst.IndentedBlock) and block.body and block.body[0] is line:
        owner = state.parent(block)
        return owner if isinstance(owner, (cst.FunctionDef, cst.ClassDef)) else None
    return None


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    node.visit(Names())
    return found


def _first(names: set[str]) -> str:
    return sorted(names)[0] if names else "?"


def _strings_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Strings(cst.CSTVisitor):
        def visit_SimpleString(self, n: cst.SimpleString) -> None:
            value = n.evaluated_value
            if isinstance(value, str):
                found.add(value)

    node.visit(Strings())
    return found


def _assigned_names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Assigned(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            if isinstance(n.target, cst.Name):
                found.add(n.target.value)

    node.visit(Assigned())
    return found


def _top_statements(func: cst.FunctionDef) -> list[cst.BaseStatement]:
    body = func.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []


def _all_simple_lines(node: cst.CSTNode) -> list[cst.SimpleStatementLine]:
    found: list[cst.SimpleStatementLine] = []

    class Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, n: cst.SimpleStatementLine) -> None:
            found.append(n)

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

    node.visit(Lines())
    return found


def _assigns_flag(small: cst.BaseSmallStatement, flags: set[str]) -> bool:
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        return isinstance(target, cst.Name) and target.value in flags
    return False


def _is_flag(name: str, plumbing: _Plumbing) -> bool:
    """Every assignment of `name` is True/False: a stale flag (or a once-per-process flag)."""
    values = []
    for node in plumbing.assignments(name):
        parent = plumbing.state.parent(node)
        assign = plumbing.state.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
        value = getattr(assign, "value", None)
        values.append(value)
    return bool(values) and all(isinstance(v, cst.Name) and v.value in ("True", "False") for v in values)


def _guard(func: cst.FunctionDef, caches: set[str], sites: list[cst.Call], state: FileState) -> cst.If | None:
    """The top-level `if` of `func` that tests only cache names and holds every roots read."""
    allowed = caches | {"None", "len", "not", "True", "False"}
    for stmt in _top_statements(func):
        if not isinstance(stmt, cst.If) or stmt.orelse is not None:
            continue
        used = _names(stmt.test)
        if not used or not used <= allowed or not (used & caches):
            continue
        if all(_contains(stmt.body, s, state) for s in sites):
            return stmt
    return None


def _fetcher_use_ok(
    func: cst.FunctionDef,
    guard: cst.If,
    node: cst.CSTNode,
    name: str,
    flag: bool,
    state: FileState,
    seeded: bool = False,
) -> bool:
    """A use of a cache name inside a fetching function that the rewrite keeps correct. `seeded`: the module
    gives the cache a literal start value, which the rewrite puts where the guard was, so any use from the
    guard on reads a bound local (`_root = None`, then `if roots: _root = ...` deeper down)."""
    if _contains(guard.test, node, state):
        return True
    if isinstance(state.parent(node), cst.Global) or isinstance(
        state.parent(state.parent(node) or node), cst.Global
    ):
        return True
    parent = state.parent(node)
    target_of = state.parent(parent) if isinstance(parent, cst.AssignTarget) else None
    if flag:
        # A flag may only be assigned a literal (the assignment goes).
        return isinstance(target_of, cst.Assign) and isinstance(target_of.value, cst.Name)
    # A cache must be assigned at the top of the guard's body, and read only after that assignment.
    assigned = [
        s
        for s in guard.body.body
        if isinstance(s, cst.SimpleStatementLine)
        and len(s.body) == 1
        and isinstance(s.body[0], cst.Assign)
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in s.body[0].targets)
    ]
    if not assigned:
        return seeded and state.pos(node) >= state.pos(guard)
    first = state.pos(assigned[0])[0]
    return state.pos(node)[0] >= first


def _mentions_site(value: cst.BaseExpression, func: cst.FunctionDef, owner: _Plumbing) -> bool:
    """Does `value` hold a roots read (directly, or through a name bound from one in `func`)?"""
    state = owner.state
    found = False

    class Sites(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            if _is_site(n, state):
                found = True

    value.visit(Sites())
    if found:
        return True
    derived = _derived_from_sites(func, state)
    return bool(_names(value) & derived)


def _calls_in(node: cst.CSTNode, state: FileState) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            found.append(n)

    state.walk(node, Calls())
    return found


def _derived_from_sites(func: cst.FunctionDef, state: FileState) -> set[str]:
    cache: dict[cst.FunctionDef, set[str]] = state.extra.setdefault("roots-plumbing-derived", {})
    if func not in cache:
        cache[func] = _derive(func, state)
    return cache[func]


def _derive(func: cst.FunctionDef, state: FileState) -> set[str]:
    names: set[str] = set()

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            holds = False

            class Sites(cst.CSTVisitor):
                def visit_Call(self, n: cst.Call) -> None:
                    nonlocal holds
                    if _is_site(n, state):
                        holds = True

            node.value.visit(Sites())
            if holds or (_names(node.value) & names):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        names.add(target.target.value)

    for _ in range(2):
        func.body.visit(Assigns())
    return names


# Methods of a module value (ContextVar, dict, list, Event) that read it: calling one changes nothing.
_READ_ONLY_METHODS = frozenset({"get", "copy", "keys", "values", "items", "count", "index", "is_set"})
_STDLIB = frozenset(sys.stdlib_module_names)
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})


def _inside(node: cst.CSTNode, state: FileState) -> str:
    """` in `install_handlers()`` when `node` sits in a function, else nothing."""
    current = state.parent(node)
    while current is not None and not isinstance(current, cst.FunctionDef):
        current = state.parent(current)
    return f" in `{current.name.value}()`" if current is not None else ""


def _first_party_import(scope: Any, name: str) -> bool:
    """Is `name` a module-level import of something not in the standard library (`from pkg.shared import
    allowed_roots`)? Its methods may keep state of the package (an allow-list registry)."""
    for assignment in scope[name]:
        node = getattr(assignment, "node", None)
        module: cst.BaseExpression | None = None
        if isinstance(node, cst.ImportFrom):
            if node.relative:
                return True
            module = node.module
        elif isinstance(node, cst.Import):
            module = next((a.name for a in node.names if _bound_name(a) == name), None)
        while isinstance(module, cst.Attribute):
            module = module.value
        if isinstance(module, cst.Name) and module.value not in _STDLIB:
            return True
    return False


def _names_global(scope: Any, name: str) -> bool:
    """Does `name`, read in `scope`, resolve to the module's binding (no local of the same name)?"""
    if isinstance(scope, GlobalScope):
        return True
    return name in scope and all(isinstance(a.scope, GlobalScope) for a in scope[name])


def _is_local(name: cst.Name, func: cst.FunctionDef, state: FileState) -> bool:
    """Bound by a plain assignment inside `func` (not a parameter, not a global)."""
    scope = state.scope(name)
    if scope is None or name.value not in scope or isinstance(scope, GlobalScope):
        return False
    assignments = list(scope[name.value])
    for assignment in assignments:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param) or node is None or assignment.scope is not scope:
            return False
    return bool(assignments)


def _state_write(node: cst.CSTNode) -> str | None:
    """The first attribute or item assigned in `node` (not in nested functions), as text; else None."""
    found: list[str] = []

    class Writes(cst.CSTVisitor):
        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

        def _target(self, target: cst.BaseExpression) -> None:
            if isinstance(target, (cst.Attribute, cst.Subscript)) and not found:
                found.append(
                    _dotted(target.value)
                    + ("." + target.attr.value if isinstance(target, cst.Attribute) else "[...]")
                )

        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            self._target(n.target)

        def visit_AugAssign(self, n: cst.AugAssign) -> None:
            self._target(n.target)

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            self._target(n.target)

    node.visit(Writes())
    return found[0] if found else None


def _relays(node: cst.CSTNode) -> bool:
    found = False

    class Relay(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            if isinstance(n.func, cst.Attribute) and n.func.attr.value == "send_roots_list_changed":
                found = True

    node.visit(Relay())
    return found


def _resource_calls(node: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            if isinstance(n.func, cst.Attribute) and n.func.attr.value == "send_resource_list_changed":
                found.append(n)

    node.visit(Calls())
    return found


def _sends_resource_changed(node: cst.CSTNode) -> bool:
    return bool(_resource_calls(node))


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return "..."


def _bound_name(alias: cst.ImportAlias) -> str | None:
    if alias.asname is not None:
        target = alias.asname.name
        return target.value if isinstance(target, cst.Name) else None
    name: cst.BaseExpression = alias.name
    while isinstance(name, cst.Attribute):
        name = name.value  # `import a.b` binds `a`
    return name.value if isinstance(name, cst.Name) else None


# -----------------------------------------------------------------------------------------------------
# Edits.


def _blank_lines(node: cst.CSTNode) -> int:
    lines = getattr(node, "leading_lines", ())
    count = 0
    for line in lines:
        if line.comment is not None:
            break
        count += 1
    return count


def _with_blank_lines(count: int) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        if not hasattr(node, "leading_lines") or _blank_lines(node) >= count:
            return node
        extra = [cst.EmptyLine() for _ in range(count - _blank_lines(node))]
        return node.with_changes(leading_lines=[*extra, *node.leading_lines])

    return change


def _without_blank_lines(node: cst.CSTNode) -> cst.CSTNode:
    lines = list(getattr(node, "leading_lines", ()))
    while lines and lines[0].comment is None:
        lines.pop(0)
    return node.with_changes(leading_lines=lines) if hasattr(node, "leading_lines") else node


def _is_literal(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Name):
        return value.value in ("None", "True", "False")
    if isinstance(value, (cst.Integer, cst.SimpleString)):
        return True
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return not value.elements
    return isinstance(value, cst.Dict) and not value.elements


def _assigned_at_top(guard: cst.If, name: str) -> bool:
    return any(
        isinstance(s, cst.SimpleStatementLine)
        and len(s.body) == 1
        and isinstance(s.body[0], cst.Assign)
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in s.body[0].targets)
        for s in guard.body.body
    )


def _prepend_body(statements: Sequence[cst.BaseStatement]) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.If) and isinstance(node.body, cst.IndentedBlock)
        return node.with_changes(body=node.body.with_changes(body=[*statements, *node.body.body]))

    return change


def _unwrap_if(node: cst.CSTNode) -> Any:
    assert isinstance(node, cst.If)
    body = node.body
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else []
    if not statements:
        return cst.RemovalSentinel.REMOVE
    first = statements[0]
    assert isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
    statements[0] = first.with_changes(leading_lines=[*node.leading_lines, *first.leading_lines])
    return cst.FlattenSentinel(statements)


def _keep_global(keep: list[str]) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Global)
        names = [n for n in node.names if n.name.value in keep]
        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return node.with_changes(names=names)

    return change


def _drop_aliases(drop: set[str]) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, (cst.Import, cst.ImportFrom))
        names = node.names
        assert not isinstance(names, cst.ImportStar)
        keep = [a for a in names if _bound_name(a) not in drop]
        if not keep:
            return node
        last = names[-1].comma if _has_parens(node) else cst.MaybeSentinel.DEFAULT
        keep[-1] = keep[-1].with_changes(comma=last)
        return node.with_changes(names=keep)

    return change


def _has_parens(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.ImportFrom) and node.lpar is not None


# -----------------------------------------------------------------------------------------------------
# The rules.


def set_flags(state: FileState) -> None:
    """What `_sdk.expr_kind` needs to know about the file (set once, shared with MR101)."""
    _sdk.note_sdk_imports(state)


class ListChanged(PackageRefs, Rule):
    code = "MR201"
    name = "roots-list-changed-handler"
    summary = (
        "A `notifications/roots/list_changed` handler registration: removed, with its handler when nothing "
        "else in the package uses it."
    )
    severity = Severity.DEPRECATED
    fix = "safe"
    tokens = TOKENS
    nodes = (cst.Module,)
    limits = (
        "Registrations in other spellings (a dict literal, `.update(...)`, `setdefault`, a `match` case, a "
        "middleware branch with an `else`, a line holding other statements), handlers that relay the change "
        "downstream (proxies), handlers that change other state or invalidate a cache something else still "
        "reads, and handlers that are not module-level functions of the file (a method, a local function, an "
        "import) are marked (MR202), not removed. A "
        "module function handler that is decorated, used elsewhere, or named in three characters or fewer is "
        "kept (its registration goes)."
    )

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        set_flags(state)

    def leave(self, state: FileState) -> None:
        analyse(state)

    @classmethod
    def plan(cls, summaries: Mapping[str, Any], settings: Any) -> Mapping[str, Any]:
        return PackageRefs.plan_refs(summaries)


class ListChangedKept(Rule):
    code = "MR202"
    name = "roots-list-changed-kept"
    summary = (
        "A roots list_changed registration or reference that cannot be removed safely (proxy relay, shared "
        "handler, cache still read, unusual spelling): marked."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ListChanged
    limits = "Never rewritten: the marker says what still depends on the notification."
