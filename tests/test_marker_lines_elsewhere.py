"""A marker citing a line of *another* file that the same run rewrites cites it as written (session 15's sweep
A, r04: the helper's marker pointed into the RootPath block the server's rewrite had added above the cited
line). `apply` writes it so, `apply --dry-run` shows it so; findings keep the numbers as read."""

from __future__ import annotations

import re
import subprocess
import sys

from migrate_roots.codemods._marker_lines import moves, recite
from tests import helpers

HELPERS = """\
from mcp.server.fastmcp import Context


async def first_root(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""

SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

from .helpers import first_root

mcp = FastMCP("t")
{tool}

@mcp.resource("cfg://root")
async def root_resource(ctx: Context) -> str:
    return await first_root(ctx)
"""

TOOL = """

@mcp.tool()
async def where(ctx: Context) -> str:
    result = await ctx.session.list_roots()
    return str(result.roots[0].uri)
"""


def _project(tmp_path, tool: str):
    return helpers.package(tmp_path, {"helpers.py": HELPERS, "server.py": SERVER.format(tool=tool)})


def _cited(text: str) -> int:
    found = re.search(r"\(pkg/server\.py:(\d+)\)", text)
    assert found is not None, text
    return int(found[1])


def _def_line(text: str) -> int:
    return text.splitlines().index("async def root_resource(ctx: Context) -> str:") + 1


# --- recite, the renumbering -----------------------------------------------------------------------------
def test_noop_a_citation_of_a_file_the_run_did_not_change_stays():
    text = "# migrate-roots: MR103: reached from `f` (pkg/server.py:15)\nx = 1\n"
    assert recite(text, "pkg/helpers.py", {}) == text
    assert recite(text, "pkg/helpers.py", {"pkg/other.py": ((1, 5, 20),)}) == text


def test_noop_a_citation_naming_two_changed_files_stays():
    text = "# migrate-roots: MR103: reached from `f` (pkg/server.py:15)\nx = 1\n"
    both = {"a/pkg/server.py": ((1, 5, 20),), "b/pkg/server.py": ((1, 9, 20),)}
    assert recite(text, "a/pkg/helpers.py", both) == text


def test_noop_text_outside_markers_stays():
    text = 'x = "(pkg/server.py:15)"\n'
    assert recite(text, "pkg/helpers.py", {"pkg/server.py": ((1, 5, 20),)}) == text


def test_a_citation_of_a_changed_file_takes_its_written_line():
    text = "    # migrate-roots: MR103: roots read in `f`, reached from\n    #   `g` (pkg/server.py:15), outside\n"
    moved = moves("a\n" * 20, "new\n" * 4 + "a\n" * 20)
    assert "(pkg/server.py:19)" in recite(text, "pkg/helpers.py", {"src/pkg/server.py": moved})


def test_a_diff_is_renumbered_on_its_added_lines_only():
    diff = "--- a/pkg/helpers.py\n+++ b/pkg/helpers.py\n+# migrate-roots: MR103: at (pkg/server.py:2)\n"
    diff += " # migrate-roots: MR103: at (pkg/server.py:2)\n"
    out = recite(diff, "pkg/helpers.py", {"pkg/server.py": ((1, 3, 5),)}, prefix="+")
    assert out.splitlines()[2].endswith("(pkg/server.py:4)") and out.splitlines()[3].endswith(":2)")


# --- whole runs ------------------------------------------------------------------------------------------
def test_noop_the_cited_file_unchanged_keeps_the_number(tmp_path):
    root = _project(tmp_path, "")
    helpers.run_engine(root, select=["MR1"])
    server = (root / "pkg" / "server.py").read_text()
    assert _cited((root / "pkg" / "helpers.py").read_text()) == _def_line(server) == 9


def test_apply_writes_the_cited_line_as_written_and_findings_keep_it_as_read(tmp_path):
    root = _project(tmp_path, TOOL)
    results = helpers.run_engine(root, select=["MR1"])
    marker = next(f for r in results for f in r.findings if f.code == "MR103")
    assert _cited(marker.message) == 15  # the finding: the source as read
    server = (root / "pkg" / "server.py").read_text()
    assert "RootPath = Annotated[" in server  # rewritten: the resource moved down
    assert _cited((root / "pkg" / "helpers.py").read_text()) == _def_line(server) > 15


def test_the_dry_run_diff_shows_what_apply_writes(tmp_path):
    root = _project(tmp_path, TOOL)
    shown = subprocess.run(
        [sys.executable, "-m", "migrate_roots", "apply", "--dry-run", "--no-progress", "pkg"],
        cwd=root,
        capture_output=True,
        text=True,
    )
    added = [line for line in shown.stdout.splitlines() if line.startswith("+") and "pkg/server.py:" in line]
    assert added, shown.stdout
    helpers.run_engine(root, select=["MR1"])
    assert _cited(added[0]) == _def_line((root / "pkg" / "server.py").read_text())
    # The results keep their path order.
    assert shown.stdout.index("b/pkg/helpers.py") < shown.stdout.index("b/pkg/server.py")


def test_the_moves_read_off_a_diff_are_the_moves_of_the_texts():
    """A dry run reads what moved off its diff (no second comparison of the texts: benchmark 3's dry run)."""
    import random

    from migrate_roots.codemods._marker_lines import _table, moves_from_diff
    from migrate_roots.engine_output import unified_diff

    rng = random.Random(7)
    for _ in range(400):
        old = [f"line {i}\n" for i in range(rng.randint(0, 30))]
        new = list(old)
        for _ in range(rng.randint(1, 5)):
            at = rng.randint(0, len(new))
            kind = rng.choice("ids")
            if kind == "i":
                new[at:at] = [f"added {rng.random()}\n"] * rng.randint(1, 3)
            elif new and at < len(new):
                new[at : at + (1 if kind == "s" else rng.randint(1, 2))] = [f"new {rng.random()}\n"] * (
                    kind == "s"
                )
        before, after = "".join(old), "".join(new)
        if before == after:
            continue
        direct, read = (
            _table(moves(before, after)),
            _table(moves_from_diff(unified_diff("f.py", before, after))),
        )
        assert [direct(i) for i in range(1, len(old) + 1)] == [read(i) for i in range(1, len(old) + 1)]
