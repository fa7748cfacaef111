"""What an expression is in SDK terms (a context, a request context, a session, a server object), read
through imports, annotations, aliases and assignments.

The SDK names it matches are data in `_sdk_names.py` (every public name each SDK line exports a matched
object by), re-exported here, where the rules and tests/test_ratchet.py read them.
"""

from __future__ import annotations

from typing import Any

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods import _sdk_alias, _sdk_types
from migrate_roots.codemods._read import read
from migrate_roots.codemods._sdk_names import (  # noqa: F401  (re-exported: the rules read them here)
    CALL_TOOL_DECORATORS,
    CALL_TOOL_KEYWORDS,
    CALL_TOOL_METHOD,
    CLIENT_SESSIONS,
    CONTEXT_LOG_METHODS,
    FASTMCP_CLIENTS,
    FASTMCP_CONTEXTS,
    FASTMCP_MIDDLEWARE,
    FASTMCP_SAMPLING_METHODS,
    GET_CONTEXT_FUNCTIONS,
    HIGH_LEVEL_SERVERS,
    INITIALIZED_METHOD,
    INITIALIZED_NOTIFICATIONS,
    LOW_LEVEL_SERVERS,
    MCP2_CLIENTS,
    MCP_CONTEXTS,
    MEMORY_CONNECT,
    MIDDLEWARE_CONTEXTS,
    MODEL_SCHEMA_METHODS,
    PYDANTIC_MODELS,
    REQUEST_CONTEXTS,
    REQUEST_CTX_VARS,
    ROOTS_CAPABILITIES,
    ROOTS_LIST_CHANGED_METHOD,
    ROOTS_LIST_CHANGED_NOTIFICATIONS,
    SAMPLING_CALLBACK_KEYWORDS,
    SESSION_LOG_METHODS,
    SESSION_SAMPLING_METHODS,
    SESSIONS,
    SET_LEVEL_DECORATORS,
    SET_LEVEL_KEYWORDS,
    TOOL_TYPES,
)
from migrate_roots.codemods.program.flow import returns_in

SDK_PREFIXES = ("mcp", "fastmcp")
# Annotations that say nothing about what a parameter is.
OPAQUE_TYPES = frozenset({"typing.Any", "typing_extensions.Any", "builtins.object", "object", "Any"})
# What may stand beside an opaque type and leave it opaque: `Any | None`, `Optional[Any]`, `Union[Any, None]`.
_OPTIONAL_PARTS = frozenset({"None", "builtins.None", "typing.Optional", "typing.Union", "Optional", "Union"})

# Receiver kinds, from what a `.list_roots()` or `.session` hangs off.
CONTEXT = "context"  # mcp Context (has .session and .request_context)
FASTMCP_CONTEXT = "fastmcp-context"  # fastmcp Context (also has .list_roots())
REQUEST_CONTEXT = "request-context"  # low-level RequestContext (has .session)
SESSION = "session"
HL_SERVER = "server"
LL_SERVER = "lowlevel-server"
CAPTURED = "captured"  # an MCP-looking object held outside any request (global, attribute)
FOREIGN = "foreign"  # known not to be an MCP object (annotated or constructed as something else)
MIDDLEWARE_CONTEXT = "middleware-context"  # fastmcp MiddlewareContext (its .fastmcp_context is a Context)


def annotation_kind(state: Any, annotation: cst.BaseExpression, depth: int = 0) -> str | None:
    """Kind named by a parameter annotation (`Context`, `Context | None`, `"Context"`, `Context[S, T]`), also
    through a module-level alias of the file (`MCPContext = Context`, `Ctx: TypeAlias = Context[S, T]`)."""
    names: set[str] = set()
    aliased: list[str | None] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            bounds = _sdk_types.type_parameter(state, node) if depth < 4 else None
            if bounds is not None:  # `[C: Context]`, `TypeVar("C", bound=Context)`: its bound; else as `Any`
                aliased.extend(annotation_kind(state, b, depth + 1) for b in bounds)
                return
            names.update(state.qnames(node))
            value = _module_alias(state, node) if depth < 4 else None
            if value is not None:
                aliased.append(annotation_kind(state, value, depth + 1))

        def visit_Attribute(self, node: cst.Attribute) -> None:
            names.update(state.qnames(node))

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            # A forward reference (`"Context"`, `Optional["Context"]`): resolve its first name in the module.
            text = node.evaluated_value
            if isinstance(text, str):
                head = text.split("[")[0].split("|")[0].strip()
                names.update(_module_qualified(state, head))

    read(annotation, Names())
    found = [kind for kind in aliased if kind not in (None, FOREIGN)]
    if found:
        return found[0]
    if FOREIGN in aliased and names - _OPTIONAL_PARTS <= OPAQUE_TYPES:
        return FOREIGN  # `[C: HasSession]`: the project's class (`_sdk_types.member_kind` reads its members)
    return names_kind(names)


