"""Roots handed, with a path argument, to code migrate-roots does not read (MR109).

    @mcp.tool()
    async def transfer(ctx: Context, workspace_root: str | None = None) -> str:
        roots = await _roots_from_ctx(ctx)  # reads the client's roots
        chosen = workspace.resolve_workspace(workspace_root, roots, os.getcwd())  # a dependency's function

What `resolve_workspace` does with the pair is out of sight: it may refuse a `workspace_root` outside the roots
(a bound, which a new argument would hand to the caller: codex-in-claude's dependency does exactly that), or
fill it in from them (then the tool already has its argument, and a second one is redundant). Neither rewrite
is certain, so the site is marked, naming the call. A call counts when, in a function on the way from a tool
to the read, its arguments hold both a value derived from the roots and one of the function's path-like
parameters, and its callee is an imported name the plan cannot resolve, outside the standard library and the
MCP SDKs (their semantics are known: a logger, `os.path.join`, a `ToolError`). A name of the run's own modules
(`_LOG.info(...)`) is never such a callee. Not where the plan reuses the tool's own path argument for the read
(`Site.existing`), and after the sites' own refusals, which speak first.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from migrate_roots.codemods._bounds import taint
from migrate_roots.codemods._checked_params import first_on_way, params_of, way_names

K = TypeVar("K")
Pos = tuple[int, int]

# Known code: the standard library's names (3.10+ lists them), the SDKs', and the builtins.
_KNOWN = frozenset(getattr(sys, "stdlib_module_names", ())) | {
    "builtins",
    "mcp",
    "fastmcp",
    "typing",
    "typing_extensions",
}


def _handed(
    key: K,
    positions: list[Pos],
    by_key: Mapping[K, tuple[str, Any]],
    unseen: Callable[[K, str], bool],
    path_like: Callable[[str], bool],
) -> tuple[str, str, str, Pos] | None:
    """(parameter, callee, file, position) of a call in `key` that hands the way's value (what the calls or
    sites at `positions` give) together with a path-like parameter to a callee the plan cannot see."""
    path, func = by_key[key]
    facts = func.bound_sign
    if facts is None:
        return None
    way = way_names(facts, positions)
    if not way:
        return None
    # Any value made from the path argument counts, not only a path: a request model holding it
    # (`request = Input.model_validate({"source_path": source_path, ...})`, oh-my-cassette) carries it too.
    held = {name: taint(facts, frozenset({name})) for name in params_of(func) if path_like(name)}
    callees = dict((pos, fq) for fq, pos in func.calls)
    for pos, arguments in sorted(facts.args):
        fq = callees.get(pos)
        if fq is None or fq.partition(".")[0] in _KNOWN or "." not in fq or not unseen(key, fq):
            continue
        mentioned = frozenset().union(*(names for _, names in arguments))
        if not mentioned & way:
            continue
        for name, names in held.items():
            # The path value handed here is not itself made from the roots (`workspace_root or roots[0]`); a
            # later result made of both (`envelope = run(request, roots)`) does not count.
            if (mentioned & names) - way:
                return name, fq, path, pos
    return None


def refuse(
    by_key: Mapping[K, tuple[str, Any]],
    calls: Mapping[K, list[tuple[K, Pos]]],
    reach: set[K],
    reused: Mapping[K, Any],
    path_like: Callable[[str], bool],
    unseen: Callable[[K, str], bool],
    runner: Callable[[K, str], bool] = lambda key, fq: False,
) -> dict[K, dict[Pos, tuple[str, str]]]:
    """Function -> its sites to refuse (MR109) because a function on the way hands the roots, with a path
    argument, to code the plan does not read (see the module docstring). `unseen(key, fq)`: the callee `fq`,
    called from `key`, is an imported name no module of the run defines. A pure function of its inputs."""
    out: dict[K, dict[Pos, tuple[str, str]]] = {}
    found = first_on_way(
        by_key,
        calls,
        reach,
        reused,
        lambda current, positions: _handed(current, positions, by_key, unseen, path_like),
    )
    for key, sites, where, (name, fq, path, pos) in found:
        function = by_key[where][1].qualname.rpartition(".")[2]
        module, _, callee = fq.rpartition(".")
        which = (
            "which runs a function value it is given, out of migrate-roots' sight"
            if runner(where, fq)
            else "which migrate-roots does not read"
        )
        reason = (
            f"`{function}` hands the roots, with its path argument `{name}`, to `{callee}` of `{module}` "
            f"({os.path.basename(path)}:{pos[0]}), {which}: it may bound `{name}` by "
            "the roots (a new argument would let the caller choose both) or fill it in from them (the tool "
            "already has its argument). Decide which by hand"
        )
        out[key] = {s.pos: ("MR109", reason) for s in sites}
    return out
