"""Low-level `Server` tools (MR151-MR153): the schema, the call handler branch and the roots call, together.

The low-level API does not derive `inputSchema` from a signature: one `call_tool` handler serves every tool
and dispatches on the tool name, and the schemas are hand-written JSON Schema in `list_tools`. This family
works with the roots-call family (codemods/roots_call.py), which owns the roots sites, the helpers and the
package plan:

- index (both walks, at the module node): find the handlers (mcp 1.x `@server.call_tool()`, mcp 2.x
  `Server(on_call_tool=...)` / `add_request_handler("tools/call", ...)`, fastmcp `mcp._mcp_server`), their
  branches per tool (if/elif on the name, `match`, a dict of functions), and each tool's schema
  (`types.Tool(name=..., inputSchema=...)`). Each branch, dispatched function and handler is declared
  "tool-like" to the roots-call family through `state.extra["tool_like"]`, with the expression that holds
  the path there (`arguments.get("root")`, `(params.arguments or {}).get("root")`), or with a refusal (MR152)
  when its schema cannot be edited with certainty.
- plan: the roots-call plan decides which of them reach roots and with which shape.
- rewrite: the roots-call family rewrites the sites and helpers; this family adds the property to the
  schema of each tool that reaches roots: in the dict literal, in the module constant (or, when the constant
  also serves a tool that does not reach roots, in a derived copy for this tool only), or as a field of the
  pydantic model.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import libcst as cst

from migrate_roots.codemods import _schema_text, _sdk
from migrate_roots.codemods._imports import ensure_imports, first_party, own_style
from migrate_roots.codemods._roots_edits import _extra, _wrap_at
from migrate_roots.codemods._roots_model import Plan
from migrate_roots.codemods._style import style_of
from migrate_roots.codemods.base import FileState, Rule
from migrate_roots.codemods.roots_call import RootsCall
from migrate_roots.model import Action, Severity, ToolChange

CODE = "MR151"
DYNAMIC = "MR152"
UNKNOWN = "MR153"

_MODULE = cst.Module([])


def _code(node: cst.CSTNode) -> str:
    return _MODULE.code_for_node(node)


# -----------------------------------------------------------------------------------------------------
# What the index finds in one file (CST nodes: lives for one walk only, never pickled).


@dataclass
class Schema:
    """Where a tool's input schema lives and how it can be edited."""

    kind: str  # "literal" (dict in the Tool call), "constant" (module dict), "model" (pydantic class)
    expr: cst.BaseExpression  # the inputSchema argument
    target: cst.CSTNode  # the dict literal to edit, or the ClassDef
    props: cst.Dict | None = None  # the "properties" dict literal, when there is one
    has_param: bool = False  # already has a property/field with the parameter's name


@dataclass
class ToolDecl:
    key: str
    display: str
    call: cst.Call
    schema: Schema | None = None
    refusal: tuple[str, str] | None = None


@dataclass
class Handler:
    func: cst.FunctionDef
    qualname: str
    form: str  # "v1": (name, arguments); "v2": (ctx, params)
    value: str  # expression of the path value in the handler's own body
    names: set[str]  # source texts that hold the tool name
    args: set[str]  # source texts that hold the arguments dict
    params_name: str = ""  # v2: the params parameter
    branches: list[tuple[cst.CSTNode, list[str], str]] = field(
        default_factory=list
    )  # (block, keys, qualname)
    tables: list[tuple[cst.FunctionDef, list[str], str, str | None]] = field(default_factory=list)
    # (function, keys, value expression, refusal)


@dataclass
class Index:
    tools: dict[str, ToolDecl] = field(default_factory=dict)
    dynamic_tools: list[cst.Call] = field(default_factory=list)  # Tool(...) whose name is not a literal
    handlers: list[Handler] = field(default_factory=list)


