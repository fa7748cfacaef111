"""The contract between rules and the engine.

A rule is a class with a code, a summary and the node types it looks at; subclassing `Rule` registers it.
The engine parses a file once, resolves metadata once, and walks the tree once, handing each node to every
enabled rule that asked for its type. Rules record findings and edits on the `FileState`; they never print
and never write. Edits are applied by one transformer after the walk.

Rules that need the whole package (a tool in one file reaching roots through a helper in another) add
hooks: `summarize` (a small picklable summary of this file), `plan` (over the summaries of a group of files
that may affect each other, once per group), `links` (the modules a summary refers to, which is how the engine
forms those groups), and they read the plan back from `state.plan` on the rewrite walk.
"""

from __future__ import annotations

import bisect
import contextlib
import itertools
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import ExpressionContextProvider, QualifiedName, Scope, ScopeProvider
from libcst.metadata.expression_context_provider import ExpressionContextVisitor
from libcst.metadata.scope_provider import ScopeVisitor

from migrate_roots.model import Action, Finding, Severity


class _Parents:
    """Key of the child -> parent map in `FileState.meta` (not a libcst provider)."""


class _Children:
    """Key of the node -> children map in `FileState.meta` (not a libcst provider)."""


class _QNames:
    """Key of the qualified names computed so far in `FileState.meta` (not a libcst provider)."""


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


def resolve(wrapper: cst.MetadataWrapper) -> dict[Any, Any]:
    """The metadata of one parse: the scopes, the positions, the parent and child links, an empty name cache.

    libcst's own way (`wrapper.resolve_many` of Position-, Scope-, ParentNode- and QualifiedNameProvider)
    walks the tree several times, rebuilding every node on each walk; here (a third cheaper, benchmark 2):
    - one plain code generation records every node's span and parent (`_SpanState`; code generation meets
      the children of a node in visiting order, but for the few types of `_OUT_OF_ORDER`);
    - the scope analysis runs its two visitors directly (`_scopes`);
    - qualified names are asked of the scope for the few nodes a rule looks up (`FileState.qualified_names`,
      exactly the computation of QualifiedNameProvider), and line arithmetic is done for the nodes a rule
      asks about (`Spans`).
    tests/test_walk.py holds each of these equal to what libcst's providers give on every fixture file.
    """
    spans = Spans(wrapper.module)
    children: dict[cst.CSTNode, list[cst.CSTNode]] = {}
    for child, parent in spans.parents.items():
        children.setdefault(parent, []).append(child)
    for parent, kids in children.items():
        if type(parent) in _OUT_OF_ORDER and len(kids) > 1:
            kids[:] = parent.children
    return {
        ScopeProvider: _scopes(wrapper.module, spans.parents, children),
        Spans: spans,
        _Parents: spans.parents,
        _Children: children,
        _QNames: {},
    }


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


MARKER_PREFIX = "# migrate-roots:"
_IGNORE = re.compile(r"#\s*migrate-roots:\s*ignore\[([A-Za-z0-9, ]+)\]")

REGISTRY: dict[str, type[Rule]] = {}

Edit = Callable[[cst.CSTNode], cst.CSTNode]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]  # kebab-case, like the module that holds it
    summary: ClassVar[str]
    severity: ClassVar[Severity]
    # "safe": rewritten by default; "opt-in": rewritten only when selected by code; "none": reported/marked.
    fix: ClassVar[str] = "none"
    default_enabled: ClassVar[bool] = True
    # Byte strings of which at least one must occur in a file for this rule to look at it.
    tokens: ClassVar[tuple[bytes, ...]]
    # Bytes that must also occur in the file. Every rule resolves names through mcp/fastmcp imports, so a
    # file that never says "mcp" has nothing for it, however common its tokens (`.info(`, `roots`) are.
    requires: ClassVar[bytes] = b"mcp"
    # Node types handed to `visit`.
    nodes: ClassVar[tuple[type[cst.CSTNode], ...]] = ()
    # The registered class that does this code's work (a rule family runs once for all its codes).
    runner: ClassVar[type[Rule] | None] = None
    # What the rule deliberately leaves alone (documented in `migrate-roots rules --verbose` and MIGRATION.md).
    limits: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "code" in cls.__dict__:
            if cls.code in REGISTRY and REGISTRY[cls.code] is not cls:
                raise RuntimeError(f"duplicate rule code {cls.code}")
            REGISTRY[cls.code] = cls

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        """Look at one node of a type named in `nodes`."""

    def leave(self, state: FileState) -> None:
        """Called once after the walk, before edits are applied."""

    # Package-wide hooks (optional).
    def summarize(self, state: FileState) -> Any:
        return None

    @classmethod
    def follow_tokens(cls, summaries: Mapping[str, Any]) -> set[bytes]:
        """Names whose mention makes another file worth indexing (it may call into a summarised file)."""
        return set()

    @classmethod
    def links(cls, summary: Any) -> set[str]:
        """Dotted names of modules, other than its own, that a file's summary refers to.

        The engine plans together only the files of linked top-level packages (and, outside packages, of one
        folder): `plan` over such a group must give what it gives over every file of the run. A rule whose
        plan relates files in another way must name the modules here."""
        return set()

    @classmethod
    def plan(cls, summaries: Mapping[str, Any], settings: Any) -> Mapping[str, Any]:
        """Map file path -> instructions for the rewrite walk of that file. Files absent need no rewrite."""
        return {}


