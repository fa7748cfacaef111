"""mcp 1.x low-level handlers registered by calling the decorator, `server.call_tool()(call_tool)` at module
level or `self.server.call_tool()(self.call_tool)` in a class, are the same handlers as `@server.call_tool()`
ones: their tools are rewritten (MR151), not marked as roots read in a function "which is not a tool" (sweep
P, r02); also through a name bound once to the decorator (`reg = server.call_tool()`, then `reg(call_tool)`). The SDK proof is tests/e2e/lowlevel_mcp1_callform.py and `lowlevel_mcp1.py:callform` in
test_lowlevel_e2e."""

from __future__ import annotations

import textwrap
from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

MODULE = """\
import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("x")


async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="where", description="w", inputSchema={"type": "object", "properties": {}})]


async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    if name == "where":
        {read}
        return [types.TextContent(type="text", text=str(result.roots[0].uri))]
    raise ValueError(name)


{registration}
"""

CLASS = """\
import mcp.types as types
from mcp.server.lowlevel import Server


class Files:
    def __init__(self) -> None:
        self.server = Server("x")
        {registration}

    async def list_tools(self) -> list[types.Tool]:
        return [types.Tool(name="where", description="w", inputSchema={{"type": "object", "properties": {{}}}})]

    async def call_tool(self, name: str, arguments: dict) -> list[types.TextContent]:
        if name == "where":
            {read}
            return [types.TextContent(type="text", text=str(result.roots[0].uri))]
        raise ValueError(name)
"""

MODULE_FORMS = [
    "server.list_tools()(list_tools)\nserver.call_tool()(call_tool)",
    "server.call_tool()(call_tool)\nserver.list_tools()(list_tools)",
    "server.list_tools()(list_tools)\nserver.call_tool(validate_input=True)(call_tool)",
    "server.list_tools()(list_tools)\nhandler = server.call_tool()(call_tool)",
    # a name bound to the decorator first (session 17's weak point: "handed as a value to `reg(call_tool)`")
    "server.list_tools()(list_tools)\nreg = server.call_tool()\nreg(call_tool)",
]
CLASS_FORMS = [
    "self.server.list_tools()(self.list_tools)\n        self.server.call_tool()(self.call_tool)",
    "self.server.call_tool()(self.call_tool)\n        self.server.list_tools()(self.list_tools)",
    "self.server.list_tools()(self.list_tools)\n        self.server.call_tool(validate_input=False)(self.call_tool)",
]
MODULE_READ = "result = await server.request_context.session.list_roots()"
CLASS_READ = "result = await self.server.request_context.session.list_roots()"


def _module(registration: str, read: str = MODULE_READ) -> str:
    return MODULE.replace("{read}", read).replace("{registration}", registration)


def _class(registration: str, read: str = CLASS_READ) -> str:
    return CLASS.format(registration=registration, read=read)


# --- noop ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("registration", MODULE_FORMS)
def test_noop_module_no_roots(tmp_path, registration):
    assert check_noop(tmp_path, _module(registration, "result = None")) == []


@pytest.mark.parametrize("registration", CLASS_FORMS)
def test_noop_class_no_roots(tmp_path, registration):
    assert check_noop(tmp_path, _class(registration, "result = None")) == []


def test_noop_not_a_server(tmp_path):
    """`registry.call_tool()(fn)` on an object that is no low-level server registers no handler."""
    src = _module("server.list_tools()(list_tools)\nregistry.call_tool()(call_tool)", "result = None")
    src = src.replace('server = Server("x")\n', 'server = Server("x")\nregistry = object()\n')
    assert check_noop(tmp_path, src) == []


def test_noop_a_name_bound_twice_is_not_taken_for_the_decorator(tmp_path):
    """`reg` rebound after `reg = server.call_tool()`: which value `reg(fn)` calls is not known here."""
    src = _module("server.list_tools()(list_tools)\nreg = server.call_tool()\nreg = print\nreg(call_tool)")
    findings = check_noop(tmp_path, src)
    assert helpers.codes(findings) == ["MR103"]


def test_not_a_server_is_not_rewritten(tmp_path):
    """Roots read in a function registered on something else than the server stay a marker (MR103)."""
    src = _module("server.list_tools()(list_tools)\nregistry.call_tool()(call_tool)")
    src = src.replace('server = Server("x")\n', 'server = Server("x")\nregistry = object()\n')
    findings = check_noop(tmp_path, src)
    assert helpers.codes(findings) == ["MR103"]


# --- rewritten -------------------------------------------------------------------------------------------
def _apply(tmp_path, src: str) -> tuple[str, list]:
    root = helpers.package(tmp_path, {"server.py": src})
    server = root / "pkg" / "server.py"
    results = helpers.run_engine(root, select=["MR1"])
    assert not [r for r in results if r.status.value == "failed"]
    text = server.read_text()
    assert not helpers.flakes(text) - helpers.flakes(textwrap.dedent(src)), text
    again = helpers.run_engine(root, select=["MR1"])
    assert server.read_text() == text, "second run changed the file"
    assert not [r for r in again if r.status.value == "changed"]
    return text, [f for r in results for f in r.findings]


@pytest.mark.parametrize("registration", MODULE_FORMS)
def test_module_call_form_rewritten(tmp_path, registration):
    text, findings = _apply(tmp_path, _module(registration))
    assert helpers.codes(findings) == ["MR151", "MR151"], findings
    assert 'server.request_context, arguments.get("root"), name="root"' in text
    assert '"root": ROOT_PROPERTY' in text
    assert "list_roots()" not in text
    assert registration in text  # the registration is left as written


@pytest.mark.parametrize("registration", CLASS_FORMS)
def test_class_call_form_rewritten(tmp_path, registration):
    text, findings = _apply(tmp_path, _class(registration))
    assert helpers.codes(findings) == ["MR151", "MR151"], findings
    assert 'self.server.request_context, arguments.get("root"), name="root"' in text
    assert '"root": ROOT_PROPERTY' in text
    assert "list_roots()" not in text
    assert not any("is not a tool" in f.message for f in findings)


# --- marked: roots read in the list_tools handler --------------------------------------------------------
@pytest.mark.parametrize(
    ("registration", "spelling"),
    [
        ("server.list_tools()(list_tools)\nserver.call_tool()(call_tool)", "server.list_tools()(list_tools)"),
        ("server.call_tool()(call_tool)\nserver.list_tools()(list_tools)", "server.list_tools()(list_tools)"),
    ],
)
def test_roots_in_list_tools_call_form_marked(tmp_path, registration, spelling):
    src = _module(registration, "result = None").replace(
        "    return [types.Tool(",
        "    await server.request_context.session.list_roots()\n    return [types.Tool(",
    )
    findings = check_noop(tmp_path, src)
    assert helpers.codes(findings) == ["MR103"]
    assert (
        f"roots read in `list_tools`, the list_tools handler registered by `{spelling}` (pkg/server.py:"
        in findings[0].message
    )
    assert findings[0].message.endswith("outside any tool call: nothing can pass a path argument here")
