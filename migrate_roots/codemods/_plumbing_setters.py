"""Roots kept through a setter method (MR212, read by the plumbing collector): `binding.bind(<roots>)` under
`if binding.project is None:`, or after `if binding.project: return binding.project`, on an object that
outlives the request (module-level, imported from the project, a class, `self`, a lifespan field). A
ContextVar, a setting's test (`if policy.enforce_roots:`) and a test below the read are no such cache."""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import TYPE_CHECKING

import libcst as cst

from migrate_roots.codemods._plumbing_queries import _contains, _mentions_site
from migrate_roots.codemods._plumbing_state import (
    _LOG_METHODS,
    _READ_ONLY_METHODS,
    _attribute_base,
    _first_party_import,
    _names_global,
)
from migrate_roots.codemods._read import read

if TYPE_CHECKING:
    from migrate_roots.codemods._plumbing_base import _PlumbingBase
    from migrate_roots.codemods.base import FileState


def setter_call(node: cst.Call, func: cst.FunctionDef, owner: _PlumbingBase, state: FileState) -> None:
    """`binding.bind(<roots>)` under `if binding.project is None:`: the object keeps the roots through a
    method and the test skips the read once it holds them, as `binding.project = <roots>` would (MR212;
    field sweep r02, where the explicit argument was ignored after the first call)."""
    method = node.func
    if not isinstance(method, cst.Attribute) or not owner.funcs[func].sites:
        return
    if method.attr.value in _LOG_METHODS or method.attr.value in _READ_ONLY_METHODS:
        return  # `logger.debug(roots)` under `if logger.isEnabledFor(...)`, `cache.get(root)`
    base = _attribute_base(method)
    lifespan = "lifespan_context" in state.wrapper.module.code_for_node(method.value)
    if not isinstance(base, cst.Name) or not (lifespan or _long_lived(base, owner, state)):
        return
    if not any(_mentions_site(arg.value, func, owner) for arg in node.args):
        return
    sites = owner.funcs[func].sites
    current = state.parent(node)
    while current is not None and current is not func:
        # The test decides whether the roots are read at all (the read under it too): not `if audit.enabled:
        # audit.record(uri)` below the read (sweep D r06 of session 20).
        if (
            isinstance(current, (cst.If, cst.While))
            and base.value in _attribute_bases(current.test)
            and _missing(current.test)
            and any(_contains(current.body, site, state) for site in sites)
        ):
            owner.attr_writes.append((func, node, method))
            return
        current = state.parent(current)
    # `if binding.project is not None: return binding.project` before the read (sweep D r02).
    first = min(state.pos(site) for site in sites)
    for guard, returned in _early_returns(func):
        if (
            base.value in _attribute_bases(guard.test)
            and returned is not None
            and base.value in _attribute_bases(returned)
            and state.pos(guard) < first
        ):
            owner.attr_writes.append((func, node, method))
            return


def _long_lived(base: cst.Name, owner: _PlumbingBase, state: FileState) -> bool:
    """`self`/`cls`, an object the module binds at its top (`binding = Binding()`), or one imported from the
    project (`from pkg.state import binding`); not a module (`os.path.join(...)`), a parameter or a local."""
    if base.value in ("self", "cls"):
        return True
    if any(isinstance(n, cst.ClassDef) and n.name.value == base.value for n in state.wrapper.module.body):
        return True  # `Workspace.bind(uri)`, a classmethod keeping it on the class (sweep F r06)
    scope = state.scope(base)
    if scope is None or base.value not in scope or not _names_global(scope, base.value):
        return False
    if base.value in owner.top_assigns:
        # A ContextVar is set per request context, not across requests (sweep D r07 of session 20).
        return "contextvars.ContextVar" not in owner.made_by(base.value)
    imported = any(isinstance(getattr(a, "node", None), cst.ImportFrom) for a in scope[base.value])
    if not (imported and _first_party_import(scope, base.value)):
        return False
    # The same for a ContextVar of another module of the project (sweep F r09 of session 20).
    return not any(_context_var(state.import_root, fq) for fq in state.qnames(base))


@lru_cache(maxsize=1024)
def _context_var(import_root: str, fq: str) -> bool:
    """Whether the module of `fq` (`pkg.context.current_project`) binds that name at its top to a
    `ContextVar(...)`."""
    from migrate_roots.codemods._sdk_alias import module_file

    module, _, name = fq.rpartition(".")
    path = module_file(import_root, module) if module and import_root else None
    try:
        with open(path or "", "rb") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            continue
        func = value.func if isinstance(value, ast.Call) else None
        return (isinstance(func, ast.Name) and func.id == "ContextVar") or (
            isinstance(func, ast.Attribute) and func.attr == "ContextVar"
        )
    return False


def _attribute_bases(test: cst.BaseExpression) -> set[str]:
    """The names an `if` test reads attributes of (`binding` of `binding.project is None`)."""
    found: set[str] = set()

    class Bases(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            base = _attribute_base(n)
            if isinstance(base, cst.Name):
                found.add(base.value)

    read(test, Bases())
    return found


def _missing(test: cst.BaseExpression) -> bool:
    """A test of absence (`x.project is None`, `not x.project`, `x.get() == None`), as a cache's guard is; not a
    setting (`if policy.enforce_roots:`, sweep F r08 of session 20)."""
    found = False

    class Absent(cst.CSTVisitor):
        def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
            nonlocal found
            found = found or isinstance(node.operator, cst.Not)

        def visit_Comparison(self, node: cst.Comparison) -> None:
            nonlocal found
            for target in node.comparisons:
                value = target.comparator
                empty = (isinstance(value, cst.Name) and value.value == "None") or (
                    isinstance(value, (cst.SimpleString, cst.Integer, cst.List, cst.Dict, cst.Tuple))
                    and cst.Module([]).code_for_node(value) in ('""', "''", "0", "[]", "{}", "()")
                )
                found = found or (empty and isinstance(target.operator, (cst.Is, cst.Equal)))

    read(test, Absent())
    return found


def _early_returns(func: cst.FunctionDef) -> list[tuple[cst.If, cst.BaseExpression | None]]:
    """The `if` statements of `func` (not of nested functions) whose body ends in a `return`, with the value it
    returns (`if binding.project: return binding.project`: a cache hit returns what is kept)."""
    found: list[tuple[cst.If, cst.BaseExpression | None]] = []

    class Ifs(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_If(self, node: cst.If) -> None:
            body = node.body.body
            last = body[-1] if body else None
            small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
            if isinstance(node.body, cst.SimpleStatementSuite) and node.body.body:
                small = node.body.body[-1]
            if isinstance(small, cst.Return):
                found.append((node, small.value))

    read(func, Ifs())
    return found