class LowLevelTools(Rule):
    code = CODE
    name = "lowlevel-tool-roots"
    summary = (
        "Roots read in a low-level `Server` tool: the tool's schema gains the path property and its handler "
        "branch passes it to the shim."
    )
    severity = Severity.BROKEN
    fix = "safe"
    tokens = (b"list_roots",)
    requires = b""  # as the roots-call family: a roots token is always parsed
    nodes = (cst.Module,)
    limits = (
        "Schemas built at runtime, imported from another module, or tools whose branch cannot be told apart "
        "(MR152, MR153) are marked, not rewritten. Needs the roots-call family (MR101) enabled."
    )

    def __init__(self) -> None:
        self.index = Index()

    def visit(self, node: cst.CSTNode, state: FileState) -> None:
        if not isinstance(node, cst.Module):
            return
        _sdk.note_sdk_imports(state)
        self.index = _Indexer(state).run(node)
        like = state.extra.setdefault("tool_like", {})
        for handler in self.index.handlers:
            tools = _handler_tools(self.index)
            if self.index.dynamic_tools:
                refusal: tuple[str, str] | None = (
                    DYNAMIC,
                    "this server lists its tools at runtime (a loop, a comprehension or computed names): "
                    "add the path property to the schemas by hand",
                )
            elif not tools:
                refusal = (UNKNOWN, "no `types.Tool(name=...)` found in this module for this handler's tools")
            else:
                refusal = _first_refusal(self.index, tools)
            like[handler.func] = (handler.qualname, handler.func.name.value, handler.value, CODE, refusal)
            for block, keys, qualname in handler.branches:
                display = ", ".join(self.index.tools[k].display if k in self.index.tools else k for k in keys)
                like[block] = (qualname, display, handler.value, CODE, _first_refusal(self.index, keys))
            for func, keys, value, why in handler.tables:
                display = ", ".join(self.index.tools[k].display if k in self.index.tools else k for k in keys)
                refusal = (UNKNOWN, why) if why else _first_refusal(self.index, keys)
                qualname = state.qualname(func)
                like[func] = (qualname, display, value or handler.value, CODE, refusal)

    def leave(self, state: FileState) -> None:
        if state.phase != "rewrite":
            return
        plan = state.plan.get(RootsCall.code)
        if not isinstance(plan, Plan) or not plan.tools:
            return
        _Rewrite(self.index, plan, state).record()


class SchemaDynamic(Rule):
    code = DYNAMIC
    name = "lowlevel-schema-dynamic"
    summary = "Low-level tool reaching roots whose inputSchema is built at runtime or elsewhere: marked."
    severity = Severity.BROKEN
    tokens = LowLevelTools.tokens
    requires = b""
    runner = LowLevelTools
    limits = "The property cannot be added with certainty; add it by hand and pass it to list_roots_compat."


class ToolUnknown(Rule):
    code = UNKNOWN
    name = "lowlevel-tool-unknown"
    summary = "Low-level handler whose tools or dispatch cannot be matched to their schemas: marked."
    severity = Severity.BROKEN
    tokens = LowLevelTools.tokens
    requires = b""
    runner = LowLevelTools
    limits = "Name the tools with string literals (or enum members) in both `list_tools` and the dispatch."


def _first_refusal(index: Index, keys: list[str]) -> tuple[str, str] | None:
    for key in keys:
        decl = index.tools.get(key)
        if decl is None:
            return (UNKNOWN, f"no `types.Tool(name={key[2:]!r}, ...)` found in this module for this branch")
        if decl.refusal is not None:
            return decl.refusal
    return None


def _handler_tools(index: Index) -> list[str]:
    """The tools a handler serves: every tool described in its module (none when listed at runtime)."""
    if index.dynamic_tools:
        return []
    return list(index.tools)


# -----------------------------------------------------------------------------------------------------
# The index.


