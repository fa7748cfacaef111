"""The compatibility module we write into users' packages type-checks cleanly against every SDK line.

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


@pytest.mark.sdk
@pytest.mark.parametrize("line", sorted(LINES))
def test_shim_passes_mypy(line, tmp_path):
    python = sdk_python_or_skip(line)
    copy = tmp_path / "_mcp_roots_compat.py"
    copy.write_text(SHIM.read_text())
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--python-executable", str(python), "--no-incremental", str(copy)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr
