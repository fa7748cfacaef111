"""Drive one MCP server with its own SDK line's client and print what the client saw, as JSON.

Run with the python of an SDK env (see envs.py), never the main test env::

    python driver.py --server servers/mcp2_mcpserver.py --attr mcp --line mcp2 --transport inproc \
        --era legacy-roots --tool where --args '{"root": "/tmp"}' --roots file:///tmp/x

prints one JSON object::

    {"era": ..., "tool": ..., "args": ..., "skipped": false, "tools": [names], "input_schema": {...},
     "is_error": bool, "text": "joined text content, or the error message", "raised": null | "ExcType"}

``--batch '[{"era": ..., "tool": ..., "args": {...}, "roots": [...]}, ...]'`` runs several calls in one
process (one connection per distinct era/roots pair) and prints ``{"results": [...]}`` in input order.

Eras: ``legacy-roots`` (handshake era, the client answers roots/list with ``--roots``), ``legacy-noroots``
(handshake era, no roots capability), ``modern`` (2026-07-28; the client still has a roots callback, which is
the trap: the capability is declared but roots/list cannot be sent). Lines without a modern era (mcp1,
fastmcp2, fastmcp3) report modern calls as skipped.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

ERAS = ("legacy-roots", "legacy-noroots", "modern")
LINES = ("mcp1", "mcp2", "fastmcp2", "fastmcp3", "fastmcp4")
NO_MODERN_ERA = {"mcp1", "fastmcp2", "fastmcp3"}
MODERN_VERSION = "2026-07-28"
CALL_TIMEOUT_S = 60


def load_server(path: Path, attr: str) -> Any:
    sys.path.insert(0, str(path.parent))  # the shim sits next to the server
    spec = importlib.util.spec_from_file_location(f"_driven_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return getattr(module, attr)


def _child_env() -> dict[str, str]:
    # The SDKs' stdio clients pass only a few variables on by default; the allow-list must reach the server.
    return dict(os.environ)


def _schema(tool: Any) -> Any:
    schema = getattr(tool, "input_schema", None)
    if schema is None:
        schema = getattr(tool, "inputSchema", None)
    return schema


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


# --------------------------------------------------------------------------------------------------------
# One "connection" per line: an async context manager yielding (list_tools, call_tool) coroutines
# --------------------------------------------------------------------------------------------------------


class _Conn:
    def __init__(self, list_tools, call_tool):
        self.list_tools = list_tools
        self.call_tool = call_tool


def _mcp1_connect(server: Any, server_path: Path, transport: str, era: str, roots: list[str]):
    from contextlib import asynccontextmanager

    import mcp.types as types
    from mcp import ClientSession

    callback = None
    if era == "legacy-roots":

        async def callback(context: Any) -> types.ListRootsResult:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots])

    @asynccontextmanager
    async def connect():
        if transport == "inproc":
            from mcp.shared.memory import create_connected_server_and_client_session

            async with create_connected_server_and_client_session(
                server, list_roots_callback=callback
            ) as session:
                yield _session_conn(session)
        else:
            from mcp import StdioServerParameters
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(command=sys.executable, args=[str(server_path)], env=_child_env())
            async with (
                stdio_client(params) as (read, write),
                ClientSession(read, write, list_roots_callback=callback) as session,
            ):
                await session.initialize()
                yield _session_conn(session)

    def _session_conn(session: Any) -> _Conn:
        async def list_tools():
            return (await session.list_tools()).tools

        async def call_tool(name, args):
            return await session.call_tool(name, args)

        return _Conn(list_tools, call_tool)

    return connect()


def _mcp2_connect(server: Any, server_path: Path, transport: str, era: str, roots: list[str]):
    from contextlib import asynccontextmanager

    import mcp.types as types
    from mcp import Client

    callback = None
    if era in ("legacy-roots", "modern"):  # modern keeps the callback: the client then declares roots

        async def callback(context: Any) -> types.ListRootsResult:
            return types.ListRootsResult(roots=[types.Root(uri=u) for u in roots])

    mode = MODERN_VERSION if era == "modern" else "legacy"

    @asynccontextmanager
    async def connect():
        if transport == "inproc":
            target: Any = server
        else:
            from mcp import StdioServerParameters

            target = StdioServerParameters(command=sys.executable, args=[str(server_path)], env=_child_env())
        async with Client(target, mode=mode, list_roots_callback=callback) as client:

            async def list_tools():
                return (await client.list_tools()).tools

            async def call_tool(name, args):
                return await client.call_tool(name, args)

            yield _Conn(list_tools, call_tool)

    return connect()


def _fastmcp_connect(line: str):
    def connect_for(server: Any, server_path: Path, transport: str, era: str, roots: list[str]):
        from contextlib import asynccontextmanager

        import fastmcp

        kwargs: dict[str, Any] = {}
        if era in ("legacy-roots", "modern"):
            kwargs["roots"] = list(roots)
        if line == "fastmcp4":
            kwargs["mode"] = MODERN_VERSION if era == "modern" else "legacy"

        @asynccontextmanager
        async def connect():
            if transport == "inproc":
                target: Any = _fastmcp_memory(server) if line == "fastmcp4" else server
            else:
                from fastmcp.client.transports import StdioTransport

                target = StdioTransport(command=sys.executable, args=[str(server_path)], env=_child_env())
            async with fastmcp.Client(target, **kwargs) as client:

                async def list_tools():
                    return await client.list_tools()

                async def call_tool(name, args):
                    return await client.call_tool(name, args, raise_on_error=False)

                yield _Conn(list_tools, call_tool)

        return connect()

    return connect_for


def _fastmcp_memory(server: Any) -> Any:
    """fastmcp 4's in-memory transport for an mcp 2.x low-level `Server` (it infers one only for FastMCP and
    the SDK's MCPServer, whose low-level server it then runs: so hand it an MCPServer around ours)."""
    from mcp.server.lowlevel import Server

    if not isinstance(server, Server):
        return server
    from fastmcp.client.transports import FastMCPTransport
    from mcp.server.mcpserver import MCPServer

    holder = MCPServer(server.name)
    holder._lowlevel_server = server  # what FastMCPTransport runs (fastmcp/client/transports/memory.py)
    return FastMCPTransport(holder)


