"""The last steps of the plumbing analysis: leftover list_changed references (MR202), roots kept on attributes
(MR212), wording that speaks of roots to users (MR218), then the imports, blank lines and other rules'
findings that removed code leaves behind.
"""

from __future__ import annotations

import ast

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._plumbing_base import _PlumbingBase
from migrate_roots.codemods._plumbing_collect import wording_phrase
from migrate_roots.codemods._plumbing_edits import (
    _blank_lines,
    _drop_aliases,
    _remove,
    _with_blank_lines,
    _without_blank_lines,
)
from migrate_roots.codemods._plumbing_queries import _contains
from migrate_roots.codemods._plumbing_state import (
    _ALLOWS,
    _bound_name,
    _dotted,
    _inside,
    _long_lived_alias_value,
    _long_lived_value,
    _memo_call,
    _spelled,
)
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.model import Severity


class _Leftovers(_PlumbingBase):
    """What is left once the plumbing's removals are decided (a step of `_Plumbing`)."""

    # ... leftovers ------------------------------------------------------------------------------------
    def _leftovers(self) -> None:
        state = self.state
        if "MR202" not in self.enabled:
            return
        owned = [*self.handled, *(r.handler for r in self.registrations if r.handler and r.refusal is None)]
        kept = [r for r in self.registrations if r.handler is not None and r.refusal is not None]
        # One marker a statement, the most specific: `method: Literal["notifications/roots/list_changed"] =
        # "notifications/roots/list_changed"` names it twice, and is one constant (conduit-mcp).
        nodes = sorted([*self.type_refs, *self.method_strings], key=lambda n: _named_where(n, state) is None)
        done: set[cst.CSTNode] = set()
        for string in self.misspelt:
            statement = state.statement_of(string)
            if self.inside_removed(string) or statement in done:
                continue
            done.add(statement)
            state.mark(
                string,
                "MR202",
                f"`{string.evaluated_value!s}` is no MCP method: no client sends it (the roots notification is "
                f"`{_sdk.ROOTS_LIST_CHANGED_METHOD}`, which MCP 2026-07-28 removes), so a handler registered or "
                "matched by it never runs; remove it by hand",
                Severity.DEPRECATED,
            )
        for node in nodes:
            if self.inside_removed(node) or any(_contains(h, node, state) for h in owned):
                continue  # a handler that goes takes its own annotation with it
            statement = state.statement_of(node)
            if statement in done:
                continue
            done.add(statement)
            reg = next((r for r in kept if r.handler and _contains(r.handler, node, state)), None)
            if reg is not None:
                if state.markers.get(state.statement_of(node)):
                    continue  # the handler already says why it stays (MR211)
                # No line number: the marker above the registration would shift it on a second run.
                state.mark(
                    node,
                    "MR202",
                    f"a roots list_changed handler, kept with its registration (`{reg.spelling}`{_inside(reg.node, state)},"
                    " see its marker): the notification does not exist in MCP 2026-07-28",
                    Severity.DEPRECATED,
                )
                continue
            named = _named_where(node, state)
            if named is not None:
                state.mark(
                    node,
                    "MR202",
                    f"the roots list_changed notification's name, {named} (migrate-roots does not follow where it "
                    "is used): MCP 2026-07-28 has no such notification; a server handler registered with it can "
                    f"go once the tools take the `{self.param}` argument; a client that sends it reaches only "
                    "legacy servers (harmless to them, see MR303); code that only names or matches it needs no "
                    "change",
                    Severity.DEPRECATED,
                )
                continue
            state.mark(
                node,
                "MR202",
                "roots list_changed referenced in a form migrate-roots does not remove: the notification does "
                f"not exist in MCP 2026-07-28; remove it by hand (a tool that reads roots takes the "
                f"`{self.param}` argument, or its marker says why not)",
                Severity.DEPRECATED,
            )

    def _attribute_caches(self) -> None:
        state = self.state
        if "MR212" not in self.enabled:
            return
        for _func, assign, target in self.attr_writes:
            if self.inside_removed(assign):
                continue
            if _ALLOWS.search(_dotted(target)) or _checked_against(state, assign, _dotted(target)):
                state.mark(
                    assign,
                    "MR212",
                    f"roots kept on `{_dotted(target)}`, an allow-list that outlives the request: keep that bound "
                    f"with the operator ({self.allowlist_env} or the server's own setting), not the caller's "
                    f"`{self.param}` argument",
                    Severity.DEPRECATED,
                )
                continue
            holder = _holder(state, target)
            if (
                isinstance(assign, cst.Call)
                and isinstance(target, cst.Attribute)
                and holder.startswith("an attribute of `")
            ):
                holder = holder.split(", ", 1)[1]  # `binding.bind()` stays on `binding` (an object ...)
            elif isinstance(assign, cst.Call) and holder == "an attribute of a long-lived object":
                holder = "an object the module keeps, shared by every request"  # `binding = Binding()` here
            if (
                assign in self.setter_said
            ):  # `bind_project(<roots>)`, `binding.get().bind(...)`, `if b.stale():`
                kept = self.setter_said[assign][1].format(holder=holder)
            elif isinstance(assign, cst.Call) and isinstance(target, cst.Attribute):
                # `binding.bind(<roots>)` under `if binding.project is None:`
                base = _spelled(target.value)
                kept = (
                    f"roots handed to `{_spelled(target)}()` stay on `{base}` ({holder}), and the test of `{base}` "
                    "above the read skips it once they are there"
                )
                if assign in self.first_wins:
                    kept = (
                        f"roots handed to `{_spelled(target)}()` stay on `{base}` ({holder}), which keeps the first "
                        f"value only (it sets `{self.first_wins[assign]}` while that is unset)"
                    )
            else:
                kept = f"roots kept on `{_spelled(target)}` outlive the request ({holder})"
            state.mark(
                assign,
                "MR212",
                f"{kept}: take the directory per request instead (a `{self.param}` argument the tool passes down)",
                Severity.DEPRECATED,
            )

    def _wording(self) -> None:
        state = self.state
        if "MR218" not in self.enabled or _portable_roots(state.lines):
            return
        # A hint about text, not about code: in the report only, unless `select` names MR218 itself.
        selected = any(code.strip().upper() == "MR218" for code in state.settings.select)
        if self.bound_only:
            advice = (
                f"tell users to list the allowed directories in {self.allowlist_env} where the server runs "
                "instead (the roots here bound what the tools may touch: MR110 adds no argument)"
            )
        elif self.unplanned:
            advice = (
                f"tell users how to give the directory instead: the tools' path argument (`{self.param}`, unless "
                f"their MR101/MR102 findings name another), or {self.allowlist_env} where the server runs when "
                "roots bound what the tools may touch (MR110)"
            )
        else:
            advice = f"tell users to pass the `{self.param}` argument (or configure the server) instead"
        for node in self.wording:
            if self.inside_removed(node):
                continue
            said = wording_phrase(node)
            (state.mark if selected else state.report)(
                node,
                "MR218",
                f'this text speaks of MCP roots ("{said}"), deprecated in MCP 2026-07-28: {advice}',
                Severity.INFO,
            )

    # ... imports and other rules' findings ------------------------------------------------------------
    def _prune_imports(self) -> None:
        if not self.removed:
            return
        state = self.state
        for stmt in self.module.body:
            if not (isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1):
                continue
            small = stmt.body[0]
            if not isinstance(small, (cst.Import, cst.ImportFrom)) or isinstance(small.names, cst.ImportStar):
                continue
            drop: list[str] = []
            for alias in small.names:
                bound = _bound_name(alias)
                if bound is None:
                    continue
                uses = self.accesses(bound)
                if uses and all(self.inside_removed(u) for u in uses):
                    drop.append(bound)
            if not drop:
                continue
            if len(drop) == len(small.names):
                self.removed.add(stmt)
                state.edit(stmt, _remove)
            else:
                state.edit(small, _drop_aliases(set(drop)))

    def _keep_spacing(self) -> None:
        """A removed statement's blank lines above it go to the next statement that stays."""
        state = self.state
        for node in list(self.removed):
            parent = state.parent(node)
            body = getattr(parent, "body", None)
            if not isinstance(body, (list, tuple)) or node not in body:
                continue
            blank = _blank_lines(node)
            index = body.index(node) + 1
            while index < len(body) and body[index] in self.removed:
                index += 1
            if index < len(body) and all(s in self.removed for s in body[:index]):
                state.edit(
                    body[index], _without_blank_lines
                )  # it is now its module's or block's first statement
            elif index < len(body) and blank > _blank_lines(body[index]):
                state.edit(body[index], _with_blank_lines(blank))

    def _drop_findings(self) -> None:
        """Other rules' findings inside code that is removed describe nothing the user will see."""
        state = self.state
        spans = []
        for node in self.removed:
            if isinstance(node, (cst.FunctionDef, cst.SimpleStatementLine, cst.If)):
                start = state.pos(node)[0]
                end = state.end_line(node)
                spans.append((start, end))
        if not spans:
            return
        mine = ("MR20", "MR21")
        state.findings[:] = [
            f
            for f in state.findings
            if f.code.startswith(mine) or not any(a <= f.line <= b for a, b in spans)
        ]


