"""Adding imports in the file's own style, without a second metadata pass.

libcst's AddImportsVisitor re-resolves scope metadata over the whole module (a quarter of a second on a
small file); we only need the top-level import statements, so this walks `module.body` once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import Any

import libcst as cst

from migrate_roots.codemods import _import_order
from migrate_roots.codemods._import_order import FirstParty


def _module_name(node: cst.ImportFrom) -> str:
    dots = "." * len(node.relative)
    if node.module is None:
        return dots
    return dots + cst.Module([]).code_for_node(node.module)


def _imported(statement: cst.SimpleStatementLine) -> list[cst.ImportFrom]:
    return [s for s in statement.body if isinstance(s, cst.ImportFrom)]


def ensure_imports(
    needs: Iterable[tuple[str, str]], first_party: FirstParty = lambda top: False, single: bool = False
) -> Callable[[cst.CSTNode], cst.CSTNode]:
    """An edit for the Module node: `from module import name` for each need not already imported.

    A module written with leading dots is imported relatively (`from .._compat import f`). A name joins an
    existing top-level `from module import ...` of the same module (kept sorted if it was); otherwise a new
    statement goes in its section and place among the file's imports, as ruff's isort rules sort them
    (`_import_order`; `first_party` tells first-party top-level names), or after the docstring and
    `__future__` imports when there is none. `single`: isort's `force-single-line`, one name a statement.
    """
    wanted = list(dict.fromkeys(needs))

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Module)
        body: list[Any] = list(node.body)
        last_import = -1
        existing: dict[str, int] = {}  # module -> index of its first plain `from module import a, b`
        have: set[tuple[str, str]] = set()
        for index, statement in enumerate(body):
            if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
                break  # a late import (after the first definition) would come after the names' first use
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for item in statement.body:
                if isinstance(item, cst.Import):
                    last_import = index
                elif isinstance(item, cst.ImportFrom):
                    last_import = index
                    module = _module_name(item)
                    if isinstance(item.names, cst.ImportStar):
                        continue
                    for alias in item.names:
                        if alias.asname is None:
                            have.add((module, cst.Module([]).code_for_node(alias.name)))
                    if len(statement.body) == 1 and module != "__future__":
                        existing.setdefault(module, index)
                elif isinstance(item, cst.Expr) and index == 0:
                    last_import = max(last_import, 0)  # the docstring
        fresh: dict[str, list[str]] = {}  # module -> names for one new statement each
        for module, name in sorted(wanted, key=lambda need: (need[0], _import_order.name_key(need[1]))):
            if (module, name) in have:
                continue
            have.add((module, name))
            if module in existing and not single:
                index = existing[module]
                body[index] = _add_name(body[index], name)
            else:
                fresh.setdefault(module, []).append(name)
        for module, names in fresh.items():
            for group in [[n] for n in names] if single else [names]:
                statement = cst.parse_statement(f"from {module} import {', '.join(group)}\n")
                assert isinstance(statement, cst.SimpleStatementLine)
                body = _import_order.insert_one(body, module, statement, last_import, first_party)
        return node.with_changes(body=body)

    return change


def _add_name(statement: cst.BaseStatement, name: str) -> cst.BaseStatement:
    assert isinstance(statement, cst.SimpleStatementLine)
    item = _imported(statement)[0]
    assert not isinstance(item.names, cst.ImportStar)
    names = list(item.names)
    texts = [cst.Module([]).code_for_node(a.name) for a in names]
    alias = cst.ImportAlias(cst.Name(name))
    position = _import_order.position(texts, name)  # a sorted list stays sorted
    if item.lpar is None and len(names) > 0:
        # single-line form: `from x import a, b`
        comma = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        names = [n.with_changes(comma=comma) for n in names]
        names.insert(position, alias.with_changes(comma=comma))
        names[-1] = names[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    else:
        # parenthesized, possibly one name a line: copy the neighbour's comma (and its newline/indent)
        template = names[0].comma if names and names[0].comma is not cst.MaybeSentinel.DEFAULT else None
        comma = template if isinstance(template, cst.Comma) else cst.Comma(cst.SimpleWhitespace(" "))
        trailing = names[-1].comma
        names = [n.with_changes(comma=comma) for n in names]
        names.insert(position, alias.with_changes(comma=comma))
        names[-1] = names[-1].with_changes(comma=trailing)
    return statement.with_changes(body=[item.with_changes(names=names)])


def own_style(module: cst.Module, name: str, package: str) -> str:
    """`name` (a relative module reaching the top-level package, `.._compat`) as the file writes its own
    imports: relative when it has a relative import at the top level, else absolute (`pkg._compat`).

    Absolute only when the dots climb exactly to the top of `package` (the dotted package the file is in)."""
    dots = len(name) - len(name.lstrip("."))
    parts = package.split(".") if package else []
    if not dots or dots != len(parts):
        return name
    for statement in module.body:
        if isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(s, cst.ImportFrom) and s.relative for s in statement.body
        ):
            return name
    return f"{_namespace(module, parts[0])}{parts[0]}.{name[dots:]}"


def _namespace(module: cst.Module, top: str) -> str:
    """The namespace package the file's own absolute imports put above its top-level package (`sphinxcontrib.`
    for `from sphinxcontrib.nexus._serialize import ...` in `nexus/`, whose parent folder has no `__init__.py`),
    or ''."""
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and not small.relative and small.module is not None:
                dotted = module.code_for_node(small.module).split(".")
                if top in dotted[1:]:
                    return ".".join(dotted[: dotted.index(top, 1)]) + "."
    return ""


def first_party(path: str, package: str, shim: str = "") -> FirstParty:
    """ruff's first-party test for the file at `path`: its own top-level package always is, and so is the
    compatibility module we write beside a loose file (`shim`: how the file imports it), which sits in the
    file's own folder, where ruff run from that folder finds it."""
    from migrate_roots.codemods._style import style_of

    style = style_of(path)
    own = package.split(".")[0] if package else ""
    # The shim beside a loose file is first party where ruff finds it: with no configuration, in the folder
    # ruff runs from (taken to be the file's own); else when that folder is one of the configured `src`.
    shim_top = shim.split(".")[0] if shim and not shim.startswith(".") else ""
    folder = os.path.dirname(os.path.abspath(path))
    found = bool(shim_top) and (
        not style.root or any(os.path.abspath(os.path.join(style.root, src)) == folder for src in style.src)
    )
    return lambda top: top == own or (found and top == shim_top) or style.first_party(top)