CONNECT = {
    "mcp1": _mcp1_connect,
    "mcp2": _mcp2_connect,
    "fastmcp2": _fastmcp_connect("fastmcp2"),
    "fastmcp3": _fastmcp_connect("fastmcp3"),
    "fastmcp4": _fastmcp_connect("fastmcp4"),
}


async def run_calls(
    server: Any, server_path: Path, line: str, transport: str, calls: list[dict]
) -> list[dict]:
    import anyio

    results: list[dict] = [dict() for _ in calls]
    groups: dict[tuple, list[int]] = {}
    for index, call in enumerate(calls):
        groups.setdefault((call["era"], tuple(call.get("roots") or ())), []).append(index)

    for (era, roots), indexes in groups.items():
        if era == "modern" and line in NO_MODERN_ERA:
            for i in indexes:
                results[i] = {**calls[i], "skipped": True, "reason": f"{line} has no {MODERN_VERSION} era"}
            continue
        try:
            with anyio.fail_after(CALL_TIMEOUT_S * (1 + len(indexes))):
                async with CONNECT[line](server, server_path, transport, era, list(roots)) as conn:
                    tools = await conn.list_tools()
                    by_name = {t.name: t for t in tools}
                    for i in indexes:
                        call = calls[i]
                        out = {**calls[i], "skipped": False, "tools": sorted(by_name)}
                        tool = by_name.get(call["tool"])
                        out["input_schema"] = _schema(tool) if tool is not None else None
                        try:
                            result = await conn.call_tool(call["tool"], call.get("args") or {})
                        except Exception as exc:  # a JSON-RPC error: the client raises
                            out.update(is_error=True, text=str(exc), raised=type(exc).__name__)
                        else:
                            out.update(is_error=_is_error(result), text=_text(result), raised=None)
                        results[i] = out
        except Exception as exc:  # the connection itself failed: report it on each call of the group
            detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))[-3000:]
            for i in indexes:
                if not results[i]:
                    results[i] = {
                        **calls[i],
                        "skipped": False,
                        "is_error": True,
                        "connection_error": detail,
                        "text": str(exc),
                        "raised": type(exc).__name__,
                    }
    return results


def _json_default(obj: Any) -> Any:
    if hasattr(obj, "model_dump"):
        return obj.model_dump(mode="json")
    return str(obj)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, type=Path)
    parser.add_argument("--attr", default="mcp", help="the module attribute holding the server")
    parser.add_argument("--line", required=True, choices=LINES)
    parser.add_argument("--transport", default="inproc", choices=("inproc", "stdio"))
    parser.add_argument("--era", choices=ERAS)
    parser.add_argument("--tool")
    parser.add_argument("--args", default="{}", help="JSON object of tool arguments")
    parser.add_argument(
        "--roots", nargs="*", default=[], help="file:// URIs the client answers roots/list with"
    )
    parser.add_argument("--batch", help="JSON list of {era, tool, args, roots} calls")
    parser.add_argument(
        "--lenient-warnings", action="store_true", help="do not turn MCPDeprecationWarning into errors"
    )
    opts = parser.parse_args(argv)

    if opts.batch:
        calls = json.loads(opts.batch)
    elif opts.era and opts.tool:
        calls = [{"era": opts.era, "tool": opts.tool, "args": json.loads(opts.args), "roots": opts.roots}]
    else:
        parser.error("give --era and --tool, or --batch")

    # The shim must keep a server working under `-W error` for the SDK's roots deprecation warning.
    # --lenient-warnings: for the baseline run of an UNMIGRATED server, whose roots call warns by design.
    try:
        if opts.lenient_warnings:
            raise ImportError
        from mcp import MCPDeprecationWarning  # mcp 2.x only

        warnings.filterwarnings("error", category=MCPDeprecationWarning)
    except ImportError:
        pass

    server_path = opts.server.resolve()
    server = load_server(server_path, opts.attr)

    import anyio

    results = anyio.run(run_calls, server, server_path, opts.line, opts.transport, calls)
    payload: Any = {"results": results} if opts.batch else results[0]
    print(json.dumps(payload, default=_json_default))
    return 0


if __name__ == "__main__":
    sys.exit(main())
