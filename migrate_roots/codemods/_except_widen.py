"""Exception handlers around a rewritten roots read keep catching its failures.

The old call fails with the SDK's own errors: `McpError` when the client has no roots or does not answer
roots/list, fastmcp's `NotFoundError`, ... The shim raises `RootsArgumentError` instead (an SDK ToolError and
a ValueError), so `except McpError: return fallback` around the read would stop catching the very case it
was written for: a client without roots would get a tool error where it got the fallback (measured on a
field server: `except (NotFoundError, McpError)` around `ctx.list_roots()`).

So the rewrite adds `RootsArgumentError` to the handler of the innermost `try` around the read, or around a
call on the way to it, that catches an SDK error and nothing the shim's error already is (`Exception`,
`ValueError`, a `ToolError`, a bare `except`). A handler that reads the error it binds (`e.error.code`) is
not widened: the shim's error has no such fields, and the read is marked (MR105) instead. Nor is a handler
that ends in a `raise` and returns nothing: it turns the failure into an error of its own, and the shim's
error, which names the argument, is the clearer one. Under `except*` the
name binds the group, whose own fields (`group.exceptions`) are there either way, but an error held from it
(`first = group.exceptions[0]`, then `first.error`) is the SDK's.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from migrate_roots.codemods._except_types import (
    _BROAD,
    _COVERING,
    _SHIM_BASES,
    NAME,
    Handler,
    _caught,
    _covers,
    _held_errors,
    _held_tuple,
    _kind_names,
    _names,
    _narrow_test,
    _sdk_error,
    _types,
    sdk_tests,
)
from migrate_roots.codemods.program.flow import last_name

REFUSAL = (
    "MR105",
    "the handler around this call catches the SDK's error and reads it (`{name}.{attr}`); with a path "
    "argument a missing one fails with RootsArgumentError, which has no such field: decide by hand what "
    "this handler should catch",
)


# Under `except*` the bound name is the ExceptionGroup whatever it holds: its own fields are there either way.
_GROUP = frozenset(
    {"exceptions", "message", "split", "subgroup", "derive", "args", "add_note", "with_traceback"}
    | {"__notes__", "__traceback__", "__cause__", "__context__", "__class__"}
)


def _reads_error(handler: Handler, state: Any) -> str | None:
    """`name.attr` when the handler's body reads `attr` of the error it binds to `name` (a field the shim's
    error lacks); under `except*`, of an error in the group (`group.exceptions[0].error`, `for e in
    group.exceptions: e.error`, `first = group.exceptions[0]` or `next(iter(group.exceptions))` then
    `first.error`), not of the group nor of a part of it (`group.split(...)`, `group.subgroup(...)`)."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return None
    bound = handler.name.name.value
    star = isinstance(handler, cst.ExceptStarHandler)
    groups = {bound}  # the bound name, and names holding it (or, under `except*`, a part of the group)
    lists: set[str] = set()  # names holding `group.exceptions`
    items: set[str] = set()  # names holding an error of the group
    found: list[str] = []
    code = state.wrapper.module.code_for_node

    def of_group(node: cst.BaseExpression) -> bool:  # `group.exceptions`, `list(group.exceptions)`
        if isinstance(node, cst.Call) and last_name(node.func) in ("list", "tuple") and len(node.args) == 1:
            node = node.args[0].value
        if isinstance(node, cst.Name):
            return node.value in lists
        return (
            isinstance(node, cst.Attribute)
            and node.attr.value == "exceptions"
            and isinstance(node.value, cst.Name)
            and node.value.value in groups
        )

    def item(node: cst.BaseExpression) -> bool:  # `group.exceptions[0]`, `next(iter(group.exceptions))`
        if isinstance(node, cst.Subscript):
            return of_group(node.value)
        if isinstance(node, cst.Call) and last_name(node.func) == "next" and node.args:
            inner = node.args[0].value
            if isinstance(inner, cst.Call) and last_name(inner.func) == "iter" and inner.args:
                return of_group(inner.args[0].value)
        return isinstance(node, cst.Name) and node.value in items

    def part(node: cst.BaseExpression) -> bool:  # `group`, `group.subgroup(...)`, `group.split(...)`
        if isinstance(node, cst.Call) and star and isinstance(node.func, cst.Attribute):
            return node.func.attr.value in ("split", "subgroup") and part(node.func.value)
        return isinstance(node, cst.Name) and node.value in groups

    def bind(target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        names = [target] if isinstance(target, cst.Name) else []
        if isinstance(target, (cst.Tuple, cst.List)):  # `first, *rest = group.exceptions`, `a, b = g.split()`
            names = [e.value for e in target.elements if isinstance(e.value, cst.Name)]
            whole = value is not None and (of_group(value) or part(value))
            kind = items if value is not None and of_group(value) else groups
            if star and whole:
                kind.update(n.value for n in names if isinstance(n, cst.Name))
            return
        for name in names:
            assert isinstance(name, cst.Name)
            if value is None:
                continue
            if star and item(value):
                items.add(name.value)
            elif star and of_group(value):
                lists.add(name.value)
            elif part(value):
                groups.add(name.value)

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                bind(target.target, node.value)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            bind(node.target, node.value)

        def visit_For(self, node: cst.For) -> None:
            if star and of_group(node.iter) and isinstance(node.target, cst.Name):
                items.add(node.target.value)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            if star and of_group(node.iter) and isinstance(node.target, cst.Name):
                items.add(node.target.value)

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            value = node.value
            if isinstance(value, cst.Name) and value.value in groups:
                if not star or node.attr.value not in _GROUP:
                    found.append(f"{value.value}.{node.attr.value}")
            elif star and (isinstance(value, cst.Subscript) and of_group(value.value) or item(value)):
                found.append(code(node))  # `group.exceptions[0].error`, `first.error`, `e.error`

    for _ in range(
        2
    ):  # a name bound from a name bound before (`errors = group.exceptions; first = errors[0]`)
        state.walk(handler.body, Bindings())
    state.walk(handler.body, Reads())
    return found[0] if found else None


def handler_for(call: cst.CSTNode, state: Any) -> tuple[Handler | None, str | None]:
    """(the handler to widen, or None; `name.attr` when the one that would be widened reads the error)."""
    child: cst.CSTNode = call
    node = state.parent(call)
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(node, (cst.Try, cst.TryStar)) and child is node.body:
            # In order, as Python tries them: a handler that already catches the shim's error first (`except
            # Exception`) handles both errors alike; an SDK error's handler first is the one the old failure met
            # (`except McpError: return None` before `except Exception: raise`, bees): widened.
            for handler in node.handlers:
                if handler.type is None or _covers(_caught(state, handler)):
                    if not sdk_tests(handler, state):
                        return None, None
                    # `except Exception as exc: if isinstance(exc, McpError): <fallback>` (sweep T, r06)
                    reads = _reads_error(handler, state)
                    return (None, reads) if reads is not None else (handler, None)
                if _sdk_error(_caught(state, handler)):
                    if _raises(handler, state):
                        return None, None  # the shim's error, naming the argument, goes through
                    reads = _reads_error(handler, state)
                    if reads is not None:
                        return None, reads
                    return handler, None
        child, node = node, state.parent(node)
    return None, None


def _raises(handler: Handler, state: Any) -> bool:
    """The handler ends in a `raise` and returns nothing (`except McpError as exc: raise RuntimeError("no
    roots") from exc`): it turns the failure into another error, so widened it would put that error, which
    names no argument, in place of the shim's, which does. Left as it is, the shim's error reaches the client."""
    body = handler.body
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
    if not (isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise)):
        return False
    found: list[cst.CSTNode] = []

    class Leaves(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

        def visit_Continue(self, node: cst.Continue) -> None:
            found.append(node)

        def visit_Break(self, node: cst.Break) -> None:
            found.append(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    state.walk(body, Leaves())
    return not found


def refusal(call: cst.CSTNode, state: Any) -> tuple[str, str] | None:
    """MR105 when the handler that would have to be widened reads the SDK error's fields, or the SDK's error is
    caught in a way no handler shows: suppressed (`with contextlib.suppress(McpError):`), or returned as a value
    (`asyncio.gather(..., return_exceptions=True)`), nearer than any `try` (session 15's sweep C, r05)."""
    newly = newly_caught(call, state)
    if newly is not None:
        return "MR105", (
            f"`{newly}` around this call would catch RootsArgumentError, which the shim raises when no path "
            "is given (a ValueError and a ToolError), while the old call's SDK error went through it: a legacy "
            "client without roots would get this handler's answer instead of an error, and a modern client "
            "would never hear of the argument; add `except RootsArgumentError: raise` before it by hand"
        )
    again = reraised(call, state)
    if again is not None:
        return "MR105", (
            f"`{again}` around this call raises RootsArgumentError again, which the shim raises when no path is "
            "given (a ValueError and a ToolError), where the old call's SDK error went on to a fallback of the "
            "same `try`: a legacy client without roots would get an error instead of that answer; add `except "
            "RootsArgumentError:` with that answer before it by hand"
        )
    other = _caught_otherwise(call, state)
    if other is not None:
        return "MR105", (
            f"the SDK's error from this call is {other}; with a path argument a missing one fails with "
            "RootsArgumentError instead, which that does not catch: a client without roots would lose the "
            "fallback written for it; decide by hand what it should catch"
        )
    _, reads = handler_for(call, state)
    if reads is None:
        return None
    name, _, attr = reads.partition(".")
    return REFUSAL[0], REFUSAL[1].format(name=name, attr=attr)


def newly_caught(call: cst.CSTNode, state: Any) -> str | None:
    """`except (OSError, ValueError):` around the read: the first handler, in Python's order, that catches the
    shim's error but not the SDK's (a ValueError or ToolError, no SDK error, nothing broader), spelled; else
    None (session 20, sweep B r01: `json.loads` of a workspace file in the same `try`)."""
    child: cst.CSTNode = call
    node = state.parent(call)
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if (
            isinstance(node, cst.With) and child is node.body
        ):  # `with suppress(OSError, ValueError):` (sweep F r02)
            for item in node.items:
                manager = item.item
                if isinstance(manager, cst.Call) and last_name(manager.func) == "suppress":
                    names = set().union(*(_names(state, a.value) for a in manager.args))
                    short = {n.rpartition(".")[2] for n in names}
                    narrow = short & (_COVERING - {NAME} - _BROAD)
                    if (
                        narrow
                        and not short & _BROAD
                        and not _sdk_error(names - {n for n in names if n.rpartition(".")[2] in _SHIM_BASES})
                    ):
                        return f"with {state.wrapper.module.code_for_node(manager)}"
        if isinstance(node, (cst.Try, cst.TryStar)) and child is node.body:
            for handler in node.handlers:
                names = _caught(state, handler)
                for kind in _types(handler):  # `except _PARSE_ERRORS:`, a module constant (sweep D r09)
                    constant = _held_tuple(state, kind)
                    names |= (
                        set().union(*(_names(state, e.value) for e in constant.elements))
                        if constant
                        else set()
                    )
                short = {n.rpartition(".")[2] for n in names}
                # The SDK's ToolError (and its base) is the shim's error too, never the old call's (sweep D r10).
                sdk = _sdk_error({n for n in names if n.rpartition(".")[2] not in _SHIM_BASES})
                if handler.type is None or short & _BROAD:
                    # `if isinstance(exc, ValueError): <fallback>` (sweep F r04)
                    test = _narrow_test(handler, state)
                    if test is None:
                        return None
                    spelled = state.wrapper.module.code_for_node
                    caught = f" {spelled(handler.type)}" if handler.type is not None else ""
                    alias = f" as {spelled(handler.name.name)}" if handler.name is not None else ""
                    return f"except{caught}{alias}` testing `{test}"
                if sdk:
                    if _raises(handler, state) and not short & _COVERING:
                        continue  # raised from a handler, an error skips its siblings (sweep F r01)
                    return None
                if short & (_COVERING - {NAME}) and _raises(handler, state):
                    return None  # it raises again: the error still reaches the client (sweep D r11)
                if short & (_COVERING - {NAME}):
                    kind = handler.type
                    assert kind is not None
                    star = "*" if isinstance(handler, cst.ExceptStarHandler) else ""
                    return f"except{star} {state.wrapper.module.code_for_node(kind)}"
        child, node = node, state.parent(node)
    return None


def reraised(call: cst.CSTNode, state: Any) -> str | None:
    """The handler (or a test in a broad one) of the innermost `try` around `call` that catches both errors which
    raises the shim's error again where the SDK's error gets a fallback (`except ValueError: raise` before
    `except Exception: return "(no roots)"`, or `if isinstance(exc, ValueError): raise` in it; sweep J r01 of
    session 21), spelled; else None."""
    spelled = state.wrapper.module.code_for_node
    child: cst.CSTNode = call
    node = state.parent(call)
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(node, (cst.Try, cst.TryStar)) and child is node.body:
            shim: Handler | None = None
            sdk: Handler | None = None
            for handler in node.handlers:
                names = _kind_names(state, handler.type) if handler.type is not None else set()
                short = {n.rpartition(".")[2] for n in names}
                broad = handler.type is None or bool(short & _BROAD)
                if broad and shim is None and sdk is None:
                    test = _narrow_test(handler, state, reraise=True)
                    if test is not None:
                        alias = f" as {spelled(handler.name.name)}" if handler.name is not None else ""
                        kind = f" {spelled(handler.type)}" if handler.type is not None else ""
                        return f"except{kind}{alias}` testing `{test}"
                if shim is None and (broad or short & (_COVERING - {NAME})):
                    shim = handler
                if sdk is None and (
                    broad or _sdk_error({n for n in names if n.rpartition(".")[2] not in _SHIM_BASES})
                ):
                    if shim is None and not broad:
                        return None  # met first by the old error: `handler_for` widens it for the new one too
                    sdk = handler
            if shim is not None and sdk is not None and shim is not sdk:
                if _raises(shim, state) and not _raises(sdk, state):
                    caught = shim.type
                    return f"except {spelled(caught)}" if caught is not None else "except"
                return None
            if shim is not None or sdk is not None:
                return None
        child, node = node, state.parent(node)
    return None


def shim_caught(call: cst.CSTNode, state: Any) -> bool:
    """Whether the shim's error raised at `call` is caught in its function: by a handler that covers it, by an SDK
    error's handler the rewrite widens (one that does not raise), or by `suppress(...)` of such a class."""
    child: cst.CSTNode = call
    node = state.parent(call)
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(node, cst.With) and child is node.body:
            for item in node.items:
                manager = item.item
                if (
                    isinstance(manager, cst.Call)
                    and last_name(manager.func) == "suppress"
                    and _covers(set().union(*(_names(state, a.value) for a in manager.args)))
                ):
                    return True
        if isinstance(node, (cst.Try, cst.TryStar)) and child is node.body:
            for handler in node.handlers:
                names = _caught(state, handler)
                if (
                    handler.type is None
                    or (_covers(names) or _sdk_error(names))
                    and not _raises(handler, state)
                ):
                    return True
        child, node = node, state.parent(node)
    return False


def _caught_otherwise(call: cst.CSTNode, state: Any) -> str | None:
    child: cst.CSTNode = call
    node = state.parent(call)
    while node is not None and not isinstance(node, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(node, (cst.Try, cst.TryStar)) and child is node.body:
            for handler in node.handlers:  # in Python's order, as `handler_for`
                if handler.type is None or _covers(_caught(state, handler)):
                    return None
                constant = _held_errors(state, handler)
                if constant is not None:
                    return f"caught by `except {constant}`, a tuple held in a module constant"
                if _sdk_error(_caught(state, handler)):
                    return None  # `handler_for` widens it
            return None
        if isinstance(node, cst.With) and child is node.body:
            for item in node.items:
                manager = item.item
                if isinstance(manager, cst.Call) and last_name(manager.func) == "suppress":
                    names = set().union(*(_names(state, a.value) for a in manager.args))
                    if _sdk_error(names) and not _covers(names):
                        return f"suppressed by `{state.wrapper.module.code_for_node(manager)}`"
        if (
            isinstance(node, cst.Call)
            and last_name(node.func) == "gather"
            and any(a.keyword is not None and a.keyword.value == "return_exceptions" for a in node.args)
        ):
            return "returned as a value by `asyncio.gather(..., return_exceptions=True)`"
        child, node = node, state.parent(node)
    return None


def widen(node: cst.CSTNode) -> cst.CSTNode:
    """The handler with `RootsArgumentError` added to what it catches (once)."""
    assert isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)) and node.type is not None
    kind = node.type
    spelled = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
    if any(isinstance(e, cst.Name) and e.value == NAME for e in spelled):
        return node
    extra = cst.Element(cst.Name(NAME))
    if isinstance(kind, cst.Tuple):
        elements = list(kind.elements)
        last = elements[-1]
        if last.comma is cst.MaybeSentinel.DEFAULT:
            elements[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            return node.with_changes(type=kind.with_changes(elements=[*elements, extra]))
        return node.with_changes(
            type=kind.with_changes(elements=[*elements, extra.with_changes(comma=last.comma)])
        )
    first = cst.Element(kind, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
    return node.with_changes(type=cst.Tuple([first, extra]))


def edits(handler: Handler, state: Any) -> list[tuple[cst.CSTNode, Any]]:
    """What to edit so `handler` catches the shim's error as it caught the SDK's: the handler's types, or,
    in a broad handler, its `isinstance` tests."""
    if handler.type is None or _covers(_caught(state, handler)):
        return [(test, widen_test) for test in sdk_tests(handler, state)]
    return [(handler, widen)]


def widen_test(node: cst.CSTNode) -> cst.CSTNode:
    """`isinstance(exc, McpError)` as `isinstance(exc, (McpError, RootsArgumentError))` (once); a tuple
    constant nests (`isinstance` takes nested tuples)."""
    assert isinstance(node, cst.Call)
    kind = node.args[1].value
    spelled = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
    if any(isinstance(e, cst.Name) and e.value == NAME for e in spelled):
        return node
    extra = cst.Element(cst.Name(NAME))
    comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    if isinstance(kind, cst.Tuple) and kind.lpar:
        elements = list(kind.elements)
        elements[-1] = elements[-1].with_changes(comma=comma)
        new: cst.BaseExpression = kind.with_changes(elements=[*elements, extra])
    else:
        new = cst.Tuple([cst.Element(kind, comma=comma), extra])
    args = list(node.args)
    args[1] = args[1].with_changes(value=new)
    return node.with_changes(args=args)
