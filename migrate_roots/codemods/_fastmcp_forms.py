"""fastmcp's own ways to shape a tool's schema apart from its Python signature, which the new argument must
respect (session 16's sweep G):

- a parameter exposed under another name (`folder: Annotated[str, Field(alias="root")]`): the schema name is
  taken, so the new parameter must not take it too (r01: one `root` filled both);
- a parameter hidden by `exclude_args=[...]`: no caller can give it, so it is never the tool's argument (r06);
- a tool handed to `Tool.from_tool(tool, transform_fn=fn)`: fastmcp requires `fn` to declare every parameter of
  the tool unless it takes `**kwargs`, so a parameter added to the tool stops the server importing (r02).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_handed_to import _fq, _short_code
from migrate_roots.codemods._roots_model import Func, Summary, import_root
from migrate_roots.codemods._roots_uses import spells
from migrate_roots.codemods.base import FileState

Key = tuple[str, str]
_ALIASES = frozenset({"alias", "validation_alias"})  # `serialization_alias` names no input
_TRANSFORMERS = frozenset({"Tool", "FunctionTool", "TransformedTool"})


def schema_names(func: Func, node: cst.FunctionDef, state: FileState) -> None:
    """Record on `func` what fastmcp makes of its parameters: alias names are taken in the schema (`Func.taken`),
    and an aliased or hidden parameter is never the tool's argument (`not_paths`, `fixed`): an aliased one is given
    under another name than the one its errors would say, a hidden one by no caller."""
    aliases = alias_names(node.params) if spells(state, "alias") else {}  # a walk only where it may find one
    unfit = frozenset(aliases)
    if spells(state, "exclude_args"):
        unfit = unfit.union(*(hidden(d.decorator, func.params) for d in node.decorators))
    func.taken = func.taken.union(*aliases.values())
    func.not_paths, func.fixed = func.not_paths | unfit, func.fixed | unfit


def alias_names(params: cst.Parameters) -> dict[str, frozenset[str]]:
    """Parameter -> the input names a pydantic `Field(alias=...)` (in `Annotated` or as its default) gives it."""
    out: dict[str, frozenset[str]] = {}
    for p in (*params.posonly_params, *params.params, *params.kwonly_params):
        found: set[str] = set()
        for part in (p.annotation.annotation if p.annotation is not None else None, p.default):
            if part is not None:
                found |= _aliases_in(part)
        if found:
            out[p.name.value] = frozenset(found)
    return out


def _aliases_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value in _ALIASES:
                    found.update(_strings(arg.value))  # `AliasChoices("root", "dir")` too

    read(node, Calls())
    return found


def _strings(node: cst.BaseExpression) -> set[str]:
    out: set[str] = set()

    class Strings(cst.CSTVisitor):
        def visit_SimpleString(self, s: cst.SimpleString) -> None:
            value = s.evaluated_value
            out.add(value if isinstance(value, str) else "")

    read(node, Strings())
    return out


def hidden(registration: cst.BaseExpression, params: tuple[str, ...]) -> frozenset[str]:
    """The parameters a registration's `exclude_args=[...]` hides from the schema (`@mcp.tool(exclude_args=
    ["workspace"])`, `mcp.tool(exclude_args=...)(fn)`); a value other than a list of strings: all of them."""
    calls = []
    while isinstance(registration, cst.Call):
        calls.append(registration)
        registration = registration.func
    for call in calls:
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == "exclude_args":
                value = arg.value
                items = value.elements if isinstance(value, (cst.List, cst.Tuple, cst.Set)) else None
                if items is None or not all(isinstance(e.value, cst.SimpleString) for e in items):
                    return frozenset(params)
                return frozenset(str(e.value.evaluated_value) for e in items)  # type: ignore[attr-defined]
    return frozenset()


# A `from_tool` call: (the tool's function, its transform_fn, the enclosing scope, line, as written, the tool's names).
Transform = tuple[cst.BaseExpression, cst.BaseExpression | None, str, int, str, frozenset[str]]


def note_transform(
    found: list[Transform], node: cst.Call, state: FileState, function: cst.FunctionDef | None
) -> None:
    """Append to `found` the call `node` when it is fastmcp's `Tool.from_tool(tool, transform_fn=fn)`."""
    transformed = transform(node, lambda n: _fq(state, n))
    if transformed is None:
        return
    spelling = f"{_short_code(state, node.func)}({_short_code(state, transformed[0])}, ...)"
    tool = tool_function(transformed[0], state)
    scope = state.qualname(function) if function is not None else ""
    found.append((tool, transformed[1], scope, state.pos(node)[0], spelling, frozenset(_fq(state, tool))))


def transform(
    node: cst.Call, fq: Callable[[cst.CSTNode], set[str]]
) -> tuple[cst.BaseExpression, cst.BaseExpression | None] | None:
    """(the tool, its `transform_fn`) of fastmcp's `Tool.from_tool(tool, ..., transform_fn=fn)`; the function
    None when it is not a plain name or a lambda (it cannot be read here)."""
    if not isinstance(node.func, cst.Attribute) or node.func.attr.value != "from_tool":
        return None
    names = fq(node.func)
    if not any(n.startswith("fastmcp.") and n.split(".")[-2] in _TRANSFORMERS for n in names):
        return None
    keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
    positional = [a.value for a in node.args if a.keyword is None and not a.star]
    tool = keywords.get("tool", positional[0] if positional else None)
    if tool is None or "transform_fn" not in keywords:
        return None
    fn = keywords["transform_fn"]
    return tool, fn if isinstance(fn, (cst.Name, cst.Lambda)) else None


def tool_function(tool: cst.BaseExpression, state: FileState) -> cst.BaseExpression:
    """The function a tool value names: itself, or the function registered where the name is bound once
    (`search = mcp.tool(tools.search)`, then `Tool.from_tool(search, ...)`)."""
    scope = state.scope(tool) if isinstance(tool, cst.Name) else None
    bound = (
        [getattr(a, "node", None) for a in scope[tool.value]] if isinstance(tool, cst.Name) and scope else []
    )
    target = state.parent(bound[0]) if len(bound) == 1 and bound[0] is not None else None
    assign = state.parent(target) if isinstance(target, cst.AssignTarget) else None
    value = assign.value if isinstance(assign, cst.Assign) else None
    if not isinstance(value, cst.Call):
        return tool
    args = [a.value for a in value.args if a.keyword is None and not a.star]
    return args[0] if args else tool


def registered_fn(
    callee: cst.BaseExpression, state: FileState, fq: Callable[[cst.CSTNode], set[str]]
) -> set[str]:
    """`where.fn` where `where` is bound to a registration (`where = mcp.tool(tools.where)`): fastmcp 2's tool
    object, whose `.fn` is the registered function (`pkg.tools.where.fn`, resolved by the plan)."""
    if not (isinstance(callee, cst.Attribute) and callee.attr.value == "fn"):
        return set()
    if not isinstance(callee.value, cst.Name):
        return set()
    function = tool_function(callee.value, state)
    return {f"{name}.fn" for name in fq(function)} if function is not callee.value else set()


def takes_kwargs(fn: cst.FunctionDef | cst.Lambda) -> bool:
    return isinstance(fn.params.star_kwarg, cst.Param)


def refusals(
    by_key: Mapping[Key, tuple[str, Func]],
    summaries: Mapping[str, Summary],
    resolve: Callable[[str, str], Key | None],
) -> dict[Key, tuple[str, str]]:
    """MR104 for each tool a module hands to `Tool.from_tool(..., transform_fn=fn)` with an `fn` not known to
    take `**kwargs` (`Summary.transformed`: the tool's dotted names, the call as written, its line)."""
    out: dict[Key, tuple[str, str]] = {}
    for path, summary in summaries.items():
        root = import_root(summary)
        for names, spelling, line in summary.transformed:
            key = next((k for n in names if (k := resolve(root, n)) is not None), None)
            if key is None or key not in by_key:
                continue
            name = by_key[key][1].qualname.rpartition(".")[2]
            out[key] = (
                "MR104",
                f"`{name}` is handed to `{spelling}` ({os.path.basename(path)}:{line}), a transformed tool "
                "whose `transform_fn` does not take `**kwargs`: fastmcp then requires that function to declare "
                f"every parameter of `{name}`, so a path argument added here would stop the server importing; "
                f"add it to `{name}` and to the transform function (and forward it), by hand",
            )
    return out


def transformed(
    found: list[Transform], defs: Mapping[str, cst.FunctionDef], module: str
) -> tuple[tuple[tuple[str, ...], str, int], ...]:
    """`Summary.transformed`: the `from_tool` calls of the file (`SiteIndex.transforms`) whose `transform_fn` is
    not seen to take `**kwargs`, with the dotted names of the tool handed there."""
    from migrate_roots.codemods.program.module_scan import registered_function

    out = []
    for tool, fn, scope, line, spelling, fqs in found:
        own = registered_function(fn.value, scope, defs) if isinstance(fn, cst.Name) else None
        read = defs.get(own) if own is not None else fn if isinstance(fn, cst.Lambda) else None
        if read is not None and takes_kwargs(read):
            continue
        own = registered_function(tool.value, scope, defs) if isinstance(tool, cst.Name) else None
        names = (f"{module}.{own}",) if own is not None else tuple(sorted(fqs))
        out.append((names, spelling, line))
    return tuple(out)
