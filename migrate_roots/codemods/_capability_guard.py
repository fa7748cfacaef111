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

Where and how a check in front of a read is widened, or why it cannot be: `_capability_widen`. A check joined
to other conditions in a variable or a predicate (`blocked = READ_ONLY or not caps.roots`) is no check of its own
(`_pure`): widened where it is used, it would let the argument past those conditions too.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

import libcst as cst

from migrate_roots.codemods import _era, _sdk_alias
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import dotted, last_name, returns_in

OR = "or"  # the read is in the branch taken when the test holds: `value is not None or (test)`
AND = "and"  # the read is reached when the test fails: `value is None and (test)`


def _is_check(node: cst.CSTNode, caps: set[str], flags: set[str]) -> bool:
    if isinstance(node, cst.Comparison):
        return _era.test(node, flags)
    if isinstance(node, cst.Call):
        func = node.func
        if _era.call(node, flags):
            return True  # `is_version_at_least(ctx.protocol_version, "2026-07-28")`
        if isinstance(func, (cst.Name, cst.Attribute)) and (
            f"{dotted(func)}()" in flags or f"{MIXED}{dotted(func)}" in flags
        ):
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
    if isinstance(node, cst.Attribute) and node.attr.value == BACK_CHANNEL:
        return True  # mcp 2.x `ctx.session.can_send_request`: False on a 2026-07-28 request (sweep T, r03)
    return isinstance(node, cst.Name) and node.value in flags


# Whether the server may send the client a request: a test of it decides for roots/list as an era test does.
BACK_CHANNEL = "can_send_request"


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

    read(node, Find())
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

    read(node, Find())
    return [n for n in found if id(n) not in other]


def _mentions_capabilities(node: cst.CSTNode) -> bool:
    return bool(_capability_attributes(node))


def _code_of(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)


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
            # `blocked = READ_ONLY or not caps.roots` is no flag: widened where used, it would let the
            # argument past READ_ONLY; the check in it then stands in no test and is marked.
            if _checkish(node.value, caps, flags) and _pure(node.value, caps, flags):
                flags.update(names)
                assigns.append(node)
            elif _mentions_capabilities(node.value):  # `caps = ...capabilities` (or `x if y else None`)
                caps.update(names)
                assigns.append(node)
            if _touches(node.value, caps, flags):
                flags.update(f"{CLIENT}{n}" for n in names)

    for _ in range(2):  # a flag derived from a flag
        read(func.body, Assigns())
    return caps, flags, assigns


def _checks(func: cst.FunctionDef, caps: set[str], flags: set[str]) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if _is_check(node, caps, flags):
                found.append(node)
                return False
            return True

    read(func.body, Find())
    return found


def has_check(func: cst.FunctionDef, preds: frozenset[str] = frozenset()) -> bool:
    """A roots-capability check, or any mention of the client's capabilities, in the function."""
    caps, flags, _ = _variables(func, preds)
    found = bool(_checks(func, caps, flags)) or _mentions_capabilities(func.body)
    return found or bool(_era.matches(func, flags))


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
    known = dates | _era.sdk_flags(_imports(module, []))
    for statement in module.body:
        if not isinstance(statement, cst.FunctionDef):
            continue
        returns = returns_in(statement.body)
        if NAMED.search(statement.name.value) and returns and all(r.value is not None for r in returns):
            names.add(statement.name.value)
            continue
        if (
            not _mentions_capabilities(statement.body)
            and not _era.mentioned(statement.body)
            and BACK_CHANNEL not in _code_of(statement.body)
        ):
            continue
        caps, flags, _ = _variables(statement, known)
        if returns and all(r.value is not None and _checkish(r.value, caps, flags) for r in returns):
            pure = all(r.value is not None and _pure(r.value, caps, flags) for r in returns)
            names.add(statement.name.value if pure else f"{MIXED}{statement.name.value}")
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
        spelled = b"capabilit" in data or b"can_send_request" in data
        spelled = spelled or any(p.search(data) for p in (_NAMED_BYTES, _era.SPELLED_BYTES))
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
        for prefix in ("", _era.DATE, MIXED):
            if kind in ("def", "alias") and prefix + bound in own or source and prefix + detail[1] in offered:
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

    read(module, Imports())
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
                # `from .caps import has_roots`; `from .versions import MODERN`; a predicate that joins the
                # check to other conditions (`return not READ_ONLY and caps.roots is not None`) stays mixed.
                for prefix in ("", _era.DATE, MIXED):
                    if prefix + name in found:
                        names.add(prefix + local)
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
        "capabilit" in line or BACK_CHANNEL in line or NAMED.search(line) or _era.SPELLED.search(line)
        for line in state.lines
    )
    names = set(_module_predicates(state.wrapper.module)) if spelled else set()
    if spelled:  # the SDK's version names as the module imports them (`_era`)
        names |= _era.sdk_flags(_imports(state.wrapper.module, state.lines))
    if state.module:
        names |= _imported_predicates(state)
    state.extra["capability_predicates"] = result = frozenset(names)
    return result


_CLIENT = frozenset({"client_params", "clientParams", BACK_CHANNEL, *_CAPABILITIES, *_era.ATTRIBUTES})
# A predicate of the module whose truth joins a check to other conditions (`return READ_ONLY or not
# caps.roots`): a check no widening can take apart where it is called.
MIXED = "mixed:"
CLIENT = "client:"  # flag of a local holding what the client declared (`params = ctx.session.client_params`)


def _touches(node: cst.CSTNode, caps: set[str], flags: set[str]) -> bool:
    """Does `node` read what the client declared (its params, capabilities, era), or a check of it?"""
    found = False

    class Find(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal found
            if found:
                return False
            if isinstance(n, cst.Attribute) and n.attr.value in _CLIENT:
                found = True
            elif isinstance(n, cst.Name):
                found = n.value in caps or any(f"{k}{n.value}" in flags for k in ("", _era.ERA, CLIENT))
            elif isinstance(n, (cst.Comparison, cst.Call)):
                found = _is_check(n, caps, flags) and not _mixed(n, flags)
                found = found or isinstance(n, cst.Call) and _era.getattr_era(n)
            return not found

    read(node, Find())
    return found


def _mixed(node: cst.CSTNode, flags: set[str]) -> bool:
    func = node.func if isinstance(node, cst.Call) else None
    return isinstance(func, (cst.Name, cst.Attribute)) and f"{MIXED}{dotted(func)}" in flags


def _pure(node: cst.CSTNode, caps: set[str], flags: set[str]) -> bool:
    """Every operand of every and/or in `node` reads what the client declared: nothing else (an operator's
    `READ_ONLY`) is joined to the check."""
    operations: list[cst.BooleanOperation] = []

    class Find(cst.CSTVisitor):
        def visit_BooleanOperation(self, n: cst.BooleanOperation) -> None:
            operations.append(n)

    read(node, Find())
    return _touches(node, caps, flags) and all(
        _touches(o.left, caps, flags) and _touches(o.right, caps, flags) for o in operations
    )


def checked_around(call: cst.CSTNode, state: FileState) -> bool:
    """Whether the function holding `call` checks the client's roots capability (or reads its capabilities)."""
    owner = state.enclosing_function(call)
    return owner is not None and has_check(owner, predicates(state))
