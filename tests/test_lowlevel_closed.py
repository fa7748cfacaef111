"""A low-level tool whose handler checks its arguments against a closed schema the rewrite does not extend
(session 15's sweep C, r06 and c21) is marked MR152: the `root` argument would be refused on every call.
A closed schema the tool alone uses gains the property, and is then checked with it."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

check_noop = partial(helpers.check_noop, select=["MR1"], write=False)

HEAD = """\
import jsonschema
import mcp.types as types
from mcp.server.lowlevel import Server
from pydantic import BaseModel, ConfigDict, Extra

server = Server("files")

"""

HANDLER = """

@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    {check}
    if name == "find":
        result = await server.request_context.session.list_roots()
        base = str(result.roots[0].uri)
    else:
        base = "/tmp"
    return [types.TextContent(type="text", text=base)]
"""

MODELS = {
    "model_config ConfigDict": "class Args(BaseModel):\n    model_config = ConfigDict(extra='forbid')\n    pattern: str\n",
    "model_config dict": "class Args(BaseModel):\n    model_config = {'extra': 'forbid'}\n    pattern: str\n",
    "class keyword": "class Args(BaseModel, extra='forbid'):\n    pattern: str\n",
    "v1 Config": "class Args(BaseModel):\n    pattern: str\n\n    class Config:\n        extra = Extra.forbid\n",
    "closed base": "class Closed(BaseModel):\n    model_config = ConfigDict(extra='forbid')\n\n\n"
    "class Args(Closed):\n    pattern: str\n",
}

CHECKS = {
    "model_validate": "args = Args.model_validate(arguments)",
    "parse_obj": "args = Args.parse_obj(arguments)",
    "splat": "args = Args(**arguments)",
}

TWO_TOOLS = """

@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="find", description="f", inputSchema=Args.model_json_schema()),
        types.Tool(name="other", description="o", inputSchema=Args.model_json_schema()),
    ]
"""

ONE_TOOL = """

@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="find", description="f", inputSchema={schema})]
"""

LITERAL = '{"type": "object", "properties": {"pattern": {"type": "string"}}}'


def _findings(tmp_path, source):
    root = helpers.package(tmp_path, {"server.py": source})
    results = helpers.run_engine(root, select=["MR1"])
    return [f for r in results for f in r.findings], (root / "pkg" / "server.py").read_text()


@pytest.mark.parametrize("model", sorted(MODELS))
def test_noop_a_shared_closed_model_that_checks_the_arguments_is_marked(tmp_path, model):
    source = HEAD + MODELS[model] + TWO_TOOLS + HANDLER.format(check=CHECKS["model_validate"])
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR152"], findings
    assert "checks its arguments against `Args` (line" in findings[0].message
    assert "shares with other tools" in findings[0].message


# `Args(**arguments)` there is MR153's: the arguments handed on whole (test_lowlevel_splat.py).
@pytest.mark.parametrize("check", ["model_validate", "parse_obj"])
def test_noop_a_closed_model_beside_a_literal_schema_is_marked(tmp_path, check):
    source = HEAD + MODELS["model_config ConfigDict"] + ONE_TOOL.format(schema=LITERAL)
    findings = check_noop(tmp_path, source + HANDLER.format(check=CHECKS[check]))
    assert helpers.codes(findings) == ["MR152"], findings
    assert "which this tool does not list as its schema" in findings[0].message


def test_noop_a_shared_closed_dict_checked_with_jsonschema_is_marked(tmp_path):
    schema = 'SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}\n'
    tools = TWO_TOOLS.replace("Args.model_json_schema()", "SCHEMA")
    source = HEAD + schema + tools + HANDLER.format(check="jsonschema.validate(arguments, SCHEMA)")
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR152"], findings
    assert "against `SCHEMA`" in findings[0].message


def test_a_closed_model_the_tool_alone_uses_gains_the_field(tmp_path):
    source = HEAD + MODELS["model_config ConfigDict"] + ONE_TOOL.format(schema="Args.model_json_schema()")
    findings, text = _findings(tmp_path, source + HANDLER.format(check=CHECKS["model_validate"]))
    assert "MR152" not in helpers.codes(findings) and "MR151" in helpers.codes(findings)
    assert "    root: " in text.split("class Args", 1)[1].split("@server", 1)[0]


def test_an_open_shared_model_gets_a_copy(tmp_path):
    model = "class Args(BaseModel):\n    pattern: str\n"
    findings, text = _findings(tmp_path, HEAD + model + TWO_TOOLS + HANDLER.format(check=CHECKS["splat"]))
    assert "MR152" not in helpers.codes(findings) and "MR151" in helpers.codes(findings)
    assert '"root": ROOT_PROPERTY' in text


def test_a_closed_dict_the_tool_alone_uses_gains_the_property(tmp_path):
    schema = 'SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}\n'
    source = HEAD + schema + ONE_TOOL.format(schema="SCHEMA")
    findings, text = _findings(
        tmp_path, source + HANDLER.format(check="jsonschema.validate(arguments, SCHEMA)")
    )
    assert "MR152" not in helpers.codes(findings) and "MR151" in helpers.codes(findings)
    assert '"root": ROOT_PROPERTY' in text


OWN_ROOT = """\
import os

