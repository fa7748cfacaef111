"""What the source of a project module says about a setter (read with `ast`, for `_plumbing_setters`): a method
that keeps the first value only, a module function that sets a global from its parameters, a method whose test
reads what the setter writes (a time stamp)."""

from __future__ import annotations

import ast

from migrate_roots.codemods._sdk_alias import source_tree


def returned(path: str, name: str) -> str:
    """The source of what the function `name` of the file at `path` returns last (`binding.project is not
    None` of `def is_bound(): return ...`), or ''."""
    tree = source_tree(path) if path else None
    for fn in tree.body if tree is not None else ():
        end = fn.body[-1] if isinstance(fn, ast.FunctionDef) and fn.name == name else None
        if isinstance(end, ast.Return) and end.value is not None:
            return ast.unparse(end.value)
    return ""


def top_names(tree: ast.Module | None) -> set[str]:
    """The names a module's top-level assignments bind."""
    return _assigned(tree.body) if tree is not None else set()


def first_wins_function(path: str, name: str) -> str:
    """The module global a function `name` of the file at `path` keeps its parameter in only while unset
    (`global _P; if _P is None: _P = found`) or by `setdefault` (`return _CACHE.setdefault("p", found)`): every
    later call gets the first value (sweep K r09 of session 22); else ''."""
    from migrate_roots.codemods.program.kept_calls import source_keyed_by

    tree = source_tree(path) if path else None
    top = top_names(tree)
    for fn in tree.body if tree is not None else ():
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name != name:
            continue
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        declared = {g for n in ast.walk(fn) if isinstance(n, ast.Global) for g in n.names}
        for node in ast.walk(fn):
            # `if _P is None: _P = found`, `if not _P: _P = found`, `_P = _P or found` (sweep M r03 of session 22)
            if isinstance(node, ast.If) and _unset_name(node.test) in declared & _assigned(node.body):
                return _unset_name(node.test)
            kept = _kept_by_or(node)
            if kept in declared:
                return kept
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "setdefault"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in top - params
                and len(node.args) >= 2
                and {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)} & params
                # keyed by the parameter itself (`_INDEXES.setdefault(root, Index(root))`): an entry per value
                # (sweep M r09 of session 22)
                and not source_keyed_by(node.args[0], node.args[1], params)
            ):
                return node.func.value.id
    return ""


