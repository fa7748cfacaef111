"""How a function's decorators and place classify it for the roots-call index (`SiteIndex._function`): a tool
(its registration), a registration pending on another module's server object, a handler of something else
(`@server.list_tools()`, `@mcp.resource(...)`, fastmcp's standalone `@resource`/`@prompt`, a middleware hook or
code that takes a `MiddlewareContext`), or a decorator migrate-roots does not know (named in the marker); the
language's own decorators (`@staticmethod`, `contextlib`'s) are none of these.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _roots_cached, _sdk
from migrate_roots.codemods._roots_handed_to import _short_code, is_middleware
from migrate_roots.codemods._roots_model import Func
from migrate_roots.codemods._roots_uses import spells
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import recognise
from migrate_roots.codemods.program.facts import Registration
from migrate_roots.codemods.program.model import LAZY_WRAPPER, MIDDLEWARE, MIDDLEWARE_CODE, STANDALONE_TOOL


def classify(
    func: Func, node: cst.FunctionDef, state: FileState, registrations: list[Registration]
) -> cst.CSTNode | None:
    """Set `func.tool`, `handler`, `decorator` and `under` from `node`'s decorators and enclosing class; a
    registration on a server object the file cannot identify goes to `registrations`. Returns the nearest
    enclosing function, class or module."""
    for decorator in node.decorators:
        func.cache = func.cache or _roots_cached.cache_decorator(state, decorator.decorator)
        found = recognise.decorator(state, decorator.decorator, func.qualname, state.pos(decorator))
        if found is not None and found.pending is None:
            func.tool = found.name or node.name.value
        elif found is not None and found.pending is not None:
            registrations.append(found.pending)
        elif recognise.language(state, decorator.decorator):
            continue
        else:
            kind = recognise.standalone(state, decorator.decorator)
            spelled = "@" + _short_code(state, decorator.decorator)
            # fastmcp's standalone `@resource(...)` / `@prompt` is a handler, as `@mcp.resource` is.
            seen = (
                spelled if kind in ("resource", "prompt") else recognise.handler(state, decorator.decorator)
            )
            func.handler = func.handler or seen
            if func.handler is None and func.decorator is None:
                lazy = decorator.decorator in state.extra.get(recognise.LAZY_REFUSED, ())
                func.decorator = (
                    STANDALONE_TOOL if kind == "tool" else LAZY_WRAPPER if lazy else ""
                ) + spelled
            if func.tool and func.handler is None and func.under is None:
                func.under = _short_code(state, decorator.decorator)
    outer = state.parent(node)
    while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.ClassDef, cst.Module)):
        outer = state.parent(outer)
    middleware = isinstance(outer, cst.ClassDef) and is_middleware(outer, state)
    if middleware and node.name.value.startswith("on_"):
        func.handler = func.handler or f"{MIDDLEWARE}{outer.name.value}"  # type: ignore[union-attr]
    elif func.handler is None and _takes_middleware_context(node, state):
        # `check(self, context: MiddlewareContext)` of a class whose Middleware base is the project's
        # (`RootsGuard(ToolGuard)`): code the base's hook runs (session 15's sweep D, r07).
        owner = outer.name.value if isinstance(outer, cst.ClassDef) else node.name.value
        func.handler = f"{MIDDLEWARE_CODE}{owner}"
    return outer


def _takes_middleware_context(node: cst.FunctionDef, state: FileState) -> bool:
    """A parameter annotated with fastmcp's `MiddlewareContext` (asked only where the file names it)."""
    if not spells(state, "MiddlewareContext"):
        return False
    params = (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params)
    return any(
        p.annotation is not None
        and _sdk.annotation_kind(state, p.annotation.annotation) == _sdk.MIDDLEWARE_CONTEXT
        for p in params
    )
