"""The plan's half of the roots-bound analysis (`_bounds.py` records the facts per function): which roots reads
bound what a tool may touch, followed from the read up the way to the tools and into the helpers they hand the
values to. `refuse` is what the roots-call plan asks (MR109, and MR110's sign).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from migrate_roots.codemods._bounds import RECEIVER, BoundFacts, Pos, taint
from migrate_roots.codemods._bounds_choice import SUPER
from migrate_roots.codemods._bounds_choice import UNKNOWN as CHOSEN
from migrate_roots.codemods._bounds_classes import Classes, Step
from migrate_roots.codemods._bounds_module import _kept_bound
from migrate_roots.codemods.program.typed import RETURNED

# The "sign" of roots handed to a first-party function of a module the run did not parse (past the modules the
# engine follows, `engine.ONWARD_DEPTH`): whether it bounds anything is unknown, so the read is marked, not
# rewritten (sweep I, r11). `_unread` says which; `refuse` words it.
UNREAD = "handed to code migrate-roots did not read"
# ... to a value chosen at run time that migrate-roots cannot tell (`factory(root)`, `_bounds_choice.UNKNOWN`):
# a bound when a class of the project holds one, since the value may be that class (`refuse` decides).
UNKNOWN = "handed to a value migrate-roots cannot tell"
_MAYBE = (UNREAD, UNKNOWN)
# A method that, by its name, sets where an object works (its bound, when the class checks paths against it).
_CONFIGURES = re.compile(
    r"root|base|sandbox|allow|permit|workspace|project|dir|folder|path|scope|confine|jail"
)
_CHECKING = re.compile(r"valid|check|ensure|inside|within|allow|confine|guard|safe|permit|contain")
# The classes of the project, when the plan gives none.
_NO_CLASSES = Classes()


class Found(NamedTuple):
    """A sign and the function holding it; `note`, what the marker adds about an override around it."""

    sign: str
    where: str
    note: str = ""


def _unread(fq: str, parsed: frozenset[str]) -> bool:
    """`fq` is of the project (its top package is one the run parsed) and no module it could be in was parsed."""
    parts = fq.split(".")
    if parts[-1][:1].isupper():
        # A class: one whose methods check a bound has them summarized, so its module is among `parsed`; a
        # module read for nothing has no summary (codereviewbuddy's `models.ReviewerState`, a plain model).
        return False
    prefixes = {".".join(parts[:n]) for n in range(1, len(parts))}
    return bool(parsed) and parts[0] in {m.partition(".")[0] for m in parsed} and not prefixes & parsed


def _signs(
    facts: BoundFacts, by_fq: Mapping[str, tuple[str, Any]], calls: Mapping[Pos, list[str]]
) -> list[tuple[str, frozenset[str]]]:
    """A function's signs with the names each checks against. A refusal under a test of a helper the plan can
    see checks only what the other tests mention: whether the helper's arguments are a bound is its own signs'
    to say (`_bound_parameter_sign`), so `_is_relative_to(target, clone_root)` bounds nothing by `target`."""
    out = list(facts.signs)
    for index, position, outer in facts.deferred:
        if any(
            callee in by_fq and by_fq[callee][1].bound_sign is not None for callee in calls.get(position, ())
        ):
            out[index] = (out[index][0], outer)
    return out


def _sign_for(
    fq: str,
    positions: list[Pos],
    by_fq: Mapping[str, tuple[str, Any]],
    every: Mapping[str, Mapping[Pos, list[str]]],
    parsed: frozenset[str] = frozenset(),
    classes: Classes = _NO_CLASSES,
) -> str | None:
    """A sign in `fq` (or in a function it hands the values to) that checks what the calls at `positions` return;
    else `UNREAD ...` when the values go to a function of the project the run did not read."""
    calls = every.get(fq, {})
    here: BoundFacts | None = by_fq[fq][1].bound_sign
    positions = [p for p in positions if not _defaulted(fq, p, by_fq, calls)]
    if here is None or not positions:
        return None
    results = dict(here.results)
    seeds = frozenset().union(*(results.get(p, frozenset()) for p in positions))
    tainted = taint(here, seeds)
    where = _short(fq)
    for sign, names in _signs(here, by_fq, calls):
        if names & tainted:
            return f"{sign} in `{where}`"
    # Calls that receive the values as the bound of their own check: through a name, or the call itself as
    # an argument (`check(path, await allowed(ctx))`).
    fed = {outer: inner for inner, outer in here.feeds if inner in positions}
    unread = None
    # Every call, two at one position too (`BOXES.get(area)(<roots>)`: the lookup's arguments, then the call's)
    for position, arguments in sorted(here.args):
        hit = [key for key, names in arguments if names & tainted]
        if position in fed:
            hit += [key for key, _ in arguments]  # which argument holds the call is not recorded: any
        for callee in calls.get(position, ()) if hit else ():
            found = _bound_parameter_sign(callee, hit, by_fq, every, parsed=parsed, classes=classes)
            if found is not None and found[0] in _MAYBE:
                unread = unread or f"{found[0]}: `{found[1]}`"
            elif found is not None:
                return f"{found[0]} in `{_short(found[1])}`{found.note}"
    return unread


def _short(fq: str) -> str:
    """A function's name for a marker: `GuardedPath.__init__` for a class's special method."""
    parts = fq.split(".")
    return ".".join(parts[-2:]) if parts[-1].startswith("__") and len(parts) > 1 else parts[-1]


def _defaulted(
    fq: str, position: Pos, by_fq: Mapping[str, tuple[str, Any]], calls: Mapping[Pos, list[str]]
) -> bool:
    """The tool `fq` hands its own argument, at `position`, to a helper that reads roots only when that argument
    is unset (`_resolve_directory(directory, ctx)`: `if directory is None: return await from_roots(ctx)`). What
    comes back is the caller's choice whenever the caller makes one, so a check against it bounds nothing the
    caller could not already choose: no roots bound (the existing argument is then the explicit value)."""
    func = by_fq[fq][1]
    if func.tool is None:
        return False
    handed = [(key, name) for key, name in func.bound.get(position, ()) if name in func.params]
    for callee in calls.get(position, ()):
        target = by_fq[callee][1] if callee in by_fq else None
        if target is None or not target.guards:
            continue
        params = [p for p in target.params if p not in ("self", "cls")]
        for key, _ in handed:
            index = int(key[1:]) if key.startswith("#") else None
            param = key if index is None else (params[index] if index < len(params) else None)
            if param is not None and param in target.guards.values():
                return True
    return False


def _bound_parameter_sign(
    fq: str,
    keys: list[str],
    by_fq: Mapping[str, tuple[str, Any]],
    calls: Mapping[str, Mapping[Pos, list[str]]],
    depth: int = 0,
    parsed: frozenset[str] = frozenset(),
    classes: Classes = _NO_CLASSES,
) -> Found | None:
    """(the sign, the function holding it) whose bound side one of the parameters of `fq` named by `keys`
    flows into: in `fq` itself, or in a function it hands them on to (`upload(..., roots=roots)` then
    `resolve(path, roots)`: a few calls deep); (UNREAD, fq) for a function of the project not read."""
    if fq.startswith(CHOSEN):
        return Found(UNKNOWN, fq[len(CHOSEN) :])  # `BOXES[kind](<roots>)` of a collection it cannot read
    if RECEIVER in keys and depth < 3:
        # Roots the object a method is called on holds (`box = Sandbox(); box.set_root(<roots>)`, or `box.root =
        # <roots>` then `box.read(name)`): its class's bound, as when handed to the constructor (sweep I r02).
        held = _held_bound(fq.rpartition(".")[0], by_fq, calls, depth, parsed, classes)
        if held is not None:
            return held
    mine = by_fq[fq][1].bound_sign if fq in by_fq else None
    method = fq.rpartition(".")[2]
    if (
        "." in fq
        and fq.rpartition(".")[0] not in by_fq
        and depth < 3
        and not (mine and mine.signs)
        and _CONFIGURES.search(method)
    ):
        # ... and roots handed to a method of such a class that checks nothing itself and, by its name, sets
        # where it works (`box.set_root(<roots>)`, `set_project_path`, `update_from_client_roots`): which
        # attribute they fill is not followed, as for the constructor; `registry.adopt(repo)` is no bound (clew)
        held = _held_bound(fq.rpartition(".")[0], by_fq, calls, depth, parsed, classes)
        if held is not None:
            return held
    func = by_fq[fq][1] if fq in by_fq else None
    theirs: BoundFacts | None = func.bound_sign if func is not None else None
    if func is None:
        held = _held_bound(fq, by_fq, calls, depth, parsed, classes)
        held = held or _constructor_bound(fq, keys, by_fq, calls, depth, parsed, classes)
        # Four calls from the read: a module past those the engine follows, when the run did not read it (a
        # nearer one unread holds nothing the plan needs: the engine left it out of the group).
        far = depth >= 3 and _unread(fq, parsed)
        return held if held is not None or not far else Found(UNREAD, fq)
    if theirs is None:
        return None
    params = list(func.params)
    if params and params[0] in ("self", "cls"):
        params = params[1:]
    names = {params[int(k[1:])] if int(k[1:]) < len(params) else None for k in keys if k.startswith("#")}
    names |= {k for k in keys if not k.startswith("#") and k in params}
    tainted = taint(theirs, frozenset(n for n in names if n is not None))
    return _tainted_sign(fq, theirs, tainted, by_fq, calls, depth, parsed, classes)


def _tainted_sign(
    fq: str,
    theirs: BoundFacts,
    tainted: set[str],
    by_fq: Mapping[str, tuple[str, Any]],
    calls: Mapping[str, Mapping[Pos, list[str]]],
    depth: int,
    parsed: frozenset[str],
    classes: Classes,
) -> Found | None:
    """`_bound_parameter_sign` past the parameters: a sign of `fq` whose bound side the `tainted` names reach,
    or one of a function it hands them on to."""
    if not tainted:
        return None
    for sign, bound in _signs(theirs, by_fq, calls.get(fq, {})):
        if bound & tainted:
            return Found(sign, fq)
    if depth >= 3:
        return None
    unread = None
    for position, arguments in sorted(theirs.args):
        hit = [key for key, mentioned in arguments if mentioned & tainted]
        for callee in calls.get(fq, {}).get(position, ()) if hit else ():
            found = _bound_parameter_sign(callee, hit, by_fq, calls, depth + 1, parsed, classes)
            if found is not None and found[0] not in _MAYBE:
                return found
            unread = unread or found
    return unread


def _constructor_bound(
    cls: str,
    keys: list[str],
    by_fq: Mapping[str, tuple[str, Any]],
    calls: Mapping[str, Mapping[Pos, list[str]]],
    depth: int,
    parsed: frozenset[str],
    classes: Classes,
) -> Found | None:
    """Roots handed to the parameter of a constructor that its own check takes as the bound
    (`GuardedPath(<roots>, rel)`: `__init__(self, base, rel)` refuses `(base / rel)` outside `base`): `Cls(...)`
    is its `__init__` with `self` dropped, as a function's parameters are (sweep P r05 of session 22). A
    dataclass's fields are its `__init__`'s parameters, and its `__post_init__` reads them as `self.<field>`
    (by the field's name: a local of that name counts too, which keeps a bound rather than losing one)."""
    init = classes.constructor(cls) if depth < 3 else None
    if init is None:
        return None
    if init.method is not None:
        if init.method not in by_fq:
            return None
        return _bound_parameter_sign(init.method, keys, by_fq, calls, depth + 1, parsed, classes)
    method = init.post_init
    post = by_fq[method][1] if method is not None and method in by_fq else None
    theirs: BoundFacts | None = post.bound_sign if post is not None else None
    if method is None or post is None or theirs is None:
        return None
    fields = list(init.fields)
    names = {fields[int(k[1:])] for k in keys if k.startswith("#") and int(k[1:]) < len(fields)}
    names |= {k for k in keys if k in fields}
    # An `InitVar` is no attribute: `__post_init__` takes it as its own parameter, in their order.
    given = [p for p in post.params if p not in ("self", "cls")]
    names |= {given[i] for i, v in enumerate(init.init_vars) if v in names and i < len(given)}
    tainted = taint(theirs, frozenset(names))
    return _tainted_sign(method, theirs, tainted, by_fq, calls, depth + 1, parsed, classes)


def _held_bound(
    cls: str,
    by_fq: Mapping[str, tuple[str, Any]],
    calls: Mapping[str, Mapping[Pos, list[str]]] | None = None,
    depth: int = 0,
    parsed: frozenset[str] = frozenset(),
    classes: Classes = _NO_CLASSES,
) -> Found | None:
    """Roots handed to the constructor of a class of the project (`Box(Path(roots[0].uri.path))`) bound paths
    when a method of the class checks a path it is given against one of its own attributes
    (`inside(self, name)`: `target.is_relative_to(self.root)` and a refusal): the object holds the bound. A
    method that checks the files it walks itself (`path.relative_to(self._base)` over its own listing) bounds
    no caller. Which attribute the roots fill is not followed: any counts,
    since marking a read that bounds nothing costs a review and rewriting one that does widens the bound.
    A method the class inherits from a base of the project counts unless one before it in the MRO replaces it
    (`_bounds_classes`: sweep H r02 and I r03 of session 21, N r01-r03 and r08 of session 22)."""
    lineage = classes.lineage(cls) if depth < 3 else classes.lineage(cls)[:1]
    steps = {step.cls: step for step in lineage}
    for step in lineage:
        found = _own_bound(step, steps, by_fq, calls, depth, parsed, classes)
        if found is not None:
            return found
    return None


def _own_bound(
    step: Step,
    steps: Mapping[str, Step],
    by_fq: Mapping[str, tuple[str, Any]],
    calls: Mapping[str, Mapping[Pos, list[str]]] | None,
    depth: int,
    parsed: frozenset[str],
    classes: Classes,
) -> Found | None:
    """`_held_bound` by the methods `step`'s class defines itself (those a class before it replaces left out)."""
    prefix = f"{step.cls}."
    # The methods named as checks first (`validate_path`, `ensure_inside`): the sign the marker names is then the
    # class's refusal, not a cache lookup of another method (netcoredbg-mcp's `_get_worktree_paths`)
    for fq in sorted(by_fq, key=lambda f: (not _CHECKING.search(f.rpartition(".")[2]), f)):
        theirs: BoundFacts | None = by_fq[fq][1].bound_sign if fq.startswith(prefix) else None
        method = fq[len(prefix) :]
        if theirs is None or "." in method or method in step.replaced:
            continue
        own = taint(theirs, frozenset({"self"}))  # `for r in self.roots: ... r in p.parents`
        # ... checking a path the method is given: `inside(self, name)`, not the files it walks itself
        given = taint(theirs, frozenset(p for p in by_fq[fq][1].params if p not in ("self", "cls")))
        checked = {sign for sign, names, _ in theirs.checks if names & given}
        for sign, names in theirs.signs:
            if names & own and sign in checked:
                return _caught(Found(sign, fq), step, method)
        # ... or hands its own attribute, beside the path it is given, to a function whose check takes it as the
        # bound (`_ensure_inside(self._root, target)`; sweep H r01 of session 21)
        mine = calls.get(fq, {}) if calls is not None and depth < 3 else {}
        for position, arguments in sorted(theirs.args) if mine else ():
            hit = [key for key, mentioned in arguments if mentioned & own and "self" in mentioned]
            if not hit or not any(mentioned & given for _, mentioned in arguments):
                continue
            for callee in mine.get(position, ()):
                assert calls is not None
                owner, _, name = callee.rpartition(".")
                if owner in steps and name in steps[owner].replaced:
                    continue  # `self.check(...)` runs the derived class's override
                found = _bound_parameter_sign(callee, hit, by_fq, calls, depth + 1, parsed, classes)
                if found is not None and found[0] not in _MAYBE:
                    inner = _caught(found, steps[owner], name) if owner in steps else found
                    return _caught(inner, step, method)
    return None


def _caught(found: Found, step: Step, method: str) -> Found:
    """`found`, saying which override calls the checking method inside a `try` that catches its refusal."""
    by = step.caught.get(method)
    if by is None or found.note:
        return found
    note = (
        f", unless `{by}`, which calls it in a `try` that catches its refusal, lets the path through: what it "
        "does then is not read, so the bound is kept"
    )
    return Found(found.sign, found.where, note)


def _resolved(
    callee: str,
    by_fq: Mapping[str, tuple[str, Any]],
    resolve: Callable[[str], str | None],
    classes: Classes,
) -> str:
    """The function a call stands for. A method a class inherits (`Unconfined().read`, `Sandbox.read`) stays
    the derived class's when a class of its MRO replaces a method of the classes after it: the base's body
    calls the override (`self.check`), so the class's bound is `_held_bound` of the derived class."""
    written = callee.replace(RETURNED, ".")
    # Only a class with bases of the project can have one replaced: most calls are of functions, and reading a
    # class's file in each of a run's plans cost benchmark 3 a seventh of a scan.
    cls = written.rpartition(".")[0]
    if cls in classes.bases and classes.replaces(cls):
        return written
    return resolve(callee) or written


def refuse(
    by_fq: Mapping[str, tuple[str, Any]],
    allowlist_env: str,
    resolve: Callable[[str], str | None] = lambda fq: None,
    parsed: frozenset[str] = frozenset(),
    classes: Classes = _NO_CLASSES,
) -> dict[tuple[str, Pos], tuple[tuple[str, str], str]]:
    """The sites to refuse (MR109) because their roots bound paths (see the module docstring): a sign checking
    the read's result in the function holding it, or the result of a call into the way in a function on the way
    up. `by_fq`: fully qualified name -> (path, _roots_model.Func); returns (function, site position) ->
    (refusal, the sign with its place), writing nothing (the plan is a pure function of the summaries). The plan
    hands the sign to the operator's-bound rewrite (MR110) where the site allows it. Run before the plan
    computes its reach. `resolve`: the function a dotted name not in `by_fq` stands for (a package's
    re-export: `pkg.safety.ensure_within` is `pkg.safety.guard.ensure_within`). `parsed`: the modules the run
    read; roots handed to a project function outside them are marked with the sign "" (no MR110)."""
    out: dict[tuple[str, Pos], tuple[tuple[str, str], str]] = {}
    callers: dict[str, set[str]] = {}
    calls_of: dict[str, dict[Pos, list[str]]] = {}
    for caller in by_fq:
        for callee, position in by_fq[caller][1].calls:
            # `Roots().fetch` (a method of what a constructor returns, program/typed.py) is `Roots.fetch`.
            callee = callee if callee in by_fq else _resolved(callee, by_fq, resolve, classes)
            callers.setdefault(callee, set()).add(caller)
            calls_of.setdefault(caller, {}).setdefault(position, []).append(callee)
        # `BOXES[area](<roots>)`: a call of each class the value may be (sweep P r01 of session 22)
        for position, options in by_fq[caller][1].chosen.items():
            for option in options:
                known = option in by_fq or option.startswith(CHOSEN)
                callee = option if known else _resolved(option, by_fq, resolve, classes)
                if option.startswith(SUPER):
                    callee = _above(option[len(SUPER) :], classes)
                callers.setdefault(callee, set()).add(caller)
                calls_of.setdefault(caller, {}).setdefault(position, []).append(callee)
    bounding = _Bounding(by_fq, calls_of, parsed, classes)
    for fq in sorted(by_fq):
        func = by_fq[fq][1]
        # A bound outranks the None-versus-empty question (MR105): a path argument must not widen it.
        open_sites = [s for s in func.sites if (s.refusal is None or s.refusal[0] == "MR105") and not s.done]
        if not open_sites:
            continue
        sign = _sign_for(fq, [s.pos for s in open_sites], by_fq, calls_of, parsed, classes)
        unread = sign if sign is not None and sign.startswith(_MAYBE) else None
        sign = None if unread else sign
        way, todo = {fq}, [fq]
        while todo and sign is None:
            current = todo.pop()
            for caller in sorted(callers.get(current, ())):
                if caller in way:
                    continue
                way.add(caller)
                todo.append(caller)
                mine = calls_of.get(caller, {})
                positions = [p for p, callees in mine.items() if current in callees]
                found = _sign_for(caller, positions, by_fq, calls_of, parsed, classes)
                if found is not None and found.startswith(_MAYBE):
                    unread = unread or found
                else:
                    sign = sign or found
        sign = sign or _kept_bound(fq, [s.pos for s in open_sites], by_fq)
        if sign is None and unread is not None and unread.startswith(UNKNOWN):
            held = bounding.first()
            if held is not None:
                why = (
                    f"roots are handed to `{unread.partition('`')[2].rstrip('`')}`, a value migrate-roots cannot "
                    f"tell, and `{held[0]}` of this project holds a bound ({held[1]}): if the value may be such a "
                    "class, an explicit argument would let the caller choose its own bound. Check what it can be, "
                    f"keep any bound with the operator ({allowlist_env}), and migrate this by hand"
                )
                for site in open_sites:
                    out[(fq, site.pos)] = (("MR109", why), "")
            continue
        if sign is None and unread is not None:
            module, _, name = unread.partition("`")[2].rstrip("`").rpartition(".")
            why = (
                f"roots are handed to `{name}` of `{module}`, a module this run did not read: if it checks "
                "paths against them, an explicit argument would let "
                "the caller choose its own bound. Check it, keep any bound with the operator "
                f"({allowlist_env}), and migrate this by hand"
            )
            for site in open_sites:
                out[(fq, site.pos)] = (("MR109", why), "")
            continue
        if sign is None:
            continue
        reason = (
            f"roots bound what this tool may touch ({sign}): an explicit argument would let "
            f"the caller choose its own bound. Keep the bound with the operator ({allowlist_env}, "
            "which the compatibility module enforces, or the old fallback such as the working directory) "
            "and migrate this by hand"
        )
        for site in open_sites:
            out[(fq, site.pos)] = (("MR109", reason), sign)
    return out


class _Bounding:
    """The first class of the project that holds a bound (`_held_bound`, or its constructor's check of a parameter
    it is built with), found once per plan: a value the plan cannot tell may be it."""

    def __init__(
        self,
        by_fq: Mapping[str, tuple[str, Any]],
        calls: Mapping[str, Mapping[Pos, list[str]]],
        parsed: frozenset[str],
        classes: Classes,
    ) -> None:
        self.args = (by_fq, calls, parsed, classes)
        self.found: tuple[tuple[str, str] | None] | None = None

    def first(self) -> tuple[str, str] | None:
        """(the class's name, its sign with its place)."""
        if self.found is None:
            self.found = (self._first(),)
        return self.found[0]

    def _first(self) -> tuple[str, str] | None:
        by_fq, calls, parsed, classes = self.args
        owners = sorted({fq.rpartition(".")[0] for fq, (_, f) in by_fq.items() if f.bound_sign is not None})
        every = [f"#{i}" for i in range(8)]
        first = None
        for owner in owners:
            if not classes.is_class(owner):
                continue
            found = _held_bound(owner, by_fq, calls, 0, parsed, classes)
            found = found or _constructor_bound(owner, every, by_fq, calls, 0, parsed, classes)
            if found is None or found.sign in _MAYBE:
                continue
            said = owner.rpartition(".")[2], f"{found.sign} in `{_short(found.where)}`"
            if found.where.startswith(f"{owner}."):
                return said  # the class whose own method checks, before those inheriting it
            first = first or said
        return first


def _above(method: str, classes: Classes) -> str:
    """`pkg.mod.Docs.__init__` called as `super().__init__` in `Docs`: the next class of its MRO that defines it."""
    cls, _, name = method.rpartition(".")
    for step in classes.lineage(cls)[1:]:
        if classes.defines(step.cls, name):
            return f"{step.cls}.{name}"
    return method
