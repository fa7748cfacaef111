"""Containment checks spelled without a call the `_bounds` visitor names (session 16's sweep G, r03 and r12):

    while probe not in allowed:                       # a walk up the path's parents, looked up in the bound
        if probe == probe.parent:
            return "Access denied"
        probe = probe.parent

    if target.parts[: len(base.parts)] != base.parts:  # the path's leading parts against the bound's
        return "Access denied"

    if os.path.relpath(target, base).split(os.sep)[0] == os.pardir:  # the first step out of the bound is `..`
        return "Access denied"

Each counts only where it refuses (a `raise`, a returned message or false value, or a returned value whose text
says denied / outside / not allowed, `_raises_at_end`): a parts comparison whose body goes on, or a walk that
looks for a marker file and returns the folder it finds (or refuses when it reaches the collection: it stops
there, a file outside is still served), bounds nothing. The relpath may be held in a name first
(`rel = os.path.relpath(target, base)`, then `rel.startswith(os.pardir)`: `held`). The functions here answer nodes; `_bounds` says which names they mention and whether roots reach them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from types import MappingProxyType

import libcst as cst

PARTS = "a comparison of the path's leading `parts` with the bound's"
PARDIR = "a `relpath` whose first part is `..`"
WALK = "a walk up the path's parents looked up in a collection"


def _callee(call: cst.Call) -> str | None:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else None


# A returned structured error (`{"error": "Access denied"}`, `[TextContent(..., text="Not allowed")]`).
_REFUSES = re.compile(
    r"\bden(y|ied|ial)\b|\boutside\b|\bnot\s+(allowed|permitted|within|inside|under)\b|\bforbidden\b",
    re.IGNORECASE,
)


class _Texts(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        self.found = self.found or (isinstance(value, str) and bool(_REFUSES.search(value)))

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        self.found = self.found or bool(_REFUSES.search(node.value))


def _says_refused(node: cst.CSTNode) -> bool:
    texts = _Texts()
    node.visit(texts)
    return texts.found


def _raises_at_end(body: cst.BaseSuite) -> bool:
    """The block refuses: it ends in a `raise`, or returns a message or a false value (`return "denied"`), or a
    value whose text says the path is refused (`return {"error": "Access denied"}`)."""
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else body
    smalls = getattr(last, "body", ())
    end = smalls[-1] if isinstance(smalls, (list, tuple)) and smalls else None
    if isinstance(end, cst.Return):
        value = end.value
        return (
            isinstance(value, (cst.SimpleString, cst.FormattedString))
            or (isinstance(value, cst.Name) and value.value in ("False", "None"))
            or (value is not None and _says_refused(value))
        )
    return isinstance(end, cst.Raise)


def _pardir(node: cst.BaseExpression) -> bool:
    """`".."`, `os.pardir` or `pardir`."""
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value == ".."
    if isinstance(node, cst.Attribute):
        return node.attr.value == "pardir" and isinstance(node.value, cst.Name) and node.value.value == "os"
    return isinstance(node, cst.Name) and node.value == "pardir"


def _pardir_prefix(node: cst.BaseExpression) -> bool:
    """`".."`, `os.pardir`, `"../"`, `os.pardir + os.sep`: what a relpath out of its base starts with."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _pardir_prefix(node.left)
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return isinstance(value, str) and value in ("..", "../", "..\\")
    return _pardir(node)


Held = Mapping[str, cst.Call]
NONE_HELD: Held = MappingProxyType({})


def _relpath(node: cst.BaseExpression, held: Held = NONE_HELD) -> cst.Call | None:
    """`os.path.relpath(x, base)` (of two or more arguments), or a name `held` says was assigned one, or None."""
    if isinstance(node, cst.Name):
        return held.get(node.value)
    if isinstance(node, cst.Call) and _callee(node) == "relpath" and len(node.args) >= 2:
        return node
    return None


