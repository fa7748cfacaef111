#!/usr/bin/env python3
"""Real-server audit: migrate published roots-using MCP servers and prove nothing new breaks.

Run by hand (not part of the test suite or CI); see audit/README.md::

    /tmp/venv/bin/python audit/run.py                 # every server in audit/servers.toml
    /tmp/venv/bin/python audit/run.py --only bees-md  # one server (by name, or name==version)

For each server: download and unpack the released sdist into ``audit/.work/``, create a fresh venv with uv,
install the package and its dependencies (editable, so the migrated source is what runs), then
baseline = mypy (a fixed config of ours) + the sdist's own tests + an end-to-end session over stdio; then
``migrate-roots apply``; then the same checks again plus end-to-end sessions in both eras. Writes
``audit/results/summary.json``, ``audit/results/summary.md`` and one diff per server under
``audit/results/diffs/``.

Only the standard library is used here; the SDK client runs inside each server's venv (``e2e_client.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import tomllib

AUDIT = Path(__file__).resolve().parent
if str(AUDIT) not in sys.path:
    sys.path.insert(0, str(AUDIT))  # the field check's package, audit/fieldcheck/
REPO = AUDIT.parent
WORK = AUDIT / ".work"
RESULTS = AUDIT / "results"
E2E_CLIENT = AUDIT / "e2e_client.py"

#: the type checker, pinned so that "new errors" never come from a checker upgrade
MYPY = "mypy==2.4.1"
MYPY_INI = """\
[mypy]
# The audit's own config, not the project's: the same checker settings before and after migration,
# lenient enough that third-party noise (missing stubs, untyped dependencies) stays out of the diff.
ignore_missing_imports = True
follow_imports = silent
show_error_codes = True
hide_error_context = True
no_error_summary = True
color_output = False
pretty = False
show_column_numbers = False
"""
TIMEOUT_S = 30  # one MCP request
STEP_TIMEOUT_S = 1800  # one install / type check / test run

PATHISH = re.compile(r"path|dir|root|repo|folder|workspace|cwd|project|file", re.I)
ROOTS_CALL = re.compile(r"\.list_roots\s*\(")
ROOTS_OTHER = re.compile(r"RootsListChangedNotification|roots/list_changed|on_roots_list_changed")
ROOTS_TEXT = re.compile(r"roots?/list|list_roots|NoBackChannel|back.?channel|-32021|roots capability", re.I)
MYPY_LINE = re.compile(
    r"^(?P<path>[^:\n]+?):(?P<line>\d+)(?::\d+)?: (?P<sev>error|note): (?P<msg>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


# ------------------------------------------------------------------------------------------------------------
# small helpers
# ------------------------------------------------------------------------------------------------------------


def slug(server: dict) -> str:
    return f"{server['name']}-{server['version']}"


def run(cmd: list[str], log: Path, *, cwd: Path | None = None, env: dict | None = None,
        timeout: float = STEP_TIMEOUT_S) -> subprocess.CompletedProcess:
    """Run a command, keep its output in ``log``, never raise on a non-zero exit."""
    log.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        proc = subprocess.CompletedProcess(cmd, 124, out, err + f"\n[audit] timed out after {timeout}s")
    log.write_text(
        f"$ {' '.join(map(str, cmd))}\n# cwd={cwd} rc={proc.returncode} "
        f"seconds={time.monotonic() - started:.1f}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}",
        encoding="utf-8",
    )
    return proc


def tail(text: str, n: int = 1500) -> str:
    return text[-n:] if text else ""


def base_env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HOME=str(home),
        GIT_AUTHOR_NAME="audit", GIT_AUTHOR_EMAIL="audit@localhost",
        GIT_COMMITTER_NAME="audit", GIT_COMMITTER_EMAIL="audit@localhost",
        PYTHONWARNINGS="ignore", NO_COLOR="1", UV_PYTHON_DOWNLOADS="never", PYTHONDONTWRITEBYTECODE="1",
    )
    env.pop("VIRTUAL_ENV", None)
    home.mkdir(parents=True, exist_ok=True)
    return env


# ------------------------------------------------------------------------------------------------------------
# fetch, unpack, install
# ------------------------------------------------------------------------------------------------------------


def fetch_sdist(server: dict, logs: Path) -> Path:
    downloads = WORK / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    stem = re.sub(r"[-_.]+", "_", server["name"]).lower() + f"-{server['version']}"
    for candidate in downloads.iterdir():
        if candidate.name.lower().startswith(stem) and candidate.name.endswith((".tar.gz", ".zip")):
            return candidate
    proc = run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", server["name"],
                f"{server['name']}=={server['version']}", "-d", str(downloads)], logs / "download.log")
    for candidate in downloads.iterdir():
        if candidate.name.lower().startswith(stem) and candidate.name.endswith((".tar.gz", ".zip")):
            return candidate
    raise RuntimeError(f"sdist of {slug(server)} not downloaded (rc {proc.returncode}): {tail(proc.stderr, 600)}")


def unpack(archive: Path, dest: Path, logs: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    staging = dest.with_name(dest.name + ".unpack")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    with tarfile.open(archive) as tar:
        tar.extractall(staging, filter="data")
    (top,) = list(staging.iterdir())
    top.rename(dest)
    staging.rmdir()
    # Its own git work tree: migrate-roots discovery is git-aware (audit/.work/ is ignored by the outer repo),
    # and HEAD keeps the released source, so `git diff` is exactly what the migration changed.
    # The released source is committed there (a scratch repository, never this one), as a user would before
    # migrating: `apply` refuses a dirty tree.
    env = base_env(dest.parent / "home")
    run(["git", "init", "-q"], logs / "git-init.log", cwd=dest, env=env)
    run(["git", "add", "-A"], logs / "git-add.log", cwd=dest, env=env)
    proc = run(["git", "commit", "-q", "--no-verify", "-m", f"{archive.name} as released"], logs / "git-commit.log",
               cwd=dest, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"git commit of the unpacked sdist failed: {tail(proc.stderr, 600)}")
    return dest


def make_venv(server: dict, tree: Path, venv: Path, env: dict, logs: Path, uv: str, python: str) -> None:
    if venv.exists():
        shutil.rmtree(venv)
    proc = run([uv, "venv", "-q", "--python", python, str(venv)], logs / "venv.log", env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"uv venv failed: {tail(proc.stderr, 800)}")
    target = str(tree)
    if server.get("extras"):
        target += "[" + ",".join(server["extras"]) + "]"
    reqs = ["-e", target, MYPY, *server.get("pins", []), *server.get("extra_deps", []), *server.get("test_deps", [])]
    proc = run([uv, "pip", "install", "-q", "--python", str(venv / "bin" / "python"), *server.get("uv_args", []), *reqs],
               logs / "install.log", env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"install failed: {tail(proc.stderr, 1500)}")


def sdk_line(venv: Path, env: dict, logs: Path) -> dict:
    code = (
        "import json\nfrom importlib import metadata\nout = {}\n"
        "for d in ('mcp', 'fastmcp'):\n"
        "    try: out[d] = metadata.version(d)\n"
        "    except metadata.PackageNotFoundError: out[d] = None\n"
        "print(json.dumps(out))"
    )
    proc = run([str(venv / "bin" / "python"), "-c", code], logs / "sdk.log", env=env)
    versions = json.loads(proc.stdout) if proc.returncode == 0 else {}
    mcp, fastmcp = versions.get("mcp"), versions.get("fastmcp")
    line = f"fastmcp {fastmcp} (mcp {mcp})" if fastmcp else f"mcp {mcp}"
    return {"mcp": mcp, "fastmcp": fastmcp, "line": line}


# ------------------------------------------------------------------------------------------------------------
# checks: type check, tests
# ------------------------------------------------------------------------------------------------------------


def typecheck(server: dict, tree: Path, venv: Path, env: dict, log: Path) -> dict:
    ini = WORK / "mypy.ini"
    ini.write_text(MYPY_INI, encoding="utf-8")
    cmd = [str(venv / "bin" / "python"), "-m", "mypy", "--config-file", str(ini),
           "--cache-dir", str(tree.parent / "mypy-cache"), *server["typecheck"]]
    proc = run(cmd, log, cwd=tree, env=env)
    errors: list[list[str]] = []
    other: list[str] = []
    for raw in proc.stdout.splitlines():
        m = MYPY_LINE.match(raw)
        if m is None:
            if raw.strip():
                other.append(raw)
            continue
        if m["sev"] != "error":
            continue
        msg = re.sub(r"line \d+", "line N", m["msg"])
        errors.append([m["path"], m["code"] or "", msg])
    crashed = proc.returncode not in (0, 1) or (proc.returncode == 1 and not errors)
    return {"rc": proc.returncode, "errors": errors, "count": len(errors), "crashed": crashed,
            "other_output": other[:20], "stderr": tail(proc.stderr, 800)}


def new_errors(before: dict, after: dict) -> list[list[str]]:
    """Errors after migration that were not there before (as a multiset, line numbers ignored)."""
    left = Counter(tuple(e) for e in before["errors"])
    out = []
    for err in after["errors"]:
        key = tuple(err)
        if left[key]:
            left[key] -= 1
        else:
            out.append(list(err))
    if after.get("crashed") and not before.get("crashed"):
        out.append(["<mypy>", "crash", f"mypy exited {after['rc']}: {after['stderr'][:300]}"])
    return out


def run_tests(server: dict, tree: Path, venv: Path, env: dict, logs: Path, label: str) -> dict | None:
    if not server.get("test_cmd"):
        return None
    junit = tree.parent / f"junit-{label}.xml"
    if junit.exists():
        junit.unlink()
    cmd = [part.format(python=str(venv / "bin" / "python"), junit=str(junit)) for part in server["test_cmd"]]
    proc = run(cmd, logs / f"tests-{label}.log", cwd=tree, env=env)
    cases: dict[str, str] = {}
    if junit.exists():
        for case in ET.parse(junit).getroot().iter("testcase"):
            ident = f"{case.get('classname')}::{case.get('name')}"
            status = "passed"
            for child in case:
                if child.tag in ("failure", "error"):
                    status = "failed"
                    break
                if child.tag == "skipped":
                    status = "skipped"
            cases[ident] = status
    counts = Counter(cases.values())
    return {"rc": proc.returncode, "passed": counts["passed"], "failed": counts["failed"],
            "skipped": counts["skipped"], "cases": cases, "output_tail": tail(proc.stdout, 1200)}


def new_failures(before: dict | None, after: dict | None) -> list[str]:
    if before is None or after is None:
        return []
    return sorted(t for t, s in before["cases"].items() if s == "passed" and after["cases"].get(t) != "passed")


# ------------------------------------------------------------------------------------------------------------
# migrate-roots
# ------------------------------------------------------------------------------------------------------------


def grep_roots(tree: Path, paths: list[str]) -> dict:
    calls = other = 0
    for base in paths:
        for file in sorted((tree / base).rglob("*.py")):
            for line in file.read_text(encoding="utf-8", errors="replace").splitlines():
                stripped = line.strip()
                if stripped.startswith("#"):
                    continue
                code = stripped.split("#", 1)[0]
                calls += len(ROOTS_CALL.findall(code))
                other += len(ROOTS_OTHER.findall(code))
    return {"list_roots_calls": calls, "list_changed_mentions": other}


def migrate(server: dict, tree: Path, migrate_roots: list[str], env: dict, logs: Path) -> dict:
    started = time.monotonic()
    cmd = [*migrate_roots, "apply", *server["apply"], "--format", "json", "--no-progress"]
    proc = run(cmd, logs / "migrate.log", cwd=tree, env=env)
    seconds = round(time.monotonic() - started, 1)
    out: dict[str, Any] = {"rc": proc.returncode, "seconds": seconds, "stderr": tail(proc.stderr, 3000)}
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        out["crashed"] = True
        return out
    findings = [f for file in report.get("files", []) for f in file.get("findings", [])]
    tools = [t for file in report.get("files", []) for t in file.get("tools", [])]
    by_action = Counter(f.get("action") for f in findings)
    out.update(
        crashed=False,
        findings=len(findings),
        by_code=dict(sorted(Counter(f["code"] for f in findings).items())),
        roots_sites=sum(1 for f in findings if f["code"].startswith("MR1")),
        rewritten=by_action.get("rewritten", 0),
        marked=by_action.get("marked", 0),
        reported=by_action.get("reported", 0),
        tools=[{k: t.get(k) for k in ("tool", "parameter", "shape", "reused_existing", "legacy_fallback")}
               for t in tools],
        files_changed=report.get("summary", {}).get("files_changed"),
        files_failed=report.get("summary", {}).get("files_failed"),
        failed_files=[{"path": f["path"], "reason": f.get("reason")} for f in report.get("files", [])
                      if f.get("status") == "failed"],
        findings_list=[{k: f.get(k) for k in ("path", "line", "code", "action", "tool", "message")}
                       for f in findings],
    )
    return out


def save_diff(server: dict, tree: Path, logs: Path, output: Path) -> Path:
    run(["git", "add", "-N", "--", *server["apply"]], logs / "git-intent.log", cwd=tree)
    proc = run(["git", "diff", "--no-color", "--", *server["apply"]], logs / "git-diff.log", cwd=tree)
    dest = output / "diffs" / f"{slug(server)}.diff"
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(proc.stdout, encoding="utf-8")
    return dest


# ------------------------------------------------------------------------------------------------------------
# end to end
# ------------------------------------------------------------------------------------------------------------


def make_tmp(base: Path, label: str, env: dict) -> Path:
    """A scratch directory the server works in: a git repository with one committed file."""
    tmp = base / f"tmp-{label}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    (tmp / "README.md").write_text("audit scratch directory\n", encoding="utf-8")
    for cmd in (["git", "init", "-q"], ["git", "add", "README.md"], ["git", "commit", "-q", "-m", "init"]):
        subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, check=False)
    return tmp


def fill(value: Any, tmp: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{tmp}", str(tmp))
    if isinstance(value, list):
        return [fill(v, tmp) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, tmp) for k, v in value.items()}
    return value


def _resolve_ref(schema: dict, prop: dict) -> dict:
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        node: Any = schema
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        return node if isinstance(node, dict) else {}
    for key in ("anyOf", "oneOf"):
        for option in prop.get(key) or []:
            if isinstance(option, dict) and option.get("type") != "null":
                return _resolve_ref(schema, option)
    return prop


def make_value(name: str, prop: dict, schema: dict, tmp: Path) -> Any:
    prop = _resolve_ref(schema, prop)
    if "default" in prop:
        return prop["default"]
    if prop.get("enum"):
        return prop["enum"][0]
    kind = prop.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "string")
    if kind == "integer":
        return 1
    if kind == "number":
        return 1.0
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    if kind == "object":
        return {}
    if PATHISH.search(name):
        return str(tmp / "README.md") if re.search(r"file", name, re.I) and not re.search(r"dir|root", name, re.I) \
            else str(tmp)
    return "x"


def tool_args(server: dict, tool: str, schema: Any, tmp: Path, new_param: str | None = None) -> dict:
    schema = schema if isinstance(schema, dict) else {}
    props = schema.get("properties") or {}
    args = {}
    for name in schema.get("required") or []:
        if name == new_param:
            continue
        args[name] = make_value(name, props.get(name) or {}, schema, tmp)
    args.update(fill(server.get("tool_args", {}).get(tool, {}), tmp))
    if new_param:
        # The new argument, in the shape its schema declares (a list-shaped one gets a one-item list).
        prop = props.get(new_param) or {}
        kinds = {prop.get("type")} | {o.get("type") for o in prop.get("anyOf") or prop.get("oneOf") or []
                                      if isinstance(o, dict)}
        args[new_param] = [str(tmp)] if "array" in kinds else str(tmp)
    return args


def e2e(server: dict, venv: Path, env: dict, base: Path, logs: Path, label: str, sessions: list[dict],
        tmp: Path) -> dict:
    spec = {
        "command": [fill(p.format(bin=str(venv / "bin"), python=str(venv / "bin" / "python")), tmp)
                    for p in server["command"]],
        "cwd": str(tmp),
        "env": {**env, "HOME": str(tmp)},
        "timeout": TIMEOUT_S,
        "sessions": sessions,
    }
    spec_file = base / f"e2e-{label}.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    proc = run([str(venv / "bin" / "python"), str(E2E_CLIENT), str(spec_file)], logs / f"e2e-{label}.log",
               env=env, timeout=TIMEOUT_S * 4 * (2 + sum(len(s["calls"]) for s in sessions)))
    try:
        return json.loads(proc.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        return {"sessions": [{"era": s["era"], "connection_error": f"e2e client failed rc={proc.returncode}: "
                              f"{tail(proc.stderr, 2000)}", "tools": {}, "calls": []} for s in sessions]}


def list_tools(server: dict, venv: Path, env: dict, base: Path, logs: Path, label: str) -> dict:
    tmp = make_tmp(base, f"list-{label}", env)
    result = e2e(server, venv, env, base, logs, f"list-{label}",
                 [{"era": "legacy-roots", "roots": [tmp.as_uri()], "calls": []}], tmp)
    session = result["sessions"][0]
    return {"tools": session.get("tools") or {}, "error": session.get("connection_error")}


def call_all(server: dict, venv: Path, env: dict, base: Path, logs: Path, label: str, era: str,
             tools: dict, new_params: dict[str, str], only: list[str] | None = None) -> dict:
    """One session in ``era`` calling each tool (or ``only`` those); migrated tools get their new argument
    unless the era is legacy-roots, where the client's roots answer for it as before the migration."""
    tmp = make_tmp(base, label, env)
    names = [n for n in sorted(tools) if n not in server.get("skip_tools", []) and (only is None or n in only)]
    calls = []
    for name in names:
        param = new_params.get(name) if era != "legacy-roots" else None
        calls.append({"tool": name, "args": tool_args(server, name, tools[name], tmp, param)})
    roots = [tmp.as_uri()] if era in ("legacy-roots", "modern") else []
    result = e2e(server, venv, env, base, logs, label, [{"era": era, "roots": roots, "calls": calls}], tmp)
    return result["sessions"][0]


