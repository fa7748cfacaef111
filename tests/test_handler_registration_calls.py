"""Resource, prompt and completion handlers registered by a call rather than a decorator (sweep F, r01): the
marker said "the tools that call it there are not followed; give them a path argument", for functions no tool
calls. It now names the handler and gives the decorator form's advice."""

from __future__ import annotations

import pytest

from tests import helpers

READ = """

async def {name}(ctx: Context{extra}) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

FORMS = {
    "mcp.resource(uri)(fn)": (
        "resource",
        'mcp.resource("project://readme")(handler)',
        "put the path in its URI template",
    ),
    "mcp.prompt()(fn)": ("prompt", 'mcp.prompt(name="review")(handler)', "a prompt takes arguments too"),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_handler_registered_by_a_call_is_named_as_one(tmp_path, form):
    kind, registration, advice = FORMS[form]
    source = "from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP('x')\n"
    source += READ.format(name="handler", extra="") + "\n\n" + registration + "\n"
    (tmp_path / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"], write=False) for f in r.findings]
    assert [f.code for f in findings] == ["MR103"], findings
    assert f"the {kind} handler registered by `{registration}`" in findings[0].message
    assert advice in findings[0].message and "the tools that call it" not in findings[0].message


def test_mcp2_server_keywords_name_the_handler(tmp_path):
    source = "from mcp.server import Server, ServerRequestContext\n"
    source += READ.format(name="read_resource", extra=", params: object").replace(
        "ctx: Context", "ctx: ServerRequestContext"
    )
    source += READ.format(name="complete", extra=", params: object").replace(
        "ctx: Context", "ctx: ServerRequestContext"
    )
    source += (
        "\n\nserver = Server('x', on_read_resource=read_resource, on_completion=complete, version='1.0.0')\n"
    )
    (tmp_path / "server.py").write_text(source)
    findings = [f for r in helpers.run_engine(tmp_path, select=["MR1"], write=False) for f in r.findings]
    messages = sorted(f.message for f in findings)
    assert len(messages) == 2, findings
    assert "the completion handler registered by `Server(on_completion=complete, ...)`" in messages[0]
    assert "the resource handler registered by `Server(on_read_resource=read_resource, ...)`" in messages[1]
