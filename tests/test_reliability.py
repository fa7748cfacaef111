"""Reliability: odd inputs, byte identity, the apply guards, concurrent and interrupted runs, determinism."""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchmarks.servers import write_servers
from migrate_roots import guards
from migrate_roots.cli import app
from migrate_roots.model import to_json
from tests.helpers import SERVER, run_engine

MR = [sys.executable, "-m", "migrate_roots"]
# Holds the trigger token, so it is read, decoded, parsed and walked, but is not an MCP roots call.
NOT_MCP = "class Repo:\n    def list_roots(self):\n        return []  # list_roots\n"


def _codes(results):
    return {Path(r.path).name: sorted(f.code for f in r.findings) for r in results}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and ".git" not in p.parts
    }


# --- odd inputs: one clear finding each, and the run goes on ----------------------------------------------


def test_odd_inputs_each_give_one_finding_and_the_run_goes_on(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "ok.py").write_text(SERVER)
    (pkg / "readonly.py").write_text(SERVER)
    (pkg / "readonly.py").chmod(0o444)
    os.mkfifo(pkg / "fifo.py")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(pkg / "sock.py"))
    (pkg / "loop1.py").symlink_to("loop2.py")
    (pkg / "loop2.py").symlink_to("loop1.py")
    (pkg / "nul.py").write_bytes(b"# mcp list_roots\nx = 1\x00\n")
    (pkg / "latin.py").write_bytes(b"# mcp list_roots\nname = '\xe9t\xe9'\n")
    (pkg / "deep.py").write_text("# mcp list_roots\nx = " + "(" * 6000 + "1" + ")" * 6000 + "\n")
    (pkg / "deep_ok.py").write_text(
        "# mcp list_roots\nx = " + "[" * 150 + "]" * 150 + "\n"
    )  # deep, but parses
    (pkg / "big.py").write_bytes(b"# mcp list_roots\n" + b"x = 1\n" * 2_000_000)
    (pkg / "badsyntax.py").write_text("# mcp list_roots\ndef f(:\n")
    untouched = {p.name: p.read_bytes() for p in pkg.iterdir() if p.is_file() and not p.is_symlink()}
    try:
        results = run_engine(tmp_path, jobs=2)
    finally:
        sock.close()
    codes = _codes(results)
    assert codes["ok.py"] == ["MR101"]
    assert codes["readonly.py"] == ["MR901"]
    assert codes["fifo.py"] == ["MR901"] and codes["sock.py"] == ["MR901"]
    assert codes["nul.py"] == ["MR902"] and codes["latin.py"] == ["MR902"]
    assert codes["deep.py"] == ["MR903"] and codes["badsyntax.py"] == ["MR903"]
    assert codes["big.py"] == ["MR907"]
    assert "deep_ok.py" not in codes or "MR904" not in codes["deep_ok.py"]
    assert not any("loop" in name for name in codes)  # symlink loops: skipped (documented)
    assert not any("MR904" in c for c in codes.values())
    messages = {Path(r.path).name: r.findings[0].message for r in results if r.findings}
    assert "read-only" in messages["readonly.py"] and "not a regular file" in messages["fifo.py"]
    for name, data in untouched.items():
        if name != "ok.py":
            assert (pkg / name).read_bytes() == data, name
    assert (pkg / "ok.py").read_bytes() != untouched["ok.py"]
    assert (pkg / "_mcp_roots_compat.py").is_file()


