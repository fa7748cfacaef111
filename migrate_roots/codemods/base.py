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

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

import libcst as cst
from libcst.metadata import QualifiedName, QualifiedNameSource, Scope, ScopeProvider

from migrate_roots.codemods import _fastmeta, _markers, _sdk_alias, _style
from migrate_roots.codemods._fastmeta import Spans
from migrate_roots.model import Action, Finding, Severity


class _Parents:
    """Key of the child -> parent map in `FileState.meta` (not a libcst provider)."""


class _Children:
    """Key of the node -> children map in `FileState.meta` (not a libcst provider)."""


class _QNames:
    """Key of the qualified names computed so far in `FileState.meta` (not a libcst provider)."""


def resolve(wrapper: cst.MetadataWrapper) -> dict[Any, Any]:
    """The metadata of one parse: the scopes, the positions, the parent and child links, an empty name cache.

    On the libcst versions `_fastmeta` was tested with, its fast computation (a third cheaper than libcst's
    providers, benchmark 2); on any other, libcst's public providers. tests/test_walk.py holds both equal to
    what libcst's providers give on every fixture file, and the engine's results equal on the fixtures.
    """
    scopes, spans, parents, children = _fastmeta.metadata(wrapper)
    return {ScopeProvider: scopes, Spans: spans, _Parents: parents, _Children: children, _QNames: {}}


MARKER_PREFIX = _markers.PREFIX
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
    def follow_functions(cls, summaries: Mapping[str, Any], reached: set[str]) -> set[str]:
        """Dotted names (`module.function`) of the functions through which a caller may reach what the rule
        rewrites: those that do it themselves, or call one of `reached` (the names found so far). The files
        that import them (or their modules) are indexed too (migrate_roots/follow.py), to a fixed point."""
        return set()

    @classmethod
    def follow_modules(cls, summaries: Mapping[str, Any]) -> set[str]:
        """Dotted names of modules a summarised file calls into whose own code the plan must see (a bound
        check in a helper module the roots read hands its result to): they are indexed too, in stage two."""
        return set()

    @classmethod
    def follow_onward(cls, summaries: Mapping[str, Any]) -> set[str]:
        """Dotted names of the modules a file calls into, to follow from it when it joined through
        `follow_modules` (a bound checked one module further: `files.read_inside` calls `guard.ensure_within`).
        The engine follows them a few modules deep (`engine.ONWARD_DEPTH`)."""
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
    import_root: str = ""  # the folder the dotted module name starts from (codemods/_sdk_alias.py)
    aliases: dict[str, str | None] = field(default_factory=dict)  # name -> the SDK's name it re-exports
    local_sdk: dict[str, str] | None = None  # this module's own SDK names and subclasses (_sdk_alias.local)

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
        return {
            self._absolute(q.name, q.source is QualifiedNameSource.LOCAL) for q in self.qualified_names(node)
        }

    def _absolute(self, name: str, local: bool = False, sdk: bool = True) -> str:
        """`name` made absolute; with `sdk`, a project name that stands for an SDK one (a re-export, a
        subclass of an SDK class: _sdk_alias) is the SDK's."""
        if local and not sdk:
            return f"{self.module}.{name}" if self.module else name
        if local:  # `MyMCP` of `class MyMCP(FastMCP)` here: its SDK base (_sdk_alias)
            if self.local_sdk is None:
                self.local_sdk = _sdk_alias.local(self.wrapper.module)
            head, dot, rest = name.partition(".")
            found = self.local_sdk.get(head)
            return found + dot + rest if found else name
        if name.startswith("."):
            dots = len(name) - len(name.lstrip("."))
            base = self.package.split(".") if self.package else []
            if dots > 1:
                base = base[: len(base) - (dots - 1)]
            name = ".".join([*base, name[dots:]]).strip(".")
        # An SDK name through the project's own re-export module (`from ._sdk import Context`) is the SDK's.
        return self._sdk_name(name) if sdk and self.module and "." in name else name

    def _sdk_name(self, name: str) -> str:
        if not self.import_root:
            self.import_root = _sdk_alias.import_root(self.path, self.module)
        return _sdk_alias.translate(name, self.module, self.import_root, self.aliases)

    def scope(self, node: cst.CSTNode) -> Scope | None:
        return self.meta[ScopeProvider].get(node)

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.meta[_Parents].get(node)

    def enclosing_function(self, node: cst.CSTNode) -> cst.FunctionDef | None:
        """The nearest function definition around `node` (not `node` itself)."""
        current = self.parent(node)
        while current is not None and not isinstance(current, cst.FunctionDef):
            current = self.parent(current)
        return current

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
            present = _markers.read(node.leading_lines)
            module = self.state.wrapper.module
            if module.body and module.body[0] is original_node:
                # Comments above a module's first statement parse back as the module's header, not as its
                # leading lines: a marker written there on an earlier run is found there.
                present |= _markers.read(module.header)
            # The columns the statement's indentation takes, a tab counted as ruff counts it (4): sweep H, r09.
            line, column = self.state.pos(original_node)
            indent = self.state.lines[line - 1][: column - 1] if line <= len(self.state.lines) else ""
            width = _style.style_of(self.state.path).line_length - len(indent.expandtabs(4))
            new = [
                cst.EmptyLine(comment=cst.Comment(line), indent=True)
                for text in texts
                if _markers.normal(text) not in present
                for line in _markers.lines(text, width)
            ]
            if new:
                node = node.with_changes(leading_lines=[*node.leading_lines, *new])
        return node
