"""What a roots site's code does with the result, for the roots-call family: how much of it it uses
(`_uses`: the first root or the list), which existing parameter guards it, and why it must not be rewritten
(`_local_refusal`: a wrapper's read, MR104; None versus empty, or a capability check, MR105), with the small
tree queries these need.
"""

from __future__ import annotations

import os
from typing import cast

import libcst as cst

from migrate_roots.codemods import _capability_guard, _capability_widen, _except_widen, _roots_none
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_model import Func, Pos
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program import bindings, flow, kept_calls, keyed, on_disk
from migrate_roots.codemods.program import memo as kept_values
from migrate_roots.codemods.program.flow import _names as _names_in


def _climb(call: cst.CSTNode, state: FileState) -> cst.CSTNode:
    """The expression whose value is the roots result: through `await` and timeout wrappers."""
    node: cst.CSTNode = call
    while True:
        parent = state.parent(node)
        if isinstance(parent, cst.Await):
            node = parent
        elif isinstance(parent, cst.Arg):
            outer = state.parent(parent)
            if isinstance(outer, cst.Call) and isinstance(outer.func, (cst.Attribute, cst.Name)):
                name = outer.func.attr.value if isinstance(outer.func, cst.Attribute) else outer.func.value
                if name in ("wait_for", "shield", "create_task", "ensure_future"):
                    node = outer
                    continue
            return node
        else:
            return node


def _bound_name(expr: cst.CSTNode, state: FileState) -> cst.Name | None:
    parent = state.parent(expr)
    if (
        isinstance(parent, cst.Assign)
        and len(parent.targets) == 1
        and isinstance(parent.targets[0].target, cst.Name)
    ):
        return parent.targets[0].target
    if isinstance(parent, (cst.AnnAssign, cst.NamedExpr)) and isinstance(parent.target, cst.Name):
        return parent.target
    return None


def _first_only(node: cst.CSTNode, state: FileState, shape: str) -> bool:
    """Is this use `x.roots[0]` (result) or `x[0]` (list)?"""
    parent = state.parent(node)
    if shape == "result":
        if not (isinstance(parent, cst.Attribute) and parent.attr.value == "roots"):
            return False
        node, parent = parent, state.parent(parent)
    if isinstance(parent, cst.Subscript) and len(parent.slice) == 1:
        index = parent.slice[0].slice
        return (
            isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and index.value.value == "0"
        )
    return False


def _binding(call: cst.Call, state: FileState) -> tuple[cst.Name | None, cst.CSTNode, bool]:
    """(name bound to the result, the result expression, whether the name holds `.roots` already)."""
    result = _climb(call, state)
    parent = state.parent(result)
    if isinstance(parent, cst.Attribute) and parent.attr.value == "roots" and parent.value is result:
        target = _bound_name(parent, state)
        if target is not None:
            return target, parent, True
    return _bound_name(result, state), result, False


def _neutral_use(node: cst.CSTNode, state: FileState) -> bool:
    """A use that says nothing about how many roots matter: `x is None`, `if x:`, `not x`."""
    parent = state.parent(node)
    if isinstance(parent, cst.Comparison):
        return all(_is_none(c.comparator) for c in parent.comparisons)
    if isinstance(parent, (cst.If, cst.While)) and parent.test is node:
        return True
    return isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not)


def _uses(call: cst.Call, shape: str, state: FileState) -> str:
    target, result, via_roots = _binding(call, state)
    if via_roots:
        shape = "list"
    if target is None:
        return "first" if _first_only(result, state, shape) else "list"
    scope = state.scope(target)
    if scope is None:
        return "list"
    accesses = [
        a for a in scope.accesses if a.node is not target and getattr(a.node, "value", None) == target.value
    ]
    accesses = [a for a in accesses if not _neutral_use(a.node, state)]
    if accesses and all(_first_only(a.node, state, shape) for a in accesses):
        return "first"
    return "list"


