"""Data-flow facts of one function: which parameter, when set, keeps a node from running.

`def resolve(ctx, explicit=None): if explicit: return Path(explicit); roots = await ctx.list_roots()`:
`explicit` guards the roots call. A caller that hands a tool's path argument to `explicit` already gives
the roots call its explicit value: the plan reuses `explicit` instead of adding a second parameter.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState


def guard(node: cst.CSTNode, state: FileState, params: frozenset[str]) -> str | None:
    """The parameter of the enclosing function whose truthiness skips `node`, if one does."""
    found = guard_test(node, state, params)
    return found[0] if found is not None else None


def guard_test(
    node: cst.CSTNode, state: FileState, params: frozenset[str]
) -> tuple[str, cst.BaseExpression] | None:
    """`guard`, with the test that skips `node` (`repo_path`, or `repo_path is not None`)."""
    func = state.function
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        found = _guard_at(current, child, params)
        if found is not None:
            return found
        child, current = current, state.parent(current)
    return None


def _guard_at(
    parent: cst.CSTNode, child: cst.CSTNode, params: frozenset[str]
) -> tuple[str, cst.BaseExpression] | None:
    if isinstance(parent, (cst.If, cst.IfExp)):
        set_when = _tested(parent.test, params)
        if set_when is not None:
            name, truthy = set_when
            if (child is parent.orelse and truthy) or (child is parent.body and not truthy):
                return name, parent.test
    if (
        isinstance(parent, cst.BooleanOperation)
        and isinstance(parent.operator, cst.Or)
        and child is parent.right
    ):
        set_when = _tested(parent.left, params)
        if set_when is not None and set_when[1]:
            return set_when[0], parent.left
    if isinstance(parent, (cst.IndentedBlock, cst.Module)):
        for statement in parent.body:
            if statement is child:
                break
            if isinstance(statement, cst.If) and statement.orelse is None and _leaves(statement.body):
                set_when = _tested(statement.test, params)
                if set_when is not None and set_when[1]:
                    return set_when[0], statement.test
    return None


def none_test(test: cst.BaseExpression) -> bool:
    """`p is None` / `p is not None` (under any `not`): an empty string does not pass for unset."""
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    return isinstance(test, cst.Comparison) and isinstance(test.comparisons[0].operator, (cst.Is, cst.IsNot))


def _tested(test: cst.BaseExpression, params: frozenset[str]) -> tuple[str, bool] | None:
    """(parameter, True) for `p` / `p is not None`; (parameter, False) for `not p` / `p is None`."""
    if isinstance(test, cst.Name) and test.value in params:
        return test.value, True
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _tested(test.expression, params)
        return (inner[0], not inner[1]) if inner is not None else None
    if (
        isinstance(test, cst.Comparison)
        and isinstance(test.left, cst.Name)
        and test.left.value in params
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].comparator, cst.Name)
        and test.comparisons[0].comparator.value == "None"
    ):
        operator = test.comparisons[0].operator
        if isinstance(operator, cst.IsNot):
            return test.left.value, True
        if isinstance(operator, cst.Is):
            return test.left.value, False
    return None


def _leaves(body: cst.BaseSuite) -> bool:
    """The block always ends the function (its last statement returns or raises)."""
    if isinstance(body, cst.SimpleStatementSuite):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in body.body)
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else None
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    return False


def guarding_globals(node: cst.CSTNode, state: FileState, declared: frozenset[str]) -> tuple[str, ...]:
    """Globals the function declares (`global _cache`) that an `if` around `node` tests: a fetch-once guard."""
    if not declared:
        return ()
    found: set[str] = set()
    func = state.function
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        if isinstance(current, (cst.If, cst.While)):
            found |= _tested_names(current.test) & declared
        found |= _early_returns_before(current, child) & declared
        child, current = current, state.parent(current)
    if func is not None and current is func:
        found |= _early_returns_before(func.body, child) & declared
    return tuple(sorted(found))


def _early_returns_before(block: cst.CSTNode, child: cst.CSTNode) -> set[str]:
    """Names tested by `if <test>: return` statements that come before `child` in `block`
    (`if _roots_attempted: return`, a once-per-process guard)."""
    body = getattr(block, "body", None)
    if not isinstance(body, (list, tuple)) or child not in body:
        return set()
    names: set[str] = set()
    for stmt in body[: body.index(child)]:
        if isinstance(stmt, cst.If) and _ends_in_return(stmt.body):
            names |= _tested_names(stmt.test)
    return names


def _tested_names(test: cst.CSTNode) -> set[str]:
    """The names a test reads, and its attribute chains on names (`app.roots_checked`)."""
    names = {n.value for n in _names(test)}

    class Chains(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> bool:
            chain = dotted(node)
            if chain is not None:
                names.add(chain)
                return False
            return True

    read(test, Chains())
    return names


def last_name(node: cst.BaseExpression) -> str:
    """The name a call's function is spelled with last: `run` of `anyio.from_thread.run`, `f` of `f`."""
    return (
        node.attr.value
        if isinstance(node, cst.Attribute)
        else node.value
        if isinstance(node, cst.Name)
        else ""
    )


def dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return f"{base}.{node.attr.value}" if base is not None else None
    return None


def attribute_flags(func: cst.FunctionDef) -> frozenset[str]:
    """Attributes `func` tests in an `if ...: return` of its own body and also sets (`if app.roots_checked:
    return`, then `app.roots_checked = True`): a fetch-once flag kept on an object, such as the lifespan
    context, so whatever follows runs on the first call only."""
    statements = func.body.body if isinstance(func.body, cst.IndentedBlock) else ()
    tested: set[str] = set()
    for stmt in statements:
        if isinstance(stmt, cst.If) and _ends_in_return(stmt.body):
            tested |= {n for n in _tested_names(stmt.test) if "." in n}
    if not tested:
        return frozenset()
    assigned: set[str] = set()
    for stmt in statements:
        for small in getattr(stmt, "body", ()) if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                assigned |= {d for t in small.targets if (d := dotted(t.target)) is not None}
    return frozenset(tested & assigned)


def _ends_in_return(block: cst.BaseSuite) -> bool:
    statements = block.body if isinstance(block, cst.IndentedBlock) else [block]
    last = statements[-1] if statements else None
    small = getattr(last, "body", None)
    if isinstance(small, (list, tuple)) and small:
        return isinstance(small[-1], (cst.Return, cst.Raise))
    return False


def _names(node: cst.CSTNode) -> list[cst.Name]:
    out: list[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            out.append(name)

    read(node, Names())
    return out


def none_on_failure(func: cst.FunctionDef, name: str) -> bool:
    """`except ...: name = None` in the function: the None test is about the call failing, not about a
    client without roots."""
    return bool(none_handlers(func, name))


def none_handlers(func: cst.FunctionDef, name: str) -> list[cst.ExceptHandler]:
    """The handlers of `func` that set `name = None`."""
    found: list[cst.ExceptHandler] = []

    class Handlers(cst.CSTVisitor):
        def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
            for statement in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
                for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                    if (
                        isinstance(small, cst.Assign)
                        and any(
                            isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets
                        )
                        and isinstance(small.value, cst.Name)
                        and small.value.value == "None"
                        and node not in found
                    ):
                        found.append(node)

    read(func, Handlers())
    return found


def tests_truth(func: cst.FunctionDef, names: set[str]) -> bool:
    """`not x`, `if x:`, `x and ...`, `len(x)` for one of `names`: the code tells an empty list apart."""
    found = False

    def named(node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value in names

    class Truth(cst.CSTVisitor):
        def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
            nonlocal found
            found = found or (isinstance(node.operator, cst.Not) and named(node.expression))

        def visit_If(self, node: cst.If) -> None:
            nonlocal found
            found = found or named(node.test)

        def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
            nonlocal found
            found = found or named(node.left) or named(node.right)

        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            is_len = isinstance(node.func, cst.Name) and node.func.value == "len"
            found = found or (is_len and bool(node.args) and named(node.args[0].value))

    read(func, Truth())
    return found


_CONTAINERS = frozenset(
    {
        "dict",
        "list",
        "set",
        "OrderedDict",
        "defaultdict",
        "deque",
        "WeakValueDictionary",
        "WeakKeyDictionary",
        # cachetools' caches and the like: mappings a module fills and looks up (B's r13)
        "TTLCache",
        "LRUCache",
        "LFUCache",
        "FIFOCache",
        "RRCache",
        "TLRUCache",
        "Cache",
        "ExpiringDict",
    }
)
_FILLS = frozenset({"setdefault", "update", "append", "add", "extend", "insert", "__setitem__"})


def returns_in(block: cst.CSTNode) -> list[cst.Return]:
    """The `return` statements of `block`, not those of functions nested in it."""
    found: list[cst.Return] = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    read(block, Returns())
    return found


def _returns(block: cst.CSTNode) -> bool:
    return bool(returns_in(block))


def _is_container(value: cst.BaseExpression) -> bool:
    if isinstance(value, (cst.Dict, cst.List, cst.Set)):
        return True
    if isinstance(value, cst.Call):
        func = value.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return name in _CONTAINERS
    return False
