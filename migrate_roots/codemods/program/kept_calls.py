"""A value kept beyond the call that a roots read (or a call that leads to one) fills: `X.setdefault(key,
<read>)` on a holder that outlives the call, and the helper-filled forms of MR211's fetch-once caches (`if k not
in _CACHE: _CACHE[k] = await helper(ctx)`, a default-argument dict, `cls._by[k]`): sweep T (session 17), r04
and r05. With a path argument at the read, the first caller's value would be served to every later call."""

from __future__ import annotations

import ast

import libcst as cst

from migrate_roots.codemods._plumbing_queries import _calls_in
from migrate_roots.codemods._plumbing_state import _attribute_base, _is_local
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import bindings, on_disk
from migrate_roots.codemods.program import memo as kept_values
from migrate_roots.codemods.program.flow import _names as flow_names
from migrate_roots.codemods.program.flow import dotted

# kind -> how the caller's cache keeps the call's value (the read's marker, codemods/_kept_on_way.py).
KINDS = ("returned", "empty", "absent", "setdefault", "disk", "disk_tried", "store")


def setdefault_holder(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """`holder.setdefault(key, <node>)` (also inside `d.get(k) or d.setdefault(...)`) where `holder` outlives
    the call: a module name, a default argument, a parameter, `cls.x` / `self.x` or another attribute whose
    base is not a local of the function. The first value set wins for every later call. (holder, line)."""
    func = state.function
    if func is None:
        return None
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        if isinstance(current, (cst.Assign, cst.AnnAssign)) and current.value is child:
            return _later_setdefault(
                current, func, state
            )  # `result = <read>`, then `_CACHE.setdefault(k, result)`
        if isinstance(current, (cst.BaseSmallStatement, cst.BaseCompoundStatement, cst.Lambda)):
            return None  # the statement holding the read ends the search; a lambda runs later, if ever
        if (
            isinstance(current, cst.Call)
            and isinstance(current.func, cst.Attribute)
            and current.func.attr.value == "setdefault"
            and len(current.args) >= 2
            and child is current.args[1]
        ):
            holder = _outliving(current.func.value, func, state)
            if holder is not None:
                return holder, state.pos(current)[0]
        child, current = current, state.parent(current)
    return None


def _later_setdefault(
    assign: cst.Assign | cst.AnnAssign, func: cst.FunctionDef, state: FileState
) -> tuple[str, int] | None:
    """`holder.setdefault(key, <value>)` later in `func`, on a holder that outlives the call, whose value is
    made of the locals `assign` binds or of locals made of them (`first = result.roots[0]`; sweep K r07 of
    session 22)."""
    targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
    tainted = {t.value for t in targets if isinstance(t, cst.Name)}
    first_line, last_line = state.pos(func)[0], state.end_line(func)
    if not tainted or not any(".setdefault(" in line for line in state.lines[first_line - 1 : last_line]):
        return None
    start = state.pos(assign)
    for name, value, node in bindings.plain_assignments(func):  # in the order they are written
        if state.pos(node) > start and {n.value for n in flow_names(value)} & tainted:
            tainted.add(name)
    for call in _calls_in(func, state):
        if (
            state.pos(call) > start
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "setdefault"
            and len(call.args) >= 2
            and {n.value for n in flow_names(call.args[1].value)} & tainted
            and not keyed_by(call.args[0].value, call.args[1].value, tainted)
        ):
            holder = _outliving(call.func.value, func, state)
            if holder is not None:
                return holder, state.pos(call)[0]
    return None


# What a key may be made of a value by without losing it: `_INDEXES.setdefault(str(found), ...)`.
_SAME_KEY = frozenset({"str", "Path", "os.fspath", "os.path.abspath", "os.path.realpath", "os.path.normpath"})
_SAME_KEY_METHODS = frozenset({"resolve", "absolute", "expanduser"})


def keyed_by(key: cst.BaseExpression, value: cst.BaseExpression, names: set[str]) -> bool:
    """`setdefault(key, value)` keyed by the read's value itself: `key` is one of `names` (the read's value),
    or it as a string or resolved path, and `value` is made of no other of `names`. A registry keyed by the
    root (`_INDEXES.setdefault(found, Index(found))`) keeps one entry per root: an explicit argument gets its
    own entry and no first value is served to later calls (sweep M r09 of session 22). A key that loses the
    value (`len(found)`, `bool(found)`), or a value made of more (`setdefault(roots[0], roots)`), is not."""
    while isinstance(key, cst.Call):
        func = key.func
        if isinstance(func, cst.Attribute) and func.attr.value in _SAME_KEY_METHODS and not key.args:
            key = func.value
        elif (
            dotted(func) in _SAME_KEY
            and len(key.args) == 1
            and not key.args[0].star
            and not key.args[0].keyword
        ):
            key = key.args[0].value
        else:
            return False
    made_of = {n.value for n in flow_names(value)} & names
    return isinstance(key, cst.Name) and key.value in names and made_of <= {key.value}


def source_keyed_by(key: ast.expr, value: ast.expr, names: set[str]) -> bool:
    """`keyed_by` for a module read with `ast` (`_setter_sources.first_wins_function`)."""
    made_of = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)} & names
    while isinstance(key, ast.Call):
        if isinstance(key.func, ast.Attribute) and key.func.attr in _SAME_KEY_METHODS and not key.args:
            key = key.func.value
        elif ast.unparse(key.func) in _SAME_KEY and len(key.args) == 1 and not key.keywords:
            key = key.args[0]
        else:
            return False
    return isinstance(key, ast.Name) and key.id in names and made_of <= {key.id}