def _holder(state: FileState, target: cst.BaseExpression) -> str:
    """What holds the attribute, as the marker says it."""
    head = target
    while isinstance(head, cst.Attribute):
        head = head.value
    if "lifespan" in _dotted(target):
        return "a lifespan field, shared by every request"
    if isinstance(target, cst.Attribute) and _class_of(target.value):
        return "a class attribute, shared by every instance"  # `type(self).x`, `self.__class__.x`
    if isinstance(head, cst.Call):  # `get_settings().project_dir` (sweep M r11 of session 22)
        made = f"the object `{_spelled(head)}` returns, "
        if _memo_call(head, state):
            return made + "one a memoised function keeps per argument, shared by the requests that pass it"
        if _long_lived_value(head, state):
            return made + "one a module keeps, shared by every request"
        return made + "not shown to be made per request"
    function = state.enclosing_function(target)
    value = (
        _long_lived_alias_value(head, function, state) if isinstance(head, cst.Name) and function else None
    )
    if value is not None:
        assert isinstance(head, cst.Name)
        held = state.wrapper.module.code_for_node(value)
        return f"`{head.value} = {held}`, " + (
            "the lifespan context, shared by every request"
            if held.endswith("lifespan_context")
            else "one object a memoised function keeps per argument, shared by the requests that pass it"
            if _memo_call(value, state)
            else "a ContextVar's default object, shared by every request that does not set it"
            if held.endswith(".get()")
            else "one object a module keeps, shared by every request"
        )
    if isinstance(head, cst.Name) and head.value == "self":
        return "an attribute of `self`, kept as long as the object"
    if isinstance(head, cst.Name) and _sdk.imported(state, head):
        return _imported_holder(state, head)
    # By what the name is bound to, not by its case: `CONFIG = Config()` is an instance (sweep K r10 of session 22)
    if isinstance(head, cst.Name) and (head.value == "cls" or _bound_to_class(state, head)):
        return "a class attribute, shared by every instance"
    return "an attribute of a long-lived object"


