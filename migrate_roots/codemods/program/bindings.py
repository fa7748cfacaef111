"""The bindings of a local in one function's own body, by kind (program/keyed.py reads them): plain
(`x = v`, `x: T = v`) or other (walrus, `+=`, unpacking, `for`, `with ... as`, `match`, `del`)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import _FILLS, _is_container, _names

Binding = tuple[cst.CSTNode, cst.BaseExpression, str]  # (statement, value, "plain" | "other")

# Binding forms other than `x = v` / `x: T = v`, and where each holds its target.
_OTHER = {
    cst.AugAssign: "target",
    cst.NamedExpr: "target",
    cst.For: "target",
    cst.CompFor: "target",
    cst.AsName: "name",
    cst.Del: "target",
    cst.MatchAs: "name",
    cst.MatchStar: "name",
    cst.MatchMapping: "rest",
}


def bindings_of(name: cst.Name, state: FileState) -> list[Binding] | None:
    func = state.enclosing_function(name)
    return all_bindings(name.value, func, state) if func is not None else None


def all_bindings(name: str, func: cst.FunctionDef, state: FileState) -> list[Binding]:
    """(statement, value, "plain" | "other") for every binding of `name` in `func`'s own body: `name = v` and
    `name: T = v` are plain; a walrus, `+=`, unpacking, `for`, `with ... as`, `except ... as`, `match`, `import`
    and `del` are other. One walk per function, kept for the file."""
    cache = state.extra.setdefault("bindings", {})
    table = cache.get(func)
    if table is None:
        table = cache[func] = _table(func)
    return table.get(name, [])


def _table(func: cst.FunctionDef) -> dict[str, list[Binding]]:
    table: dict[str, list[Binding]] = {}
    other = cst.Name("None")

    def add(target: cst.CSTNode, entry: Binding) -> None:
        for n in _names(target):
            table.setdefault(n.value, []).append(entry)

    class Binds(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if (isinstance(node, cst.FunctionDef) and node is not func) or isinstance(node, cst.Lambda):
                return False
            if isinstance(node, cst.Assign):
                for target in node.targets:
                    plain = isinstance(target.target, cst.Name) and len(node.targets) == 1
                    value = node.value if isinstance(target.target, cst.Name) else other
                    add(target.target, (node, value, "plain" if plain else "other"))
            elif isinstance(node, cst.AnnAssign):
                if isinstance(node.target, cst.Name) and node.value is not None:
                    add(node.target, (node, node.value, "plain"))
            elif (attr := _OTHER.get(type(node))) is not None and getattr(node, attr, None) is not None:
                add(getattr(node, attr), (node, other, "other"))
            return True

    read(func, Binds())
    return table


def plain_assignments(func: cst.FunctionDef) -> list[tuple[str, cst.BaseExpression, cst.CSTNode]]:
    out: list[tuple[str, cst.BaseExpression, cst.CSTNode]] = []

    class Assigns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    out.append((target.target.value, node.value, node))

    read(func, Assigns())
    return out


def declared_shared(func: cst.FunctionDef) -> set[str]:
    """Names a `global` or `nonlocal` statement in `func` or a function nested in it declares."""
    out: set[str] = set()

    class Shared(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            out.update(n.name.value for n in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            out.update(n.name.value for n in node.names)

    read(func, Shared())
    return out


def memo_holder(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """A holder an `if` around `node` tests and its body fills, which outlives the call: `if "roots" not in app:
    app["roots"] = ...` where `app` is the lifespan value, a default argument (`_memo=[]`), an enclosing
    function's variable, or anything but a container made fresh in this call (B's r05). (name, line of the `if`)."""
    func = state.function
    if func is None:
        return None
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and child is not func:
        if isinstance(current, cst.If) and child is not current.test:
            tested = {n.value for n in _names(current.test)}
            for name in sorted(tested & _filled_in(current.body)):
                if not _fresh(name, func, state):
                    return name, state.pos(current)[0]
        child, current = current, state.parent(current)
    return None


def _filled_in(block: cst.CSTNode) -> set[str]:
    """Names a block fills: `x[k] = ...`, `x.extend(...)` (and the other `_FILLS`)."""
    found: set[str] = set()

    class Fills(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, cst.Subscript) and isinstance(node.target.value, cst.Name):
                found.add(node.target.value.value)

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value in _FILLS
                and isinstance(func.value, cst.Name)
            ):
                found.add(func.value.value)

    read(block, Fills())
    return found


def _fresh(name: str, func: cst.FunctionDef, state: FileState) -> bool:
    """`name` is a local of `func` bound only to a container made in this call (`seen = {}`)."""
    params = func.params
    every = (
        *params.posonly_params,
        *params.params,
        *params.kwonly_params,
        params.star_arg,
        params.star_kwarg,
    )
    if any(isinstance(p, cst.Param) and p.name.value == name for p in every):
        return False  # a default argument outlives the call; a caller's object may too
    # `seen[k] = v` fills the container, it does not rebind the name.
    found = [b for b in all_bindings(name, func, state) if not _item_write(b[0], name)]
    return bool(found) and all(kind == "plain" and _is_container(value) for _, value, kind in found)


def _item_write(statement: cst.CSTNode, name: str) -> bool:
    """`name[k] = v` (or `name.a = v`): every target of the assignment that mentions `name` is an item or an
    attribute of it."""
    if not isinstance(statement, cst.Assign):
        return False
    mentioning = [t.target for t in statement.targets if any(n.value == name for n in _names(t.target))]
    return bool(mentioning) and all(
        isinstance(t, (cst.Subscript, cst.Attribute))
        and isinstance(t.value, cst.Name)
        and t.value.value == name
        for t in mentioning
    )
