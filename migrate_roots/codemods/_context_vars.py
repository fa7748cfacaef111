"""Whether a value is a `contextvars.ContextVar` the project binds (session 21, sweep G r10, r12-r14): set per
request context, so `if current.get() is None: current.set(<roots>)` keeps nothing across requests (no MR212).
Read from the defining module's source: `ContextVar(...)` through any alias (`from contextvars import ContextVar
as CV`, `import contextvars as cv`), subscripted (`ContextVar[str | None](...)`), at the module's top or in a
class body, followed through re-exports (`from .context import current` in `pkg/__init__.py`). A class of the
project that happens to be named `ContextVar` is not one. A ContextVar whose default is one object built at import
(`ContextVar("b", default=Binding())`) shares it with every request that never sets the var: mutating what
`.get()` gives keeps state across requests (`shared_default`, sweep G r11 of session 21)."""

from __future__ import annotations

import ast

import libcst as cst

from migrate_roots.codemods._sdk_alias import source_tree
from migrate_roots.codemods.base import FileState

# Calls whose result, as a ContextVar's default, is no shared mutable object.
_IMMUTABLE = frozenset({"str", "int", "float", "bool", "bytes", "tuple", "frozenset", "Path", "PurePath"})


def receiver(node: cst.BaseExpression, state: FileState) -> bool:
    """`current_project` of `current_project.set(...)`, `context.current_project`, `State.project`."""
    return any(is_context_var(state.import_root, fq) for fq in _qualified(node, state))


def _qualified(node: cst.BaseExpression, state: FileState) -> list[str]:
    """The dotted names of `node`, a name of this module's own made absolute (`binding` -> `pkg.server.binding`,
    sweep M r05 of session 22)."""
    return sorted(q if "." in q or not state.module else f"{state.module}.{q}" for q in state.qnames(node))


def shared_default(node: cst.BaseExpression, state: FileState) -> bool:
    """`binding` of `binding.get()`, a ContextVar whose default is one mutable object built once (`default=
    Binding()`, `default={}`): every request that does not set the var gets that same object."""
    for fq in _qualified(node, state):
        made = _made(state.import_root, fq)
        for keyword in made.keywords if made is not None else ():
            value = keyword.value
            if keyword.arg != "default":
                continue
            if isinstance(value, (ast.Dict, ast.List, ast.Set)):
                return True
            func = value.func if isinstance(value, ast.Call) else None
            name = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            return bool(name) and name not in _IMMUTABLE
    return False


def is_context_var(import_root: str, fq: str, depth: int = 0) -> bool:
    return _made(import_root, fq, depth) is not None


def _made(import_root: str, fq: str, depth: int = 0) -> ast.Call | None:
    """The `ContextVar(...)` call that binds `fq`, or None when `fq` is no ContextVar of the project."""
    from migrate_roots.codemods._sdk_alias import module_file

    parts = fq.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        path = module_file(import_root, module) if import_root else None
        tree = source_tree(path) if path else None
        if tree is not None and path is not None:
            package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
            return _binds(tree, parts[cut:], package, import_root, depth)
    return None


def _binds(tree: ast.Module, names: list[str], package: str, import_root: str, depth: int) -> ast.Call | None:
    body: list[ast.stmt] = tree.body
    for name in names[:-1]:  # `State.project`: the class body
        cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == name), None)
        if cls is None:
            return None
        body = cls.body
    name = names[-1]
    aliases, modules = _contextvars_names(tree)
    for node in reversed(body):
        if isinstance(node, ast.ImportFrom) and len(names) == 1 and depth < 3:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    source = _absolute(node, package)
                    return _made(import_root, f"{source}.{alias.name}", depth + 1) if source else None
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if value is None or not any(isinstance(t, ast.Name) and t.id == name for t in targets):
            continue
        func = value.func if isinstance(value, ast.Call) else None
        if isinstance(func, ast.Subscript):  # `ContextVar[str | None]("x")`
            func = func.value
        made = (isinstance(func, ast.Name) and func.id in aliases) or (
            isinstance(func, ast.Attribute)
            and func.attr == "ContextVar"
            and isinstance(func.value, ast.Name)
            and func.value.id in modules
        )
        return value if made and isinstance(value, ast.Call) else None
    return None


def _contextvars_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names bound to `contextvars.ContextVar`, names bound to the `contextvars` module) at the top."""
    aliases: set[str] = set()
    modules: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "contextvars" and not node.level:
            aliases |= {a.asname or a.name for a in node.names if a.name == "ContextVar"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name == "contextvars"}
    return aliases, modules


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts):
        return ""
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])