class _Indexer:
    def __init__(self, state: FileState) -> None:
        self.state = state
        self.index = Index()
        self.classes: dict[str, cst.ClassDef] = {}
        self.constants: dict[str, cst.BaseExpression] = {}  # module-level NAME = value
        self.tool_calls: list[cst.Call] = []
        self.dicts: list[cst.Dict] = []
        self.calls: list[cst.Call] = []
        self.functions: list[cst.FunctionDef] = []

    def run(self, module: cst.Module) -> Index:
        for statement in module.body:
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        target = small.targets[0].target
                        if isinstance(target, cst.Name):
                            self.constants[target.value] = small.value
                    elif (
                        isinstance(small, cst.AnnAssign)
                        and isinstance(small.target, cst.Name)
                        and small.value
                    ):
                        self.constants[small.target.value] = small.value
            elif isinstance(statement, cst.ClassDef):
                self.classes[statement.name.value] = statement
        outer = self

        class Collect(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                outer.calls.append(node)
                if outer.state.qnames(node.func) & _sdk.TOOL_TYPES:
                    outer.tool_calls.append(node)

            def visit_Dict(self, node: cst.Dict) -> None:
                outer.dicts.append(node)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                outer.functions.append(node)

        self.state.walk(module, Collect())
        self._tools()
        self._handlers()
        return self.index

    # --- tool names ------------------------------------------------------------------------------------
    def key(self, expr: cst.BaseExpression) -> tuple[str, str] | None:
        """(key, display) of a tool-name expression: a string literal, or an enum member / constant."""
        if isinstance(expr, (cst.SimpleString, cst.ConcatenatedString)):
            text = expr.evaluated_value
            return (f"s:{text}", text) if isinstance(text, str) else None
        if isinstance(expr, cst.Attribute) and expr.attr.value == "value":
            return self.key(expr.value)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name):
            cls = self.classes.get(expr.value.value)
            if cls is not None:
                member = _class_constant(cls, expr.attr.value)
                if isinstance(member, (cst.SimpleString, cst.ConcatenatedString)):
                    return self.key(member)
            text = _code(expr)
            return f"e:{text}", text
        if isinstance(expr, cst.Name):
            constant = self.constants.get(expr.value)
            if isinstance(constant, (cst.SimpleString, cst.ConcatenatedString)):
                return self.key(constant)
            return f"e:{expr.value}", expr.value
        return None

    def _tools(self) -> None:
        seen: dict[str, int] = {}
        for call in self.tool_calls:
            name = _arg(call, "name", 0)
            schema = _arg(call, "inputSchema") or _arg(call, "input_schema")
            found = self.key(name) if name is not None else None
            if found is None or _in_comprehension_or_loop(call, self.state):
                self.index.dynamic_tools.append(call)
                continue
            key, display = found
            seen[key] = seen.get(key, 0) + 1
            decl = ToolDecl(key, display, call)
            if schema is None:
                decl.refusal = (DYNAMIC, f"tool `{display}` has no inputSchema argument to edit")
            else:
                decl.schema, why = self._schema(schema)
                if why:
                    decl.refusal = (DYNAMIC, f"tool `{display}`: {why}; add the path property by hand")
            self.index.tools[key] = decl
        for key, count in seen.items():
            if count > 1:
                decl = self.index.tools[key]
                decl.refusal = (UNKNOWN, f"tool `{decl.display}` is described by several `Tool(...)` calls")

    def _schema(self, expr: cst.BaseExpression) -> tuple[Schema | None, str]:
        param = self.state.settings.param_name
        if isinstance(expr, cst.Dict):
            return _dict_schema("literal", expr, expr, param)
        if isinstance(expr, cst.Name):
            value = self.constants.get(expr.value)
            if isinstance(value, cst.Dict):
                return _dict_schema("constant", expr, value, param)
            if value is None:
                return None, f"its schema `{expr.value}` is not defined in this module"
            return None, f"its schema `{expr.value}` is built at runtime"
        if (
            isinstance(expr, cst.Call)
            and isinstance(expr.func, cst.Attribute)
            and expr.func.attr.value in _sdk.MODEL_SCHEMA_METHODS
            and isinstance(expr.func.value, cst.Name)
            and not expr.args
        ):
            cls = self.classes.get(expr.func.value.value)
            if cls is None:
                return None, f"its schema model `{expr.func.value.value}` is not defined in this module"
            if not self._is_model(cls, set()):
                return None, f"`{cls.name.value}` is not a pydantic model"
            has = _class_constant(cls, param, annotated=True) is not None
            return Schema("model", expr, cls, has_param=has), ""
        return None, "its inputSchema is built at runtime"

    def _is_model(self, cls: cst.ClassDef, seen: set[str]) -> bool:
        if cls.name.value in seen:
            return False
        seen.add(cls.name.value)
        for base in cls.bases:
            if self.state.qnames(base.value) & _sdk.PYDANTIC_MODELS:
                return True
            if (
                isinstance(base.value, cst.Name)
                and base.value.value in self.classes
                and self._is_model(self.classes[base.value.value], seen)
            ):
                return True
        return False

    # --- handlers --------------------------------------------------------------------------------------
    def _handlers(self) -> None:
        found: dict[cst.FunctionDef, str] = {}
        for func in self.functions:
            for decorator in func.decorators:
                call = decorator.decorator
                target = call.func if isinstance(call, cst.Call) else call
                if (
                    isinstance(target, cst.Attribute)
                    and target.attr.value in _sdk.CALL_TOOL_DECORATORS
                    and _sdk.expr_kind(self.state, target.value) == _sdk.LL_SERVER
                ):
                    found.setdefault(func, "v1")
        for call in self.calls:
            ref: cst.BaseExpression | None = None
            if _sdk.call_kind(self.state, call) == _sdk.LL_SERVER:
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value in _sdk.CALL_TOOL_KEYWORDS:
                        ref = arg.value
            elif (
                isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "add_request_handler"
                and _sdk.expr_kind(self.state, call.func.value) == _sdk.LL_SERVER
                and len(call.args) >= 3
                and isinstance(call.args[0].value, cst.SimpleString)
                and call.args[0].value.evaluated_value == _sdk.CALL_TOOL_METHOD
            ):
                ref = call.args[2].value
            if ref is not None:
                resolved = self.resolve(ref)
                if resolved is not None:
                    found.setdefault(resolved, "v2")
        for func, form in found.items():
            handler = self._handler(func, form)
            if handler is not None:
                self.index.handlers.append(handler)

    def resolve(self, ref: cst.BaseExpression) -> cst.FunctionDef | None:
        """The function a reference names: a module/enclosing-scope function, or `self.method`."""
        if isinstance(ref, cst.Name):
            scope = self.state.scope(ref)
            if scope is not None and ref.value in scope:
                for assignment in scope[ref.value]:
                    node = getattr(assignment, "node", None)
                    if isinstance(node, cst.FunctionDef):
                        return node
            return None
        if isinstance(ref, cst.Attribute) and isinstance(ref.value, cst.Name) and ref.value.value == "self":
            node = self.state.parent(ref)
            while node is not None and not isinstance(node, cst.ClassDef):
                node = self.state.parent(node)
            if isinstance(node, cst.ClassDef):
                for statement in node.body.body:
                    if isinstance(statement, cst.FunctionDef) and statement.name.value == ref.attr.value:
                        return statement
        return None

    def _handler(self, func: cst.FunctionDef, form: str) -> Handler | None:
        params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        if len(params) < 2:
            return None
        param = self.state.settings.param_name
        qualname = self.state.qualname(func)
        if form == "v1":
            name, args = params[0], params[1]
            handler = Handler(func, qualname, form, f'{args}.get("{param}")', {name}, {args})
        else:
            p = params[1]
            handler = Handler(
                func,
                qualname,
                form,
                f'({p}.arguments or {{}}).get("{param}")',
                {f"{p}.name"},
                {f"{p}.arguments", f"({p}.arguments or {{}})", f"{p}.arguments or {{}}"},
                params_name=p,
            )
        # Simple aliases at the top of the handler: `name = params.name`, `args = params.arguments or {}`.
        for statement in _statements(func.body):
            if isinstance(statement, cst.SimpleStatementLine):
                for small in statement.body:
                    if isinstance(small, cst.Assign) and len(small.targets) == 1:
                        target = small.targets[0].target
                        if isinstance(target, cst.Name):
                            text = _code(small.value).strip()
                            if text in handler.names:
                                handler.names.add(target.value)
                            elif text in handler.args:
                                handler.args.add(target.value)
        self._branches(func.body, handler, [0])
        self._tables(handler)
        return handler

    def _is_name(self, expr: cst.BaseExpression, handler: Handler) -> bool:
        return _code(expr).strip() in handler.names

    def _test_keys(self, test: cst.BaseExpression, handler: Handler) -> list[str] | None:
        """Tool keys a branch test selects (`name == "x"`, `name in ("x", "y")`, joined by `or`)."""
        if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.Or):
            one, two = self._test_keys(test.left, handler), self._test_keys(test.right, handler)
            return one + two if one is not None and two is not None else None
        if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
            return None
        op, other = test.comparisons[0].operator, test.comparisons[0].comparator
        left = test.left
        if isinstance(op, cst.Equal):
            if self._is_name(left, handler):
                found = self.key(other)
            elif self._is_name(other, handler):
                found = self.key(left)
            else:
                return None
            return [found[0]] if found else None
        if isinstance(op, cst.In) and isinstance(other, cst.Name):
            other = self.constants.get(other.value, other)  # `name in WRITE_TOOLS`, a module constant
        if (
            isinstance(op, cst.In)
            and self._is_name(left, handler)
            and isinstance(other, (cst.Tuple, cst.List, cst.Set))
        ):
            keys = [self.key(e.value) for e in other.elements if isinstance(e, cst.Element)]
            if keys and all(keys):
                return [k[0] for k in keys if k]
        return None

    def _pattern_keys(self, pattern: cst.MatchPattern) -> list[str] | None:
        if isinstance(pattern, cst.MatchValue):
            found = self.key(pattern.value)
            return [found[0]] if found else None
        if isinstance(pattern, cst.MatchOr):
            keys: list[str] = []
            for element in pattern.patterns:
                sub = self._pattern_keys(element.pattern)
                if sub is None:
                    return None
                keys += sub
            return keys
        if isinstance(pattern, cst.MatchAs) and pattern.pattern is not None:
            return self._pattern_keys(pattern.pattern)
        return None

    def _branches(self, block: cst.BaseSuite, handler: Handler, counter: list[int]) -> None:
        for statement in _statements(block):
            if isinstance(statement, cst.If):
                self._if(statement, handler, counter)
            elif isinstance(statement, cst.Match) and self._is_name(statement.subject, handler):
                for case in statement.cases:
                    keys = self._pattern_keys(case.pattern)
                    if keys and case.guard is None:
                        self._branch(case.body, keys, handler, counter)
            elif isinstance(statement, (cst.Try, cst.TryStar, cst.With, cst.For, cst.While)):
                self._branches(statement.body, handler, counter)
                for extra in _extra_blocks(statement):
                    self._branches(extra, handler, counter)

    def _if(self, node: cst.If, handler: Handler, counter: list[int]) -> None:
        keys = self._test_keys(node.test, handler)
        if keys:
            self._branch(node.body, keys, handler, counter)
        else:
            self._branches(node.body, handler, counter)
        if isinstance(node.orelse, cst.If):
            self._if(node.orelse, handler, counter)
        elif isinstance(node.orelse, cst.Else):
            self._branches(node.orelse.body, handler, counter)

    def _branch(self, block: cst.BaseSuite, keys: list[str], handler: Handler, counter: list[int]) -> None:
        counter[0] += 1
        qualname = f"{handler.qualname}[{counter[0]}:{'|'.join(k[2:] for k in keys)}]"
        handler.branches.append((block, keys, qualname))

    def _tables(self, handler: Handler) -> None:
        """Dicts of functions keyed by tool name, used by the handler (`TOOLS[name](arguments)`)."""
        handler_text = _code(handler.func)
        for node in self.dicts:
            entries: list[tuple[str, cst.FunctionDef]] = []
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    continue
                found = self.key(element.key)
                func = self.resolve(element.value)
                if found and found[0] in self.index.tools and func is not None:
                    entries.append((found[0], func))
            if not entries:
                continue
            holder = _holder_name(node, self.state)
            if holder is None or holder not in handler_text and not _inside(node, handler.func, self.state):
                continue
            position = self._dispatch_position(handler, holder)
            by_func: dict[cst.FunctionDef, list[str]] = {}
            for key, func in entries:
                by_func.setdefault(func, []).append(key)
            for func, keys in by_func.items():
                value, why = self._table_value(func, handler, position)
                handler.tables.append((func, keys, value, why))

    def _dispatch_position(self, handler: Handler, holder: str) -> list[str] | None:
        """Source texts of the arguments passed to `holder[name](...)` / `holder.get(name)(...)`."""

        class Find(cst.CSTVisitor):
            found: list[str] | None = None

            def visit_Call(self, node: cst.Call) -> None:
                func = node.func
                if isinstance(func, cst.Subscript):
                    base = func.value
                elif isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute):
                    base = func.func.value
                else:
                    return
                if _code(base).strip() == holder and Find.found is None:
                    Find.found = [_code(a.value).strip() for a in node.args if a.keyword is None]

        handler.func.body.visit(Find())
        return Find.found

    def _table_value(
        self, func: cst.FunctionDef, handler: Handler, position: list[str] | None
    ) -> tuple[str, str | None]:
        param = self.state.settings.param_name
        params = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        if position is not None:
            for i, text in enumerate(position):
                if i >= len(params):
                    break
                if text in handler.args:
                    guard = handler.form == "v2" and "or {}" not in text
                    p = params[i]
                    return (f'({p} or {{}}).get("{param}")' if guard else f'{p}.get("{param}")'), None
                if handler.form == "v2" and text == handler.params_name:
                    return f'({params[i]}.arguments or {{}}).get("{param}")', None
        if len(params) == 1 and handler.form == "v1":
            return f'{params[0]}.get("{param}")', None
        return "", "cannot tell which parameter of this dispatched function receives the tool arguments"


