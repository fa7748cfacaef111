"""A roots call on a value annotated with a class of another distribution that migrate-roots does not know
(sweep Q, r01: `ctx: Context` from `mcp_use.server`, a framework whose classes subclass mcp 1.x FastMCP's).

Such a class may well be a server's context (`await ctx.list_roots()`, `await ctx.session.list_roots()` ask the
client for roots/list), but a framework we do not support cannot be verified, so the read is reported, never
rewritten (MR103). Only for a class whose dotted name says MCP (`mcp` in it: `myapp.AppContext` is the
project's own, whatever its name), in a module or package that uses the SDK (`Site.maybe` leaves the package to the plan); a client's
class (`ClientSession`, `fastmcp.Client`), the SDK's own known classes and the project's own classes stay quiet,
but for a Protocol of the project whose `session` (or `request_context`) says nothing it knows (`_sdk_types`): the
SDK's Context fits it, so its read is reported too.
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods import _sdk, _sdk_types
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_model import Site
from migrate_roots.codemods.base import FileState

# What a read may hang off the annotated value: the value itself or its session.
_CHAINS: tuple[list[str], ...] = ([], ["session"], ["request_context", "session"])
_CLIENTS = _sdk.CLIENT_SESSIONS | _sdk.FASTMCP_CLIENTS | _sdk.MCP2_CLIENTS


def foreign_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    holder, chain = receiver, list[str]()
    while isinstance(holder, cst.Attribute):
        chain.insert(0, holder.attr.value)
        holder = holder.value
    if not isinstance(holder, cst.Name) or chain not in _CHAINS:
        return None
    scope = state.scope(holder)
    bound = list(scope[holder.value]) if scope is not None and holder.value in scope else []
    nodes = [getattr(b, "node", None) for b in bound]
    if len(nodes) != 1 or not isinstance(nodes[0], cst.Param) or nodes[0].annotation is None:
        return None
    annotation = nodes[0].annotation.annotation
    if _sdk.annotation_kind(state, annotation) != _sdk.FOREIGN:
        return None
    member = chain[0] if chain else _sdk_types.ROOTS
    protocol = _sdk_types.untold(state, holder, member)
    if protocol is not None:
        return _untold_site(call, receiver, holder, member, protocol, state)
    named = _foreign_class(annotation, state)
    if named is None:
        return None
    spelled, dotted = named
    module = dotted.rpartition(".")[0]
    code = state.wrapper.module.code_for_node
    through = f"`{code(receiver)}`, of `{holder.value}`" if chain else f"`{holder.value}`"
    site = Site(state.pos(call), "result", "list", maybe=not state.extra.get("imports_sdk"))
    site.refusal = (
        "MR103",
        f"roots read through {through} annotated `{spelled}` from `{module}`, a class migrate-roots does not "
        "know as an MCP context or session, so it rewrites nothing here; if it is one (a framework built on "
        "the SDK), this asks the client for roots/list, which fails on MCP 2026-07-28 requests: give the tool a "
        "path argument by hand and use it here",
    )
    return site


def _untold_site(
    call: cst.Call,
    receiver: cst.BaseExpression,
    holder: cst.Name,
    member: str,
    protocol: str,
    state: FileState,
) -> Site:
    """`ctx.session.list_roots()` on `ctx: HasSession`, a Protocol of the project whose `session` says nothing
    migrate-roots knows (`Any`, no annotation, not declared): any object with a `session` fits it, the SDK's
    Context too (sweep L r03 of session 22)."""
    code = state.wrapper.module.code_for_node
    site = Site(state.pos(call), "result", "list", maybe=not state.extra.get("imports_sdk"))
    if member == _sdk_types.ROOTS:  # `src.list_roots()` on `src: RootsSource` (sweep N r05 of session 22)
        site.refusal = (
            "MR103",
            f"roots read through `{holder.value}` typed by `{protocol}`, a Protocol of the project that does not "
            "say its `list_roots()` returns the SDK's roots (a `ListRootsResult`, or a list of `Root`), so "
            "migrate-roots cannot tell and rewrites nothing here; if it is an MCP session or fastmcp Context, this "
            "asks the client for roots/list, which fails on MCP 2026-07-28 requests: annotate what `list_roots()` "
            "returns with the SDK's type and run again, or give the tool a path argument by hand and use it here",
        )
        return site
    site.refusal = (
        "MR103",
        f"roots read through `{code(receiver)}`, of `{holder.value}` typed by `{protocol}`, a Protocol of the "
        f"project that does not say its `{member}` is an MCP session or context, so migrate-roots cannot tell "
        "and rewrites nothing here; if it is one, this asks the client for roots/list, which fails on MCP "
        f"2026-07-28 requests: annotate `{member}` with the SDK's class (`ServerSession`, `RequestContext`) and "
        "run again, or give the tool a path argument by hand and use it here",
    )
    return site


def _foreign_class(annotation: cst.BaseExpression, state: FileState) -> tuple[str, str] | None:
    """(the class as written, its dotted name) when the annotation names one class imported from another
    distribution that may be an MCP context or session."""
    found: list[tuple[str, str]] = []
    top = state.module.split(".")[0]

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            self._add(node)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            self._add(node)
            return False

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            # A forward reference (`"Context | None"`): its first name, as the module binds it.
            text = node.evaluated_value
            if isinstance(text, str):
                head = text.split("[")[0].split("|")[0].strip()
                found.extend((head, q) for q in _sdk._module_qualified(state, head))

        def _add(self, node: cst.Name | cst.Attribute) -> None:
            for q in state.qualified_names(node):
                if q.source is QualifiedNameSource.IMPORT and not q.name.startswith("."):
                    found.append((state.wrapper.module.code_for_node(node), state._absolute(q.name)))

    read(annotation, Names())
    classes = {
        (spelled, dotted)
        for spelled, dotted in found
        if dotted.split(".")[0] not in ("typing", "typing_extensions", "builtins", top)
    }
    if len(classes) != 1:
        return None
    spelled, dotted = classes.pop()
    name = dotted.rpartition(".")[2]
    if dotted in _CLIENTS or dotted.split(".")[0] in _sdk.SDK_PREFIXES or "client" in name.lower():
        return None
    if "mcp" not in dotted.lower():
        return None  # `AppContext` of `myapp`: an object of the project's own, whatever its name
    return spelled, dotted