@dataclass
class FileState:
    """Everything a rule may read or record about one file during one walk."""

    path: str
    module: str  # dotted module name, from the package layout
    package: str  # dotted package that relative imports start from
    package_root: str  # folder of the top-level package (where the shim goes)
    settings: Any
    wrapper: cst.MetadataWrapper
    lines: list[str]
    enabled: frozenset[str]
    phase: str = "index"  # "index" (analysis only) or "rewrite" (the plan is known; edits are applied)
    plan: Mapping[str, Any] = field(default_factory=dict)  # from the rules' `plan`, keyed by rule code
    findings: list[Finding] = field(default_factory=list)
    edits: dict[cst.CSTNode, list[Edit]] = field(default_factory=dict)
    markers: dict[cst.CSTNode, list[str]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)  # rule-to-rule scratch (e.g. imports to add)
    stack: list[cst.CSTNode] = field(default_factory=list)  # enclosing FunctionDef/ClassDef nodes
    meta: Mapping[Any, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.meta:
            self.meta = resolve(self.wrapper)

    # --- walking ------------------------------------------------------------------------------------
    def children(self) -> Mapping[cst.CSTNode, list[cst.CSTNode]]:
        """Each node's children in visiting order (built once per parse: the index walk and the speculative
        rewrite walk share `meta`)."""
        return self.meta[_Children]

    def walk(self, node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
        """`node.visit(visitor)` for a read-only visitor of this file's tree, without libcst's rebuilding of
        every node on the way (most of the cost of a visit). Same nodes, same order, same `on_visit` and
        `on_leave` calls (attribute visitors, `visit_Node_attr`, are not called: no rule has one). A node
        that is not part of the parsed tree (built by a rule) is visited by libcst as usual."""
        if node is not self.wrapper.module and node not in self.meta[_Parents]:
            node.visit(visitor)
            return
        children = self.children()
        kind = type(visitor)
        if kind.on_visit is not cst.CSTVisitor.on_visit or kind.on_leave is not cst.CSTVisitor.on_leave:
            stack: list[tuple[cst.CSTNode, bool]] = [(node, False)]
            while stack:
                current, leaving = stack.pop()
                if leaving:
                    visitor.on_leave(current)
                elif visitor.on_visit(current):
                    stack.append((current, True))
                    stack.extend([(child, False) for child in reversed(children.get(current, ()))])
                else:
                    visitor.on_leave(current)
            return
        # CSTVisitor's own on_visit/on_leave look up `visit_<Type>`/`leave_<Type>` by name at every node;
        # here each type is looked up once a walk, and a node with neither method costs a dict lookup.
        methods: dict[type, tuple[Any, Any]] = {}
        pending: list[Any] = [node]  # a node to visit, or a (leave method, node) pair
        while pending:
            item = pending.pop()
            if type(item) is tuple:
                item[0](item[1])
                continue
            found = methods.get(type(item))
            if found is None:
                name = type(item).__name__
                found = methods[type(item)] = (
                    getattr(visitor, f"visit_{name}", None),
                    getattr(visitor, f"leave_{name}", None),
                )
            visit, leave = found
            if visit is not None and visit(item) is False:
                if leave is not None:
                    leave(item)
                continue
            if leave is not None:
                pending.append((leave, item))
            kids = children.get(item)
            if kids:
                pending.extend(reversed(kids))

    # --- metadata -----------------------------------------------------------------------------------
    def pos(self, node: cst.CSTNode) -> tuple[int, int]:
        """Line and 1-based column where `node` starts (libcst's PositionProvider start)."""
        line, column = self.meta[Spans].start(node)
        return line, column + 1

    def end_line(self, node: cst.CSTNode) -> int:
        return cast(int, self.meta[Spans].end(node)[0])

    def qualified_names(self, node: cst.CSTNode) -> Collection[QualifiedName]:
        """What libcst's QualifiedNameProvider gives for `node` (the same computation), made on demand."""
        cache = cast(dict, self.meta[_QNames])
        found = cache.get(node)
        if found is None:
            scope = self.meta[ScopeProvider].get(node)
            found = cache[node] = scope.get_qualified_names_for(node) if scope else set()
        return found

    def qnames(self, node: cst.CSTNode) -> set[str]:
        return {self._absolute(q.name) for q in self.qualified_names(node)}

    def _absolute(self, name: str) -> str:
        if not name.startswith("."):
            return name
        dots = len(name) - len(name.lstrip("."))
        base = self.package.split(".") if self.package else []
        if dots > 1:
            base = base[: len(base) - (dots - 1)]
        return ".".join([*base, name[dots:]]).strip(".")

    def scope(self, node: cst.CSTNode) -> Scope | None:
        return self.meta[ScopeProvider].get(node)

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.meta[_Parents].get(node)

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The nearest enclosing statement that can carry comment lines above it."""
        current: cst.CSTNode | None = node
        while current is not None and (
            not hasattr(current, "leading_lines") or isinstance(current, cst.Decorator)
        ):
            # A decorator's own leading lines parse back as the function's: marking it there would repeat
            # the marker on every run; the decorated definition carries it.
            current = self.parent(current)
        return current if current is not None else node

    @property
    def function(self) -> cst.FunctionDef | None:
        for item in reversed(self.stack):
            if isinstance(item, cst.FunctionDef):
                return item
        return None

    def qualname(self, func: cst.FunctionDef | cst.ClassDef) -> str:
        """`Class.method` or `outer.<locals>.inner`-free dotted name of a function in this module."""
        names: list[str] = []
        current: cst.CSTNode | None = func
        while current is not None:
            if isinstance(current, (cst.FunctionDef, cst.ClassDef)):
                names.append(current.name.value)
            current = self.parent(current)
        return ".".join(reversed(names))

    # --- recording ---------------------------------------------------------------------------------
    def ignored(self, line: int, code: str) -> bool:
        if not 0 < line <= len(self.lines):
            return False
        match = _IGNORE.search(self.lines[line - 1])
        if not match:
            return False
        return any(code.startswith(c.strip()) for c in match.group(1).split(",") if c.strip())

    def report(
        self,
        node: cst.CSTNode,
        code: str,
        message: str,
        severity: Severity,
        action: Action = Action.REPORTED,
        tool: str | None = None,
    ) -> Finding | None:
        if code not in self.enabled:
            return None
        line, col = self.pos(node)
        if self.ignored(line, code):
            return None
        finding = Finding(
            path=self.path,
            line=line,
            col=col,
            code=code,
            message=message,
            severity=severity,
            action=action,
            tool=tool,
        )
        self.findings.append(finding)
        return finding

    def mark(
        self, node: cst.CSTNode, code: str, message: str, severity: Severity, tool: str | None = None
    ) -> None:
        """Report a site the tool will not rewrite and put a marker comment above its statement."""
        action = Action.MARKED if self.settings.markers else Action.REPORTED
        if self.report(node, code, message, severity, action, tool) is None:
            return
        if self.settings.markers:
            text = f"{MARKER_PREFIX} {code}: {message}"
            bucket = self.markers.setdefault(self.statement_of(node), [])
            if text not in bucket:
                bucket.append(text)

    def edit(self, node: cst.CSTNode, change: Edit) -> None:
        self.edits.setdefault(node, []).append(change)


class ApplyEdits(cst.CSTTransformer):
    """Apply recorded edits and markers in one pass; edits see the already-updated children."""

    def __init__(self, state: FileState) -> None:
        super().__init__()
        self.state = state
        # Only the paths from the module down to an edited or marked node are rebuilt: libcst rebuilds every
        # node it visits, and most of a file has nothing to change.
        self.wanted: set[cst.CSTNode] = set()
        for node in (*state.edits, *state.markers):
            current: cst.CSTNode | None = node
            while current is not None and current not in self.wanted:
                self.wanted.add(current)
                current = state.parent(current)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return node in self.wanted

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:
        node: Any = updated_node
        for change in self.state.edits.get(original_node, ()):
            node = change(node)
        texts = self.state.markers.get(original_node)
        if texts and hasattr(node, "leading_lines"):
            present = {line.comment.value.strip() for line in node.leading_lines if line.comment}
            new = [
                cst.EmptyLine(comment=cst.Comment(text), indent=True) for text in texts if text not in present
            ]
            if new:
                node = node.with_changes(leading_lines=[*node.leading_lines, *new])
        return node
