"""The engine's fast metadata, fenced: everything that touches libcst's private internals lives here.

libcst's public way (`MetadataWrapper.resolve_many` of Position-, Scope- and ParentNodeProvider) walks the
tree several times and rebuilds every node on each walk. The fast way costs a third less (benchmark 2):
- one plain code generation records every node's span and parent (`_SpanState`, a subclass of libcst's
  private `libcst._nodes.internal.CodegenState`; code generation meets the children of a node in visiting
  order, but for the few types of `_OUT_OF_ORDER`);
- the scope analysis runs its two visitors directly (`_scopes`, which swaps `CSTNode.visit` while they run);
- line arithmetic is done only for the nodes a rule asks about (`Spans`).

Private internals change without notice, so the fast way is used only on the libcst versions it was tested
with (`TESTED`), and only when a self-check on a small source agrees with libcst's public providers. On any
other version, or with `MIGRATE_ROOTS_PUBLIC_METADATA=1`, `metadata` takes libcst's public providers: slower,
and correct by definition. tests/test_walk.py holds the two equal on every fixture file, and the engine's
results equal with either. Nothing outside this module imports libcst's private modules.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import itertools
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import metadata as importlib_metadata
from typing import Any, cast

import libcst as cst
from libcst.metadata import (
    ExpressionContextProvider,
    ParentNodeProvider,
    PositionProvider,
    Scope,
    ScopeProvider,
)
from libcst.metadata.expression_context_provider import ExpressionContextVisitor
from libcst.metadata.scope_provider import ScopeVisitor

try:
    from libcst._nodes.internal import CodegenState
except ImportError:  # a libcst without it: the public providers only
    CodegenState = object  # type: ignore[assignment, misc]

# The libcst releases the fast way was tested with (tests/test_walk.py passes with each). Add a release here
# only after that file passes with it: on 1.8.0 the fast scopes differ from libcst's on some files (a
# self-check on a small source does not catch every difference), so 1.8.0 takes the public way.
TESTED = frozenset({"1.8.6", "1.9.0"})
PUBLIC_ENV = "MIGRATE_ROOTS_PUBLIC_METADATA"

Metadata = tuple[
    Mapping[cst.CSTNode, "Scope | None"],
    "Spans | PublicSpans",
    Mapping[cst.CSTNode, cst.CSTNode],
    Mapping[cst.CSTNode, list[cst.CSTNode]],
]


def libcst_version() -> str:
    try:
        return importlib_metadata.version("libcst")
    except importlib_metadata.PackageNotFoundError:
        return ""


def metadata(wrapper: cst.MetadataWrapper) -> Metadata:
    """(scopes, positions, child -> parent, node -> children in visiting order) of `wrapper.module`."""
    if fast_enabled():
        return fast(wrapper.module)
    return public(wrapper)


@functools.cache
def fast_enabled() -> bool:
    """Whether the fast way may be used in this process: a tested libcst and a passing self-check."""
    if os.environ.get(PUBLIC_ENV, "") not in ("", "0"):
        return False
    if CodegenState is object or libcst_version() not in TESTED:
        return False
    try:
        return _self_check()
    except Exception:  # a changed internal fails the check in whatever way: take the public way
        return False


# Small, but it meets each hook of `_SpanState` and each branch of `_scopes`' visit (an attribute hook, a
# string annotation the analysis parses itself, an out-of-order node).
_CHECK = "import a as b\nclass C(B):\n    def f(self, a, /, *, d: 'C') -> None:\n        del a\n        return [d for d in d]\n"


def _self_check() -> bool:
    module = cst.parse_module(_CHECK)
    scopes, spans, parents, children = fast(module)
    wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
    p_scopes, p_spans, p_parents, p_children = public(wrapper)
    if dict(parents) != dict(p_parents) or dict(children) != dict(p_children):
        return False
    if any(spans.start(n) != p_spans.start(n) or spans.end(n) != p_spans.end(n) for n in p_parents):
        return False

    # nodes parsed from string annotations are new objects on every resolution: compared by type
    def shape(found: Mapping[cst.CSTNode, Scope | None]) -> list[tuple[object, str]]:
        return [
            (node if node is module or node in p_parents else type(node), type(scope).__name__)
            for node, scope in found.items()
        ]

    return shape(scopes) == shape(p_scopes)


def public(wrapper: cst.MetadataWrapper) -> Metadata:
    """The same metadata from libcst's public providers."""
    resolved = wrapper.resolve_many([PositionProvider, ParentNodeProvider, ScopeProvider])
    parents = cast(Mapping[cst.CSTNode, cst.CSTNode], resolved[ParentNodeProvider])
    children: dict[cst.CSTNode, list[cst.CSTNode]] = {}
    todo: list[cst.CSTNode] = [wrapper.module]
    while todo:
        node = todo.pop()
        kids = list(node.children)
        if kids:
            children[node] = kids
            todo.extend(kids)
    scopes = cast(Mapping[cst.CSTNode, "Scope | None"], resolved[ScopeProvider])
    return scopes, PublicSpans(resolved[PositionProvider]), parents, children


