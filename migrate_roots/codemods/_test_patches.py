"""How tests swap a function (`monkeypatch.setattr`, `mock.patch`, `patch.object`): the replaced name and its
replacement, for the test doubles of a helper that gains a parameter (MR108)."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import last_name


def _string(node: cst.BaseExpression | None) -> str | None:
    value = node.evaluated_value if isinstance(node, cst.SimpleString) else None
    return value if isinstance(value, str) else None


def patch(
    call: cst.Call, state: FileState, fq: Callable[[cst.CSTNode], set[str]]
) -> tuple[str, cst.BaseExpression] | None:
    """(what is replaced, by what) for the usual ways tests swap a function:
    `monkeypatch.setattr(obj, "name", fake)` (and builtin `setattr`), `monkeypatch.setattr("pkg.mod.name", fake)`,
    `[mock.|mocker.]patch("pkg.mod.name", fake | new=fake | side_effect=fake)`, `patch.object(obj, "name", ...)`."""
    func = call.func
    called = last_name(func)
    if called not in ("setattr", "patch", "object"):
        return None
    args = [a.value for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    by_keyword = keywords.get("new") or keywords.get("side_effect")
    if called == "object":
        if not (isinstance(func, cst.Attribute) and last_name(func.value) == "patch"):
            return None
        called = "setattr"
    if called == "setattr" and len(args) >= 2 and _string(args[1]) is not None:
        owner = _owner(args[0], state, fq)
        value = args[2] if len(args) > 2 else by_keyword
        return (f"{owner}.{_string(args[1])}", value) if owner and value is not None else None
    dotted = _string(args[0]) if args else None
    value = args[1] if len(args) > 1 else by_keyword
    if dotted is None or "." not in dotted or value is None:
        return None
    return dotted, value


def _owner(node: cst.BaseExpression, state: FileState, fq: Callable[[cst.CSTNode], set[str]]) -> str | None:
    """The dotted name of a module or class object (`sys.modules[__name__]` is this module)."""
    if isinstance(node, cst.Subscript) and last_name(node.value) == "modules":
        index = node.slice[0].slice if len(node.slice) == 1 else None
        if (
            isinstance(index, cst.Index)
            and isinstance(index.value, cst.Name)
            and index.value.value == "__name__"
        ):
            return state.module
    names = fq(node)
    return min(names) if names else None
