"""One file's tree, read again where `_confined` asks (only where an MR109 would be reported), and the
syntax facts its analysis reads: positions, parents, parameters, bindings, arguments."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

Pos = tuple[int, int]


class _File:
    """One file's tree, its nodes by start position, and their parents."""

    def __init__(self, module: cst.Module) -> None:
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        spans = wrapper.resolve(PositionProvider)
        self.parents: Mapping[cst.CSTNode, cst.CSTNode] = wrapper.resolve(ParentNodeProvider)
        self.at: dict[Pos, list[cst.CSTNode]] = {}
        self.pos: dict[cst.CSTNode, Pos] = {}
        for node, span in spans.items():
            self.pos[node] = where = (span.start.line, span.start.column + 1)
            self.at.setdefault(where, []).append(node)


@lru_cache(maxsize=16)
def _parsed(path: str, data: bytes) -> _File | None:
    try:
        return _File(cst.parse_module(data))
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return None


def _file(path: str) -> _File | None:
    # Keyed by the content too: a second run in one process sees the file the first one wrote.
    try:
        with open(path, "rb") as handle:
            return _parsed(path, handle.read())
    except OSError:
        return None


def _def(path: str, func: Any) -> tuple[_File, cst.FunctionDef] | None:
    found = _file(path)
    if found is None or getattr(func, "pos", None) is None:
        return None
    defs = [n for n in found.at.get(func.pos, []) if isinstance(n, cst.FunctionDef)]
    name = func.qualname.rpartition(".")[2]
    if len(defs) != 1 or defs[0].name.value != name:
        return None
    return found, defs[0]


def _callee_name(func: cst.BaseExpression) -> str | None:
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return None


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr.value}"
    return None


def _call_at(file: _File, pos: Pos, name: str) -> cst.Call | None:
    """The one call at `pos` whose callee is called `name` (`get_context().list_roots()` starts where
    `get_context()` does)."""
    calls = [n for n in file.at.get(pos, []) if isinstance(n, cst.Call) and _callee_name(n.func) == name]
    return calls[0] if len(calls) == 1 else None


def _in_def(file: _File, node: cst.CSTNode, func: cst.FunctionDef) -> bool:
    """Is `node` in `func`'s own body, not in a function or lambda nested there?"""
    current = file.parents.get(node)
    while current is not None and current is not func:
        if isinstance(current, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            return False
        current = file.parents.get(current)
    return current is func


def _params(func: cst.FunctionDef, drop_self: bool = True) -> list[cst.Param]:
    params = [*func.params.posonly_params, *func.params.params]
    if drop_self and params and params[0].name.value in ("self", "cls"):
        params = params[1:]
    star = [func.params.star_arg] if isinstance(func.params.star_arg, cst.Param) else []
    rest = [*func.params.kwonly_params, *star]
    if func.params.star_kwarg is not None:
        rest.append(func.params.star_kwarg)
    return params + rest


def _positional(func: cst.FunctionDef) -> list[str]:
    params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
    return params[1:] if params and params[0] in ("self", "cls") else params


def _bound_in(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(_bound_in(e.value) for e in target.elements))
    if isinstance(target, cst.StarredElement):
        return _bound_in(target.value)
    return set()


def _plain_target(target: cst.BaseExpression) -> bool:
    if isinstance(target, cst.Name):
        return True
    if isinstance(target, (cst.Tuple, cst.List)):
        return all(_plain_target(e.value) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _plain_target(target.value)
    return False


def _bindings(func: cst.FunctionDef) -> dict[str, int]:
    """How many times `func` binds each name (its parameters once; `global` and `nonlocal`: many)."""
    counts: dict[str, int] = {p.name.value: 1 for p in _params(func, drop_self=False)}

    def add(names: set[str], times: int = 1) -> None:
        for name in names:
            counts[name] = counts.get(name, 0) + times

    class Find(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            add(_bound_in(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            add(_bound_in(node.target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            add(_bound_in(node.target), 2)

        def visit_For(self, node: cst.For) -> None:
            add(_bound_in(node.target), 2)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            add(_bound_in(node.target), 2)

        def visit_AsName(self, node: cst.AsName) -> None:
            add(_bound_in(node.name), 2)

        def visit_Global(self, node: cst.Global) -> None:
            add({n.name.value for n in node.names}, 2)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            add({n.name.value for n in node.names}, 2)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            add({node.name.value}, 2)
            return False

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            add({node.name.value}, 2)
            return False

    func.body.visit(Find())
    return counts


def _argument(call: cst.Call, callee: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
    """What `call` passes `callee`'s parameter `param` (None: nothing certain)."""
    if any(a.star for a in call.args):
        return None
    keyword = [a.value for a in call.args if a.keyword is not None and a.keyword.value == param]
    if keyword:
        return keyword[0]
    positional = _positional(callee)
    index = positional.index(param) if param in positional else -1
    given = [a.value for a in call.args if a.keyword is None]
    return given[index] if 0 <= index < len(given) else None
