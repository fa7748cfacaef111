"""action.yml: its report step runs locally with the GitHub runner's environment variables set."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from tests.test_report import load_report, make_project

REPO = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((REPO / "action.yml").read_text())


def expand(text: str, inputs: dict[str, str], steps: dict[str, dict[str, str]] | None = None) -> str:
    """Evaluate the `${{ inputs.x }}` / `${{ steps.y.outputs.z }}` expressions the action uses."""

    def value(match: re.Match[str]) -> str:
        expr = match.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr.startswith("steps."):
            step, _, output = expr.removeprefix("steps.").split(".", 2)
            return (steps or {}).get(step, {}).get(output, "")
        raise AssertionError(f"unsupported expression {expr!r}")

    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def run_step(
    step_id: str, project: Path, tmp: Path, **overrides: str
) -> tuple[subprocess.CompletedProcess[str], Path, Path]:
    inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    inputs.update({"python": sys.executable, **overrides})
    step = next(s for s in ACTION["runs"]["steps"] if s.get("id") == step_id)
    summary, output = tmp / "summary.md", tmp / "output.txt"
    summary.write_text("# Earlier steps' summary\n")
    env = {
        **os.environ,
        "GITHUB_ACTIONS": "true",
        "GITHUB_ACTION_PATH": str(REPO),
        "GITHUB_WORKSPACE": str(project),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(tmp),
        **{k: expand(str(v), inputs) for k, v in step.get("env", {}).items()},
    }
    assert step["shell"] == "bash"
    result = subprocess.run(
        ["bash", "-e", "-c", expand(step["run"], inputs)],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    return result, summary, output


def outputs(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines())


def test_action_is_composite_with_install_and_report_steps():
    assert ACTION["runs"]["using"] == "composite"
    ids = [s["id"] for s in ACTION["runs"]["steps"]]
    assert ids == ["install", "report", "verify"]
    assert "scripts/github_action.py" in ACTION["runs"]["steps"][1]["run"]
    assert ACTION["runs"]["steps"][2]["if"] == "inputs.verify != ''"  # only with the optional input
    for name, spec in ACTION["outputs"].items():
        step = "verify" if name == "verify" else "report"
        assert f"steps.{step}.outputs." + name in spec["value"]
    inputs = {name: spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    for step in ACTION["runs"]["steps"]:  # every step's script is valid bash once expressions are filled in
        check = subprocess.run(
            ["bash", "-n", "-c", expand(step["run"], inputs)], capture_output=True, text=True
        )
        assert check.returncode == 0, check.stderr


def test_report_step_annotates_and_writes_the_summary(tmp_path):
    project = make_project(tmp_path)
    result, summary, output = run_step("report", project, tmp_path, args="--ignore MR2")
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("::error file=pkg/server.py,line=11,col=20,title=MR101") for line in lines)
    assert any(line.startswith("::warning file=pkg/server.py,line=13,") for line in lines)
    text = summary.read_text()
    assert text.startswith("# Earlier steps' summary\n## migrate-roots")  # appended, not overwritten
    assert "### Tools that take a new argument" in text
    values = outputs(output)
    assert values["findings"] == "4" and values["pending-files"] == "2"
    assert Path(values["report"]).read_text() in text
    load_report((tmp_path / "migrate-roots-report.json").read_text())  # the JSON it rendered from is valid
    assert (project / "pkg" / "server.py").read_text().count("list_roots()") == 2, "the action writes nothing"


def test_fail_on_pending(tmp_path):
    project = make_project(tmp_path)
    result, _, _ = run_step(
        "report", project, tmp_path, **{"fail-on-pending": "true", "args": "--ignore MR2"}
    )
    assert result.returncode == 1
    assert "::error title=migrate-roots::`migrate-roots apply` would change 2 files" in result.stdout


def test_paths_and_baseline_inputs(tmp_path):
    project = make_project(tmp_path)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "migrate_roots",
            "report",
            "pkg",
            "--write-baseline",
            "known.json",
            "--no-progress",
        ],
        cwd=project,
        check=True,
        capture_output=True,
    )
    result, summary, output = run_step(
        "report", project, tmp_path, paths="pkg", baseline="known.json", **{"fail-on-pending": "false"}
    )
    assert result.returncode == 0, result.stderr
    assert outputs(output)["findings"] == "0"
    assert "Only findings new since the baseline `known.json`" in summary.read_text()
    assert not [line for line in result.stdout.splitlines() if line.startswith(("::error", "::warning"))]


def test_usage_error_fails_the_step(tmp_path):
    project = make_project(tmp_path)
    result, _, _ = run_step("report", project, tmp_path, args="--select NOPE")
    assert result.returncode == 2
    assert "::error title=migrate-roots::migrate-roots report failed" in result.stdout
