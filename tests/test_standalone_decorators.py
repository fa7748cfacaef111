"""fastmcp 3+'s standalone decorators (`from fastmcp.tools import tool`, `fastmcp.resources.resource`,
`fastmcp.prompts.prompt`) are the SDK's, on no server object: a tool under `@tool` served by a provider
(`FileSystemProvider`) is marked as such, not as "a registrar of the project" nor a registration "whose server
object cannot be resolved"; resources and prompts get their handler's reason; registered by `mcp.add_tool(fn)`,
the tool is rewritten as before (sweep R, r02)."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

SRC = """\
import fastmcp.tools
import fastmcp.tools as ft
from fastmcp import Context
from fastmcp.prompts import prompt
from fastmcp.resources import resource
from fastmcp.tools import tool
from fastmcp.tools.function_tool import tool as function_tool


{decorator}
async def where(ctx: Context) -> str:
    {read}
    return "here"
"""

TOOLS = [
    "@tool",
    "@tool()",
    '@tool(name="where", tags={"fs"})',
    "@ft.tool",
    "@fastmcp.tools.tool()",
    '@function_tool(name="where")',
]


def _src(decorator: str, read: str) -> str:
    return SRC.format(decorator=decorator, read=read)


@pytest.mark.parametrize("decorator", [*TOOLS, '@resource("cfg://x")', "@prompt"])
def test_noop_no_roots(tmp_path, decorator):
    assert check_noop(tmp_path, _src(decorator, "pass")) == []


@pytest.mark.parametrize("decorator", TOOLS)
def test_tool_marked_as_standalone(tmp_path, decorator):
    findings = check_noop(tmp_path, _src(decorator, "roots = await ctx.list_roots()"))
    assert helpers.codes(findings) == ["MR103"]
    assert findings[0].message == (
        f"roots read in `where` (pkg/server.py:11), a tool declared with fastmcp's standalone `{decorator}`, "
        "registered by a provider (such as `FileSystemProvider`) or by a call migrate-roots does not follow: "
        "give that tool a path argument by hand"
    )


def test_helper_of_the_tool_marked(tmp_path):
    src = _src("@tool", "return await first(ctx)") + (
        "\n\nasync def first(ctx: Context) -> str:\n    roots = await ctx.list_roots()\n    return str(roots[0])\n"
    )
    findings = check_noop(tmp_path, src)
    assert helpers.codes(findings) == ["MR103"]
    assert "roots read in `first`, reached from `where` (pkg/server.py:11), a tool declared with " in (
        findings[0].message
    )


@pytest.mark.parametrize(
    ("decorator", "said"),
    [
        ('@resource("cfg://x")', "a resource read carries no arguments beyond its URI"),
        ("@prompt", "a prompt takes arguments too"),
        ("@prompt()", "a prompt takes arguments too"),
    ],
)
def test_resource_and_prompt_are_handlers(tmp_path, decorator, said):
    findings = check_noop(tmp_path, _src(decorator, "roots = await ctx.list_roots()"))
    assert helpers.codes(findings) == ["MR103"]
    message = findings[0].message
    assert (
        f"the handler `where` registered by `{decorator}` (pkg/server.py:11), outside any tool call"
        in message
    )
    assert said in message


def test_added_by_add_tool_is_rewritten(tmp_path):
    """`mcp.add_tool(where)` registers the decorated function on a server the file shows: a tool as before."""
    root = helpers.package(
        tmp_path,
        {
            "tools.py": _src("@tool", "roots = await ctx.list_roots()"),
            "server.py": (
                "from fastmcp import FastMCP\n\nfrom pkg.tools import where\n\n"
                'mcp = FastMCP("main")\nmcp.add_tool(where)\n'
            ),
        },
    )
    findings = [f for r in helpers.run_engine(root, select=["MR1"], write=False) for f in r.findings]
    assert helpers.codes(findings) == ["MR102"]