def test_a_read_only_helper_leaves_its_callers_alone(tmp_path):
    """Sweep H, r04: the read-only helper was left alone, but the tool calling it was rewritten to pass
    `root=`, which the helper never took: every call failed. The helper is now out of the plan."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    helper = "from mcp.server.fastmcp import Context\n\n\nasync def project_dir(ctx: Context) -> str:\n"
    helper += "    result = await ctx.session.list_roots()\n    return str(result.roots[0].uri)\n"
    (pkg / "workspace.py").write_text(helper)
    (pkg / "workspace.py").chmod(0o444)
    server = "from mcp.server.fastmcp import Context, FastMCP\n\nfrom .workspace import project_dir\n\n"
    server += "mcp = FastMCP('x')\n\n\n@mcp.tool()\nasync def where(ctx: Context) -> str:\n"
    server += "    return await project_dir(ctx)\n"
    (pkg / "server.py").write_text(server)
    results = run_engine(tmp_path)
    assert _codes(results) == {"workspace.py": ["MR901"]}
    assert (pkg / "server.py").read_text() == server and (pkg / "workspace.py").read_text() == helper
    # Read-only matters to `apply` only: a scan of a read-only checkout still reports the read.
    scanned = _codes(run_engine(tmp_path, write=False))
    assert scanned["workspace.py"] == ["MR101", "MR107"] and "server.py" in scanned


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_file(tmp_path):
    (tmp_path / "secret.py").write_text(SERVER)
    (tmp_path / "secret.py").chmod(0)
    try:
        assert _codes(run_engine(tmp_path))["secret.py"] == ["MR901"]
    finally:
        (tmp_path / "secret.py").chmod(0o644)


# --- byte identity ----------------------------------------------------------------------------------------


UNTOUCHED = {
    "crlf.py": NOT_MCP.replace("\n", "\r\n").encode(),
    "bom.py": b"\xef\xbb\xbf" + NOT_MCP.encode(),
    "latin1.py": b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + NOT_MCP.encode(),
    "no_final_newline.py": NOT_MCP.rstrip("\n").encode(),
    "tabs.py": b"def f():\n\tif True:\n\t\treturn 'list_roots'\t# tab\n",
    "cr_only.py": NOT_MCP.replace("\n", "\r").encode(),
    "plain.py": b"x = 1\r\n\r\n",
}


def test_untouched_files_stay_byte_identical(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(SERVER)
    for name, data in UNTOUCHED.items():
        (pkg / name).write_bytes(data)
    results = run_engine(tmp_path)
    assert not [r for r in results if r.status.value == "failed"]
    for name, data in UNTOUCHED.items():
        assert (pkg / name).read_bytes() == data, name


@pytest.mark.parametrize(
    ("name", "encode"),
    [
        ("crlf", lambda s: s.replace("\n", "\r\n").encode()),
        ("bom", lambda s: b"\xef\xbb\xbf" + s.encode()),
        ("latin1", lambda s: ("# -*- coding: latin-1 -*-\n# caf\xe9\n" + s).encode("latin-1")),
        ("no_final_newline", lambda s: s.rstrip("\n").encode()),
    ],
)
def test_changed_files_keep_their_encoding_and_newlines(tmp_path, name, encode):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_bytes(encode(SERVER))
    results = run_engine(tmp_path)
    assert not [r for r in results if r.status.value == "failed"]
    new = (pkg / "server.py").read_bytes()
    assert new != encode(SERVER) and b"list_roots_compat" in new
    if name == "crlf":
        assert b"\n" not in new.replace(b"\r\n", b"")
    if name == "bom":
        assert new.startswith(b"\xef\xbb\xbf") and new.count(b"\xef\xbb\xbf") == 1
    if name == "latin1":
        assert b"caf\xe9" in new
    if name == "no_final_newline":
        assert not new.endswith(b"\n")
    compile(new, "server.py", "exec")


# --- guards -----------------------------------------------------------------------------------------------


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@localhost", *args],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def test_apply_refuses_uncommitted_changes(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(SERVER)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    (pkg / "server.py").write_text(SERVER + "# my edit\n")
    runner = CliRunner()
    result = runner.invoke(app, ["apply", str(tmp_path), "--no-progress"])
    assert result.exit_code == 2
    assert "uncommitted changes" in result.output and "--allow-dirty" in result.output
    assert "pkg/server.py" in result.output or "server.py" in result.output
    assert (pkg / "server.py").read_text() == SERVER + "# my edit\n"
    # a dry run is always fine
    assert runner.invoke(app, ["apply", "--dry-run", str(tmp_path), "--no-progress"]).exit_code == 1
    result = runner.invoke(app, ["apply", str(tmp_path), "--no-progress", "--allow-dirty"])
    assert result.exit_code == 0, result.output
    assert "list_roots_compat" in (pkg / "server.py").read_text()


def test_untracked_files_the_run_never_writes_do_not_block_apply(tmp_path):
    """Sweep H, r08: an excluded scratch file, or copies under `.venv/` and `build/`, refused the run."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "server.py").write_text(SERVER)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    (tmp_path / "scratch.py").write_text("print('scratch')\n")
    for folder in (".venv/lib/site", "build/lib/pkg"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "copy.py").write_text(SERVER)
    runner = CliRunner()
    result = runner.invoke(app, ["apply", str(tmp_path), "--no-progress", "--exclude", "scratch.py"])
    assert result.exit_code == 0, result.output
    assert "list_roots_compat" in (pkg / "server.py").read_text()
    assert (tmp_path / "build/lib/pkg/copy.py").read_text() == SERVER
    # Not excluded, the scratch file may be a caller the run writes: still refused.
    (pkg / "server.py").write_text(SERVER)
    _git(tmp_path, "add", "pkg")
    _git(tmp_path, "commit", "-qm", "y")
    result = runner.invoke(app, ["apply", str(tmp_path), "--no-progress"])
    assert result.exit_code == 2 and "scratch.py" in result.output and ".venv" not in result.output


