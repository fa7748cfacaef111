"""Roots used as a bound: what a tool may read or write is confined to the client's roots.

    roots = await ctx.list_roots()
    if not any(target.is_relative_to(Path(r.uri.path)) for r in roots):
        raise ToolError("Path is outside allowed MCP roots")

Replacing the roots by an explicit argument would let the caller that picks the path also pick its bound:
`{"output_path": "/elsewhere/x", "root": ["/"]}` was refused and would be written. The bound belongs to the
operator (the shim's allow-list variable, or the old fallback such as the working directory), and whether the
argument lies inside it cannot be written with certainty for every shape of such code, so these sites are
marked (MR109) rather than rewritten.

`evidence(func)` names the first sign of a bound in a function body, or None:
- `x.is_relative_to(...)`; `x.relative_to(...)` inside a `try` (the ValueError is the "outside" answer);
- `os.path.commonpath(...)` / `commonprefix(...)`;
- `a.startswith(b)` where either side is a resolved path (`resolve()`, `realpath`, `abspath`, `normpath`,
  `absolute()`);
- a `raise` whose message says the path is outside / not within / not inside / not under / escapes.
The plan looks for it in every function on the way from a tool to the roots read and in the functions those
call directly (a `_path_within_roots(path, roots)` helper), so a bound checked one call away is seen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import libcst as cst

_RESOLVERS = frozenset({"resolve", "realpath", "abspath", "normpath", "absolute"})
_OUTSIDE = re.compile(r"\boutside\b|\bnot\s+(within|inside|under)\b|\bescap(e|es|ing)\b", re.IGNORECASE)


def _callee(call: cst.Call) -> str | None:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else None


def _resolves(node: cst.CSTNode, resolved: frozenset[str] = frozenset()) -> bool:
    """Does `node` resolve a path, or read a name assigned from a resolved path?"""
    found = False

    class Find(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            nonlocal found
            found = found or _callee(call) in _RESOLVERS

        def visit_Name(self, name: cst.Name) -> None:
            nonlocal found
            found = found or name.value in resolved

    node.visit(Find())
    return found


def _resolved_names(func: cst.FunctionDef) -> frozenset[str]:
    names: set[str] = set()

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if _resolves(node.value):
                names.update(t.target.value for t in node.targets if isinstance(t.target, cst.Name))

    func.body.visit(Find())
    return frozenset(names)


def _strings(node: cst.CSTNode) -> str:
    parts: list[str] = []

    class Find(cst.CSTVisitor):
        def visit_SimpleString(self, s: cst.SimpleString) -> None:
            value = s.evaluated_value
            parts.append(value if isinstance(value, str) else "")

        def visit_FormattedStringText(self, s: cst.FormattedStringText) -> None:
            parts.append(s.value)

    node.visit(Find())
    return " ".join(parts)


def evidence(func: cst.FunctionDef) -> str | None:
    """The first sign in `func` that paths are checked against a bound, in words; None without one."""
    found: list[str] = []
    resolved = _resolved_names(func)

    class Find(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.tries = 0

        def visit_Try(self, node: cst.Try) -> None:
            self.tries += 1

        def leave_Try(self, original_node: cst.Try) -> None:
            self.tries -= 1

        def visit_Call(self, call: cst.Call) -> None:
            name = _callee(call)
            if name == "is_relative_to":
                found.append("`is_relative_to`")
            elif name == "relative_to" and self.tries:
                found.append("`relative_to` under `try`")
            elif name in ("commonpath", "commonprefix"):
                found.append(f"`{name}`")
            elif name == "startswith" and _resolves(call, resolved):
                found.append("a prefix test on a resolved path")

        def visit_Raise(self, node: cst.Raise) -> None:
            if node.exc is not None and _OUTSIDE.search(_strings(node.exc)):
                found.append("a raise that says the path is outside")

    func.body.visit(Find())
    return found[0] if found else None


def refuse(by_fq: Mapping[str, tuple[str, Any]], allowlist_env: str) -> None:
    """Refuse (MR109) the sites whose roots bound paths: a sign of a bound (`evidence`) in the function holding
    the site or in any function that calls it (transitively), or in a function one of those calls directly.
    `by_fq`: fully qualified name -> (path, roots_call.Func). Run before the plan computes its reach."""
    callers: dict[str, set[str]] = {}
    for caller in by_fq:
        for callee, _ in by_fq[caller][1].calls:
            callers.setdefault(callee, set()).add(caller)
    for fq in sorted(by_fq):
        func = by_fq[fq][1]
        if not any(s.refusal is None and not s.done for s in func.sites):
            continue
        way, todo = {fq}, [fq]
        while todo:
            for caller in callers.get(todo.pop(), ()):
                if caller not in way:
                    way.add(caller)
                    todo.append(caller)
        signs = [(by_fq[w][1].bound_sign, w) for w in sorted(way)]
        signs += [
            (by_fq[c][1].bound_sign, c) for w in sorted(way) for c, _ in by_fq[w][1].calls if c in by_fq
        ]
        sign = next(((b, w) for b, w in signs if b), None)
        if sign is None:
            continue
        where = sign[1].rpartition(".")[2]
        reason = (
            f"roots bound what this tool may touch ({sign[0]} in `{where}`): an explicit argument would let "
            f"the caller choose its own bound. Keep the bound with the operator ({allowlist_env}, "
            "which the compatibility module enforces, or the old fallback such as the working directory) "
            "and migrate this by hand"
        )
        for site in func.sites:
            if site.refusal is None and not site.done:
                site.refusal = ("MR109", reason)
