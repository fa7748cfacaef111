"""A read whose failure sets its value to None (`try: result = await <read> except Exception: result = None`)
under a handler that catches the shim's error too, or an SDK error's handler the rewrite widens to it
(`except McpError:`), where None and an empty list take one branch: a request without the argument takes that
branch as the failing call did, so the read is rewritten, not marked MR105 for telling None from empty (sweep
H r05 of session 21, L r01 of session 22)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._plumbing_queries import _contains
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import flow


def none_still_on_failure(call: cst.Call, func: cst.FunctionDef, name: str, state: FileState) -> bool:
    """`try: result = await <read> except Exception: result = None`, then None and an empty list in one branch:
    a request without the argument takes the same None branch the failing call took (sweep H r05 of session
    21, L r01 of session 22)."""
    return failure_meets_none(call, func, name, state) and _alike(func, name, state)


def failure_meets_none(call: cst.Call, func: cst.FunctionDef, name: str, state: FileState) -> bool:
    """Every handler around the read that sets `name` to None catches the shim's error too (`Exception`,
    `ValueError`, a bare `except`), or is the SDK error's handler the rewrite widens to catch it (`except
    McpError:` becomes `except (McpError, RootsArgumentError):`): a request without the argument gets None as
    the failing call did, rather than failing."""
    from migrate_roots.codemods._except_types import _caught, _covers, _sdk_error
    from migrate_roots.codemods._except_widen import handler_for

    handlers = flow.none_handlers(func, name)
    if not handlers:
        return False
    for handler in handlers:
        attempt = state.parent(handler)
        if not isinstance(attempt, cst.Try) or not _contains(attempt.body, call, state):
            return False
        names = _caught(state, handler)
        broad = {"Exception", "BaseException"} & {n.rpartition(".")[2] for n in names}
        # ... and the SDK's error too: the two failures meet in one branch
        if handler.type is None or _covers(names) and (broad or _sdk_error(names)):
            continue
        # `except McpError:` alone meets the shim's error once the rewrite widens it (and only then)
        if not (_sdk_error(names) and handler_for(call, state)[0] is handler):
            return False
    return True


def _alike(func: cst.FunctionDef, name: str, state: FileState) -> bool:
    """Every None test of `name` goes with a truth test of it in one condition (`result is not None and
    result.roots`, `result is None or not result.roots`): None and an empty list take one branch. Told apart
    (`if roots is not None and not roots: raise "no access"`), an argument would pass where empty roots refused."""
    tests: list[cst.Comparison] = []

    class Nones(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            if (
                isinstance(node.left, cst.Name)
                and node.left.value == name
                and len(node.comparisons) == 1
                and isinstance(node.comparisons[0].operator, (cst.Is, cst.IsNot))
                and isinstance(node.comparisons[0].comparator, cst.Name)
                and node.comparisons[0].comparator.value == "None"
            ):
                tests.append(node)

    read(func, Nones())
    for test in tests:
        both = state.parent(test)
        wanted = cst.And if isinstance(test.comparisons[0].operator, cst.IsNot) else cst.Or
        if not (isinstance(both, cst.BooleanOperation) and isinstance(both.operator, wanted)):
            return False
        other = both.right if both.left is test else both.left
        negated = isinstance(other, cst.UnaryOperation) and isinstance(other.operator, cst.Not)
        inner = other.expression if isinstance(other, cst.UnaryOperation) else other
        mentioned = isinstance(inner, (cst.Name, cst.Attribute)) and _base_name(inner) == name
        # `is not None and x.roots` (truth), or `is None or not x.roots` (falsity): the empty list joins None
        if not mentioned or negated != (wanted is cst.Or):
            return False
    return bool(tests)


def _base_name(node: cst.BaseExpression) -> str:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else ""
