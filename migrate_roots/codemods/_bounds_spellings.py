"""Containment checks spelled without a call the `_bounds` visitor names (session 16's sweep G, r03 and r12):

    while probe not in allowed:                       # a walk up the parents, in the bound (`_bounds_walks`)
        if probe == probe.parent:
            return "Access denied"
        probe = probe.parent

    if target.parts[: len(base.parts)] != base.parts:  # the path's leading parts against the bound's
        return "Access denied"

    if os.path.relpath(target, base).split(os.sep)[0] == os.pardir:  # the first step out of the bound is `..`
        return "Access denied"

Each counts only where it refuses (a `raise`, a returned message or false value, or a returned value whose text
says denied / outside / must be within / traversal / not in the workspace ..., `_raises_at_end`): a parts
comparison whose body goes on, or a walk that looks for a marker file and returns the folder it finds (or refuses
when it reaches the collection: it stops there, a file outside is still served), bounds nothing. The relpath may
be held in a name first (`rel = os.path.relpath(target, base)`, then `rel.startswith(os.pardir)`: `held`).

A returned message is no refusal where the function labels paths rather than guards them (sweep N, r05):

    if rel.startswith(os.pardir):
        return f"{path} (outside the workspace)"      # text that only says where the path is
    return rel                                        # and the other way out answers a label of the path too

The refusal is text, a label (strings, f-strings, the function's parameters and names holding labels, `str`,
`relpath`, `relative_to`, ...: nothing read, written or awaited) that says no more than where the path is
(outside, not in the workspace, escapes: no denied, not allowed, must be within, traversal, ...), and what the
function does when the test fails (the `else`, or the statement after the `if`) is `return <a label>`.
An early refusal followed by the work (`return {"error": ...}` then `return {"content": target.read_text()}`),
a refusal that falls off the end, `return None` / `True` after it, or a label computed by any other call is a
guard (`labelled_returns`). The functions here answer nodes; `_bounds` says which names they mention and whether
roots reach them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import MappingProxyType

import libcst as cst

from migrate_roots.codemods._read import read

PARTS = "a comparison of the path's leading `parts` with the bound's"
PARDIR = "a `relpath` whose first part is `..`"


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    read(node, visitor)


def _callee(call: cst.Call) -> str | None:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else None


# A returned structured error (`{"error": "Access denied"}`, `[TextContent(..., text="Not allowed")]`): words that
# refuse wherever they are returned ...
_REFUSES = re.compile(
    r"\bden(y|ied|ial)\b|\bnot\s+(allowed|permitted)\b|\bforbidden\b|\bpermission\b|\bunauthori[sz]ed\b"
    r"|\bmust\s+(be|lie|stay|remain)\s+(with)?in(side)?\b|\bmust\s+(be|lie|stay|remain)\s+under\b"
    r"|\btraversal\b|\brestricted\b",
    re.IGNORECASE,
)
# ... and words that only say where the path is: a label's too (`f"{path} (outside the workspace)"`).
_LOCATES = re.compile(
    r"\boutside\b|\bnot\s+(within|inside|under)\b|\bescap(e|es|ing)\b"
    r"|\bnot\s+in\s+(the\s+|an?\s+|any\s+|your\s+)?(allowed|permitted|workspace|roots?|sandbox|project|base)",
    re.IGNORECASE,
)


class _Texts(cst.CSTVisitor):
    def __init__(self, words: re.Pattern[str]) -> None:
        super().__init__()
        self.words = words
        self.found = False

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        self.found = self.found or (isinstance(value, str) and bool(self.words.search(value)))

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        self.found = self.found or bool(self.words.search(node.value))


def _says(node: cst.CSTNode, words: re.Pattern[str]) -> bool:
    texts = _Texts(words)
    read(node, texts)
    return texts.found


def _says_refused(node: cst.CSTNode) -> bool:
    return _says(node, _REFUSES) or _says(node, _LOCATES)


def _end(body: cst.BaseSuite | cst.BaseStatement) -> cst.BaseSmallStatement | None:
    """The last small statement of a block (`return x` of `if c:\n    y()\n    return x`), or None."""
    last = body.body[-1] if isinstance(body, cst.IndentedBlock) and body.body else body
    smalls = getattr(last, "body", ())
    return smalls[-1] if isinstance(smalls, (list, tuple)) and smalls else None


def _raises_at_end(body: cst.BaseSuite, labelled: frozenset[int] = frozenset()) -> bool:
    """The block refuses: it ends in a `raise`, or returns a message or a false value (`return "denied"`), or a
    value whose text says the path is refused (`return {"error": "Access denied"}`); a labeller's return (its
    id in `labelled`) does not."""
    end = _end(body)
    if isinstance(end, cst.Return) and id(end) not in labelled:
        value = end.value
        return (
            isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))
            or (isinstance(value, cst.Name) and value.value in ("False", "None"))
            or (value is not None and _says_refused(value))
        )
    return isinstance(end, cst.Raise)


# Calls that show a path without touching it: a label built with them reads nothing.
_DISPLAY = frozenset(
    {"str", "repr", "format", "relpath", "relative_to", "as_posix", "basename", "dirname", "join", "replace"}
    | {"abspath", "normpath", "realpath", "expanduser", "resolve", "absolute", "Path", "PurePath", "fspath"}
)
_MODULES = frozenset({"os.path", "posixpath", "ntpath", "os"})


def _label(node: cst.BaseExpression, shown: frozenset[str]) -> bool:
    """Text made of strings and labels of paths (`shown` names): `f"{path} (outside)"`, `rel`, `str(p)`."""
    if isinstance(node, (cst.SimpleString, cst.FormattedStringText)):
        return True
    if isinstance(node, cst.FormattedString):
        return all(
            _label(p.expression, shown) if isinstance(p, cst.FormattedStringExpression) else True
            for p in node.parts
        )
    if isinstance(node, cst.ConcatenatedString):
        return _label(node.left, shown) and _label(node.right, shown)
    if isinstance(node, cst.Name):
        return node.value in shown
    if isinstance(node, cst.Attribute):
        return _label(node.value, shown)
    if isinstance(node, cst.Subscript):
        return _label(node.value, shown)
    if isinstance(node, cst.BinaryOperation):
        return _label(node.left, shown) and _label(node.right, shown)
    if isinstance(node, cst.Call) and _callee(node) in _DISPLAY:
        func = node.func
        receiver = (
            not isinstance(func, cst.Attribute) or _code(func.value) in _MODULES or _label(func.value, shown)
        )
        # What a path is shown relative to (`relpath(p, base)`, `p.relative_to(base)`) is not shown.
        shown_args = node.args[:1] if _callee(node) == "relpath" else node.args
        return receiver and (
            _callee(node) == "relative_to" or all(_label(a.value, shown) for a in shown_args)
        )
    return False


def _shown(func: cst.FunctionDef, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]) -> frozenset[str]:
    """The parameters, and names every assignment of which is a label of them (`rel = os.path.relpath(p, b)`)."""
    given = func.params
    params = {p.name.value for p in (*given.posonly_params, *given.params, *given.kwonly_params)}
    values: dict[str, list[cst.BaseExpression]] = {}

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    values.setdefault(t.target.value, []).append(node.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if isinstance(node.target, cst.Name):
                values.setdefault(node.target.value, []).append(node.value)

    walk(func.body, Find())
    # A parameter assigned anything but a label of it (`path = open(path).read()`) is no label. (A loop, `with`
    # or unpacking target is not looked at: a parameter so rebound stays one.)
    shown = params - set(values)
    changed = True
    while changed:
        changed = False
        for name, assigned in values.items():
            own = {name} if name in params else set()
            if name not in shown and all(_label(v, frozenset(shown | own)) for v in assigned):
                shown.add(name)
                changed = True
    return frozenset(shown)


def _labels_only(value: cst.BaseExpression | None, shown: frozenset[str] | None) -> bool:
    """A returned message that labels the path: text that says where it is, nothing that refuses it (`shown`
    None: whatever names it shows)."""
    return (
        isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString))
        and (shown is None or _label(value, shown))
        and not _says(value, _REFUSES)
    )


def _answers_label(otherwise: Sequence[cst.CSTNode], shown: frozenset[str]) -> bool:
    """What the function does when the test fails is `return <a label>` (not `None`, `True` or `False`)."""
    first = otherwise[0] if otherwise else None
    end = first.body[0] if isinstance(first, cst.SimpleStatementLine) and first.body else first
    value = end.value if isinstance(end, cst.Return) else None
    return (
        value is not None
        and not (isinstance(value, cst.Name) and value.value in ("None", "True", "False"))
        and _label(value, shown)
    )


def labelled_returns(
    func: cst.FunctionDef, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None] = _walk
) -> frozenset[int]:
    """Ids of the returns ending an `if` branch of a labeller (the module's docstring): text that says where the
    path is, where the other way out returns a label too. Such a return refuses nothing. `walk`: the file's."""
    candidates: list[tuple[cst.Return, Sequence[cst.CSTNode]]] = []

    class Find(cst.CSTVisitor):
        def visit_IndentedBlock(self, block: cst.IndentedBlock) -> None:
            for i, statement in enumerate(block.body):
                if not isinstance(statement, cst.If):
                    continue
                orelse = statement.orelse
                branches: list[tuple[cst.BaseSuite, Sequence[cst.CSTNode]]] = []
                if isinstance(orelse, cst.Else):
                    branches += [(statement.body, orelse.body.body), (orelse.body, statement.body.body)]
                elif orelse is None:  # an `elif` chain: a guard (no exemption)
                    branches.append((statement.body, block.body[i + 1 :]))
                for branch, otherwise in branches:
                    end = _end(branch)
                    if isinstance(end, cst.Return) and _labels_only(end.value, None):
                        candidates.append((end, otherwise))

    walk(func.body, Find())
    if not candidates:
        return frozenset()
    shown = _shown(func, walk)
    return frozenset(
        id(end)
        for end, otherwise in candidates
        if _labels_only(end.value, shown) and _answers_label(otherwise, shown)
    )


def _pardir(node: cst.BaseExpression) -> bool:
    """`".."`, `os.pardir` or `pardir`."""
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value == ".."
    if isinstance(node, cst.Attribute):
        return node.attr.value == "pardir" and isinstance(node.value, cst.Name) and node.value.value == "os"
    return isinstance(node, cst.Name) and node.value == "pardir"


def _pardir_prefix(node: cst.BaseExpression) -> bool:
    """`".."`, `os.pardir`, `"../"`, `os.pardir + os.sep`: what a relpath out of its base starts with."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _pardir_prefix(node.left)
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return isinstance(value, str) and value in ("..", "../", "..\\")
    return _pardir(node)


Held = Mapping[str, cst.Call]
NONE_HELD: Held = MappingProxyType({})


def _relpath(node: cst.BaseExpression, held: Held = NONE_HELD) -> cst.Call | None:
    """`os.path.relpath(x, base)` (of two or more arguments), or a name `held` says was assigned one, or None."""
    if isinstance(node, cst.Name):
        return held.get(node.value)
    if isinstance(node, cst.Call) and _callee(node) == "relpath" and len(node.args) >= 2:
        return node
    return None


def held_relpaths(
    body: cst.CSTNode, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None] | None = None
) -> dict[str, cst.Call]:
    """Names assigned a relpath once (`rel = os.path.relpath(target, base)`); a name assigned twice: none.
    `walk`: the file's read-only walk (libcst's own copies every node: a fifth of a parse on benchmark 2)."""
    found: dict[str, cst.Call] = {}
    twice: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    name = t.target.value
                    call = _relpath(node.value)
                    if name in found or call is None:
                        twice.add(name)
                    else:
                        found[name] = call

    (walk or read)(body, Find())
    return {name: call for name, call in found.items() if name not in twice}


def _relpath_of(call: cst.Call, held: Held = NONE_HELD) -> cst.BaseExpression | None:
    """The base of `os.path.relpath(x, base).startswith("..")` (or `os.pardir`, `os.pardir + os.sep`), or None."""
    receiver = _relpath(call.func.value, held) if isinstance(call.func, cst.Attribute) else None
    if receiver is None or not call.args or not _pardir_prefix(call.args[0].value):
        return None
    return receiver.args[1].value


def absolute_test(call: cst.Call) -> bool:
    """`p.startswith("/")` / `p.startswith(os.sep)`: whether a path is absolute, as `os.path.isabs` says; it
    checks nothing against a bound."""
    if _callee(call) != "startswith" or len(call.args) != 1:
        return False
    arg = call.args[0].value
    options = [e.value for e in arg.elements] if isinstance(arg, cst.Tuple) else [arg]
    return all(
        (isinstance(o, cst.SimpleString) and o.evaluated_value in ("/", "\\"))
        or (isinstance(o, (cst.Attribute, cst.Name)) and _code(o) in ("os.sep", "os.path.sep", "sep"))
        for o in options
    )


def _code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


def _first_part_of_relpath(node: cst.BaseExpression, held: Held = NONE_HELD) -> cst.Call | None:
    """The relpath call of `relpath(t, base).split(os.sep)[0]` or `Path(relpath(t, base)).parts[0]`."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return None
    index = node.slice[0].slice
    if not (
        isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0"
    ):
        return None
    value = node.value
    if isinstance(value, cst.Call) and _callee(value) == "split" and isinstance(value.func, cst.Attribute):
        return _relpath(value.func.value, held)
    if isinstance(value, cst.Attribute) and value.attr.value == "parts" and isinstance(value.value, cst.Call):
        wrapped = value.value  # `Path(relpath(...)).parts[0]`
        return _relpath(wrapped.args[0].value, held) if _callee(wrapped) == "Path" and wrapped.args else None
    return None


