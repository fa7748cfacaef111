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
    value = _held_value(state, kind)
    return value if isinstance(value, cst.Tuple) else None


def _held_value(state: Any, kind: cst.BaseExpression) -> cst.BaseExpression | None:
    """The value a module-level name is bound to once (`ROOTS_ERRORS = (...)`, `_ERRORS: tuple[...] = (...)`,
    `ParseError = ValueError`)."""
    if not isinstance(kind, cst.Name):
        return None
    scope = state.scope(kind)
    scope = scope.globals if scope is not None else None
    bound = list(scope[kind.value]) if scope is not None and kind.value in scope else []
    target = getattr(bound[0], "node", None) if len(bound) == 1 else None
    parent = state.parent(target) if isinstance(target, cst.Name) else None
    assign = state.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
    return assign.value if isinstance(assign, (cst.Assign, cst.AnnAssign)) else None


def _covers(names: set[str]) -> bool:
    return any(n.rpartition(".")[2] in _COVERING for n in names)


def _sdk_error(names: set[str]) -> bool:
    return any(n.split(".")[0] in _SDK_TOPS or n.rpartition(".")[2] in _SDK_ERRORS for n in names)


def _narrow_test(handler: Handler, state: Any, reraise: bool = False) -> str | None:
    """In a broad handler, a test that picks the shim's error out (a ValueError or ToolError, no SDK error) for
    a branch that does not raise it again (or, negated, that raises every other error), as written: the old
    call's error failed it. `isinstance(exc, (OSError, ValueError))`, with the types in a module constant or an
    alias (`_PARSE_ERRORS`, `ParseError = ValueError`) or a union (`OSError | ValueError`); a predicate of the
    module that returns such a test (`if _is_missing(exc):`); `match exc: case OSError() | ValueError():`
    (sweep F r04 of session 20, G r06-r09 of session 21). With `reraise`, the other way round: a test that
    raises the shim's error again where the old call's error went on to the handler's fallback (`if
    isinstance(exc, (TypeError, ValueError)): raise`, then `return "(no roots)"`; sweep J r01)."""
    if handler.name is None or not isinstance(handler.name.name, cst.Name):
        return None
    bound = handler.name.name.value
    code = state.wrapper.module.code_for_node
    found: list[str] = []
    tail = _ends_in_raise(handler.body)  # what the errors no test picks get: raised again, or the fallback

    def picks(kind: cst.BaseExpression) -> bool:
        names = _kind_names(state, kind)
        short = {n.rpartition(".")[2] for n in names}
        if not short & (_COVERING - {NAME} - _BROAD) or short & _BROAD:
            return False
        return not _sdk_error({n for n in names if n.rpartition(".")[2] not in _SHIM_BASES})

    class Find(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            raises = _ends_in_raise(node.body)
            test = node.test
            # `if not isinstance(exc, ValueError): raise`, then the fallback: the same pick, the other way round
            negated = isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)
            if isinstance(test, cst.UnaryOperation) and negated:
                test = test.expression
            if (raises != negated) != reraise or (reraise and tail != negated):
                return
            for call in _calls(test):
                if last_name(call.func) == "isinstance" and len(call.args) == 2:
                    target, kind = call.args[0].value, call.args[1].value
                    if isinstance(target, cst.Name) and target.value == bound and picks(kind):
                        found.append(code(call))
                elif isinstance(call.func, cst.Name) and any(
                    isinstance(a.value, cst.Name) and a.value.value == bound for a in call.args
                ):
                    kinds = _predicate_kinds(call, bound, state)
                    if any(picks(k) for k in kinds):
                        found.append(code(call))

        def visit_Match(self, node: cst.Match) -> None:
            if not (isinstance(node.subject, cst.Name) and node.subject.value == bound):
                return
            for case in node.cases:
                classes = _pattern_classes(case.pattern)
                turned = _ends_in_raise(case.body) != reraise or (reraise and tail)
                if classes and not turned and any(picks(c) for c in classes):
                    found.append(f"case {code(case.pattern)}")

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    state.walk(handler.body, Find())
    return found[0] if found else None


def _ends_in_raise(body: cst.BaseSuite) -> bool:
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
    return isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[-1], cst.Raise)


def _kind_names(state: Any, kind: cst.BaseExpression, depth: int = 0) -> set[str]:
    """The names an `isinstance` type argument may stand for: a tuple's, a union's (`A | B`), and those of a
    module-level name bound once to such a value (`_PARSE_ERRORS = (OSError, ValueError)`, `ParseError =
    ValueError`)."""
    if isinstance(kind, cst.Tuple):
        return set().union(*(_kind_names(state, e.value, depth) for e in kind.elements))
    if isinstance(kind, cst.BinaryOperation) and isinstance(kind.operator, cst.BitOr):
        return _kind_names(state, kind.left, depth) | _kind_names(state, kind.right, depth)
    names = _names(state, kind)
    held = _held_value(state, kind) if depth < 3 else None
    return names | (_kind_names(state, held, depth + 1) if held is not None else set())


def _predicate_kinds(call: cst.Call, bound: str, state: Any) -> list[cst.BaseExpression]:
    """`_is_missing(exc)`, a function of the module returning `isinstance(<its parameter>, kinds)`: the kinds."""
    assert isinstance(call.func, cst.Name)
    name = call.func.value
    defs = [n for n in state.wrapper.module.body if isinstance(n, cst.FunctionDef) and n.name.value == name]
    if len(defs) != 1:
        return []
    index = next(
        i for i, a in enumerate(call.args) if isinstance(a.value, cst.Name) and a.value.value == bound
    )
    params = [*defs[0].params.posonly_params, *defs[0].params.params]
    if call.args[index].keyword is not None or index >= len(params):
        return []
    param = params[index].name.value
    body = defs[0].body.body if isinstance(defs[0].body, cst.IndentedBlock) else []
    last = body[-1] if body else None
    value = (
        last.body[0].value
        if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return)
        else None
    )
    if value is None:
        return []
    return [
        c.args[1].value
        for c in _calls(value)
        if last_name(c.func) == "isinstance"
        and len(c.args) == 2
        and isinstance(c.args[0].value, cst.Name)
        and c.args[0].value.value == param
    ]


def _pattern_classes(pattern: cst.MatchPattern) -> list[cst.BaseExpression]:
    """The classes a `case` matches: `OSError()`, `OSError() | ValueError()`, `(ValueError() as e)`."""
    if isinstance(pattern, cst.MatchClass):
        return [pattern.cls]
    if isinstance(pattern, cst.MatchOr):
        return [c for p in pattern.patterns for c in _pattern_classes(p.pattern)]
    if isinstance(pattern, cst.MatchAs) and pattern.pattern is not None:
        return _pattern_classes(pattern.pattern)
    return []


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