# -----------------------------------------------------------------------------------------------------
# Small CST helpers.


def _arg(call: cst.Call, keyword: str, position: int | None = None) -> cst.BaseExpression | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    if position is not None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if len(positional) > position:
            return positional[position].value
    return None


def _statements(block: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(block, cst.IndentedBlock):
        return list(block.body)
    return []


def _extra_blocks(statement: cst.CSTNode) -> Iterator[cst.BaseSuite]:
    for name in ("handlers", "orelse", "finalbody"):
        value = getattr(statement, name, None)
        if value is None:
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            body = getattr(item, "body", None)
            if isinstance(body, cst.BaseSuite):
                yield body


def _class_constant(cls: cst.ClassDef, name: str, annotated: bool = False) -> cst.BaseExpression | None:
    """The value of `name = ...` (or the annotation of `name: T`) in a class body."""
    for statement in _statements(cls.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.Assign):
                for target in small.targets:
                    if isinstance(target.target, cst.Name) and target.target.value == name:
                        return small.value
            if (
                isinstance(small, cst.AnnAssign)
                and isinstance(small.target, cst.Name)
                and small.target.value == name
            ):
                return (
                    small.value if small.value is not None or not annotated else small.annotation.annotation
                )
    return None


def _in_comprehension_or_loop(node: cst.CSTNode, state: FileState) -> bool:
    current = state.parent(node)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Module)):
        if isinstance(
            current, (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp, cst.For, cst.While)
        ):
            return True
        current = state.parent(current)
    return False


