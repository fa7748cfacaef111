"""Small tests the bound facts (`_bounds._facts`) ask of the code around a check: whether a value is a path,
whether a `try` catches the ValueError of `relative_to` (and what its handlers do instead), and which helper
an `if` tests."""

from __future__ import annotations

import re

import libcst as cst

from migrate_roots.codemods._bounds_spellings import _callee
from migrate_roots.codemods._read import read

_VALUE_ERROR_CATCHERS = frozenset({"ValueError", "Exception", "BaseException"})

# What makes an unresolved value a path (`os.path.dirname(p)`, `p.parent`, `target_dir`), as opposed to a key
# looked up in data read from a root (`for key in ...: if key not in raw:`, session 15's sweep D, r02).
_PATH_CALLS = frozenset(
    {"dirname", "abspath", "realpath", "normpath", "Path", "PurePath", "join", "expanduser"}
)
_PATH_NAME = re.compile(r"(^p$|path|dir|folder|file|target|dest)", re.IGNORECASE)


_OUTSIDE = re.compile(r"\boutside\b|\bnot\s+(within|inside|under)\b|\bescap(e|es|ing)\b", re.IGNORECASE)
# ... about a path: a word for one, or the value shown (`f"{p} is outside"`, `"%s escapes"`). "Citation locator is
# outside immutable evidence" (MemoryForge, a character range) is not.
_PATHISH = re.compile(
    r"\b(paths?|dirs?|director(y|ies)|folders?|roots?|workspaces?|sandbox|allowed|base|files?|repo(sitory)?|"
    r"projects?|locations?|tree|mounts?|scope|bound(s|ary)?)\b|\{|%[sr]",
    re.IGNORECASE,
)


def _says_outside(text: str) -> bool:
    return bool(_OUTSIDE.search(text)) and bool(_PATHISH.search(text))


def _targets(node: cst.CSTNode) -> frozenset[str]:
    """Names an assignment target binds (`a`, `a, b`, `[a, *b]`), not attributes or subscripts."""
    if isinstance(node, cst.Name):
        return frozenset({node.value})
    if isinstance(node, (cst.Tuple, cst.List)):
        return frozenset().union(*(_targets(e.value) for e in node.elements))
    if isinstance(node, cst.StarredElement):
        return _targets(node.value)
    if (
        isinstance(node, cst.Subscript)
        and isinstance(node.value, cst.Name)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Slice)
        and node.slice[0].slice.lower is None
        and node.slice[0].slice.upper is None
    ):
        return frozenset({node.value.value})  # `allowed[:] = [...]`: the list filled anew in place
    return frozenset()


def _node_ids(node: cst.CSTNode) -> set[int]:
    found: set[int] = set()

    class All(cst.CSTVisitor):
        def on_visit(self, child: cst.CSTNode) -> bool:
            found.add(id(child))
            return True

    read(node, All())
    return found


def _pathish(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Call):
        return _callee(node) in _PATH_CALLS
    if isinstance(node, cst.Attribute):
        return (
            node.attr.value in ("parent", "name")
            and _pathish(node.value)
            or bool(_PATH_NAME.search(node.attr.value))
        )
    return isinstance(node, cst.Name) and bool(_PATH_NAME.search(node.value))


def _code_of(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _catches_value_error(node: cst.Try, fallbacks: bool = False) -> bool:
    """A handler of the `try` catches `relative_to`'s ValueError and refuses (not a fallback: bees' `except
    ValueError: resolved_root = get_repo_root_from_path(hive_path)` picks another folder, it bounds nothing;
    with `fallbacks`, any handler that catches it)."""
    for handler in node.handlers:
        if _fallback(handler) and not fallbacks:
            continue
        if handler.type is None:
            return True
        kinds = handler.type.elements if isinstance(handler.type, cst.Tuple) else [handler.type]
        for kind in kinds:
            value = kind.value if isinstance(kind, cst.Element) else kind
            name = value.attr.value if isinstance(value, cst.Attribute) else getattr(value, "value", None)
            if name in _VALUE_ERROR_CATCHERS:
                return True
    return False


def _fallback(handler: cst.ExceptHandler) -> bool:
    """A handler that computes another value in place (a call: `found = from_path(p)`, `shown.append(name)`)
    and leaves nothing (no raise, return, break or continue) nor sets a flag (`ok = False`, or a bare `pass`
    before `if not inside: raise`): not a refusal."""
    computes, refuses = False, False

    class Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal computes, refuses
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return False
            if isinstance(node, (cst.Raise, cst.Return, cst.Break, cst.Continue)):
                refuses = True
            elif isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
                calls = isinstance(node.value, cst.Call)
                computes, refuses = computes or calls, refuses or not calls
            elif isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
                computes = True
            return not refuses

    read(handler.body, Find())
    return computes and not refuses


def _helper_test(test: cst.BaseExpression) -> cst.Call | None:
    """`helper(a, b)` or `not helper(a, b)` as an `if` test: a call of two or more arguments, whose own body says
    which of them is the bound."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test = test.expression
    if isinstance(test, cst.Await):  # `if not await is_path_allowed(path, ctx):`
        test = test.expression
    if (
        isinstance(test, cst.Call)
        and isinstance(test.func, (cst.Name, cst.Attribute))
        and len(test.args) >= 2
    ):
        return test
    return None


# Containment spelled over a whole collection at once (sweep T, r07): the bound is a collection, the path is
# checked against each member by a method handed to `map` / `filter`, or its parents are intersected with it.
DISJOINT = "the path's `parents` intersected with a collection"
_COLLECTIONS = frozenset({"set", "frozenset", "list", "tuple", "sorted"})


def _parents_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`target` of `target.parents`, `set(target.parents)`, `{target, *target.parents}`; else None."""
    if isinstance(node, cst.Attribute) and node.attr.value == "parents":
        return node.value
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _COLLECTIONS:
        return _parents_of(node.args[0].value) if len(node.args) == 1 else None
    if isinstance(node, (cst.Set, cst.List, cst.Tuple)):
        found = (_parents_of(e.value) for e in node.elements)
        return next((f for f in found if f is not None), None)
    return None


def collection_check(
    node: cst.Call | cst.BinaryOperation,
) -> tuple[str, str, cst.BaseExpression, list[cst.BaseExpression]] | None:
    """(sign, method, checked path, bound side) of `map(target.is_relative_to, bases)` (or `filter`, or a
    `startswith` the caller must find resolved: method says which), `allowed.isdisjoint(target.parents)`
    (either way round, `intersection`, `&`); else None."""
    if isinstance(node, cst.BinaryOperation):
        if not isinstance(node.operator, cst.BitAnd):
            return None
        pair = (node.left, node.right)
    elif _callee(node) in ("map", "filter") and isinstance(node.func, cst.Name) and len(node.args) >= 2:
        method = node.args[0].value
        if isinstance(method, cst.Attribute) and method.attr.value in ("is_relative_to", "startswith"):
            return (
                f"`{method.attr.value}` mapped over a collection",
                method.attr.value,
                method.value,
                [a.value for a in node.args[1:]],
            )
        return None
    elif (
        _callee(node) in ("isdisjoint", "intersection")
        and isinstance(node.func, cst.Attribute)
        and len(node.args) == 1
    ):
        pair = (node.func.value, node.args[0].value)
    else:
        return None
    for one, other in (pair, pair[::-1]):
        checked = _parents_of(one)
        if checked is not None and _parents_of(other) is None:
            return DISJOINT, "parents", checked, [other]
    return None
