"""The client side of `migrate-roots verify`: run with the python of the server's own environment.

This file is shipped inside migrate_roots but is never imported by it: `verify` runs it as a script with the
interpreter given by `--python`, so it needs only the standard library and the MCP SDK installed there (mcp
1.x or 2.x; fastmcp 2.x-4.x depends on mcp, whose client is used). Keep it so: no migrate_roots import, no
third-party import but `mcp` and `anyio` (an mcp dependency).

Protocol: JSON lines. The first line read on stdin is the setup ``{"command": [...], "cwd": "...", "env":
{...} | null, "timeout": 30, "start_timeout": 60}``; the script answers ``{"hello": true, "sdk": {...}, "python": "...", "modern": bool}``
(or ``{"hello": false, "error": "..."}`` when no MCP SDK can be imported). Then, for each session::

    -> {"op": "open", "era": "legacy-roots" | "legacy-noroots" | "modern", "roots": ["file:///..."]}
    <- {"ok": true, "tools": [{"name": ..., "input_schema": {...}}]}
       | {"ok": false, "skipped": true, "reason": ...} | {"ok": false, "error": ..., "traceback": ...}
    -> {"op": "call", "tool": NAME, "args": {...}}
    <- {"is_error": bool, "text": "...", "raised": null | "ExceptionType"}
    -> {"op": "close"}
    <- {"closed": true}

One server process per session (the SDK's stdio client starts it and ends it when the session closes).
Eras: ``legacy-roots`` is the initialize handshake with a client that answers roots/list with ``roots``;
``legacy-noroots`` the handshake without the roots capability; ``modern`` a 2026-07-28 client (mcp 2.x) that
still has a roots callback: the trap where the capability is declared but roots/list cannot be sent.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from contextlib import asynccontextmanager
from importlib import metadata
from typing import Any

MODERN_VERSION = "2026-07-28"
TEXT_LIMIT = 4000


def version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def mcp_major() -> int:
    return int((version("mcp") or "1").split(".")[0])


def result_text(result: Any) -> str:
    """The text content of a tool result, joined by newlines (the shape every SDK line shares)."""
    parts = []
    for item in getattr(result, "content", None) or []:
        text = getattr(item, "text", None)
        if text is not None:
            parts.append(text)
    return "\n".join(parts)


def result_is_error(result: Any) -> bool:
    value = getattr(result, "is_error", None)
    if value is None:
        value = getattr(result, "isError", False)
    return bool(value)


def tool_schema(tool: Any) -> Any:
    schema: Any = getattr(tool, "input_schema", None)
    if schema is None:
        schema = getattr(tool, "inputSchema", None)
    if schema is not None and hasattr(schema, "model_dump"):
        schema = schema.model_dump(mode="json")
    return schema


def server_params(command: list[str], cwd: str | None, env: dict[str, str] | None) -> Any:
    from mcp import StdioServerParameters

    # The SDKs pass only a few variables on by default: the server gets the whole environment, as a user's
    # MCP client configuration would give it its own.
    return StdioServerParameters(
        command=command[0], args=list(command[1:]), env=dict(os.environ) if env is None else env, cwd=cwd
    )


@asynccontextmanager
async def connect(params: Any, era: str, roots: list[str]) -> Any:
    """An object with `list_tools()` and `call_tool(name, args)`, connected in `era` over stdio."""
    import mcp.types as types

    callback = None
    if era in ("legacy-roots", "modern"):  # modern keeps the callback: the client then declares roots

        async def callback(context: Any) -> Any:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots])

    if mcp_major() >= 2:
        from mcp import Client

        mode = MODERN_VERSION if era == "modern" else "legacy"
        async with Client(params, mode=mode, list_roots_callback=callback) as client:
            yield client
    else:
        from mcp import ClientSession
        from mcp.client.stdio import stdio_client

        kwargs = {"list_roots_callback": callback} if callback is not None else {}
        async with stdio_client(params) as (read, write), ClientSession(read, write, **kwargs) as session:
            await session.initialize()
            yield session


def _detail(exc: BaseException) -> str:
    return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-TEXT_LIMIT:]


def _group_type() -> Any:
    import builtins

    found = getattr(builtins, "BaseExceptionGroup", None)  # 3.11+
    if found is None:
        try:  # python 3.10: anyio depends on the backport
            found = __import__("exceptiongroup").BaseExceptionGroup
        except ImportError:
            return ()
    return found


def _message(exc: BaseException) -> str:
    """The innermost message of an exception group (anyio wraps what the stdio transport raised)."""
    group = _group_type()
    while group and isinstance(exc, group) and len(exc.exceptions) == 1:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"[:TEXT_LIMIT]


class Session:
    """One era's connection: open, answer the calls, close; every message read gets exactly one answer."""

    def __init__(self, setup: dict, read: Any, write: Any) -> None:
        self.setup = setup
        self.read = read
        self.write = write
        self.timeout = float(setup.get("timeout") or 30)
        self.start_timeout = float(setup.get("start_timeout") or self.timeout)
        self.opened = False
        self.pending = False  # a call was read and not answered yet
        self.ended = False  # the close message (or the end of input) was read

    async def run(self, opened: dict) -> None:
        import math

        import anyio

        era = opened["era"]
        if era == "modern" and mcp_major() < 2:
            self.write(
                {"ok": False, "skipped": True, "reason": f"mcp {version('mcp')} has no {MODERN_VERSION} era"}
            )
            return await self._drain("skipped")
        params = server_params(self.setup["command"], self.setup.get("cwd"), self.setup.get("env"))
        failure: BaseException | None = None
        try:
            # One scope around the whole connection (structured concurrency: the SDK's task groups live inside
            # it); its deadline bounds the start and the close, and is lifted while calls run (each has its own).
            with anyio.CancelScope() as scope:
                scope.deadline = anyio.current_time() + self.start_timeout
                async with connect(params, era, list(opened.get("roots") or [])) as client:
                    listed = await client.list_tools()
                    scope.deadline = math.inf
                    tools = getattr(listed, "tools", listed)
                    self.opened = True
                    self.write(
                        {
                            "ok": True,
                            "tools": [{"name": t.name, "input_schema": tool_schema(t)} for t in tools],
                        }
                    )
                    await self._calls(client)
                    # The SDK ends the server process on the way out (closes its stdin, then terminates it).
                    scope.deadline = anyio.current_time() + self.timeout
            if scope.cancelled_caught and not self.opened:
                failure = TimeoutError(f"the server did not answer within {self.start_timeout:g}s")
        except BaseException as exc:  # noqa: BLE001 - the server did not start, or the connection broke
            if isinstance(exc, KeyboardInterrupt):
                raise
            failure = exc
        if not self.opened:
            failure = failure or RuntimeError("the connection closed before tools/list")
            self.write({"ok": False, "error": _message(failure), "traceback": _detail(failure)})
        elif self.pending:  # the connection broke during a call
            text = _message(failure) if failure else "the connection closed during the call"
            self.write({"is_error": True, "text": f"connection lost: {text}", "raised": "ConnectionLost"})
            self.pending = False
        await self._drain("lost")

    async def _calls(self, client: Any) -> None:
        while True:
            message = await self.read()
            if message is None or message.get("op") != "call":
                self.ended = True
                return
            self.pending = True
            answer = await self._call(client, message["tool"], message.get("args") or {})
            self.pending = False
            self.write(answer)

    async def _call(self, client: Any, tool: str, args: dict) -> dict:
        import anyio

        try:
            with anyio.fail_after(self.timeout):
                result = await client.call_tool(tool, args)
        except TimeoutError:
            return {"is_error": True, "text": f"no answer within {self.timeout:g}s", "raised": "TimeoutError"}
        except Exception as exc:  # a JSON-RPC error (the client raises) or a closed connection
            return {"is_error": True, "text": _message(exc), "raised": type(exc).__name__}
        return {"is_error": result_is_error(result), "text": result_text(result)[:TEXT_LIMIT], "raised": None}

    async def _drain(self, why: str) -> None:
        """Answer the remaining calls of a session that is not connected, until its close."""
        while not self.ended:
            message = await self.read()
            if message is None or message.get("op") != "call":
                break
            text = "the session was skipped" if why == "skipped" else "the session is not connected"
            self.write({"is_error": True, "text": text, "raised": "NotConnected"})
        self.write({"closed": True})


async def serve(setup: dict, read: Any, write: Any) -> None:
    while True:
        message = await read()
        if message is None:
            return
        if message.get("op") == "open":
            await Session(setup, read, write).run(message)


def main() -> int:
    import warnings

    warnings.simplefilter("ignore")  # the client side's own deprecation warnings are not what we verify
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but our JSON lines may reach the real stdout

    def write(obj: dict) -> None:
        out.write(json.dumps(obj, default=str) + "\n")
        out.flush()

    line = sys.stdin.readline()
    if not line:
        return 0
    setup = json.loads(line)
    try:
        import anyio
        import mcp  # noqa: F401
    except ImportError as exc:
        write({"hello": False, "error": f"no MCP SDK importable by {sys.executable}: {exc}"})
        return 0
    write(
        {
            "hello": True,
            "sdk": {"mcp": version("mcp"), "fastmcp": version("fastmcp")},
            "python": sys.executable,
            "modern": mcp_major() >= 2,
        }
    )

    async def read() -> dict | None:
        text = await anyio.to_thread.run_sync(sys.stdin.readline)
        return json.loads(text) if text.strip() else None

    anyio.run(serve, setup, read, write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
