"""The low-level index, first half: the tools a module describes (`types.Tool(name=..., inputSchema=...)`)
and whether each schema can be edited with certainty (a dict literal, a module constant, a pydantic model).
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._lowlevel_model import DYNAMIC, UNKNOWN, Index, Schema, ToolDecl, _code
from migrate_roots.codemods.base import FileState


class _ToolIndexer:
    """What the module declares; `_Indexer` (codemods/_lowlevel_dispatch.py) adds the handlers."""

    def __init__(self, state: FileState) -> None:
        self.state = state
        self.index = Index()
        self.classes: dict[str, cst.ClassDef] = {}
        self.constants: dict[str, cst.BaseExpression] = {}  # module-level NAME = value
        self.tool_calls: list[cst.Call] = []
        self.dicts: list[cst.Dict] = []
        self.calls: list[cst.Call] = []
        self.functions: list[cst.FunctionDef] = []

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
            form = _runtime_form(call, self.state)
            if found is None or form:
                if not self.index.dynamic_tools:
                    self.index.runtime = self._runtime_place(call, form or "with a computed name")
                self.index.dynamic_tools.append(call)
                continue
            given = name if isinstance(name, cst.Name) and _local(self.state, name) is not None else None
            if given is not None:  # `types.Tool(name=name, ...)` in a `_tool(name, ...)` helper: any tool
                if not self.index.dynamic_tools:
                    self.index.runtime = self._runtime_place(
                        call, f"with the name `{given.value}` it is given"
                    )
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

    def _runtime_place(self, call: cst.Call, form: str) -> str:
        """Where a tool listed at runtime is described, for the marker: "`types.Tool(...)` in a comprehension
        in `list_tools`, line 8"."""
        owner = self.state.parent(call)
        while owner is not None and not isinstance(owner, (cst.FunctionDef, cst.Module)):
            owner = self.state.parent(owner)
        scope = f"`{self.state.qualname(owner)}`" if isinstance(owner, cst.FunctionDef) else "the module"
        return f"`{_code(call.func)}(...)` {form} in {scope}, line {self.state.pos(call)[0]}"

    def _schema(self, expr: cst.BaseExpression) -> tuple[Schema | None, str]:
        param = self.state.settings.param_name
        if isinstance(expr, cst.Dict):
            return _dict_schema("literal", expr, expr, param)
        if isinstance(expr, cst.Name):
            value = self.constants.get(expr.value)
            if isinstance(value, cst.Dict):
                return _dict_schema("constant", expr, value, param)
            owner = _local(self.state, expr) if value is None else None
            if owner is not None:
                return None, f"its schema `{expr.value}` is built at runtime in `{owner}`"
            if value is None:
                return None, f"its schema `{expr.value}` is not defined in this module"
            return None, f"its schema `{expr.value}` is built at runtime"
        # `SCHEMAS["where"]`: an entry of a dict the module holds, not a schema built at run time.
        table = (
            expr.value.value if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name) else ""
        )
        if table and isinstance(self.constants.get(table), cst.Dict):
            return None, (
                f"its schema `{_code(expr)}` is an entry of the module's dict `{table}`, which this rule "
                "does not edit"
            )
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


def _local(state: FileState, name: cst.Name) -> str | None:
    """The function `name` is a parameter or local variable of (its qualified name), or None."""
    from libcst.metadata import FunctionScope

    scope = state.scope(name)
    if (
        isinstance(scope, FunctionScope)
        and name.value in scope
        and any(a.scope is scope for a in scope[name.value])
    ):
        owner = state.parent(name)
        while owner is not None and not isinstance(owner, cst.FunctionDef):
            owner = state.parent(owner)
        return state.qualname(owner) if owner is not None else None
    return None


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


def _runtime_form(node: cst.CSTNode, state: FileState) -> str:
    """How `node` repeats inside its function (or module): "in a comprehension", "in a loop", or "" (it does not)."""
    current = state.parent(node)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Module)):
        if isinstance(current, (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)):
            return "in a comprehension"
        if isinstance(current, (cst.For, cst.While)):
            return "in a loop"
        current = state.parent(current)
    return ""


def _string_key(element: cst.BaseDictElement) -> str | None:
    if isinstance(element, cst.DictElement) and isinstance(
        element.key, (cst.SimpleString, cst.ConcatenatedString)
    ):
        value = element.key.evaluated_value
        return value if isinstance(value, str) else None
    return None


_COMBINED = frozenset({"oneOf", "anyOf", "allOf", "$ref", "not", "if", "then", "else", "dependentSchemas"})


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
        elif key in _COMBINED:
            # The top-level properties are not all there is (B's r09): a closed `oneOf` branch or `$ref`
            # target would still refuse the new property.
            return (
                None,
                f"its schema combines others (`{key}`), which a new top-level property may not satisfy",
            )
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
