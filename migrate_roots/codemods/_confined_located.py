"""The folder the roots named below the checked bound, followed from the checking function up to the tools:
used as itself, never taken apart into its name for another folder (sweep X, r08).

    d = await _profile_dir(ctx, base)           # base / "<label>-<digest>": inside the checked folder
    d.mkdir(exist_ok=True)                      # the folder itself: fine
    clone = d.with_name(f"{d.name}-{pid}")      # a sibling, inside the same folder: fine
    shutil.rmtree(DOWNLOADS / d.name)           # its name below another folder: the caller would choose it

A use of the folder as a whole (a method of it, a call given it, a test, a return) keeps it where it is; its
name (`.name`, `.stem`, `.parts`) may only make a sibling (`with_name`) or be compared. `d / part` joins only
a written name (`_is_component`), never `..`. Calls that relocate by the source's name (`shutil.move`,
`shutil.copy`, a subprocess) are refused; the project's own functions given the folder are followed the same
way (`hop`), and what they return is the folder again.
"""

from __future__ import annotations

from typing import Any

import libcst as cst

from migrate_roots.codemods._confined_flow import _VALUE_NODES, _Flow, _pure_call
from migrate_roots.codemods._confined_names import _is_component, _name_values
from migrate_roots.codemods._confined_tree import _bindings, _bound_in, _dotted, _in_def, _plain_target

_NAME_ATTRS = frozenset({"name", "stem", "suffix", "suffixes", "parts", "anchor", "drive", "root"})
_SIBLINGS = frozenset({"with_name", "with_stem", "with_suffix"})
_JOINS = frozenset({"joinpath"})
_MOVES = frozenset({"rename", "replace", "move", "copy_into", "move_into", "symlink_to", "hardlink_to"})
# Methods whose result is the folder again, or a path below it (or a container's entry: `selection.get(...)`).
_PLACES = frozenset(
    {"resolve", "absolute", "expanduser", "as_posix", "iterdir", "glob", "rglob", "get", "copy"}
)
# Methods that act on the folder and answer something else.
_ACTIONS = frozenset(
    {"mkdir", "exists", "is_dir", "is_file", "is_symlink", "stat", "lstat", "touch", "unlink", "rmdir"}
    | {"write_text", "write_bytes", "read_text", "read_bytes", "open", "chmod", "samefile", "is_relative_to"}
)
# Calls (by last name) that give the folder again, its name, or the folder above it.
_KEEPS = frozenset(
    {"str", "fspath", "Path", "PurePath", "PosixPath", "normpath", "abspath", "realpath", "join"}
)
_NAMES_OF = frozenset({"basename", "split", "splitext", "relpath"})
_DIRS = frozenset({"dirname"})
# Text methods a name may pass through and stay a name.
_TEXT = frozenset({"strip", "lstrip", "rstrip", "lower", "upper", "casefold", "startswith", "endswith"})
# Calls that put the source (their first argument) under the destination by its own name; commands, which do
# anything with it.
_RELOCATING = frozenset({"shutil.move", "shutil.copy", "shutil.copy2", "move", "copy", "copy2"})
_RUNS = frozenset(
    {
        "os.system",
        "os.popen",
        "subprocess.run",
        "subprocess.Popen",
        "subprocess.call",
        "subprocess.check_call",
    }
    | {"subprocess.check_output", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"}
)


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
        while isinstance(node, (cst.Attribute, cst.Call, cst.Subscript)):
            node = node.func if isinstance(node, cst.Call) else node.value
        return isinstance(node, cst.Name) and node.value in self.places

    def _up(self, node: cst.CSTNode, clean: bool) -> tuple[set[str], bool] | None:
        self.escape = node
        found = self._walk(node, clean)
        return found

    def _walk(self, node: cst.CSTNode, clean: bool) -> tuple[set[str], bool] | None:
        named = clean
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
                    if named:
                        if attr not in _TEXT:
                            return None
                    elif attr in _MOVES or attr in _ACTIONS:
                        return set(), False  # `d.rename(x)`: where it goes is the argument's; `d.mkdir()`
                    elif attr == "relative_to":
                        named = True  # `d.relative_to(base)`: the name again
                    elif attr not in _SIBLINGS | _JOINS | _PLACES:
                        return None  # `str(d).split("/")`: taken apart
                    node = outer
                    continue
                if not named and attr in ("parent", "parents"):
                    return set(), False  # the bound itself, whatever the name
                named = named or attr in _NAME_ATTRS
                node = parent
                continue
            if isinstance(parent, cst.Arg):
                call = parents.get(parent)
                if not isinstance(call, cst.Call):
                    return None
                func = call.func
                if (
                    isinstance(func, cst.Attribute)
                    and func.attr.value in _SIBLINGS
                    and self._placed(func.value)
                ):
                    node, named = call, False  # `d.with_name(f"{d.name}-1")`: a sibling, in the same folder
                    continue
                verdict = self.hop(call, parent)
                if verdict is False:
                    return None
                if verdict is None:  # not the project's
                    callee = _dotted(func) or ""
                    short = callee.rpartition(".")[2]
                    if named:
                        if not _pure_call(call, False):
                            return None
                    elif callee in _RUNS or (callee in _RELOCATING and call.args[0] is parent):
                        return None  # `shutil.move(d, x)` puts it at x / <its name>; a destination is fine
                    elif short in _NAMES_OF:
                        named = True  # `os.path.basename(d)`
                    elif short in _DIRS:
                        return set(), False  # `os.path.dirname(d)`: the bound itself
                    elif short not in _KEEPS or (short == "join" and call.args[0] is not parent):
                        return set(), False  # it acts on the folder: `shutil.rmtree(d)`
                node = call
                continue
            if isinstance(parent, cst.BinaryOperation):
                # `d / x` is below the folder, or (`x` climbing out of it) somewhere that does not depend on
                # the name at all; `DOWNLOADS / d.name` and `str(d) + x` depend on it.
                if named or not isinstance(parent.operator, cst.Divide) or parent.left is not node:
                    return None
                node = parent
                continue
            if isinstance(parent, (cst.Comparison, cst.ComparisonTarget, cst.UnaryOperation)):
                return set(), False  # a test
            if isinstance(parent, cst.CompFor) and parent.iter is node:
                if not _plain_target(parent.target):
                    return None
                extra |= _bound_in(parent.target)
            elif isinstance(parent, cst.Call) and parent.func is node:
                return None  # the value called
            elif not isinstance(parent, _VALUE_NODES):
                if isinstance(parent, cst.Return):
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
