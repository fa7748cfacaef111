"""The rewrite walk of the roots-call family: turn a file's `Plan` into edits and findings (the sites, the
tools' and helpers' parameters, the calls on the way, the test doubles, the imports).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

import libcst as cst

from migrate_roots.codemods import (
    _capability_guard,
    _capability_widen,
    _except_widen,
    _imports_by_path,
    _lazy_annotations,
    _roots_run_by_name,
)
from migrate_roots.codemods._imports import ensure_imports, first_party, own_style
from migrate_roots.codemods._roots_edits import (
    ALIASES,
    _add_helper_param,
    _add_keyword,
    _add_star_kwargs,
    _add_tool_param,
    _fitted,
    _helper_type,
    _insert_aliases,
    _replace_bound,
    _replace_site,
    _type_text,
    _wrap_at,
)
from migrate_roots.codemods._roots_model import BOUND_FUNCTION, SHIM_FUNCTION, Func, Plan, Pos
from migrate_roots.codemods._roots_taken import called_here, drop_idle_binding, taken_receiver
from migrate_roots.codemods._roots_uses import held_method, is_roots_list
from migrate_roots.codemods._schema_text import DESCRIPTION_MANY, DESCRIPTION_ONE
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState
from migrate_roots.model import Action, Severity, ToolChange

if TYPE_CHECKING:
    from migrate_roots.codemods.roots_call import RootsCall


_NOT_WRITTEN = re.compile(r" \(see its MR2\d\d marker\)")


class _Rewriter:
    def __init__(self, rule: RootsCall, state: FileState) -> None:
        self.rule = rule
        self.state = state
        self.plan: Plan = state.plan.get(rule.code) or Plan()
        self.finder = _NodeFinder(state)

    def record(self) -> None:
        state, plan, finder = self.state, self.plan, self.finder
        state.walk(state.wrapper.module, finder)
        rewritten = widened = bound = False
        # Reads that take the operator's bound (MR110): their MR109 is not the plan.
        in_place: set[Pos] = set()
        for func in self.rule.functions.values():
            for site in func.sites:
                # `{"method": "roots/list"}` and `run(ctx.session.list_roots)`: only ever marked
                request = finder.requests.get(site.pos) or finder.taken.get(site.pos)
                refusal = plan.sites.get(site.pos) if request is not None else None
                if request is not None and refusal is not None:
                    state.mark(request, refusal[0], refusal[1], Severity.BROKEN, _finding_tool(func))
                    continue
                call = finder.calls.get(site.pos)
                if call is None or site.done or (site.maybe and site.pos not in plan.sites):
                    continue
                decision = plan.sites.get(site.pos, ("MR103", "roots read outside any tool call"))
                code = func.code or ("MR101" if site.shape == "result" else "MR102")
                tool = _finding_tool(func)
                edited = (
                    self._bound(call, site.shape, plan.bound[site.pos], tool)
                    if site.pos in plan.bound
                    else None
                )
                if edited is not None:
                    bound = bound or edited
                    if edited:
                        in_place.add(site.pos)
                    continue
                if decision is not None:
                    # A cache rule's reason (MR211/MR212) when that rule is not selected: the site's own code
                    # says it, else the read would be left unmarked and unrewritten without a word.
                    shown = (
                        code if decision[0].startswith("MR2") and decision[0] not in state.enabled else None
                    )
                    # ... and then that rule writes no marker to point to.
                    why = _NOT_WRITTEN.sub("", decision[1]) if shown else decision[1]
                    state.mark(call, shown or decision[0], why, Severity.BROKEN, tool)
                    continue
                if code not in state.enabled:
                    continue
                value = plan.values.get(func.qualname, state.settings.param_name)
                name = plan.names.get(func.qualname) or (
                    value if value.isidentifier() else state.settings.param_name
                )
                param = state.settings.param_name
                clash = value != param and (param in func.taken or param in func.params)
                # A helper's own `root` makes its parameter `root_path`; the client still passes the tool's name.
                held = f"passed in as `{value}`: " if value != name else ""
                note = f" ({held}`{param}` is already a name in `{func.qualname}`)" if clash else ""
                if value == "None" and func.qualname in plan.absorbed:
                    note = (
                        f" (passed in as `None`: the server's call handler takes its own `{name}` argument, and "
                        "any failure of this read is absorbed where it is made, as before)"
                    )
                elif value == "None":
                    note = f" (passed in as `None`: this read runs only when the caller leaves `{name}` out)"
                render = state.wrapper.module.code_for_node
                taken = taken_receiver(call, state)
                spelled = f"`{render(call.func)}()`" + (
                    f" (`{render(taken)}.list_roots`, taken as a value)" if taken is not None else ""
                )
                kind = "`ListRootsResult`" if site.shape == "result" else "list of `Root`"
                state.report(
                    call,
                    code,
                    f"{spelled} asks the client for roots/list, which fails on MCP 2026-07-28 requests: now "
                    f"reads the `{name}` argument{note} into the same {kind}, falling back to roots for "
                    "legacy clients",
                    Severity.BROKEN,
                    Action.REWRITTEN,
                    tool,
                )
                given = f"{value} or None" if site.loose and site.existing == value else value
                grown = len(render(_replace_site(call, given, site.shape, name, None, taken)(call))) - len(
                    render(call)
                )
                state.edit(
                    call, _replace_site(call, given, site.shape, name, _wrap_at(state, call, grown), taken)
                )
                drop_idle_binding(call, state)  # `fetch = ctx.session.list_roots`, used only by the call
                _capability_widen.widen_around(call, value, state)
                widened = self._widen_handler(call) or widened
                rewritten = True
        for func in self.rule.functions.values():
            for pos in func.strings:
                decision = plan.strings.get(pos)
                named: cst.CSTNode | None = finder.calls.get(pos) or finder.named.get(pos)
                # `getattr(session, "list_roots", None)` beside a read taken in place: nothing left to mark.
                settled = bool(func.sites) and all(s.done or s.pos in in_place for s in func.sites)
                if decision is not None and named is not None and not settled:
                    state.mark(named, decision[0], decision[1], Severity.BROKEN, _finding_tool(func))
        for pos, (code, why, param, index) in plan.notes.items():
            noted = finder.call_to(pos, plan.callees.get(pos))
            given = noted is not None and (
                any(a.keyword is not None and a.keyword.value == param for a in noted.args)
                or sum(1 for a in noted.args if a.keyword is None and not a.star) > index >= 0
            )
            if noted is not None and not given:
                state.mark(noted, code, why, Severity.BROKEN)
        self._doubles()
        _roots_run_by_name.mark(state, plan)  # a tool gaining an argument, run by other code without it
        if not (rewritten or bound or plan.tools or plan.threaded or plan.calls or plan.doubles):
            return
        # Tools whose new parameter fastmcp 2 would resolve in its own module: builtins only, no alias.
        plain = {
            qualname
            for qualname, (_, _, new) in plan.tools.items()
            if new
            and any(
                _lazy_annotations.builtins_only(state, n)
                for n in finder.defs(self.rule.functions.get(qualname), qualname)
            )
        }
        # One module-level alias per shape keeps tool signatures short; inline when the name is taken.
        shapes = sorted(
            {shape for q, (_, shape, new) in plan.tools.items() if new and q not in plain}, reverse=True
        )
        module_names: Any = state.scope(state.wrapper.module) or {}
        aliases = {shape: ALIASES[shape] for shape in shapes if ALIASES[shape] not in module_names}
        if aliases:
            width = style_of(state.path).line_length
            blank = style_of(state.path).lines_after_imports
            state.edit(state.wrapper.module, _insert_aliases(list(aliases), state.settings, width, blank))
        for qualname, (name, shape, new) in plan.tools.items():
            info = self.rule.functions.get(qualname)
            nodes = finder.defs(info, qualname)
            if not nodes or info is None or info.value is not None:
                continue
            for node in nodes if new else ():
                spelled = aliases.get(shape) or _inline(shape, state.settings)
                if qualname in plain:
                    spelled = "list[str] | None" if shape == "list" else "str | None"
                state.edit(node, _add_tool_param(name, spelled))
                state.edit(node, _fitted_here(state, node))
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
                state.edit(node, _fitted_here(state, node))
                state.report(
                    node.name,
                    "MR107",
                    f"`{qualname}` now takes `{name}=None` (the tool's path argument, passed down): update test "
                    "doubles and callers outside this package",
                    Severity.INFO,
                    Action.REWRITTEN,
                )
        for pos, value in plan.calls.items():
            call = finder.call_to(pos, plan.callees.get(pos))
            if call is not None:
                keyword = plan.keywords.get(pos, state.settings.param_name)
                given = f"{value}[0] if {value} else None" if pos in plan.firsts else value
                wrap = _wrap_at(state, call, len(f", {keyword}={given}"))
                state.edit(call, _add_keyword(keyword, given, wrap))
                _capability_widen.widen_around(call, value, state)
                widened = self._widen_handler(call) or widened
        needs = _annotation_imports(plan, state.settings.target, frozenset(plain))
        shim = own_style(state.wrapper.module, plan.shim_import, state.package)
        if rewritten:
            needs.append((shim, SHIM_FUNCTION))
        if bound:
            needs.append((shim, BOUND_FUNCTION))
        if rewritten or bound:
            state.extra["shim"] = plan.shim_path
        if widened and plan.shim_import:
            needs.append((shim, _except_widen.NAME))
        if needs:
            state.edit(
                state.wrapper.module,
                ensure_imports(
                    needs,
                    first_party(state.path, state.package, shim),
                    style_of(state.path).force_single_line,
                ),
            )
            if plan.shim_import and any(module == shim for module, _ in needs):
                _imports_by_path.finish(state, plan.shim_import)

    def _bound(self, call: cst.Call, shape: str, sign: str, tool: str | None) -> bool | None:
        """A read whose roots bound paths takes the operator's bound in place: `allowed_roots_compat(holder)`,
        no argument (MR110). Whether it was edited (not on a line that ignores MR110); None when that rule is
        off, or the package's compatibility module predates the function: the plan's MR109 marker stands."""
        state = self.state
        if "MR110" not in state.enabled:
            return None
        render = state.wrapper.module.code_for_node
        env = state.settings.allowlist_env
        if not _shim_has(self.plan.shim_path, BOUND_FUNCTION):
            name = os.path.basename(self.plan.shim_path)
            state.mark(
                call,
                "MR109",
                f"roots bound what this tool may touch ({sign}); `{name}` was written by an earlier migrate-roots "
                f"and has no `{BOUND_FUNCTION}`, which would take the operator's bound ({env}) here: add it from "
                "`migrate-roots shim` (or delete the module), then run again",
                Severity.BROKEN,
                tool,
            )
            return False
        # A capability check stays as it is (widened, it would change what a legacy client without roots gets).
        checked = _capability_guard.checked_around(call, state)
        found = state.report(
            call,
            "MR110",
            f"roots bound what this tool may touch ({sign}): `{render(call.func)}()` is now "
            f"`{BOUND_FUNCTION}`, which gives legacy clients their roots as before and MCP 2026-07-28 requests "
            f"{'that get past the roots-capability check in front of it ' if checked else ''}"
            f"the directories the operator lists in {env} (none listed: the old call, as before); set {env} "
            "where the server runs",
            Severity.BROKEN,
            Action.REWRITTEN,
            tool,
        )
        if found is None:
            return False
        taken = taken_receiver(call, state)
        grown = len(render(_replace_bound(call, shape, None, taken)(call))) - len(render(call))
        state.edit(call, _replace_bound(call, shape, _wrap_at(state, call, grown), taken))
        drop_idle_binding(call, state)
        return True

    def _widen_handler(self, call: cst.Call) -> bool:
        """`except McpError:` around the read, or around a call on the way to it, also catches the shim's
        error (codemods/_except_widen.py)."""
        handler, _ = _except_widen.handler_for(call, self.state)
        if handler is None or not self.plan.shim_import:
            return False
        for node, edit in _except_widen.edits(handler, self.state):
            self.state.edit(node, edit)
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
                state.report(call, "MR108", _double_note(call, name, helper, state), Severity.INFO)


def _fitted_here(state: FileState, node: cst.FunctionDef) -> Any:
    """`_fitted` for the `def` at `node` (its original, for whether the project lays it out as black does)."""
    return _fitted(style_of(state.path).line_length, state.pos(node)[1] - 1, node)


def _shim_has(path: str, function: str) -> bool:
    """Whether the compatibility module at `path` defines `function`: a module written by an earlier version
    (yours to keep, never overwritten) may not have it, and an import of it would break the server."""
    try:
        with open(path, encoding="utf-8") as handle:
            return f"async def {function}(" in handle.read()
    except FileNotFoundError:
        return True  # written with this version's text
    except (OSError, UnicodeDecodeError):
        return False


def _finding_tool(func: Func) -> str | None:
    """The tool a finding in `func` names: the one the client calls (a low-level branch's, not its key)."""
    return func.called if func.value is not None else func.tool


def _double_note(call: cst.Call, name: str, helper: str, state: FileState) -> str:
    """What MR108 says of a test double migrate-roots cannot edit: a lambda, or a name from elsewhere."""
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    keyword = [
        a.value for a in call.args if a.keyword is not None and a.keyword.value in ("new", "side_effect")
    ]
    fake = keyword[0] if keyword else positional[-1] if len(positional) >= 2 else None
    accept = f"make it accept `{name}=None` (or **kwargs), as the helper now does"
    if isinstance(fake, cst.Lambda):
        return f"this test double of `{helper}` is a lambda, which migrate-roots does not edit: {accept}"
    spelled = f" (`{_code_of(fake, state)}`)" if fake is not None else ""
    return f"this test double of `{helper}`{spelled} is not a function defined in this file: {accept}"


def _code_of(node: cst.CSTNode, state: FileState) -> str:
    return state.wrapper.module.code_for_node(node)


def _inline(shape: str, settings: Any) -> str:
    description = DESCRIPTION_MANY if shape == "list" else DESCRIPTION_ONE
    return f"Annotated[{_type_text(shape, settings)}, Field(description={description!r})]".replace("'", '"')


def _annotation_imports(plan: Plan, target: tuple[int, int], plain: frozenset[str]) -> list[tuple[str, str]]:
    shapes = {shape for q, (_, shape, new) in plan.tools.items() if new and q not in plain}
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
        self.chains: dict[Pos, list[cst.Call]] = {}
        self.functions: dict[str, cst.FunctionDef] = {}
        self.by_pos: dict[Pos, cst.FunctionDef] = {}
        self.requests: dict[Pos, cst.CSTNode] = {}  # `{"method": "roots/list"}`, `ROOTS_LIST = "roots/list"`
        self.taken: dict[Pos, cst.Attribute] = {}  # `list_roots` not called where it is written
        self.named: dict[Pos, cst.SimpleString] = {}  # the method's name kept in a module constant

    def visit_DictElement(self, node: cst.DictElement) -> None:
        if is_roots_list(node.value) or (
            is_roots_list(node.key) and "Request" in self.state.wrapper.module.code_for_node(node.value)
        ):
            self.requests[self.state.pos(node)] = node

    def visit_Assign(self, node: cst.Assign | cst.AnnAssign) -> None:
        targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
        for literal, _ in held_method(targets, node.value) if node.value is not None else ():
            self.requests[self.state.pos(literal)] = literal
        if isinstance(node.value, cst.SimpleString) and node.value.evaluated_value == "list_roots":
            self.named[self.state.pos(node.value)] = node.value  # `ROOTS_ATTR = "list_roots"`

    visit_AnnAssign = visit_Assign

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value == "list_roots" and not called_here(node, self.state):
            self.taken[self.state.pos(node)] = node

    def visit_Call(self, node: cst.Call) -> None:
        pos = self.state.pos(node)
        self.calls.setdefault(pos, node)
        self.chains.setdefault(pos, []).append(node)  # outermost first: `f(ctx).g()`, then `f(ctx)`

    def call_to(self, pos: Pos, name: str | None) -> cst.Call | None:
        """The call at `pos` whose callee is spelled `name` (`first_root(ctx).iterdir()` holds two calls that
        start there); when none is, the innermost (the function called before the methods of its result)."""
        calls = self.chains.get(pos, [])
        if len(calls) < 2 or name is None:
            return self.calls.get(pos)
        for call in calls:
            func = call.func
            spelled = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if spelled == name:
                return call
        return calls[-1]

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.setdefault(self.state.qualname(node), node)
        self.by_pos[self.state.pos(node)] = node

    def defs(self, func: Func | None, qualname: str) -> list[cst.FunctionDef]:
        """Every definition of the function the plan names `qualname` (`Func.defs`), or the first by name."""
        if func is None:
            node = self.functions.get(qualname)
            return [node] if node is not None else []
        return [self.by_pos[p] for p in (func.defs or (func.pos,)) if p in self.by_pos]
