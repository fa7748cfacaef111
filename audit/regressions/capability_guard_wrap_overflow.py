# Regression: widening a roots-capability check for the new argument wraps the `if` test one operand a line,
# and the old condition, now four columns further in after `or `, overflows the line length (E501).
#
# Found on: coco-search at its pinned commit (src/cocosearch/mcp/project_detection.py, `_detect_project`), by
# the field check's lint step: the 88-column `if session.check_client_capability(...):` became
# `if (\n    root_path is not None\n    or session.check_client_capability(...)  # 91 columns\n):`.
# Reproduce: save as pkg/server.py in a git work tree (no ruff or black configuration: 88 columns), commit,
# run `migrate-roots apply pkg`, then `ruff check --isolated --select E501 pkg`: a new "Line too long
# (91 > 88)" on the `or` line (`_capability_guard.widen` with `wrap`; these header lines are long before and
# after alike).
# Expected: no new E501. When the operand still overflows its own line, lay it out as ruff's formatter does
# (split inside the operand's outermost brackets: `or session.check_client_capability(\n
# ClientCapabilities(roots=RootsCapability())\n)`), as `roots_call._wrap_at` does for a call.
from pathlib import Path

from mcp.server.fastmcp import Context, FastMCP
from mcp.types import ClientCapabilities, RootsCapability

mcp = FastMCP("wrap")


async def detect_project(ctx: Context) -> Path:
    try:
        session = ctx.session
        if session.check_client_capability(ClientCapabilities(roots=RootsCapability())):
            result = await session.list_roots()
            for root in result.roots:
                return Path(str(root.uri).removeprefix("file://"))
    except Exception:
        pass
    return Path.cwd()


@mcp.tool()
async def where(ctx: Context) -> str:
    return str(await detect_project(ctx))
