"""The command line contract: exit codes, --check, --dry-run, configuration, option placement, markers."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from migrate_roots.cli import app

runner = CliRunner()

SERVER = textwrap.dedent(
    """\
    from mcp.server.fastmcp import Context, FastMCP

    mcp = FastMCP("x")

    @mcp.tool()
    async def where(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
    """
)
STARTUP = textwrap.dedent(
    """\
    from mcp.server.fastmcp import Context

    async def on_ready(ctx: Context):
        result = await ctx.session.list_roots()
        print(len(result.roots))


    STARTUP_HOOKS = [on_ready]
    """
)


def make_tree(tmp_path: Path, files: dict[str, str | bytes]) -> Path:
    root = tmp_path / "proj"
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return root


def invoke(*args: str, cwd: Path | None = None):
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return runner.invoke(app, list(args))
    finally:
        os.chdir(old)


def snapshot(root: Path) -> dict[Path, tuple[bytes, int]]:
    return {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}


# --- scan ------------------------------------------------------------------------------------------------


def test_scan_clean_tree_exits_0(tmp_path):
    root = make_tree(tmp_path, {"a.py": "print('hello')\n"})
    result = invoke("scan", str(root))
    assert result.exit_code == 0, result.output
    assert "MR1" not in result.stdout


def test_scan_findings_exit_1_and_format(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER})
    result = invoke("scan", "server.py", cwd=root)
    assert result.exit_code == 1
    line = result.stdout.splitlines()[0]
    assert line.startswith("server.py:7:20: MR101 ")
    assert line.endswith("[fixable]")


def test_scan_exit_zero(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER})
    assert invoke("scan", str(root), "--exit-zero").exit_code == 0


def test_scan_writes_nothing(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER, "boot.py": STARTUP})
    before = snapshot(root)
    invoke("scan", str(root))
    assert snapshot(root) == before


def test_scan_json(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER})
    result = invoke("scan", str(root), "--format", "json")
    data = json.loads(result.stdout)
    assert data["summary"]["findings_by_code"] == {"MR101": 1}
    assert data["files"][0]["findings"][0]["severity"] == "broken"


def test_select_and_ignore_prefixes(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER, "boot.py": STARTUP})
    both = invoke("scan", str(root)).stdout
    assert "MR101" in both and "MR103" in both
    only = invoke("scan", str(root), "--select", "MR103").stdout
    assert "MR103" in only and "MR101" not in only
    ignored = invoke("scan", str(root), "--ignore", "MR10").stdout
    assert "MR10" not in ignored


HELPED = {
    "__init__.py": "",
    "server.py": "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .where import first_root\n\n"
    "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def ls(ctx: Context) -> str:\n"
    "    return await first_root(ctx)\n",
    "where.py": "from mcp.server.fastmcp import Context\n\n\nasync def first_root(ctx: Context) -> str:\n"
    "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n",
}


def test_a_read_not_selected_is_left_as_it_is_and_nothing_is_threaded_to_it(tmp_path):
    """Sweep H, r05: `--ignore MR101` gave the tool a `root` that nothing read, without a word."""
    root = make_tree(tmp_path, {f"pkg/{name}": text for name, text in HELPED.items()})
    before = snapshot(root)
    result = invoke("apply", str(root), "--ignore", "MR101")
    assert result.exit_code == 0 and snapshot(root) == before


def test_a_helper_s_new_parameter_is_shown_with_the_read_it_serves(tmp_path):
    """MR107 (and MR108) are edits of the read's rewrite: selected with MR101 or MR102, never alone."""
    root = make_tree(tmp_path, {f"pkg/{name}": text for name, text in HELPED.items()})
    shown = invoke("scan", str(root), "--select", "MR101").stdout
    assert "MR101" in shown and "MR107" in shown
    assert "MR107" in invoke("scan", str(root), "--ignore", "MR107").stdout
    assert invoke("scan", str(root), "--select", "MR107").stdout.count("MR10") == 0


def test_unknown_rule_code_is_usage_error(tmp_path):
    root = make_tree(tmp_path, {"a.py": ""})
    result = invoke("scan", str(root), "--select", "XYZ1")
    assert result.exit_code == 2
    assert "unknown rule code or prefix: XYZ1" in result.stderr
    assert "Traceback" not in result.output


def test_missing_path_is_usage_error(tmp_path):
    result = invoke("scan", str(tmp_path / "nope"))
    assert result.exit_code == 2
    assert "no such file or folder" in result.stderr


# --- apply -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("flags", [["--dry-run"], ["--check"]])
def test_dry_run_and_check_write_nothing_and_exit_1(tmp_path, flags):
    root = make_tree(tmp_path, {"server.py": SERVER})
    before = snapshot(root)
    result = invoke("apply", str(root), *flags)
    assert result.exit_code == 1
    assert snapshot(root) == before
    assert "+async def where(ctx: Context, root:" in result.stdout.replace("+    ", "+")


def test_options_after_paths(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER})
    after = invoke("apply", str(root), "--dry-run", "--no-progress")
    before = invoke("apply", "--dry-run", "--no-progress", str(root))
    assert after.exit_code == before.exit_code == 1
    assert after.stdout == before.stdout


def test_apply_writes_then_check_is_clean(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER})
    result = invoke("apply", ".", cwd=root)
    assert result.exit_code == 0, result.output
    assert "list_roots_compat(ctx, root" in (root / "server.py").read_text()
    assert (root / "_mcp_roots_compat.py").is_file()
    again = snapshot(root)
    assert invoke("apply", ".", "--check", cwd=root).exit_code == 0
    assert snapshot(root) == again


