"""A project's own tool registrar that hands the SDK the decorated function's signature unchanged.

    def nexus_tool(fn):                          # `@nexus_tool`
        @functools.wraps(fn)
        async def wrapper(*args, **kwargs):
            return annotate(await fn(*args, **kwargs))
        return _mcp.tool()(wrapper)

    def register_tool(mcp: FastMCP, name):       # `@register_tool(mcp, "client.roots")`
        def decorator(fn):
            if name not in ENABLED:
                return fn
            return mcp.tool(name=name)(fn)
        return decorator

The SDKs read a tool's parameters with `inspect.signature`, which follows `__wrapped__`: a parameter added to
the decorated function is in the tool's inputSchema, and a wrapper that passes `*args, **kwargs` on hands it
back. A registration of `wrap(fn)` counts when `wrap` is such a wrapper itself (`forwards`), in this module or
imported from another of the project's; a method of a class holding the server object is
`registrar_classes.py`'s. Anything else (a wrapper with its own parameters, a `__signature__` set, a
registration of another value) is no such registrar: its functions keep the "decorated by" marker (MR103).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import libcst as cst

from migrate_roots.codemods import _lazy_annotations, _sdk, _sdk_alias
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import returns_in

DECORATOR = "decorator"  # `@registrar` on the function
FACTORY = "factory"  # `@registrar(...)`: returns a decorator
Receiver = Callable[[cst.BaseExpression], "tuple[str, ...] | None"]
# `W(fn)` hands `fn` on with its signature: HERE (W of the same module), THERE (imported), or None (not so).
Wrapped = Callable[[cst.Call], "str | None"]
HERE, THERE = "here", "there"
# A registration's wrapper: "" (none: `fn` itself), HERE (one of the registrar's module), THERE (of another).
Found = tuple[str, tuple[str, ...], str]  # (DECORATOR or FACTORY, receiver names, wrapper)


def _never(call: cst.Call) -> str | None:
    return None


def _param(func: cst.FunctionDef, bound: bool = False) -> str | None:
    """The one positional parameter of a decorator (`fn`; after `self` when `bound`), or None."""
    p = func.params
    if (
        len(p.params) != 1 + bound
        or p.posonly_params
        or p.kwonly_params
        or p.star_kwarg
        or isinstance(p.star_arg, cst.Param)
    ):
        return None
    return p.params[-1].name.value


class _Body(cst.CSTVisitor):
    """The function's own nested functions, calls and `__signature__` writes (not those of nested functions)."""

    def __init__(self) -> None:
        self.nested: list[cst.FunctionDef] = []
        self.calls: list[cst.Call] = []
        self.signature = False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.nested.append(node)
        return False

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.signature = self.signature or node.attr.value == "__signature__"


def _body(func: cst.FunctionDef) -> _Body:
    found = _Body()
    read(func.body, found)
    return found


