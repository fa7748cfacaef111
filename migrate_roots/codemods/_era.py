"""Tests of the client's protocol era in front of a roots read (`ctx.protocol_version >= "2026-07-28"`): they
decide for the roots as a capability check does, and are widened like one (`_capability_guard`).

The date may be a literal, a name bound only to dates (`MODERN = "2026-07-28"`, `LEGACY = {"2025-06-18", ...}`,
of the module, of another module of the project, or of the function), or the SDK's own registry (mcp 2.x
`mcp.types.version`: `in MODERN_PROTOCOL_VERSIONS`, `== LATEST_MODERN_VERSION`, `is_version_at_least(era, ...)`),
and the version a local holding `<...>.protocol_version`. Such names reach the checks as flags: `date:NAME`,
`era:NAME` and `since:NAME` for the SDK's helper (never an identifier, nor a predicate's `name()`), so a
comparison counts only when one side is the era and another a date.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods.program.flow import dotted

ATTRIBUTES = frozenset({"protocol_version", "protocolVersion"})
DATE = "date:"
ERA = "era:"
SINCE = "since:"
# mcp 2.x's registry (`mcp.types.version` mirrors `mcp_types.version`). KNOWN_/SUPPORTED_PROTOCOL_VERSIONS hold
# every revision: a test of them asks whether a version is known, not which era it is.
_REGISTRIES = ("mcp.types.version", "mcp_types.version")
_SDK_DATES = frozenset(
    f"{m}.{n}"
    for m in _REGISTRIES
    for n in (
        "HANDSHAKE_PROTOCOL_VERSIONS",
        "MODERN_PROTOCOL_VERSIONS",
        "LATEST_PROTOCOL_VERSION",
        "LATEST_HANDSHAKE_VERSION",
        "LATEST_MODERN_VERSION",
        "OLDEST_SUPPORTED_VERSION",
    )
) | {"mcp.types.LATEST_PROTOCOL_VERSION", "mcp_types.LATEST_PROTOCOL_VERSION"}
_SDK_HELPERS = frozenset(f"{m}.is_version_at_least" for m in _REGISTRIES)
_DATE = re.compile(r"20\d\d-\d\d-\d\d")
# A module that could hold a date constant or an era test (before parsing it).
SPELLED = re.compile(r"protocol_?[vV]ersion|20\d\d-\d\d-\d\d")
SPELLED_BYTES = re.compile(SPELLED.pattern.encode())
_COLLECTIONS = ("set", "frozenset", "tuple", "list")


def _dates(node: cst.BaseExpression) -> bool:
    """A date literal, or a literal collection of them (`{"2025-03-26", "2025-06-18"}`, `frozenset({...})`)."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return isinstance(value, str) and _DATE.fullmatch(value) is not None
    if isinstance(node, (cst.Set, cst.Tuple, cst.List)):
        return bool(node.elements) and all(
            isinstance(e, cst.Element) and _dates(e.value) for e in node.elements
        )
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _COLLECTIONS:
        return len(node.args) == 1 and not node.args[0].keyword and _dates(node.args[0].value)
    return False


def _era(node: cst.BaseExpression) -> bool:
    """`ctx.protocol_version`, `getattr(ctx, "protocol_version", "")` (mcp 1.x's Context has none), or either
    with a date in its place when empty (`getattr(...) or "2025-06-18"`)."""
    if isinstance(node, cst.Attribute):
        return node.attr.value in ATTRIBUTES
    if isinstance(node, cst.Call):
        return getattr_era(node)
    if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
        return _era(node.left) and (_era(node.right) or _dates(node.right))
    return False


def getattr_era(node: cst.Call) -> bool:
    """`getattr(x, "protocol_version"[, default])`."""
    if not isinstance(node.func, cst.Name) or node.func.value != "getattr" or not 2 <= len(node.args) <= 3:
        return False
    name = node.args[1].value
    return isinstance(name, cst.SimpleString) and name.evaluated_value in ATTRIBUTES


