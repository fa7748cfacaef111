"""Which names and modules stage two follows from the roots-call family's summaries (`Rule.follow_functions`,
`follow_modules`, `follow_onward`): the functions that reach roots, what re-exports and tables name them, and
the first-party modules a file imports from.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from migrate_roots.codemods.program import typed


def functions(summaries: Mapping[str, Any], reached: set[str]) -> set[str]:
    """The names (fully qualified) an importer of these modules would use to reach roots."""
    out: set[str] = set()
    for summary in summaries.values():
        # To a fixed point within the module: its getter of its own class (`get_service() -> Service`
        # beside `Service`) or a helper calling its own roots helper leads there too.
        grown = True
        while grown:
            grown = False
            known = reached | out
            for func in summary.functions.values():
                # Tools too: a test that imports the tool's module may patch the helper where it is
                # imported.
                name = f"{summary.module}.{func.qualname.split('@')[0].split('.')[0]}"
                if func.qualname == "<module>" or name in out:
                    continue
                gives = bool(func.gives) and _calls_into(func.gives, known)
                if func.sites or gives or any(_calls_into(callee, known) for callee, _ in func.calls):
                    # What an importer names: the module's top-level function or class.
                    out.add(name)
                    grown = True
        # A re-export under another name (`from .base_dir import resolve as base_dir_of`): its importers
        # name the module's own binding (the same name is already found: `follow.expand`).
        for bound, target in summary.facts.imports if summary.facts is not None else ():
            if bound != target.rpartition(".")[2] and _calls_into(target, reached):
                out.add(f"{summary.module}.{bound}")
        # A table of functions (`HANDLERS = {"where": handle_where}`): a low-level handler importing it
        # dispatches to them (named in the marker: program/model.py, `dispatched`).
        for name, entries in summary.facts.tables if summary.facts is not None else ():
            if any(_calls_into(value, reached | out) for _, value in entries):
                out.add(f"{summary.module}.{name}")
        # A list of functions (`ALL_TOOLS = [list_files, grep]`) a server module registers in a loop: it joins,
        # so that registration is read and named (the `opaque` note of MR103: sweep A r04 of session 20).
        for name, items in summary.facts.collections if summary.facts is not None else ():
            if any(_calls_into(value, reached | out) for value in items):
                out.add(f"{summary.module}.{name}")
        # A star re-export (`mid.py`: `from .helpers import *`): `from .mid import *` importers join too.
        stars = set(summary.facts.stars) if summary.facts is not None else set()
        out |= {f"{summary.module}.{n.rpartition('.')[2]}" for n in reached if n.rpartition(".")[0] in stars}
    return out


def _calls_into(callee: str, reached: set[str]) -> bool:
    """`pkg.mod.helper` or `pkg.mod.Class.method` for a reached `pkg.mod.helper` / `pkg.mod.Class`; the method
    of what a getter returns (`pkg.mod.get_service().enrich`) for a reached getter."""
    callee = callee.replace(typed.RETURNED, ".")
    while callee:
        if callee in reached:
            return True
        callee = callee.rpartition(".")[0]
    return False


def first_party_imports(summary: Any) -> set[str]:
    """The modules of the file's own top-level package it imports from (each name, and its parent: the name
    may be a module or a function)."""
    facts = summary.facts
    if facts is None:
        return set()
    top = summary.module.split(".")[0]
    found = {m for _, fq in facts.imports if fq.split(".")[0] == top for m in (fq, fq.rpartition(".")[0])}
    # ... and the modules of the project's functions it calls, imported inside a function too (codereviewbuddy's
    # `gh.py` imports `github_api` where it calls it: unread, its `graphql` could not be told from a bound).
    for func in summary.functions.values():
        for callee, _ in func.calls:
            if callee.split(".")[0] == top and typed.RETURNED not in callee:
                module = callee.rpartition(".")[0]
                found |= {module, module.rpartition(".")[0]}
    return found - {""}
