"""The state of the roots-plumbing analysis (codemods/_plumbing.py) and the queries every step of it asks: what
the collector found (`Registration`, `FuncInfo`, `_PlumbingBase`), and where a name is used, whether it may
be deleted, whether a code is enabled at a node.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods import _project_refs
from migrate_roots.codemods._plumbing_queries import _contains
from migrate_roots.codemods.base import FileState

ANALYSIS = "roots-plumbing"  # state.extra key of the shared analysis
CANDIDATES = "roots-plumbing-candidates"  # top-level names the analysis may delete


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
    local_handler: cst.FunctionDef | None = None  # a closure that only logs, removed with the registration
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


def _external(state: FileState) -> frozenset[str]:
    names: frozenset[str] = frozenset()
    for code in ("MR201", "MR211"):
        value = state.plan.get(code)
        if isinstance(value, frozenset):
            names |= value
    return names


def _argument_name(state: FileState) -> str:
    """The argument this file's advice names: the one its tools take when the roots-call plan gave them all one
    (`root_path` where `root` was taken, or an existing `repo_path` reused), else the configured `param-name`."""
    plan = state.plan.get("MR101")
    names = {name for name, _, _ in getattr(plan, "tools", {}).values()}
    return names.pop() if len(names) == 1 else state.settings.param_name


class _PlumbingBase:
    """What the collector records about a file, and the questions the analysis steps ask of it."""

    def __init__(self, state: FileState) -> None:
        self.state = state
        self.module = state.wrapper.module
        self.external = _external(state)
        self.enabled = state.enabled
        self.param = _argument_name(state)
        plan = state.plan.get(
            "MR101"
        )  # MR110 reads and no tool argument here: advice names the operator's list
        self.bound_only = bool(plan is not None and plan.bound and not plan.tools)
        # No read planned in this file (instructions text in `server.py`): which argument, if any, is not known.
        self.unplanned = plan is None or not (plan.tools or plan.bound or plan.threaded)
        self.allowlist_env = state.settings.allowlist_env
        self.funcs: dict[cst.FunctionDef, FuncInfo] = {}
        self.top: dict[str, cst.FunctionDef] = {}
        self.top_assigns: dict[str, list[cst.SimpleStatementLine]] = {}
        self.registrations: list[Registration] = []
        self.init_handlers: list[cst.FunctionDef] = []
        self.type_refs: list[cst.CSTNode] = []  # RootsListChangedNotification references
        self.method_strings: list[cst.BaseExpression] = []
        # `"notifications/roots/listChanged"`: a name no client sends (`misspelt_method`).
        self.misspelt: list[cst.SimpleString] = []
        self.wording: list[cst.CSTNode] = []
        self.tasks: list[tuple[cst.Call, str]] = []  # create_task / start_soon of a function, by name
        # `x.attr = <roots>`, or `x.method(<roots>)` under a test of `x` (the Call, its `x.method`)
        self.attr_writes: list[
            tuple[cst.FunctionDef, cst.Assign | cst.AnnAssign | cst.Call, cst.Attribute | cst.Name]
        ] = []
        # Of those calls, a first-wins setter's (`binding.bind_once(<roots>)`): the attribute it keeps.
        self.first_wins: dict[cst.CSTNode, str] = {}
        # ... and the setters the marker words itself (a module function, a ContextVar's shared default, a
        # refresh test): (what keeps them, as `kept_attributes` spells it; what MR212 says they do).
        self.setter_said: dict[cst.CSTNode, tuple[str, str]] = {}
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

    def made_by(self, name: str) -> set[str]:
        """The qualified names of the call a module-level name is first bound to (`logger =
        logging.getLogger(...)`, `_ws = ContextVar(...)`), or nothing."""
        assigns = self.top_assigns.get(name)
        value = getattr(assigns[0].body[0], "value", None) if assigns else None
        return self.state.qnames(value.func) if isinstance(value, cst.Call) else set()

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

    def line(self, node: cst.CSTNode) -> int:
        return self.state.pos(node)[0]