def new_properties(before: dict, after: dict) -> dict[str, list[str]]:
    out = {}
    for name, schema in after.items():
        old = (before.get(name) or {}).get("properties") or {}
        new = (schema or {}).get("properties") or {}
        added = sorted(set(new) - set(old))
        if added:
            out[name] = added
    return out


def judge_e2e(tools_before: dict, tools_after: dict, base_calls: dict, sessions: dict[str, dict],
              migrated: dict[str, str]) -> dict:
    problems: list[str] = []
    for label, session in {"baseline": base_calls, **sessions}.items():
        if session.get("connection_error"):
            problems.append(f"{label}: connection failed: {session['connection_error'][-300:]}")
    lost = sorted(set(tools_before) - set(tools_after))
    if lost:
        problems.append(f"tools gone after migration: {lost}")
    base = {c["tool"]: c for c in base_calls.get("calls", [])}
    per_tool: dict[str, dict] = {}
    for label, session in sessions.items():
        if session.get("skipped"):
            continue
        for call in session.get("calls", []):
            entry = per_tool.setdefault(call["tool"], {"baseline": _outcome(base.get(call["tool"]))})
            entry[label] = _outcome(call)
            was_ok = base.get(call["tool"]) is not None and not base[call["tool"]]["is_error"]
            if call.get("raised") and call.get("raised") != "TimeoutError" and not (base.get(call["tool"]) or {}).get(
                    "raised"):
                problems.append(f"{label}: {call['tool']} raised {call['raised']}: {call['text'][:200]}")
            elif was_ok and call["is_error"]:
                if label == "modern-noarg":
                    continue  # expected: the tool asks for its argument
                if label == "modern" and call["tool"] not in migrated:
                    continue  # judged below: a tool the migration did not touch
                problems.append(f"{label}: {call['tool']} worked before migration, fails now: {call['text'][:200]}")
    modern_roots_failures = sorted(
        c["tool"] for c in sessions.get("modern", {}).get("calls", [])
        if c["is_error"] and ROOTS_TEXT.search(c.get("text") or "")
    )
    for tool in modern_roots_failures:
        if tool in migrated:
            problems.append(f"modern: migrated tool {tool} still fails on roots: "
                            f"{next(c['text'] for c in sessions['modern']['calls'] if c['tool'] == tool)[:200]}")
    return {
        "ok": not problems,
        "problems": problems,
        "tools_before": len(tools_before),
        "tools_after": len(tools_after),
        "migrated_tools": migrated,
        "modern_roots_failures_unmigrated": [t for t in modern_roots_failures if t not in migrated],
        "per_tool": per_tool,
    }


