"""Calls through a typed value: `svc.enrich(...)` where `svc` is a parameter annotated with a class of the
package, or the result of a function whose return annotation names one (`get_service() -> Service`).

A service object handed out by a getter is a common shape of real servers (a tool calls
`get_context_service().enrich(mcp_ctx=ctx)`, and the method reads roots). The index records such a call as
`pkg.mod.Service.enrich` when the class is known in the file, or as `pkg.mod.get_service().enrich` when only
the getter is; the plan (`_roots_functions.Functions.resolve`) looks the getter's return class up across modules.
Names of the standard library and the SDKs are skipped; any other resolves only where the run summarized the
class (a class of another distribution has no summary, so the call leads nowhere).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from functools import lru_cache

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods import _sdk_alias
from migrate_roots.codemods._plumbing_queries import _contains
from migrate_roots.codemods.base import FileState

_STDLIB = frozenset(sys.stdlib_module_names) | {"typing_extensions", "builtins"}
RETURNED = "()."  # `getter().method`: the method of what `getter` returns


def returned_class(state: FileState, node: cst.FunctionDef, fq: Callable[[cst.CSTNode], set[str]]) -> str:
    """The first-party class a function's return annotation names (`-> Service`, `-> "Service"`), or ""."""
    annotation = node.returns.annotation if node.returns is not None else None
    return _class_of(state, annotation, fq) if annotation is not None else ""


def method_call(
    state: FileState, target: cst.BaseExpression, fq: Callable[[cst.CSTNode], set[str]]
) -> set[str]:
    """Dotted callee names for `x.method` when `x` is typed: `{Class}.method` or `{getter}().method`."""
    if not isinstance(target, cst.Attribute):
        return set()
    method, value = target.attr.value, target.value
    if isinstance(value, cst.Call):
        return {f"{name}{RETURNED}{method}" for name in _first_party(state, fq(value.func))}
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        cls = _self_attribute_class(state, value, fq)
        return {f"{cls}.{method}"} if cls else set()
    if not isinstance(value, cst.Name) or value.value == "self":
        return set()
    binding = _binding(state, value)
    if isinstance(binding, cst.Param) and binding.annotation is not None:
        annotation = binding.annotation.annotation
        cls = _class_of(state, annotation, fq) or _subclass_of_sdk(state, annotation)
        return {f"{cls}.{method}"} if cls else set()
    if isinstance(binding, cst.Call):
        return {f"{name}{RETURNED}{method}" for name in _first_party(state, fq(binding.func))}
    return set()


def _binding(state: FileState, name: cst.Name) -> cst.CSTNode | None:
    """The parameter that binds `name`, or the call it is assigned from once (`svc = get_service()`)."""
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    assignments = list(scope[name.value])
    if len(assignments) != 1:
        return None
    node = getattr(assignments[0], "node", None)
    if isinstance(node, cst.Param):
        return node
    parent = state.parent(node) if node is not None else None
    owner = state.parent(parent) if isinstance(parent, cst.AssignTarget) else parent
    value = getattr(owner, "value", None)
    if isinstance(owner, (cst.Assign, cst.AnnAssign)) and isinstance(value, cst.Await):
        value = value.expression
    return value if isinstance(owner, (cst.Assign, cst.AnnAssign)) and isinstance(value, cst.Call) else None


