"""A mcp 2.x server migrated by hand, wrongly, for `verify` to catch (plus one tool done right).

- `where`: as `apply` leaves it (passes every check);
- `where_cwd`: falls back to the working directory when `root` is missing (a legacy client with roots gets
  the wrong folder, a modern one an answer instead of the error naming `root`);
- `crash`: raises a plain exception without `root` (the error does not name the argument);
- `hang`: its first call blocks the whole server (a per-call timeout, then the server must still be ended);
- `die`: ends the server process during the call (listed last: the session's other calls are done by then).
Each server process writes its pid to $VERIFY_PID_DIR, so that a test can check they were all ended.
"""

import os
import time
from pathlib import Path
from typing import Annotated
from urllib.parse import unquote, urlparse

from _mcp_roots_compat import list_roots_compat
from mcp.server.mcpserver import Context, MCPServer
from pydantic import Field

RootPath = Annotated[
    str | None,
    Field(
        description="Absolute path (or file:// URI) of the directory this tool works in, usually the "
        "project or workspace root. Required when the MCP client does not provide roots."
    ),
]

mcp = MCPServer("verify-broken")
if os.environ.get("VERIFY_PID_DIR"):
    Path(os.environ["VERIFY_PID_DIR"], str(os.getpid())).write_text("")


def _path(result) -> str:
    return unquote(urlparse(str(result.roots[0].uri)).path)


@mcp.tool()
async def where(ctx: Context, root: RootPath = None) -> str:
    return _path(await list_roots_compat(ctx, root, name="root"))


@mcp.tool()
async def where_cwd(ctx: Context, root: RootPath = None) -> str:
    return root or os.getcwd()


@mcp.tool()
async def crash(ctx: Context, root: RootPath = None) -> str:
    if root is None:
        raise RuntimeError("no directory")
    return root


@mcp.tool()
async def hang(ctx: Context, root: RootPath = None) -> str:
    flag = Path(os.environ["VERIFY_PID_DIR"], "hung")
    if not flag.exists():
        flag.write_text("")
        time.sleep(3600)  # blocks the event loop: only ending the process stops it
    return _path(await list_roots_compat(ctx, root, name="root"))


@mcp.tool()
async def die(ctx: Context, root: RootPath = None) -> str:
    os._exit(1)  # the server process dies in the middle of the call


if __name__ == "__main__":
    mcp.run()
