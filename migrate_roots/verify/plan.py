"""What `verify` calls: which tools take a path argument, and the other arguments made from each schema.

Pure data, no SDK: a tool's `inputSchema` (as the server listed it) in, a `ToolPlan` out.

A path argument is found from our own marker: the description `apply` writes on the new parameter (both in
decorator-based tools and in the low-level `inputSchema` it edits) ends with `MARKER`. `--tool NAME=ARG`
names one by hand (a server migrated by other means); `--tool NAME` alone takes the marked property, else the
only property whose name says it is a root.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from migrate_roots.codemods.roots_call import DESCRIPTION_MANY, DESCRIPTION_ONE

#: The sentence that ends both descriptions `apply` writes (the user may have reworded the first part).
MARKER = DESCRIPTION_ONE.rsplit(". ", 1)[-1]
assert DESCRIPTION_MANY.endswith(MARKER)

#: With `--tool NAME` and no marker: property names taken as the tool's path argument when exactly one fits.
ROOT_NAMES = ("root", "roots", "root_path", "workspace", "workspace_root", "project_root", "project_dir")


class PlanError(ValueError):
    """A `--tool` or `--args` option that cannot be applied (a one-line message for the user)."""


@dataclass(frozen=True)
class ToolPlan:
    name: str
    path_argument: str | None = None
    shape: str | None = None  # "single" (a path) or "list" (a list of paths)
    found_by: str | None = None  # "marker" or "option"
    base_args: Mapping[str, Any] = field(default_factory=dict)  # everything but the path argument
    args_from: str = "schema"  # "schema" or "file" (--args)

    def with_path(self, workspace: str) -> dict[str, Any]:
        assert self.path_argument is not None
        value: Any = [workspace] if self.shape == "list" else workspace
        return {**self.base_args, self.path_argument: value}

    def without_path(self) -> dict[str, Any]:
        return dict(self.base_args)


def properties(schema: Any) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def _description(prop: Any) -> str:
    if not isinstance(prop, dict):
        return ""
    text = prop.get("description")
    if isinstance(text, str):
        return text
    for branch in prop.get("anyOf") or prop.get("oneOf") or ():  # a description inside the non-null branch
        if isinstance(branch, dict) and isinstance(branch.get("description"), str):
            return str(branch["description"])
    return ""


def is_marked(prop: Any) -> bool:
    text = _description(prop).strip()
    return text in (DESCRIPTION_ONE, DESCRIPTION_MANY) or text.endswith(MARKER)


def _is_array(prop: Any) -> bool:
    if not isinstance(prop, dict):
        return False
    kind = prop.get("type")
    if kind == "array" or (isinstance(kind, list) and "array" in kind):
        return True
    return any(_is_array(b) for b in (prop.get("anyOf") or prop.get("oneOf") or ()))


def marked_argument(schema: Any) -> str | None:
    """The first property carrying our marker, else None."""
    return next((name for name, prop in properties(schema).items() if is_marked(prop)), None)


def parse_tool_option(values: list[str]) -> dict[str, str | None]:
    """`--tool NAME` / `--tool NAME=ARG` -> {name: arg or None}."""
    out: dict[str, str | None] = {}
    for value in values:
        name, sep, arg = value.partition("=")
        if not name or (sep and not arg):
            raise PlanError(f"--tool {value!r}: give NAME or NAME=ARGUMENT")
        out[name] = arg or None
    return out


def plan_tool(
    name: str, schema: Any, named: Mapping[str, str | None], given_args: Mapping[str, Any] | None
) -> ToolPlan:
    """The plan for one listed tool. `named`: the `--tool` options; `given_args`: its `--args` entry."""
    props = properties(schema)
    argument: str | None = None
    found_by: str | None = None
    if name in named:
        argument, found_by = named[name], "option"
        if argument is None:
            argument = marked_argument(schema)
        if argument is None:
            fits = [p for p in props if p in ROOT_NAMES]
            if len(fits) != 1:
                raise PlanError(
                    f"--tool {name}: no property carries the migrate-roots marker; name it: --tool {name}=ARGUMENT"
                )
            argument = fits[0]
        if argument not in props:
            raise PlanError(f"--tool {name}={argument}: the tool's inputSchema has no property {argument!r}")
    else:
        argument = marked_argument(schema)
        found_by = "marker" if argument else None
    shape = None if argument is None else ("list" if _is_array(props.get(argument)) else "single")
    if given_args is not None:
        base = {k: v for k, v in given_args.items() if k != argument}
        return ToolPlan(name, argument, shape, found_by, base, "file")
    return ToolPlan(name, argument, shape, found_by, example_arguments(schema, skip=argument))


# --------------------------------------------------------------------------------------------------------
# Arguments from a schema: every required property gets a value its schema accepts where one is easy to
# make (default, example, enum, const, minimum, minLength); optional ones are left out.
# --------------------------------------------------------------------------------------------------------

_FORMATS = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "00:00:00Z",
    "email": "user@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "uuid": "00000000-0000-4000-8000-000000000000",
}


def example_arguments(schema: Any, skip: str | None = None) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {}
    defs = {**(schema.get("definitions") or {}), **(schema.get("$defs") or {})}
    props = properties(schema)
    required = [r for r in schema.get("required") or () if isinstance(r, str) and r != skip]
    return {name: example_value(props.get(name, {}), defs) for name in required}


def _resolve(schema: dict, defs: Mapping[str, Any]) -> Any:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target = defs.get(ref.rsplit("/", 1)[-1])
        if isinstance(target, dict):
            return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def example_value(schema: Any, defs: Mapping[str, Any], depth: int = 0) -> Any:
    if not isinstance(schema, dict) or depth > 8:
        return None
    schema = _resolve(schema, defs)
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        branches = [b for b in schema.get(key) or () if isinstance(b, dict) and b.get("type") != "null"]
        if branches:
            return example_value(branches[0], defs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None and "properties" in schema:
        kind = "object"
    if kind == "string":
        if schema.get("format") in _FORMATS:
            return _FORMATS[schema["format"]]
        return "x" * int(schema.get("minLength") or 0) or "example"
    if kind in ("integer", "number"):
        low = schema.get("minimum")
        if low is None:
            low = schema["exclusiveMinimum"] + 1 if "exclusiveMinimum" in schema else 1
        if isinstance(schema.get("maximum"), (int, float)) and schema["maximum"] < low:
            low = schema["maximum"]
        return int(low) if kind == "integer" else float(low)
    if kind == "boolean":
        return False
    if kind == "array":
        return [example_value(schema.get("items"), defs, depth + 1)] * int(schema.get("minItems") or 0)
    if kind == "object":
        return example_arguments(schema | {"$defs": dict(defs)})
    if kind == "null":
        return None
    return "example"
