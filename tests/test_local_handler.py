"""MR201 on a list_changed handler that is a closure of the function registering it (coco-search's shape:
`register_roots_notification(mcp)` defines `_handle_roots_changed`, which only logs, and registers it on
`mcp._mcp_server.notification_handlers`). The closure goes with its registration only when it is undecorated,
named once (by the registration) and only logs; anything else stays marked MR202."""

from __future__ import annotations

import pytest

from tests import helpers
from tests.helpers import check_transformed, codes

HEAD = """\
import logging

from mcp.server.fastmcp import FastMCP
from mcp.types import RootsListChangedNotification

logger = logging.getLogger(__name__)
mcp = FastMCP("x")


def register(server: FastMCP, cache: dict) -> None:
"""


def kept(tmp_path, source: str) -> list:
    """The findings of a dry run; the closure and its registration must stay, marked MR202."""
    root = helpers._layout(tmp_path, source, None, True)
    findings = [f for r in helpers.run_engine(root, write=False) for f in r.findings]
    assert "MR201" not in codes(findings)
    assert any(f.code == "MR202" and "is not a module-level function" in f.message for f in findings), (
        findings
    )
    return findings


NOOP_BODIES = {
    "clears the enclosing function's value": "        cache.clear()\n",
    "calls a helper": "        logger.info('changed %s', len(cache))\n",
    "awaits": "        await asyncio.sleep(0)\n",
    "sets a nonlocal": "        nonlocal cache\n        cache = {}\n",
    "logs through a parameter's logger": "        server.log.info('changed')\n",
    "branches": "        if cache:\n            logger.info('changed')\n",
}


@pytest.mark.parametrize("body", list(NOOP_BODIES.values()), ids=list(NOOP_BODIES))
def test_a_closure_that_does_more_than_log_stays_marked(tmp_path, body):
    source = (
        HEAD
        + "    async def on_changed(notification: RootsListChangedNotification) -> None:\n"
        + body
        + "\n"
        + "    server._mcp_server.notification_handlers[RootsListChangedNotification] = on_changed\n"
    )
    kept(tmp_path, source.replace("import logging\n", "import asyncio\nimport logging\n"))


def test_a_closure_named_twice_stays_marked(tmp_path):
    source = (
        HEAD
        + "    async def on_changed(notification: RootsListChangedNotification) -> None:\n"
        + "        logger.info('changed')\n\n"
        + "    server._mcp_server.notification_handlers[RootsListChangedNotification] = on_changed\n"
        + "    cache['handler'] = on_changed\n"
    )
    kept(tmp_path, source)


def test_a_decorated_closure_stays_marked(tmp_path):
    source = (
        HEAD
        + "    @staticmethod\n"
        + "    async def on_changed(notification: RootsListChangedNotification) -> None:\n"
        + "        logger.info('changed')\n\n"
        + "    server._mcp_server.notification_handlers[RootsListChangedNotification] = on_changed\n"
    )
    kept(tmp_path, source)


def test_a_closure_that_only_logs_goes_with_its_registration(tmp_path):
    findings = check_transformed(
        tmp_path,
        HEAD
        + '    """Register a handler."""\n\n'
        + "    async def _handle_roots_changed(\n"
        + "        notification: RootsListChangedNotification,\n"
        + "    ) -> None:\n"
        + '        """Log it."""\n'
        + '        logger.info("Roots list changed, will re-detect on next tool call")\n'
        + '        logging.debug("changed: %s", notification.method)\n'
        + "        print(f'changed {notification!r}')\n"
        + "        return\n\n"
        + "    server._mcp_server.notification_handlers[  # noqa: SLF001\n"
        + "        RootsListChangedNotification\n"
        + "    ] = _handle_roots_changed\n"
        + '    logger.debug("Registered")\n\n\n'
        + "register(mcp, {})\n",
        HEAD.replace("from mcp.types import RootsListChangedNotification\n", "")
        + '    """Register a handler."""\n\n'
        + '    logger.debug("Registered")\n\n\n'
        + "register(mcp, {})\n",
    )
    assert codes(findings) == ["MR201"]
    assert "`_handle_roots_changed`, a local function that only logged, removed" in findings[0].message


def test_a_closure_registered_through_the_mcp2_constructor(tmp_path):
    before = """\
from typing import Any

from mcp.server.lowlevel import Server


def build() -> Server:
    def on_changed(_ctx: Any, _params: Any) -> None:
        pass

    return Server("x", on_roots_list_changed=on_changed)
"""
    after = """\
from mcp.server.lowlevel import Server


def build() -> Server:
    return Server("x")
"""
    assert codes(check_transformed(tmp_path, before, after)) == ["MR201"]


def test_a_closure_registered_by_method_name(tmp_path):
    before = """\
from typing import Any

from mcp.server.lowlevel import Server
from mcp.types import NotificationParams


def build() -> Server:
    server = Server("x")

    async def on_changed(_ctx: Any, _params: Any) -> None:
        print("roots changed")

    server.add_notification_handler("notifications/roots/list_changed", NotificationParams, on_changed)
    return server
"""
    after = """\
from mcp.server.lowlevel import Server


def build() -> Server:
    server = Server("x")

    return server
"""
    assert codes(check_transformed(tmp_path, before, after)) == ["MR201"]


def test_a_closure_a_nested_tool_also_calls_stays_marked(tmp_path):
    """sweep D r01 (session 20): a tool in the same factory awaits the handler; removed, it was undefined."""
    source = (
        HEAD
        + "    async def on_changed(notification: RootsListChangedNotification | None = None) -> None:\n"
        + "        logger.info('changed')\n\n"
        + "    server._mcp_server.notification_handlers[RootsListChangedNotification] = on_changed\n\n"
        + "    @server.tool()\n"
        + "    async def refresh() -> str:\n"
        + "        await on_changed()\n"
        + "        return 'refreshed'\n"
    )
    kept(tmp_path, source)
