"""Roots-capability checks in front of a roots read: the explicit argument must get past them.

    caps = ctx.session.client_params.capabilities
    if not caps.roots:
        return os.getcwd()                       # a modern client passing `root` would get the cwd
    result = await ctx.session.list_roots()

becomes `if root is None and not caps.roots:`; a check whose branch holds the read (`if caps.roots: ...read...`)
becomes `if root is not None or caps.roots:`. So the argument wins whatever the client declared, and without
it the old condition decides, as before. Every spelling counts as a check: `check_client_capability(...)`,
`<anything>.capabilities.roots`, `.roots` of a variable holding `<...>.capabilities`, the same read through
`getattr(x, "client_capabilities", None)` / `getattr(caps, "roots", None)`, `hasattr(x, "list_roots")`, and a
variable assigned from any of these (`has_roots = caps.roots is not None`), and a call of a function that returns
one, of the module or imported from another module of the project, directly or through a re-export (`predicates`).
A test of the client's protocol era counts too (`_era`).

`guards(call, func, state)` lists the `if`/`elif`/conditional-expression tests to widen, each with how, or
returns None when a check is used in a way this cannot rewrite with certainty (returned, passed on, in a
`while`, a guard that neither holds the read nor leaves before it): the caller then marks the site (MR105).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from typing import Any

import libcst as cst

from migrate_roots.codemods import _era, _sdk_alias
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import dotted, last_name, returns_in
from migrate_roots.model import Severity

OR = "or"  # the read is in the branch taken when the test holds: `value is not None or (test)`
AND = "and"  # the read is reached when the test fails: `value is None and (test)`


def _is_check(node: cst.CSTNode, caps: set[str], flags: set[str]) -> bool:
    if isinstance(node, cst.Comparison):
        return _era.test(node, flags)
    if isinstance(node, cst.Call):
        func = node.func
        if isinstance(func, (cst.Name, cst.Attribute)) and f"{dotted(func)}()" in flags:
            return True  # `_has_roots(ctx)`, `caps.has_roots(ctx)`: a predicate (`predicates`)
        if isinstance(func, cst.Attribute) and func.attr.value == "check_client_capability":
            return _mentions_roots(node)
        if _generic_predicate(node):
            return True  # `client_supports(ctx, "roots")` (session 15's sweep C, r07)
        if isinstance(func, cst.Name) and func.value == "hasattr" and len(node.args) == 2:
            return _getattr_name(node) == "list_roots"
        if _getattr_name(node) == "roots":  # `getattr(caps, "roots", None)`
            return _is_capabilities(node.args[0].value, caps)
        return False
    if isinstance(node, cst.Attribute) and node.attr.value == "roots":
        return _is_capabilities(node.value, caps)
    return isinstance(node, cst.Name) and node.value in flags


_ASKS = re.compile(r"support|capab|has_cap", re.IGNORECASE)


def _generic_predicate(node: cst.Call) -> bool:
    """A predicate named for capabilities or support, asked about `"roots"` by a literal argument."""
    name = last_name(node.func)
    return bool(_ASKS.search(name)) and any(
        isinstance(a.value, cst.SimpleString) and a.value.evaluated_value == "roots" for a in node.args
    )


def _is_capabilities(node: cst.CSTNode, caps: set[str]) -> bool:
    """`....capabilities`, `getattr(x, "client_capabilities", None)`, or a variable holding either."""
    if isinstance(node, cst.Attribute) and node.attr.value in _CAPABILITIES:
        return True
    if isinstance(node, cst.Call) and _getattr_name(node) in _CAPABILITIES:
        return True
    return isinstance(node, cst.Name) and node.value in caps


def _getattr_name(node: cst.Call) -> str | None:
    """The attribute name of `getattr(x, "name", ...)` / `hasattr(x, "name")` written as a literal."""
    if (
        not isinstance(node.func, cst.Name)
        or node.func.value not in ("getattr", "hasattr")
        or len(node.args) < 2
    ):
        return None
    name = node.args[1].value
    value = name.evaluated_value if isinstance(name, cst.SimpleString) else None
    return value if isinstance(value, str) else None


_CAPABILITIES = frozenset({"capabilities", "client_capabilities"})


def _mentions_roots(node: cst.CSTNode) -> bool:
    found = False

    class Find(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            nonlocal found
            found = found or n.value in ("roots", "RootsCapability")

    node.visit(Find())
    return found


def _capability_attributes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Reads of the client's capabilities that may concern roots: `...capabilities` not followed by another
    field (`.sampling`), and `check_client_capability(...)` calls that do not name roots."""
    found: list[cst.CSTNode] = []
    other: set[int] = set()

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            if n.attr.value not in ("roots", *_CAPABILITIES) and isinstance(n.value, cst.Attribute):
                other.add(id(n.value))  # `caps.sampling`: another capability
            if n.attr.value in _CAPABILITIES:
                found.append(n)

        def visit_Call(self, n: cst.Call) -> None:
            func = n.func
            checks = isinstance(func, cst.Attribute) and func.attr.value == "check_client_capability"
            if checks and not _mentions_roots(n):
                found.append(n)  # which capability it checks is not written here
            if isinstance(func, cst.Name) and func.value == "getattr" and _getattr_name(n) in _CAPABILITIES:
                found.append(n)  # `getattr(session, "client_capabilities", None)`

    node.visit(Find())
    return [n for n in found if id(n) not in other]