def _outliving(value: cst.BaseExpression, func: cst.FunctionDef, state: FileState) -> str | None:
    """`value` as written, when it names a holder that outlives a call of `func`; else None."""
    if isinstance(value, cst.Call) and dotted(value.func) == "vars" and len(value.args) == 1:
        # `vars(self).setdefault("_project", <read>)`: the object's own attributes (sweep K r03 of session 22)
        held = _outliving(value.args[0].value, func, state)
        return state.wrapper.module.code_for_node(value) if held is not None else None
    if isinstance(value, cst.Name):
        return None if bindings._fresh(value.value, func, state) else value.value
    if isinstance(value, cst.Attribute):
        base = _attribute_base(value)
        if isinstance(base, cst.Name) and not _is_local(base, func, state):
            return dotted(value) or state.wrapper.module.code_for_node(value)
    return None


def kept_call(call: cst.Call, state: FileState) -> tuple[str, int, str] | None:
    """A call whose value a cache of its function keeps beyond the request, the call being its filling: behind
    a cache tested and returned from before it, behind a fill-once guard of a holder that outlives the call, as
    `setdefault`'s value, only while a path of the module is not on disk, or behind a lookup in a `shelve` /
    `dbm` store of the module. (holder, line, kind in KINDS)."""
    if state.function is None or not _may_keep(state):
        return None
    found = kept_values.returned_cache(call, state)
    if found is not None:
        return found[0], found[1], "returned"
    found = bindings.memo_holder(call, state)
    if found is not None:
        return found[0], found[1], "empty"
    found = kept_values.attribute_memo(call, state)
    if found is not None:
        return found[0], found[1], "absent"
    found = setdefault_holder(call, state)
    if found is not None:
        return found[0], found[1], "setdefault"
    disk = on_disk.disk_guard(call, state)
    if disk is not None:
        return disk[0], disk[1], "disk" if disk[2] == "test" else "disk_tried"
    found = on_disk.store_guard(call, state)
    if found is not None:
        return found[0], found[1], "store"
    return None


def _may_keep(state: FileState) -> bool:
    """Does the function fill anything at all (an item assigned, a fill method called, an attribute set)?
    Most functions do not: the tree walks above are skipped for their calls (once per function)."""
    func = state.function
    assert func is not None
    cache = state.extra.setdefault("may_keep", {})
    found = cache.get(func)
    if found is None:
        start, end = state.pos(func)[0], state.end_line(func)
        text = "\n".join(state.lines[start - 1 : end])
        found = cache[func] = any(
            s in text
            for s in ("] =", ".setdefault(", ".append(", ".extend(", ".update(", ".add(", ".insert(")
        ) or any(s in text for s in ("exists(", "isfile(", "isdir(", "is_file(", "is_dir(", "setattr("))
        found = found or _sets_attribute(func)
    return bool(found)


def _sets_attribute(func: cst.FunctionDef) -> bool:
    """An attribute assigned anywhere in `func` (`session.workspace = ...`)."""
    from migrate_roots.codemods._read import read

    hits: list[bool] = []

    class Sets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            if isinstance(node.target, cst.Attribute):
                hits.append(True)

    read(func.body, Sets())
    return bool(hits)
