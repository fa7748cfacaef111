"""Nested functions and local instances reached from tools in real factories (ultrasync, mcp-arduino-server).

- `create_server()` defines `_detect_client_root(ctx)` and hands it to `register_sync_tools(mcp, state,
  _detect_client_root)` in another module, whose tools call it: the read was blamed on `create_server` ("none of
  them a tool"). It is the nested function's, which is handed out as a value: the marker says so and where.
- `ensure(ctx)`, a closure behind a `nonlocal` once-flag, calls `roots_config.initialize_with_context(ctx)` on
  a local instance: the reason said no call reaches the method; it is reached once, behind the flag (MR211).
"""

from __future__ import annotations

from tests import helpers


def _findings(tmp_path, files: dict[str, str]):
    root = helpers.package(tmp_path, files)
    results = helpers.run_engine(root, select=["MR1", "MR2"], write=False)
    return [(f.code, f.message) for r in results for f in r.findings]


FACTORY = """\
from mcp.server.fastmcp import Context, FastMCP

from .tools import register_tools


def create_server() -> FastMCP:
    mcp = FastMCP("x")

    async def _detect_root(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)

    register_tools(mcp, {handed})
    return mcp
"""
TOOLS = """\
def register_tools(mcp, detect_root):
    @mcp.tool()
    async def where(ctx) -> str:
        return await detect_root(ctx)
"""


def test_noop_a_nested_function_run_in_place_stays_its_enclosing_functions(tmp_path):
    # Handed to the standard library's runner (not the project's code): the read is the enclosing function's.
    source = FACTORY.replace("from .tools import register_tools\n", "import asyncio\n").replace(
        "register_tools(mcp, {handed})", "asyncio.run(_detect_root(None))"
    )
    findings = _findings(tmp_path, {"server.py": source})
    assert findings and all("hands as a value" not in m for _, m in findings), findings


def test_a_nested_function_handed_to_the_projects_code_is_named_so(tmp_path):
    findings = _findings(tmp_path, {"server.py": FACTORY.format(handed="_detect_root"), "tools.py": TOOLS})
    assert [c for c, _ in findings] == ["MR103"], findings
    message = findings[0][1]
    assert message.startswith(
        "roots read in `_detect_root`, a function that `create_server` hands as a value to"
    )
    assert "`register_tools(mcp, _detect_root)` (pkg/server.py:13)" in message, message


def test_a_method_of_a_local_instance_behind_a_nonlocal_flag_is_reached_once(tmp_path):
    source = """\
from fastmcp import Context, FastMCP


class RootsAwareConfig:
    def __init__(self) -> None:
        self.base = None

    async def initialize_with_context(self, ctx: Context) -> None:
        roots = await ctx.list_roots()
        self.base = str(roots[0].uri)


def create_server() -> FastMCP:
    roots_config = RootsAwareConfig()
    mcp = FastMCP("x")
    done = False

    async def ensure(ctx: Context) -> None:
        nonlocal done
        if not done:
            await roots_config.initialize_with_context(ctx)
            done = True

    @mcp.tool()
    async def show(ctx: Context) -> str:
        await ensure(ctx)
        return str(roots_config.base)

    return mcp
"""
    findings = _findings(tmp_path, {"server.py": source})
    reasons = [m for c, m in findings if c == "MR211"]
    assert reasons and "called by `ensure` (pkg/server.py:21)" in reasons[0], findings
    assert (
        "once per call of `create_server`, behind the flag `done` (its variable, set through `nonlocal`)"
        in reasons[0]
    )
    assert not [m for c, m in findings if c == "MR103"], findings


HELPERS = """\
async def project_root(ctx) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""
REGISTER = """\
from mcp.server.fastmcp import Context, FastMCP

{imports}


def register(mcp: FastMCP, resolve) -> None:
    @mcp.tool()
    async def where(ctx: Context) -> str:
        return await resolve(ctx)