def test_markers_idempotent_and_no_markers(tmp_path):
    root = make_tree(tmp_path, {"boot.py": STARTUP})
    invoke("apply", str(root))
    text = (root / "boot.py").read_text()
    assert text.count("# migrate-roots: MR103:") == 1
    invoke("apply", str(root))
    assert (root / "boot.py").read_text() == text
    other = make_tree(tmp_path / "b", {"boot.py": STARTUP})
    result = invoke("apply", str(other), "--no-markers")
    assert (other / "boot.py").read_text() == STARTUP
    assert "MR103" in result.output


def test_parse_error_is_isolated_exit_3(tmp_path):
    bad = b"def broken(:\n    mcp.list_roots\n"
    root = make_tree(tmp_path, {"bad.py": bad, "server.py": SERVER})
    result = invoke("apply", str(root))
    assert result.exit_code == 3
    assert (root / "bad.py").read_bytes() == bad
    assert "list_roots_compat" in (root / "server.py").read_text()
    assert re.search(r"bad\.py:\d+:1: MR903 cannot parse: .*expected", result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("bad", "line"),
    [
        (b"import mcp\n\n\ndef f():\n    result = = mcp.list_roots()\n    return result\n", 5),
        (b"import mcp\nx = (1,\n    2\ny = mcp.list_roots\n", 4),
        (b"import mcp\nx = = mcp.list_roots", 2),
        (b"import mcp  # list_roots\nx = (1,\n", 2),
    ],
    ids=["mid-file", "unclosed-bracket", "last-line-no-newline", "eof-in-bracket"],
)
def test_parse_error_names_the_line_of_the_error(tmp_path, bad, line):
    # libcst's raw_line is the line after some errors; the finding names the line its own text does.
    root = make_tree(tmp_path, {"bad.py": bad, "server.py": SERVER})
    result = invoke("scan", str(root))
    assert result.exit_code == 3
    found = [text for text in result.output.splitlines() if " MR903 cannot parse" in text]
    assert len(found) == 1 and f"bad.py:{line}:1: MR903" in found[0], found
    assert "Traceback" not in result.output and "MR101" in result.output


def test_undecodable_file_reported(tmp_path):
    root = make_tree(tmp_path, {"latin.py": b"x = '\xe9'  # mcp list_roots\n"})
    result = invoke("scan", str(root))
    assert result.exit_code == 3
    assert "MR902 cannot decode" in result.stdout


# --- configuration ---------------------------------------------------------------------------------------


def test_config_unknown_key(tmp_path):
    root = make_tree(tmp_path, {"pyproject.toml": "[tool.migrate-roots]\nparam_nam = 'x'\n", "a.py": ""})
    result = invoke("scan", str(root))
    assert result.exit_code == 2
    assert "unknown key 'param_nam'" in result.stderr


def test_config_bad_value(tmp_path):
    root = make_tree(
        tmp_path, {"pyproject.toml": "[tool.migrate-roots]\nparam-name = 'not valid'\n", "a.py": ""}
    )
    result = invoke("scan", str(root))
    assert result.exit_code == 2
    assert "param-name" in result.stderr and "identifier" in result.stderr


def test_config_param_name_and_flags_win(tmp_path):
    root = make_tree(
        tmp_path,
        {
            "pyproject.toml": "[tool.migrate-roots]\nparam-name = 'workspace_dir'\nselect = ['MR103']\n",
            "server.py": SERVER,
        },
    )
    assert "MR101" not in invoke("scan", str(root)).stdout
    result = invoke("apply", str(root), "--dry-run", "--select", "MR101")
    assert "workspace_dir: RootPath = None" in result.stdout


# --- entry points ----------------------------------------------------------------------------------------


def test_rules_lists_every_code():
    result = invoke("rules")
    assert result.exit_code == 0
    assert "MR101" in result.stdout and "MR903" in result.stdout


def test_python_dash_m_version():
    out = subprocess.run([sys.executable, "-m", "migrate_roots", "--version"], capture_output=True, text=True)
    assert out.returncode == 0
    assert out.stdout.startswith("migrate-roots ")


def test_our_own_shim_is_never_scanned(tmp_path):
    root = make_tree(tmp_path, {"server.py": SERVER})
    invoke("apply", str(root))
    result = invoke("scan", str(root), "--select", "MR")
    assert "_mcp_roots_compat" not in result.stdout


# --- start-up (benchmarks 1 and 5): what a run that parses nothing must not import --------------------------

_IMPORTED = """
import sys
from migrate_roots.cli import app
try:
    app(sys.argv[1:], prog_name="migrate-roots")
except SystemExit:
    pass
print("imported:" + ",".join(m for m in ("libcst", "pydantic", "hashlib", "multiprocessing") if m in sys.modules))
"""


@pytest.mark.parametrize(
    "args", [["--version"], ["scan", "{tree}", "--no-progress", "-q"]], ids=["version", "scan"]
)
def test_a_run_that_parses_nothing_imports_no_heavy_module(tmp_path, args):
    make_tree(tmp_path, {"a.py": "import os\nx = 1\n", "b.py": "# mcp, but no token of any rule\n"})
    argv = [a.replace("{tree}", str(tmp_path)) for a in args]
    out = subprocess.run([sys.executable, "-c", _IMPORTED, *argv], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "imported:"
