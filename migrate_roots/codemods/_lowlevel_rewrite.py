"""The low-level rewrite: the path property added to the schema of each tool the plan says reaches roots
(in place, or in a derived copy of a shared schema), and on mcp 2.x the shim's `RootsArgumentError` turned
into a tool error result.
"""

from __future__ import annotations

import ast
from typing import Any

import libcst as cst

from migrate_roots.codemods import _imports_by_path, _schema_text
from migrate_roots.codemods._imports import ensure_imports, first_party, own_style
from migrate_roots.codemods._layout import reflow
from migrate_roots.codemods._lowlevel_edits import (
    _append_element,
    _deeper,
    _exploded,
    _insert_constants,
    _merge_imports_from,
    _replace_with,
)
from migrate_roots.codemods._lowlevel_model import CODE, Handler, Index, Schema, _code, _handler_tools
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_edits import _extra, _wrap_at
from migrate_roots.codemods._roots_model import Plan
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState
from migrate_roots.model import Action, Severity, ToolChange


class _Rewrite:
    def __init__(self, index: Index, plan: Plan, state: FileState) -> None:
        self.index = index
        self.plan = plan
        self.state = state
        self.param = state.settings.param_name
        self.needs: list[tuple[str, str]] = []
        self.width = style_of(state.path).line_length
        self.constants: dict[str, str] = {}  # shape -> the module-level property constant it names

    def reached(self) -> dict[str, str]:
        """Tool key -> shape ("single"/"list") for every tool of this file whose handling reaches roots."""
        out: dict[str, str] = {}

        def add(keys: list[str], qualname: str) -> None:
            entry = self.plan.tools.get(qualname)
            if entry is None:
                return
            for key in keys:
                if out.get(key) != "list":
                    out[key] = entry[1]

        for handler in self.index.handlers:
            add(_handler_tools(self.index), handler.qualname)
            for _, keys, qualname in handler.branches:
                add(keys, qualname)
            for func, keys, _, _ in handler.tables:
                add(keys, self.state.qualname(func))
        return out

    def record(self) -> None:
        reached = self.reached()
        if not reached:
            return
        users: dict[int, list[str]] = {}  # id(schema target) -> keys of all tools using it
        for key, each in self.index.tools.items():
            if each.schema is not None:
                users.setdefault(id(each.schema.target), []).append(key)
        done: set[int] = set()
        for key in sorted(reached):
            decl = self.index.tools.get(key)
            schema = decl.schema if decl is not None and decl.refusal is None else None
            if decl is None or schema is None:
                continue
            shape = reached[key]
            sharers = users[id(schema.target)]
            in_place = all(reached.get(k) == shape for k in sharers)
            if schema.has_param:
                pass
            elif in_place:
                if id(schema.target) not in done:
                    done.add(id(schema.target))
                    self._in_place(schema, shape)
            else:
                self.state.edit(schema.expr, _replace_with(self._derived(schema, shape)))
            how = (
                "already has"
                if schema.has_param
                else "gains"
                if in_place
                else "gets a copy of its shared schema with"
            )
            self.state.report(
                decl.call,
                CODE,
                f"low-level tool `{decl.display}`: its inputSchema {how} the `{self.param}` property and its "
                "handler passes it to list_roots_compat (roots/list fails on MCP 2026-07-28 requests)",
                Severity.BROKEN,
                Action.REWRITTEN,
                decl.display,
            )
            line = self.state.pos(decl.call)[0]
            self.state.extra.setdefault("tools", []).append(
                ToolChange(
                    tool=decl.display,
                    path=self.state.path,
                    line=line,
                    parameter=self.param,
                    shape=shape,
                    reused_existing=schema.has_param,
                )
            )
        for handler in self.index.handlers:
            if handler.form == "v2":
                self._tool_errors(handler)
        if self.constants:
            blank = style_of(self.state.path).lines_after_imports
            self.state.edit(
                self.state.wrapper.module,
                _insert_constants(sorted(self.constants.items()), self.width, blank),
            )
        if self.needs:
            state = self.state
            shim = own_style(state.wrapper.module, self.plan.shim_import, state.package)
            needs = [(shim if m == self.plan.shim_import else m, name) for m, name in self.needs]
            state.edit(
                state.wrapper.module,
                ensure_imports(
                    needs,
                    first_party(state.path, state.package, shim),
                    style_of(state.path).force_single_line,
                ),
            )
            state.edit(state.wrapper.module, _merge_imports_from(shim))
            _imports_by_path.finish(state, self.plan.shim_import)

    def _tool_errors(self, handler: Handler) -> None:
        """mcp 2.x: a handler exception reaches a 2026-07-28 client as "Internal server error", so the
        statements that lead to roots turn the shim's RootsArgumentError into a tool error result."""
        positions = {pos for pos, decision in self.plan.sites.items() if decision is None}
        positions |= set(self.plan.calls)
        reached_tables = {self.state.qualname(func) for func, _, _, _ in handler.tables} & set(
            self.plan.tools
        )
        state = self.state
        statements: dict[cst.BaseStatement, None] = {}

        class Calls(cst.CSTVisitor):
            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return node is handler.func

            def visit_Call(self, node: cst.Call) -> None:
                hit = state.pos(node) in positions
                if not hit and reached_tables and isinstance(node.func, (cst.Subscript, cst.Call)):
                    hit = True  # the dispatch through the table
                if hit:
                    statement = _wrappable(node, handler.func, state)
                    if statement is not None:
                        statements[statement] = None

        read(handler.func, Calls())
        if not statements:
            return
        for statement in statements:
            reflow(state, statement, deeper=4)  # laid out for the `try` it moves into, where it runs past
            state.edit(statement, _wrap_tool_errors)
        self.needs += [
            (self.plan.shim_import, "RootsArgumentError"),
            ("mcp.types", "CallToolResult"),
            ("mcp.types", "TextContent"),
        ]

    # --- edits ---------------------------------------------------------------------------------------
    def _property(self, shape: str) -> cst.Name:
        """The module-level constant holding the property (`ROOT_PROPERTY`), declared once per module: the
        module's own when an earlier run wrote it; under a free name (`ROOT_PROPERTY_2`) when the module binds
        the name to something else (its own schema property: sweep P, r04)."""
        if shape in self.constants:
            return cst.Name(self.constants[shape])
        base = _schema_text.PROPERTIES[shape]
        scope = self.state.scope(self.state.wrapper.module)
        for n in range(1, 100):
            name = base if n == 1 else f"{base}_{n}"
            if scope is None or name not in scope:
                self.constants[shape] = name
                return cst.Name(name)
            if _ours(scope[name], shape, self.state):
                return cst.Name(name)
        raise AssertionError("no free name for the property constant")

    def _in_place(self, schema: Schema, shape: str) -> None:
        if schema.kind == "model":
            self.state.edit(schema.target, self._add_field(shape, schema.target))
            return
        target = schema.props if schema.props is not None else schema.target
        assert isinstance(target, cst.Dict)
        make: Any
        prop = self._property(shape)
        if schema.props is not None:
            key = self.param

            def make(sep: Any) -> cst.BaseExpression:
                return prop

        else:
            key = "properties"
            param = self.param

            def make(sep: Any) -> cst.BaseExpression:
                inner = _deeper(sep) if isinstance(sep, cst.ParenthesizedWhitespace) else None
                element = cst.DictElement(cst.SimpleString(f'"{param}"'), prop)
                if inner is not None:
                    return cst.Dict(
                        [element.with_changes(comma=cst.Comma(whitespace_after=sep))],
                        lbrace=cst.LeftCurlyBrace(whitespace_after=inner),
                    )
                return cst.Dict([element])

        added = (
            len(f'"{key}": ')
            + len(prop.value)
            + (len(f'{{"{self.param}": }}') if key == "properties" else 0)
            + 2
        )
        self.state.edit(target, _append_element(key, make, _wrap_at(self.state, target, added)))

    def _derived(self, schema: Schema, shape: str) -> cst.BaseExpression:
        prop = self._property(shape).value
        base = _code(schema.expr).strip()
        props = f'**{base}["properties"], ' if schema.kind == "model" or schema.props is not None else ""
        one = f'{{**{base}, "properties": {{{props}"{self.param}": {prop}}}}}'
        line = self.state.lines[self.state.pos(schema.expr)[0] - 1]
        if "\n" in base or len(line) - len(base) + len(one) <= self.width:
            return cst.parse_expression(one)
        # Over the line length: one entry a line, four columns in from the line the schema starts on; its
        # statement laid out again as black would, where the project lays it out so (sweep V, r05).
        reflow(self.state, schema.expr)
        lead = " " * _extra(self.state, schema.expr)
        inner = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(lead + "    "))
        outer = cst.ParenthesizedWhitespace(indent=True, last_line=cst.SimpleWhitespace(lead))
        items = cst.parse_expression(one)
        assert isinstance(items, cst.Dict)
        return _exploded(items, inner, outer, deeper=True)

    def _add_field(self, shape: str, model: cst.CSTNode) -> Any:
        old = self.state.settings.target < (3, 10)
        inner = ("List[str]" if old else "list[str]") if shape == "list" else "str"
        annotation = f"Optional[{inner}]" if old else f"{inner} | None"
        column = self.state.pos(model)[1] - 1 + 4  # the model's body
        line = _schema_text.field_statement(self.param, annotation, shape, self.width, column)
        self.needs.append(("pydantic", "Field"))
        if old:
            self.needs.append(("typing", "Optional"))
            if shape == "list":
                self.needs.append(("typing", "List"))
        statement = cst.parse_statement(line)

        def change(node: cst.CSTNode) -> cst.CSTNode:
            assert isinstance(node, cst.ClassDef)
            body = node.body
            if not isinstance(body, cst.IndentedBlock):
                return node
            kept = [
                s
                for s in body.body
                if not (
                    isinstance(s, cst.SimpleStatementLine)
                    and len(s.body) == 1
                    and isinstance(s.body[0], cst.Pass)
                )
            ]
            return node.with_changes(body=body.with_changes(body=[*kept, statement]))

        return change


