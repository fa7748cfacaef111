"""One source through the field check: bring in, count, (install, test, e2e), apply, classify, check again.

Quick mode stops at what needs no install: apply + site count + compile + pyflakes + a second apply.
Full mode adds the repository's own tests before and after (where they run offline) and the end-to-end
sessions of the audit (``e2e_client.py``) where the server can be started. The install, test and e2e
steps are the audit's own (``run.py``), so there is one harness.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import run as audit  # audit/run.py: this package is imported by it, with audit/ on sys.path

from . import checks, classify, lint, source
from .sites import Site, count_tree, python_files, site_keys

#: whether the lint step (ruff I/E501 and mypy before and after, fieldcheck/lint.py) runs without --lint/--no-lint
LINT_DEFAULT = True


def work_root() -> Path:
    """The field's scratch area: outside this checkout, one per checkout (worktrees run fields at once).

    Not ``audit/.work/``: ruff and migrate-roots look upwards from a file for the style configuration, past
    the repository root, and would find this repository's own ``pyproject.toml`` (``[tool.ruff]``,
    line-length 110) above every exported tree that has none of its own."""
    digest = hashlib.sha1(str(audit.REPO).encode()).hexdigest()[:8]
    return Path(
        os.environ.get("MIGRATE_ROOTS_FIELD_WORK")
        or Path(tempfile.gettempdir()) / f"migrate-roots-field-{digest}"
    )


def _commit(tree: Path, env: dict, logs: Path, label: str, message: str) -> None:
    audit.run(["git", "add", "-A"], logs / f"git-add-{label}.log", cwd=tree, env=env)
    audit.run(
        ["git", "commit", "-q", "--no-verify", "--allow-empty", "-m", message],
        logs / f"git-commit-{label}.log",
        cwd=tree,
        env=env,
    )


def bring_in(entry: dict, opts: Any, base: Path, logs: Path, env: dict) -> tuple[Path, dict]:
    """The source tree, committed in its own scratch repository; and facts about where it came from."""
    tree = base / "tree"
    facts: dict[str, Any] = {}
    if entry["kind"] == "git":
        git_dir = source.locate(opts.repos, entry["repo"], entry["name"])
        if tree.exists():
            shutil.rmtree(tree)
        facts["left_out"] = source.export(git_dir, entry["commit"], tree)
        facts["mirror"] = str(git_dir)
        audit.run(["git", "init", "-q"], logs / "git-init.log", cwd=tree, env=env)
        _commit(tree, env, logs, "source", f"{entry['repo']}@{entry['commit']}")
    else:
        archive = audit.fetch_sdist(entry, logs)
        tree = audit.unpack(archive, tree, logs)
        facts["sdist"] = archive.name
    return tree, facts


def _read(tree: Path, files: list[str]) -> dict[str, str]:
    out = {}
    for rel in files:
        path = tree / rel
        if path.exists():
            out[rel] = path.read_text(encoding="utf-8", errors="replace")
    return out


def classify_sites(
    sites: list[Site], before: dict[str, str], after: dict[str, str], stopped: dict[str, str]
) -> list[dict]:
    """The per-site table: each site with its key and outcome."""
    by_file: dict[str, list[int]] = {}
    for i, site in enumerate(sites):
        by_file.setdefault(site.file, []).append(i)
    outcomes: list[classify.Outcome | None] = [None] * len(sites)
    for file, indexes in by_file.items():
        results = classify.classify_file(before[file], after.get(file), [sites[i] for i in indexes])
        for i, outcome in zip(indexes, results, strict=True):
            outcomes[i] = classify.mark_broken(outcome) if file in stopped else outcome
    rows = []
    for site, key, outcome in zip(sites, site_keys(sites), outcomes, strict=True):
        assert outcome is not None
        rows.append(
            {
                "key": key,
                **site.to_json(),
                "status": outcome.status,
                "how": outcome.how,
                "after_line": outcome.after_line,
                "code": outcome.code,
                "message": outcome.message,
            }
        )
    return rows


def second_apply(entry: dict, tree: Path, opts: Any, env: dict, logs: Path) -> dict:
    cmd = [*opts.migrate_roots, "apply", *entry["source"], "--check", "--format", "json", "--no-progress"]
    proc = audit.run(cmd, logs / "apply-check.log", cwd=tree, env=env)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"idempotent": False, "rc": proc.returncode, "error": audit.tail(proc.stderr, 600)}
    changed = [f["path"] for f in report.get("files", []) if f.get("status") not in ("unchanged", None)]
    return {"idempotent": proc.returncode == 0 and not changed, "rc": proc.returncode, "changed": changed}


def counts(rows: list[dict]) -> dict[str, int]:
    out = {"sites": len(rows), "rewritten": 0, "marked": 0, "silent": 0, "broken": 0}
    for row in rows:
        out[row["status"]] += 1
    return out


def score(entry: dict, opts: Any) -> dict:
    """Everything the field check measures for one manifest entry (errors are recorded, never raised)."""
    started = time.monotonic()
    # quick and full runs may go on at once: separate scratch folders
    base = work_root() / ("field" if opts.quick else "field-full") / entry["id"]
    logs = base / "logs"
    if base.exists() and not getattr(opts, "reuse_venv", False):
        shutil.rmtree(base)
    logs.mkdir(parents=True, exist_ok=True)
    env = audit.base_env(base / "home")
    result: dict[str, Any] = {
        "name": entry["id"],
        "kind": entry["kind"],
        "why": entry.get("why"),
        "repo": entry.get("repo"),
        "commit": entry.get("commit"),
        "version": entry.get("version"),
        "source": entry["source"],
        "control": bool(entry.get("control")),
        "mode": "quick" if opts.quick else "full",
    }
    timings: dict[str, float] = {}

    def step(name: str, fn, *args):
        t0 = time.monotonic()
        try:
            return fn(*args)
        finally:
            timings[name] = round(time.monotonic() - t0, 1)
            audit.log(f"{entry['id']}: {name} {timings[name]}s")

    try:
        tree, facts = step("bring-in", bring_in, entry, opts, base, logs, env)
        result.update(facts)
        result["configs_above_tree"] = lint.configs_above(tree)  # should be none: see work_root
        sites, untokenizable = count_tree(tree, entry["source"])
        files_before = [p.relative_to(tree).as_posix() for p in python_files(tree, entry["source"])]
        before = _read(tree, files_before)
        scan_before = step("scan-before", checks.scan, tree, files_before)
        full = None if opts.quick else step("full-before", _full_before, entry, tree, opts, base, logs, env)
        linting = LINT_DEFAULT if getattr(opts, "lint", None) is None else opts.lint
        # in full mode mypy resolves imports in the repository's own venv
        python = str(full["venv"] / "bin" / "python") if full and full.get("venv") else None
        if linting:
            lint_before = step(
                "lint-before", lint.run_side, tree, entry["source"], base, logs, env, "before", python
            )

        mig = step("migrate", audit.migrate, entry, tree, opts.migrate_roots, env, logs)
        result["migrate"] = {k: v for k, v in mig.items() if k != "findings_list"}
        diff = audit.run(
            ["git", "diff", "--no-color", "--stat"], logs / "git-diff-stat.log", cwd=tree, env=env
        )
        audit.run(
            ["git", "diff", "--no-color"], logs / "git-diff.log", cwd=tree, env=env
        )  # kept in .work only
        result["diff_stat"] = diff.stdout.strip().splitlines()[-1:] if diff.stdout.strip() else []

        files_after = [p.relative_to(tree).as_posix() for p in python_files(tree, entry["source"])]
        after = _read(tree, files_after)
        scan_after = step("scan-after", checks.scan, tree, files_after)
        broken = checks.compare_scans(scan_before, scan_after)
        rows = classify_sites(sites, before, after, broken["stopped_compiling"])
        result.update(
            sites=rows,
            untokenizable=untokenizable,
            counts=counts(rows),
            broken=broken,
            files={
                "before": len(files_before),
                "after": len(files_after),
                "not_compiling_before": len(scan_before["compile_errors"]),
            },
        )
        _commit(tree, env, logs, "migrated", "migrate-roots apply")
        if linting:
            lint_after = step(
                "lint-after", lint.run_side, tree, entry["source"], base, logs, env, "after", python
            )
            sdk_missing = python is None and not lint.sdk_installed()
            result["lint"] = lint.compare_sides(lint_before, lint_after, sdk_missing=sdk_missing)
        second = step("second-apply", second_apply, entry, tree, opts, env, logs)
        result.update(idempotent=second["idempotent"], second_apply=second)
        if full is not None:
            result.update(step("full-after", _full_after, entry, tree, opts, base, logs, env, full, mig))
    except source.SourceError as exc:
        result["error"] = f"source: {exc}"
    except Exception as exc:  # noqa: BLE001 - one source's failure must not stop the field
        result["error"] = f"{type(exc).__name__}: {exc}"
    result["timings"] = timings
    result["seconds"] = round(time.monotonic() - started, 1)
    return result


# ------------------------------------------------------------------------------------------------------------
# full mode: the audit's install, tests and end-to-end sessions
# ------------------------------------------------------------------------------------------------------------


def _install_target(entry: dict, tree: Path) -> Path:
    return tree / entry.get("project", ".")


def _full_before(entry: dict, tree: Path, opts: Any, base: Path, logs: Path, env: dict) -> dict:
    out: dict[str, Any] = {"install": None, "tests_before": None, "tools_before": {}, "base_calls": None}
    if entry.get("install") is False:
        out["install"] = (
            f"not installed: {entry.get('install_note', 'the manifest says it cannot be installed offline')}"
        )
        return out
    venv = base / "venv"
    try:
        audit.make_venv(
            entry, _install_target(entry, tree), venv, env, logs, opts.uv, entry.get("python", opts.python)
        )
    except RuntimeError as exc:
        out["install"] = f"install failed: {str(exc)[-600:]}"
        return out
    out["install"] = "ok"
    out["venv"] = venv
    out["sdk"] = audit.sdk_line(venv, env, logs)
    out["tests_before"] = audit.run_tests(entry, _install_target(entry, tree), venv, env, logs, "before")
    if entry.get("command"):
        listed = audit.list_tools(entry, venv, env, base, logs, "before")
        out["tools_before"], out["list_error_before"] = listed["tools"], listed["error"]
        out["base_calls"] = audit.call_all(
            entry, venv, env, base, logs, "before", "legacy-roots", listed["tools"], {}
        )
    return out


def _full_after(
    entry: dict, tree: Path, opts: Any, base: Path, logs: Path, env: dict, full: dict, mig: dict
) -> dict:
    out: dict[str, Any] = {"install": full["install"], "sdk": full.get("sdk")}
    venv = full.get("venv")
    if venv is None:
        return out
    tests_after = audit.run_tests(entry, _install_target(entry, tree), venv, env, logs, "after")
    failing = audit.new_failures(full["tests_before"], tests_after)
    by_design = entry.get("by_design", {})
    if full["tests_before"] is not None:
        out["tests"] = {
            "before": {k: full["tests_before"][k] for k in ("passed", "failed", "skipped", "rc")},
            "after": {k: tests_after[k] for k in ("passed", "failed", "skipped", "rc")}
            if tests_after
            else None,
            "new_failures": [t for t in failing if t not in by_design],
            "by_design": {t: by_design[t] for t in failing if t in by_design},
        }
    if not entry.get("command"):
        out["e2e"] = None
        return out
    tools_before = full["tools_before"]
    listed = audit.list_tools(entry, venv, env, base, logs, "after")
    tools_after = listed["tools"]
    migrated: dict[str, str] = {}
    for change in mig.get("tools") or []:
        if change.get("tool") in tools_after:
            migrated[change["tool"]] = change["parameter"]
    for tool, props in audit.new_properties(tools_before, tools_after).items():
        migrated.setdefault(tool, props[0])
    sessions = {
        "legacy-roots": audit.call_all(
            entry, venv, env, base, logs, "after-legacy-roots", "legacy-roots", tools_after, migrated
        ),
        "legacy-noroots": audit.call_all(
            entry,
            venv,
            env,
            base,
            logs,
            "after-legacy-noroots",
            "legacy-noroots",
            tools_after,
            migrated,
            sorted(migrated),
        ),
        "modern": audit.call_all(
            entry, venv, env, base, logs, "after-modern", "modern", tools_after, migrated
        ),
        "modern-noarg": audit.call_all(
            entry, venv, env, base, logs, "after-modern-noarg", "modern", tools_after, {}, sorted(migrated)
        ),
    }
    judged = audit.judge_e2e(tools_before, tools_after, full["base_calls"], sessions, migrated)
    judged["eras"] = {
        era: ("skipped: " + s.get("reason", "")) if s.get("skipped") else "run" for era, s in sessions.items()
    }
    judged["list_error_before"], judged["list_error_after"] = full.get("list_error_before"), listed["error"]
    out["e2e"] = judged
    return out


def clean_for_json(result: dict) -> dict:
    """Drop what only the run needed (paths of venvs)."""
    result.pop("venv", None)
    return result


def git_available() -> bool:
    return (
        shutil.which("git") is not None
        and subprocess.run(["git", "--version"], capture_output=True).returncode == 0
    )
