"""Site discovery for the roots-call family: the walk (`SiteIndex`, the index half of `RootsCall`) that records
each function (`Func`), the roots sites in it, the calls it makes, its tool and handler registrations and the
test doubles; and the small tree queries it needs (which call is a roots site, a test's patch, a callee's
fully qualified names).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from migrate_roots.codemods import (
    _bounds,
    _fastmcp_forms,
    _names,
    _roots_absorbed,
    _roots_call_facts,
    _roots_decorated,
    _sdk_imports,
    _test_patches,
)
from migrate_roots.codemods._param_types import module_runners, unfit_params
from migrate_roots.codemods._roots_edits import ALIASES
from migrate_roots.codemods._roots_handed_to import (
    _fq,
    _handed_to,
    _is_compat_call,
    _names_roots_method,
    _short_code,
    handed_values,
    imported_ref,
)
from migrate_roots.codemods._roots_model import BOUND_FUNCTION, Func, Pos, Site
from migrate_roots.codemods._roots_receiver import outside_functions, receiver_site
from migrate_roots.codemods._roots_refusals import (
    _names_in,
    _returns_name,
    _uses,
    record_guards,
)
from migrate_roots.codemods._roots_taken import taken_receiver, taken_site
from migrate_roots.codemods._roots_untyped import unbound_site
from migrate_roots.codemods._roots_uses import (
    INPUT_REQUEST,
    REQUEST_BY_HAND,
    RESOLVED_ROOTS,
    hand_request,
    held_method,
    input_request,
    is_roots_list,
    kept_target,
    raw_roots_request,
    spells,
)
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import module_scan, recognise, typed
from migrate_roots.codemods.program.facts import Registration


class SiteIndex:
    """The index walk of `RootsCall`: per file, the functions, their roots sites, calls and registrations."""

    def __init__(self) -> None:
        self.functions: dict[str, Func] = {}
        self.signatures: set[str] = set()  # functions given a synthesized __signature__
        # ... with where each is set: (the function setting it, the value given), for `run_time.declared`.
        self.factories: dict[str, list[tuple[cst.FunctionDef | None, str, cst.BaseExpression]]] = {}
        # add_tool(fn) registrations: (function reference, tool name, enclosing function, where, as written,
        # the function's fully qualified name when it is imported from another module).
        self.added_tools: list[tuple[str, str | None, str, Pos, str, str]] = []
        # Patches seen: (target, patch call position, replacement, qualnames the fake's name may have).
        self.patches: list[tuple[str, Pos, cst.BaseExpression, tuple[str, ...]]] = []
        self.defs: dict[str, cst.FunctionDef] = {}
        self.registrations: list[Registration] = []  # on server objects the model resolves
        self.opaque: tuple[tuple[str, int], ...] = ()  # tools registered from values no function names
        self.handed: list[tuple[str, str, int]] = []  # project functions handed by name to a call
        # Attribute writes that outlive the request, per function (the attribute, the names its value reads),
        # and calls whose result a local name holds: (caller, call position, function, the names).
        self.writes: dict[cst.FunctionDef, list[tuple[str, frozenset[str], Pos]]] = {}
        self.pending: list[tuple[Func, Pos, cst.FunctionDef, frozenset[str]]] = []
        self.transforms: list[_fastmcp_forms.Transform] = []  # `Tool.from_tool(tool, transform_fn=fn)` calls
        self.registered_at: dict[Pos, cst.Call] = {}  # registration calls, for their `exclude_args`

    # --- the walk ------------------------------------------------------------------------------------
    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if isinstance(node, cst.Module):
            _sdk_imports.note_sdk_imports(state)
            module_scan.note_module(state)
        elif isinstance(node, cst.FunctionDef):
            self._function(node, state)
        elif isinstance(node, cst.Call):
            self._call(node, state)
            self._hand_request(node, state)
            args = node.args
            if (
                isinstance(node.func, cst.Name)
                and node.func.value == "setattr"
                and len(args) == 3
                and isinstance(args[0].value, cst.Name)
                and isinstance(args[1].value, cst.SimpleString)
                and args[1].value.evaluated_value == "__signature__"
            ):
                self._signature(args[0].value.value, args[2].value, state)
        elif isinstance(node, cst.DictElement):
            self._hand_request(node, state)
        elif isinstance(node, cst.Attribute) and node.attr.value == "list_roots":
            self._taken(node, state)
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            if state.function is not None:
                self._attribute_write([node.target], node.value, state, state.pos(node))
            if isinstance(node, cst.AnnAssign) and node.value is not None:
                self._held_method([node.target], node.value, state)
        elif isinstance(node, cst.Assign):
            if state.function is not None:
                self._attribute_write([t.target for t in node.targets], node.value, state, state.pos(node))
            self._held_method([t.target for t in node.targets], node.value, state)
            self._named_constant(node, state)
            for target in node.targets:
                t = target.target
                if (
                    isinstance(t, cst.Attribute)
                    and t.attr.value == "__signature__"
                    and isinstance(t.value, cst.Name)
                ):
                    self._signature(t.value.value, node.value, state)

    def _named_constant(self, node: cst.Assign, state: FileState) -> None:
        """`ROOTS_ATTR = "list_roots"` at module level, named nowhere else in the file: the method's name kept
        for another module's `getattr(session, ROOTS_ATTR)` (sweep A's r06 of session 15), reported here."""
        value = node.value
        if state.function is not None or not (
            isinstance(value, cst.SimpleString) and value.evaluated_value == "list_roots"
        ):
            return
        target = node.targets[0].target if len(node.targets) == 1 else None
        if isinstance(target, cst.Name) and sum(target.value in line for line in state.lines) == 1:
            owner = self.functions.setdefault("<module>", Func("<module>", (1, 1), ()))
            owner.strings.append(state.pos(value))

    def _signature(self, name: str, value: cst.BaseExpression, state: FileState) -> None:
        """`name.__signature__ = value` (or `setattr(name, "__signature__", value)`): a tool built at run time."""
        self.signatures.add(name)
        owner = state.qualname(state.function) if state.function is not None else ""
        self.factories.setdefault(name, []).append((state.function, owner, value))

    def _held_method(
        self, targets: list[cst.BaseExpression], value: cst.BaseExpression, state: FileState
    ) -> None:
        """`ROOTS_LIST = "roots/list"` and its kin (`_roots_uses.held_method`): reported where it is kept."""
        if not spells(state, "roots/"):
            return
        func_node = state.function
        caller = self.functions.get(state.qualname(func_node)) if func_node is not None else None
        for literal, why in held_method(targets, value):
            self._raw_site(caller, state.pos(literal), why)

    def _hand_request(self, node: cst.DictElement | cst.Call, state: FileState) -> None:
        if not spells(state, "roots/"):
            return
        kind = hand_request(node, state)
        if kind is None:
            return
        func_node = state.function
        caller = self.functions.get(state.qualname(func_node)) if func_node is not None else None
        if kind == "named":
            where = (
                f"a call of `{_short_code(state, node.func)}`"
                if isinstance(node, cst.Call)
                else "a key of a table"
                if is_roots_list(node.key)
                else "a dict with no other JSON-RPC field"
            )
            self._raw_site(
                caller,
                state.pos(node),
                f"the roots/list method name, here in {where}: if this sends a request to the client, MCP "
                "2026-07-28 requests cannot answer it (give the tools that need the directory a path argument, "
                "by hand); code that checks, answers or labels an incoming roots/list needs no change",
            )
            return
        self._raw_site(
            caller,
            state.pos(node),
            REQUEST_BY_HAND,
        )

    def _taken(self, node: cst.Attribute, state: FileState) -> None:
        """`ctx.session.list_roots` not called here: a roots reference too (`run(ctx.session.list_roots)`)."""
        site = taken_site(node, state)
        if site is not None:
            func_node = state.function
            caller = self.functions.get(state.qualname(func_node)) if func_node is not None else None
            (caller or self.functions.setdefault("<module>", Func("<module>", (1, 1), ()))).sites.append(site)

    def _raw_site(self, caller: Func | None, pos: Pos, why: str) -> None:
        """A roots request migrate-roots never rewrites (raw, or by hand): a site refused under MR101."""
        owner = caller or self.functions.setdefault("<module>", Func("<module>", (1, 1), ()))
        site = Site(pos, "result", "list")
        site.refusal = ("MR101", why)
        owner.sites.append(site)

    def _attribute_write(
        self,
        targets: Sequence[cst.BaseExpression],
        value: cst.BaseExpression | None,
        state: FileState,
        where: Pos,
    ) -> None:
        func = state.function
        if value is None or func is None or not any(isinstance(t, cst.Attribute) for t in targets):
            return
        kept = kept_target(targets, func, state)
        if kept is not None:
            self.writes.setdefault(func, []).append(
                (kept, frozenset(n.value for n in _names_in(value)), where)
            )

    def stores(self) -> None:
        """`found = await helper(ctx)`, then `self._roots = found` (or a value made of it) in the function: the
        call's result is kept on the attribute (read by `_kept_on_way`)."""
        for caller, position, func, names in self.pending:
            kept = next(((t, at) for t, used, at in self.writes.get(func, ()) if used & names), None)
            if kept is not None:
                caller.stores.setdefault(position, kept[0])
                caller.stored_at.setdefault(position, kept[1])
        self.pending.clear()

    def _function(self, node: cst.FunctionDef, state: FileState) -> None:
        params = node.params
        names = tuple(p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params))
        func = Func(qualname=state.qualname(node), pos=state.pos(node), params=names)
        func.kwargs = isinstance(params.star_kwarg, cst.Param)
        func.star = params.star_kwarg.name.value if isinstance(params.star_kwarg, cst.Param) else ""
        func.positional = len(params.posonly_params) + len(params.params)
        func.taken, func.returns = _names.taken_and_returned(
            node, state.settings.param_name, frozenset(names), state.walk
        )
        # A fact for the plan only (the rewrite walk applies a plan made of the index walk's summaries).
        func.bound_sign = _bounds.facts(node, state.pos, state.walk) if state.phase == "index" else None
        func.gives = typed.returned_class(state, node, lambda n: _fq(state, n))
        outer = _roots_decorated.classify(func, node, state, self.registrations)
        if isinstance(outer, cst.FunctionDef):
            func.handed_to = _handed_to(outer, node.name.value, state)
            func.made_tool = _handed_to(outer, node.name.value, state, sdk_tool=True)
        if isinstance(outer, cst.FunctionDef) and _returns_name(outer, node.name.value):
            func.returned_by = state.qualname(outer)
            ps = outer.params
            func.outer_params = tuple(
                x.name.value for x in (*ps.posonly_params, *ps.params, *ps.kwonly_params)
            )
        runners = state.extra.get("runners")
        if runners is None:
            runners = state.extra["runners"] = module_runners(state.wrapper.module, state.walk)
        func.runners = runners
        func.not_paths, func.fixed = unfit_params(params, state.walk)
        _fastmcp_forms.schema_names(func, node, state)  # aliased and hidden (`exclude_args`) parameters
        shape_of_alias = {alias: shape for shape, alias in ALIASES.items()}
        for p in (*params.posonly_params, *params.params, *params.kwonly_params):
            note = p.annotation.annotation if p.annotation is not None else None
            if isinstance(note, cst.Name) and note.value in shape_of_alias:
                func.aliased[p.name.value] = shape_of_alias[note.value]
        like = state.extra.get("tool_like", {}).get(node)
        if like is not None:
            func.tool, func.value, func.code, func.refusal, func.called = like[1:]
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
            # A closure's read of its enclosing tool's `root`: the tool's, as in run one.
            caller = self._param_owner(value, func_node, state) or caller
            if isinstance(value, cst.BooleanOperation) and isinstance(value.operator, cst.Or):
                done.loose, value = True, value.left  # `repo_path or None`
            if isinstance(value, cst.Name) and value.value in caller.params:
                done.existing = value.value  # the parameter this tool (or helper) already passes
                caller.guards[done.pos] = value.value  # the value there, as when it guarded the first run
            elif func_node is not None:
                # `list_roots_compat(ctx, None)` behind its guard
                record_guards(node, done.pos, caller, state)
            caller.sites.append(done)
            return
        if caller is not None and _is_compat_call(node, state, BOUND_FUNCTION):
            # An earlier run took the operator's bound here (MR110): nothing left to mark.
            caller.in_place = True
        if _names_roots_method(node, state):
            owner = caller or self.functions.setdefault("<module>", Func("<module>", (1, 1), ()))
            owner.strings.append(state.pos(node))
        if any(q.startswith("mcp.") and q.endswith(".ListRoots") for q in _fq(state, node.func)):
            self._raw_site(
                caller, state.pos(node), RESOLVED_ROOTS
            )  # mcp 2.x: `Resolve(fn)`, fn -> ListRoots()
            return
        if input_request(node, state):
            self._raw_site(caller, state.pos(node), INPUT_REQUEST)
            return
        raw = raw_roots_request(node, state)
        if raw is not None:
            self._raw_site(
                caller,
                state.pos(raw),
                "roots asked for as a raw request (`send_request(... ListRootsRequest ...)`), which fails on MCP "
                "2026-07-28 requests: migrate-roots rewrites `list_roots()` calls only; give the tools that reach "
                "it a path argument and call `list_roots_compat` here by hand (if the roots carry a token or an "
                "id rather than a directory, a non-`file://` URI, move it to the server's configuration instead: "
                "a tool argument is shown to the model; so too if they bound what the tools may touch: the caller "
                "must not choose its own bound)",
            )
            return
        unbound = unbound_site(node, state)  # `ServerSession.list_roots(ctx.session)`
        if unbound is not None:
            (caller or self.functions.setdefault("<module>", Func("<module>", (1, 1), ()))).sites.append(
                unbound
            )
            return
        receiver = (
            target.value
            if isinstance(target, cst.Attribute) and target.attr.value == "list_roots" and not node.args
            else taken_receiver(node, state)  # `fetch = ctx.session.list_roots`, then `fetch()`
        )
        if receiver is not None:
            site = receiver_site(node, receiver, state)
            if site is not None and caller is not None and func_node is not None:
                owner = self._closure_owner(caller, func_node, state)
                site.nested = func_node.name.value if owner is not caller else None
                caller = owner
            if site is not None:
                site.absorbed = _roots_absorbed.absorbed(node, state)
                if caller is not None and func_node is not None:
                    record_guards(node, site.pos, caller, state)
                if caller is None:
                    site.refusal = ("MR103", outside_functions(node, state))
                    self.functions.setdefault("<module>", Func("<module>", (1, 1), ())).sites.append(site)
                else:
                    caller.sites.append(site)
                return
            # Not the SDK's read: maybe the project's own `list_roots` (a method of a Context subclass): a call.
        _fastmcp_forms.note_transform(self.transforms, node, state, func_node)
        registered = recognise.call(state, node, state.pos(node))
        if registered is not None:
            qualname, found = registered
            self.registered_at[state.pos(node)] = node
            if found.pending is None:
                scope = state.qualname(func_node) if func_node is not None else ""
                code = state.wrapper.module.code_for_node
                spelling = found.spelled or f"{code(node.func)}({code(node.args[0].value)})"
                value = node.args[0].value
                fq = sorted(_fq(state, value)) if imported_ref(value, state) else []
                imported = fq[0] if len(fq) == 1 and not fq[0].startswith(f"{state.module}.") else ""
                self.added_tools.append(
                    (qualname, found.name or None, scope, state.pos(node), spelling, imported)
                )
            else:
                self.registrations.append(found.pending)
            return
        top = caller is None or func_node is None or not state.qualname(func_node).count(".")
        given = handed_values(node, state) if top or caller is not None else []
        if top:
            self.handed += given
        if caller is not None:  # in a nested function too (sweep N, r07: `tg.start_soon(...)` in a closure)
            caller.hands += [(fq, state.pos(node), spelled) for fq, spelled, _ in given]
        patched = _test_patches.patch(node, state, lambda n: _fq(state, n))
        if patched is not None:
            scopes = [state.qualname(f) for f in state.stack if isinstance(f, cst.FunctionDef)]
            self.patches.append((patched[0], state.pos(node), patched[1], (*reversed(scopes), "")))
        if caller is not None:
            pending = _roots_call_facts.record(node, caller, func_node, state)
            if pending is not None:
                self.pending.append(pending)

    def _closure_owner(self, caller: Func, func_node: cst.FunctionDef, state: FileState) -> Func:
        """A plain nested function (`async def _call(): return await ctx.list_roots()`, handed to
        `anyio.from_thread.run` or a thread) reads its enclosing function's names: its roots read is the
        enclosing function's, which then carries the path value (the closure sees the new parameter)."""
        outer = state.parent(func_node)
        while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            outer = state.parent(outer)
        if not isinstance(outer, cst.FunctionDef) or func_node.decorators or caller.tool is not None:
            return caller
        if caller.handed_to is not None:  # handed to the project's code (`register_tools(mcp, _detect_root)`)
            return caller
        if _returns_name(outer, func_node.name.value):
            return caller  # a wrapper the enclosing function returns (MR104)
        param = state.settings.param_name
        if param in caller.params or param in {n.value for n in _names_in(func_node.body)}:
            return caller
        return self.functions.get(state.qualname(outer), caller)

    def _param_owner(
        self, value: cst.BaseExpression | None, func_node: cst.FunctionDef | None, state: FileState
    ) -> Func | None:
        """The enclosing function whose parameter `value` is, when a nested function reads it (`root` of the
        tool, read by `async def inner(): await list_roots_compat(ctx, root, ...)` after the first run)."""
        if isinstance(value, cst.BooleanOperation):
            value = value.left  # `repo_path or None`
        scope = state.scope(value) if isinstance(value, cst.Name) and func_node is not None else None
        if scope is None or not isinstance(value, cst.Name) or value.value not in scope:
            return None
        bound = [getattr(a, "node", None) for a in scope[value.value]]
        params = state.parent(bound[0]) if len(bound) == 1 and isinstance(bound[0], cst.Param) else None
        outer = state.parent(params) if params is not None else None
        if not isinstance(outer, cst.FunctionDef) or outer is func_node:
            return None
        return self.functions.get(state.qualname(outer))

    def _branch(self, node: cst.CSTNode, func_node: cst.CSTNode, state: FileState) -> Func | None:
        """The declared tool branch (a statement block of a low-level handler) holding `node`, if any."""
        current = state.parent(node)
        while current is not None and current is not func_node:
            like = state.extra["tool_like"].get(current)
            if like is not None:
                qualname, tool, value, code, refusal, called = like
                func = Func(qualname, state.pos(current), (), tool, refusal=refusal, value=value, code=code)
                func.called = called
                return self.functions.setdefault(qualname, func)
            current = state.parent(current)
        return None
