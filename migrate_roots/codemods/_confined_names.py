"""What a folder name's characters can be: the sanitizers (`hashlib.<h>(...).hexdigest()`, `re.sub` of a
negated class of safe characters), the names they feed, and a function that returns one folder name below a
base (`base / f"{label}-{digest}"`). Read by `_confined`."""

from __future__ import annotations

import re

import libcst as cst

from migrate_roots.codemods._confined_tree import _bound_in, _dotted, _File, _in_def, _params

_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def _safe_literal(node: cst.CSTNode) -> str | None:
    if isinstance(node, cst.SimpleString) and "b" not in node.prefix.lower():
        value = node.evaluated_value
        return value if isinstance(value, str) and set(value) <= _SAFE else None
    return None


def _negated_class(pattern: str) -> bool:
    """`[^A-Za-z0-9_.-]+`: a negated class whose kept characters are all safe (the rest are replaced). Read as
    `re` reads it: a `-` between two items is a range whatever escapes them (`.-\\_` keeps `.` to `_`, `/` too)."""
    match = re.fullmatch(r"\[\^((?:[^\]\\]|\\[-._])+)\][+*]?", pattern)
    if match is None:
        return False
    body = match.group(1)
    items: list[tuple[str, bool]] = []  # (character, escaped)
    i = 0
    while i < len(body):
        escaped = body[i] == "\\"
        items.append((body[i + 1], True) if escaped else (body[i], False))
        i += 2 if escaped else 1
    kept: set[str] = set()
    k = 0
    while k < len(items):
        char = items[k][0]
        if k + 2 < len(items) and items[k + 1] == ("-", False):
            high = items[k + 2][0]
            if char > high:
                return False
            kept |= {chr(c) for c in range(ord(char), ord(high) + 1)}
            k += 3
        else:
            kept.add(char)
            k += 1
    return kept <= _SAFE


def _sanitizer(node: cst.CSTNode) -> bool:
    """`hashlib.<h>(...).hexdigest()`, or `re.sub(<safe negated class>, <safe literal>, value)`."""
    if not isinstance(node, cst.Call):
        return False
    func = node.func
    if isinstance(func, cst.Attribute) and func.attr.value == "hexdigest" and not node.args:
        inner = func.value
        return isinstance(inner, cst.Call) and (_dotted(inner.func) or "").startswith("hashlib.")
    if _dotted(func) == "re.sub" and len(node.args) == 3 and all(a.keyword is None for a in node.args):
        pattern = node.args[0].value
        value = pattern.evaluated_value if isinstance(pattern, cst.SimpleString) else None
        return (
            isinstance(value, str)
            and _negated_class(value)
            and _safe_literal(node.args[1].value) is not None
            and not node.args[2].star
        )
    return False


def _name_values(func: cst.FunctionDef) -> set[str]:
    """The names of `func` whose every binding holds safe characters only (assigned names: the largest set
    closed under `_is_name`); a parameter or a loop target is none of them."""
    values: dict[str, list[cst.BaseExpression]] = {}
    others: set[str] = {p.name.value for p in _params(func, drop_self=False)}

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    values.setdefault(target.target.value, []).append(node.value)
                else:
                    others.update(_bound_in(target.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.target, cst.Name) and node.value is not None:
                values.setdefault(node.target.value, []).append(node.value)
            else:
                others.update(_bound_in(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            others.update(_bound_in(node.target))

        def visit_For(self, node: cst.For) -> None:
            others.update(_bound_in(node.target))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            others.update(_bound_in(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            others.update(_bound_in(node.name))

        def visit_Global(self, node: cst.Global) -> None:
            others.update(n.name.value for n in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            others.update(n.name.value for n in node.names)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            others.add(node.name.value)
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            others.add(node.name.value)
            return False

        def visit_Import(self, node: cst.Import) -> None:
            others.update(_dotted_name(a) for a in node.names)

    func.body.visit(Find())
    names = set(values) - others
    changed = True
    while changed:
        changed = False
        for name in sorted(names):
            if not all(_is_name(v, names) for v in values[name]):
                names.discard(name)
                changed = True
    return names


def _dotted_name(alias: cst.ImportAlias) -> str:
    name: cst.BaseExpression = alias.name
    while isinstance(name, cst.Attribute):
        name = name.value
    return name.value if isinstance(name, cst.Name) else ""


def _is_name(node: cst.BaseExpression, names: set[str]) -> bool:
    """Can `node` hold only safe characters (a piece of one folder name)?"""
    if _safe_literal(node) is not None or _sanitizer(node):
        return True
    if isinstance(node, cst.Name):
        return node.value in names
    if isinstance(node, cst.Subscript):  # `digest[:12]`
        return _is_name(node.value, names)
    if isinstance(node, cst.BooleanOperation):  # `label or "session"`
        return _is_name(node.left, names) and _is_name(node.right, names)
    if isinstance(node, cst.IfExp):
        return _is_name(node.body, names) and _is_name(node.orelse, names)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _is_name(node.left, names) and _is_name(node.right, names)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        method = node.func.attr.value
        if method in ("strip", "lstrip", "rstrip", "lower", "upper", "removeprefix", "removesuffix"):
            return _is_name(node.func.value, names)
    if isinstance(node, cst.Call) and _dotted(node.func) == "str" and len(node.args) == 1:
        return _is_name(node.args[0].value, names)
    if isinstance(node, cst.FormattedString):
        return all(_fstring_part(p, names) for p in node.parts)
    return False


def _fstring_part(part: cst.BaseFormattedStringContent, names: set[str]) -> bool:
    if isinstance(part, cst.FormattedStringText):
        return set(part.value) <= _SAFE
    assert isinstance(part, cst.FormattedStringExpression)
    return part.format_spec is None and part.conversion in (None, "s") and _is_name(part.expression, names)


def _is_component(node: cst.BaseExpression, names: set[str]) -> bool:
    """One folder name: safe characters, at least one of them written and not `.` (never ``, `.`, `..`)."""
    return _is_name(node, names) and _written(node)


def _written(node: cst.BaseExpression) -> bool:
    """Does `node` write a character other than `.` whatever its values (`f"{label}-{digest}"`)?"""
    if isinstance(node, cst.SimpleString):
        return (_safe_literal(node) or "").strip(".") != ""
    if isinstance(node, cst.FormattedString):
        return any(isinstance(p, cst.FormattedStringText) and p.value.strip(".") for p in node.parts)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _written(node.left) or _written(node.right)
    return False


def _returned_bases(file: _File, func: cst.FunctionDef) -> set[str] | None:
    """The names every `return` of `func` joins one folder name below (`base / f"{label}-{digest}"`)."""
    returns: list[cst.Return] = []
    yields: list[cst.Yield] = []

    class Find(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            returns.append(node)

        def visit_Yield(self, node: cst.Yield) -> None:
            yields.append(node)

    func.body.visit(Find())
    own = [r for r in returns if _in_def(file, r, func)]
    if not own or any(_in_def(file, y, func) for y in yields):
        return None
    names = _name_values(func)
    bases: set[str] = set()
    for node in own:
        value = node.value
        if not (
            isinstance(value, cst.BinaryOperation)
            and isinstance(value.operator, cst.Divide)
            and isinstance(value.left, cst.Name)
            and _is_component(value.right, names)
        ):
            return None
        bases.add(value.left.value)
    return bases
