"""An explicit path argument read by key from a tool's arguments (issue 17, item 6, for dicts).

Servers that build tools at run time hand the tool's `**kwargs` on as a dict (`_invoke(name, kwargs, ctx)`)
and pick the path out of it by key before they fall back to roots:

    raw = args.pop("project_dir", None)
    if raw:
        project_dir = Path(raw)
    if project_dir is None and ctx is not None:
        project_dir = await root_from_client(ctx)

The call to `root_from_client` runs only when the caller left `project_dir` out: `key_guard` says so, with
the key and the dict parameter; `forwarded` says which parameters of a call get the tool's own `**kwargs`
(`run_time.py`: which parameters a synthesized `__signature__` surely has, which functions are used otherwise
than called). The plan (`_roots_plan_tools.behind_key`)
joins them, and then rewrites the reads below such calls with no value and adds no argument.

Strict on purpose (a rewrite here claims the read runs only without the key, for every caller):
- the dict is the tool's `**kwargs`, or a copy, not changed before the key is read (no `pop`, `update`, store,
  `del`, nor handing it to another call first); in the dispatcher, the parameter that receives it, or a copy;
- the key read (`d.pop("K", ...)`, `d.get("K")`, `d["K"]`) is a statement of the function's own body, so it
  runs on every path; the local tested holds it, or is set from it under `if local:` by a value that cannot be
  None (`Path(raw)`, `str(raw)`, `os.path.abspath(raw)`, `.expanduser()`/`.resolve()`/`.absolute()` on one),
  and is assigned nothing else before the test but `None` before that;
- no loop, comprehension or lambda between the test and the call; the local is never bound any other way
  (walrus, `+=`, unpacking, `for`, `with`, `match`, `global`/`nonlocal`).
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.bindings import all_bindings, bindings_of, declared_shared
from migrate_roots.codemods.program.flow import _leaves, _names
from migrate_roots.codemods.program.run_time import literal

_READS = frozenset({"pop", "get"})
_LOOKS = frozenset({"get", "keys", "items", "values", "copy"})  # methods that change nothing
_COPIES = frozenset({"dict", "copy", "deepcopy"})
_NOT_NONE = frozenset(
    {"Path", "PurePath", "PosixPath", "WindowsPath", "str", "abspath", "expanduser", "realpath", "normpath"}
    | {"join", "expandvars", "fspath", "resolve", "absolute"}
)

Keyed = tuple[str, str]  # (the key, the dict parameter it is read from)


_KEY_READS = ('.pop("', ".pop('", '.get("', ".get('", '["', "['")


def may_read_keys(func: cst.FunctionDef, state: FileState) -> bool:
    """Does `func`'s text read a dict by a literal key at all (once per function): the guard is sought only
    there."""
    cache = state.extra.setdefault("reads-keys", {})
    found = cache.get(func)
    if found is None:
        start, end = state.pos(func)[0], state.end_line(func)
        found = cache[func] = any(k in line for line in state.lines[start - 1 : end] for k in _KEY_READS)
    return bool(found)


def key_guard(node: cst.CSTNode, state: FileState, func: cst.FunctionDef) -> Keyed | None:
    """(key, dict parameter) when `node` runs only if the caller's dict lacks the key's value."""
    ancestors: list[tuple[cst.CSTNode, cst.CSTNode]] = []
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        if isinstance(current, (cst.For, cst.While, cst.CompFor, cst.Lambda, cst.FunctionDef)):
            return None
        ancestors.append((current, child))
        child, current = current, state.parent(current)
    if current is not func:
        return None
    for parent, child in ancestors:
        for tested, anchor in _skipping(parent, child):
            found = _holds(tested, anchor, func, state, 0)
            if found is not None:
                return found
    return None


def _skipping(parent: cst.CSTNode, child: cst.CSTNode) -> list[tuple[cst.BaseExpression, cst.CSTNode]]:
    """(what is tested, the statement or expression testing it) for each value whose being set keeps `child`
    of `parent` from running."""
    if isinstance(parent, (cst.If, cst.IfExp)) and child is parent.body:
        return [(n, parent) for n in _when(parent.test, unset=True)]
    if isinstance(parent, (cst.If, cst.IfExp)) and child is parent.orelse:
        return [(n, parent) for n in _when(parent.test, unset=False)]
    if (
        isinstance(parent, cst.BooleanOperation)
        and isinstance(parent.operator, cst.Or)
        and child is parent.right
    ):
        return [(n, parent) for n in _when(parent.left, unset=False)]
    found: list[tuple[cst.BaseExpression, cst.CSTNode]] = []
    if isinstance(parent, cst.IndentedBlock) and child in parent.body:
        for statement in parent.body[: parent.body.index(child)]:
            if isinstance(statement, cst.If) and statement.orelse is None and _leaves(statement.body):
                found += [(n, statement) for n in _when(statement.test, unset=False)]
    return found


def _when(test: cst.BaseExpression, unset: bool) -> list[cst.BaseExpression]:
    """Values whose being unset (`unset`) or set is needed for `test` to hold: the block runs only then."""
    if isinstance(test, cst.BooleanOperation):
        joined = isinstance(test.operator, cst.And) if unset else isinstance(test.operator, cst.Or)
        return _when(test.left, unset) + _when(test.right, unset) if joined else []
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _when(test.expression, not unset)
    if (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].comparator, cst.Name)
        and test.comparisons[0].comparator.value == "None"
    ):
        operator = test.comparisons[0].operator
        return [test.left] if isinstance(operator, cst.Is if unset else cst.IsNot) else []
    if isinstance(test, (cst.Name, cst.Call, cst.Subscript)):
        return [] if unset else [test]
    return []


def _holds(
    tested: cst.BaseExpression, anchor: cst.CSTNode, func: cst.FunctionDef, state: FileState, depth: int
) -> Keyed | None:
    """The (key, dict parameter) whose value `tested` is where `anchor` tests it, given the key is set."""
    if depth > 3:
        return None
    if not isinstance(tested, cst.Name):  # `args.get("project_dir") or await first_root(ctx)`
        return _key_read(tested, anchor, func, state)
    bindings = bindings_of(tested, state)
    if bindings is None or tested.value in declared_shared(func):
        return None
    start = state.pos(anchor)
    defining: Keyed | None = None
    for statement, value, kind in bindings:
        if state.pos(statement) >= start:
            continue  # after the test: it cannot change what the test sees (no loop around it)
        if kind != "plain":
            return None
        if (
            defining is None
            and isinstance(value, cst.Name)
            and value.value == "None"
            and _is_top(statement, func)
        ):
            continue
        found = None
        if defining is None and _is_top(statement, func):
            found = _key_read(value, statement, func, state)
        elif defining is None:
            found = _derived(statement, value, func, state, depth)
        if found is None:
            return None
        defining = found
    return defining


def _derived(
    statement: cst.CSTNode, value: cst.BaseExpression, func: cst.FunctionDef, state: FileState, depth: int
) -> Keyed | None:
    """`project_dir = Path(raw)` directly under a top-level `if raw:` whose `raw` holds the key."""
    line = state.parent(statement)
    block = state.parent(line) if isinstance(line, cst.SimpleStatementLine) else None
    guard = state.parent(block) if isinstance(block, cst.IndentedBlock) else None
    if not isinstance(guard, cst.If) or not _is_top(guard, func) or not _not_none(value):
        return None
    read = {n.value for n in _names(value)}
    keys = {
        found
        for n in _when(guard.test, unset=False)
        if isinstance(n, cst.Name) and n.value in read
        for found in [_holds(n, guard, func, state, depth + 1)]
        if found is not None
    }
    return keys.pop() if len(keys) == 1 else None


def _key_read(
    value: cst.BaseExpression, statement: cst.CSTNode, func: cst.FunctionDef, state: FileState
) -> Keyed | None:
    """ "K" of `d.pop("K", ...)`, `d.get("K", ...)` or `d["K"]`, with the parameter `d` is (or copies), when
    nothing changed `d` before this statement."""
    if (
        isinstance(value, cst.Subscript)
        and len(value.slice) == 1
        and isinstance(value.slice[0].slice, cst.Index)
    ):
        receiver, key = value.value, literal(value.slice[0].slice.value)
    elif (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in _READS
        and value.args
    ):
        receiver, key = value.func.value, literal(value.args[0].value)
    else:
        return None
    held = receiver.value if isinstance(receiver, cst.Name) else _copy_source(receiver)  # `args.copy().pop`
    if key is None or held is None:
        return None
    param = _param_of(held, func, state, state.pos(statement))
    return (key, param) if param is not None else None


def _param_of(name: str, func: cst.FunctionDef, state: FileState, before: tuple[int, int]) -> str | None:
    """The parameter a dict local is, or copies (`args_in = dict(args)`), when nothing changes either before
    `before`; None otherwise."""
    params = _params(func)
    chain: list[str] = []
    current: str | None = name
    while current is not None and current not in params and len(chain) < 4:
        chain.append(current)
        current = _copied_from(current, func, state, before)
    if current is None or current not in params:
        return None
    if any(state.pos(statement) < before for statement, _, _ in all_bindings(current, func, state)):
        return None  # the parameter rebound first (`args = dict(args.get("options") or {})`)
    for held in (*chain, current):
        if not _untouched(held, func, state, before):
            return None
    return current


def _copied_from(name: str, func: cst.FunctionDef, state: FileState, before: tuple[int, int]) -> str | None:
    """`p` when the local `name` is bound once, by a top-level `name = dict(p)` / `p.copy()` / `{**p}` / `p`."""
    found = [
        (statement, value, kind)
        for statement, value, kind in all_bindings(name, func, state)
        if state.pos(statement) < before
    ]
    if len(found) != 1 or found[0][2] != "plain" or not _is_top(found[0][0], func):
        return None
    return _copy_source(found[0][1])


def _copy_source(value: cst.BaseExpression) -> str | None:
    if isinstance(value, cst.Name):
        return value.value
    if isinstance(value, cst.Dict) and len(value.elements) == 1:
        element = value.elements[0]
        return _copy_source(element.value) if isinstance(element, cst.StarredDictElement) else None
    if isinstance(value, cst.DictComp):  # `{k: v for k, v in kwargs.items() if v is not None}`, exactly
        loop = value.for_in
        items = loop.iter
        pair = loop.target.elements if isinstance(loop.target, cst.Tuple) else ()
        names = [e.value.value for e in pair if isinstance(e.value, cst.Name)]
        ifs = [i.test for i in loop.ifs]
        if (
            loop.inner_for_in is None
            and len(names) == 2
            and isinstance(value.key, cst.Name)
            and isinstance(value.value, cst.Name)
            and [value.key.value, value.value.value] == names
            and all(_drops_none(t, names[1]) for t in ifs)
            and isinstance(items, cst.Call)
            and isinstance(items.func, cst.Attribute)
            and items.func.attr.value == "items"
            and not items.args
        ):
            return _copy_source(items.func.value)
        return None
    if not isinstance(value, cst.Call):
        return None
    func = value.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if isinstance(func, cst.Attribute) and name == "copy" and not value.args:
        return _copy_source(func.value)
    if name in _COPIES and len(value.args) == 1 and value.args[0].keyword is None and not value.args[0].star:
        return _copy_source(value.args[0].value)
    return None


def _drops_none(test: cst.BaseExpression, name: str) -> bool:
    """`v is not None`: what it leaves out was never a value (a key given as None is no key given)."""
    return (
        isinstance(test, cst.Comparison)
        and isinstance(test.left, cst.Name)
        and test.left.value == name
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.IsNot)
        and isinstance(test.comparisons[0].comparator, cst.Name)
        and test.comparisons[0].comparator.value == "None"
    )


def _untouched(name: str, func: cst.FunctionDef, state: FileState, before: tuple[int, int]) -> bool:
    """No use of the dict `name` before `before` can change it: only looks (`get`, `items`, `in`, a load by
    subscript) and copies; never a store, `del`, a changing method, or handing it to another call."""
    ok = True

    class Uses(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Name(self, node: cst.Name) -> None:
            nonlocal ok
            if node.value != name or state.pos(node) >= before:
                return
            parent = state.parent(node)
            if (isinstance(parent, cst.Attribute) and parent.attr is node) or (
                isinstance(parent, cst.Arg) and parent.keyword is node
            ):
                return  # `obj.args`, `f(args=...)`: another name
            if isinstance(parent, cst.Attribute) and parent.value is node:
                ok = ok and parent.attr.value in _LOOKS
            elif isinstance(parent, cst.Subscript) and parent.value is node:
                ok = ok and not isinstance(state.parent(parent), (cst.AssignTarget, cst.Del, cst.AugAssign))
            elif isinstance(parent, cst.Arg):
                call = state.parent(parent)
                callee = getattr(call, "func", None)
                spelled = (
                    callee.attr.value if isinstance(callee, cst.Attribute) else getattr(callee, "value", "")
                )
                ok = ok and spelled in _COPIES
            elif isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.Del, cst.NamedExpr, cst.For)):
                ok = ok and isinstance(parent, cst.AssignTarget)  # its binding, checked by the caller
            elif isinstance(parent, (cst.ComparisonTarget, cst.StarredDictElement)):
                pass  # `"k" in args`, `{**args}`
            elif not isinstance(parent, (cst.Param, cst.Comparison)):
                ok = False

    read(func, Uses())
    return ok


def forwarded(call: cst.Call, state: FileState, func: cst.FunctionDef) -> tuple[str, ...]:
    """The callee's slots (`#<index>` or a keyword) that get `func`'s own `**kwargs`, or an unchanged copy."""
    star = func.params.star_kwarg
    if not isinstance(star, cst.Param) or state.enclosing_function(call) is not func:
        return ()
    if not isinstance(state.parent(call), cst.Await):
        return ()  # a coroutine made first and awaited later: `kwargs` may change in between
    name = star.name.value
    before = state.pos(call)
    slots: list[str] = []
    index = 0
    for arg in call.args:
        value = arg.value
        source = _copy_source(value) if not isinstance(value, cst.Name) else value.value
        chain: list[str] = []
        while source is not None and source != name and len(chain) < 4:
            chain.append(source)
            source = _copied_from(source, func, state, before)
        if (
            source == name
            and not arg.star
            and (arg.keyword is not None or index >= 0)
            and all(_untouched(held, func, state, before) for held in (*chain, name))
        ):
            slots.append(arg.keyword.value if arg.keyword is not None else f"#{index}")
        if arg.star == "*":
            index = -(10**6)  # after `*args` the positions are unknown
        elif arg.keyword is None and not arg.star:
            index += 1
    return tuple(slots)


# --- small helpers ---------------------------------------------------------------------------------------


def _params(func: cst.FunctionDef) -> set[str]:
    params = func.params
    names = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    if isinstance(params.star_kwarg, cst.Param):
        names.add(params.star_kwarg.name.value)
    return names


def _is_top(statement: cst.CSTNode, func: cst.FunctionDef) -> bool:
    """`statement` (a small statement, or its line) is one of `func`'s own top-level statements."""
    body = func.body.body if isinstance(func.body, cst.IndentedBlock) else ()
    return any(
        s is statement or (isinstance(s, cst.SimpleStatementLine) and statement in s.body) for s in body
    )


def _not_none(value: cst.BaseExpression) -> bool:
    """`raw`, `Path(raw)`, `str(raw)`, `os.path.abspath(raw)`, `Path(raw).expanduser()`: never None."""
    if isinstance(value, cst.Name):
        return True
    if isinstance(value, cst.Call):
        func = value.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if name not in _NOT_NONE:
            return False
        if (
            isinstance(func, cst.Attribute)
            and name in ("expanduser", "resolve", "absolute")
            and not value.args
        ):
            return isinstance(func.value, cst.Call) and _not_none(func.value)
        return True
    return False
