"""A function of a low-level dispatch table (`HANDLERS = {"where": where}`) with one parameter is given the
arguments dict's `.get("root")` only when the handler's dispatch call visibly hands that dict on (`HANDLERS[name](
arguments)`, or `fn(arguments)` after `fn = HANDLERS.get(name)`). Handed a pydantic model validated from it
(`handler(Model.model_validate(arguments))`), `args.get("root")` crashed every call (sweep P, r01): marked MR153."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

HEAD = """\
import mcp.types as types
from mcp.server.lowlevel import Server
from pydantic import BaseModel

server = Server("x")


class WhereArgs(BaseModel):
    prefix: str = ""


async def where(args):
    result = await server.request_context.session.list_roots()
    return args.prefix + str(result.roots[0].uri)


HANDLERS = {"where": where}
MODELS = {"where": WhereArgs}


async def dispatch(table, name, arguments):
    return await table[name](arguments)


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", description="w", inputSchema={"type": "object", "properties": {}})]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
"""


@pytest.mark.parametrize(
    ("body", "why"),
    [
        (
            "    handler = HANDLERS.get(name)\n"
            "    args = MODELS[name].model_validate(arguments)\n"
            "    return [types.TextContent(type='text', text=await handler(args))]\n",
            "the dispatch `handler(args)` (pkg/server.py:34) does not hand on the arguments dict",
        ),
        (
            "    handler = HANDLERS[name]\n"
            "    return [types.TextContent(type='text', text=await handler(WhereArgs(**arguments)))]\n",
            "the dispatch `handler(WhereArgs(**arguments))` (pkg/server.py:33) does not hand on",
        ),
        (
            "    text = await HANDLERS[name](MODELS[name].model_validate(arguments))\n"
            "    return [types.TextContent(type='text', text=text)]\n",
            "the dispatch `HANDLERS[name](MODELS[name].model_validate(arguments))` (pkg/server.py:32)",
        ),
        (
            "    return [types.TextContent(type='text', text=await dispatch(HANDLERS, name, arguments))]\n",
            "no call of the table found in `call_tool`",
        ),
    ],
)
def test_noop_dispatch_not_handing_on_the_arguments_dict(tmp_path, body, why):
    findings = check_noop(tmp_path, HEAD + body)
    assert helpers.codes(findings) == ["MR153"]
    message = " ".join(findings[0].message.split())
    assert "cannot tell which parameter of this dispatched function receives the tool arguments" in message
    assert why in message


@pytest.mark.parametrize(
    "body",
    [
        "    handler = HANDLERS.get(name)\n"
        "    if handler is None:\n"
        "        raise ValueError(name)\n"
        "    return [types.TextContent(type='text', text=await handler(arguments))]\n",
        "    fn = HANDLERS[name]\n    return [types.TextContent(type='text', text=await fn(arguments))]\n",
        "    return [types.TextContent(type='text', text=await HANDLERS[name](arguments))]\n",
        "    return [types.TextContent(type='text', text=await HANDLERS.get(name)(arguments))]\n",
    ],
)
def test_dispatch_handing_on_the_arguments_dict_is_rewritten(tmp_path, body):
    source = HEAD.replace("args.prefix + ", "") + body
    root = helpers.package(tmp_path, {"server.py": source})
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    assert helpers.codes(findings) == ["MR151", "MR151"]
    text = (root / "pkg" / "server.py").read_text()
    assert 'list_roots_compat(\n        server.request_context, args.get("root"), name="root"\n    )' in text
    assert not helpers.flakes(text) - helpers.flakes(source)
