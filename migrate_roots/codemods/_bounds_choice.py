"""A call of a value chosen at run time among classes (or functions) of the project, for the roots-bound analysis
(sweep P r01 of session 22): `BOXES[area](root)` with `BOXES = {"notes": Sandbox, "docs": DocsSandbox}`,
`BOXES.get(area, Sandbox)(root)`, `(DocsSandbox if docs else Sandbox)(root)`, `cls = ...; cls(root)`. The bound
analysis (`_bounds_refuse`) treats it as a call of each candidate: the bound holds if any of them holds one. So
is `super().__init__(base / "docs", rel)` (`SUPER`): a call of the base's `__init__` (sweep P r05).

A value it cannot tell at all (a parameter, a call's result, a subscript of anything but a module-level literal)
is an `UNKNOWN` candidate: the plan marks the read (MR109) when roots reach such a call and a class of the
project holds a bound, since the value may be that class. A method called on an attribute (`self.factory(root)`)
is not asked: it stays the usual resolution.
"""

from __future__ import annotations

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods._roots_handed_to import _fq, _short_code
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.bindings import all_bindings

UNKNOWN = "?"  # the candidate a value migrate-roots cannot tell stands for (then the call as written)
SUPER = "^"  # `super().m(...)` (then the class's method): the next class of its MRO that defines `m`
_DEPTH = 4  # choices nested in choices, names bound to names
_COLLECTIONS = (cst.Dict, cst.List, cst.Tuple, cst.Set)
# A nested function or class, an import: called by its name, the usual way.
_NAMED = (cst.FunctionDef, cst.ClassDef, cst.Import, cst.ImportFrom)


def chosen(call: cst.Call, state: FileState) -> tuple[str, ...] | None:
    """The candidates `call.func` may be: dotted names, and `UNKNOWN` when some of it cannot be told; None for a
    callee named the usual way (a function, a class, an alias of one, an attribute)."""
    target = call.func
    if isinstance(target, cst.Attribute):
        above = _super_method(target, state)
        return (above,) if above else None
    if isinstance(target, cst.Name) and not _local_or_chosen(target, state):
        return None
    found = _candidates(target, state, 0)
    if UNKNOWN in found:  # ... said by the call as written
        found = (found - {UNKNOWN}) | {UNKNOWN + _short_code(state, target)}
    return tuple(sorted(found)) if found else None


def _super_method(target: cst.Attribute, state: FileState) -> str | None:
    """`super().__init__(base / "docs", rel)` in a method of `Docs`: `SUPER` + `pkg.mod.Docs.__init__`, the method
    of the next class of its MRO that defines it (the plan reads the MRO: `_bounds_classes`)."""
    inner = target.value
    if not (isinstance(inner, cst.Call) and isinstance(inner.func, cst.Name) and inner.func.value == "super"):
        return None
    owner = next((item for item in reversed(state.stack) if isinstance(item, cst.ClassDef)), None)
    if owner is None or (inner.args and not _names_class(inner.args[0].value, owner)):
        return None  # `super(Other, self)`: another class's next one
    return f"{SUPER}{state.module}.{state.qualname(owner)}.{target.attr.value}"


def _names_class(node: cst.BaseExpression, owner: cst.ClassDef) -> bool:
    return isinstance(node, cst.Name) and node.value == owner.name.value


def _local_or_chosen(name: cst.Name, state: FileState) -> bool:
    """`name` is a parameter or a local of the function, or a module-level name bound once to a choice."""
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return False
    assignments = list(scope[name.value])
    if not isinstance(scope, GlobalScope):
        named = any(isinstance(getattr(a, "node", None), _NAMED) for a in assignments)
        return bool(assignments) and all(a.scope is scope for a in assignments) and not named
    return _choice(_module_value(name, state))


def _choice(value: cst.BaseExpression | None) -> bool:
    """A module-level value that chooses: a conditional, `a or b`, a lookup in a collection (`BOXES["docs"]`,
    `BOXES.get(...)`); not a call of anything else, whose result is not followed (the usual resolution)."""
    if isinstance(value, cst.Call):
        func = value.func
        return (
            isinstance(func, cst.Attribute) and func.attr.value == "get" and isinstance(func.value, cst.Name)
        )
    return isinstance(value, (cst.IfExp, cst.BooleanOperation, cst.Subscript))