def _bindings(statements: list[cst.CSTNode]) -> dict[str, list[cst.BaseExpression | None]]:
    """Every value bound to a plain name by `=` / annotated `=` in `statements` (None: bound another way)."""
    out: dict[str, list[cst.BaseExpression | None]] = {}

    class Bound(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                plain = isinstance(target.target, cst.Name)  # not unpacked
                for name in _names(target.target):
                    out.setdefault(name, []).append(node.value if plain else None)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            for name in _names(node.target):
                out.setdefault(name, []).append(node.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            for name in _names(node.target):
                out.setdefault(name, []).append(None)

        def visit_For(self, node: cst.For) -> None:
            for name in _names(node.target):
                out.setdefault(name, []).append(None)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            for name in _names(node.target):
                out.setdefault(name, []).append(None)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False  # a nested function's names are its own

        def visit_ClassDef(self, node: cst.ClassDef) -> bool:
            return False

    for statement in statements:
        read(statement, Bound())
    return out


def _names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for e in target.elements for n in _names(e.value)]
    return []


def constants(module: cst.Module) -> frozenset[str]:
    """`date:NAME` for each top-level name bound only to dates (a name bound otherwise too is no constant)."""
    bound = _bindings(list(module.body))
    return frozenset(
        f"{DATE}{n}" for n, values in bound.items() if all(v is not None and _dates(v) for v in values)
    )


def local_flags(func: cst.FunctionDef) -> set[str]:
    """`date:x` / `era:x` for the function's names bound only to dates / only to the era (`version =
    ctx.protocol_version`); a parameter is bound by the caller, so never one."""
    params = {
        p.name.value for p in (*func.params.params, *func.params.posonly_params, *func.params.kwonly_params)
    }
    out: set[str] = set()
    for name, values in _bindings([func.body]).items():
        if name in params or any(v is None for v in values):
            continue
        if all(_dates(v) for v in values if v is not None):
            out.add(f"{DATE}{name}")
        elif all(_era(v) for v in values if v is not None):
            out.add(f"{ERA}{name}")
    return out


def sdk_flags(imports: list[cst.Import | cst.ImportFrom]) -> set[str]:
    """`date:NAME` / `since:NAME` for the SDK's version names as these imports bind them: `LATEST_MODERN_VERSION`
    (`from mcp.types.version import ...`), `version.MODERN_PROTOCOL_VERSIONS` (`from mcp.types import
    version`), `mcp.types.version.is_version_at_least` (`import mcp.types.version`)."""
    known = [(DATE, q) for q in _SDK_DATES] + [(SINCE, q) for q in _SDK_HELPERS]
    out: set[str] = set()

    def bind(qualified: str, local: str) -> None:
        for kind, name in known:
            if name == qualified:
                out.add(f"{kind}{local}")
            elif name.startswith(f"{qualified}."):
                out.add(f"{kind}{local}{name[len(qualified) :]}")

    for small in imports:
        if isinstance(small, cst.Import):
            for alias in small.names:
                module = dotted(alias.name) or ""
                if alias.asname is not None:
                    bind(module, dotted(alias.asname.name) or "")
                else:  # `import mcp.types.version` binds `mcp`: the names are read in full
                    top = module.partition(".")[0]
                    bind(top, top)
        elif small.module is not None and not small.relative:
            module = dotted(small.module) or ""
            if isinstance(small.names, cst.ImportStar):
                for kind, name in known:
                    if name.rpartition(".")[0] == module:
                        out.add(f"{kind}{name.rpartition('.')[2]}")
                continue
            for alias in small.names:
                name = dotted(alias.name) or ""
                bind(f"{module}.{name}", (dotted(alias.asname.name) or "") if alias.asname else name)
    return out


def call(node: cst.Call, flags: set[str]) -> bool:
    """`is_version_at_least(ctx.protocol_version, "2026-07-28")`: the SDK's helper asked about the client's era
    (its minimum must be a known revision, so any second argument is a date)."""
    if not isinstance(node.func, (cst.Name, cst.Attribute)) or f"{SINCE}{dotted(node.func)}" not in flags:
        return False
    version = [a.value for a in node.args if a.keyword is None][:1]
    version += [a.value for a in node.args if a.keyword is not None and a.keyword.value == "version"]
    return any(_era(v) or isinstance(v, cst.Name) and f"{ERA}{v.value}" in flags for v in version)


def mentioned(node: cst.CSTNode) -> bool:
    """Does `node` read a `protocol_version` / `protocolVersion` attribute (or through `getattr`)?"""
    found = False

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            nonlocal found
            found = found or n.attr.value in ATTRIBUTES

        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            found = found or getattr_era(n)

    read(node, Find())
    return found


def test(node: cst.Comparison, flags: set[str]) -> bool:
    """`ctx.protocol_version >= MODERN`, `version not in LEGACY`, `params.protocolVersion < "2025-06-18"`: one
    side the client's era, another a date (or dates); nothing else compared counts."""
    sides = [node.left, *(t.comparator for t in node.comparisons)]

    def named(side: cst.BaseExpression, kind: str) -> bool:
        return isinstance(side, (cst.Name, cst.Attribute)) and f"{kind}{dotted(side)}" in flags

    era = any(_era(s) or named(s, ERA) for s in sides)
    return era and any(_dates(s) or named(s, DATE) for s in sides)


def matches(func: cst.FunctionDef, flags: set[str]) -> list[cst.Match]:
    """The function's `match` statements on the client's era (`match ctx.protocol_version:`, `match version:`
    of a local holding it): not widened (a case's pattern is no test `root is None` can join), but marked."""
    found: list[cst.Match] = []

    class Find(cst.CSTVisitor):
        def visit_Match(self, node: cst.Match) -> None:
            subject = node.subject
            if _era(subject) or isinstance(subject, cst.Name) and f"{ERA}{subject.value}" in flags:
                found.append(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    read(func.body, Find())
    return found
