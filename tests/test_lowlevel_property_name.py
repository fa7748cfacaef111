"""The low-level rewrite names its property constant `ROOT_PROPERTY` (`ROOTS_PROPERTY` for a list). A module that
already binds that name to something of its own (a relative `start` folder's property with `"pattern": "^[^/]"`,
an import, a string) kept it and the new `root` argument took its description and pattern: an absolute path was
refused (sweep P, r04). Such a module gets ours under a free name; one an earlier run wrote is reused."""

from __future__ import annotations

import re

import pytest

from migrate_roots.codemods import _schema_text
from tests import helpers

HEAD = """\
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server

from pkg.schemas import START

server = Server("files")

"""

TAIL = """

@server.list_tools()
async def list_tools() -> list[types.Tool]:
    return [
        types.Tool(name="where", description="w", inputSchema={"type": "object", "properties": {}}),
    ]


@server.call_tool()
async def call_tool(name: str, arguments: dict[str, Any]) -> list[types.TextContent]:
    if name == "where":
        result = await server.request_context.session.list_roots()
        return [types.TextContent(type="text", text=str(result.roots[0].uri))]
    raise ValueError(name)
"""

OURS = _schema_text.property_statement("single", 88)


def _run(tmp_path, source):
    root = helpers.package(tmp_path, {"server.py": source, "schemas.py": "START = {}\nROOT_PROPERTY = {}\n"})
    findings = [f for r in helpers.run_engine(root, select=["MR1"]) for f in r.findings]
    text = (root / "pkg" / "server.py").read_text()
    assert not helpers.flakes(text) - helpers.flakes(source)
    again = (root / "pkg" / "server.py").read_text()
    helpers.run_engine(root, select=["MR1"])
    assert (root / "pkg" / "server.py").read_text() == again, "second run changed the file"
    return findings, text


def test_our_constant_from_an_earlier_run_is_reused(tmp_path):
    source = HEAD + OURS + TAIL
    findings, text = _run(tmp_path, source)
    assert "MR151" in helpers.codes(findings)
    assert re.search(r'"root": ROOT_PROPERTY\b', text)
    assert text.count("ROOT_PROPERTY = ") == 1
    assert "ROOT_PROPERTY_2" not in text


@pytest.mark.parametrize(
    "own",
    [
        'ROOT_PROPERTY = {"type": "string", "description": "Relative folder to start from", "pattern": "^[^/]"}\n',
        'ROOT_PROPERTY = {"type": "string", "description": "Absolute path"}\n',
        'ROOT_PROPERTY = "root"\n',
        "from pkg.schemas import ROOT_PROPERTY\n",
        "def ROOT_PROPERTY():\n    return {}\n",
        OURS + 'ROOT_PROPERTY = {"type": "string"}\n',
    ],
)
def test_a_constant_of_the_module_is_not_taken(tmp_path, own):
    source = HEAD + own + "\nUSED = [ROOT_PROPERTY, START]\n" + TAIL
    findings, text = _run(tmp_path, source)
    assert "MR151" in helpers.codes(findings)
    assert '"root": ROOT_PROPERTY_2\n' in text
    assert OURS.replace("ROOT_PROPERTY =", "ROOT_PROPERTY_2 =") in text
    assert own in text
