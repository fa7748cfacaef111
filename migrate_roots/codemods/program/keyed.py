"""An explicit path argument read by key from a tool's arguments (issue 17, item 6, for dicts).

Servers that build tools at run time hand the arguments on as a dict (`_invoke(name, kwargs, ctx)`) and pick
the path out of it by key before they fall back to roots:

    raw = args.pop("project_dir", None)
    if raw:
        project_dir = Path(raw)
    if project_dir is None and ctx is not None:
        project_dir = await root_from_client(ctx)

The call to `root_from_client` runs only when the caller left `project_dir` out: `key_guard` says so, with
the key. The plan (`_roots_plan_tools.behind_key`) then rewrites the reads below such calls with no value
(`list_roots_compat(session, None, name="project_dir")`) and adds no argument: `project_dir` is it.

Conservative on purpose: the dict must be a parameter (or a copy of one), the key a string literal, the test
`L`, `not L`, `L is None` or `L is not None` (alone, in an `and` / `or`, or as an early return), and a local
derived from the key's value (`project_dir = Path(raw)` under `if raw:`) must be assigned nothing else before
the test but `None`. A guard inside a loop is not followed (a later pass could reach the call with the value).
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.flow import _leaves, _names

_READS = frozenset({"pop", "get"})
_COPIES = frozenset({"dict", "copy", "deepcopy"})


def key_guard(node: cst.CSTNode, state: FileState, func: cst.FunctionDef) -> str | None:
    """The key of the arguments dict whose value, when the caller gives one, keeps `node` from running."""
    cache = state.extra.setdefault("keyed_dicts", {})
    dicts = cache.get(func)
    if dicts is None:
        dicts = cache[func] = _dicts(func)
    if not dicts:
        return None
    ancestors: list[tuple[cst.CSTNode, cst.CSTNode]] = []
    child: cst.CSTNode = node
    current = state.parent(node)
    while current is not None and current is not func:
        if isinstance(current, (cst.For, cst.While, cst.CompFor)):
            return None
        ancestors.append((current, child))
        child, current = current, state.parent(current)
    for current, child in ancestors:
        for tested, anchor in _skipping(current, child):
            key = _read_key(tested, dicts)
            if key is None and isinstance(tested, cst.Name):
                key = _holds(tested.value, state.pos(anchor), func, dicts, state, 0)
            if key is not None:
                return key
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
    if isinstance(test, cst.Comparison):
        return []
    return [] if unset else [test]


def _dicts(func: cst.FunctionDef) -> set[str]:
    """The function's parameters, and its locals bound to a copy of one (`args_in = dict(args)`)."""
    params = func.params
    dicts = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
    if isinstance(params.star_kwarg, cst.Param):
        dicts.add(params.star_kwarg.name.value)
    copies = [(name, value) for name, value, _ in _assignments(func)]
    for _ in range(2):  # `args_in = dict(args)`, then `a2 = args_in.copy()`
        dicts |= {name for name, value in copies if _copy_of(value, dicts)}
    return dicts


def _holds(
    name: str, start: tuple[int, int], func: cst.FunctionDef, dicts: set[str], state: FileState, depth: int
) -> str | None:
    """The key whose value the local `name` holds where it is tested (`start`): every assignment of it before
    is the key's value (`raw = args.pop("project_dir", None)`), `None`, or made from a local that holds it
    under a test that it is set (`project_dir = Path(raw)` under `if raw:`)."""
    if depth > 3:
        return None
    keys: set[str] = set()
    cache = state.extra.setdefault("keyed_assignments", {})
    assigned = cache.get(func)
    if assigned is None:
        assigned = cache[func] = _assignments(func)
    for target, value, tests in assigned:
        if target != name or state.pos(value) >= start:
            continue
        if isinstance(value, cst.Name) and value.value == "None":
            continue
        key = _read_key(value, dicts)
        if key is None:
            read = {n.value for n in _names(value)}
            tested = {
                found
                for t in tests
                for n in _when(t, unset=False)
                if isinstance(n, cst.Name) and n.value in read and n.value != name
                for found in [_holds(n.value, state.pos(t), func, dicts, state, depth + 1)]
                if found is not None
            }
            key = tested.pop() if len(tested) == 1 else None
        if key is None:
            return None
        keys.add(key)
    return keys.pop() if len(keys) == 1 else None


def _assignments(
    func: cst.FunctionDef,
) -> list[tuple[str, cst.BaseExpression, tuple[cst.BaseExpression, ...]]]:
    """(local, value, the tests of the `if`s whose body holds it) for each plain assignment of the function's
    own body (not of functions nested in it)."""
    found: list[tuple[str, cst.BaseExpression, tuple[cst.BaseExpression, ...]]] = []
    tests: list[cst.BaseExpression] = []

    class Assigns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_If(self, node: cst.If) -> bool:
            tests.append(node.test)
            node.body.visit(self)
            tests.pop()
            if node.orelse is not None:
                node.orelse.visit(self)
            return False

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    found.append((target.target.value, node.value, tuple(tests)))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if isinstance(node.target, cst.Name) and node.value is not None:
                found.append((node.target.value, node.value, tuple(tests)))

    func.visit(Assigns())
    return found


def _copy_of(value: cst.BaseExpression, dicts: set[str]) -> bool:
    """`dict(args)`, `args.copy()`, `copy.deepcopy(args)`, `{**args}` or `args` itself."""
    if isinstance(value, cst.Name):
        return value.value in dicts
    if isinstance(value, cst.Dict):
        return (
            len(value.elements) == 1
            and isinstance(value.elements[0], cst.StarredDictElement)
            and (_copy_of(value.elements[0].value, dicts))
        )
    if not isinstance(value, cst.Call):
        return False
    func = value.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if name not in _COPIES:
        return False
    if isinstance(func, cst.Attribute) and name == "copy" and not value.args:
        return _copy_of(func.value, dicts)
    return len(value.args) == 1 and _copy_of(value.args[0].value, dicts)


def _read_key(value: cst.BaseExpression, dicts: set[str]) -> str | None:
    """ "K" of `d.pop("K", ...)`, `d.get("K", ...)` or `d["K"]`, `d` one of `dicts`."""
    if isinstance(value, cst.Await):
        return None
    if isinstance(value, cst.Subscript) and _copy_of(value.value, dicts):
        index = value.slice[0].slice if len(value.slice) == 1 else None
        return _literal(index.value) if isinstance(index, cst.Index) else None
    if (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Attribute)
        and value.func.attr.value in _READS
        and _copy_of(value.func.value, dicts)
        and value.args
    ):
        return _literal(value.args[0].value)
    return None


def _literal(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value
        return text if isinstance(text, str) and text.isidentifier() else None
    return None


def parameter_name(call: cst.Call) -> str | None:
    """ "K" of `inspect.Parameter("K", ...)` / `Parameter(name="K", ...)`: a synthesized signature's parameter."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if name != "Parameter":
        return None
    for arg in call.args:
        if arg.keyword is None or arg.keyword.value == "name":
            return _literal(arg.value)
    return None
