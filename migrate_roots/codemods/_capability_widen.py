"""Where and how the roots-capability checks in front of a rewritten read are widened (`_capability_guard`
tells what a check is).

A test that is the check as a whole (`if not caps.roots:`, `if caps is not None and caps.roots:`) becomes
`if root is None and (...)`; a test that joins the check to other conditions by and/or (`if READ_ONLY or not
caps.roots:`) gets only the check's operand widened (`READ_ONLY or (root is None and not caps.roots)`), so the
argument gets past the check and nothing else. Under `not (...)`, in a comparison or a call, the check is not
taken apart: `plan` says why and the caller marks the read (MR105).
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from migrate_roots.codemods import _era
from migrate_roots.codemods._capability_guard import (
    AND,
    OR,
    _capability_attributes,
    _checks,
    _mixed,
    _pure,
    _variables,
    has_check,
    predicates,
)
from migrate_roots.codemods._plumbing_queries import _contains
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState
from migrate_roots.model import Severity


def _exits(block: cst.BaseSuite) -> bool:
    body = block.body if isinstance(block, cst.IndentedBlock) else [block]
    if not body:
        return False
    last = body[-1]
    small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
    return isinstance(small, (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _precedes(guard: cst.If, call: cst.CSTNode, state: FileState) -> bool:
    """Does the read follow `guard` in the same block (or in a block nested after it)?"""
    block = state.parent(guard)
    if block is None:
        return False
    statements = list(getattr(block, "body", ()))
    if guard not in statements:
        return False
    return any(_contains(s, call, state) for s in statements[statements.index(guard) + 1 :])


# Why a check is not widened: the caller marks the read with it (MR105).
GUARDED = (
    "a roots-capability check guards this call: with a path argument the check must go; decide what a client "
    "without roots and without the argument gets"
)


def plan(call: cst.CSTNode, func: cst.FunctionDef, state: FileState) -> list[tuple[cst.CSTNode, str]] | str:
    """The nodes to widen in front of `call`, each with how: an `if`/conditional expression whose whole test is
    the check, or the check's own operand of a test that joins it to other conditions (`READ_ONLY or not
    caps.roots`); or why a check cannot be rewritten with certainty."""
    caps, flags, assigns = _variables(func, predicates(state))
    line = state.pos(call)[0]
    for match in _era.matches(func, flags):
        if _contains(match, call, state) or state.pos(match)[0] < line:
            return (
                f"`match {_code(match.subject)}:` picks a case by the client's protocol era in front of this "
                "call: a 2026-07-28 client passing the path argument is still sent to its era's case and may "
                "never reach this call; let the argument past the era's cases by hand (a guard `if <argument> "
                "is None` on the cases that skip this call)"
            )
    checks = _checks(func, caps, flags)
    # Capabilities read any other way (`caps.get("roots")`, passed on): not a check this can widen. Beside a
    # check in the test it widens as a whole (`caps is not None and caps.roots`, MemoryForge) they are part of it.
    tests = [t.test for t in (_test_of(c, func, state) for c in checks) if t is not None]
    for attribute in _capability_attributes(func.body):
        if not any(_contains(c, attribute, state) for c in [*checks, *tests]) and not any(
            _contains(a, attribute, state) for a in assigns
        ):
            return GUARDED
    out: list[tuple[cst.CSTNode, str]] = []
    for check in checks:
        if any(_contains(a, check, state) for a in assigns):
            continue  # a definition: its uses are what count
        test_of = _test_of(check, func, state)
        if _mixed(check, flags):
            return (
                f"`{_code(check)}` checks the roots capability together with other conditions: widening it "
                "would let a path argument past those too; let the argument past the check alone, by hand"
            )
        if test_of is None:
            return GUARDED
        if _contains(test_of.body, call, state):
            how = OR
        elif (
            _contains(test_of.orelse, call, state)
            if isinstance(test_of, cst.IfExp)
            else _reached_when_false(test_of, call, state)
        ):
            how = AND
        else:
            return GUARDED
        part = _split(check, test_of.test, caps, flags, state)
        if isinstance(part, str):
            return part
        out.append((test_of if part is test_of.test else part, how))
    unique: dict[int, tuple[cst.CSTNode, str]] = {}
    for guard, how in out:
        if unique.setdefault(id(guard), (guard, how))[1] != how:
            return GUARDED
    return list(unique.values())


def guards(
    call: cst.CSTNode, func: cst.FunctionDef, state: FileState
) -> list[tuple[cst.CSTNode, str]] | None:
    """`plan`, or None when a check cannot be rewritten with certainty."""
    found = plan(call, func, state)
    return None if isinstance(found, str) else found


def _split(
    check: cst.CSTNode, test: cst.BaseExpression, caps: set[str], flags: set[str], state: FileState
) -> cst.CSTNode | str:
    """The part of `test` to widen: the largest expression around the check made of checks only. Below and/or
    alone, widening it moves the test only as far as the check would (`READ_ONLY or (root is None and not
    caps.roots)` still refuses when READ_ONLY); under `not`, a comparison or a call it cannot be told."""
    part = check
    while part is not test:
        parent = state.parent(part)
        if parent is None or not _pure(parent, caps, flags):
            break
        part = parent
    node = part
    while node is not test:
        parent = state.parent(node)
        if not isinstance(parent, cst.BooleanOperation):
            return (
                f"a roots-capability check (`{_code(part)}`) shares its test with other conditions "
                f"(`{_code(test)}`) in a way migrate-roots cannot split with certainty: widening the whole "
                "test would let a path argument past those conditions too; let the argument past the "
                "check alone, by hand"
            )
        node = parent
    return part


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


