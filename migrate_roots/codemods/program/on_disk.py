"""A roots read whose result is kept on disk and served from there (MR211): under a test of whether a path of
the module exists, behind a read of one tried first, or behind a lookup in a `shelve` / `dbm` store opened on
one that the function fills. A path counts only when the module may write it: a file it only reads (an
operator's pin file, `try: return PINNED.read_text()`) is configuration, which wins over the roots as an
environment variable would, and the read is rewritten (sweep M r10 of session 22)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import _ends_in_return, _returns, dotted
from migrate_roots.codemods.program.memo import returned_from

_EXISTS = frozenset({"exists", "is_file", "is_dir", "isfile", "isdir"})
_READS = frozenset({"read_text", "read_bytes", "open"})


def disk_guard(node: cst.CSTNode, state: FileState) -> tuple[str, int, str] | None:
    """An `if` around `node` (or an `if ...: return` before it) that asks whether a path of the module exists on
    disk (`if not INDEX_DIR.exists():`, `os.path.isfile(CACHE)`), or a read of one tried first: what `node`
    builds is kept there and served while it exists, an on-disk cache. Only a path the module may write counts
    (`_written`). (the module-level name, line of the `if` or `try`, "test" or "tried"), or None."""
    func = state.function
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        for test in _tests_at(current, child):
            found = [n for n in _exists_on(test, state) if _written(n, state)]
            if found:
                return found[0], state.pos(test)[0], "test"
        for tried in _tried_first(current, child):
            found = [n for n in _read_on(tried, state) if _written(n, state)]
            if found:
                return found[0], state.pos(tried)[0], "tried"
        child, current = current, state.parent(current)
    return None


def _tried_first(parent: cst.CSTNode, child: cst.CSTNode) -> list[cst.CSTNode]:
    """The statements before `child` that return what they read unless it fails (sweep K r05 of session 22):
    `try: return json.loads(STATE.read_text())` / `except FileNotFoundError: pass`, or `with
    contextlib.suppress(FileNotFoundError): return STATE.read_text()`, an on-disk cache read first."""
    body = getattr(parent, "body", None)
    if not isinstance(body, (list, tuple)) or child not in body:
        return []
    return [
        s
        for s in body[: body.index(child)]
        if (isinstance(s, cst.Try) or isinstance(s, cst.With) and _suppresses(s)) and _returns(s.body)
    ]


def _suppresses(node: cst.With) -> bool:
    return any(
        isinstance(item.item, cst.Call) and (dotted(item.item.func) or "").rpartition(".")[2] == "suppress"
        for item in node.items
    )


def _read_on(node: cst.CSTNode, state: FileState) -> list[str]:
    """The module-level names a file read in `node` is made on (`STATE.read_text()`, `open(CACHE)`)."""
    found: list[str] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            func = call.func
            name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if name not in _READS:
                return
            found.extend(_paths_of(call, state))

    read(node, Calls())
    return found


def _tests_at(parent: cst.CSTNode, child: cst.CSTNode) -> list[cst.BaseExpression]:
    """The test of an `if` holding `child`, and those of `if ...: return` statements before it in a block."""
    tests = [parent.test] if isinstance(parent, cst.If) else []
    body = getattr(parent, "body", None)
    if isinstance(body, (list, tuple)) and child in body:
        tests += [
            # `if PINNED.exists(): with open(PINNED) as fh: return fh.read()` returns too
            s.test
            for s in body[: body.index(child)]
            if isinstance(s, cst.If) and (_ends_in_return(s.body) or _returns(s.body))
        ]
    return tests


def _exists_on(test: cst.BaseExpression, state: FileState) -> list[str]:
    """The module-level names an existence check in `test` is made on (`INDEX_DIR.exists()`,
    `(INDEX_DIR / "f").is_file()`, `os.path.exists(CACHE)`)."""
    found: list[str] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
            if name not in _EXISTS:
                return
            found.extend(_paths_of(node, state))

    read(test, Calls())
    return found


def _paths_of(call: cst.Call, state: FileState) -> list[str]:
    """The module-level name of the path a file call is made on: the object of a method (`STATE.read_text(
    encoding="utf-8")`, `PINNED.open("r")`, `(INDEX_DIR / "f").is_file()`), else the first argument of a
    function (`open(CACHE)`, `os.path.exists(CACHE)`, `isfile(Path(CACHE))`)."""
    func = call.func
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    subject = (
        func.value
        if isinstance(func, cst.Attribute) and not _module_ref(func.value, state)
        else positional[0]
        if positional
        else None
    )
    while subject is not None and not isinstance(subject, cst.Name):
        if isinstance(subject, cst.BinaryOperation):
            subject = subject.left
        elif isinstance(subject, (cst.Attribute, cst.Subscript)):
            subject = subject.value
        elif isinstance(subject, cst.Call) and isinstance(subject.func, cst.Attribute):
            subject = subject.func.value  # `CACHE.resolve()`, `CACHE.with_suffix(".json")`
        elif isinstance(subject, cst.Call) and (dotted(subject.func) or "").rpartition(".")[2] in _SAME_PATH:
            args = [a.value for a in subject.args if a.keyword is None and not a.star]
            subject = args[0] if args else None  # `Path(CACHE)`, `os.path.join(CACHE, "x")`
        else:
            subject = None
    return [subject.value] if isinstance(subject, cst.Name) and _module_level(subject, state) else []


def _module_ref(value: cst.BaseExpression, state: FileState) -> bool:
    """`os.path`, `io`, `path` of `from os import path`: a module of the standard library, not a path."""
    from migrate_roots.codemods._plumbing_state import _STDLIB

    while isinstance(value, cst.Attribute):
        value = value.value
    if not isinstance(value, cst.Name):
        return False
    scope = state.scope(value)
    for assignment in scope[value.value] if scope is not None and value.value in scope else ():
        node = getattr(assignment, "node", None)
        if isinstance(node, cst.Import):
            return True
        if isinstance(node, cst.ImportFrom) and not node.relative and node.module is not None:
            top: cst.BaseExpression = node.module
            while isinstance(top, cst.Attribute):
                top = top.value
            return isinstance(top, cst.Name) and top.value in _STDLIB
    return False


def _module_level(name: cst.Name, state: FileState) -> bool:
    from libcst.metadata import GlobalScope

    scope = state.scope(name)
    bound = list(scope[name.value]) if scope is not None and name.value in scope else []
    return bool(bound) and all(isinstance(getattr(b, "scope", None), GlobalScope) for b in bound)


# What only reads a path (its methods, or functions handed it first): anything else done with it (a write, a
# helper handed it, a global assigned) may fill it, and keeps it a cache.
_QUERIES = _EXISTS | {"read_text", "read_bytes", "stat", "lstat", "is_symlink", "getmtime", "getsize"}
# What gives the same path on (`Path(PINNED)`, `PINNED.expanduser()`, `PINNED / "x"`, `PINNED.parent`).
_SAME_PATH = frozenset(
    {"str", "Path", "fspath", "join", "expanduser", "abspath", "realpath", "resolve", "absolute"}
)


def _written(name: str, state: FileState) -> bool:
    """May the module write the path its top-level `name` holds? False only when `name` is assigned once at
    the module's top and every other mention of it reads the file (`PINNED.read_text()`, `PINNED.exists()`,
    `open(PINNED)`), or is a value printed in an f-string. A name imported from another module may be written
    there: True. Once per file and name."""
    cache = state.extra.setdefault("disk_written", {})
    if name not in cache:
        cache[name] = _may_write(name, state)
    return bool(cache[name])


def _may_write(name: str, state: FileState) -> bool:
    module = state.wrapper.module
    defined = [
        t
        for stmt in module.body
        if isinstance(stmt, cst.SimpleStatementLine)
        for small in stmt.body
        for t in (
            [a.target for a in small.targets]
            if isinstance(small, cst.Assign)
            else [small.target]
            if isinstance(small, cst.AnnAssign) and small.value is not None
            else []
        )
        if isinstance(t, cst.Name) and t.value == name
    ]
    if len(defined) != 1:
        return True  # imported, assigned twice, or unpacked: not shown to be one path the module only reads
    mentions: list[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            if node.value == name and node is not defined[0]:
                mentions.append(node)

    state.walk(module, Names())
    return not all(_only_read(n, state) for n in mentions)


def _only_read(node: cst.Name, state: FileState) -> bool:
    """`node` (a path) is only read where it is mentioned: by a query or a read-mode `open`, maybe through
    what gives the same path on."""
    expr: cst.CSTNode = node
    while True:
        parent = state.parent(expr)
        if isinstance(parent, cst.FormattedStringExpression):
            return True
        if (
            isinstance(parent, cst.BinaryOperation)
            and parent.left is expr
            and isinstance(parent.operator, cst.Divide)
        ):
            expr = parent
            continue
        if isinstance(parent, cst.Attribute) and parent.value is expr:
            call = state.parent(parent)
            if not (isinstance(call, cst.Call) and call.func is parent):
                expr = parent  # `PINNED.parent`, `PINNED.name`
                continue
            method = parent.attr.value
            if method in _SAME_PATH and not call.args:
                expr = call
                continue
            return method in _QUERIES or method == "open" and _read_mode(call, 0)
        if isinstance(parent, cst.Arg) and parent.keyword is None and not parent.star:
            call = state.parent(parent)
            if not (isinstance(call, cst.Call) and call.args and call.args[0] is parent):
                return False
            called = (dotted(call.func) or "").rpartition(".")[2]
            if called in _SAME_PATH:
                expr = call
                continue
            return called in _QUERIES or called == "open" and _read_mode(call, 1)
        return False


def _read_mode(call: cst.Call, index: int) -> bool:
    """`open(path)`, `open(path, "rb")`, `path.open(encoding=...)`: a mode that only reads."""
    positional = [a for a in call.args if a.keyword is None and not a.star]
    mode = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "mode"), None)
    if mode is None and len(positional) > index:
        mode = positional[index].value
    if mode is None:
        return True
    return isinstance(mode, cst.SimpleString) and not set(str(mode.evaluated_value)) & set("wax+")


# Stores kept in a file, opened on a path and used like a dict (`with shelve.open(_DB) as db:`).
_STORES = frozenset(
    {"shelve.open", "dbm.open", "dbm.gnu.open", "dbm.ndbm.open", "dbm.dumb.open", "dbm.sqlite3.open"}
)


def store_guard(node: cst.CSTNode, state: FileState) -> tuple[str, int] | None:
    """A `shelve` / `dbm` store opened on a path of the module (`with shelve.open(_DB) as db:`, `db =
    dbm.open(...)`, or a module-level `_DB = shelve.open(PATH)`) that the function fills (`db["root"] = ...`)
    and returns from before `node` (`if "root" in db: return db["root"]`, and every spelling of
    `returned_from`): what `node` gives is served from the file on every later call, across restarts too
    (sweep M r08 of session 22). (the opening call as written, line of the lookup), or None."""
    func = state.function
    if func is None or not _spells_store(state):
        return None
    opened: dict[str, cst.Call] = {}

    class Opens(cst.CSTVisitor):
        def visit_WithItem(self, item: cst.WithItem) -> None:
            if (
                item.asname is not None
                and isinstance(item.asname.name, cst.Name)
                and _store(item.item, state)
            ):
                opened[item.asname.name.value] = cst.ensure_type(item.item, cst.Call)

        def visit_Assign(self, assign: cst.Assign) -> None:
            for t in assign.targets:
                if isinstance(t.target, cst.Name) and _store(assign.value, state):
                    opened[t.target.value] = cst.ensure_type(assign.value, cst.Call)

    read(func.body, Opens())
    for stmt in state.wrapper.module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign):
                Opens().visit_Assign(small)
    filled = _filled(func, set(opened))
    if not filled:
        return None
    found = returned_from(node, state, frozenset(filled))
    if found is None or found[0] not in opened:
        return None
    return cst.Module([]).code_for_node(opened[found[0]]), found[1]


def _spells_store(state: FileState) -> bool:
    """Does the file spell `shelve` or `dbm` at all (once per file): most never do."""
    if "spells_store" not in state.extra:
        state.extra["spells_store"] = any("shelve" in line or "dbm" in line for line in state.lines)
    return bool(state.extra["spells_store"])


def _store(value: cst.BaseExpression, state: FileState) -> bool:
    """A call opening a `shelve` / `dbm` store on a path of the module (`shelve.open(_DB)`, `dbm.open(str(_DB),
    "c")`)."""
    if not isinstance(value, cst.Call) or not value.args or not state.qnames(value.func) & _STORES:
        return False
    subject: cst.BaseExpression | None = value.args[0].value
    while isinstance(subject, (cst.Attribute, cst.Subscript, cst.BinaryOperation, cst.Call)):
        if isinstance(subject, cst.Call):
            subject = subject.args[0].value if subject.args else None
        else:
            subject = subject.left if isinstance(subject, cst.BinaryOperation) else subject.value
    return isinstance(subject, cst.Name) and _module_level(subject, state)


def _filled(func: cst.FunctionDef, names: set[str]) -> set[str]:
    """Those of `names` that `func` stores an item in (`db[key] = ...`, `db.update(...)`, `db.setdefault(...)`)."""
    found: set[str] = set()

    class Fills(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            target = node.target
            if (
                isinstance(target, cst.Subscript)
                and isinstance(target.value, cst.Name)
                and target.value.value in names
            ):
                found.add(target.value.value)

        def visit_Call(self, node: cst.Call) -> None:
            call = node.func
            if (
                isinstance(call, cst.Attribute)
                and isinstance(call.value, cst.Name)
                and call.value.value in names
                and call.attr.value in ("update", "setdefault")
            ):
                found.add(call.value.value)

    read(func.body, Fills())
    return found
