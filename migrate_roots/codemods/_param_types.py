"""Parameter annotations no path value can have: such a parameter is never taken for the tool's path argument
(`project: int | None`, a project id the roots pick; gdc-claude-plugin)."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods._roots_refusals import _names_in

# Annotations no path value can have: a parameter so annotated is never the tool's path argument.
_NOT_PATH_TYPES = frozenset(
    {"int", "float", "bool", "complex", "bytes", "dict", "Dict", "set", "Set", "UUID"}
)
_PATH_TYPES = frozenset({"str", "Path", "PurePath", "PathLike", "Any", "object", "AnyStr", "Url", "AnyUrl"})


def not_a_path(annotation: cst.BaseExpression) -> bool:
    names = {n.value for n in _names_in(annotation)}  # `uuid.UUID` gives `uuid` and `UUID`
    return bool(names & _NOT_PATH_TYPES) and not names & _PATH_TYPES