def _local_refusal(call: cst.Call, state: FileState) -> tuple[str, str] | None:
    func = state.function
    if func is None:
        return None
    # `listed = session.list_roots()` then `listed.roots`, in a plain `def`: the SDK's method is a coroutine,
    # so this object is another (a synchronous adapter of the project's); the async shim would break it.
    parent = state.parent(call)
    if isinstance(parent, cst.Lambda) and func.asynchronous is None:
        # `anyio.from_thread.run(lambda: ctx.list_roots())` in a sync tool: the coroutine is made where the lambda
        # runs (a thread bridge), out of this function's sight; no adapter's (sweep B r03 of session 20).
        handed = state.parent(parent)
        runner = state.parent(handed) if isinstance(handed, cst.Arg) else None
        where = (
            f", handed to `{state.wrapper.module.code_for_node(runner.func)}(...)`"
            if isinstance(runner, cst.Call)
            else ""
        )
        return (
            "MR103",
            f"the roots call is made in a lambda (`lambda: {state.wrapper.module.code_for_node(call)}`{where}): "
            "migrate-roots follows only a read awaited in its own function; where the lambda runs, call "
            "`list_roots_compat` by hand and give that call's tool a path argument",
        )
    if func.asynchronous is None and not isinstance(parent, (cst.Await, cst.Arg, cst.Return)):
        return (
            "MR103",
            f"`{state.wrapper.module.code_for_node(call.func)}()` is called without `await` in the synchronous function "
            f"`{func.name.value}`: the SDK's method is a coroutine, so this is another object's (an adapter's) "
            "and migrate-roots leaves it as it is; if it asks the MCP client for roots, migrate it by hand",
        )
    # A wrapper returned by its enclosing function: a decorator that reads roots for every tool it wraps.
    outer = state.parent(func)
    while outer is not None and not isinstance(outer, (cst.FunctionDef, cst.Module)):
        outer = state.parent(outer)
    if (
        isinstance(outer, cst.FunctionDef)
        and _returns_name(outer, func.name.value)
        and _calls_param(func, outer)
    ):
        return ("MR104", "roots read in a decorator that wraps tools; give each wrapped tool a path argument")
    # `except McpError as e: ... e.error.code`: the shim's error cannot be handed to that handler.
    reads_error = _except_widen.refusal(call, state)
    if reads_error is not None:
        return reads_error
    # A per-key cache in a module container, returned before the read: the argument would be ignored on a hit.
    cache = kept_values.returned_cache(call, state)
    if cache is not None:
        return (
            "MR211",
            f"roots read behind `{cache[0]}`, a "
            + ("module-level cache" if "." not in cache[0] else "cache kept on an object beyond this call")
            + " returned from before the read "
            f"({os.path.basename(state.path)}:{cache[1]}), which MR211 does not remove: a path argument here would be ignored while the "
            "cache holds an entry; remove the cache (or key it by the argument) by hand, then run again",
        )
    # `_CACHE.setdefault(key, <read>)` on a holder that outlives the call: the first value wins (sweep T, r05).
    first = kept_calls.setdefault_holder(call, state)
    if first is not None:
        return (
            "MR211",
            f"roots read into `{first[0]}` by `setdefault` ({os.path.basename(state.path)}:{first[1]}), which keeps "
            "the first value beyond this call: a path argument here would be kept from the first call and served "
            "to every later one; remove the cache (or key it by the argument) by hand, then run again",
        )
    # Filled when empty into a holder that outlives the call (the lifespan value, a default argument, a
    # variable of the enclosing function): the argument would count on the first call only.
    # ... or filled when absent on a session, or in fastmcp's per-session state (`ctx.get_state`/`set_state`).
    memo, when = bindings.memo_holder(call, state), "empty"
    if memo is None:
        memo, when = kept_values.attribute_memo(call, state), "absent"
    kept = (f"`{memo[0]}`", memo[1]) if memo is not None else _session_state(func, state)
    if kept is not None:
        return (
            "MR211",
            f"roots read once into {kept[0]}, filled here when {when} ({os.path.basename(state.path)}:{kept[1]}) "
            "and kept beyond this call: a path argument would count on the first call only; read the roots (or "
            "the argument) on every call, by hand, then run again",
        )
    # Built into a file or folder of the module's and served while it exists: an on-disk cache.
    disk = on_disk.disk_guard(call, state)
    if disk is not None:
        at = f"{'the test' if disk[2] == 'test' else 'its read tried first'} at {os.path.basename(state.path)}:{disk[1]}"
        return (
            "MR211",
            f"roots read only while `{disk[0]}` is not on disk ({at}), "
            "which what they build is then kept in: a path argument would count until it exists and be "
            "ignored afterwards; key the cache by the argument, or rebuild it per call, by hand, then run again",
        )
    # Looked up in a `shelve` / `dbm` file of the module, filled here: served from it on every later call.
    store = on_disk.store_guard(call, state)
    if store is not None:
        return (
            "MR211",
            f"roots read behind `{store[0]}`, an on-disk store of the module's, filled here and returned from "
            f"before the read ({os.path.basename(state.path)}:{store[1]}): a path argument here would be ignored "
            "while the store holds an entry, across restarts too; remove the cache (or key it by the argument) "
            "by hand, then run again",
        )
    # `roots is None` versus an empty list: the code tells "no roots capability" from "no roots".
    target = _binding(call, state)[0]
    params = {
        p.name.value for p in (*func.params.params, *func.params.kwonly_params, *func.params.posonly_params)
    }
    # A roots-capability check in front of the call would keep an explicit argument from ever being read:
    # the rewrite widens it to "argument given, or the old condition" (_capability_guard), else it is marked.
    preds = _capability_guard.predicates(state)
    if _capability_guard.has_check(func, preds):
        widened = _capability_widen.plan(call, func, state)
        if isinstance(widened, str):
            return "MR105", widened
    # A value looked up first and filled by the read when empty (`cached = CACHE.get(key)` or `_roots.get()`,
    # then `if cached is None: cached = await ...`): a cache, which would shadow the argument on a hit.
    tested = _tested_around(call, func, state)
    lookup = _lookup_before(call, func, target.value, state) if target and target.value in tested else None
    if target is not None and lookup is not None:
        return (
            "MR211",
            f"roots read behind `{target.value}`, looked up first as `{lookup[0]}` ({os.path.basename(state.path)}:{lookup[1]}) and filled "
            "here when empty: a path argument would be ignored whenever that lookup gives a value; remove the "
            "cache, or key it by the argument, by hand, then run again",
        )
    # Parameters (an existing path argument), globals and names an `if` around the read tests are not roots
    # states.
    not_roots = params | _declared_global(func, state) | tested
    if target is not None and _roots_none.none_still_on_failure(call, func, target.value, state):
        return None
    if target is not None and _compares_none(func, _derived_names(func, target.value) - not_roots):
        derived = _derived_names(func, target.value) - not_roots
        # under a handler that catches the shim's error too, a request without the argument does not fail
        failing = not _roots_none.failure_meets_none(call, func, target.value, state)
        if flow.none_on_failure(func, target.value) and not flow.tests_truth(func, derived) and failing:
            return (
                "MR105",
                f"when the call fails this code sets `{target.value} = None` and goes on without the client's "
                "roots; with a path argument a request that passes none would fail instead: decide which an "
                "absent argument should get",
            )
        return (
            "MR105",
            "this code treats 'client has no roots' (None) differently from 'empty list': decide what "
            "an absent path argument means here",
        )
    return None