def _ours(assignments: Any, shape: str, state: FileState) -> bool:
    """Every binding of the name is a module-level assignment of the property an earlier run wrote."""
    expected = _schema_text.property_value(shape)
    for assignment in assignments:
        target = getattr(assignment, "node", None)
        holder = state.parent(target) if isinstance(target, cst.Name) else None
        node = state.parent(holder) if isinstance(holder, cst.AssignTarget) else None
        if not isinstance(node, cst.Assign) or len(node.targets) != 1:
            return False
        try:
            if ast.literal_eval(_code(node.value).strip()) != expected:
                return False
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return False
    return bool(assignments)


_TOOL_ERROR = cst.parse_statement(
    "try:\n"
    "    pass\n"
    "except RootsArgumentError as exc:\n"
    "    # mcp 2.x: an error result reaches the model on every protocol version\n"
    "    return CallToolResult(\n"
    '        content=[TextContent(type="text", text=str(exc))], is_error=True\n'
    "    )\n"
)


def _wrappable(node: cst.CSTNode, func: cst.FunctionDef, state: FileState) -> cst.BaseStatement | None:
    """The statement of `func` holding `node`, in a block; None when a `try` of the user already encloses it."""
    current: cst.CSTNode | None = node
    statement: cst.BaseStatement | None = None
    while current is not None and current is not func:
        parent = state.parent(current)
        if (
            statement is None
            and isinstance(parent, cst.IndentedBlock)
            and isinstance(current, cst.BaseStatement)
        ):
            statement = current
        if isinstance(current, (cst.Try, cst.TryStar)) and bool(getattr(current, "handlers", None)):
            return None
        current = parent
    return statement


def _wrap_tool_errors(node: cst.CSTNode) -> cst.CSTNode:
    assert isinstance(node, cst.BaseStatement) and isinstance(_TOOL_ERROR, cst.Try)
    leading = getattr(node, "leading_lines", None)
    inner = node.with_changes(leading_lines=()) if leading else node
    return _TOOL_ERROR.with_changes(body=cst.IndentedBlock([inner]), leading_lines=leading)