def _holder_name(node: cst.Dict, state: FileState) -> str | None:
    """The source text a dict is bound to (`TOOLS`, `self._tools`), or '' for a dict used in place."""
    parent = state.parent(node)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        return _code(parent.targets[0].target).strip()
    if isinstance(parent, cst.AnnAssign):
        return _code(parent.target).strip()
    if isinstance(parent, cst.Subscript):
        return ""
    return None


def _inside(node: cst.CSTNode, ancestor: cst.CSTNode, state: FileState) -> bool:
    current = state.parent(node)
    while current is not None:
        if current is ancestor:
            return True
        current = state.parent(current)
    return False


def _string_key(element: cst.BaseDictElement) -> str | None:
    if isinstance(element, cst.DictElement) and isinstance(
        element.key, (cst.SimpleString, cst.ConcatenatedString)
    ):
        value = element.key.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _dict_schema(
    kind: str, expr: cst.BaseExpression, node: cst.Dict, param: str
) -> tuple[Schema | None, str]:
    """A dict literal schema is editable when its root is `"type": "object"` and its properties a literal."""
    typ = props = None
    for element in node.elements:
        if isinstance(element, cst.StarredDictElement):
            return None, "its schema merges other dicts (`**`)"
        key = _string_key(element)
        if key is None:
            return None, "its schema has keys that are not string literals"
        assert isinstance(element, cst.DictElement)
        if key == "type":
            typ = element.value
        elif key == "properties":
            props = element.value
    if not (isinstance(typ, cst.SimpleString) and typ.evaluated_value == "object"):
        return None, 'its schema root is not `"type": "object"`'
    if props is not None and not isinstance(props, cst.Dict):
        return None, "its schema properties are built at runtime"
    has = False
    if isinstance(props, cst.Dict):
        for element in props.elements:
            if isinstance(element, cst.StarredDictElement):
                return None, "its schema properties merge other dicts (`**`)"
            if _string_key(element) == param:
                has = True
            elif _string_key(element) is None:
                return None, "its schema properties have keys that are not string literals"
    return Schema(kind, expr, node, props if isinstance(props, cst.Dict) else None, has), ""


