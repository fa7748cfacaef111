"""The client side of roots: reported as deprecated (it still works), rewritten only on request.

Codes MR301-MR305 run as one rule (`ClientRoots`). A client that answers `roots/list` still serves legacy
servers and modern (2026-07-28) servers that ask through input requests, so nothing here is "broken":

- MR301: `ClientSession(list_roots_callback=...)`, mcp 2.x `Client(list_roots_callback=...)`,
  `create_connected_server_and_client_session(list_roots_callback=...)`;
- MR302: fastmcp `Client(roots=...)` and `client.set_roots(...)`;
- MR303: `send_roots_list_changed()` on a client session or client;
- MR304: `RootsCapability(listChanged=True)` (and `list_changed=True`, which mcp 1.x silently ignores);
- MR305 (opt-in, `--select MR305`): removes `send_roots_list_changed()` statements and the `listChanged=True` /
  `list_changed=True` keywords, for projects that talk only to migrated servers.

Receivers are resolved through libcst metadata (imports, scopes, `with ... as` targets, `self.x` assignments),
so a user's own `send_roots_list_changed` or `set_roots` is left alone.
"""

from __future__ import annotations

from typing import Any

import libcst as cst
from libcst.metadata import Scope

from migrate_roots.codemods import _sdk, _sdk_imports
from migrate_roots.codemods._edits import drop_keyword
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.model import Action, Severity

TOKENS = (b"list_roots_callback", b"roots=", b"set_roots", b"send_roots_list_changed", b"RootsCapability")

MCP_CLIENT = "mcp-client"  # ClientSession (mcp 1.x / 2.x) or mcp 2.x Client
FASTMCP_CLIENT = "fastmcp-client"

_CLIENT_CALLS = _sdk.CLIENT_SESSIONS | _sdk.MCP2_CLIENTS | _sdk.MEMORY_CONNECT


def client_kind(state: FileState, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """MCP_CLIENT, FASTMCP_CLIENT, _sdk.FOREIGN (known to be something else) or None (unknown)."""
    if depth > 6:
        return None
    if isinstance(expr, cst.Await):
        return client_kind(state, expr.expression, depth + 1)
    if isinstance(expr, cst.Call):
        names = state.qnames(expr.func)
        if names & _CLIENT_CALLS:
            return MCP_CLIENT
        if names & _sdk.FASTMCP_CLIENTS:
            return FASTMCP_CLIENT
        return _sdk.FOREIGN if names else None
    if isinstance(expr, cst.Name):
        return _name_kind(state, expr, depth)
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        return _self_kind(state, expr, depth)
    return None


_UNTYPED = frozenset({"typing.Any", "typing_extensions.Any", "object", "builtins.object"})


def _annotation_kind(state: FileState, annotation: cst.BaseExpression) -> str | None:
    names: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.update(state.qnames(node))

        def visit_Attribute(self, node: cst.Attribute) -> None:
            names.update(state.qnames(node))

    read(annotation, Names())
    if names & (_sdk.CLIENT_SESSIONS | _sdk.MCP2_CLIENTS):
        return MCP_CLIENT
    if names & _sdk.FASTMCP_CLIENTS:
        return FASTMCP_CLIENT
    # `inner: Any` (an SDK-agnostic wrapper of any client) says nothing: unknown, as unannotated.
    return None if names and names <= _UNTYPED else _sdk.FOREIGN


def _name_kind(state: FileState, name: cst.Name, depth: int) -> str | None:
    scope = state.scope(name)
    if not isinstance(scope, Scope) or name.value not in scope:
        return None
    kinds: list[str | None] = []
    for assignment in scope[name.value]:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param):
            if node.annotation is not None:
                kinds.append(_annotation_kind(state, node.annotation.annotation))
            continue
        if not isinstance(node, cst.Name):
            continue
        parent = state.parent(node)
        if isinstance(parent, cst.AsName):
            item = state.parent(parent)
            if isinstance(item, cst.WithItem):
                kinds.append(client_kind(state, item.item, depth + 1))
        elif isinstance(parent, cst.AssignTarget):
            assign = state.parent(parent)
            if isinstance(assign, cst.Assign):
                kinds.append(client_kind(state, assign.value, depth + 1))
        elif isinstance(parent, cst.AnnAssign) and parent.target is node:
            kinds.append(
                client_kind(state, parent.value, depth + 1)
                if parent.value is not None
                else _annotation_kind(state, parent.annotation.annotation)
            )
    known = [k for k in kinds if k is not None]
    for kind in (MCP_CLIENT, FASTMCP_CLIENT):
        if kind in known:
            return kind
    return known[0] if known else None


