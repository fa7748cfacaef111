"""A roots read whose every failure is absorbed, in a server whose low-level call handler already takes an
explicit path argument of its own (cartogate: `arguments.pop("workspace_root", None)` in `_call_tool`, and
`_repo_from_client_roots` reached from there only through a resolver kept as a value).

    try:
        with anyio.fail_after(5):
            result = await session.list_roots()
    except Exception:  # no roots support, or a slow client: degrade
        return None

Rewritten to `list_roots_compat(session, None, name="workspace_root")`, no argument added anywhere. Whoever
reaches the read, every client gets what it got: a legacy client with roots the same roots/list; any other
client an error (the client's, a `NoBackChannelError`, or now the shim's), which the handler absorbs as before.
The server's own argument is the explicit path; the shim's error names it. Strict on purpose:
- every read of the function that is not refused is such a read, the nearest `try` around it catching
  `Exception` (or `BaseException`, or everything) in a handler that raises nothing;
- no tool reaches the function in the plan, and the model's reason is that it is kept as a value and called
  later (`_roots_plan`): a handler or a once-flag keeps its own marker;
- the import root's low-level call handlers take out exactly one path-like key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_model import Func, Summary, import_root
from migrate_roots.codemods.base import FileState

Key = tuple[str, str]

_BROAD = frozenset({"Exception", "BaseException"})


def absorbed(call: cst.Call, state: FileState) -> bool:
    """The nearest `try` around `call` (in its function) has a broad handler that raises nothing."""
    child: cst.CSTNode = call
    current = state.parent(call)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda, cst.Module)):
        if isinstance(current, cst.Try) and child is current.body:
            return any(_broad(h) and not _raises(h) for h in current.handlers)
        if isinstance(current, (cst.ExceptHandler, cst.Finally)) or (
            isinstance(current, cst.Try) and child is not current.body
        ):
            return False  # in a handler, `else` or `finally`: nothing absorbs it there
        child, current = current, state.parent(current)
    return False


def _broad(handler: cst.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
    for kind in kinds:
        value = kind.value if isinstance(kind, cst.Element) else kind
        if isinstance(value, cst.Name) and value.value in _BROAD:
            return True
    return False


def _raises(handler: cst.ExceptHandler) -> bool:
    found = False

    class Raises(cst.CSTVisitor):
        def visit_Raise(self, node: cst.Raise) -> None:
            nonlocal found
            found = True

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    read(handler.body, Raises())
    return found


def own_keys(
    func: cst.FunctionDef, constant: Callable[[cst.Name], cst.BaseExpression | None]
) -> frozenset[str]:
    """The literal keys a low-level call handler `func(name, arguments)` reads out of `arguments` in a
    statement of its own body (`root_arg = arguments.pop(WORKSPACE_ROOT_PARAM, None)`, `.get("root")`).
    `constant(name)` is the module constant's value (a `cst.SimpleString`) or None."""
    params = [p.name.value for p in func.params.params]
    if len(params) < 2 or not isinstance(func.body, cst.IndentedBlock):
        return frozenset()
    held = params[-1]
    keys: set[str] = set()
    for statement in func.body.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            value = small.value if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
            if not (
                isinstance(value, cst.Call)
                and isinstance(value.func, cst.Attribute)
                and value.func.attr.value in ("pop", "get")
                and isinstance(value.func.value, cst.Name)
                and value.func.value.value == held
                and value.args
            ):
                continue
            key: cst.BaseExpression | None = value.args[0].value
            if isinstance(key, cst.Name):
                key = constant(key)
            if isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str):
                keys.add(key.evaluated_value)
    return frozenset(keys)


def plan_reads(
    by_key: Mapping[Key, tuple[str, Func]],
    summaries: Mapping[str, Summary],
    reach: set[Key],
    path_like: Callable[[str], bool],
    kept_value: Callable[[Key], bool],
) -> dict[Key, str]:
    """Function -> the server's own key its absorbed reads name (they pass None; nothing gains an argument)."""
    own: dict[str, set[str]] = {}
    for summary in summaries.values():
        keys = {k for k in summary.own_keys if path_like(k)}
        if keys:
            own.setdefault(import_root(summary), set()).update(keys)
    out: dict[Key, str] = {}
    for key, (_, func) in sorted(by_key.items()):
        keys = own.get(key[0], set())
        if len(keys) != 1 or key in reach or func.refusal is not None or func.tool is not None:
            continue
        sites = [s for s in func.sites if s.refusal is None and not s.done]
        if sites and all(s.absorbed for s in sites) and kept_value(key):
            out[key] = next(iter(keys))
    return out
