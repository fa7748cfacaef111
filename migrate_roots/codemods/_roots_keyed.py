"""Roots hashed into a key: `scope_of(str(roots[0].uri))` where `scope_of` returns
`"project:" + hashlib.sha256(uri.encode()).hexdigest()`, and every tool reads and deletes only that scope's data.

The roots then choose which stored data a session reaches (hypermnesia: "never another project's"). A path
argument in their place would let the caller choose another project's key, so such a read is marked, not
rewritten (the helpers' sweep found `forget_all(root=[other])` deleting another project's notes). A hash of the
URI in the function holding the read counts, and one in a function of the module the URI is handed to.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._bounds_reads import _names_in
from migrate_roots.codemods._read import read
from migrate_roots.codemods._roots_uses import spells
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.bindings import plain_assignments


def _is_hash(call: cst.Call, state: FileState) -> bool:
    names = state.qnames(call.func)
    if any(n.startswith("hashlib.") or n in ("uuid.uuid3", "uuid.uuid5", "zlib.crc32") for n in names):
        return True
    return (
        isinstance(call.func, cst.Name)
        and call.func.value == "hash"
        and not names - {"builtins.hash", "hash"}
    )


def _mentions_uri(node: cst.CSTNode) -> bool:
    """`r.uri`, or `getattr(r, "uri", r)`."""
    found = False

    class Uri(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            nonlocal found
            found = found or n.attr.value == "uri"

        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            named = isinstance(n.func, cst.Name) and n.func.value == "getattr" and len(n.args) >= 2
            attr = n.args[1].value if named else None
            found = found or (isinstance(attr, cst.SimpleString) and attr.evaluated_value == "uri")

    read(node, Uri())
    return found


_HASH_TOKENS = ("hashlib", "uuid", "hash(", "crc32")


def _tainted(func: cst.FunctionDef, seeds: set[str]) -> set[str]:
    """`seeds` and the locals of `func` made from them (`path = unquote(urlparse(uri).path)`), in any order."""
    names = set(seeds)
    assigns = plain_assignments(func)
    for _ in range(3):
        names |= {name for name, value, _ in assigns if _names_in(value) & names}
    return names


def hash_facts(func: cst.FunctionDef, state: FileState) -> tuple[bool, frozenset[tuple[int, int]]]:
    """(does `func` hash a parameter, through its locals too; the calls that hand a parameter on), in a file
    that hashes at all: a URI handed to such a function, here or in another module, is hashed into a key."""
    if not any(spells(state, token) for token in _HASH_TOKENS):
        return False, frozenset()
    params = {
        p.name.value for p in (*func.params.posonly_params, *func.params.params, *func.params.kwonly_params)
    }
    tainted = _tainted(func, params)
    hashes = False
    calls: set[tuple[int, int]] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal hashes
            if not any(_names_in(a.value) & tainted for a in n.args):
                return
            if _is_hash(n, state):
                hashes = True
            else:
                calls.add(state.pos(n))

    state.walk(func.body, Calls())
    return hashes, frozenset(calls)


def uri_calls(func: cst.FunctionDef, state: FileState) -> frozenset[tuple[int, int]]:
    """The calls of `func` handed the roots' URI, or a value made from it (`roots = [str(r.uri) for r in
    raw]`, then `derive_project_scope(roots, override)`)."""
    seeds = {name for name, value, _ in plain_assignments(func) if _mentions_uri(value)}
    tainted = _tainted(func, seeds)
    found: set[tuple[int, int]] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            if any(_mentions_uri(a.value) or _names_in(a.value) & tainted for a in n.args):
                found.add(state.pos(n))

    state.walk(func.body, Calls())
    return frozenset(found)


def _hashes_a_param(func: cst.FunctionDef, state: FileState) -> bool:
    """Does `func` hash one of its parameters (or a value made from one)?"""
    params = {p.name.value for p in func.params.params}
    found = False

    class Hashes(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            if not found and _is_hash(n, state) and n.args:
                found = bool(_names_in(n.args[0].value) & params)

    read(func.body, Hashes())
    return found


def roots_hashed(func: cst.FunctionDef, state: FileState) -> tuple[str, int] | None:
    """The first call in `func` that hashes a roots URI, itself or through a function of the module it hands
    the URI to; its spelling and line (once per function)."""
    cache: dict[cst.FunctionDef, tuple[str, int] | None] = state.extra.setdefault("roots-hashed", {})
    if func in cache:
        return cache[func]
    hits: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            if hits or not any(_mentions_uri(a.value) for a in n.args):
                return
            if _is_hash(n, state):
                hits.append(n)
                return
            callee = _sdk.module_function(state, n.func.value) if isinstance(n.func, cst.Name) else None
            if callee is not None and callee is not func and _hashes_a_param(callee, state):
                hits.append(n)

    state.walk(func.body, Calls())
    code = state.wrapper.module.code_for_node
    cache[func] = (code(hits[0].func) + "(...)", state.pos(hits[0])[0]) if hits else None
    return cache[func]


def hashed_refusals(
    by_key: Mapping[Any, tuple[str, Any]], calls: Mapping[Any, list[tuple[Any, Any]]]
) -> dict:
    """The plan's part: reads whose function hands the roots' URI to a function that hashes it, itself or
    through the functions it hands it on to, in any module of the run (hypermnesia's `derive_project_scope`
    in `scoping.py`). Function identity -> {site position: refusal}."""
    hashing = {key for key, (_, func) in by_key.items() if func.hashes}
    grown = True
    while grown:
        more = {
            key
            for key, (_, func) in by_key.items()
            if key not in hashing
            and any(c in hashing for c, pos in calls.get(key, ()) if pos in func.param_calls)
        }
        hashing |= more
        grown = bool(more)
    out: dict = {}
    for key, (_, func) in by_key.items():
        if not func.uri_calls:
            continue
        to = next((c for c, pos in calls.get(key, ()) if pos in func.uri_calls and c in hashing), None)
        if to is None:
            continue
        path = by_key[to][0]
        refusal = (
            f"this function hands the roots' URI to `{to[1].rpartition('.')[2]}` ({os.path.basename(path)}:"
            f"{by_key[to][1].pos[0]}), which hashes it into a key: the roots choose which stored data the tool "
            "reaches, and a path argument would let the caller choose another project's; keep that choice with "
            "the operator (configuration) or migrate it by hand"
        )
        out[key] = {
            s.pos: ("MR101" if s.shape == "result" else "MR102", refusal)
            for s in func.sites
            if s.refusal is None
        }
    return out
