"""A roots read through a class of another distribution that migrate-roots does not know (sweep Q, r01: mcp-use's
`from mcp_use.server import Context, MCPServer`, whose classes subclass mcp 1.x FastMCP's). It cannot verify a
framework it does not support: reported MR103 with that reason, never rewritten, in a module or package that uses
the SDK. A client's class, another library's, the project's own, and a method definition stay quiet."""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine

SERVER = """\
from mcp.types import ToolAnnotations
{imports}

server = MCPServer(name="files")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True))
async def first_workspace({param}) -> str:
    roots = await {read}
    return str(roots)
"""


def _scan(tmp_path, files):
    root = package(tmp_path, files)
    return [f for r in run_engine(root, write=False) for f in r.findings]


@pytest.mark.parametrize(
    ("imports", "param", "read"),
    [
        (
            "from mcp.client.session import ClientSession\nMCPServer = object",
            "ctx: ClientSession",
            "ctx.list_roots()",
        ),
        ("from fastmcp import Client\nMCPServer = object", "ctx: Client", "ctx.list_roots()"),
        (
            "from mypy_boto3_organizations import OrganizationsClient\nMCPServer = object",
            "org: OrganizationsClient",
            "org.list_roots()",
        ),
        ("from storage.api import Bucket\nMCPServer = object", "bucket: Bucket", "bucket.list_roots()"),
        ("from myapp import AppContext\nMCPServer = object", "ctx: AppContext", "ctx.session.list_roots()"),
        ("from sqlalchemy.orm import Session\nMCPServer = object", "db: Session", "db.list_roots()"),
        ("from .ctx import AppContext\nMCPServer = object", "ctx: AppContext", "ctx.session.list_roots()"),
        ("from mcp_use.server import Context, MCPServer", "ctx: Context", "ctx.other.list_roots()"),
    ],
)
def test_a_known_or_unrelated_class_stays_quiet(tmp_path, imports, param, read):
    ctx = "class AppContext:\n    session = None\n"
    source = SERVER.format(imports=imports, param=param, read=read)
    assert codes(_scan(tmp_path, {"server.py": source, "ctx.py": ctx})) == []


def test_a_list_roots_method_definition_is_no_call(tmp_path):
    source = """\
    from mcp.types import Root
    from mcp_use.server import Context


    class Folders(Context):
        async def list_roots(self) -> list[Root]:
            return []
    """
    assert codes(_scan(tmp_path, {"server.py": source})) == []


def test_a_package_that_never_uses_the_sdk_stays_quiet(tmp_path):
    source = (
        "from mcp_use.server import Context, MCPServer\n\nserver = MCPServer(name='x')\n\n\n@server.tool()\n"
        "async def where(ctx: Context) -> str:\n    return str(await ctx.list_roots())\n"
    )
    assert codes(_scan(tmp_path, {"server.py": source})) == []


@pytest.mark.parametrize(
    ("imports", "param", "read", "through"),
    [
        (
            "from mcp_use.server import Context, MCPServer",
            "ctx: Context",
            "ctx.list_roots()",
            "`ctx` annotated `Context`",
        ),
        (
            "from mcp_use.server import Context, MCPServer",
            "ctx: Context",
            "ctx.session.list_roots()",
            "`ctx.session`, of `ctx` annotated `Context`",
        ),
        (
            "from mcp_use.server import Context, MCPServer",
            "ctx: Context",
            "ctx.request_context.session.list_roots()",
            "`ctx.request_context.session`, of `ctx` annotated `Context`",
        ),
        (
            "from typing import Optional\nfrom mcp_use.server import Context, MCPServer",
            "ctx: Optional[Context] = None",
            "ctx.list_roots()",
            "`ctx` annotated `Context`",
        ),
        (
            "from mcp_use.server import Context, MCPServer",
            'ctx: "Context | None" = None',
            "ctx.list_roots()",
            "`ctx` annotated `Context`",
        ),
        (
            "import mcp_use.server as mu\nMCPServer = mu.MCPServer",
            "ctx: mu.Context",
            "ctx.list_roots()",
            "`ctx` annotated `mu.Context`",
        ),
    ],
)
def test_a_read_through_a_class_it_does_not_know_is_reported(tmp_path, imports, param, read, through):
    source = SERVER.format(imports=imports, param=param, read=read)
    findings = _scan(tmp_path, {"server.py": source})
    assert codes(findings) == ["MR103"], findings
    assert findings[0].message.startswith(
        f"roots read through {through} from `mcp_use.server`, a class migrate-roots does not know as an MCP "
        "context or session, so it rewrites nothing here; if it is one (a framework built on the SDK)"
    ), findings[0].message
    assert "give the tool a path argument by hand" in findings[0].message


def test_a_router_module_of_a_package_that_uses_the_sdk_is_reported(tmp_path):
    routes = (
        "from mcp_use.server import Context, MCPRouter\n\nrouter = MCPRouter()\n\n\n@router.tool()\n"
        "async def project(ctx: Context) -> str:\n    roots = await ctx.list_roots()\n"
        "    return str(roots[0].uri) if roots else '.'\n"
    )
    server = (
        "from mcp.server.fastmcp.utilities.types import Image  # noqa: F401\nfrom mcp_use.server import MCPServer\n\n"
        "from .routes import router\n\nserver = MCPServer(name='files')\nserver.include_router(router)\n"
    )
    findings = _scan(tmp_path, {"routes.py": routes, "server.py": server})
    assert [(f.code, f.path, f.line) for f in findings] == [("MR103", "pkg/routes.py", 8)]
    assert "`ctx` annotated `Context` from `mcp_use.server`" in findings[0].message
