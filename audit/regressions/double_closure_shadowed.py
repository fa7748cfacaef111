# Regression: giving a test double the helper's new `root=None` parameter shadows a variable named `root` that the
# fake reads from its enclosing test: the fake then returns "None" instead of the test's directory.
#
# Found on: codex-in-claude 0.24.0 (audit run of 2026-12-01 03:08 UTC, the first with MR108):
# tests/test_server.py::test_workspace_outside_roots_carries_candidate_roots defines `root = tmp_path / "repo"`
# and `async def fake_roots(ctx): return [str(root)], "client"`; MR108 made it `fake_roots(ctx, root=None)`,
# and the assertion on candidate_roots saw ['None'].
# Reproduce: save as pkg/server.py, `migrate-roots apply pkg`, then `pytest pkg/server.py`.
# Expected (fixed): a fake whose body mentions the parameter's name gets `**kwargs` instead
# (tests/test_test_double_signature.py::test_fake_reading_a_root_of_its_own_takes_kwargs).
import asyncio
import sys

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("codex")


async def _roots_from_ctx(ctx: Context | None) -> list[str]:
    if ctx is None:
        return []
    result = await ctx.session.list_roots()
    return [str(r.uri) for r in result.roots]


@mcp.tool()
async def consult(question: str, ctx: Context | None = None) -> str:
    roots = await _roots_from_ctx(ctx)
    return f"{question} in {roots[0] if roots else 'cwd'}"


def test_consult_uses_first_root(monkeypatch, tmp_path):
    root = tmp_path / "repo"

    async def fake_roots(ctx):
        return [str(root)]

    monkeypatch.setattr(sys.modules[__name__], "_roots_from_ctx", fake_roots)
    assert asyncio.run(consult("q")) == f"q in {root}"
