"""What a function that would get the path argument stands behind, that the rewrite cannot carry it through:
a project decorator (sweep A of session 15, r01/r05/r07), and a module whose own `Field` or `Annotated` the
annotation's import would replace or be replaced by (sweep B, r01/r02).

`@retry` over a roots helper, or `@require_client` below a tool's registration, puts the function behind a
wrapper the project wrote. The new argument reaches the function only if the wrapper takes it and passes it on
unchanged: `async def wrapper(*args, **kwargs): return await fn(*args, **kwargs)`. A wrapper with a signature of
its own (`wrapper(ctx)`) fails with a TypeError on every call that passes it, legacy clients included (the SDK
reads a tool's schema through `functools.wraps`, so it offers the argument and then calls the wrapper); a
wrapper that keeps results (`_cache[id(ctx.session)] = await fn(...)`) serves one call's roots to the next.

`opaque(module)` finds, per file, the module-level decorators whose wrapper is one of those (a fact of the
summary); `refusals` refuses, in the plan, the functions on the way that such a decorator wraps.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from functools import lru_cache

import libcst as cst

from migrate_roots.codemods import _sdk_alias
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_model import Func, Summary, import_root
from migrate_roots.codemods.base import FileState

Key = tuple[str, str]


def opaque(module: cst.Module) -> dict[str, str]:
    """Module-level decorator name -> why its wrapper would not carry a new keyword argument through."""
    out: dict[str, str] = {}
    for statement in module.body:
        body = statement.body.body if isinstance(statement, cst.FunctionDef) else ()
        if not any(isinstance(s, cst.FunctionDef) for s in body):
            continue  # no function of its own: not a decorator that wraps (most functions)
        assert isinstance(statement, cst.FunctionDef)
        wrappers = _returned(statement)
        if len(wrappers) == 1 and not _is_wrapper(wrappers[0], statement):
            # A factory (`@retry(3)`): the wrapper is one level down; a registrar's inner decorator that returns
            # the function itself (`return mcp.tool()(fn)`) wraps nothing.
            wrappers = _returned(wrappers[0])
        for wrapper in wrappers:
            why = _why_opaque(wrapper)
            if why is not None:
                out[statement.name.value] = f"`{wrapper.name.value}` {why}"
                break
    return out


def refusals(
    by_key: Mapping[Key, tuple[str, Func]],
    summaries: Mapping[str, Summary],
    within: set[Key],
    resolve: Callable[[str, str], Key | None],
) -> dict[Key, tuple[str, str]]:
    """The functions of `within` that a decorator with an opaque wrapper wraps, with the reason (MR104 for a
    tool, whose schema would offer what its wrapper rejects; MR103 for a helper)."""
    found: dict[str, tuple[str, str]] = {}  # dotted decorator name -> (its module's file, why)
    for path, summary in summaries.items():
        for name, why in summary.wrappers.items():
            found[f"{import_root(summary)}|{summary.module}.{name}"] = (path, why)
    if not found:
        return {}
    out: dict[Key, tuple[str, str]] = {}
    for key in within:
        path, func = by_key[key]
        # A tool's decorators above its registration wrap what the SDK never calls: only those below count.
        spelled = ((func.under or "") if func.tool is not None else (func.decorator or "")).lstrip("@")
        spelled = spelled.partition("(")[0]
        if not spelled:
            continue
        summary = summaries[path]
        imports = dict(summary.facts.imports) if summary.facts is not None else {}
        head, dot, rest = spelled.partition(".")
        fq = imports[head] + dot + rest if head in imports else f"{summary.module}.{spelled}"
        target = resolve(key[0], fq)
        where = found.get(f"{target[0]}|{target[1]}" if target is not None else f"{key[0]}|{fq}")
        if where is None:
            continue
        name = func.qualname.rpartition(".")[2]
        place = os.path.basename(where[0])
        said = f"`{name}` is decorated by `@{spelled}` ({place}), whose wrapper {where[1]}"
        if func.tool is not None:
            out[key] = (
                "MR104",
                f"tool {said} (the SDK offers the arguments of `{name}`, then calls the wrapper)",
            )
        else:
            out[key] = ("MR103", said)
    return out


def decorator_modules(summary: Summary) -> set[str]:
    """The first-party modules (and the names in them) of the decorators around this module's functions: their
    wrappers must be read (`RootsCall.follow_modules`), also when the decorated tool holds no read itself."""
    imports = dict(summary.facts.imports) if summary.facts is not None else {}
    top = summary.module.split(".")[0]
    out: set[str] = set()
    for func in summary.functions.values():
        head = (func.decorator or "").lstrip("@").partition("(")[0].partition(".")[0]
        fq = imports.get(head, "")
        if fq.split(".")[0] == top:
            out |= {fq, fq.rpartition(".")[0]}
    return out


# The names the rewrite imports, by the modules they may come from unchanged.
_IMPORTED = {
    "Field": ("pydantic",),
    "Annotated": ("typing", "typing_extensions"),
    "Optional": ("typing", "typing_extensions"),
    "List": ("typing", "typing_extensions"),
    "Union": ("typing", "typing_extensions"),
}


def clashes(state: FileState) -> dict[str, int]:
    """The names of `_IMPORTED` the module binds otherwise (`from .schema import Field`, `from dataclasses
    import field as Field`, `from pydantic.v1 import Field`, a class or an assignment), with the line: a new
    `from pydantic import Field` would replace the module's own, or be replaced by it."""
    stars = any("import *" in line for line in state.lines)
    if not stars and not any(name in line for line in state.lines for name in _IMPORTED):
        return {}
    scope = state.scope(state.wrapper.module)
    out: dict[str, int] = {}
    for name, modules in _IMPORTED.items():
        for assignment in scope[name] if scope is not None and name in scope else ():
            node = getattr(assignment, "node", None)
            if _imports_itself(node, name, modules, state):
                continue  # `from pydantic import Field`: the very name the rewrite imports
            if isinstance(node, cst.CSTNode):
                out[name] = state.pos(node)[0]
                break
    for statement in state.wrapper.module.body if stars else ():
        # `from .models import *` of a module whose own `Field` (a table's column class) it would bind over the
        # rewrite's import, which sorts above it (sweep F, r04: the migrated server stopped importing).
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar):
                for name in _star_bound(small, state) - set(out):
                    out[name] = state.pos(small)[0]
    return out


