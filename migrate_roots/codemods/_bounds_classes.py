"""Which class's method runs for an instance of a class of the project, for the roots-bound analysis
(`_bounds_refuse._held_bound`): a class holds the bound a method of its bases checks unless a method that comes
before it in the MRO replaces it. A method of a class, beside its bases' namesake:

- keeps it when it calls it: `super().check(rel)`, `super(Audited, self).check(rel)`, `Sandbox.check(self, rel)`
  (the base by any name, an alias too), `getattr(base, "check")`: anything naming the method but `self.check`
  (sweep N r01 of session 22). Whether such a call reaches the check is not read further: the bound is kept;
- catches it when that call sits in a `try` whose handler does not end in a `raise` (or a `finally` that
  returns, or `with suppress(...)`): the refusal may be answered otherwise (`except PermissionError: return
  self.root / rel`, sweep N r08). What the handler does then is not read, so the bound is kept and the marker
  names the override;
- replaces it otherwise (`return self.root / rel`): the base's check never runs (sweep I r03 of session 21).

The MRO is C3 over the project's bases, left first: `class Fast(TrustingMixin, Sandbox)` runs the mixin's
`check` (sweep N r03). A class's body is read from its own module's file, found from its dotted name under the
import root (sweep N r02: a derived class in another module than its base); a class not found there replaces
nothing, and bases whose order C3 cannot settle leave only the class's own methods replacing: when unsure, the
bound is kept.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from migrate_roots.codemods._sdk_alias import relative, source_bytes, source_tree

KEEPS, CATCHES, REPLACES = "keeps", "catches", "replaces"
_Found = tuple[str, str, ast.ClassDef, ast.Module]  # a class's module, file, statement and the module's tree
_TRIES = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)
_LONGEST = 32  # classes of an MRO read, past a hierarchy C3 could not settle anyway


@dataclass(frozen=True)
class Step:
    """A class of an MRO, with the methods the classes before it replace, and those they catch around the call
    of this one (method -> `Override.method`, for the marker)."""

    cls: str
    replaced: frozenset[str] = frozenset()
    caught: Mapping[str, str] = field(default_factory=dict)


class Init(NamedTuple):
    """What `Cls(...)` runs: `method`, an `__init__` by its dotted name (its parameters past `self` take the
    arguments); else a dataclass's: `fields` in the order they are its parameters, `post_init` by its dotted name,
    and the `InitVar` fields, which it takes as its own parameters, in order."""

    method: str | None
    fields: tuple[str, ...] = ()
    post_init: str | None = None
    init_vars: tuple[str, ...] = ()


def _dataclass_init(node: ast.ClassDef) -> bool:
    """`@dataclass`, `@dataclasses.dataclass(...)` (pydantic's too), unless `init=False`."""
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        target = call.func if call is not None else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name != "dataclass":
            continue
        off = any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in (call.keywords if call is not None else ())
        )
        return not off
    return False


def _fields(node: ast.ClassDef) -> list[tuple[str, bool]]:
    """A dataclass's own fields that its `__init__` takes: (name, an `InitVar`), in order; not a `ClassVar`,
    the `KW_ONLY` marker or a `field(init=False)`."""
    out = []
    for item in node.body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        annotation = ast.unparse(item.annotation)
        kind = annotation.rpartition(".")[2].partition("[")[0]
        if kind in ("ClassVar", "KW_ONLY") or "ClassVar[" in annotation:
            continue
        value = item.value
        if isinstance(value, ast.Call) and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in value.keywords
        ):
            continue
        out.append((item.target.id, kind == "InitVar"))
    return out


def _no_file(module: str) -> str | None:
    return None


