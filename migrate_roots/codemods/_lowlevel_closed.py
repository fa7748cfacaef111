"""Low-level tools whose arguments a closed schema checks again in the handler (session 15's sweep C, r06):

    class PatternArgs(BaseModel):
        model_config = ConfigDict(extra="forbid")
        pattern: str
    ...
    types.Tool(name="find", inputSchema=PatternArgs.model_json_schema()),      # shared by two tools
    types.Tool(name="find_tmp", inputSchema=PatternArgs.model_json_schema()),
    ...
    args = PatternArgs.model_validate(arguments)                                 # rejects `root`

The rewrite adds the path property to a schema the tool alone uses (a model gains the field), and gives a tool
that shares its schema a copy with the property. A check of the arguments against the shared model or dict
then refuses every call that passes the new argument, and so does a model or dict no tool lists as its schema
(`inputSchema` a literal, `FindArgs.model_validate(arguments)` beside it). Such tools are marked (MR152).

Closed: a pydantic model with `extra="forbid"` (class keyword, `model_config`, v1 `class Config`, or a base
class of the module), or a dict schema with `"additionalProperties": False`. Checked: `M.model_validate(x)`,
`M.parse_obj(x)`, `M.validate(x)`, `M(**x)`; a dict handed to any call other than `Tool(...)`
(`jsonschema.validate(arguments, SCHEMA)`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import cast

import libcst as cst

from migrate_roots.codemods import _sdk_alias
from migrate_roots.codemods._lowlevel_model import DYNAMIC, Index
from migrate_roots.codemods._lowlevel_schemas import _class_constant, _statements, _string_key
from migrate_roots.codemods.base import FileState

_VALIDATE = frozenset({"model_validate", "parse_obj", "validate"})


def _forbid(value: cst.BaseExpression | None) -> bool:
    """`"forbid"` or `Extra.forbid`."""
    if isinstance(value, cst.SimpleString):
        return value.evaluated_value == "forbid"
    return isinstance(value, cst.Attribute) and value.attr.value == "forbid"


def _config_forbids(config: cst.BaseExpression | None) -> bool:
    """`ConfigDict(extra="forbid")` or `{"extra": "forbid"}`."""
    if isinstance(config, cst.Call):
        return any(
            a.keyword is not None and a.keyword.value == "extra" and _forbid(a.value) for a in config.args
        )
    if isinstance(config, cst.Dict):
        return any(
            isinstance(e, cst.DictElement) and _string_key(e) == "extra" and _forbid(e.value)
            for e in config.elements
        )
    return False


def forbids_extra(
    cls: cst.ClassDef, classes: Mapping[str, cst.ClassDef], seen: frozenset[str] = frozenset()
) -> bool:
    """Whether the model refuses keys it does not declare, by its own configuration or a base's of the module."""
    if any(k.keyword is not None and k.keyword.value == "extra" and _forbid(k.value) for k in cls.keywords):
        return True
    if _config_forbids(_class_constant(cls, "model_config")):
        return True
    for statement in _statements(cls.body):
        config = isinstance(statement, cst.ClassDef) and statement.name.value == "Config"
        if config and _forbid(_class_constant(cast(cst.ClassDef, statement), "extra")):
            return True
    seen = seen | {cls.name.value}
    return any(
        isinstance(base.value, cst.Name)
        and base.value.value in classes
        and base.value.value not in seen
        and forbids_extra(classes[base.value.value], classes, seen)
        for base in cls.bases
    )


def _closed_dict(node: cst.BaseExpression | None) -> bool:
    if not isinstance(node, cst.Dict):
        return False
    return any(
        isinstance(e, cst.DictElement)
        and _string_key(e) == "additionalProperties"
        and isinstance(e.value, cst.Name)
        and e.value.value == "False"
        for e in node.elements
    )


def _checked(
    call: cst.Call,
    classes: Mapping[str, cst.ClassDef],
    constants: Mapping[str, cst.BaseExpression],
    state: FileState | None = None,
) -> cst.CSTNode | None:
    """The closed model class or dict schema constant `call` checks a value against, or None: `M.model_validate
    (x)`, `M(**x)`, `TypeAdapter(M).validate_python(x)`; `M` of this module or imported from another module of
    the project (sweep I, r04)."""
    func = call.func
    model: cst.BaseExpression | None = None
    if isinstance(func, cst.Attribute) and func.attr.value in _VALIDATE and call.args:
        model = func.value
    elif (
        isinstance(func, cst.Attribute)
        and func.attr.value in ("validate_python", "validate_json")
        and call.args
    ):
        adapter = func.value
        if (
            isinstance(adapter, cst.Call)
            and getattr(adapter.func, "value", "") == "TypeAdapter"
            and adapter.args
        ):
            model = adapter.args[0].value
    elif isinstance(func, cst.Name) and any(a.star == "**" for a in call.args):
        model = func
    if isinstance(model, cst.Name):
        found = _model_class(model.value, classes, state)
        if found is not None and forbids_extra(*found):
            return found[0]
    for arg in call.args:
        value = arg.value
        if isinstance(value, cst.Name) and _closed_dict(constants.get(value.value)):
            return constants[value.value]
    return None