def _self_kind(state: FileState, expr: cst.Attribute, depth: int) -> str | None:
    current = state.parent(expr)
    while current is not None and not isinstance(current, cst.ClassDef):
        current = state.parent(current)
    if current is None:
        return None
    attr = expr.attr.value
    kinds: list[str | None] = []

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if _is_self_attr(target.target, attr):
                    kinds.append(client_kind(state, node.value, depth + 1))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if _is_self_attr(node.target, attr):
                kinds.append(_annotation_kind(state, node.annotation.annotation))

    read(current.body, Assigns())
    known = [k for k in kinds if k is not None]
    return known[0] if known else None


def _is_self_attr(target: cst.BaseExpression, attr: str) -> bool:
    return (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
        and target.attr.value == attr
    )


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def _is_true(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


_ANSWERS = (
    "this client answers roots/list: it still serves legacy servers and modern servers that ask through input "
    "requests; drop it only when every server you use takes explicit paths"
)


class ClientRoots(Rule):
    code = "MR301"
    name = "client-roots-callback"
    summary = (
        "A client that answers roots/list (`list_roots_callback=`): still needed for legacy servers and "
        "modern input requests; reported as deprecated."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    nodes = (cst.Module, cst.Call, cst.DictElement, cst.Subscript, cst.Attribute)
    limits = (
        "Reported only: removing the callback would break servers that still ask for roots. A callback set as "
        "an attribute after construction (`session._list_roots_callback = cb`) is reported, in a module that "
        "imports the SDK."
    )

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if isinstance(node, cst.Module):
            _sdk_imports.note_sdk_imports(state)
            return
        if isinstance(node, cst.Attribute):
            self._attribute(node, state)
            return
        if isinstance(node, (cst.DictElement, cst.Subscript)):
            self._by_name(node, state)
            return
        assert isinstance(node, cst.Call)
        func = node.func
        names = state.qnames(func)
        arg = _keyword(node, "list_roots_callback")
        if arg is not None and (names & _CLIENT_CALLS or state.extra.get("imports_sdk")):
            # Any callee in an MCP module: the client class held in a local (`client_type(...)`), or a wrapper
            # that hands the callback on to one.
            if not (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                state.report(arg, "MR301", _ANSWERS, Severity.DEPRECATED)
        elif names & _sdk.FASTMCP_CLIENTS:
            arg = _keyword(node, "roots")
            if arg is not None and not (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
                state.report(
                    arg,
                    "MR302",
                    "fastmcp `Client(roots=...)` answers roots/list: still used by legacy servers and modern "
                    "input requests; pass paths as tool arguments to migrated servers",
                    Severity.DEPRECATED,
                )
        elif names & _sdk.ROOTS_CAPABILITIES:
            self._capability(node, state)
        if isinstance(func, cst.Attribute):
            if func.attr.value == "set_roots" and client_kind(state, func.value) == FASTMCP_CLIENT:
                state.report(
                    node,
                    "MR302",
                    "`set_roots(...)` sets the roots this fastmcp client answers with: still used by legacy "
                    "servers and modern input requests",
                    Severity.DEPRECATED,
                )
            elif func.attr.value == "send_roots_list_changed" and not node.args:
                self._send(node, func, state)

    def _by_name(self, node: cst.DictElement | cst.Subscript, state: FileState) -> None:
        """`kwargs["list_roots_callback"] = cb` or `**{"list_roots_callback": cb}`: the keyword by name."""
        key = node.key if isinstance(node, cst.DictElement) else None
        if isinstance(node, cst.Subscript) and len(node.slice) == 1:
            index = node.slice[0].slice
            key = index.value if isinstance(index, cst.Index) else None
        if (
            isinstance(key, cst.SimpleString)
            and key.evaluated_value == "list_roots_callback"
            and state.extra.get("imports_sdk")
        ):
            state.report(
                node, "MR301", _ANSWERS + " (the keyword is passed by name here)", Severity.DEPRECATED
            )

    def _attribute(self, node: cst.Attribute, state: FileState) -> None:
        """`session._list_roots_callback = cb` (the SDK's private slot, set after construction), and
        `send = session.send_roots_list_changed` (the method taken as a value, called later)."""
        name = node.attr.value
        parent = state.parent(node)
        if name == "_list_roots_callback" and isinstance(parent, cst.AssignTarget):
            if state.extra.get("imports_sdk"):
                state.report(
                    node,
                    "MR301",
                    _ANSWERS + " (set on the session's private attribute here)",
                    Severity.DEPRECATED,
                )
        elif name == "send_roots_list_changed" and not (isinstance(parent, cst.Call) and parent.func is node):
            kind = client_kind(state, node.value)
            if kind == _sdk.FOREIGN or not (kind is not None or _any_client_import(state)):
                return
            state.report(
                node,
                "MR303",
                "`send_roots_list_changed` taken as a value: the notification it sends does not exist in MCP "
                "2026-07-28, only legacy servers receive it (harmless to them); remove its calls by hand for "
                "projects that talk only to migrated servers",
                Severity.DEPRECATED,
            )

    def _send(self, node: cst.Call, func: cst.Attribute, state: FileState) -> None:
        kind = client_kind(state, func.value)
        if kind == _sdk.FOREIGN or (kind is None and not state.extra.get("imports_sdk")):
            return
        if kind is None and not _any_client_import(state):
            return
        state.report(
            node,
            "MR303",
            "notifications/roots/list_changed does not exist in MCP 2026-07-28: only legacy servers receive "
            "it (harmless to them); `--select MR305` removes it for projects that talk only to migrated servers",
            Severity.DEPRECATED,
        )
        if "MR305" not in state.enabled:
            return
        stmt = _own_statement(node, state)
        if kind is None:
            state.mark(
                node, "MR305", "receiver not recognised as an MCP client: remove by hand", Severity.DEPRECATED
            )
        elif stmt is None:
            state.mark(
                node,
                "MR305",
                "send_roots_list_changed() is part of a larger expression: remove it by hand",
                Severity.DEPRECATED,
            )
        elif not state.ignored(state.pos(node)[0], "MR305"):
            state.edit(stmt, _remove)
            state.report(
                node,
                "MR305",
                "send_roots_list_changed() removed (opt-in: this project talks only to migrated servers)",
                Severity.DEPRECATED,
                Action.REWRITTEN,
            )

    def _capability(self, node: cst.Call, state: FileState) -> None:
        for keyword in ("listChanged", "list_changed"):
            arg = _keyword(node, keyword)
            if arg is None:
                continue
            if keyword == "listChanged":
                message = (
                    "declares roots.listChanged: only legacy servers read it (MCP 2026-07-28 has no roots "
                    "change notification)"
                )
            else:
                message = (
                    "`list_changed=` is ignored by mcp 1.x (an unknown extra field; only `listChanged` works "
                    "there) and read by mcp 2.x; either way only legacy servers use it"
                )
            state.report(arg, "MR304", message, Severity.DEPRECATED)
            line = state.pos(arg)[0]
            if "MR305" in state.enabled and _is_true(arg.value) and not state.ignored(line, "MR305"):
                state.edit(node, drop_keyword(keyword))
                state.report(
                    arg,
                    "MR305",
                    f"`{keyword}=True` removed (opt-in: this project talks only to migrated servers)",
                    Severity.DEPRECATED,
                    Action.REWRITTEN,
                )


def _any_client_import(state: FileState) -> bool:
    text = "\n".join(state.lines)
    return "ClientSession" in text or "Client" in text


def _own_statement(call: cst.Call, state: FileState) -> cst.SimpleStatementLine | None:
    parent = state.parent(call)
    if isinstance(parent, cst.Await):
        parent = state.parent(parent)
    if isinstance(parent, cst.Expr):
        stmt = state.parent(parent)
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
            return stmt
    return None


def _remove(_node: cst.CSTNode) -> Any:
    return cst.RemovalSentinel.REMOVE


class FastmcpClientRoots(Rule):
    code = "MR302"
    name = "fastmcp-client-roots"
    summary = (
        "fastmcp `Client(roots=...)` or `client.set_roots(...)`: still answers legacy servers; reported."
    )
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ClientRoots
    limits = (
        "Reported only; `set_roots` on a client the rule cannot trace to `fastmcp.Client` is not reported."
    )


class SendRootsListChanged(Rule):
    code = "MR303"
    name = "send-roots-list-changed"
    summary = "`send_roots_list_changed()`: only legacy servers receive it; reported (removed by MR305)."
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ClientRoots
    limits = "Reported when the receiver is an MCP client session/client, or unknown in a file using the SDK."


class RootsCapabilityListChanged(Rule):
    code = "MR304"
    name = "roots-capability-list-changed"
    summary = "`RootsCapability(listChanged=True)`: only legacy servers read it; reported (removed by MR305)."
    severity = Severity.DEPRECATED
    tokens = TOKENS
    runner = ClientRoots
    limits = "Capabilities written as plain dicts (`{'roots': {'listChanged': True}}`) are not seen."


class DropRootsListChanged(Rule):
    code = "MR305"
    name = "drop-roots-list-changed"
    summary = (
        "Opt-in: removes `send_roots_list_changed()` calls and `listChanged=True` for clients that talk only "
        "to migrated servers."
    )
    severity = Severity.DEPRECATED
    fix = "opt-in"
    default_enabled = False
    tokens = TOKENS
    runner = ClientRoots
    limits = (
        "Only statement calls on a recognised client and the literal `True` keyword; a call inside a larger "
        "expression or on an unrecognised receiver is marked. Legacy servers that cache roots will no "
        "longer hear about changes: select it only when every server you talk to is migrated."
    )
