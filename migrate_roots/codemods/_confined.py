"""Roots that only name a folder inside the checked bound: the check is met, so no MR109.

    async def _seed() -> str:                       # the read's function: the value only passes through
        listed = await asyncio.wait_for(get_context().list_roots(), 5)
        roots = [_path(r) for r in listed]
        return "|".join(sorted(roots)) if roots else os.getcwd()

    async def _profile_dir(base: Path) -> Path:     # the roots end here, as a hashed and sanitized name
        seed = await _seed()
        digest = hashlib.sha256(seed.encode("utf-8")).hexdigest()[:12]
        label = re.sub(r"[^A-Za-z0-9_.-]+", "-", Path(seed).name or "session").strip(".-")
        return base / f"{label[:48] or 'session'}-{digest}"

    async def resolve(user_dir: str | None) -> Path:
        base = clone_root()
        if user_dir and _is_relative_to(Path(user_dir), base): ...   # the check MR109 found
        return await _profile_dir(base)

A new `root` argument takes the roots' place at the read, so it can only choose a name of letters, digits,
`_`, `.` and `-` (never `.` or `..`) directly below `base`, the very folder the caller's own path is checked
against: it cannot name a folder past that check (stealth-chrome-devtools-mcp). `shown` says so when all hold:
- the check is `x.relative_to(b)` / `x.is_relative_to(b)` (in place, in the function called, or in the helper
  a refusing `if` tests) and `b` names a folder itself (`parent`, `parent.resolve()`), handed down as a plain
  name bound once in the checking function (not by a comprehension around the check), or the same module
  global that the checking function does not shadow;
- the function it calls on the way returns only `<its parameter given that name, or the same global> /
  <component>`, where the component is an f-string or literal of such names with a character other than `.`,
  every use of the way's value there lies inside `hashlib.<h>(...).hexdigest()` or
  `re.sub(r"[^<safe characters>]+", "<safe>", ...)` (the class read as `re` reads it), and the name they give
  is used only on the way to that `return`;
- below it, down to the read, the value is only read by pure code (string and path methods, `sorted`,
  `urllib.parse`, `os.path`, the project's own functions that do the same) and leaves only by `return`: no
  write, no attribute or global store, no closure, no call the analysis does not know.
Anything else, or any doubt (a conditional redefinition, a position it cannot find), leaves the MR109 standing.
From the checking function up to the tools, the folder must be used as itself (`_confined_located`); the check
must refuse the outside, or only choose (`_confined_checks`).
The analysis reads the files again, once per process, and runs only where an MR109 would be reported.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import libcst as cst

from migrate_roots.codemods._confined_checks import (
    _check_bound,
    _comprehension_binds,
    refusing_helper,
    used_as_bound,
)
from migrate_roots.codemods._confined_flow import _Flow
from migrate_roots.codemods._confined_located import _Located
from migrate_roots.codemods._confined_names import _returned_bases
from migrate_roots.codemods._confined_tree import (
    _argument,
    _bindings,
    _call_at,
    _callee_name,
    _def,
    _File,
    _in_def,
    _params,
    _positional,
)

K = TypeVar("K")
Pos = tuple[int, int]

_DEPTH = 2  # project functions followed below a function on the way
_DEPTH_LOCATED = 6  # ... that the folder the roots named is handed to
_UP = 6  # callers followed above the checking function


class _Way:
    """The functions of one way from a read up to a checking function, read again from their files."""

    def __init__(self, by_key: Mapping[Any, tuple[str, Any]], calls: Mapping[Any, list[tuple[Any, Pos]]]):
        self.by_key, self.calls = by_key, calls
        self.deepest: str | None = None  # where, below a call, the folder was last not shown to stay itself

    def node(self, key: Any) -> tuple[_File, cst.FunctionDef] | None:
        if key not in self.by_key:
            return None
        return _def(*self.by_key[key])

    def callee(self, key: Any, pos: Pos) -> Any:
        found = [c for c, p in self.calls.get(key, ()) if p == pos]
        return found[0] if len(found) == 1 else None

    def hop(self, key: Any, depth: int, located: bool = False) -> Any:
        """Is a value handed to the project's function at this call only read there, and returned? With
        `located`: is the folder used there as itself (`_Located`)?"""

        def handed(call: cst.Call, arg: cst.CSTNode) -> bool | None:
            found = self.node(key)
            callee = self.callee(key, found[0].pos.get(call, (0, 0))) if found is not None else None
            if callee is None or callee not in self.by_key:
                return None  # not the project's: known to only read, or not followed
            there = self.node(callee)
            if depth >= (_DEPTH_LOCATED if located else _DEPTH) or there is None:
                return False
            if not isinstance(arg, cst.Arg) or arg.star:
                return False
            file, func = there
            if _decorated(func):
                return False
            names = [p.name.value for p in _params(func)]
            if arg.keyword is not None:
                param = arg.keyword.value
            else:
                index = [a for a in call.args if a.keyword is None].index(arg)
                positional = _positional(func)
                param = positional[index] if index < len(positional) else ""
            if param not in names:
                return False
            deeper = self.hop(callee, depth + 1, located)
            if not located:
                return _Flow(file, func, False, deeper).follow(_Flow(file, func, False, deeper).loads(param))
            flow = _Located(file, func, deeper)
            flow.places.add(param)
            if flow.follow(flow.loads(param)):
                return True
            if self.deepest is None:  # the innermost place first: where the folder is not shown to stay
                self.deepest = _where(file, flow.escape, self.by_key[callee][0])
            return False

        return handed

    def starts(self, key: Any, positions: Sequence[Pos], name: str) -> list[cst.CSTNode] | None:
        found = self.node(key)
        if found is None:
            return None
        nodes = [_call_at(found[0], p, name) for p in positions]
        if not nodes or any(n is None or not _in_def(found[0], n, found[1]) for n in nodes):
            return None
        return [n for n in nodes if n is not None]


def shown(
    trail: Sequence[tuple[K, list[Pos]]],
    where: K,
    via: Pos | None,
    check: tuple[str, Pos],
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
) -> tuple[bool, str]:
    """Do the roots read at the way's start reach `where` only as a name below the bound of its check (at
    `check`: file and position; in the function `where` calls at `via`, or in `where` itself)? See the module
    docstring; False at any doubt, with the place where the folder they name is used otherwise when that is
    the doubt."""
    try:
        return _shown(trail, where, via, check, by_key, calls, reach) if trail else (False, "")
    except (RecursionError, ValueError, IndexError, KeyError, TypeError):
        return False, ""  # a doubt: the marker stands


def _shown(
    trail: Sequence[tuple[K, list[Pos]]],
    where: K,
    via: Pos | None,
    check: tuple[str, Pos],
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
) -> tuple[bool, str]:
    way = _Way(by_key, calls)
    confining = trail[-1][0]
    # `where` gets the roots only from `confining`, at every call it makes to it.
    if any(c in reach and c != confining for c, _ in calls.get(where, ())):
        return False, ""
    into = [p for c, p in calls.get(where, ()) if c == confining]
    w, f = way.node(where), way.node(confining)
    if w is None or f is None or not into:
        return False, ""
    bound = _bound_in_caller(way, where, w, via, check)
    if not bound:
        return False, ""
    w_counts = _bindings(w[1])
    if any(w_counts.get(name, 0) > 1 for name in bound):
        return False, ""
    bases = _returned_bases(*f)
    if not bases:
        return False, ""
    f_counts = _bindings(f[1])
    f_params = {p.name.value for p in _params(f[1], drop_self=False)}
    same_file = by_key[where][0] == by_key[confining][0]
    for base in bases:
        if base in f_params and f_counts.get(base) == 1:
            for pos in into:
                call = _call_at(w[0], pos, f[1].name.value)
                given = _argument(call, f[1], base) if call is not None else None
                if not (isinstance(given, cst.Name) and given.value in bound):
                    return False, ""
                if call is None or _comprehension_binds(w[0], call, w[1], given.value):
                    return False, ""  # `[await _dir(base) for base in MIRRORS]`: another `base`
        elif not (base not in f_counts and same_file and base in bound and base not in w_counts):
            return False, ""
    # Each function below `where` gets the roots only from the next one down, and reads them purely; the last
    # one turns them into a name (`_Flow` with `sanitize`).
    for i, (key, positions) in enumerate(trail):
        if i:
            below = trail[i - 1][0]
            if any(c in reach and c != below for c, _ in calls.get(key, ())):
                return False, ""
            positions = [p for c, p in calls.get(key, ()) if c == below]
            name = by_key[below][1].qualname.rpartition(".")[2]
        else:
            name = "list_roots"
        found, starts = way.node(key), way.starts(key, positions, name)
        if found is None or starts is None or _decorated(found[1]):
            return False, ""
        flow = _Flow(found[0], found[1], key == confining, way.hop(key, 0))
        if not flow.follow(list(starts)):
            return False, ""
    # From the checking function up: the folder is used as itself, never taken apart for another folder.
    note = _stays(way, where, into, f[1].name.value, set())
    return note is None, note or ""


def _stays(
    way: _Way, key: Any, positions: Sequence[Pos], name: str, seen: set[Any], depth: int = 0
) -> str | None:
    """None when the folder that the calls at `positions` in `key` give is used as itself there, and in every
    caller it is returned to (`_confined_located`); else where it is not, in words."""
    found, starts = way.node(key), way.starts(key, positions, name)
    if found is None or starts is None or depth > _UP:
        return "on its way up (not followed)"
    flow = _Located(found[0], found[1], way.hop(key, 0, located=True))
    way.deepest = None
    if not flow.follow(list(starts)):
        here = _where(found[0], flow.escape, way.by_key[key][0])
        return f"{way.deepest}, reached through {here}" if way.deepest else here
    if not flow.returned or key in seen:
        return None
    seen.add(key)
    mine = found[1].name.value
    callers: dict[Any, list[Pos]] = {}
    for caller, callees in way.calls.items():
        for callee, pos in callees:
            if callee == key:
                callers.setdefault(caller, []).append(pos)
    for caller, at in sorted(callers.items(), key=repr):
        note = _stays(way, caller, at, mine, seen, depth + 1)
        if note is not None:
            return note
    return None


def _where(file: _File, node: cst.CSTNode | None, path: str) -> str:
    """`shutil.rmtree(DOWNLOADS / d.name)` (server.py:41): the statement where the folder is not shown to stay
    itself (taken apart, kept, or handed to code that does not, or is not known to)."""
    while node is not None and not isinstance(node, (cst.BaseSmallStatement, cst.BaseCompoundStatement)):
        node = file.parents.get(node)
    if node is None:
        return "a use not followed"
    code = " ".join(cst.Module([]).code_for_node(node).split())
    code = code if len(code) <= 60 else code[:57] + "..."
    line = file.pos.get(node, (0, 0))[0]
    return f"`{code}` ({os.path.basename(path)}:{line})"


def _bound_in_caller(
    way: _Way, where: Any, w: tuple[_File, cst.FunctionDef], via: Pos | None, check: tuple[str, Pos]
) -> set[str] | None:
    """The names of `where` that the check tests against: in place, or in the function it calls at `via`."""
    if via is None:
        return _bound_of(way, where, w, check[1])
    callee = way.callee(where, via)
    there = way.node(callee) if callee is not None else None
    if there is None or way.by_key[callee][0] != check[0]:
        return None
    names = _bound_of(way, callee, there, check[1])
    if names is None:
        # A helper that answers whether the path is inside: how `where` uses the answer decides.
        calls = [n for n in w[0].at.get(via, []) if isinstance(n, cst.Call)]
        used = len(calls) == 1 and used_as_bound(w[0], calls[0], w[1])
        names = _check_bound(there[0], there[1], None) if used else None
    return _mapped(way, where, w, via, callee, there, names)


def _bound_of(
    way: _Way, key: Any, at_key: tuple[_File, cst.FunctionDef], at: Pos | None, depth: int = 0
) -> set[str] | None:
    """The names of `key` the check at `at` (None: its one check) tests against, there or in the helper its
    refusal's `if` tests (`if not _is_relative_to(target, clone_root): raise`)."""
    direct = _check_bound(at_key[0], at_key[1], at)
    if direct is not None or at is None or depth >= _DEPTH:
        return direct
    helper = refusing_helper(at_key[0], at_key[1], at)
    via = at_key[0].pos.get(helper) if helper is not None else None
    callee = way.callee(key, via) if via is not None else None
    there = way.node(callee) if callee is not None else None
    if via is None or there is None:
        return None
    return _mapped(way, key, at_key, via, callee, there, _bound_of(way, callee, there, None, depth + 1))


