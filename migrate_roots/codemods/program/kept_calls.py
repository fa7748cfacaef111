"""A value kept beyond the call that a roots read fills: `X.setdefault(key, <read>)` on a holder that outlives
the call (sweep T, session 17, r05). With a path argument at the read, the first caller's value would be served
to every later call."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._plumbing_state import _attribute_base, _is_local
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import bindings
from migrate_roots.codemods.program.flow import dotted


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


def _outliving(value: cst.BaseExpression, func: cst.FunctionDef, state: FileState) -> str | None:
    """`value` as written, when it names a holder that outlives a call of `func`; else None."""
    if isinstance(value, cst.Name):
        return None if bindings._fresh(value.value, func, state) else value.value
    if isinstance(value, cst.Attribute):
        base = _attribute_base(value)
        if isinstance(base, cst.Name) and not _is_local(base, func, state):
            return dotted(value) or state.wrapper.module.code_for_node(value)
    return None
