"""Nothing is deleted as dead while another file of the project names it (issue 18, item 2).

Seen on a real server: `main.py` beside the package called private roots helpers of `pkg/runtime.py`; `apply
pkg` deleted them as dead and five of the project's tests failed. The rest of the project (git work tree, else
the nearest pyproject.toml's folder, else the package's folder) is byte-searched before a deletion.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from migrate_roots import codemods
from migrate_roots.codemods import _project_refs
from migrate_roots.config import Settings
from migrate_roots.engine import Engine, Options
from tests.helpers import check_noop, check_transformed, codes

HELPER = """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")

    async def _roots_helper(ctx: Context):
        return await ctx.session.list_roots()
    """
MAIN = "from pkg.server import _roots_helper\n\nprint(_roots_helper)\n"


def _run(folder: Path, paths: list[str]) -> list:
    options = Options(
        settings=Settings(), enabled=codemods.select_codes(["MR2"]), write=True, want_diff=True, jobs=1
    )
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        return [f for r in Engine(options).run([Path(p) for p in paths]) for f in r.findings]
    finally:
        os.chdir(cwd)


def test_noop_helper_named_by_a_script_beside_the_package(tmp_path):
    findings = check_noop(tmp_path, HELPER, extra={"../main.py": MAIN}, select=["MR2"])
    [finding] = [f for f in findings if f.code == "MR216"]
    assert "`main.py` names it: kept" in finding.message
    assert finding.action.value == "reported"


def test_noop_helper_named_outside_the_paths_of_the_run(tmp_path):
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "server.py").write_text(textwrap.dedent(HELPER))
    (root / "scripts").mkdir()
    (root / "scripts" / "run.py").write_text(MAIN)
    before = (root / "pkg" / "server.py").read_bytes()
    findings = _run(root, ["pkg"])
    assert (root / "pkg" / "server.py").read_bytes() == before
    assert "`scripts/run.py` names it: kept" in next(f.message for f in findings if f.code == "MR216")


def test_helper_named_nowhere_else_is_still_removed(tmp_path):
    findings = check_transformed(
        tmp_path,
        HELPER,
        """\
        from mcp.server.fastmcp import FastMCP

        mcp = FastMCP("x")
        """,
        extra={"../main.py": "print('unrelated: _roots_helper_two')\n"},
        select=["MR2"],
    )
    assert codes(findings) == ["MR216"]


def test_project_root_prefers_the_git_work_tree(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "packages" / "a" / "src").mkdir(parents=True)
    (tmp_path / "packages" / "a" / "pyproject.toml").write_text("")
    found = _project_refs.project_root(str(tmp_path / "packages" / "a" / "src"), "/nowhere")
    assert found == str(tmp_path)
    bare = tmp_path / "bare"
    (bare / "pkg").mkdir(parents=True)
    assert _project_refs.project_root(str(bare / "pkg"), str(bare)) == str(tmp_path)  # still inside git
