"""Roots hashed into a key: `scope_of(str(roots[0].uri))` where `scope_of` returns
`"project:" + hashlib.sha256(uri.encode()).hexdigest()`, and every tool reads and deletes only that scope's data.

The roots then choose which stored data a session reaches (hypermnesia: "never another project's"). A path
argument in their place would let the caller choose another project's key, so such a read is marked, not
rewritten (the helpers' sweep found `forget_all(root=[other])` deleting another project's notes). A hash of the
URI in the function holding the read counts, and one in a function of the module the URI is handed to.
"""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods._bounds import _names_in
from migrate_roots.codemods.base import FileState


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
    found = False

    class Uri(cst.CSTVisitor):
        def visit_Attribute(self, n: cst.Attribute) -> None:
            nonlocal found
            found = found or n.attr.value == "uri"

    node.visit(Uri())
    return found


def _hashes_a_param(func: cst.FunctionDef, state: FileState) -> bool:
    """Does `func` hash one of its parameters (or a value made from one)?"""
    params = {p.name.value for p in func.params.params}
    found = False

    class Hashes(cst.CSTVisitor):
        def visit_Call(self, n: cst.Call) -> None:
            nonlocal found
            if not found and _is_hash(n, state) and n.args:
                found = bool(_names_in(n.args[0].value) & params)

    func.body.visit(Hashes())
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
