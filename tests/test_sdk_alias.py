"""SDK names through the project's own re-export module (codemods/_sdk_alias.py).

Measured on the field (clew, mcp 2.x): `from ._sdk import Context, MCPServer`, where `_sdk.py` imports both
from the SDK; the roots read under `ctx: Context` got no finding at all, and the tool registered by
`mcp.add_tool(...)` on the `MCPServer` was not seen. The e2e is tests/test_program_model_e2e.py (`sdk.py`).
"""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
{imports}


class State:
    async def first(self, ctx: {ctx}) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)


def build() -> {server}:
    app = {server}("x")
    state = State()

    async def status(ctx: {ctx}) -> str:
        return await state.first(ctx)

    app.add_tool(status, name="status")
    return app
"""


def _run(tmp_path, files: dict[str, str]):
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root)
    return [(f.code, f.action.value) for r in results for f in r.findings], (
        root / "pkg" / "server.py"
    ).read_text()


SDK2 = "from mcp.server import MCPServer\nfrom mcp.server.mcpserver.context import Context\n"
SDK1 = "from mcp.server.fastmcp import Context, FastMCP\n"


def test_noop_a_project_class_of_the_same_name_is_not_the_sdks(tmp_path):
    """`_sdk.py` imports the SDK's server but defines its own `Context`: a read under it is no MCP call."""
    sdk = SDK1.replace("Context, ", "") + "\n\nclass Context:\n    session = None\n"
    findings, text = _run(
        tmp_path,
        {
            "_sdk.py": sdk,
            "server.py": SERVER.format(
                imports="from ._sdk import Context, FastMCP", ctx="Context", server="FastMCP"
            ),
        },
    )
    assert findings == [] and "list_roots_compat" not in text


@pytest.mark.parametrize(
    ("sdk_file", "sdk", "imports", "ctx", "server"),
    [
        ("_sdk.py", SDK2, "from ._sdk import Context, MCPServer", "Context", "MCPServer"),
        ("_sdk.py", SDK1, "from pkg._sdk import Context, FastMCP", "Context", "FastMCP"),
        (
            "compat.py",
            SDK1.replace("Context, FastMCP", "Context as Ctx, FastMCP as App"),
            "from .compat import App, Ctx",
            "Ctx",
            "App",
        ),
        ("sdk/__init__.py", SDK2, "from .sdk import Context, MCPServer", "Context", "MCPServer"),
        ("sdk/__init__.py", SDK2, "from . import sdk", "sdk.Context", "sdk.MCPServer"),
    ],
    ids=["mcp2-relative", "mcp1-absolute", "aliased", "package", "module-attribute"],
)
def test_the_read_under_a_reexported_context_is_rewritten(tmp_path, sdk_file, sdk, imports, ctx, server):
    findings, text = _run(
        tmp_path, {sdk_file: sdk, "server.py": SERVER.format(imports=imports, ctx=ctx, server=server)}
    )
    assert ("MR101", "rewritten") in findings, findings
    assert 'result = await list_roots_compat(ctx, root, name="root")' in text, text
    assert "async def status(ctx: " + ctx + ", root: RootPath = None) -> str:" in text, text
    assert not helpers.flakes(text), helpers.flakes(text)


SUBCLASS = """\
{imports}


class {cls}({bases}):
    \"\"\"The project's own server class.\"\"\"


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)


{instance}
"""

MODULE_LEVEL = """\
mcp = {cls}("x")


@mcp.tool()
async def where(ctx: Context) -> str:
    return await first_root(ctx)
"""

FACTORY = """\
def build() -> {cls}:
    mcp = {cls}("x")

    @mcp.tool()
    async def where(ctx: Context) -> str:
        return await first_root(ctx)

    return mcp
"""


