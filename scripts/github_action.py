#!/usr/bin/env python3
"""The logic of action.yml's report step: one dry run, rendered as annotations and as a job summary.

Reads the action's inputs from INPUT_PATHS, INPUT_FAIL_ON_PENDING, INPUT_BASELINE and INPUT_ARGS, and the
runner's files from GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and RUNNER_TEMP (each optional, so the script also runs
on a laptop). Runs `migrate-roots report --format json` once with the Python running this script, then
renders that report twice: `github` workflow commands on standard output (annotations on the lines) and
`markdown` appended to the job summary. Exit status: 1 when `fail-on-pending` is true and `apply` would
still change files, 2 when migrate-roots itself refused to run, else 0.

`github_action.py verify` is the action's verify step: `migrate-roots verify --format json` on the command
in INPUT_VERIFY (with INPUT_VERIFY_ARGS), an error annotation per failing check, the table in the job summary,
the `verify` output (ok, failed, not-started), and verify's own exit status.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def _truthy(value: str) -> bool:
    return value.strip().lower() in ("1", "true", "yes", "on")


def _append(path: str, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text)


def main() -> int:
    paths = os.environ.get("INPUT_PATHS", ".").split() or ["."]
    fail_on_pending = _truthy(os.environ.get("INPUT_FAIL_ON_PENDING", "false"))
    baseline = os.environ.get("INPUT_BASELINE", "").strip()
    extra = shlex.split(os.environ.get("INPUT_ARGS", ""))
    temp = Path(os.environ.get("RUNNER_TEMP") or tempfile.mkdtemp())
    json_path = temp / "migrate-roots-report.json"
    markdown_path = temp / "migrate-roots-report.md"

    command = [sys.executable, "-m", "migrate_roots", "report", *paths, "--format", "json"]
    command += ["--output", str(json_path), "--no-progress", *extra]
    if baseline:
        command += ["--baseline", baseline]
    run = subprocess.run(command, capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    if run.returncode not in (0, 3) or not json_path.is_file():
        print(f"::error title=migrate-roots::migrate-roots report failed (exit {run.returncode})")
        return 2

    from pydantic import TypeAdapter

    from migrate_roots.model import MigrationReport
    from migrate_roots.report.formats import render

    report = TypeAdapter(MigrationReport).validate_json(json_path.read_text(encoding="utf-8"))
    sys.stdout.write(render("github", report))
    markdown = render("markdown", report)
    markdown_path.write_text(markdown, encoding="utf-8")
    _append(os.environ.get("GITHUB_STEP_SUMMARY", ""), markdown + "\n")
    totals = report.totals
    _append(
        os.environ.get("GITHUB_OUTPUT", ""),
        f"findings={totals.findings}\npending-files={totals.files_changed}\nreport={markdown_path}\n",
    )
    if run.returncode == 3:
        print(f"::warning title=migrate-roots::{totals.files_failed} files could not be read or parsed")
    if fail_on_pending and totals.files_changed:
        print(
            f"::error title=migrate-roots::`migrate-roots apply` would change {totals.files_changed} files: "
            "run it and commit the result"
        )
        return 1
    return 0


def verify_main() -> int:
    command = shlex.split(os.environ.get("INPUT_VERIFY", ""))
    extra = shlex.split(os.environ.get("INPUT_VERIFY_ARGS", ""))
    run = subprocess.run(
        [sys.executable, "-m", "migrate_roots", "verify", "--format", "json", *extra, "--", *command],
        capture_output=True,
        text=True,
    )
    sys.stderr.write(run.stderr)
    if run.returncode not in (0, 1, 2) or not run.stdout.strip():
        print(f"::error title=migrate-roots verify::{(run.stderr.strip().splitlines() or ['failed'])[-1]}")
        return 2

    import json

    from migrate_roots.verify.model import SESSION_LABELS, VerifyResult
    from migrate_roots.verify.render import render_markdown, render_text

    result = VerifyResult.from_json(json.loads(run.stdout))
    sys.stdout.write(render_text(result))
    _append(os.environ.get("GITHUB_STEP_SUMMARY", ""), render_markdown(result) + "\n")
    state = {0: "ok", 1: "failed", 2: "not-started"}[result.exit_code]
    _append(os.environ.get("GITHUB_OUTPUT", ""), f"verify={state}\n")
    if result.error is not None:
        print(f"::error title=migrate-roots verify::the server did not start: {result.error}")
    for row, cell in result.failures:
        print(
            f"::error title=migrate-roots verify::{row.tool} / {SESSION_LABELS[cell.session]} / {row.label}: "
            f"{cell.summary}"
        )
    return result.exit_code


if __name__ == "__main__":
    sys.exit(verify_main() if sys.argv[1:] == ["verify"] else main())
