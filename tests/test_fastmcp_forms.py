"""fastmcp's own ways to shape a tool's schema apart from its signature (session 16's sweep G): a parameter exposed
under an alias takes that schema name (r01), one hidden by `exclude_args` is no caller's argument (r06), a tool
handed to `Tool.from_tool(..., transform_fn=fn)` without `**kwargs` is marked (r02: the server stopped importing),
and a tool calling another through fastmcp 2's `where.fn(ctx)` passes its argument on (r09). Noop cases first."""

from __future__ import annotations

import pytest

from tests import helpers

ALIAS_TOOL = """\
from typing import Annotated

from fastmcp import Context, FastMCP
from pydantic import AliasChoices, Field

mcp = FastMCP("t")


@mcp.tool
async def grep(
    pattern: str,
    ctx: Context,
    folder: {annotation},
) -> str:
    roots = await ctx.list_roots()
    return f"{{roots[0].uri}}/{{folder}}:{{pattern}}"
"""


def _run(tmp_path, files):
    root = helpers.package(tmp_path, files)
    findings = [f for r in helpers.run_engine(root) for f in r.findings]
    return root / "pkg", findings


# --- r01: a schema name taken by an alias ------------------------------------------------------------


def test_noop_a_serialization_alias_names_no_input(tmp_path):
    annotation = 'Annotated[str, Field(serialization_alias="root")] = "."'
    pkg, findings = _run(tmp_path, {"server.py": ALIAS_TOOL.format(annotation=annotation)})
    assert helpers.codes(findings) == ["MR102"]
    assert "root: RootPath = None" in (pkg / "server.py").read_text()


@pytest.mark.parametrize(
    "annotation",
    [
        'Annotated[str, Field(alias="root", description="sub folder")] = "."',
        'Annotated[str, Field(validation_alias="root")] = "."',
        'Annotated[str, Field(validation_alias=AliasChoices("root", "dir"))] = "."',
        'str = Field(".", alias="root")',
    ],
)
def test_an_alias_takes_the_schema_name(tmp_path, annotation):
    pkg, findings = _run(tmp_path, {"server.py": ALIAS_TOOL.format(annotation=annotation)})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "server.py").read_text()
    assert "root_path: RootPath = None" in text
    assert 'list_roots_compat(ctx, root_path, name="root_path", shape="list")' in text
    assert "root: RootPath" not in text
    assert "`root` is already a name in `grep`" in findings[0].message


def test_an_aliased_parameter_is_not_reused(tmp_path):
    src = """\
    from typing import Annotated

    from fastmcp import Context, FastMCP
    from pydantic import Field

    mcp = FastMCP("t")


    @mcp.tool
    async def where(
        ctx: Context, workspace: Annotated[str | None, Field(alias="dir")] = None
    ) -> str:
        if workspace is None:
            roots = await ctx.list_roots()
            workspace = str(roots[0].uri)
        return workspace
    """
    pkg, findings = _run(tmp_path, {"server.py": src})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "server.py").read_text()
    assert 'list_roots_compat(ctx, root, name="root", shape="list")' in text
    assert "root: RootPath = None" in text


# --- r06: parameters hidden by exclude_args ----------------------------------------------------------

HIDDEN = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("t")


{decorator}
async def where(ctx: Context, workspace: str | None = None) -> str:
    if workspace is None:
        roots = await ctx.list_roots()
        workspace = str(roots[0].uri)
    return workspace
{after}"""


def test_noop_a_parameter_another_one_hides_is_still_the_argument(tmp_path):
    src = HIDDEN.format(decorator='@mcp.tool(exclude_args=["other"])', after="")
    src = src.replace("workspace: str | None = None", "workspace: str | None = None, other: str = ''")
    pkg, findings = _run(tmp_path, {"server.py": src})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "server.py").read_text()
    assert 'list_roots_compat(ctx, workspace, name="workspace", shape="list")' in text
    assert "RootPath" not in text


@pytest.mark.parametrize(
    ("decorator", "after"),
    [
        ('@mcp.tool(exclude_args=["workspace"])', ""),
        ("@mcp.tool(exclude_args=('workspace',))", ""),
        ("@mcp.tool(exclude_args=HIDDEN)", 'HIDDEN = ["workspace"]\n'),  # not read: every parameter counts
        ("", '\n\nmcp.tool(where, exclude_args=["workspace"])\n'),
        ("", '\n\nmcp.tool(exclude_args=["workspace"])(where)\n'),
    ],
)
def test_a_hidden_parameter_is_not_the_argument(tmp_path, decorator, after):
    pkg, findings = _run(tmp_path, {"server.py": HIDDEN.format(decorator=decorator, after=after)})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "server.py").read_text()
    assert 'list_roots_compat(ctx, root, name="root", shape="list")' in text
    assert "workspace: str | None = None, root: RootPath = None" in text


HIDDEN_TOOLS = """\
from fastmcp import Context


