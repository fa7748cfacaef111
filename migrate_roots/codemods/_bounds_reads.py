"""What the bound facts (`_bounds._facts`) read of an expression: the names and calls in it, the strings of a
message, whether it resolves a path, and the side a check tests against. The walk is the indexed file's own
while `facts` runs (`_walker`), so no node is copied."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from migrate_roots.codemods._bounds_spellings import _callee
from migrate_roots.codemods._read import read

Walk = Callable[[cst.CSTNode, cst.CSTVisitor], None]


# The walk `facts` uses: the indexed file's own (`FileState.walk`, no node copies) while `facts` runs.
_walker: list[Walk] = [read]


def _visit(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    _walker[-1](node, visitor)


_RESOLVERS = frozenset({"resolve", "realpath", "abspath", "normpath", "absolute"})


class _ResolvesFinder(cst.CSTVisitor):
    # Module-level visitor classes: a class statement per call cost more than the walk of a small expression.
    def __init__(self, resolved: frozenset[str]) -> None:
        super().__init__()
        self.resolved = resolved
        self.found = False

    def visit_Call(self, call: cst.Call) -> None:
        self.found = self.found or _callee(call) in _RESOLVERS

    def visit_Name(self, name: cst.Name) -> None:
        self.found = self.found or name.value in self.resolved


def _resolves(node: cst.CSTNode, resolved: frozenset[str] = frozenset()) -> bool:
    """Does `node` resolve a path, or read a name assigned from a resolved path?"""
    finder = _ResolvesFinder(resolved)
    _visit(node, finder)
    return finder.found


def _resolved_names(func: cst.FunctionDef) -> frozenset[str]:
    names: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if _resolves(node.value):
                names.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

    _visit(func.body, Find())
    return frozenset(names)


def _subject(call: cst.Call) -> frozenset[str]:
    """The side a method-style check tests (`wp` of `str(wp).startswith(p)`); a function-style one: none."""
    func = call.func
    return _names_in(func.value) if isinstance(func, cst.Attribute) else frozenset()


class _StringsFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def visit_SimpleString(self, s: cst.SimpleString) -> None:
        value = s.evaluated_value
        self.parts.append(value if isinstance(value, str) else "")

    def visit_FormattedStringText(self, s: cst.FormattedStringText) -> None:
        self.parts.append(s.value)

    def visit_FormattedStringExpression(self, s: cst.FormattedStringExpression) -> None:
        self.parts.append("{}")  # a value shown in the message


def _strings(node: cst.CSTNode) -> str:
    finder = _StringsFinder()
    _visit(node, finder)
    return " ".join(finder.parts)


def _names_in(node: cst.CSTNode) -> frozenset[str]:
    return _names_and_calls(node)[0]


class _NamesAndCalls(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()
        self.calls: list[cst.Call] = []

    def visit_Name(self, n: cst.Name) -> None:
        self.found.add(n.value)

    def visit_Call(self, n: cst.Call) -> None:
        self.calls.append(n)


def _names_and_calls(node: cst.CSTNode) -> tuple[frozenset[str], list[cst.Call]]:
    """The names `node` reads and the calls in it (`node` itself too), in one walk."""
    finder = _NamesAndCalls()
    _visit(node, finder)
    return frozenset(finder.found), finder.calls


def _bound_side(test: cst.CSTNode) -> frozenset[str]:
    """Names a test checks against: call arguments and right-hand sides of comparisons (`p not in roots`)."""
    found: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            for a in call.args:
                found.update(_names_in(a.value))

        def visit_ComparisonTarget(self, target: cst.ComparisonTarget) -> None:
            found.update(_names_in(target.comparator))

    _visit(test, Find())
    return frozenset(found)
