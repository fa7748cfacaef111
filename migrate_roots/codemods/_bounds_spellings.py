"""Containment checks spelled without a call the `_bounds` visitor names (session 16's sweep G, r03 and r12):

    while probe not in allowed:                       # a walk up the path's parents, looked up in the bound
        if probe == probe.parent:
            return "Access denied"
        probe = probe.parent

    if target.parts[: len(base.parts)] != base.parts:  # the path's leading parts against the bound's
        return "Access denied"

    if os.path.relpath(target, base).split(os.sep)[0] == os.pardir:  # the first step out of the bound is `..`
        return "Access denied"

Each counts only where it refuses (a `raise`, or a returned message or false value, `_raises_at_end`): a parts
comparison whose body goes on, or a walk that looks for a marker file and returns the folder it finds, bounds
nothing. The functions here answer nodes; `_bounds` says which names they mention and whether roots reach them.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

PARTS = "a comparison of the path's leading `parts` with the bound's"
PARDIR = "a `relpath` whose first part is `..`"
WALK = "a walk up the path's parents looked up in a collection"


def _callee(call: cst.Call) -> str | None:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else None


def _raises_at_end(body: cst.BaseSuite) -> bool:
    """The block refuses: it ends in a `raise`, or returns a message or a false value (`return "denied"`)."""
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else body
    smalls = getattr(last, "body", ())
    end = smalls[-1] if isinstance(smalls, (list, tuple)) and smalls else None
    if isinstance(end, cst.Return):
        value = end.value
        return isinstance(value, (cst.SimpleString, cst.FormattedString)) or (
            isinstance(value, cst.Name) and value.value in ("False", "None")
        )
    return isinstance(end, cst.Raise)


def _pardir(node: cst.BaseExpression) -> bool:
    """`".."`, `os.pardir` or `pardir`."""
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value == ".."
    if isinstance(node, cst.Attribute):
        return node.attr.value == "pardir" and isinstance(node.value, cst.Name) and node.value.value == "os"
    return isinstance(node, cst.Name) and node.value == "pardir"


def _relpath(node: cst.BaseExpression) -> cst.Call | None:
    """`os.path.relpath(x, base)` (of two or more arguments), or None."""
    if isinstance(node, cst.Call) and _callee(node) == "relpath" and len(node.args) >= 2:
        return node
    return None


def _relpath_of(call: cst.Call) -> cst.BaseExpression | None:
    """The base of `os.path.relpath(x, base).startswith("..")` (or `os.pardir`), or None."""
    receiver = _relpath(call.func.value) if isinstance(call.func, cst.Attribute) else None
    if receiver is None or not call.args or not _pardir(call.args[0].value):
        return None
    return receiver.args[1].value


def _first_part_of_relpath(node: cst.BaseExpression) -> cst.Call | None:
    """The relpath call of `relpath(t, base).split(os.sep)[0]` or `Path(relpath(t, base)).parts[0]`."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return None
    index = node.slice[0].slice
    if not (
        isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0"
    ):
        return None
    value = node.value
    if isinstance(value, cst.Call) and _callee(value) == "split" and isinstance(value.func, cst.Attribute):
        return _relpath(value.func.value)
    if isinstance(value, cst.Attribute) and value.attr.value == "parts" and isinstance(value.value, cst.Call):
        wrapped = value.value  # `Path(relpath(...)).parts[0]`
        return _relpath(wrapped.args[0].value) if _callee(wrapped) == "Path" and wrapped.args else None
    return None


def _leading_parts(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`target` of `target.parts[:n]`, or None."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return None
    cut = node.slice[0].slice
    value = node.value
    if not (isinstance(cut, cst.Slice) and cut.upper is not None and cut.step is None):
        return None
    if cut.lower is not None and not (isinstance(cut.lower, cst.Integer) and cut.lower.value == "0"):
        return None
    return value.value if isinstance(value, cst.Attribute) and value.attr.value == "parts" else None


def _parts_or_pardir(
    node: cst.Comparison,
) -> tuple[str, bool, cst.BaseExpression, cst.BaseExpression] | None:
    """(sign, true when the path is outside, bound side, checked side) of one `==` / `!=` comparison."""
    if len(node.comparisons) != 1:
        return None
    target = node.comparisons[0]
    if not isinstance(target.operator, (cst.Equal, cst.NotEqual)):
        return None
    equal = isinstance(target.operator, cst.Equal)
    for one, other in ((node.left, target.comparator), (target.comparator, node.left)):
        checked = _leading_parts(one)
        # Both sides are `parts`: a tuple of folder names compared with a constant is another test.
        if checked is not None and isinstance(other, cst.Attribute) and other.attr.value == "parts":
            return PARTS, not equal, other.value, checked
        relpath = _first_part_of_relpath(one)
        if relpath is not None and _pardir(other):
            return PARDIR, equal, relpath.args[1].value, relpath.args[0].value
    return None


def _outside(
    test: cst.BaseExpression, negated: bool = False
) -> Iterator[tuple[str, bool, cst.BaseExpression, cst.BaseExpression]]:
    """The comparisons of an `if` test, each with whether it holds when the path is outside (under `not`s)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        yield from _outside(test.expression, not negated)
    elif isinstance(test, cst.BooleanOperation):
        yield from _outside(test.left, negated)
        yield from _outside(test.right, negated)
    elif isinstance(test, cst.Comparison):
        found = _parts_or_pardir(test)
        if found is not None:
            sign, outside, bound, checked = found
            yield sign, outside != negated, bound, checked


def refused_outside(node: cst.If) -> list[tuple[str, cst.BaseExpression, cst.BaseExpression]]:
    """(sign, bound side, checked side) of each parts or `..` comparison of the `if` whose refusing branch is the
    outside one: the body when the test holds outside, the `else` when it holds inside."""
    refuses_inside = isinstance(node.orelse, cst.Else) and _raises_at_end(node.orelse.body)
    refuses_outside = _raises_at_end(node.body)
    return [
        (sign, bound, checked)
        for sign, outside, bound, checked in _outside(node.test)
        if (refuses_outside if outside else refuses_inside)
    ]


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


def parent_walk(loop: cst.While) -> list[tuple[cst.BaseExpression, cst.Name]]:
    """(collection, walked name) of each lookup of a walked name in a `while` walk up its parents that refuses on
    its way (`if probe == probe.parent: return "Access denied"`): the collection is the bound. The lookup is the
    loop's test (`while probe not in allowed`) or an `if` of its body (`if probe in allowed: break`)."""
    walked = stepped(loop)
    ifs = [s for s in loop.body.body if isinstance(s, cst.If)]
    if not walked or not any(_raises_at_end(s.body) for s in ifs):
        return []
    found: list[tuple[cst.BaseExpression, cst.Name]] = []
    for test in (loop.test, *(s.test for s in ifs)):
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        tests = [test.left, test.right] if isinstance(test, cst.BooleanOperation) else [test]
        for one in tests:
            if not (isinstance(one, cst.Comparison) and isinstance(one.left, cst.Name)):
                continue
            for target in one.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and one.left.value in walked:
                    found.append((target.comparator, one.left))
    return found
