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
    assert "roots read in `on_message`, which is not a tool" in found[0].message


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