def names_kind(names: set[str]) -> str | None:
    """Kind of the qualified names an annotation spells (None: nothing known, as if unannotated)."""
    if names - _OPTIONAL_PARTS <= OPAQUE_TYPES:  # `Any`, `object | None`, nothing known: as if unannotated
        return None
    if names & FASTMCP_CONTEXTS:
        return FASTMCP_CONTEXT
    if names & MCP_CONTEXTS:
        return CONTEXT
    if names & REQUEST_CONTEXTS:
        return REQUEST_CONTEXT
    if names & SESSIONS:
        return SESSION
    if names & MIDDLEWARE_CONTEXTS:
        return MIDDLEWARE_CONTEXT
    if names & LOW_LEVEL_SERVERS:  # `server: Server` (codemods/lowlevel.py)
        return LL_SERVER
    if names & HIGH_LEVEL_SERVERS:  # `app: FastMCP` (a `register_tools(app)` function)
        return HL_SERVER
    return FOREIGN


def _module_alias(state: Any, name: cst.Name) -> cst.BaseExpression | None:
    """The value of a module-level `name = <type>` (or `name: TypeAlias = <type>`) the annotation names."""
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    assignments = list(scope[name.value])
    target = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    if not isinstance(getattr(assignments[0], "scope", None), GlobalScope) if target is not None else True:
        return None
    if isinstance(target, cst.TypeAlias):  # `type Ctx = Context` (PEP 695)
        value: cst.BaseExpression | None = target.value
    elif isinstance(target, cst.Name):
        value = _assigned_value(state, target)
    else:
        return None
    return value if isinstance(value, (cst.Name, cst.Attribute, cst.Subscript)) else None


def _module_qualified(state: Any, dotted: str) -> set[str]:
    """Qualified names of `dotted` as the module's global scope binds its first part (imports included)."""
    from libcst.metadata import GlobalScope

    first, _, rest = dotted.partition(".")
    scope = state.scope(state.wrapper.module)
    if not isinstance(scope, GlobalScope) or not first.isidentifier():
        return set()
    found = set()
    for q in scope.get_qualified_names_for(first):
        found.add(state._absolute(f"{q.name}.{rest}" if rest else q.name))
    return found


def call_kind(state: Any, call: cst.Call, depth: int = 0) -> str | None:
    """Kind of the value a call returns: a server constructor, get_context(), request_ctx.get()."""
    names = state.qnames(call.func)
    if names & HIGH_LEVEL_SERVERS:
        return HL_SERVER
    if names & LOW_LEVEL_SERVERS:
        return LL_SERVER
    if names & GET_CONTEXT_FUNCTIONS:
        return FASTMCP_CONTEXT
    func = call.func
    attr = _getattr_name(state, call)
    if attr is not None:  # `getattr(ctx, "session", None)` is `ctx.session`
        # The depth goes on: `node = getattr(node, "parent", None)` reads itself.
        return _attribute_kind(state, call.args[0].value, attr, depth)
    if isinstance(func, cst.Attribute):
        if func.attr.value == "get_context" and expr_kind(state, func.value, depth + 1) == HL_SERVER:
            return FASTMCP_CONTEXT if state.extra.get("imports_fastmcp") else CONTEXT
        if func.attr.value == "get" and state.qnames(func.value) & REQUEST_CTX_VARS:
            return REQUEST_CONTEXT
    if isinstance(func, cst.Name):
        return _returned_kind(state, func.value, depth)
    return None


_HANDED = (SESSION, CONTEXT, FASTMCP_CONTEXT, REQUEST_CONTEXT, CAPTURED)