def _star_bound(node: cst.ImportFrom, state: FileState) -> frozenset[str]:
    """The names of `_IMPORTED` that a star import of a first-party module binds to something of its own."""
    dotted = "." * len(node.relative) + (
        state.wrapper.module.code_for_node(node.module) if node.module else ""
    )
    if not state.module:
        return frozenset()
    absolute = state._absolute(dotted, sdk=False)
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    path = _sdk_alias.first_party(root, absolute)
    return _own_names(path) if path is not None else frozenset()


@lru_cache(maxsize=256)
def _own_names(path: str) -> frozenset[str]:
    """Names of `_IMPORTED` a module binds at its top level other than to the library's own (a class, a
    function, an assignment, another import), and exports (`__all__`, when it has one, lists them)."""
    tree = _sdk_alias.parsed_module(path)
    if tree is None:
        return frozenset()
    found: set[str] = set()
    listed: set[str] | None = None
    for statement in tree.body:
        if isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            found.add(statement.name.value)
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    if isinstance(target.target, cst.Name) and target.target.value == "__all__":
                        listed = _strings(small.value)
                    elif isinstance(target.target, cst.Name):
                        found.add(target.target.value)
            elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                module = tree.code_for_node(small.module) if small.module and not small.relative else ""
                for alias in small.names:
                    bound = alias.asname.name if alias.asname else alias.name
                    name = tree.code_for_node(bound)
                    if name in _IMPORTED and module not in _IMPORTED[name]:
                        found.add(name)
    names = found & set(_IMPORTED)
    return frozenset(names & listed if listed is not None else names)


def _strings(value: cst.BaseExpression) -> set[str]:
    elements = value.elements if isinstance(value, (cst.List, cst.Tuple)) else []
    return {
        e.value.evaluated_value
        for e in elements
        if isinstance(e.value, cst.SimpleString) and isinstance(e.value.evaluated_value, str)
    }


