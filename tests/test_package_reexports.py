"""Calls through a package's re-exports (`_roots_functions.Functions._reexported`): a tool imports a helper from
the package that re-exports it (`from ..config import resolve_base_dir`, where `config/__init__.py` holds
`from .base_dir import resolve_base_dir`). A shape of field servers (relace-mcp): the read was marked MR103
("no call migrate-roots can follow reaches it") while five tools reached it."""

from __future__ import annotations

import pytest

from tests import helpers
from tests.helpers import check_transformed, codes

BASE_DIR = """\
import os

from mcp.server.fastmcp import Context


async def resolve_base_dir(ctx: Context) -> str:
    if ctx.session.client_params is None:
        return os.getcwd()
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

BASE_DIR_AFTER = """\
import os

from mcp.server.fastmcp import Context

from pkg._mcp_roots_compat import list_roots_compat


async def resolve_base_dir(ctx: Context, root: str | None = None) -> str:
    if ctx.session.client_params is None:
        return os.getcwd()
    result = await list_roots_compat(ctx, root, name="root")
    return str(result.roots[0].uri)
"""

TOOL = """\
from mcp.server.fastmcp import Context, FastMCP

{import_}

mcp = FastMCP("x")


@mcp.tool()
async def search(query: str, ctx: Context) -> str:
    return f"{{await {call}(ctx)}}:{{query}}"
"""

TOOL_AFTER = """\
from typing import Annotated

from mcp.server.fastmcp import Context, FastMCP
from pydantic import Field

{import_}

# Explicit directory arguments, in place of MCP roots (deprecated in MCP 2026-07-28,
# SEP-2577).
RootPath = Annotated[
    str | None,
    Field(
        description="Absolute path (or file:// URI) of the directory this tool works "
        "in, usually the project or workspace root. Required when the MCP client does "
        "not provide roots."
    ),
]

mcp = FastMCP("x")


@mcp.tool()
async def search(query: str, ctx: Context, root: RootPath = None) -> str:
    return f"{{await {call}(ctx, root=root)}}:{{query}}"