async def where(ctx: Context, workspace: str | None = None, other: str = "") -> str:
    if workspace is None:
        roots = await ctx.list_roots()
        workspace = str(roots[0].uri)
    return workspace
"""
REGISTERED = """\
from fastmcp import FastMCP
from fastmcp.tools import Tool

from pkg import tools
from pkg.tools import where

mcp = FastMCP("t")
{registration}
"""


def test_noop_a_registration_in_another_module_hiding_another_parameter_keeps_the_argument(tmp_path):
    server = REGISTERED.format(registration='mcp.tool(tools.where, exclude_args=["other"])')
    pkg, findings = _run(tmp_path, {"tools.py": HIDDEN_TOOLS, "server.py": server})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "tools.py").read_text()
    assert 'list_roots_compat(ctx, workspace, name="workspace", shape="list")' in text
    assert "RootPath" not in text


@pytest.mark.parametrize(
    "registration",
    [
        'mcp.tool(tools.where, exclude_args=["workspace"])',
        'mcp.add_tool(Tool.from_function(where, exclude_args=["workspace"]))',
        "mcp.tool(tools.where, exclude_args=HIDDEN)\nHIDDEN = []",  # not read: every parameter counts
    ],
)
def test_a_parameter_hidden_by_a_registration_in_another_module_is_not_the_argument(tmp_path, registration):
    """Sweep I, r08 (fastmcp 2/3, proven with the SDK): the registration's `exclude_args` was read only in the
    function's own module; elsewhere the hidden `workspace` became the argument, which no caller can give."""
    server = REGISTERED.format(registration=registration)
    pkg, findings = _run(tmp_path, {"tools.py": HIDDEN_TOOLS, "server.py": server})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "tools.py").read_text()
    assert 'list_roots_compat(ctx, root, name="root", shape="list")' in text
    assert "root: RootPath = None" in text


# --- r02: a tool handed to Tool.from_tool(..., transform_fn=fn) -------------------------------------

TRANSFORMED = """\
from fastmcp import Context, FastMCP
from fastmcp.tools import Tool
from fastmcp.tools.tool_transform import TransformedTool, forward

mcp = FastMCP("t")


@mcp.tool
async def search(pattern: str, ctx: Context) -> str:
    roots = await ctx.list_roots()
    return f"{{roots[0].uri}}:{{pattern}}"


async def narrow({params}) -> str:
    return await forward({forwarded})


mcp.add_tool({call})
"""


@pytest.mark.parametrize(
    ("params", "forwarded", "call"),
    [
        (
            "pattern: str, **kwargs",
            "pattern=pattern.lower(), **kwargs",
            "Tool.from_tool(search, transform_fn=narrow)",
        ),
        ("pattern: str", "pattern=pattern", 'Tool.from_tool(search, name="find")'),
        (
            "pattern: str",
            "pattern=pattern",
            "Tool.from_tool(search, transform_fn=lambda **kw: forward(**kw))",
        ),
    ],
)
def test_noop_a_transform_that_takes_every_argument_is_rewritten(tmp_path, params, forwarded, call):
    src = TRANSFORMED.format(params=params, forwarded=forwarded, call=call)
    pkg, findings = _run(tmp_path, {"server.py": src})
    assert helpers.codes(findings) == ["MR102"]
    assert (
        "async def search(pattern: str, ctx: Context, root: RootPath = None)"
        in (pkg / "server.py").read_text()
    )