def _mentions_capabilities(node: cst.CSTNode) -> bool:
    return bool(_capability_attributes(node))


def _checkish(node: cst.BaseExpression, caps: set[str], flags: set[str]) -> bool:
    """A value that is a check's truth: the check, `not` it, compared to None, or checks joined by and/or."""
    if _is_check(node, caps, flags):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return _checkish(node.expression, caps, flags)
    if isinstance(node, cst.Comparison):  # `caps.roots is not None`
        return _checkish(node.left, caps, flags)
    if isinstance(node, cst.BooleanOperation):
        return _checkish(node.left, caps, flags) or _checkish(node.right, caps, flags)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "bool":
        return bool(node.args) and _checkish(node.args[0].value, caps, flags)
    return False


def _variables(
    func: cst.FunctionDef, preds: frozenset[str] = frozenset()
) -> tuple[set[str], set[str], list[cst.Assign]]:
    """(names holding a capabilities object, names holding a check's result, their assignments); `preds`: the
    module's functions that return a check's truth, as `name()` among the flags, and its era names (`_era`)."""
    caps: set[str] = set()
    flags: set[str] = {p if ":" in p else f"{p}()" for p in preds} | _era.local_flags(func)
    assigns: list[cst.Assign] = []

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            names = [t.target.value for t in node.targets if isinstance(t.target, cst.Name)]
            if not names:
                return
            if _checkish(node.value, caps, flags):
                flags.update(names)
                assigns.append(node)
            elif _mentions_capabilities(node.value):  # `caps = ...capabilities` (or `x if y else None`)
                caps.update(names)
                assigns.append(node)

    for _ in range(2):  # a flag derived from a flag
        func.body.visit(Assigns())
    return caps, flags, assigns


def _checks(func: cst.FunctionDef, caps: set[str], flags: set[str]) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if _is_check(node, caps, flags):
                found.append(node)
                return False
            return True

    func.body.visit(Find())
    return found


def has_check(func: cst.FunctionDef, preds: frozenset[str] = frozenset()) -> bool:
    """A roots-capability check, or any mention of the client's capabilities, in the function."""
    caps, flags, _ = _variables(func, preds)
    return bool(_checks(func, caps, flags)) or _mentions_capabilities(func.body)


# A predicate named for the roots capability (`detect_roots_capability(ctx)`, `_check_roots_support`,
# `client_supports_roots`): its body may reach the capability through helpers of its own (mito's
# `_has_capability(caps, "roots")`). Taking another check for one only lets an explicit argument past it.
NAMED = re.compile(r"roots?_?(capab|support)|supports?_roots", re.IGNORECASE)
_NAMED_BYTES = re.compile(NAMED.pattern.encode(), re.IGNORECASE)


