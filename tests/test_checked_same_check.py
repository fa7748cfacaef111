"""A path argument checked on the way, and the roots' value checked by the same check somewhere further down:
still MR109 (codemods/_checked_params.py). Session 18 lifted the marker when the roots' value met the same check
up to four calls down (the stealth-chrome-devtools-mcp shape: the caller's `user_data_dir` and the clone folder
named after the roots both reach `_is_relative_to(..., clone_root)`); sweep U showed the new argument could then
skip the check the caller's path gets: only the first root met it (r02), a write came before it (r03), or its
failure was caught and logged (r04). The lift was withdrawn; these shapes stay marked, with a text that says
only that the roots are not shown to meet the check before their use."""

from __future__ import annotations

import pytest

from tests import helpers

SERVER = """\
    from pathlib import Path

    from mcp.server.fastmcp import Context, FastMCP

    BASE = Path("/srv/data")
    mcp = FastMCP("x")


    def _check(path: Path) -> Path:
        try:
            path.resolve().relative_to(BASE)
        except ValueError:
            raise ValueError(f"{path} is outside the data folder") from None
        return path


    @mcp.tool()
    async def save(path: str, text: str, ctx: Context) -> str:
        _check(Path(path)).write_text(text)
        result = await ctx.session.list_roots()
        dirs = [Path(r.uri.path) for r in result.roots]
        {use}
        return "ok"
    """


@pytest.mark.parametrize(
    "use",
    [
        # r02: only the first root meets the check; every one is written to
        '_check(dirs[0])\n        for d in dirs:\n            (d / ".index").write_text(text)',
        # r03: the check comes after a write
        '(dirs[0] / ".log").write_text(text)\n        _check(dirs[0])',
        # r04: the check's failure is caught and logged
        "try:\n            _check(dirs[0])\n        except ValueError:\n            pass\n"
        '        (dirs[0] / ".log").write_text(text)',
        # the roots' folder meets the check before its use: still not read, still marked
        '(_check(dirs[0]) / ".log").write_text(text)',
    ],
    ids=["first-root-only", "after-a-write", "failure-caught", "before-its-use"],
)
def test_noop_a_check_the_roots_meet_further_down_keeps_mr109(tmp_path, use):
    root = helpers.package(tmp_path, {"server.py": SERVER.replace("{use}", use)})
    results = helpers.run_engine(root, select=["MR1"], write=False)
    findings = [(f.code, f.action.value, f.message) for r in results for f in r.findings]
    assert [f[:2] for f in findings] == [("MR109", "marked")], findings
    assert "the roots read here are not shown to meet that check before their use" in findings[0][2]