@pytest.mark.parametrize(
    "call",
    [
        'Tool.from_tool(search, name="find", transform_fn=narrow)',
        "TransformedTool.from_tool(tool=search, transform_fn=narrow)",
        "Tool.from_tool(search, transform_fn=TRANSFORMS['narrow'])",
        "Tool.from_tool(search, transform_fn=lambda pattern: forward(pattern=pattern))",
    ],
)
def test_a_transformed_tool_is_marked(tmp_path, call):
    src = TRANSFORMED.format(params="pattern: str", forwarded="pattern=pattern.lower()", call=call)
    if "TRANSFORMS" in src:
        src += "TRANSFORMS = {'narrow': narrow}\n"
    pkg, findings = _run(tmp_path, {"server.py": src})
    assert helpers.codes(findings) == ["MR104"]
    assert "`search` is handed to `" in findings[0].message
    assert "does not take `**kwargs`" in findings[0].message
    text = (pkg / "server.py").read_text()
    assert "RootPath" not in text and "# migrate-roots: MR104" in text


def test_a_transformed_tool_of_another_module_is_marked(tmp_path):
    tools = """\
    from fastmcp import Context


    async def search(pattern: str, ctx: Context) -> str:
        roots = await ctx.list_roots()
        return f"{roots[0].uri}:{pattern}"
    """
    server = """\
    from fastmcp import FastMCP
    from fastmcp.tools.tool import FunctionTool
    from fastmcp.tools.tool_transform import forward

    from . import tools

    mcp = FastMCP("t")
    search = mcp.tool(tools.search)


    async def narrow(pattern: str) -> str:
        return await forward(pattern=pattern)


    mcp.add_tool(FunctionTool.from_tool(search, transform_fn=narrow))
    """
    pkg, findings = _run(tmp_path, {"tools.py": tools, "server.py": server})
    assert helpers.codes(findings) == ["MR104"]
    assert "`FunctionTool.from_tool(search, ...)` (server.py:15)" in findings[0].message
    assert "RootPath" not in (pkg / "tools.py").read_text()


# --- r09: a tool calling another through `.fn` -------------------------------------------------------

FN_CALL = """\
from fastmcp import Context, FastMCP

mcp = FastMCP("t")


@mcp.tool
async def where(ctx: Context) -> str:
    roots = await ctx.list_roots()
    return str(roots[0].uri)


@mcp.tool
async def summary(ctx: Context) -> str:
    w = await {call}
    return f"workspace: {{w}}"
"""


def test_noop_fn_of_a_value_that_is_no_tool_is_no_call_of_it(tmp_path):
    src = FN_CALL.format(call="where_tool.fn(ctx)").replace(
        'mcp = FastMCP("t")', 'mcp = FastMCP("t")\nwhere_tool = object()'
    )
    pkg, findings = _run(tmp_path, {"server.py": src})
    assert helpers.codes(findings) == ["MR102"]
    assert "async def summary(ctx: Context) -> str:" in (pkg / "server.py").read_text()


def test_fn_of_a_tool_passes_the_argument_on(tmp_path):
    after = """\
    @mcp.tool
    async def summary(ctx: Context, root: RootPath = None) -> str:
        w = await where.fn(ctx, root=root)
    """
    pkg, findings = _run(tmp_path, {"server.py": FN_CALL.format(call="where.fn(ctx)")})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "server.py").read_text()
    assert "async def where(ctx: Context, root: RootPath = None) -> str:" in text
    assert after.replace("    ", "", 1).replace("\n    ", "\n") in text


def test_fn_of_a_tool_registered_from_another_module(tmp_path):
    tools = """\
    from fastmcp import Context


    async def where(ctx: Context) -> str:
        roots = await ctx.list_roots()
        return str(roots[0].uri)
    """
    server = """\
    from fastmcp import Context, FastMCP

    from . import tools

    mcp = FastMCP("t")
    where = mcp.tool(tools.where)


    @mcp.tool
    async def summary(ctx: Context) -> str:
        return await where.fn(ctx)
    """
    pkg, findings = _run(tmp_path, {"tools.py": tools, "server.py": server})
    assert helpers.codes(findings) == ["MR102"]
    text = (pkg / "server.py").read_text()
    assert "async def summary(ctx: Context, root: RootPath = None) -> str:" in text
    assert "return await where.fn(ctx, root=root)" in text
