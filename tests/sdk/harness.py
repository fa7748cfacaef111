"""Run the driver in an SDK env: what the end-to-end tests share (their `workspace` fixture is in conftest)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

DRIVER = Path(__file__).resolve().parent / "driver.py"


def drive(
    python: Path,
    server: Path,
    line: str,
    transport: str,
    calls: list[dict],
    *extra: str,
    attr: str = "mcp",
    env: dict[str, str] | None = None,
) -> list[dict]:
    """Run `calls` against `server` with that SDK line's own client (see driver.py); the results in order.
    `env`: variables set for the driver, and so for the server (in-process, or the stdio child it starts)."""
    out = subprocess.run(
        [str(python), str(DRIVER), "--server", str(server), "--attr", attr, "--line", line]
        + ["--transport", transport, "--batch", json.dumps(calls), *extra],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=server.parent,
        env={**os.environ, **env} if env else None,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])["results"]
