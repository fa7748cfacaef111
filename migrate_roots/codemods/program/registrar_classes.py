"""A project's registrar held by an object: a method that registers what it decorates on the server object
the instance was built with, often through a wrapper of another module that keeps the signature.

    class ToolRegistry:                                  # tool_registry.py
        def __init__(self, mcp):
            self._mcp = mcp
        def section_tool(self, section):
            def decorator(func):
                return self._mcp.tool(with_correlation_id(func))
            return decorator

    registry = ToolRegistry(mcp)                         # server.py, `mcp = FastMCP(...)`
    section_tool = registry.section_tool
    @section_tool("browser-management")                  # or `@registry.section_tool("...")`
    async def spawn_browser(...): ...

`with_correlation_id` must be a forwarding wrapper (`registrars.forwards`): every return hands out a nested
`@functools.wraps(func)` function that calls `func(*args, **kwargs)`. The server object is the constructor's
argument for the parameter `__init__` stores on `self`; anything else (a method reading another attribute, a
class built elsewhere, a wrapper that adds parameters) stays the "decorated by" marker (MR103).
"""

from __future__ import annotations

from functools import lru_cache

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods import _sdk_alias
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import registrars

# method name -> (DECORATOR or FACTORY, the `__init__` parameter whose value it registers on, its wrapper)
Methods = dict[str, tuple[str, str, str]]


def _stored(init: cst.FunctionDef) -> dict[str, str]:
    """`self.<attribute> = <parameter>` in `__init__`: attribute -> parameter."""
    params = {p.name.value for p in init.params.params[1:]}
    out: dict[str, str] = {}
    for statement in init.body.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not (isinstance(small, cst.Assign) and isinstance(small.value, cst.Name)):
                continue
            if small.value.value not in params:
                continue
            for target in small.targets:
                t = target.target
                if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self":
                    out[t.attr.value] = small.value.value
    return out


def methods(cls: cst.ClassDef, wrapped: registrars.Wrapped) -> Methods:
    """The class's registrar methods (see the module docstring)."""
    body = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)]
    init = next((s for s in body if s.name.value == "__init__"), None)
    stored = _stored(init) if init is not None else {}
    if not stored:
        return {}

    def receiver(expr: cst.BaseExpression) -> tuple[str, ...] | None:
        ok = (
            isinstance(expr, cst.Attribute)
            and isinstance(expr.value, cst.Name)
            and expr.value.value == "self"
            and expr.attr.value in stored
        )
        return (stored[expr.attr.value],) if ok and isinstance(expr, cst.Attribute) else None

    out: Methods = {}
    for method in body:
        if method.decorators or not method.params.params or method.params.params[0].name.value != "self":
            continue
        found = registrars.scan_one(method, receiver, wrapped, bound=True)
        if found is not None and len(found[1]) == 1:
            out[method.name.value] = (found[0], found[1][0], found[2])
    return out


@lru_cache(maxsize=256)
def foreign(path: str, module: str, root: str, name: str) -> tuple[Methods, tuple[str, ...]]:
    """The registrar methods of the class `name` of another module of the project, and its `__init__`'s
    parameters after `self` (which constructor argument binds which)."""
    tree = registrars.parse(path, b".tool(")
    if tree is None:
        return {}, ()
    return local(tree, module, root, name)


def local(tree: cst.Module, module: str, root: str, name: str) -> tuple[Methods, tuple[str, ...]]:
    """As `foreign`, for a class of `tree` itself."""
    for statement in tree.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == name:
            init = next(
                (
                    s
                    for s in statement.body.body
                    if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"
                ),
                None,
            )
            params = tuple(p.name.value for p in init.params.params[1:]) if init is not None else ()
            return methods(statement, registrars.wrapped_in(tree, module, root)), params
    return {}, ()


def top_level(state: FileState) -> dict[str, cst.BaseExpression]:
    """The module's top-level `name = value` bindings (the last one of each name)."""
    found = state.extra.get("top_level")
    if found is None:
        found = state.extra["top_level"] = {}
        for statement in state.wrapper.module.body:
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    t = small.targets[0].target
                    if isinstance(t, cst.Name):
                        found[t.value] = small.value
    return found


def held(
    state: FileState, instance: str, method: str, form: str, receiver: registrars.Receiver
) -> tuple[tuple[str, ...], str] | None:
    """(The server names (`()`: a server object of this file) that `instance.method` registers on, in `form`,
    its wrapper: "", HERE or THERE) when the module binds `instance = Cls(...)` and `Cls` (of this module or
    another of the project's) holds the server object it is built with; else None."""
    built = top_level(state).get(instance)
    if not (isinstance(built, cst.Call) and isinstance(built.func, cst.Name) and state.module):
        return None
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    qualified = state.qualified_names(built.func)
    if len(qualified) != 1:
        return None
    (name,) = qualified
    if name.source is QualifiedNameSource.IMPORT:
        owner, _, cls = state._absolute(name.name).rpartition(".")
        path = _sdk_alias.first_party(root, owner) if owner else None
        found, params = foreign(path, owner, root, cls) if path else ({}, ())
    elif name.source is QualifiedNameSource.LOCAL:
        found, params = local(state.wrapper.module, state.module, root, built.func.value)
    else:
        return None
    if found.get(method, ("", "", ""))[0] != form or any(a.star for a in built.args):
        return None
    wrapper = found[method][2]
    if name.source is not QualifiedNameSource.LOCAL and wrapper:
        wrapper = registrars.THERE  # the class's own module is another: so is any wrapper of it
    param = found[method][1]
    value = next((a.value for a in built.args if a.keyword is not None and a.keyword.value == param), None)
    index = params.index(param) if param in params else -1
    if value is None and 0 <= index < len(built.args) and built.args[index].keyword is None:
        value = built.args[index].value
    names = receiver(value) if value is not None else None
    return None if names is None or names == ("",) else (names, wrapper)
