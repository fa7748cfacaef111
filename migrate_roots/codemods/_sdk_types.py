"""What a type the project spells itself stands for in SDK terms, for the kinds `_sdk` decides (sweep L r03 of
session 22: each of these made a roots read silent).

- A type variable (`C = TypeVar("C", bound=Context)`, PEP 695's `async def workspace[C: Context](ctx: C)`) is
  its bound, or its constraints (`[C: (Context, ServerSession)]`); one with neither says nothing (as `Any`).
  One imported from another module of the project is the SDK class it is bound to there (`_sdk_alias`, where
  the project's names that stand for SDK ones are).
- A parameter annotated with a class of the project (of this module, or of another module of the project, read
  with `ast`), or with a type variable bound to one, has the members that class declares (`session:
  ServerSession`, or `@property def session(self) -> ServerSession`). A Protocol's member is of the kind it
  declares: any object with that member fits it, the SDK's own Context first, and a tool hands that over. Any
  other class's is a session held on an object (CAPTURED), built who knows when.
- A Protocol that declares the member with nothing migrate-roots knows (`Any`, no annotation, not at all) is
  one it cannot tell (`untold`): its read is reported, never passed over.
- A class's members include those of its project bases (`class ToolCtx(HasSession, Protocol)`: ToolCtx's
  `session` is the one HasSession declares; sweep N r09 of session 22).
- A Protocol whose `list_roots()` method returns the SDK's `ListRootsResult` is a session to its read, one that
  returns a list of the SDK's `Root` a fastmcp Context: the SDK's objects fit it and a tool hands them over
  (`roots_kind`; sweep N r05 of session 22). Another class declaring the method is the project's own.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any

import libcst as cst
from libcst.metadata import GlobalScope

from migrate_roots.codemods import _sdk_alias
from migrate_roots.codemods._read import read

_TYPEVARS = frozenset({"typing.TypeVar", "typing_extensions.TypeVar"})
_PROTOCOLS = frozenset({"typing.Protocol", "typing_extensions.Protocol"})
_NOT_A_TYPE = frozenset({"None", "Optional", "Union", "typing.Optional", "typing.Union"})


def type_parameter(state: Any, name: cst.Name) -> list[cst.BaseExpression] | None:
    """The bound (or the constraints) of the type variable `name` reads, a PEP 695 one (`[C: Context]`) or one
    of `C = TypeVar("C", bound=Context)`; [] when it has neither; None when `name` is no type variable."""
    node = _bound_by(state, name)
    if isinstance(node, cst.TypeVar):
        if node.bound is None:
            return []
        return [e.value for e in node.bound.elements] if isinstance(node.bound, cst.Tuple) else [node.bound]
    parent = state.parent(node) if isinstance(node, cst.Name) else None
    assign = state.parent(parent) if isinstance(parent, cst.AssignTarget) else None
    call = assign.value if isinstance(assign, cst.Assign) else None
    if not isinstance(call, cst.Call) or not state.qnames(call.func) & _TYPEVARS:
        return None
    return [a.value for a in call.args[1:] if a.keyword is None or a.keyword.value == "bound"]


def member_kind(state: Any, value: cst.BaseExpression, attr: str) -> str | None:
    """Kind of `value.<attr>` when `value` is a parameter annotated with a class of the project declaring
    `attr` as an SDK context or session: that kind on a Protocol, CAPTURED on another class; else None."""
    from migrate_roots.codemods import _sdk

    declared = _declared(state, value, attr)
    if declared is None:
        return None
    protocol, kind, _ = declared
    if kind in (_sdk.SESSION, _sdk.CONTEXT, _sdk.FASTMCP_CONTEXT, _sdk.REQUEST_CONTEXT):
        return kind if protocol else _sdk.CAPTURED
    return None


def roots_kind(state: Any, value: cst.BaseExpression) -> str | None:
    """SESSION or FASTMCP_CONTEXT when `value` is a parameter annotated with a Protocol of the project whose
    `list_roots()` returns the SDK's `ListRootsResult` or list of `Root`; else None."""
    from migrate_roots.codemods import _sdk

    declared = _declared(state, value, ROOTS)
    if declared is None or not declared[0]:
        return None
    return declared[1] if declared[1] in (_sdk.SESSION, _sdk.FASTMCP_CONTEXT) else None


def untold(state: Any, value: cst.BaseExpression, attr: str) -> str | None:
    """The Protocol's name, when `value` is a parameter annotated with a Protocol of the project that declares
    `attr` with nothing migrate-roots knows (or not at all): it cannot tell whether this is an MCP object."""
    declared = _declared(state, value, attr)
    return declared[2] if declared is not None and declared[0] and declared[1] is None else None


ROOTS = "list_roots"  # the member read as a method: what its call returns says the kind


