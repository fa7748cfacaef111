"""The compatibility module we write into users' packages passes strict checkers on every SDK line.

`mypy --strict`, also for a strictly typed caller (the results keep the SDK's types); ruff with every rule,
at its defaults (88 columns), but for `SHIM_RUFF_IGNORES`.

Found by the real-server audit: a dynamic exception class, a str passed where the SDK declares FileUrl, and
an import that exists only in mcp 2.x each added mypy errors to every migrated project.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.sdk.envs import LINES, sdk_python_or_skip

SHIM = Path(__file__).resolve().parents[1] / "migrate_roots" / "templates" / "_mcp_roots_compat.py"


# Rules that contradict another rule or the formatter, or ask for what only the project can supply (the
# generated module's docstring says the same):
SHIM_RUFF_IGNORES = [
    "COM812",  # trailing commas: conflicts with `ruff format` (ruff's docs say to disable it with the formatter)
    "CPY001",  # a copyright notice: the project's own, which we cannot write
    "D203",  # contradicts D211 (ruff itself drops one of the pair under ALL)
    "D213",  # contradicts D212 (same)
]
CALLER = """\
from __future__ import annotations

from mcp.types import ListRootsResult, Root

from _mcp_roots_compat import list_roots_compat


async def single(ctx: object, root: str | None = None) -> ListRootsResult:
    result = await list_roots_compat(ctx, root, name="root")
    return result


async def many(ctx: object, root: list[str] | None = None) -> list[Root]:
    return await list_roots_compat(ctx, root, name="root", shape="list")
"""


@pytest.mark.sdk
@pytest.mark.parametrize("line", sorted(LINES))
def test_shim_passes_mypy_strict(line, tmp_path):
    python = sdk_python_or_skip(line)
    copy = tmp_path / "_mcp_roots_compat.py"
    copy.write_text(SHIM.read_text())
    (tmp_path / "caller.py").write_text(CALLER)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--warn-unreachable",
            "--python-executable",
            str(python),
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            str(copy),
            str(tmp_path / "caller.py"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("target", ["py38", "py310", "py314"])
def test_shim_passes_ruff_with_every_rule(target, tmp_path):
    """Every ruff rule, on the oldest and newest targets, at ruff's default line length."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text('"""The user\'s package."""\n')
    copy = tmp_path / "pkg" / "_mcp_roots_compat.py"
    copy.write_text(SHIM.read_text())
    ruff = [sys.executable, "-m", "ruff"]
    common = ["--isolated", "--no-cache", "--target-version", target, str(copy)]
    ignores = ["--ignore", ",".join(SHIM_RUFF_IGNORES)]
    check = subprocess.run(
        [*ruff, "check", "--select", "ALL", *ignores, *common], capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
    if target != "py314":  # on 3.14 the formatter drops the parentheses of `except (A, B):` (PEP 758)
        layout = subprocess.run([*ruff, "format", "--check", *common], capture_output=True, text=True)
        assert layout.returncode == 0, layout.stdout + layout.stderr
    assert max(len(line) for line in SHIM.read_text().splitlines()) <= 88