def held_relpaths(body: cst.CSTNode) -> dict[str, cst.Call]:
    """Names assigned a relpath once (`rel = os.path.relpath(target, base)`); a name assigned twice: none."""
    found: dict[str, cst.Call] = {}
    twice: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    name = t.target.value
                    call = _relpath(node.value)
                    if name in found or call is None:
                        twice.add(name)
                    else:
                        found[name] = call

    body.visit(Find())
    return {name: call for name, call in found.items() if name not in twice}


def _relpath_of(call: cst.Call, held: Held = NONE_HELD) -> cst.BaseExpression | None:
    """The base of `os.path.relpath(x, base).startswith("..")` (or `os.pardir`, `os.pardir + os.sep`), or None."""
    receiver = _relpath(call.func.value, held) if isinstance(call.func, cst.Attribute) else None
    if receiver is None or not call.args or not _pardir_prefix(call.args[0].value):
        return None
    return receiver.args[1].value


def absolute_test(call: cst.Call) -> bool:
    """`p.startswith("/")` / `p.startswith(os.sep)`: whether a path is absolute, as `os.path.isabs` says; it
    checks nothing against a bound."""
    if _callee(call) != "startswith" or len(call.args) != 1:
        return False
    arg = call.args[0].value
    options = [e.value for e in arg.elements] if isinstance(arg, cst.Tuple) else [arg]
    return all(
        (isinstance(o, cst.SimpleString) and o.evaluated_value in ("/", "\\"))
        or (isinstance(o, (cst.Attribute, cst.Name)) and _code(o) in ("os.sep", "os.path.sep", "sep"))
        for o in options
    )


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _first_part_of_relpath(node: cst.BaseExpression, held: Held = NONE_HELD) -> cst.Call | None:
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
        return _relpath(value.func.value, held)
    if isinstance(value, cst.Attribute) and value.attr.value == "parts" and isinstance(value.value, cst.Call):
        wrapped = value.value  # `Path(relpath(...)).parts[0]`
        return _relpath(wrapped.args[0].value, held) if _callee(wrapped) == "Path" and wrapped.args else None
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
    node: cst.Comparison, held: Held = NONE_HELD
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
        # `rel == os.pardir`: the whole relpath of a held name (the bound's parent itself).
        relpath = _first_part_of_relpath(one, held) or (
            _relpath(one, held) if isinstance(one, cst.Name) else None
        )
        if relpath is not None and _pardir(other):
            return PARDIR, equal, relpath.args[1].value, relpath.args[0].value
    return None


def _outside(
    test: cst.BaseExpression, negated: bool = False, held: Held = NONE_HELD
) -> Iterator[tuple[str, bool, cst.BaseExpression, cst.BaseExpression]]:
    """The comparisons of an `if` test, each with whether it holds when the path is outside (under `not`s)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        yield from _outside(test.expression, not negated, held)
    elif isinstance(test, cst.BooleanOperation):
        yield from _outside(test.left, negated, held)
        yield from _outside(test.right, negated, held)
    elif isinstance(test, cst.Call) and held:
        base = _relpath_of(test, held)  # `rel.startswith(os.pardir)`: a held relpath's prefix
        receiver = test.func.value if isinstance(test.func, cst.Attribute) else None
        if base is not None and isinstance(receiver, cst.Name):
            yield PARDIR, not negated, base, held[receiver.value].args[0].value
    elif isinstance(test, cst.Comparison):
        found = _parts_or_pardir(test, held)
        if found is not None:
            sign, outside, bound, checked = found
            yield sign, outside != negated, bound, checked


def refused_outside(
    node: cst.If, held: Held = NONE_HELD
) -> list[tuple[str, cst.BaseExpression, cst.BaseExpression]]:
    """(sign, bound side, checked side) of each parts or `..` comparison of the `if` whose refusing branch is the
    outside one: the body when the test holds outside, the `else` when it holds inside."""
    refuses_inside = isinstance(node.orelse, cst.Else) and _raises_at_end(node.orelse.body)
    refuses_outside = _raises_at_end(node.body)
    return [
        (sign, bound, checked)
        for sign, outside, bound, checked in _outside(node.test, held=held)
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