def _declared(state: Any, value: cst.BaseExpression, attr: str) -> tuple[bool, str | None, str] | None:
    """(is a Protocol, the kind `attr` is declared as, the class's name) for a parameter annotated with a class
    of the project, or with a type variable bound to one."""
    if not isinstance(value, cst.Name):
        return None
    param = _bound_by(state, value)
    if not isinstance(param, cst.Param) or param.annotation is None:
        return None
    target = _one_type(param.annotation.annotation)
    for _ in range(4):  # through type variables bound to another (`[C: HasSession]`, `TypeVar(..., bound=)`)
        bound = _typevar_bound(state, target) if isinstance(target, cst.Name) else None
        if bound is None:
            break
        target = _one_type(bound)
    found = _members(state, target, attr) if target is not None else None
    return (found[0], found[1], found[3]) if found is not None else None


def _members(state: Any, target: cst.BaseExpression, attr: str, depth: int = 0) -> _Found | None:
    """What the project's class `target` names (here, or in another module of the project) declares `attr` as."""
    if not isinstance(target, (cst.Name, cst.Attribute)):
        return None
    if isinstance(target, cst.Name):
        node = _bound_by(state, target)
        if isinstance(node, cst.ClassDef) and isinstance(_scope_of(state, target, node), GlobalScope):
            return _cst_members(state, node, attr, depth)
    for name in state.qnames(target):
        found = _ast_members(state, name, attr, depth)
        if found is not None:
            return found
    return None


def _one_type(annotation: cst.BaseExpression) -> cst.BaseExpression | None:
    """The one type an annotation names beside None (`X`, `X | None`, `Optional[X]`); None for anything else."""
    if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
        parts = [annotation.left, annotation.right]
        kept = [p for p in parts if not (isinstance(p, cst.Name) and p.value == "None")]
        return _one_type(kept[0]) if len(kept) == 1 else None
    if isinstance(annotation, cst.Subscript):
        head = annotation.value
        spelled = (
            head.value
            if isinstance(head, cst.Name)
            else head.attr.value
            if isinstance(head, cst.Attribute)
            else ""
        )
        if spelled == "Optional" and len(annotation.slice) == 1:
            index = annotation.slice[0].slice
            return _one_type(index.value) if isinstance(index, cst.Index) else None
        return annotation.value  # `HasSession[T]`: the class
    return annotation if isinstance(annotation, (cst.Name, cst.Attribute)) else None


def _typevar_bound(state: Any, name: cst.Name) -> cst.BaseExpression | None:
    """The one bound of the type variable `name` reads (`[C: HasSession]`, `TypeVar("C", bound=HasSession)`)."""
    bounds = type_parameter(state, name)
    return bounds[0] if bounds is not None and len(bounds) == 1 else None


def _bound_by(state: Any, name: cst.Name) -> cst.CSTNode | None:
    """The one node that binds `name` where it is read (a parameter, a class, a type parameter), or None."""
    scope = state.scope(name)
    if scope is None or name.value not in scope:
        return None
    found = list(scope[name.value])
    return getattr(found[0], "node", None) if len(found) == 1 else None


def _scope_of(state: Any, name: cst.Name, node: cst.CSTNode) -> Any:
    scope = state.scope(name)
    return next((a.scope for a in scope[name.value] if getattr(a, "node", None) is node), None)


# (is a Protocol, the kind the member is declared as, whether the class or a base declares it, the name)
_Found = tuple[bool, str | None, bool, str]


def _cst_members(state: Any, cls: cst.ClassDef, attr: str, depth: int) -> _Found:
    from migrate_roots.codemods import _sdk

    bases = [b.value.value if isinstance(b.value, cst.Subscript) else b.value for b in cls.bases]
    protocol = any(state.qnames(b) & _PROTOCOLS for b in bases)
    annotation, declared = None, False
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and _named(small.target, attr):
                    annotation, declared = small.annotation.annotation, True
        elif isinstance(statement, cst.FunctionDef) and _named(statement.name, attr):
            declared = True
            if statement.returns and (attr == ROOTS) != _is_property(statement.decorators):
                annotation = statement.returns.annotation
    if not declared:
        return _inherited(
            protocol, cls.name.value, [_members(state, b, attr, depth + 1) for b in bases], depth
        )
    if annotation is None:
        return protocol, None, True, cls.name.value
    if attr == ROOTS:
        names = _cst_names(state, annotation)
        return protocol, _returned(names, names), True, cls.name.value
    return protocol, _sdk.annotation_kind(state, annotation), True, cls.name.value


def _inherited(protocol: bool, name: str, found: list[_Found | None], depth: int) -> _Found:
    """The member as the first base that declares it does (three classes up), on this class."""
    declared = next((f for f in found if f is not None and f[2]), None) if depth < 3 else None
    return (protocol, declared[1], True, name) if declared is not None else (protocol, None, False, name)


