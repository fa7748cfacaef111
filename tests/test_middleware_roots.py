"""Roots read in fastmcp middleware through `context.fastmcp_context` (wags, mcpower-proxy): never silent.

`MiddlewareContext.fastmcp_context` is the request's fastmcp Context, so `.list_roots()` on it is a roots read;
a middleware hook is no tool, and no tool argument reaches it."""

from __future__ import annotations

import textwrap

import pytest

from tests import helpers
from tests.helpers import codes

HOOK = """\
from fastmcp import FastMCP
from fastmcp.server.middleware import Middleware, MiddlewareContext

mcp = FastMCP("x")


class Audit(Middleware):
    async def on_message(self, context{annotation}, call_next):
        if context.fastmcp_context:
            roots = await context.fastmcp_context.list_roots()
            print("audit", [str(r.uri) for r in roots])
        return await call_next(context)


mcp.add_middleware(Audit())


@mcp.tool
def ping() -> str:
    return "pong"
"""


def _findings(tmp_path, source):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(textwrap.dedent(source))
    return [f for r in helpers.run_engine(tmp_path, select=["MR1", "MR2"], write=False) for f in r.findings]


def test_noop_a_fastmcp_context_attribute_of_something_else_is_no_read(tmp_path):
    source = HOOK.replace("context.fastmcp_context.list_roots()", "context.fastmcp_context.list_items()")
    assert _findings(tmp_path, source.format(annotation=": MiddlewareContext")) == []


@pytest.mark.parametrize("annotation", [": MiddlewareContext", "", ": 'MiddlewareContext'"])
def test_a_read_in_a_middleware_hook_is_marked_outside_any_tool(tmp_path, annotation):
    found = _findings(tmp_path, HOOK.format(annotation=annotation))
    assert codes(found) == ["MR103"], found
    assert "roots read in `on_message`, a hook of the fastmcp middleware `Audit` (pkg/server.py:8)" in (
        found[0].message
    )
    assert "read the tool's own path argument from `context.message.arguments`" in found[0].message


def test_a_middleware_bound_keeps_the_operators_bound_and_its_cache_is_marked(tmp_path):
    source = """\
    from fastmcp import FastMCP
    from fastmcp.server.middleware import Middleware, MiddlewareContext

    mcp = FastMCP("x")


    class Guard(Middleware):
        def __init__(self) -> None:
            self._roots: list[str] | None = None

        async def on_call_tool(self, context: MiddlewareContext, call_next):
            if self._roots is None and context.fastmcp_context:
                roots = await context.fastmcp_context.list_roots()
                self._roots = [str(r.uri) for r in roots]
            repo = (context.message.arguments or {}).get("repo", "")
            if self._roots is not None and not any(repo.startswith(r) for r in self._roots):
                raise PermissionError(f"{repo} is outside the allowed roots")
            return await call_next(context)


    mcp.add_middleware(Guard())


    @mcp.tool
    def clone(repo: str) -> str:
        return repo
    """
    assert codes(_findings(tmp_path, source)) == ["MR110", "MR212"]


GUARD = """\
from fastmcp import FastMCP
from fastmcp.server.middleware import Middleware, MiddlewareContext

mcp = FastMCP("gh")


class PrefixGuard(Middleware):
    def __init__(self) -> None:
        self._prefixes: list[str] = []
        self._fresh = False

    async def _load(self, context: MiddlewareContext) -> None:
        try:
            roots = await context.fastmcp_context.list_roots()
            self._prefixes = [str(r.uri) for r in roots]
        except Exception:
            self._prefixes = []
        self._fresh = True

    async def on_notification(self, context: MiddlewareContext, call_next):
        if context.method == "notifications/roots/list_changed":
            self._fresh = False
        return await call_next(context)

    async def on_call_tool(self, context: MiddlewareContext, call_next):
        url = (context.message.arguments or {{}}).get("url", "")
        if not self._fresh:
            await self._load(context)
        {check}
        return await call_next(context)


mcp.add_middleware(PrefixGuard())


@mcp.tool
def fetch(url: str) -> str:
    return url
"""


def test_noop_roots_a_middleware_only_logs_keep_the_per_request_advice(tmp_path):
    found = _findings(tmp_path, GUARD.format(check="print(self._prefixes)"))
    assert codes(found) == ["MR103", "MR202", "MR212"], found
    kept = next(f for f in found if f.code == "MR212")
    assert "take the directory per request instead" in kept.message
    assert "allow-list" not in next(f for f in found if f.code == "MR202").message


@pytest.mark.parametrize(
    "check",
    [
        "if url in self._prefixes:\n            print('seen', url)",  # a cache or a dedupe set: no refusal
        "if any(url.startswith(p) for p in self._prefixes):\n            return await call_next(context)",
    ],
)
def test_noop_an_attribute_checked_without_refusing_is_no_allow_list(tmp_path, check):
    found = _findings(tmp_path, GUARD.format(check=check))
    assert "allow-list" not in " ".join(f.message for f in found), found


