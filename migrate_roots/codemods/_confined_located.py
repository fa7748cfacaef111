"""The folder the roots named below the checked bound, followed from the checking function up to the tools:
used as itself, never taken apart into its name for another folder (sweep X, r08).

    d = await _profile_dir(ctx, base)           # base / "<label>-<digest>": inside the checked folder
    d.mkdir(exist_ok=True)                      # the folder itself: fine
    clone = d.with_name(f"{d.name}-{pid}")      # a sibling, inside the same folder: fine
    shutil.rmtree(DOWNLOADS / d.name)           # its name below another folder: the caller would choose it

Known uses only (sweep Y showed what a list of refusals misses): a Path method that acts on the folder
(`mkdir`, `exists`, `write_text`, ...) or gives it again (`resolve`, `iterdir`), `d / x` (below it, or
somewhere the name does not decide), a standard call known to act on it in place (`shutil.rmtree(d)`,
`shutil.copytree(src, d)` as the destination), a test, a plain local name, a container entry, a `return`
(then every caller is followed), and the project's own functions given it, followed the same way (`hop`).
Its name, or any text holding it (`.name`, `str(d)`, an f-string), may only be compared or make a sibling of
`d` itself (`d.with_name(f"{d.name}-1")`). Anything else (an unknown call, a store, a text method, a slice)
leaves the MR109 standing, with the statement named.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from migrate_roots.codemods._confined_flow import _VALUE_NODES, _Flow
from migrate_roots.codemods._confined_names import _is_component, _name_values
from migrate_roots.codemods._confined_tree import _bindings, _bound_in, _dotted, _in_def, _plain_target

_NAME_ATTRS = frozenset({"name", "stem", "suffix", "suffixes", "parts", "anchor", "drive", "root"})
_SIBLINGS = frozenset({"with_name", "with_stem", "with_suffix"})
_JOINS = frozenset({"joinpath"})
# Methods whose result is the folder again, or a path below it (or a container's entry: `selection.get(...)`).
_PLACES = frozenset({"resolve", "absolute", "expanduser", "iterdir", "glob", "rglob", "get", "as_posix"})
# Methods that act on the folder itself and answer something else (a Path's; by name, whatever the value).
_ACTIONS = frozenset(
    {"mkdir", "exists", "is_dir", "is_file", "is_symlink", "stat", "lstat", "touch", "unlink", "rmdir"}
    | {"write_text", "write_bytes", "read_text", "read_bytes", "open", "chmod", "samefile", "is_relative_to"}
)
# Calls known to act on the folder in place (any argument), or to fill it as their destination (the second).
_IN_PLACE = frozenset(
    {
        "shutil.rmtree",
        "os.makedirs",
        "os.mkdir",
        "os.listdir",
        "os.scandir",
        "os.walk",
        "os.remove",
        "os.rmdir",
    }
    | {
        "os.unlink",
        "os.chmod",
        "os.path.exists",
        "os.path.isdir",
        "os.path.isfile",
        "os.path.getsize",
        "open",
    }
)
_INTO = frozenset({"shutil.copytree", "shutil.copy", "shutil.copy2", "shutil.copyfile"})
# Calls that give the folder again (the first argument for a join).
_KEEPS = frozenset(
    {"Path", "pathlib.Path", "os.path.join", "os.path.abspath", "os.path.normpath", "str", "os.fspath"}
)  # `str(d)` is the folder as text: a text method or a slice of it is refused like any other use
_FIRST_ONLY = frozenset({"os.path.join", "Path", "pathlib.Path"})  # `Path(X, d)`: below X when d is relative


class _Located(_Flow):
    """`_Flow`'s walk with the folder's rules; the flag it carries is "this is the folder's name"."""

    def __init__(self, file: Any, func: cst.FunctionDef, hop: Any) -> None:
        super().__init__(file, func, False, hop)
        self.names = _name_values(func)
        self.places: set[str] = set()
        self.escape: cst.CSTNode | None = None
        self.parts = _literal_parts(func)

    def _joinable(self, node: cst.BaseExpression) -> bool:
        """One written folder name: `"Default"`, `f"{label}-1"`, or `marker` of `for marker in ("A", "B")`."""
        return _is_component(node, self.names) or (isinstance(node, cst.Name) and node.value in self.parts)

    def _placed(self, node: cst.BaseExpression) -> bool:
        return isinstance(node, cst.Name) and node.value in self.places  # `d`, not `d.parent`

    def _up(self, node: cst.CSTNode, clean: bool) -> tuple[set[str], bool] | None:
        self.escape = node
        return self._walk(node, clean)

    def _walk(self, node: cst.CSTNode, clean: bool) -> tuple[set[str], bool] | None:
        named = clean  # the folder's name, or text holding it: compared or made a sibling only
        if not _in_def(self.file, node, self.func):
            return None
        parents = self.file.parents
        extra: set[str] = set()
        while True:
            parent = parents.get(node)
            self.escape = parent if parent is not None else node  # where it goes, should it escape here
            if parent is None:
                return None
            if isinstance(parent, cst.Attribute):
                if parent.attr is node:
                    return None
                outer = parents.get(parent)
                attr = parent.attr.value
                if isinstance(outer, cst.Call) and outer.func is parent:  # a method of the value
                    if named or attr not in _ACTIONS | _SIBLINGS | _JOINS | _PLACES:
                        return None  # `str(d).replace(...)`, `_OPENED.append(d)`'s kin: taken apart or kept
                    if attr in _ACTIONS:
                        return set(), False  # `d.mkdir()`: the folder itself
                    node = outer
                    continue
                if not named and attr in ("parent", "parents"):
                    return set(), False  # the bound itself, whatever the name
                named = named or attr in _NAME_ATTRS
                node = parent
                continue
            if isinstance(parent, cst.Arg):
                call = parents.get(parent)
                if not isinstance(call, cst.Call) or parent.star:
                    return None
                func = call.func
                if (
                    isinstance(func, cst.Attribute)
                    and func.attr.value in _SIBLINGS
                    and self._placed(func.value)
                ):
                    node, named = call, False  # `d.with_name(f"{d.name}-1")`: a sibling, in the same folder
                    continue
                if named:
                    return None  # the name handed to code: it may make another folder of it
                verdict = self.hop(call, parent)
                if verdict is False:
                    return None
                if verdict is None:  # not the project's: known to act on the folder in place, or refused
                    callee = _dotted(func) or ""
                    position = call.args.index(parent)
                    if callee in _IN_PLACE or (callee in _INTO and position == 1):
                        return set(), False  # `shutil.rmtree(d)`, `shutil.copytree(src, d)`
                    if callee not in _KEEPS or (callee in _FIRST_ONLY and position):
                        return None
                node = call
                continue
            if isinstance(parent, cst.BinaryOperation):
                # `d / x` is below the folder, or (`x` climbing out of it) somewhere that does not depend on
                # the name at all; `DOWNLOADS / d.name` and `str(d) + x` depend on it.
                if named or not isinstance(parent.operator, cst.Divide) or parent.left is not node:
                    return None
                node = parent
                continue
            if isinstance(parent, cst.Subscript) and not named:
                if any(isinstance(e.slice, cst.Slice) for e in parent.slice):
                    return None  # `str(d)[n:]`: a piece of the text
                node = parent  # `selection["user_data_dir"]`: an entry of a container that holds it
                continue
            if isinstance(parent, (cst.Comparison, cst.ComparisonTarget, cst.UnaryOperation)):
                return set(), False  # a test
            if isinstance(parent, cst.CompFor) and parent.iter is node:
                if not _plain_target(parent.target):
                    return None
                extra |= _bound_in(parent.target)
            elif isinstance(parent, cst.Call) and parent.func is node:
                return None  # the value called
            elif isinstance(
                parent, (cst.FormattedString, cst.FormattedStringExpression, cst.ConcatenatedString)
            ):
                named = True  # text holding the name
            elif not isinstance(parent, _VALUE_NODES):
                if isinstance(parent, cst.Return):
                    if named:
                        return None  # the name handed to the caller (`return d.name`)
                    self.returned = True
                    return extra, named  # up the way: its callers are followed too
                ends = self._stop(parent, node, True)
                if ends is None:
                    return None
                self.binders = {**{n: parent for n in ends}, **{n: None for n in extra}}
                if not named:
                    self.places |= ends | extra
                return ends | extra, named
            node = parent


def _literal_parts(func: cst.FunctionDef) -> set[str]:
    """Loop names bound only to the written folder names of a literal (`for marker in ("SingletonLock", ...)`,
    also in a comprehension), and bound nowhere else in `func`."""
    loops: dict[str, list[bool]] = {}
    fors: dict[str, int] = {}

    def note(target: cst.BaseExpression, iterated: cst.BaseExpression) -> None:
        ok = isinstance(iterated, (cst.Tuple, cst.List, cst.Set)) and all(
            _is_component(e.value, set()) for e in iterated.elements
        )
        for name in _bound_in(target):
            loops.setdefault(name, []).append(ok and isinstance(target, cst.Name))

    class Find(cst.CSTVisitor):
        def visit_For(self, node: cst.For) -> None:
            note(node.target, node.iter)
            for name in _bound_in(node.target):
                fors[name] = fors.get(name, 0) + 1

        def visit_CompFor(self, node: cst.CompFor) -> None:
            note(node.target, node.iter)

    func.body.visit(Find())
    counts = _bindings(func)  # a `for` counts twice there; a comprehension's target not at all
    return {n for n, oks in loops.items() if all(oks) and counts.get(n, 0) == 2 * fors.get(n, 0)}
