"""Tools built at run time (program/keyed.py reads these facts): which parameters a synthesized `__signature__`
surely declares, and which module functions are used otherwise than called from a function's body."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import libcst as cst
from libcst.metadata import Scope

from migrate_roots.codemods._plumbing_queries import _strings_in
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.bindings import plain_assignments
from migrate_roots.codemods.program.flow import _names
from migrate_roots.codemods.program.flow import returns_in as flow_returns

_UNSURE: tuple[type[cst.CSTNode], ...] = (
    *(cst.IfExp, cst.BooleanOperation, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp),
    *(cst.For, cst.While, cst.Lambda, cst.Try),
)


def sure_value(value: cst.BaseExpression) -> bool:
    """A `__signature__` value built plainly: no conditional, comprehension (`[p for p in params if ...]`) or
    `.replace(...)` that could leave a parameter out."""
    found: list[cst.CSTNode] = []

    class Unsure(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, _UNSURE) or (
                isinstance(node, cst.Attribute) and node.attr.value in ("replace", "remove", "pop")
            ):
                found.append(node)
            return not found

    read(value, Unsure())
    return not found


def declared(factory: cst.FunctionDef) -> frozenset[str]:
    """Names given `inspect.Parameter("K", ...)` in `factory`'s own body that surely run: in a function with one
    `return`, not in a loop, comprehension, conditional expression, `try` or `lambda`, and not under an `if`
    unless its test is about that very name (`if not already_has_project_dir:`, set from `... ==
    "project_dir"`); nothing in the function removes a parameter (`.remove`, `.pop`, `.replace`)."""
    if len(flow_returns(factory.body)) > 1:
        return frozenset()
    out: set[str] = set()
    tests: list[cst.BaseExpression] = []
    assigned: dict[str, list[cst.BaseExpression]] = {}
    for name, value, _ in plain_assignments(factory):
        assigned.setdefault(name, []).append(value)

    unsure = 0

    def about(test: cst.BaseExpression, key: str) -> bool:
        strings = _strings_in(test)
        for n in _names(test):
            for value in assigned.get(n.value, ()):
                strings |= _strings_in(value)
        return key in strings

    class Params(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is factory

        def visit_If(self, node: cst.If) -> bool:
            tests.append(node.test)
            read(node.body, self)
            tests.pop()
            if node.orelse is not None:
                tests.append(node.test)
                read(node.orelse, self)
                tests.pop()
            return False

        def visit_Call(self, node: cst.Call) -> None:
            key = parameter_name(node)
            if key is not None and all(about(t, key) for t in tests) and not unsure:
                out.add(key)

        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal unsure
            if isinstance(node, _UNSURE):
                unsure += 1
            return super().on_visit(node)

        def on_leave(self, original_node: cst.CSTNode) -> None:
            nonlocal unsure
            if isinstance(original_node, _UNSURE):
                unsure -= 1
            super().on_leave(original_node)

    read(factory, Params())
    body_sure = all(sure_call(c) for c in calls_in(factory))
    return frozenset(out) if body_sure else frozenset()


def sure_call(call: cst.Call) -> bool:
    """Not a call that removes or replaces parameters (`params.remove(p)`, `params.pop()`, `sig.replace(...)`)."""
    func = call.func
    return not (isinstance(func, cst.Attribute) and func.attr.value in ("replace", "remove", "pop", "clear"))


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """The calls in `node`, not in functions nested in it."""
    out: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

        def visit_Call(self, n: cst.Call) -> None:
            out.append(n)

    read(node, Calls())
    return out


def parameter_name(call: cst.Call) -> str | None:
    """ "K" of `inspect.Parameter("K", ...)` / `Parameter(name="K", ...)`: a synthesized signature's parameter."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if name != "Parameter":
        return None
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value == "name":
            return literal(arg.value)
    return None


