"""Roots handed to a function that chooses among them by name (sweep E, r01: a research server's
`pick_cache_root(result.roots)`, which returns the root whose `.name` is `notes-cache`).

Roots made from a path argument have no name (nor a URI host), so that function never matches them: the
argument could never work, for any client. The read is marked as when the names are read beside it
(`_roots_receiver`). One call deep: the function the read's value is handed to, in any module of the run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from migrate_roots.codemods._bounds import BoundFacts, taint

_WHAT = {
    "name": "reads their names, `{spelled}` ({where}): roots made from a path argument have no name, so that "
    "code would never match them; choose the folder by an argument or by configuration instead of by name",
    "name-value": "makes a path or key of their names, `{spelled}` ({where}): roots made from a path argument "
    "have no name, so every call with the argument would share the one place named `None`; name that place by "
    "the folder or by configuration instead",
    "host": "tells them apart by their URI's host, `{spelled}` ({where}): roots made from a path argument are "
    "`file://` URIs with no host, so that code would never match them; carry that value by an argument or by "
    "configuration instead",
    "host-value": "uses their URI host as a value, `{spelled}` ({where}): it carries an id or a key, not a "
    "directory, and roots made from a path argument have no host; carry that value by an argument or by "
    "configuration instead",
}


def named_refusals(
    by_key: Mapping[Any, tuple[str, Any]], calls: Mapping[Any, list[tuple[Any, Any]]]
) -> dict[Any, dict[Any, tuple[str, str]]]:
    """Function identity -> {site position: refusal} for the reads whose value goes to such a function."""
    out: dict[Any, dict[Any, tuple[str, str]]] = {}
    for key, (_, func) in by_key.items():
        facts: BoundFacts | None = func.bound_sign
        sites = [s for s in func.sites if s.refusal is None]
        if facts is None or not sites:
            continue
        results = dict(facts.results)
        positions = {s.pos for s in sites}
        tainted = taint(facts, frozenset().union(*(results.get(p, frozenset()) for p in positions)))
        fed = {outer for inner, outer in facts.feeds if inner in positions}
        handed = {
            pos for pos, arguments in facts.args if pos in fed or any(n & tainted for _, n in arguments)
        }
        choosing = (c for c, pos in calls.get(key, ()) if pos in handed and c in by_key)
        to = next((c for c in choosing if by_key[c][1].names_read is not None), None)
        if to is None:
            continue
        target = by_key[to][1]
        spelled, line, kind = target.names_read
        where = f"{os.path.basename(by_key[to][0])}:{line}"
        why = (
            f"this function hands the roots to `{to[1].rpartition('.')[2]}`, which "
            + _WHAT[kind].format(spelled=spelled, where=where)
            + ", by hand, then run again"
        )
        out[key] = {s.pos: ("MR101" if s.shape == "result" else "MR102", why) for s in sites}
    _returned_to_chooser(by_key, calls, out)
    return out


def _returned_to_chooser(
    by_key: Mapping[Any, tuple[str, Any]],
    calls: Mapping[Any, list[tuple[Any, Any]]],
    out: dict[Any, dict[Any, tuple[str, str]]],
) -> None:
    """Roots a helper returns that its caller chooses among by name, itself (`next(r for r in roots if r.name
    == CACHE)`) or in the function it hands them to (sweep I, r10): the helper's reads are refused, naming
    the caller."""
    for key, (path, func) in by_key.items():
        facts: BoundFacts | None = func.bound_sign
        results = dict(facts.results) if facts is not None else {}
        for callee, pos in calls.get(key, ()):
            if callee in out or callee not in by_key or pos not in results:
                continue
            cpath, cfunc = by_key[callee]
            sites = [s for s in cfunc.sites if s.refusal is None]
            # Only a helper that hands the roots on as a list: one that makes a folder of the first root (a
            # `Path`) gives its caller nothing to choose among by name (sweep N, r06).
            if not sites or all(s.uses == "first" for s in sites):
                continue
            chooser, found = key, func.names_local
            tainted = taint(facts, results[pos]) if facts is not None else set()
            if found is not None and func.names_from not in tainted:
                found = None  # names read of other roots than the helper's (`index.roots`: sweep N, r06)
            if found is None and facts is not None:
                handed = {p for p, arguments in facts.args if any(n & tainted for _, n in arguments)}
                chooser = next(
                    (
                        c
                        for c, p in calls.get(key, ())
                        if p in handed and c in by_key and by_key[c][1].names_read
                    ),
                    key,
                )
                found = by_key[chooser][1].names_read if chooser != key else None
            if found is None:
                continue
            spelled, line, kind = found
            where = f"{os.path.basename(by_key[chooser][0])}:{line}"
            taker = f"`{func.qualname.rpartition('.')[2]}` ({os.path.basename(path)}:{func.pos[0]})"
            how = (
                "takes the roots this function returns and "
                if chooser == key
                else f"hands the roots this function returns to `{chooser[1].rpartition('.')[2]}`, which "
            )
            why = (
                f"{taker} {how}"
                + _WHAT[kind].format(spelled=spelled, where=where)
                + ", by hand, then run again"
            )
            out[callee] = {s.pos: ("MR101" if s.shape == "result" else "MR102", why) for s in sites}
