"""libcst nodes -> the records of `facts.py`: the one decider of "is this a tool registration, and on what".

A registration names a server object. Where this file shows what the object is (a constructor here, a
parameter annotated `FastMCP`, `self._mcp = mcp` with `mcp: FastMCP`), the answer is local; where the
object comes from elsewhere (`from .server import app`, a star import, an unannotated parameter), the
registration is recorded with the names the object may have, and the model decides over the group.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods import _sdk, _sdk_alias
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import registrar_classes, registrars
from migrate_roots.codemods.program.facts import Registration

_STDLIB = frozenset(sys.stdlib_module_names)

# Methods that register a tool: `@x.tool`, `x.tool(fn)`, `x.add_tool(fn)`; `Tool.from_function(fn)`.
TOOL_DECORATORS = frozenset({"tool"})
TOOL_ADDERS = frozenset({"add_tool"})
# fastmcp's own registrar of methods: `@mcp_tool(...)` on a method of an `MCPMixin` subclass, registered on the
# server its instance's `register_all(mcp)` names (fastmcp 2.x-4.x), through `Tool.from_function(bound method)`.
MIXIN_TOOL = frozenset({"fastmcp.contrib.mcp_mixin.mcp_tool", "fastmcp.contrib.mcp_mixin.mcp_mixin.mcp_tool"})
# Decorators of the language: they register nothing, so a marker never names them as a registrar (sweep R, r04).
LANGUAGE_DECORATORS = frozenset(
    {
        "builtins.staticmethod",
        "builtins.classmethod",
        "abc.abstractmethod",
        "contextlib.asynccontextmanager",
        "contextlib.contextmanager",
    }
)
# fastmcp 3+'s standalone decorators: they mark a function for a provider (`FileSystemProvider`) or a later
# `mcp.add_tool(fn)` to serve, on no server object a file shows (sweep R, r02).
STANDALONE = {
    "fastmcp.tools.tool": "tool",
    "fastmcp.tools.function_tool.tool": "tool",
    "fastmcp.resources.resource": "resource",
    "fastmcp.resources.function_resource.resource": "resource",
    "fastmcp.prompts.prompt": "prompt",
    "fastmcp.prompts.function_prompt.prompt": "prompt",
}
# The decorators of the file not followed because the SDK would read the tool's string annotations in a wrapper
# of another module (`registrars.unresolvable`): their functions' marker says so.
LAZY_REFUSED = "lazy_refused"
# The function a registration names when its value is no function of the module (`getattr(tools, name)`).
OPAQUE = "<value>"


@dataclass(frozen=True)
class Found:
    """A tool registration: its name ('' : the function's), and the pending record when the server object is
    not known from this file alone."""

    name: str
    pending: Registration | None = None
    spelled: str = ""  # the registration as written, when it is no `x.tool(fn)` (`map(app.tool, TOOLS)`)


def _string(node: cst.BaseExpression | None) -> str | None:
    value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    return value if isinstance(value, str) else None


def _tool_name(call: cst.Call | None) -> str:
    if call is None:
        return ""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "name":
            return _string(arg.value) or ""
    first = call.args[0] if call.args else None
    if first is not None and first.keyword is None:
        return _string(first.value) or ""
    return ""


def receiver(state: FileState, expr: cst.BaseExpression) -> tuple[str, ...] | None:
    """() when `expr` is a server object here; the names it may have when it comes from elsewhere (empty
    names: a parameter or attribute whose value is not shown); None when it is not a server object."""
    if isinstance(expr, cst.Name):
        param = _unannotated_param(state, expr)
        if param:
            return ("",)
    kind = _sdk.expr_kind(state, expr)
    if kind == _sdk.HL_SERVER:
        return ()
    if kind is not None:
        return None  # a context, a session, a low-level server, something annotated otherwise
    if isinstance(expr, cst.Name):
        imported = {
            state._absolute(q.name)
            for q in state.qualified_names(expr)
            if q.source is QualifiedNameSource.IMPORT
        }
        if imported:
            return tuple(sorted(imported))
        scope = state.scope(expr)
        if scope is not None and expr.value not in scope:
            stars = state.extra.get("star_imports", ())
            return tuple(f"{m}.{expr.value}" for m in stars) or None
        return None
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        return ("",)  # `self._mcp`: set from a value this file does not show
    return None


def _unannotated_param(state: FileState, name: cst.Name) -> bool:
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return False
    nodes = [getattr(a, "node", None) for a in scope[name.value]]
    return bool(nodes) and all(isinstance(n, cst.Param) and n.annotation is None for n in nodes)


def decorator(
    state: FileState, node: cst.BaseExpression, function: str, pos: tuple[int, int]
) -> Found | None:
    """`@x.tool`, `@x.tool()`, `@x.tool(name=...)`, `@x.tool("name")` on the function `function`; fastmcp's
    `@mcp_tool(...)` on a method of a mixin."""
    call = node if isinstance(node, cst.Call) else None
    target = call.func if call is not None else node
    if standalone(state, node) is not None:
        return None  # `@fastmcp.tools.tool`: a module's decorator, on no server object
    if call is not None and not state.qnames(target).isdisjoint(MIXIN_TOOL):
        return Found(_tool_name(call))
    if isinstance(target, cst.Name):
        return _project_registrar(state, node, target, function, pos)
    if not isinstance(target, cst.Attribute):
        return None
    names = receiver(state, target.value) if target.attr.value in TOOL_DECORATORS else None
    if names is None:
        owner = target.value
        if not isinstance(owner, cst.Name):
            return None
        return _held_registrar(state, node, owner.value, target.attr.value, function, pos)
    name = _tool_name(call)
    if not names:
        return Found(name)
    spelling = f"@{_code(state, target)}"
    outer = _outer_function(state, node)
    if names == ("",) and outer is not None:  # a parameter (`def register(app)`) or `self._mcp`
        params = ", ".join(p.name.value for p in outer.params.params)
        spelling += f"` inside `{outer.name.value}({params})"
    return Found(name, Registration(function, name, tuple(n for n in names if n), spelling, pos))


def _project_registrar(
    state: FileState, node: cst.BaseExpression, target: cst.Name, function: str, pos: tuple[int, int]
) -> Found | None:
    """`@nexus_tool` / `@register_tool(mcp, "x")`: a function of this module that registers what it decorates
    with its own signature (`program/registrars.py`)."""
    form = registrars.FACTORY if isinstance(node, cst.Call) else registrars.DECORATOR
    qualified = state.qualified_names(target)
    imported = [q.name for q in qualified if q.source is QualifiedNameSource.IMPORT]
    if len(imported) == 1 and len(qualified) == 1 and state.module:
        owner, _, name = state._absolute(imported[0]).rpartition(".")
        root = state.import_root or _sdk_alias.import_root(state.path, state.module)
        path = _sdk_alias.first_party(root, owner) if owner else None
        form_there = registrars.foreign(path, owner, root).get(name) if path is not None else None
        if form_there is None or form_there[0] != form:
            return None
        if _unresolvable(state, node, registrars.THERE if form_there[1] else ""):
            return None
        return Found("")
    if any(q.source is not QualifiedNameSource.LOCAL for q in qualified):
        return None
    found = registrars.registrars(state, lambda expr: receiver(state, expr)).get(target.value)
    if found is None:
        held = registrar_classes.top_level(state).get(target.value)  # `tool = registry.section_tool`
        if isinstance(held, cst.Attribute) and isinstance(held.value, cst.Name):
            return _held_registrar(state, node, held.value.value, held.attr.value, function, pos)
        return None
    if found[0] != form or _unresolvable(state, node, found[2]):
        return None
    if not found[1]:
        return Found("")
    spelling = " ".join(f"@{_code(state, node)}".split())
    return Found("", Registration(function, "", tuple(n for n in found[1] if n), spelling, pos))


def _unresolvable(state: FileState, node: cst.BaseExpression, wrapper: str) -> bool:
    """`registrars.unresolvable`, noting the decorator so its marker says why (`LAZY_REFUSED`)."""
    if not registrars.unresolvable(state, wrapper):
        return False
    state.extra.setdefault(LAZY_REFUSED, set()).add(node)
    return True


def _held_registrar(
    state: FileState,
    node: cst.BaseExpression,
    instance: str,
    method: str,
    function: str,
    pos: tuple[int, int],
) -> Found | None:
    """`@registry.section_tool("x")` (or through `section_tool = registry.section_tool`): a method of the
    instance's class that registers on the server it was built with (`program/registrar_classes.py`)."""
    form = registrars.FACTORY if isinstance(node, cst.Call) else registrars.DECORATOR
    held = registrar_classes.held(state, instance, method, form, lambda expr: receiver(state, expr))
    if held is None or _unresolvable(state, node, held[1]):
        return None
    names = held[0]
    if not names:
        return Found("")
    spelling = " ".join(f"@{_code(state, node)}".split())
    return Found("", Registration(function, "", names, spelling, pos))


def _outer_function(state: FileState, node: cst.CSTNode) -> cst.FunctionDef | None:
    """The function around the decorated one (the decorator's own function is skipped)."""
    current = state.parent(node)
    skipped = False
    while current is not None:
        if isinstance(current, cst.FunctionDef):
            if skipped:
                return current
            skipped = True
        current = state.parent(current)
    return None


def handler(state: FileState, node: cst.BaseExpression) -> str | None:
    """`@server.list_tools()`, `@mcp.resource("...")`, `@mcp.prompt()`: a registration on a server object
    (here or from elsewhere) of something other than a tool; its spelling, for the marker that names it."""
    target = node.func if isinstance(node, cst.Call) else node
    if not isinstance(target, cst.Attribute) or target.attr.value in TOOL_DECORATORS:
        return None
    kind = _sdk.expr_kind(state, target.value)
    if kind in (_sdk.HL_SERVER, _sdk.LL_SERVER) or _may_be_server(state, target.value):
        return f"@{_code(state, target)}"
    return None


def language(state: FileState, node: cst.BaseExpression) -> bool:
    """`@staticmethod`, `@classmethod`, `@abc.abstractmethod`: a decorator of the language."""
    names = state.qnames(node)
    return bool(names) and names <= LANGUAGE_DECORATORS


def standalone(state: FileState, node: cst.BaseExpression) -> str | None:
    """The kind of fastmcp's standalone decorator `node` is (`@tool`, `@tool(name=...)`: "tool"; "resource",
    "prompt"), or None."""
    target = node.func if isinstance(node, cst.Call) else node
    kinds = {STANDALONE[n] for n in state.qnames(target) if n in STANDALONE}
    return kinds.pop() if len(kinds) == 1 else None


def _module_import(state: FileState, expr: cst.BaseExpression) -> bool:
    """`click` bound by `import click` (or `import click as c`): a module, not an object in it."""
    scope = state.scope(expr) if isinstance(expr, cst.Name) else None
    if scope is None or not isinstance(expr, cst.Name) or expr.value not in scope:
        return False
    return all(isinstance(getattr(a, "node", None), cst.Import) for a in scope[expr.value])


def _may_be_server(state: FileState, expr: cst.BaseExpression) -> bool:
    """Could `expr`, which the file does not construct, be a server object? Not a standard-library module or
    object (`@functools.wraps(fn)`), nor another distribution's module imported as itself (`import click`,
    then `@click.command()`): those decorate for their own purposes."""
    names = receiver(state, expr)
    if names is None:
        return False
    own = state.module.split(".")[0]
    for name in names:
        top = name.split(".")[0]
        if not name or top == own:
            return True  # a parameter, `self._mcp`, or a first-party import
        if top in _STDLIB or _module_import(state, expr):
            continue
        return True  # an object imported from elsewhere (`from .app import mcp` made absolute)
    return False


def call(state: FileState, node: cst.Call, pos: tuple[int, int]) -> tuple[str, Found] | None:
    """(registered function's qualname in this module, registration) for `x.tool(fn)`, `x.tool()(fn)`,
    `x.tool(name=...)(fn)`, `x.add_tool(fn)`, `x.tool(self.method)`, `Tool.from_function(fn)`."""
    func, args = node.func, [a for a in node.args if a.keyword is None and not a.star]
    inner: cst.Call | None = None
    handed = next((a.value for a in node.args if _bound_registrar(state, a.value) is not None), None)
    if handed is not None:
        # `map(app.tool, TOOLS)`, `partial(reg, ...)`: the registrar as a value, registering what it is given
        # somewhere migrate-roots does not follow (sweep N r07 of session 22)
        return OPAQUE, Found("", spelled=_code(state, node))
    bound = _bound_registrar(state, func) if isinstance(func, cst.Name) else None
    func = bound if bound is not None else func  # `reg = app.tool`, then `reg(fn)`: `app.tool(fn)`
    if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute):
        inner, func = func, func.func  # x.tool(...)(fn)
        if func.attr.value not in TOOL_DECORATORS:
            return None
    if not (isinstance(func, cst.Attribute) and args):
        return None
    attr = func.attr.value
    if attr == "from_function":
        names: tuple[str, ...] | None = () if "Tool" in _code(state, func.value) else None
    elif attr in TOOL_DECORATORS | TOOL_ADDERS:
        names = receiver(state, func.value)
    else:
        return None
    if names is None:
        return None
    qualname = _function_ref(state, args[0].value)
    name = _tool_name(inner) if inner is not None else _keyword(node, "name")
    if qualname is None and names == () and attr in TOOL_ADDERS | TOOL_DECORATORS:
        qualname = OPAQUE  # a value the rules cannot follow: reported where a roots read goes unreached
    elif names and attr in TOOL_ADDERS | TOOL_DECORATORS and _unfollowed(state, args[0].value, qualname):
        # `def register(app): for fn in TOOLS: app.tool(fn)`, on an object the file does not show: reported as
        # on a server object of the file (sweep L r02 of session 22)
        return OPAQUE, Found(name)
    if qualname is None:
        return None
    if not names:
        return qualname, Found(name)
    spelling = f"{_code(state, func)}({_code(state, args[0].value)})"
    return qualname, Found(name, Registration(qualname, name, tuple(n for n in names if n), spelling, pos))


