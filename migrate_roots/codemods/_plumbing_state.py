"""Tree queries about state and names for the plumbing analysis: what a statement writes, what a name is bound
to, where an import comes from, and what a module-level value holds.
"""

from __future__ import annotations

import ast
import re
import sys
from typing import Any

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods import _context_vars
from migrate_roots.codemods._read import read
from migrate_roots.codemods._sdk import SDK_PREFIXES
from migrate_roots.codemods.base import FileState

# State that bounds what the tools may touch (`allowed_roots.update_from_client_roots()`, `box.allowed`).
_ALLOWS = re.compile(r"allow|permit|sandbox|whitelist|trusted", re.IGNORECASE)
# Methods of a module value (ContextVar, dict, list, Event) that read it: calling one changes nothing.
_READ_ONLY_METHODS = frozenset({"get", "copy", "keys", "values", "items", "count", "index", "is_set"})
_STDLIB = frozenset(sys.stdlib_module_names)
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
_LOGGERS = frozenset({"logging.getLogger", "structlog.get_logger", "structlog.getLogger"})

# Functions that change what a path names on disk, handed a module-level path (`_global_method_call`).
_FS_CHANGES = frozenset(
    {"rmtree", "remove", "unlink", "rmdir", "removedirs", "rename", "replace", "move", "copy", "copy2"}
    | {"copyfile", "copytree", "truncate", "utime", "chmod"}
)


def _inside(node: cst.CSTNode, state: FileState) -> str:
    """` in `install_handlers()`` when `node` sits in a function, else nothing."""
    current = state.parent(node)
    while current is not None and not isinstance(current, cst.FunctionDef):
        current = state.parent(current)
    return f" in `{current.name.value}()`" if current is not None else ""


def _first_party_import(scope: Any, name: str) -> bool:
    """Is `name` a module-level import of something not in the standard library (`from pkg.shared import
    allowed_roots`)? Its methods may keep state of the package (an allow-list registry)."""
    for assignment in scope[name]:
        node = getattr(assignment, "node", None)
        module: cst.BaseExpression | None = None
        if isinstance(node, cst.ImportFrom):
            if node.relative:
                return True
            module = node.module
        elif isinstance(node, cst.Import):
            module = next((a.name for a in node.names if _bound_name(a) == name), None)
        while isinstance(module, cst.Attribute):
            module = module.value
        # The SDK's modules keep no state of the package: `types.ServerRequest(...)` builds a value.
        if isinstance(module, cst.Name) and module.value not in _STDLIB and module.value not in SDK_PREFIXES:
            return True
    return False


def _names_global(scope: Any, name: str) -> bool:
    """Does `name`, read in `scope`, resolve to the module's binding (no local of the same name)?"""
    if isinstance(scope, GlobalScope):
        return True
    return name in scope and all(isinstance(a.scope, GlobalScope) for a in scope[name])


def _attribute_base(target: cst.Attribute) -> cst.BaseExpression:
    """What an attribute chain hangs on: `self` of `self.cache.roots`, `STATE` of `STATE["b"].project` (sweep
    D r03 of session 20)."""
    base = target.value
    while isinstance(base, (cst.Attribute, cst.Subscript)):
        base = base.value
    return base


def _is_local(name: cst.Name, func: cst.FunctionDef, state: FileState) -> bool:
    """Bound by a plain assignment inside `func` (not a parameter, not a global)."""
    scope = state.scope(name)
    if scope is None or name.value not in scope or isinstance(scope, GlobalScope):
        return False
    assignments = list(scope[name.value])
    for assignment in assignments:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param) or node is None or assignment.scope is not scope:
            return False
    return bool(assignments)


def _long_lived_alias(name: cst.Name, func: cst.FunctionDef, state: FileState) -> str:
    """A local of `func` bound only to an object that outlives the request: the lifespan context
    (`app: AppState = ctx.request_context.lifespan_context`, the FastMCP docs' spelling), or what a function
    of the module returns that is always one of its module-level names (`binding = get_binding()`) (session
    20, sweep F r07). What it is bound to, as written; else ''."""
    value = _long_lived_alias_value(name, func, state)
    return state.wrapper.module.code_for_node(value) if value is not None else ""


