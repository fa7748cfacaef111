"""Names of callees as the project sees them (`_fq`, a tool decorator, the shim's own calls, a `getattr`
naming `list_roots`), and a nested function handed by name to other code (`_handed_to`): the facts
`_roots_sites.SiteIndex` records for the model's reasons."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._roots_model import SHIM_FUNCTION
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import recognise
from migrate_roots.codemods.program.flow import last_name


def _fq(state: FileState, node: cst.CSTNode) -> set[str]:
    """Fully qualified names of a callee: imports made absolute, local names prefixed with the module."""
    out = set()
    for q in state.qualified_names(node):
        if q.source is QualifiedNameSource.LOCAL:
            out.add(f"{state.module}.{q.name}".replace(".<locals>", ""))
        elif q.source is QualifiedNameSource.IMPORT:
            out.add(state._absolute(q.name))
    return out


def _handed_to(
    outer: cst.FunctionDef, name: str, state: FileState, sdk_tool: bool = False
) -> tuple[str, str, int] | None:
    """(`outer`, the call as written, its line) where `outer` passes its nested function `name` by name to a
    function of the project (not a runner of the standard library or an SDK, which runs it in place); with
    `sdk_tool`, to an SDK's tool constructor (`FunctionTool(name=..., parameters={...}, fn=invoke)`)."""
    top = state.module.partition(".")[0]
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is outer

        def visit_Call(self, node: cst.Call) -> None:
            if any(isinstance(a.value, cst.Name) and a.value.value == name for a in node.args):
                found.append(node)

    state.walk(outer, Calls())
    for call in found:
        names = _fq(state, call.func)
        if sdk_tool:
            hit = any(
                n.partition(".")[0] in _SDK_TOPS and n.rpartition(".")[2] in _TOOL_CLASSES for n in names
            )
        else:
            hit = any(n.partition(".")[0] == top or n.startswith(f"{state.module}.") for n in names)
        if hit:
            return state.qualname(outer), _short_code(state, call), state.pos(call)[0]
    return None


_SDK_TOPS = frozenset({"mcp", "fastmcp"})
_TOOL_CLASSES = frozenset({"FunctionTool", "Tool"})  # built with `fn=` and a schema of their own


def _short_code(state: FileState, node: cst.BaseExpression) -> str:
    """`node` as written, or `f(...)` when its arguments span lines or run long (a marker quotes it)."""
    code = state.wrapper.module.code_for_node(node)
    if ("\n" in code or len(code) > 60) and isinstance(node, cst.Call):
        return state.wrapper.module.code_for_node(node.func) + "(...)"
    return code


def _starred(state: FileState, target: cst.BaseExpression) -> set[str]:
    """A plain name no assignment binds in a module with star imports: one candidate per star module."""
    if not isinstance(target, cst.Name):
        return set()
    scope = state.scope(target)
    if scope is None or target.value in scope:
        return set()
    return {f"{module}.{target.value}" for module in state.extra.get("star_imports", ())}


def _self_method(state: FileState, target: cst.BaseExpression) -> set[str]:
    if (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
    ):
        for item in reversed(state.stack):
            if isinstance(item, cst.ClassDef):
                return {f"{state.module}.{state.qualname(item)}.{target.attr.value}"}
    if isinstance(target, cst.Name) and target.value == "cls":
        # `cls(await resolve_workspace(ctx))` in a classmethod: the class's constructor (sweep H r04, session 21)
        method = next((f for f in reversed(state.stack) if isinstance(f, cst.FunctionDef)), None)
        classmethod = method is not None and any(
            isinstance(d.decorator, cst.Name) and d.decorator.value == "classmethod"
            for d in method.decorators
        )
        owner = state.stack[state.stack.index(method) - 1] if method is not None and classmethod else None
        if isinstance(owner, cst.ClassDef):
            return {f"{state.module}.{state.qualname(owner)}"}
    return set()


def is_middleware(cls: cst.ClassDef, state: FileState) -> bool:
    """A subclass of fastmcp's `Middleware` (or of one of its own, `LoggingMiddleware`): `on_*` methods are hooks."""
    return any(
        n.startswith("fastmcp.") and n.endswith("Middleware")
        for b in cls.bases
        for n in state.qnames(b.value)
    )


