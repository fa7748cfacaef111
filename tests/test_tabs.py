"""What a rewrite adds to a file indented with tabs is indented with tabs (sweep H, r09): before, the RootPath
block, a wrapped signature and a low-level schema property came in four spaces, and the project's own
`ruff format --check` (indent-style "tab") failed on them. The compatibility module keeps its spaces behind
the formatter's off switch."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from migrate_roots.codemods._tabs import tabbed
from tests import helpers

TAB_CONFIG = (
    '[tool.ruff]\nline-length = 79\n\n[tool.ruff.format]\nindent-style = "tab"\n\n'
    "[tool.ruff.lint]\nselect = ['E', 'F', 'I']\n"
)
FIXTURES = Path(__file__).parent / "fixtures" / "lowlevel"
SERVER = """\
from mcp.server.fastmcp import Context, FastMCP

mcp = FastMCP("demo")


async def _root_of(ctx: Context, label: str) -> str:
    result = await ctx.session.list_roots()
    return label + str(result.roots[0].uri)


@mcp.tool()
async def where(ctx: Context, label: str) -> dict:
    return {"r": await _root_of(ctx, label)}


@mcp.tool()
async def search(pattern: str, limit: int, ctx: Context) -> str:
    return await _root_of(ctx, pattern) + str(limit)
"""


def _apply(tmp_path: Path, source: str, config: str = TAB_CONFIG) -> Path:
    """The project, formatted by its own formatter first (as a project that checks it is), then migrated."""
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pyproject.toml").write_text(config)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(source)
    assert _ruff(proj, "format", "pkg").returncode == 0
    helpers.run_engine(proj, select=["MR1"])
    return proj


def _ruff(proj: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache"], cwd=proj, capture_output=True, text=True
    )


def _space_indented(text: str) -> list[str]:
    """Lines indented with spaces outside strings (the files here have no multi-line strings)."""
    return [line for line in text.splitlines() if re.match(r"\t* {4}", line)]


# --- tabbed: the lines it may touch ---------------------------------------------------------------------
def test_noop_lines_the_rewrite_did_not_touch_keep_their_spaces():
    old = 'def f():\n\tx = """\n    kept\n"""\n\treturn (\n      1\n\t)\n'
    assert tabbed(old, old) == old


def test_noop_a_new_line_inside_a_string_keeps_its_spaces():
    old = "def f():\n\treturn 1\n"
    new = 'def f():\n\tdoc = """\n    inside\n        deeper\n"""\n\treturn 1\n'
    assert tabbed(new, old) == new


def test_noop_an_alignment_that_is_not_whole_levels_stays():
    old = "def f():\n\treturn g(1)\n"
    new = "def f():\n\treturn g(1,\n\t      2)\n"
    assert tabbed(new, old) == new


def test_added_lines_get_a_tab_for_every_four_spaces():
    old = "def f(a):\n\treturn a\n"
    new = "def f(\n    a,\n    b=None,\n):\n\tif b:\n\t    return b\n\treturn a\n"
    assert tabbed(new, old) == "def f(\n\ta,\n\tb=None,\n):\n\tif b:\n\t\treturn b\n\treturn a\n"


def test_an_fstring_over_lines_is_a_string_too():
    old = "x = 1\n"
    new = 'x = 1\ny = f"""\n    {x}\n"""\n'
    assert tabbed(new, old) == new


# --- whole files -----------------------------------------------------------------------------------------
def test_noop_a_space_indented_project_keeps_spaces(tmp_path):
    proj = _apply(tmp_path, SERVER, "[tool.ruff]\nline-length = 79\n")
    text = (proj / "pkg" / "server.py").read_text()
    assert "\t" not in text
    assert "    str | None,\n" in text


def test_a_tab_indented_decorator_server_passes_its_formatter_and_linter(tmp_path):
    proj = _apply(tmp_path, SERVER.replace("    ", "\t"))
    text = (proj / "pkg" / "server.py").read_text()
    assert "RootPath = Annotated[\n\tstr | None,\n\tField(\n\t\tdescription=" in text, text
    # Grown past 79 columns, the signature is wrapped as ruff format would, with a tab.
    assert (
        "async def search(\n\tpattern: str, limit: int, ctx: Context, root: RootPath = None\n) -> str:"
        in text
    )
    assert _space_indented(text) == [], text
    formatted = _ruff(proj, "format", "--check", "pkg")
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
    checked = _ruff(proj, "check", "pkg")
    assert checked.returncode == 0, checked.stdout


def test_a_tab_indented_low_level_server_gets_its_schema_property_in_tabs(tmp_path):
    source = (FIXTURES / "mcp1_ifelif.py").read_text().replace("    ", "\t")
    proj = _apply(tmp_path, source, TAB_CONFIG.replace("79", "88"))
    text = (proj / "pkg" / "server.py").read_text()
    assert '"root"' in text, text
    assert _space_indented(text) == [], text
    assert helpers.flakes(text) == set()


def test_the_shim_in_a_tab_project_says_so_and_keeps_the_formatter_off(tmp_path):
    proj = _apply(tmp_path, SERVER.replace("    ", "\t"), TAB_CONFIG.replace("79", "88"))
    shim = (proj / "pkg" / "_mcp_roots_compat.py").read_text()
    assert (
        "# Laid out for 88 columns, four spaces an indent, by migrate-roots; this project uses tabs.\n"
        in shim
    )
    assert "# fmt: off\n" in shim
    assert _ruff(proj, "format", "--check", "pkg").returncode == 0
    assert _ruff(proj, "check", "pkg").returncode == 0
    # A second run is idle.
    before = {p: p.read_bytes() for p in (proj / "pkg").glob("*.py")}
    helpers.run_engine(proj, select=["MR1"])
    assert {p: p.read_bytes() for p in (proj / "pkg").glob("*.py")} == before


def test_ruff_is_there():
    # The checks above run ruff as the project would; it is a test dependency, never skipped.
    assert shutil.which("ruff") or _ruff(Path("."), "--version").returncode == 0


def test_noop_a_file_mixing_tab_and_space_blocks_keeps_what_the_rewrite_wrote(tmp_path):
    """Sweep S, r03: the first block in tabs, the tool in spaces; tabs in the tool's block made the rewrite
    unparseable (MR904, nothing written). Such a file keeps the rewrite's spaces."""
    source = (
        'from mcp.server.fastmcp import Context, FastMCP\n\nmcp = FastMCP("demo")\n\n\n'
        "def helper() -> int:\n\treturn 1\n\n\n"
        "@mcp.tool()\nasync def where(pattern: str, limit: int, ctx: Context, verbose: bool = False) -> str:\n"
        "    if verbose:\n        result = await ctx.session.list_roots()\n        return str(result.roots[0].uri)\n"
        "    return pattern\n"
    )
    old = "def f():\n\treturn 1\n\ndef g():\n    return 2\n"
    assert tabbed(old.replace("return 2", "return (\n        2\n    )"), old) == old.replace(
        "return 2", "return (\n        2\n    )"
    )
    proj = tmp_path / "proj"
    (proj / "pkg").mkdir(parents=True)
    (proj / "pkg" / "__init__.py").write_text("")
    (proj / "pkg" / "server.py").write_text(source)
    results = helpers.run_engine(proj, select=["MR1"])
    assert [f.code for r in results for f in r.findings] == ["MR101"]
    text = (proj / "pkg" / "server.py").read_text()
    compile(text, "server.py", "exec")
    assert '        result = await list_roots_compat(ctx, root, name="root")\n' in text
