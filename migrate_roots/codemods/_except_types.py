"""Which exceptions a handler catches, told by name: the shim's error (`RootsArgumentError`, a ValueError and
an SDK ToolError) against the old call's SDK errors (`McpError`, fastmcp's `NotFoundError`), in `except`
clauses, module-constant tuples and the `isinstance` tests of a broad handler. Read by `_except_widen`."""

from __future__ import annotations

from typing import Any

import libcst as cst

from migrate_roots.codemods.program.flow import last_name

NAME = "RootsArgumentError"
# `except McpError:`, and `except* McpError:` (the read in a TaskGroup, whose errors come in a group).
Handler = cst.ExceptHandler | cst.ExceptStarHandler
# Anything the shim's error already is: a handler of one of these catches it as it is.
_COVERING = frozenset({"Exception", "BaseException", "ValueError", "ToolError", "FastMCPError", NAME})
_SDK_TOPS = frozenset({"mcp", "fastmcp", "mcp_types"})
_SDK_ERRORS = frozenset({"McpError", "NotFoundError", "MCPError"})
# Catch the SDK's error and the shim's alike.
_BROAD = frozenset({"Exception", "BaseException"})
# The SDK classes the shim's error is, and the old call's never was.
_SHIM_BASES = frozenset({"ToolError", "FastMCPError"})


def _types(handler: Handler) -> list[cst.BaseExpression]:
    kind = handler.type
    if kind is None:
        return []
    if isinstance(kind, cst.Tuple):
        return [e.value for e in kind.elements]
    return [kind]


def _names(state: Any, expr: cst.BaseExpression) -> set[str]:
    """Dotted names an exception type may have (its qualified names, else its own spelling)."""
    found = {q.name for q in state.qualified_names(expr)}
    if isinstance(expr, cst.Name):
        found.add(expr.value)
    elif isinstance(expr, cst.Attribute):
        found.add(expr.attr.value)
    return found


def _caught(state: Any, handler: Handler) -> set[str]:
    """Every name the types a handler catches may have."""
    return set().union(*(_names(state, t) for t in _types(handler)))


def _held_errors(state: Any, handler: Handler) -> str | None:
    """`except ROOTS_ERRORS:` where `ROOTS_ERRORS = (McpError, TimeoutError)` at module level holds an SDK error
    and nothing the shim's error is: the constant's name. Widened, `(ROOTS_ERRORS, RootsArgumentError)` would be
    a nested tuple, which `except` refuses at run time."""
    for kind in _types(handler):
        held = _held_tuple(state, kind)
        names = set().union(*(_names(state, e.value) for e in held.elements)) if held is not None else set()
        if _sdk_error(names) and not _covers(names):
            return state.wrapper.module.code_for_node(kind)
    return None


def _held_tuple(state: Any, kind: cst.BaseExpression) -> cst.Tuple | None:
    """The tuple a module-level name is bound to once (`ROOTS_ERRORS = (McpError, TimeoutError)`)."""
    if not isinstance(kind, cst.Name):
        return None
    scope = state.scope(kind)
    scope = scope.globals if scope is not None else None
    bound = list(scope[kind.value]) if scope is not None and kind.value in scope else []
    target = getattr(bound[0], "node", None) if len(bound) == 1 else None
    assign = state.parent(state.parent(target)) if isinstance(target, cst.Name) else None
    value = assign.value if isinstance(assign, cst.Assign) else None
    return value if isinstance(value, cst.Tuple) else None


def _covers(names: set[str]) -> bool:
    return any(n.rpartition(".")[2] in _COVERING for n in names)


def _sdk_error(names: set[str]) -> bool:
    return any(n.split(".")[0] in _SDK_TOPS or n.rpartition(".")[2] in _SDK_ERRORS for n in names)


def _narrow_test(handler: Handler, state: Any) -> cst.Call | None:
    """In a broad handler, an `isinstance(exc, (OSError, ValueError))` that picks the shim's error out (a
    ValueError or ToolError, no SDK error) for a branch that does not raise it again (or, negated, that raises
    every other error): the old call's error failed that test."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return None
    bound = handler.name.name.value
    found: list[cst.Call] = []

    class Find(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            last = node.body.body[-1] if node.body.body else None
            raises = isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise)
            test = node.test
            # `if not isinstance(exc, ValueError): raise`, then the fallback: the same pick, the other way round
            negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            if negated:
                assert isinstance(test, cst.UnaryOperation)
                test = test.expression
            if raises != negated:
                return
            tests = [c for c in _calls(test) if last_name(c.func) == "isinstance" and len(c.args) == 2]
            for call in tests:
                target, kind = call.args[0].value, call.args[1].value
                if not isinstance(target, cst.Name) or target.value != bound:
                    continue
                kinds = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
                names = set().union(*(_names(state, k) for k in kinds))
                short = {n.rpartition(".")[2] for n in names}
                if not short & (_COVERING - {NAME} - _BROAD) or short & _BROAD:
                    continue
                if _sdk_error({n for n in names if n.rpartition(".")[2] not in _SHIM_BASES}):
                    continue
                found.append(call)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    state.walk(handler.body, Find())
    return found[0] if found else None


def _calls(test: cst.BaseExpression) -> list[cst.Call]:
    """The calls a condition is made of (`isinstance(e, A) and not x`)."""
    if isinstance(test, cst.BooleanOperation):
        return _calls(test.left) + _calls(test.right)
    return [test] if isinstance(test, cst.Call) else []


def sdk_tests(handler: Handler, state: Any) -> list[cst.Call]:
    """In a handler that catches the shim's error too (`except Exception as exc:`), the tests that tell the
    SDK's error apart, `isinstance(exc, McpError)` (or a tuple holding one): the shim's error fails them, so
    they are widened as an `except McpError:` is."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return []
    bound = handler.name.name.value
    found: list[cst.Call] = []

    class Find(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if last_name(node.func) != "isinstance" or len(node.args) != 2:
                return
            target, kind = node.args[0].value, node.args[1].value
            if not isinstance(target, cst.Name) or target.value != bound:
                return
            kinds = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
            names = set().union(*(_names(state, k) for k in kinds))
            if _sdk_error(names) and not _covers(names):
                found.append(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    state.walk(handler.body, Find())
    return found