def _test_of(check: cst.CSTNode, func: cst.FunctionDef, state: FileState) -> cst.If | cst.IfExp | None:
    """The `if` (or conditional expression) whose test holds the check, within its statement."""
    node: cst.CSTNode | None = check
    while node is not None and node is not func:
        parent = state.parent(node)
        if isinstance(parent, (cst.If, cst.IfExp)) and parent.test is node:
            return parent
        if parent is None or isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            return None
        node = parent
    return None


def _reached_when_false(guard: cst.If, call: cst.CSTNode, state: FileState) -> bool:
    """The read is in the `else`, or follows an `if` (without `else`) whose branch always leaves."""
    if guard.orelse is not None:
        return _contains(guard.orelse, call, state)
    return _exits(guard.body) and _precedes(guard, call, state)


_LOOSE = (cst.BooleanOperation, cst.IfExp, cst.NamedExpr, cst.Lambda)


def widen(value: str, how: str, wrap: bool = False, room: int | None = None) -> Any:
    """An edit for an `If`/`IfExp`: its test becomes "argument given, or the old condition"; `wrap`: an `if`
    whose line would overflow gets its test in parentheses, one operand a line; `room`: the columns the old
    condition has on its own line, beyond which a call in it is split inside its brackets (as ruff's
    formatter does)."""

    # `save_path or None` (an existing path parameter read as the argument) binds looser than `is`.
    parsed = cst.parse_expression(value)
    if not isinstance(parsed, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not parsed.lpar:
        value = f"({value})"
    given_text = f"{value} is not None" if how == OR else f"{value} is None"

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, (cst.If, cst.IfExp))
        test = node.test
        if isinstance(test, cst.BooleanOperation) and _code(test.left) == given_text:
            return node  # widened by an earlier run
        if isinstance(test, _LOOSE) and not test.lpar:
            test = test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if how == OR:
            given = cst.parse_expression(f"{value} is not None")
            new = cst.BooleanOperation(left=given, operator=cst.Or(), right=test)
        else:
            given = cst.parse_expression(f"{value} is None")
            new = cst.BooleanOperation(left=given, operator=cst.And(), right=test)
        if wrap and isinstance(node, cst.If):
            line = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace("    "))
            right = new.right
            if room is not None and len(_code(right)) > room and isinstance(right, cst.Call) and right.args:
                new = new.with_changes(right=_exploded_call(right))
            operator = new.operator.with_changes(whitespace_before=line)
            new = new.with_changes(
                operator=operator,
                lpar=[cst.LeftParen(whitespace_after=line)],
                rpar=[cst.RightParen(whitespace_before=cst.ParenthesizedWhitespace(indent=True))],
            )
        return node.with_changes(test=new)

    return change


def _exploded_call(call: cst.Call) -> cst.Call:
    """`f(a, b)` as `f(\n        a, b\n    )`: its arguments on a line of their own, one level in from the
    operand's (which sits one level in from the `if`)."""
    inner = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(" " * 8))
    outer = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(" " * 4))
    args = list(call.args)
    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=outer)
    return call.with_changes(whitespace_before_args=inner, args=args)


def widen_part(value: str, how: str) -> Any:
    """An edit for the check's own operand of a test joined to other conditions: `(root is None and <check>)`
    (`how` AND), `(root is not None or <check>)` (OR)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.BaseExpression)
        if isinstance(node, _LOOSE) and not node.lpar:
            node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        given = cst.parse_expression(_given(value, how))
        operator = cst.Or() if how == OR else cst.And()
        return cst.BooleanOperation(
            left=given, operator=operator, right=node, lpar=[cst.LeftParen()], rpar=[cst.RightParen()]
        )

    return change


def _given(value: str, how: str) -> str:
    parsed = cst.parse_expression(value)
    if not isinstance(parsed, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not parsed.lpar:
        value = f"({value})"
    return f"{value} is not None" if how == OR else f"{value} is None"


def _widened_before(part: cst.CSTNode, value: str, how: str, state: FileState) -> bool:
    """`READ_ONLY or (root is None and not caps.roots)`: the operand was widened by an earlier run."""
    parent = state.parent(part)
    return isinstance(parent, cst.BooleanOperation) and _code(parent.left) == _given(value, how)


def widen_around(call: cst.CSTNode, value: str, state: FileState) -> None:
    """Widen the checks in front of a rewritten read, or of a call that passes the value down to one; a check
    that cannot be widened in front of a passing call is marked (the read itself was decided by the plan). A
    read that passes None runs only without the argument: its checks stand as they are."""
    if value == "None":
        return
    owner = state.enclosing_function(call)
    if owner is None or not has_check(owner, predicates(state)):
        return
    found = plan(call, owner, state)
    if isinstance(found, str):
        passing = (
            "a roots-capability check guards this call: the path argument it passes down may never arrive; "
            "decide what a client without roots and without the argument gets"
        )
        state.mark(call, "MR105", passing if found == GUARDED else found, Severity.BROKEN)
        return
    width = style_of(state.path).line_length
    for guard, how in found:
        if not isinstance(guard, (cst.If, cst.IfExp)):
            if not _widened_before(guard, value, how, state):
                state.edit(guard, widen_part(value, how))
            continue
        line = state.lines[state.pos(guard)[0] - 1]
        room = width - (len(line) - len(line.lstrip())) - 4 - len("and ")
        state.edit(guard, widen(value, how, len(line) + len(value) + 16 > width, room))