def _names_roots_method(call: cst.Call, state: FileState) -> bool:
    """`hasattr(x, "list_roots")`, `getattr(x, "list_roots"[, default])`, `operator.methodcaller("list_roots")`,
    `x.__getattribute__("list_roots")`; the name also as a module constant (`getattr(session, METHOD)`)."""
    func = call.func
    name = (
        func.value
        if isinstance(func, cst.Name)
        else func.attr.value
        if isinstance(func, cst.Attribute)
        else ""
    )
    if name in ("methodcaller", "__getattribute__"):
        index = 0  # `operator.methodcaller("list_roots")`, `session.__getattribute__("list_roots")`
    elif name in ("hasattr", "getattr") and isinstance(func, cst.Name):
        index = 1
    else:
        return False
    named = call.args[index].value if len(call.args) > index else None
    if isinstance(named, cst.Name):
        named = _module_constant(named, state)
    return isinstance(named, cst.SimpleString) and named.evaluated_value == "list_roots"


def _module_constant(name: cst.Name, state: FileState) -> cst.BaseExpression | None:
    """The value of a module-level name bound once (`METHOD = "list_roots"`), read anywhere in the module."""
    found = state.scope(name)
    scope = found.globals if found is not None else None
    bound = list(scope[name.value]) if scope is not None and name.value in scope else []
    target = getattr(bound[0], "node", None) if len(bound) == 1 else None
    return _sdk._assigned_value(state, target) if isinstance(target, cst.Name) else None


def _is_compat_call(call: cst.Call, state: FileState, function: str = SHIM_FUNCTION) -> bool:
    names = _fq(state, call.func)
    suffix = f"{state.settings.shim_module}.{function}"
    return any(n == suffix or n.endswith("." + suffix) for n in names)


def _tool_decorator(state: FileState, decorator: cst.BaseExpression) -> str | None:
    """'' for `@server.tool` / `@server.tool()`, the name for `@server.tool(name="x")`, None otherwise
    (also for a server object of another module: `codemods.program.recognise` decides)."""
    found = recognise.decorator(state, decorator, "", (0, 0))
    return None if found is None else found.name


def imported_ref(value: cst.BaseExpression, state: FileState) -> bool:
    """A name, or an attribute of an imported module (`tools.where` after `from . import tools`): what a
    registration's value may name of another module."""
    if isinstance(value, cst.Name):
        return True
    root = value
    while isinstance(root, cst.Attribute):
        root = root.value
    if not isinstance(root, cst.Name) or root is value:
        return False
    scope = state.scope(root)
    bound = list(scope[root.value]) if scope is not None and root.value in scope else []
    return bool(bound) and all(
        isinstance(getattr(b, "node", None), (cst.Import, cst.ImportFrom)) for b in bound
    )


def handed_values(node: cst.Call, state: FileState) -> list[tuple[str, str, int]]:
    """A function of the project named as an argument of a call, at the top of a module or in a top-level
    function (`register(mcp, resolve=project_root)`, `anyio.from_thread.run(first_root, ctx)`): (its dotted
    name, the call as written, its line), which the model's reasons name. A nested function's own hand-off is
    `Func.handed_to`."""
    functions = _module_functions(state)
    named = [a for a in node.args if isinstance(a.value, cst.Name) and a.value.value in functions]
    if not named or last_name(node.func) in _LOOKS_AT:
        return []
    top = state.module.partition(".")[0]
    line = state.pos(node)[0]
    spelled = _short_code(state, node)
    return [
        (fq, _keyword_kept(spelled, arg, state), line)
        for arg in named
        for fq in _fq(state, arg.value)
        if fq.partition(".")[0] == top
    ]


def _keyword_kept(spelled: str, arg: cst.Arg, state: FileState) -> str:
    """A long call shortened to `f(...)` keeps the keyword the function goes by (`Server(on_read_resource=
    read_resource, ...)`): which handler it is, for the marker (sweep F, r01)."""
    if not spelled.endswith("(...)") or arg.keyword is None:
        return spelled
    code = state.wrapper.module.code_for_node
    return f"{spelled[:-4]}{arg.keyword.value}={code(arg.value)}, ...)"


def _module_functions(state: FileState) -> frozenset[str]:
    """The names a module binds at its top level by `def` or by an import: the only names an argument can
    hand a function of the project by (once per file; the qualified names of every argument cost a tenth of a
    file's time on benchmark 3)."""
    found = state.extra.get("module-functions")
    if found is None:
        names: set[str] = set()
        for statement in state.wrapper.module.body:
            if isinstance(statement, cst.FunctionDef):
                names.add(statement.name.value)
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname is not None else alias.name
                        if isinstance(bound, cst.Name):
                            names.add(bound.value)
        found = state.extra["module-functions"] = frozenset(names)
    return frozenset(found)


# Calls that look at a function without running it, or bind it for later (`partial`: "stored", its own
# reason): no hand-off (`handed_values`).
_LOOKS_AT = frozenset(
    {"print", "repr", "str", "id", "callable", "isinstance", "hasattr", "getattr", "type", "partial", "wraps"}
)
