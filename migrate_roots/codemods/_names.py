"""The name of a new path parameter: free in the function and in every scope nested in it.

A tool whose body says `for root in ("a", "b"): ...` before it reads roots would have its new `root` argument
overwritten by the loop (measured: the shim received "b"); a closure or comprehension binding `root`, or a
global `root` the body reads, is as bad. So the index records which names of the candidate family the body
uses, and the plan takes the first candidate the body leaves free: `root`, `root_path`, `root_dir`,
`root_arg`, then `root_arg2`, ... (for the configured `param-name`). A candidate that is already a parameter is
the argument itself (given by the user, or by an earlier run) and is reused.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from itertools import count

import libcst as cst

from migrate_roots.codemods._read import read


def candidates(param: str) -> list[str]:
    return [param, f"{param}_path", f"{param}_dir", f"{param}_arg"]


def taken(
    func: cst.FunctionDef, param: str, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None] | None = None
) -> frozenset[str]:
    """Names starting with `param` that the body binds or reads (attributes and keywords do not count).
    `walk`: the file's read-only walk (`FileState.walk`), else libcst's."""
    return taken_and_returned(func, param, frozenset(), walk)[0]


def taken_and_returned(
    func: cst.FunctionDef,
    param: str,
    params: frozenset[str],
    walk: Callable[[cst.CSTNode, cst.CSTVisitor], None] | None = None,
) -> tuple[frozenset[str], tuple[str, ...]]:
    """`taken`, and the parameters of `params` the function returns unchanged (`return explicit`, outside
    nested functions: a fallback value the plan reuses), in one walk of the body (the index runs both per function)."""
    found: set[str] = set()
    returned: list[str] = []
    combined: set[str] = set()  # mentioned in another returned value: `join(roots[0].uri.path, save_path)`
    visit = walk or read

    class Names(cst.CSTVisitor):
        depth = 0  # nested functions entered: their returns are not this function's

        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            self.depth += 1

        def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
            self.depth -= 1

        def visit_Return(self, node: cst.Return) -> None:
            value = node.value
            if not self.depth and isinstance(value, cst.Name) and value.value in params - set(returned):
                returned.append(value.value)
            elif not self.depth and value is not None and not isinstance(value, cst.Name):
                combined.update(_mentioned(value, params))

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            visit(node.value, self)  # `x.root` binds or reads no `root`
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            visit(node.value, self)  # `f(root=...)` neither
            return False

        def visit_Name(self, node: cst.Name) -> None:
            if node.value.startswith(param):
                found.add(node.value)

    visit(func.body, Names())
    # A parameter the roots' value is built from is no alternative to it (a relative `save_path` joined to
    # the first root, E's r02: reused, a relative path became the directory).
    return frozenset(found), tuple(r for r in returned if r not in combined)


def _mentioned(node: cst.CSTNode, params: frozenset[str]) -> set[str]:
    out: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            if name.value in params:
                out.add(name.value)

    read(node, Names())
    return out


def choose(param: str, used: Collection[str], params: Collection[str]) -> str:
    """The first candidate that is a parameter already, or that the body does not use."""
    for name in candidates(param):
        if name in params or name not in used:
            return name
    for n in count(2):
        name = f"{param}_arg{n}"
        if name in params or name not in used:
            return name
    raise AssertionError("unreachable")
