"""Which files that hold a roots token, but never spell `mcp`, are parsed with libcst.

A roots token (`list_roots`) no longer needs the word `mcp` in its file: a helper module with
`async def project_dir(ctx): return await ctx.session.list_roots()` and no SDK import is MCP code when a tool
reaches it, and only the plan can tell (`_roots_model.Site.maybe`). But libcst costs a quarter of a second to
import and about 20 ms per kilobyte-dense file, and the three moto files of benchmark 1's library tree (AWS
Organizations `list_roots`) would have made a no-hit scan five times slower. So such a file is first parsed
with CPython's own parser (`ast`, in C: a few milliseconds), and goes on to libcst only when some `list_roots`
in it has a shape the rules can take for MCP in a module without the SDK:

- an attribute `.list_roots` on a plain name or attribute chain that does not start at `self` or `cls`
  (`ctx.list_roots()`, `ctx.session.list_roots`, `client.list_roots()`: the rules decide), or on a call's
  result (`get_session().list_roots()`);
- any other name or string that holds `list_roots` (`getattr(s, "list_roots")`, `list_roots_compat(...)`);
- the protocol's own method names, `roots/list` and `notifications/roots/list_changed`: a server that speaks
  MCP without the SDK (JSON-RPC by hand).

Not parsed: `self.backend.list_roots()`, `backends[account][partition].list_roots()` and `def list_roots(self)`
(moto's shapes): no rule reads them as MCP without the SDK in the file. A file CPython cannot parse (newer
syntax, or broken) always goes on to libcst, which parses it or reports it unreadable (MR903): a roots token is
never skipped unread. A rule that learns to recognise a new shape without the SDK must widen this screen
(tests/test_roots_unspelled.py holds the two in agreement on its fixtures).
"""

from __future__ import annotations

import re
from typing import Any

TOKEN = "list_roots"
# Shapes no rule reads as MCP, told from the bytes alone: `def list_roots(`, `self.backend.list_roots`,
# `backends[a][b].list_roots`. A file whose every `list_roots` is one of them needs not even `ast` (15 ms to
# import, and moto's files are 70 kB).
_SURE = re.compile(rb"(?:\bdef[ \t]+|\bself(?:\.\w+)+\.|\]\.)list_roots\b")


def worth_parsing(data: bytes) -> bool:
    """Should a file that holds `list_roots` but not the word `mcp` be parsed with libcst?"""
    if b"roots/list" in data:  # a protocol method's name (`"notifications/roots/list_changed"`): MCP by hand
        return True
    if data.count(TOKEN.encode()) == len(_SURE.findall(data)):
        return False
    import ast  # here: 15 ms of start-up that a run screening nothing never pays

    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and TOKEN in node.attr:
            if node.attr != TOKEN or _may_be_mcp(ast, node.value):
                return True
            continue
        name = (
            node.id
            if isinstance(node, ast.Name)
            else node.name
            if isinstance(node, ast.alias)
            else node.value
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            else ""
        )
        if TOKEN in name:
            return True
    return False


def _may_be_mcp(ast: Any, receiver: Any) -> bool:
    while isinstance(receiver, ast.Attribute):
        receiver = receiver.value
    if isinstance(receiver, ast.Name):
        return receiver.id not in ("self", "cls")
    return isinstance(receiver, (ast.Call, ast.Await))
