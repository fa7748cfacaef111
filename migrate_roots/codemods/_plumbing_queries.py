"""Small tree queries of the plumbing analysis: pure functions of nodes (and the file's metadata) that say
what a test, call, statement or name is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_handed_to import _tool_decorator
from migrate_roots.codemods._roots_taken import taken_receiver
from migrate_roots.codemods.base import FileState

if TYPE_CHECKING:
    from migrate_roots.codemods._plumbing_base import _PlumbingBase


def _branch_kind(test: cst.BaseExpression, state: FileState) -> str | None:
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, cst.Equal):
            for a, b in ((test.left, target.comparator), (target.comparator, test.left)):
                if (
                    isinstance(a, cst.SimpleString)
                    and isinstance(b, cst.Attribute)
                    and b.attr.value == "method"
                ):
                    value = a.evaluated_value
                    if value in (_sdk.ROOTS_LIST_CHANGED_METHOD, _sdk.INITIALIZED_METHOD):
                        return str(value)
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, cst.Name)
        and test.func.value == "isinstance"
        and len(test.args) == 2
        and state.qnames(test.args[1].value) & _sdk.ROOTS_LIST_CHANGED_NOTIFICATIONS
    ):
        return _sdk.ROOTS_LIST_CHANGED_METHOD
    return None


def _is_site(call: cst.Call, state: FileState) -> bool:
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "list_roots" and not call.args:
        return _sdk.expr_kind(state, func.value) in (_sdk.SESSION, _sdk.FASTMCP_CONTEXT, _sdk.CAPTURED)
    # The method taken as a value first (`fn = getattr(ctx, "list_roots", None)`, then `await fn()`): the same
    # read to the roots-call rule, so the same read here (a cache it fills is a cache of roots).
    taken = taken_receiver(call, state) if isinstance(func, cst.Name) else None
    if taken is not None:
        return _sdk.expr_kind(state, taken) in (_sdk.SESSION, _sdk.FASTMCP_CONTEXT, _sdk.CAPTURED)
    shim = f"{state.settings.shim_module}.list_roots_compat"
    return any(q.endswith(shim) for q in state.qnames(func))


def _is_tool(state: FileState, decorator: cst.BaseExpression) -> bool:
    return _tool_decorator(state, decorator) is not None


def _handler_arg(call: cst.Call) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "handler":
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    return positional[2].value if len(positional) >= 3 else None


def _statement_of_call(call: cst.Call, state: FileState) -> cst.SimpleStatementLine | None:
    parent = state.parent(call)
    if isinstance(parent, cst.Await):
        parent = state.parent(parent)
    if isinstance(parent, cst.Expr):
        stmt = state.parent(parent)
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
            return stmt
    return None


def _discarded_statement(call: cst.Call, state: FileState) -> cst.SimpleStatementLine | None:
    """The statement line when a roots read's value is thrown away (`await ctx.session.list_roots()`)."""
    if not (isinstance(call.func, cst.Attribute) and call.func.attr.value == "list_roots"):
        return None
    return _statement_of_call(call, state)


def _called(expr: cst.BaseExpression) -> cst.Call | None:
    if isinstance(expr, cst.Await):
        expr = expr.expression
    return expr if isinstance(expr, cst.Call) else None


def _in_try(stmt: cst.CSTNode, stop: cst.CSTNode, state: FileState) -> bool:
    current = state.parent(stmt)
    while current is not None and current is not stop:
        if isinstance(current, (cst.Try, cst.TryStar)):
            return True
        current = state.parent(current)
    return False


def _contains(outer: cst.CSTNode, node: cst.CSTNode, state: FileState) -> bool:
    current: cst.CSTNode | None = node
    while current is not None:
        if current is outer:
            return True
        current = state.parent(current)
    return False


def _in_import(node: cst.CSTNode, state: FileState) -> bool:
    current: cst.CSTNode | None = node
    while current is not None:
        if isinstance(current, (cst.Import, cst.ImportFrom)):
            return True
        if isinstance(current, cst.BaseStatement):
            return False
        current = state.parent(current)
    return False