def _tested_around(call: cst.Call, func: cst.FunctionDef, state: FileState) -> frozenset[str]:
    """The names the tests of the `if` statements holding `call` (inside `func`) mention."""
    names: set[str] = set()
    node = state.parent(call)
    while node is not None and node is not func:
        if isinstance(node, cst.If):
            names.update(n.value for n in _names_in(node.test))
        node = state.parent(node)
    return frozenset(names)


def _lookup_before(
    call: cst.Call, func: cst.FunctionDef, name: str, state: FileState
) -> tuple[str, int] | None:
    """`name = <a lookup>` before the read (anything but a constant): the spelling and line of the lookup."""
    found: list[tuple[str, int]] = []
    line = state.pos(call)[0]
    code = state.wrapper.module.code_for_node

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            targets = [t.target for t in node.targets]
            at = state.pos(node)[0]
            named = any(isinstance(t, cst.Name) and t.value == name for t in targets)
            if at < line and named and isinstance(node.value, (cst.Call, cst.Subscript, cst.Attribute)):
                found.append((code(node.value), at))

    read(func.body, Assigns())
    return found[-1] if found else None


def _calls_param(inner: cst.FunctionDef, outer: cst.FunctionDef) -> bool:
    """A decorator's wrapper calls the function it wraps: a parameter of the enclosing function."""
    params = {
        p.name.value
        for p in (*outer.params.posonly_params, *outer.params.params, *outer.params.kwonly_params)
    }
    called: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name):
                called.add(node.func.value)

    read(inner.body, Calls())
    return bool(called & params)