def test_staged_changes_do_not_block_apply(tmp_path):
    """Staged edits stay separable: the migration is the unstaged diff on top (what pre-commit hooks see)."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    (pkg / "server.py").write_text(SERVER)
    (pkg / "notes.txt").write_text("untracked, not Python")
    _git(tmp_path, "add", "pkg/server.py")
    assert guards.dirty_files([tmp_path]) == [(tmp_path / "pkg" / "notes.txt").resolve()]
    result = CliRunner().invoke(app, ["apply", str(tmp_path), "--no-progress"])
    assert result.exit_code == 0, result.output
    assert "list_roots_compat" in (pkg / "server.py").read_text()


def test_apply_on_a_clean_work_tree_and_outside_git(tmp_path):
    for sub in ("repo", "plain"):
        pkg = tmp_path / sub / "pkg"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "server.py").write_text(SERVER)
    _git(tmp_path / "repo", "init", "-q")
    _git(tmp_path / "repo", "add", "-A")
    _git(tmp_path / "repo", "commit", "-qm", "x")
    assert guards.dirty_files([tmp_path / "repo"]) == []
    assert guards.dirty_files([tmp_path / "plain"]) == []
    for sub in ("repo", "plain"):
        result = CliRunner().invoke(app, ["apply", str(tmp_path / sub), "--no-progress"])
        assert result.exit_code == 0, result.output


def test_stale_temporary_files_are_removed_under_the_lock(tmp_path):
    (tmp_path / "server.py").write_text(SERVER)
    stale = tmp_path / ".server.py.abc123.migrate-roots.tmp"
    stale.write_text("half")
    keep = tmp_path / ".notes.tmp"
    keep.write_text("mine")
    assert guards.remove_stale_temp([tmp_path / "server.py"]) == [stale]
    assert not stale.exists() and keep.exists()


def _tree(folder: Path, count: int, plain: int = 0) -> Path:
    write_servers(folder, count, seed=7)
    for index in range(plain):  # files without a trigger token: read once, never parsed, never touched
        (folder / f"srv{index % count:05d}" / f"util_{index}.py").write_text(f"VALUE = {index}\r\n")
    return folder


def _apply(folder: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [*MR, "apply", ".", "--no-progress", "-q", "--select", "MR1", "-j", "2", *extra],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A tree of generated servers before and after one uninterrupted apply."""
    base = tmp_path_factory.mktemp("ref")
    before = _tree(base / "before", 25, plain=260)
    after = base / "after"
    shutil.copytree(before, after)
    start = time.perf_counter()
    proc = _apply(after)
    assert proc.wait() in (0, 1), proc.stderr.read() if proc.stderr else ""
    seconds = time.perf_counter() - start
    assert len(_snapshot(after)) > 300
    return _snapshot(before), _snapshot(after), before, seconds