# -----------------------------------------------------------------------------------------------------
# The rewrite: schema edits for the tools the plan says reach roots.


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
            self.state.edit(self.state.wrapper.module, _insert_constants(sorted(self.constants), self.width))
        if self.needs:
            state = self.state
            shim = own_style(state.wrapper.module, self.plan.shim_import, state.package)
            needs = [(shim if m == self.plan.shim_import else m, name) for m, name in self.needs]
            state.edit(
                state.wrapper.module, ensure_imports(needs, first_party(state.path, state.package, shim))
            )
            state.edit(state.wrapper.module, _merge_imports_from(shim))

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

        handler.func.visit(Calls())
        if not statements:
            return
        for statement in statements:
            state.edit(statement, _wrap_tool_errors)
        self.needs += [
            (self.plan.shim_import, "RootsArgumentError"),
            ("mcp.types", "CallToolResult"),
            ("mcp.types", "TextContent"),
        ]

    # --- edits ---------------------------------------------------------------------------------------
    def _property(self, shape: str) -> cst.Name:
        """The module-level constant holding the property (`ROOT_PROPERTY`), declared once per module."""
        name = _schema_text.PROPERTIES[shape]
        scope = self.state.scope(self.state.wrapper.module)
        if name not in self.constants and not (scope is not None and name in scope):
            self.constants[shape] = name
        return cst.Name(name)

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
        # Over the line length: one entry a line, four columns in from the line the schema starts on.
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


