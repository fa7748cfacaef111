"""The engine's own tree plumbing must match libcst's: parent links, child order, and visitor calls."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from codemods.base import FileState, _Children, _Parents, resolve
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
    module = _parse(path)
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
