"""The wheel as a user installs it: only `migrate_roots` at the top of site-packages, both entry points work.

Builds the real wheel (setuptools through `uv build`, from a copy of the sources so the checkout gets no
`build/` folder), installs it into a fresh virtual environment (its dependencies come from uv's cache) and
runs `migrate-roots` and `python -m migrate_roots` from a project folder that has its own `templates/` and
`codemods/` packages (every Flask or Jinja project has the first): with those names at the top of
site-packages, `python -m migrate_roots scan .` imported the project's package instead of ours. About ten
seconds, most of it the build.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.helpers import SERVER

REPO = Path(__file__).resolve().parent.parent


def _uv() -> list[str]:
    exe = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))
    if exe:
        return [exe]
    try:
        subprocess.run([sys.executable, "-m", "uv", "--version"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("uv is not installed (it is a test dependency)")
    return [sys.executable, "-m", "uv"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(the wheel, the python of a fresh venv with the wheel installed)."""
    base = tmp_path_factory.mktemp("install")
    source = base / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(
        REPO / "migrate_roots", source / "migrate_roots", ignore=shutil.ignore_patterns("__pycache__")
    )
    uv = _uv()
    build = subprocess.run(
        [*uv, "build", "--wheel", "--quiet", "-o", str(base / "dist"), str(source)],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = (base / "dist").glob("migrate_roots-*.whl")
    venv = base / "venv"
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    for cmd in (
        [*uv, "venv", "--quiet", "--python", sys.executable, str(venv)],
        [*uv, "pip", "install", "--quiet", "--python", str(python), str(wheel)],
    ):
        done = subprocess.run(cmd, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return wheel, python


def test_the_wheel_has_one_top_level_name(installed: tuple[Path, Path]) -> None:
    wheel, _ = installed
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (record,) = [n for n in names if n.endswith(".dist-info/RECORD")]
        recorded = [line.split(",", 1)[0] for line in archive.read(record).decode().splitlines() if line]
        (top_level,) = [n for n in names if n.endswith(".dist-info/top_level.txt")]
        assert archive.read(top_level).decode().split() == ["migrate_roots"]
    tops = {path.split("/", 1)[0] for path in recorded if ".dist-info/" not in path}
    assert tops == {"migrate_roots"}
    # the shim template and the schema ship as package data
    assert "migrate_roots/templates/_mcp_roots_compat.py" in recorded
    assert "migrate_roots/schemas/report-v1.json" in recorded


def test_both_entry_points_run_in_a_project_with_its_own_templates_and_codemods(
    installed: tuple[Path, Path], tmp_path: Path
) -> None:
    _, python = installed
    for package in ("templates", "codemods"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("raise ImportError('the project's own package')\n")
    (tmp_path / "server.py").write_text(SERVER)
    script = python.parent / ("migrate-roots.exe" if os.name == "nt" else "migrate-roots")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for cmd in ([script], [python, "-m", "migrate_roots"]):
        result = subprocess.run(
            [*map(str, cmd), "scan", ".", "--no-progress"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
        )
        assert result.returncode == 1, (cmd, result.stdout, result.stderr)  # 1: findings
        assert "server.py:8:20: MR101" in result.stdout, result.stdout
        assert "Traceback" not in result.stderr, result.stderr
    # it ran the installed copy, not the checkout
    where = subprocess.run(
        [str(python), "-c", "import migrate_roots; print(migrate_roots.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
    )
    assert Path(where.stdout.strip()).is_relative_to(python.parent.parent), where.stdout