def _outcome(call: dict | None) -> str:
    if call is None:
        return "-"
    if call.get("raised"):
        return f"raised {call['raised']}"
    return "error" if call["is_error"] else "ok"


# ------------------------------------------------------------------------------------------------------------
# one server
# ------------------------------------------------------------------------------------------------------------


def audit_server(server: dict, opts: argparse.Namespace) -> dict:
    started = time.monotonic()
    base = WORK / slug(server)
    logs = base / "logs"
    if base.exists() and not opts.reuse_venv:
        shutil.rmtree(base)
    logs.mkdir(parents=True, exist_ok=True)
    env = base_env(base / "home")
    result: dict[str, Any] = {"name": server["name"], "version": server["version"], "why": server.get("why"),
                              "control": bool(server.get("control")), "steps": {}}
    timings: dict[str, float] = {}

    def step(name: str, fn, *args):
        t0 = time.monotonic()
        try:
            return fn(*args)
        finally:
            timings[name] = round(time.monotonic() - t0, 1)
            log(f"{slug(server)}: {name} {timings[name]}s")

    try:
        archive = step("download", fetch_sdist, server, logs)
        tree = step("unpack", unpack, archive, base / "tree", logs)
        venv = base / "venv"
        if not (opts.reuse_venv and (venv / "bin" / "python").exists()):
            step("install", make_venv, server, tree, venv, env, logs, opts.uv, opts.python)
        result["sdk"] = sdk_line(venv, env, logs)
        result["grep"] = grep_roots(tree, server["apply"])

        mypy_before = step("typecheck-before", typecheck, server, tree, venv, env, logs / "mypy-before.log")
        tests_before = step("tests-before", run_tests, server, tree, venv, env, logs, "before")
        listed_before = step("e2e-list-before", list_tools, server, venv, env, base, logs, "before")
        tools_before = listed_before["tools"]
        base_calls = step("e2e-before", call_all, server, venv, env, base, logs, "before", "legacy-roots",
                          tools_before, {})

        mig = step("migrate", migrate, server, tree, opts.migrate_roots, env, logs)
        result["migrate"] = mig
        result["diff"] = os.path.relpath(step("diff", save_diff, server, tree, logs, opts.output), AUDIT)

        mypy_after = step("typecheck-after", typecheck, server, tree, venv, env, logs / "mypy-after.log")
        tests_after = step("tests-after", run_tests, server, tree, venv, env, logs, "after")
        listed_after = step("e2e-list-after", list_tools, server, venv, env, base, logs, "after")
        tools_after = listed_after["tools"]
        added = new_properties(tools_before, tools_after)
        migrated = {}
        for change in mig.get("tools") or []:
            if change.get("tool") in tools_after:
                migrated[change["tool"]] = change["parameter"]
        for tool, props in added.items():
            migrated.setdefault(tool, props[0])
        sessions = {
            "legacy-roots": step("e2e-legacy-roots", call_all, server, venv, env, base, logs, "after-legacy-roots",
                                 "legacy-roots", tools_after, migrated),
            "legacy-noroots": step("e2e-legacy-noroots", call_all, server, venv, env, base, logs,
                                   "after-legacy-noroots", "legacy-noroots", tools_after, migrated,
                                   sorted(migrated)),
            "modern": step("e2e-modern", call_all, server, venv, env, base, logs, "after-modern", "modern",
                           tools_after, migrated),
            # Migrated tools on a modern request WITHOUT the new argument: the shim's tool error (or the
            # server's own fallback), never a protocol error or a crash.
            "modern-noarg": step("e2e-modern-noarg", call_all, server, venv, env, base, logs, "after-modern-noarg",
                                 "modern", tools_after, {}, sorted(migrated)),
        }
        typecheck_new = new_errors(mypy_before, mypy_after)
        failing = new_failures(tests_before, tests_after)
        # Tests that pin the tool surface fail by design (servers.toml says which, and why); all else counts.
        by_design = server.get("by_design", {})
        test_new = [t for t in failing if t not in by_design]
        expected = {t: by_design[t] for t in failing if t in by_design}
        result.update(
            typecheck={"before": mypy_before["count"], "after": mypy_after["count"], "new": typecheck_new,
                       "crashed_before": mypy_before["crashed"], "crashed_after": mypy_after["crashed"]},
            tests=None if tests_before is None else {
                "before": {k: tests_before[k] for k in ("passed", "failed", "skipped", "rc")},
                "after": {k: tests_after[k] for k in ("passed", "failed", "skipped", "rc")} if tests_after else None,
                "new_failures": test_new,
                "by_design": expected,
            },
            new_errors=len(typecheck_new) + len(test_new) + (1 if mig.get("crashed") else 0),
            e2e={**judge_e2e(tools_before, tools_after, base_calls, sessions, migrated),
                 "list_error_before": listed_before["error"], "list_error_after": listed_after["error"],
                 "eras": {era: ("skipped: " + s.get("reason", "")) if s.get("skipped") else "run"
                          for era, s in sessions.items()}},
        )
        if mig.get("crashed"):
            result["e2e"]["problems"].insert(0, f"migrate-roots failed (rc {mig['rc']}, no JSON report): {mig['stderr'][-300:]}")
            result["e2e"]["ok"] = False
    except Exception as exc:  # noqa: BLE001 - one server's failure must not stop the audit
        result["error"] = f"{type(exc).__name__}: {exc}"
    result["timings"] = timings
    result["seconds"] = round(time.monotonic() - started, 1)
    return result


