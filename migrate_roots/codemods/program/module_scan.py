"""The module-level facts of a file (`facts.ModuleFacts`): its server objects and server classes, the instances and
imports bound at its top, the project classes it derives from and the methods they override, its dispatch tables;
and which function a registration by name stands for (`registered_function`)."""

from __future__ import annotations

import sys
from collections.abc import Mapping

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._read import read
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import tables_of
from migrate_roots.codemods.program.facts import ModuleFacts, Registration

_STDLIB = frozenset(sys.stdlib_module_names)


def note_module(state: FileState) -> None:
    """Record the module's star imports before the walk (names they bring are resolved in the model)."""
    module = state.wrapper.module
    stars = []
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar):
                stars.append(state._absolute(_dotted(small)))
    state.extra["star_imports"] = tuple(stars)


def _dotted(node: cst.ImportFrom) -> str:
    dots = "." * len(node.relative)
    if node.module is None:
        return dots
    return dots + cst.Module(body=()).code_for_node(node.module)


def project_bases(state: FileState, names: set[str]) -> list[str]:
    """The names of a class's base among `names` that are the project's (of this module's top package)."""
    top = state.module.partition(".")[0]
    owners = [n if "." in n else f"{state.module}.{n}" for n in sorted(names)]
    return [n for n in owners if n.partition(".")[0] == top]


def _overrides(state: FileState, cls: cst.ClassDef, bases: set[str]) -> list[tuple[str, str, int]]:
    """(`pkg.mod.Fixed.get`, `pkg.base.Workspace.get`, line) for each method of `cls` a project base defines
    too (as far as the name goes: whether it does is the plan's to see)."""
    owners = project_bases(state, bases)
    methods = [s for s in cls.body.body if isinstance(s, cst.FunctionDef)] if owners else []
    return [
        (f"{state.module}.{cls.name.value}.{m.name.value}", f"{owner}.{m.name.value}", state.pos(m)[0])
        for m in methods
        if not m.name.value.startswith("__")
        for owner in owners
    ]


def module_facts(
    state: FileState,
    registrations: list[Registration],
    opaque: tuple[tuple[str, int], ...] = (),
    handed: tuple[tuple[str, str, int], ...] = (),
) -> ModuleFacts:
    """The server objects, server classes, instances and imports bound at the top of this module."""
    module = state.wrapper.module
    servers: set[str] = set()
    classes: set[str] = set()
    instances: list[tuple[str, str]] = []
    imports: list[tuple[str, str]] = []
    overrides: list[tuple[str, str, int]] = []
    bases: list[tuple[str, tuple[str, ...]]] = []
    several: set[str] = set()
    tables: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    collections: list[tuple[str, tuple[str, ...]]] = []
    for statement in module.body:
        if isinstance(statement, cst.ClassDef):
            for base in statement.bases:
                names = state.qnames(base.value)
                local = {n.rpartition(".")[2] for n in names}
                if names & _sdk.HIGH_LEVEL_SERVERS or local & classes:
                    classes.add(statement.name.value)
                overrides += _overrides(state, statement, names)
            owners = [b for base in statement.bases for b in project_bases(state, state.qnames(base.value))]
            if owners:
                bases.append((f"{state.module}.{statement.name.value}", tuple(dict.fromkeys(owners))))
                if sum(1 for b in statement.bases if b.keyword is None) > 1:
                    several.add(f"{state.module}.{statement.name.value}")
            continue
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
                source = state._absolute(_dotted(small))
                for alias in small.names:
                    if isinstance(alias.name, cst.Name):
                        bound = alias.asname.name if alias.asname is not None else alias.name
                        if isinstance(bound, cst.Name):
                            imports.append((bound.value, f"{source}.{alias.name.value}".lstrip(".")))
            if isinstance(small, cst.Import):
                # `import pkg.sandbox as sb` binds `sb` to the module; `import pkg.sandbox` makes `pkg.sandbox`
                # name it: either way the module is imported (followed from here: a base class's check there)
                for alias in small.names:
                    dotted = cst.Module(body=()).code_for_node(alias.name)
                    named = alias.asname.name if alias.asname is not None else None
                    imports.append((named.value if isinstance(named, cst.Name) else dotted, dotted))
            if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
                continue
            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
            value = small.value
            if len(targets) == 1 and isinstance(targets[0], cst.Name):
                entries = tables_of.table_entries(state, value)
                if entries:
                    tables.append((targets[0].value, entries))
                items = tables_of.collection_items(state, value)
                if items:
                    collections.append((targets[0].value, items))
            for target in targets:
                if not isinstance(target, cst.Name):
                    continue
                if isinstance(value, cst.Call):
                    if (
                        _sdk.call_kind(state, value) == _sdk.HL_SERVER
                        or isinstance(value.func, cst.Name)
                        and value.func.value in classes
                    ):
                        servers.add(target.value)
                    else:
                        for name in state.qnames(value.func):
                            instances.append((target.value, name))
    return ModuleFacts(
        servers=frozenset(servers),
        server_classes=frozenset(f"{state.module}.{c}" for c in classes),
        instances=tuple(instances),
        imports=tuple(imports),
        stars=tuple(state.extra.get("star_imports", ())),
        registrations=tuple(registrations),
        opaque=opaque,
        handed=handed,
        overrides=tuple(overrides),
        bases=tuple(bases),
        several=frozenset(several),
        dispatched=tuple(state.extra.get("dispatched", ())),
        tables=tuple(tables),
        collections=tuple(collections),
    )


def registered_function(ref: str, scope: str, defs: Mapping[str, cst.FunctionDef]) -> str | None:
    """The qualname a registration's reference names: `fn` as seen from the function `scope` that makes the
    registration (a closure of it, or a module-level function), `factory()` as the nested function the
    factory returns (`def _make(spec): async def _handler(...): ...; return _handler`)."""
    factory = ref.endswith("()")
    name = ref[:-2] if factory else ref
    found = None
    parts = scope.split(".") if scope else []
    for depth in range(len(parts), -1, -1):
        candidate = ".".join([*parts[:depth], name])
        if candidate in defs:
            found = candidate
            break
    if found is None or not factory:
        return found
    returned = _returned_local(defs[found])
    return f"{found}.{returned}" if returned and f"{found}.{returned}" in defs else None


def _returned_local(func: cst.FunctionDef) -> str | None:
    """The name of a function defined directly in `func` that `func` returns."""
    local = (
        {s.name.value for s in func.body.body if isinstance(s, cst.FunctionDef)}
        if isinstance(func.body, cst.IndentedBlock)
        else set()
    )
    found: list[str] = []

    class Returns(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_Return(self, node: cst.Return) -> None:
            if isinstance(node.value, cst.Name) and node.value.value in local:
                found.append(node.value.value)

    read(func, Returns())
    return found[0] if len(set(found)) == 1 else None