def _long_lived_alias_value(
    name: cst.Name, func: cst.FunctionDef, state: FileState
) -> cst.BaseExpression | None:
    """`_long_lived_alias`'s value, the node (its first binding)."""
    if not _is_local(name, func, state):
        return None
    scope = state.scope(name)
    assert scope is not None
    values: list[cst.BaseExpression | None] = []
    for assignment in scope[name.value]:
        target = getattr(assignment, "node", None)
        parent = state.parent(target) if isinstance(target, cst.Name) else None
        if isinstance(parent, cst.AssignTarget):
            parent = state.parent(parent)
        values.append(
            getattr(parent, "value", None) if isinstance(parent, (cst.Assign, cst.AnnAssign)) else None
        )
    if not values or not all(v is not None and _long_lived_value(v, state) for v in values):
        return None
    return values[0]


def _memo_call(value: cst.BaseExpression | None, state: FileState) -> bool:
    """A call of an `@functools.lru_cache` / `@cache` function: of this module (`_project_for(client)`), or
    imported from another module of the project (`from .config import get_settings`, the FastAPI settings
    spelling), read there (sweep M r06 of session 22)."""
    if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
        return False
    if isinstance(value.func, cst.Name):
        name = value.func.value
        if any(isinstance(n, cst.FunctionDef) and n.name.value == name for n in state.wrapper.module.body):
            return _memoised(name, state)
    return any(_memoised_elsewhere(state.import_root, fq) for fq in sorted(state.qnames(value.func)))


_MEMO_DECORATORS = frozenset({"lru_cache", "cache", "functools.lru_cache", "functools.cache"})


def _memoised(name: str, state: FileState) -> bool:
    """A function of this module decorated `@functools.lru_cache` / `@cache`: the same object for the same key."""
    for node in state.wrapper.module.body:
        if isinstance(node, cst.FunctionDef) and node.name.value == name:
            for decorator in node.decorators:
                called = decorator.decorator
                called = called.func if isinstance(called, cst.Call) else called
                if state.wrapper.module.code_for_node(called) in _MEMO_DECORATORS:
                    return True
    return False


def _long_lived_value(value: cst.BaseExpression, state: FileState) -> bool:
    if isinstance(value, cst.Attribute) and value.attr.value == "lifespan_context":
        return True
    if isinstance(value, cst.Subscript) and state.wrapper.module.code_for_node(value.value) == "sys.modules":
        return True  # `this = sys.modules[__name__]`: the module object (sweep K r02 of session 22)
    if (
        isinstance(value, cst.Call)
        and not value.args
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value == "get"
        and _context_vars.shared_default(value.func.value, state)
    ):
        return True  # `b = binding.get()`, a ContextVar's one default object (sweep M r05 of session 22)
    if _memo_call(value, state):
        return True  # `project = _project_for(client)`, an `@lru_cache` factory (sweep K r06 of session 22)
    return _lasting_call(value, state)


def _lasting_call(value: cst.BaseExpression, state: FileState) -> bool:
    """A call of a project function whose every return is an object that outlives the request (read in its
    module's source): one of that module's top-level names (`def get_binding(): return binding`, here or
    imported, sweeps F r07 and I r04), the lifespan context (`def app_state(ctx): return
    ctx.request_context.lifespan_context`, sweep P r04 of session 22), or, for a classmethod, a class attribute
    (`ProjectBinding.instance()` returning `cls._instance`, sweep P r03)."""
    from migrate_roots.codemods._sdk_alias import module_file, source_tree

    if not isinstance(value, cst.Call) or not isinstance(value.func, (cst.Name, cst.Attribute)):
        return False
    func = value.func
    holder = func.value if isinstance(func, cst.Attribute) else None
    if holder is not None and not isinstance(holder, cst.Name):
        return False
    named = holder if holder is not None else func
    assert isinstance(named, cst.Name)
    for fq in sorted(q if "." in q else f"{state.module}.{q}" for q in state.qnames(named)):
        module, _, name = fq.rpartition(".")
        path = (
            state.path
            if module == state.module
            else module_file(state.import_root, module)
            if state.import_root
            else None
        )
        tree = source_tree(path) if path else None
        body: list[ast.stmt] = tree.body if tree is not None else []
        owner = ""
        if holder is not None:  # `Cls.method()`: the class's own body
            cls = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == name), None)
            body, owner, name = (
                (cls.body if cls is not None else []),
                name,
                cst.ensure_type(func, cst.Attribute).attr.value,
            )
        fn = next(
            (n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name),
            None,
        )
        if fn is not None and tree is not None:
            return _lasting_returns(tree, fn, owner)
    return False


