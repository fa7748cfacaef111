"""The engine's own tree plumbing must match libcst's: parent links, child order, visitor calls, positions."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from migrate_roots.codemods.base import FileState, Spans, _Children, _Parents, _scopes, resolve
from migrate_roots.config import Settings

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    p
    for folder in ("tests/fixtures", "tests/data", "examples", "audit/regressions")
    for p in (ROOT / folder).rglob("*.py")
)


def _state(module: cst.Module) -> FileState:
    wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
    return FileState(
        path="x.py",
        module="x",
        package="",
        package_root=".",
        settings=Settings(),
        wrapper=wrapper,
        lines=[],
        enabled=frozenset(),
    )


def _parse(path: Path) -> cst.Module:
    try:
        return cst.parse_module(path.read_text(encoding="utf-8"))
    except (cst.ParserSyntaxError, UnicodeDecodeError):
        pytest.skip(f"{path.name} does not parse")


class Recorder(cst.CSTVisitor):
    """Records every call; stops descending into lambdas and leaves through leave_ methods."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:  # not used on the fast path: see FastRecorder
        raise AssertionError

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        self.calls.append(("visit_Lambda", id(node)))
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.calls.append(("visit_Name", id(node)))

    def leave_Call(self, node: cst.Call) -> None:
        self.calls.append(("leave_Call", id(node)))

    def leave_Lambda(self, node: cst.Lambda) -> None:
        self.calls.append(("leave_Lambda", id(node)))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool | None:
        self.calls.append(("visit_FunctionDef", id(node)))
        return None


class FastRecorder(Recorder):
    on_visit = cst.CSTVisitor.on_visit  # keeps CSTVisitor's dispatch: FileState.walk takes its fast path


class SlowRecorder(Recorder):
    def on_visit(self, node: cst.CSTNode) -> bool:  # overridden: FileState.walk calls it for every node
        return cst.CSTVisitor.on_visit(self, node)


def test_there_are_sources():
    assert len(SOURCES) > 20


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_links_are_libcsts_children(path):
    _same_links(_parse(path))


def _same_links(module: cst.Module) -> None:
    meta = resolve(cst.MetadataWrapper(module, unsafe_skip_copy=True))
    todo = [module]
    while todo:
        node = todo.pop()
        kids = list(node.children)
        assert meta[_Children].get(node, []) == kids
        assert all(meta[_Parents][kid] is node for kid in kids)
        todo.extend(kids)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
@pytest.mark.parametrize("kind", [FastRecorder, SlowRecorder])
def test_walk_makes_libcsts_calls(path, kind):
    module = _parse(path)
    expected, got = kind(), kind()
    module.visit(expected)
    _state(module).walk(module, got)
    assert got.calls == expected.calls


# Line endings and constructs whose tokens carry newlines: the joined-text arithmetic of Spans must count them
# as libcst's per-token arithmetic does.
SNIPPETS = [
    "x = 1\r\ny = (1,\r\n     2)\r\n",
    'def f():\r    return """a\r\nb"""\r',
    "if x:  # c\n\tpass\n\n\n@d\nclass C(\n  B):\n    '''doc\n    '''\n",
    "x = 1 + \\\n    2\n\x0cy = f'{x!r:>{w}}'\n",
    "async def g():\n    async with a as b, c:\n        await (yield)\n",
    "",
    "\n\n",
]


def _same_positions(module: cst.Module) -> None:
    expected = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(cst.metadata.PositionProvider)
    spans = Spans(module)
    assert len(expected) > 0
    for node, where in expected.items():
        assert node in spans
        assert spans.start(node) == (where.start.line, where.start.column), node
        assert spans.end(node) == (where.end.line, where.end.column), node


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_spans_are_libcsts_positions(path):
    _same_positions(_parse(path))


@pytest.mark.parametrize("source", SNIPPETS)
def test_spans_count_lines_as_libcst_does(source):
    _same_positions(cst.parse_module(source))


# Syntax whose code order and visit order differ (codemods.base._OUT_OF_ORDER), or might: rare in the files.
ORDER_SNIPPETS = [
    "def f[T: int, *Ts, **P](a, /, b, *, c): pass\n",
    "class C[T = int, *Ts = *tuple[int], **P = [int]]: pass\n",
    "type X[T: (int, str) = int] = list[T]\n",
    "match x:\n    case [1, *rest] if rest: pass\n    case {'a': 1, **kw}: pass\n"
    "    case Point(x=1) as p: pass\n    case (1 | 2) as q: pass\n    case _: pass\n",
    "raise E from exc\n",
    "try:\n    pass\nexcept* E as e:\n    pass\n",
    "del a, b[1], c.d\ndel (x)\n",
    "import a.b as c\nfrom . import (x as y, z)\n",
    "with (a as b, c as d): pass\n",
    "lambda a, /, b=1, *c, d, **e: 0\n",
]


@pytest.mark.parametrize("source", ORDER_SNIPPETS)
def test_links_follow_libcsts_visit_order(source):
    module = cst.parse_module(source)
    _same_links(module)
    _same_positions(module)


def _shape(scopes) -> list[tuple]:
    """Scopes as comparable data: per node (in a fixed order), its scope's kind, its names' assignments and
    accesses (as node positions in the tree), and the parent scopes' indexes."""
    order: dict[int, int] = {}

    def index(scope) -> int:
        return order.setdefault(id(scope), len(order))

    out = []
    for node, scope in scopes.items():
        if scope is None:
            out.append((type(node).__name__, None))
            continue
        parent = index(scope.parent) if scope.parent is not scope else -1
        names = sorted(
            (a.name, type(a.node).__name__, len(scope.accesses[a.name])) for a in scope.assignments
        )
        out.append((type(node).__name__, type(scope).__name__, index(scope), parent, names))
    return out


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_scopes_are_libcsts(path):
    module = _parse(path)
    expected = cst.MetadataWrapper(module, unsafe_skip_copy=True).resolve(cst.metadata.ScopeProvider)
    meta = resolve(cst.MetadataWrapper(module, unsafe_skip_copy=True))
    got = meta[cst.metadata.ScopeProvider]
    in_tree = {id(node) for node in meta[_Parents]} | {id(module)}

    def keys(scopes):  # nodes parsed from string annotations are new objects on every resolution
        return [node if id(node) in in_tree else type(node).__name__ for node in scopes]

    assert keys(got) == keys(expected)
    assert _shape(got) == _shape(expected)


def test_scopes_leave_libcsts_visit_as_it_was():
    original = cst.CSTNode.visit
    module = cst.parse_module("class A(B):\n    x: 'int' = 1\n")
    resolve(cst.MetadataWrapper(module, unsafe_skip_copy=True))
    assert cst.CSTNode.visit is original
    with pytest.raises(AttributeError):  # a child that is no node: the walk fails half-way
        _scopes(module, {}, {module: ["not a node"]})
    assert cst.CSTNode.visit is original


def test_attribute_hooks_are_found_in_the_visitor_classes():
    from migrate_roots.codemods.base import _HOOKED, _attribute_hooked

    assert cst.ClassDef in _HOOKED  # ScopeVisitor.visit_ClassDef_bases

    class Hooked(cst.CSTVisitor):
        def visit_Call_func(self, node):
            pass

        def visit_Name(self, node):
            pass

    assert _attribute_hooked(Hooked) == {cst.Call}
