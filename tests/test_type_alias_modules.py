"""`ctx` typed by an alias of the SDK's Context that another module of the package defines (sweep N r04 of
session 22: silent, while the same alias in the reading module was rewritten).

    # pkg/types_.py                          # pkg/server.py
    from mcp.server.mcpserver import Context  from pkg.types_ import Ctx
    Ctx = Context[AppState, Any]              async def where(ctx: Ctx):
                                                  result = await ctx.session.list_roots()

The alias stands for the class it names (`_sdk_alias`: `Ctx = Context`, `Context[S, T]`, `Context | None`,
`Optional[Context]`, `Ctx: TypeAlias = ...`, `type Ctx = ...`), wherever the module that reads it imports it
from. An alias of a class of the project's own is no SDK name.
"""

from __future__ import annotations

import pytest

from tests.helpers import codes, package, run_engine

SERVER = """\
from mcp.server.mcpserver import MCPServer

{imports}

mcp = MCPServer("ws")


@mcp.tool()
async def where(ctx: Ctx) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri) if result.roots else "."
"""

TYPES = """\
from dataclasses import dataclass
from typing import Any, Optional, TypeAlias, Union

from mcp.server.mcpserver import Context
from mcp.server.session import ServerSession


@dataclass
class AppState:
    name: str = "ws"


{alias}
"""


def _run(tmp_path, alias, imports="from pkg.types_ import Ctx", extra=None):
    files = {
        "server.py": SERVER.format(imports=imports),
        "types_.py": TYPES.format(alias=alias),
        **(extra or {}),
    }
    root = package(tmp_path, files)
    findings = [f for r in run_engine(root, select=["MR1"]) for f in r.findings]
    return findings, (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize(
    "alias",
    [
        pytest.param("Ctx = AppState", id="a-class-of-the-project"),
        pytest.param("Ctx = Optional[AppState]", id="optional-class-of-the-project"),
        pytest.param(
            "class Context:\n    session: Any\n\n\nCtx = Context", id="rebound-to-a-class-of-its-own"
        ),
    ],
)
def test_noop_an_alias_of_no_sdk_class(tmp_path, alias):
    findings, text = _run(tmp_path, alias)
    assert findings == [], findings
    assert "list_roots_compat" not in text


@pytest.mark.parametrize(
    ("alias", "imports"),
    [
        pytest.param("Ctx = Context[AppState, Any]", "from pkg.types_ import Ctx", id="generic"),
        pytest.param("Ctx = Context", "from pkg.types_ import Ctx", id="plain"),
        pytest.param("Ctx = Context | None", "from pkg.types_ import Ctx", id="or-none"),
        pytest.param("Ctx = Optional[Context[AppState, Any]]", "from pkg.types_ import Ctx", id="optional"),
        pytest.param("Ctx: TypeAlias = Context[AppState, Any]", "from pkg.types_ import Ctx", id="typealias"),
        pytest.param("Ctx = Union[Context, ServerSession]", "from pkg.types_ import Ctx", id="union-of-sdk"),
        pytest.param("Ctx = Union[AppState, Context]", "from pkg.types_ import Ctx", id="union-with-own"),
        pytest.param(
            "AppCtx = Context[AppState, Any]", "from .types_ import AppCtx as Ctx", id="relative-renamed"
        ),
        pytest.param("Ctx = Context", "from pkg import Ctx", id="reexported-by-the-package"),
    ],
)
def test_an_alias_of_another_module_is_rewritten(tmp_path, alias, imports):
    extra = {"__init__.py": "from .types_ import Ctx\n"} if imports == "from pkg import Ctx" else None
    findings, text = _run(tmp_path, alias, imports, extra)
    assert codes(findings) == ["MR101"], findings
    assert findings[0].message.startswith("`ctx.session.list_roots()` asks the client for roots/list"), (
        findings
    )
    assert "async def where(ctx: Ctx, root: RootPaths = None) -> str:" in text, text
    assert 'result = await list_roots_compat(ctx, root, name="root")' in text, text


def test_a_pep695_alias_of_another_module_is_rewritten(tmp_path):
    # `type Ctx = ...` is newer than 3.11's parser: the module is read with libcst then.
    findings, text = _run(tmp_path, "type Ctx = Context[AppState, Any]")
    assert codes(findings) == ["MR101"], findings
    assert 'result = await list_roots_compat(ctx, root, name="root")' in text, text


def test_an_alias_on_a_helper_of_another_module_mcp1(tmp_path):
    """mcp 1.x, `AppCtx = Context[ServerSession, AppState]` in types_.py typing a helper in roots.py."""
    files = {
        "types_.py": (
            "from mcp.server.fastmcp import Context\nfrom mcp.server.session import ServerSession\n\n\n"
            "class AppState: ...\n\n\nAppCtx = Context[ServerSession, AppState]\n"
        ),
        "roots.py": (
            "from pkg.types_ import AppCtx\n\n\nasync def workspace(ctx: AppCtx) -> str:\n"
            "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
        ),
        "server.py": (
            "from mcp.server.fastmcp import Context, FastMCP\n\nfrom pkg.roots import workspace\n\n"
            'mcp = FastMCP("ws")\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n'
            "    return await workspace(ctx)\n"
        ),
    }
    root = package(tmp_path, files)
    findings = [f for r in run_engine(root, select=["MR1"]) for f in r.findings]
    assert codes(findings) == ["MR101", "MR107"], findings
    helper = (root / "pkg" / "roots.py").read_text()
    assert "async def workspace(ctx: AppCtx, root: str | None = None) -> str:" in helper, helper
    assert "return await workspace(ctx, root=root)" in (root / "pkg" / "server.py").read_text()
