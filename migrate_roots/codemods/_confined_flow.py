"""How a value is used in one function: what it may pass through (pure calls, string and path methods, the
project's own functions that do the same, followed by `hop`) and where it ends (bound to a name, returned,
tested). Anything else is an escape: a write, a store on an attribute or a global, a closure, a call the
analysis does not know. Read by `_confined`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import libcst as cst

from migrate_roots.codemods._confined_names import _sanitizer
from migrate_roots.codemods._confined_tree import _bound_in, _dotted, _File, _in_def, _plain_target

# Calls that read their arguments and touch nothing: by the callee's last name, bare or of these modules.
_PURE_FUNCS = frozenset(
    {"str", "repr", "sorted", "list", "tuple", "set", "frozenset", "len", "bool", "getattr", "hasattr"}
    | {"isinstance", "any", "all", "min", "max", "enumerate", "zip", "reversed", "Path", "PurePath"}
    | {"PurePosixPath", "PureWindowsPath", "PosixPath", "WindowsPath", "fspath", "sha1", "sha256", "md5"}
    # imported from `urllib.parse` or `os.path` (a project function of the name is followed instead)
    | {"urlparse", "urlsplit", "unquote", "unquote_plus", "basename", "dirname", "normpath", "abspath"}
    | {"expanduser", "splitext"}
)
_PATH_TEXT = frozenset(
    {
        "join",
        "basename",
        "dirname",
        "normpath",
        "normcase",
        "splitext",
        "split",
        "isabs",
        "abspath",
        "relpath",
    }
    | {"expanduser", "commonprefix"}
)  # `os.path` functions that compute on the text only: `isdir`, `exists`, `realpath` ask the disk
_PURE_MODULES: dict[str, frozenset[str] | None] = {  # module -> its pure functions (None: every one)
    "os.path": _PATH_TEXT,
    "posixpath": _PATH_TEXT,
    "ntpath": _PATH_TEXT,
    "os": frozenset({"fspath", "fsencode", "fsdecode"}),
    "urllib.parse": None,
    "hashlib": None,
    "re": None,
    "pathlib": frozenset(
        {"Path", "PurePath", "PurePosixPath", "PureWindowsPath", "PosixPath", "WindowsPath"}
    ),
}
# Calls that hand back what the awaitable they are given gives (`asyncio.wait_for(ctx.list_roots(), 5)`).
_AWAITING = frozenset({"asyncio.wait_for", "asyncio.shield", "wait_for"})
# Methods of a str, a Path or a parsed URL that only read it, whatever the value is: not `replace` (a Path's is a
# rename), not `copy` (a Path's, from 3.14), not `exists` or `resolve` (they ask the disk about the path).
_PURE_METHODS = frozenset(
    {"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "split", "rsplit", "partition", "rpartition"}
    | {"startswith", "endswith", "encode", "decode", "join", "removeprefix", "removesuffix"}
    | {"as_posix", "as_uri", "absolute", "expanduser", "with_name", "with_suffix", "with_stem"}
    | {"relative_to", "is_relative_to", "joinpath", "is_absolute", "hexdigest", "digest", "geturl", "get"}
    | {"index", "count", "find", "rfind", "format", "keys", "values"}
    | {"items", "isdigit", "isalnum", "isascii"}
)
# The nodes a value flows through into the enclosing expression.
_VALUE_NODES = (
    cst.Attribute,
    cst.Subscript,
    cst.SubscriptElement,
    cst.Index,
    cst.Slice,
    cst.BinaryOperation,
    cst.UnaryOperation,
    cst.BooleanOperation,
    cst.Comparison,
    cst.ComparisonTarget,
    cst.IfExp,
    cst.FormattedString,
    cst.FormattedStringExpression,
    cst.ConcatenatedString,
    cst.Tuple,
    cst.List,
    cst.Set,
    cst.Dict,
    cst.Element,
    cst.StarredElement,
    cst.DictElement,
    cst.StarredDictElement,
    cst.Await,
    cst.Arg,
    cst.GeneratorExp,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.CompFor,
    cst.CompIf,
    cst.Call,
)


def _pure_call(call: cst.Call, tainted_receiver: bool) -> bool:
    func = call.func
    if any(a.keyword is not None and a.keyword.value == "key" for a in call.args):
        return False  # `sorted(roots, key=fn)` runs `fn`
    if _dotted(func) in _AWAITING:
        return True
    if isinstance(func, cst.Name):
        return func.value in _PURE_FUNCS
    if not isinstance(func, cst.Attribute):
        return False
    owner = _dotted(func.value)
    if owner in _PURE_MODULES:
        pure = _PURE_MODULES[owner]
        return pure is None or func.attr.value in pure
    if isinstance(func.value, (cst.SimpleString, cst.ConcatenatedString)) or tainted_receiver:
        return func.attr.value in _PURE_METHODS  # `"|".join(...)`, `seed.encode(...)`
    return False


class _Flow:
    """Follows a value from its nodes in one function: what it may pass through, and where it ends."""

    def __init__(self, file: _File, func: cst.FunctionDef, sanitize: bool, hop: Any) -> None:
        self.file, self.func, self.sanitize, self.hop = file, func, sanitize, hop
        self.tainted: set[str] = set()
        self.returned = False
        self.binders: dict[str, cst.CSTNode | None] = {}  # the statement that bound each name `_up` answers

    def follow(self, starts: list[cst.CSTNode]) -> bool:
        """Does the value at `starts` only pass through what only reads it? With `sanitize`, it must also reach
        a `return` only once cleaned (past a sanitizer), and then go nowhere else."""
        todo = [(node, False) for node in starts]
        done: set[tuple[str, bool, int]] = set()
        while todo:
            node, clean = todo.pop()
            self.binders = {}
            ends = self._up(node, clean)
            if ends is None:
                return False
            names, cleaned = ends
            for name in names:
                binder = self.binders.get(name)
                if (name, cleaned, id(binder)) not in done:
                    done.add((name, cleaned, id(binder)))
                    self.tainted.add(name)
                    todo.extend((load, cleaned) for load in self.loads(name) if self._observes(load, binder))
        return True

    def _observes(self, load: cst.CSTNode, binder: cst.CSTNode | None) -> bool:
        """Can `load` read what `binder` bound? When it comes after it, or a loop holds both (`user_data_dir =
        selected` in a retry loop is not read by the call before the loop)."""
        if binder is None or not _in_def(self.file, load, self.func):
            return True  # a comprehension's target, read in its own expression; a closure runs any time later
        at = self.file.pos
        if at.get(load, (0, 0)) > at.get(binder, (0, 0)):
            return True
        return bool(self._loops(load) & self._loops(binder))

    def _loops(self, node: cst.CSTNode) -> set[int]:
        found: set[int] = set()
        current = self.file.parents.get(node)
        while current is not None and current is not self.func:
            if isinstance(current, (cst.For, cst.While)):
                found.add(id(current))
            current = self.file.parents.get(current)
        return found

    def loads(self, name: str) -> list[cst.CSTNode]:
        """The reads of `name` in the function."""
        found: list[cst.Name] = []

        class Find(cst.CSTVisitor):
            def visit_Name(self, node: cst.Name) -> None:
                if node.value == name:
                    found.append(node)

        self.func.body.visit(Find())
        parents = self.file.parents
        # The binding targets are where the value arrives, not a use of it; `x.roots` and `f(roots=...)` name
        # no variable.
        out: list[cst.CSTNode] = [
            n for n in found if not _is_target(n, parents) and not _not_a_variable(n, parents)
        ]
        return out

    def _up(self, node: cst.CSTNode, clean: bool) -> tuple[set[str], bool] | None:
        """The names the value at `node` is bound to on its way up and whether it is clean there (a sanitizer's
        name), or None where it may escape."""
        if not _in_def(self.file, node, self.func):
            return None  # a closure or lambda: run anywhere, later
        parents = self.file.parents
        extra: set[str] = set()
        while True:
            clean = clean or (self.sanitize and _sanitizer(node))
            parent = parents.get(node)
            if parent is None:
                return None
            if isinstance(parent, cst.Call):
                if parent.func is node:
                    # A method of the value (`seed.encode()`: the value is the attribute's); not the value called.
                    if not (isinstance(node, cst.Attribute) and node.attr.value in _PURE_METHODS):
                        return None  # `path.write_text(...)`, `list_roots()`
                elif not _sanitizer(parent):
                    # The project's own function is followed; anything else must be known to only read.
                    verdict = self.hop(parent, node)
                    if not (_pure_call(parent, False) if verdict is None else verdict):
                        return None
            elif isinstance(parent, cst.Attribute) and parent.attr is node:
                return None
            elif isinstance(parent, cst.CompFor) and parent.iter is node:
                # `(f(r) for r in listed)`: each item is the value too.
                if not _plain_target(parent.target):
                    return None
                extra |= _bound_in(parent.target)
            elif not isinstance(parent, _VALUE_NODES):
                ends = self._stop(parent, node, clean)
                self.binders = {**{n: parent for n in ends or ()}, **{n: None for n in extra}}
                return None if ends is None else (ends | extra, clean)
            node = parent

    def _stop(self, statement: cst.CSTNode, node: cst.CSTNode, clean: bool) -> set[str] | None:
        if isinstance(statement, (cst.If, cst.While, cst.Assert)) and statement.test is node:
            return set()
        if isinstance(statement, cst.Expr):
            return set()
        if isinstance(statement, cst.Return) and (clean or not self.sanitize):
            self.returned = True
            return set()
        targets: list[cst.BaseExpression] = []
        if isinstance(statement, cst.Assign) and statement.value is node:
            targets = [t.target for t in statement.targets]
        elif (
            isinstance(statement, cst.AnnAssign)
            and statement.value is node
            or isinstance(statement, cst.For)
            and statement.iter is node
        ):
            targets = [statement.target]
        # A walrus, a `with`, a `yield`, a `raise`, a default: somewhere the analysis does not follow; and
        # `seen += roots`, which extends in place whatever list `seen` holds (a module's, a default's).
        if not targets or not all(_plain_target(t) for t in targets):
            return None
        bound = set().union(*(_bound_in(t) for t in targets))
        return None if bound & self._globals() else bound

    def _globals(self) -> set[str]:
        found: set[str] = set()

        class Find(cst.CSTVisitor):
            def visit_Global(self, node: cst.Global) -> None:
                found.update(n.name.value for n in node.names)

            def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
                found.update(n.name.value for n in node.names)

        self.func.body.visit(Find())
        return found


def _not_a_variable(node: cst.Name, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    parent = parents.get(node)
    if isinstance(parent, cst.Attribute):
        return parent.attr is node
    if isinstance(parent, cst.Arg):
        return parent.keyword is node
    return isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.AsName))


def _is_target(node: cst.Name, parents: Mapping[cst.CSTNode, cst.CSTNode]) -> bool:
    child: cst.CSTNode = node
    parent = parents.get(child)
    while isinstance(parent, (cst.Tuple, cst.List, cst.Element, cst.StarredElement)):
        child, parent = parent, parents.get(parent)
    if isinstance(parent, cst.AssignTarget):
        return True
    if isinstance(parent, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr)):
        return parent.target is child
    if isinstance(parent, (cst.For, cst.CompFor)):
        return parent.target is child
    return False