def _module_predicates(module: cst.Module) -> frozenset[str]:
    """The module's top-level functions that return a roots-capability check's truth (an era test too), or are
    named so; and its date constants (`date:NAME`, `_era`)."""
    dates = _era.constants(module)
    names = set(dates)
    for statement in module.body:
        if not isinstance(statement, cst.FunctionDef):
            continue
        returns = returns_in(statement.body)
        if NAMED.search(statement.name.value) and returns and all(r.value is not None for r in returns):
            names.add(statement.name.value)
            continue
        if not _mentions_capabilities(statement.body) and not _era.mentioned(statement.body):
            continue
        caps, flags, _ = _variables(statement, dates)
        if returns and all(r.value is not None and _checkish(r.value, caps, flags) for r in returns):
            names.add(statement.name.value)
    return frozenset(names)


@lru_cache(maxsize=1024)
def _exported(path: str, module: str, root: str, depth: int = 0) -> frozenset[str]:
    """The predicates another module of the project offers by name: its own, and those it imports at its top
    level from a third one (a package `__init__` re-exporting `from .caps import has_roots`), three modules
    deep, and its date constants (`date:NAME`). Read once per process; a file that spells neither "capabilit",
    an era nor "import" is not parsed."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        spelled = b"capabilit" in data or any(p.search(data) for p in (_NAMED_BYTES, _era.SPELLED_BYTES))
        own = _module_predicates(cst.parse_module(data)) if spelled else frozenset()
    except (OSError, cst.ParserSyntaxError, RecursionError):
        return frozenset()
    if depth >= 3 or b"import" not in data:
        return own
    package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
    names = set(own)
    for kind, bound, detail in _sdk_alias.top_level(data, package):  # in order: the last binding wins
        source = _sdk_alias.first_party(root, detail[0]) if kind == "import" else None
        offered = _exported(source, detail[0], root, depth + 1) if source else frozenset()
        for prefix in ("", _era.DATE):
            if kind == "def" and prefix + bound in own or source and prefix + detail[1] in offered:
                names.add(prefix + bound)
            else:
                names.discard(prefix + bound)
    return frozenset(names)


def _qualified(local: str, name: str) -> str:
    """`caps.has_roots` for a predicate of module `caps`; `date:versions.MODERN` for a date constant."""
    kind, _, bare = name.rpartition(":")
    return f"{kind}:{local}.{bare}" if kind else f"{local}.{name}"


def _imports(module: cst.Module, lines: list[str]) -> list[cst.Import | cst.ImportFrom]:
    """The module's import statements: its top level's, and a function's own (`from .caps import has_roots`
    inside the tool) when an indented line says `import`."""
    if not any(line[:1] in (" ", "\t") and "import " in line for line in lines):
        return [
            s
            for line in module.body
            if isinstance(line, cst.SimpleStatementLine)
            for s in line.body
            if isinstance(s, (cst.Import, cst.ImportFrom))
        ]
    found: list[cst.Import | cst.ImportFrom] = []

    class Imports(cst.CSTVisitor):
        def visit_Import(self, node: cst.Import) -> None:
            found.append(node)

        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            found.append(node)

    module.visit(Imports())
    return found


def _imported_predicates(state: FileState) -> set[str]:
    """Predicates of other project modules as this module calls them: `has_roots` for `from .caps import
    client_has_roots as has_roots` (or from a package that re-exports it), `caps.client_has_roots` for
    `from pkg import caps` or `import pkg.caps as caps`; imports inside a function count for the module."""
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    names: set[str] = set()
    for small in _imports(state.wrapper.module, state.lines):
        if isinstance(small, cst.Import):
            for alias in small.names:
                module = dotted(alias.name) or ""
                path = _sdk_alias.first_party(root, module)
                local = (dotted(alias.asname.name) or "") if alias.asname else module
                names.update(_qualified(local, p) for p in (_exported(path, module, root) if path else ()))
        elif not isinstance(small.names, cst.ImportStar):
            level = len(small.relative)
            source = (dotted(small.module) or "") if small.module else ""
            module = (_sdk_alias.relative(state.package, level, source) if level else source) or ""
            path = _sdk_alias.first_party(root, module) if module else None
            found = _exported(path, module, root) if path else frozenset()
            for alias in small.names if module else ():
                name = dotted(alias.name) or ""
                local = (dotted(alias.asname.name) or "") if alias.asname else name
                if name in found:
                    names.add(local)  # `from .caps import has_roots`
                if _era.DATE + name in found:
                    names.add(_era.DATE + local)  # `from .versions import MODERN`
                submodule = _sdk_alias.first_party(root, f"{module}.{name}")
                if submodule is not None:  # `from pkg import caps`
                    names.update(_qualified(local, p) for p in _exported(submodule, f"{module}.{name}", root))
    return names


def predicates(state: FileState) -> frozenset[str]:
    """The functions that return a roots-capability check's truth (`def _has_roots(ctx): return
    getattr(caps, "roots", None) is not None`), of the module or imported from another module of the project,
    as the module calls them: a call of one in front of a read is such a check."""
    found = state.extra.get("capability_predicates")
    if found is not None:
        return found
    # A file that never spells "capabilit" (nor an era) has no such function (most files: no walk at all).
    spelled = any(
        "capabilit" in line or NAMED.search(line) or _era.SPELLED.search(line) for line in state.lines
    )
    names = set(_module_predicates(state.wrapper.module)) if spelled else set()
    if state.module:
        names |= _imported_predicates(state)
    state.extra["capability_predicates"] = result = frozenset(names)
    return result


def _exits(block: cst.BaseSuite) -> bool:
    body = block.body if isinstance(block, cst.IndentedBlock) else [block]
    if not body:
        return False
    last = body[-1]
    small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
    return isinstance(small, (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _within(node: cst.CSTNode, outer: cst.CSTNode, state: FileState) -> bool:
    current: cst.CSTNode | None = node
    while current is not None:
        if current is outer:
            return True
        current = state.parent(current)
    return False


def _precedes(guard: cst.If, call: cst.CSTNode, state: FileState) -> bool:
    """Does the read follow `guard` in the same block (or in a block nested after it)?"""
    block = state.parent(guard)
    if block is None:
        return False
    statements = list(getattr(block, "body", ()))
    if guard not in statements:
        return False
    return any(_within(call, s, state) for s in statements[statements.index(guard) + 1 :])


def guards(
    call: cst.CSTNode, func: cst.FunctionDef, state: FileState
) -> list[tuple[cst.CSTNode, str]] | None:
    """The tests to widen in front of `call`, or None when a check cannot be rewritten with certainty."""
    caps, flags, assigns = _variables(func, predicates(state))
    checks = _checks(func, caps, flags)
    # Capabilities read any other way (`caps.get("roots")`, passed on): not a check this can widen. Beside a
    # check in the test it widens as a whole (`caps is not None and caps.roots`, MemoryForge) they are part of it.
    tests = [t.test for t in (_test_of(c, func, state) for c in checks) if t is not None]
    for attribute in _capability_attributes(func.body):
        if not any(_within(attribute, c, state) for c in [*checks, *tests]) and not any(
            _within(attribute, a, state) for a in assigns
        ):
            return None
    out: list[tuple[cst.CSTNode, str]] = []
    for check in checks:
        if any(_within(check, a, state) for a in assigns):
            continue  # a definition: its uses are what count
        test_of = _test_of(check, func, state)
        if test_of is None:
            return None
        if isinstance(test_of, cst.IfExp):
            if _within(call, test_of.body, state):
                out.append((test_of, OR))
            elif _within(call, test_of.orelse, state):
                out.append((test_of, AND))
            else:
                return None
            continue
        assert isinstance(test_of, cst.If)
        if _within(call, test_of.body, state):
            out.append((test_of, OR))
        elif _reached_when_false(test_of, call, state):
            out.append((test_of, AND))
        else:
            return None
    unique: dict[int, tuple[cst.CSTNode, str]] = {}
    for guard, how in out:
        if unique.setdefault(id(guard), (guard, how))[1] != how:
            return None
    return list(unique.values())


def _test_of(check: cst.CSTNode, func: cst.FunctionDef, state: FileState) -> cst.If | cst.IfExp | None:
    """The `if` (or conditional expression) whose test holds the check, within its statement."""
    node: cst.CSTNode | None = check
    while node is not None and node is not func:
        parent = state.parent(node)
        if isinstance(parent, (cst.If, cst.IfExp)) and parent.test is node:
            return parent
        if parent is None or isinstance(parent, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
            return None
        node = parent
    return None


def _reached_when_false(guard: cst.If, call: cst.CSTNode, state: FileState) -> bool:
    """The read is in the `else`, or follows an `if` (without `else`) whose branch always leaves."""
    if guard.orelse is not None:
        return _within(call, guard.orelse, state)
    return _exits(guard.body) and _precedes(guard, call, state)


def _code(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


_LOOSE = (cst.BooleanOperation, cst.IfExp, cst.NamedExpr, cst.Lambda)


def widen(value: str, how: str, wrap: bool = False, room: int | None = None) -> Any:
    """An edit for an `If`/`IfExp`: its test becomes "argument given, or the old condition"; `wrap`: an `if`
    whose line would overflow gets its test in parentheses, one operand a line; `room`: the columns the old
    condition has on its own line, beyond which a call in it is split inside its brackets (as ruff's
    formatter does)."""

    # `save_path or None` (an existing path parameter read as the argument) binds looser than `is`.
    parsed = cst.parse_expression(value)
    if not isinstance(parsed, (cst.Name, cst.Attribute, cst.Subscript, cst.Call)) and not parsed.lpar:
        value = f"({value})"
    given_text = f"{value} is not None" if how == OR else f"{value} is None"

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, (cst.If, cst.IfExp))
        test = node.test
        if isinstance(test, cst.BooleanOperation) and _code(test.left) == given_text:
            return node  # widened by an earlier run
        if isinstance(test, _LOOSE) and not test.lpar:
            test = test.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
        if how == OR:
            given = cst.parse_expression(f"{value} is not None")
            new = cst.BooleanOperation(left=given, operator=cst.Or(), right=test)
        else:
            given = cst.parse_expression(f"{value} is None")
            new = cst.BooleanOperation(left=given, operator=cst.And(), right=test)
        if wrap and isinstance(node, cst.If):
            line = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace("    "))
            right = new.right
            if room is not None and len(_code(right)) > room and isinstance(right, cst.Call) and right.args:
                new = new.with_changes(right=_exploded_call(right))
            operator = new.operator.with_changes(whitespace_before=line)
            new = new.with_changes(
                operator=operator,
                lpar=[cst.LeftParen(whitespace_after=line)],
                rpar=[cst.RightParen(whitespace_before=cst.ParenthesizedWhitespace(indent=True))],
            )
        return node.with_changes(test=new)

    return change


def _exploded_call(call: cst.Call) -> cst.Call:
    """`f(a, b)` as `f(\n        a, b\n    )`: its arguments on a line of their own, one level in from the
    operand's (which sits one level in from the `if`)."""
    inner = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(" " * 8))
    outer = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(" " * 4))
    args = list(call.args)
    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT, whitespace_after_arg=outer)
    return call.with_changes(whitespace_before_args=inner, args=args)


def checked_around(call: cst.CSTNode, state: FileState) -> bool:
    """Whether the function holding `call` checks the client's roots capability (or reads its capabilities)."""
    owner = state.enclosing_function(call)
    return owner is not None and has_check(owner, predicates(state))


def widen_around(call: cst.CSTNode, value: str, state: FileState) -> None:
    """Widen the checks in front of a rewritten read, or of a call that passes the value down to one; a check
    that cannot be widened in front of a passing call is marked (the read itself was decided by the plan). A
    read that passes None runs only without the argument: its checks stand as they are."""
    if value == "None":
        return
    owner = state.enclosing_function(call)
    if owner is None or not has_check(owner, predicates(state)):
        return
    found = guards(call, owner, state)
    if found is None:
        state.mark(
            call,
            "MR105",
            "a roots-capability check guards this call: the path argument it passes down may never arrive; "
            "decide what a client without roots and without the argument gets",
            Severity.BROKEN,
        )
        return
    width = style_of(state.path).line_length
    for guard, how in found:
        line = state.lines[state.pos(guard)[0] - 1]
        room = width - (len(line) - len(line.lstrip())) - 4 - len("and ")
        state.edit(guard, widen(value, how, len(line) + len(value) + 16 > width, room))
