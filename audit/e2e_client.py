"""Drive one real MCP server over stdio with the client of the SDK installed next to it; print JSON.

Run with the python of an audit venv (never the project's own venv)::

    python e2e_client.py SPEC.json

SPEC is ``{"command": [...], "cwd": "...", "env": {...}, "timeout": 30, "sessions": [SESSION, ...]}``, and a
SESSION is ``{"era": "legacy-roots" | "legacy-noroots" | "modern", "roots": ["file:///..."], "calls":
[{"tool": NAME, "args": {...}}, ...]}``. One server process per session. Prints ``{"sdk": {...}, "sessions":
[{"era", "skipped", "reason", "tools": {name: input_schema}, "calls": [{"tool", "args", "is_error", "text",
"raised"}], "connection_error"}]}``.

Eras, as in tests/sdk/driver.py: ``legacy-roots`` is the initialize handshake with a client that answers
roots/list; ``legacy-noroots`` the handshake without the roots capability; ``modern`` a 2026-07-28 client (mcp
2.x only) that still has a roots callback, the trap where the capability is declared but roots/list cannot be
sent. On an mcp 1.x venv, a modern session is reported as skipped: neither its server nor its client has that era.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import traceback
from pathlib import Path
from typing import Any

# The connection and result helpers are the ones `migrate-roots verify` ships (stdlib + SDK only, like this
# script): loaded by path, since migrate_roots itself is not installed in an audit venv.
_SHARED = Path(__file__).resolve().parents[1] / "migrate_roots" / "verify" / "client.py"
_spec = importlib.util.spec_from_file_location("_migrate_roots_verify_client", _SHARED)
assert _spec and _spec.loader
shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(shared)

MODERN_VERSION = shared.MODERN_VERSION
_version = shared.version
_mcp_major = shared.mcp_major
_text = shared.result_text
_is_error = shared.result_is_error
_schema = shared.tool_schema


def _connect(spec: dict, era: str, roots: list[str]) -> Any:
    return shared.connect(shared.server_params(spec["command"], spec["cwd"], spec["env"]), era, roots)


async def _session(spec: dict, session: dict) -> dict:
    import anyio

    era = session["era"]
    out: dict[str, Any] = {"era": era, "skipped": False, "tools": {}, "calls": []}
    if era == "modern" and _mcp_major() < 2:
        out.update(skipped=True, reason=f"mcp {_version('mcp')} has no {MODERN_VERSION} era")
        return out
    timeout = float(spec.get("timeout", 30))
    try:
        with anyio.fail_after(timeout * (2 + len(session["calls"]))):
            async with _connect(spec, era, session.get("roots") or []) as client:
                with anyio.fail_after(timeout):
                    listed = await client.list_tools()
                tools = getattr(listed, "tools", listed)
                out["tools"] = {t.name: _schema(t) for t in tools}
                for call in session["calls"]:
                    record: dict[str, Any] = {"tool": call["tool"], "args": call["args"]}
                    try:
                        with anyio.fail_after(timeout):
                            result = await client.call_tool(call["tool"], call["args"])
                    except TimeoutError:
                        record.update(is_error=True, text=f"no answer within {timeout}s", raised="TimeoutError")
                    except Exception as exc:  # a JSON-RPC error: the client raises
                        record.update(is_error=True, text=str(exc)[:2000], raised=type(exc).__name__)
                    else:
                        record.update(is_error=_is_error(result), text=_text(result)[:2000], raised=None)
                    out["calls"].append(record)
    except BaseException as exc:  # noqa: BLE001 - the connection itself failed; report, never crash the audit
        if isinstance(exc, KeyboardInterrupt):
            raise
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        out["connection_error"] = detail[-4000:]
    return out


async def _main(spec: dict) -> dict:
    sessions = [await _session(spec, s) for s in spec["sessions"]]
    return {"sdk": {"mcp": _version("mcp"), "fastmcp": _version("fastmcp")}, "sessions": sessions}


def main(argv: list[str]) -> int:
    import warnings

    import anyio

    warnings.simplefilter("ignore")  # the client side's own deprecation warnings are not what we audit
    with open(argv[1], encoding="utf-8") as fh:
        spec = json.load(fh)
    result = anyio.run(_main, spec)
    print(json.dumps(result, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