# ------------------------------------------------------------------------------------------------------------
# report
# ------------------------------------------------------------------------------------------------------------


def log(msg: str) -> None:
    print(f"[{datetime.now(timezone.utc):%H:%M:%S}] {msg}", file=sys.stderr, flush=True)


def _cell_tests(r: dict) -> tuple[str, str]:
    t = r.get("tests")
    if not t:
        return "no tests in sdist", "-"
    b, a = t["before"], t.get("after") or {}
    return f"{b['passed']} passed / {b['failed']} failed", f"{a.get('passed', '?')} passed / {a.get('failed', '?')} failed"


def _cell_e2e(r: dict) -> str:
    e = r.get("e2e")
    if not e:
        return "not run"
    skipped = sorted({v.removeprefix("skipped: ") for v in e["eras"].values() if v != "run"})
    eras = "; ".join(f"modern eras skipped: {v}" for v in skipped)
    text = "ok" if e["ok"] else f"FAIL ({len(e['problems'])})"
    text += f"; {e['tools_after']} tools, {len(e['migrated_tools'])} migrated"
    if e["modern_roots_failures_unmigrated"]:
        text += f"; {len(e['modern_roots_failures_unmigrated'])} unmigrated tool(s) fail on roots in modern era"
    if eras:
        text += f" ({eras})"
    return text