def _merge_imports_from(module: str) -> Any:
    """One `from <shim> import a, b` instead of one statement per name (libcst adds relative ones apart)."""
    dots = len(module) - len(module.lstrip("."))
    name = module.lstrip(".")

    def matches(statement: cst.CSTNode) -> bool:
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            return False
        imp = statement.body[0]
        return (
            isinstance(imp, cst.ImportFrom)
            and len(imp.relative) == dots
            and imp.module is not None
            and _code(imp.module) == name
            and not isinstance(imp.names, cst.ImportStar)
        )

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Module)
        body: list[Any] = []
        first: int | None = None
        for statement in node.body:
            if matches(statement):
                if first is None:
                    first = len(body)
                else:
                    kept = body[first].body[0]
                    assert isinstance(statement, cst.SimpleStatementLine)
                    other = statement.body[0]
                    assert isinstance(other, cst.ImportFrom) and not isinstance(other.names, cst.ImportStar)
                    names = [*kept.names, *other.names]
                    seen: dict[str, cst.ImportAlias] = {}
                    for alias in names:
                        seen.setdefault(_code(alias.name) + str(alias.asname and _code(alias.asname)), alias)
                    merged = list(seen.values())
                    merged = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in merged]
                    merged = [
                        a.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
                        for a in merged[:-1]
                    ] + merged[-1:]
                    body[first] = body[first].with_changes(body=[kept.with_changes(names=merged)])
                    continue
            body.append(statement)
        return node.with_changes(body=body)

    return change


