"""Facts about a function's parameters the plan reads: annotations no path value can have (such a parameter is
never taken for the tool's path argument: `project: int | None`, a project id the roots pick; gdc-claude-plugin),
and whether the function runs a function it is given (`_run_sync(function, *args)`: what it hands its other
arguments to is out of sight; oh-my-cassette)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import libcst as cst

# Annotations no path value can have: a parameter so annotated is never the tool's path argument.
_NOT_PATH_TYPES = frozenset(
    {"int", "float", "bool", "complex", "bytes", "dict", "Dict", "set", "Set", "UUID"}
)
_PATH_TYPES = frozenset({"str", "Path", "PurePath", "PathLike", "Any", "object", "AnyStr", "Url", "AnyUrl"})


def not_a_path(annotation: cst.BaseExpression, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]) -> bool:
    names: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            names.add(node.value)  # `uuid.UUID` gives `uuid` and `UUID`

    walk(annotation, Names())
    return bool(names & _NOT_PATH_TYPES) and not names & _PATH_TYPES


def unfit_params(
    params: cst.Parameters, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]
) -> tuple[frozenset[str], frozenset[str]]:
    """(annotated as no path can be: `Func.not_paths`; with a value of their own, a default other than None or
    none at all: `Func.fixed`), the parameters the new path argument never reuses."""
    every = (*params.posonly_params, *params.params, *params.kwonly_params)
    not_paths = frozenset(
        p.name.value for p in every if p.annotation is not None and not_a_path(p.annotation.annotation, walk)
    )
    fixed = frozenset(
        p.name.value for p in every if not (isinstance(p.default, cst.Name) and p.default.value == "None")
    )
    return not_paths, fixed


def path_param(func: Any, name: str, path_like: Callable[[str], bool]) -> bool:
    """`name`, a parameter of `func` (`_roots_model.Func`), is a path: its name says so and its type does not deny
    it (`Func.not_paths`)."""
    return path_like(name) and name not in func.not_paths


# Calls that run the function value they are given (first argument).
_RUNNERS = frozenset(
    {"to_thread", "run_in_executor", "run_sync", "partial", "submit", "create_task", "start_soon", "run"}
)


def runs_param(
    func: cst.FunctionDef, params: tuple[str, ...], walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]
) -> bool:
    """Does `func` call one of its parameters, or hand one to a runner (`asyncio.to_thread(function, *args)`)?"""
    names = set(params)
    found = False

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            nonlocal found
            callee = node.func
            if isinstance(callee, cst.Name) and callee.value in names:
                found = True
            name = callee.attr.value if isinstance(callee, cst.Attribute) else getattr(callee, "value", None)
            if name in _RUNNERS and node.args:
                first = node.args[1 if name == "run_in_executor" and len(node.args) > 1 else 0].value
                found = found or (isinstance(first, cst.Name) and first.value in names)

    walk(func.body, Calls())
    return found


def module_runners(module: cst.Module, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]) -> frozenset[str]:
    """The module's top-level functions that run a function they are given (`walk`: the file's fast walk)."""
    out = set()
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef):
            ps = statement.params
            params = tuple(p.name.value for p in (*ps.posonly_params, *ps.params, *ps.kwonly_params))
            star = ps.star_arg.name.value if isinstance(ps.star_arg, cst.Param) else None
            # A runner forwards what it is given (`*args`): only such a function is walked (one walk per
            # function of every indexed file was a tenth of benchmark 3's time).
            if star is not None and runs_param(statement, (*params, star), walk):
                out.add(statement.name.value)
    return frozenset(out)
