"""Data-flow facts of one function: which parameter, when set, keeps a node from running.

`def resolve(ctx, explicit=None): if explicit: return Path(explicit); roots = await ctx.list_roots()`:
`explicit` guards the roots call. A caller that hands a tool's path argument to `explicit` already gives
the roots call its explicit value: the plan reuses `explicit` instead of adding a second parameter.
"""

from __future__ import annotations

import libcst as cst

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

    test.visit(Chains())
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

    node.visit(Names())
    return out


def none_on_failure(func: cst.FunctionDef, name: str) -> bool:
    """`except ...: name = None` in the function: the None test is about the call failing, not about a
    client without roots."""
    found = False

    class Handlers(cst.CSTVisitor):
        def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
            nonlocal found
            for statement in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
                for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                    if (
                        isinstance(small, cst.Assign)
                        and any(
                            isinstance(t.target, cst.Name) and t.target.value == name for t in small.targets
                        )
                        and isinstance(small.value, cst.Name)
                        and small.value.value == "None"
                    ):
                        found = True

    func.visit(Handlers())
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

    func.visit(Truth())
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


def returned_cache(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """A module-level container the module fills (`_cache[key] = ...`, `_cache.setdefault(...)`) that an `if`
    before `node` (or around it) tests and returns from: `if (hit := _cache.get(key)): return hit`, a cache
    keyed by session or request that MR211 does not remove. (name, line of the `if`), or None."""
    func = state.function
    # ... or an attribute's container this function fills (`app.workspaces[key] = path` on the lifespan value,
    # `self._by_session[key] = path`): per session, and kept beyond the call (session 15's sweep C, r08).
    containers = _filled_containers(state) | (_filled_attributes(func) if func is not None else frozenset())
    if not containers:
        return None
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and child is not func:
        if isinstance(current, cst.If) and child is not current.test:
            names = _mentions(current.test) & containers
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


def returns_in(block: cst.CSTNode) -> list[cst.Return]:
    """The `return` statements of `block`, not those of functions nested in it."""
    found: list[cst.Return] = []

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            found.append(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    block.visit(Returns())
    return found


def _returns(block: cst.CSTNode) -> bool:
    return bool(returns_in(block))


def _mentions(node: cst.CSTNode) -> set[str]:
    """The names `node` reads, and its attribute chains on names (`app.workspaces`, `self._by_session`)."""
    found = {n.value for n in _names(node)}

    class Chains(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            chain = dotted(attribute)
            if chain is not None:
                found.add(chain)

    node.visit(Chains())
    return found


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

    func.body.visit(Fills())
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


def _is_container(value: cst.BaseExpression) -> bool:
    if isinstance(value, (cst.Dict, cst.List, cst.Set)):
        return True
    if isinstance(value, cst.Call):
        func = value.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        return name in _CONTAINERS
    return False


_EXISTS = frozenset({"exists", "is_file", "is_dir", "isfile", "isdir"})


def disk_guard(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """An `if` around `node` (or an `if ...: return` before it) that asks whether a path of the module exists on
    disk (`if not INDEX_DIR.exists():`, `os.path.isfile(CACHE)`): what `node` builds is kept there and served
    while it exists, an on-disk cache. (the module-level name, line of the `if`), or None."""
    func = state.function
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        for test in _tests_at(current, child):
            found = _exists_on(test, state)
            if found is not None:
                return found, state.pos(test)[0]
        child, current = current, state.parent(current)
    return None


def _tests_at(parent: cst.CSTNode, child: cst.CSTNode) -> list[cst.BaseExpression]:
    """The test of an `if` holding `child`, and those of `if ...: return` statements before it in a block."""
    tests = [parent.test] if isinstance(parent, cst.If) else []
    body = getattr(parent, "body", None)
    if isinstance(body, (list, tuple)) and child in body:
        tests += [
            s.test for s in body[: body.index(child)] if isinstance(s, cst.If) and _ends_in_return(s.body)
        ]
    return tests


def _exists_on(test: cst.BaseExpression, state: FileState) -> str | None:
    """The module-level name an existence check in `test` is made on (`INDEX_DIR.exists()`,
    `(INDEX_DIR / "f").is_file()`, `os.path.exists(CACHE)`)."""
    found: list[str] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if name not in _EXISTS:
                return
            subject = (
                node.args[0].value if node.args else func.value if isinstance(func, cst.Attribute) else None
            )
            while isinstance(subject, (cst.Attribute, cst.Subscript, cst.Call, cst.BinaryOperation)):
                subject = (
                    subject.left
                    if isinstance(subject, cst.BinaryOperation)
                    else subject.func
                    if isinstance(subject, cst.Call)
                    else subject.value
                )
            if isinstance(subject, cst.Name) and _module_level(subject, state):
                found.append(subject.value)

    test.visit(Calls())
    return found[0] if found else None


def _module_level(name: cst.Name, state: FileState) -> bool:
    from libcst.metadata import GlobalScope

    scope = state.scope(name)
    bound = list(scope[name.value]) if scope is not None and name.value in scope else []
    return bool(bound) and all(isinstance(getattr(b, "scope", None), GlobalScope) for b in bound)


def attribute_memo(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """An attribute of a session the function fills when absent, around `node` or returned before it: `if not
    hasattr(session, "workspace_dir"): ...read...; session.workspace_dir = ...` (the SDK's session outlives the
    request: session 15's sweep C, r04). (the attribute, line)."""
    func = state.function
    if func is None:
        return None
    filled = _assigned_attributes(func)
    if not filled:
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


def _assigned_attributes(func: cst.FunctionDef) -> frozenset[str]:
    """`session.a = ...` and `setattr(ctx.session, "a", ...)` in `func`, as `session.a`: attributes set on a
    session (classes, instances and the lifespan value are MR212's and MR211's, which name them otherwise)."""
    found: set[str] = set()

    def on_session(chain: str | None) -> bool:
        return chain is not None and any(part.endswith("session") for part in chain.split(".")[:-1])

    class Sets(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            chain = dotted(node.target) if isinstance(node.target, cst.Attribute) else None
            if chain is not None and on_session(chain):
                found.add(chain)

        def visit_Call(self, node: cst.Call) -> None:
            pair = _named_attribute(node, "setattr")
            if pair is not None and on_session(pair):
                found.add(pair)

    func.body.visit(Sets())
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

    test.visit(Asks())
    return found


def _named_attribute(node: cst.Call, function: str) -> str | None:
    if not (isinstance(node.func, cst.Name) and node.func.value == function and len(node.args) >= 2):
        return None
    holder, name = dotted(node.args[0].value), node.args[1].value
    if holder is None or not isinstance(name, cst.SimpleString) or not isinstance(name.evaluated_value, str):
        return None
    return f"{holder}.{name.evaluated_value}"
