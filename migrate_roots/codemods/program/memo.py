"""Values kept beyond one call that a roots read hides behind (MR211): a module container filled per key and
tested before the read, an attribute's container of the function's own object, and a value memoized on a
session's attribute (a path of the module served while it exists on disk: program/on_disk.py). Each gives
(what, line) for the marker, or None."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import (
    _FILLS,
    _is_container,
    _names,
    _returns,
    dotted,
)


def returned_cache(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """A module-level container the module fills (`_cache[key] = ...`, `_cache.setdefault(...)`) that an `if`
    before `node` (or around it) tests and returns from: `if (hit := _cache.get(key)): return hit`, a cache
    keyed by session or request that MR211 does not remove. (name, line of the `if`), or None."""
    func = state.function
    # ... or an attribute's container this function fills (`app.workspaces[key] = path` on the lifespan value,
    # `self._by_session[key] = path`): per session, and kept beyond the call (session 15's sweep C, r08).
    containers = _filled_containers(state) | (
        _per_function(state, func, "filled", _filled_attributes) if func else frozenset()
    )
    return returned_from(node, state, containers)


def returned_from(node: cst.CSTNode, state: FileState, containers: frozenset[str]) -> tuple[str, int] | None:
    """`returned_cache` for the given containers (names or attribute chains the function or module fills)."""
    func = state.function
    if not containers or func is not None and not _may_test(state, func, containers):
        return None
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and child is not func:
        if isinstance(current, cst.If) and child is not current.test:
            names = _mentions(current.test) & containers
            if names:
                return sorted(names)[0], state.pos(current)[0]
        # `ws = _CACHE[key] if key in _CACHE else await _read(ctx)`: the same (sweep M r07 of session 22)
        if isinstance(current, cst.IfExp) and child is not current.test:
            names = _mentions(current.test) & containers
            if names:
                return sorted(names)[0], state.pos(current)[0]
        # `ws = _CACHE.get(key) or await _read(ctx)`: a hit never reaches the read (sweep K r04 of session 22)
        if isinstance(current, cst.BooleanOperation) and isinstance(current.operator, cst.Or):
            # ... not `d.get(k) or d.setdefault(k, <read>)`, which `setdefault` words
            kept = isinstance(child, cst.Call) and (dotted(child.func) or "").endswith(".setdefault")
            names = _mentions(current.left) & containers if child is current.right and not kept else set()
            if names:
                return sorted(names)[0], state.pos(current)[0]
        body = getattr(current, "body", None)
        if isinstance(body, (list, tuple)) and child in body:
            # The containers, and the local names given a container's value (`hit = _cache.get(key)`).
            held = {name: name for name in containers}
            for stmt in body[: body.index(child)]:
                if isinstance(stmt, cst.If) and _returns(stmt.body):
                    tested = sorted(held[n] for n in _mentions(stmt.test) if n in held)
                    if tested:
                        return tested[0], state.pos(stmt)[0]
                elif isinstance(stmt, cst.Try) and _returns(stmt.body):
                    # `try: return _cache[key]` / `except KeyError: pass`: the lookup returns on a hit.
                    tested = sorted(held[n] for n in _mentions(stmt.body) if n in held)
                    if tested:
                        return tested[0], state.pos(stmt)[0]
                elif isinstance(stmt, cst.SimpleStatementLine):
                    for small in stmt.body:
                        if not isinstance(small, cst.Assign):
                            continue
                        source = sorted(held[n] for n in _mentions(small.value) if n in held)
                        for t in small.targets:
                            if source and isinstance(t.target, cst.Name):
                                held[t.target.value] = source[0]
        child, current = current, state.parent(current)
    return None


def _may_test(state: FileState, func: cst.FunctionDef, held: frozenset[str]) -> bool:
    """Could an `if` test (or a `try` body) of `func` read one of `held`, or a local given a value that mentions
    one? When not, no cache of them sits around a call of `func`: the per-call walks above are skipped. Facts
    read once per function (a sixth of a scan went into those walks, benchmark 3)."""
    tested = _per_function(state, func, "tested", _tested)
    if held & tested:
        return True
    assigned = cast(frozenset, _per_function(state, func, "assigns", _assigns))
    reached, grown = set(held), True
    while grown:
        grown = False
        for target, mentioned in assigned:
            if target not in reached and mentioned & reached:
                reached.add(target)
                grown = True
    return bool(reached & tested)


def _tested(func: cst.FunctionDef) -> frozenset[str]:
    """What `func`'s `if` tests read (names, attribute chains, `hasattr`/`getattr` pairs), its `try` bodies, the
    tests of its conditional expressions and the left sides of its `or`s."""
    found: set[str] = set()

    class Tests(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            found.update(_mentions(node.test) | _asked_attributes(node.test))

        def visit_Try(self, node: cst.Try) -> None:
            found.update(_mentions(node.body))

        def visit_IfExp(self, node: cst.IfExp) -> None:  # `_CACHE[key] if key in _CACHE else <read>`
            found.update(_mentions(node.test))

        def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
            if isinstance(node.operator, cst.Or):  # `_CACHE.get(key) or await _read(ctx)`
                found.update(_mentions(node.left))

    read(func.body, Tests())
    return frozenset(found)


def _assigns(func: cst.FunctionDef) -> frozenset:
    """`(name, what its value reads)` for each `name = value` of `func`."""
    found: set[tuple[str, frozenset[str]]] = set()

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            target = node.targets[0].target if len(node.targets) == 1 else None
            if isinstance(target, cst.Name):
                found.add((target.value, frozenset(_mentions(node.value) | _asked_attributes(node.value))))

    read(func.body, Assigns())
    return frozenset(found)


def _mentions(node: cst.CSTNode) -> set[str]:
    """The names `node` reads, and its attribute chains on names (`app.workspaces`, `self._by_session`)."""
    found = {n.value for n in _names(node)}

    class Chains(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            chain = dotted(attribute)
            if chain is not None:
                found.add(chain)

    read(node, Chains())
    return found


def _per_function(
    state: FileState, func: cst.FunctionDef, name: str, fact: Callable[[cst.FunctionDef], frozenset[str]]
) -> frozenset[str]:
    """`fact(func)`, once per function and fact: asked at every call of the function (`kept_calls.kept_call`),
    and the same for each."""
    cache = state.extra.setdefault("memo_facts", {})
    key = (func, name)
    found = cache.get(key)
    if found is None:
        found = cache[key] = fact(func)
    return cast(frozenset, found)


def _filled_attributes(func: cst.FunctionDef) -> frozenset[str]:
    """The attribute chains `func` fills as containers (`app.workspaces[key] = ...`, `.setdefault(...)`)."""
    filled: set[str] = set()

    class Fills(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            target = node.target
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Attribute):
                chain = dotted(target.value)
                filled.update([chain] if chain is not None else [])

        def visit_Call(self, node: cst.Call) -> None:
            call = node.func
            if (
                isinstance(call, cst.Attribute)
                and isinstance(call.value, cst.Attribute)
                and call.attr.value in _FILLS
            ):
                chain = dotted(call.value)
                filled.update([chain] if chain is not None else [])

    read(func.body, Fills())
    return frozenset(filled)


def _filled_containers(state: FileState) -> frozenset[str]:
    """Names bound at module level to a container literal or constructor that some code of the module fills."""
    cached = state.extra.get("filled_containers")
    if cached is not None:
        return cached
    module = state.wrapper.module
    bound: set[str] = set()
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                value, targets = small.value, [t.target for t in small.targets]
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                value, targets = small.value, [small.target]
            else:
                continue
            if not _is_container(value):
                continue
            bound |= {t.value for t in targets if isinstance(t, cst.Name)}
    filled: set[str] = set()
    if bound:

        class Fills(cst.CSTVisitor):
            def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
                target = node.target
                if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                    filled.add(target.value.value)

            def visit_Call(self, node: cst.Call) -> None:
                func = node.func
                if (
                    isinstance(func, cst.Attribute)
                    and isinstance(func.value, cst.Name)
                    and func.attr.value in _FILLS
                ):
                    filled.add(func.value.value)

        state.walk(module, Fills())
    result = frozenset(bound & filled)
    state.extra["filled_containers"] = result
    return result


def attribute_memo(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """An attribute of a session the function fills when absent, around `node` or returned before it: `if not
    hasattr(session, "workspace_dir"): ...read...; session.workspace_dir = ...` (the SDK's session outlives the
    request: session 15's sweep C, r04). (the attribute, line)."""
    func = state.function
    if func is None:
        return None
    # In a module without the SDK, an attribute of a module-level object too (`SETTINGS.workspace`: the cache
    # analysis, MR212, does not know such a read for one: sweep M, r03).
    objects = set() if state.extra.get("imports_sdk") else _module_objects(state)
    filled = _per_function(state, func, "assigned", lambda f: _assigned_attributes(f, objects))
    if not filled or not _may_test(state, func, filled):
        return None
    # Locals given such an attribute's value first (`cached = getattr(ctx.session, "_dir", None)`).
    held = {chain: chain for chain in filled}
    for stmt in func.body.body if isinstance(func.body, cst.IndentedBlock) else ():
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and len(small.targets) == 1:
                target = small.targets[0].target
                source = (_mentions(small.value) | _asked_attributes(small.value)) & filled
                if isinstance(target, cst.Name) and source:
                    held[target.value] = sorted(source)[0]

    def tested(test: cst.BaseExpression) -> list[str]:
        return sorted(held[n] for n in _mentions(test) | _asked_attributes(test) if n in held)

    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and child is not func:
        if isinstance(current, cst.If) and child is not current.test and tested(current.test):
            return tested(current.test)[0], state.pos(current)[0]
        body = getattr(current, "body", None)
        if isinstance(body, (list, tuple)) and child in body:
            for stmt in body[: body.index(child)]:
                if isinstance(stmt, cst.If) and _returns(stmt.body) and tested(stmt.test):
                    return tested(stmt.test)[0], state.pos(stmt)[0]
        child, current = current, state.parent(current)
    return None


def _assigned_attributes(
    func: cst.FunctionDef, objects: set[str] | frozenset[str] = frozenset()
) -> frozenset[str]:
    """`session.a = ...` and `setattr(ctx.session, "a", ...)` in `func`, as `session.a`: attributes set on a
    session (classes, instances and the lifespan value are MR212's and MR211's, which name them otherwise), or
    on one of `objects` (module-level names)."""
    found: set[str] = set()

    def on_session(chain: str | None) -> bool:
        if chain is None:
            return False
        parts = chain.split(".")
        return parts[0] in objects or any(part.endswith("session") for part in parts[:-1])

    class Sets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            chain = dotted(node.target) if isinstance(node.target, cst.Attribute) else None
            if chain is not None and on_session(chain):
                found.add(chain)

        def visit_Call(self, node: cst.Call) -> None:
            pair = _named_attribute(node, "setattr")
            if pair is not None and on_session(pair):
                found.add(pair)

    read(func.body, Sets())
    return frozenset(found)


def _asked_attributes(test: cst.BaseExpression) -> set[str]:
    """`hasattr(x, "a")` / `getattr(x, "a", None)` in a test, as `x.a`."""
    found: set[str] = set()

    class Asks(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            for name in ("hasattr", "getattr"):
                pair = _named_attribute(node, name)
                if pair is not None:
                    found.add(pair)

    read(test, Asks())
    return found


def _named_attribute(node: cst.Call, function: str) -> str | None:
    if not (isinstance(node.func, cst.Name) and node.func.value == function and len(node.args) >= 2):
        return None
    holder, name = dotted(node.args[0].value), node.args[1].value
    if holder is None or not isinstance(name, cst.SimpleString) or not isinstance(name.evaluated_value, str):
        return None
    return f"{holder}.{name.evaluated_value}"


def _module_objects(state: FileState) -> set[str]:
    """Names the module binds to an object at its top level, or imports (`from .config import SETTINGS`)."""
    found: set[str] = set()
    for statement in state.wrapper.module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                found |= {t.target.value for t in small.targets if isinstance(t.target, cst.Name)}
            elif isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                for alias in small.names:
                    bound = alias.asname.name if alias.asname is not None else alias.name
                    if isinstance(bound, cst.Name):
                        found.add(bound.value)
    return found