@pytest.mark.parametrize(
    ("imports", "bases", "instance"),
    [
        ("from mcp.server.fastmcp import Context, FastMCP", "FastMCP", MODULE_LEVEL),
        ("from mcp.server.fastmcp import Context, FastMCP", "FastMCP", FACTORY),
        (
            "from mcp.server.fastmcp import Context, FastMCP\n\n\nclass Mixin:\n    pass",
            "Mixin, FastMCP",
            FACTORY,
        ),
        ("from mcp.server.mcpserver import Context, MCPServer", "MCPServer", MODULE_LEVEL),
        ("from fastmcp import Context, FastMCP", "FastMCP", FACTORY),
        # Syntax newer than the interpreter that runs migrate-roots (PEP 695, 3.12): read with libcst.
        (
            "from mcp.server.fastmcp import Context, FastMCP\n\n\ndef same[T](x: T) -> T:\n    return x",
            "FastMCP",
            FACTORY,
        ),
    ],
    ids=["mcp1-module", "mcp1-factory", "mixin-first", "mcp2", "fastmcp", "pep695"],
)
def test_a_tool_on_an_instance_of_a_subclass_is_rewritten(tmp_path, imports, bases, instance):
    """code-indexing-mcp's `class AutoIndexingMCP(FastMCP)`: its tools were marked MR103 ("not known as a
    tool registration")."""
    source = SUBCLASS.format(imports=imports, cls="MyMCP", bases=bases, instance=instance.format(cls="MyMCP"))
    findings, text = _run(tmp_path, {"server.py": source})
    assert sorted(findings) == [("MR101", "rewritten"), ("MR107", "rewritten")], findings
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text, text
    flakes = {m for m in helpers.flakes(text) if not m.startswith("syntax error")}
    assert not flakes, flakes


def test_a_subclass_from_another_module_of_the_project(tmp_path):
    base = "from mcp.server.fastmcp import Context, FastMCP\n\n\nclass App(FastMCP):\n    pass\n"
    server = SUBCLASS.split("\n\nclass")[0].format(imports="from .base import App, Context") + (
        "\n\nasync def first_root(ctx: Context) -> str:\n    result = await ctx.session.list_roots()\n"
        "    return str(result.roots[0].uri)\n\n\n" + MODULE_LEVEL.format(cls="App")
    )
    findings, text = _run(tmp_path, {"base.py": base, "server.py": server})
    assert ("MR101", "rewritten") in findings, findings
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text, text


def test_noop_a_class_that_subclasses_nothing_of_the_sdks(tmp_path):
    source = (
        "from mcp.server.fastmcp import Context\n\n\nclass Registry:\n    def tool(self):\n"
        "        return lambda fn: fn\n\n\nasync def first_root(ctx: Context) -> str:\n"
        "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n\n\n"
        + MODULE_LEVEL.format(cls="Registry")
    )
    findings, text = _run(tmp_path, {"server.py": source})
    assert [f for f in findings if f[1] == "rewritten"] == [], findings


@pytest.mark.parametrize(
    ("init", "imported"),
    [
        ("from .core import App\n", "from pkg.app import App"),
        ("from .core import App as App\n", "from .app import App"),
        ("from pkg.app.core import App\n", "from pkg.app import App"),
        ("from .core import *\nfrom .core import App\n", "from pkg.app import App"),
    ],
)
def test_a_subclass_reexported_by_a_package_init(tmp_path, init, imported):
    """mcp-use's layout: `pkg/app/core.py` defines `class App(FastMCP)`, `pkg/app/__init__.py` re-exports it,
    the server module imports it from the package. Its tool was marked "not a tool" (MR103)."""
    core = "from mcp.server.fastmcp import FastMCP\n\n\nclass App(FastMCP):\n    pass\n"
    server = (
        f"from mcp.server.fastmcp import Context\n\n{imported}\n\n"
        "async def first_root(ctx: Context) -> str:\n    result = await ctx.session.list_roots()\n"
        "    return str(result.roots[0].uri)\n\n\n" + MODULE_LEVEL.format(cls="App")
    )
    findings, text = _run(tmp_path, {"app/__init__.py": init, "app/core.py": core, "server.py": server})
    assert ("MR101", "rewritten") in findings, findings
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text, text


def test_noop_a_package_init_that_reexports_a_class_of_its_own(tmp_path):
    core = "class App:\n    def tool(self):\n        return lambda fn: fn\n"
    server = (
        "from mcp.server.fastmcp import Context\n\nfrom pkg.app import App\n\n"
        "async def first_root(ctx: Context) -> str:\n    result = await ctx.session.list_roots()\n"
        "    return str(result.roots[0].uri)\n\n\n" + MODULE_LEVEL.format(cls="App")
    )
    files = {"app/__init__.py": "from .core import App\n", "app/core.py": core, "server.py": server}
    findings, _ = _run(tmp_path, files)
    assert [f for f in findings if f[1] == "rewritten"] == [], findings


def test_a_subclass_of_a_generic_server_base(tmp_path):
    """oh-my-cassette: `class ArtifactFastMCP(FastMCP[LifespanContext])`: a subscripted base is its class."""
    source = SUBCLASS.format(
        imports="from mcp.server.fastmcp import Context, FastMCP",
        cls="App",
        bases="FastMCP[dict]",
        instance=MODULE_LEVEL.format(cls="App"),
    )
    findings, text = _run(tmp_path, {"server.py": source})
    assert ("MR101", "rewritten") in findings, findings
