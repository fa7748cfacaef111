"""A statement the rewrite makes longer than the project's line length is laid out as black and ruff format
lay it out (codemods/_layout.py), so a project that checks its format keeps passing. Before, the call was
broken by hand, `f(ctx,\\n        root=root)` (the stealth-chrome-devtools-mcp rewrite), which no formatter
writes. Every case is checked with the project's own `ruff format --check`."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests import helpers

HELPER = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


async def first_root_of_the_client(ctx: Context, pattern: str = "*", limit: int = 10) -> str:
    result = await ctx.session.list_roots()
    return f"{result.roots[0].uri} {pattern} {limit}"


@mcp.tool()
async def where(ctx: Context) -> str:
    {call}
"""


def _apply(tmp_path, text: str, width: int = 88, tabs: bool = False) -> str:
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    style = 'indent-style = "tab"\n' if tabs else ""
    (proj / "pyproject.toml").write_text(
        f'[tool.ruff]\nline-length = {width}\n[tool.ruff.format]\nquote-style = "preserve"\n{style}'
    )
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(text)
    ruff = [sys.executable, "-m", "ruff", "format", "--no-cache", "pkg"]
    assert subprocess.run(ruff, cwd=proj, capture_output=True).returncode == 0  # the project is formatted
    ruff.append("--check")
    helpers.run_engine(proj, select=["MR1"])
    after = subprocess.run(ruff, cwd=proj, capture_output=True, text=True)
    assert after.returncode == 0, after.stdout + after.stderr
    return (proj / "pkg" / "server.py").read_text()


def test_noop_a_call_that_still_fits_stays_on_its_line(tmp_path):
    text = _apply(tmp_path, HELPER.replace("{call}", "return await first_root_of_the_client(ctx)"))
    assert "    return await first_root_of_the_client(ctx, root=root)\n" in text


def test_noop_the_statements_around_keep_their_layout(tmp_path):
    """Only the statement that grew is laid out again: the file's other lines are as they were."""
    call = "value = await first_root_of_the_client(ctx, '*', 10)  # keep\n    return value"
    text = _apply(tmp_path, HELPER.replace("{call}", call), width=60)
    assert "async def first_root_of_the_client(\n    ctx: Context," in text
    assert 'mcp = FastMCP("demo")\n' in text


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            "value = await first_root_of_the_client(ctx, '*', 10)  # keep\n    return value",
            "    value = await first_root_of_the_client(\n        ctx, '*', 10, root=root\n    )  # keep\n",
        ),
        (
            "return await asyncio.wait_for(first_root_of_the_client(ctx, '*'), 5)",
            "    return await asyncio.wait_for(\n        first_root_of_the_client(ctx, '*', root=root), 5\n    )\n",
        ),
        (
            "return await first_root_of_the_client(ctx, 'a much longer pattern of files to match', 10)",
            "    return await first_root_of_the_client(\n"
            "        ctx,\n        'a much longer pattern of files to match',\n        10,\n        root=root,\n    )\n",
        ),
    ],
    ids=["hugged-with-a-comment", "inside-another-call", "one-a-line-from-hugged"],
)
def test_a_call_grown_too_long_is_laid_out_as_ruff_would(tmp_path, call, expected):
    source = HELPER.replace("{call}", call).replace("from mcp", "import asyncio\n\nfrom mcp", 1)
    text = _apply(tmp_path, source, width=60)
    assert expected in text, text  # its strings keep their quotes


def test_a_file_indented_with_tabs_gets_tabs(tmp_path):
    source = HELPER.replace("{call}", "return await first_root_of_the_client(ctx, '*', 10)").replace(
        "\n    ", "\n\t"
    )
    text = _apply(tmp_path, source, width=60, tabs=True)
    assert "\treturn await first_root_of_the_client(\n\t\tctx, '*', 10, root=root\n\t)\n" in text