def module_function(state: Any, name: str) -> cst.FunctionDef | None:
    """The module's top-level function `name` (the last definition)."""
    functions = state.extra.get("_top_functions")
    if functions is None:
        body = state.wrapper.module.body
        functions = {f.name.value: f for f in body if isinstance(f, cst.FunctionDef)}
        state.extra["_top_functions"] = functions
    return functions.get(name)


def _returned_values(func: cst.FunctionDef) -> list[cst.BaseExpression]:
    """What the function's own `return` statements return, `return None` aside."""
    values = [r.value for r in returns_in(func.body) if r.value is not None]
    return [v for v in values if not (isinstance(v, cst.Name) and v.value == "None")]


def _returned_kind(state: Any, name: str, depth: int) -> str | None:
    """What a function of the module returns, when every value it returns is one kind of MCP object
    (`def _resolve_session(ctx): return ctx.session`, `return None` aside): a session handed out by a helper."""
    func = module_function(state, name)
    cache = state.extra.setdefault("_returned_kinds", {})
    if func is None or name in cache:
        return cache.get(name) if func is not None else None
    cache[name] = None  # recursion guard
    # A factory of the server (`def create_server() -> FastMCP:` keeping one in a global; maid-runner-mcp's
    # `mcp = create_server()`): its annotation says what it gives.
    annotation = func.returns.annotation if func.returns is not None else None
    named = state.qnames(annotation) if annotation is not None else set()
    if named & HIGH_LEVEL_SERVERS or named & LOW_LEVEL_SERVERS:
        cache[name] = HL_SERVER if named & HIGH_LEVEL_SERVERS else LL_SERVER
        return cache[name]
    kinds = {expr_kind(state, v, depth + 1) for v in _returned_values(func)}
    cache[name] = kind = kinds.pop() if len(kinds) == 1 and kinds <= set(_HANDED) else None
    return kind


SESSION_CHAINS = (["session"], ["request_context", "session"])


def session_chain(state: Any, value: cst.BaseExpression) -> tuple[cst.Name | None, list[str]]:
    """`ctx.session`, `ctx.request_context.session`, `getattr(ctx, "session", None)`: (`ctx`, the chain), or
    (None, []) for anything else."""
    chain: list[str] = []
    if isinstance(value, cst.Call) and _getattr_name(state, value) == "session":
        chain, value = ["session"], value.args[0].value
    while isinstance(value, cst.Attribute):
        chain.insert(0, value.attr.value)
        value = value.value
    if isinstance(value, cst.Name) and chain in SESSION_CHAINS:
        return value, chain
    return None, []


def handed_session(
    state: Any, value: cst.BaseExpression | None
) -> tuple[cst.BaseExpression, list[str]] | None:
    """`_session_of(ctx)` (or `await _session_of(ctx)`) where every value the module's `_session_of` returns is
    one parameter's session (`return ctx.session`, `return None` aside): the argument passed there, and the
    chain. Whatever the argument is, the result is its session."""
    if isinstance(value, cst.Await):
        value = value.expression
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Name)):
        return None
    func = module_function(state, value.func.value)
    if func is None:
        return None
    found = {
        (n.value if n else None, tuple(c))
        for n, c in map(lambda v: session_chain(state, v), _returned_values(func))
    }
    if len(found) != 1:
        return None
    param, chain = found.pop()
    names = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
    if param is None or param not in names:
        return None
    for i, arg in enumerate(value.args):
        if arg.star:
            return None
        if (arg.keyword is not None and arg.keyword.value == param) or (
            arg.keyword is None and i == names.index(param)
        ):
            return arg.value, list(chain)
    return None


def expr_kind(state: Any, expr: cst.BaseExpression, depth: int = 0) -> str | None:
    """What MCP object `expr` is, by imports and scopes; None when it is not (or not known to be) one."""
    if depth > 8:
        return None
    if isinstance(expr, cst.Call):
        return call_kind(state, expr, depth)
    if isinstance(expr, cst.Await) and isinstance(expr.expression, cst.Call):
        func = expr.expression.func  # `session = await _session_of(ctx)`
        return _returned_kind(state, func.value, depth) if isinstance(func, cst.Name) else None
    if isinstance(expr, cst.Attribute):
        return _attribute_kind(state, expr.value, expr.attr.value, depth)
    if isinstance(expr, cst.Name):
        return name_kind(state, expr, depth)
    return None


