"""The check a lift of MR109 leans on (`_confined`): which folder it bounds, and that it refuses what lies
outside that folder, not inside it.

    try:                                             # in place: the handler refuses
        Path(profile).resolve().relative_to(BASE)
    except ValueError:
        raise ValueError("the profile must lie in the profiles folder") from None

    def _inside(path, parent) -> bool:               # a helper: True exactly when inside
        try:
            path.resolve().relative_to(parent.resolve())
            return True
        except ValueError:
            return False

    if not _inside(chosen, base):                    # ... whose refusing `if` is negated
        raise ValueError("outside")

`if _inside(chosen, base): raise` refuses the folder (a deny check) and bounds nothing; `relative_to` whose
`try` raises anyway, or whose handler goes on, refuses nothing. A bound is one folder named by a plain name
(`parent`, `parent.resolve()`, `Path(parent)`), not `parent / "sub"`, and not a name a comprehension around the
check binds (`any(p.is_relative_to(base) for base in ALLOWED)`).
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._confined_tree import _bound_in, _callee_name, _File, _in_def

Pos = tuple[int, int]

_CHECKS = ("relative_to", "is_relative_to")
_SAME = frozenset({"resolve", "absolute", "expanduser"})  # methods that name the same folder


def _check_bound(file: _File, func: cst.FunctionDef, pos: Pos | None) -> set[str] | None:
    """The folder the check at `pos` refuses a path outside of (`parent` of `path.relative_to(parent)`); with
    `pos` None, the one check of the helper `func`, which must answer True exactly when the path is inside."""
    if pos is None:
        found: list[cst.Call] = []

        class Find(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if _callee_name(node.func) in _CHECKS:
                    found.append(node)

        func.body.visit(Find())
        calls = found
    else:
        calls = [
            n for n in file.at.get(pos, []) if isinstance(n, cst.Call) and _callee_name(n.func) in _CHECKS
        ]
    if len(calls) != 1 or not _in_def(file, calls[0], func) or len(calls[0].args) != 1:
        return None
    call = calls[0]
    if not (_answers_inside(file, call, func) if pos is None else _refuses_outside(file, call, func)):
        return None
    name = _same_folder(call.args[0].value)
    if name is None or _comprehension_binds(file, call, func, name):
        return None  # `any(p.is_relative_to(base) for base in ALLOWED)`: another `base`
    return {name}


def _statement(file: _File, node: cst.CSTNode) -> cst.CSTNode | None:
    current = file.parents.get(node)
    while current is not None and not isinstance(current, cst.BaseSmallStatement):
        current = file.parents.get(current)
    return current


def _guarding_try(file: _File, call: cst.Call, func: cst.FunctionDef) -> cst.Try | None:
    """The `try` whose body holds `call` and one handler catches its ValueError; none that raises in its body."""
    current = file.parents.get(call)
    while current is not None and current is not func:
        if isinstance(current, cst.Try):
            return current if not _raises(current.body) and _catches_value_error(current) else None
        if isinstance(current, (cst.ExceptHandler, cst.Finally, cst.Else)):
            return None
        current = file.parents.get(current)
    return None


class _Raises(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = False

    def visit_Raise(self, node: cst.Raise) -> None:
        self.found = True


def _raises(body: cst.CSTNode) -> bool:
    finder = _Raises()
    body.visit(finder)
    return finder.found


def _catches_value_error(node: cst.Try) -> bool:
    return len(_value_error_handlers(node)) == 1


def _value_error_handlers(node: cst.Try) -> list[cst.ExceptHandler]:
    found = []
    for handler in node.handlers:
        kind = handler.type
        names = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
        if any(isinstance(n, cst.Name) and n.value == "ValueError" for n in names):
            found.append(handler)
    return found


def _last(body: cst.BaseSuite) -> cst.CSTNode | None:
    statements = list(body.body) if isinstance(body, cst.IndentedBlock) else [body]
    last = statements[-1] if statements else None
    if isinstance(last, cst.SimpleStatementLine) and last.body:
        return last.body[-1]
    if isinstance(last, cst.SimpleStatementSuite) and last.body:
        return last.body[-1]
    return last


def _is_bool(node: cst.BaseSmallStatement | cst.CSTNode | None, value: str) -> bool:
    return isinstance(node, cst.Return) and isinstance(node.value, cst.Name) and node.value.value == value


def _refuses_outside(file: _File, call: cst.Call, func: cst.FunctionDef) -> bool:
    """`relative_to` in a `try` whose ValueError handler ends in a `raise` or a `return`; `is_relative_to` under
    the `not` of an `if` whose body ends so."""
    if _callee_name(call.func) == "relative_to":
        found = _guarding_try(file, call, func)
        handler = _value_error_handlers(found)[0] if found is not None else None
        # Only a `raise` refuses in place: a returned value may be the path itself (a deny check returning it
        # when outside), and `return False` answers a caller, whose `if` decides (`used_as_bound`).
        return handler is not None and isinstance(_last(handler.body), cst.Raise)
    parent = file.parents.get(call)
    test = file.parents.get(parent) if parent is not None else None
    return (
        isinstance(parent, cst.UnaryOperation)
        and isinstance(parent.operator, cst.Not)
        and isinstance(test, cst.If)
        and test.test is parent
        and isinstance(_last(test.body), (cst.Raise, cst.Return))
    )


def _answers_inside(file: _File, call: cst.Call, func: cst.FunctionDef) -> bool:
    """A helper that answers True exactly when the path is inside: `return p.is_relative_to(b)`, or
    `try: p.relative_to(b); return True` / `except ValueError: return False`."""
    statement = _statement(file, call)
    if _callee_name(call.func) == "is_relative_to":
        return isinstance(statement, cst.Return) and statement.value is call
    found = _guarding_try(file, call, func)
    if found is None or not isinstance(statement, cst.Expr):
        return False
    return _is_bool(_last(found.body), "True") and _is_bool(
        _last(_value_error_handlers(found)[0].body), "False"
    )


def refusing_helper(file: _File, func: cst.FunctionDef, pos: Pos) -> cst.Call | None:
    """The helper the negated `if` above the refusal at `pos` tests (`if not _inside(chosen, base): raise`);
    not one tested without `not` (`if _inside(chosen, base): raise` refuses the inside)."""
    raises = [n for n in file.at.get(pos, []) if isinstance(n, cst.Raise)]
    node: cst.CSTNode | None = raises[0] if len(raises) == 1 else None
    while node is not None and not isinstance(node, cst.If):
        node = file.parents.get(node)
        if isinstance(node, (cst.FunctionDef, cst.Else, cst.Try)):
            return None
    if not isinstance(node, cst.If):
        return None
    negated = [c for c, flips in _operands(node.test, False) if flips and isinstance(c, cst.Call)]
    if len(negated) != 1 or not isinstance(negated[0], cst.Call) or not _in_def(file, negated[0], func):
        return None
    return negated[0]


def _operands(test: cst.BaseExpression, negated: bool) -> list[tuple[cst.BaseExpression, bool]]:
    """The operands of a test's `and`s, `or`s and `not`s, each with whether an odd number of `not`s holds it
    (`profile and not _inside(p, base)`: `_inside(...)` negated)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _operands(test.expression, not negated)
    if isinstance(test, cst.BooleanOperation):
        return _operands(test.left, negated) + _operands(test.right, negated)
    return [(test, negated)]


