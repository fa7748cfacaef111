"""MR202 for the roots notification's name spelt otherwise (`notifications/roots/listChanged`): no client sends
it, so the handler it keys never ran, and it is still roots wiring to remove. Before, it was silent."""

from __future__ import annotations

from functools import partial

import pytest

from tests import helpers

# Every rule: a server speaking MCP by hand is parsed for its `roots/list` spelling (MR1's screen).
check_noop = partial(helpers.check_noop, write=False)

SDK = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("x")
CACHE: list[str] = []


async def on_roots_changed(notification) -> None:
    CACHE.clear()


mcp._mcp_server.notification_handlers[{name!r}] = on_roots_changed
"""

BY_HAND = """\
import json
import sys


def handle(message: dict) -> None:
    if message.get("method") == {name!r}:
        sys.stderr.write("roots changed\\n")
    print(json.dumps(message))
"""

SPELLINGS = ["notifications/roots/listChanged", "notifications/roots/list-changed", "roots/listChanged"]


@pytest.mark.parametrize("name", ["roots/list", "notifications/tools/list_changed", "listChanged"])
def test_noop_other_names_are_not_the_notification(tmp_path, name):
    assert [f for f in check_noop(tmp_path, SDK.format(name=name)) if f.code == "MR202"] == []


@pytest.mark.parametrize("template", [SDK, BY_HAND], ids=["sdk", "by hand"])
@pytest.mark.parametrize("name", SPELLINGS)
def test_a_misspelt_notification_name_is_marked(tmp_path, template, name):
    source = template.format(name=name)
    findings = check_noop(tmp_path, source)
    assert [f.code for f in findings] == ["MR202"], findings
    assert findings[0].message.startswith(f"`{name}` is no MCP method: no client sends it")
    lines = source.splitlines()
    assert findings[0].line == 1 + next(i for i, line in enumerate(lines) if name in line)
