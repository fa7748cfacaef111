# Regression: threading the new argument through a helper changes the helper's signature, so the package's
# own test doubles of that helper (monkeypatched fakes with the old signature) break: TypeError at call time.
#
# Found on: codex-in-claude 0.24.0: `_roots_from_ctx(ctx)` became `_roots_from_ctx(ctx, root=None)` and every
# caller now passes `root=root`; tests/test_server.py monkeypatches it with `async def fake_roots(ctx)`, so
# test_workspace_outside_roots_carries_candidate_roots and test_invalid_workspace_root_omits_candidate_roots
# fail after migration (the tool catches the TypeError and answers `internal_error`). 2 of the 6 new test
# failures there (the other 4: a pinned tool-surface snapshot/fingerprint, and tools/list outgrowing the
# project's 103000-byte budget by ~3.4 KB because 14 tools got the new argument and its description).
# Reproduce: save as pkg/server.py and run `pytest pkg/server.py` (passes), then `migrate-roots apply pkg` and
# run it again (fails: "fake_roots() got an unexpected keyword argument 'root'").
# Expected: at least a finding (report) naming the helper whose signature changed and the test doubles that
# patch it; better, thread the value without breaking a one-argument fake (e.g. only pass `root=` when it is
# not None), or rewrite `monkeypatch.setattr(module, "<helper>", fake)` fakes in the same package.
import asyncio
import sys

from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("codex")


async def _roots_from_ctx(ctx: Context | None) -> list[str]:
    if ctx is None:
        return []
    try:
        result = await ctx.session.list_roots()
    except Exception:
        return []
    return [str(r.uri) for r in result.roots]


@mcp.tool()
async def consult(question: str, ctx: Context | None = None) -> str:
    try:
        roots = await _roots_from_ctx(ctx)
    except Exception as exc:  # the real server answers internal_error
        return f"internal_error: {exc}"
    return f"{question} in {roots[0] if roots else 'cwd'}"


def test_consult_uses_first_root(monkeypatch):
    async def fake_roots(ctx):
        return ["/repo"]

    monkeypatch.setattr(sys.modules[__name__], "_roots_from_ctx", fake_roots)
    assert asyncio.run(consult("q")) == "q in /repo"
