"""Which `list_roots()` call is the SDK's read, and the `Site` it makes: decided by the receiver's kind (the
model's `_sdk.expr_kind`), then the refusals visible in the function itself (a read of the roots' names, a
once-per-process flag)."""

from __future__ import annotations

import os

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._roots_keyed import roots_hashed
from migrate_roots.codemods._roots_model import Site
from migrate_roots.codemods._roots_refusals import (
    _declared_global,
    _guarding_param,
    _local_refusal,
    _once_refusal,
    _uses,
)
from migrate_roots.codemods._roots_untyped import maybe_site, override_site, untraced_site
from migrate_roots.codemods._roots_uses import root_names_read, spells_session
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import flow


def receiver_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    """The site a `list_roots()` call makes, decided by what its receiver is (a session, a fastmcp Context, a
    captured or held session, an untyped value, `super()` in an SDK subclass), with the local refusals; None
    for a call on anything else (a user's own `list_roots()`)."""
    kind = _sdk.expr_kind(state, receiver)
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
        )
    elif kind in (_sdk.CONTEXT, _sdk.REQUEST_CONTEXT) and _sdk.loosely_typed(state, receiver):
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
    else:
        return None  # not an MCP object: a user's own list_roots()
    site = Site(state.pos(call), shape, _uses(call, shape, state))
    site.refusal = _local_refusal(call, state)
    named = root_names_read(state.function, state) if state.function is not None else None
    if site.refusal is None and named is not None:
        site.refusal = (
            "MR101" if shape == "result" else "MR102",
            f"this function reads the roots' names, `{named[0]}` ({os.path.basename(state.path)}:{named[1]}): "
            "roots made from a path "
            "argument have no name, so that code would never match them; choose the folder by an argument "
            "or by configuration instead of by name, by hand, then run again"
            if named[2] == "name"
            else f"this function tells roots apart by their URI's host, `{named[0]}` "
            f"({os.path.basename(state.path)}:{named[1]}): roots made from a path argument are `file://` URIs "
            "with no host, so that code would never match them; carry that value by an argument or by "
            "configuration instead, by hand, then run again"
            if named[2] == "host"
            else f"this function uses the roots' URI host as a value, `{named[0]}` "
            f"({os.path.basename(state.path)}:{named[1]}): it carries an id or a key, not a directory, and "
            "roots made from a path argument (or the operator's directories) are `file://` URIs with no "
            "host; carry that value by an argument or by configuration instead, by hand, then run again",
        )
    hashed = (
        roots_hashed(state.function, state) if state.function is not None and site.refusal is None else None
    )
    if hashed is not None:
        site.refusal = (
            "MR101" if shape == "result" else "MR102",
            f"this function hashes the roots' URI into a key, `{hashed[0]}` ({os.path.basename(state.path)}:"
            f"{hashed[1]}): the roots choose which stored data the tool reaches, and a path argument would let "
            "the caller choose another project's; keep that choice with the operator (configuration) or migrate "
            "it by hand",
        )
    site.existing, site.loose = _guarding_param(call, state) or (None, False)
    if state.function is not None:
        site.cached = flow.guarding_globals(call, state, _declared_global(state.function, state))
        site.refusal = site.refusal or _once_refusal(call, state.function, state)
    return site


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