class PublicSpans:
    """`Spans` over libcst's PositionProvider."""

    def __init__(self, positions: Mapping[cst.CSTNode, Any]) -> None:
        self._positions = positions

    def __contains__(self, node: object) -> bool:
        return node in self._positions

    def start(self, node: cst.CSTNode) -> tuple[int, int]:
        where = self._positions[node].start
        return where.line, where.column

    def end(self, node: cst.CSTNode) -> tuple[int, int]:
        where = self._positions[node].end
        return where.line, where.column


def fast(module: cst.Module) -> Metadata:
    """The metadata by the fast way (on a libcst of `TESTED` only: see `fast_enabled`)."""
    spans = Spans(module)
    children: dict[cst.CSTNode, list[cst.CSTNode]] = {}
    for child, parent in spans.parents.items():
        children.setdefault(parent, []).append(child)
    for parent, kids in children.items():
        if type(parent) in _OUT_OF_ORDER and len(kids) > 1:
            kids[:] = parent.children
    return _scopes(module, spans.parents, children), spans, spans.parents, children


@dataclass(frozen=False)
class _SpanState(CodegenState):
    """libcst's code generation, recording each node's parent, and where it starts and ends as a count of
    tokens emitted.

    The same hooks and the same rules as libcst's PositionProvidingCodegenState: a node's span is the one its
    code generation declares (`record_syntactic_position`, possibly hoisted from a child), else everything
    it emitted; only the line and column arithmetic on every token is left out."""

    spans: dict[cst.CSTNode, tuple[int, int]] = field(default_factory=dict)
    parents: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    _stack: list[int] = field(default_factory=list)
    _path: list[cst.CSTNode] = field(default_factory=list)

    def before_codegen(self, node: cst.CSTNode) -> None:
        if self._path:
            self.parents[node] = self._path[-1]
        self._path.append(node)
        self._stack.append(len(self.tokens))

    def pop_trailing_newline(self) -> None:
        """Kept: libcst's positions count the module's last newline (its counters never take it back)."""

    def after_codegen(self, node: cst.CSTNode) -> None:
        self._path.pop()
        start = self._stack.pop()
        if node not in self.spans:
            self.spans[node] = (start, len(self.tokens))

    @contextlib.contextmanager
    def record_syntactic_position(
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> Iterator[None]:
        start = len(self.tokens)
        try:
            yield
        finally:
            end = len(self.tokens)
            self.spans[node] = (
                self.spans[start_node][0] if start_node is not None else start,
                self.spans[end_node][1] if end_node is not None else end,
            )


_NEWLINE = re.compile(r"\r\n?|\n")


class Spans:
    """What libcst's PositionProvider gives (1-based line, 0-based column of a node's start and end), from one
    plain code generation; the arithmetic is done for the nodes asked about."""

    def __init__(self, module: cst.Module) -> None:
        state = _SpanState(default_indent=module.default_indent, default_newline=module.default_newline)
        module._codegen(state)
        self._spans, self._tokens = state.spans, state.tokens
        self.parents = state.parents
        self._offsets: list[int] = []
        self._lines: list[int] = []  # offset of the first character of each line

    def __contains__(self, node: object) -> bool:
        return node in self._spans

    def _at(self, index: int) -> tuple[int, int]:
        if not self._offsets:
            self._offsets = list(itertools.accumulate(map(len, self._tokens), initial=0))
            text = "".join(self._tokens)
            self._lines = [0, *(m.end() for m in _NEWLINE.finditer(text))]
        offset = self._offsets[index]
        line = bisect.bisect_right(self._lines, offset)
        return line, offset - self._lines[line - 1]

    def start(self, node: cst.CSTNode) -> tuple[int, int]:
        return self._at(self._spans[node][0])

    def end(self, node: cst.CSTNode) -> tuple[int, int]:
        return self._at(self._spans[node][1])


# The node types whose code generation meets their children in another order than their visit does (the
# whitespace after `as`, `del`, `/`, `*`, `**` is visited after the name): their children are libcst's own.
_OUT_OF_ORDER = frozenset({cst.AsName, cst.Del, cst.ParamSlash, cst.ParamSpec, cst.TypeVarTuple})


def _attribute_hooked(*visitors: type) -> frozenset[type]:
    """Node types for which these visitors define attribute hooks (`visit_<Node>_<field>`), which only
    libcst's own `visit` calls: read from the classes, so that a libcst release adding one stays correct."""
    found: set[type] = set()
    for visitor in visitors:
        for klass in visitor.__mro__:
            if klass is cst.CSTVisitor:
                break
            for attr in vars(klass):
                parts = attr.split("_", 2)
                if (
                    len(parts) == 3
                    and parts[0] in ("visit", "leave")
                    and isinstance(getattr(cst, parts[1], None), type)
                ):
                    found.add(getattr(cst, parts[1]))
    return frozenset(found)


_HOOKED = _attribute_hooked(ScopeVisitor, ExpressionContextVisitor)


def _scopes(
    module: cst.Module,
    parents: Mapping[cst.CSTNode, cst.CSTNode],
    children: Mapping[cst.CSTNode, list[cst.CSTNode]],
) -> Mapping[cst.CSTNode, Scope | None]:
    """What `MetadataWrapper.resolve(ScopeProvider)` gives, without the two batched walks it adds around the
    providers' own visitors (each calls only `visit_Module`, then walks the whole tree for nothing), and
    without the copy of every node that libcst's `visit` makes on the way even for a read-only visitor (a
    third of the scope analysis, benchmark 2).

    While the two visitors run, `CSTNode.visit` is a read-only walk through the recorded child links (the
    same nodes in the same order: tests/test_walk.py) for the nodes of this tree and read-only visitors;
    a node the analysis builds itself (a string annotation it parses), a transformer, and the nodes whose
    attribute hooks the visitors define (`visit_ClassDef_bases`: `_HOOKED`) take libcst's own."""
    original = cst.CSTNode.visit
    plain: dict[type, bool] = {}

    def visit(node: Any, visitor: Any) -> Any:
        kind = type(visitor)
        readonly = plain.get(kind)
        if readonly is None:
            readonly = plain[kind] = isinstance(visitor, cst.CSTVisitor)
        if not readonly or type(node) in _HOOKED or (node is not module and node not in parents):
            return original(node, visitor)
        if visitor.on_visit(node):
            for child in children.get(node, ()):
                child.visit(visitor)
        visitor.on_leave(node)
        return node

    cst.CSTNode.visit = visit  # type: ignore[method-assign, assignment]
    try:
        context = ExpressionContextProvider()
        context.visit_Module(module)
        scopes = ScopeProvider()
        scopes.metadata = {ExpressionContextProvider: context._computed}
        scopes.visit_Module(module)
    finally:
        cst.CSTNode.visit = original  # type: ignore[method-assign]
    return cast(Mapping[cst.CSTNode, Scope | None], scopes._computed)
