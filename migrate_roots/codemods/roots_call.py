"""Roots calls in decorator-based servers: give each tool that reaches roots an explicit path argument.

The family of codes MR101-MR106 runs as one rule (`RootsCall`):

- index: per file, the functions, which are tools (`@server.tool`, `server.add_tool(fn)`), the roots sites in
  them (`ctx.session.list_roots()`, `ctx.request_context.session.list_roots()`, fastmcp `ctx.list_roots()`,
  `get_context()` forms) and the calls they make;
- plan: over the whole package, which tools reach a site (through helpers, across files), what parameter
  each gets, which helpers receive the value as a keyword argument, and which sites are refused;
- rewrite: the site becomes `list_roots_compat(<ctx>, <value>, name=...)` (same return shape), the tool gets
  `root: Annotated[str | None, Field(description=...)] = None`, helpers get `root=None`, and the calls on the
  way pass `root=root`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, cast

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods import _bounds, _capability_guard, _except_widen, _names, _schema_text, _sdk
from migrate_roots.codemods._imports import ensure_imports, first_party, own_style
from migrate_roots.codemods._schema_text import DESCRIPTION_MANY, DESCRIPTION_ONE
from migrate_roots.codemods._signature import fit
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.codemods.program import flow, recognise, reuse
from migrate_roots.codemods.program.facts import ModuleFacts, Registration, importable
from migrate_roots.codemods.program.model import ProgramModel
from migrate_roots.model import Action, Severity, ToolChange

TOKENS = (b"list_roots",)

SHIM_FUNCTION = "list_roots_compat"

Pos = tuple[int, int]


@dataclass
class Site:
    pos: Pos
    shape: str  # "result": a ListRootsResult; "list": fastmcp's list[Root]
    uses: str  # "first" (only roots[0]) or "list"
    refusal: tuple[str, str] | None = None  # (code, message) when it must not be rewritten
    existing: str | None = None  # an existing path parameter of the tool that guards this site
    # Already `list_roots_compat(...)` (an earlier, interrupted run): counts for the plan, never rewritten.
    done: bool = False
    cached: tuple[str, ...] = ()  # globals the enclosing `if` tests (a fetch-once guard around the read)
    # On an untyped parameter in a module that never imports the SDK (`ctx.session.list_roots()` in a helper
    # module): an MCP call only when MCP code reaches it (the plan decides; otherwise no finding at all).
    maybe: bool = False


@dataclass
class Func:
    qualname: str
    pos: Pos
    params: tuple[str, ...]
    tool: str | None = None  # MCP tool name when registered as a tool
    sites: list[Site] = field(default_factory=list)
    calls: list[tuple[str, Pos]] = field(default_factory=list)  # (callee fully qualified name, call position)
    refusal: tuple[str, str] | None = None
    # A low-level tool (a handler branch or a dispatched function, declared by codemods.lowlevel through
    # `state.extra["tool_like"]`): the expression holding the path value there, and the code of its sites.
    value: str | None = None
    code: str | None = None
    # Call position -> the caller's own parameters passed on as plain names (an existing path argument
    # handed to the helper that reads roots is the sign to reuse it).
    passed: dict[Pos, tuple[str, ...]] = field(default_factory=dict)
    kwargs: bool = False  # takes **kwargs
    # Call or site position -> the parameter whose being set skips it (codemods/program/flow.py).
    guards: dict[Pos, str] = field(default_factory=dict)
    # Call position -> (callee parameter: keyword, or "#<index>" when positional; the name passed there).
    bound: dict[Pos, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    returns: tuple[str, ...] = ()  # parameters it returns as they are (`return explicit`): a fallback value
    handler: str | None = None  # registered by a decorator other than a tool's (`@server.list_tools()`)
    decorator: str | None = None  # the first decorator that registers nothing migrate-roots knows
    returned_by: str | None = None  # the enclosing function that returns it (a function used as a value)
    # Call position -> the global flag that lets it run once per process (`if _DONE: return` before it).
    once: dict[Pos, str] = field(default_factory=dict)
    # `hasattr(x, "list_roots")` / `getattr(x, "list_roots", ...)`: the method named in a string.
    strings: list[Pos] = field(default_factory=list)
    taken: frozenset[str] = frozenset()  # names of the parameter's candidate family the body uses (_names)
    bound_sign: Any = None  # _bounds.BoundFacts: where its body checks paths against a bound
    # Parameters annotated with our own alias (`root: RootPath = None`, from an earlier or interrupted run):
    # name -> shape, so a rerun types the helpers as the first run did.
    aliased: dict[str, str] = field(default_factory=dict)
    # Every definition of this function (`if sys.platform == "win32": def base() ... else: def base()`): a
    # parameter the plan gives it goes on each, so whichever is live takes what its callers pass.
    defs: tuple[Pos, ...] = ()


@dataclass
class Double:
    """A test double: `monkeypatch.setattr(mod, "helper", fake)`, `patch("pkg.mod.helper", fake)`, ..."""

    target: str  # fully qualified name of what is replaced
    pos: Pos  # the patching call
    fake: str | None  # qualname of the replacing function defined in this file; None: anything else
    params: tuple[str, ...] = ()
    kwargs: bool = False
    # Every name the fake's body mentions: a new parameter must not shadow one of them.
    names: frozenset[str] = frozenset()


@dataclass
class Summary:
    module: str
    package_root: str
    package: str
    functions: dict[str, Func]
    doubles: list[Double] = field(default_factory=list)
    facts: ModuleFacts | None = None  # server objects, registrations, imports (codemods/program)
    sdk: bool = True  # the file imports (spells) the SDK


@dataclass
class Plan:
    tools: dict[str, tuple[str, str, bool]] = field(default_factory=dict)  # qualname -> (param, shape, new)
    threaded: dict[str, str] = field(default_factory=dict)  # helper qualname -> param added
    values: dict[str, str] = field(default_factory=dict)  # qualname -> expression of the path value there
    calls: dict[Pos, str] = field(default_factory=dict)  # call position -> expression to pass as keyword
    keywords: dict[Pos, str] = field(default_factory=dict)  # call position -> keyword, when not param-name
    names: dict[str, str] = field(default_factory=dict)  # helper qualname -> argument its errors name
    # helper qualname -> shapes of the values the tools reaching it pass ("any": a type we did not write)
    helper_shapes: dict[str, frozenset[str]] = field(default_factory=dict)
    doubles: dict[str, tuple[str, str]] = field(default_factory=dict)  # fake qualname -> (param, helper)
    double_shapes: dict[str, frozenset[str]] = field(default_factory=dict)  # fake -> its helper's shapes
    double_notes: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # patch call -> (param, helper)
    strings: dict[Pos, tuple[str, str]] = field(default_factory=dict)  # `hasattr(x, "list_roots")` -> marker
    sites: dict[Pos, tuple[str, str] | None] = field(default_factory=dict)  # None: rewrite; else refusal
    shim_import: str = ""
    shim_path: str = ""


def _fq(state: FileState, node: cst.CSTNode) -> set[str]:
    """Fully qualified names of a callee: imports made absolute, local names prefixed with the module."""
    out = set()
    for q in state.qualified_names(node):
        if q.source is QualifiedNameSource.LOCAL:
            out.add(f"{importable(state.module)}.{q.name}".replace(".<locals>", ""))
        elif q.source is QualifiedNameSource.IMPORT:
            out.add(state._absolute(q.name))
    return out


class RootsCall(Rule):
    code = "MR101"
    name = "roots-session-call"
    summary = "`session.list_roots()` in a tool: rewritten to an explicit path argument with a legacy shim."
    severity = Severity.BROKEN
    fix = "safe"
    tokens = TOKENS
    # A roots token is always parsed: whether a call is MCP is the plan's decision (`Site.maybe`), not the
    # prefilter's (README, "How it works").
    requires = b""
    nodes = (cst.Module, cst.FunctionDef, cst.Call, cst.Assign)
    limits = (
        "Sites outside a tool call (MR103), in wrappers or generated tools (MR104), and code that tells "
        "'no roots capability' from 'empty list' (MR105) are marked, not rewritten."
    )

    def __init__(self) -> None:
        self.functions: dict[str, Func] = {}
        self.signatures: set[str] = set()  # functions given a synthesized __signature__
        # add_tool(fn) registrations: (function reference, tool name, enclosing function, where, as written).
        self.added_tools: list[tuple[str, str | None, str, Pos, str]] = []
        # Patches seen: (target, patch call position, replacement, qualnames the fake's name may have).
        self.patches: list[tuple[str, Pos, cst.BaseExpression, tuple[str, ...]]] = []
        self.defs: dict[str, cst.FunctionDef] = {}
        self.registrations: list[Registration] = []  # on server objects the model resolves

    # --- the walk ------------------------------------------------------------------------------------
    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if isinstance(node, cst.Module):
            _sdk.note_sdk_imports(state)
            recognise.note_module(state)
        elif isinstance(node, cst.FunctionDef):
            self._function(node, state)
        elif isinstance(node, cst.Call):
            self._call(node, state)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                t = target.target
                if (
                    isinstance(t, cst.Attribute)
                    and t.attr.value == "__signature__"
                    and isinstance(t.value, cst.Name)
                ):
                    self.signatures.add(t.value.value)

    def _function(self, node: cst.FunctionDef, state: FileState) -> None:
        params = node.params
        names = tuple(p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params))
        func = Func(qualname=state.qualname(node), pos=state.pos(node), params=names)
        func.kwargs = isinstance(params.star_kwarg, cst.Param)
        func.returns = flow.returned_params(node, frozenset(names), state.walk)
        func.taken = _names.taken(node, state.settings.param_name, state.walk)
        func.bound_sign = _bounds.facts(node, state.pos, state.walk)
        for decorator in node.decorators:
            found = recognise.decorator(state, decorator.decorator, func.qualname, state.pos(decorator))
            if found is not None and found.pending is None:
                func.tool = found.name or node.name.value
            elif found is not None and found.pending is not None:
                self.registrations.append(found.pending)
            else:
                func.handler = func.handler or recognise.handler(state, decorator.decorator)
                if func.handler is None and func.decorator is None:
                    func.decorator = "@" + state.wrapper.module.code_for_node(decorator.decorator)
        outer = state.parent(node)
        while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            outer = state.parent(outer)
        if isinstance(outer, cst.FunctionDef) and _returns_name(outer, node.name.value):
            func.returned_by = state.qualname(outer)
        shape_of_alias = {alias: shape for shape, alias in ALIASES.items()}
        for p in (*params.posonly_params, *params.params, *params.kwonly_params):
            note = p.annotation.annotation if p.annotation is not None else None
            if isinstance(note, cst.Name) and note.value in shape_of_alias:
                func.aliased[p.name.value] = shape_of_alias[note.value]
        like = state.extra.get("tool_like", {}).get(node)
        if like is not None:
            func.tool, func.value, func.code, func.refusal = like[1:]
        earlier = self.functions.get(func.qualname)
        if (
            earlier is not None
            and earlier.tool is not None
            and earlier.value is None
            and func.tool != earlier.tool
        ):
            # A registered tool whose name is rebound later (`@mcp.prompt def login()` after the tool `login`):
            # the server holds the first function, the module name the second; each keeps its own identity.
            renamed = f"{earlier.qualname}@{earlier.pos[0]}"
            earlier.qualname = renamed
            self.functions[renamed], self.defs[renamed] = earlier, self.defs[func.qualname]
        elif earlier is not None:
            # A redefinition (conditional, or a plain rebinding): one function for the plan, with every
            # definition's sites and calls, and the parameters of all.
            func.sites, func.calls, func.passed = earlier.sites, earlier.calls, earlier.passed
            func.params = tuple(dict.fromkeys((*earlier.params, *func.params)))
            func.kwargs = func.kwargs and earlier.kwargs
            func.tool = func.tool if func.tool is not None else earlier.tool
            func.defs = (*(earlier.defs or (earlier.pos,)), func.pos)
            # The parameter's name must be free in every body, and a bound checked in any of them holds.
            func.taken = earlier.taken | func.taken
            func.aliased = {**earlier.aliased, **func.aliased}
            func.bound_sign = _bounds.merged(earlier.bound_sign, func.bound_sign)
        self.functions[func.qualname] = func
        self.defs[func.qualname] = node

    def _call(self, node: cst.Call, state: FileState) -> None:
        func_node = state.function
        caller = self.functions.get(state.qualname(func_node)) if func_node is not None else None
        if caller is not None and func_node is not None and state.extra.get("tool_like"):
            caller = self._branch(node, func_node, state) or caller
        target = node.func
        if caller is not None and _is_compat_call(node, state):
            # A site an earlier run rewrote: the function still reaches roots, so a run that was interrupted
            # between files finishes the package (tools that call it get their parameter) instead of stopping.
            shape = "list" if any(a.keyword and a.keyword.value == "shape" for a in node.args) else "result"
            done = Site(state.pos(node), shape, _uses(node, shape, state), done=True)
            value = node.args[1].value if len(node.args) > 1 else None
            if isinstance(value, cst.Name) and value.value in caller.params:
                done.existing = value.value  # the parameter this tool (or helper) already passes
                caller.guards[done.pos] = value.value  # the value there, as when it guarded the first run
            elif func_node is not None:
                self._guard(node, done.pos, caller, state)  # `list_roots_compat(ctx, None)` behind its guard
            caller.sites.append(done)
            return
        if _names_roots_method(node):
            owner = caller or self.functions.setdefault("<module>", Func("<module>", (1, 1), ()))
            owner.strings.append(state.pos(node))
        if isinstance(target, cst.Attribute) and target.attr.value == "list_roots" and not node.args:
            site = self._site(node, target.value, state)
            if site is not None and caller is not None and func_node is not None:
                caller = self._closure_owner(caller, func_node, state)
            if site is not None:
                if caller is not None and func_node is not None:
                    self._guard(node, site.pos, caller, state)
                if caller is None:
                    site.refusal = ("MR103", "roots read at import time, outside any request")
                    self.functions.setdefault("<module>", Func("<module>", (1, 1), ())).sites.append(site)
                else:
                    caller.sites.append(site)
            return
        registered = recognise.call(state, node, state.pos(node))
        if registered is not None:
            qualname, found = registered
            if found.pending is None:
                scope = state.qualname(func_node) if func_node is not None else ""
                code = state.wrapper.module.code_for_node
                spelling = f"{code(node.func)}({code(node.args[0].value)})"
                self.added_tools.append((qualname, found.name or None, scope, state.pos(node), spelling))
            else:
                self.registrations.append(found.pending)
            return
        patched = _patch(node, state)
        if patched is not None:
            scopes = [state.qualname(f) for f in state.stack if isinstance(f, cst.FunctionDef)]
            self.patches.append((patched[0], state.pos(node), patched[1], (*reversed(scopes), "")))
        if caller is not None:
            position = state.pos(node)
            for name in _self_method(state, target) or _fq(state, target) or _starred(state, target):
                caller.calls.append((name, position))
            handed = tuple(a.value.value for a in node.args if isinstance(a.value, cst.Name))
            handed = tuple(n for n in handed if n in caller.params)
            if handed:
                caller.passed[position] = handed
            bound = tuple(
                (a.keyword.value if a.keyword is not None else f"#{i}", a.value.value)
                for i, a in enumerate(node.args)
                if isinstance(a.value, cst.Name) and not a.star
            )
            if bound:
                caller.bound[position] = bound
            self._guard(node, position, caller, state)

    def _closure_owner(self, caller: Func, func_node: cst.FunctionDef, state: FileState) -> Func:
        """A plain nested function (`async def _call(): return await ctx.list_roots()`, handed to
        `anyio.from_thread.run` or a thread) reads its enclosing function's names: its roots read is the
        enclosing function's, which then carries the path value (the closure sees the new parameter)."""
        outer = state.parent(func_node)
        while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            outer = state.parent(outer)
        if not isinstance(outer, cst.FunctionDef) or func_node.decorators or caller.tool is not None:
            return caller
        if _returns_name(outer, func_node.name.value):
            return caller  # a wrapper the enclosing function returns (MR104)
        param = state.settings.param_name
        if param in caller.params or param in {n.value for n in _names_in(func_node.body)}:
            return caller
        return self.functions.get(state.qualname(outer), caller)

    def _guard(self, node: cst.CSTNode, position: Pos, caller: Func, state: FileState) -> None:
        if caller.params and caller.value is None:
            found = flow.guard(node, state, frozenset(caller.params))
            if found is not None:
                caller.guards[position] = found
        flags = _declared_global(state.function, state) if state.function is not None else frozenset()
        if flags and caller.value is None:
            flag = flow.guard(node, state, frozenset(flags)) or next(
                iter(flow.guarding_globals(node, state, frozenset(flags))), None
            )
            if flag is not None:
                caller.once[position] = flag

    def _branch(self, node: cst.CSTNode, func_node: cst.CSTNode, state: FileState) -> Func | None:
        """The declared tool branch (a statement block of a low-level handler) holding `node`, if any."""
        current = state.parent(node)
        while current is not None and current is not func_node:
            like = state.extra["tool_like"].get(current)
            if like is not None:
                qualname, tool, value, code, refusal = like
                func = Func(qualname, state.pos(current), (), tool, refusal=refusal, value=value, code=code)
                return self.functions.setdefault(qualname, func)
            current = state.parent(current)
        return None

    def _site(self, call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
        kind = _sdk.expr_kind(state, receiver)
        if kind == _sdk.SESSION:
            shape = "result"
        elif kind == _sdk.FASTMCP_CONTEXT:
            shape = "list"
        elif kind == _sdk.CAPTURED:
            site = Site(state.pos(call), "result", "list")
            site.refusal = ("MR103", "roots read through a session held outside the current request")
            return site
        elif kind is None and not state.extra.get("imports_sdk"):
            return _maybe_site(call, receiver, state)
        else:
            return None  # not an MCP object: a user's own list_roots()
        site = Site(state.pos(call), shape, _uses(call, shape, state))
        site.refusal = _local_refusal(call, state)
        site.existing = _guarding_param(call, state)
        if state.function is not None:
            site.cached = flow.guarding_globals(call, state, _declared_global(state.function, state))
        return site

    def leave(self, state: FileState) -> None:
        self._kept_caches(state)
        registered: dict[str, tuple[Pos, str]] = {}
        for ref, tool_name, scope, pos, spelling in self.added_tools:
            qualname = recognise.registered_function(ref, scope, self.defs)
            func = self.functions.get(qualname) if qualname is not None else None
            if func is not None:
                func.tool = tool_name or func.qualname.rpartition(".")[2]
                registered.setdefault(func.qualname, (pos, spelling))
        for func in self.functions.values():
            if func.tool and func.qualname.rpartition(".")[2] in self.signatures:
                where = registered.get(func.qualname)
                place = os.path.basename(state.path)
                how = f", registered by `{where[1]}` ({place}:{where[0][0]})" if where else ""
                func.refusal = (
                    "MR104",
                    f"tool `{func.tool}`{how}, is built at run time with a synthesized `__signature__`: its "
                    "inputSchema is not its code, so migrate-roots cannot add a path argument; check that the "
                    "signature declares one (add it by hand if not) and that its value reaches this read",
                )
        if state.phase == "rewrite":
            _Rewriter(self, state).record()

    def _kept_caches(self, state: FileState) -> None:
        """A read behind a fetch-once guard whose cache stays (MR211) would read the path argument on the first
        call only and ignore it afterwards: refused, with the cache's own reason."""
        sites = [s for f in self.functions.values() for s in f.sites if s.cached and s.refusal is None]
        if not sites:
            return
        from migrate_roots.codemods.list_changed import kept_caches

        kept = kept_caches(state)
        own = "MR211" in state.enabled  # else the cache rule is not selected: the site's own code says it
        for site in sites:
            names = sorted(set(site.cached) & kept)
            if names and own:
                site.refusal = (
                    "MR211",
                    f"roots read behind `{names[0]}`, a cache that stays (see its MR211 marker): a path "
                    "argument here would be read when the cache is filled and ignored while it holds; remove "
                    "the cache by hand, then run again",
                )
            elif names:
                site.refusal = (
                    "MR101" if site.shape == "result" else "MR102",
                    f"roots read behind `{names[0]}`, a module cache that stays (the cache rule, MR211, is not "
                    "selected): a path argument here would be read when the cache is filled and ignored while "
                    "it holds; select MR211 or remove the cache by hand, then run again",
                )

    def summarize(self, state: FileState) -> Any:
        wanted = {
            q: f
            for q, f in self.functions.items()
            if f.sites or f.calls or f.tool or f.strings or (f.bound_sign and f.bound_sign.signs)
        }
        doubles = self._doubles()
        facts = recognise.module_facts(state, self.registrations)
        if not (wanted or doubles or facts):
            return None
        # A folder above the real top-level package that holds an `__init__.py` but no import can name
        # (`telegram-mcp/`): the package starts below it, and so does the shim's place.
        module, package_root, package = importable(state.module), state.package_root, state.package
        stripped = state.module.count(".") - module.count(".")
        if stripped and "." in module:
            package_root = os.path.join(package_root, *state.module.split(".")[1 : stripped + 1])
        if stripped:
            package = importable(package) if "." in package else ""
        sdk = bool(state.extra.get("imports_sdk"))
        return Summary(module, package_root, package, wanted, doubles, facts, sdk)

    def _doubles(self) -> list[Double]:
        out = []
        for target, pos, value, scopes in self.patches:
            fake = None
            if isinstance(value, cst.Name):
                fake = next(
                    (
                        self.functions[q]
                        for s in scopes
                        if (q := f"{s}.{value.value}".lstrip(".")) in self.functions
                    ),
                    None,
                )
            elif isinstance(value, (cst.Call, cst.Attribute)):
                continue  # a Mock/AsyncMock (any signature) or something this file cannot see: not a fake
            if fake is None:
                out.append(Double(target, pos, None))
            else:
                names = frozenset(n.value for n in _names_in(self.defs[fake.qualname].body))
                out.append(Double(target, pos, fake.qualname, fake.params, fake.kwargs, names))
        return out

    # --- the package plan ----------------------------------------------------------------------------
    @classmethod
    def follow_functions(cls, summaries: Mapping[str, Any], reached: set[str]) -> set[str]:
        out: set[str] = set()
        for summary in summaries.values():
            for func in summary.functions.values():
                # Tools too: a test that imports the tool's module may patch the helper where it is imported.
                if func.qualname == "<module>":
                    continue
                if func.sites or any(_calls_into(callee, reached) for callee, _ in func.calls):
                    # What an importer names: the module's top-level function or class.
                    out.add(f"{summary.module}.{func.qualname.split('@')[0].split('.')[0]}")
        return out

    @classmethod
    def follow_modules(cls, summaries: Mapping[str, Any]) -> set[str]:
        # The first-party modules a file with a roots read imports from: a bound check there (`ensure_within(
        # path, roots)` in `file_access.py`) must be seen, or the roots would become the caller's choice.
        out: set[str] = set()
        for summary in summaries.values():
            facts = summary.facts
            if facts is None or not any(f.sites for q, f in summary.functions.items() if q != "<module>"):
                continue
            top = summary.module.split(".")[0]
            for _, fq in facts.imports:
                if fq.split(".")[0] == top:
                    out |= {fq, fq.rpartition(".")[0]}
        return out

    @classmethod
    def links(cls, summary: Any) -> set[str]:
        # The functions it calls (resolved by _Functions in plan_package) and the helpers its test doubles replace.
        calls = {callee for func in summary.functions.values() for callee, _ in func.calls}
        return calls | {double.target for double in summary.doubles}

    @classmethod
    def plan(cls, summaries: Mapping[str, Any], settings: Any) -> Mapping[str, Any]:
        return plan_package(summaries, settings)


def _names_roots_method(call: cst.Call) -> bool:
    """`hasattr(x, "list_roots")`, `getattr(x, "list_roots"[, default])`."""
    if not (isinstance(call.func, cst.Name) and call.func.value in ("hasattr", "getattr")):
        return False
    if len(call.args) < 2 or not isinstance(call.args[1].value, cst.SimpleString):
        return False
    return call.args[1].value.evaluated_value == "list_roots"


def _maybe_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    """A roots call in a module that never imports the SDK, on an untyped parameter spelled the SDK's way:
    `ctx.session.list_roots()`, `ctx.request_context.session.list_roots()` or `session.list_roots()` (a
    ListRootsResult), or a bare `ctx.list_roots()` (a fastmcp Context's list, or a session's result: which one
    cannot be told here, so it is marked when MCP code reaches it). `self.backend.list_roots()` and values
    built in the module (moto's AWS Organizations client) are not."""
    holder: cst.BaseExpression = receiver
    chain: list[str] = []
    while isinstance(holder, cst.Attribute):
        chain.insert(0, holder.attr.value)
        holder = holder.value
    if not (isinstance(holder, cst.Name) and holder.value not in ("self", "cls")):
        return None
    if not _sdk.loosely_typed(state, holder) and not chain:
        # `session = getattr(ctx, "session", None)` (or `= ctx.session`), then `session.list_roots()`.
        found, chain = _session_of(state, holder)
        if found is None:
            return None
        holder = found
    if not _sdk.loosely_typed(state, holder):
        return None
    if chain in (["session"], ["request_context", "session"]) or (
        not chain and "session" in holder.value.lower()
    ):
        site = Site(state.pos(call), "result", _uses(call, "result", state), maybe=True)
        site.refusal = _local_refusal(call, state)
        site.existing = _guarding_param(call, state)
        return site
    if not chain:
        site = Site(state.pos(call), "result", "list", maybe=True)
        site.refusal = (
            "MR102",
            f"`{holder.value}.list_roots()` on an untyped value in a module that never imports the SDK: a fastmcp "
            "Context (a list) or a session (a ListRootsResult)? annotate it and run again",
        )
        return site
    return None


def _session_of(state: FileState, name: cst.Name) -> tuple[cst.Name | None, list[str]]:
    """The parameter and attribute chain a local is assigned once from: `getattr(ctx, "session", None)`,
    `ctx.session`, `ctx.request_context.session`."""
    scope = state.scope(name)
    assignments = list(scope[name.value]) if scope is not None and name.value in scope else []
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    if not isinstance(target, cst.Name):
        return None, []
    value = _sdk._assigned_value(state, target)
    chain: list[str] = []
    if isinstance(value, cst.Call) and _sdk._getattr_name(state, value) == "session":
        chain, value = ["session"], value.args[0].value
    while isinstance(value, cst.Attribute):
        chain.insert(0, value.attr.value)
        value = value.value
    if isinstance(value, cst.Name) and chain in (["session"], ["request_context", "session"]):
        return value, chain
    return None, []


def _calls_into(callee: str, reached: set[str]) -> bool:
    """`pkg.mod.helper` or `pkg.mod.Class.method` for a reached `pkg.mod.helper` / `pkg.mod.Class`."""
    while callee:
        if callee in reached:
            return True
        callee = callee.rpartition(".")[0]
    return False


def _is_compat_call(call: cst.Call, state: FileState) -> bool:
    names = _fq(state, call.func)
    suffix = f"{state.settings.shim_module}.{SHIM_FUNCTION}"
    return any(n == suffix or n.endswith("." + suffix) for n in names)


def _string(node: cst.BaseExpression | None) -> str | None:
    value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    return value if isinstance(value, str) else None


def _patch(call: cst.Call, state: FileState) -> tuple[str, cst.BaseExpression] | None:
    """(what is replaced, by what) for the usual ways tests swap a function:
    `monkeypatch.setattr(obj, "name", fake)` (and builtin `setattr`), `monkeypatch.setattr("pkg.mod.name", fake)`,
    `[mock.|mocker.]patch("pkg.mod.name", fake | new=fake | side_effect=fake)`, `patch.object(obj, "name", ...)`."""
    func = call.func
    called = _last_name(func)
    if called not in ("setattr", "patch", "object"):
        return None
    args = [a.value for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    by_keyword = keywords.get("new") or keywords.get("side_effect")
    if called == "object":
        if not (isinstance(func, cst.Attribute) and _last_name(func.value) == "patch"):
            return None
        called = "setattr"
    if called == "setattr" and len(args) >= 2 and _string(args[1]) is not None:
        owner = _owner(args[0], state)
        value = args[2] if len(args) > 2 else by_keyword
        return (f"{owner}.{_string(args[1])}", value) if owner and value is not None else None
    dotted = _string(args[0]) if args else None
    value = args[1] if len(args) > 1 else by_keyword
    if dotted is None or "." not in dotted or value is None:
        return None
    return dotted, value


def _last_name(node: cst.BaseExpression) -> str:
    return (
        node.attr.value
        if isinstance(node, cst.Attribute)
        else node.value
        if isinstance(node, cst.Name)
        else ""
    )


def _owner(node: cst.BaseExpression, state: FileState) -> str | None:
    """The dotted name of a module or class object (`sys.modules[__name__]` is this module)."""
    if isinstance(node, cst.Subscript) and _last_name(node.value) == "modules":
        index = node.slice[0].slice if len(node.slice) == 1 else None
        if (
            isinstance(index, cst.Index)
            and isinstance(index.value, cst.Name)
            and index.value.value == "__name__"
        ):
            return state.module
    names = _fq(state, node)
    return min(names) if names else None


def _tool_decorator(state: FileState, decorator: cst.BaseExpression) -> str | None:
    """'' for `@server.tool` / `@server.tool()`, the name for `@server.tool(name="x")`, None otherwise
    (also for a server object of another module: `codemods.program.recognise` decides)."""
    found = recognise.decorator(state, decorator, "", (0, 0))
    return None if found is None else found.name


def _starred(state: FileState, target: cst.BaseExpression) -> set[str]:
    """A plain name no assignment binds in a module with star imports: one candidate per star module."""
    if not isinstance(target, cst.Name):
        return set()
    scope = state.scope(target)
    if scope is None or target.value in scope:
        return set()
    return {f"{module}.{target.value}" for module in state.extra.get("star_imports", ())}


def _self_method(state: FileState, target: cst.BaseExpression) -> set[str]:
    if (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
    ):
        for item in reversed(state.stack):
            if isinstance(item, cst.ClassDef):
                return {f"{importable(state.module)}.{state.qualname(item)}.{target.attr.value}"}
    return set()


def _climb(call: cst.CSTNode, state: FileState) -> cst.CSTNode:
    """The expression whose value is the roots result: through `await` and timeout wrappers."""
    node: cst.CSTNode = call
    while True:
        parent = state.parent(node)
        if isinstance(parent, cst.Await):
            node = parent
        elif isinstance(parent, cst.Arg):
            outer = state.parent(parent)
            if isinstance(outer, cst.Call) and isinstance(outer.func, (cst.Attribute, cst.Name)):
                name = outer.func.attr.value if isinstance(outer.func, cst.Attribute) else outer.func.value
                if name in ("wait_for", "shield", "create_task", "ensure_future"):
                    node = outer
                    continue
            return node
        else:
            return node


def _bound_name(expr: cst.CSTNode, state: FileState) -> cst.Name | None:
    parent = state.parent(expr)
    if (
        isinstance(parent, cst.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0].target, cst.Name)
    ):
        return parent.targets[0].target
    if isinstance(parent, (cst.AnnAssign, cst.NamedExpr)) and isinstance(parent.target, cst.Name):
        return parent.target
    return None


def _first_only(node: cst.CSTNode, state: FileState, shape: str) -> bool:
    """Is this use `x.roots[0]` (result) or `x[0]` (list)?"""
    parent = state.parent(node)
    if shape == "result":
        if not (isinstance(parent, cst.Attribute) and parent.attr.value == "roots"):
            return False
        node, parent = parent, state.parent(parent)
    if isinstance(parent, cst.Subscript) and len(parent.slice) == 1:
        index = parent.slice[0].slice
        return (
            isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0"
        )
    return False


def _binding(call: cst.Call, state: FileState) -> tuple[cst.Name | None, cst.CSTNode, bool]:
    """(name bound to the result, the result expression, whether the name holds `.roots` already)."""
    result = _climb(call, state)
    parent = state.parent(result)
    if isinstance(parent, cst.Attribute) and parent.attr.value == "roots" and parent.value is result:
        target = _bound_name(parent, state)
        if target is not None:
            return target, parent, True
    return _bound_name(result, state), result, False


def _neutral_use(node: cst.CSTNode, state: FileState) -> bool:
    """A use that says nothing about how many roots matter: `x is None`, `if x:`, `not x`."""
    parent = state.parent(node)
    if isinstance(parent, cst.Comparison):
        return all(_is_none(c.comparator) for c in parent.comparisons)
    if isinstance(parent, (cst.If, cst.While)) and parent.test is node:
        return True
    return isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)