def refuse_closed(
    state: FileState,
    index: Index,
    calls: list[cst.Call],
    classes: Mapping[str, cst.ClassDef],
    constants: Mapping[str, cst.BaseExpression],
) -> None:
    """Mark the tools whose new property a closed schema checked in the handler would refuse (see above)."""
    tool_calls = {id(decl.call) for decl in index.tools.values()}
    checked: dict[int, tuple[cst.CSTNode, cst.Call]] = {}
    for call in calls:
        if id(call) in tool_calls:
            continue
        target = _checked(call, classes, constants, state)
        if target is not None:
            checked.setdefault(id(target), (target, call))
    if not checked:
        return
    users: dict[int, list[str]] = {}
    for key, decl in index.tools.items():
        if decl.schema is not None:
            users.setdefault(id(decl.schema.target), []).append(key)
    for key, decl in index.tools.items():
        if decl.refusal is not None or decl.schema is None or decl.schema.has_param:
            continue
        for target_id, (target, call) in checked.items():
            sharers = users.get(target_id, [])
            if sharers == [key] or (sharers and key not in sharers):
                continue  # its own schema gains the property; or another tool's check
            name = target.name.value if isinstance(target, cst.ClassDef) else _named(constants, target)
            what = "shares with other tools" if sharers else "does not list as its schema"
            decl.refusal = (
                DYNAMIC,
                f"tool `{decl.display}`: the handler checks its arguments against `{name}` (line "
                f"{state.pos(call)[0]}), which refuses keys it does not declare and which this tool {what}, "
                f"so a `{state.settings.param_name}` argument would be refused; add the property there by hand",
            )
            break


def _named(constants: Mapping[str, cst.BaseExpression], node: cst.CSTNode) -> str:
    return next((name for name, value in constants.items() if value is node), "its schema")


def refuse_own_key(state: FileState, index: Index) -> None:
    """A tool whose schema already declares the parameter's property while a handler reads that key for itself
    (`arguments.get("root", ".")`, a folder relative to the workspace: sweep G, r08): whether it is the
    directory the roots gave cannot be told, and taking it for one broke every legacy call that passed it."""
    param = state.settings.param_name
    spelled = {
        f"{name}{tail}"
        for handler in index.handlers
        for name in handler.args
        for tail in (f'.get("{param}"', f".get('{param}'", f'["{param}"]', f"['{param}']")
    }
    # ... or through the model that validated them (`args = LsArgs.model_validate(arguments)`, then `args.root`:
    # sweep I, r09).
    validated = {m[1] for text in state.lines if (m := _VALIDATED.match(text))}
    spelled |= {f"{name}.{param}" for name in validated}
    line = next((n for n, text in enumerate(state.lines, 1) if any(_word_at(text, s) for s in spelled)), None)
    if line is None:
        return
    for decl in index.tools.values():
        if decl.refusal is None and decl.schema is not None and decl.schema.has_param:
            decl.refusal = (
                DYNAMIC,
                f"tool `{decl.display}`: its inputSchema already has a `{param}` property, which the handler "
                f"reads for itself (line {line}): whether it is the directory the roots gave cannot be told; "
                "set param-name to give the new argument another name, or migrate by hand",
            )


_VALIDATED = re.compile(
    r"\s*(\w+)\s*(?::[^=]+)?=\s*(?:\w+\.(?:model_validate|parse_obj|validate)\(|\w+\(\*\*|"
    r"TypeAdapter\(\w+\)\.validate_python\()"
)


def _word_at(text: str, spelled: str) -> bool:
    """`spelled` in `text`, not as the tail of a longer name (`args.root` in `myargs.root_dir` is not)."""
    start = text.find(spelled)
    while start != -1:
        before = text[start - 1 : start]
        after = text[start + len(spelled) : start + len(spelled) + 1]
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = text.find(spelled, start + 1)
    return False


def _model_class(
    name: str, classes: Mapping[str, cst.ClassDef], state: FileState | None
) -> tuple[cst.ClassDef, Mapping[str, cst.ClassDef]] | None:
    """The class `name` stands for, with the classes of its module: here, or imported by name from a module
    of the project (read once per process)."""
    if name in classes:
        return classes[name], classes
    if state is None or not state.module:
        return None
    scope = state.scope(state.wrapper.module)
    bound = [getattr(a, "node", None) for a in scope[name]] if scope is not None and name in scope else []
    node = bound[0] if len(bound) == 1 else None
    if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
        return None
    alias = next((a for a in node.names if (a.asname.name if a.asname else a.name).value == name), None)  # type: ignore[union-attr]
    if alias is None or not isinstance(alias.name, cst.Name):
        return None
    code = state.wrapper.module.code_for_node
    dotted = "." * len(node.relative) + (code(node.module) if node.module else "")
    module = state._absolute(dotted, sdk=False)
    root = state.import_root or _sdk_alias.import_root(state.path, state.module)
    path = _sdk_alias.first_party(root, module)
    theirs = _module_classes(path) if path is not None else {}
    cls = theirs.get(alias.name.value)
    return (cls, theirs) if cls is not None else None


def _module_classes(path: str) -> dict[str, cst.ClassDef]:
    tree = _sdk_alias.parsed_module(path)
    return {s.name.value: s for s in tree.body if isinstance(s, cst.ClassDef)} if tree is not None else {}
