"""SDK names that reach a module through the project's own re-export module.

    # pkg/_sdk.py
    from mcp.server import MCPServer
    from mcp.server.mcpserver.context import Context
    # pkg/server.py
    from ._sdk import Context, MCPServer

`Context` in `server.py` is `pkg._sdk.Context` to libcst, a class of the project, and the roots read under
`ctx: Context` was not an MCP call: no finding at all (clew). A module of the project (a file under the
folder the importing module's dotted name starts from, in a package or loose beside it) whose own imports come
from an SDK (`mcp`, `fastmcp`) is read (with `ast`, once per process) and its names are taken for the SDK's:
`FileState.qnames` then answers `mcp.server.mcpserver.context.Context`, and every rule sees the SDK name.
Only `from SDK import NAME [as ALIAS]` at the module's top level counts, or an import of such a name from
another module of the project (relative ones too: a package `__init__` re-exporting a subclass), three modules
deep; a module that defines the name itself (`class Context(...)`) is not an alias, unless the class subclasses
such a name (`class MyMCP(FastMCP)`, in the module itself or another of the project): then it stands for its
SDK base, so an instance is a server object and its `@mcp.tool()` functions are tools. So does a type variable
bound to one (`C = TypeVar("C", bound=Context)`), or constrained to such names only: `ctx: C` is a Context
(sweep L r03 of session 22; a PEP 695 `[C: Context]` is scoped to its function, read by `_sdk_types`). So does a
type alias of one (`Ctx = Context[AppState, Any]`, `Ctx: TypeAlias = Context | None`, `type Ctx = Context`):
`ctx: Ctx` imported from `pkg/types.py` is a Context as it is in that module (sweep N r04 of session 22).
"""

from __future__ import annotations

import ast
import os
import stat
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any

_SDKS = ("mcp", "fastmcp")
# Never a first-party module: the SDKs themselves and the standard library (3.10+ lists it).
_SKIP = frozenset(_SDKS) | frozenset(getattr(sys, "stdlib_module_names", ()))


