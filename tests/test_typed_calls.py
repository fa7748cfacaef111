"""Calls through a typed value (codemods/program/typed.py): a tool reaches a roots read through a method of a
service object that a getter hands out (`get_service() -> Service`, then `.enrich(...)`), or that a parameter
annotation names. A shape of field servers (project-synthesis, promptforge): the read was marked MR103 ("no
call migrate-roots can follow reaches it") while three tools reached it."""

from __future__ import annotations

import pytest

from tests import helpers
from tests.helpers import check_transformed, codes

SERVICE = """\
from typing import Any


class Service:
    async def enrich(self, prompt: str, mcp_ctx: Any | None = None) -> str:
        if mcp_ctx:
            try:
                result = await mcp_ctx.session.list_roots()
                return f"{prompt} {result.roots[0].uri}"
            except Exception:
                return prompt
        return prompt
"""

SERVICE_AFTER = """\
from typing import Any

from pkg._mcp_roots_compat import list_roots_compat


class Service:
    async def enrich(
        self, prompt: str, mcp_ctx: Any | None = None, root: str | None = None
    ) -> str:
        if mcp_ctx:
            try:
                result = await list_roots_compat(mcp_ctx, root, name="root")
                return f"{prompt} {result.roots[0].uri}"
            except Exception:
                return prompt
        return prompt
"""

DEPS = """\
from pkg.service import Service

_service: Service | None = None


def get_service() -> Service:
    if _service is None:
        raise ValueError("not initialised")
    return _service
"""

HEAD = """\
from mcp.server.fastmcp import Context, FastMCP

from pkg.deps import get_service
from pkg.service import Service

mcp = FastMCP("x")
"""

HEAD_AFTER = """\
from typing import Annotated

from mcp.server.fastmcp import Context, FastMCP
from pydantic import Field

from pkg.deps import get_service
from pkg.service import Service

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
"""

CHAINED = (
    """

@mcp.tool()
async def optimize(prompt: str, ctx: Context) -> str:
    return await get_service().enrich(prompt, mcp_ctx=ctx)
""",
    """

@mcp.tool()
async def optimize(prompt: str, ctx: Context, root: RootPath = None) -> str:
    return await get_service().enrich(prompt, mcp_ctx=ctx, root=root)
""",
)
LOCAL = (
    """

@mcp.tool()
async def refine(prompt: str, ctx: Context) -> str:
    service = get_service()
    return await service.enrich(prompt, mcp_ctx=ctx)
""",
    """

@mcp.tool()
async def refine(prompt: str, ctx: Context, root: RootPath = None) -> str:
    service = get_service()
    return await service.enrich(prompt, mcp_ctx=ctx, root=root)
""",
)
PARAM = (
    """

async def run(service: Service, prompt: str, ctx: Context) -> str:
    return await service.enrich(prompt, ctx)


@mcp.tool()
async def probe(prompt: str, ctx: Context) -> str:
    return await run(get_service(), prompt, ctx)
""",
    """

async def run(
    service: Service, prompt: str, ctx: Context, root: str | None = None
) -> str:
    return await service.enrich(prompt, ctx, root=root)


@mcp.tool()
async def probe(prompt: str, ctx: Context, root: RootPath = None) -> str:
    return await run(get_service(), prompt, ctx, root=root)
""",
)


@pytest.mark.parametrize(
    "spelling", [CHAINED, LOCAL, PARAM], ids=["getter-call", "getter-local", "annotated"]
)
def test_a_tool_reaches_roots_through_a_method_of_a_typed_value(tmp_path, spelling):
    before, after = spelling
    findings = check_transformed(
        tmp_path,
        HEAD + before,
        HEAD_AFTER + after,
        extra={"service.py": SERVICE, "deps.py": DEPS},
        extra_after={"service.py": SERVICE_AFTER, "deps.py": DEPS},
    )
    assert "MR101" in codes(findings) and "MR103" not in codes(findings)