def _class_of(value: cst.BaseExpression) -> bool:
    """`type(self)` or `self.__class__`: the class of an object, whose attributes every instance shares."""
    if isinstance(value, cst.Attribute):
        return value.attr.value == "__class__"
    return (
        isinstance(value, cst.Call)
        and isinstance(value.func, cst.Name)
        and value.func.value == "type"
        and len(value.args) == 1
    )


def _bound_to_class(state: FileState, head: cst.Name) -> bool:
    """`head` is bound by a class statement only (`class Workspace:`), here or in an enclosing scope."""
    scope = state.scope(head)
    found = [getattr(a, "node", None) for a in scope[head.value]] if scope is not None else []
    return bool(found) and all(isinstance(n, cst.ClassDef) for n in found)


def _imported_holder(state: FileState, head: cst.Name) -> str:
    """`config.workspace` (a module: `import config`) or `SETTINGS.workspace` (an object a module binds: `from
    .config import SETTINGS`), as the marker says it (sweep M, r03: "a global of module `SETTINGS`")."""
    scope = state.scope(head)
    found = [getattr(a, "node", None) for a in scope[head.value]] if scope is not None else []
    source = next((n for n in found if isinstance(n, cst.ImportFrom)), None)
    module = _dotted(source.module) if source is not None and source.module is not None else ""
    module = "." * len(source.relative) + module if source is not None else module
    submodule = source is not None and _first_party_module(state, source, head.value)
    if source is None or submodule:
        return f"a global of module `{head.value}`, shared by every request and session"
    if _imported_class(state, source, head.value):
        return f"a class attribute of `{head.value}`, a class imported from `{module}` and shared by every request"
    return f"an attribute of `{head.value}`, an object imported from `{module}` and shared by every request"


def _imported_class(state: FileState, source: cst.ImportFrom, name: str) -> bool:
    """`from .config import Workspace`, where `config.py` binds `Workspace` by a class statement (and only so);
    `SETTINGS = Settings()` there is an instance (sweep K r10 of session 22)."""
    from migrate_roots.codemods import _sdk_alias

    names = () if isinstance(source.names, cst.ImportStar) else source.names
    alias = next((a for a in names if _bound(a) == name), None)
    original = _dotted(alias.name) if alias is not None else name
    level = len(source.relative)
    base = _dotted(source.module) if source.module is not None else ""
    module = _sdk_alias.relative(state.package, level, base) if level else base
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    path = _sdk_alias.first_party(root, module) if module else None
    tree = _sdk_alias.source_tree(path) if path is not None else None
    if tree is None:
        return False
    kinds: set[str] = set()  # what the module's top level binds the name by
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == original:
            kinds.add("class")
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom, ast.FunctionDef)):
            targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
            bound = [t.id for t in targets if isinstance(t, ast.Name)]
            bound += [a.asname or a.name for a in getattr(node, "names", ())]
            bound += [node.name] if isinstance(node, ast.FunctionDef) else []
            if original in bound:
                kinds.add("other")
    return kinds == {"class"}


