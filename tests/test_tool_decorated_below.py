"""A tool decorated below its registration by a decorator of the module that returns its own function, not
made with `functools.wraps`: the SDK registers that function (its signature is the schema), so the tool is
marked MR104 rather than given a parameter no client would be offered (B's r01, session 14)."""

from __future__ import annotations

import pytest

from tests import helpers

SOURCE = """\
{imports}from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


def with_ctx(fn):
{wraps}    async def w(ctx: Context) -> list[str]:
        return await fn(ctx)

    return w


{decorators}async def workspace(ctx: Context) -> list[str]:
    r = await ctx.session.list_roots()
    return [str(x.uri) for x in r.roots]
"""


def _run(tmp_path, **parts):
    (tmp_path / "server.py").write_text(SOURCE.format(**parts))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    return [f.code for r in results for f in r.findings], (tmp_path / "server.py").read_text()


def test_noop_below_the_registration_without_wraps_is_marked(tmp_path):
    codes, text = _run(tmp_path, imports="", wraps="", decorators="@mcp.tool()\n@with_ctx\n")
    assert codes == ["MR104"] and "root" not in text.split("def workspace")[1].split("\n")[0]


def test_noop_below_the_registration_with_wraps_and_a_signature_of_its_own_is_marked(tmp_path):
    # The SDK reads the schema through `__wrapped__` and offers `root`, then calls `w(ctx)`: a TypeError for
    # every client that passes it (session 15's sweep A, r05).
    codes, text = _run(
        tmp_path,
        imports="import functools\n\n",
        wraps="    @functools.wraps(fn)\n",
        decorators="@mcp.tool()\n@with_ctx\n",
    )
    assert codes == ["MR104"] and "root" not in text.split("def workspace")[1].split("\n")[0]


@pytest.mark.parametrize(
    ("imports", "wraps", "decorators"),
    [
        (
            "import functools\n\n",
            "    @functools.wraps(fn)\n",
            "@mcp.tool()\n@with_ctx\n",
        ),  # the SDK follows it
        (
            "",
            "",
            "@with_ctx\n@mcp.tool()\n",
        ),  # applied after the registration: the tool is the function itself
    ],
)
def test_rewritten_when_the_schema_is_the_tools_own(tmp_path, imports, wraps, decorators):
    # The wrapper takes what the SDK passes and hands it on.
    source = SOURCE.replace("w(ctx: Context)", "w(*args, **kwargs)").replace("fn(ctx)", "fn(*args, **kwargs)")
    (tmp_path / "server.py").write_text(source.format(imports=imports, wraps=wraps, decorators=decorators))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    codes, text = [f.code for r in results for f in r.findings], (tmp_path / "server.py").read_text()
    assert "MR101" in codes and "MR104" not in codes
    assert "async def workspace(ctx: Context, root: RootPaths = None)" in text


FACTORY = """\
import functools

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("x")


def guard(*, tier: str = "consult"):
    def decorator(fn):
{wraps}        async def wrapper(*args, **kwargs):
            return await fn(*args, **kwargs)

        return wrapper

    return decorator


@mcp.tool()
@guard(tier="read")
async def workspace(ctx: Context) -> list[str]:
    r = await ctx.session.list_roots()
    return [str(x.uri) for x in r.roots]
"""


@pytest.mark.parametrize(("wraps", "code"), [("        @functools.wraps(fn)\n", "MR101"), ("", "MR104")])
def test_a_decorator_factory_is_read_one_level_down(tmp_path, wraps, code):
    """`@guard(tier=...)` returns the decorator, whose wrapper is what counts (codex-in-claude's `_guard`)."""
    (tmp_path / "server.py").write_text(FACTORY.format(wraps=wraps))
    results = helpers.run_engine(tmp_path, select=["MR1"])
    codes = [f.code for r in results for f in r.findings]
    assert code in codes and ({"MR101", "MR104"} - {code}).isdisjoint(codes)