def value_uses(
    state: FileState, fq: Callable[[cst.CSTNode], Iterable[str]]
) -> tuple[frozenset[str], tuple[tuple[str, str], ...]]:
    """Dotted names of the module's functions and imported names used otherwise than called from a function's
    body: handed on as a value (`functools.partial(helper, ctx)`, `run(helper)`), or called at module level
    (`asyncio.run(_invoke({}, None))` under `if __name__ == "__main__":`). `fq(node)`: a node's dotted names.

    Also, from the same walk, (dotted name, where: `server.py:11`) of the functions stored under another name:
    `workspace_dir = first_root`, an annotated assignment, an element of a literal (`HANDLERS = {"a":
    first_root}`), or bound by `functools.partial`. A call made through that name passes no path argument a plan
    would thread."""
    from libcst.metadata import ComprehensionScope, FunctionScope

    scope = state.scope(state.wrapper.module)
    if scope is None:
        return frozenset(), ()
    out: set[str] = set()
    stored: dict[str, str] = {}
    for assignment in scope.assignments:
        node = getattr(assignment, "node", None)
        if not isinstance(node, (cst.FunctionDef, cst.ImportAlias, cst.Import, cst.ImportFrom)):
            continue
        storable = isinstance(node, (cst.FunctionDef, cst.ImportAlias))
        for access in assignment.references:
            used: cst.CSTNode = access.node
            parent = state.parent(used)
            if storable and _stored(used, parent, state):
                for name in fq(used):
                    stored.setdefault(name, _where(state, used))
            if isinstance(parent, cst.Attribute) and parent.value is used:
                used, parent = parent, state.parent(parent)
            within = state.scope(used)
            while isinstance(within, ComprehensionScope):
                within = within.parent
            if isinstance(parent, cst.Call) and parent.func is used and isinstance(within, FunctionScope):
                continue
            if isinstance(parent, (cst.Decorator, cst.Attribute)):
                continue  # a decorator registers (the model reads it); `mod.x.y` is another name
            out |= set(fq(used))
    return frozenset(out), tuple(sorted(stored.items()))


def rebound(state: FileState, fq: Callable[[cst.CSTNode], Iterable[str]]) -> tuple[tuple[str, str], ...]:
    """(dotted name, where: `server.py:19`) of the functions whose name the module, or their class, binds again
    (`if cond: _dir = _dir_v2`, an import of the name): the calls may reach the other function, which may not
    take the path argument a plan would thread (sweep Z, r30)."""
    module = state.scope(state.wrapper.module)
    if module is None:
        return ()
    scopes: list[Scope] = [module]
    for statement in state.wrapper.module.body:
        if isinstance(statement, cst.ClassDef) and statement.body.body:
            inner = state.scope(statement.body.body[0])
            if inner is not None and inner is not module:
                scopes.append(inner)
    found: dict[str, str] = {}
    for scope in scopes:
        for assignment in scope.assignments:
            node = getattr(assignment, "node", None)
            if not isinstance(node, cst.FunctionDef):
                continue
            for other in scope.assignments[assignment.name]:
                bound = getattr(other, "node", None)
                if (
                    other is not assignment
                    and isinstance(bound, (cst.Name, cst.ImportAlias, cst.Import, cst.ImportFrom))
                    and state.parent(bound) is not None
                ):
                    for name in fq(node.name):
                        found.setdefault(name, _where(state, bound))
    return tuple(sorted(found.items()))


def _where(state: FileState, node: cst.CSTNode) -> str:
    """`server.py:11`: the file's name and the line of `node`."""
    return f"{state.path.replace(chr(92), '/').rpartition('/')[2]}:{state.pos(node)[0]}"


def _stored(used: cst.CSTNode, parent: cst.CSTNode | None, state: FileState) -> bool:
    return (
        (
            isinstance(parent, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.NamedExpr))
            and getattr(parent, "value", None) is used
        )
        or isinstance(parent, (cst.Element, cst.DictElement, cst.StarredElement))
        or _partial_of(used, state)
    )


def _partial_of(used: cst.CSTNode, state: FileState) -> bool:
    """`functools.partial(helper, ctx)`: the helper bound to some of its arguments, called later without the
    path argument a plan would thread (B's r12)."""
    arg = state.parent(used)
    call = state.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call) or not call.args or call.args[0] is not arg:
        return False
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    return name in ("partial", "partialmethod")


def literal(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        return text if isinstance(text, str) and text.isidentifier() else None
    return None