"""

CALLS = {  # the tool's import and call, the re-exporting `__init__`s
    "relative": (
        "from .config import resolve_base_dir",
        "resolve_base_dir",
        {"config/__init__.py": "from .base_dir import resolve_base_dir\n\n__all__ = ['resolve_base_dir']\n"},
    ),
    "absolute": (
        "from pkg.config import resolve_base_dir",
        "resolve_base_dir",
        {"config/__init__.py": "from pkg.config.base_dir import resolve_base_dir  # noqa: F401\n"},
    ),
    "star": (
        "from .config import resolve_base_dir",
        "resolve_base_dir",
        {"config/__init__.py": "from .base_dir import *  # noqa: F403\n"},
    ),
    "renamed": (
        "from .config import base_dir_of",
        "base_dir_of",
        {"config/__init__.py": "from .base_dir import resolve_base_dir as base_dir_of\n"},
    ),
    "module-attribute": (
        "from . import config",
        "config.resolve_base_dir",
        {"config/__init__.py": "from .base_dir import resolve_base_dir\n"},
    ),
    "two-levels": (
        "from pkg import resolve_base_dir",
        "resolve_base_dir",
        {
            "__init__.py": "from .config import resolve_base_dir\n",
            "config/__init__.py": "from .base_dir import resolve_base_dir\n",
        },
    ),
}


def _run(tmp_path, init: dict[str, str], import_: str, call: str) -> list:
    extra = {"config/base_dir.py": BASE_DIR, **init}
    root = helpers._layout(tmp_path, TOOL.format(import_=import_, call=call), extra, True)
    return [f for r in helpers.run_engine(root, write=False) for f in r.findings]


def test_noop_a_package_that_defines_its_own_namesake_is_not_followed(tmp_path):
    # `config/__init__.py` defines `resolve_base_dir` itself (no roots): the tool calls that one, so the read
    # in base_dir.py is reached by nothing and stays marked.
    init = {"config/__init__.py": "import os\n\n\ndef resolve_base_dir(ctx):\n    return os.getcwd()\n"}
    found = _run(tmp_path, init, "from .config import resolve_base_dir", "resolve_base_dir")
    assert codes(found) == ["MR103"], found


def test_noop_a_reexport_of_another_name_is_not_followed(tmp_path):
    init = {"config/__init__.py": "from .base_dir import os as resolve_base_dir  # noqa: F401\n"}
    found = _run(tmp_path, init, "from .config import resolve_base_dir", "resolve_base_dir")
    assert codes(found) == ["MR103"], found


def test_noop_a_cycle_of_reexports_ends(tmp_path):
    init = {
        "config/__init__.py": "from .other import resolve_base_dir\n",
        "config/other.py": "from pkg.config import resolve_base_dir\n",
    }
    found = _run(tmp_path, init, "from .config import resolve_base_dir", "resolve_base_dir")
    assert codes(found) == ["MR103"], found


@pytest.mark.parametrize("spelling", list(CALLS))
def test_a_tool_reaches_roots_through_a_reexport(tmp_path, spelling):
    import_, call, init = CALLS[spelling]
    findings = check_transformed(
        tmp_path,
        TOOL.format(import_=import_, call=call),
        TOOL_AFTER.format(import_=import_, call=call),
        extra={"config/base_dir.py": BASE_DIR, **init},
        extra_after={"config/base_dir.py": BASE_DIR_AFTER, **init},
    )
    assert "MR101" in codes(findings) and "MR103" not in codes(findings), findings


STAR_CHAIN = {
    "helpers.py": "from mcp.server.fastmcp import Context\n\n\nasync def workspace(ctx: Context) -> str:\n"
    "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n",
    "mid.py": "from .helpers import *  # noqa: F403\n",
    "core.py": "from .mid import *  # noqa: F403\n",
    "direct.py": "from mcp.server.fastmcp import Context\n\nfrom .helpers import workspace\nfrom .server import mcp\n\n\n"
    "@mcp.tool()\nasync def here(ctx: Context) -> str:\n    return await workspace(ctx)\n",
}
STAR_SERVER = (
    "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .core import *  # noqa: F403\n\nmcp = FastMCP('t')\n\n\n"
    "@mcp.tool()\nasync def where(ctx: Context) -> str:\n    return await workspace(ctx)  # noqa: F405\n"
)


def test_a_tool_reaching_a_helper_through_a_chain_of_star_imports_is_threaded(tmp_path):
    """Sweep N, r09: `core` star-imports `mid`, which star-imports `helpers`; `mid.py` holds no token and was
    not read, so `where` got no argument and its clients the helper's error (the direct caller was threaded)."""
    root = helpers.package(tmp_path, {**STAR_CHAIN, "server.py": STAR_SERVER})
    results = helpers.run_engine(root, select=["MR1"])
    assert codes(f for r in results for f in r.findings) == ["MR101", "MR107"]
    text = (root / "pkg" / "server.py").read_text()
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text
    assert "workspace(ctx, root=root)" in text


@pytest.mark.parametrize(
    ("registration", "argument"),
    [("mcp.tool(where)", "workspace"), ("mcp.tool(where, exclude_args=['workspace'])", "root")],
)
def test_a_tool_registered_through_a_package_re_export_is_that_tool(tmp_path, registration, argument):
    """Sweep N, r10: `from pkg import where; mcp.tool(where)`, `where` defined in `pkg.tools` and re-exported by
    `pkg/__init__.py`: marked MR103 "which is not a tool". Its hidden `exclude_args` go with it."""
    tools = (
        "from fastmcp import Context\n\n\nasync def where(ctx: Context, workspace: str | None = None) -> str:\n"
        "    if workspace is None:\n        roots = await ctx.list_roots()\n        workspace = str(roots[0].uri)\n"
        "    return workspace\n"
    )
    server = f"from fastmcp import FastMCP\n\nfrom pkg import where\n\nmcp = FastMCP('t')\n{registration}\n"
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("from pkg.tools import where\n")
    (root / "pkg" / "tools.py").write_text(tools)
    (root / "pkg" / "server.py").write_text(server)
    findings = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert [(f.code, f.action.value) for f in findings] == [("MR102", "rewritten")], findings
    assert f"reads the `{argument}` argument" in findings[0].message
