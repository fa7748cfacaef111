"""The functions a server runs as its lifespan: code that runs at the server's start, outside any request."""

from __future__ import annotations

import libcst as cst

from migrate_roots.codemods import _sdk
from migrate_roots.codemods.base import FileState
from migrate_roots.codemods.program.recognise import _code


def lifespans(state: FileState) -> dict[str, tuple[str, int]]:
    """The module's functions a server runs as its lifespan (`FastMCP("x", lifespan=lifespan)`,
    `mcp.settings.lifespan = lifespan`): name -> (the registration as written, its line). Code that runs at the
    server's start, outside any request (the `@asynccontextmanager` on it is no registrar: sweep Q, w1)."""
    if not any("lifespan" in line for line in state.lines):
        return {}
    found: dict[str, tuple[str, int]] = {}
    for statement in state.wrapper.module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            value = getattr(small, "value", None)
            if isinstance(small, cst.Assign) and isinstance(value, cst.Name):
                for target in small.targets:
                    if isinstance(target.target, cst.Attribute) and target.target.attr.value == "lifespan":
                        spelled = f"{_code(state, target.target)} = {value.value}"
                        found.setdefault(value.value, (spelled, state.pos(small)[0]))
            elif isinstance(value, cst.Call) and _sdk.call_kind(state, value) in (
                _sdk.HL_SERVER,
                _sdk.LL_SERVER,
            ):
                for arg in value.args:
                    if (
                        arg.keyword is not None
                        and arg.keyword.value == "lifespan"
                        and isinstance(arg.value, cst.Name)
                    ):
                        spelled = f"{_code(state, value.func)}(..., lifespan={arg.value.value})"
                        found.setdefault(arg.value.value, (spelled, state.pos(value)[0]))
    return found