def _is_name(node: cst.BaseExpression | None, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _forwards(wrapper: cst.FunctionDef, fn: str) -> bool:
    """`@wraps(fn) def wrapper(*args, **kwargs)` that calls `fn(*args, **kwargs)`."""
    p = wrapper.params
    star, kw = p.star_arg, p.star_kwarg
    if p.params or p.posonly_params or p.kwonly_params or not isinstance(star, cst.Param) or kw is None:
        return False
    wraps = any(
        isinstance(d.decorator, cst.Call)
        and (
            _is_name(d.decorator.func, "wraps")
            or isinstance(d.decorator.func, cst.Attribute)
            and d.decorator.func.attr.value == "wraps"
        )
        and len(d.decorator.args) == 1
        and _is_name(d.decorator.args[0].value, fn)
        for d in wrapper.decorators
    )
    if not wraps or len(wrapper.decorators) != 1:
        return False
    args, kwargs = star.name.value, kw.name.value
    return any(
        _is_name(call.func, fn)
        and [a.star for a in call.args] == ["*", "**"]
        and _is_name(call.args[0].value, args)
        and _is_name(call.args[1].value, kwargs)
        for call in _body(wrapper).calls
    )


def forwards(func: cst.FunctionDef) -> bool:
    """`def W(fn)` whose every return hands out a nested `@wraps(fn)` wrapper that forwards every argument
    (`with_correlation_id`, one wrapper for coroutines and one for plain functions)."""
    fn = _param(func)
    returns = returns_in(func.body)
    if fn is None or not returns:
        return False
    wrappers = {w.name.value for w in _body(func).nested if _forwards(w, fn)}
    return all(isinstance(r.value, cst.Name) and r.value.value in wrappers for r in returns)


def _registered(call: cst.Call) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """(server expression, registered value) of `X.tool(...)(E)`, `X.tool(E)`, `X.add_tool(E)`."""
    inner = call.func
    if (
        isinstance(inner, cst.Call)
        and isinstance(inner.func, cst.Attribute)
        and inner.func.attr.value == "tool"
    ):
        if len(call.args) == 1 and call.args[0].keyword is None and not call.args[0].star:
            return inner.func.value, call.args[0].value
        return None
    if isinstance(inner, cst.Attribute) and inner.attr.value in ("tool", "add_tool"):
        first = call.args[0] if call.args else None
        if first is not None and first.keyword is None and not first.star:
            return inner.value, first.value
    return None


def _registers(
    func: cst.FunctionDef, receiver: Receiver, wrapped: Wrapped = _never, bound: bool = False
) -> tuple[tuple[str, ...], str] | None:
    """(The receiver names (`()`: a server object of this file), the wrapper: "", HERE or THERE) when `func(fn)`
    registers `fn`, or a wrapper of it that forwards every argument (nested, or `W(fn)` where `wrapped` says
    so), as a tool, and returns only that registration, the wrapper or `fn`. `bound`: a method (`self` first)."""
    fn = _param(func, bound)
    if fn is None:
        return None
    body = _body(func)
    if body.signature:
        return None
    wrappers = {w.name.value for w in body.nested if _forwards(w, fn)}
    carried = {fn} | wrappers
    names: set[str] = set()
    registered = False
    through = ""
    for call in body.calls:
        found = _registered(call)
        if found is None:
            continue
        server, value = found
        kind = wrapped(value) if isinstance(value, cst.Call) else None
        if (
            kind is not None
            and isinstance(value, cst.Call)
            and len(value.args) == 1
            and not value.args[0].keyword
        ):
            value, through = value.args[0].value, max(through, kind)  # "" < HERE < THERE
        elif isinstance(value, cst.Name) and value.value in wrappers:
            through = max(through, HERE)
        if not (isinstance(value, cst.Name) and value.value in carried):
            return None  # registers some other value: not this function's signature
        where = receiver(server)
        if where is None:
            return None
        names.update(where)
        registered = True
    if not registered:
        return None
    for ret in returns_in(func.body):
        if isinstance(ret.value, cst.Name) and ret.value.value in carried:
            continue
        if not (isinstance(ret.value, cst.Call) and _registered(ret.value) is not None):
            return None
    return tuple(sorted(names)), through


def scan_one(
    func: cst.FunctionDef, receiver: Receiver, wrapped: Wrapped = _never, bound: bool = False
) -> Found | None:
    """(DECORATOR or FACTORY, receiver names, wrapper) when `func` is a registrar, else None."""
    one = _registers(func, receiver, wrapped, bound)
    if one is not None:
        return DECORATOR, *one
    # A factory: every return hands out the one nested registrar (`return decorator`).
    returns = returns_in(func.body)
    returned = {r.value.value if isinstance(r.value, cst.Name) else "" for r in returns}
    for nested in _body(func).nested if len(returned) == 1 else ():
        inner = _registers(nested, receiver, wrapped) if nested.name.value in returned else None
        if inner is not None:
            return FACTORY, *inner
    return None


def _scan(body: Sequence[cst.BaseStatement], receiver: Receiver, wrapped: Wrapped) -> dict[str, Found]:
    found: dict[str, Found] = {}
    for statement in body:
        if isinstance(statement, cst.FunctionDef):
            one = scan_one(statement, receiver, wrapped)
            if one is not None:
                found[statement.name.value] = one
    return found


@lru_cache(maxsize=128)
def _read(path: str) -> tuple[bytes, cst.Module | None]:
    """A file of the project outside the run's parsed files, read and parsed once a process (a registrar, its
    class or its wrapper may be asked for from several modules)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return b"", None
    try:
        return data, cst.parse_module(data)
    except (cst.ParserSyntaxError, RecursionError, MemoryError):
        return data, None


def parse(path: str, *spelled: bytes) -> cst.Module | None:
    """The module at `path`, or None when it cannot be read or parsed, or spells none of `spelled`."""
    data, tree = _read(path)
    return tree if not spelled or any(token in data for token in spelled) else None


def _imported(tree: cst.Module, module: str) -> dict[str, str]:
    """Top-level `from X import name` of a module: local name -> absolute `X.name`."""
    package = module.rpartition(".")[0]
    out: dict[str, str] = {}
    for statement in tree.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar):
                continue
            dotted = cst.helpers.get_full_name_for_node(small.module) if small.module is not None else None
            if small.relative:
                dotted = _sdk_alias.relative(package, len(small.relative), dotted)
            for alias in small.names if dotted else ():
                name = cst.helpers.get_full_name_for_node(alias.name) or ""
                bound = alias.asname.name if alias.asname is not None else None
                out[bound.value if isinstance(bound, cst.Name) else name] = f"{dotted}.{name}"
    return out


@lru_cache(maxsize=256)
def _wrappers(path: str) -> frozenset[str]:
    """The top-level functions of a file that wrap their one argument and keep its signature."""
    tree = parse(path, b"wraps")
    if tree is None:
        return frozenset()
    return frozenset(s.name.value for s in tree.body if isinstance(s, cst.FunctionDef) and forwards(s))


def wrapped_in(tree: cst.Module, module: str, root: str) -> Wrapped:
    """Whether a call `W(fn)` in `tree` hands `fn` on with its signature: `W` a wrapper of this module or
    imported from one of the project's."""
    local = {s.name.value for s in tree.body if isinstance(s, cst.FunctionDef) and forwards(s)}
    imported = _imported(tree, module)

    def wrapped(call: cst.Call) -> str | None:
        name = call.func.value if isinstance(call.func, cst.Name) else None
        if name is None:
            return None
        if name in local:
            return HERE
        owner, _, attr = imported.get(name, "").rpartition(".")
        path = _sdk_alias.first_party(root, owner) if owner else None
        return THERE if path is not None and attr in _wrappers(path) else None

    return wrapped


def unresolvable(state: FileState, wrapper: str) -> bool:
    """A tool of `state`'s module registered through a wrapper of another module (`wrapper`: THERE, or any
    wrapper of a registrar of another module), in a module whose annotations are strings (`from __future__
    import annotations`): fastmcp 2 reads them in the wrapper's module (pydantic resolves a function's
    annotations in its `__globals__`), where the new parameter's `RootPath` alias is unknown, and the server
    would fail to start (sweep U, r01). Such a registration is not followed (MR103)."""
    if not wrapper or wrapper == HERE:
        return False
    return _lazy_annotations.lazy(state)


def registrars(state: FileState, receiver: Receiver) -> dict[str, Found]:
    """The module's top-level registrars: name -> (DECORATOR or FACTORY, receiver names, wrapper). Read once
    per file, and only in a file that spells a registration (`.tool(` or `.add_tool(`)."""
    found = state.extra.get("registrars")
    if found is None:
        spelled = any(".tool(" in line or ".add_tool(" in line for line in state.lines)
        module = state.wrapper.module
        if spelled and state.module:
            root = state.import_root or _sdk_alias.import_root(state.path, state.module)
            found = _scan(module.body, receiver, wrapped_in(module, state.module, root))
        else:
            found = _scan(module.body, receiver, _never) if spelled else {}
        state.extra["registrars"] = found
    return found


@lru_cache(maxsize=256)
def foreign(path: str, module: str, root: str) -> dict[str, tuple[str, str]]:
    """The registrars of another module of the project (`from .registry import register_tool`): name -> (form,
    wrapper).
    That file may be outside the run's parsed files (it holds no roots token), so it is read here, once per
    process; only a registration on a server object the file itself shows counts (a parameter annotated with
    an SDK server class, or a name bound to one's constructor at its top level)."""
    tree = parse(path, b".tool(", b".add_tool(")
    if tree is None:
        return {}
    sdk = _sdk_alias.local(tree)
    classes = {name for name, full in sdk.items() if full in _sdk.HIGH_LEVEL_SERVERS}
    servers: set[str] = set()

    class Servers(cst.CSTVisitor):
        def visit_Param(self, node: cst.Param) -> None:
            annotation = node.annotation.annotation if node.annotation is not None else None
            if isinstance(annotation, cst.Name) and annotation.value in classes:
                servers.add(node.name.value)

    read(tree, Servers())
    for statement in tree.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            value: cst.BaseExpression | None
            if isinstance(small, cst.Assign):
                value, targets = small.value, [t.target for t in small.targets]
            elif isinstance(small, cst.AnnAssign):
                value, targets = small.value, [small.target]
            else:
                continue
            if (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Name)
                and value.func.value in classes
            ):
                servers.update(t.value for t in targets if isinstance(t, cst.Name))

    def receiver(expr: cst.BaseExpression) -> tuple[str, ...] | None:
        return () if isinstance(expr, cst.Name) and expr.value in servers else None

    found = _scan(tree.body, receiver, wrapped_in(tree, module, root))
    return {name: (form, through) for name, (form, names, through) in found.items() if not names}