def _by_design(r: dict) -> str:
    count = len(((r.get("tests") or {}).get("by_design")) or {})
    return f" (+{count} by design)" if count else ""


def render_md(report: dict) -> str:
    lines = [
        "# Real-server audit",
        "",
        f"Run {report['started']} to {report['finished']} ({report['seconds']} s, {report.get('jobs', 1)} server(s) at "
        f"a time), {report['migrate_roots_version']} (this repository's working tree), type checker {MYPY}, "
        f"Python {report['python']}.",
        "Produced by `audit/run.py` (see audit/README.md). \"new errors\" = type-check errors and test failures "
        "present after `migrate-roots apply` and absent before (must be zero), plus a migrate-roots crash; "
        "tests that pin the tool surface (a golden tools/list, a byte budget) and fail because the migration "
        "changes inputSchema on purpose are listed \"by design\" per server, with the reason, and not counted.",
        "",
        "| server | version | SDK line | `.list_roots(` in code (grep, upper bound) | sites found (MR1xx) | findings | rewritten "
        "| marked | tools migrated | new errors | mypy before/after | tests before | tests after | e2e | migrate s "
        "| total s |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in report["servers"]:
        name = r["name"] + (" (control)" if r.get("control") else "")
        if r.get("error") and "migrate" not in r:
            lines.append(f"| {name} | {r['version']} | {r.get('sdk', {}).get('line', '?')} | | | | | | | | | | | "
                         f"audit error: {r['error'][:120]} | | {r['seconds']} |")
            continue
        m = r.get("migrate", {})
        tb, ta = _cell_tests(r)
        tc = r.get("typecheck") or {}
        if m.get("crashed"):
            found = rewritten = marked = findings = "crash"
        else:
            found, rewritten, marked, findings = m.get("roots_sites"), m.get("rewritten"), m.get("marked"), m.get(
                "findings")
        lines.append(
            f"| {name} | {r['version']} | {r.get('sdk', {}).get('line', '?')} | {r.get('grep', {}).get('list_roots_calls')}"
            f" | {found} | {findings} | {rewritten} | {marked} | {len(m.get('tools') or [])} | {r.get('new_errors', '?')}{_by_design(r)}"
            f" | {tc.get('before', '?')}/{tc.get('after', '?')} | {tb} | {ta} | {_cell_e2e(r)} | {m.get('seconds', '?')}"
            f" | {r['seconds']} |"
        )
    lines.append("")
    regressions = sorted((AUDIT / "regressions").glob("*.py"))
    if regressions:
        lines += ["Regression fixtures for what this audit found (a \"before\" file each; the comment at its top says "
                  "what goes wrong and how to reproduce):", ""]
        for fixture in regressions:
            head = []
            for raw in fixture.read_text(encoding="utf-8").splitlines():
                if not raw.startswith("#") or raw.strip() == "#":
                    break
                head.append(raw.lstrip("# ").strip())
            first = " ".join(head).removeprefix("Regression: ")
            lines.append(f"- `audit/regressions/{fixture.name}`: {first}")
        lines.append("")
    for r in report["servers"]:
        lines += [f"## {r['name']} {r['version']}", "", f"Why: {r.get('why')}", ""]
        m0 = r.get("migrate") or {}
        if (r.get("grep") or {}).get("list_roots_calls") and m0 and not m0.get("crashed") and not m0.get("roots_sites"):
            lines += [f"**Missed:** grep finds {r['grep']['list_roots_calls']} `.list_roots(` in the code, "
                      "migrate-roots reports no roots site (MR1xx); see audit/regressions/.", ""]
        if r.get("error"):
            lines += [f"Audit error: `{r['error'][:600]}`", ""]
        m = r.get("migrate") or {}
        if m:
            if m.get("crashed"):
                lines += ["migrate-roots crashed:", "", "```", m.get("stderr", "")[-1500:], "```", ""]
            else:
                lines += [f"Findings by code: {m.get('by_code')}; files changed {m.get('files_changed')}, "
                          f"failed {m.get('files_failed')}. Diff: `{r.get('diff')}`.", ""]
                for t in m.get("tools") or []:
                    lines.append(f"- tool `{t['tool']}` gets `{t['parameter']}` ({t['shape']}"
                                 f"{', reused' if t.get('reused_existing') else ''})")
                if m.get("tools"):
                    lines.append("")
        tc = r.get("typecheck") or {}
        if tc.get("new"):
            lines += ["New type-check errors:", ""] + [f"- `{p}` [{c}] {msg}" for p, c, msg in tc["new"]] + [""]
        t = r.get("tests") or {}
        if t.get("new_failures"):
            lines += ["New test failures:", ""] + [f"- `{x}`" for x in t["new_failures"]] + [""]
        if t.get("by_design"):
            lines += ["Failing after migration by design (not counted as new errors; `by_design` in servers.toml):", ""]
            lines += [f"- `{x}`: {why}" for x, why in t["by_design"].items()] + [""]
        e = r.get("e2e") or {}
        if e:
            lines += [f"End to end: {'ok' if e.get('ok') else 'FAIL'}; eras {e.get('eras')}."]
            for p in e.get("problems") or []:
                lines.append(f"- {p}")
            if e.get("modern_roots_failures_unmigrated"):
                lines.append(f"- tools NOT migrated that fail on roots in the modern era: "
                             f"{e['modern_roots_failures_unmigrated']}")
            if e.get("per_tool"):
                lines += ["", "| tool | baseline (legacy, roots) | after legacy-roots | after legacy-noroots + arg "
                          "| after modern (+ arg if migrated) | after modern, no arg |",
                          "| --- | --- | --- | --- | --- | --- |"]
                for tool, o in sorted(e["per_tool"].items()):
                    mark = " (migrated)" if tool in e.get("migrated_tools", {}) else ""
                    lines.append(f"| `{tool}`{mark} | {o.get('baseline')} | {o.get('legacy-roots', '-')} | "
                                 f"{o.get('legacy-noroots', '-')} | {o.get('modern', '-')} | "
                                 f"{o.get('modern-noarg', '-')} |")
            lines.append("")
        lines += [f"Timings (s): {r.get('timings')}", ""]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=Path, default=AUDIT / "servers.toml")
    parser.add_argument("--only", action="append", help="name or name==version; repeatable")
    parser.add_argument("--jobs", type=int, default=1, help="servers audited at once")
    parser.add_argument("--python", default="3.11", help="interpreter for the audit venvs (uv --python)")
    parser.add_argument("--uv", default=str(Path(sys.executable).parent / "uv")
                        if (Path(sys.executable).parent / "uv").exists() else (shutil.which("uv") or "uv"))
    parser.add_argument("--migrate-roots", nargs="+",
                        default=[str(Path(sys.executable).parent / "migrate-roots")]
                        if (Path(sys.executable).parent / "migrate-roots").exists() else ["migrate-roots"])
    parser.add_argument("--reuse-venv", action="store_true", help="keep existing venvs (faster reruns; not fresh)")
    parser.add_argument("--output", type=Path, default=RESULTS)
    parser.add_argument("--render", action="store_true", help="only re-render summary.md from summary.json")
    field = parser.add_argument_group("field check (audit/README.md, \"Field check\")")
    field.add_argument("--repos", type=Path, help="folder of git mirrors or checkouts: runs the field check")
    field.add_argument("--quick", action="store_true", help="field: local sources only; apply, count, compile, "
                       "pyflakes, second apply (no installs, tests or e2e)")
    field.add_argument("--compare", type=Path, metavar="OLD.json", help="field: per-site changes against OLD.json")
    field.add_argument("--new", type=Path, metavar="NEW.json", help="with --compare: compare two files, run nothing")
    field.add_argument("--verdicts", type=Path, default=AUDIT / "field-verdicts.toml", help="field: hand-kept verdicts")
    field.add_argument("--lint", action=argparse.BooleanOptionalAction, default=None,
                       help="field: ruff I/E501 and mypy on the source folders before and after, each project's own "
                       "config (default: on; fieldcheck/lint.py)")
    opts = parser.parse_args(argv)
    if opts.repos or opts.quick or opts.compare:
        from fieldcheck import cli as field_cli

        return field_cli.render_only(opts) if opts.render else field_cli.run_field(opts)
    if opts.render:
        report = json.loads((opts.output / "summary.json").read_text(encoding="utf-8"))
        (opts.output / "summary.md").write_text(render_md(report), encoding="utf-8")
        return 0

    servers = tomllib.loads(opts.servers.read_text(encoding="utf-8"))["server"]
    if opts.only:
        servers = [s for s in servers if s["name"] in opts.only or f"{s['name']}=={s['version']}" in opts.only]
    WORK.mkdir(parents=True, exist_ok=True)
    started = datetime.now(timezone.utc)
    t0 = time.monotonic()
    version = subprocess.run([*opts.migrate_roots, "--version"], capture_output=True, text=True).stdout.strip()
    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        results = list(pool.map(lambda s: audit_server(s, opts), servers))
    report = {
        "started": started.isoformat(timespec="seconds"),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - t0, 1),
        "migrate_roots_version": version,
        "python": opts.python,
        "jobs": opts.jobs,
        "servers": results,
    }
    opts.output.mkdir(parents=True, exist_ok=True)
    (opts.output / "summary.json").write_text(json.dumps(report, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    (opts.output / "summary.md").write_text(render_md(report), encoding="utf-8")
    total_new = sum(r.get("new_errors") or 0 for r in results)
    broken = [r["name"] for r in results if r.get("error") or not (r.get("e2e") or {}).get("ok")]
    log(f"done in {report['seconds']} s: {total_new} new error(s); e2e not ok or audit error: {broken or 'none'}")
    return 1 if total_new or broken else 0


if __name__ == "__main__":
    sys.exit(main())
