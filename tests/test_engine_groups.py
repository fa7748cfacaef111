"""The engine plans files in groups (linked packages; outside packages, one folder) and keeps what it indexed
in a temporary file: neither may change a result. Each test compares a run against the same run planned as
one group, the way the engine planned until 2026-12-01."""

from __future__ import annotations

import shutil
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from migrate_roots import engine, engine_plan
from migrate_roots.spill import Spill
from tests.helpers import run_engine

ROOT = Path(__file__).resolve().parent.parent


def _results(folder: Path, jobs: int = 1) -> list[tuple]:
    return [
        (r.path, r.status, r.diff, [(f.line, f.col, f.code, f.message) for f in r.findings])
        for r in run_engine(folder, write=False, jobs=jobs)
    ]


def _as_one_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_plan, "_groups", lambda entries: [entries] if entries else [])


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


HELPER = """\
    from mcp.server.fastmcp import Context


    async def project_dir(ctx: Context) -> str:
        result = await ctx.session.list_roots()
        return str(result.roots[0].uri)
    """

TOOL = """\
    from mcp.server.fastmcp import Context, FastMCP

    from {module} import project_dir

    mcp = FastMCP("x")


    @mcp.tool()
    async def where(ctx: Context) -> str:
        return await project_dir(ctx)
    """

DOUBLE = """\
    import {package}


    def test_where(monkeypatch):
        async def fake(ctx):
            return "/tmp"

        monkeypatch.setattr("{module}.project_dir", fake)
    """


def test_groups_split_unrelated_packages_and_join_linked_ones(tmp_path):
    entries = [
        engine.Entry(tmp_path / "lib/workspace.py", module="lib.workspace"),
        engine.Entry(tmp_path / "app/server.py", module="app.server", links=frozenset({"lib", "mcp"})),
        engine.Entry(tmp_path / "other/server.py", module="other.server", links=frozenset({"other"})),
        engine.Entry(tmp_path / "other/helpers.py", module="other.helpers"),
        engine.Entry(tmp_path / "loose/a.py", module="a"),
        engine.Entry(tmp_path / "loose/b.py", module="b"),
    ]
    groups = [[e.path.relative_to(tmp_path).as_posix() for e in g] for g in engine_plan._groups(entries)]
    assert groups == [
        ["lib/workspace.py", "app/server.py"],
        ["other/server.py", "other/helpers.py"],
        ["loose/a.py", "loose/b.py"],
    ]


def test_cross_package_helper_and_test_double_same_as_one_group(tmp_path, monkeypatch):
    _write(
        tmp_path,
        {
            "src/lib/__init__.py": "",
            "src/lib/workspace.py": HELPER,
            "src/app/__init__.py": "",
            "src/app/server.py": TOOL.format(module="lib.workspace"),
            "src/solo/__init__.py": "",
            "src/solo/server.py": TOOL.format(module="solo.helpers"),
            "src/solo/helpers.py": HELPER,
            "tests/test_app.py": DOUBLE.format(package="lib", module="lib.workspace"),
            "scripts/a.py": HELPER,
            "scripts/b.py": TOOL.format(module="a"),
            "tools/a.py": HELPER,
        },
    )
    grouped = _results(tmp_path)
    # The cross-package helper is threaded and its test double updated: the groups saw each other.
    changed = {path for path, status, _, _ in grouped if status.value == "changed"}
    assert {"src/app/server.py", "src/lib/workspace.py", "tests/test_app.py"} <= changed
    _as_one_group(monkeypatch)
    assert _results(tmp_path) == grouped


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_fixture_example_and_regression_same_as_one_group(tmp_path, monkeypatch, jobs):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "tests" / "fixtures", tree / "fixtures")
    shutil.copytree(ROOT / "audit" / "regressions", tree / "regressions")
    shutil.copytree(ROOT / "examples", tree / "examples")
    grouped = _results(tree, jobs)
    assert sum(status.value == "changed" for _, status, _, _ in grouped) >= 20
    _as_one_group(monkeypatch)
    assert _results(tree, jobs) == grouped


def test_spill_round_trip_outside_the_tree(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spill = Spill()
    refs = [spill.put({"n": n, "text": "x" * n}) for n in range(50)]
    raw = spill.put_bytes(b"\x00raw")
    assert [spill.get(r)["n"] for r in reversed(refs)] == list(reversed(range(50)))
    spill._file.seek(raw[0])
    assert spill._file.read(raw[1]) == b"\x00raw"
    spill.close()
    assert list(tmp_path.iterdir()) == []  # nothing left in the user's folder


def test_map_takes_items_only_as_workers_need_them():
    pulled = []

    def items():
        for n in range(1000):
            pulled.append(n)
            yield n

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = engine._map(pool, _double, items(), 1000)
        assert next(results) == 0
        # chunks of 4, a window of 4 chunks a worker: at most 9 chunks taken before the first result is read
        assert len(pulled) <= 9 * 4
        assert list(results) == [2 * n for n in range(1, 1000)]


def _double(n: int) -> int:
    return 2 * n
