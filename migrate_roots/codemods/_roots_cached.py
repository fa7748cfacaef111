"""A helper behind a cache keyed by its arguments (`@functools.lru_cache`, `@functools.cache`, `@alru_cache` of
async-lru, cachetools' `@cached(cache)` and `cachetools.func`'s): its new parameter joins the key. A single root
(`root: str | None`) is hashable, so the cache keys by it and the rewrite stands; the list the tools take when
their roots are used beyond the first (`root: RootPaths`, a list) is not: every call passing it would fail with
"unhashable type: 'list'" (sweep K r01 of session 22). Such a helper is refused (MR103), never given the list.

A cache applied through a name is the same cache (sweep N r06 of session 22): `per_session =
alru_cache(maxsize=32)` then `@per_session`, `memo = functools.lru_cache`, a decorator of the project that
applies one (`def memo(fn): return functools.lru_cache()(fn)`), in the module or imported from another of the
project.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence

import libcst as cst

from migrate_roots.codemods import _sdk_alias
from migrate_roots.codemods._roots_model import Func, Pos
from migrate_roots.codemods.base import FileState

Key = tuple[str, str]  # (import root, module.qualname), as in _roots_plan

# Decorators that key a cache by the function's arguments, hashed.
CACHES = frozenset(
    {
        "functools.lru_cache",
        "functools.cache",
        "async_lru.alru_cache",
        "cachetools.cached",
        "cachetools.func.lru_cache",
        "cachetools.func.ttl_cache",
        "cachetools.func.lfu_cache",
        "cachetools.func.fifo_cache",
        "cachetools.func.rr_cache",
        "cachetools.func.mru_cache",
        "cachetools.func.tlru_cache",
    }
)


def cache_decorator(state: FileState, decorator: cst.BaseExpression) -> str | None:
    """`` `@alru_cache` `` for `@alru_cache(maxsize=32)` when it is one of `CACHES` (cachetools' `@cached(cache)`
    only with its own key, not one given by `key=`), `` `@per_session` (`alru_cache(maxsize=32)`) `` for a name
    bound to one; else None."""
    call = decorator if isinstance(decorator, cst.Call) else None
    target = call.func if call is not None else decorator
    if call is not None and _keyed(call.args):
        return None  # `@cached(cache, key=...)`: a key of the project's, which may take a list
    spelled = "`@" + state.wrapper.module.code_for_node(target) + "`"
    if state.qnames(target) & CACHES:
        return spelled
    named = _named_cache(state, target) if isinstance(target, cst.Name) else None
    return f"{spelled} (`{named}`)" if named else None


def _keyed(args: Sequence[cst.Arg]) -> bool:
    return any(a.keyword is not None and a.keyword.value == "key" for a in args)


def _named_cache(state: FileState, name: cst.Name) -> str | None:
    """What a name the decorator spells stands for, when it is a cache: the value of a module-level `per_session
    = alru_cache(maxsize=32)` (or `= functools.lru_cache`), what a decorator of the module applies (`def
    memo(fn): return functools.lru_cache()(fn)`), or either in the module of the project it is imported from."""
    scope = state.scope(name)
    bound = list(scope[name.value]) if scope is not None and name.value in scope else []
    node = getattr(bound[0], "node", None) if len(bound) == 1 else None
    code = state.wrapper.module.code_for_node
    if isinstance(node, cst.Name):  # `per_session = alru_cache(maxsize=32)`
        assign = state.parent(state.parent(node) or node)
        value = assign.value if isinstance(assign, cst.Assign) else None
        return code(value) if value is not None and _applies(state, value) else None
    if isinstance(node, cst.FunctionDef):  # `def memo(fn): return functools.lru_cache()(fn)`
        values = _returned(node)
        return code(values[0]) if values and all(_applies(state, v) for v in values) else None
    if isinstance(node, cst.ImportFrom) and state.module:
        for q in state.qualified_names(name):
            found = _imported_cache(state, state._absolute(q.name, sdk=False))
            if found is not None:
                return found
    return None


def _applies(state: FileState, value: cst.BaseExpression) -> bool:
    """`alru_cache(maxsize=32)`, `functools.lru_cache`, `lru_cache()(fn)`, `functools.cache(fn)`: one of
    `CACHES` (called, or the call's result applied), without a key of the project's."""
    while isinstance(value, cst.Call):
        if _keyed(value.args):
            return False
        value = value.func
    return bool(state.qnames(value) & CACHES)


def _returned(func: cst.FunctionDef) -> list[cst.BaseExpression]:
    body = func.body.body
    returns = [s.body[0] for s in body if isinstance(s, cst.SimpleStatementLine) and s.body]
    values = [r.value for r in returns if isinstance(r, cst.Return) and r.value is not None]
    return values if len(values) == len([r for r in returns if isinstance(r, cst.Return)]) else []


def _imported_cache(state: FileState, dotted: str) -> str | None:
    """`_named_cache` of `pkg.caching.per_session`, read with `ast` from the module of the project."""
    owner, _, attr = dotted.rpartition(".")
    if not state.import_root:
        state.import_root = _sdk_alias.import_root(state.path, state.module)
    path = _sdk_alias.first_party(state.import_root, owner) if owner else None
    tree = _sdk_alias.source_tree(path) if path is not None else None
    if tree is None:
        return None
    names = _imported_names(tree)
    values: list[ast.expr] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == attr for t in node.targets
        ):
            values = [node.value]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == attr:
            returns = [s for s in node.body if isinstance(s, ast.Return)]
            values = [r.value for r in returns if r.value is not None] if len(returns) == 1 else []
    if not values or not all(_ast_applies(v, names) for v in values):
        return None
    return f"{ast.unparse(values[0])}` in `{owner}"


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """The module's imports: bound name -> the dotted name it stands for."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                found[a.asname or a.name.partition(".")[0]] = a.name if a.asname else a.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names)
    return found


def _ast_applies(value: ast.expr, names: Mapping[str, str]) -> bool:
    while isinstance(value, ast.Call):
        if any(k.arg == "key" for k in value.keywords):
            return False
        value = value.func
    parts: list[str] = []
    while isinstance(value, ast.Attribute):
        parts.insert(0, value.attr)
        value = value.value
    if not isinstance(value, ast.Name) or value.id not in names:
        return False
    return ".".join([names[value.id], *parts]) in CACHES


def shape_of(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    reach: set[Key],
    key: Key,
) -> str:
    """ "list" when a site the function reaches uses more than the first root (a tool then takes a list), else
    "single"."""
    seen: set[Key] = set()

    def walk(key: Key) -> str:
        if key in seen:
            return "single"
        seen.add(key)
        func = by_key[key][1]
        if any(s.uses == "list" for s in func.sites if s.refusal is None):
            return "list"
        return "list" if any(walk(c) == "list" for c, _ in calls[key] if c in reach) else "single"

    return walk(key)


def refusals(
    by_key: Mapping[Key, tuple[str, Func]],
    calls: Mapping[Key, list[tuple[Key, Pos]]],
    helpers: set[Key],
    reach: set[Key],
    tools_reaching: Callable[[Key], set[Key]],
) -> dict[Key, tuple[str, str]]:
    """The cached helpers of `helpers` that a tool taking a list reaches: MR103, naming the cache."""
    out: dict[Key, tuple[str, str]] = {}
    for key in sorted(helpers):
        func = by_key[key][1]
        if func.cache is None:
            continue
        listed = sorted(
            by_key[t][1].qualname for t in tools_reaching(key) if shape_of(by_key, calls, reach, t) == "list"
        )
        if listed:
            name = func.qualname.rpartition(".")[2]
            out[key] = (
                "MR103",
                f"`{name}` is cached by {func.cache}, whose key is its arguments: the path argument it would "
                f"take from `{listed[0]}` is a list (the roots are used beyond the first), which the key cannot "
                "hold (every call passing it would fail: unhashable type 'list'), so migrate-roots gives it none; "
                "pass the paths to it as a tuple by hand, or read them outside the cached function",
            )
    return out
