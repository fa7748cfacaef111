"""A package module that is also run by its path keeps starting after the rewrite.

`python srv/server.py`, `fastmcp run srv/server.py` and `mcp run srv/server.py` put the file's own folder on
`sys.path` and load it outside its package, where neither `from ._mcp_roots_compat import ...` nor `from
srv._mcp_roots_compat import ...` resolves (unless the package is installed). A module of the top-level package
that shows it is run as a script (a `__main__` block) and never imports its own package gets the compatibility module's import in both forms:

    if TYPE_CHECKING or __package__:
        from ._mcp_roots_compat import list_roots_compat
    else:  # run by its path: its own folder is on sys.path
        from _mcp_roots_compat import list_roots_compat

Type checkers take the first branch only (`TYPE_CHECKING` is true for them), so mypy and pyright see one
import, of a module they resolve; ruff's type-checking rules do not take the test for a type-checking block.
Not covered: a module deeper in the package (its folder does not hold the compatibility module), and a module
without a `__main__` block that `fastmcp run pkg/server.py` loads (most package modules that build a server
are imported, or run with `python -m`, and the plain import reads better there).
"""

from __future__ import annotations

import os
import re
from typing import Any

import libcst as cst

from migrate_roots.codemods import _import_order

TEST = "TYPE_CHECKING or __package__"
_COMMENT = "# run by its path: its own folder is on sys.path"


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def applies(module: cst.Module, package: str, shim: str, path: str = "") -> bool:
    """Whether the file (in dotted `package`, importing the compatibility module as `shim`, relative; at
    `path`) is a module of the top-level package that may be run by its path, or imported by its bare name
    from a module beside it that is (`from tools import register` in a `server.py` with a `__main__` block:
    run so, its folder is on `sys.path` and `tools` is a top-level module; sweep G r15)."""
    if not package or "." in package or not shim.startswith(".") or shim.startswith(".."):
        return False
    if _binds_type_checking(module, imported=False):
        return False  # a flag of its own named `TYPE_CHECKING`: the plain import (documented)
    shown = False
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.ImportFrom) and (
                    small.relative
                    or (small.module is not None and _code(small.module).split(".")[0] == package)
                ):
                    return False  # it imports its own package: it is never run by its path as it stands
                if isinstance(small, cst.Import) and any(
                    _code(a.name).split(".")[0] == package for a in small.names
                ):
                    return False
        elif isinstance(statement, cst.If) and _code(statement.test).replace("'", '"') in (
            '__name__ == "__main__"',
            '"__main__" == __name__',
        ):
            shown = True
    return shown or bool(path) and _imported_by_a_script(path, package)


def _shim_names(statement: cst.CSTNode, forms: frozenset[str]) -> list[str] | None:
    """The names of a lone `from <shim> import a, b` in one of its spellings (`forms`), else None."""
    if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
        return None
    imp = statement.body[0]
    if not isinstance(imp, cst.ImportFrom) or imp.module is None or isinstance(imp.names, cst.ImportStar):
        return None
    if "." * len(imp.relative) + _code(imp.module) not in forms:
        return None
    if any(a.asname is not None for a in imp.names):
        return None
    return [_code(a.name) for a in imp.names]


def is_block(statement: cst.CSTNode) -> bool:
    """Whether `statement` is a block of ours (module-level declarations we write go after it)."""
    return isinstance(statement, cst.If) and _code(statement.test) == TEST


def _block_names(statement: cst.CSTNode, shim: str) -> list[str] | None:
    """The names a block of ours imports, else None."""
    if not is_block(statement):
        return None
    assert isinstance(statement, cst.If)
    names: list[str] = []
    for line in statement.body.body:
        found = _shim_names(line, frozenset({shim}))
        if found is None:
            return None
        names.extend(found)
    return names


def _block(shim: str, names: list[str], single: bool, eol: str) -> cst.If:
    groups = [[n] for n in names] if single else [names]
    bare = shim.lstrip(".")
    first = "".join(f"    from {shim} import {', '.join(g)}{eol}" for g in groups)
    second = "".join(f"    from {bare} import {', '.join(g)}{eol}" for g in groups)
    statement = cst.parse_statement(f"if {TEST}:{eol}{first}else:  {_COMMENT}{eol}{second}")
    assert isinstance(statement, cst.If)
    return statement


