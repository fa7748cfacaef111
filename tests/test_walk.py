"""The engine's own tree plumbing must match libcst's: parent links, child order, visitor calls, positions.

Both ways of `_fastmeta` are held to libcst's providers: the fast one (libcst internals, on tested releases)
and the public fallback (on any other release); the engine's results are the same with either.
"""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from migrate_roots.codemods import _fastmeta
from migrate_roots.codemods._fastmeta import Spans, _scopes
from migrate_roots.codemods.base import FileState, _Children, _Parents, resolve
from migrate_roots.config import Settings
from migrate_roots.model import to_dict
from tests.helpers import run_engine

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


@pytest.fixture(params=["fast", "public"])
def way(request, monkeypatch):
    """Runs a test on the fast way and again with the public fallback forced."""
    _fastmeta.fast_enabled.cache_clear()
    if request.param == "public":
        monkeypatch.setenv(_fastmeta.PUBLIC_ENV, "1")
    else:
        monkeypatch.delenv(_fastmeta.PUBLIC_ENV, raising=False)
    assert _fastmeta.fast_enabled() is (request.param == "fast")
    yield request.param
    _fastmeta.fast_enabled.cache_clear()


def test_there_are_sources():
    assert len(SOURCES) > 20


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_links_are_libcsts_children(path, way):
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
    spans = resolve(cst.MetadataWrapper(module, unsafe_skip_copy=True))[Spans]
    assert len(expected) > 0
    for node, where in expected.items():
        assert node in spans
        assert spans.start(node) == (where.start.line, where.start.column), node
        assert spans.end(node) == (where.end.line, where.end.column), node


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.name)
def test_spans_are_libcsts_positions(path, way):
    _same_positions(_parse(path))


@pytest.mark.parametrize("source", SNIPPETS)
def test_spans_count_lines_as_libcst_does(source, way):
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
def test_links_follow_libcsts_visit_order(source, way):
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
def test_scopes_are_libcsts(path, way):
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
    from migrate_roots.codemods._fastmeta import _HOOKED, _attribute_hooked

    assert cst.ClassDef in _HOOKED  # ScopeVisitor.visit_ClassDef_bases

    class Hooked(cst.CSTVisitor):
        def visit_Call_func(self, node):
            pass

        def visit_Name(self, node):
            pass

    assert _attribute_hooked(Hooked) == {cst.Call}


def test_an_untested_libcst_takes_the_public_way(monkeypatch):
    monkeypatch.delenv(_fastmeta.PUBLIC_ENV, raising=False)
    _fastmeta.fast_enabled.cache_clear()
    try:
        # CI installs the newest libcst: run this file with it, then add it to TESTED
        assert _fastmeta.libcst_version() in _fastmeta.TESTED, _fastmeta.libcst_version()
        assert _fastmeta.fast_enabled()
        _fastmeta.fast_enabled.cache_clear()
        monkeypatch.setattr(_fastmeta, "libcst_version", lambda: "99.0.0")
        assert not _fastmeta.fast_enabled()
        _fastmeta.fast_enabled.cache_clear()
        monkeypatch.setattr(_fastmeta, "libcst_version", lambda: "1.9.0")
        monkeypatch.setattr(_fastmeta, "_self_check", lambda: 1 / 0)  # a changed internal, in whatever way
        assert not _fastmeta.fast_enabled()
        module = cst.parse_module("x = 1\n")
        meta = resolve(cst.MetadataWrapper(module, unsafe_skip_copy=True))
        assert isinstance(meta[Spans], _fastmeta.PublicSpans)
    finally:
        _fastmeta.fast_enabled.cache_clear()


def test_the_engine_gives_the_same_results_either_way(tmp_path, monkeypatch):
    """Every fixture, migrated on the fast way and on the public one: same findings, same diffs."""
    sources = [p for p in SOURCES if "fixtures" in p.parts and not p.name.endswith(".after.py")]
    assert sources
    results = {}
    for way in ("fast", "public"):
        folder = tmp_path / way / "pkg"
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
        for path in sources:
            (folder / f"{path.parent.name}_{path.name}").write_text(path.read_text(encoding="utf-8"))
        (folder / "example_server.py").write_text(
            (ROOT / "examples" / "server.py").read_text(encoding="utf-8")
        )
        _fastmeta.fast_enabled.cache_clear()
        if way == "public":
            monkeypatch.setenv(_fastmeta.PUBLIC_ENV, "1")
        assert _fastmeta.fast_enabled() is (way == "fast")
        got = run_engine(tmp_path / way, write=False)
        results[way] = sorted((r.path, r.diff, [to_dict(f) for f in r.findings]) for r in got)
    _fastmeta.fast_enabled.cache_clear()
    assert any(diff for _, diff, _ in results["fast"])
    assert results["public"] == results["fast"]
