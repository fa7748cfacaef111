"""Which `list_roots()` call is the SDK's read, and the `Site` it makes: decided by the receiver's kind (the
model's `_sdk.expr_kind`), then the refusals visible in the function itself (a read of the roots' names, a
once-per-process flag)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk, _sdk_imports, _sdk_types
from migrate_roots.codemods._roots_foreign import foreign_site
from migrate_roots.codemods._roots_local import local_checks
from migrate_roots.codemods._roots_model import Site
from migrate_roots.codemods._roots_refusals import (
    _uses,
)
from migrate_roots.codemods._roots_untyped import maybe_site, override_site, untraced_site
from migrate_roots.codemods._roots_uses import spells_session
from migrate_roots.codemods.base import FileState


def receiver_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    """The site a `list_roots()` call makes, decided by what its receiver is (a session, a fastmcp Context, a
    captured or held session, an untyped value, `super()` in an SDK subclass), with the local refusals; None
    for a call on anything else (a user's own `list_roots()`)."""
    kind = _sdk.expr_kind(state, receiver)
    if kind == _sdk.FOREIGN:  # `src: RootsSource`, a Protocol whose `list_roots()` is the SDK's (_sdk_types)
        kind = _sdk_types.roots_kind(state, receiver) or kind
    if kind == _sdk.SESSION:
        shape = "result"
    elif kind == _sdk.FASTMCP_CONTEXT:
        shape = "list"
    elif kind == _sdk.CAPTURED:
        site = Site(state.pos(call), "result", "list")
        held = state.wrapper.module.code_for_node(receiver)
        site.refusal = (
            "MR103",
            f"roots read through `{held}`, a session held in a global or on an object, which may outlive the "
            "request (or belong to another client): no tool argument reaches it; take the session (or a path "
            "argument) from the request that needs the roots",
        )
        return site
    elif kind is None and not (state.extra.get("imports_sdk") and spells_session(receiver, state)):
        return (
            override_site(call, receiver, state)
            or maybe_site(call, receiver, state)
            or untraced_site(call, receiver, state)
            or foreign_site(call, receiver, state)  # `ctx.session` of `ctx: Context` from mcp_use
        )
    elif kind in (_sdk.CONTEXT, _sdk.REQUEST_CONTEXT) and _sdk_imports.loosely_typed(state, receiver):
        return maybe_site(call, receiver, state)  # the kind is a guess from the imports: it may be fastmcp's
    elif kind is None:
        # `host = state.host_session`, then `host.list_roots()` (a proxy answering its child with the host's
        # roots): a session, but none the current request's context leads to.
        code = state.wrapper.module.code_for_node
        site = Site(state.pos(call), "result", "list")
        site.refusal = (
            "MR103",
            f"roots read through `{code(receiver)}`, a session held on an object (not the current request's "
            "context): migrate-roots cannot give this request a path argument; pass the path down from the "
            "tool (or the proxied request) by hand",
        )
        return site
    else:  # not an MCP object (a user's own list_roots()), or a framework's class it does not know
        if kind != _sdk.FOREIGN:
            return None
        return foreign_site(call, receiver, state) or (
            untraced_site(call, receiver, state) if _built_by_a_call(receiver, state) else None
        )
    site = Site(state.pos(call), shape, _uses(call, shape, state))
    return local_checks(site, call, state)


def _built_by_a_call(receiver: cst.BaseExpression, state: FileState) -> bool:
    """`ctx = make()` / `ctx = server.get_context()` (mcp-use's server: sweep S, r04), then `await
    ctx.list_roots()`: a value some call built, taken for no MCP object (boto3's `client.list_roots()` is one,
    and is not awaited: `untraced_site` asks for the await). Not a constructed instance (`Workspace()`, a class by
    its CapWords name: the project's own `list_roots`, or a library's)."""
    if not isinstance(receiver, cst.Name):
        return False
    scope = state.scope(receiver)
    bound = list(scope[receiver.value]) if scope is not None and receiver.value in scope else []
    targets = [getattr(b, "node", None) for b in bound]
    if len(targets) != 1 or not isinstance(targets[0], cst.Name):
        return False
    value = _sdk._assigned_value(state, targets[0])
    if not isinstance(value, (cst.Call, cst.Await)):
        return False
    built = value.expression if isinstance(value, cst.Await) else value
    func = built.func if isinstance(built, cst.Call) else None
    last = (
        func.attr.value
        if isinstance(func, cst.Attribute)
        else func.value
        if isinstance(func, cst.Name)
        else ""
    )
    return not last[:1].isupper()  # `Workspace()`: an instance of a class the project (or a library) names


def outside_functions(call: cst.Call, state: FileState) -> str:
    """Why a read outside every function is marked: run at import, or in a lambda run later."""
    node = state.parent(call)
    while node is not None and not isinstance(node, cst.Lambda):
        node = state.parent(node)
    if node is None:
        return "roots read at import time, outside any request"
    holder = state.parent(node)
    named = holder.targets[0].target if isinstance(holder, cst.Assign) and len(holder.targets) == 1 else None
    name = f" `{state.wrapper.module.code_for_node(named)}`" if named is not None else ""
    return (
        f"roots read in a lambda{name}, which migrate-roots does not follow to the tools that call it: make "
        "it a function, or give those tools a path argument and call `list_roots_compat` here by hand"
    )
