"""A root handed to a function that reads its `.name` (session 21, sweeps F r11 and G r01-r05): `label(project)`
with `def label(root): return str(root.name)`, in this module or another of the project, a staticmethod, a
module-level lambda, by position or keyword. What that function makes of the name is read from its source
(`ast`, cached by file): whether it reads it at all, and whether it makes a path of anything (`/`, `join`,
`Path(...)`, `open`): then its result already is the place (`def note_path(root): return NOTES /
f"{root.name}.md"`). When unsure whether the path is made of the name, it is taken to be."""

from __future__ import annotations

import ast

import libcst as cst

from migrate_roots.codemods._sdk_alias import source_tree
from migrate_roots.codemods.base import FileState

# Calls that make a path or a stored entry of their arguments (read by `_roots_names` too).
PLACES = frozenset(
    {"Path", "PurePath", "join", "joinpath", "open", "mkdir", "makedirs", "with_name", "setdefault"}
)
NONE, VALUE, PLACE = "", "value", "place"


def handed_name(call: cst.Call, arg: cst.Arg, state: FileState) -> str:
    """What the function `call` runs makes of the root handed as `arg`: NONE, VALUE (it reads the root's name)
    or PLACE (and makes a path in its body)."""
    target = _target(call.func, state)
    if target is None:
        return NONE
    path, qualname = target
    if arg.keyword is not None:
        key: str | int = arg.keyword.value
    else:
        positional = [a for a in call.args if a.keyword is None]
        if any(a.star for a in positional[: positional.index(arg) + 1]):
            return NONE
        key = positional.index(arg)
    return _reads(path, qualname, key)


def _target(func: cst.BaseExpression, state: FileState) -> tuple[str, str] | None:
    """(the file, the dotted name in it) of the function a call runs: `label`, `Naming.label`, `self.label`, or
    a name imported from a module of the project."""
    from migrate_roots.codemods._sdk_alias import module_file

    if isinstance(func, cst.Name):
        mine = _defined(state.path, func.value)
        if mine:
            return state.path, func.value
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
        owner = func.value.value
        if owner in ("self", "cls"):
            classes = [n for n in state.stack if isinstance(n, cst.ClassDef)]
            if not classes:
                return None
            return state.path, f"{classes[-1].name.value}.{func.attr.value}"
        if _defined(state.path, owner):
            return state.path, f"{owner}.{func.attr.value}"
    else:
        return None
    for fq in sorted(state.qnames(func)):
        parts = fq.split(".")
        for cut in range(len(parts) - 1, 0, -1):  # `pkg.naming.label`, `pkg.naming.Naming.label`
            path = module_file(state.import_root, ".".join(parts[:cut])) if state.import_root else None
            if path and _defined(path, parts[cut]):
                return path, ".".join(parts[cut:])
    return None


def _defined(path: str, name: str) -> bool:
    tree = source_tree(path)
    return tree is not None and _find(tree.body, name) is not None


def _find(body: list[ast.stmt], name: str) -> ast.AST | None:
    """A function, class or module-level lambda bound to `name` in `body`."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            return node
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Lambda)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
        ):
            return node.value
    return None


def _reads(path: str, qualname: str, key: str | int) -> str:
    tree = source_tree(path)
    node: ast.AST | None = tree
    parts = qualname.split(".")
    for part in parts:
        node = _find(node.body, part) if isinstance(node, (ast.Module, ast.ClassDef)) else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        return NONE
    args = [*node.args.posonlyargs, *node.args.args]
    method = len(parts) > 1 and not (
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    )
    if method and args:
        args = args[1:]  # `self` / `cls`
    if isinstance(key, int):
        param = args[key].arg if key < len(args) else None
    else:
        param = key if key in {a.arg for a in [*args, *node.args.kwonlyargs]} else None
    if param is None:
        return NONE
    walked = list(ast.walk(node))
    if any(isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store) for n in walked):
        return NONE  # `root = Path(root.uri.path)`: a later `root.name` is a folder's, not the root's
    reads = {
        id(n)
        for n in walked
        if isinstance(n, ast.Attribute)
        and n.attr == "name"
        and isinstance(n.value, ast.Name)
        and n.value.id == param
    }
    if not reads:
        return NONE
    # Locals made of the name (`name = root.name or "default"`), one step.
    derived = {
        t.id
        for n in walked
        if isinstance(n, (ast.Assign, ast.AnnAssign))
        and n.value is not None
        and _carries(n.value, reads, set())
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    for n in walked:  # a path or a key made of it: `NOTES / f"{root.name}.md"`, `join(base, name)`, `d[name]`
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) and _carries(n, reads, derived):
            return PLACE
        if (
            isinstance(n, ast.Call)
            and _last(n.func) in PLACES
            and any(_carries(a, reads, derived) for a in n.args)
        ):
            return PLACE
        if isinstance(n, ast.Subscript) and _carries(n.slice, reads, derived):
            return PLACE
    returned = any(
        isinstance(n, ast.Return) and n.value is not None and _carries(n.value, reads, derived)
        for n in walked
    )
    if isinstance(node, ast.Lambda):
        returned = _carries(node.body, reads, derived)
    return VALUE if returned else NONE  # read for a log line only: nothing made of it leaves


def _carries(expr: ast.AST, reads: set[int], derived: set[str]) -> bool:
    return any(id(n) in reads or (isinstance(n, ast.Name) and n.id in derived) for n in ast.walk(expr))


def _last(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""