def _mapped(
    way: _Way,
    caller: Any,
    at_caller: tuple[_File, cst.FunctionDef],
    via: Pos,
    callee: Any,
    there: tuple[_File, cst.FunctionDef],
    names: set[str] | None,
) -> set[str] | None:
    """`names` of `callee` as the caller's names: what its call at `via` hands those parameters (plain names),
    or the same module global."""
    call = [
        n
        for n in at_caller[0].at.get(via, [])
        if isinstance(n, cst.Call) and _callee_name(n.func) == there[1].name.value
    ]
    if not names or len(call) != 1:
        return None
    counts = _bindings(there[1])
    params = {p.name.value for p in _params(there[1], drop_self=False)}
    bound: set[str] = set()
    for name in names:
        if name in params and counts.get(name) == 1:
            given = _argument(call[0], there[1], name)
            if not isinstance(given, cst.Name):
                return None
            bound.add(given.value)
        elif (
            name not in counts
            and name not in _bindings(at_caller[1])
            and way.by_key[callee][0] == way.by_key[caller][0]
        ):
            bound.add(name)  # a module global of both (the caller's own `profiles_dir` would be another)
        else:
            return None
    return bound


def _decorated(func: cst.FunctionDef) -> bool:
    """A decorator other than `staticmethod` / `classmethod` runs on the value, out of this analysis's sight
    (`@_remember` keeping every argument in a module list)."""
    return any(
        not (isinstance(d.decorator, cst.Name) and d.decorator.value in ("staticmethod", "classmethod"))
        for d in func.decorators
    )