_PATTERN_CALLS = frozenset(
    {"filterwarnings", "simplefilter", "compile", "match", "search", "fullmatch", "sub"}
)


def _pattern_argument(node: cst.CSTNode, state: FileState) -> bool:
    """A string handed to a warnings filter or a regex function: it matches text, nobody reads it."""
    arg = state.parent(node)
    call = state.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call):
        return False
    func = call.func
    name = (
        func.attr.value
        if isinstance(func, cst.Attribute)
        else func.value
        if isinstance(func, cst.Name)
        else ""
    )
    return name in _PATTERN_CALLS


def _log_argument(node: cst.CSTNode, state: FileState) -> bool:
    """A string handed to a logger (`logger.debug("roots not supported: %s", e)`, `logging.warning(...)`): the
    operator's log, not what a model or user is told; a legacy client's fallback keeps it true."""
    arg = state.parent(node)
    while isinstance(arg, (cst.ConcatenatedString, cst.BinaryOperation)):
        arg = state.parent(arg)
    call = state.parent(arg) if isinstance(arg, cst.Arg) else None
    if not isinstance(call, cst.Call) or not isinstance(call.func, cst.Attribute):
        return False
    receiver = call.func.value
    while isinstance(receiver, cst.Attribute):
        receiver = receiver.attr if "log" in receiver.attr.value.lower() else receiver.value
    name = receiver.value if isinstance(receiver, cst.Name) else ""
    return call.func.attr.value in _LOG_CALLS and "log" in name.lower()


# Logger methods (the standard library's and structlog's/loguru's usual names).
_LOG_CALLS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "trace"})


def _our_description(node: cst.SimpleString, state: FileState) -> bool:
    """Text that migrate-roots itself wrote (the path parameter's description)."""
    from migrate_roots.codemods.roots_call import DESCRIPTION_MANY, DESCRIPTION_ONE

    whole: cst.CSTNode = node
    parent = state.parent(node)
    while isinstance(parent, cst.ConcatenatedString):
        whole, parent = parent, state.parent(parent)
    value = whole.evaluated_value if isinstance(whole, (cst.SimpleString, cst.ConcatenatedString)) else None
    if not isinstance(value, str):
        return False
    tails = {d.rsplit(". ", 1)[-1] for d in (DESCRIPTION_ONE, DESCRIPTION_MANY)}
    return value in (DESCRIPTION_ONE, DESCRIPTION_MANY) or any(value.endswith(t) for t in tails)


def _docstring_owner(node: cst.CSTNode, state: FileState) -> cst.CSTNode | None:
    """The module, class or function whose docstring `node` is, else None."""
    expr = state.parent(node)
    if not isinstance(expr, cst.Expr):
        return None
    line = state.parent(expr)
    if not isinstance(line, cst.SimpleStatementLine) or line.body[0] is not expr:
        return None
    block = state.parent(line)
    if isinstance(block, cst.Module):
        return block if block.body and block.body[0] is line else None
    if isinstance(block, cst.IndentedBlock) and block.body and block.body[0] is line:
        owner = state.parent(block)
        return owner if isinstance(owner, (cst.FunctionDef, cst.ClassDef)) else None
    return None


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    read(node, Names())
    return found


def _first(names: set[str]) -> str:
    return sorted(names)[0] if names else "?"


def _strings_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Strings(cst.CSTVisitor):
        def visit_SimpleString(self, n: cst.SimpleString) -> None:
            value = n.evaluated_value
            if isinstance(value, str):
                found.add(value)

    read(node, Strings())
    return found


