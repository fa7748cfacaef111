"""Roots used as a bound: what a tool may read or write is confined to the client's roots.

    roots = await ctx.list_roots()
    if not any(target.is_relative_to(Path(r.uri.path)) for r in roots):
        raise ToolError("Path is outside allowed MCP roots")

Replacing the roots by an explicit argument would let the caller that picks the path also pick its bound:
`{"output_path": "/elsewhere/x", "root": ["/"]}` was refused and would be written. The bound belongs to the
operator (the shim's allow-list variable, or the old fallback such as the working directory), and whether the
argument lies inside it cannot be written with certainty for every shape of such code, so these sites are
marked (MR109) rather than rewritten.

`facts(func)` records the signs of a bound in a function body, each with the names it checks:
- `x.is_relative_to(...)`; `x.relative_to(...)` inside a `try` that catches its ValueError (the "outside" answer);
- `os.path.commonpath(...)` / `commonprefix(...)`;
- `a.startswith(b)` where either side is a resolved path (`resolve()`, `realpath`, `abspath`, `normpath`,
  `absolute()`);
- `root in candidate.parents`;
- a path checked against a collection at once: `map(target.is_relative_to, bases)` (or `filter`, or a resolved
  `startswith`), `allowed.isdisjoint(target.parents)` (`intersection`, `&`): the collection is the bound;
- a resolved path looked up in a collection under an `if` (`if abspath(p) not in allowed:`), the collection
  being the bound; `fnmatch(abspath(p), root + "/*")` under an `if`; `relpath(real, base).startswith("..")`
  (the bound is `base`); `uri.startswith(str(root.uri))`;
- `target.parts[:len(base.parts)] != base.parts`, `relpath(t, base).split(os.sep)[0] == os.pardir`, and a
  `while` walk up a path's parents looked up in a collection, each where it refuses (`_bounds_spellings`);
- a `raise`, or a `return` under an `if`, whose message says the path is outside / not within / not inside /
  not under / escapes (the names the `if` checks against are its bound side; when it tests a helper the plan
  can see, `if not _is_relative_to(target, root)`, the helper's own signs say which argument is the bound).
A sign counts only where the roots flow into it: in the function holding the read, a check that mentions a name
derived from the read's result (assignments, unpacking, loops, comprehensions), or a call handing such a name to
a function with a sign (`_path_within_roots(path, roots)`); in a function on the way up to the tool, the same
for the names derived from the result of its call into the way (`roots, error = await _allowed_roots(ctx)`).
Only the bound side counts: the argument of `is_relative_to` / `relative_to` / `startswith`, any part of
`commonpath`, what the test in front of the raise compares against; a helper counts when the roots reach the
parameter that feeds its own check's bound side. A roots list hashed into a folder name that is then checked
against another directory bounds nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import libcst as cst

from migrate_roots.codemods import _bounds_spellings as spell
from migrate_roots.codemods import _bounds_walks as walks
from migrate_roots.codemods._bounds_checks import (
    _catches_value_error,
    _code_of,
    _helper_test,
    _node_ids,
    _pathish,
    _says_outside,
    _targets,
    collection_check,
)
from migrate_roots.codemods._bounds_reads import (
    Walk,
    _bound_side,
    _names_and_calls,
    _names_in,
    _resolved_names,
    _resolves,
    _strings,
    _subject,
    _visit,
    _walker,
)
from migrate_roots.codemods._bounds_spellings import _callee, _raises_at_end, _relpath_of
from migrate_roots.codemods._read import read

Pos = tuple[int, int]

# The key of a method call's object among a call's arguments (`BoundFacts.args`).
RECEIVER = "@self"


@dataclass(frozen=True)
class BoundFacts:
    """What the plan needs of one function (picklable)."""

    signs: tuple[tuple[str, frozenset[str]], ...]  # (sign in words, names the check mentions)
    flows: tuple[tuple[frozenset[str], frozenset[str]], ...]  # (names bound, names their value mentions)
    results: tuple[tuple[Pos, frozenset[str]], ...]  # call position -> names its result is bound to
    # call position -> per argument: (parameter it binds: keyword, or "#<index>" when positional; its names)
    args: tuple[tuple[Pos, tuple[tuple[str, frozenset[str]], ...]], ...]
    feeds: tuple[tuple[Pos, Pos], ...] = ()  # (a call, the call whose arguments hold it: `f(await g())`)
    # The same signs by the side they check (`wp` of `str(wp).startswith(prefix)`), each with its position:
    # a tool that checks its own path argument (codemods/_checked_params.py).
    checks: tuple[tuple[str, frozenset[str], Pos], ...] = ()
    # A refusal whose `if` tests a helper (`if not _is_relative_to(target, clone_root): raise`): (its index in
    # `signs`, the helper call's position, the names the enclosing tests mention besides). Which argument is
    # the bound is the helper's to say, when the plan can see it (`_signs`); else every argument counts.
    deferred: tuple[tuple[int, Pos, frozenset[str]], ...] = ()


def merged(first: BoundFacts | None, second: BoundFacts | None) -> BoundFacts | None:
    """The facts of two definitions of one function (a conditional redefinition): a bound in either counts."""
    if first is None or second is None:
        return first or second
    return BoundFacts(
        signs=first.signs + second.signs,
        flows=first.flows + second.flows,
        results=first.results + second.results,
        args=first.args + second.args,
        feeds=first.feeds + second.feeds,
        checks=first.checks + second.checks,
        deferred=first.deferred + tuple((i + len(first.signs), p, n) for i, p, n in second.deferred),
    )


def facts(
    func: cst.FunctionDef, pos: Callable[[cst.CSTNode], Pos], walk: Walk | None = None
) -> BoundFacts | None:
    """The signs of a bound in `func` and the flows that lead to them; `walk`: the file's read-only walk."""
    _walker.append(walk or read)
    try:
        return _facts(func, pos)
    finally:
        _walker.pop()