def _same_folder(node: cst.BaseExpression) -> str | None:
    """The name whose folder `node` is (`parent`, `parent.resolve(strict=False)`, `Path(parent)`), else None:
    `parent / "sub"` is another folder, which the roots' name below `parent` need not lie in."""
    while isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _SAME and all(a.keyword for a in node.args):
            node = func.value
        elif _callee_name(func) in ("Path", "str", "realpath", "abspath") and len(node.args) == 1:
            node = node.args[0].value
        else:
            return None
    return node.value if isinstance(node, cst.Name) else None


def _comprehension_binds(file: _File, node: cst.CSTNode, func: cst.FunctionDef, name: str) -> bool:
    """Does a comprehension around `node` (inside `func`) bind `name` for it?"""
    current = file.parents.get(node)
    while current is not None and current is not func:
        if isinstance(current, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
            loop: cst.CompFor | None = current.for_in
            while loop is not None:
                if name in _bound_in(loop.target):
                    return True
                loop = loop.inner_for_in
        current = file.parents.get(current)
    return False


def _refuses(node: cst.If) -> bool:
    """Does a branch of this `if` (its body, an `elif`, the `else`) end in a `raise` or a `return`?"""
    current: cst.CSTNode | None = node
    while current is not None:
        body = current.body if isinstance(current, (cst.If, cst.Else)) else None
        if body is not None and isinstance(_last(body), (cst.Raise, cst.Return)):
            return True
        current = current.orelse if isinstance(current, cst.If) else None
    return False


def used_as_bound(file: _File, call: cst.Call, func: cst.FunctionDef) -> bool:
    """A helper's answer (True when inside) used by `func` to refuse what lies outside (`if not _inside(p, b):
    raise`), or by an `if` that refuses nothing; not to refuse what lies inside (`if _inside(p, b): raise`),
    nor in a conditional expression, nor kept in a name to be tested later."""
    negated = False
    current: cst.CSTNode | None = call
    parent = file.parents.get(call)
    while isinstance(parent, (cst.UnaryOperation, cst.BooleanOperation)):
        if isinstance(parent, cst.UnaryOperation):
            if not isinstance(parent.operator, cst.Not):
                return False
            negated = not negated
        current, parent = parent, file.parents.get(parent)
    if isinstance(parent, cst.IfExp):
        return False  # `"refused" if _inside(p, b) else str(p)`: which branch refuses is not read
    if (
        not isinstance(parent, (cst.If, cst.While))
        or parent.test is not current
        or not _in_def(file, call, func)
    ):
        return False
    return not isinstance(parent, cst.If) or not _refuses(parent) or (negated and not parent.orelse)