def test_two_concurrent_runs_do_not_corrupt(tmp_path, reference):
    old, new, before, _ = reference
    tree = tmp_path / "t"
    shutil.copytree(before, tree)
    first, second = _apply(tree), _apply(tree)
    assert first.wait() in (0, 1) and second.wait() in (0, 1)
    assert _snapshot(tree) == new


def test_interrupted_runs_leave_old_or_new_content_and_rerun_completes(tmp_path, reference):
    old, new, before, seconds = reference
    tree = tmp_path / "t"
    shutil.copytree(before, tree)
    rng = random.Random(1234)
    kills = 0
    for _ in range(3):  # random moments in the second half of a run, when it writes
        proc = _apply(tree)
        time.sleep(rng.uniform(0.5, 1.0) * seconds)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        for name, data in _snapshot(tree).items():
            if name.endswith(guards.TEMP_SUFFIX):
                continue  # the writer's temporary file: never a source file, removed by the next run
            assert data in (old.get(name), new.get(name)), name
        for name in new:
            if name.endswith(".py") and name in old:
                assert (tree / name).exists(), name
    assert kills >= 1
    final = _apply(tree)
    assert final.wait() in (0, 1)
    assert _snapshot(tree) == new


# --- determinism ------------------------------------------------------------------------------------------


def test_jobs_1_and_2_give_the_same_output(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    _tree(one, 12)
    shutil.copytree(one, two)
    first = run_engine(one, jobs=1, select=["MR1"])
    second = run_engine(two, jobs=2, select=["MR1"])
    assert _snapshot(one) == _snapshot(two)
    assert [to_json(r).replace("/one/", "/x/") for r in first] == [
        to_json(r).replace("/two/", "/x/") for r in second
    ]


def test_apply_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    """The run lock's file goes when the run ends: a day of runs must not fill the temporary folder."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "server.py").write_text(SERVER)
    before = sorted(os.listdir(temp))
    for _ in range(2):  # the second run is idle; neither leaves its lock file
        result = CliRunner().invoke(app, ["apply", str(tmp_path / "work"), "--no-progress"])
        assert result.exit_code == 0, result.output
        assert sorted(os.listdir(temp)) == before
    assert "list_roots_compat" in (tmp_path / "work" / "server.py").read_text()


def test_a_waiter_relocks_when_the_holder_removes_the_lock_file(tmp_path, monkeypatch):
    """The holder unlinks the file while locked; the waiter then holds a dead inode and must lock afresh."""
    fcntl = pytest.importorskip("fcntl")
    import threading

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    order: list[str] = []
    waiting = threading.Event()

    def second() -> None:
        with guards.run_lock([tmp_path / "w"], on_wait=lambda _path: waiting.set()) as path:
            order.append("second")
            # it holds the file now at the lock's path (not the unlinked one): a third run would wait
            fd = os.open(path, os.O_RDWR)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                order.append("not locked")
            except BlockingIOError:
                order.append("locked")
            finally:
                os.close(fd)

    with guards.run_lock([tmp_path / "w"]) as path:
        thread = threading.Thread(target=second)
        thread.start()
        assert waiting.wait(5)
        order.append("first")
    thread.join(5)
    assert order == ["first", "second", "locked"]
    assert not path.exists()
    assert os.listdir(tmp_path) == []