def _leading_parts(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`target` of `target.parts[:n]`, or None."""
    if not (isinstance(node, cst.Subscript) and len(node.slice) == 1):
        return None
    cut = node.slice[0].slice
    value = node.value
    if not (isinstance(cut, cst.Slice) and cut.upper is not None and cut.step is None):
        return None
    if cut.lower is not None and not (isinstance(cut.lower, cst.Integer) and cut.lower.value == "0"):
        return None
    return value.value if isinstance(value, cst.Attribute) and value.attr.value == "parts" else None


def _parts_or_pardir(
    node: cst.Comparison, held: Held = NONE_HELD
) -> tuple[str, bool, cst.BaseExpression, cst.BaseExpression] | None:
    """(sign, true when the path is outside, bound side, checked side) of one `==` / `!=` comparison."""
    if len(node.comparisons) != 1:
        return None
    target = node.comparisons[0]
    if not isinstance(target.operator, (cst.Equal, cst.NotEqual)):
        return None
    equal = isinstance(target.operator, cst.Equal)
    for one, other in ((node.left, target.comparator), (target.comparator, node.left)):
        checked = _leading_parts(one)
        # Both sides are `parts`: a tuple of folder names compared with a constant is another test.
        if checked is not None and isinstance(other, cst.Attribute) and other.attr.value == "parts":
            return PARTS, not equal, other.value, checked
        # `rel == os.pardir`: the whole relpath of a held name (the bound's parent itself).
        relpath = _first_part_of_relpath(one, held) or (
            _relpath(one, held) if isinstance(one, cst.Name) else None
        )
        if relpath is not None and _pardir(other):
            return PARDIR, equal, relpath.args[1].value, relpath.args[0].value
    return None


def _outside(
    test: cst.BaseExpression, negated: bool = False, held: Held = NONE_HELD
) -> Iterator[tuple[str, bool, cst.BaseExpression, cst.BaseExpression]]:
    """The comparisons of an `if` test, each with whether it holds when the path is outside (under `not`s)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        yield from _outside(test.expression, not negated, held)
    elif isinstance(test, cst.BooleanOperation):
        yield from _outside(test.left, negated, held)
        yield from _outside(test.right, negated, held)
    elif isinstance(test, cst.Call) and isinstance(test.func, cst.Attribute) and test.args and held:
        base = _relpath_of(test, held)  # `rel.startswith(os.pardir)`: a held relpath's prefix
        receiver = test.func.value if isinstance(test.func, cst.Attribute) else None
        if base is not None and isinstance(receiver, cst.Name):
            yield PARDIR, not negated, base, held[receiver.value].args[0].value
    elif isinstance(test, cst.Comparison):
        found = _parts_or_pardir(test, held)
        if found is not None:
            sign, outside, bound, checked = found
            yield sign, outside != negated, bound, checked


def refused_outside(
    node: cst.If, held: Held = NONE_HELD, labelled: frozenset[int] = frozenset()
) -> list[tuple[str, cst.BaseExpression, cst.BaseExpression]]:
    """(sign, bound side, checked side) of each parts or `..` comparison of the `if` whose refusing branch is the
    outside one: the body when the test holds outside, the `else` when it holds inside."""
    refuses_inside = isinstance(node.orelse, cst.Else) and _raises_at_end(node.orelse.body, labelled)
    refuses_outside = _raises_at_end(node.body, labelled)
    return [
        (sign, bound, checked)
        for sign, outside, bound, checked in _outside(node.test, held=held)
        if (refuses_outside if outside else refuses_inside)
    ]


class Lazy(Mapping[str, cst.Call]):
    """`held_relpaths(body)` computed on first use: most functions never ask (a tenth of benchmark 3's index)."""

    def __init__(self, body: cst.CSTNode, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]) -> None:
        self.body, self.walk = body, walk
        self.found: dict[str, cst.Call] | None = None

    def _held(self) -> dict[str, cst.Call]:
        if self.found is None:
            self.found = held_relpaths(self.body, self.walk)
        return self.found

    def __getitem__(self, name: str) -> cst.Call:
        return self._held()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._held())

    def __len__(self) -> int:
        return len(self._held())


class LazyLabels:
    """`labelled_returns(func)` computed on first use: asked only of an `if` whose branch ends in a return."""

    def __init__(self, func: cst.FunctionDef, walk: Callable[[cst.CSTNode, cst.CSTVisitor], None]) -> None:
        self.func, self.walk = func, walk
        self.found: frozenset[int] | None = None

    def __contains__(self, item: object) -> bool:
        if self.found is None:
            self.found = labelled_returns(self.func, self.walk)
        return item in self.found