def dual_import(shim: str, package: str, single: bool) -> Any:
    """An edit for the Module node: every lone import of the compatibility module (`shim`, relative; or
    absolute from `package`) joins one block of both forms, placed where the first of them stood."""
    forms = frozenset({shim, f"{package}.{shim.lstrip('.')}"})

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Module)
        body: list[Any] = []
        names: list[str] = []
        place: int | None = None
        leading: Any = ()
        for statement in node.body:
            found = _shim_names(statement, forms)
            if found is None:
                found = _block_names(statement, shim)
            if found is None:
                body.append(statement)
                continue
            names.extend(found)
            if place is None:
                place = len(body)
                leading = statement.leading_lines
            body.append(None)
        if place is None:
            return node
        ordered = sorted(dict.fromkeys(names), key=_import_order.name_key)
        block = _block(shim, ordered, single, node.default_newline)
        body[place] = block.with_changes(leading_lines=leading)
        return node.with_changes(body=[s for s in body if s is not None])

    return change


def finish(state: Any, shim: str) -> None:
    """After the compatibility module's names are imported in `state`'s file (`shim`: its relative name):
    the import in both forms, when the file may be run by its path."""
    from migrate_roots.codemods._imports import ensure_imports, first_party
    from migrate_roots.codemods._style import style_of

    module = state.wrapper.module
    if not applies(module, state.package, shim, state.path):
        return
    single = style_of(state.path).force_single_line
    if not _binds_type_checking(
        module
    ):  # `from typing_extensions import TYPE_CHECKING`, `TYPE_CHECKING = False`
        state.edit(
            module,
            ensure_imports([("typing", "TYPE_CHECKING")], first_party(state.path, state.package), single),
        )
    state.edit(module, dual_import(shim, state.package, single))


def _binds_type_checking(module: cst.Module, imported: bool = True) -> bool:
    """Whether the module binds `TYPE_CHECKING` at its top already (sweep G r16): by an import (`from
    typing_extensions import TYPE_CHECKING`), or, with `imported` false, by an assignment (`TYPE_CHECKING =
    False`, which the block cannot use: it may come after the imports)."""
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            names: list[cst.BaseExpression] = []
            if imported and isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                names = [a.asname.name if a.asname else a.name for a in small.names]
            if not imported:
                names += [t.target for t in small.targets] if isinstance(small, cst.Assign) else []
                names += [small.target] if isinstance(small, cst.AnnAssign) else []
            if any(isinstance(n, cst.Name) and n.value == "TYPE_CHECKING" for n in names):
                return True
    return False


_MAIN = re.compile(r"""^if\s+(__name__\s*==\s*["']__main__["']|["']__main__["']\s*==\s*__name__)\s*:""", re.M)


def _imported_by_a_script(path: str, package: str) -> bool:
    """A module beside `path` with a `__main__` block, and no import of its own package `package`, imports it by
    its bare name (`from tools import x`, `import tools`). A script importing its package needs it importable,
    and then the plain import serves too; two forms in one process would load the compatibility module twice,
    with two `RootsArgumentError` classes (sweep J r04 of session 21)."""
    own = re.compile(rf"^\s*(from\s+(\.|{re.escape(package)}\b)|import\s+{re.escape(package)}\b)", re.M)
    folder, name = os.path.split(os.path.abspath(path))
    stem = name[:-3] if name.endswith(".py") else name
    bare = re.compile(rf"^\s*(from\s+{re.escape(stem)}\s+import\b|import\s+{re.escape(stem)}\b)", re.M)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return False
    for other in names:
        full = os.path.join(folder, other)
        # Regular files only: a FIFO named `x.py` would block the open (tests/test_reliability.py).
        if not other.endswith(".py") or other == name or not os.path.isfile(full):
            continue
        try:
            with open(full, encoding="utf-8", errors="replace") as handle:
                text = handle.read(1_000_000)
        except OSError:
            continue
        if _MAIN.search(text) and bare.search(text) and not own.search(text):
            return True
    return False
