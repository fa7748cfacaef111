"""A walk up a path's parents looked up in a collection, where it refuses on its way (session 16's sweep G):

    while probe not in allowed:
        if probe == probe.parent:
            return "Access denied"
        probe = probe.parent

The collection is the bound (`parent_walk`). A walk that refuses once it reaches the collection (`if probe in
tops or probe == probe.parent: raise`) stops at the roots and still searches above a path outside them: a
search's limit, not a bound (`stops`). Read by `_bounds`, beside `_bounds_spellings`.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from migrate_roots.codemods._bounds_spellings import _callee, _raises_at_end

WALK = "a walk up the path's parents looked up in a collection"


def stepped(loop: cst.While) -> set[str]:
    """Names the loop's body steps to their parent: `probe = probe.parent`, `probe = os.path.dirname(probe)`."""
    found: set[str] = set()
    for statement in loop.body.body:
        for small in getattr(statement, "body", ()) if isinstance(statement, cst.SimpleStatementLine) else ():
            if not (isinstance(small, cst.Assign) and len(small.targets) == 1):
                continue
            name = small.targets[0].target
            value = small.value
            if isinstance(value, cst.Attribute) and value.attr.value == "parent":
                step = value.value
            elif isinstance(value, cst.Call) and _callee(value) == "dirname" and value.args:
                step = value.args[0].value
            else:
                continue
            if isinstance(name, cst.Name) and isinstance(step, cst.Name) and step.value == name.value:
                found.add(name.value)
    return found


def _lookups(test: cst.BaseExpression, negated: bool = False) -> Iterator[tuple[cst.Comparison, bool]]:
    """Each comparison of a test, with whether it holds when its first `in` / `not in` holds (under `not`s)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        yield from _lookups(test.expression, not negated)
    elif isinstance(test, cst.BooleanOperation):
        yield from _lookups(test.left, negated)
        yield from _lookups(test.right, negated)
    elif isinstance(test, cst.Comparison):
        yield test, not negated


def stops(loop: cst.While) -> set[int]:
    """Ids of the lookups of a walked name that refuse once the walk reaches the collection (`if probe in tops
    or probe == probe.parent: raise`): the walk stops at the roots, a path outside them is still searched (a
    marker file above it), so the collection bounds nothing."""
    walked = stepped(loop)
    found: set[int] = set()
    for statement in loop.body.body:
        if not (isinstance(statement, cst.If) and _raises_at_end(statement.body)):
            continue
        for one, holds in _lookups(statement.test):
            if isinstance(one.left, cst.Name) and one.left.value in walked:
                ops = [t.operator for t in one.comparisons if isinstance(t.operator, (cst.In, cst.NotIn))]
                if ops and isinstance(ops[0], cst.In) == holds:
                    found.add(id(one))
    return found


def parent_walk(loop: cst.While) -> list[tuple[cst.BaseExpression, cst.Name]]:
    """(collection, walked name) of each lookup of a walked name in a `while` walk up its parents that refuses on
    its way (`if probe == probe.parent: return "Access denied"`): the collection is the bound. The lookup is the
    loop's test (`while probe not in allowed`) or an `if` of its body (`if probe in allowed: break`); one that
    refuses at the collection (`stops`) is a search's limit, not a bound."""
    walked = stepped(loop)
    ifs = [s for s in loop.body.body if isinstance(s, cst.If)]
    if not walked or not any(_raises_at_end(s.body) for s in ifs):
        return []
    stopped = stops(loop)
    found: list[tuple[cst.BaseExpression, cst.Name]] = []
    for test in (loop.test, *(s.test for s in ifs)):
        for one, _ in _lookups(test):
            if not isinstance(one.left, cst.Name) or id(one) in stopped:
                continue
            for target in one.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and one.left.value in walked:
                    found.append((target.comparator, one.left))
    return found
