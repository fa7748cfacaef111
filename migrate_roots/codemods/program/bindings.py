"""The bindings of a local in one function's own body, by kind (program/keyed.py reads them): plain
(`x = v`, `x: T = v`) or other (walrus, `+=`, unpacking, `for`, `with ... as`, `match`, `del`)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import _names


def bindings_of(name: cst.Name, state: FileState) -> list[tuple[cst.CSTNode, cst.BaseExpression, str]] | None:
    func = enclosing(name, state)
    return all_bindings(name.value, func) if func is not None else None


def all_bindings(name: str, func: cst.FunctionDef) -> list[tuple[cst.CSTNode, cst.BaseExpression, str]]:
    """(statement, value, "plain" | "other") for every binding of `name` in `func`'s own body: `name = v` and
    `name: T = v` are plain; a walrus, `+=`, unpacking, `for`, `with ... as`, `except ... as`, `match`, `import`
    and `del` are other."""
    found: list[tuple[cst.CSTNode, cst.BaseExpression, str]] = []
    other = cst.Name("None")

    class Binds(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == name:
                    found.append((node, node.value, "plain" if len(node.targets) == 1 else "other"))
                elif _binds(target.target, name):
                    found.append((node, other, "other"))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.target, cst.Name) and node.target.value == name and node.value is not None:
                found.append((node, node.value, "plain"))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if _binds(node.target, name):
                found.append((node, other, "other"))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            if _binds(node.target, name):
                found.append((node, other, "other"))

        def visit_For(self, node: cst.For) -> None:
            if _binds(node.target, name):
                found.append((node, other, "other"))

        def visit_CompFor(self, node: cst.CompFor) -> None:
            if _binds(node.target, name):
                found.append((node, other, "other"))

        def visit_AsName(self, node: cst.AsName) -> None:
            if _binds(node.name, name):
                found.append((node, other, "other"))

        def visit_Del(self, node: cst.Del) -> None:
            if _binds(node.target, name):
                found.append((node, other, "other"))

        def visit_MatchAs(self, node: cst.MatchAs) -> None:
            if node.name is not None and node.name.value == name:
                found.append((node, other, "other"))

        def visit_MatchStar(self, node: cst.MatchStar) -> None:
            if node.name is not None and node.name.value == name:
                found.append((node, other, "other"))

        def visit_MatchMapping(self, node: cst.MatchMapping) -> None:
            if node.rest is not None and node.rest.value == name:
                found.append((node, other, "other"))

    func.visit(Binds())
    return found


def _binds(target: cst.BaseExpression, name: str) -> bool:
    return any(n.value == name for n in _names(target))


def plain_assignments(func: cst.FunctionDef) -> list[tuple[str, cst.BaseExpression, cst.CSTNode]]:
    out: list[tuple[str, cst.BaseExpression, cst.CSTNode]] = []

    class Assigns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    out.append((target.target.value, node.value, node))

    func.visit(Assigns())
    return out


def declared_shared(func: cst.FunctionDef) -> set[str]:
    """Names a `global` or `nonlocal` statement in `func` or a function nested in it declares."""
    out: set[str] = set()

    class Shared(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            out.update(n.name.value for n in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            out.update(n.name.value for n in node.names)

    func.visit(Shared())
    return out


def enclosing(node: cst.CSTNode, state: FileState) -> cst.FunctionDef | None:
    current = state.parent(node)
    while current is not None and not isinstance(current, cst.FunctionDef):
        current = state.parent(current)
    return current