def _exploded(
    node: cst.Dict,
    inner: cst.ParenthesizedWhitespace,
    outer: cst.ParenthesizedWhitespace,
    deeper: bool = False,
) -> cst.Dict:
    """`node` one element a line (at `inner`, the closing brace at `outer`); `deeper`: its last element's dict
    value too, one level in (`"properties": {**base["properties"], "root": ROOT_PROPERTY}`)."""
    elements = [e.with_changes(comma=cst.Comma(whitespace_after=inner)) for e in node.elements]
    last = elements[-1]
    value = last.value if isinstance(last, cst.DictElement) else None
    if deeper and isinstance(value, cst.Dict) and len(value.elements) > 1:
        last = last.with_changes(value=_exploded(value, _deeper(inner), inner))
    elements[-1] = last.with_changes(comma=cst.Comma(whitespace_after=outer))
    return node.with_changes(elements=elements, lbrace=cst.LeftCurlyBrace(whitespace_after=inner))


def _replace_with(new: cst.BaseExpression) -> Any:
    def change(node: cst.CSTNode) -> cst.CSTNode:
        return new

    return change


def _deeper(sep: cst.ParenthesizedWhitespace, unit: str = "    ") -> cst.ParenthesizedWhitespace:
    return sep.with_changes(
        first_line=cst.TrailingWhitespace(),
        empty_lines=[],
        last_line=cst.SimpleWhitespace(sep.last_line.value + unit),
    )


def _clean(ws: cst.BaseParenthesizableWhitespace) -> cst.BaseParenthesizableWhitespace:
    if isinstance(ws, cst.ParenthesizedWhitespace):
        return ws.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
    return ws


def _insert_constants(shapes: list[str], width: int) -> Any:
    """Module edit: the property constants (`ROOT_PROPERTY`), after the leading imports, one comment above."""
    texts = [_schema_text.property_statement(shape, width) for shape in shapes]
    return _schema_text.insert_after_imports(texts, _schema_text.PROPERTY_COMMENT, width)


def _append_element(key: str, make: Any, wrap: cst.ParenthesizedWhitespace | None = None) -> Any:
    """An edit appending `"key": make(sep)` to a dict literal, in the literal's own layout (a one-line literal
    whose line would overflow: the new element on a line of its own, `wrap`)."""

    def change(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Dict)
        elements = list(node.elements)
        key_node = cst.SimpleString(f'"{key}"')
        if not elements:
            new_element = cst.DictElement(key_node, make(None))
            if wrap is None:
                return node.with_changes(elements=[new_element])
            outer = wrap.with_changes(last_line=cst.SimpleWhitespace(wrap.last_line.value[:-4]))
            return node.with_changes(
                elements=[new_element],
                lbrace=cst.LeftCurlyBrace(whitespace_after=wrap),
                rbrace=cst.RightCurlyBrace(whitespace_before=outer),
            )
        last = elements[-1]
        # The whitespace between two elements: after the previous comma, or after `{` for a single element.
        if len(elements) > 1 and isinstance(elements[-2].comma, cst.Comma):
            between = _clean(elements[-2].comma.whitespace_after)
        else:
            between = _clean(node.lbrace.whitespace_after)
        multiline = isinstance(between, cst.ParenthesizedWhitespace)
        closing = node.rbrace.whitespace_before  # before `}`, with a comment on the last element's line
        if multiline and isinstance(closing, cst.ParenthesizedWhitespace):
            assert isinstance(between, cst.ParenthesizedWhitespace)
            after_last: Any = closing.with_changes(last_line=between.last_line, indent=between.indent)
            rbrace = node.rbrace.with_changes(whitespace_before=_clean(closing))
        else:
            after_last = between if multiline else (wrap or cst.SimpleWhitespace(" "))
            rbrace = node.rbrace
        if isinstance(last.comma, cst.Comma):
            new_comma: Any = last.comma
            last = last.with_changes(comma=last.comma.with_changes(whitespace_after=after_last))
        else:
            new_comma = cst.MaybeSentinel.DEFAULT
            last = last.with_changes(comma=cst.Comma(whitespace_after=after_last))
        value = make(between if multiline else None)
        new = cst.DictElement(key_node, value, comma=new_comma)
        return node.with_changes(elements=[*elements[:-1], last, new], rbrace=rbrace)

    return change
