"""Roots kept through a setter method (MR212, read by the plumbing collector): `binding.bind(<roots>)` under
`if binding.project is None:`, or after `if binding.project: return binding.project`, on an object that
outlives the request (module-level, imported from the project, a class, `self`, a lifespan field). A
ContextVar, a setting's test (`if policy.enforce_roots:`) and a test below the read are no such cache."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

import libcst as cst

from migrate_roots.codemods import _context_vars, _setter_sources
from migrate_roots.codemods._plumbing_queries import _calls_in, _contains, _mentions_site
from migrate_roots.codemods._plumbing_state import (
    _LOG_METHODS,
    _READ_ONLY_METHODS,
    _attribute_base,
    _first_party_import,
    _long_lived_alias,
    _names_global,
)
from migrate_roots.codemods._read import read
from migrate_roots.codemods.program.flow import _names as names_in

if TYPE_CHECKING:
    from migrate_roots.codemods._plumbing_base import _PlumbingBase
    from migrate_roots.codemods.base import FileState


def setter_call(node: cst.Call, func: cst.FunctionDef, owner: _PlumbingBase, state: FileState) -> None:
    """`binding.bind(<roots>)` under `if binding.project is None:`: the object keeps the roots through a
    method and the test skips the read once it holds them, as `binding.project = <roots>` would (MR212;
    field sweep r02, where the explicit argument was ignored after the first call)."""
    method = node.func
    if not owner.funcs[func].sites:
        return
    if isinstance(method, cst.Name):
        _function_setter(node, func, owner, state)
        return
    if not isinstance(method, cst.Attribute):
        return
    if method.attr.value in _LOG_METHODS or method.attr.value in _READ_ONLY_METHODS:
        return  # `logger.debug(roots)` under `if logger.isEnabledFor(...)`, `cache.get(root)`
    if _shared_default_setter(node, method, func, owner, state):
        return
    # `cache.store(k, <roots>)`, a function of a project module (`from pkg import cache`)
    if isinstance(method.value, cst.Name) and _function_setter(
        node, func, owner, state, _module_path(method, state)
    ):
        return
    base = _attribute_base(method)
    if _context_vars.receiver(method.value, state):
        return  # a ContextVar of the project is set per request (sweeps F r09, G r10-r14)
    lifespan = "lifespan_context" in state.wrapper.module.code_for_node(method.value)
    if not isinstance(base, cst.Name) or not (
        lifespan or _long_lived(base, owner, state) or _long_lived_alias(base, func, state)
    ):
        return
    if not any(_mentions_site(arg.value, func, owner) for arg in node.args):
        return
    sites = owner.funcs[func].sites
    current = state.parent(node)
    while current is not None and current is not func:
        # The test decides whether the roots are read at all (the read under it too): not `if audit.enabled:
        # audit.record(uri)` below the read (sweep D r06 of session 20).
        if (
            _absence_guard(current, base.value, state)
            and any(_contains(current.body, site, state) for site in sites)
            and _tests_what_it_sets(current, base, method.attr.value, owner, state)
        ):
            owner.attr_writes.append((func, node, method))
            return
        refresh = _refresh_test(current, base, method.attr.value, owner, state)
        if (
            refresh
            and isinstance(current, (cst.If, cst.While))
            and any(_contains(current.body, s, state) for s in sites)
        ):
            owner.attr_writes.append((func, node, method))
            keeps = f"{base.value}.{method.attr.value}()"
            owner.setter_said[node] = (
                keeps,
                f"roots handed to `{keeps}` stay on `{base.value}` ({{holder}}), and `{refresh}` above the read "
                "skips it while what it keeps counts as fresh",
            )
            return
        current = state.parent(current)
    # `binding.bind_once(<roots>)`, whose body sets `self.project` only while it is unset (sweep D r05).
    kept = (
        _setter_sources.first_wins(state.path, method.attr.value)
        or _setter_sources.first_wins(_imported_file(base, state), method.attr.value)
        or _setter_sources.first_wins(
            _class_file(base, owner, state), method.attr.value
        )  # `binding = Binding()`, imported class
    )
    if kept:
        owner.attr_writes.append((func, node, method))
        owner.first_wins[node] = f"self.{kept}"
        return
    # `if binding.project is not None: return binding.project` before the read (sweep D r02).
    first = min(state.pos(site) for site in sites)
    for guard, returned in _early_returns(func):
        # ... the value it returns is the one it tests: not a setting's early exit (`if indexer.paused: return
        # indexer.status`, sweep I r10 of session 21)
        tested = _attributes_of(guard.test, base.value)
        if (
            returned is not None
            and tested & _attributes_of(returned, base.value)
            and state.pos(guard) < first
        ):
            owner.attr_writes.append((func, node, method))
            return


def setattr_call(node: cst.Call, func: cst.FunctionDef, owner: _PlumbingBase, state: FileState) -> bool:
    """`setattr(self, "_project", <roots>)`, `object.__setattr__(self, ...)` (a frozen dataclass's memo),
    `setattr(sys.modules[__name__], "X", <roots>)`: an attribute write of an object that outlives the request,
    as `self._project = <roots>` is (MR212; sweep K r02, r03 of session 22). True when it is one."""
    func_node = node.func
    if isinstance(func_node, cst.Name):
        name = func_node.value
    elif isinstance(func_node, cst.Attribute) and isinstance(func_node.value, cst.Name):
        name = f"{func_node.value.value}.{func_node.attr.value}"
    else:
        return False
    if name not in ("setattr", "object.__setattr__") or len(node.args) < 3 or not owner.funcs[func].sites:
        return False
    holder, attribute, value = (a.value for a in node.args[:3])
    base = holder
    while isinstance(base, (cst.Attribute, cst.Subscript)):
        base = base.value
    if (
        not isinstance(base, cst.Name)
        or not (
            _long_lived(base, owner, state)
            or _long_lived_alias(base, func, state)
            or state.wrapper.module.code_for_node(holder).startswith("sys.modules[")
        )
        or not _mentions_site(value, func, owner)
    ):
        return False  # a session's attribute (a parameter's) is MR211's: `attribute_memo`
    spelled = state.wrapper.module.code_for_node(holder)
    attr = attribute.evaluated_value if isinstance(attribute, cst.SimpleString) else None
    kept = f"{spelled}.{attr}" if isinstance(attr, str) else f"an attribute of `{spelled}`"
    shown = f"`{kept}`" if isinstance(attr, str) else kept
    module = spelled.startswith("sys.modules[")
    owner.attr_writes.append((func, node, holder if isinstance(holder, (cst.Name, cst.Attribute)) else base))
    owner.setter_said[node] = (
        kept,
        f"roots kept on {shown} by `{name}()` outlive the request ("
        + ("the module object, shared by every request" if module else "{holder}")
        + ")",
    )
    return True


def _function_setter(
    node: cst.Call, func: cst.FunctionDef, owner: _PlumbingBase, state: FileState, path: str = ""
) -> bool:
    """`bind_project(<roots>)` under `if binding.project is None:`, where the module function sets an attribute
    of that global (`def bind_project(p): binding.project = p`) or the global itself (`global _project`), in
    this module or one of the project's (sweep I r08 of session 21); a function that keeps the first value
    only (`_remember(found)`, K r09); a store behind a look-up of the same module returned from before the
    read (`if (hit := cache.lookup(k)) is not None: return hit`, then `cache.store(k, <roots>)`, K r11).
    `path`: the file of a module the call reaches the function through (`cache.store`). True when it is one."""
    local = isinstance(node.func, cst.Name) and node.func.value in owner.top
    path = (
        state.path
        if local
        else path or (_imported_file(node.func, state) if isinstance(node.func, cst.Name) else "")
    )
    if not path or not any(_mentions_site(arg.value, func, owner) for arg in node.args):
        return False  # not a function of the project (`str(...)`, `Path(...)`), or handed no roots
    spelled = state.wrapper.module.code_for_node(node.func)
    fq = next(iter(sorted(state.qnames(node.func))), "")
    module, _, name = fq.rpartition(".")
    where = "this module" if local else f"module `{module}`"
    said = f"roots handed to `{spelled}()` stay on `{{}}` (a global of {where}, shared by every request), "
    kept = _setter_sources.first_wins_function(path, name)
    if kept:  # `_remember(<roots>)`, which keeps the first value only: no test of the caller's needed
        return _said(node, func, owner, spelled, said.format(kept) + "which keeps the first value only")
    sites = owner.funcs[func].sites
    first = min(state.pos(site) for site in sites)
    for glob in sorted(_setter_sources.globals_set(path, name)):
        wanted = {glob} if local else {f"{module}.{glob}"}
        current = state.parent(node)
        while current is not None and current is not func:
            if (
                isinstance(current, (cst.If, cst.While))
                and _missing(current.test)
                and _tests_global(current.test, wanted, glob, state)
                and any(_contains(current.body, site, state) for site in sites)
            ):
                test = f"the test of `{glob}` above the read skips it once they are there"
                return _said(node, func, owner, spelled, said.format(glob) + "and " + test)
            current = state.parent(current)
        for guard, _returned in _early_returns(func):
            lookups = [
                c
                for c in _calls_in(guard.test, state)
                if state.pos(guard) < first
                and any(q.rpartition(".")[0] == module for q in state.qnames(c.func))
                and _setter_sources.reads_global(
                    path, next(iter(sorted(state.qnames(c.func)))).rpartition(".")[2], glob
                )
            ]
            if lookups:
                test = state.wrapper.module.code_for_node(lookups[0])
                return _said(
                    node,
                    func,
                    owner,
                    spelled,
                    said.format(glob) + f"and `{test}` returns them from before the read",
                )
    return False


def _tests_global(test: cst.BaseExpression, wanted: set[str], glob: str, state: FileState) -> bool:
    """`test` reads the global (`if _project is None:`), or calls a getter of it without arguments (`if
    get_project() is None:` with `def get_project(): return _project`; sweep M r02 of session 22)."""
    if any(state.qnames(n) & wanted for n in names_in(test)):
        return True
    return any(n.value == glob for value in _returned_by_helpers(test, state) for n in names_in(value))


def _said(node: cst.Call, func: cst.FunctionDef, owner: _PlumbingBase, spelled: str, sentence: str) -> bool:
    target = node.func if isinstance(node.func, (cst.Name, cst.Attribute)) else cst.Name("_")
    owner.attr_writes.append((func, node, target))
    owner.setter_said[node] = (f"{spelled}()", sentence)
    return True


def _shared_default_setter(
    node: cst.Call, method: cst.Attribute, func: cst.FunctionDef, owner: _PlumbingBase, state: FileState
) -> bool:
    """`binding.get().bind(<roots>)` under `if binding.get().project is None:`, on a ContextVar whose default is
    one object built at import (sweep G r11 of session 21): every request that never sets the var shares it.
    True when the receiver is a ContextVar's `.get()` (nothing else to look for)."""
    getter = method.value
    if not (
        isinstance(getter, cst.Call)
        and not getter.args
        and isinstance(getter.func, cst.Attribute)
        and getter.func.attr.value == "get"
        and _context_vars.receiver(getter.func.value, state)
    ):
        return False
    code = state.wrapper.module.code_for_node
    spelled, var = code(getter), code(getter.func.value)
    if not _context_vars.shared_default(getter.func.value, state) or not any(
        _mentions_site(arg.value, func, owner) for arg in node.args
    ):
        return True
    sites = owner.funcs[func].sites
    current = state.parent(node)
    while current is not None and current is not func:
        if (
            isinstance(current, (cst.If, cst.While))
            and spelled in code(current.test)
            and _missing(current.test)
            and any(_contains(current.body, site, state) for site in sites)
        ):
            keeps = f"{spelled}.{method.attr.value}()"
            owner.attr_writes.append((func, node, method))
            owner.setter_said[node] = (
                keeps,
                f"roots handed to `{keeps}` stay on the default of the ContextVar `{var}`, one object shared by "
                f"every request that does not set `{var}`, and the test of `{spelled}` above the read skips it "
                "once they are there",
            )
            return True
        current = state.parent(current)
    return True


def _refresh_test(
    node: cst.CSTNode, base: cst.Name, setter: str, owner: _PlumbingBase, state: FileState
) -> str:
    """The test of `node` (`binding.stale()`, `time.monotonic() - binding.at > 300`, a `stale` property) when it
    reads what the setter `binding.bind` writes (a time stamp: a roots cache refreshed every few minutes, sweep I
    r09 of session 21, M r04 of session 22); else ''. A setting's test (`if binding.enabled():`, of what `bind`
    never writes) is none."""
    if not isinstance(node, (cst.If, cst.While)) or not _reads_what_it_sets(node, base, setter, owner, state):
        return ""
    return state.wrapper.module.code_for_node(node.test)


def _tests_what_it_sets(
    guard: cst.If | cst.While, base: cst.Name, setter: str, owner: _PlumbingBase, state: FileState
) -> bool:
    """Whether the test reads an attribute of `base` the setter writes (`project` of `if not is_bound():` and
    `bind()`), not a setting beside it (`if not binding.verbose:`); True when the setter's writes cannot be read."""
    return _reads_what_it_sets(guard, base, setter, owner, state) is not False


def _reads_what_it_sets(
    guard: cst.If | cst.While, base: cst.Name, setter: str, owner: _PlumbingBase, state: FileState
) -> bool | None:
    """Whether the test reads, directly or through the class's methods and properties (`project` returning
    `self._project`, `stale()` reading `self.at`; sweep M r01 of session 22), an attribute of `base` the setter
    writes; None when the setter's writes cannot be read (one that writes through another method)."""
    tested = set().union(
        *(_attributes_of(p, base.value) for p in [guard.test, *_returned_by_helpers(guard.test, state)])
    )
    for path in (state.path, _imported_file(base, state), _class_file(base, owner, state)):
        written = _setter_sources.written_by(path, setter)
        if written:
            return bool(_setter_sources.read_through(path, setter, tested) & written)
    return None


def _attributes_of(node: cst.BaseExpression, base: str) -> set[str]:
    """The attributes of `base` that `node` reads (`project` of `binding.project is None`)."""
    found: set[str] = set()

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            if isinstance(n.value, cst.Name) and n.value.value == base:
                found.add(n.attr.value)

    read(node, Reads())
    return found


def guarded_by_absence(node: cst.CSTNode, base: str, func: cst.FunctionDef, state: FileState) -> bool:
    """Whether `node` sits under an `if`/`while` in `func` that tests the absence of an attribute of `base`
    (`if binding.project is None:`)."""
    current = state.parent(node)
    while current is not None and current is not func:
        if _absence_guard(current, base, state) and _contains(current.body, node, state):
            return True
        current = state.parent(current)
    return False


def _absence_guard(node: cst.CSTNode, base: str, state: FileState) -> TypeGuard[cst.If | cst.While]:
    """`node` is an `if`/`while` testing the absence of an attribute of `base`: `if binding.project is None:`,
    `if not binding.is_bound():`, or through a function of the module that returns such a test (`if not
    _bound():`, `def _bound(): return binding.project is not None`; sweep D r03 of session 20)."""
    if not isinstance(node, (cst.If, cst.While)):
        return False
    parts = [node.test, *_returned_by_helpers(node.test, state)]
    return any(base in _attribute_bases(p) for p in parts) and any(_missing(p) for p in parts)


def _returned_by_helpers(test: cst.BaseExpression, state: FileState) -> list[cst.BaseExpression]:
    """What the module's functions called without arguments in `test` return (`_bound()`), or the project's
    (`from pkg.state import is_bound`; sweep I r07 of session 21)."""
    called = [c.func for c in _calls_in(test, state) if isinstance(c.func, cst.Name) and not c.args]
    names = {c.value for c in called}
    out: list[cst.BaseExpression] = []
    for name in called:
        path = _imported_file(name, state)
        returned = _setter_sources.returned(path, name.value)
        try:
            out.extend([cst.parse_expression(returned)] if returned else [])
        except cst.ParserSyntaxError:  # syntax libcst does not read yet
            continue
    for statement in state.wrapper.module.body if names else ():
        if isinstance(statement, cst.FunctionDef) and statement.name.value in names:
            body = statement.body.body
            last = body[-1] if body else None
            if isinstance(last, cst.SimpleStatementLine) and isinstance(last.body[0], cst.Return):
                value = last.body[0].value
                if value is not None:
                    out.append(value)
    return out


def _long_lived(base: cst.Name, owner: _PlumbingBase, state: FileState) -> bool:
    """`self`/`cls`, an object the module binds at its top (`binding = Binding()`), or one imported from the
    project (`from pkg.state import binding`); not a module (`os.path.join(...)`), a parameter or a local."""
    if base.value in ("self", "cls"):
        return True
    if any(isinstance(n, cst.ClassDef) and n.name.value == base.value for n in state.wrapper.module.body):
        return True  # `Workspace.bind(uri)`, a classmethod keeping it on the class (sweep F r06)
    scope = state.scope(base)
    if scope is None or base.value not in scope or not _names_global(scope, base.value):
        return False
    if base.value in owner.top_assigns:
        # A ContextVar is set per request context, not across requests (sweep D r07 of session 20).
        return "contextvars.ContextVar" not in owner.made_by(base.value)
    imported = any(isinstance(getattr(a, "node", None), cst.ImportFrom) for a in scope[base.value])
    return imported and _first_party_import(scope, base.value)


def _class_file(base: cst.Name, owner: _PlumbingBase, state: FileState) -> str:
    """The file of the project class a module-level name is made by (`binding = Binding()` with `from
    pkg.state import Binding`; sweep I r05 of session 21), or ''."""
    from migrate_roots.codemods._sdk_alias import module_file

    for fq in sorted(owner.made_by(base.value)):
        module = fq.rpartition(".")[0]
        path = module_file(state.import_root, module) if module and state.import_root else None
        if path:
            return path
    return ""


def _module_path(method: cst.Attribute, state: FileState) -> str:
    """The file of the project module `method` is a function of (`cache.store` with `from pkg import cache`)."""
    from migrate_roots.codemods._sdk_alias import module_file

    for fq in sorted(state.qnames(method)) if state.import_root else ():
        path = module_file(state.import_root, fq.rpartition(".")[0])
        if path:
            return path
    return ""


def _imported_file(base: cst.Name, state: FileState) -> str:
    """The file of the project module `base` is imported from (`from pkg.state import binding`), or ''."""
    from migrate_roots.codemods._sdk_alias import module_file

    for fq in sorted(state.qnames(base)):
        module = fq.rpartition(".")[0]
        path = module_file(state.import_root, module) if module and state.import_root else None
        if path:
            return path
    return ""


def _attribute_bases(test: cst.BaseExpression) -> set[str]:
    """The names an `if` test reads attributes of (`binding` of `binding.project is None`)."""
    found: set[str] = set()

    class Bases(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            base = _attribute_base(n)
            if isinstance(base, cst.Name):
                found.add(base.value)

    read(test, Bases())
    return found


def _missing(test: cst.BaseExpression) -> bool:
    """A test of absence (`x.project is None`, `not x.project`, `x.get() == None`), as a cache's guard is; not a
    setting (`if policy.enforce_roots:`, sweep F r08 of session 20)."""
    found = False

    class Absent(cst.CSTVisitor):
        def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
            nonlocal found
            found = found or isinstance(node.operator, cst.Not)

        def visit_Comparison(self, node: cst.Comparison) -> None:
            nonlocal found
            for target in node.comparisons:
                value = target.comparator
                empty = (isinstance(value, cst.Name) and value.value == "None") or (
                    isinstance(value, (cst.SimpleString, cst.Integer, cst.List, cst.Dict, cst.Tuple))
                    and cst.Module([]).code_for_node(value) in ('""', "''", "0", "[]", "{}", "()")
                )
                found = found or (empty and isinstance(target.operator, (cst.Is, cst.Equal)))
                # `x.project in (None, "")` (sweep M r12 of session 22)
                if isinstance(target.operator, cst.In) and isinstance(value, (cst.Tuple, cst.List, cst.Set)):
                    code = cst.Module([]).code_for_node
                    found = found or any(code(e.value) in ("None", '""', "''") for e in value.elements)

    read(test, Absent())
    return found


def _early_returns(func: cst.FunctionDef) -> list[tuple[cst.If, cst.BaseExpression | None]]:
    """The `if` statements of `func` (not of nested functions) whose body ends in a `return`, with the value it
    returns (`if binding.project: return binding.project`: a cache hit returns what is kept)."""
    found: list[tuple[cst.If, cst.BaseExpression | None]] = []

    class Ifs(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is func

        def visit_If(self, node: cst.If) -> None:
            body = node.body.body
            last = body[-1] if body else None
            small = last.body[-1] if isinstance(last, cst.SimpleStatementLine) and last.body else None
            if isinstance(node.body, cst.SimpleStatementSuite) and node.body.body:
                small = node.body.body[-1]
            if isinstance(small, cst.Return):
                found.append((node, small.value))

    read(func, Ifs())
    return found