def _candidates(node: cst.BaseExpression, state: FileState, depth: int) -> set[str]:
    if depth > _DEPTH:
        return {UNKNOWN}
    if isinstance(node, cst.IfExp):
        return _candidates(node.body, state, depth + 1) | _candidates(node.orelse, state, depth + 1)
    if isinstance(node, cst.BooleanOperation):  # `custom or Sandbox`
        return _candidates(node.left, state, depth + 1) | _candidates(node.right, state, depth + 1)
    if isinstance(node, cst.Subscript):  # `BOXES[area]`
        items = _collection(node.value, state)
        return _each(items, state, depth) if items is not None else {UNKNOWN}
    if isinstance(node, cst.Call):  # `BOXES.get(area, Sandbox)`
        func = node.func
        items = _collection(func.value, state, dicts_only=True) if isinstance(func, cst.Attribute) else None
        if items is None or func.attr.value != "get":  # type: ignore[attr-defined]
            return {UNKNOWN}
        default = [node.args[1].value] if len(node.args) > 1 else []
        return _each([*items, *default], state, depth)
    if isinstance(node, cst.Name):
        return _name(node, state, depth)
    if isinstance(node, cst.Attribute):
        return _fq(state, node) or {UNKNOWN}
    return {UNKNOWN}


def _each(items: list[cst.BaseExpression], state: FileState, depth: int) -> set[str]:
    out: set[str] = set()
    for item in items:
        out |= _candidates(item, state, depth + 1)
    return out


def _name(name: cst.Name, state: FileState, depth: int) -> set[str]:
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return _fq(state, name) or {UNKNOWN}
    if isinstance(scope, GlobalScope):
        value = _module_value(name, state)
        if _choice(value):
            return _candidates(value, state, depth + 1)  # type: ignore[arg-type]
        return _fq(state, name) or {UNKNOWN}  # a class, a function, an import, an alias: named as usual
    func = state.enclosing_function(name)
    local = [a for a in scope[name.value] if a.scope is scope]
    if func is None or not local or any(isinstance(getattr(a, "node", None), _NAMED) for a in local):
        return _fq(state, name) or {UNKNOWN}  # a name of an enclosing function or the module, a nested def
    bindings = all_bindings(name.value, func, state)
    if not bindings or any(kind != "plain" for _, _, kind in bindings):
        return {UNKNOWN}  # a parameter, a loop variable, an unpacked value
    out: set[str] = set()
    for _, value, _ in bindings:
        out |= _candidates(value, state, depth + 1)
    return out


def _module_value(name: cst.Name, state: FileState) -> cst.BaseExpression | None:
    """The value a module-level name is bound to, when one plain assignment binds it."""
    scope = state.scope(name)
    found = scope.globals if scope is not None else None
    assignments = list(found[name.value]) if found is not None and name.value in found else []
    node = getattr(assignments[0], "node", None) if len(assignments) == 1 else None
    parent = state.parent(node) if node is not None else None
    owner = state.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
    if isinstance(owner, cst.Assign) and len(owner.targets) == 1:
        return owner.value
    if isinstance(owner, cst.AnnAssign) and owner.target is node:
        return owner.value
    return None


def _collection(
    node: cst.BaseExpression, state: FileState, dicts_only: bool = False
) -> list[cst.BaseExpression] | None:
    """The values of a module-level literal a name is bound to once (`BOXES = {"notes": Sandbox, ...}`, a
    list or tuple of classes), when the module never changes it in place (`BOXES["x"] = Other`,
    `BOXES.update(...)`): else the values are not all known."""
    if not isinstance(node, cst.Name):
        return None
    value = _module_value(node, state)
    kinds = (cst.Dict,) if dicts_only else _COLLECTIONS
    if not isinstance(value, kinds) or _changed(node, state):
        return None
    if isinstance(value, cst.Dict):
        out = [e.value for e in value.elements if isinstance(e, cst.DictElement)]
        return out if len(out) == len(value.elements) else None
    items = [e.value for e in value.elements if isinstance(e, cst.Element)]
    return items if len(items) == len(value.elements) else None


_READS = frozenset({"get", "keys", "values", "items", "copy", "index", "count"})
_READERS = frozenset({"sorted", "list", "tuple", "set", "dict", "len", "iter", "enumerate", "repr", "str"})


def _reads_only(call: cst.CSTNode | None) -> bool:
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value in _READERS


def _changed(name: cst.Name, state: FileState) -> bool:
    """A use of the module-level `name` other than a lookup: it may be filled anew, or handed out to be."""
    scope = state.scope(name)
    found = scope.globals if scope is not None else None
    if found is None:
        return True
    for access in found.accesses[name.value]:
        parent = state.parent(access.node)
        if isinstance(parent, cst.Subscript) and parent.value is access.node:
            grand = state.parent(parent)
            if isinstance(grand, (cst.AssignTarget, cst.AugAssign, cst.Del)):
                return True
            continue
        if isinstance(parent, cst.Attribute) and parent.value is access.node:
            if parent.attr.value not in _READS:
                return True
            continue
        if isinstance(parent, (cst.ComparisonTarget, cst.CompFor, cst.For)):
            continue  # `area in BOXES`, `for kind in BOXES`
        if isinstance(parent, cst.Arg) and _reads_only(state.parent(parent)):
            continue  # `sorted(BOXES)`; handed to any other call, it may be changed there
        return True
    return False