@pytest.mark.parametrize(
    "check",
    [
        "assert any(url.startswith(p) for p in self._prefixes), url",
        "assert url in self._prefixes, url",
        "if not any(url.startswith(p) for p in self._prefixes):\n            raise PermissionError(url)",
    ],
)
def test_roots_a_middleware_checks_calls_against_are_an_allow_list_in_every_marker(tmp_path, check):
    found = _findings(tmp_path, GUARD.format(check=check))
    assert codes(found) == ["MR103", "MR202", "MR212"], found
    by_code = {f.code: f.message for f in found}
    assert "reached from `on_call_tool`, a hook of the fastmcp middleware `PrefixGuard`" in by_code["MR103"]
    assert "if the roots bound what the tools may touch, keep that bound in the server's" in by_code["MR103"]
    assert "roots kept on `self._prefixes`, an allow-list that outlives the request" in by_code["MR212"]
    assert (
        "of a class that checks values against `self._prefixes`, an allow-list: keep it" in by_code["MR202"]
    )


def test_a_middleware_built_on_a_project_base_in_a_module_without_the_sdk_is_reported(tmp_path):
    # Session 15's sweep D, r03 (wags' shape): silent before, the roots an allow-list around every tool call.
    files = {
        "base.py": (
            "from fastmcp.server.middleware import Middleware\n\n\nclass ToolGuard(Middleware):\n"
            "    async def on_call_tool(self, context, call_next):\n        return await call_next(context)\n"
        ),
        "guard.py": (
            "from .base import ToolGuard\n\n\nclass RootsGuard(ToolGuard):\n"
            "    async def on_call_tool(self, context, call_next):\n"
            "        roots = await context.fastmcp_context.list_roots()\n"
            "        path = (context.message.arguments or {}).get('path', '')\n"
            "        if not any(path.startswith(str(r.uri)[7:]) for r in roots):\n"
            "            raise PermissionError(path)\n        return await call_next(context)\n"
        ),
    }
    server = "from fastmcp import FastMCP\n\nfrom .guard import RootsGuard\n\nmcp = FastMCP('x')\nmcp.add_middleware(RootsGuard())\n"
    findings = helpers.check_noop(tmp_path, server, extra=files, write=False)
    assert [(f.code, f.path, f.line) for f in findings] == [("MR103", "pkg/guard.py", 6)]
    assert "a fastmcp middleware's context" in findings[0].message
    assert "never in an argument the caller chooses" in findings[0].message


@pytest.mark.parametrize("reader", ["check", "_load"])
def test_code_a_project_middleware_base_runs_says_so(tmp_path, reader):
    """Session 15's sweep D, r07 (wags): `check(self, context: MiddlewareContext)`, run by the project base's
    `on_call_tool`, reads the roots (itself, or through `_load`): the marker said "none of them a tool or called
    from one" and advised a path argument for what is an allow-list."""
    load = "        roots = await context.fastmcp_context.list_roots()\n        self._roots = [str(r.uri)[7:] for r in roots]\n"
    body = load if reader == "check" else "        await self._load(context)\n"
    loader = (
        ""
        if reader == "check"
        else f"    async def _load(self, context: MiddlewareContext) -> None:\n{load}\n"
    )
    files = {
        "base.py": (
            "from fastmcp.server.middleware import Middleware\n\n\nclass ToolGuard(Middleware):\n"
            "    async def on_call_tool(self, context, call_next):\n        await self.check(context)\n"
            "        return await call_next(context)\n\n    async def check(self, context) -> None:\n"
            "        return None\n"
        ),
        "guard.py": (
            "from fastmcp.server.middleware import MiddlewareContext\n\nfrom .base import ToolGuard\n\n\n"
            f"class RootsGuard(ToolGuard):\n    _roots: list = []\n\n{loader}"
            f"    async def check(self, context: MiddlewareContext) -> None:\n{body}"
            "        path = (context.message.arguments or {}).get('path', '')\n"
            "        if not any(path.startswith(a) for a in self._roots):\n"
            "            raise PermissionError(path)\n"
        ),
    }
    server = "from fastmcp import FastMCP\n\nfrom .guard import RootsGuard\n\nmcp = FastMCP('x')\nmcp.add_middleware(RootsGuard())\n"
    findings = helpers.check_noop(tmp_path, server, extra=files, write=False)
    by_code = {f.code: f.message for f in findings}
    assert sorted(by_code) == ["MR103", "MR212"], findings
    assert (
        f"roots read in `{reader}`, code of the fastmcp middleware `RootsGuard` (it takes a `MiddlewareContext`"
        in (by_code["MR103"])
    )
    assert "never in an argument the caller chooses" in by_code["MR103"]
    assert "none of them a tool" not in by_code["MR103"]