def _self_attribute_class(
    state: FileState, value: cst.Attribute, fq: Callable[[cst.CSTNode], set[str]]
) -> str:
    """The package class of `self.paths` (session 20, sweep A r01: `self.paths = Resolver()` in `__init__`, then
    `await self.paths.workspace(ctx)` in a tool): the one assignment of `.paths` in the whole file, made in the
    class `self` belongs to, from a call of that class (or annotated with it). Assigned twice, or anywhere else
    in the file, which object a call meets is not known: ""."""
    binding = _binding(state, value.value) if isinstance(value.value, cst.Name) else None
    params = state.parent(binding) if isinstance(binding, cst.Param) else None
    func = state.parent(params) if params is not None else None
    block = state.parent(func) if isinstance(func, cst.FunctionDef) else None
    owner = state.parent(block) if block is not None else None
    if not isinstance(owner, cst.ClassDef):
        return ""
    attr = value.attr.value
    found: list[cst.CSTNode] = []

    class Writes(cst.CSTVisitor):
        def _target(self, target: cst.BaseExpression, node: cst.CSTNode) -> None:
            if isinstance(target, cst.Attribute) and target.attr.value == attr:
                found.append(node)

        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                self._target(t.target, node)
                for item in t.target.elements if isinstance(t.target, (cst.Tuple, cst.List)) else ():
                    self._target(item.value, node)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            self._target(node.target, node)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            self._target(node.target, node)

        def visit_Call(self, node: cst.Call) -> None:  # `setattr(self, "paths", ...)`
            if isinstance(node.func, cst.Name) and node.func.value == "setattr":
                found.extend([node, node])

    state.walk(state.wrapper.module, Writes())
    if (
        len(found) != 1
        or not _contains(owner, found[0], state)
        or _class_binds(state.wrapper.module, attr, owner)
    ):
        return ""
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    made = getattr(found[0], "value", None)
    cls = made.func.value if isinstance(made, cst.Call) and isinstance(made.func, cst.Name) else ""
    if _written_elsewhere(root, os.path.abspath(state.path), attr, cls):
        return ""
    # In this file: the attribute handed in as a keyword (`App(paths=...)`), or a bulk update (sweep E r02).
    own = re.compile(rf"(?<![.\w]){re.escape(attr)}\s*=(?!=)|__dict__|['\"][\w.]*\b{re.escape(attr)}['\"]")
    if own.search(state.wrapper.module.code):
        return ""
    write = found[0]
    target = write.targets[0].target if isinstance(write, cst.Assign) else getattr(write, "target", None)
    if not (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
    ):
        return ""
    if isinstance(write, cst.AnnAssign):
        return _class_of(state, write.annotation.annotation, fq)
    made = getattr(write, "value", None)
    declared = _declared(owner, attr)
    if declared is not None and not (isinstance(made, cst.Call) and isinstance(made.func, cst.Name)):
        # `paths: Resolver` in the class body, `self.paths = Resolver.from_env()` (sweep C r07 of session 20)
        return _class_of(state, declared, fq)
    if not isinstance(made, cst.Call) or _rebound(state, made.func):
        return ""
    return _one(state, fq(made.func))


def _rebound(state: FileState, func: cst.BaseExpression) -> bool:
    """`Resolver` bound more than once in its scope (`if env: Resolver = FixedResolver`): which class the call
    makes is decided at run time (sweep E r06 of session 20)."""
    scope = state.scope(func) if isinstance(func, cst.Name) else None
    return scope is not None and isinstance(func, cst.Name) and len(list(scope.assignments[func.value])) > 1


def _class_binds(module: cst.Module, attr: str, owner: cst.ClassDef | None = None) -> bool:
    """A class of the file binds `attr` in its body (`paths = Fixed()`, `paths: Resolver = field(...)`): an
    instance may hold that value instead (sweep C r06 of session 20)."""
    for node in module.body:
        for statement in node.body.body if isinstance(node, cst.ClassDef) else ():
            for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else []
                # A bare declaration (`paths: Resolver`) in the class itself binds nothing: it says what
                # `self.paths` holds; in another class it may be a dataclass field, filled by its callers.
                declared = isinstance(small, cst.AnnAssign) and small.value is None and node is owner
                targets += [small.target] if isinstance(small, cst.AnnAssign) and not declared else []
                if any(isinstance(t, cst.Name) and t.value == attr for t in targets):
                    return True
    return False


def _declared(owner: cst.ClassDef, attr: str) -> cst.BaseExpression | None:
    """The annotation of a bare declaration of `attr` in the class body (`paths: Resolver`)."""
    for statement in owner.body.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if (
                isinstance(small, cst.AnnAssign)
                and small.value is None
                and isinstance(small.target, cst.Name)
                and small.target.value == attr
            ):
                return small.annotation.annotation
    return None


_SKIP = frozenset({".git", ".venv", "venv", "node_modules", "site-packages", "__pycache__", ".tox", ".nox"})


