"""Roots that carry values, not directories: a root's `.name` chosen among (`if r.name == "main"`), made into a
path or a key (`NOTES / f"{r.name}.md"`), or a URI's host matched or used as a value. Roots made from a path
argument have no name and a `file://` URI with no host, so such code cannot take the argument (MR101 marks it,
`_roots_local`, `_roots_by_name`)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _roots_names_handed
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import last_name


def root_names_read(
    func: cst.FunctionDef, state: FileState, params: bool = False
) -> tuple[str, int, str] | None:
    """`r.name` where `r` runs over roots (`for r in result.roots`, a comprehension) or `….roots[0].name`, or
    `r.uri.host` matched against a host (`== "workspace"`) or used as a value (`f".files/{r.uri.host}"`): roots
    that carry values, not directories. The spelling and line of the first, and what it reads ("name", "host":
    a host test, "host-value"), once per function. `params`: where `r` runs over a parameter of `func` instead
    (`pick_cache_root(roots)`, which the plan finds handed the roots: `_roots_by_name`)."""
    cache: dict[tuple[cst.FunctionDef, bool], tuple[str, int, str] | None] = state.extra.setdefault(
        "root-names", {}
    )
    if (func, params) in cache:
        return cache[(func, params)]
    loops: set[str] = set()
    found: list[tuple[cst.Attribute, cst.BaseExpression]] = []  # (the `.name` / `.uri.host`, the root)
    own = {
        p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
    }

    def over_roots(node: cst.BaseExpression) -> bool:
        if params:
            return isinstance(node, cst.Name) and node.value in own
        return (isinstance(node, cst.Attribute) and node.attr.value == "roots") or (
            isinstance(node, cst.Name) and "roots" in node.value
        )

    sources: dict[
        str, str
    ] = {}  # loop variable -> the name its iterable starts from (`result` of `result.roots`)

    def source(node: cst.BaseExpression) -> str:
        while isinstance(node, (cst.Attribute, cst.Subscript)):
            node = node.value
        return node.value if isinstance(node, cst.Name) else ""

    class Names(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            if isinstance(node.target, cst.Name) and over_roots(node.iter):
                loops.add(node.target.value)
                sources[node.target.value] = source(node.iter)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            if isinstance(node.target, cst.Name) and over_roots(node.iter):
                loops.add(node.target.value)
                sources[node.target.value] = source(node.iter)

        def visit_Assign(self, node: cst.Assign) -> None:
            # `project = result.roots[0]`, then `project.name` (sweep D r12 of session 20)
            value = node.value
            if (
                len(node.targets) == 1
                and isinstance(node.targets[0].target, cst.Name)
                and isinstance(value, cst.Subscript)
                and over_roots(value.value)
            ):
                loops.add(node.targets[0].target.value)
                sources[node.targets[0].target.value] = source(value)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value == "name":
                value = node.value
            elif (
                node.attr.value in ("host", "netloc")
                and isinstance(node.value, cst.Attribute)
                and node.value.attr.value == "uri"
                and _names_a_host(node, state)
            ):
                value = node.value.value  # `r.uri.host == "workspace"`: a value carried in the URI
            else:
                return
            if isinstance(value, cst.Name) or (isinstance(value, cst.Subscript) and over_roots(value.value)):
                found.append((node, value))

        def visit_Call(self, node: cst.Call) -> None:
            # `label(project)`, where `label` reads the root's name (_roots_names_handed; sweeps F r11, G r01-r05)
            if params:
                return
            for arg in node.args:
                value = arg.value
                held = isinstance(value, cst.Name) or (
                    isinstance(value, cst.Subscript) and over_roots(value.value)
                )
                if held and not arg.star:
                    made = _roots_names_handed.handed_name(node, arg, state)
                    if made == _roots_names_handed.PLACE:
                        placed.add(node)
                    if made:
                        handed.append((node, value))

    handed: list[tuple[cst.Call, cst.BaseExpression]] = []
    placed: set[cst.Call] = set()  # ... whose own body makes a path of it
    state.walk(func.body, Names())
    code = state.wrapper.module.code_for_node
    hits: list[cst.Attribute | cst.Call] = [
        n
        for n, base in found
        if (not isinstance(base, cst.Name) or base.value in loops)
        and (n.attr.value != "name" or _chooses(n, state) or _names_a_place(n, state))
    ]
    hits += [
        call
        for call, base in handed
        if (not isinstance(base, cst.Name) or base.value in loops)
        and (call in placed or _names_a_place(call, state))
    ]
    bases: dict[cst.CSTNode, cst.BaseExpression] = {**dict(found), **dict(handed)}
    if not hits:
        cache[(func, params)] = None
    else:
        hits.sort(key=lambda n: state.pos(n))
        first = hits[0]
        if isinstance(first, cst.Call):
            kind = "name-value"
        elif first.attr.value == "name":
            kind = "name" if _chooses(first, state) else "name-value"
        else:
            kind = "host" if _compared(first, state) else "host-value"
        cache[(func, params)] = (code(hits[0]), state.pos(hits[0])[0], kind)
        base = bases[first]
        state.extra.setdefault("root-name-sources", {})[(func, params)] = (
            sources.get(base.value, "") if isinstance(base, cst.Name) else source(base)
        )
    return cache[(func, params)]


def root_names_source(func: cst.FunctionDef, state: FileState) -> str:
    """The name the roots `root_names_read(func, state)` chooses among start from (`roots` of `for r in
    roots`, `result` of `result.roots[0].name`): whether they are a helper's returned roots is the plan's."""
    return str(state.extra.get("root-name-sources", {}).get((func, False), ""))


def _compared(node: cst.Attribute, state: FileState) -> bool:
    parent = state.parent(node)
    return isinstance(parent, (cst.Match, cst.ComparisonTarget, cst.Comparison))


def _names_a_host(node: cst.Attribute, state: FileState) -> bool:
    """`r.uri.host` matched against a host of its own (`== "workspace"`, a `match` case), or used as a value (a
    folder or key named after it: `f".files/{r.uri.host}"`): roots made from a path are `file://` URIs with no
    host. A test against "" or "localhost", or of its truth (`if r.uri.host:`), only skips remote roots."""
    parent = state.parent(node)
    if isinstance(parent, cst.Match):
        return True
    if isinstance(parent, cst.ComparisonTarget):
        parent = state.parent(parent)
    if not isinstance(parent, cst.Comparison):
        return not _tested(node, state)
    sides = [parent.left, *(t.comparator for t in parent.comparisons)]
    # `in ("workspace", "repo")`: the strings of a literal tuple, list or set count one by one
    sides += [e.value for n in sides if isinstance(n, (cst.Tuple, cst.List, cst.Set)) for e in n.elements]
    strings = [n.evaluated_value for n in sides if isinstance(n, cst.SimpleString)]
    return any(isinstance(v, str) and v not in ("", "localhost") for v in strings)


def _tested(node: cst.CSTNode, state: FileState) -> bool:
    """Is `node` only tested for truth (`if r.uri.host:`, `not r.uri.host`, `a and r.uri.host`)?"""
    child, parent = node, state.parent(node)
    while isinstance(parent, (cst.UnaryOperation, cst.BooleanOperation)):
        child, parent = parent, state.parent(parent)
    return isinstance(parent, (cst.If, cst.While, cst.IfExp, cst.CompIf, cst.Assert)) and child is parent.test


def _chooses(node: cst.CSTNode, state: FileState) -> bool:
    """Is `node` (a root's `.name`) tested: compared, a method called on it, in an `if`'s condition or a `match`
    subject? Only listing the names back keeps working with roots that have none."""
    child, parent = node, state.parent(node)
    if isinstance(parent, cst.Attribute) and parent.value is node:
        return True  # `r.name.startswith("config")`
    while parent is not None and not isinstance(parent, (cst.SimpleStatementLine, cst.FunctionDef)):
        if isinstance(parent, (cst.Comparison, cst.CompIf)):
            return True
        if isinstance(parent, cst.IfExp) and child is parent.test and child is node:
            return (
                False  # `r.name if r.name else str(r.uri)`: a label with a fallback, no choice (sweep N, r06)
            )
        if isinstance(parent, (cst.If, cst.While, cst.IfExp)) and child is parent.test:
            return True
        if isinstance(parent, cst.Match) and child is parent.subject:
            return True  # `match r.name: case "session-id": ...`
        child, parent = parent, state.parent(parent)
    return False


# Calls whose arguments name a place on disk or a stored entry.
_PLACES = _roots_names_handed.PLACES


# Calls whose result no longer carries the name (a test, a count, output).
_ENDS = frozenset(
    {"print", "len", "bool", "isinstance", "hasattr", "callable", "info", "debug", "warning", "error"}
)


_CARRIERS = (
    cst.BooleanOperation,  # `r.name or "default"`
    cst.FormattedString,
    cst.FormattedStringExpression,
    cst.ConcatenatedString,
    cst.Index,
    cst.BinaryOperation,
)


def _names_a_place(node: cst.CSTNode, state: FileState, depth: int = 0) -> bool:
    """Is `node` (a root's `.name`) made into a path or a key: `NOTES / f"{r.name}.md"`, `os.path.join(base,
    r.name)`, `store[r.name]`? Roots made from a path argument have no name, so every such call would share the
    one place named `None` (session 20, sweep B r02). Carried on through strings, calls (`slugify(r.name)`),
    methods of the value (`label(p).lower()`) and locals (`name = r.name`, then `NOTES / f"{name}.md"`; sweep
    G r05 of session 21)."""
    child, parent = node, state.parent(node)
    while parent is not None:
        if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Divide):
            return True
        if isinstance(parent, cst.SubscriptElement):
            return True
        if isinstance(parent, cst.Arg):
            call = state.parent(parent)
            if (
                isinstance(call, cst.Call)
                and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "format"
            ):
                # `"{}.md".format(r.name)`: the string carries it on (sweep D r13 of session 20)
                child, parent = call, state.parent(call)
                continue
            if isinstance(call, cst.Call) and last_name(call.func) in _PLACES:
                return True
            if isinstance(call, cst.Call) and last_name(call.func) not in _ENDS:
                # `slugify(r.name)`, `str(r.name)`: the value carries on (sweep F r10)
                child, parent = call, state.parent(call)
                continue
            return False
        if isinstance(parent, cst.Attribute) and parent.value is child:
            call = state.parent(parent)
            if isinstance(call, cst.Call) and call.func is parent and parent.attr.value not in _ENDS:
                child, parent = call, state.parent(call)  # `label(p).lower()`: a method of the value
                continue
            return False
        if isinstance(parent, (cst.Assign, cst.AnnAssign)) and parent.value is child:
            return depth < 2 and any(_names_a_place(use, state, depth + 1) for use in _uses(parent, state))
        # Carried on through an f-string, a concatenation or a subscript's index; anything else ends the search.
        if not isinstance(parent, _CARRIERS):
            return False
        child, parent = parent, state.parent(parent)
    return False


def _uses(assign: cst.Assign | cst.AnnAssign, state: FileState) -> list[cst.CSTNode]:
    """Where the single name an assignment binds is read (`name` of `name = label(p)`)."""
    targets = [t.target for t in assign.targets] if isinstance(assign, cst.Assign) else [assign.target]
    if len(targets) != 1 or not isinstance(targets[0], cst.Name):
        return []
    target = targets[0]
    scope = state.scope(target)
    if scope is None or target.value not in scope:
        return []
    return [
        access.node
        for assignment in scope[target.value]
        if getattr(assignment, "node", None) is target
        for access in getattr(assignment, "references", ())
    ]