def _lasting_returns(tree: ast.Module, fn: ast.FunctionDef | ast.AsyncFunctionDef, owner: str) -> bool:
    from migrate_roots.codemods._setter_sources import top_names

    tops = top_names(tree)
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    returns: list[ast.expr | None] = []
    todo: list[ast.AST] = list(fn.body)
    while todo:  # its own returns, not a nested function's
        node = todo.pop()
        if isinstance(node, ast.Return):
            returns.append(node.value)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))

    def lasting(value: ast.expr | None) -> bool:
        if isinstance(value, ast.Name):
            return value.id in tops and value.id not in params
        if isinstance(value, ast.Attribute) and value.attr == "lifespan_context":
            return True
        return (
            bool(owner)
            and isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id in ("cls", owner)
        )

    return bool(returns) and all(lasting(r) for r in returns)


def _memoised_elsewhere(import_root: str, fq: str) -> bool:
    """Whether `fq` (`pkg.config.get_settings`) is a function of a project module decorated
    `@functools.lru_cache` / `@cache` (also called: `@lru_cache(maxsize=None)`)."""
    import ast

    from migrate_roots.codemods._sdk_alias import first_party, source_tree

    module, _, name = fq.rpartition(".")
    path = first_party(import_root, module) if module and import_root else None
    tree = source_tree(path) if path else None
    if tree is None:
        return False
    defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name]
    return len(defs) == 1 and any(
        ast.unparse(d.func if isinstance(d, ast.Call) else d) in _MEMO_DECORATORS
        for d in defs[0].decorator_list
    )


def _state_write(node: cst.CSTNode) -> str | None:
    """The first attribute or item assigned in `node` (not in nested functions), as text; else None."""
    found: list[str] = []

    class Writes(cst.CSTVisitor):
        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

        def _target(self, target: cst.BaseExpression) -> None:
            if isinstance(target, (cst.Attribute, cst.Subscript)) and not found:
                found.append(
                    _dotted(target.value)
                    + ("." + target.attr.value if isinstance(target, cst.Attribute) else "[...]")
                )

        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            self._target(n.target)

        def visit_AugAssign(self, n: cst.AugAssign) -> None:
            self._target(n.target)

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            self._target(n.target)

    read(node, Writes())
    return found[0] if found else None


def _relays(node: cst.CSTNode) -> bool:
    found = False

    class Relay(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            if isinstance(n.func, cst.Attribute) and n.func.attr.value == "send_roots_list_changed":
                found = True

    read(node, Relay())
    return found


def _resource_calls(node: cst.CSTNode) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            if isinstance(n.func, cst.Attribute) and n.func.attr.value == "send_resource_list_changed":
                found.append(n)

    read(node, Calls())
    return found


def _sends_resource_changed(node: cst.CSTNode) -> bool:
    return bool(_resource_calls(node))


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    if isinstance(node, cst.Subscript):  # `STATE["b"]`, as written
        return cst.Module([]).code_for_node(node)
    return "..."


def _spelled(node: cst.BaseExpression) -> str:
    """`node` as written, for a marker (`get_settings().project_dir`, `type(self).project`): `_dotted` says
    what is no name chain as `...`, which callers test for (sweep M r11 of session 22)."""
    return cst.Module([]).code_for_node(node)


def _bound_name(alias: cst.ImportAlias) -> str | None:
    if alias.asname is not None:
        target = alias.asname.name
        return target.value if isinstance(target, cst.Name) else None
    name: cst.BaseExpression = alias.name
    while isinstance(name, cst.Attribute):
        name = name.value  # `import a.b` binds `a`
    return name.value if isinstance(name, cst.Name) else None


def _is_literal(value: cst.BaseExpression) -> bool:
    if isinstance(value, cst.Name):
        return value.value in ("None", "True", "False")
    if isinstance(value, (cst.Integer, cst.SimpleString)):
        return True
    if isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return not value.elements
    return isinstance(value, cst.Dict) and not value.elements


def _assigned_at_top(guard: cst.If, name: str) -> bool:
    return any(
        isinstance(s, cst.SimpleStatementLine)
        and len(s.body) == 1
        and isinstance(s.body[0], cst.Assign)
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in s.body[0].targets)
        for s in guard.body.body
    )


_SPAWNS = frozenset({"create_task", "ensure_future", "start_soon", "run_coroutine_threadsafe", "spawn"})


def _scheduled(node: cst.CSTNode) -> str | None:
    """The work a body schedules to run later (`asyncio.create_task(folders.reload())`, `tg.start_soon(f)`), as
    text: its effect (a roots re-read that refreshes what tools read) is out of the handler's own lines."""
    found: list[str] = []

    class Spawns(cst.CSTVisitor):
        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

        def visit_Call(self, n: cst.Call) -> None:
            func = n.func
            name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if name in _SPAWNS and n.args and not found:
                found.append(cst.Module([]).code_for_node(n.args[0].value))

    read(node, Spawns())
    return found[0] if found else None