def _getattr_name(state: Any, call: cst.Call) -> str | None:
    """ "session" for `getattr(ctx, "session")` / `getattr(ctx, "session", None)` (the builtin)."""
    func = call.func
    if not (isinstance(func, cst.Name) and func.value == "getattr" and 2 <= len(call.args) <= 3):
        return None
    if state.qnames(func) - {"builtins.getattr", "getattr"}:
        return None  # a getattr of the module's own
    name = call.args[1].value
    value = name.evaluated_value if isinstance(name, cst.SimpleString) else None
    return value if isinstance(value, str) and value.isidentifier() else None


def _attribute_kind(state: Any, value: cst.BaseExpression, attr: str, depth: int) -> str | None:
    """Kind of `value.<attr>`."""
    base = expr_kind(state, value, depth + 1)
    if base == CAPTURED and attr in ("session", "request_context", "fastmcp_context"):
        return CAPTURED  # `self._ctx.session`: the session of a context held across requests
    if base == FOREIGN and attr in ("session", "request_context"):
        declared = _sdk_types.member_kind(state, value, attr)  # `ctx: HasSession`, a Protocol of the project
        if declared is not None:
            return declared
    if attr == "request_context":
        if base is None:
            base = _imported_server(state, value)
        if base in (CONTEXT, FASTMCP_CONTEXT, LL_SERVER, HL_SERVER):
            return REQUEST_CONTEXT  # a server's is the current request's (a context variable)
        if base == FOREIGN:
            return FOREIGN  # `ctx.request_context` of `ctx: Context` from a framework it does not know
        return CAPTURED if base is None and state.extra.get("imports_sdk") else None
    if attr == "session":
        parent = state.parent(value)
        held_as = (
            self_attribute_kind(state, parent, depth)
            if isinstance(value, cst.Name) and value.value == "self" and isinstance(parent, cst.Attribute)
            else None
        )
        if held_as == FOREIGN:
            return FOREIGN  # `self.session: ClientSession`: a client's, which reads no roots
        if base in (CONTEXT, FASTMCP_CONTEXT, REQUEST_CONTEXT):
            return SESSION
        return CAPTURED if base is None and state.extra.get("imports_sdk") else None
    if attr in ("_mcp_server",) and base == HL_SERVER:
        return LL_SERVER
    if attr == "fastmcp_context" and (
        base == MIDDLEWARE_CONTEXT or (base in (None, FASTMCP_CONTEXT) and state.extra.get("imports_fastmcp"))
    ):
        return FASTMCP_CONTEXT  # middleware's `context.fastmcp_context` (only MiddlewareContext has it)
    parent = state.parent(value)
    if isinstance(value, cst.Name) and value.value == "self" and isinstance(parent, cst.Attribute):
        return self_attribute_kind(state, parent, depth)  # `self.server` (codemods/lowlevel.py)
    if base is None and isinstance(parent, cst.Attribute) and imported(state, value):
        return _imported_server(state, parent)  # `app.server` of `from pkg import app`
    return None


def imported(state: Any, name: cst.BaseExpression) -> bool:
    """A name bound only by imports (`from .app import server`, `from pkg import app`)."""
    scope = state.scope(name) if isinstance(name, cst.Name) else None
    if scope is None or name.value not in scope:  # type: ignore[attr-defined]
        return False
    found = list(scope[name.value])  # type: ignore[attr-defined]
    return bool(found) and all(
        isinstance(getattr(a, "node", None), (cst.Import, cst.ImportFrom)) for a in found
    )


def _imported_server(state: Any, value: cst.BaseExpression) -> str | None:
    """`server` of `from .app import server` (or `app.server`), when pkg/app.py binds it to an SDK server."""
    if not isinstance(value, (cst.Name, cst.Attribute)) or not state.module:
        return None
    if not state.import_root:
        state.import_root = _sdk_alias.import_root(state.path, state.module)
    for name in state.qnames(value):
        cls = _sdk_alias.instance_of(name, state.import_root)
        if cls in LOW_LEVEL_SERVERS:
            return LL_SERVER
        if cls in HIGH_LEVEL_SERVERS:
            return HL_SERVER
    return None