mcp = FastMCP("x")
{call}
"""


def test_noop_a_function_handed_to_the_standard_library_is_no_hand_off(tmp_path):
    server = REGISTER.format(
        imports="import functools\n\nfrom .helpers import project_root",
        call="reader = functools.partial(project_root)",
    )
    findings = _findings(tmp_path, {"server.py": server, "helpers.py": HELPERS})
    assert [c for c, _ in findings] == ["MR103"], findings
    assert "handed as a value" not in findings[0][1]


def test_a_function_of_another_module_handed_to_the_projects_code_is_named_so(tmp_path):
    """The helpers' sweep (netcoredbg-mcp): `register_tools(mcp, resolve_project_root=...)` at the top of the
    server module; the marker said no call reaches the helper."""
    for index, (imports, call) in enumerate(
        [
            ("from .helpers import project_root", "register(mcp, resolve=project_root)"),
            ("from pkg.helpers import project_root as root_of", "register(mcp, root_of)"),
        ]
    ):
        findings = _findings(
            tmp_path / str(index),
            {"server.py": REGISTER.format(imports=imports, call=call), "helpers.py": HELPERS},
        )
        assert [c for c, _ in findings] == ["MR103"], findings
        assert findings[0][1].startswith("roots read in `project_root`, a function handed as a value to"), (
            findings
        )
        assert f"`{call}` (pkg/server.py:13)" in findings[0][1], findings


MADE = """\
from fastmcp import Context, FastMCP
from fastmcp.server.dependencies import get_context
from fastmcp.tools import FunctionTool


async def helper(ctx: Context) -> str:
    roots = await ctx.list_roots()
    return str(roots[0].uri)


def make_tool(name: str) -> FunctionTool:
    async def invoke(**arguments):
        return await helper(get_context())

    return FunctionTool(name=name, description="d", parameters={{"type": "object"}}, fn={fn})


mcp = FastMCP("x")
mcp.add_tool(make_tool("where"))
"""


def test_noop_a_tool_object_built_from_another_function_says_nothing_of_it(tmp_path):
    findings = _findings(tmp_path, {"server.py": MADE.format(fn="print")})
    assert [c for c, _ in findings] == ["MR103"], findings
    assert "tool object" not in findings[0][1]


def test_a_function_an_sdk_tool_object_is_built_from_is_named_so(tmp_path):
    """EverMind (the helpers' sweep): `FunctionTool(fn=invoke, parameters={...})` from a factory; the marker
    said `invoke` was "none of them a tool". Its schema is the dict given there: MR104, with the place."""
    findings = _findings(tmp_path, {"server.py": MADE.format(fn="invoke")})
    assert [c for c, _ in findings] == ["MR104"], findings
    assert findings[0][1].startswith(
        "roots read in `helper`, reached from `invoke`, the function of a tool object that `make_tool` builds "
        "with `FunctionTool(...)` (pkg/server.py:15)"
    ), findings


def test_a_closure_read_of_the_tools_new_argument_stays_the_tools_on_a_second_run(tmp_path):
    """Run one rewrites the closure's read to the tool's new `root`; run two once saw `root` used in the closure
    (so the closure was not the tool's) and gave it a `root_path` of its own (helpers' probes: not idle)."""
    from tests.test_roots_call import ALIAS_LIST, aliases

    before = """\
        import asyncio

        from mcp.server.fastmcp import Context, FastMCP

        mcp = FastMCP("x")


        @mcp.tool()
        async def twice(ctx: Context) -> int:
            async def inner() -> int:
                res = await ctx.session.list_roots()
                return len(res.roots)

            a, b = await asyncio.gather(inner(), inner())
            return a + b
        """
    after = f"""\
        import asyncio
        from typing import Annotated

        from mcp.server.fastmcp import Context, FastMCP
        from pydantic import Field

        from pkg._mcp_roots_compat import list_roots_compat
{aliases(ALIAS_LIST)}
        mcp = FastMCP("x")


        @mcp.tool()
        async def twice(ctx: Context, root: RootPaths = None) -> int:
            async def inner() -> int:
                res = await list_roots_compat(ctx, root, name="root")
                return len(res.roots)

            a, b = await asyncio.gather(inner(), inner())
            return a + b
        """
    findings = helpers.check_transformed(tmp_path, before, after, select=["MR1"])
    assert [f.code for f in findings] == ["MR101"]


def test_a_nested_read_its_enclosing_function_owns_is_said_where_it_is_written(tmp_path):
    """`by_roots`, nested in `list_repos` and run there, holds the read; the reason named `list_repos` alone,
    which holds none (helpers' sweep), and depended on whether the nested function used the name `root`."""
    source = """\
        from mcp.server import Server


        async def serve() -> None:
            server = Server("demo")

            async def list_repos() -> list[str]:
                async def by_roots() -> list[str]:
                    result = await server.request_context.session.list_roots()
                    return [str(r.uri) for r in result.roots]

                return await by_roots()
        """
    findings = helpers.check_noop(tmp_path, source, select=["MR1"], write=False)
    assert [f.code for f in findings] == ["MR103"]
    assert findings[0].message.startswith(
        "roots read in `by_roots`, nested in `list_repos`, which is not a tool"
    )