def _bound_registrar(state: FileState, expr: cst.BaseExpression) -> cst.Attribute | None:
    """`app.tool` (or `app.add_tool`) on a server object, or a name bound only to one (`reg = app.tool`): the
    registrar as a value, not called where it is spelled."""
    if isinstance(expr, cst.Name):
        scope = state.scope(expr)
        bound = list(scope[expr.value]) if scope is not None and expr.value in scope else []
        node = getattr(bound[0], "node", None) if len(bound) == 1 else None
        target = state.parent(node) if isinstance(node, cst.Name) else None
        assign = state.parent(target) if isinstance(target, cst.AssignTarget) else None
        expr = assign.value if isinstance(assign, cst.Assign) else expr
    if not (isinstance(expr, cst.Attribute) and expr.attr.value in TOOL_DECORATORS | TOOL_ADDERS):
        return None
    return expr if receiver(state, expr.value) is not None else None


def _unfollowed(state: FileState, value: cst.BaseExpression, qualname: str | None) -> bool:
    """A registered value that names no function the model could look up: a loop variable, a parameter, an
    assignment's name (`for fn in TOOLS`), or an expression that is no name (`getattr(tools, name)`)."""
    if not isinstance(value, cst.Name):
        return qualname is None
    scope = state.scope(value)
    if scope is None or value.value not in scope:
        return False  # a star import's, a builtin: maybe a function
    nodes = [getattr(a, "node", None) for a in scope[value.value]]
    kept = (cst.FunctionDef, cst.ClassDef, cst.Import, cst.ImportFrom)
    return bool(nodes) and not any(isinstance(n, kept) for n in nodes)


def _keyword(node: cst.Call, keyword: str) -> str:
    for arg in node.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return _string(arg.value) or ""
    return ""


def _function_ref(state: FileState, expr: cst.BaseExpression) -> str | None:
    """The qualname in this module of `fn` or `self.method`; `factory()` for what a factory call returns."""
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
        return f"{expr.func.value}()"
    if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
        for item in reversed(state.stack):
            if isinstance(item, cst.ClassDef):
                return f"{state.qualname(item)}.{expr.attr.value}"
    return None


def _code(state: FileState, node: cst.CSTNode) -> str:
    return str(state.wrapper.module.code_for_node(node))