def _uses(call: cst.Call, shape: str, state: FileState) -> str:
    target, result, via_roots = _binding(call, state)
    if via_roots:
        shape = "list"
    if target is None:
        return "first" if _first_only(result, state, shape) else "list"
    scope = state.scope(target)
    if scope is None:
        return "list"
    accesses = [
        a for a in scope.accesses if a.node is not target and getattr(a.node, "value", None) == target.value
    ]
    accesses = [a for a in accesses if not _neutral_use(a.node, state)]
    if accesses and all(_first_only(a.node, state, shape) for a in accesses):
        return "first"
    return "list"


def _local_refusal(call: cst.Call, state: FileState) -> tuple[str, str] | None:
    func = state.function
    if func is None:
        return None
    # A wrapper returned by its enclosing function: a decorator that reads roots for every tool it wraps.
    outer = state.parent(func)
    while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.Module)):
        outer = state.parent(outer)
    if (
        isinstance(outer, cst.FunctionDef)
        and _returns_name(outer, func.name.value)
        and _calls_param(func, outer)
    ):
        return ("MR104", "roots read in a decorator that wraps tools; give each wrapped tool a path argument")
    # `except McpError as e: ... e.error.code`: the shim's error cannot be handed to that handler.
    reads_error = _except_widen.refusal(call, state)
    if reads_error is not None:
        return reads_error
    # `roots is None` versus an empty list: the code tells "no roots capability" from "no roots".
    target = _binding(call, state)[0]
    params = {
        p.name.value for p in (*func.params.params, *func.params.kwonly_params, *func.params.posonly_params)
    }
    # A roots-capability check in front of the call would keep an explicit argument from ever being read:
    # the rewrite widens it to "argument given, or the old condition" (_capability_guard), else it is marked.
    if _capability_guard.has_check(func) and _capability_guard.guards(call, func, state) is None:
        return (
            "MR105",
            "a roots-capability check guards this call: with a path argument the check must go; decide what "
            "a client without roots and without the argument gets",
        )
    # Parameters (an existing path argument) and globals (a cache's "not fetched yet") are not roots states.
    not_roots = params | _declared_global(func, state)
    if target is not None and _compares_none(func, _derived_names(func, target.value) - not_roots):
        derived = _derived_names(func, target.value) - not_roots
        if flow.none_on_failure(func, target.value) and not flow.tests_truth(func, derived):
            return (
                "MR105",
                f"when the call fails this code sets `{target.value} = None` and goes on without the client's "
                "roots; with a path argument a request that passes none would fail instead: decide which an "
                "absent argument should get",
            )
        return (
            "MR105",
            "this code treats 'client has no roots' (None) differently from 'empty list': decide what "
            "an absent path argument means here",
        )
    return None


