"""Roots calls on untyped values: `ctx.session.list_roots()` on an untyped parameter of a module that never imports
the SDK is probably MCP's (`Site.maybe`: the plan decides by whether MCP code reaches it), and a bare
`thing.list_roots()` on one is marked, in any module; a call used at once (`roots = chat.list_roots()`) is the
project's own method. `super().list_roots()` in an override on an SDK class is marked too."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from migrate_roots.codemods import _sdk, _sdk_imports
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_model import Site, Summary
from migrate_roots.codemods._roots_refusals import _uses
from migrate_roots.codemods.base import FileState


def maybe_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    """A roots call on an untyped parameter spelled the SDK's way (in a module that imports the SDK, the spelled
    chains are typed already, so only the bare call is left here):
    `ctx.session.list_roots()`, `ctx.request_context.session.list_roots()` or `session.list_roots()` (a
    ListRootsResult), or a bare `ctx.list_roots()` (a fastmcp Context's list, or a session's result: which one
    cannot be told here, so it is marked when MCP code reaches it). `self.backend.list_roots()`, values
    built in the module (moto's AWS Organizations client) and a call a plain `def` uses at once (hiil's
    `roots = chat.list_roots()`, the project's own synchronous method) are not."""
    if _used_at_once(call, state):
        return None  # `roots = chat.list_roots()`, then `for r in roots`: no SDK coroutine
    holder: cst.BaseExpression = receiver
    chain: list[str] = []
    while isinstance(holder, cst.Attribute):
        chain.insert(0, holder.attr.value)
        holder = holder.value
    if not isinstance(holder, cst.Name) or (
        holder.value in ("self", "cls") and _a_methods_own(holder, state)
    ):
        return None
    if not _sdk_imports.loosely_typed(state, holder) and not chain:
        # `session = getattr(ctx, "session", None)` (or `= ctx.session`), then `session.list_roots()`.
        found, chain = session_of(state, holder)
        if found is None:
            return None
        holder = found
    if not _sdk_imports.loosely_typed(state, holder):
        return None
    if chain == ["fastmcp_context"]:
        # `context.fastmcp_context.list_roots()`: fastmcp's middleware context (a subclass of a project base
        # that is the `Middleware`, in a module that never imports the SDK: session 15's sweep D, r03).
        site = Site(state.pos(call), "list", "list", maybe=True)
        site.refusal = (
            "MR103",
            _MIDDLEWARE_READ.format(spelled=state.wrapper.module.code_for_node(receiver)),
        )
        return site
    if chain in (["session"], ["request_context", "session"]) or (
        not chain and "session" in holder.value.lower()
    ):
        site = Site(state.pos(call), "result", _uses(call, "result", state), maybe=True)
        from migrate_roots.codemods._roots_local import local_checks  # it imports this module's neighbours

        return local_checks(site, call, state)
    if not chain:
        site = Site(state.pos(call), "result", "list", maybe=True)
        where = "" if state.extra.get("imports_sdk") else " in a module that never imports the SDK"
        site.refusal = (
            "MR102",
            f"`{holder.value}.list_roots()` on an untyped value{where}: a fastmcp Context (a list) or a session "
            "(a ListRootsResult)? annotate it and run again",
        )
        return site
    return None


def override_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    """`super().list_roots()` in a method of a class built on an SDK context or session (a caching `Context`
    subclass): the SDK's read, in code no tool argument reaches."""
    if not (
        isinstance(receiver, cst.Call)
        and isinstance(receiver.func, cst.Name)
        and receiver.func.value == "super"
    ):
        return None
    method = state.function
    owner = state.parent(method) if method is not None else None
    while owner is not None and not isinstance(owner, cst.ClassDef):
        owner = state.parent(owner)
    if method is None or owner is None:
        return None
    kinds = {_sdk.annotation_kind(state, base.value) for base in owner.bases}
    if not kinds & {_sdk.CONTEXT, _sdk.FASTMCP_CONTEXT, _sdk.REQUEST_CONTEXT, _sdk.SESSION}:
        return None
    site = Site(state.pos(call), "result", "list")
    site.refusal = (
        "MR103",
        f"roots read by `{state.wrapper.module.code_for_node(receiver)}.list_roots()` in "
        f"`{owner.name.value}.{method.name.value}`, a method of a subclass "
        "of the SDK's class: it still asks the client for roots/list, which fails on 2026-07-28 requests; "
        "rewritten tools call it only for a legacy client that passes no path, review its other callers by hand",
    )
    return site


def _a_methods_own(name: cst.Name, state: FileState) -> bool:
    """`self` of a method (its class's object), not of a function patched onto the SDK's class (`async def
    patched(self, notification)` assigned to `ServerSession._received_notification`)."""
    scope = state.scope(name)
    for assignment in scope[name.value] if scope is not None and name.value in scope else ():
        param = getattr(assignment, "node", None)
        params = state.parent(param) if isinstance(param, cst.Param) else None
        func = state.parent(params) if params is not None else None
        block = state.parent(func) if isinstance(func, cst.FunctionDef) else None
        if not isinstance(block, cst.IndentedBlock) or not isinstance(state.parent(block), cst.ClassDef):
            return False
    return True


def _used_at_once(call: cst.Call, state: FileState) -> bool:
    """A call whose value is neither awaited, handed on nor returned, nor assigned to a name that is: not a
    coroutine (an SDK read that nothing awaits would do nothing)."""
    parent = state.parent(call)
    if state.function is None or isinstance(parent, (cst.Await, cst.Arg, cst.Return, cst.Lambda, cst.Yield)):
        return False
    if not isinstance(parent, cst.Assign):
        return True  # `for r in chat.list_roots():`, `if chat.list_roots():`
    name = parent.targets[0].target if len(parent.targets) == 1 else None
    if not isinstance(name, cst.Name):
        return False  # `self.roots = ...`: who awaits it is not known here
    held = name.value
    found = False

    class Handed(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            nonlocal found
            owner = state.parent(node)
            found = found or (node.value == held and isinstance(owner, (cst.Await, cst.Arg, cst.Return)))

    read(state.function.body, Handed())
    return not found


def session_of(state: FileState, name: cst.Name) -> tuple[cst.Name | None, list[str]]:
    """The parameter and attribute chain a local is assigned once from: `getattr(ctx, "session", None)`,
    `ctx.session`, `ctx.request_context.session`, or a helper of the module returning one (`_session_of(ctx)`)."""
    scope = state.scope(name)
    assignments = list(scope[name.value]) if scope is not None and name.value in scope else []
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    if not isinstance(target, cst.Name):
        return None, []
    value = _sdk._assigned_value(state, target)
    handed = _sdk.handed_session(state, value)  # `session = _session_of(ctx)`
    if handed is not None:
        return (handed[0], handed[1]) if isinstance(handed[0], cst.Name) else (None, [])
    return _sdk.session_chain(state, value) if value is not None else (None, [])


def untraced_site(call: cst.Call, receiver: cst.BaseExpression, state: FileState) -> Site | None:
    """An awaited `list_roots()` in a module that imports the SDK, on a value no rule traces to a request's
    session or context (`session, name = ctx.session, "x"`, `SESSIONS[key]`, `var.get()`, `(a or b)`): most
    likely the SDK's read, so never silent; marked, with the doubt said, since no rewrite can be sure of it."""
    if not state.extra.get("imports_sdk") or not _awaited(call, state):
        return None
    if (
        isinstance(receiver, cst.Name)
        and receiver.value in ("self", "cls")
        and _a_methods_own(receiver, state)
    ):
        return None
    if _annotated_parameter(receiver, state) and not _sdk_field(receiver, state):
        return None  # `ctx: AppContext`, then `ctx.session.list_roots()`: typed as the project's own
    return _marked(
        call,
        f"`{state.wrapper.module.code_for_node(receiver)}.list_roots()` is awaited in a module that imports "
        "the MCP SDK, on a value migrate-roots cannot trace to a request's session or context: if it is one, "
        "this asks for roots/list, deprecated in MCP 2026-07-28; pass the path down from the tool and call "
        "`list_roots_compat` here, by hand",
        state,
    )


def _awaited(call: cst.Call, state: FileState) -> bool:
    """`await x.list_roots()`, or the call handed to what is awaited (`await asyncio.wait_for(x.list_roots(), 5)`)."""
    node: cst.CSTNode | None = state.parent(call)
    for _ in range(4):
        if isinstance(node, cst.Await):
            return True
        if not isinstance(node, (cst.Arg, cst.Call, cst.Element, cst.Tuple, cst.List)):
            return False
        node = state.parent(node)
    return False


def _annotated_parameter(receiver: cst.BaseExpression, state: FileState) -> bool:
    """The receiver is, or is an attribute of, a parameter annotated with a type (not the SDK's: those are
    typed already)."""
    while isinstance(receiver, cst.Attribute):
        receiver = receiver.value
    if not isinstance(receiver, cst.Name):
        return False
    scope = state.scope(receiver)
    bound = list(scope[receiver.value]) if scope is not None and receiver.value in scope else []
    nodes = [getattr(b, "node", None) for b in bound]
    return any(isinstance(n, cst.Param) and n.annotation is not None for n in nodes)


def _sdk_field(receiver: cst.BaseExpression, state: FileState) -> bool:
    """`deps.session` where `deps: Deps` and the module's class `Deps` declares `session: ServerSession` (a
    dataclass holding the SDK's session: sweep A's r02 of session 15)."""
    if not (isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name)):
        return False
    scope = state.scope(receiver.value)
    bound = list(scope[receiver.value.value]) if scope is not None and receiver.value.value in scope else []
    params = [node for b in bound if isinstance(node := getattr(b, "node", None), cst.Param)]
    annotation = params[0].annotation if len(params) == 1 else None
    if annotation is None or not isinstance(annotation.annotation, cst.Name):
        return False
    classes = [
        s
        for s in state.wrapper.module.body
        if isinstance(s, cst.ClassDef) and s.name.value == annotation.annotation.value
    ]
    for line in classes[0].body.body if len(classes) == 1 else ():
        for small in line.body if isinstance(line, cst.SimpleStatementLine) else ():
            if (
                isinstance(small, cst.AnnAssign)
                and isinstance(small.target, cst.Name)
                and small.target.value == receiver.attr.value
                and _sdk.annotation_kind(state, small.annotation.annotation) not in (None, _sdk.FOREIGN)
            ):
                return True
    return False


def unbound_site(node: cst.Call, state: FileState) -> Site | None:
    """`ServerSession.list_roots(ctx.session)`, `type(session).list_roots(session)`: the SDK's method called on
    its class, which no rewrite takes (marked)."""
    target = node.func
    if not (isinstance(target, cst.Attribute) and target.attr.value == "list_roots" and len(node.args) == 1):
        return None
    holder = target.value
    on_type = (
        isinstance(holder, cst.Call) and isinstance(holder.func, cst.Name) and holder.func.value == "type"
    )
    if not (on_type or state.qnames(holder) & _sdk.SESSIONS):
        return None
    return _marked(
        node,
        f"`{state.wrapper.module.code_for_node(target)}(...)` calls the session's roots method on its class: it "
        "asks the client for roots/list, deprecated in MCP 2026-07-28, and migrate-roots rewrites "
        "`session.list_roots()` calls only; call it on the session, or pass the path down from the tool and call "
        "`list_roots_compat` here, by hand",
        state,
    )


def _marked(call: cst.Call, why: str, state: FileState) -> Site:
    """A read no rewrite takes, marked (MR103) with its reason."""
    site = Site(state.pos(call), "result", "list")
    site.refusal = ("MR103", why)
    return site


# What an SDK import says (`from mcp.server...`, `import mcp`, `from fastmcp import`): see `sdk_tokens`.
_SDK_TOKENS = frozenset({b"from mcp", b"import mcp", b"fastmcp"})


def sdk_tokens(summaries: Iterable[Summary]) -> set[bytes]:
    """A module that never imports the SDK but holds an untyped read (`Site.maybe`) is MCP's when its package
    imports the SDK elsewhere (`_roots_plan`, `mcp_packages`): the package's SDK modules must be parsed to tell,
    even when none of them calls it (a helper no tool is seen to reach is reported, never silent)."""
    for summary in summaries:
        if summary.sdk:
            continue
        funcs = summary.functions.values()
        if any(f.strings for f in funcs) or any(site.maybe for f in funcs for site in f.sites):
            return set(_SDK_TOKENS)
    return set()


_MIDDLEWARE_READ = (
    "roots read through `{spelled}`, a fastmcp middleware's context: the hook runs around tool calls but takes "
    "no argument of its own, so migrate-roots rewrites nothing here; if the roots bound what the tools may "
    "touch, keep that bound in the server's configuration, never in an argument the caller chooses; else read "
    "the tool's own path argument from `context.message.arguments`, by hand"
)