def _returned(names: set[str], sdk: set[str]) -> str | None:
    """The kind a `list_roots()` returning these names says (`sdk`: those that are the SDK's qualified names):
    SESSION for a `ListRootsResult`, FASTMCP_CONTEXT for a list of `Root`, FOREIGN for another type
    (`list[str]`), None when nothing is said (`Any`, `list`)."""
    from migrate_roots.codemods import _sdk

    tail = {n.rpartition(".")[2] for n in sdk if n.partition(".")[0] in (*_sdk.SDK_PREFIXES, "mcp_types")}
    if "ListRootsResult" in tail:
        return _sdk.SESSION
    if "Root" in tail:
        return _sdk.FASTMCP_CONTEXT
    return _sdk.FOREIGN if names - _NOT_A_TYPE - _sdk.OPAQUE_TYPES - _CONTAINERS else None


# What a method's return may be wrapped in, saying nothing of the roots (`Awaitable[list[Root]]`).
_CONTAINERS = frozenset(
    f"{m}.{n}" if m else n
    for m in ("", "builtins", "typing", "collections.abc")
    for n in ("list", "List", "Sequence", "Awaitable", "Coroutine", "Iterable")
)


def _cst_names(state: Any, annotation: cst.BaseExpression) -> set[str]:
    """The qualified names an annotation spells, forward references (`"Root"`) too, aliases not followed."""
    from migrate_roots.codemods import _sdk

    names: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.update(state.qnames(node))

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            names.update(state.qnames(node))
            return False

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            text = node.evaluated_value
            if isinstance(text, str):
                for part in (
                    text.replace("[", " ").replace("]", " ").replace("|", " ").replace(",", " ").split()
                ):
                    names.update(_sdk._module_qualified(state, part))

    read(annotation, Names())
    return names


def _is_property(decorators: Sequence[cst.Decorator]) -> bool:
    return any(_named(d.decorator, "property") for d in decorators)


def _named(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _ast_members(state: Any, dotted: str, attr: str, depth: int = 0) -> _Found | None:
    """`_cst_members` of a class another module of the project defines, read with `ast`: a member's names are
    the SDK's when that module imports them from the SDK (`_sdk_alias`)."""
    from migrate_roots.codemods import _sdk

    owner, _, cls_name = dotted.rpartition(".")
    if not owner or not state.module:
        return None
    if not state.import_root:
        state.import_root = _sdk_alias.import_root(state.path, state.module)
    path = _sdk_alias.first_party(state.import_root, owner)
    tree = _sdk_alias.source_tree(path) if path is not None else None
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls_name] if tree else []
    if path is None or tree is None or len(classes) != 1:
        return None
    cls = classes[0]
    bases = [b.value if isinstance(b, ast.Subscript) else b for b in cls.bases]
    protocol = any(
        _spelled(b) in ("Protocol", "typing.Protocol", "typing_extensions.Protocol") for b in bases
    )
    annotation: ast.expr | None = None
    declared = False
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == attr:
            annotation, declared = node.annotation, True
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == attr:
            declared = True
            method = not any(_spelled(d) == "property" for d in node.decorator_list)
            annotation = node.returns if node.returns and (attr == ROOTS) == method else annotation
    if not declared:
        found = [_ast_base(state, tree, path, owner, b, attr, depth) for b in bases]
        return _inherited(protocol, cls_name, found, depth)
    if annotation is None:
        return protocol, None, True, cls_name
    sdk = _sdk_alias._reexports(path, owner, state.import_root)
    names = _ast_names(annotation)
    names |= {
        n.value for n in ast.walk(annotation) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }
    known = {sdk[n] for n in names if n in sdk}
    if attr == ROOTS:
        return protocol, _returned(names - set(sdk), known), True, cls_name
    if known:
        return protocol, _sdk.names_kind(known), True, cls_name
    # `session: DbSession`: another class, known not to be MCP's; `session: Any`: nothing said.
    return protocol, _sdk.FOREIGN if names - _NOT_A_TYPE - _sdk.OPAQUE_TYPES else None, True, cls_name


def _ast_base(
    state: Any, tree: ast.Module, path: str, owner: str, base: ast.expr, attr: str, depth: int
) -> _Found | None:
    """`_ast_members` of a base a class of module `owner` names: a class of that module, or one it imports
    from another module of the project."""
    if not isinstance(base, ast.Name) or depth >= 3:
        return None
    if any(isinstance(n, ast.ClassDef) and n.name == base.id for n in tree.body):
        return _ast_members(state, f"{owner}.{base.id}", attr, depth + 1)
    package = owner if path.endswith("__init__.py") else owner.rpartition(".")[0]
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or node.level):
            source = node.module if not node.level else _sdk_alias.relative(package, node.level, node.module)
            for alias in node.names if source else ():
                if (alias.asname or alias.name) == base.id:
                    return _ast_members(state, f"{source}.{alias.name}", attr, depth + 1)
    return None


def _ast_names(annotation: ast.expr) -> set[str]:
    """The names and dotted names an annotation spells (`typing.Any`, not `typing` too)."""
    inner = {id(n.value) for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}
    spelled = [
        n for n in ast.walk(annotation) if isinstance(n, (ast.Name, ast.Attribute)) and id(n) not in inner
    ]
    return {_spelled(n) for n in spelled} - {""}


def _spelled(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _spelled(node.value)
        return f"{head}.{node.attr}" if head else ""
    return ""