def _unset_name(test: ast.expr) -> str:
    """`_P is None`, `_P == None`, `not _P`: `_P`; else ''."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand.id if isinstance(test.operand, ast.Name) else ""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.Eq))
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
        and isinstance(test.left, ast.Name)
    ):
        return test.left.id
    return ""


def _kept_by_or(node: ast.AST) -> str:
    """`_P = _P or found`, `self.p = self.p or found`: what keeps its first value (`_P`, `self.p`); else ''."""
    if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.value, ast.BoolOp):
        return ""
    first = node.value.values[0]
    if not isinstance(node.value.op, ast.Or) or ast.unparse(first) != ast.unparse(node.targets[0]):
        return ""
    target = node.targets[0]
    return (
        target.id
        if isinstance(target, ast.Name)
        else f"self.{target.attr}"
        if isinstance(target, ast.Attribute) and is_self(target.value)
        else ""
    )


def _assigned(body: list[ast.stmt]) -> set[str]:
    return {
        t.id
        for n in body
        if isinstance(n, (ast.Assign, ast.AnnAssign))
        for t in targets(n)
        if isinstance(t, ast.Name)
    }


def reads_global(path: str, name: str, glob: str) -> bool:
    """Whether the function `name` of the file at `path` reads the module global `glob` (`_BY_CLIENT.get(k)`)."""
    tree = source_tree(path) if path else None
    for fn in tree.body if tree is not None else ():
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) and fn.name == name:
            return any(isinstance(n, ast.Name) and n.id == glob for n in ast.walk(fn))
    return False


def written_by(path: str, method: str) -> set[str] | None:
    """The attributes of `self` that a method named `method` of a class in the file at `path` assigns, or None
    when no class there has one."""
    tree = source_tree(path) if path else None
    for cls in tree.body if tree is not None else ():
        for node in cls.body if isinstance(cls, ast.ClassDef) else ():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == method:
                return self_attributes(node, ast.Store)
    return None


def read_through(path: str, setter: str, names: set[str]) -> set[str]:
    """`names` (attributes a test reads) with the attributes of `self` that the methods and properties of those
    names read, in the class of the file at `path` that defines the method `setter` (`stale()` reading
    `self.at`, a `project` property returning `self._project`)."""
    tree = source_tree(path) if path else None
    for cls in tree.body if tree is not None else ():
        methods = {
            n.name: n
            for n in (cls.body if isinstance(cls, ast.ClassDef) else ())
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        if setter in methods:
            return names.union(*(self_attributes(methods[n], ast.Load) for n in names if n in methods))
    return names


def globals_set(path: str, name: str) -> set[str]:
    """The module globals the function `name` of the file at `path` sets from its parameters: `binding` of
    `binding.project = p`, `_project` of `global _project; _project = p`."""
    tree = source_tree(path) if path else None
    top = top_names(tree)
    top |= (
        {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
        if tree
        else set()
    )
    found: set[str] = set()
    for fn in tree.body if tree is not None else ():
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.name != name:
            continue
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        declared = {g for n in ast.walk(fn) if isinstance(n, ast.Global) for g in n.names}
        for assign in (n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.AnnAssign))):
            if (
                assign.value is None
                or not {n.id for n in ast.walk(assign.value) if isinstance(n, ast.Name)} & params
            ):
                continue
            for target in targets(assign):
                head = target
                while isinstance(head, (ast.Attribute, ast.Subscript)):
                    head = head.value
                if isinstance(head, ast.Name) and head is not target and head.id in top - params:
                    found.add(head.id)
                elif isinstance(target, ast.Name) and target.id in declared:
                    found.add(target.id)
        # `BINDING.bind(root)`: handed on to a method of a module global (sweep P r02 of session 22); which
        # attribute it fills is the caller's test to show (`if not is_bound():` reading `BINDING`)
        for call in (n for n in ast.walk(fn) if isinstance(n, ast.Call)):
            owner = call.func.value if isinstance(call.func, ast.Attribute) else None
            handed = {n.id for a in call.args for n in ast.walk(a) if isinstance(n, ast.Name)}
            if isinstance(owner, ast.Name) and owner.id in top - params and handed & params:
                found.add(owner.id)
    return found


def targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def self_attributes(fn: ast.AST, context: type[ast.expr_context]) -> set[str]:
    """The attributes of `self` that `fn` reads (`ast.Load`) or assigns (`ast.Store`) anywhere in its body."""
    return {
        n.attr
        for n in ast.walk(fn)
        if isinstance(n, ast.Attribute) and isinstance(n.ctx, context) and is_self(n.value)
    }


def first_wins(path: str, method: str) -> str:
    """The attribute a method named `method` of a class in the file at `path` sets only while it is unset
    (`def bind_once(self, p): if self.project is None: self.project = p`), or ''."""
    tree = source_tree(path) if path else None
    if tree is None:
        return ""
    for cls in tree.body:
        for node in cls.body if isinstance(cls, ast.ClassDef) else ():
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != method:
                continue
            for test in (n for n in ast.walk(node) if isinstance(n, ast.If)):
                unset = unset_attribute(test.test)
                if unset and unset in self_writes(test.body):
                    return unset
            for assign in ast.walk(node):  # `self.project = self.project or p` (sweep M r03 of session 22)
                kept = _kept_by_or(assign)
                if kept.startswith("self."):
                    return kept[len("self.") :]
            # `if self.project is not None: return`, then `self.project = p` (sweep I r06 of session 21)
            for index, statement in enumerate(node.body):
                if not isinstance(statement, ast.If) or not isinstance(statement.body[-1], ast.Return):
                    continue
                kept = set_attribute(statement.test)
                if kept and kept in self_writes(node.body[index:]):
                    return kept
    return ""


def self_writes(body: list[ast.stmt]) -> set[str]:
    """The attributes of `self` that the statements of `body` assign, at their own level."""
    return {
        t.attr
        for n in body
        if isinstance(n, (ast.Assign, ast.AnnAssign))
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Attribute) and is_self(t.value)
    }


def set_attribute(test: ast.expr) -> str:
    """`self.project is not None`, `self.project`: `project`; else ''."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot):
        comparator = test.comparators[0]
        if isinstance(comparator, ast.Constant) and comparator.value is None:
            test = test.left
    return test.attr if isinstance(test, ast.Attribute) and is_self(test.value) else ""


def is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def unset_attribute(test: ast.expr) -> str:
    """`self.project is None`, `self.project == None`, `not self.project`: `project`; else ''."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        target = test.operand
    elif (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.Eq))
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        target = test.left
    else:
        return ""
    return target.attr if isinstance(target, ast.Attribute) and is_self(target.value) else ""