def _assigned_names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Assigned(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            if isinstance(n.target, cst.Name):
                found.add(n.target.value)

    read(node, Assigned())
    return found


def _top_statements(func: cst.FunctionDef) -> list[cst.BaseStatement]:
    body = func.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []


def _all_simple_lines(node: cst.CSTNode) -> list[cst.SimpleStatementLine]:
    found: list[cst.SimpleStatementLine] = []

    class Lines(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, n: cst.SimpleStatementLine) -> None:
            found.append(n)

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return n is node

    read(node, Lines())
    return found


def _assigns_flag(small: cst.BaseSmallStatement, flags: set[str]) -> bool:
    if isinstance(small, cst.Assign) and len(small.targets) == 1:
        target = small.targets[0].target
        return isinstance(target, cst.Name) and target.value in flags
    return False


def _is_flag(name: str, plumbing: _PlumbingBase) -> bool:
    """Every assignment of `name` is True/False: a stale flag (or a once-per-process flag)."""
    values = []
    for node in plumbing.assignments(name):
        parent = plumbing.state.parent(node)
        assign = plumbing.state.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
        value = getattr(assign, "value", None)
        values.append(value)
    return bool(values) and all(isinstance(v, cst.Name) and v.value in ("True", "False") for v in values)


def _guard(func: cst.FunctionDef, caches: set[str], sites: list[cst.Call], state: FileState) -> cst.If | None:
    """The top-level `if` of `func` that tests only cache names and holds every roots read."""
    allowed = caches | {"None", "len", "not", "True", "False"}
    for stmt in _top_statements(func):
        if not isinstance(stmt, cst.If) or stmt.orelse is not None:
            continue
        used = _names(stmt.test)
        if not used or not used <= allowed or not (used & caches):
            continue
        if all(_contains(stmt.body, s, state) for s in sites):
            return stmt
    return None


def _fetcher_use_ok(
    func: cst.FunctionDef,
    guard: cst.If,
    node: cst.CSTNode,
    name: str,
    flag: bool,
    state: FileState,
    seeded: bool = False,
) -> bool:
    """A use of a cache name inside a fetching function that the rewrite keeps correct. `seeded`: the module
    gives the cache a literal start value, which the rewrite puts where the guard was, so any use from the
    guard on reads a bound local (`_root = None`, then `if roots: _root = ...` deeper down)."""
    if _contains(guard.test, node, state):
        return True
    if isinstance(state.parent(node), cst.Global) or isinstance(
        state.parent(state.parent(node) or node), cst.Global
    ):
        return True
    parent = state.parent(node)
    target_of = state.parent(parent) if isinstance(parent, cst.AssignTarget) else None
    if flag:
        # A flag may only be assigned a literal (the assignment goes).
        return isinstance(target_of, cst.Assign) and isinstance(target_of.value, cst.Name)
    # A cache must be assigned at the top of the guard's body, and read only after that assignment.
    assigned = [
        s
        for s in guard.body.body
        if isinstance(s, cst.SimpleStatementLine)
        and len(s.body) == 1
        and isinstance(s.body[0], cst.Assign)
        and any(isinstance(t.target, cst.Name) and t.target.value == name for t in s.body[0].targets)
    ]
    if not assigned:
        return seeded and state.pos(node) >= state.pos(guard)
    first = state.pos(assigned[0])[0]
    return state.pos(node)[0] >= first


def _mentions_site(value: cst.BaseExpression, func: cst.FunctionDef, owner: _PlumbingBase) -> bool:
    """Does `value` hold a roots read (directly, or through a name bound from one in `func`)?"""
    state = owner.state
    found = False

    class Sites(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            if _is_site(n, state):
                found = True

    read(value, Sites())
    if found:
        return True
    derived = _derived_from_sites(func, state)
    return bool(_names(value) & derived)


def _calls_in(node: cst.CSTNode, state: FileState) -> list[cst.Call]:
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            found.append(n)

    state.walk(node, Calls())
    return found


def _derived_from_sites(func: cst.FunctionDef, state: FileState) -> set[str]:
    cache: dict[cst.FunctionDef, set[str]] = state.extra.setdefault("roots-plumbing-derived", {})
    if func not in cache:
        cache[func] = _derive(func, state)
    return cache[func]


def _derive(func: cst.FunctionDef, state: FileState) -> set[str]:
    names: set[str] = set()

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            holds = False

            class Sites(cst.CSTVisitor):
                def visit_Call(self, n: cst.Call) -> None:
                    nonlocal holds
                    if _is_site(n, state):
                        holds = True

            read(node.value, Sites())
            if holds or (_names(node.value) & names):
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        names.add(target.target.value)

    for _ in range(2):
        read(func.body, Assigns())
    return names