@dataclass(frozen=True)
class Classes:
    """`bases`: classes of the project -> their bases of the project, in order (ModuleFacts.bases); `locate`:
    a module's dotted name -> its file (`_sdk_alias.module_file` under the import root)."""

    bases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    locate: Callable[[str], str | None] = _no_file
    _memo: dict[str, tuple[Step, ...]] = field(default_factory=dict, compare=False, repr=False)
    _defs: dict[str, _Found | None] = field(default_factory=dict, compare=False, repr=False)

    def lineage(self, cls: str) -> tuple[Step, ...]:
        """The MRO of `cls` (the project's classes in it), each with what the classes before it replace."""
        if cls not in self._memo:
            self._memo[cls] = self._lineage(cls)
        return self._memo[cls]

    def constructor(self, cls: str) -> Init | None:
        """How `cls(...)` binds its arguments: the `__init__` the MRO runs first, or a dataclass's generated one
        (its fields, bases' first, and the `__post_init__` that sees them as `self.<field>`). None when a class
        of the MRO before the definer is not read, or none defines one."""
        for step in self.lineage(cls):
            found = self._class_def(step.cls)
            if found is None:
                return None
            if "__init__" in self._methods(step.cls):
                return Init(f"{step.cls}.__init__")
            if _dataclass_init(found[2]):
                return self._dataclass(cls)
        return None

    def _dataclass(self, cls: str) -> Init:
        fields: dict[str, None] = {}
        init_vars: list[str] = []
        lineage = [step.cls for step in self.lineage(cls)]
        for name in reversed(lineage):  # a base's fields first, a redefined one keeps its place
            found = self._class_def(name)
            if found is None or not _dataclass_init(found[2]):
                continue
            for field_name, init_var in _fields(found[2]):
                fields[field_name] = None
                if init_var and field_name not in init_vars:
                    init_vars.append(field_name)
        post_init = next((f"{n}.__post_init__" for n in lineage if "__post_init__" in self._methods(n)), None)
        return Init(None, tuple(fields), post_init, tuple(init_vars))

    def defines(self, cls: str, method: str) -> bool:
        """The body of `cls` defines `method`."""
        return method in self._methods(cls)

    def is_class(self, name: str) -> bool:
        """`name` is a class the run can read."""
        return "." in name and self._class_def(name) is not None

    def replaces(self, cls: str) -> bool:
        """A method of the MRO of `cls` is replaced or caught by one before it (inherited calls stay `cls`'s)."""
        return any(step.replaced or step.caught for step in self.lineage(cls))

    def _lineage(self, cls: str) -> tuple[Step, ...]:
        cls = self._canonical(cls)
        order = _c3(cls, self._bases_of, frozenset(), {})
        certain = order is not None
        if order is None:  # ... only the class's own methods are sure to come first
            order = [cls, *_depth_first(cls, self._bases_of)]
        steps: list[Step] = []
        replaced: frozenset[str] = frozenset()
        caught: dict[str, str] = {}
        for name in order[:_LONGEST]:
            steps.append(Step(name, replaced, dict(caught)))
            if not certain and name != cls:
                continue
            for method, verdict in sorted(self._methods(name).items()):
                if verdict == REPLACES:
                    replaced |= {method}
                elif verdict == CATCHES and method not in replaced:
                    caught.setdefault(method, f"{name.rpartition('.')[2]}.{method}")
        return tuple(steps)

    def _bases_of(self, cls: str) -> tuple[str, ...]:
        """A class's bases of the project, each by the name of its definition (`Base = Sandbox`: `Sandbox`)."""
        found = self._class_def(cls)
        named = self.bases.get(cls) or (_project_bases(*found) if found is not None else ())
        return tuple(dict.fromkeys(self._canonical(base) for base in named))

    def _canonical(self, cls: str) -> str:
        found = self._class_def(cls)
        return f"{found[0]}.{found[2].name}" if found is not None else cls

    def _methods(self, cls: str) -> dict[str, str]:
        found = self._class_def(cls)
        if found is None:
            return {}
        return {
            item.name: _verdict(item)
            for item in found[2].body
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
        }

    def _class_def(self, cls: str, depth: int = 0) -> _Found | None:
        """(its module, its file, the class statement, the module's tree), following a re-export or a name bound
        to it (`Base = Sandbox`) three times."""
        if cls not in self._defs:
            self._defs[cls] = self._find_def(cls, depth)
        return self._defs[cls]

    def _find_def(self, cls: str, depth: int) -> _Found | None:
        module, _, name = cls.rpartition(".")
        path = self.locate(module) if module else None
        # Most dotted names asked about are functions (`pkg.server.list_files`): parse a file only when its text
        # may bind the name as a class, an alias or an import (benchmark 3: every server's own file, parsed again).
        tree = source_tree(path) if path and _may_bind(path, name) else None
        if path is None or tree is None:
            return None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == name:
                return module, path, node, tree
        source = (_imported(tree, module, path, name) or _bound_to(tree, module, name)) if depth < 3 else None
        return self._class_def(source, depth + 1) if source else None


_IMPORTS = re.compile(
    rb"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]*(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)", re.M
)


def _may_bind(path: str, name: str) -> bool:
    """Whether the file's text may bind `name` at its top: `class name`, `name = ...`, or an import naming it."""
    text = source_bytes(path)
    word = re.escape(name.encode())
    if re.search(rb"^[ \t]*class[ \t]+" + word + rb"\b|^" + word + rb"[ \t]*(?::[^\n=]*)?=", text, re.M):
        return True
    return any(re.search(rb"\b" + word + rb"\b", m.group(0)) for m in _IMPORTS.finditer(text))


