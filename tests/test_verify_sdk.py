"""`migrate-roots verify`, end to end: real servers migrated by the engine, driven by each SDK line's client.

One small server per line (the e2e fixtures, before migration: `apply` runs here), one `verify` run each;
then a server migrated wrongly by hand (exit 1, its broken cells named, a hung call timed out and every
server process ended) and a server that does not start (exit 2, its stderr shown).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from migrate_roots.verify.model import VerifyResult
from migrate_roots.verify.render import render_markdown
from tests.helpers import run_engine
from tests.sdk.envs import sdk_python_or_skip
from tests.test_github_action import run_step

pytestmark = pytest.mark.sdk

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SCHEMA = json.loads((REPO / "migrate_roots" / "schemas" / "verify-v1.json").read_text())
SHIM = REPO / "migrate_roots" / "templates" / "_mcp_roots_compat.py"

#: SDK line -> the unmigrated fixture server of tests/e2e/
FIXTURES = {
    "mcp1": "mcp1_fastmcp.py",
    "mcp2": "mcp2_mcpserver.py",
    "fastmcp2": "fastmcp_listroots.py",
    "fastmcp3": "fastmcp_listroots.py",
    "fastmcp4": "fastmcp4_session.py",
}
NO_MODERN_ERA = {"mcp1", "fastmcp2", "fastmcp3"}


def verify(
    cwd: Path, python: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrate_roots", "verify", "--python", str(python), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
    )


def as_json(proc: subprocess.CompletedProcess) -> dict:
    data = json.loads(proc.stdout)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    return data


def cells(data: dict) -> dict[tuple[str, str, str], dict]:
    return {(r["tool"], r["check"], c["session"]): c for r in data["rows"] for c in r["cells"]}


@pytest.mark.parametrize("line", list(FIXTURES))
def test_migrated_server_passes_every_check(tmp_path: Path, line: str) -> None:
    python = sdk_python_or_skip(line)
    shutil.copy(HERE / "e2e" / FIXTURES[line], tmp_path / "server.py")
    assert [r for r in run_engine(tmp_path) if r.status.value == "failed"] == []
    assert "list_roots()" not in (tmp_path / "server.py").read_text()

    proc = verify(tmp_path, python, "--call-all", "--format", "json", "--", str(python), "server.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = as_json(proc)

    tools = {t["name"]: t for t in data["tools"]}
    assert set(tools) == {"where", "where_all", "echo"}
    assert tools["where"]["found_by"] == tools["where_all"]["found_by"] == "marker"
    assert tools["where"]["shape"] == "single" and tools["where_all"]["shape"] == "list"
    assert tools["echo"]["path_argument"] is None and tools["echo"]["args"] == {"text": "example"}

    sessions = {s["id"]: s["status"] for s in data["sessions"]}
    modern = "skipped" if line in NO_MODERN_ERA else "ran"
    assert sessions == {"legacy-roots": "ran", "legacy-noroots": "ran", "modern": modern}
    for (tool, check, session), cell in cells(data).items():
        want = "skip" if session == "modern" and modern == "skipped" else "pass"
        assert cell["status"] == want, (tool, check, session, cell)
    got = cells(data)
    # the legacy client's root is the session's workspace: both calls answer with it
    assert got[("where", "without-argument", "legacy-roots")]["detail"] == "<workspace>"
    assert got[("where", "with-argument", "legacy-noroots")]["detail"] == "<workspace>"
    if modern == "ran":
        assert "needs the `root` argument" in got[("where", "without-argument", "modern")]["detail"]
    # what the GitHub Action reads back and shows in the job summary
    result = VerifyResult.from_json(data)
    assert result.to_json() == data
    assert "| `where` | without `root` | ✅ ok, same answer |" in render_markdown(result)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped) counts as ended
        return " Z " not in Path(f"/proc/{pid}/stat").read_text().split(")", 1)[1][:4]
    except OSError:
        return True


def test_broken_migration_fails_and_names_the_cells(tmp_path: Path) -> None:
    python = sdk_python_or_skip("mcp2")
    shutil.copy(HERE / "verify" / "broken_mcp2.py", tmp_path / "server.py")
    shutil.copy(SHIM, tmp_path / SHIM.name)
    pids = tmp_path / "pids"
    pids.mkdir()

    proc = verify(
        tmp_path, python, "--timeout", "3", "--", str(python), "server.py", env={"VERIFY_PID_DIR": str(pids)}
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    for line in (
        "FAIL where_cwd / legacy + roots / without `root`: differs from with `root`",
        "FAIL where_cwd / legacy, no roots / without `root`: answered without it",
        "FAIL where_cwd / 2026-07-28 / without `root`: answered without it",
        "FAIL crash / 2026-07-28 / without `root`: error does not name `root`",
        "FAIL hang / legacy + roots / with `root`: timeout",
        "FAIL die / legacy, no roots / with `root`: connection lost",
        "FAIL die / 2026-07-28 / without `root`: connection lost",
    ):
        assert line in out, out
    assert "FAIL where /" not in out, out
    table = out.split("\n\n")[1]
    assert [ln.split()[2:] for ln in table.splitlines() if ln.startswith("where ")] == [
        ["ok", "ok", "ok"],
        ["`root`", "ok", "ok", "ok"],
        ["`root`", "ok,", "same", "answer", "ok,", "asks", "for", "`root`", "ok,", "asks", "for", "`root`"],
    ]
    # the hung call was timed out, later sessions still ran, and every server process was ended
    assert "FAIL hang / legacy, no roots" not in out and "FAIL hang / 2026-07-28" not in out
    started = [int(p.name) for p in pids.iterdir() if p.name.isdigit()]
    assert len(started) == 3, started
    assert [pid for pid in started if _pid_alive(pid)] == []


def test_server_that_does_not_start_exits_2_with_its_stderr(tmp_path: Path) -> None:
    python = sdk_python_or_skip("mcp1")
    boom = "import sys; sys.stderr.write('boom: no config file at ~/.srv.toml\\n'); sys.exit(3)"
    proc = verify(tmp_path, python, "--format", "json", "--", str(python), "-c", boom)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    data = as_json(proc)
    assert data["exit_code"] == 2 and data["rows"] == [] and data["error"]
    assert "boom: no config file at ~/.srv.toml" in data["stderr_tail"]
    # (the text of this case: test_verify_checks.py; through the GitHub Action: below)


def test_action_verify_step_on_a_server_that_does_not_start(tmp_path: Path) -> None:
    python = sdk_python_or_skip("mcp1")
    boom = "import sys; sys.stderr.write('boom: missing token\\n'); sys.exit(1)"
    command = f'{python} -c "{boom}"'
    (tmp_path / "runner").mkdir()
    proc, summary, output = run_step(
        "verify", tmp_path, tmp_path / "runner", verify=command, **{"verify-args": f"--python {python}"}
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "::error title=migrate-roots verify::the server did not start" in proc.stdout
    assert (
        "**The server did not start**" in summary.read_text() and "boom: missing token" in summary.read_text()
    )
    assert output.read_text() == "verify=not-started\n"