def _calls_param(inner: cst.FunctionDef, outer: cst.FunctionDef) -> bool:
    """A decorator's wrapper calls the function it wraps: a parameter of the enclosing function."""
    params = {
        p.name.value
        for p in (*outer.params.posonly_params, *outer.params.params, *outer.params.kwonly_params)
    }
    called: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name):
                called.add(node.func.value)

    inner.body.visit(Calls())
    return bool(called & params)


def _declared_global(func: cst.FunctionDef, state: FileState) -> frozenset[str]:
    """The names `func` declares global or nonlocal (once per function: every call in it asks)."""
    cache = state.extra.setdefault("declared_globals", {})
    if func in cache:
        return cast(frozenset[str], cache[func])
    names: set[str] = set()

    class Declared(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            names.update(item.name.value for item in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            names.update(item.name.value for item in node.names)

    state.walk(func.body, Declared())
    cache[func] = found = frozenset(names)
    return found


def _returns_name(func: cst.FunctionDef, name: str) -> bool:
    found = False

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            nonlocal found
            if isinstance(node.value, cst.Name) and node.value.value == name:
                found = True

    func.body.visit(Returns())
    return found


# Calls whose result still is (part of) the roots value they are given.
_PASS_THROUGH = frozenset({"list", "tuple", "set", "sorted", "reversed", "iter", "next", "getattr", "len"})


def _derived_names(func: cst.FunctionDef, seed: str) -> set[str]:
    names = {seed}

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            value = node.value
            call = value if isinstance(value, cst.Call) else None
            if call is not None and isinstance(call.func, cst.Name) and call.func.value not in _PASS_THROUGH:
                return  # `path = _uri_to_path(roots[0].uri)`: its None is that function's answer
            used = {n.value for n in _names_in(value)}
            if used & names:
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        names.add(target.target.value)

    for _ in range(2):
        func.body.visit(Assigns())
    return names


def _names_in(node: cst.CSTNode) -> list[cst.Name]:
    found: list[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.append(n)

    node.visit(Names())
    return found


def _compares_none(func: cst.FunctionDef, names: set[str]) -> bool:
    hit = False

    class Compare(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            nonlocal hit
            if isinstance(node.left, cst.Name) and node.left.value in names:
                for target in node.comparisons:
                    if isinstance(target.operator, (cst.Is, cst.IsNot)) and _is_none(target.comparator):
                        hit = True

    func.body.visit(Compare())
    return hit


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _guarding_param(call: cst.Call, state: FileState) -> str | None:
    """An existing path parameter whose emptiness guards this site (`if not repo_path: ...roots...`)."""
    func = state.function
    if func is None:
        return None
    params = {p.name.value for p in (*func.params.params, *func.params.kwonly_params)}
    candidates = params & set(state.settings.path_params)
    if not candidates:
        return None
    node: cst.CSTNode | None = state.parent(call)
    while node is not None and node is not func:
        test = getattr(node, "test", None)
        if isinstance(node, (cst.If, cst.IfExp, cst.While)) and test is not None:
            mentioned = {n.value for n in _names_in(test)} & candidates
            if mentioned:
                return sorted(mentioned)[0]
        if isinstance(node, cst.BooleanOperation):
            mentioned = {n.value for n in _names_in(node.left)} & candidates
            if mentioned:
                return sorted(mentioned)[0]
        node = state.parent(node)
    return None


# -----------------------------------------------------------------------------------------------------
# The package plan: plain data in, plain data out.


Key = tuple[str, str]  # (import root, module.qualname): a function's identity across the run


def import_root(summary: Summary) -> str:
    """The folder a module is imported from (its `sys.path` entry): the folder above its top-level package, or
    a loose file's own folder. Two `server.py` in sibling folders are two modules (README, "How it works")."""
    import os

    return os.path.dirname(summary.package_root) if summary.package else summary.package_root


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
        for path, summary in summaries.items():
            root = import_root(summary)
            self.modules.add((root, summary.module))
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
        for key, (_, func) in self.by_key.items():
            resolved = ((self.resolve(key[0], callee), pos) for callee, pos in func.calls)
            self.calls[key] = [(k, pos) for k, pos in resolved if k is not None]

    def resolve(self, root: str, fq: str) -> Key | None:
        if (root, fq) in self.by_key:
            return (root, fq)
        # A module of the caller's own root shadows its namesakes elsewhere (whose function this is not).
        module = fq.rpartition(".")[0]
        while module:
            if (root, module) in self.modules:
                return None
            module = module.rpartition(".")[0]
        roots = self.roots_of.get(fq, ())
        return (roots[0], fq) if len(roots) == 1 else None

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


def plan_package(summaries: Mapping[str, Summary], settings: Any) -> dict[str, Plan]:
    """The package plan. A pure function of the summaries: it reads them and never writes to them (the engine
    plans the same summaries more than once: the local guess, then the group)."""
    models = _models(summaries)
    funcs = _Functions(summaries, models)
    by_key, calls = funcs.by_key, funcs.calls
    refused: dict[Key, tuple[str, str]] = {}  # refusals decided here (the summaries' own stay as they are)
    param = settings.param_name

    # Roots that bound what a tool may touch must not become the caller's choice: marked (MR109). _bounds reads
    # dotted names: each import root with its own functions and the ones only one other root defines (resolve).
    bounded: dict[Key, dict[Pos, tuple[str, str]]] = {}
    for root in sorted({r for r, _ in by_key}):
        view = {fq: entry for (r, fq), entry in by_key.items() if r == root or len(funcs.roots_of[fq]) == 1}
        for (fq, pos), why in _bounds.refuse(view, settings.allowlist_env).items():
            key = (root, fq) if (root, fq) in by_key else (funcs.roots_of[fq][0], fq)
            bounded.setdefault(key, {})[pos] = why
    for key, refusals in bounded.items():
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
    first = reaching(refused)
    guarded = reuse.guarded_helpers(by_key, calls, first, path_like)
    for key in sorted(first):
        func = by_key[key][1]
        helper = func.tool is None and func.value is None and key not in guarded
        name = _names.choose(param, func.taken, func.params) if helper else param
        if helper and name in func.params and not _threaded_before(key, funcs, first):
            refused[key] = ("MR106", f"helper already has a parameter named {name!r}; set param-name")
    if refused:
        reach = reaching(refused)
        guarded = reuse.guarded_helpers(by_key, calls, reach, path_like)
    else:
        reach = first
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
    # A helper's parameter: free in its body (callers pass it by this keyword).
    helper_names = {
        key: _names.choose(param, by_key[key][1].taken, by_key[key][1].params)
        for key in reach
        if by_key[key][1].tool is None and by_key[key][1].value is None and key not in guarded
    }
    for key in sorted(reach):
        path, func = by_key[key]
        plan = plans.setdefault(path, Plan())
        if func.value is not None:  # a low-level tool: the handler reads its arguments
            plan.tools[func.qualname] = (param, shape_of(key, set()), False)
            plan.values[func.qualname] = func.value
        elif func.tool is not None:
            existing = {s.existing for s in func.sites if s.refusal is None and s.existing}
            calls_reach = any(c in reach for c, _ in calls[key])
            # An existing path parameter the tool passes to a helper that reads roots only when it is unset:
            # it is already the argument (codemods/program/reuse.py).
            handed = {
                n
                for c, pos in calls[key]
                if c in guarded
                for n in [reuse.passed_at(func, pos, by_key[c][1], guarded[c].param)]
                if n is not None and path_like(n)
            }
            if len(existing) == 1 and not calls_reach:
                name, new = existing.pop(), False
            elif len(handed) == 1 and not existing and param not in func.params:
                name, new = handed.pop(), False
            else:  # the first name the body leaves free (a loop's `root` would overwrite the argument)
                name = _names.choose(param, func.taken, func.params)
                new = name not in func.params
            plan.tools[func.qualname] = (name, shape_of(key, set()), new)
            plan.values[func.qualname] = name
        elif key in guarded:
            plan.values[func.qualname] = guarded[key].value
        else:
            name = helper_names[key]
            if name not in func.params:
                plan.threaded[func.qualname] = name
            plan.values[func.qualname] = name
        for callee, pos in calls[key]:
            if callee in reach and by_key[callee][1].tool is None and callee not in guarded:
                plan.calls[pos] = plan.values[func.qualname]
                if helper_names.get(callee, param) != param:
                    plan.keywords[pos] = helper_names[callee]

    # The argument a helper's error message names: the tools' own, when all the tools reaching it agree.
    for key in sorted(reach):
        path, func = by_key[key]
        if (
            func.tool is None
            and func.value is None
            and (func.qualname in plans[path].threaded or key in guarded)
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
                elif key not in reach:
                    plan.sites[site.pos] = models[root].why_unreached(key[1])
                else:
                    plan.sites[site.pos] = None
            # `hasattr(session, "list_roots")` beside a read is its guard (rewritten with it, `_capability_guard`,
            # or marked with its reason); alone, a method taken by name that the plan does not follow.
            if func.strings and (summary.sdk or _package_of(summary) in mcp_packages):
                decided = [plans[path].sites.get(site.pos) for site in func.sites if not site.done]
                named = next((d for d in decided if d is not None), None if func.sites else _NAMED_ONLY)
                for pos in func.strings:
                    if named is not None:
                        plans.setdefault(path, Plan()).strings[pos] = named
    _plan_doubles(summaries, plans)
    for path, plan in plans.items():
        summary = summaries[path]
        # A file that only passes the value on may widen an `except McpError` (codemods/_except_widen.py).
        if any(v is None for v in plan.sites.values()) or plan.calls:
            plan.shim_import, plan.shim_path = _shim_location(summary, settings)
    return plans


_NAMED_ONLY = (
    "MR103",
    'the roots method named in a string (`getattr`/`hasattr` with "list_roots"): migrate-roots does not '
    "follow a method taken by name; review by hand where its result goes",
)


def _package_of(summary: Summary) -> tuple[str, str]:
    """(import root, top-level package); a loose module's package is its folder."""
    return import_root(summary), summary.module.split(".")[0] if summary.package else ""


def _plan_doubles(summaries: Mapping[str, Summary], plans: dict[str, Plan]) -> None:
    """Test doubles of a helper that gains the parameter get it too, or a note when they are not plain functions."""
    threaded: dict[Key, str] = {
        (import_root(summaries[path]), f"{summaries[path].module}.{qualname}"): param
        for path, plan in plans.items()
        for qualname, param in plan.threaded.items()
    }
    shapes: dict[Key, frozenset[str]] = {
        (import_root(summaries[path]), f"{summaries[path].module}.{qualname}"): plan.helper_shapes.get(
            qualname, frozenset({"any"})
        )
        for path, plan in plans.items()
        for qualname in plan.threaded
    }
    if not threaded:
        return
    for path, summary in summaries.items():
        for double in summary.doubles:
            helper = _patched(double.target, import_root(summary), threaded)
            if helper is None:
                continue
            param, short = threaded[helper], helper[1].rpartition(".")[2]
            if double.fake is None:
                plans.setdefault(path, Plan()).double_notes[double.pos] = (param, short)
            elif param not in double.params and not double.kwargs:
                # `root=None` would shadow a `root` the fake reads from its enclosing scope: take **kwargs.
                if param in double.names:
                    param = "**_kwargs" if "kwargs" in double.names else "**kwargs"
                plans.setdefault(path, Plan()).doubles[double.fake] = (param, short)
                plans[path].double_shapes[double.fake] = shapes[helper]


def _patched(target: str, root: str, threaded: Mapping[Key, str]) -> Key | None:
    """The helper a patch target names: exactly, or where a module of the same package imported it; in the
    patching file's own import root first, else in the one other root that has it."""
    last, top = target.rpartition(".")[2], target.split(".")[0]
    exact = [key for key in threaded if key[1] == target]
    found = exact or sorted(
        k for k in threaded if k[1].rpartition(".")[2] == last and k[1].split(".")[0] == top
    )
    mine = [k for k in found if k[0] == root]
    if mine and (exact or len(mine) == 1):
        return mine[0]
    return found[0] if len(found) == 1 else None


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


def _shim_location(summary: Summary, settings: Any) -> tuple[str, str]:
    import os

    module = settings.shim_module
    shim_path = os.path.join(summary.package_root, f"{module}.py")
    if not summary.package:
        return module, shim_path
    top = os.path.basename(summary.package_root)
    depth = summary.package.count(".") + 1 if summary.package.startswith(top) else 1
    return "." * depth + module, shim_path


# -----------------------------------------------------------------------------------------------------
# The rewrite walk: turn the plan for this file into edits.


class _Rewriter:
    def __init__(self, rule: RootsCall, state: FileState) -> None:
        self.rule = rule
        self.state = state
        self.plan: Plan = state.plan.get(RootsCall.code) or Plan()
        self.finder = _NodeFinder(state)

    def record(self) -> None:
        state, plan, finder = self.state, self.plan, self.finder
        state.walk(state.wrapper.module, finder)
        rewritten = widened = False
        for func in self.rule.functions.values():
            for site in func.sites:
                call = finder.calls.get(site.pos)
                if call is None or site.done or (site.maybe and site.pos not in plan.sites):
                    continue
                decision = plan.sites.get(site.pos, ("MR103", "roots read outside any tool call"))
                code = func.code or ("MR101" if site.shape == "result" else "MR102")
                tool = func.tool
                if decision is not None:
                    state.mark(call, decision[0], decision[1], Severity.BROKEN, tool)
                    continue
                if code not in state.enabled:
                    continue
                value = plan.values.get(func.qualname, state.settings.param_name)
                name = plan.names.get(func.qualname) or (
                    value if value.isidentifier() else state.settings.param_name
                )
                param = state.settings.param_name
                clash = param in func.taken and param not in func.params and value != param
                note = f" (`{param}` is already a name in `{func.qualname}`)" if clash else ""
                state.report(
                    call,
                    code,
                    f"roots/list from the server fails on MCP 2026-07-28 requests: now reads the `{name}` "
                    f"argument{note}, falling back to roots for legacy clients",
                    Severity.BROKEN,
                    Action.REWRITTEN,
                    tool,
                )
                render = state.wrapper.module.code_for_node
                grown = len(render(_replace_site(call, value, site.shape, name)(call))) - len(render(call))
                state.edit(call, _replace_site(call, value, site.shape, name, _wrap_at(state, call, grown)))
                _capability_guard.widen_around(call, value, state)
                widened = self._widen_handler(call) or widened
                rewritten = True
        for func in self.rule.functions.values():
            for pos in func.strings:
                decision = plan.strings.get(pos)
                call = finder.calls.get(pos)
                if decision is not None and call is not None:
                    state.mark(call, decision[0], decision[1], Severity.BROKEN, func.tool)
        self._doubles()
        if not (rewritten or plan.tools or plan.threaded or plan.calls or plan.doubles):
            return
        # One module-level alias per shape keeps tool signatures short; inline when the name is taken.
        shapes = sorted({shape for _, shape, new in plan.tools.values() if new}, reverse=True)
        taken: Any = state.scope(state.wrapper.module) or {}
        aliases = {shape: ALIASES[shape] for shape in shapes if ALIASES[shape] not in taken}
        if aliases:
            width = style_of(state.path).line_length
            state.edit(state.wrapper.module, _insert_aliases(list(aliases), state.settings, width))
        for qualname, (name, shape, new) in plan.tools.items():
            info = self.rule.functions.get(qualname)
            nodes = finder.defs(info, qualname)
            if not nodes or info is None or info.value is not None:
                continue
            for node in nodes if new else ():
                state.edit(node, _add_tool_param(name, aliases.get(shape) or _inline(shape, state.settings)))
                state.edit(node, _fitted(style_of(state.path).line_length, state.pos(node)[1] - 1))
            state.extra.setdefault("tools", []).append(
                ToolChange(
                    tool=info.tool or qualname,
                    path=state.path,
                    line=info.pos[0],
                    parameter=name,
                    shape=shape,
                    reused_existing=not new,
                )
            )
        for qualname, name in plan.threaded.items():
            for node in finder.defs(self.rule.functions.get(qualname), qualname):
                helper_shapes = plan.helper_shapes.get(qualname, frozenset({"any"}))
                state.edit(node, _add_helper_param(name, _helper_type(helper_shapes, state.settings)))
                state.edit(node, _fitted(style_of(state.path).line_length, state.pos(node)[1] - 1))
                state.report(
                    node.name,
                    "MR107",
                    f"`{qualname}` now takes `{name}=None` (the tool's path argument, passed down): update test "
                    "doubles and callers outside this package",
                    Severity.INFO,
                    Action.REWRITTEN,
                )
        for pos, value in plan.calls.items():
            call = finder.calls.get(pos)
            if call is not None:
                keyword = plan.keywords.get(pos, state.settings.param_name)
                wrap = _wrap_at(state, call, len(f", {keyword}={value}"))
                state.edit(call, _add_keyword(keyword, value, wrap))
                _capability_guard.widen_around(call, value, state)
                widened = self._widen_handler(call) or widened
        needs = _annotation_imports(plan, state.settings.target)
        shim = own_style(state.wrapper.module, plan.shim_import, state.package)
        if rewritten:
            needs.append((shim, SHIM_FUNCTION))
            state.extra["shim"] = plan.shim_path
        if widened and plan.shim_import:
            needs.append((shim, _except_widen.NAME))
        if needs:
            state.edit(
                state.wrapper.module, ensure_imports(needs, first_party(state.path, state.package, shim))
            )

    def _widen_handler(self, call: cst.Call) -> bool:
        """`except McpError:` around the read, or around a call on the way to it, also catches the shim's
        error (codemods/_except_widen.py)."""
        handler, _ = _except_widen.handler_for(call, self.state)
        if handler is None or not self.plan.shim_import:
            return False
        self.state.edit(handler, _except_widen.widen)
        return True

    def _doubles(self) -> None:
        state, plan, finder = self.state, self.plan, self.finder
        for qualname, (name, helper) in plan.doubles.items():
            node = finder.functions.get(qualname)
            if node is not None and "MR108" in state.enabled:
                star = name.startswith("**")
                typed = _helper_type(plan.double_shapes.get(qualname, frozenset({"any"})), state.settings)
                state.edit(node, _add_star_kwargs(name[2:]) if star else _add_helper_param(name, typed))
                given = f"`{name}` (a `{state.settings.param_name}` parameter would shadow the name it reads)"
                state.report(
                    node.name,
                    "MR108",
                    f"test double `{qualname}` of `{helper}` now takes "
                    + (given if star else f"`{name}=None`, like the helper"),
                    Severity.INFO,
                    Action.REWRITTEN,
                )
        for pos, (name, helper) in plan.double_notes.items():
            call = finder.calls.get(pos)
            if call is not None:
                state.report(
                    call,
                    "MR108",
                    f"this test double of `{helper}` is not a function defined in this file: make it accept "
                    f"`{name}=None` (or **kwargs), as the helper now does",
                    Severity.INFO,
                )


def _inline(shape: str, settings: Any) -> str:
    description = DESCRIPTION_MANY if shape == "list" else DESCRIPTION_ONE
    return f"Annotated[{_type_text(shape, settings)}, Field(description={description!r})]".replace("'", '"')


def _annotation_imports(plan: Plan, target: tuple[int, int]) -> list[tuple[str, str]]:
    shapes = {shape for _, shape, new in plan.tools.values() if new}
    helpers = [plan.helper_shapes.get(q, frozenset({"any"})) for q in plan.threaded]
    helpers += [
        plan.double_shapes.get(q, frozenset({"any"})) for q, (n, _) in plan.doubles.items() if n[:2] != "**"
    ]
    needs: list[tuple[str, str]] = []
    if helpers and target < (3, 10):  # the helpers' `Optional[...]` annotations
        needs.append(("typing", "Optional"))
        if any(len(h) > 1 or "any" in h for h in helpers):
            needs += [("typing", "Union"), ("typing", "List")]
        elif any("list" in h for h in helpers):
            needs.append(("typing", "List"))
    if not shapes:
        return needs
    # typing.Annotated is 3.9+; typing_extensions (a pydantic dependency) has it for 3.8.
    needs += [("typing" if target >= (3, 9) else "typing_extensions", "Annotated"), ("pydantic", "Field")]
    if target < (3, 10):
        needs.append(("typing", "Optional"))
        if "list" in shapes:
            needs.append(("typing", "List"))
    return needs


class _NodeFinder(cst.CSTVisitor):
    """Position -> node, for the calls and functions the plan names."""

    def __init__(self, state: FileState) -> None:
        super().__init__()
        self.state = state
        self.calls: dict[Pos, cst.Call] = {}
        self.functions: dict[str, cst.FunctionDef] = {}
        self.by_pos: dict[Pos, cst.FunctionDef] = {}

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.setdefault(self.state.pos(node), node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.setdefault(self.state.qualname(node), node)
        self.by_pos[self.state.pos(node)] = node

    def defs(self, func: Func | None, qualname: str) -> list[cst.FunctionDef]:
        """Every definition of the function the plan names `qualname` (`Func.defs`), or the first by name."""
        if func is None:
            node = self.functions.get(qualname)
            return [node] if node is not None else []
        return [self.by_pos[p] for p in (func.defs or (func.pos,)) if p in self.by_pos]


def _replace_site(
    call: cst.Call, value: str, shape: str, name: str, wrap: cst.ParenthesizedWhitespace | None = None
) -> Any:
    """The call to the shim in place of the roots call; `wrap`: its arguments on a line of their own, when the
    call's line would overflow (`_wrap_at`)."""
    func = call.func
    assert isinstance(func, cst.Attribute)
    receiver = func.value
    if shape == "result" and isinstance(receiver, cst.Attribute) and receiver.attr.value == "session":
        holder: cst.BaseExpression = receiver.value
    else:
        holder = receiver
    args = [
        cst.Arg(holder),
        cst.Arg(cst.parse_expression(value)),
        cst.Arg(cst.SimpleString(f'"{name}"'), keyword=cst.Name("name"), equal=_EQ),
    ]
    if shape == "list":
        args.append(cst.Arg(cst.SimpleString('"list"'), keyword=cst.Name("shape"), equal=_EQ))

    def change(updated: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(updated, cst.Call)
        new_holder = updated.func.value if isinstance(updated.func, cst.Attribute) else holder
        if shape == "result" and isinstance(new_holder, cst.Attribute) and new_holder.attr.value == "session":
            new_holder = new_holder.value
        new_args = [args[0].with_changes(value=new_holder), *args[1:]]
        if wrap is None:
            return updated.with_changes(func=cst.Name(SHIM_FUNCTION), args=new_args)
        closing = wrap.with_changes(last_line=cst.SimpleWhitespace(wrap.last_line.value[:-4]))
        new_args[-1] = new_args[-1].with_changes(whitespace_after_arg=closing)
        return updated.with_changes(func=cst.Name(SHIM_FUNCTION), args=new_args, whitespace_before_args=wrap)

    return change


_EQ = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


ALIASES = {"single": "RootPath", "list": "RootPaths"}
_ALIAS_COMMENT = (
    "# Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28, SEP-2577)."
)


def _type_text(shape: str, settings: Any) -> str:
    old = settings.target < (3, 10)
    inner = ("List[str]" if old else "list[str]") if shape == "list" else "str"
    return f"Optional[{inner}]" if old else f"{inner} | None"


def _alias_statement(shape: str, settings: Any, width: int = 110) -> str:
    """`RootPath = Annotated[str | None, Field(description=...)]`, laid out as ruff/black would, the
    description in as many string pieces as the project's line length (`width`) needs."""
    text = _schema_text.string_lines(_schema_text.description(shape), len("        description="), 8, width)
    return (
        f"{ALIASES[shape]} = Annotated[\n"
        f"    {_type_text(shape, settings)},\n"
        "    Field(\n"
        f"        description={text}\n"
        "    ),\n"
        "]\n"
    )


def _insert_aliases(shapes: list[str], settings: Any, width: int = 110) -> Any:
    """Module edit: the annotation aliases, right after the leading imports (with one comment above)."""
    texts = [_alias_statement(shape, settings, width) for shape in shapes]
    return _schema_text.insert_after_imports(texts, _ALIAS_COMMENT, width)


def _fitted(width: int, column: int) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        return fit(node, width, column)

    return change


def _add_tool_param(name: str, annotation_text: str) -> Any:
    annotation = cst.Annotation(cst.parse_expression(annotation_text))

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        param = cst.Param(cst.Name(name), annotation=annotation, default=cst.Name("None"))
        return node.with_changes(params=_append_param(node.params, param))

    return change


def _add_helper_param(name: str, annotation_text: str | None = None) -> Any:
    """`name=None`, or `name: <type> = None` (a helper gets the type of what its tools pass down)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        if annotation_text is None:
            param = cst.Param(cst.Name(name), default=cst.Name("None"), equal=_EQ)
        else:
            annotation = cst.Annotation(cst.parse_expression(annotation_text))
            param = cst.Param(cst.Name(name), annotation=annotation, default=cst.Name("None"))
        return node.with_changes(params=_append_param(node.params, param))

    return change


def _helper_type(shapes: frozenset[str], settings: Any) -> str:
    """The type of a threaded helper parameter: what the tools reaching it pass (their types, or both)."""
    if len(shapes) == 1 and "any" not in shapes:
        return _type_text(next(iter(shapes)), settings)
    if settings.target < (3, 10):
        return "Optional[Union[str, List[str]]]"
    return "str | list[str] | None"


def _add_star_kwargs(name: str) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        return node.with_changes(params=node.params.with_changes(star_kwarg=cst.Param(cst.Name(name))))

    return change


def _append_param(params: cst.Parameters, param: cst.Param) -> cst.Parameters:
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.kwonly_params:
        return params.with_changes(kwonly_params=_append(params.kwonly_params, param))
    if params.star_kwarg is not None and not params.params:
        return params.with_changes(kwonly_params=[param], star_arg=cst.ParamStar())
    return params.with_changes(params=_append(params.params, param))


def _append(items: Any, new: Any) -> list[Any]:
    """`items + [new]` in the list's own layout: one a line with a trailing comma stays so."""
    out = list(items)
    if not out:
        return [new]
    last = out[-1]
    if isinstance(last.comma, cst.Comma) and isinstance(
        last.comma.whitespace_after, cst.ParenthesizedWhitespace
    ):
        # Exploded, trailing comma: the new item takes the last one's comma (newline before the bracket) and the
        # last one takes its neighbour's (newline and indent).
        inner = out[-2].comma if len(out) > 1 and isinstance(out[-2].comma, cst.Comma) else None
        if inner is None:
            indent = last.comma.whitespace_after.with_changes(
                last_line=cst.SimpleWhitespace(_indent_of(last.comma.whitespace_after) + "    ")
            )
            inner = last.comma.with_changes(whitespace_after=indent)
        out[-1] = last.with_changes(comma=inner)
        return [*out, new.with_changes(comma=last.comma)]
    space_field = "whitespace_after_param" if isinstance(last, cst.Param) else "whitespace_after_arg"
    space = getattr(last, space_field, None)
    if last.comma is cst.MaybeSentinel.DEFAULT and isinstance(space, cst.ParenthesizedWhitespace):
        # Exploded, no trailing comma (the newline before the bracket is the last item's): the new item goes
        # on a line of its own, indented like its siblings, and takes that newline.
        inner = out[-2].comma if len(out) > 1 and isinstance(out[-2].comma, cst.Comma) else None
        if inner is None or not isinstance(inner.whitespace_after, cst.ParenthesizedWhitespace):
            line = space.with_changes(last_line=cst.SimpleWhitespace(_indent_of(space) + "    "))
            inner = cst.Comma(whitespace_after=line)
        out[-1] = last.with_changes(comma=inner, **{space_field: cst.SimpleWhitespace("")})
        return [*out, new.with_changes(**{space_field: space})]
    if last.comma is cst.MaybeSentinel.DEFAULT:
        out[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
        # `(\n    a, b\n)`: the newline before the bracket follows the last item; it moves to the new one.
        for attr in ("whitespace_after_param", "whitespace_after_arg"):
            space = getattr(last, attr, None)
            if isinstance(space, cst.ParenthesizedWhitespace):
                out[-1] = out[-1].with_changes(**{attr: cst.SimpleWhitespace("")})
                new = new.with_changes(**{attr: space})
    return [*out, new]


def _indent_of(space: cst.ParenthesizedWhitespace) -> str:
    return space.last_line.value if isinstance(space.last_line, cst.SimpleWhitespace) else ""


def _add_keyword(keyword: str, value: str, wrap: cst.ParenthesizedWhitespace | None = None) -> Any:
    """`keyword=value` appended to a call's arguments, in their layout; `wrap`: the line break before it when
    the call's one line would overflow (`_wrap_at`)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        if any(a.keyword is not None and a.keyword.value == keyword for a in node.args):
            return node
        arg = cst.Arg(cst.parse_expression(value), keyword=cst.Name(keyword), equal=_EQ)
        if wrap is None:
            return node.with_changes(args=_append(node.args, arg))
        args = list(node.args)
        if not args:
            return node.with_changes(args=[arg], whitespace_before_args=wrap)
        comma = args[-1].comma if isinstance(args[-1].comma, cst.Comma) else cst.Comma()
        args[-1] = args[-1].with_changes(comma=comma.with_changes(whitespace_after=wrap))
        return node.with_changes(args=[*args, arg])

    return change


def _wrap_at(state: FileState, node: cst.CSTNode, added: int) -> cst.ParenthesizedWhitespace | None:
    """A line break, four columns in from its line, when `added` characters would make the one line `node`
    sits on longer than the project's line length (a node over several lines keeps its own layout)."""
    if "\n" in state.wrapper.module.code_for_node(node):
        return None
    line = state.lines[state.pos(node)[0] - 1]
    if len(line) + added <= style_of(state.path).line_length:
        return None
    return cst.ParenthesizedWhitespace(
        indent=True, last_line=cst.SimpleWhitespace(" " * (_extra(state, node) + 4))
    )


def _extra(state: FileState, node: cst.CSTNode) -> int:
    """How far `node`'s line is indented beyond its statement's first line: a wrapped line is indented from the
    statement's block (`indent=True`), which a later edit may move (a `try` the low-level rule adds)."""
    line = state.lines[state.pos(node)[0] - 1]
    first = state.lines[state.pos(state.statement_of(node))[0] - 1]
    return max(0, (len(line) - len(line.lstrip())) - (len(first) - len(first.lstrip())))


class FastmcpListRoots(Rule):
    code = "MR102"
    name = "fastmcp-list-roots"
    summary = (
        "fastmcp `ctx.list_roots()` in a tool (removed in fastmcp 4): rewritten like MR101, list shape kept."
    )
    severity = Severity.BROKEN
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = RootsCall.limits


class RootsOutsideRequest(Rule):
    code = "MR103"
    name = "roots-outside-request"
    summary = "Roots read outside a tool call (startup, handler, captured session): marked for a person."
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Never rewritten: no request exists there to carry a path argument. Use server configuration."


class RootsInWrapper(Rule):
    code = "MR104"
    name = "roots-in-wrapper"
    summary = "Roots read in a decorator wrapping tools, or in a tool with a synthesized signature: marked."
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "The wrapped tools' signatures are not in the code, so no parameter can be added with certainty."


class RootsNoneVersusEmpty(Rule):
    code = "MR105"
    name = "roots-none-versus-empty"
    summary = (
        "Code that tells 'no roots capability' (None) from 'empty roots list': marked (a security boundary)."
    )
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Deciding what a missing path argument means here is a security decision left to a person."


class HelperSignatureChanged(Rule):
    code = "MR107"
    name = "helper-signature-changed"
    summary = "A helper on the way from a tool to roots gained a keyword parameter: callers outside the package may need it."
    severity = Severity.INFO
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Callers outside the files of the run are not seen; fakes of the helper in the run are MR108's."


class TestDoubleSignature(Rule):
    code = "MR108"
    name = "test-double-signature"
    summary = "A test's fake of a helper that gained the path parameter: given the same parameter."
    severity = Severity.INFO
    fix = "safe"
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = (
        "Only doubles in the files of the run (pass your tests folder too: `migrate-roots apply src tests`), "
        "installed with monkeypatch.setattr, setattr or [mock.]patch[.object] and defined in the same file as "
        "a def; lambdas and imported fakes are reported (MR108, info), Mock objects need nothing."
    )


class RootsBound(Rule):
    code = "MR109"
    name = "roots-bound"
    summary = (
        "Roots used as a bound on the paths a tool may touch: marked, never turned into the caller's choice."
    )
    severity = Severity.BROKEN
    tokens = TOKENS
    runner = RootsCall
    limits = (
        "Recognised: is_relative_to, relative_to under try, commonpath/commonprefix, a prefix test on a resolved "
        "path, a raise saying 'outside', on the way from the tool to the read or one call away. A bound checked "
        "further away (or spelled otherwise) is not seen; the shim's allow-list variable is the operator's bound."
    )


class RootsParamClash(Rule):
    code = "MR106"
    name = "roots-param-clash"
    summary = "A helper on the way to roots already has a parameter with the configured name: marked."
    severity = Severity.BROKEN
    tokens = TOKENS
    requires = b""
    runner = RootsCall
    limits = "Set `param-name` in [tool.migrate-roots] to a free name and run again."