def _declared_global(func: cst.FunctionDef, state: FileState) -> frozenset[str]:
    """The names `func` declares global or nonlocal (once per function: every call in it asks)."""
    cache = state.extra.setdefault("declared_globals", {})
    if func in cache:
        return cast(frozenset[str], cache[func])
    if "has-declarations" not in state.extra:  # most files declare nothing: no walk per function then
        state.extra["has-declarations"] = any("global" in line or "nonlocal" in line for line in state.lines)
    if not state.extra["has-declarations"]:
        cache[func] = frozenset()
        return frozenset()
    names: set[str] = set()
    depth = 0

    class Declared(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            nonlocal depth
            depth += 1

        def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
            nonlocal depth
            depth -= 1

        def visit_Global(self, node: cst.Global) -> None:
            names.update(item.name.value for item in node.names)

        def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
            # A nested function's `nonlocal raw` is this function's own local `raw`: no flag of the process.
            if depth == 0:
                names.update(item.name.value for item in node.names)

    state.walk(func.body, Declared())
    cache[func] = found = frozenset(names)
    return found


def _declared_nonlocal(func: cst.FunctionDef | None) -> frozenset[str]:
    """The names `func` itself declares nonlocal (a closure's flag)."""
    if func is None or not isinstance(func.body, cst.IndentedBlock):
        return frozenset()
    return frozenset(
        item.name.value
        for line in func.body.body
        if isinstance(line, cst.SimpleStatementLine)
        for small in line.body
        if isinstance(small, cst.Nonlocal)
        for item in small.names
    )


def _attribute_flags(func: cst.FunctionDef, state: FileState) -> frozenset[str]:
    """`flow.attribute_flags`, once per function (every call in it asks)."""
    cache = state.extra.setdefault("attribute_flags", {})
    if func not in cache:
        cache[func] = flow.attribute_flags(func)
    return cast(frozenset[str], cache[func])


def _once_refusal(call: cst.Call, func: cst.FunctionDef, state: FileState) -> tuple[str, str] | None:
    """A read behind a flag its function sets on an object (`if app.roots_checked: return`, then
    `app.roots_checked = True`): it runs on the first call only, so a path argument would be ignored after."""
    flag = next(iter(flow.guarding_globals(call, state, _attribute_flags(func, state))), None)
    if flag is None:
        return None
    return "MR211", (
        f"roots read once, behind the flag `{flag}` that `{state.qualname(func)}` sets on that object: a path "
        "argument would be read on the first call and ignored afterwards; read it per call, then run again"
    )


def _returns_name(func: cst.FunctionDef, name: str) -> bool:
    found = False

    class Returns(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            nonlocal found
            if isinstance(node.value, cst.Name) and node.value.value == name:
                found = True

    read(func.body, Returns())
    return found


# Calls whose result still is (part of) the roots value they are given.
_PASS_THROUGH = frozenset({"list", "tuple", "set", "sorted", "reversed", "iter", "next", "getattr", "len"})


def _derived_names(func: cst.FunctionDef, seed: str) -> set[str]:
    names = {seed}

    class Assigns(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            value = node.value
            call = value if isinstance(value, cst.Call) else None
            if call is not None and isinstance(call.func, cst.Name) and call.func.value not in _PASS_THROUGH:
                return  # `path = _uri_to_path(roots[0].uri)`: its None is that function's answer
            used = {n.value for n in _names_in(value)}
            if used & names:
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        names.add(target.target.value)

    for _ in range(2):
        read(func.body, Assigns())
    return names


def _compares_none(func: cst.FunctionDef, names: set[str]) -> bool:
    hit = False

    class Compare(cst.CSTVisitor):
        def visit_Comparison(self, node: cst.Comparison) -> None:
            nonlocal hit
            if isinstance(node.left, cst.Name) and node.left.value in names:
                for target in node.comparisons:
                    if isinstance(target.operator, (cst.Is, cst.IsNot)) and _is_none(target.comparator):
                        hit = True

    read(func.body, Compare())
    return hit


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def _guarding_param(call: cst.Call, state: FileState) -> tuple[str, bool] | None:
    """An existing path parameter whose emptiness guards this site (`if not repo_path: ...roots...`, or an
    early `if repo_path: return repo_path` before it), and whether an empty string gets through too (any test
    but `is None`: the rewrite then passes `repo_path or None`, since the shim refuses '')."""
    func = state.function
    if func is None:
        return None
    params = {p.name.value for p in (*func.params.params, *func.params.kwonly_params)}
    candidates = params & set(state.settings.path_params)
    if not candidates:
        return None
    # Only a test of its emptiness (`if not repo_path:`, `repo_path is None`, `repo_path or ...`): a read under
    # `if not os.path.isabs(path):` runs while the parameter holds a relative path, which the shim would refuse
    # (session 15's sweep C, r01); the tool then gets an argument of its own.
    found = flow.guard_test(call, state, frozenset(candidates))
    return (found[0], not flow.none_test(found[1])) if found is not None else None


def _session_state(func: cst.FunctionDef, state: FileState) -> tuple[str, int] | None:
    """fastmcp's session state, read and written in the function (`await ctx.get_state("workspace")`, then
    `await ctx.set_state("workspace", path)`): kept across the session's requests (session 15's sweep C, r02)."""
    start, end = state.pos(func)[0], state.end_line(func)
    lines = state.lines[start - 1 : end]
    if not any(".get_state(" in line for line in lines):
        return None
    for offset, line in enumerate(lines):
        if ".set_state(" in line:
            return "the session's state (`set_state`)", start + offset
    return None


def record_guards(node: cst.CSTNode, position: Pos, caller: Func, state: FileState) -> None:
    """What lets the call or read at `position` run only sometimes (`Func.guards`, `.keyed`, `.once`): a
    parameter set, a key present, a once-per-process flag (a global, `nonlocal`, or an attribute)."""
    if caller.params and caller.value is None:
        found = flow.guard(node, state, frozenset(caller.params))
        if found is not None:
            caller.guards[position] = found
    if (
        state.phase == "index"  # a fact for the plan only
        and caller.value is None
        and state.function is not None
        and keyed.may_read_keys(state.function, state)
    ):
        key = keyed.key_guard(node, state, state.function)
        if key is not None:
            caller.keyed[position] = key
    flags: frozenset[str] = frozenset()
    if state.function is not None:  # globals, and `if app.roots_checked: return` on an object
        flags = _declared_global(state.function, state) | _attribute_flags(state.function, state)
    if flags and caller.value is None:
        flag = flow.guard(node, state, frozenset(flags)) or next(
            iter(flow.guarding_globals(node, state, frozenset(flags))), None
        )
        if flag is not None and state.function is not None and flag in _declared_nonlocal(state.function):
            # A closure's `nonlocal` flag: once per call of the function that holds the variable.
            outer = state.parent(state.function)
            while outer is not None and not isinstance(outer, cst.FunctionDef):
                outer = state.parent(outer)
            flag = f"{flag} nonlocal {state.qualname(outer)}" if outer is not None else flag
        if flag is not None:
            caller.once[position] = flag