def name_kind(state: Any, name: cst.Name, depth: int) -> str | None:
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    kinds: list[str | None] = []
    for assignment in scope[name.value]:
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Param):
            kind = annotation_kind(state, node.annotation.annotation) if node.annotation is not None else None
            if kind is None and state.extra.get("imports_sdk"):
                # Unannotated (or `Any`) in an MCP module: a session by its name, else the SDK's context.
                if "session" in node.name.value.lower():
                    kind = SESSION
                else:
                    kind = FASTMCP_CONTEXT if state.extra.get("imports_fastmcp") else CONTEXT
            kinds.append(kind)
            continue
        if isinstance(node, cst.Name):
            value = _assigned_value(state, node)
            if value is not None:
                kind = expr_kind(state, value, depth + 1)
                # A value some call built is not MCP's, but for `getattr(ctx, "session", None)` on an
                # untyped `ctx`: unknown, as `ctx` is.
                getattr_call = isinstance(value, cst.Call) and _getattr_name(state, value) is not None
                # ... nor for `_session_of(ctx)`, a helper of the module returning `ctx.session`.
                getattr_call = getattr_call or handed_session(state, value) is not None
                if kind is None and isinstance(value, cst.Call) and not getattr_call:
                    kind = FOREIGN
                # A session or context held in a module global outlives the request that produced it.
                if kind in (SESSION, CONTEXT, FASTMCP_CONTEXT, REQUEST_CONTEXT) and _is_global(assignment):
                    kind = CAPTURED
                kinds.append(kind)
    if not any(kinds) and imported(state, name):
        kinds.append(_imported_server(state, name))  # `from .app import server`
    held = any(_is_global(a) for a in scope[name.value])
    if not any(kinds) and "session" in name.value.lower() and state.extra.get("imports_sdk") and held:
        kinds.append(CAPTURED)
    known = [k for k in kinds if k is not None]
    return known[0] if known else None


def _assigned_value(state: Any, target: cst.Name) -> cst.BaseExpression | None:
    parent = state.parent(target)
    if isinstance(parent, cst.AssignTarget):
        assign = state.parent(parent)
        return assign.value if isinstance(assign, cst.Assign) else None
    if isinstance(parent, (cst.AnnAssign, cst.NamedExpr)) and parent.target is target:
        return parent.value
    return None


def _is_global(assignment: Any) -> bool:
    from libcst.metadata import GlobalScope

    return isinstance(getattr(assignment, "scope", None), GlobalScope)


def self_attribute_kind(state: Any, expr: cst.Attribute, depth: int) -> str | None:
    """Kind of `self.<attr>` from what the enclosing class assigns to it (`self.server = Server(...)`)."""
    node = state.parent(expr)
    while node is not None and not isinstance(node, cst.ClassDef):
        node = state.parent(node)
    if node is None:
        return None
    cache = state.extra.setdefault("_self_attributes", {})
    key = (id(node), expr.attr.value)
    if key in cache:
        return cache[key]
    cache[key] = None  # recursion guard
    kinds: list[str | None] = []
    attr = expr.attr.value

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, assign: cst.Assign) -> None:
            for target in assign.targets:
                if _is_self_attr(target.target, attr):
                    kinds.append(expr_kind(state, assign.value, depth + 1))

        def visit_AnnAssign(self, assign: cst.AnnAssign) -> None:
            if _is_self_attr(assign.target, attr):
                if assign.value is not None:
                    kinds.append(expr_kind(state, assign.value, depth + 1))
                kinds.append(annotation_kind(state, assign.annotation.annotation))

    read(node.body, Assigns())
    known = [k for k in kinds if k in (LL_SERVER, HL_SERVER)]
    # A session or context kept on the object (`self._session: ServerSession | None = None`, or given one):
    # held across requests, as `self.session` is by its name.
    held = [k for k in kinds if k in (SESSION, CONTEXT, FASTMCP_CONTEXT, REQUEST_CONTEXT)]
    said = [k for k in kinds if k is not None]
    foreign = bool(said) and all(k == FOREIGN for k in said)  # `self.session: ClientSession`
    cache[key] = known[0] if known else CAPTURED if held else FOREIGN if foreign else None
    return cache[key]


def _is_self_attr(target: cst.BaseExpression, attr: str) -> bool:
    return (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
        and target.attr.value == attr
    )