def _imports_itself(node: object, name: str, modules: tuple[str, ...], state: FileState) -> bool:
    """`node` is `from <one of modules> import name` (not `... import other as name`)."""
    if not isinstance(node, cst.ImportFrom) or node.module is None or node.relative:
        return False
    if state.wrapper.module.code_for_node(node.module) not in modules or isinstance(
        node.names, cst.ImportStar
    ):
        return False
    code = state.wrapper.module.code_for_node
    return any(
        code(alias.name) == name and (alias.asname is None or code(alias.asname.name) == name)
        for alias in node.names
    )


def clash_refusals(
    by_key: Mapping[Key, tuple[str, Func]], summaries: Mapping[str, Summary], target: tuple[int, int]
) -> dict[Key, tuple[str, str]]:
    """The tools of a module whose own `Field` or `Annotated` clashes (and, below Python 3.10, `Optional`,
    `List` or `Union`, which helpers' annotations use too): marked MR104, the annotation written by hand."""
    out: dict[Key, tuple[str, str]] = {}
    for key, (path, func) in by_key.items():
        found = summaries[path].clashes
        names = [n for n in found if n in ("Field", "Annotated") or target < (3, 10)]
        if not names or (func.tool is None and target >= (3, 10)):
            continue
        place = os.path.basename(path)
        said = ", ".join(f"`{n}` ({place}:{found[n]})" for n in names)
        out[key] = (
            "MR104",
            f"this module binds {said} to something else than what the path argument's annotation imports "
            "(pydantic's `Field`, `typing`'s names): importing them would replace the module's own, or be "
            "replaced by them; add the argument by hand, spelled `pydantic.Field(...)`, then pass it on",
        )
    return out


def _returned(func: cst.FunctionDef) -> list[cst.FunctionDef]:
    """The functions `func` defines in its body and returns by name."""
    names: set[str] = set()

    class Returns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Return(self, node: cst.Return) -> None:
            if isinstance(node.value, cst.Name):
                names.add(node.value.value)

    read(func, Returns())
    body = func.body.body if isinstance(func.body, cst.IndentedBlock) else ()
    return [s for s in body if isinstance(s, cst.FunctionDef) and s.name.value in names]


def _is_wrapper(inner: cst.FunctionDef, outer: cst.FunctionDef) -> bool:
    """`inner` calls one of `outer`'s parameters (the decorated function), so it is the wrapper, not the
    decorator a factory returns."""
    params = {p.name.value for p in outer.params.params}
    found = False

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            found = found or (isinstance(node.func, cst.Name) and node.func.value in params)

    read(inner, Calls())
    return found


def _why_opaque(wrapper: cst.FunctionDef) -> str | None:
    star = wrapper.params.star_kwarg
    if star is None:
        return (
            "takes no `**kwargs`: a call that passes a path argument would fail; give the wrapper `**kwargs`, "
            "pass them on, then run again"
        )
    kwargs = star.name.value
    passes = False
    keeps = ""

    class Body(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal passes
            passes = passes or any(
                a.star == "**" and isinstance(a.value, cst.Name) and a.value.value == kwargs
                for a in node.args
            )

        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            nonlocal keeps
            if isinstance(node.target, cst.Subscript) and not keeps:
                keeps = cst.Module([]).code_for_node(node.target.value)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            nonlocal keeps
            if node.attr.value in ("setdefault", "__setitem__") and not keeps:
                keeps = cst.Module([]).code_for_node(node.value)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            nonlocal keeps
            keeps = keeps or node.names[0].name.value

        def visit_Global(self, node: cst.Global) -> None:
            nonlocal keeps
            keeps = keeps or node.names[0].name.value

    read(wrapper.body, Body())
    if not passes:
        return (
            f"does not pass `**{kwargs}` on: a path argument would never reach the function; pass them on, then "
            "run again"
        )
    if keeps:
        return (
            f"keeps results in `{keeps}`: one call's result would answer a call with another path argument; key "
            "it on the argument or drop it, by hand"
        )
    return None