def _written_elsewhere(root: str, path: str, attr: str, cls: str = "") -> bool:
    """Another Python file under the import root (and beside `src/`, where tests live) may bind `attr` on some
    object (`app.paths = Fixed(...)` in `__main__.py`, a subclass's `self.paths = ...`, `setattr(app, "paths",
    ...)`, a class body's `paths = ...`): the tool's call could then meet a method without the new parameter
    (sweep C r04, r05 of session 20). Read as text, so any such spelling counts, also in a comment."""
    name = re.escape(attr)
    pattern = re.compile(
        # `x.paths = ...`, `"paths"` or `"pkg.server.app.paths"` (setattr, mock.patch), `paths=` (a keyword
        # handed to a constructor or `configure(**parts)`: sweep E r02, r04), a class body's `paths: ...`;
        # `setattr(` with any name and `__dict__` (bulk updates) count too.
        rf"\.{name}\s*(?::[^=\n]*)?=(?!=)|['\"][\w.]*\b{name}['\"]|\b{name}\s*=(?!=)|^\s+{name}\s*:"
        r"|\bsetattr\(|__dict__" + (rf"|^\s*{re.escape(cls)}\s*=(?!=)" if cls else ""),
        re.MULTILINE,
    )
    return any(pattern.search(text) for text in _texts(_scan_root(root), path))


def _scan_root(root: str) -> str:
    return os.path.dirname(root) if os.path.basename(root) == "src" else root


@lru_cache(maxsize=16)
def _all_texts(root: str) -> tuple[tuple[str, str], ...]:
    found: list[tuple[str, str]] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".py"):
                full = os.path.join(folder, name)
                try:
                    with open(full, encoding="utf-8", errors="replace") as handle:
                        found.append((full, handle.read()))
                except OSError:
                    continue
    return tuple(found)


def _texts(root: str, path: str) -> list[str]:
    return [text for full, text in _all_texts(root) if full != path]


def _class_of(state: FileState, annotation: cst.BaseExpression, fq: Callable[[cst.CSTNode], set[str]]) -> str:
    """A plain class name; not a string (a `TYPE_CHECKING` import), a union or a generic."""
    if isinstance(annotation, (cst.Name, cst.Attribute)):
        return _one(state, fq(annotation))
    return ""


def _subclass_of_sdk(state: FileState, annotation: cst.BaseExpression) -> str:
    """A class of the project that subclasses an SDK class (`class Context(FastMCPContext)`, defining its own
    `list_roots`): `FileState.qnames` takes it for its SDK base, and so must the rules that ask what the value
    is; what its methods call is the project's own code."""
    if not isinstance(annotation, (cst.Name, cst.Attribute)):
        return ""
    names = {
        state._absolute(q.name, q.source is QualifiedNameSource.LOCAL, sdk=False)
        for q in state.qualified_names(annotation)
        if q.source is not QualifiedNameSource.BUILTIN
    }
    return _one(state, names)


def _one(state: FileState, names: set[str]) -> str:
    found = sorted(n for n in _first_party(state, names) if n.rpartition(".")[2][:1].isupper())
    return found[0] if len(found) == 1 else ""


def _first_party(state: FileState, names: set[str]) -> set[str]:
    return {n for n in names if n.split(".")[0] not in _STDLIB and not n.startswith(("mcp.", "fastmcp."))}


def instances(state: FileState, fq: Callable[[cst.CSTNode], set[str]]) -> dict[str, str]:
    """Module-level names bound once to an instance of a package class (`workspace = Workspace()`): what an
    importer's `workspace.load(ctx)` calls is `Workspace.load`."""
    out: dict[str, str] = {}
    counts: dict[str, int] = {}
    for stmt in state.wrapper.module.body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
            continue
        small = stmt.body[0]
        if isinstance(small, cst.Assign) and len(small.targets) == 1:
            target, value = small.targets[0].target, small.value
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            target, value = small.target, small.value
        else:
            continue
        if not isinstance(target, cst.Name):
            continue
        counts[target.value] = counts.get(target.value, 0) + 1
        if isinstance(value, cst.Call):
            cls = _one(state, fq(value.func))
            if cls:
                out[target.value] = cls
    # Bound more than once (`workspace = None` first, then replaced): which one a call meets is not known.
    return {name: cls for name, cls in out.items() if counts[name] == 1}
