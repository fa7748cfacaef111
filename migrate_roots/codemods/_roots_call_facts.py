"""The facts `SiteIndex` records about a call a function makes (`Func.calls` and the per-call facts beside
it): what it calls, the parameters and names it hands on, where its result is stored or cached beyond the
request, whether a handler around it catches the shim's error, and the guards that skip it."""

from __future__ import annotations

import sys

import libcst as cst

from migrate_roots.codemods import _bounds_choice, _except_widen, _fastmcp_forms, _sdk
from migrate_roots.codemods._roots_handed_to import _fq, _self_method, _starred
from migrate_roots.codemods._roots_model import Func, Pos
from migrate_roots.codemods._roots_refusals import record_guards
from migrate_roots.codemods._roots_uses import stored_on
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import kept_calls, keyed, typed

_STDLIB = frozenset(sys.stdlib_module_names) | {"builtins"}

# (the caller, the call's position, the function it is in, the local names its result is assigned to): a
# store decided once the function is walked (`SiteIndex.stores`).
Pending = tuple[Func, Pos, cst.FunctionDef, frozenset[str]]


def record(
    node: cst.Call, caller: Func, func_node: cst.FunctionDef | None, state: FileState
) -> Pending | None:
    """Record on `caller` the facts of its call `node`."""
    target = node.func
    pending: Pending | None = None
    position = state.pos(node)
    names = _self_method(state, target) or typed.method_call(state, target, lambda n: _fq(state, n))
    callees = list(names or _fq(state, target) or _starred(state, target))
    if "functools.partial" in callees and node.args and node.args[0].keyword is None:
        callees = sorted(_fq(state, node.args[0].value))  # what `partial(f, ...)` will call
    if state.phase == "index" and isinstance(target, cst.Attribute) and _hands_context(node, state):
        # whether a callee resolves is the plan's to see (`_roots_plan_tools.untyped_calls`)
        spelled = state.wrapper.module.code_for_node(target)
        caller.untyped.append((target.attr.value, position, spelled))
    for name in callees:
        caller.calls.append((name, position))
    options = _bounds_choice.chosen(node, state) if state.phase == "index" else None
    if options:
        caller.chosen[position] = options  # `BOXES[area](root)`: each candidate, for the bound analysis
    for name in _fastmcp_forms.registered_fn(target, state, lambda n: _fq(state, n)):
        caller.calls.append((name, position))  # `where.fn(ctx)` after `where = mcp.tool(tools.where)`
    if caller.star and func_node is not None and state.phase == "index":
        slots = keyed.forwarded(node, state, func_node)
        if slots:
            caller.forwards[position] = slots
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
    stored = stored_on(node, func_node, state) if func_node is not None else None
    if isinstance(stored, str):
        caller.stores[position] = stored
    elif stored is not None and func_node is not None:
        pending = (caller, position, func_node, stored)
    # Only a call of code that may lead to roots can fill a cache with them (not `sum(...)`, `os.path`).
    ours = any(name.partition(".")[0] not in _STDLIB for name in callees) or not callees
    # `Func.cached`: a fact for the plan only (`_kept_on_way`), read in the index walk.
    wanted = caller.value is None and ours and state.phase == "index"
    kept = kept_calls.kept_call(node, state) if wanted else None
    if kept is not None:
        caller.cached[position] = kept
    newly = _except_widen.newly_caught(node, state) if wanted else None
    if newly is not None:
        caller.newly[position] = newly
    elif wanted and _except_widen.shim_caught(node, state):
        caller.caught.add(position)
    record_guards(node, position, caller, state)
    return pending


def _hands_context(call: cst.Call, state: FileState) -> bool:
    """An argument of `call` is an MCP context or session (`ctx`, `ctx.session`)."""
    kinds = (_sdk.CONTEXT, _sdk.FASTMCP_CONTEXT, _sdk.SESSION, _sdk.REQUEST_CONTEXT)
    # A context is handed as a name or an attribute of one (`ctx`, `ctx.session`): other values are not asked.
    return any(
        isinstance(a.value, (cst.Name, cst.Attribute)) and _sdk.expr_kind(state, a.value) in kinds
        for a in call.args
    )