def test_a_call_inside_an_f_string_is_never_broken(tmp_path):
    """Sweep V, r01: a break inside a replacement field does not parse before Python 3.12; the file was left
    unmigrated (MR904). The line is left long, as formatters leave f-strings."""
    call = 'return f"the workspace is {await first_root_of_the_client(ctx)}, the one shared"'
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(HELPER.replace("{call}", call))
    results = helpers.run_engine(proj, select=["MR1"])
    assert not [f for r in results for f in r.findings if f.code.startswith("MR9")]
    text = (proj / "pkg" / "server.py").read_text()
    compile(text, "server.py", "exec")
    assert "{await first_root_of_the_client(ctx, root=root)}, the one shared" in text


@pytest.mark.parametrize(
    ("call", "expected", "width"),
    [
        # a trailing pragma is left out of the width, as ruff leaves it (sweep V, r02)
        (
            "value = await first_root_of_the_client(ctx, '*')  # type: ignore[arg-type]\n    return value",
            "    value = await first_root_of_the_client(ctx, '*', root=root)  # type: ignore[arg-type]\n",
            70,
        ),
        # a call already hugged over lines, in a nested block: measured in the file (sweep V, r07)
        (
            "if ctx:\n        value = await first_root_of_the_client(\n"
            "            ctx, 'a pattern of files to match', 10\n        )\n        return value\n    return ''",
            "        value = await first_root_of_the_client(\n            ctx,\n",
            60,
        ),
    ],
    ids=["pragma", "hugged-in-a-block"],
)
def test_lines_are_measured_as_ruff_measures_them(tmp_path, call, expected, width):
    text = _apply(tmp_path, HELPER.replace("{call}", call), width=width)
    assert expected in text, text


def test_tabs_count_as_four_columns(tmp_path):
    """Sweep V, r03: a tab was counted as one column, so a line ruff measures past the length stayed long."""
    call = "value = await first_root_of_the_client(ctx, '*', 10)\n    return value"
    source = HELPER.replace("{call}", call).replace("\n    ", "\n\t")
    text = _apply(tmp_path, source, width=66, tabs=True)
    assert "\tvalue = await first_root_of_the_client(\n\t\tctx, '*', 10, root=root\n\t)\n" in text


LOW_LEVEL = """\
import mcp.types as types
from mcp.server.lowlevel import Server

SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}}


async def handle_list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="where", input_schema=SCHEMA)])


async def workspace_base(ctx) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)


async def handle_call_tool(ctx, params: types.CallToolRequestParams):
    if params.name == "where":
        resolved = await workspace_base(ctx)
        return types.CallToolResult(content=[types.TextContent(type="text", text=resolved)])
    raise ValueError(params.name)


server = Server("files", on_list_tools=handle_list_tools, on_call_tool=handle_call_tool)
"""


def test_a_statement_moved_into_a_new_try_is_laid_out_at_its_new_depth(tmp_path):
    """Sweep V, r06: the mcp 2.x low-level handler's read goes into a `try` for RootsArgumentError; measured
    where it stood, 87 columns, it ran to 91 inside the `try`."""
    text = _apply(tmp_path, LOW_LEVEL)
    assert "        try:\n            resolved = await workspace_base(\n" in text, text


SHARED = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("files")

PATH_SCHEMA = {"type": "object", "properties": {"path": {"type": "string"}}}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="stat", description="Stat a file.", inputSchema=PATH_SCHEMA),
        types.Tool(name="resolve", description="Resolve.", inputSchema=PATH_SCHEMA),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "resolve":
        result = await server.request_context.session.list_roots()
        text = str(result.roots[0].uri) + "/" + arguments["path"]
        return [types.TextContent(type="text", text=text)]
    return [types.TextContent(type="text", text=arguments["path"])]
"""


def test_a_shared_schema_copied_for_one_tool_is_laid_out_as_ruff_would(tmp_path):
    """Sweep V, r05: the copy of a shared schema for the one tool that reads roots was laid out by hand."""
    text = _apply(tmp_path, SHARED)
    assert '        types.Tool(\n            name="resolve",\n' in text, text