def _facts(func: cst.FunctionDef, pos: Callable[[cst.CSTNode], Pos]) -> BoundFacts | None:
    signs: list[tuple[str, frozenset[str]]] = []
    flows: list[tuple[frozenset[str], frozenset[str]]] = []
    results: list[tuple[Pos, frozenset[str]]] = []
    args: list[tuple[Pos, tuple[tuple[str, frozenset[str]], ...]]] = []
    feeds: list[tuple[Pos, Pos]] = []
    checks: list[tuple[str, frozenset[str], Pos]] = []
    deferred: list[tuple[int, Pos, frozenset[str]]] = []
    resolved = _resolved_names(func)
    held = spell.Lazy(func.body, _visit)  # `rel = os.path.relpath(target, base)`
    labelled: Any = spell.LazyLabels(func, _visit)  # a labeller's `return f"{path} (outside the workspace)"`

    def bind(targets: frozenset[str], value: cst.CSTNode) -> None:
        if not targets:
            return
        names, calls = _names_and_calls(value)
        flows.append((targets, names))
        results.extend((pos(call), targets) for call in calls)

    class Find(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.tries = 0
            self.caught = 0  # every `try` that catches a ValueError, a fallback's too
            self.tests: list[frozenset[str]] = []
            self.tested: list[frozenset[str]] = []  # every name each enclosing `if` mentions
            self.helpers: list[Pos | None] = []  # each enclosing `if`'s helper call (`_helper_test`)
            self.bare: set[int] = set()  # `target.relative_to(base)` as a statement: its ValueError refuses
            self.refusing: set[int] = set()  # nodes of the tests of `if`s whose body ends in a `raise`
            self.walked: set[str] = set()  # names a `while` steps to their parent: paths
            self.stops: set[int] = set()  # lookups where a walk refuses at the collection (`walks.stops`)

        def visit_Expr(self, node: cst.Expr) -> None:
            if isinstance(node.value, cst.Call) and _callee(node.value) == "relative_to":
                self.bare.add(id(node.value))

        def visit_Try(self, node: cst.Try) -> None:
            # Only a `try` whose handlers catch the ValueError makes `relative_to` a test (`except OSError`
            # around a displayed `note.relative_to(base)` does not).
            self.tries += _catches_value_error(node)
            self.caught += _catches_value_error(node, fallbacks=True)

        def leave_Try(self, original_node: cst.Try) -> None:
            self.tries -= _catches_value_error(original_node)
            self.caught -= _catches_value_error(original_node, fallbacks=True)

        def visit_If(self, node: cst.If) -> None:
            if _raises_at_end(node.body, labelled):  # the checks an unresolved path passes only inside it
                self.refusing |= _node_ids(node.test)
            # `if target.parts[: len(base.parts)] != base.parts: return "denied"`, `relpath(t, base)...[0] == ".."`
            for sign, bound, checked in spell.refused_outside(node, held, labelled):
                signs.append((sign, _names_in(bound)))
                checks.append((sign, _names_in(checked), pos(node)))
            self.tests.append(_bound_side(node.test))
            self.tested.append(_names_in(node.test))
            helper = _helper_test(node.test)
            self.helpers.append(pos(helper) if helper is not None else None)

        def visit_While(self, node: cst.While) -> None:
            # `while probe not in allowed: ... return "denied" ... probe = probe.parent`: the collection bounds.
            self.walked |= walks.stepped(node)
            self.stops |= walks.stops(node)
            for collection, walked in walks.parent_walk(node):
                signs.append((walks.WALK, _names_in(collection)))
                checks.append((walks.WALK, _names_in(walked), pos(node)))

        def leave_If(self, original_node: cst.If) -> None:
            self.tests.pop()
            self.tested.pop()
            self.helpers.pop()

        def refusal(self, sign: str) -> None:
            """A raise or a returned refusal that says the path is outside, under the enclosing tests."""
            answer = self.answer()
            signs.append((sign, frozenset().union(*self.tests) | answer))
            if self.helpers[-1] is not None:
                deferred.append(
                    (len(signs) - 1, self.helpers[-1], frozenset().union(*self.tests[:-1]) | answer)
                )

        def answer(self) -> frozenset[str]:
            """`if not await is_path_allowed(p, ctx): raise`: the test is the helper's answer, a value the way
            gives when the helper holds the roots read (hiil): a name for it, bound to the helper's call."""
            helper = self.helpers[-1] if self.helpers else None
            if helper is None:
                return frozenset()
            answer = frozenset({f"<{helper[0]}:{helper[1]}>"})
            results.append((helper, answer))
            return answer

        def visit_Assign(self, node: cst.Assign) -> None:
            bind(frozenset().union(*(_targets(t.target) for t in node.targets)), node.value)
            # `box.root = <roots>`: the object holds them, as its methods called afterwards see (`RECEIVER`)
            held = {
                "@" + t.target.value.value
                for t in node.targets
                if isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name)
            }
            bind(frozenset(held), node.value)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if node.value is not None:
                bind(_targets(node.target), node.value)

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            bind(_targets(node.target), node.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            # `allowed += [path_of(r) for r in result.roots]`: the roots extend a list that bounds paths.
            bind(_targets(node.target), node.value)

        def visit_For(self, node: cst.For) -> None:
            bind(_targets(node.target), node.iter)

        def visit_CompFor(self, node: cst.CompFor) -> None:
            bind(_targets(node.target), node.iter)

        def visit_Call(self, call: cst.Call) -> None:
            name = _callee(call)
            # `allowed.extend(...)` / `.append(...)`: the arguments flow into the list, as with `+=`.
            if name in ("extend", "append", "insert") and isinstance(call.func, cst.Attribute):
                bind(_targets(call.func.value), call)
            # The bound is the argument side (`path.is_relative_to(bound)`, `path.startswith(bound)`): roots
            # that flow only into the path being checked (a folder named after them) bound nothing.
            mentioned: frozenset[str] = frozenset()
            if call.args:
                # One walk an argument: the names it reads, and the calls whose results feed this one.
                outer = pos(call)
                keyed_names = []
                # `partial(ensure_within, base)`: the arguments are the function's, one place on (sweep H r03)
                shift = 1 if name == "partial" and call.args[0].keyword is None else 0
                for i, a in enumerate(call.args):
                    names, inner = _names_and_calls(a.value)
                    if i >= shift:
                        keyed_names.append((a.keyword.value if a.keyword else f"#{i - shift}", names))
                    feeds.extend((pos(c), outer) for c in inner)
                mentioned = frozenset().union(*(names for _, names in keyed_names))
                # The object a method is called on (`box.read(name)` after `box.root = <roots>`; sweep I r02):
                # the plan's, not a side of this call's own check
                if isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name):
                    receiver = call.func.value.value
                    keyed_names.append((RECEIVER, frozenset({receiver, "@" + receiver})))
                args.append((outer, tuple(keyed_names)))
            sign = None
            if spell.absolute_test(call):
                return  # `p.startswith("/")`: is it absolute, not is it inside
            if name == "is_relative_to":
                sign = "`is_relative_to`"
            elif name == "relative_to" and self.tries:
                sign = "`relative_to` under `try`"
            elif name == "relative_to" and id(call) in self.bare and not self.caught:
                sign = "`relative_to` as a statement, whose ValueError refuses"
            elif name in ("commonpath", "commonprefix"):
                sign = f"`{name}`"
            elif name == "startswith" and _relpath_of(call) is not None:
                # `os.path.relpath(real, base).startswith("..")`: the bound is relpath's base.
                sign = "a `relpath` test"
                mentioned = _names_in(_relpath_of(call) or call)
            elif name == "startswith" and _resolves(call, resolved):
                sign = "a prefix test on a resolved path"
            elif name == "startswith" and call.args and ".uri" in _code_of(call.args[0].value):
                sign = "a prefix test against a root's URI"  # `uri.startswith(str(root.uri))`
            elif name in ("fnmatch", "fnmatchcase") and len(call.args) >= 2 and self.tested:
                sign = f"`{name}` against a pattern"  # `fnmatch(abspath(p), root + "/*")`
                mentioned = _names_in(call.args[1].value)
            elif name == "startswith" and self.tested and id(call) in self.refusing:
                # `if not any(path.startswith(a) for a in allowed): raise`: a bound where the roots reach the
                # argument (`a`); `if path.startswith("/etc"): raise` names no roots there and bounds nothing;
                # a test whose body goes on (ragconnect's project-context match) refuses nothing.
                sign = "a prefix test"
            elif name == "startswith" and self.tested:
                checks.append(("a prefix test", _subject(call), pos(call)))
            if sign is not None:
                signs.append((sign, mentioned))
                checked = mentioned if name in ("commonpath", "commonprefix") else _subject(call)
                checks.append((sign, checked, pos(call)))
            self.collection(call)

        def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
            self.collection(node)  # `allowed & set(target.parents)`

        def collection(self, node: cst.Call | cst.BinaryOperation) -> None:
            """`any(map(target.is_relative_to, bases))`, `allowed.isdisjoint(target.parents)`: the collection
            is the bound, a call in it too (`set(await _bases(ctx))`: named by its position, as `answer`)."""
            found = collection_check(node)
            # An unresolved prefix counts where it refuses, as `path.startswith(a)` does.
            weak = found is not None and found[1] == "startswith" and id(node) not in self.refusing
            if found is None or (weak and not _resolves(found[2], resolved)):
                return
            sign, _, checked, bound = found
            names: set[str] = set()
            for side in bound:
                mentioned, calls = _names_and_calls(side)
                names |= mentioned
                for inner in calls:
                    tag = frozenset({f"<{pos(inner)[0]}:{pos(inner)[1]}>"})
                    results.append((pos(inner), tag))
                    names |= tag
            signs.append((sign, frozenset(names)))
            checks.append((sign, _names_in(checked), pos(node)))

        def visit_Raise(self, node: cst.Raise) -> None:
            if node.exc is not None and _says_outside(_strings(node.exc)):
                if self.tests:
                    self.refusal("a raise that says the path is outside")
                else:
                    signs.append(("a raise that says the path is outside", frozenset()))
                every = frozenset().union(*self.tested) if self.tested else frozenset()
                checks.append(("a raise that says the path is outside", every | self.answer(), pos(node)))

        def visit_Return(self, node: cst.Return) -> None:
            # `return None, "Path is outside allowed roots."`: the refusal as a value.
            if (
                node.value is not None
                and self.tests
                and id(node) not in labelled
                and _says_outside(_strings(node.value))
            ):
                self.refusal("a refusal that says the path is outside")

        def visit_Comparison(self, node: cst.Comparison) -> None:
            # `root in candidate.parents`: the left side is the bound.
            for target in node.comparisons:
                comparator = target.comparator
                # `if abspath(p) not in allowed:` / `dirname(realpath(p)) in {...}`: a resolved path looked up
                # in a collection, which is the bound.
                # Unresolved too (`if p.parent not in shared: raise`): where the roots reach the collection,
                # it bounds what the tool touches, however weakly.
                if (
                    isinstance(target.operator, (cst.In, cst.NotIn))
                    and self.tested
                    and not isinstance(node.left, cst.SimpleString)
                    and not (isinstance(comparator, cst.Attribute) and comparator.attr.value == "parents")
                    and id(node) not in self.stops
                ):
                    if _resolves(node.left, resolved):
                        signs.append(("a membership test of a resolved path", _names_in(comparator)))
                        checks.append(
                            ("a membership test of a resolved path", _names_in(node.left), pos(node))
                        )
                    elif (
                        _pathish(node.left)
                        or (isinstance(node.left, cst.Name) and node.left.value in self.walked)
                    ) and id(node) in self.refusing:  # a bound, not a check of it
                        signs.append(("a membership test of a path", _names_in(comparator)))
                if (
                    isinstance(target.operator, (cst.In, cst.NotIn))
                    and isinstance(comparator, cst.Attribute)
                    and comparator.attr.value == "parents"
                ):
                    signs.append(("a `parents` membership test", _names_in(node.left)))
                    checks.append(("a `parents` membership test", _names_in(comparator.value), pos(node)))
                # `if ".." in path: raise`: a traversal check on the path.
                left = node.left
                if (
                    isinstance(target.operator, cst.In)
                    and isinstance(left, cst.SimpleString)
                    and left.evaluated_value == ".."
                    and self.tested
                ):
                    checks.append(("a `..` test", _names_in(comparator), pos(node)))

    _visit(func.body, Find())
    # A function that only hands its parameters on (`within(t, b)`: `guard.ensure_within(t, b)`) is a step of
    # the way to a bound a module further (`_bounds_refuse._bound_parameter_sign`).
    given = {
        p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
    }
    forwards = any(names & given for _, handed in args for _, names in handed)
    if not (signs or results or feeds or checks or forwards):
        return None
    return BoundFacts(
        tuple(signs), tuple(flows), tuple(results), tuple(args), tuple(feeds), tuple(checks), tuple(deferred)
    )


def taint(facts: BoundFacts, seeds: frozenset[str]) -> set[str]:
    tainted = set(seeds)
    changed = True
    while changed:
        changed = False
        for targets, sources in facts.flows:
            if sources & tainted and not targets <= tainted:
                tainted |= targets
                changed = True
    return tainted
