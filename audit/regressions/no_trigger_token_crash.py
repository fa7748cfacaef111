# Regression: `apply` and `scan` of this repository's CLI CRASH on a package in which no file holds any
# trigger token of the prefilter.
#
# Found on: mcp-server-time 2026.10.19, a control server with nothing to migrate: `apply src` exits with a
# traceback instead of "findings: none", so the control cannot be audited.
# Reproduce: save this file as pkg/server.py (the only file of the package; this header deliberately avoids
# every trigger word of the prefilter, even the tool's own name) and run `apply pkg` (or `scan pkg`).
# What goes wrong: engine.py of the package `migrate_r..ts`, `Engine.run`, sets `rules = codemods.load() if hits else {}` when the
# prefilter matches no file, then still loops `for code in options.enabled: ... rules[code].follow_tokens(...)`,
# which raises `KeyError: 'MR...'` (the code varies with set order: MR103, MR215, MR218, MR902, MR905 seen).
# Expected: exit 0, "findings: none", nothing written.
# Status: fixed in this repository's working tree while the audit ran (the final audit run's controls pass);
# kept as a guard.
from datetime import datetime, timezone

from mcp.server.mcpserver import MCPServer

server = MCPServer("clock")


@server.tool()
def now() -> str:
    return datetime.now(timezone.utc).isoformat()