@lru_cache(maxsize=1024)
def _reexports(path: str, module: str = "", root: str = "", depth: int = 0) -> dict[str, str]:
    """Name -> the SDK's qualified name, for the SDK names `path` (the module `module` under `root`) imports at
    its top level, directly or through another module of the project (`from .server import MCPServer`, whose
    module subclasses FastMCP: mcp-use's package `__init__`), up to three modules deep."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return {}
    if b"mcp" not in data and (b"import" not in data or not module):
        return {}
    package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
    follow = None
    if module and root and depth < 3:

        def follow(source: str, name: str) -> str | None:
            target = module_file(root, source)
            return _reexports(target, source, root, depth + 1).get(name) if target is not None else None

    return _fold(top_level(data, package if module else None), follow)


def local(module: object) -> dict[str, str]:
    """`_reexports` of a module already parsed with libcst (the file being walked: no second read)."""
    return _fold(_top_level_module(module))


def _fold(
    bindings: list[tuple[str, str, tuple[str, ...]]], follow: Callable[[str, str], str | None] | None = None
) -> dict[str, str]:
    found: dict[str, str] = {}
    for kind, name, detail in bindings:
        if kind == "import":
            if detail[0].partition(".")[0] in _SDKS and detail[1] != "*":
                found[name] = f"{detail[0]}.{detail[1]}"
            elif follow is not None and detail[1] != "*" and detail[0].partition(".")[0] not in _SKIP:
                target = follow(*detail)
                if target is not None:
                    found[name] = target
                else:
                    found.pop(name, None)
        elif kind == "class" and any(b in found for b in detail):
            # `class MyMCP(FastMCP)`, `class Tools(Mixin, FastMCP)`: an instance is the SDK's server to the rules.
            found[name] = found[next(b for b in detail if b in found)]
        elif kind == "typevar" and detail and all(b in found for b in detail):
            found[name] = found[detail[0]]  # `C = TypeVar("C", bound=Context)`: `ctx: C` is a Context
        elif kind == "alias" and any(b in found for b in detail):
            # `Ctx = Context[AppState, Any]`: `ctx: Ctx` is a Context, as the annotation itself would be
            # (`_sdk.names_kind`: an SDK class in a union says the kind)
            found[name] = found[next(b for b in detail if b in found)]
        else:  # defined here after all: the project's own class or value, not the SDK's
            found.pop(name, None)
    return found


def top_level(data: bytes, package: str | None = None) -> list[tuple[str, str, tuple[str, ...]]]:
    """The module's top-level bindings, in order: ("import", bound name, (module, imported name)) for an
    absolute `from M import N [as A]` (a relative one too, resolved against `package` when given), ("class",
    name, base names), ("typevar", name, its bound or constraints) for `C = TypeVar("C", bound=B)`, ("alias",
    name, its names) for a type alias (`_alias_of`), ("def", name, ()) for a function or
    another assignment. With `ast`; syntax newer than this interpreter (`def f[**P]`, 3.12) with libcst
    (absolute imports only)."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return _top_level_cst(data)
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.module or node.level):
            source = node.module if not node.level else relative(package, node.level, node.module)
            if source is not None:
                out += [("import", a.asname or a.name, (source, a.name)) for a in node.names]
        elif isinstance(node, ast.ClassDef):
            # `class App(FastMCP[LifespanContext])`: a generic base is its class.
            bases = [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]
            out.append(("class", node.name, tuple(b.id for b in bases if isinstance(b, ast.Name))))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(("def", node.name, ()))
        elif isinstance(node, ast.Assign) or isinstance(node, ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bounds = _typevar_bounds(node.value) if node.value is not None else ()
            alias = _alias_of(node.value) if node.value is not None else ()
            out += [
                ("typevar", t.id, bounds)
                if bounds
                else ("alias", t.id, alias)
                if alias
                else ("def", t.id, ())
                for t in targets
                if isinstance(t, ast.Name)
            ]
        elif type(node).__name__ == "TypeAlias":  # `type Ctx = Context` (3.12)
            name, value = getattr(node, "name", None), getattr(node, "value", None)
            alias = _alias_of(value) if isinstance(value, ast.expr) else ()
            if isinstance(name, ast.Name):
                out.append(("alias", name.id, alias) if alias else ("def", name.id, ()))
    return out


def _alias_of(value: ast.expr) -> tuple[str, ...]:
    """The names a type alias stands for: `Context`, `Context[AppState, Any]`, `Context | None`,
    `Optional[Context]`, `Union[Context, ServerSession]`; () for any other value (a call, an attribute)."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.BitOr):
        parts = [_alias_of(v) for v in (value.left, value.right) if not _is_none(v)]
    elif isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        if value.value.id not in ("Optional", "Union"):
            return (value.value.id,)  # `Context[AppState, Any]`: the class
        index = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
        parts = [_alias_of(v) for v in index if not _is_none(v)]
    else:
        return (value.id,) if isinstance(value, ast.Name) else ()
    return tuple(n for p in parts for n in p) if parts and all(parts) else ()


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _typevar_bounds(value: ast.expr) -> tuple[str, ...]:
    """The names a `TypeVar("C", bound=B)` is bound to (`B`, or its constraints `TypeVar("C", A, B)`), by the
    name of each (`"B"` too); () for any other value, an unbounded type variable, or a bound not a plain name."""
    func = value.func if isinstance(value, ast.Call) else None
    spelled = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    if spelled != "TypeVar" or not isinstance(value, ast.Call):
        return ()
    bound = [k.value for k in value.keywords if k.arg == "bound"]
    found = [b.value if isinstance(b, ast.Subscript) else b for b in [*bound, *value.args[1:]]]
    names = [
        b.id if isinstance(b, ast.Name) else b.value if isinstance(b, ast.Constant) else None for b in found
    ]
    words = tuple(n for n in names if isinstance(n, str) and n.isidentifier())
    return words if words and len(words) == len(names) else ()


def relative(package: str | None, level: int, module: str | None) -> str | None:
    """`from ..x import y` in `package` -> the absolute module (None: unknown package, or above the top)."""
    if not package:
        return None
    parts = package.split(".")
    if level - 1 >= len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, module] if module else base)


def _top_level_cst(data: bytes) -> list[tuple[str, str, tuple[str, ...]]]:
    import libcst as cst

    try:
        module = cst.parse_module(data)
    except Exception:  # noqa: BLE001 (libcst's parser errors have no common base worth naming)
        return []
    return _top_level_module(module)


def _top_level_module(module: object) -> list[tuple[str, str, tuple[str, ...]]]:
    import libcst as cst

    assert isinstance(module, cst.Module)
    out: list[tuple[str, str, tuple[str, ...]]] = []
    for statement in module.body:
        if isinstance(statement, cst.ClassDef):
            values = [
                a.value.value if isinstance(a.value, cst.Subscript) else a.value for a in statement.bases
            ]
            bases = tuple(v.value for v in values if isinstance(v, cst.Name))
            out.append(("class", statement.name.value, bases))
        elif isinstance(statement, cst.FunctionDef):
            out.append(("def", statement.name.value, ()))
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                    source = module.code_for_node(small.module)
                    names = small.names if isinstance(small.names, (list, tuple)) else ()
                    for alias in names:
                        bound = alias.asname.name if alias.asname is not None else alias.name
                        if isinstance(bound, cst.Name):
                            out.append(("import", bound.value, (source, module.code_for_node(alias.name))))
                elif isinstance(small, cst.Assign) or isinstance(small, cst.AnnAssign) and small.value:
                    targets = small.targets if isinstance(small, cst.Assign) else [small]
                    bounds = _typevar_bounds_cst(small.value)
                    alias = _alias_of_cst(small.value)
                    out += [
                        ("typevar", t.target.value, bounds)
                        if bounds
                        else ("alias", t.target.value, alias)
                        if alias
                        else ("def", t.target.value, ())
                        for t in targets
                        if isinstance(t.target, cst.Name)
                    ]
                elif isinstance(small, cst.TypeAlias):  # `type Ctx = Context`
                    alias = _alias_of_cst(small.value)
                    out.append(("alias", small.name.value, alias) if alias else ("def", small.name.value, ()))
    return out


def _alias_of_cst(value: Any) -> tuple[str, ...]:
    """`_alias_of` of a libcst expression."""
    import libcst as cst

    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.BitOr):
        parts = [_alias_of_cst(v) for v in (value.left, value.right) if not _named_none(v)]
    elif isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name):
        if value.value.value not in ("Optional", "Union"):
            return (value.value.value,)  # `Context[AppState, Any]`: the class
        index = [e.slice.value for e in value.slice if isinstance(e.slice, cst.Index)]
        parts = [_alias_of_cst(v) for v in index if not _named_none(v)]
    else:
        return (value.value,) if isinstance(value, cst.Name) else ()
    return tuple(n for p in parts for n in p) if parts and all(parts) else ()


def _named_none(node: Any) -> bool:
    import libcst as cst

    return isinstance(node, cst.Name) and node.value == "None"


def _typevar_bounds_cst(value: Any) -> tuple[str, ...]:
    """`_typevar_bounds` of a libcst expression."""
    import libcst as cst

    func = value.func if isinstance(value, cst.Call) else None
    spelled = (
        func.value
        if isinstance(func, cst.Name)
        else func.attr.value
        if isinstance(func, cst.Attribute)
        else ""
    )
    if spelled != "TypeVar":
        return ()
    found = [a.value for a in value.args[1:] if a.keyword is None or a.keyword.value == "bound"]
    found = [b.value if isinstance(b, cst.Subscript) else b for b in found]
    names = [
        b.value if isinstance(b, cst.Name) else b.evaluated_value if isinstance(b, cst.SimpleString) else None
        for b in found
    ]
    words = tuple(n for n in names if isinstance(n, str) and n.isidentifier())
    return words if words and len(words) == len(names) else ()


def source_tree(path: str) -> ast.Module | None:
    """The `ast` of a project file, parsed once while it stays the same (by absolute path, size and mtime: a
    run's relative paths, and the tests' files of one name in many folders, must not share an entry)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None  # a FIFO or a device named `x.py` would block the read
    return _parsed(os.path.abspath(path), info.st_size, info.st_mtime_ns)


@lru_cache(maxsize=256)
def _parsed(path: str, size: int, mtime: int) -> ast.Module | None:
    data = _bytes(path, size, mtime)
    try:
        return ast.parse(data) if data is not None else None
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def source_bytes(path: str) -> bytes:
    """The bytes of a project file, read once while it stays the same (as `source_tree`'s), b'' when unreadable."""
    try:
        info = os.stat(path)
    except OSError:
        return b""
    if not stat.S_ISREG(info.st_mode):
        return b""
    return _bytes(os.path.abspath(path), info.st_size, info.st_mtime_ns) or b""


@lru_cache(maxsize=256)
def _bytes(path: str, size: int, mtime: int) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def module_file(import_root: str, module: str) -> str | None:
    base = os.path.join(import_root, *module.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


@lru_cache(maxsize=1024)
def _instances(path: str, module: str, root: str, depth: int = 0) -> dict[str, str]:
    """Top-level names of a module bound to an instance of an SDK class (`server = Server("x")`, or of the
    project's subclass of one), or imported from a module that binds one (a package `__init__` re-exporting
    `from ._app import server`, three modules deep): name -> the SDK class's qualified name."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        tree = ast.parse(data)
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    classes = _reexports(path, module, root) if b"mcp" in data else {}
    package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and depth < 3:
            source = node.module if not node.level else relative(package, node.level, node.module)
            for alias in node.names if source else ():
                cls = instance_of(f"{source}.{alias.name}", root, depth + 1)
                if cls is not None:
                    found[alias.asname or alias.name] = cls
            continue
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in classes:
            found.update((t.id, classes[value.func.id]) for t in targets if isinstance(t, ast.Name))
    return found


@lru_cache(maxsize=4096)
def instance_of(name: str, root: str, depth: int = 0) -> str | None:
    """The SDK class a module-level name of another module of the project is an instance of (`pkg.app.server`
    for `server = Server("x")` in pkg/app.py -> `mcp.server.lowlevel.Server`), or None."""
    owner, _, attr = name.rpartition(".")
    path = first_party(root, owner) if owner else None
    return _instances(path, owner, root, depth).get(attr) if path is not None else None


def first_party(import_root: str, module: str) -> str | None:
    """`module_file`, never looked for when the module is an SDK's or the standard library's."""
    return None if module.partition(".")[0] in _SKIP else module_file(import_root, module)


def import_root(path: str, module: str) -> str:
    """The folder the file's dotted module name starts from."""
    folder = os.path.dirname(os.path.abspath(path))
    for _ in range(module.count(".") + (os.path.basename(path) == "__init__.py")):
        folder = os.path.dirname(folder)
    return folder


def translate(name: str, module: str, root: str, cache: dict[str, str | None]) -> str:
    """`name` (absolute), or the SDK's name it stands for when a first-party module re-exports it
    (`pkg._sdk.Context.session` -> `mcp.server.mcpserver.context.Context.session`). `cache`: the file's own
    answers, by name."""
    top = name.partition(".")[0]
    if top == name or top in _SKIP:
        return name
    if name in cache:
        return cache[name] or name
    answer = None
    parts = name.split(".")
    for i in range(len(parts) - 1, 0, -1):
        owner = ".".join(parts[:i])
        path = module_file(root, owner)
        if path is not None:
            target = _reexports(path, owner, root).get(parts[i])
            answer = ".".join([target, *parts[i + 1 :]]) if target else None
            break
    cache[name] = answer
    return answer or name


@lru_cache(maxsize=256)
def parsed_module(path: str) -> Any:
    """Another first-party module's libcst tree, parsed once per process for the rules that look into it (a
    closed model it defines, the `Field` its star import binds), or None when it cannot be read or parsed."""
    import libcst as cst

    try:
        with open(path, "rb") as handle:
            return cst.parse_module(handle.read())
    except (OSError, cst.ParserSyntaxError, RecursionError):
        return None
