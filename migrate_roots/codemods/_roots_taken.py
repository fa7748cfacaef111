"""The roots method taken as a value, then called: `fetch = ctx.session.list_roots` or `list_roots =
getattr(session, "list_roots", None)` (also `... if session is not None else None`), then `await fetch()` or
`await asyncio.wait_for(list_roots(), 5)`. The call is the read, on the receiver the method was taken from: the
index records it as a site of that receiver and the rewrite calls the shim on it; the local and its
`callable(...)` test stay, true for every SDK session, so an explicit argument is read wherever the old call
was made."""

from __future__ import annotations

from typing import Any

import libcst as cst
from libcst.metadata import FunctionScope

from migrate_roots.codemods import _sdk, _sdk_imports
from migrate_roots.codemods._plumbing_edits import _remove
from migrate_roots.codemods._roots_model import Site
from migrate_roots.codemods.base import FileState


def _bound_once(name: cst.Name, state: FileState) -> Any:
    """The one binding of a function's local `name` (a libcst `Assignment` to a name), or None."""
    scope = state.scope(name)
    if not isinstance(scope, FunctionScope) or name.value not in scope:
        return None
    assignments = list(scope[name.value])
    if len(assignments) != 1 or getattr(assignments[0], "scope", None) is not scope:
        return None
    return assignments[0] if isinstance(getattr(assignments[0], "node", None), cst.Name) else None


def called_here(node: cst.CSTNode, state: FileState) -> bool:
    """`node` is what a call calls (`fetch` of `fetch()`, `ctx.list_roots` of `ctx.list_roots()`)."""
    parent = state.parent(node)
    return isinstance(parent, cst.Call) and parent.func is node


def taken_receiver(call: cst.Call, state: FileState) -> cst.BaseExpression | None:
    """The object a local called here (with no arguments) took `list_roots` from, when the local is bound once
    in the function, to that method only (a `None` default or a conditional `None` besides)."""
    binding = _bound_once(call.func, state) if isinstance(call.func, cst.Name) and not call.args else None
    if binding is None:
        return None
    value = _sdk._assigned_value(state, binding.node)
    if isinstance(value, cst.IfExp) and _is_none(value.orelse):
        value = value.body  # `getattr(session, "list_roots", None) if session is not None else None`
    if isinstance(value, cst.Attribute) and value.attr.value == "list_roots":
        return value.value
    if _takes_by_name(value):
        assert isinstance(value, cst.Call)
        default = value.args[2].value if len(value.args) == 3 else None
        return value.args[0].value if default is None or _is_none(default) else None
    return None


def _takes_by_name(value: cst.BaseExpression | None) -> bool:
    """`getattr(x, "list_roots")` or `getattr(x, "list_roots", default)`."""
    if not (
        isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "getattr"
    ):
        return False
    args = value.args
    named = args[1].value if len(args) in (2, 3) else None
    return (
        all(a.keyword is None and not a.star for a in args)
        and isinstance(named, cst.SimpleString)
        and named.evaluated_value == "list_roots"
    )


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def drop_idle_binding(call: cst.Call, state: FileState) -> None:
    """Remove `fetch = ctx.session.list_roots` when the call rewritten here was the local's only use (left
    alone it would be an unused local, pyflakes F841); comment lines above it move to the next statement."""
    line = idle_binding(call, state)
    if line is None:
        return
    state.edit(line, _remove)
    comments = [e for e in line.leading_lines if e.comment is not None]
    if comments:
        block = state.parent(line)
        body = list(getattr(block, "body", ()))
        after = body[body.index(line) + 1]  # `idle_binding` checked there is one

        def carry(node: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement))
            return node.with_changes(leading_lines=[*line.leading_lines, *node.leading_lines])

        state.edit(after, carry)


def idle_binding(call: cst.Call, state: FileState) -> cst.SimpleStatementLine | None:
    """The statement `fetch = ctx.session.list_roots` when the call rewritten here was the local's only use.
    None when anything else reads it (`callable(...)`), the line holds more or ends in a comment, or comments
    above it have no next statement to move to."""
    binding = _bound_once(call.func, state) if isinstance(call.func, cst.Name) else None
    if binding is None or [r.node for r in binding.references] != [call.func]:
        return None
    holder = state.parent(binding.node)
    assign = state.parent(holder) if isinstance(holder, cst.AssignTarget) else None
    if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
        return None
    line = state.parent(assign)
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    if line.trailing_whitespace.comment is not None:
        return None
    body = list(getattr(state.parent(line), "body", ()))
    last = not body or body[-1] is line
    return None if last and any(e.comment for e in line.leading_lines) else line


def followed(attribute: cst.Attribute, state: FileState) -> bool:
    """`fetch = ctx.session.list_roots` whose local is bound once and called with no arguments in the same
    function: `taken_receiver` makes that call the read, so the attribute itself needs no finding."""
    assign = state.parent(attribute)
    if not isinstance(assign, cst.Assign) or assign.value is not attribute or len(assign.targets) != 1:
        return False
    target = assign.targets[0].target
    binding = _bound_once(target, state) if isinstance(target, cst.Name) else None
    calls = [state.parent(r.node) for r in binding.references] if binding is not None else []
    return any(
        isinstance(call, cst.Call)
        and called_here(call.func, state)
        and taken_receiver(call, state) is not None
        for call in calls
    )


def taken_refusal(attribute: cst.Attribute, state: FileState) -> tuple[str, str]:
    """MR103 for the roots method taken as a value that no rewrite follows (handed on, rebound, stored)."""
    code = state.wrapper.module.code_for_node
    holder = state.parent(attribute)
    call = state.parent(holder) if isinstance(holder, cst.Arg) else None
    handed = f", handed to `{code(call.func)}(...)`" if isinstance(call, cst.Call) else ""
    return (
        "MR103",
        f"the roots method taken as a value (`{code(attribute)}`{handed}): migrate-roots follows only a local "
        "bound once and called in the same function; where it is called, call `list_roots_compat` by hand and "
        "give that call's tool a path argument",
    )


def taken_site(node: cst.Attribute, state: FileState) -> Site | None:
    """The site of `ctx.session.list_roots` not called where it is written, unless a rewrite follows it."""
    if called_here(node, state) or followed(node, state):
        return None
    kind = _sdk.expr_kind(state, node.value)
    if kind not in (_sdk.SESSION, _sdk.FASTMCP_CONTEXT, _sdk.CAPTURED) and not (
        kind in (_sdk.CONTEXT, _sdk.REQUEST_CONTEXT) and _sdk_imports.loosely_typed(state, node.value)
    ):
        return None
    site = Site(state.pos(node), "result", "list")
    site.refusal = taken_refusal(node, state)
    return site
