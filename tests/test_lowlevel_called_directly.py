"""A function a low-level handler dispatches as a tool (`TOOLS = {"list_files": list_files}`) reads the new
argument from the dict it is handed. When a tool (or code a tool reaches) also calls it directly with a dict of
its own (`await list_files({"pattern": p})`), the calling tool's `root` never arrived there (sweep P, r03): the
read is marked MR153, naming the call. A call that hands on the caller's own tool arguments is rewritten, and so
is a direct call no tool reaches (a script's `main`)."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

HEAD = """\
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("files")


async def list_files(arguments: dict[str, Any]) -> str:
    result = await server.request_context.session.list_roots()
    return str(result.roots[0].uri) + arguments.get("pattern", "")


"""

TAIL = """

SCHEMA = {"type": "object", "properties": {"pattern": {"type": "string"}}}


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="list_files", description="l", inputSchema=SCHEMA),
        types.Tool(name="count_files", description="c", inputSchema=SCHEMA),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    if name == "count_files":
        text = await count(arguments.get("pattern", ""))
    else:
        text = await TOOLS[name](arguments)
    return [types.TextContent(type="text", text=text)]
"""


@pytest.mark.parametrize(
    ("middle", "caller", "line"),
    [
        (  # another dispatched function builds the dict
            "async def count_files(arguments: dict[str, Any]) -> str:\n"
            "    return str(len(await list_files({'pattern': arguments.get('pattern', '')})))\n\n\n"
            "async def count(pattern):\n    return ''\n",
            "count_files",
            15,
        ),
        (  # ... passes a dict it names
            "async def count_files(arguments: dict[str, Any]) -> str:\n"
            "    inner = {'pattern': arguments.get('pattern', '')}\n"
            "    return str(len(await list_files(inner)))\n\n\n"
            "async def count(pattern):\n    return ''\n",
            "count_files",
            16,
        ),
        (  # a helper of a handler branch
            "async def count_files(arguments: dict[str, Any]) -> str:\n    return ''\n\n\n"
            "async def count(pattern):\n    return str(len(await list_files({'pattern': pattern})))\n",
            "count",
            19,
        ),
    ],
)
def test_noop_dispatched_function_called_directly(tmp_path, middle, caller, line):
    source = HEAD + middle + "\n\nTOOLS = {'list_files': list_files, 'count_files': count_files}\n" + TAIL
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR153"]
    message = " ".join(findings[0].message.split())
    assert message == (
        "roots read in `list_files`, which the low-level tool handler dispatches as tool `list_files` and "
        f"`{caller}` also calls directly (pkg/server.py:{line}) with arguments of its own: a `root` argument "
        "the client gives the tool that makes that call would not arrive here; migrate both by hand (pass it "
        "on in that call)"
    )


@pytest.mark.parametrize(
    "middle",
    [
        "async def count_files(arguments: dict[str, Any]) -> str:\n"
        "    return str(len(await list_files(arguments)))\n",
        "async def count_files(args: dict[str, Any]) -> str:\n"
        "    return str(len(await list_files(arguments=args)))\n",
        "async def count_files(arguments: dict[str, Any]) -> str:\n    return ''\n\n\n"
        "def main():\n    import asyncio\n    print(asyncio.run(list_files({'pattern': ''})))\n",
    ],
)
def test_direct_call_with_the_tool_arguments_or_from_no_tool_is_rewritten(tmp_path, middle):
    tail = TAIL.replace("await count(arguments.get('pattern', ''))", "await TOOLS[name](arguments)")
    tail = tail.replace(
        'text = await count(arguments.get("pattern", ""))', "text = await TOOLS[name](arguments)"
    )
    source = HEAD + middle + "\n\nTOOLS = {'list_files': list_files, 'count_files': count_files}\n" + tail
    root = helpers.package(tmp_path, {"server.py": source})
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert "MR153" not in helpers.codes(findings)
    text = (root / "pkg" / "server.py").read_text()
    assert 'server.request_context, arguments.get("root"), name="root"' in text
    assert '"root": ROOT_PROPERTY' in text
    assert not helpers.flakes(text) - helpers.flakes(source)