import mcp.types as types
from mcp.server.lowlevel import Server

server = Server("files")


@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [types.Tool(name="ls", inputSchema={{"type": "object", "properties": {{"root": {{"type": "string"}}}}}})]


@server.call_tool()
async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:
    result = await server.request_context.session.list_roots()
    folder = os.path.join(result.roots[0].uri.path, {read})
    return [types.TextContent(type="text", text=",".join(os.listdir(folder)))]
"""


def test_noop_an_existing_root_property_the_handler_does_not_read_is_reused(tmp_path):
    findings, text = _findings(tmp_path, OWN_ROOT.format(read="'.'"))
    assert [f.code for f in findings] == ["MR151", "MR151"]
    assert 'arguments.get("root")' in text


@pytest.mark.parametrize("read", ["arguments.get('root', '.')", 'arguments["root"]'])
def test_an_existing_root_property_the_handler_reads_for_itself_is_marked(tmp_path, read):
    """Sweep G, r08: `root` meant a folder relative to the workspace; taken for the directory, every legacy
    call that passed it failed."""
    findings = check_noop(tmp_path, OWN_ROOT.format(read=read))
    assert helpers.codes(findings) == ["MR152"], findings
    assert (
        "already has a `root` property, which the handler reads for itself (line 17)" in findings[0].message
    )


def test_a_closed_model_of_another_module_or_behind_a_type_adapter_is_marked(tmp_path):
    """Sweep I, r04: the model imported from `models.py`, or checked with `TypeAdapter(M).validate_python`."""
    model = "from pydantic import BaseModel, ConfigDict\n\n\nclass Args(BaseModel):\n"
    model += "    model_config = ConfigDict(extra='forbid')\n    pattern: str\n"
    head = HEAD.replace(
        "from pydantic import BaseModel, ConfigDict, Extra\n", "from pydantic import TypeAdapter\n"
    )
    for imports, check in (
        ("from .models import Args\n", "args = Args.model_validate(arguments)"),
        ("from .models import Args\n", "args = TypeAdapter(Args).validate_python(arguments)"),
    ):
        source = head.replace("server = Server", imports + "\nserver = Server") + ONE_TOOL.format(
            schema=LITERAL
        )
        findings = check_noop(
            tmp_path / check[7:12], source + HANDLER.format(check=check), extra={"models.py": model}
        )
        assert helpers.codes(findings) == ["MR152"], findings
        assert "against `Args`" in findings[0].message


def test_an_existing_root_field_the_handler_reads_through_its_model_is_marked(tmp_path):
    """Sweep I, r09: `args = LsArgs.model_validate(arguments)`, then `args.root`, a folder of the workspace."""
    model = "class LsArgs(BaseModel):\n    root: str = '.'\n"
    handler = HANDLER.format(check="args = LsArgs.model_validate(arguments)").replace(
        "base = str(result.roots[0].uri)", "base = str(result.roots[0].uri) + args.root"
    )
    source = HEAD + model + ONE_TOOL.format(schema="LsArgs.model_json_schema()") + handler
    findings = check_noop(tmp_path, source)
    assert helpers.codes(findings) == ["MR152"], findings
    assert "already has a `root` property, which the handler reads for itself" in findings[0].message