def _bound(alias: cst.ImportAlias) -> str:
    bound = alias.asname.name if alias.asname is not None else alias.name
    return _dotted(bound) if isinstance(bound, (cst.Name, cst.Attribute)) else ""


def _first_party_module(state: FileState, source: cst.ImportFrom, name: str) -> bool:
    """`from pkg import config`: `config` a module of the project (a file or package beside the importer's)."""
    from migrate_roots.codemods import _sdk_alias

    level = len(source.relative)
    base = _dotted(source.module) if source.module is not None else ""
    module = _sdk_alias.relative(state.package, level, base) if level else base
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    return bool(module) and _sdk_alias.first_party(root, f"{module}.{name}") is not None


def _portable_roots(lines: list[str]) -> bool:
    """The module asks for roots the era-portable way of mcp 2.x (`Annotated[ListRootsResult,
    Resolve(fn)]` with `fn() -> ListRoots()`: input_required on 2026-07-28 requests, roots/list before),
    which no rule rewrites: its texts about roots describe what the server still does."""
    text = "".join(lines)
    return "Resolve(" in text and "ListRoots(" in text


def _named_where(node: cst.CSTNode, state: FileState) -> str | None:
    """`held in `X`` for `X = "notifications/roots/list_changed"` (a protocol constant), `listed here` for an
    element of a collection literal (a set of method names); None for anything else."""
    parent = state.parent(node)
    if isinstance(parent, cst.Element):
        return "listed here"
    targets = [t.target for t in parent.targets] if isinstance(parent, cst.Assign) else []
    if isinstance(parent, cst.AnnAssign):
        targets = [parent.target]
    names = [t.value for t in targets if isinstance(t, cst.Name)]
    return f"held in `{names[0]}`" if names else None


_CHECKS = frozenset({"startswith", "relative_to", "is_relative_to", "commonpath", "commonprefix"})


def _checked_against(state: FileState, assign: cst.CSTNode, dotted: str) -> bool:
    """`self._roots`, written here, is what its class checks a value against: an allow-list."""
    return dotted.startswith("self.") and dotted in allow_lists(state, assign)


def allow_lists(state: FileState, node: cst.CSTNode) -> set[str]:
    """The `self` attributes the class around `node` checks values against (`any(repo.startswith(r) for r in
    self._roots)`, `path.is_relative_to(root)` in a loop over one, `x in self._roots`): its allow-lists."""
    cls = state.parent(node)
    while cls is not None and not isinstance(cls, cst.ClassDef):
        cls = state.parent(cls)
    if cls is None:
        return set()
    found: set[str] = set()

    def checks(node: cst.CSTNode) -> bool:
        hits: list[bool] = []

        class Calls(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                func = call.func
                if isinstance(func, (cst.Attribute, cst.Name)):
                    name = func.attr.value if isinstance(func, cst.Attribute) else func.value
                    hits.append(name in _CHECKS)

        read(node, Calls())
        return any(hits)

    def own(expr: cst.BaseExpression) -> str | None:
        dotted = _dotted(expr)
        return dotted if dotted.startswith("self.") and "..." not in dotted else None

    def refuses(node: cst.CSTNode) -> bool:
        """The check decides a refusal: it sits in an `assert`, or in the test of an `if` that raises."""
        child, current = node, state.parent(node)
        while current is not None and not isinstance(current, (cst.FunctionDef, cst.ClassDef)):
            if isinstance(current, cst.Assert):
                return True
            if isinstance(current, cst.If) and child is current.test:
                return _raises(current.body) or (current.orelse is not None and _raises(current.orelse))
            if isinstance(current, cst.For):
                return _raises(current)
            child, current = current, state.parent(current)
        return False

    class Uses(cst.CSTVisitor):
        def visit_CompFor(self, node: cst.CompFor) -> None:
            elt = getattr(state.parent(node), "elt", None)
            if (name := own(node.iter)) is not None and elt is not None and checks(elt) and refuses(node):
                found.add(name)

        def visit_For(self, node: cst.For) -> None:
            if (name := own(node.iter)) is not None and checks(node.body) and refuses(node):
                found.add(name)

        def visit_ComparisonTarget(self, node: cst.ComparisonTarget) -> None:
            if (
                isinstance(node.operator, cst.In)
                and (name := own(node.comparator)) is not None
                and refuses(node)
            ):
                found.add(name)

    state.walk(cls, Uses())
    return found


def _raises(node: cst.CSTNode) -> bool:
    found = False

    class Raise(cst.CSTVisitor):
        def visit_Raise(self, n: cst.Raise) -> None:
            nonlocal found
            found = True

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return False

    read(node, Raise())
    return found
