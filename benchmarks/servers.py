"""Roots-using MCP servers generated from a few templates (the shapes of tests/test_roots_call.py).

Shared by the benchmarks, the stress script and the reliability tests. `write_servers(folder, n, seed)` lays out
`n` packages `srvNNNNN/` (an `__init__.py`, a `server.py`, and for some shapes a `workspace.py` helper).
"""

from __future__ import annotations

import random
from pathlib import Path

SDK_IMPORT = "from mcp.server.fastmcp import Context, FastMCP"

DIRECT = '''\
{header}
mcp = FastMCP("{server}")


@mcp.tool()
async def {tool}(ctx: Context) -> str:
    """Where am I?"""
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
{filler}'''

REQUEST_CONTEXT = """\
from mcp.server import fastmcp as fm

server = fm.FastMCP("{server}")


@server.tool(name="{tool}")
async def {tool}(c: fm.Context) -> list[str]:
    res = await c.request_context.session.list_roots()
    return [str(r.uri) for r in res.roots]
{filler}"""

FASTMCP = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("{server}")


@mcp.tool
async def {tool}(ctx: Context) -> str:
    roots = await ctx.list_roots()  # fastmcp returns a list
    return str(roots[0].uri)
{filler}"""

HELPER_TOOL = """\
{header}
from .workspace import {helper}

mcp = FastMCP("{server}")


@mcp.tool()
async def {tool}(ctx: Context) -> str:
    return str(await {helper}(ctx))
{filler}"""

HELPER = """\
from mcp.server.fastmcp import Context


async def {helper}(ctx: Context):
    result = await ctx.session.list_roots()
    return result.roots[0].uri
"""

EXISTING = """\
{header}

mcp = FastMCP("{server}")


@mcp.tool()
async def {tool}(ctx: Context, repo_path: str | None = None) -> str:
    if repo_path is None:
        result = await ctx.session.list_roots()
        repo_path = str(result.roots[0].uri)
    return repo_path
{filler}"""

STARTUP = """\
{header}

mcp = FastMCP("{server}")


async def on_ready(ctx: Context):
    await ctx.session.list_roots()
{filler}"""

TEMPLATES = (DIRECT, REQUEST_CONTEXT, FASTMCP, HELPER_TOOL, EXISTING, STARTUP)

FILLER = '''

def {name}(values: list[int], factor: int = {n}) -> dict[str, int]:
    """Some ordinary code, so files have a realistic size."""
    out: dict[str, int] = {{}}
    for index, value in enumerate(values):
        if value % {m} == 0:
            out[f"k{{index}}"] = value * factor
        else:
            out[f"k{{index}}"] = sum(v for v in values[:index]) - factor
    return out
'''


# Benchmark 2's everyday-names variant: tools and helpers named like half the functions of any library.
EVERYDAY = ("find", "tree", "where", "get", "run")


def server_source(index: int, rng: random.Random, names: tuple[str, ...] = ()) -> tuple[str, str | None]:
    """(server.py text, workspace.py text or None) for server number `index`; tools named `tool_N`, or after
    `names` (the helper too, then)."""
    template = TEMPLATES[index % len(TEMPLATES)]
    filler = "".join(
        FILLER.format(name=f"compute_{k}", n=rng.randint(1, 9), m=rng.randint(2, 7))
        for k in range(rng.randint(2, 12))
    )
    tool = names[index % len(names)] if names else f"tool_{index}"
    helper = names[(index + 1) % len(names)] if names else "project_dir"
    text = template.format(
        header=SDK_IMPORT, server=f"server-{index}", tool=tool, helper=helper, filler=filler
    )
    return text, HELPER.format(helper=helper) if template is HELPER_TOOL else None


def write_servers(
    folder: Path, count: int, seed: int = 0, prefix: str = "srv", names: tuple[str, ...] = ()
) -> list[Path]:
    rng = random.Random(seed)
    written = []
    for index in range(count):
        pkg = folder / f"{prefix}{index:05d}"
        pkg.mkdir(parents=True, exist_ok=True)
        (pkg / "__init__.py").write_text("")
        text, helper = server_source(index, rng, names)
        (pkg / "server.py").write_text(text)
        written.append(pkg / "server.py")
        if helper is not None:
            (pkg / "workspace.py").write_text(helper)
            written.append(pkg / "workspace.py")
    return written