@pytest.mark.parametrize(
    "getter",
    [
        "def get_service():\n    return _service\n",  # no return annotation: the value is not typed
        "def get_service() -> 'Service':\n    return _service\n",  # a string: not followed
    ],
)
def test_noop_a_getter_without_a_plain_return_class_is_not_followed(tmp_path, getter):
    deps = DEPS.split("def get_service")[0] + getter
    root = helpers._layout(tmp_path, HEAD + CHAINED[0], {"service.py": SERVICE, "deps.py": deps}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert codes(found) == ["MR103"], found
    assert "no call migrate-roots can follow reaches" in found[0].message


def test_a_getter_beside_its_class_leads_the_files_two_imports_away_in(tmp_path):
    """`get_service() -> Service` in the module of `Service`: its importer (`mid.py`) joins the run, and the
    tool that imports `mid` joins after it (measured: neither did, and the read was reported by no one)."""
    service = SERVICE + "\n\ndef get_service() -> Service:\n    return Service()\n"
    mid = (
        "from pkg.service import get_service\n\n\n"
        "async def run(prompt, ctx):\n    return await get_service().enrich(prompt, mcp_ctx=ctx)\n"
    )
    server = HEAD.replace(
        "from pkg.deps import get_service\nfrom pkg.service import Service\n", "from pkg.mid import run\n"
    )
    server += "\n\n@mcp.tool()\nasync def optimize(prompt: str, ctx: Context) -> str:\n    return await run(prompt, ctx)\n"
    root = helpers._layout(tmp_path, server, {"service.py": service, "mid.py": mid}, True)
    found = [f for r in helpers.run_engine(root) for f in r.findings]
    assert "MR101" in codes(found) and "MR103" not in codes(found), found
    assert (
        "async def optimize(prompt: str, ctx: Context, root: RootPath = None)"
        in (root / "pkg/server.py").read_text()
    )


# --- a module-level instance of a package class: `workspace = Workspace()`, then `workspace.load(ctx)` -------

_INSTANCE_CLASS = """\
from mcp.server.fastmcp import Context


class Workspace:
    async def load(self, ctx: Context) -> list[str]:
        result = await ctx.session.list_roots()
        return [str(r.uri) for r in result.roots]
"""

_INSTANCE_TOOL = """\
from mcp.server.fastmcp import Context, FastMCP
{imports}
mcp = FastMCP("files")
{instance}

@mcp.tool()
async def where(ctx: Context) -> str:
    return str(await workspace.load(ctx))
"""


@pytest.mark.parametrize(
    ("imports", "instance", "extra"),
    [
        ("\nfrom .workspace import Workspace\n", "workspace = Workspace()\n", "{}"),
        ("\nfrom .workspace import Workspace\n", "workspace: Workspace = Workspace()\n", "{}"),
        ("\nfrom .workspace import workspace\n", "", "workspace = Workspace()\n"),
        ("\nfrom . import workspace as ws\n", "workspace = ws.workspace\n", "workspace = Workspace()\n"),
    ],
    ids=["same-module", "annotated", "imported", "module-attribute"],
)
def test_a_tool_reaches_roots_through_a_module_level_instance(tmp_path, imports, instance, extra):
    server = _INSTANCE_TOOL.format(imports=imports, instance=instance)
    module = _INSTANCE_CLASS + ("\n\n" + extra if extra != "{}" else "")
    root = helpers._layout(tmp_path, server, {"workspace.py": module}, True)
    found = [f for r in helpers.run_engine(root) for f in r.findings]
    text = (root / "pkg" / "server.py").read_text()
    if instance == "workspace = ws.workspace\n":
        # An alias of another module's instance is not followed: marked, and the reason says so.
        assert codes(found) == ["MR103"], found
        assert "called through a value it cannot type" in found[0].message
        return
    assert codes(found) == ["MR101", "MR107"], found
    assert "async def where(ctx: Context, root: RootPaths = None) -> str:" in text
    assert "return str(await workspace.load(ctx, root=root))" in text
    assert (
        "async def load(self, ctx: Context, root: list[str] | None = None)"
        in (root / "pkg" / "workspace.py").read_text()
    )


@pytest.mark.parametrize(
    "binding",
    ["workspace = Workspace()\nworkspace = Workspace()\n", "workspace = make()\n"],
    ids=["bound-twice", "not-a-class"],
)
def test_noop_an_instance_bound_twice_or_by_a_function_is_not_followed(tmp_path, binding):
    server = _INSTANCE_TOOL.format(
        imports="\nfrom .workspace import Workspace\n",
        instance="\n\ndef make():\n    return Workspace()\n\n\n" + binding,
    )
    root = helpers._layout(tmp_path, server, {"workspace.py": _INSTANCE_CLASS}, True)
    found = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert codes(found) == ["MR103"], found