def _bound_to(tree: ast.Module, module: str, name: str) -> str | None:
    """`module.Other` for a top-level `name = Other`, the last such binding (a class's alias)."""
    found = None
    for node in tree.body:
        named = isinstance(node, ast.Assign) and isinstance(node.value, ast.Name)
        if named and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):  # type: ignore[attr-defined]
            found = f"{module}.{node.value.id}"  # type: ignore[attr-defined]
    return found


def _imported(tree: ast.Module, module: str, path: str, name: str) -> str | None:
    """The dotted name `module` imports as `name` at its top (`from .extra import Loose`)."""
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        source = relative(package, node.level, node.module) if node.level else node.module
        for alias in node.names if source else ():
            if (alias.asname or alias.name) == name:
                return f"{source}.{alias.name}"
    return None


def _project_bases(module: str, path: str, node: ast.ClassDef, tree: ast.Module) -> tuple[str, ...]:
    """The bases of a class the run did not summarize that are classes of its package: defined in its module
    or imported by name."""
    out = []
    for base in node.bases:
        target = base.value if isinstance(base, ast.Subscript) else base
        if not isinstance(target, ast.Name):
            continue
        if any(isinstance(n, ast.ClassDef) and n.name == target.id for n in tree.body):
            out.append(f"{module}.{target.id}")
            continue
        source = _imported(tree, module, path, target.id)
        if source is not None and source.partition(".")[0] == module.partition(".")[0]:
            out.append(source)
    return tuple(out)


def _c3(
    cls: str,
    bases_of: Callable[[str], tuple[str, ...]],
    seen: frozenset[str],
    memo: dict[str, list[str] | None],
) -> list[str] | None:
    """C3 linearization (Python's MRO) over the project's bases; None when it fails (or on a cycle)."""
    if cls in memo:
        return memo[cls]
    if cls in seen or len(seen) > _LONGEST:
        return None
    bases = bases_of(cls)
    heads = [_c3(base, bases_of, seen | {cls}, memo) for base in bases]
    out: list[str] | None = [cls]
    pending = [list(h) for h in heads if h] + [list(bases)]
    while out is not None and any(pending):
        pending = [p for p in pending if p]
        head = next((p[0] for p in pending if not any(p[0] in q[1:] for q in pending)), None)
        if head is None:
            out = None
            break
        out.append(head)
        pending = [p[1:] if p[0] == head else p for p in pending]
    memo[cls] = None if any(h is None for h in heads) else out
    return memo[cls]


def _depth_first(cls: str, bases_of: Callable[[str], tuple[str, ...]]) -> list[str]:
    out: list[str] = []
    todo = list(bases_of(cls))
    while todo and len(out) < _LONGEST:
        current = todo.pop(0)
        if current not in out and current != cls:
            out.append(current)
            todo.extend(bases_of(current))
    return out


def _verdict(method: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """Whether `method` keeps, catches around, or replaces its bases' method of the same name."""
    calls = [node for node in ast.walk(method) if _names_base(node, method.name)]
    if not calls:
        return REPLACES
    return CATCHES if _caught(method, {id(node) for node in calls}, False) else KEEPS


def _names_base(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "super"
    if isinstance(node, ast.Attribute) and node.attr == name:
        return not (isinstance(node.value, ast.Name) and node.value.id == "self")
    return isinstance(node, ast.Constant) and node.value == name  # getattr(base, "check")


def _caught(node: ast.AST, targets: set[int], lenient: bool) -> bool:
    """One of `targets` sits where a refusal it raises may be answered otherwise."""
    if id(node) in targets and lenient:
        return True
    if isinstance(node, _TRIES):
        inner = lenient or _lenient_try(node)
        body = node.body
        rest = [*node.handlers, *node.orelse, *node.finalbody]
        return any(_caught(child, targets, inner) for child in body) or any(
            _caught(child, targets, lenient) for child in rest
        )
    if isinstance(node, (ast.With, ast.AsyncWith)):
        inner = lenient or any(_suppresses(item.context_expr) for item in node.items)
        return any(_caught(child, targets, inner) for child in node.body) or any(
            _caught(item.context_expr, targets, lenient) for item in node.items
        )
    return any(_caught(child, targets, lenient) for child in ast.iter_child_nodes(node))


def _lenient_try(node: ast.Try) -> bool:
    """A handler that may end otherwise than raising, or a `finally` that leaves the function."""
    for handler in node.handlers:
        ends_raising = bool(handler.body) and isinstance(handler.body[-1], ast.Raise)
        if not ends_raising or any(isinstance(n, ast.Return) for n in ast.walk(handler)):
            return True
    return any(
        isinstance(n, (ast.Return, ast.Break, ast.Continue)) for s in node.finalbody for n in ast.walk(s)
    )


def _suppresses(expr: ast.expr) -> bool:
    func = expr.func if isinstance(expr, ast.Call) else None
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "suppress"
