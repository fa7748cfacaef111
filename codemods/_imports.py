"""Adding imports in the file's own style, through libcst's import helpers."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor


def ensure_imports(needs: Iterable[tuple[str, str]]) -> Callable[[cst.CSTNode], cst.CSTNode]:
    """An edit for the Module node: `from module import name` for each need not already imported.

    A module written with leading dots is imported relatively (`from .._compat import f`).
    """
    wanted = list(dict.fromkeys(needs))

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Module)
        context = CodemodContext()
        for module, name in wanted:
            relative = len(module) - len(module.lstrip("."))
            AddImportsVisitor.add_needed_import(context, module.lstrip("."), name, relative=relative)
        return AddImportsVisitor(context).transform_module(node)

    return change
