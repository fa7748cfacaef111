"""Module-level tables and lists of functions (`HANDLERS = {"where": handle_where}`, `ALL_TOOLS = [list_files,
grep]`), as `ModuleFacts` records them for other modules: a low-level handler dispatching on an imported table,
a server registering an imported list in a loop."""

from __future__ import annotations

import libcst as cst
from libcst.metadata import QualifiedNameSource

from migrate_roots.codemods.base import FileState


def table_entries(state: FileState, value: cst.BaseExpression) -> tuple[tuple[str, str], ...]:
    """(key, qualified name of the value) of a dict's string-keyed entries whose values name something."""
    entries: list[tuple[str, str]] = []
    for element in value.elements if isinstance(value, cst.Dict) else ():
        if not isinstance(element, cst.DictElement) or not isinstance(
            element.value, (cst.Name, cst.Attribute)
        ):
            continue
        key = element.key.evaluated_value if isinstance(element.key, cst.SimpleString) else None
        if isinstance(key, str):
            entries += [(key, name) for name in sorted(_names_of(state, element.value))]
    return tuple(entries)


def _names_of(state: FileState, value: cst.BaseExpression) -> set[str]:
    """The qualified names a table's or a list's item has; a function of this module by its module's name
    (`HANDLERS = {"where": where}` beside `where`, read by an importer: sweep A r02 of session 20), as the plan
    names functions."""
    if not isinstance(value, (cst.Name, cst.Attribute)):
        return set()
    return {
        state._absolute(q.name, True, sdk=False)
        if q.source is QualifiedNameSource.LOCAL
        else state._absolute(q.name)
        for q in state.qualified_names(value)
        if q.source is not QualifiedNameSource.BUILTIN
    }


def collection_items(state: FileState, value: cst.BaseExpression) -> tuple[str, ...]:
    """The qualified names a module-level list, tuple or set of names holds (`ALL_TOOLS = [list_files, grep]`)."""
    if not isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return ()
    return tuple(
        sorted({n for e in value.elements if isinstance(e, cst.Element) for n in _names_of(state, e.value)})
    )
