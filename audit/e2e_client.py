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

import json
import sys
import traceback
from contextlib import asynccontextmanager
from importlib import metadata
from typing import Any

MODERN_VERSION = "2026-07-28"


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _mcp_major() -> int:
    version = _version("mcp") or "1"
    return int(version.split(".")[0])


def _text(result: Any) -> str:
    parts = []
    for item in getattr(result, "content", None) or []:
        text = getattr(item, "text", None)
        if text is not None:
            parts.append(text)
    return "\n".join(parts)


def _is_error(result: Any) -> bool:
    value = getattr(result, "is_error", None)
    if value is None:
        value = getattr(result, "isError", False)
    return bool(value)


def _schema(tool: Any) -> Any:
    schema = getattr(tool, "input_schema", None)
    if schema is None:
        schema = getattr(tool, "inputSchema", None)
    if hasattr(schema, "model_dump"):
        schema = schema.model_dump(mode="json")
    return schema


def _params(spec: dict) -> Any:
    from mcp import StdioServerParameters

    return StdioServerParameters(command=spec["command"][0], args=list(spec["command"][1:]), env=spec["env"],
                                 cwd=spec["cwd"])


@asynccontextmanager
async def _connect(spec: dict, era: str, roots: list[str]):
    import mcp.types as types

    callback = None
    if era in ("legacy-roots", "modern"):

        async def callback(context: Any) -> Any:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots])

    if _mcp_major() >= 2:
        from mcp import Client

        mode = MODERN_VERSION if era == "modern" else "legacy"
        async with Client(_params(spec), mode=mode, list_roots_callback=callback) as client:
            yield client
    else:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        kwargs = {"list_roots_callback": callback} if callback is not None else {}
        async with stdio_client(_params(spec)) as (read, write), ClientSession(read, write, **kwargs) as session:
            await session.initialize()
            yield session


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
